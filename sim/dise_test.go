package sim

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/isa"
	"github.com/rvsim/rvsim/profile"
	"github.com/rvsim/rvsim/syscalls"
)

// End-to-end tests of the DISE/HPS engine with the real handler runtime on
// benchmark programs. They need `make benchmarks` and the handler runtime
// (`make -C toolchain/handlers`); without them they are skipped, or fail
// under RVSIM_REQUIRE_ARTIFACTS=1.

var repo = func() string {
	wd, _ := os.Getwd()
	return filepath.Dir(wd)
}()

func artifact(t *testing.T, rel, how string) string {
	t.Helper()
	p := filepath.Join(repo, rel)
	if _, err := os.Stat(p); err != nil {
		msg := fmt.Sprintf("%s is not built: run '%s'", rel, how)
		if os.Getenv("RVSIM_REQUIRE_ARTIFACTS") == "1" {
			t.Fatal(msg + " (RVSIM_REQUIRE_ARTIFACTS=1)")
		}
		t.Skip(msg)
	}
	return p
}

func handlersELF(t *testing.T) string {
	return artifact(t, "build/handlers/rvsim-handlers.elf", "make -C toolchain/handlers")
}

func acf(name string) string { return filepath.Join(repo, "acf", name+".acf") }

// bench is a benchmark's test input.
type bench struct {
	name, bin, dir string
	args           []string
	stdout         []byte
}

func benchmark(t *testing.T, name string) bench {
	t.Helper()
	b := bench{name: name, dir: filepath.Join(repo, "benchmarks", name)}
	b.bin = artifact(t, "build/benchmarks/"+name, "make benchmarks")
	args, err := os.ReadFile(filepath.Join(b.dir, "test.args"))
	require.NoError(t, err)
	b.args = strings.Fields(string(args))
	b.stdout, err = os.ReadFile(filepath.Join(b.dir, "test.stdout"))
	require.NoError(t, err)
	return b
}

type run struct {
	res    Result
	mc     *Machine
	stdout []byte
	exact  *profile.Exact
}

// runDISE runs a benchmark under ACF files (nil: no DISE) with an exact
// profiler and any other observers attached.
func runDISE(t *testing.T, b bench, acfs []string, trigger string, obs ...cpu.Observer) run {
	t.Helper()
	var out, errOut bytes.Buffer
	x := profile.NewExact()
	cfg := Config{Program: b.bin, Args: b.args, Observers: append([]cpu.Observer{x}, obs...),
		Kernel: syscalls.Config{Cwd: b.dir, ExePath: "/" + b.name, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut, Warn: &errOut}}
	if acfs != nil {
		cfg.DISE = &DISEOptions{ACF: acfs, Handlers: handlersELF(t), Trigger: trigger}
	}
	mc, err := Load(cfg)
	require.NoError(t, err)
	res := mc.Run()
	require.Equal(t, StopExit, res.Stop, res.Message)
	require.Equal(t, 0, res.ExitCode)
	require.Empty(t, errOut.String())
	return run{res: res, mc: mc, stdout: out.Bytes(), exact: x}
}

// Handler calls preserve every application register: regcheck fills them
// all and checks them after branches, a call and a return that an ACF
// replaces with calls of every handler. A handler that clobbers t0 is
// caught.
func TestHandlersPreserveRegisters(t *testing.T) {
	prog := artifact(t, "build/handlers/regcheck", "make -C toolchain/handlers")
	body := `
P1: T.OPCLASS == branch -> R1
P2: T.OPCLASS == call || T.OPCLASS == return -> R2
R1: {
	call(Branch_handler, T.PC, T.ICOUNT, $d7)
	call(HotMethod_backedge, T.PC)
	T.OP T.RS1, T.RS2, taken
	T.INSN
	j done
taken:
	call(HANDLER)
	T.INSN
done:
}
R2: call(CallPair_handler, T.PC, T.TARGET); call(HotMethod_handler, T.TARGET); T.INSN
`
	dir := t.TempDir()
	for _, tc := range []struct {
		desc, handler string
		exit          int
	}{
		{"every handler preserves every register", "Null_handler", 0},
		{"a handler that clobbers t0 is caught", "Clobber_handler", 5},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			path := filepath.Join(dir, tc.handler+".acf")
			require.NoError(t, os.WriteFile(path, []byte(strings.ReplaceAll(body, "HANDLER", tc.handler)), 0o644))
			var out bytes.Buffer
			mc, err := Load(Config{Program: prog, Kernel: syscalls.Config{Stdout: &out, Stderr: &out, Warn: &out},
				DISE: &DISEOptions{ACF: []string{path}, Handlers: handlersELF(t)}})
			require.NoError(t, err)
			res := mc.Run()
			require.Equal(t, StopExit, res.Stop, res.Message)
			assert.Equal(t, tc.exit, res.ExitCode, "regcheck's verdict")
			d := res.DISE
			require.NotNil(t, d)
			if tc.exit == 0 {
				assert.Greater(t, d.HandlerCalls, uint64(1000))
				assert.Greater(t, d.Replacements, uint64(500))
			}
		})
	}
	// Without DISE, regcheck passes too (the program itself is right).
	mc, err := Load(Config{Program: prog, Kernel: syscalls.Config{Stdout: os.Stderr, Stderr: os.Stderr, Warn: os.Stderr}})
	require.NoError(t, err)
	assert.Equal(t, 0, mc.Run().ExitCode)
}

