package stratified_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/rvsim/rvsim/config"
	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/isa"
	"github.com/rvsim/rvsim/profhw"
	"github.com/rvsim/rvsim/profhw/stratified"
	"github.com/rvsim/rvsim/profhw/tuple"
	"github.com/rvsim/rvsim/sim"
	"github.com/rvsim/rvsim/syscalls"
	"github.com/stretchr/testify/require"
)

// loadCounter is an independent count of ⟨PC, loaded value⟩ and
// ⟨PC, next PC⟩ tuples from the DynInst stream.
type loadCounter struct {
	values, edges, calls tuple.Counts
}

func (l *loadCounter) Retire(batch []cpu.DynInst) {
	for i := range batch {
		d := &batch[i]
		if d.Injected || d.Handler {
			continue
		}
		switch d.Inst.Class {
		case isa.Load:
			l.values[tuple.Tuple{PC: d.PC, W: d.Result}]++
		case isa.Branch, isa.Jalr:
			l.edges[tuple.Tuple{PC: d.PC, W: d.NextPC}]++
		case isa.Call:
			l.calls[tuple.Tuple{PC: d.PC, W: d.NextPC, Tag: 1}]++
		}
	}
}

type outcome struct {
	res    sim.Result
	mc     *sim.Machine
	stdout string
}

func runLZ(t testing.TB, timing bool, obs []cpu.Observer, presets ...string) outcome {
	return runLZWith(t, timing, obs, nil, presets...)
}

// runLZWith also attaches the units of extra.
func runLZWith(t testing.TB, timing bool, obs []cpu.Observer, extra []*profhw.UnitConfig, presets ...string) outcome {
	t.Helper()
	repo, err := filepath.Abs("../..")
	require.NoError(t, err)
	bin := filepath.Join(repo, "build/benchmarks/lz")
	if _, err := os.Stat(bin); err != nil {
		if os.Getenv("RVSIM_REQUIRE_ARTIFACTS") == "1" {
			t.Fatal("build/benchmarks/lz is not built: run 'make benchmarks'")
		}
		t.Skip("build/benchmarks/lz is not built: run 'make benchmarks'")
	}
	dir := filepath.Join(repo, "benchmarks/lz")
	args, err := os.ReadFile(filepath.Join(dir, "test.args"))
	require.NoError(t, err)
	var out, errOut bytes.Buffer
	cfg := sim.Config{Program: bin, Args: strings.Fields(string(args)), Observers: obs,
		Kernel: syscalls.Config{Cwd: dir, ExePath: "/lz", Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut, Warn: &errOut}}
	if timing {
		cfg.Timing = config.Default()
	}
	for _, p := range presets {
		c, err := profhw.LoadPreset(p)
		require.NoError(t, err)
		cfg.ProfHW = append(cfg.ProfHW, c...)
	}
	cfg.ProfHW = append(cfg.ProfHW, extra...)
	mc, err := sim.Load(cfg)
	require.NoError(t, err)
	res := mc.Run()
	require.Equal(t, sim.StopExit, res.Stop, res.Message)
	require.Nil(t, res.ProfHWErr)
	require.Nil(t, res.TimingErr)
	return outcome{res: res, mc: mc, stdout: out.String()}
}

func unitOf(t *testing.T, mc *sim.Machine, name string) *stratified.Unit {
	for _, u := range mc.ProfHW().Units() {
		if u.Name() == name {
			return u.(*stratified.Unit)
		}
	}
	t.Fatalf("no unit %s", name)
	return nil
}

