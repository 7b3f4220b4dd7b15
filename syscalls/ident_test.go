package syscalls

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// identRun stats files the way a program checking its paths would and
// returns everything the guest saw: the stat, statx and fstat buffers and
// the d_ino of each directory entry, by name.
func identRun(t *testing.T, x *tk) (seen [][]byte, dino map[string]uint64) {
	t.Helper()
	st, stx := x.alloc(statSize), x.alloc(statxSize)
	stat := func(p string) []byte {
		require.Zero(t, x.call("newfstatat", fdcwd, x.str(p), st, atSymlinkNofollow), p)
		return append([]byte(nil), x.peek(st, statSize)...)
	}
	for _, p := range []string{"a", "b", "a", "h", "d", "."} {
		seen = append(seen, stat(p))
	}
	require.Zero(t, x.call("statx", fdcwd, x.str("b"), 0, statxBasicStats, stx))
	seen = append(seen, append([]byte(nil), x.peek(stx, statxSize)...))
	fd := x.open("a", oRdonly, 0)
	require.Zero(t, x.call("fstat", fd, st))
	seen = append(seen, append([]byte(nil), x.peek(st, statSize)...))

	dfd := x.open(".", oRdonly|oDirectory, 0)
	buf := x.alloc(4096)
	n := x.call("getdents64", dfd, buf, 4096)
	require.Greater(t, n, int64(0))
	dino = map[string]uint64{}
	b := x.peek(buf, uint64(n))
	for off := 0; off < len(b); {
		reclen := int(leN(b[off+direntReclenOff:], 2))
		name := string(b[off+direntNameOff : off+reclen])
		dino[name[:strings.IndexByte(name, 0)]] = le64(b[off+direntInoOff:])
		off += reclen
	}
	return seen, dino
}

// identTree makes files a, b (a hard link h of a) and directory d in a
// fresh root, creating extra files first so that the host inode numbers
// differ between calls, with fixed modification times and host access
// times that differ.
func identTree(t *testing.T, extra int) *tk {
	t.Helper()
	var ents []string
	for i := range extra {
		ents = append(ents, "pad"+strings.Repeat("x", i)+"=.")
	}
	x := workdir(t, append(ents, "b=22", "a=1", "d/")...)
	for i := range extra {
		require.NoError(t, os.Remove(filepath.Join(x.root, "pad"+strings.Repeat("x", i))))
	}
	require.NoError(t, os.Link(filepath.Join(x.root, "a"), filepath.Join(x.root, "h")))
	mtime := time.Unix(1704067200, 0)
	for _, p := range []string{"a", "b", "d", "."} {
		atime := time.Now().Add(time.Duration(extra) * time.Hour) // a host atime that varies
		require.NoError(t, os.Chtimes(filepath.Join(x.root, p), atime, mtime))
	}
	return x
}

