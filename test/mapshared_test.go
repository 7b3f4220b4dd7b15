package test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMapSharedMatchesQemu: test/programs/linux/mapshared writes a file
// through a writable MAP_SHARED mapping and reads it back with read(),
// after msync and munmap, and through a second mapping; then it checks
// that read(), write(), pwrite(), copy_file_range() and ftruncate() of a
// file mapped shared see and are seen by the mappings at once (a forked
// child's write too), and that a new mapping of another part of the file
// (or one grown by mremap) shows the file: qemu-riscv64's output, static
// and dynamic.
func TestMapSharedMatchesQemu(t *testing.T) {
	rvsim := rvsimBinary(t)
	qemu := needQemu(t)
	sysroot := needSysroot(t)
	for _, variant := range []string{"linux", "linux-dyn"} {
		prog := linuxProg(t, variant, "mapshared")
		rd, qd := t.TempDir(), t.TempDir()
		r := runProcess(t, rd, nil, rvsim, "run", prog, "m.dat")
		q := runProcess(t, qd, nil, qemu, "-L", sysroot, prog, "m.dat")
		assert.Equal(t, q, r, variant)
		assert.Equal(t, 0, r.Status, variant)
		assert.Equal(t, 19, strings.Count(r.Stdout, "ok  "), variant)
		assert.Empty(t, failLines(r.Stdout), variant)
	}
}

// TestSQLiteWALMmap runs Debian's sqlite3 in WAL mode with memory-mapped
// I/O: it maps the database and its WAL index (the -shm file) shared and
// also reads and writes both with pread and pwrite, so a mapping that
// did not see a write(), or a read() that did not see a store, corrupts
// the database ("database disk image is malformed", as before the page
// cache's coherence). The output must be qemu-riscv64's.
func TestSQLiteWALMmap(t *testing.T) {
	rvsim := rvsimBinary(t)
	qemu := needQemu(t)
	root, sqlite := debianRoot(t, "usr/bin/sqlite3")
	script := `PRAGMA journal_mode=WAL;
PRAGMA mmap_size=1000000;
CREATE TABLE t(a INTEGER, b TEXT);
WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x<20000) INSERT INTO t SELECT x, printf('%08x', x*2654435761 % 4294967296) FROM c;
UPDATE t SET b = 'u' || a WHERE a % 7 = 0;
SELECT count(*), sum(a), count(DISTINCT b) FROM t WHERE b LIKE 'u%';
PRAGMA wal_checkpoint;
SELECT count(*), sum(length(b)) FROM t;
PRAGMA integrity_check;
`
	run := func(name string, args ...string) procResult {
		dir := runDir(t, root)
		require.NoError(t, os.WriteFile(filepath.Join(dir, "t.sql"), []byte(script), 0o644))
		return runProcess(t, dir, []string{}, name, append(args, "-init", "/dev/null", "db.sqlite", ".read t.sql")...)
	}
	q := run(qemu, "-L", root, sqlite)
	require.Equal(t, 0, q.Status, q.Stderr)
	require.Contains(t, q.Stdout, "2857|28578571|2857")
	r := run(rvsim, "run", "--root", root, sqlite)
	assert.Equal(t, q, r)
}
