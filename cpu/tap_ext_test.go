package cpu_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/difftest/gen"
	"github.com/rvsim/rvsim/isa"
	"github.com/rvsim/rvsim/sim"
	"github.com/rvsim/rvsim/suite"
	"github.com/rvsim/rvsim/syscalls"
)

// The tap against the observer on programs nobody wrote by hand: random
// programs (difftest/gen: every instruction kind, compressed code,
// self-modifying code and fence.i) and every benchmark's test input.

type recorder struct{ insts []cpu.DynInst }

func (r *recorder) Retire(b []cpu.DynInst) { r.insts = append(r.insts, b...) }

// runGenerated runs a generated program to its exit ecall in chunks of
// random size (nil: as one Run), checking every stop the tap log asked
// for against ref.
func runGenerated(t *testing.T, c *cpu.CPU, log *cpu.TapLog, chunks *rand.Rand, ref []cpu.DynInst) {
	t.Helper()
	for i := 0; ; i++ {
		require.Less(t, i, 1000000, "no exit")
		n := uint64(1 << 24)
		if chunks != nil {
			n = 1 + chunks.Uint64N(30)
		}
		before := c.Instret
		exit := c.Run(n)
		switch exit.Reason {
		case cpu.StopEcall:
			return
		case cpu.StopLimit:
		case cpu.StopRequest:
			require.NotNil(t, log)
			cpu.CheckTapStop(t, c, log.StopAt, ref, false)
			if c.Instret == before {
				require.Equal(t, c.Instret, log.StopAt.Seq+1)
			}
			log.StopAt = nil
		default:
			t.Fatalf("stopped: %v %s at pc %#x", exit.Reason, exit.Fault.Error(), c.PC)
		}
	}
}

var extMasks = []struct {
	desc string
	mask cpu.ClassMask
}{
	{"loads", cpu.LoadClasses},
	{"control transfers", cpu.BranchClasses},
	{"stores, atomics, FP", cpu.ClassesOf(isa.Store, isa.AMO, isa.FPAdd, isa.FPMul, isa.FPDiv, isa.FPConv)},
	{"integer ALU, mul, div, CSR, fence", cpu.ClassesOf(isa.IntALU, isa.Mul, isa.Div, isa.CSR, isa.Fence)},
	{"all", cpu.AllClasses},
}

// TestTapRandomPrograms: on random programs, for every mask, delivery
// limit 1, 7 and the default, with and without stop requests, in one Run
// and in random chunks, the tap's records are the observer's records of
// the tapped classes, and the run is unchanged (registers, instruction
// count, class mix).
func TestTapRandomPrograms(t *testing.T) {
	eachRandomProgram(t, func(seed uint64, p *gen.Program) {
		machine := func() *cpu.CPU {
			c, _, err := p.Machine()
			require.NoError(t, err)
			c.CountMix = true
			return c
		}
		ref := machine()
		rec := &recorder{}
		ref.SetObserver(rec)
		runGenerated(t, ref, nil, nil, nil)
		repro := gen.ReproCommand(seed, 400)
		for _, m := range extMasks {
			want := cpu.FilterClasses(rec.insts, m.mask)
			for _, next := range []int{1, 7, 0} {
				for _, stop := range []bool{false, true} {
					var chunks *rand.Rand
					if stop { // (chunked and stopped at once: both cut blocks at awkward points)
						chunks = rand.New(rand.NewPCG(seed, uint64(next)))
					}
					name := fmt.Sprintf("seed %d (%s), %s, next=%d stop=%v", seed, repro, m.desc, next, stop)
					c := machine()
					log := &cpu.TapLog{T: t, C: c, Next: next, Stop: stop}
					c.SetTap(m.mask, log)
					runGenerated(t, c, log, chunks, rec.insts)
					cpu.RequireSameRecords(t, want, log.Recs, name)
					require.Equal(t, ref.Instret, c.Instret, name)
					require.Equal(t, ref.X, c.X, name)
					require.Equal(t, ref.F, c.F, name)
					require.Equal(t, ref.ClassMix(), c.ClassMix(), name)
				}
			}
		}
	})
}