// On lz's test input, in both modes: the exact profiles equal an
// independent count of the DynInst stream; the program's output and
// instruction count do not change; the messages fold to the estimated
// profile and the summary's cost is the analytic model's.
func TestUnitOnBenchmark(t *testing.T) {
	for _, timing := range []bool{false, true} {
		name := map[bool]string{false: "functional", true: "timing"}[timing]
		t.Run(name, func(t *testing.T) {
			base := runLZ(t, timing, nil)
			lc := &loadCounter{values: tuple.Counts{}, edges: tuple.Counts{}, calls: tuple.Counts{}}
			got := runLZ(t, timing, []cpu.Observer{lc}, "stratified-value", "tagged-value", "stratified-edge-call")
			require.Equal(t, base.stdout, got.stdout)
			require.Equal(t, base.res.Instructions, got.res.Instructions)
			require.NotEmpty(t, lc.values)

			v := unitOf(t, got.mc, "stratified-value")
			require.Equal(t, lc.values, v.Exact())
			require.Equal(t, lc.values, unitOf(t, got.mc, "tagged-value").Exact())
			ec := unitOf(t, got.mc, "stratified-edge-call")
			want := tuple.Counts{}
			for k, n := range lc.edges {
				want[k] = n
			}
			for k, n := range lc.calls {
				want[k] = n
			}
			require.Equal(t, want, ec.Exact())

			s := v.Summary()
			require.Equal(t, lc.values.Total(), s.Events)
			require.Equal(t, s.Messages*256, v.Estimated().Total(), "every H[P256] message stands for 256")
			require.Equal(t, s.Messages*30, s.OverheadCyc, "§5.3.2: Overhead = 30 × NumMessages")
			require.Equal(t, (s.Messages+99)/100, s.Interrupts)
			require.Equal(t, uint64(2048*8), s.StorageBits)
			require.Greater(t, s.ErrorPercent, 0.0)
			require.Less(t, s.ErrorPercent, 20.0)
			if !timing {
				require.Zero(t, s.StallCyc)
				require.Equal(t, base.res.Cycles, got.res.Cycles)
			}
			pts := v.Points()
			require.NotEmpty(t, pts)
			require.Equal(t, s.Events, pts[len(pts)-1].Events)
			require.InDelta(t, s.ErrorPercent, pts[len(pts)-1].Error, 1e-9)
		})
	}
}

// Units are deterministic: two runs give the same summaries and profiles,
// whether the measurement runs on a goroutine of its own or inline
// (GOMAXPROCS 1).
func TestUnitDeterministic(t *testing.T) {
	units := []string{"random-value", "stratified-value-a16", "stratified-value"}
	a := runLZ(t, false, nil, units...)
	prev := runtime.GOMAXPROCS(1)
	b := runLZ(t, false, nil, units...)
	runtime.GOMAXPROCS(prev)
	for _, n := range units {
		ua, ub := unitOf(t, a.mc, n), unitOf(t, b.mc, n)
		require.Equal(t, ua.Estimated(), ub.Estimated())
		require.Equal(t, ua.Exact(), ub.Exact())
		require.Equal(t, ua.Summary(), ub.Summary())
		require.Equal(t, ua.Points(), ub.Points())
	}
}

// Unless a real handler needs its messages where the core runs, the
// compressor runs on the measurement's goroutine (offloaded), with or
// without the exact profile: the same messages, the same software
// profile, exact profile, convergence curve and cost as on the unit's
// own goroutine, at GOMAXPROCS 1 and 2.
func TestOffloadedCompressor(t *testing.T) {
	hw := profhw.NewUnitConfig("hw", "stratified", map[string]any{"error.exact": false})
	stratified.SetInlineCompressor(true)
	base := runLZWith(t, false, nil, []*profhw.UnitConfig{hw}, "stratified-value")
	stratified.SetInlineCompressor(false)
	b, bhw := unitOf(t, base.mc, "stratified-value"), unitOf(t, base.mc, "hw")
	require.False(t, b.Offloaded())
	require.False(t, bhw.Offloaded())
	require.NotEmpty(t, b.Points())
	for _, procs := range []int{2, 1} {
		prev := runtime.GOMAXPROCS(procs)
		got := runLZWith(t, false, nil, []*profhw.UnitConfig{hw}, "stratified-value")
		runtime.GOMAXPROCS(prev)
		u, uhw := unitOf(t, got.mc, "stratified-value"), unitOf(t, got.mc, "hw")
		require.True(t, u.Offloaded())
		require.True(t, uhw.Offloaded())
		require.Equal(t, b.Estimated(), u.Estimated(), "GOMAXPROCS %d", procs)
		require.Equal(t, b.Exact(), u.Exact(), "GOMAXPROCS %d", procs)
		require.Equal(t, b.Points(), u.Points(), "GOMAXPROCS %d", procs)
		require.Equal(t, b.Summary(), u.Summary(), "GOMAXPROCS %d", procs)
		require.Equal(t, bhw.Estimated(), uhw.Estimated(), "GOMAXPROCS %d", procs)
		require.Equal(t, bhw.Summary(), uhw.Summary(), "GOMAXPROCS %d", procs)
		require.Equal(t, b.Estimated(), uhw.Estimated(), "the exact profile changes no message")
		bs, us := b.Summary(), uhw.Summary()
		require.Equal(t, bs.Events, us.Events)
		require.Equal(t, bs.Messages, us.Messages)
		require.Equal(t, bs.Interrupts, us.Interrupts)
		require.Equal(t, bs.OverheadCyc, us.OverheadCyc)
		require.Nil(t, uhw.Exact())
	}
}

