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
	var translated, tapped uint64
	records := 0
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
		// Half the seeds run under a value tap (seed%4 == 2) or a control
		// tap (3) on both harts (the translated loads or transfers record
		// and leave the delivery to the interpreter), with a delivery
		// limit by seed; the records are
		// compared at every stop (Run delivers what is pending as it
		// returns, so the batches differ: the reference returns at
		// every return from translated code).
		var tapA, tapRef *tapLog
		if seed%4 >= 2 {
			next := []int{1, 3, 16, 256}[seed/4%4]
			tapA, tapRef = &tapLog{next: next}, &tapLog{next: next}
			for _, h := range []struct {
				c *cpu.CPU
				l *tapLog
			}{{a, tapA}, {ref, tapRef}} {
				if seed%4 == 2 {
					h.c.SetTapValues(true)
					h.c.SetTap(cpu.LoadClasses, h.l)
				} else {
					h.c.SetTapControls(true)
					h.c.SetTap(cpu.BranchClasses, h.l)
				}
			}
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
			if tapA != nil {
				require.Equal(t, tapRef.vals, tapA.vals, "seed %d: value tap's records", seed)
				require.Equal(t, tapRef.ctls, tapA.ctls, "seed %d: control tap's records", seed)
			}
			if exitA.Reason != cpu.StopLimit {
				break
			}
		}
		translated += a.JITStats().Retired
		if tapA != nil {
			a.SetTap(0, nil)
			ref.SetTap(0, nil) // (deliver what is pending)
			require.Equal(t, tapRef.vals, tapA.vals, "seed %d: value tap's records", seed)
			require.Equal(t, tapRef.ctls, tapA.ctls, "seed %d: control tap's records", seed)
			tapped += a.JITStats().Retired
			records += len(tapA.vals) + len(tapA.ctls)
		}
	}
	t.Logf("under a value or control tap: %d instructions ran translated, %d records", tapped, records)
	require.NotZero(t, tapped)
	t.Logf("%d instructions ran translated", translated)
	require.NotZero(t, translated)
}

// tapLog is a value or control tap's sink: it keeps every record.
type tapLog struct {
	next int
	vals []cpu.TapValue
	ctls []cpu.TapControl
}

func (l *tapLog) Tapped([]cpu.DynInst) int { return l.next } // (never given records: a value or control tap's sink)

func (l *tapLog) TappedValues(vals []cpu.TapValue) int {
	l.vals = append(l.vals, vals...)
	return l.next
}

func (l *tapLog) TappedControls(recs []cpu.TapControl) int {
	l.ctls = append(l.ctls, recs...)
	return l.next
}