// The exhaustive profiles the handlers collect equal the exact profiles of
// the same run's instruction stream, and profiling leaves the output alone.
func TestExhaustiveEqualsExact(t *testing.T) {
	for _, tc := range []struct{ name, prof string }{
		// Exhaustive code-region profiling runs a handler per branch: on
		// the program with the fewest branches only.
		{"nbody", "hot-code-region"},
		{"netflow", "hot-method"}, {"hashjoin", "hot-method"}, {"nbody", "hot-method"},
		{"netflow", "call-pair"}, {"hashjoin", "call-pair"}, {"nbody", "call-pair"},
	} {
		name, prof := tc.name, tc.prof
		{
			t.Run(name+"/"+prof, func(t *testing.T) {
				t.Parallel()
				b := benchmark(t, name)
				r := runDISE(t, b, []string{acf(prof)}, "")
				assert.Equal(t, string(b.stdout), string(r.stdout), "output unchanged")
				got, err := r.mc.HandlerCounts()
				require.NoError(t, err)
				want := r.exact.Counts
				assert.Zero(t, got.Dropped)
				switch prof {
				case "hot-code-region":
					require.NotEmpty(t, want.Regions)
					assert.Equal(t, want.Regions, got.Regions)
				case "hot-method":
					require.NotEmpty(t, want.Calls)
					require.NotEmpty(t, want.Backedges)
					assert.Equal(t, want.Calls, got.Calls)
					assert.Equal(t, want.Backedges, got.Backedges)
				case "call-pair":
					require.NotEmpty(t, want.Pairs)
					assert.Equal(t, want.Pairs, got.Pairs)
				}
				kind := map[string]profile.Kind{"hot-code-region": profile.CodeRegion, "hot-method": profile.Method, "call-pair": profile.CallPair}[prof]
				ps, err := r.mc.Profiles()
				require.NoError(t, err)
				require.Len(t, ps, 1)
				assert.Equal(t, profile.Build(kind, want, r.mc.Symbolizer()).Entries, ps[0].Entries)
				assert.Equal(t, kind, ps[0].Type)
				// Named from the ELF's symbols: the benchmark has a main.
				var names []string
				for _, e := range ps[0].Entries {
					names = append(names, e.Function, e.Caller, e.Callee)
				}
				assert.Contains(t, names, "main")
				assert.Equal(t, r.exact.App, r.res.DISE.AppInstructions, "the core's application count")
			})
		}
	}
}

// Every shipped ACF leaves the program's output unchanged (the sampled
// ones with a trigger), and the DISE statistics add up.
func TestShippedACFsKeepOutput(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(repo, "acf", "*.acf"))
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(files), 11)
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".acf")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			b := benchmark(t, "nbody")
			trigger := ""
			if strings.HasSuffix(name, "-hps") || strings.HasSuffix(name, "-dise") || name == "hps-triggers" {
				trigger = "periodic:50000:5000"
			}
			r := runDISE(t, b, []string{f}, trigger)
			assert.Equal(t, string(b.stdout), string(r.stdout))
			d := r.res.DISE
			require.NotNil(t, d)
			assert.Equal(t, r.res.Instructions, d.AppInstructions+d.InjectedTotal()+d.HandlerInstructions)
			assert.Equal(t, r.exact.App, d.AppInstructions)
			if trigger != "" {
				assert.Greater(t, d.Triggers, uint64(10))
			}
			if name != "hps-triggers" {
				assert.Greater(t, d.HandlerCalls, uint64(0))
			}
		})
	}
}