// benchmarksAndDISE returns the builtin benchmarks and, when the DISE
// handler runtime is built, a DISE profiler to attach to them (call-pair:
// every call replaced by a sequence with a handler call);
// RVSIM_REQUIRE_ARTIFACTS=1 makes a missing runtime a failure.
func benchmarksAndDISE(t *testing.T) ([]suite.Benchmark, *sim.DISEOptions) {
	bs, err := suite.Discover(filepath.Join("..", "benchmarks"), filepath.Join("..", "build", "benchmarks"))
	require.NoError(t, err)
	handlers := filepath.Join("..", "build", "handlers", "rvsim-handlers.elf")
	if _, err := os.Stat(handlers); err != nil {
		if os.Getenv("RVSIM_REQUIRE_ARTIFACTS") == "1" {
			t.Fatalf("%s is not built: run 'make handlers'", handlers)
		}
		return bs, nil
	}
	return bs, &sim.DISEOptions{ACF: []string{filepath.Join("..", "acf", "call-pair-dise.acf")}, Handlers: handlers}
}

// eachRandomProgram runs f on difftest's random programs of 400
// instructions, seeds 1 to 60 (10 under -short).
func eachRandomProgram(t *testing.T, f func(seed uint64, p *gen.Program)) {
	count := 60
	if testing.Short() {
		count = 10
	}
	for seed := uint64(1); seed <= uint64(count); seed++ {
		p, err := gen.Generate(seed, 400)
		require.NoError(t, err)
		f(seed, p)
	}
}

// recordHash folds records into a running hash, one value per chunk of
// hashChunk records, so that whole benchmark runs can be compared without
// keeping their records.
type recordHash struct {
	mask   cpu.ClassMask
	n      int
	h      uint64
	chunks []uint64
	// capture keeps the records of chunk captureAt (-1: none), to show the
	// first difference.
	captureAt int
	captured  []cpu.DynInst
}

const hashChunk = 1 << 14

func newRecordHash(mask cpu.ClassMask, captureAt int) *recordHash {
	return &recordHash{mask: mask, captureAt: captureAt}
}

func mix(h, v uint64) uint64 {
	h ^= v
	h *= 0x9e3779b97f4a7c15
	return h ^ h>>29
}

func (rh *recordHash) add(r *cpu.DynInst) {
	if !rh.mask.Has(r.Inst.Class) {
		return
	}
	if rh.n/hashChunk == rh.captureAt {
		rh.captured = append(rh.captured, *r)
	}
	in := &r.Inst
	h := mix(rh.h, r.Seq)
	h = mix(h, r.PC)
	h = mix(h, r.NextPC)
	h = mix(h, uint64(in.Op)|uint64(in.COp)<<8|uint64(in.Class)<<16|uint64(in.Rd)<<24|uint64(in.Rs1)<<32|
		uint64(in.Rs2)<<40|uint64(in.Rs3)<<48|uint64(in.Rm)<<56)
	h = mix(h, uint64(in.Len)|uint64(in.Csr)<<8|uint64(in.Raw)<<32)
	h = mix(h, uint64(in.Imm))
	h = mix(h, r.Addr)
	h = mix(h, r.Result)
	var flags uint64
	for i, b := range []bool{r.Taken, r.Injected, r.Replaced, r.Handler} {
		if b {
			flags |= 1 << i
		}
	}
	rh.h = mix(h, uint64(r.Size)|flags<<8)
	if rh.n++; rh.n%hashChunk == 0 {
		rh.chunks = append(rh.chunks, rh.h)
	}
}

func (rh *recordHash) final() []uint64 { return append(rh.chunks, rh.h, uint64(rh.n)) }

// hashObserver hashes the observer's stream for several masks at once.
type hashObserver []*recordHash

func (o hashObserver) Retire(b []cpu.DynInst) {
	for i := range b {
		for _, rh := range o {
			rh.add(&b[i])
		}
	}
}

