package sim

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/syscalls"
)

// The translator's oracle: a machine with the JIT runs in lock-step with
// one without, and their states (registers, pc, instructions retired) are
// compared at every return from translated code, their memories at every
// system call, every 4096th return and the end; outputs and instruction
// counts must be identical.

// lockstepResult is what a lock-step run saw.
type lockstepResult struct {
	exits, compares uint64
	stats           cpu.JITStats
	instret         uint64
}

// runLockstep runs b's test input with and without the JIT in lock-step
// and fails at the first difference.
func runLockstep(t *testing.T, b bench, jt cpu.JITTest) lockstepResult {
	t.Helper()
	var outA, outB, errA, errB bytes.Buffer
	load := func(jit bool, out, errOut *bytes.Buffer) *Machine {
		cfg := Config{Program: b.bin, Args: b.args, JIT: jit,
			Kernel: syscalls.Config{Cwd: b.dir, ExePath: "/" + b.name, Stdin: strings.NewReader(""), Stdout: out, Stderr: errOut, Warn: errOut}}
		mc, err := Load(cfg)
		require.NoError(t, err)
		return mc
	}
	a, ref := load(true, &outA, &errA), load(false, &outB, &errB)
	if !a.CPU.JIT() {
		t.Skip("no translator on this host")
	}
	var lr lockstepResult
	var fail error
	same := func(where string, pc uint64) error {
		x, y := a.CPU, ref.CPU
		if pc != y.PC {
			return fmt.Errorf("%s: pc %#x, want %#x", where, pc, y.PC)
		}
		for r := 0; r < 32; r++ {
			if x.X[r] != y.X[r] {
				return fmt.Errorf("%s at pc %#x: x%d = %#x, want %#x", where, pc, r, x.X[r], y.X[r])
			}
			if x.F[r] != y.F[r] {
				return fmt.Errorf("%s at pc %#x: f%d = %#x, want %#x", where, pc, r, x.F[r], y.F[r])
			}
		}
		if x.FFlags() != y.FFlags() || x.FRM() != y.FRM() {
			return fmt.Errorf("%s at pc %#x: fflags %#x frm %d, want %#x %d", where, pc, x.FFlags(), x.FRM(), y.FFlags(), y.FRM())
		}
		return nil
	}
	// catchUp runs the reference to instret; it must get there without
	// stopping for anything but the budget.
	catchUp := func(instret uint64) cpu.Exit {
		exit := cpu.Exit{Reason: cpu.StopLimit}
		for ref.CPU.Instret < instret {
			if exit = ref.CPU.Run(instret - ref.CPU.Instret); exit.Reason != cpu.StopLimit {
				break
			}
		}
		return exit
	}
	jt.Hook = func(pc, instret uint64) {
		if fail != nil {
			return
		}
		lr.exits++
		if exit := catchUp(instret); exit.Reason != cpu.StopLimit || ref.CPU.Instret != instret {
			fail = fmt.Errorf("translated code retired %d instructions to pc %#x; the interpreter stopped (%v) at %d", instret, pc, exit.Reason, ref.CPU.Instret)
			return
		}
		lr.compares++
		if fail = same(fmt.Sprintf("after translated code, instruction %d", instret), pc); fail == nil && lr.exits%4096 == 0 {
			if a.Mem.Digest() != ref.Mem.Digest() {
				fail = fmt.Errorf("memories differ after translated code, instruction %d, pc %#x", instret, pc)
			}
		}
	}
	a.CPU.SetJITTest(&jt)
	var resA, resB Result
	for {
		exitA := a.CPU.Run(1 << 22)
		require.NoError(t, fail)
		exitB := catchUp(a.CPU.Instret)
		require.Equal(t, a.CPU.Instret, ref.CPU.Instret, "instructions retired")
		require.Equal(t, exitB, exitA, "exit at instruction %d", a.CPU.Instret)
		require.NoError(t, same(fmt.Sprintf("at exit (%v), instruction %d", exitA.Reason, a.CPU.Instret), a.CPU.PC))
		require.Equal(t, ref.Mem.Digest(), a.Mem.Digest(), "memories at instruction %d", a.CPU.Instret)
		doneA, doneB := a.Service(exitA, &resA), ref.Service(exitB, &resB)
		require.Equal(t, doneB, doneA)
		if doneA {
			break
		}
	}
	require.Equal(t, resB.Stop, resA.Stop)
	require.Equal(t, resB.ExitCode, resA.ExitCode)
	require.Equal(t, outB.String(), outA.String())
	require.Equal(t, string(b.stdout), outA.String(), "expected output")
	require.Empty(t, errA.String())
	lr.stats, lr.instret = a.CPU.JITStats(), a.CPU.Instret
	return lr
}

