package syscalls

import (
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

	"github.com/rvsim/rvsim/internal/fsrace"
	"github.com/stretchr/testify/require"
)

// The sandbox against a racing host: while one goroutine swaps a
// directory inside the writable directory with a symbolic link (to a
// directory outside the root, or to a read-only one inside it), the
// kernel modifies a file through that path with each kind of call. The
// check and the operation must be one step on one object, so nothing
// outside --allow-write may change (issue 19).

// raceFixture builds the race fixture (internal/fsrace) in a temporary
// directory.
func raceFixture(t testing.TB) fsrace.Tree {
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	tr, err := fsrace.Make(tmp)
	require.NoError(t, err)
	return tr
}

// sentinels snapshots the fixture's sentinel trees.
func sentinels(t testing.TB, tr fsrace.Tree) map[string]string {
	t.Helper()
	s, err := tr.Snapshot()
	require.NoError(t, err)
	return s
}

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
		lnk := filepath.Join(w, fsrace.Links[i%len(fsrace.Links)])
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
	tr := raceFixture(t)
	before := sentinels(t, tr)
	x := newTK(t, Config{Root: tr.Root, AllowWrite: []string{tr.W}})
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
	go func() { defer wg.Done(); hostSwapper(tr.W, stop, &swaps) }()
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
	diffs := fsrace.Diff(before, sentinels(t, tr))
	require.Empty(t, diffs, "files outside --allow-write changed:\n%s", strings.Join(diffs, "\n"))
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

