package rootfs

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// parseAlternatives on Debian's own postinst scripts (testdata/postinst,
// copied from a Debian system): debhelper's literal commands, a command
// split over lines, --quiet, a negative priority, several alternatives
// in one script; OpenJDK's, built from variables in a loop, expanded;
// queries, removals and non-numeric priorities are not installs.
func TestParseAlternatives(t *testing.T) {
	read := func(name string) []alternative {
		b, err := os.ReadFile(filepath.Join("testdata", "postinst", name))
		require.NoError(t, err)
		return parseAlternatives(string(b), "")
	}
	mawk := read("mawk")
	require.Len(t, mawk, 1)
	assert.Equal(t, alternative{link: "/usr/bin/awk", name: "awk", path: "/usr/bin/mawk", priority: 5, slaves: []slaveLink{
		{"/usr/share/man/man1/awk.1.gz", "awk.1.gz", "/usr/share/man/man1/mawk.1.gz"},
		{"/usr/bin/nawk", "nawk", "/usr/bin/mawk"},
		{"/usr/share/man/man1/nawk.1.gz", "nawk.1.gz", "/usr/share/man/man1/mawk.1.gz"},
	}}, mawk[0])

	ed := read("ed")
	require.Len(t, ed, 1)
	assert.Equal(t, "/bin/ed", ed[0].path)
	assert.Equal(t, -100, ed[0].priority)

	cpp := read("cpp")
	require.Len(t, cpp, 1)
	assert.Equal(t, alternative{link: "/lib/cpp", name: "cpp", path: "/usr/bin/cpp", priority: 10}, cpp[0])

	bash := read("bash") // over five lines, then "|| true"
	require.Len(t, bash, 1)
	assert.Equal(t, alternative{link: "/usr/share/man/man7/builtins.7.gz", name: "builtins.7.gz", path: "/usr/share/man/man7/bash-builtins.7.gz", priority: 10}, bash[0])

	which := read("debianutils") // in a shell function
	require.Len(t, which, 1)
	assert.Equal(t, "/usr/bin/which.debianutils", which[0].path)
	assert.Len(t, which[0].slaves, 8)

	fakeroot := read("fakeroot") // two alternatives of one group
	require.Len(t, fakeroot, 2)
	assert.Equal(t, []string{"/usr/bin/fakeroot-sysv", "/usr/bin/fakeroot-tcp"}, []string{fakeroot[0].path, fakeroot[1].path})
	assert.Equal(t, []int{50, 30}, []int{fakeroot[0].priority, fakeroot[1].priority})

	// Without a root the man page's test is undecided, so its slave is
	// kept; the Japanese one's "if false && ..." is not taken.
	jdk := read("openjdk")
	require.Len(t, jdk, 5)
	base := "/usr/lib/jvm/java-17-openjdk-amd64"
	for k, tool := range []string{"java", "jpackage", "keytool", "rmiregistry"} {
		assert.Equal(t, alternative{link: "/usr/bin/" + tool, name: tool, path: base + "/bin/" + tool, priority: 1711,
			slaves: []slaveLink{{"/usr/share/man/man1/" + tool + ".1.gz", tool + ".1.gz", base + "/man/man1/" + tool + ".1.gz"}}}, jdk[k])
	}
	assert.Equal(t, alternative{link: "/usr/bin/jexec", name: "jexec", path: base + "/lib/jexec", priority: 1711,
		slaves: []slaveLink{{"/usr/share/binfmts/jar", "jexec-binfmt", base + "/lib/jar.binfmt"}}}, jdk[4])

	// In a root that holds keytool's man page only, the others have no slave.
	root := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(root, base[1:], "man/man1"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(root, base[1:], "man/man1/keytool.1.gz"), nil, 0o644))
	b, err := os.ReadFile(filepath.Join("testdata", "postinst", "openjdk"))
	require.NoError(t, err)
	jdk = parseAlternatives(string(b), root)
	require.Len(t, jdk, 5)
	assert.Empty(t, jdk[0].slaves)
	assert.Len(t, jdk[2].slaves, 1)
	assert.Equal(t, "keytool.1.gz", jdk[2].slaves[0].name)

	assert.Empty(t, parseAlternatives("update-alternatives --remove awk /usr/bin/mawk\n", ""))
	assert.Empty(t, parseAlternatives("update-alternatives --install /usr/bin/awk awk /usr/bin/mawk high\n", ""))
}

