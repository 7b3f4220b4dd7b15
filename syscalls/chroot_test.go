package syscalls

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestChroot: a chroot below the run's root (ksys_chroot, fs/open.c).
// Absolute paths and ".." stop at the new root; the working directory it
// left outside climbs as on Linux, but no higher than the run's root (the
// sandbox's clamp: a file beside the run's root stays out of reach);
// getcwd says "(unreachable)"; the root's ".." entry is its real parent;
// the sysroot follows the root when it lies below it; and the refusals.
func TestChroot(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	run := filepath.Join(dir, "run")
	tree(t, dir, "secret=beside the run's root",
		"run/top=the run's root", "run/jail/in=in the jail", "run/jail/sys/lib/ld=loader",
		"run/jail/abs -> /in", "run/jail/climb -> ../../../../../top")
	t.Chdir(run)
	x := newTK(t, Config{Root: run, Sysroot: filepath.Join(run, "jail", "sys")})
	x.setRoot(true)
	read := func(p string) string {
		fd := x.call("openat", fdcwd, x.str(p), oRdonly, 0)
		if fd < 0 {
			return Errno(-fd).Error()
		}
		return x.readAll(uint64(fd))
	}
	buf := x.alloc(256)
	getcwd := func() string {
		n := x.call("getcwd", buf, 256)
		require.Positive(t, n)
		return strings.TrimSuffix(string(x.peek(buf, uint64(n))), "\x00")
	}
	enoent := ENOENT.Error()

	require.Equal(t, "loader", read("/lib/ld"), "through the sysroot")
	st := x.alloc(statSize)
	require.Zero(t, x.call("newfstatat", fdcwd, x.str("/"), st, 0))
	runIno := x.u64(st + statInoOff)
	require.Equal(t, errno(ENOTDIR), x.call("chroot", x.str("top")))
	require.Equal(t, errno(ENOENT), x.call("chroot", x.str("none")))
	x.setRoot(false)
	require.Equal(t, errno(EPERM), x.call("chroot", x.str("jail")))
	x.setRoot(true)
	require.Zero(t, x.call("chroot", x.str("jail")))

	require.Equal(t, "(unreachable)/", getcwd(), "the working directory stayed outside")
	require.Equal(t, "the run's root", read("top"), "the old working directory reaches the old tree")
	require.Equal(t, enoent, read("../secret"), "but climbs no higher than the run's root")
	require.Equal(t, "the run's root", read("../../top"))
	require.Equal(t, "in the jail", read("/in"))
	require.Equal(t, enoent, read("/top"))
	require.Equal(t, "in the jail", read("/../../in"))
	require.Equal(t, "in the jail", read("/abs"))
	require.Equal(t, enoent, read("/climb"))
	link := x.alloc(64)
	rl := x.call("readlinkat", fdcwd, x.str("/proc/self/root"), link, 64)
	require.Equal(t, "/", string(x.peek(link, uint64(max(rl, 0)))), "the process's own root, from itself")
	require.Zero(t, x.call("newfstatat", fdcwd, x.str("/proc/self/root"), st, 0))
	jailIno := x.u64(st + statInoOff)
	require.Zero(t, x.call("newfstatat", fdcwd, x.str("/"), st, 0))
	require.Equal(t, x.u64(st+statInoOff), jailIno, "/proc/self/root is the new root")
	require.NotEqual(t, runIno, jailIno)
	require.Equal(t, "in the jail", read("/proc/self/root/in"))
	require.Equal(t, "loader", read("/lib/ld"), "the sysroot, below the new root, stays")

	require.Zero(t, x.call("chdir", x.str("/")))
	require.Equal(t, "/", getcwd())
	require.Equal(t, "in the jail", read("../in"))
	d := x.open("/", oRdonly|oDirectory, 0)
	n := x.call("getdents64", d, buf, 256)
	require.Positive(t, n)
	var dotdot uint64
	for b := x.peek(buf, uint64(n)); len(b) > 0; b = b[leN(b[direntReclenOff:], 2):] {
		if name, _, _ := strings.Cut(string(b[direntNameOff:]), "\x00"); name == ".." {
			dotdot = le64(b)
		}
	}
	require.Equal(t, runIno, dotdot, "the root's \"..\" is its real parent")

	require.Zero(t, x.call("chroot", x.str("sys")))
	require.Equal(t, "(unreachable)/jail", getcwd())
	require.Equal(t, "loader", read("/lib/ld"))
	require.Equal(t, enoent, read("/in"))
	require.NoError(t, os.Rename(filepath.Join(run, "jail", "sys"), filepath.Join(run, "jail", "moved")))
	require.Equal(t, "loader", read("/lib/ld"), "the root is a directory, not a name")
	require.Zero(t, x.call("chdir", x.str("/lib")))
	require.Equal(t, "/lib", getcwd(), "the renamed root's own paths")
}
