package cpu

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// SetOnePass turns the one-pass traced block on or off (traced.go) and
// returns the previous setting, for tests outside the package.
func SetOnePass(on bool) bool {
	old := !noOnePass
	noOnePass = !on
	return old
}

// RequireSameState fails unless two harts that ran the same program are
// in the same state: counts, pc, registers, class mix and DISE counters.
func RequireSameState(t testing.TB, want, got *CPU, msg string) {
	t.Helper()
	require.Equal(t, want.Instret, got.Instret, msg)
	require.Equal(t, want.Traps, got.Traps, msg)
	require.Equal(t, want.PC, got.PC, msg)
	require.Equal(t, want.X, got.X, msg)
	require.Equal(t, want.F, got.F, msg)
	require.Equal(t, want.ClassMix(), got.ClassMix(), msg)
	require.Equal(t, want.DISEStats(), got.DISEStats(), msg)
}

// batchRecorder keeps every record and the length of every batch.
type batchRecorder struct {
	recorder
	batches []int
}

func (r *batchRecorder) Retire(batch []DynInst) {
	r.batches = append(r.batches, len(batch))
	r.recorder.Retire(batch)
}

// TestOnePassFastPath: on the fast-path program (superinstructions,
// chaining, a store patching code ahead of it, a faulting load pair), in
// chunks of every size up to past its length, the one-pass traced blocks
// give the records, batches, stops and state that single steps give.
func TestOnePassFastPath(t *testing.T) {
	defer func(v bool) { noOnePass = v }(noOnePass)
	for _, fault := range []string{"first", "second"} {
		for chunk := uint64(1); chunk <= 130; chunk++ {
			run := func(onePass bool) ([]string, *CPU, *batchRecorder) {
				noOnePass = !onePass
				c := newFastPathCPU(t, fault)
				rec := &batchRecorder{}
				c.SetObserver(rec)
				var seen []string
				for i := 0; i < 10000; i++ {
					exit := c.Run(chunk)
					seen = append(seen, fmt.Sprintf("%v pc=%#x instret=%d", exit.Reason, c.PC, c.Instret))
					if exit.Reason == StopFault {
						return append(seen, exit.Fault.Error()), c, rec
					}
					require.Equal(t, StopLimit, exit.Reason)
				}
				t.Fatalf("chunk %d: no fault", chunk)
				return nil, nil, nil
			}
			name := fmt.Sprintf("fault %s chunk %d", fault, chunk)
			want, ref, wrec := run(false)
			got, c, grec := run(true)
			require.Equal(t, want, got, name)
			require.Equal(t, ref.X, c.X, name)
			RequireSameRecords(t, wrec.insts, grec.insts, name)
			require.Equal(t, wrec.batches, grec.batches, name)
		}
	}
}

// TestOnePassScenarios: on the tap's hand-written scenarios (every load
// kind, stores, atomics, FP, CSRs, ecalls, self-modifying code, fence.i,
// bare-metal traps, DISE sequences and handler calls), in one Run and in
// random chunks, one-pass traced blocks give the records, batches and
// state that single steps give.
func TestOnePassScenarios(t *testing.T) {
	defer func(v bool) { noOnePass = v }(noOnePass)
	for _, sc := range tapScenarios(t) {
		for _, chunked := range []bool{false, true} {
			run := func(onePass bool) (*CPU, *batchRecorder) {
				noOnePass = !onePass
				c := scenarioCPU(t, sc)
				rec := &batchRecorder{}
				c.SetObserver(rec)
				var chunks *rand.Rand
				if chunked {
					chunks = rand.New(rand.NewPCG(3, 5))
				}
				runScenario(t, c, sc, nil, chunks, nil)
				return c, rec
			}
			name := fmt.Sprintf("%s chunked %v", sc.desc, chunked)
			ref, want := run(false)
			c, got := run(true)
			RequireSameRecords(t, want.insts, got.insts, name)
			require.Equal(t, want.batches, got.batches, name)
			RequireSameState(t, ref, c, name)
		}
	}
}
