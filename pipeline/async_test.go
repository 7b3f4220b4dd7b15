package pipeline

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/config"
	"github.com/rvsim/rvsim/cpu"
)

// deliverer feeds a recorded stream to an observer the way the CPU does:
// deliveries of random length up to 256 from a buffer it reuses, with a
// cycle CSR read (cycleAt) after some deliveries.
type deliverer struct {
	insts []cpu.DynInst
	rng   *rand.Rand
}

// run feeds every record to o and returns the cycleAt values read.
func (d deliverer) run(o cpu.Observer, cycleAt func(uint64) uint64) []uint64 {
	var reads []uint64
	buf := make([]cpu.DynInst, 0, 256)
	for i := 0; i < len(d.insts); {
		n := min(1+d.rng.IntN(cap(buf)), len(d.insts)-i)
		buf = append(buf[:0], d.insts[i:i+n]...)
		i += n
		o.Retire(buf)
		for j := range buf { // the CPU overwrites its buffer
			buf[j] = cpu.DynInst{}
		}
		if d.rng.IntN(8) == 0 {
			reads = append(reads, cycleAt(uint64(i)))
		}
	}
	return reads
}

// TestAsyncMatchesInline: the model on its own goroutine, fed deliveries
// of random length, staged (the producer classifies the records; with a
// retire hook, the hooked records come along and the twin takes the same
// slots), gives at every cycle CSR read and at the end what the model inline
// gives after the same deliveries, on every preset.
func TestAsyncMatchesInline(t *testing.T) {
	code, setup := mixedProgram(t)
	insts := record(t, code, setup)
	require.Greater(t, len(insts), 2*asyncGroup, "the stream spans several groups")
	for _, preset := range config.Presets() {
		m, err := config.Preset(preset)
		require.NoError(t, err)
		for _, tc := range []struct {
			hook    bool
			classes cpu.ClassMask
		}{{false, 0}, {true, cpu.AllClasses}, {true, cpu.LoadClasses}} {
			// The hook stalls commit now and then, by what its record
			// says: the model's results depend on it. It counts the
			// records of classes it does not watch.
			var strays atomic.Int64
			hook := func(r *Commit) uint64 {
				if !tc.classes.Has(r.D.Inst.Class) {
					strays.Add(1)
				}
				return (r.D.Seq ^ r.D.Addr>>3 ^ r.D.PC>>1) % 29 / 28 * 5
			}
			newCore := func() *Core {
				c, err := New(m)
				require.NoError(t, err)
				if tc.hook {
					c.SetRetireHook(hook, tc.classes)
				}
				return c
			}
			for seed := uint64(1); seed <= 2; seed++ {
				d := deliverer{insts: insts, rng: rand.New(rand.NewPCG(seed, 0))}
				ref := newCore()
				want := d.run(ref, ref.CycleAt)
				require.NoError(t, ref.Finish())

				d = deliverer{insts: insts, rng: rand.New(rand.NewPCG(seed, 0))}
				c := newCore()
				a := NewAsync(c)
				got := d.run(a, a.CycleAt)
				require.NoError(t, a.Finish())
				require.NotEmpty(t, want)
				require.Equal(t, want, got, "%s %+v seed %d: the cycle CSR's values", preset, tc, seed)
				require.Equal(t, ref.Cycles(), c.Cycles(), "%s %+v seed %d", preset, tc, seed)
				require.True(t, reflect.DeepEqual(ref.Stats(), c.Stats()), "%s %+v seed %d: statistics differ", preset, tc, seed)
				require.Equal(t, ref.HookStallCycles(), c.HookStallCycles(), "%s %+v seed %d: the stalls' real cost", preset, tc, seed)
				require.Zero(t, strays.Load(), "%s %+v seed %d: the hook saw other classes", preset, tc, seed)
				if tc.hook {
					blocked, _, _ := c.HookStallCost()
					require.NotZero(t, blocked, "%s %+v seed %d: the hook stalled commit", preset, tc, seed)
				}
			}
		}
	}
}

// TestAsyncFailure: a model failure (injected at a mark, on the model's
// goroutine) gives Finish the same error as inline, calls the stop
// function once, on the delivering thread (at the first delivery after
// the failure is seen: a sync makes sure it is), and does not block the
// deliveries that follow it (more than the pipe holds).
func TestAsyncFailure(t *testing.T) {
	code, setup := mixedProgram(t)
	insts := record(t, code, setup)
	failAt := uint64(len(insts) / 4)
	for len(insts) < 3*asyncDepth*asyncGroup { // what follows the failure: more than the pipe holds
		insts = append(insts, insts...)
	}
	run := func(async bool) (error, int) {
		c, err := New(testMachine())
		require.NoError(t, err)
		c.SetMarks([]uint64{failAt}, func(int) { c.fail("injected") })
		stops := 0
		stop := func() { stops++ }
		var o cpu.Observer = c
		finish, cycleAt := c.Finish, c.CycleAt
		if async {
			a := NewAsync(c)
			a.SetStopFunc(stop)
			o, finish, cycleAt = a, a.Finish, a.CycleAt
		} else {
			c.SetStopFunc(stop)
		}
		// (The cycle CSR reads sync: the failure is seen before the end.)
		d := deliverer{insts: insts, rng: rand.New(rand.NewPCG(1, 0))}
		d.run(o, cycleAt)
		return finish(), stops
	}
	wantErr, wantStops := run(false)
	require.Error(t, wantErr)
	require.Contains(t, wantErr.Error(), "injected")
	require.Equal(t, 1, wantStops)
	err, stops := run(true)
	require.Equal(t, wantErr, err)
	require.Equal(t, 1, stops, "the stop function is called once")
}