// applyAlternatives makes the links of the highest-priority alternative
// whose file the root holds, with the slaves whose files exist, through
// /etc/alternatives; a link the root already has is kept; the scripts'
// directory goes.
func TestApplyAlternatives(t *testing.T) {
	root := fakeRoot(t, 243, true)
	dir := filepath.Join(root, postinstDir)
	require.NoError(t, os.MkdirAll(dir, 0o755))
	for _, name := range []string{"mawk", "fakeroot", "ed", "cpp"} {
		b, err := os.ReadFile(filepath.Join("testdata", "postinst", name))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, name+"_1.0_riscv64"), b, 0o644))
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "gawk_5_riscv64"), []byte(
		"update-alternatives --install /usr/bin/awk awk /usr/bin/gawk 10 --slave /usr/bin/nawk nawk /usr/bin/gawk\n"), 0o644))
	for _, f := range []string{"usr/bin/mawk", "usr/bin/gawk", "usr/bin/fakeroot-tcp", "usr/bin/ed", "usr/bin/cpp"} {
		require.NoError(t, os.WriteFile(filepath.Join(root, f), []byte("x"), 0o755))
	}
	require.NoError(t, os.MkdirAll(filepath.Join(root, "usr/lib"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(root, "usr/lib/cpp"), []byte("own"), 0o755)) // /lib/cpp: the root's own

	require.NoError(t, applyAlternatives(root))
	link := func(p string) string {
		s, err := os.Readlink(filepath.Join(root, p))
		require.NoError(t, err, p)
		return s
	}
	assert.Equal(t, "/etc/alternatives/awk", link("usr/bin/awk"))
	assert.Equal(t, "/usr/bin/gawk", link("etc/alternatives/awk"), "gawk's 10 over mawk's 5")
	assert.Equal(t, "/usr/bin/gawk", link("etc/alternatives/nawk"))
	assert.Equal(t, "/usr/bin/fakeroot-tcp", link("etc/alternatives/fakeroot"), "fakeroot-sysv's file is missing")
	assert.Equal(t, "/bin/ed", link("etc/alternatives/editor"), "found through the /bin link")
	assert.Equal(t, "/etc/alternatives/editor", link("usr/bin/editor"))
	_, err := os.Lstat(filepath.Join(root, "etc/alternatives/editor.1.gz"))
	assert.True(t, os.IsNotExist(err), "a slave whose file is missing")
	b, err := os.ReadFile(filepath.Join(root, "usr/lib/cpp"))
	require.NoError(t, err)
	assert.Equal(t, "own", string(b))
	_, err = os.Stat(dir)
	assert.True(t, os.IsNotExist(err))
	assert.NoError(t, applyAlternatives(root), "nothing to do")

	// update-alternatives' database: dpkg's layout, which the host's
	// update-alternatives reads back.
	db, err := os.ReadFile(filepath.Join(root, "var/lib/dpkg/alternatives/awk"))
	require.NoError(t, err)
	assert.Equal(t, "auto\n/usr/bin/awk\n"+
		"awk.1.gz\n/usr/share/man/man1/awk.1.gz\nnawk\n/usr/bin/nawk\nnawk.1.gz\n/usr/share/man/man1/nawk.1.gz\n\n"+
		"/usr/bin/gawk\n10\n\n/usr/bin/gawk\n\n"+
		"/usr/bin/mawk\n5\n/usr/share/man/man1/mawk.1.gz\n/usr/bin/mawk\n/usr/share/man/man1/mawk.1.gz\n\n", string(db))
	ua, err := exec.LookPath("update-alternatives")
	if err != nil {
		t.Log("no update-alternatives on the host: the database is not read back")
		return
	}
	out, err := exec.Command(ua, "--root", root, "--admindir", filepath.Join(root, "var/lib/dpkg/alternatives"),
		"--altdir", filepath.Join(root, "etc/alternatives"), "--query", "awk").CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Contains(t, string(out), "Status: auto\n")
	assert.Contains(t, string(out), "Best: /usr/bin/gawk\n")
	assert.Contains(t, string(out), "Value: /usr/bin/gawk\n")
	assert.Contains(t, string(out), "Alternative: /usr/bin/mawk\nPriority: 5\n")
}