// hashSink is a tap sink that hashes what it gets and, with stop, asks
// the core to stop at every delivery the limit caused.
type hashSink struct {
	t     *testing.T
	c     *cpu.CPU
	rh    *recordHash
	next  int
	stop  bool
	limit int
	at    cpu.DynInst
	asked bool
	stops int
}

func (s *hashSink) Tapped(recs []cpu.DynInst) int {
	if len(recs) > s.limit {
		s.t.Errorf("tap delivered %d records, more than the %d asked for", len(recs), s.limit)
	}
	for i := range recs {
		s.rh.add(&recs[i])
	}
	if s.stop && len(recs) > 0 && len(recs) == s.limit {
		s.at, s.asked = recs[len(recs)-1], true
		s.stops++
		s.c.RequestStop()
	}
	s.limit = cpu.EffectiveTapLimit(s.next)
	return s.next
}

// benchRun is one run of a benchmark's test input: with obs observing, or
// with a tap of mask (sink). It returns the result and the output.
func benchRun(t *testing.T, b suite.Benchmark, in suite.Input, dise *sim.DISEOptions, obs cpu.Observer,
	mask cpu.ClassMask, sink *hashSink) (sim.Result, []byte) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cfg := sim.Config{
		Program: b.Binary, Args: in.Args, CountMix: true, DISE: dise,
		Kernel: syscalls.Config{Cwd: b.Dir, ExePath: "/" + b.Name,
			Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr, Warn: &stderr},
	}
	if obs != nil {
		cfg.Observers = []cpu.Observer{obs}
	}
	mc, err := sim.Load(cfg)
	require.NoError(t, err)
	c := mc.CPU
	if sink != nil {
		sink.c, sink.limit = c, cpu.EffectiveTapLimit(sink.next)
		c.SetTap(mask, sink)
	}
	var res sim.Result
	if dise != nil {
		res = mc.Run() // (its triggers need sim's own loop; no stops then)
	} else {
		for {
			exit := c.Run(^uint64(0))
			if exit.Reason == cpu.StopRequest {
				require.True(t, sink.asked, "StopRequest nobody asked for")
				require.Equal(t, sink.at.Seq+1, c.Instret, "stopped right after the record (%+v)", sink.at)
				require.Equal(t, sink.at.NextPC, c.PC)
				sink.asked = false
				continue
			}
			if mc.Service(exit, &res) {
				break
			}
		}
		res.Instructions, res.Mix = c.Instret, c.ClassMix()
	}
	require.Empty(t, stderr.String())
	require.Zero(t, res.ExitCode, res.Message)
	return res, stdout.Bytes()
}

