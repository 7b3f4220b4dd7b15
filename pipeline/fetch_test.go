package pipeline

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/config"
	"github.com/rvsim/rvsim/cpu"
)

// TestFetchRun: fetch's run (the instructions from a block's first on
// that are not DISE's, from one thread, in sequence and in the block's
// line, up to a control instruction predicted taken or mispredicted)
// gives every preset the cycles and statistics of the general path
// (fetchStage.noRun) on streams made to end runs every way: straight code
// that crosses I-cache lines mid-block (its blocks start off a line
// boundary), a thread switch and a trap (a record not at its
// predecessor's successor) inside it, a long loop body, the mixed program
// (branches taken and not, mispredicted, calls and returns) and the
// mixed program under DISE (injected and replaced instructions,
// replacement sequences with branches, handler calls and dise.ret). The
// run's test is the flag intake sets (markRuns): inline, and on Async's
// producer thread (the stream staged in deliveries of 1 to 256 records,
// so runs and deliveries end anywhere against each other).
func TestFetchRun(t *testing.T) {
	line := straight(t, 0x10008, concat(rotating(30), []string{"add a0, a1, a2"}, rotating(29))...)
	for i := range line {
		line[i].Tid = 7
		if i >= 17 {
			line[i].Tid = 8 // a context switch mid-block
		}
		if i >= 41 { // a trap: the stream continues elsewhere, in the same line
			line[i].PC += 8
			line[i].NextPC += 8
		}
	}
	code, setup := mixedProgram(t)
	streams := map[string][]cpu.DynInst{
		"lines, a switch, a trap": line,
		"loop":                    record(t, loopProgram(t, rotating(62)...), iters(40)),
		"mixed":                   record(t, code, setup),
		"dise":                    diseProgram(t),
	}
	for _, preset := range config.Presets() {
		m, err := config.Preset(preset)
		require.NoError(t, err)
		for name, insts := range streams {
			run := feed(t, m, insts, 256, nil)
			general := feed(t, m, insts, 256, func(c *Core) { c.fetch.noRun = true })
			require.Equal(t, general.Cycles(), run.Cycles(), "%s, %s: cycles", preset, name)
			require.Equal(t, general.fetch.blocks, run.fetch.blocks, "%s, %s: fetch blocks", preset, name)
			require.True(t, reflect.DeepEqual(general.Stats(), run.Stats()), "%s, %s: statistics differ", preset, name)
			c, err := New(m)
			require.NoError(t, err)
			a := NewAsync(c)
			deliverer{insts, rand.New(rand.NewPCG(uint64(len(insts)), 1))}.run(a, a.CycleAt)
			require.NoError(t, a.Finish())
			require.Equal(t, general.Cycles(), c.Cycles(), "%s, %s: cycles, staged", preset, name)
			require.True(t, reflect.DeepEqual(general.Stats(), c.Stats()), "%s, %s: statistics differ, staged", preset, name)
		}
	}
}
