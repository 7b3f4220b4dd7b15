package syscalls

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The sandbox against a racing host: while one goroutine swaps a
// directory inside the writable directory with a symbolic link (to a
// directory outside the root, or to a read-only one inside it), the
// kernel modifies a file through that path with each kind of call. The
// check and the operation must be one step on one object, so nothing
// outside --allow-write may change (issue 19).

// Sentinels records the state of every file and directory below some
// host directories: mode, owner, size, mtime and a content hash, and each
// directory's entries.
type sentinels map[string]string

func snapshotTree(t testing.TB, dirs ...string) sentinels {
	t.Helper()
	s := sentinels{}
	for _, d := range dirs {
		err := filepath.WalkDir(d, func(p string, de fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			var st syscall.Stat_t
			if err := syscall.Lstat(p, &st); err != nil {
				return err
			}
			desc := fmt.Sprintf("mode=%o uid=%d gid=%d size=%d mtime=%d.%09d", st.Mode, st.Uid, st.Gid, st.Size, st.Mtim.Sec, st.Mtim.Nsec)
			switch {
			case de.Type().IsRegular():
				b, err := os.ReadFile(p)
				if err != nil {
					return err
				}
				desc += fmt.Sprintf(" sha256=%x", sha256.Sum256(b))
			case de.IsDir():
				ents, err := os.ReadDir(p)
				if err != nil {
					return err
				}
				var names []string
				for _, e := range ents {
					names = append(names, e.Name())
				}
				sort.Strings(names)
				desc += " entries=" + strings.Join(names, ",")
			}
			s[p] = desc
			return nil
		})
		require.NoError(t, err)
	}
	return s
}

// requireUnchanged fails with every difference between two snapshots.
func requireUnchanged(t testing.TB, before, after sentinels) {
	t.Helper()
	var diffs []string
	for p, b := range before {
		if a, ok := after[p]; !ok {
			diffs = append(diffs, p+": removed")
		} else if a != b {
			diffs = append(diffs, fmt.Sprintf("%s:\n  before %s\n  after  %s", p, b, a))
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			diffs = append(diffs, p+": created")
		}
	}
	sort.Strings(diffs)
	require.Empty(t, diffs, "files outside --allow-write changed:\n%s", strings.Join(diffs, "\n"))
}

// raceTree builds <tmp>/outside (a sentinel tree outside the root), the
// root <tmp>/J with J/ro (inside the root, not writable) and J/w (the
// writable directory) holding the real directory d and the symbolic links
// the swapper puts in its place. It returns the root and the sentinel
// directories.
func raceTree(t testing.TB) (root string, sentinelDirs []string) {
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	outside := filepath.Join(tmp, "outside")
	root = filepath.Join(tmp, "J")
	for _, d := range []string{outside, filepath.Join(root, "ro"), filepath.Join(root, "w", "d")} {
		require.NoError(t, os.MkdirAll(d, 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(d, "f"), []byte("sentinel "+d+"\n"), 0o644))
		require.NoError(t, os.Mkdir(filepath.Join(d, "sub"), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(d, "sub", "g"), []byte("deeper\n"), 0o644))
	}
	w := filepath.Join(root, "w")
	for name, target := range map[string]string{
		"abs-out": outside,         // an absolute host path outside the root
		"rel-out": "../../outside", // climbs out of the root on the host
		"abs-ro":  "/ro",           // the guest's /ro (the host's / for a host lookup)
		"rel-ro":  "../ro",         // inside the root, not writable
		"host-ro": filepath.Join(root, "ro"),
	} {
		require.NoError(t, os.Symlink(target, filepath.Join(w, "lnk-"+name)))
	}
	return root, []string{outside, filepath.Join(root, "ro")}
}

// swapLinks is the names of the links raceTree makes.
var swapLinks = []string{"lnk-abs-out", "lnk-rel-out", "lnk-abs-ro", "lnk-rel-ro", "lnk-host-ro"}

// hostSwapper swaps J/w/d with each link in turn until stop is closed
// and returns the number of swaps (renames that changed what d is).
func hostSwapper(w string, stop <-chan struct{}, swaps *atomic.Int64) {
	d, real := filepath.Join(w, "d"), filepath.Join(w, "d.real")
	for i := 0; ; i++ {
		select {
		case <-stop:
			return
		default:
		}
		lnk := filepath.Join(w, swapLinks[i%len(swapLinks)])
		if os.Rename(d, real) == nil && os.Rename(lnk, d) == nil {
			swaps.Add(1)
			runtime_Gosched()
			if os.Rename(d, lnk) == nil && os.Rename(real, d) == nil {
				swaps.Add(1)
			}
		}
	}
}

