package pipeline

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/config"
	"github.com/rvsim/rvsim/cpu"
)

// cycleRecords runs insts through a core with a cycle sink and returns the
// core and the records.
func cycleRecords(t *testing.T, m *config.Machine, insts []cpu.DynInst, batch int, tweak func(c *Core)) (*Core, []CycleCommit) {
	var recs []CycleCommit
	c := feed(t, m, insts, batch, func(c *Core) {
		c.SetCycleSink(func(b []CycleCommit) { recs = append(recs, b...) })
		if tweak != nil {
			tweak(c)
		}
	})
	return c, recs
}

// TestCycleSink: every committed instruction is handed on once, in order,
// with its pc, successor and class, and the cycles charged add up, bucket
// by bucket, to the CPI stack, so to the run's cycles; the same whatever
// the batch sizes and with or without idle-cycle skipping.
func TestCycleSink(t *testing.T) {
	code, setup := mixedProgram(t)
	insts := record(t, code, setup)
	for _, preset := range config.Presets() {
		t.Run(preset, func(t *testing.T) {
			m, err := config.Preset(preset)
			require.NoError(t, err)
			c, recs := cycleRecords(t, m, insts, 256, nil)
			require.Len(t, recs, len(insts))
			var sum [NumCPI]uint64
			var total uint64
			for i, r := range recs {
				require.Equal(t, uint64(i), r.Pos)
				require.Equal(t, insts[i].PC, r.PC, "record %d", i)
				require.Equal(t, insts[i].NextPC, r.Next, "record %d", i)
				require.Equal(t, insts[i].Inst.Class, r.Class, "record %d", i)
				for b, n := range r.Cycles {
					sum[b] += n
					total += n
				}
			}
			require.Equal(t, c.cpiStack(), sum, "the charged cycles are the CPI stack")
			require.Equal(t, c.Cycles(), total)
			for _, tc := range []struct {
				desc  string
				batch int
				skip  bool
			}{{"batches of 7", 7, true}, {"every cycle simulated", 13, false}} {
				_, again := cycleRecords(t, m, insts, tc.batch, func(c *Core) { c.noSkip = !tc.skip })
				require.Equal(t, recs, again, tc.desc)
			}
		})
	}
}

// TestCycleSinkCharges: the cycles go to the instruction that waited at
// the ROB head. A load that misses to memory behind a short chain takes
// the D-cache-miss cycles; the first instruction takes the pipeline fill
// (front end and I-cache miss).
func TestCycleSinkCharges(t *testing.T) {
	m := testMachine()
	insts := straight(t, codeBase,
		"addi a1, a1, 1",
		"ld a2, 0(a0) @0x1000000",
		"add a3, a2, a2",
		"ebreak")
	c, recs := cycleRecords(t, m, insts[:3], 1, nil)
	require.Len(t, recs, 3)
	first, load := recs[0].Cycles, recs[1].Cycles
	require.NotZero(t, first[cpiICache], "the first fetch misses the I-cache: %v", first)
	require.Zero(t, first[cpiDCache])
	// The load waits at the head for the miss: L1D latency + L2 + memory
	// (2 + 10 + 100) less what it already spent before reaching the head.
	require.Greater(t, load[cpiDCache], uint64(100), "the load's D-cache miss: %v", load)
	require.Equal(t, uint64(1), load[cpiCommit])
	var total uint64
	for _, r := range recs {
		for _, n := range r.Cycles {
			total += n
		}
	}
	require.Equal(t, c.Cycles(), total)
}

// TestCycleSinkMark: with a mark (sampled simulation's warm-up), the
// records start at the mark and their cycles add up to the timed part's.
func TestCycleSinkMark(t *testing.T) {
	code, setup := mixedProgram(t)
	insts := record(t, code, setup)
	const mark = 5000
	c, recs := cycleRecords(t, config.Default(), insts, 256, func(c *Core) { c.SetMark(mark) })
	at, ok := c.MarkCycle()
	require.True(t, ok)
	require.Len(t, recs, len(insts)-mark)
	require.Equal(t, uint64(mark), recs[0].Pos)
	var total uint64
	for _, r := range recs {
		for _, n := range r.Cycles {
			total += n
		}
	}
	require.Equal(t, c.Cycles()-at, total)
}
