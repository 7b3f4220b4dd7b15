package profhw

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
)

// The consumer sees every record, in order, across batch boundaries, and
// Sync makes its state readable; inline (GOMAXPROCS 1) and on a goroutine.
func TestOffloadOrderAndSync(t *testing.T) {
	for _, procs := range []int{1, 2} {
		prev := runtime.GOMAXPROCS(procs)
		var seen []int
		o := NewOffload(func(b []int) { seen = append(seen, b...) })
		const n = 3*offloadBatch + 17
		for i := range n {
			o.Put(i)
			if i == offloadBatch+5 {
				o.Sync()
				require.Len(t, seen, offloadBatch+6, "procs %d: Sync", procs)
			}
		}
		o.Close()
		o.Close() // idempotent
		require.Len(t, seen, n, "procs %d", procs)
		for i, v := range seen {
			require.Equal(t, i, v, "procs %d: record %d", procs, i)
		}
		runtime.GOMAXPROCS(prev)
	}
}