// raceOps are the modifying calls made through /w/d while it is swapped:
// each is a function of the kernel under test and the iteration.
func raceOps(x *tk) map[string]func() {
	f := x.str("/w/d/f")
	sub := x.str("/w/d/sub")
	g := x.str("/w/d/sub/g")
	newf := x.str("/w/d/new")
	newd := x.str("/w/d/newdir")
	hl := x.str("/w/d/hardlink")
	data := x.data([]byte("appended by the guest\n"))
	times := x.u64s(1e9, 0, 2e9, 0)
	etc, d, rel := x.str("/etc"), x.str("/w/d"), x.str("f")
	fd := func(v int64) uint64 { return uint64(v) }
	closeIf := func(v int64) {
		if v >= 0 {
			x.call("close", uint64(v))
		}
	}
	return map[string]func(){
		"open-append-write": func() {
			v := x.call("openat", fdcwd, f, oWronly|oAppend)
			if v >= 0 {
				x.call("write", fd(v), data, 22)
			}
			closeIf(v)
		},
		"open-trunc": func() { closeIf(x.call("openat", fdcwd, f, oWronly|oTrunc)) },
		"open-rdwr":  func() { v := x.call("openat", fdcwd, g, oRdwr); closeIf(v) },
		"open-creat": func() {
			closeIf(x.call("openat", fdcwd, newf, oWronly|oCreat, 0o644))
			x.call("unlinkat", fdcwd, newf, 0)
		},
		"fchmodat":          func() { x.call("fchmodat", fdcwd, f, 0o606) },
		"fchmodat-dir":      func() { x.call("fchmodat", fdcwd, sub, 0o700) },
		"truncate":          func() { x.call("truncate", f, 1) },
		"fchownat":          func() { x.call("fchownat", fdcwd, f, 4321, 4321, 0) },
		"fchownat-nofollow": func() { x.call("fchownat", fdcwd, g, 4321, 4321, atSymlinkNofollow) },
		"utimensat":         func() { x.call("utimensat", fdcwd, f, times, 0) },
		"utimensat-now":     func() { x.call("utimensat", fdcwd, g, 0, 0) },
		"mkdirat":           func() { x.call("mkdirat", fdcwd, newd, 0o755); x.call("unlinkat", fdcwd, newd, atRemovedir) },
		"symlinkat":         func() { x.call("symlinkat", etc, fdcwd, newf); x.call("unlinkat", fdcwd, newf, 0) },
		"linkat":            func() { x.call("linkat", fdcwd, f, fdcwd, hl, 0); x.call("unlinkat", fdcwd, hl, 0) },
		"renameat2":         func() { x.call("renameat2", fdcwd, g, fdcwd, newf, 0); x.call("renameat2", fdcwd, newf, fdcwd, g, 0) },
		"unlinkat":          func() { x.call("unlinkat", fdcwd, g, 0) },
		"ftruncate-via-open": func() {
			v := x.call("openat", fdcwd, f, oRdwr)
			if v >= 0 {
				x.call("ftruncate", fd(v), 0)
				x.call("fchmod", fd(v), 0o666)
				x.call("fchown", fd(v), 1234, 1234)
				x.call("utimensat", fd(v), 0, times, 0)
			}
			closeIf(v)
		},
		"dirfd": func() {
			v := x.call("openat", fdcwd, d, oRdonly|oDirectory)
			if v >= 0 {
				x.call("fchmodat", fd(v), rel, 0o604)
				closeIf(x.call("openat", fd(v), rel, oWronly|oAppend))
				x.call("utimensat", fd(v), 0, times, 0)
			}
			closeIf(v)
		},
	}
}

// runtime_Gosched gives the other goroutine a chance between the two
// halves of a swap.
func runtime_Gosched() { time.Sleep(0) }