// TestTapBenchmarks: on every benchmark's test input, for several masks
// and limits (with stop requests at every delivery for limits 1 and 7),
// the tap's stream equals the observer's records of the tapped classes
// (compared by hashes of chunks of records; the first differing chunk is
// rerun to show the records), and the program's output, instruction count
// and class mix are unchanged. Also with a DISE profiler (call-pair,
// every call replaced by a handler call) attached.
func TestTapBenchmarks(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the benchmarks' test inputs take a minute")
	}
	bs, dise := benchmarksAndDISE(t)
	type combo struct {
		mask cpu.ClassMask
		desc string
		next int
		stop bool
		dise bool
	}
	combos := []combo{
		{cpu.LoadClasses, "loads", 0, false, false},
		{cpu.LoadClasses, "loads", 1, true, false},
		{cpu.BranchClasses, "control transfers", 7, true, false},
		{cpu.ClassesOf(isa.Store, isa.AMO, isa.CSR, isa.System, isa.Fence, isa.FPAdd, isa.FPMul, isa.FPDiv, isa.FPConv),
			"stores, atomics, system, FP", 1, true, false},
		{cpu.AllClasses, "all", 7, true, false},
		{cpu.ClassesOf(isa.Call, isa.Return, isa.Load, isa.Store), "DISE: calls, returns, loads, stores", 5, false, true},
	}
	for _, b := range bs {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			if !b.Built() {
				if os.Getenv("RVSIM_REQUIRE_ARTIFACTS") == "1" {
					t.Fatalf("%s is not built: run 'make benchmarks'", b.Binary)
				}
				t.Skipf("%s is not built (run 'make benchmarks'; RVSIM_REQUIRE_ARTIFACTS=1 makes this a failure)", b.Binary)
			}
			in, err := b.Input("test")
			require.NoError(t, err)
			// One observed run per DISE setting hashes the stream for every mask.
			refs := map[bool]hashObserver{}
			results := map[bool]sim.Result{}
			for _, withDISE := range []bool{false, true} {
				if withDISE && dise == nil {
					continue
				}
				var obs hashObserver
				for _, cb := range combos {
					obs = append(obs, newRecordHash(cb.mask, -1))
				}
				var d *sim.DISEOptions
				if withDISE {
					d = dise
				}
				res, out := benchRun(t, b, in, d, obs, 0, nil)
				require.Empty(t, suite.FirstDifference(in.Stdout, out), "observed run")
				refs[withDISE], results[withDISE] = obs, res
			}
			for i, cb := range combos {
				if cb.dise && dise == nil {
					continue
				}
				name := fmt.Sprintf("%s next=%d stop=%v", cb.desc, cb.next, cb.stop)
				var d *sim.DISEOptions
				if cb.dise {
					d = dise
				}
				sink := &hashSink{t: t, rh: newRecordHash(cb.mask, -1), next: cb.next, stop: cb.stop}
				res, out := benchRun(t, b, in, d, nil, cb.mask, sink)
				require.Empty(t, suite.FirstDifference(in.Stdout, out), name)
				want := results[cb.dise]
				require.Equal(t, want.Instructions, res.Instructions, name)
				require.Equal(t, want.Mix, res.Mix, name)
				if cb.stop {
					require.NotZero(t, sink.stops, name)
				}
				wh, gh := refs[cb.dise][i].final(), sink.rh.final()
				if equalHashes(wh, gh) {
					continue
				}
				// Show the first difference: rerun both, keeping that chunk.
				k := 0
				for k < min(len(wh), len(gh)) && wh[k] == gh[k] {
					k++
				}
				ref := newRecordHash(cb.mask, k)
				benchRun(t, b, in, d, hashObserver{ref}, 0, nil)
				got := &hashSink{t: t, rh: newRecordHash(cb.mask, k), next: cb.next}
				benchRun(t, b, in, d, nil, cb.mask, got)
				cpu.RequireSameRecords(t, ref.captured, got.rh.captured, fmt.Sprintf("%s, chunk %d", name, k))
				t.Fatalf("%s: the streams' hashes differ (%d records, want %d)", name, gh[len(gh)-1], wh[len(wh)-1])
			}
		})
	}
}

