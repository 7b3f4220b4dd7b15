package gen

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/cpu"
)

// TestJITLockstep runs generated programs (every op class, loops, faults
// and self-modifying code) with the translator, translating a block on
// its second start, in lock-step with the interpreter: registers, pc and
// instructions retired are compared at every return from translated code
// (even seeds without chaining, so at every block's exit), memories at
// every stop.
func TestJITLockstep(t *testing.T) {
	seeds := 300
	if testing.Short() {
		seeds = 50
	}
	var translated uint64
	for seed := range uint64(seeds) {
		p, err := Generate(seed, 400)
		require.NoError(t, err)
		a, am, err := p.Machine()
		require.NoError(t, err)
		ref, rm, err := p.Machine()
		require.NoError(t, err)
		if a.SetJIT(true); !a.JIT() {
			t.Skip("no translator on this host")
		}
		var fail error
		catchUp := func(instret uint64) cpu.Exit {
			exit := cpu.Exit{Reason: cpu.StopLimit}
			for ref.Instret < instret && exit.Reason == cpu.StopLimit {
				exit = ref.Run(instret - ref.Instret)
			}
			return exit
		}
		same := func(pc uint64) error {
			if pc != ref.PC {
				return fmt.Errorf("pc %#x, want %#x", pc, ref.PC)
			}
			for r := 0; r < 32; r++ {
				if a.X[r] != ref.X[r] || a.F[r] != ref.F[r] {
					return fmt.Errorf("pc %#x: x%d %#x f%d %#x, want %#x and %#x", pc, r, a.X[r], r, a.F[r], ref.X[r], ref.F[r])
				}
			}
			if a.FFlags() != ref.FFlags() || a.FRM() != ref.FRM() {
				return fmt.Errorf("pc %#x: fflags %#x frm %d, want %#x %d", pc, a.FFlags(), a.FRM(), ref.FFlags(), ref.FRM())
			}
			return nil
		}
		a.SetJITTest(&cpu.JITTest{Hot: 1, AnyPart: true, EveryBlock: seed%2 == 0, Hook: func(pc, instret uint64) {
			if fail != nil {
				return
			}
			if exit := catchUp(instret); exit.Reason != cpu.StopLimit || ref.Instret != instret {
				fail = fmt.Errorf("translated code retired to %d; the interpreter stopped (%v) at %d", instret, exit.Reason, ref.Instret)
			} else {
				fail = same(pc)
			}
		}})
		limit := 50 * uint64(400+100)
		for a.Instret < limit {
			exitA := a.Run(limit - a.Instret)
			require.NoError(t, fail, "seed %d (%s)", seed, ReproCommand(seed, 400))
			exitB := catchUp(a.Instret)
			require.Equal(t, exitB, exitA, "seed %d", seed)
			require.NoError(t, same(a.PC), "seed %d at stop", seed)
			require.Equal(t, a.Instret, ref.Instret, "seed %d", seed)
			require.Equal(t, rm.Digest(), am.Digest(), "seed %d: memories", seed)
			if exitA.Reason != cpu.StopLimit {
				break
			}
		}
		translated += a.JITStats().Retired
	}
	t.Logf("%d instructions ran translated", translated)
	require.NotZero(t, translated)
}