// TestAsyncProducerWaits: a producer that outruns the model (no cycle
// CSR reads to sync it) finds every group in flight, sleeps until the
// model has freed several, and the run still ends with inline's results.
func TestAsyncProducerWaits(t *testing.T) {
	code, setup := mixedProgram(t)
	insts := record(t, code, setup)
	for len(insts) < 3*asyncDepth*asyncGroup {
		insts = append(insts, insts...)
	}
	noSync := func(uint64) uint64 { return 0 }
	ref, err := New(testMachine())
	require.NoError(t, err)
	deliverer{insts: insts, rng: rand.New(rand.NewPCG(5, 0))}.run(ref, noSync)
	require.NoError(t, ref.Finish())

	c, err := New(testMachine())
	require.NoError(t, err)
	a := NewAsync(c)
	done := make(chan error, 1)
	go func() {
		deliverer{insts: insts, rng: rand.New(rand.NewPCG(5, 0))}.run(a, noSync)
		done <- a.Finish()
	}()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(30 * time.Second):
		t.Fatal("the hand-over deadlocked")
	}
	require.Positive(t, a.waits, "the producer outran the model")
	require.Equal(t, ref.Cycles(), c.Cycles())
	require.True(t, reflect.DeepEqual(ref.Stats(), c.Stats()), "statistics differ")
}

// TestAsyncPredictionMatchesInline: the producer's branch prediction
// (streamPredictor: the predictor run in program order as the records are
// staged, fetch reading the outcome) gives what fetch's own prediction
// inline gives, on the mixed stream and a DISE stream (handler calls,
// dise.ret, injected calls), with tiny tables, a RAS of 1 entry (the
// handler's own call overwrites its entry: dise.ret mispredicts), no RAS
// and a perfect predictor. With an interval writer the producer does not
// predict (the lines read the predictor mid-run) and the lines agree.
func TestAsyncPredictionMatchesInline(t *testing.T) {
	code, setup := mixedProgram(t)
	streams := map[string][]cpu.DynInst{"mixed": record(t, code, setup), "dise": diseProgram(t)}
	base, err := config.Preset("hps")
	require.NoError(t, err)
	machines := map[string]func(b *config.BPred){
		"hps": func(*config.BPred) {},
		"tiny": func(b *config.BPred) {
			b.BimodalEntries, b.GshareEntries, b.MetaEntries, b.BTBEntries, b.BTBAssoc = 2, 2, 2, 2, 1
		},
		"ras1":    func(b *config.BPred) { b.RASDepth = 1 },
		"ras0":    func(b *config.BPred) { b.RASDepth = 0 },
		"perfect": func(b *config.BPred) { b.Kind = "perfect" },
		"bimodal": func(b *config.BPred) { b.Kind, b.BTBEntries, b.BTBAssoc, b.RASDepth = "bimodal", 4, 2, 2 },
	}
	for sname, insts := range streams {
		for mname, tweak := range machines {
			for _, intervals := range []bool{false, true} {
				m := *base
				tweak(&m.BPred)
				desc := fmt.Sprintf("%s/%s intervals %v", sname, mname, intervals)
				var refLines, lines strings.Builder
				d := deliverer{insts: insts, rng: rand.New(rand.NewPCG(3, 0))}
				ref, err := New(&m)
				require.NoError(t, err)
				if intervals {
					ref.SetIntervalWriter(&refLines, 5000)
				}
				want := d.run(ref, ref.CycleAt)
				require.NoError(t, ref.Finish())

				d = deliverer{insts: insts, rng: rand.New(rand.NewPCG(3, 0))}
				c, err := New(&m)
				require.NoError(t, err)
				if intervals {
					c.SetIntervalWriter(&lines, 5000)
				}
				a := NewAsync(c)
				got := d.run(a, a.CycleAt)
				require.NoError(t, a.Finish())
				require.Equal(t, !intervals, a.predict, desc)
				require.False(t, c.fetch.pre, "%s: the predictor is the Core's after Finish", desc)
				require.Equal(t, want, got, "%s: the cycle CSR's values", desc)
				require.Equal(t, ref.Cycles(), c.Cycles(), desc)
				require.Equal(t, ref.fetch, c.fetch, "%s: fetch's counters", desc)
				require.True(t, reflect.DeepEqual(ref.Stats(), c.Stats()), "%s: statistics differ", desc)
				require.Equal(t, refLines.String(), lines.String(), desc)
				if sname == "dise" && mname == "ras1" {
					require.NotZero(t, c.fetch.diseReturnMisses, "%s: dise.ret mispredicts", desc)
				}
			}
		}
	}
}