// windowed is the exact profile of the events in the sampling windows
// [k·period, k·period+length) of application instructions: what a sampled
// profiler must collect.
type windowed struct {
	period, length uint64
	app            uint64
	counts         *profile.Counts
	lastBr         uint64
	lastWin        uint64
	haveBr         bool
}

func (w *windowed) Retire(batch []cpu.DynInst) {
	c := w.counts
	for i := range batch {
		d := &batch[i]
		if d.Injected || d.Handler {
			continue
		}
		k, off := w.app/w.period, w.app%w.period
		if k > 0 && off < w.length {
			switch d.Inst.Class {
			case isa.Branch:
				r := c.Regions[d.PC]
				r.Count++
				if w.haveBr && w.lastWin == k {
					r.Instructions += w.app - w.lastBr
				} else {
					r.Unattributed++
				}
				c.Regions[d.PC] = r
				w.lastBr, w.lastWin, w.haveBr = w.app, k, true
				if d.Taken && d.NextPC < d.PC {
					c.Backedges[d.PC]++
				}
			case isa.Call:
				c.Calls[d.NextPC]++
				c.Pairs[profile.Pair{Site: d.PC, Target: d.NextPC}]++
			}
		}
		w.app++
	}
}

// Sampled profiles: the HPS and DISE-only variants collect exactly the
// events in the trigger's windows (so exactly the same profile), about
// LENGTH/PERIOD of all events; the HPS variant replaces far fewer
// instructions.
func TestSampledVariants(t *testing.T) {
	const period, length = 20000, 1000
	trigger := fmt.Sprintf("periodic:%d:%d", period, length)
	for _, prof := range []string{"hot-code-region", "hot-method", "call-pair"} {
		t.Run(prof, func(t *testing.T) {
			t.Parallel()
			b := benchmark(t, "exprc")
			var counts [2]*profile.Counts
			var stats [2]*DISEResult
			for i, variant := range []string{"-hps", "-dise"} {
				w := &windowed{period: period, length: length, counts: profile.NewCounts()}
				r := runDISE(t, b, []string{acf(prof + variant)}, trigger, w)
				got, err := r.mc.HandlerCounts()
				require.NoError(t, err)
				switch prof {
				case "hot-code-region":
					assert.Equal(t, w.counts.Regions, got.Regions, variant)
				case "hot-method":
					assert.Equal(t, w.counts.Calls, got.Calls, variant)
					assert.Equal(t, w.counts.Backedges, got.Backedges, variant)
				case "call-pair":
					assert.Equal(t, w.counts.Pairs, got.Pairs, variant)
				}
				kind := map[string]profile.Kind{"hot-code-region": profile.CodeRegion, "hot-method": profile.Method, "call-pair": profile.CallPair}[prof]
				frac := float64(got.Events(kind)) / float64(r.exact.Counts.Events(kind))
				assert.InDelta(t, float64(length)/period, frac, 0.5*float64(length)/period, "%s: sampled fraction", variant)
				counts[i], stats[i] = got, r.res.DISE
			}
			assert.Equal(t, counts[0], counts[1], "HPS and DISE-only sample the same events")
			assert.Less(t, 10*stats[0].Replacements, stats[1].Replacements, "HPS replaces only while sampling")
			assert.Equal(t, stats[0].HandlerCalls, stats[1].HandlerCalls)
		})
	}
}

// A random trigger samples about 1/P of the intervals, reproducibly.
func TestRandomTrigger(t *testing.T) {
	b := benchmark(t, "netflow")
	r1 := runDISE(t, b, []string{acf("call-pair-hps")}, "random:10:2000:7")
	r2 := runDISE(t, b, []string{acf("call-pair-hps")}, "random:10:2000:7")
	c1, err := r1.mc.HandlerCounts()
	require.NoError(t, err)
	c2, err := r2.mc.HandlerCounts()
	require.NoError(t, err)
	assert.Equal(t, c1.Pairs, c2.Pairs, "same seed, same samples")
	frac := float64(c1.Events(profile.CallPair)) / float64(r1.exact.Counts.Events(profile.CallPair))
	assert.InDelta(t, 0.1, frac, 0.05)
}