// The real handler (beyond the paper): a full buffer interrupts the core,
// Stratified_handler folds the window's messages into its table, and the
// table read back at exit equals the Go fold of the same messages. The
// application's output and instruction count do not change.
func TestRealHandler(t *testing.T) {
	repo, err := filepath.Abs("../..")
	require.NoError(t, err)
	rt := filepath.Join(repo, "build/handlers/rvsim-handlers.elf")
	if _, err := os.Stat(rt); err != nil {
		if os.Getenv("RVSIM_REQUIRE_ARTIFACTS") == "1" {
			t.Fatal("build/handlers/rvsim-handlers.elf is not built: run 'make'")
		}
		t.Skip("build/handlers/rvsim-handlers.elf is not built: run 'make'")
	}
	t.Setenv("RVSIM_HANDLERS", rt)
	for _, timing := range []bool{false, true} {
		name := map[bool]string{false: "functional", true: "timing"}[timing]
		t.Run(name, func(t *testing.T) {
			base := runLZ(t, timing, nil, "stratified-value")
			got := runLZ(t, timing, nil, "stratified-value-handler")
			require.Equal(t, base.stdout, got.stdout)
			require.Equal(t, base.res.Instructions, got.mc.CPU.AppInstret(), "application instructions")
			require.Greater(t, got.res.Instructions, base.res.Instructions, "the handler's instructions")

			u := unitOf(t, got.mc, "stratified-value-handler")
			b := unitOf(t, base.mc, "stratified-value")
			require.Equal(t, b.Exact(), u.Exact())
			require.Equal(t, b.Estimated(), u.Estimated(), "the same messages")
			s := u.Summary()
			require.NotZero(t, s.Interrupts)
			rb := u.HandlerTable()
			require.NotNil(t, rb)
			require.Zero(t, rb.Dropped)
			require.NotEmpty(t, rb.Counts)
			require.Equal(t, u.Handed(), rb.Counts, "the handler's table is the Go fold of what it was given")
			require.Equal(t, true, s.Extra["handler_profile_equals_go_fold"])
			handed := s.Extra["handler_messages"].(uint64)
			require.GreaterOrEqual(t, handed, s.Interrupts*100, "at least a full buffer per interrupt")
			require.Equal(t, got.res.DISE.HandlerCalls, s.Interrupts)
			if timing {
				require.NotZero(t, s.HandlerCyc)
				require.Greater(t, got.res.Cycles, base.res.Cycles)
				require.InDelta(t, float64(s.HandlerCyc)/float64(handed), s.Extra["handler_cycles_per_message"], 1e-9)
			} else {
				require.Zero(t, s.HandlerCyc)
				// No cycles in functional mode: null with the reason, not 0.
				for _, k := range []string{"handler_cycles", "handler_cycles_per_message"} {
					require.False(t, s.Answered(k), k)
					require.Contains(t, s.NoAnswer[k], "functional mode has no cycles")
				}
				data, err := json.Marshal(s)
				require.NoError(t, err)
				require.Contains(t, string(data), `"handler_cycles_per_message":null`)
			}
		})
	}
}

