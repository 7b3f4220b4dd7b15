package pathprof_test

import (
	"io"
	"os"
	"strings"
	"testing"

	"github.com/rvsim/rvsim/config"
	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/isa"
	"github.com/rvsim/rvsim/profhw"
	"github.com/rvsim/rvsim/profhw/pathprof"
	"github.com/rvsim/rvsim/sim"
	"github.com/rvsim/rvsim/syscalls"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// benchmark returns a built benchmark's path and test arguments, or skips.
func benchmark(t *testing.T, name string) (string, []string) {
	t.Helper()
	bin := "../../build/benchmarks/" + name
	if _, err := os.Stat(bin); err != nil {
		if os.Getenv("RVSIM_REQUIRE_ARTIFACTS") == "1" {
			t.Fatalf("%s is not built (make benchmarks)", bin)
		}
		t.Skipf("%s is not built (make benchmarks)", bin)
	}
	args, err := os.ReadFile("../../benchmarks/" + name + "/test.args")
	require.NoError(t, err)
	return bin, strings.Fields(string(args))
}

// recorder keeps every control transfer of the run (and counts all).
type recorder struct {
	recs  []cpu.DynInst
	first uint64
	n     uint64
}

func (r *recorder) Retire(b []cpu.DynInst) {
	for i := range b {
		if r.n == 0 {
			r.first = b[i].PC
		}
		r.n++
		switch b[i].Inst.Class {
		case isa.Branch, isa.Jal, isa.Jalr, isa.Call, isa.Return:
			r.recs = append(r.recs, b[i])
		}
	}
}

// blPaths reconstructs the BL path frequency profile from the trace
// independently of the profiler's code: a slice of open paths, one per
// active procedure; a taken branch to a lower address and an indirect
// jump end the path (the next starts at the target), a return ends the
// callee's, 32 branches split one.
func blPaths(recs []cpu.DynInst, entry uint64) map[pathprof.Desc]uint64 {
	type open struct {
		start uint64
		n     uint8
		dirs  uint32
		lost  bool
	}
	out := map[pathprof.Desc]uint64{}
	stack := []open{{start: entry}}
	emit := func(o open) {
		if !o.lost {
			out[pathprof.Desc{Start: o.start, Len: o.n, Dirs: o.dirs}]++
		}
	}
	for _, d := range recs {
		top := &stack[len(stack)-1]
		switch d.Inst.Class {
		case isa.Call:
			stack = append(stack, open{start: d.NextPC})
		case isa.Return:
			emit(*top)
			stack = stack[:len(stack)-1]
			if len(stack) == 0 {
				stack = append(stack, open{start: d.NextPC, lost: true})
			}
		default:
			if d.Taken {
				top.dirs |= 1 << top.n
			}
			top.n++
			if d.Inst.Class == isa.Jalr || (d.Taken && d.NextPC <= d.PC) || top.n == 32 {
				emit(*top)
				*top = open{start: d.NextPC}
			}
		}
	}
	return out
}

func runUnit(t *testing.T, bin string, args []string, timing *config.Machine, vals map[string]any) (*pathprof.Unit, sim.Result, *recorder) {
	t.Helper()
	rec := &recorder{}
	uc := profhw.NewUnitConfig("p", "path", vals)
	mc, err := sim.Load(sim.Config{Program: bin, Args: args, Timing: timing, Observers: []cpu.Observer{rec},
		ProfHW: []*profhw.UnitConfig{uc}})
	require.NoError(t, err)
	res := mc.Run()
	require.Equal(t, sim.StopExit, res.Stop, res.Message)
	require.NoError(t, res.ProfHWErr)
	return mc.ProfHW().Units()[0].(*pathprof.Unit), res, rec
}

// TestExactAgainstTrace: the exact BL profile of a benchmark equals an
// independent reconstruction from the retired trace; every instruction
// lies on one path; and with a stack deep enough and an HPT that holds
// every path, the hardware profile is the exact one.
func TestExactAgainstTrace(t *testing.T) {
	bin, args := benchmark(t, "lz")
	u, res, rec := runUnit(t, bin, args, nil, map[string]any{"stack.depth": int64(1024), "hpt.entries": int64(1 << 16), "hpt.ways": int64(16)})
	require.Equal(t, uint64(0), u.Summary().Extra["hpt_replacements"], "the HPT keeps every path")
	want := blPaths(rec.recs, rec.first)
	got := map[pathprof.Desc]uint64{}
	for _, r := range u.Exact().Recs {
		got[r.Desc] = r.Freq
	}
	assert.Equal(t, len(want), len(got))
	assert.Equal(t, want, got)
	s := u.Summary()
	on := s.Extra["instructions_on_paths"].(uint64)
	open := s.Extra["instructions_open_at_exit"].(uint64)
	assert.Equal(t, res.Instructions, on+open, "every instruction lies on exactly one path")
	assert.InDelta(t, 100, s.Extra["overlap_complete_percent"], 1e-9)
	assert.Equal(t, u.Exact().Weights(), u.HPT().Weights())

	// The listing follows each top path's direction bits through the
	// code: its blocks hold exactly the path's recorded branches.
	outs, err := u.Outputs(nil)
	require.NoError(t, err)
	var prof *pathprof.ProfileJSON
	for _, o := range outs {
		if o.Suffix == "profile.json" {
			prof, err = pathprof.ReadProfile(o.Data)
			require.NoError(t, err)
		}
	}
	require.NotNil(t, prof)
	listed := 0
	for _, e := range prof.Entries[:20] {
		if e.Note != "" {
			continue
		}
		listed++
		require.NotEmpty(t, e.Blocks)
		assert.Equal(t, e.StartHex, e.Blocks[0].Start)
		assert.True(t, strings.HasPrefix(e.Blocks[0].Insts[0], e.StartHex+" "), e.Blocks[0].Insts[0])
		branches := 0
		for _, b := range e.Blocks {
			for _, in := range b.Insts {
				f := strings.Fields(in)
				if m := f[1]; m[0] == 'b' || m == "j" || m == "jr" {
					branches++
				}
			}
		}
		assert.Equal(t, e.Length, branches, "%s %s", e.StartHex, e.Directions)
	}
	assert.Greater(t, listed, 10)
}

// TestSmallHPTLosesPaths: with a tiny HPT the overlap drops below 100 but
// the exact profile is unchanged; the 2048-entry table holds more.
func TestSmallHPTLosesPaths(t *testing.T) {
	bin, args := benchmark(t, "parser")
	small, _, _ := runUnit(t, bin, args, nil, map[string]any{"hpt.entries": int64(16), "hpt.ways": int64(2)})
	big, _, _ := runUnit(t, bin, args, nil, map[string]any{"hpt.entries": int64(2048), "hpt.ways": int64(4)})
	os, ob := small.Summary().Extra["overlap_complete_percent"].(float64), big.Summary().Extra["overlap_complete_percent"].(float64)
	assert.Less(t, os, 99.0)
	assert.Less(t, os, ob)
	assert.Equal(t, small.Exact().Weights(), big.Exact().Weights())
}

// TestTimingQueue is the pipeline scenario of §8.2: on the Table 4
// machine the profiler never changes what executes; without a branch
// queue commit stalls more than with four entries, and the unit's real
// stall cycles are exactly the cycles the run took longer than the same
// run without the unit (most of the cycles asked for are hidden).
func TestTimingQueue(t *testing.T) {
	bin, args := benchmark(t, "lz")
	hpp, err := config.Preset("hpp")
	require.NoError(t, err)
	mc, err := sim.Load(sim.Config{Program: bin, Args: args, Timing: hpp})
	require.NoError(t, err)
	base := mc.Run()
	var cycles, stalls []uint64
	for _, q := range []int64{0, 2, 4} {
		uc := profhw.NewUnitConfig("p", "path", map[string]any{"queue.entries": q})
		mc, err := sim.Load(sim.Config{Program: bin, Args: args, Timing: hpp, ProfHW: []*profhw.UnitConfig{uc}})
		require.NoError(t, err)
		res := mc.Run()
		require.NoError(t, res.ProfHWErr)
		u := mc.ProfHW().Units()[0].(*pathprof.Unit)
		// The pipeline honours exactly the stalls the unit asked for.
		st := mc.Timing().Stats()
		assert.Equal(t, u.Summary().StallReq, st["stalls"].(map[string]uint64)["profiler"], "queue %d: stall cycles", q)
		commit := st["pipeline"].(map[string]any)["commit"].(map[string]any)
		assert.Equal(t, u.Summary().Extra["commit_stalls"], commit["retire_hook_stalls"], "queue %d: stalled commits", q)
		assert.Equal(t, base.Instructions, res.Instructions, "timing never changes what executes")
		cycles = append(cycles, res.Cycles)
		stalls = append(stalls, u.Summary().StallCyc)
		assert.Equal(t, res.Cycles-base.Cycles, u.Summary().StallCyc, "queue %d: the real stall cycles are the overhead", q)
		assert.Less(t, u.Summary().StallCyc, u.Summary().StallReq, "queue %d: most of the stalls asked for are hidden", q)
	}
	assert.Greater(t, stalls[0], stalls[1], "2 entries stall less than none")
	assert.Greater(t, stalls[1], stalls[2], "4 less than 2")
	assert.Greater(t, cycles[0], cycles[2])
	t.Logf("base %d cycles; queue 0/2/4: %v cycles, %v real stall cycles", base.Cycles, cycles, stalls)
}

// TestTimingExactEqualsFunctional: the path stream does not depend on the
// mode: the exact frequency profile of a timing run is the functional one.
func TestTimingExactEqualsFunctional(t *testing.T) {
	bin, args := benchmark(t, "lz")
	f, _, _ := runUnit(t, bin, args, nil, nil)
	tm, _, _ := runUnit(t, bin, args, config.Default(), map[string]any{"metric": "l2-misses"})
	freq := map[pathprof.Desc]uint64{}
	for _, r := range tm.Exact().Recs {
		freq[r.Desc] = r.Freq
	}
	assert.Equal(t, f.Exact().Weights(), freq)
	s := tm.Summary().Extra
	assert.Equal(t, f.Summary().Extra["instructions_on_paths"], s["instructions_on_paths"], "the same paths in both modes")
	assert.Equal(t, f.Summary().Extra["instructions_open_at_exit"], s["instructions_open_at_exit"])
	assert.Greater(t, tm.Exact().Total, uint64(0), "some L2 misses along paths")
}

// TestLongjmpProgram: a C program that leaves signal handlers with
// siglongjmp, four times, the last from deep inside a runaway recursion
// caught on an alternate stack. A deep path stack repairs all four
// returns (the recursion's frames are abandoned); the default 32-entry
// stack has dropped the frame the last one returns to, so that return is
// unmatched.
func TestLongjmpProgram(t *testing.T) {
	bin := guestProgram(t, "../../build/testprogs/signals/segv_jmp")
	for _, tc := range []struct {
		desc               string
		depth              int64
		repairs, unmatched uint64
		minAbandoned       uint64
	}{
		{"deep stack", 65536, 4, 0, 900},
		{"32 entries", 32, 3, 1, 3},
	} {
		uc := profhw.NewUnitConfig("p", "path", map[string]any{"stack.depth": tc.depth})
		mc, err := sim.Load(sim.Config{Program: bin, ProfHW: []*profhw.UnitConfig{uc},
			Kernel: syscalls.Config{Stdout: io.Discard, Stderr: io.Discard, Warn: io.Discard}})
		require.NoError(t, err)
		res := mc.Run()
		require.NoError(t, res.ProfHWErr)
		u := mc.ProfHW().Units()[0].(*pathprof.Unit)
		s := u.Summary().Extra
		assert.Equal(t, tc.repairs, s["longjmp_repairs"], tc.desc)
		assert.Equal(t, tc.unmatched, s["returns_unmatched"], tc.desc)
		assert.GreaterOrEqual(t, s["entries_abandoned"].(uint64), tc.minAbandoned, tc.desc)
		assert.Equal(t, res.Instructions, s["instructions_on_paths"].(uint64)+s["instructions_open_at_exit"].(uint64), tc.desc)
		if tc.unmatched == 0 {
			assert.LessOrEqual(t, u.Stack().Depth(), 4, "%s: the repaired stack is back to main's depth", tc.desc)
		}
	}
}
