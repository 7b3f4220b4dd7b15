package sim

import (
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/config"
	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/isa"
	"github.com/rvsim/rvsim/profhw/phase"
	"github.com/rvsim/rvsim/profile"
	"github.com/rvsim/rvsim/syscalls"
)

// appBranches counts the application's conditional branches per interval
// of application instructions: what the code-region ACF's productions
// (T.OPCLASS == branch) see while sampling is on.
type appBranches struct {
	interval, app uint64
	per           []uint64
}

func (a *appBranches) Retire(batch []cpu.DynInst) {
	for i := range batch {
		d := &batch[i]
		if d.Injected || d.Handler {
			continue
		}
		k := a.app / a.interval
		a.app++
		if d.Inst.Class == isa.Branch {
			for uint64(len(a.per)) <= k {
				a.per = append(a.per, 0)
			}
			a.per[k]++
		}
	}
}

func total(ps []profile.Profile) (n uint64) {
	for _, p := range ps {
		if p.Type == profile.CodeRegion {
			for _, e := range p.Entries {
				n += e.Count
			}
		}
	}
	return n
}

func runPhaseTrigger(t *testing.T, trigger string, timing bool, obs ...cpu.Observer) (*Machine, Result, []PhaseInterval) {
	t.Helper()
	bin := artifact(t, "build/testprogs/phase/phases", "make testprogs")
	var ivs []PhaseInterval
	cfg := Config{Program: bin, Observers: obs,
		DISE: &DISEOptions{ACF: []string{acf("hot-code-region-hps")}, Handlers: handlersELF(t), Trigger: trigger,
			OnInterval: func(iv PhaseInterval) error { ivs = append(ivs, iv); return nil }},
		Kernel: syscalls.Config{Stdout: io.Discard, Stderr: io.Discard, Warn: io.Discard, ExePath: "/bench/phases"}}
	if timing {
		cfg.Timing = config.Default()
		cfg.DISE.MaxAppInstructions = 1_500_000 // the same application work with and without the daemon
	}
	mc, err := Load(cfg)
	require.NoError(t, err)
	res := mc.Run()
	require.NotNil(t, res.DISE.Phase)
	require.NoError(t, res.DISE.Phase.Err())
	return mc, res, ivs
}

// TestPhaseTriggerSamplesChosenIntervals: on the phases program (loops
// A B A C B A), HPS is on exactly for the intervals the daemon chose: each
// sampled interval's profile holds every application branch of that
// interval, and the run's whole profile is the sum of the sampled ones.
func TestPhaseTriggerSamplesChosenIntervals(t *testing.T) {
	for _, pol := range []string{"third", "first", "centroid"} {
		t.Run(pol, func(t *testing.T) {
			const interval = 50000
			ab := &appBranches{interval: interval}
			mc, res, ivs := runPhaseTrigger(t, "phase:"+pol+":interval=50000", false, ab)
			ph := res.DISE.Phase
			require.Len(t, ivs, ph.Intervals)
			require.Greater(t, ph.Phases, 2)
			var chosen []int
			var sum uint64
			for i, iv := range ivs {
				assert.Equal(t, i, iv.Index)
				assert.Equal(t, ph.Sequence[i], iv.Phase)
				if !iv.Sampled {
					assert.Nil(t, iv.Profiles, "interval %d", i)
					continue
				}
				chosen = append(chosen, i)
				got := total(iv.Profiles)
				assert.Equal(t, ab.per[i], got, "interval %d: the profile's branches against the interval's", i)
				sum += got
			}
			var samples []int
			for _, s := range ph.Samples {
				samples = append(samples, s.Interval)
			}
			assert.Equal(t, samples, chosen)
			// The policy's own choice, replayed on the run's phase sequence.
			want := replay(t, pol, ph)
			assert.Equal(t, want, chosen)
			ps, err := mc.Profiles()
			require.NoError(t, err)
			assert.Equal(t, sum, total(ps), "the run's profile is the sampled intervals' (a partial last interval is never sampled here)")
			assert.Equal(t, uint64(len(ph.Sequence)+1)*phase.DaemonInstructions, ph.DaemonInstructions)
			assert.True(t, ph.Triggers >= 1 && ph.Triggers <= uint64(2*len(chosen)), "%d hps.on/off for %d samples", ph.Triggers, len(chosen))
		})
	}
}

