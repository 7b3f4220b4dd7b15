package phase

import (
	"fmt"
	"math/rand"
	"slices"
	"strings"
)

// The profiling daemon (hps-phase-aware-remote-profiling.md §4, Fig. 7:B–C):
// at the end of every interval it reads the tracker's prediction for the
// next interval and decides whether HPS samples it; the representative
// selection policies are those of §5.3 (Fig. 10).

// Policy is how the daemon picks the interval that represents a phase.
type Policy uint8

// The policies. First and Third are online; Centroid and Random are the
// paper's oracles, which know the whole run (two-pass: Plan).
const (
	// First samples the first interval predicted to be in a phase not yet
	// sampled.
	First Policy = iota
	// Third waits until the phase has been seen twice and samples the
	// next interval predicted to be in it: the third, past the phase's
	// "warm-up" (§4).
	Third
	// Centroid samples, per phase, the interval whose signature is
	// nearest (Manhattan) the mean signature of the phase's intervals.
	Centroid
	// Random samples one interval of each phase chosen at random (the
	// paper averages 5 selections: 5 seeds).
	Random
)

// PolicyNames are the policies' names, in order.
var PolicyNames = []string{"first", "third", "centroid", "random"}

func (p Policy) String() string { return PolicyNames[p] }

// Online reports whether the policy decides without future knowledge.
func (p Policy) Online() bool { return p == First || p == Third }

// ParsePolicy reads a policy's name.
func ParsePolicy(s string) (Policy, error) {
	for i, n := range PolicyNames {
		if s == n {
			return Policy(i), nil
		}
	}
	return 0, fmt.Errorf("policy %q: want %s", s, strings.Join(PolicyNames, ", "))
}

// DaemonInstructions is the default cost of one daemon decision, in
// instructions (docs/PROFHW.md, "The profiling daemon"): 40 to enter and
// leave the lightweight thread at the tracker's end-of-interval signal
// (save and restore of the few registers it uses, as a profhw handler
// does), 20 to read the tracker's interval record (phase, prediction,
// the predicted phase's count and sampled bit: four loads and checks),
// 10 for the policy, 10 to append the phase ID to the profile buffer's
// trace, and the hps.on/hps.off itself counted by the trigger.
const DaemonInstructions = 80

// Sample is an interval the daemon sampled.
type Sample struct {
	Interval  int
	Predicted int // the phase the tracker predicted for it (0: none)
	Phase     int // the phase it turned out to be in (the tag of its profile)
}

// Daemon is the profiling daemon over one run's tracker.
type Daemon struct {
	policy   Policy
	tr       *Tracker
	nth      uint64       // online: sample a phase's nth interval (First 1, Third 3)
	plan     map[int]bool // oracle: the intervals to sample
	sampling bool         // the interval in progress is sampled
	pred     int          // the phase predicted for it
	// Samples are the intervals sampled, in order; Decisions counts the
	// decisions taken (one per interval boundary, and one at the start).
	Samples   []Sample
	Decisions uint64
}

// NewDaemon returns a daemon of an online policy over tr.
func NewDaemon(p Policy, tr *Tracker) (*Daemon, error) {
	if !p.Online() {
		return nil, fmt.Errorf("policy %s uses future knowledge: build it with NewPlanned and a first run's plan", p)
	}
	d := &Daemon{policy: p, tr: tr, nth: 1}
	if p == Third {
		d.nth = 3
	}
	return d, nil
}

// NewPlanned returns a daemon that samples exactly the intervals of plan
// (an oracle policy's choice, from Plan).
func NewPlanned(p Policy, tr *Tracker, plan []int) *Daemon {
	d := &Daemon{policy: p, tr: tr, plan: map[int]bool{}}
	for _, i := range plan {
		d.plan[i] = true
	}
	return d
}

// Start decides whether the first interval is sampled: an oracle's plan
// may hold it; an online policy can only if the tracker predicts it
// (the oracle predictor: the first run's first phase, new).
func (d *Daemon) Start() bool {
	d.Decisions++
	if d.plan != nil {
		d.sampling = d.plan[0]
	} else {
		d.pred = 0
		if o := d.tr.cfg.Oracle; d.tr.cfg.Predictor == Oracle && len(o) > 0 {
			d.pred = o[0]
		}
		d.sampling = d.online(d.pred)
	}
	return d.sampling
}

// End takes the tracker's report of the interval that ended and decides
// whether the next one is sampled. A sampled interval's actual phase gets
// the sampled bit (its profile is tagged with it); a misprediction leaves
// the predicted phase unsampled, to be tried again.
func (d *Daemon) End(iv Interval) bool {
	d.Decisions++
	if d.sampling {
		d.tr.MarkSampled(iv.Phase)
		d.Samples = append(d.Samples, Sample{Interval: iv.Index, Predicted: d.pred, Phase: iv.Phase})
	}
	d.pred = iv.Next
	if d.plan != nil {
		d.sampling = d.plan[iv.Index+1]
	} else {
		d.sampling = d.online(iv.Next)
	}
	return d.sampling
}

// online is the online policies' rule for an interval predicted to be in
// phase p: sample it if p is not sampled and it would be at least the
// phase's nth interval (p's table count is the intervals seen so far; a
// phase not in the table has none).
func (d *Daemon) online(p int) bool {
	if p == 0 {
		return false
	}
	seen := uint64(0)
	if e := d.tr.Lookup(p); e != nil {
		if e.Sampled {
			return false
		}
		seen = e.Count
	}
	return seen+1 >= d.nth
}

// Sampling reports whether the interval in progress is sampled.
func (d *Daemon) Sampling() bool { return d.sampling }

// Plan is an oracle policy's choice over a first run (§5.3): for each
// phase of seq (the phase of every interval), the interval that
// represents it, in interval order. Centroid takes the interval whose
// signature (sigs[i], interval i's) is nearest the mean of its phase's
// signatures by Manhattan distance, the earliest of a tie; Random takes
// one of the phase's intervals uniformly with a generator seeded by seed.
func Plan(p Policy, seq []int, sigs [][]uint32, seed int64) ([]int, error) {
	if p.Online() {
		return nil, fmt.Errorf("policy %s is online: it has no plan", p)
	}
	if p == Centroid && len(sigs) != len(seq) {
		return nil, fmt.Errorf("centroid: %d signatures for %d intervals", len(sigs), len(seq))
	}
	members := map[int][]int{}
	var order []int
	for i, ph := range seq {
		if members[ph] == nil {
			order = append(order, ph)
		}
		members[ph] = append(members[ph], i)
	}
	rng := rand.New(rand.NewSource(seed))
	var out []int
	for _, ph := range order {
		m := members[ph]
		if p == Random {
			out = append(out, m[rng.Intn(len(m))])
			continue
		}
		mean := make([]float64, len(sigs[m[0]]))
		for _, i := range m {
			for k, v := range sigs[i] {
				mean[k] += float64(v)
			}
		}
		for k := range mean {
			mean[k] /= float64(len(m))
		}
		best, bestD := -1, 0.0
		for _, i := range m {
			dist := 0.0
			for k, v := range sigs[i] {
				x := float64(v) - mean[k]
				if x < 0 {
					x = -x
				}
				dist += x
			}
			if best < 0 || dist < bestD {
				best, bestD = i, dist
			}
		}
		out = append(out, best)
	}
	slices.Sort(out)
	return out, nil
}