func equalHashes(a, b []uint64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// countSink counts tapped records: the cheapest useful sink.
type countSink struct{ n int }

func (s *countSink) Tapped(recs []cpu.DynInst) int { s.n += len(recs); return 0 }

type discard struct{}

func (discard) Retire([]cpu.DynInst) {}

// BenchmarkTapPrograms runs every benchmark's test input in functional
// mode with no tap, with loads, with control transfers and with every
// class tapped (a sink that counts), and with an observer that discards:
// the tap's cost on real programs (docs/ARCHITECTURE.md).
func BenchmarkTapPrograms(b *testing.B) {
	bs, err := suite.Discover(filepath.Join("..", "benchmarks"), filepath.Join("..", "build", "benchmarks"))
	if err != nil {
		b.Fatal(err)
	}
	modes := []struct {
		desc     string
		mask     cpu.ClassMask
		observer bool
	}{
		{"none", 0, false},
		{"loads", cpu.LoadClasses, false},
		{"branches", cpu.BranchClasses, false},
		{"stores", cpu.ClassesOf(isa.Store), false},
		{"all", cpu.AllClasses, false},
		{"observer", 0, true},
	}
	for _, bm := range bs {
		if !bm.Built() {
			b.Skipf("%s is not built: run 'make benchmarks'", bm.Binary)
		}
		in, err := bm.Input("test")
		if err != nil {
			b.Fatal(err)
		}
		for _, mode := range modes {
			b.Run(bm.Name+"/"+mode.desc, func(b *testing.B) {
				var insts uint64
				for range b.N {
					var out bytes.Buffer
					cfg := sim.Config{Program: bm.Binary, Args: in.Args,
						Kernel: syscalls.Config{Cwd: bm.Dir, ExePath: "/" + bm.Name,
							Stdin: strings.NewReader(""), Stdout: &out, Stderr: &out, Warn: &out}}
					if mode.observer {
						cfg.Observers = []cpu.Observer{discard{}}
					}
					mc, err := sim.Load(cfg)
					if err != nil {
						b.Fatal(err)
					}
					sink := &countSink{}
					mc.CPU.SetTap(mode.mask, sink)
					res := mc.Run()
					if d := suite.FirstDifference(in.Stdout, out.Bytes()); d != "" {
						b.Fatal(d)
					}
					insts += res.Instructions
				}
				b.ReportMetric(float64(insts)/b.Elapsed().Seconds()/1e6, "MIPS")
			})
		}
	}
}

// valueDrop and controlDrop take a value or control tap's batches and
// drop them: the tap's own cost, with no unit behind it.
type valueDrop struct{ n int }

func (s *valueDrop) TappedValues(v []cpu.TapValue) int { s.n += len(v); return cpu.TapBatchMax }
func (s *valueDrop) Tapped([]cpu.DynInst) int          { panic("a value tap delivers values") }

type controlDrop struct{ n int }

func (s *controlDrop) TappedControls(v []cpu.TapControl) int { s.n += len(v); return cpu.TapBatchMax }
func (s *controlDrop) Tapped([]cpu.DynInst) int              { panic("a control tap delivers controls") }

// BenchmarkTapRecords runs lisp's and lz's ref inputs translated (as
// functional runs go by default) with no tap, with a value tap and with a
// control tap whose sinks drop the records: what the translated record
// costs the simulation's thread, in ns per record over the plain run
// (docs/SPEED.md, "the translated tap's record").
func BenchmarkTapRecords(b *testing.B) {
	bs, err := suite.Discover(filepath.Join("..", "benchmarks"), filepath.Join("..", "build", "benchmarks"))
	if err != nil {
		b.Fatal(err)
	}
	for _, bm := range bs {
		if bm.Name != "lisp" && bm.Name != "lz" {
			continue
		}
		if !bm.Built() {
			b.Skipf("%s is not built: run 'make benchmarks'", bm.Binary)
		}
		in, err := bm.Input("ref")
		if err != nil {
			b.Fatal(err)
		}
		for _, mode := range []string{"none", "values", "controls"} {
			b.Run(bm.Name+"/"+mode, func(b *testing.B) {
				var recs int
				for range b.N {
					var out bytes.Buffer
					mc, err := sim.Load(sim.Config{Program: bm.Binary, Args: in.Args, JIT: true,
						Kernel: syscalls.Config{Cwd: bm.Dir, ExePath: "/" + bm.Name,
							Stdin: strings.NewReader(""), Stdout: &out, Stderr: &out, Warn: &out}})
					if err != nil {
						b.Fatal(err)
					}
					vs, cs := &valueDrop{}, &controlDrop{}
					switch mode {
					case "values":
						mc.CPU.SetTapValues(true)
						mc.CPU.SetTap(cpu.LoadClasses, vs)
					case "controls":
						mc.CPU.SetTapControls(true)
						mc.CPU.SetTap(cpu.BranchClasses, cs)
					}
					mc.Run()
					recs += vs.n + cs.n
					if d := suite.FirstDifference(in.Stdout, out.Bytes()); d != "" {
						b.Fatal(d)
					}
				}
				b.ReportMetric(float64(recs)/float64(b.N), "records/op")
			})
		}
	}
}
