package test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPostgreSQL runs Debian's PostgreSQL 17 under rvsim, end to end:
// initdb, pg_ctl start (the postmaster a daemon that outlives pg_ctl),
// psql and pgbench as clients of its backends over a Unix socket, and
// pg_ctl stop. It needs System V shared memory (the postmaster's
// interlock segment), prctl's parent-death signal, a daemon's start that
// returns (a process's orphans go to the run's first process), wakes of
// a backend waiting in epoll while the postmaster waits, and new files
// owned by the guest's ids (PostgreSQL refuses to run as root, so a root
// guest sets its ids to 1000 first, and initdb checks that the data
// directory is its own). The root (build/rootfs-postgres) is made once
// by `rvsim rootfs create` and reused.
func TestPostgreSQL(t *testing.T) {
	rvsim := rvsimBinary(t)
	root := postgresRoot(t, rvsim)
	dir := runDir(t, root)
	guest := "/tmp/" + filepath.Base(dir)
	const script = `set -e
B=/usr/lib/postgresql/17/bin
D=$1
$B/initdb -D $D/data -A trust -U postgres --no-sync > $D/initdb.log 2>&1
$B/pg_ctl -D $D/data -l $D/log -o "-k $D -c listen_addresses=''" -w -t 120 start > /dev/null
$B/psql -h $D -U postgres -Atc "create table t(i int primary key, s text); insert into t select g, md5(g::text) from generate_series(1, 2000) g; select count(*), sum(i), count(*) filter (where s like 'a%') from t;"
$B/pgbench -h $D -U postgres -i -s 1 -q postgres > /dev/null 2>&1
$B/pgbench -h $D -U postgres -c 2 -t 20 -n postgres > $D/pgbench.log 2>&1
$B/psql -h $D -U postgres -Atc "select count(*) from pgbench_history; select (select sum(abalance) from pgbench_accounts) = (select sum(delta) from pgbench_history);"
$B/pg_ctl -D $D/data -w -t 120 stop > /dev/null
echo stopped
`
	require.NoError(t, os.WriteFile(filepath.Join(dir, "pg.sh"), []byte(script), 0o755))
	// A root guest takes the ids 1000 first (PostgreSQL refuses root).
	wrapper := `if ($> == 0) { $( = $) = "1000 1000"; $< = $> = 1000 } exec "/bin/sh", @ARGV or die "exec: $!"`
	r := runProcess(t, dir, []string{"LANG=C"}, rvsim, "run", "--root", root,
		filepath.Join(root, "usr/bin/perl"), "-e", wrapper, guest+"/pg.sh", guest)
	if r.Status != 0 || r.Stdout == "" {
		for _, log := range []string{"initdb.log", "log", "pgbench.log"} {
			b, _ := os.ReadFile(filepath.Join(dir, log))
			t.Logf("%s:\n%s", log, b)
		}
	}
	require.Equal(t, 0, r.Status, r.Stderr)
	// 2000 rows, their sum, and the md5 strings that start with "a"
	// (131, counted with Python's hashlib); pgbench's 40 transactions,
	// each recorded, the balances adding up to the history's deltas.
	assert.Equal(t, "CREATE TABLE\nINSERT 0 2000\n2000|2001000|131\n40\nt\nstopped\n", r.Stdout)
	assert.Empty(t, r.Stderr)
	b, err := os.ReadFile(filepath.Join(dir, "pgbench.log"))
	require.NoError(t, err)
	assert.Contains(t, string(b), "number of failed transactions: 0")
}

// postgresRoot makes (or reuses) the root of Debian's PostgreSQL 17 and
// gives it a user for the ids the server will run as.
func postgresRoot(t *testing.T, rvsim string) string {
	t.Helper()
	if _, err := exec.LookPath("mmdebstrap"); err != nil {
		missing(t, "mmdebstrap is missing: run 'make setup'")
	}
	root := filepath.Join(repoRoot, "build", "rootfs-postgres")
	out, err := exec.Command(rvsim, "rootfs", "create", root, "--packages",
		"postgresql-17,postgresql-client-17,dash,perl-base,coreutils").CombinedOutput()
	require.NoError(t, err, "rvsim rootfs create: %s", out)
	uid := os.Geteuid()
	if uid == 0 {
		uid = 1000
	}
	for _, f := range []struct{ name, line string }{
		{"etc/passwd", fmt.Sprintf("pgtest:x:%d:%d:PostgreSQL test:/tmp:/bin/sh\n", uid, uid)},
		{"etc/group", fmt.Sprintf("pgtest:x:%d:\n", uid)},
	} {
		p := filepath.Join(root, f.name)
		b, err := os.ReadFile(p)
		require.NoError(t, err)
		if !strings.Contains(string(b), f.line) {
			require.NoError(t, os.WriteFile(p, append(b, f.line...), 0o644))
		}
	}
	return root
}