// Stratified_handler preserves every application register: regcheck
// (toolchain/handlers/test) fills them all and checks them after branches
// that an ACF replaces with calls of the handler, which folds three window
// entries each time.
func TestRealHandlerPreservesRegisters(t *testing.T) {
	repo, err := filepath.Abs("../..")
	require.NoError(t, err)
	prog, rt := filepath.Join(repo, "build/handlers/regcheck"), filepath.Join(repo, "build/handlers/rvsim-handlers.elf")
	for _, p := range []string{prog, rt} {
		if _, err := os.Stat(p); err != nil {
			if os.Getenv("RVSIM_REQUIRE_ARTIFACTS") == "1" {
				t.Fatalf("%s is not built: run 'make'", p)
			}
			t.Skipf("%s is not built: run 'make'", p)
		}
	}
	acf := filepath.Join(t.TempDir(), "s.acf")
	require.NoError(t, os.WriteFile(acf, []byte("P1: T.OPCLASS == branch -> R1\nR1: call(Stratified_handler, 3); T.INSN\n"), 0o644))
	var out bytes.Buffer
	mc, err := sim.Load(sim.Config{Program: prog, Kernel: syscalls.Config{Stdout: &out, Stderr: &out, Warn: &out},
		DISE: &sim.DISEOptions{ACF: []string{acf}, Handlers: rt}})
	require.NoError(t, err)
	res := mc.Run()
	require.Equal(t, sim.StopExit, res.Stop, res.Message)
	require.Equal(t, 0, res.ExitCode, "regcheck's verdict: %s", out.String())
	require.Greater(t, res.DISE.HandlerCalls, uint64(100))
}

// BenchmarkSpeed is the unit's cost on the simulator: lz's test input in
// both modes, without a unit and with stratified-value (make bench; MIPS
// is simulated instructions per host second).
func BenchmarkSpeed(b *testing.B) {
	for _, timing := range []bool{false, true} {
		for _, preset := range []string{"", "stratified-value"} {
			name := map[bool]string{false: "functional", true: "timing"}[timing] + "/" + map[bool]string{true: "none", false: preset}[preset == ""]
			b.Run(name, func(b *testing.B) {
				var insts uint64
				var secs float64
				for i := 0; i < b.N; i++ {
					var presets []string
					if preset != "" {
						presets = append(presets, preset)
					}
					o := runLZ(b, timing, nil, presets...)
					insts += o.res.Instructions
					secs += o.res.HostSeconds
				}
				b.ReportMetric(float64(insts)/secs/1e6, "MIPS")
			})
		}
	}
}

// Lean tap records (the core's default for value units) change nothing:
// the units' profiles, exact profiles, summaries and curves are the same
// when a unit that needs full records (path-bl) makes the tap full.
func TestLeanRecordsChangeNothing(t *testing.T) {
	units := []string{"stratified-value", "stratified-edge-call", "exact-value"}
	lean := runLZ(t, false, nil, units...)
	require.True(t, lean.mc.ProfHW().Lean())
	full := runLZ(t, false, nil, append(units, "path-bl")...)
	require.False(t, full.mc.ProfHW().Lean())
	require.Equal(t, lean.res.Instructions, full.res.Instructions)
	for _, n := range units[:2] {
		ul, uf := unitOf(t, lean.mc, n), unitOf(t, full.mc, n)
		require.Equal(t, uf.Estimated(), ul.Estimated(), n)
		require.Equal(t, uf.Exact(), ul.Exact(), n)
		require.Equal(t, uf.Summary(), ul.Summary(), n)
		require.Equal(t, uf.Points(), ul.Points(), n)
	}
	outs := func(o outcome) map[string]string {
		for _, u := range o.mc.ProfHW().Units() {
			if u.Name() == "exact-value" {
				out, err := u.Outputs(func(a uint64) string { return "" })
				require.NoError(t, err)
				files := map[string]string{}
				for _, f := range out {
					files[f.Suffix] = string(f.Bytes())
				}
				return files
			}
		}
		t.Fatal("no exact-value unit")
		return nil
	}
	require.Equal(t, outs(full), outs(lean))
}

// The core's value tap (cpu.SetTapValues: a load's PC and value) gives a
// unit what full records do: stratified-value alone takes it; beside
// exact-value (which reads full records) the hub asks for records, and
// the unit's summary, profiles and convergence curve are the same.
func TestValueTapEqualsRecords(t *testing.T) {
	vt := runLZ(t, false, nil, "stratified-value")
	recs := runLZ(t, false, nil, "stratified-value", "exact-value")
	require.True(t, vt.mc.ProfHW().Values())
	require.False(t, recs.mc.ProfHW().Values())
	a, b := unitOf(t, vt.mc, "stratified-value"), unitOf(t, recs.mc, "stratified-value")
	require.NotZero(t, a.Summary().Events)
	require.Equal(t, b.Summary(), a.Summary())
	require.Equal(t, b.Estimated(), a.Estimated())
	require.Equal(t, b.Exact(), a.Exact())
	require.Equal(t, b.Points(), a.Points())
}
