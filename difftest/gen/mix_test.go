package gen

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/cpu"
)

type discard struct{}

func (discard) Retire([]cpu.DynInst) {}

// runToExit runs a generated program to its exit ecall in chunks of
// random size (chunk 0: one Run call) and returns the core; jit, if not
// nil, turns the translator on with those settings.
func runToExit(t *testing.T, p *Program, observe bool, chunks *rand.Rand, jit *cpu.JITTest) *cpu.CPU {
	t.Helper()
	c, _, err := p.Machine()
	require.NoError(t, err)
	c.CountMix = true
	if observe {
		c.SetObserver(discard{})
	}
	if jit != nil {
		c.SetJIT(true)
		c.SetJITTest(jit)
	}
	for i := 0; i < 100000; i++ {
		n := uint64(1 << 20)
		if chunks != nil {
			n = 1 + chunks.Uint64N(40)
		}
		exit := c.Run(n)
		switch exit.Reason {
		case cpu.StopEcall:
			return c
		case cpu.StopLimit:
			continue
		default:
			t.Fatalf("stopped: %v at pc %#x", exit.Reason, c.PC)
		}
	}
	t.Fatal("no exit")
	return nil
}

// TestClassMixPerBlockEqualsPerInstruction checks the per-block class-mix
// counting (cpu/mix.go) against per-instruction counting (an observer
// makes every instruction retire one by one) on random programs, whose
// branches, loops, faults-free self-modifying code and fence.i exercise
// every way a block is left, with the budget ending blocks at random.
// The translator's counting (translated code adds to the same counters)
// is checked the same way, with every block translated at its first
// start, chained and not.
func TestClassMixPerBlockEqualsPerInstruction(t *testing.T) {
	count := 300
	if testing.Short() {
		count = 50
	}
	translated, jitOn := uint64(0), false
	for seed := uint64(1); seed <= uint64(count); seed++ {
		p, err := Generate(seed, 500)
		require.NoError(t, err)
		want := runToExit(t, p, true, nil, nil)
		for _, chunks := range []*rand.Rand{nil, rand.New(rand.NewPCG(seed, 7))} {
			for _, jit := range []*cpu.JITTest{nil, {Hot: 1, AnyPart: true}, {Hot: 1, AnyPart: true, EveryBlock: true}} {
				got := runToExit(t, p, false, chunks, jit)
				require.Equal(t, want.Instret, got.Instret, "seed %d", seed)
				require.Equal(t, want.ClassMix(), got.ClassMix(), "seed %d, translator %v (%s)", seed, jit != nil, ReproCommand(seed, 500))
				translated += got.JITStats().Retired
				jitOn = jitOn || got.JIT()
			}
		}
	}
	if jitOn { // (hosts without a translator run the interpreter)
		require.Greater(t, translated, uint64(count)*100, "translated code ran")
	}
}