// jitBenchmarks are the builtin suite's programs.
var jitBenchmarks = []string{"anneal", "exprc", "gametree", "hashjoin", "imgcodec", "lisp", "lz", "nbody", "netflow", "parser", "raytrace"}

// TestJITLockstep runs every builtin benchmark's test input in lock-step,
// once with chaining (state compared at every return to Go), once
// without (compared at every block's exit), and once measuring the share
// of translated instructions over windows of 2^18 instructions, so that
// the translator would pause where it is low (no builtin program's share
// is, since the translator handles double arithmetic; cpu's TestJITPauses
// makes it pause): about 10 s in all; -short runs two of them.
func TestJITLockstep(t *testing.T) {
	names := jitBenchmarks
	if testing.Short() {
		names = []string{"lisp", "nbody"}
	}
	for _, name := range names {
		for _, v := range []struct {
			desc string
			jt   cpu.JITTest
		}{{"chained", cpu.JITTest{}}, {"everyBlock", cpu.JITTest{EveryBlock: true}}, {"pausing", cpu.JITTest{Window: 1 << 18}}} {
			t.Run(name+"/"+v.desc, func(t *testing.T) {
				b := benchmark(t, name)
				lr := runLockstep(t, b, v.jt)
				t.Logf("%s: %d instructions, %d in translated code (%.1f%%), %d blocks translated, %d returns compared",
					name, lr.instret, lr.stats.Retired, 100*float64(lr.stats.Retired)/float64(lr.instret), lr.stats.Blocks, lr.compares)
				require.NotZero(t, lr.stats.Retired, "nothing ran translated")
				require.Equal(t, lr.exits, lr.compares)
			})
		}
	}
}

// TestJITClassMix runs every builtin benchmark's test input with the
// class mix counted (as --stats does), with and without the translator:
// the mix, the instruction count and the output must be the same, most
// of the run must be translated (counting no longer keeps the
// interpreter), and --stats' jit object must say so.
func TestJITClassMix(t *testing.T) {
	for _, name := range jitBenchmarks {
		t.Run(name, func(t *testing.T) {
			b := benchmark(t, name)
			run := func(jit bool) (*Machine, Result, string) {
				var out bytes.Buffer
				mc, err := Load(Config{Program: b.bin, Args: b.args, JIT: jit, CountMix: true,
					Kernel: syscalls.Config{Cwd: b.dir, ExePath: "/" + b.name, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &out}})
				require.NoError(t, err)
				return mc, mc.Run(), out.String()
			}
			mcA, a, outA := run(true)
			if !mcA.CPU.JIT() {
				t.Skip("no translator on this host")
			}
			mcRef, ref, outRef := run(false)
			require.NotContains(t, mcRef.Stats(&ref), "jit", "the translator off: no jit object")
			require.Equal(t, outRef, outA)
			require.Equal(t, ref.Instructions, a.Instructions)
			require.Equal(t, ref.Mix, a.Mix, "class mix")
			js := mcA.Stats(&a)["jit"].(map[string]any)
			require.Greater(t, js["share"].(float64), 0.8, "share translated")
			require.Equal(t, mcA.CPU.JITStats().Retired, js["retired"])
			share, ok := mcA.JITShare(&a)
			require.True(t, ok)
			require.Equal(t, js["share"], share)
		})
	}
}

// tapLog is a value or control tap's sink for TestJITTaps: it keeps
// every batch delivered, and at every stopEvery-th delivery (0: none)
// asks the core to stop.
type tapLog struct {
	c               *cpu.CPU
	next, stopEvery int
	values          [][]cpu.TapValue
	controls        [][]cpu.TapControl
}

func (l *tapLog) Tapped([]cpu.DynInst) int { return l.next } // (never given records: a value or control tap's sink)

func (l *tapLog) TappedValues(vals []cpu.TapValue) int {
	if len(vals) > 0 {
		l.values = append(l.values, append([]cpu.TapValue(nil), vals...))
		l.delivered(len(l.values))
	}
	return l.next
}

func (l *tapLog) TappedControls(recs []cpu.TapControl) int {
	if len(recs) > 0 {
		l.controls = append(l.controls, append([]cpu.TapControl(nil), recs...))
		l.delivered(len(l.controls))
	}
	return l.next
}

func (l *tapLog) delivered(batches int) {
	if l.stopEvery > 0 && batches%l.stopEvery == 0 {
		l.c.RequestStop()
	}
}

// tapRun is what a run under a value or control tap saw.
type tapRun struct {
	log     *tapLog
	stops   [][2]uint64 // at each StopRequest: the batches delivered so far and the instructions retired
	out     string
	instret uint64
	stats   cpu.JITStats
}