// replay is the policy's choice computed from the run's sequence by the
// rules of docs/PROFHW.md, independently of the daemon: third takes the
// third interval of each phase (last-phase prediction: once it has been
// seen twice, the next interval predicted in it), first the second
// (the first interval of a phase is seen before it can be predicted).
func replay(t *testing.T, pol string, ph *PhaseResult) []int {
	switch pol {
	case "centroid":
		return ph.Plan
	}
	nth := map[string]int{"first": 1, "third": 3}[pol]
	seen := map[int]int{}
	done := map[int]bool{}
	var out []int
	for i := 0; i+1 < len(ph.Sequence); i++ {
		p := ph.Sequence[i]
		seen[p]++
		// the prediction for i+1 is p; i+1 is sampled if p is not yet
		// sampled and would be its nth interval or later.
		if !done[p] && seen[p]+1 >= nth {
			out = append(out, i+1)
			done[ph.Sequence[i+1]] = true
		}
	}
	return out
}

// TestPhaseTriggerCost: the daemon's instructions are in the run, in
// functional and timing mode, and cost=0 removes them.
func TestPhaseTriggerCost(t *testing.T) {
	_, r80, _ := runPhaseTrigger(t, "phase:third:interval=50000", false)
	_, r0, _ := runPhaseTrigger(t, "phase:third:interval=50000,cost=0", false)
	assert.Equal(t, r80.DISE.AppInstructions, r0.DISE.AppInstructions)
	assert.Equal(t, r80.DISE.Phase.DaemonInstructions, r80.Instructions-r0.Instructions)
	_, t80, _ := runPhaseTrigger(t, "phase:third:interval=50000", true)
	_, t0, _ := runPhaseTrigger(t, "phase:third:interval=50000,cost=0", true)
	assert.Greater(t, t80.Cycles, t0.Cycles, "timing mode charges the daemon's instructions")
}

func TestParsePhaseTrigger(t *testing.T) {
	p, err := ParsePhaseTrigger("phase:third:interval=20000,threshold=10,predictor=runlength,seed=3,cost=5,accumulators=16,entries=8")
	require.NoError(t, err)
	assert.Equal(t, phase.Third, p.Policy)
	assert.Equal(t, uint64(20000), p.Tracker.Interval)
	assert.Equal(t, 10.0, p.Tracker.Threshold)
	assert.Equal(t, phase.RunLength, p.Tracker.Predictor)
	assert.Equal(t, int64(3), p.Seed)
	assert.Equal(t, 5, p.Cost)
	assert.Equal(t, 16, p.Tracker.Accumulators)
	assert.Equal(t, 8, p.Tracker.Entries)
	for _, tc := range []struct{ in, want string }{
		{"phase", "no policy"},
		{"phase:", "no policy"},
		{"phase:second", `policy "second"`},
		{"phase:third:interval", `"interval" is not key=value`},
		{"phase:third:interval=10", "interval=10: want an integer from 1000"},
		{"phase:third:threshold=x", "threshold=x: want a percentage"},
		{"phase:third:predictor=psychic", "predictor=psychic: want last, runlength or oracle"},
		{"phase:third:accumulators=24", "accumulators=24: want a power of two"},
		{"phase:third:colour=red", `unknown key "colour"`},
		{"phase:third:seed=1,seed=2", "key seed given twice"},
		{"phase:third:interval=1000,accumulators=32", "at least 64 per accumulator"},
	} {
		_, err := ParsePhaseTrigger(tc.in)
		if assert.Error(t, err, tc.in) {
			assert.Contains(t, err.Error(), tc.want, tc.in)
			assert.False(t, strings.Contains(err.Error(), "\n"), "%s: one line", tc.in)
		}
		assert.Error(t, ParseTrigger(tc.in))
	}
	assert.NoError(t, ParseTrigger("periodic:100:10"))
}

// TestReplayableStdin: a two-pass policy reads standard input ahead, so
// that its first pass and the run read the same bytes; an online policy
// leaves it to the program.
func TestReplayableStdin(t *testing.T) {
	for _, tc := range []struct {
		trigger string
		kept    bool
	}{{"phase:centroid", true}, {"phase:random", true}, {"phase:first", false}, {"periodic:100:10", false}} {
		cfg := Config{DISE: &DISEOptions{Trigger: tc.trigger}, Kernel: syscalls.Config{Stdin: strings.NewReader("input bytes")}}
		require.NoError(t, replayableStdin(&cfg), tc.trigger)
		if !tc.kept {
			assert.Nil(t, cfg.stdinCopy, tc.trigger)
			continue
		}
		assert.Equal(t, "input bytes", string(cfg.stdinCopy), tc.trigger)
		got, err := io.ReadAll(cfg.Kernel.Stdin)
		require.NoError(t, err)
		assert.Equal(t, "input bytes", string(got), tc.trigger)
	}
}