func TestSandboxHoldsAgainstRacingSwaps(t *testing.T) {
	if testing.Short() {
		t.Skip("races for a few seconds")
	}
	root, sent := raceTree(t)
	before := snapshotTree(t, sent...)
	x := newTK(t, Config{Root: root, AllowWrite: []string{filepath.Join(root, "w")}})
	ops := raceOps(x)
	var names []string
	for n := range ops {
		names = append(names, n)
	}
	sort.Strings(names)
	stop := make(chan struct{})
	var swaps atomic.Int64
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); hostSwapper(filepath.Join(root, "w"), stop, &swaps) }()
	const perOp = 150 * time.Millisecond
	calls := 0
	for _, n := range names {
		deadline := time.Now().Add(perOp)
		for time.Now().Before(deadline) {
			ops[n]()
			calls++
		}
	}
	close(stop)
	wg.Wait()
	t.Logf("%d swaps, %d operations", swaps.Load(), calls)
	require.Greater(t, swaps.Load(), int64(1000), "the swapper hardly ran")
	requireUnchanged(t, before, snapshotTree(t, sent...))
}

// A directory descriptor is the directory, not its name: after a rename
// lookups through it still find the directory's files, and what is
// created through it (or through a working directory set by fchdir)
// lands in it, not in a new directory of the old name (issue 19).
func TestDirfdFollowsRenamedDirectory(t *testing.T) {
	root := t.TempDir()
	tree(t, root, "w/dA/f=in dA")
	x := newTK(t, Config{Root: root, AllowWrite: []string{filepath.Join(root, "w")}})
	dirfd := uint64(x.call("openat", fdcwd, x.str("/w/dA"), oRdonly|oDirectory))
	require.GreaterOrEqual(t, int64(dirfd), int64(3))
	cwdfd := uint64(x.call("openat", fdcwd, x.str("/w/dA"), oPath|oDirectory))
	require.GreaterOrEqual(t, int64(cwdfd), int64(3))
	require.Equal(t, int64(0), x.call("renameat2", fdcwd, x.str("/w/dA"), fdcwd, x.str("/w/dB"), 0))

	fd := x.call("openat", dirfd, x.str("f"), oRdonly)
	require.GreaterOrEqual(t, fd, int64(3), "openat(old dirfd, f) after the rename")
	require.Equal(t, "in dA", x.readAll(uint64(fd)))

	require.Equal(t, int64(0), x.call("mkdirat", fdcwd, x.str("/w/dA"), 0o755))
	fd = x.call("openat", dirfd, x.str("made-through-dirfd"), oWronly|oCreat, 0o644)
	require.GreaterOrEqual(t, fd, int64(3))
	require.FileExists(t, filepath.Join(root, "w/dB/made-through-dirfd"))
	require.NoFileExists(t, filepath.Join(root, "w/dA/made-through-dirfd"))
	require.Equal(t, int64(0), x.call("mkdirat", dirfd, x.str("sub"), 0o755))
	require.DirExists(t, filepath.Join(root, "w/dB/sub"))
	require.Equal(t, int64(0), x.call("fchmodat", dirfd, x.str("f"), 0o600))
	fi, err := os.Stat(filepath.Join(root, "w/dB/f"))
	require.NoError(t, err)
	require.Equal(t, fs.FileMode(0o600), fi.Mode().Perm())

	// fchdir through an O_PATH descriptor opened before the rename
	require.Equal(t, int64(0), x.call("fchdir", cwdfd))
	fd = x.call("openat", fdcwd, x.str("made-in-cwd"), oWronly|oCreat, 0o644)
	require.GreaterOrEqual(t, fd, int64(3))
	require.FileExists(t, filepath.Join(root, "w/dB/made-in-cwd"))
	require.NoFileExists(t, filepath.Join(root, "w/dA/made-in-cwd"))
	buf := x.alloc(256)
	n := x.call("getcwd", buf, 256)
	require.Equal(t, int64(len("/w/dB")+1), n)
	require.Equal(t, "/w/dB\x00", string(x.peek(buf, uint64(n))))

	// the working directory itself is an object too: renamed away, it stays
	require.Equal(t, int64(0), x.call("renameat2", fdcwd, x.str("/w/dB"), fdcwd, x.str("/w/dC"), 0))
	fd = x.call("openat", fdcwd, x.str("f"), oRdonly)
	require.GreaterOrEqual(t, fd, int64(3), "open(f) in the renamed working directory")
	require.Equal(t, int64(0), x.call("chdir", x.str("..")))
	n = x.call("getcwd", buf, 256)
	require.Equal(t, "/w\x00", string(x.peek(buf, uint64(n))))
}