// TestSandboxSwapAfterLookup: every kind of modifying call through /w/d
// while /w/d is each of the links (to a directory outside the root, or
// inside it but not writable, by absolute and relative targets) is
// refused or finds nothing; and with /w/d swapped for each link right
// after the call's lookup, where a check on names would leave its window
// (the test hook runs there), the call still acts on the directory it
// looked up (it succeeds, and the change is found in that directory, now
// named d.real). Either way nothing outside --allow-write changes.
func TestSandboxSwapAfterLookup(t *testing.T) {
	type row struct {
		desc   string
		call   func(x *tk) int64
		landed func(t *testing.T, real string) // what the call did to the looked-up directory
	}
	times := func(x *tk) uint64 { return x.u64s(1e9, 0, 2e9, 0) }
	mode := func(t *testing.T, p string, want fs.FileMode) {
		fi, err := os.Lstat(p)
		require.NoError(t, err)
		require.Equal(t, want, fi.Mode().Perm())
	}
	size := func(t *testing.T, p string, want int64) {
		fi, err := os.Lstat(p)
		require.NoError(t, err)
		require.Equal(t, want, fi.Size())
	}
	mtime := func(t *testing.T, p string, want int64) {
		fi, err := os.Lstat(p)
		require.NoError(t, err)
		require.Equal(t, want, fi.ModTime().Unix())
	}
	owner := func(t *testing.T, p string) {
		var st syscall.Stat_t
		require.NoError(t, syscall.Lstat(p, &st))
		require.Equal(t, uint32(4321), st.Gid)
	}
	rows := []row{
		{"open O_APPEND and write", func(x *tk) int64 {
			fd := x.call("openat", fdcwd, x.str("/w/d/f"), oWronly|oAppend)
			if fd < 0 {
				return fd
			}
			return x.call("write", uint64(fd), x.data([]byte("0123456789")), 10)
		}, func(t *testing.T, real string) {
			b, err := os.ReadFile(real + "/f")
			require.NoError(t, err)
			require.True(t, strings.HasSuffix(string(b), "\n0123456789"), "%q", b)
		}},
		{"open O_TRUNC", func(x *tk) int64 { return x.call("openat", fdcwd, x.str("/w/d/f"), oWronly|oTrunc) },
			func(t *testing.T, real string) { size(t, real+"/f", 0) }},
		{"open O_CREAT", func(x *tk) int64 { return x.call("openat", fdcwd, x.str("/w/d/new"), oWronly|oCreat, 0o600) },
			func(t *testing.T, real string) { require.FileExists(t, real+"/new") }},
		{"fchmodat", func(x *tk) int64 { return x.call("fchmodat", fdcwd, x.str("/w/d/f"), 0o606) },
			func(t *testing.T, real string) { mode(t, real+"/f", 0o606) }},
		{"fchownat", func(x *tk) int64 { return x.call("fchownat", fdcwd, x.str("/w/d/f"), neg(-1), 4321, 0) },
			func(t *testing.T, real string) { owner(t, real+"/f") }},
		{"fchownat AT_SYMLINK_NOFOLLOW", func(x *tk) int64 {
			return x.call("fchownat", fdcwd, x.str("/w/d/sub/g"), neg(-1), 4321, atSymlinkNofollow)
		}, func(t *testing.T, real string) { owner(t, real+"/sub/g") }},
		{"utimensat", func(x *tk) int64 { return x.call("utimensat", fdcwd, x.str("/w/d/f"), times(x), 0) },
			func(t *testing.T, real string) { mtime(t, real+"/f", 2e9) }},
		{"truncate", func(x *tk) int64 { return x.call("truncate", x.str("/w/d/f"), 3) },
			func(t *testing.T, real string) { size(t, real+"/f", 3) }},
		{"mkdirat", func(x *tk) int64 { return x.call("mkdirat", fdcwd, x.str("/w/d/newdir"), 0o755) },
			func(t *testing.T, real string) { require.DirExists(t, real+"/newdir") }},
		{"symlinkat", func(x *tk) int64 { return x.call("symlinkat", x.str("/etc"), fdcwd, x.str("/w/d/sl")) },
			func(t *testing.T, real string) { _, err := os.Readlink(real + "/sl"); require.NoError(t, err) }},
		{"unlinkat", func(x *tk) int64 { return x.call("unlinkat", fdcwd, x.str("/w/d/sub/g"), 0) },
			func(t *testing.T, real string) { require.NoFileExists(t, real+"/sub/g") }},
		{"unlinkat AT_REMOVEDIR", func(x *tk) int64 {
			require.NoError(t, os.Remove(filepath.Join(x.root, "w/d/sub/g")))
			return x.call("unlinkat", fdcwd, x.str("/w/d/sub"), atRemovedir)
		}, func(t *testing.T, real string) { require.NoDirExists(t, real+"/sub") }},
		{"renameat2", func(x *tk) int64 { return x.call("renameat2", fdcwd, x.str("/w/d/f"), fdcwd, x.str("/w/f2"), 0) },
			func(t *testing.T, real string) { require.NoFileExists(t, real+"/f") }},
		{"linkat", func(x *tk) int64 { return x.call("linkat", fdcwd, x.str("/w/d/f"), fdcwd, x.str("/w/hl"), 0) },
			func(t *testing.T, real string) {
				a, err := os.Stat(real + "/f")
				require.NoError(t, err)
				b, err := os.Stat(filepath.Dir(real) + "/hl")
				require.NoError(t, err)
				require.True(t, os.SameFile(a, b), "the link is to the looked-up f")
			}},
	}
	// The link in place before the call: refused (inside the root) or not
	// found (outside it), and nothing changes.
	for _, lnk := range fsrace.Links {
		for _, r := range rows {
			if r.desc == "unlinkat AT_REMOVEDIR" {
				continue // its host-side setup would go through the link
			}
			t.Run("linked/"+lnk+"/"+r.desc, func(t *testing.T) {
				tr := raceFixture(t)
				require.NoError(t, os.Rename(filepath.Join(tr.W, "d"), filepath.Join(tr.W, "d.real")))
				require.NoError(t, os.Rename(filepath.Join(tr.W, lnk), filepath.Join(tr.W, "d")))
				before := sentinels(t, tr)
				x := newTK(t, Config{Root: tr.Root, AllowWrite: []string{tr.W}})
				got := r.call(x)
				want := []int64{errno(EACCES)}
				if strings.HasSuffix(lnk, "-out") || lnk == "lnk-host-ro" {
					want = []int64{errno(ENOENT)} // not in the guest's file system
				}
				require.Contains(t, want, got)
				diffs := fsrace.Diff(before, sentinels(t, tr))
				require.Empty(t, diffs, "files outside --allow-write changed:\n%s", strings.Join(diffs, "\n"))
			})
		}
	}
	for _, lnk := range fsrace.Links {
		for _, r := range rows {
			t.Run("swapped/"+lnk+"/"+r.desc, func(t *testing.T) {
				tr := raceFixture(t)
				before := sentinels(t, tr)
				x := newTK(t, Config{Root: tr.Root, AllowWrite: []string{tr.W}})
				swapped := false
				testHookResolved = func() {
					if swapped {
						return
					}
					swapped = true
					require.NoError(t, os.Rename(filepath.Join(tr.W, "d"), filepath.Join(tr.W, "d.real")))
					require.NoError(t, os.Rename(filepath.Join(tr.W, lnk), filepath.Join(tr.W, "d")))
				}
				defer func() { testHookResolved = nil }()
				got := r.call(x)
				testHookResolved = nil
				require.True(t, swapped)
				require.GreaterOrEqual(t, got, int64(0), "the call on the looked-up directory")
				r.landed(t, filepath.Join(tr.W, "d.real"))
				diffs := fsrace.Diff(before, sentinels(t, tr))
				require.Empty(t, diffs, "files outside --allow-write changed:\n%s", strings.Join(diffs, "\n"))
			})
		}
	}
}

// Lookups hold host descriptors only while a call runs: a long run of
// every kind of call (through links, "..", dirfds, failing and refused
// calls, and races) leaves the process with as many as before.
func TestSandboxLeaksNoDescriptors(t *testing.T) {
	count := func() int {
		ents, err := os.ReadDir("/proc/self/fd")
		require.NoError(t, err)
		return len(ents)
	}
	tr := raceFixture(t)
	x := newTK(t, Config{Root: tr.Root, AllowWrite: []string{tr.W}})
	ops := raceOps(x)
	stat := x.alloc(256)
	paths := []uint64{x.str("/w/lnk-rel-ro/f"), x.str("/w/d/../d/./sub/../f"), x.str("/w/nope/f"), x.str("/w/d/f/x"), x.str("/../../w/d/")}
	for _, op := range ops { // warm up: the Go runtime's own descriptors
		op()
	}
	before := count()
	for range 20 {
		for _, op := range ops {
			op()
		}
		for _, p := range paths {
			x.call("newfstatat", fdcwd, p, stat, 0)
			x.call("fchmodat", fdcwd, p, 0o644)
			x.call("readlinkat", fdcwd, p, stat, 256)
			x.call("chdir", p)
		}
		x.call("chdir", x.str("/w/d"))
		x.call("chdir", x.str("/"))
	}
	require.Equal(t, before, count(), "host descriptors held after the calls")
}