// runTap runs b's test input with a value tap (controls: a control tap)
// that delivers every next records and asks to stop at every
// stopEvery-th delivery, with or without the translator (a block
// translated at its hot-th start).
func runTap(t *testing.T, b bench, controls, jit bool, hot uint16, next, stopEvery int) tapRun {
	t.Helper()
	var out bytes.Buffer
	mc, err := Load(Config{Program: b.bin, Args: b.args, JIT: jit,
		Kernel: syscalls.Config{Cwd: b.dir, ExePath: "/" + b.name, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &out}})
	require.NoError(t, err)
	mc.CPU.SetJITTest(&cpu.JITTest{Hot: hot})
	log := &tapLog{c: mc.CPU, next: next, stopEvery: stopEvery}
	if controls {
		mc.CPU.SetTapControls(true)
		mc.CPU.SetTap(cpu.BranchClasses, log)
	} else {
		mc.CPU.SetTapValues(true)
		mc.CPU.SetTap(cpu.LoadClasses, log)
	}
	r := tapRun{log: log}
	var res Result
	for {
		exit := mc.CPU.Run(1 << 22)
		if exit.Reason == cpu.StopRequest {
			r.stops = append(r.stops, [2]uint64{uint64(len(log.values) + len(log.controls)), mc.CPU.Instret})
			continue
		}
		if mc.Service(exit, &res) {
			break
		}
	}
	mc.CPU.SetTap(0, nil) // (delivers what is pending)
	r.out, r.instret, r.stats = out.String(), mc.CPU.Instret, mc.CPU.JITStats()
	return r
}

// TestJITTaps: every builtin benchmark's test input under a value tap
// (SetTapValues: the profiling units' value presets) and under a control
// tap (SetTapControls: path-bl and the other path presets), with several
// delivery limits and stop requests, gives with the translator the same
// batches, the same stops at the same instructions (so each delivery,
// which the stop follows at once, is at the same instruction) and the
// same output and count as without it, and most of the run is
// translated. lisp runs six settings of the limit and the stops, the
// others two (about 40 s in all); -short runs lisp's two. lisp-dyn is
// lisp dynamically linked: its code (a PIE at PIEBase, ld.so and libc
// near MmapTop) lies above 2^31, where a record's PC is no 32-bit
// immediate (jitStoreWord's other path).
func TestJITTaps(t *testing.T) {
	names := append(jitBenchmarks[:len(jitBenchmarks):len(jitBenchmarks)], "lisp-dyn")
	if testing.Short() {
		names = []string{"lisp"}
	}
	type setting struct{ next, stopEvery int }
	for _, name := range names {
		settings := []setting{{3, 5}, {256, 1}}
		if name == "lisp" && !testing.Short() {
			settings = append(settings, setting{1, 1}, setting{3, 0}, setting{256, 0}, setting{4096, 3})
		}
		for _, controls := range []bool{false, true} {
			for _, v := range settings {
				tap := map[bool]string{false: "values", true: "controls"}[controls]
				t.Run(fmt.Sprintf("%s/%s/next=%d/stopEvery=%d", name, tap, v.next, v.stopEvery), func(t *testing.T) {
					b := benchmark(t, strings.TrimSuffix(name, "-dyn"))
					if name != b.name {
						b.bin = artifact(t, "build/benchmarks-dyn/"+b.name, "make benchmarks")
					}
					got := runTap(t, b, controls, true, 2, v.next, v.stopEvery)
					if got.stats.Entries == 0 {
						t.Skip("no translator on this host")
					}
					want := runTap(t, b, controls, false, 0, v.next, v.stopEvery)
					require.Equal(t, string(b.stdout), got.out, "expected output")
					require.Equal(t, want.instret, got.instret, "instructions")
					require.Equal(t, len(want.stops), len(got.stops), "stops")
					for i := range want.stops {
						require.Equal(t, want.stops[i], got.stops[i], "stop %d: batches delivered and instructions retired", i)
					}
					require.Equal(t, len(want.log.values), len(got.log.values), "value batches")
					for i := range want.log.values {
						require.Equal(t, want.log.values[i], got.log.values[i], "value batch %d", i)
					}
					require.Equal(t, len(want.log.controls), len(got.log.controls), "control batches")
					for i := range want.log.controls {
						require.Equal(t, want.log.controls[i], got.log.controls[i], "control batch %d", i)
					}
					share := float64(got.stats.Retired) / float64(got.instret)
					t.Logf("%s %s: %d instructions, %.1f%% translated, %d batches, %d stops", name, tap, got.instret, 100*share,
						len(got.log.values)+len(got.log.controls), len(got.stops))
					if v.next > 3 {
						require.Greater(t, share, 0.5, "share translated")
					}
				})
			}
		}
	}
}
