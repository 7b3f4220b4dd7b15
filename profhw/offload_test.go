package profhw

import (
	"math/rand/v2"
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

// A Pipe whose consumer sleeps between kicks loses no batch and never
// deadlocks: batches of random sizes, Syncs at random points (with the
// consumer asleep or behind), a slow consumer, and Close with batches in
// flight.
func TestPipeSleepingConsumer(t *testing.T) {
	prev := runtime.GOMAXPROCS(2)
	defer runtime.GOMAXPROCS(prev)
	for seed := range uint64(8) {
		rng := rand.New(rand.NewPCG(seed, 1))
		var got []int
		slow := seed%2 == 1
		spares := make([]*[]int, 1+seed%5)
		for i := range spares {
			spares[i] = new([]int)
		}
		p := NewPipe(spares, func(b *[]int) {
			if slow {
				runtime.Gosched()
			}
			got = append(got, *b...)
		})
		b, next := new([]int), 0
		for range 2000 {
			for range rng.IntN(4) {
				*b = append(*b, next)
				next++
			}
			b = p.Send(b)
			*b = (*b)[:0]
			if rng.IntN(50) == 0 {
				p.Sync()
				require.Len(t, got, next, "seed %d: Sync", seed)
			}
		}
		p.Close()
		require.Len(t, got, next, "seed %d", seed)
		for i, v := range got {
			require.Equal(t, i, v, "seed %d", seed)
		}
	}
}