// The sampling framework with bursty tracing (§3.4, internal triggers) on
// HPS counters collects exactly the branches a software model of the same
// counters says are in a burst.
func TestBurstyTracing(t *testing.T) {
	b := benchmark(t, "gametree")
	m := &burstModel{counts: profile.NewCounts(), c0: 0xffff - 999, c1: 0xffff - 9}
	r := runDISE(t, b, []string{acf("sampling-framework")}, "", m)
	got, err := r.mc.HandlerCounts()
	require.NoError(t, err)
	require.NotEmpty(t, m.counts.Regions)
	assert.Equal(t, m.counts.Regions, got.Regions)
	frac := float64(got.Events(profile.CodeRegion)) / float64(r.exact.Counts.Events(profile.CodeRegion))
	assert.Greater(t, frac, 0.001)
	assert.Less(t, frac, 0.1)
	assert.Greater(t, m.bursts, 10)
	d := r.res.DISE
	assert.Zero(t, d.Triggers, "no external trigger")
	assert.Greater(t, d.Engine.MicroOps, uint64(1000))
}

// burstModel is sampling-framework.acf written as software.
type burstModel struct {
	counts        *profile.Counts
	c0, c1        uint64
	ov0, ov1      bool
	app           uint64
	epoch, lastEp uint64
	lastBr        uint64
	bursts        int
}

func (m *burstModel) Retire(batch []cpu.DynInst) {
	inc := func(c *uint64, ov *bool) {
		*c = (*c + 1) & 0xffff
		if *c == 0 {
			*ov = true
		}
	}
	event := func(pc uint64) {
		r := m.counts.Regions[pc]
		r.Count++
		if m.epoch == m.lastEp {
			r.Instructions += m.app - m.lastBr
		} else {
			r.Unattributed++
		}
		m.counts.Regions[pc] = r
		m.lastBr, m.lastEp = m.app, m.epoch
	}
	for i := range batch {
		d := &batch[i]
		if d.Injected || d.Handler {
			continue
		}
		call := d.Inst.Class == isa.Call
		branch := d.Inst.Class == isa.Branch
		back := branch && d.PC+uint64(d.Inst.Imm) < d.PC
		switch {
		case call && !m.ov0, back && !m.ov0:
			inc(&m.c0, &m.ov0)
			if m.ov0 {
				m.bursts++
			}
		case call && m.ov0 && !m.ov1:
			inc(&m.c1, &m.ov1)
		case back && m.ov0 && !m.ov1:
			inc(&m.c1, &m.ov1)
			event(d.PC)
		case (call || back) && m.ov0 && m.ov1:
			m.c0, m.c1, m.ov0, m.ov1 = 0xffff-999, 0xffff-9, false, false
			m.epoch++
		case branch && m.ov0:
			event(d.PC)
		}
		m.app++
	}
}

func TestDISELoadErrors(t *testing.T) {
	b := benchmark(t, "netflow")
	for _, tc := range []struct {
		desc string
		o    DISEOptions
		err  string
	}{
		{"trigger without trigger productions", DISEOptions{ACF: []string{acf("call-pair")}, Trigger: "periodic:1000:10"},
			"no production of"},
		{"bad trigger", DISEOptions{ACF: []string{acf("call-pair-hps")}, Trigger: "periodic:10:10"}, "LENGTH must be less than PERIOD"},
		{"missing runtime", DISEOptions{ACF: []string{acf("call-pair")}, Handlers: "/nonexistent/h.elf"}, "handler runtime: /nonexistent/h.elf"},
		{"not a runtime", DISEOptions{ACF: []string{acf("call-pair")}, Handlers: b.bin}, "overlaps the program's memory"},
		{"ACF errors", DISEOptions{ACF: []string{filepath.Join(repo, "dise", "testdata", "check.acf")}}, "check.acf:3:10: dise_reg HPS_R0 redeclared"},
		{"no ACF", DISEOptions{}, "no ACF file"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			o := tc.o
			if o.Handlers == "" {
				o.Handlers = handlersELF(t)
			}
			_, err := Load(Config{Program: b.bin, DISE: &o})
			require.ErrorContains(t, err, tc.err)
		})
	}
}

// --stats gains the dise object.
func TestDISEStats(t *testing.T) {
	b := benchmark(t, "netflow")
	r := runDISE(t, b, []string{acf("call-pair-hps")}, "periodic:100000:1000")
	st := Stats(&r.res, "functional")
	d, ok := st["dise"].(map[string]any)
	require.True(t, ok)
	for _, k := range []string{"replacements", "injected_instructions", "handler_instructions", "handler_calls", "triggers", "application_instructions"} {
		assert.Contains(t, d, k)
	}
	assert.Equal(t, r.res.DISE.Replacements, d["replacements"])
	assert.Greater(t, d["handler_instructions"], uint64(0))
	assert.Equal(t, "periodic:100000:1000", d["trigger"])
}