func TestGuestFileIdentity(t *testing.T) {
	x1 := identTree(t, 0)
	seen1, dino1 := identRun(t, x1)
	var host syscall.Stat_t
	require.NoError(t, syscall.Stat(filepath.Join(x1.root, "a"), &host))
	x2 := identTree(t, 3)
	seen2, dino2 := identRun(t, x2)
	var host2 syscall.Stat_t
	require.NoError(t, syscall.Stat(filepath.Join(x2.root, "a"), &host2))
	require.NotEqual(t, host.Ino, host2.Ino, "the test needs different host inodes")

	require.Equal(t, seen1, seen2, "the guest sees the same identities and times whatever the host's")
	require.Equal(t, dino1, dino2)

	ino := func(b []byte) uint64 { return le64(b[statInoOff:]) }
	a, b, a2, h, d, dot, stx, fa := seen1[0], seen1[1], seen1[2], seen1[3], seen1[4], seen1[5], seen1[6], seen1[7]
	// numbered in the order the guest first observes them
	require.Equal(t, uint64(firstGuestIno), ino(a))
	require.Equal(t, uint64(firstGuestIno+1), ino(b))
	require.Equal(t, ino(a), ino(a2), "a file keeps its inode across stats")
	require.Equal(t, ino(a), ino(h), "hard links share one")
	require.Equal(t, ino(a), ino(fa), "fstat agrees with stat")
	require.Equal(t, ino(b), le64(stx[statxInoOff:]), "statx agrees with stat")
	require.Equal(t, uint64(firstGuestIno+2), ino(d))
	require.Equal(t, uint64(firstGuestIno+3), ino(dot))
	require.Equal(t, makedev(8, 0), le64(a[statDevOff:]), "the first host device")
	require.Equal(t, uint64(8), leN(stx[statxDevMajorOff:], 4))
	require.Equal(t, map[string]uint64{".": ino(dot), "..": dino1[".."], "a": ino(a), "b": ino(b), "d": ino(d), "h": ino(a)}, dino1)
	require.Equal(t, ino(dot), dino1[".."], "the root is its own parent")

	// access and change times are the modification time
	for _, s := range [][]byte{a, b, d, dot} {
		require.Equal(t, uint64(1704067200), le64(s[statMtimeOff:]))
		require.Equal(t, s[statMtimeOff:statMtimeOff+16], s[statAtimeOff:statAtimeOff+16])
		require.Equal(t, s[statMtimeOff:statMtimeOff+16], s[statCtimeOff:statCtimeOff+16])
	}
	require.Equal(t, uint64(1704067200), le64(stx[statxCtimeOff:]))
	require.Equal(t, uint64(1704067200), le64(stx[statxAtimeOff:]))
}

// A file the guest writes gets its modification time from the simulated
// clock, which moves when it writes again, not from the host's.
func TestGuestWrittenMtime(t *testing.T) {
	x := workdir(t, "old=1")
	require.NoError(t, os.Chtimes(filepath.Join(x.root, "old"), time.Unix(epochSec, 0), time.Unix(epochSec, 0)))
	st := x.alloc(statSize)
	mtime := func(p string) timespec {
		require.Zero(t, x.call("newfstatat", fdcwd, x.str(p), st, 0), p)
		return timespec{int64(x.u64(st + statMtimeOff)), int64(x.u64(st + statMtimeNsecOff))}
	}
	simNow := func() timespec {
		ns, _ := x.k.now(clockRealtime)
		return nsToTimespec(ns)
	}
	require.Equal(t, timespec{epochSec, 0}, mtime("old"), "older than the run: the host's")

	x.k.instret += 5000
	fd := x.open("new", oWronly|oCreat, 0o644)
	require.Equal(t, int64(1), x.call("write", fd, x.str("a"), 1))
	first := simNow()
	require.Equal(t, first, mtime("new"), "the simulated time when the guest saw the write")
	x.k.instret += 5000
	require.Equal(t, first, mtime("new"), "unchanged without a write")
	require.True(t, first.sec*1e9+first.nsec > epochSec*1e9, "later than the files it was made from")

	time.Sleep(20 * time.Millisecond) // past the host's timestamp tick
	require.Equal(t, int64(1), x.call("write", fd, x.str("b"), 1))
	x.k.instret += 5000
	second := simNow()
	require.NotEqual(t, first, second)
	require.Equal(t, second, mtime("new"), "a new write moves it")
	require.Equal(t, second, mtime("."), "and the directory it was created in was first seen then")

	// Linux stamps files from its coarse clock, which lags time.Now: a
	// file made in the run's first tick is still the run's.
	fresh := filepath.Join(x.root, "fresh")
	require.NoError(t, os.WriteFile(fresh, nil, 0o644))
	at := time.Unix(0, x.k.fileEpoch)
	require.NoError(t, os.Chtimes(fresh, at, at))
	require.Equal(t, simNow(), mtime("fresh"), "stamped at the run's start: the simulated time")
}
