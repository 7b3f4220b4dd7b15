package pipeline

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/config"
	"github.com/rvsim/rvsim/cpu"
)

// TestRenameRoom: rename's per-tick bound (renameStage.room: the
// instructions sure to fit everywhere skip the per-instruction checks)
// gives the cycles and statistics of checking every instruction
// (renameStage.noRoom) under every preset and under tight machines
// (a small ROB, issue queue, load and store queues, with and without a
// unified queue, and few rename registers, so every structure fills), on the mixed program,
// a loop, a DISE stream, a stream of serializing instructions, AMOs,
// loads and stores, one of loads, stores and AMOs that miss, and one of
// loads that miss with FP results behind them (so the load queue and the
// FP registers fill alone).
func TestRenameRoom(t *testing.T) {
	code, setup := mixedProgram(t)
	serial := straight(t, 0x1000, "fence", "ld x4, 8(x5) @0x8000", "sd x6, 0(x7) @0x8008",
		"csrrw x1, mscratch, x2", "amoadd.w x8, x9, (x10) @0x8010", "add x11, x11, x12",
		"fadd.d f1, f2, f3", "ld x13, 0(x14) @0x8018", "sd x15, 8(x16) @0x8020", "addi x17, x17, 1")
	for i := 0; i < 6; i++ {
		serial = append(serial, serial[:10]...)
	}
	var lines []string // loads and stores that miss (a line each), so the queues fill
	for i := 0; i < 200; i++ {
		a := 0x100000 + 4096*i
		switch i % 5 {
		case 0, 1:
			lines = append(lines, fmt.Sprintf("ld x%d, 0(x5) @%#x", 6+i%8, a))
		case 2, 3:
			lines = append(lines, fmt.Sprintf("sd x%d, 0(x7) @%#x", 6+i%8, a))
		default:
			lines = append(lines, fmt.Sprintf("amoadd.d x%d, x9, (x10) @%#x", 14+i%8, a))
		}
	}
	var loads []string // loads that miss, and FP results that cannot commit behind them
	for i := 0; i < 200; i++ {
		loads = append(loads, fmt.Sprintf("ld x%d, 0(x5) @%#x", 6+i%8, 0x200000+4096*i))
		if i%4 == 0 {
			for k := 0; k < 8; k++ {
				loads = append(loads, fmt.Sprintf("fadd.d f%d, f1, f2", 3+k))
			}
		}
	}
	streams := map[string][]cpu.DynInst{
		"misses": straight(t, 0x2000, lines...),
		"loads":  straight(t, 0x3000, loads...),
		"mixed":  record(t, code, setup),
		"loop":   record(t, loopProgram(t, rotating(62)...), iters(40)),
		"dise":   diseProgram(t),
		"serial": serial,
	}
	machines := map[string]*config.Machine{}
	for _, preset := range config.Presets() {
		m, err := config.Preset(preset)
		require.NoError(t, err)
		machines[preset] = m
		for _, lsq := range []int{0, 6} { // separate queues; a unified one smaller than both
			tight := *m
			tight.Core.ROB, tight.Core.IQ, tight.Core.LQ, tight.Core.SQ, tight.Core.LSQ = 24, 8, 4, 4, lsq
			tight.Core.IntRegs, tight.Core.FPRegs = 32+10, 32+6
			machines[fmt.Sprintf("%s, tight, lsq %d", preset, lsq)] = &tight
		}
	}
	for mname, m := range machines {
		for name, insts := range streams {
			bound := feed(t, m, insts, 256, nil)
			every := feed(t, m, insts, 256, func(c *Core) { c.rename.noRoom = true })
			require.Equal(t, every.Cycles(), bound.Cycles(), "%s, %s: cycles", mname, name)
			require.True(t, reflect.DeepEqual(every.Stats(), bound.Stats()), "%s, %s: statistics differ", mname, name)
		}
	}
}
