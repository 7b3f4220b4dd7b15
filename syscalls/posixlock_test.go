package syscalls

import (
	"math"
	"math/rand"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestRecordLockTableAgainstBytes checks fileLocks' merges and splits
// against a model that keeps each owner's lock byte by byte: after every
// random lock or unlock, each owner covers exactly the model's bytes
// with the model's types, its locks do not overlap, none of them touches
// another of the same type (they would have merged), and a conflict
// query finds a lock exactly when the model has a conflicting byte.
func TestRecordLockTableAgainstBytes(t *testing.T) {
	const size, eof = 128, 127 // bytes 0..127; a lock "to the end" covers up to 127
	owners := []lockOwner{{proc: &Kernel{}}, {proc: &Kernel{}}, {ofd: &openFile{}}}
	rng := rand.New(rand.NewSource(7))
	for round := 0; round < 300; round++ {
		var f fileLocks
		model := make([][size]uint8, len(owners)) // 0 none, 1 read, 2 write
		for step := 0; step < 40; step++ {
			oi := rng.Intn(len(owners))
			start := int64(rng.Intn(100))
			end := start + int64(rng.Intn(20))
			last := end
			if rng.Intn(6) == 0 {
				end, last = math.MaxInt64, eof
			}
			kind := uint8(rng.Intn(3)) // 0 unlock, 1 read, 2 write
			f.set(owners[oi], kind == 0, kind == 2, start, end)
			for b := start; b <= last; b++ {
				model[oi][b] = kind
			}
			for i, o := range owners {
				var got [size]uint8
				var mine []rangeLock
				for _, l := range f.held {
					if l.owner != o {
						continue
					}
					mine = append(mine, l)
					hi := min(l.end, eof)
					for b := l.start; b <= hi; b++ {
						require.Zero(t, got[b], "round %d step %d: owner %d's locks overlap at %d", round, step, i, b)
						got[b] = 1
						if l.write {
							got[b] = 2
						}
					}
				}
				require.Equal(t, model[i], got, "round %d step %d: owner %d", round, step, i)
				for _, a := range mine {
					for _, b := range mine {
						if a != b && a.write == b.write && a.end != math.MaxInt64 {
							require.NotEqual(t, a.end+1, b.start, "round %d step %d: owner %d left touching locks unmerged", round, step, i)
						}
					}
				}
			}
			// A query by a random owner over a random range.
			q := owners[rng.Intn(len(owners))]
			qs := int64(rng.Intn(110))
			qe := qs + int64(rng.Intn(17))
			w := rng.Intn(2) == 0
			want := false
			for i, o := range owners {
				for b := qs; b <= qe && o != q; b++ {
					if model[i][b] == 2 || model[i][b] == 1 && w {
						want = true
					}
				}
			}
			require.Equal(t, want, f.conflict(q, w, qs, qe) != nil, "round %d step %d: a conflict over [%d,%d]", round, step, qs, qe)
		}
	}
}

// TestLockReleaseTimeKept: a file's lock table outlives its last lock,
// with the time of the release, which a process whose F_SETLKW a signal
// interrupted catches up with when it tries again (Python's test_eintr
// test_lockf waited 0.16 s for a lock held 0.2 s when the table went).
func TestLockReleaseTimeKept(t *testing.T) {
	x := workdir(t)
	fd := x.open("f", oRdwr|oCreat, 0o644)
	fl := x.alloc(flockSize)
	require.NoError(t, x.m.WriteBytes(fl, []byte{fWrlck, 0}))
	require.Zero(t, x.call("fcntl", fd, fSetlk, fl))
	require.Len(t, x.k.all.locks, 1)
	x.k.sleep(5e6)
	require.Zero(t, x.call("close", fd))
	require.Len(t, x.k.all.locks, 1, "the table stays")
	for _, f := range x.k.all.locks {
		require.Empty(t, f.held)
		require.Equal(t, x.k.monoNS(), f.freedAt)
	}
}
