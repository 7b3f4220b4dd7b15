package phase

import (
	"slices"
	"testing"
)

// A scripted run: phases A A A B B B B A C C C A, each interval's
// signature all in one accumulator (A's with a little noise, so that its
// centroid is a particular interval).
var (
	scriptSeq = []int{1, 1, 1, 2, 2, 2, 2, 1, 3, 3, 3, 1}
	scriptCfg = Config{Interval: 2048, Accumulators: 32, SigBits: 8, Threshold: 25, Entries: 20, Seed: 1, RLEEntries: 64}
)

func scriptSigs() [][]uint32 {
	sig := func(kv ...int) []uint32 {
		s := make([]uint32, 32)
		for i := 0; i < len(kv); i += 2 {
			s[kv[i]] = uint32(kv[i+1])
		}
		return s
	}
	// The signature unit is 16 instructions (12 bits of 2048, 8 kept):
	// 128 units fill an interval; the threshold is 512 instructions, 32 units.
	// A: mean (123, 3 at 5, 2 at 6): distances 18, 10, 10, 12: interval 1.
	a0, a1, a7 := sig(0, 116, 5, 12), sig(0, 128), sig(0, 120, 6, 8)
	b, c := sig(1, 128), sig(2, 128)
	return [][]uint32{a0, a1, a1, b, b, b, b, a7, c, c, c, a1}
}

// runDaemon plays the script through a tracker and a daemon and returns
// the intervals sampled.
func runDaemon(t *testing.T, cfg Config, mk func(*Tracker) *Daemon) []int {
	t.Helper()
	tr, err := NewTracker(cfg)
	if err != nil {
		t.Fatal(err)
	}
	d := mk(tr)
	var on []int
	if d.Start() {
		on = append(on, 0)
	}
	for i, s := range scriptSigs() {
		iv := tr.EndInterval(s)
		if iv.Phase != scriptSeq[i] {
			t.Fatalf("interval %d: phase %d, the script says %d", i, iv.Phase, scriptSeq[i])
		}
		if d.End(iv) && i+1 < len(scriptSeq) {
			on = append(on, i+1)
		}
	}
	var got []int
	for _, s := range d.Samples {
		got = append(got, s.Interval)
		if s.Phase != scriptSeq[s.Interval] {
			t.Errorf("sample of interval %d tagged phase %d, want %d", s.Interval, s.Phase, scriptSeq[s.Interval])
		}
	}
	if !slices.Equal(got, on) {
		t.Errorf("samples recorded %v, turned on %v", got, on)
	}
	if d.Decisions != uint64(len(scriptSeq)+1) {
		t.Errorf("%d decisions, want %d", d.Decisions, len(scriptSeq)+1)
	}
	return on
}

func TestDaemonPolicies(t *testing.T) {
	oracle := scriptCfg
	oracle.Predictor, oracle.Oracle = Oracle, scriptSeq
	online := func(p Policy) func(*Tracker) *Daemon {
		return func(tr *Tracker) *Daemon {
			d, err := NewDaemon(p, tr)
			if err != nil {
				t.Fatal(err)
			}
			return d
		}
	}
	for _, tc := range []struct {
		desc string
		cfg  Config
		p    Policy
		want []int
	}{
		// Last-phase prediction: a new phase is seen before it is predicted,
		// so first takes each phase's second interval and third its third.
		{"first, last-phase predictor", scriptCfg, First, []int{1, 4, 9}},
		{"third, last-phase predictor", scriptCfg, Third, []int{2, 5, 10}},
		// Perfect prediction (the paper's assumption): first takes each
		// phase's first interval, interval 0 included.
		{"first, oracle predictor", oracle, First, []int{0, 3, 8}},
		{"third, oracle predictor", oracle, Third, []int{2, 5, 10}},
	} {
		if got := runDaemon(t, tc.cfg, online(tc.p)); !slices.Equal(got, tc.want) {
			t.Errorf("%s: sampled %v, want %v", tc.desc, got, tc.want)
		}
	}
}

func TestDaemonMisprediction(t *testing.T) {
	// Oracle prediction from a wrong first run: it says interval 3 is in
	// a new phase (4) when it is in 2. The sample is tagged with the
	// phase it turned out to be in, which gets the sampled bit.
	cfg := scriptCfg
	cfg.Predictor = Oracle
	cfg.Oracle = []int{1, 1, 1, 4, 2, 2, 2, 1, 3, 3, 3, 1}
	tr, _ := NewTracker(cfg)
	d, _ := NewDaemon(First, tr)
	d.Start()
	for _, s := range scriptSigs()[:4] {
		d.End(tr.EndInterval(s))
	}
	if len(d.Samples) != 2 || d.Samples[1] != (Sample{Interval: 3, Predicted: 4, Phase: 2}) {
		t.Fatalf("samples %+v, want interval 3 predicted 4, tagged 2", d.Samples)
	}
	if e := tr.Lookup(2); e == nil || !e.Sampled {
		t.Errorf("phase 2 not marked sampled: %+v", e)
	}
}

func TestPlan(t *testing.T) {
	sigs := scriptSigs()
	got, err := Plan(Centroid, scriptSeq, sigs, 1)
	if err != nil {
		t.Fatal(err)
	}
	// A: interval 1 (hand-computed above); B: all equal, the earliest (3); C: 8.
	if want := []int{1, 3, 8}; !slices.Equal(got, want) {
		t.Errorf("centroid plan %v, want %v", got, want)
	}
	distinct := map[string]bool{}
	for seed := int64(1); seed <= 8; seed++ {
		r, err := Plan(Random, scriptSeq, sigs, seed)
		if err != nil {
			t.Fatal(err)
		}
		if len(r) != 3 {
			t.Fatalf("random plan %v: want one interval per phase", r)
		}
		phases := map[int]bool{}
		for _, i := range r {
			phases[scriptSeq[i]] = true
		}
		if len(phases) != 3 {
			t.Errorf("random plan %v does not cover the 3 phases", r)
		}
		again, _ := Plan(Random, scriptSeq, sigs, seed)
		if !slices.Equal(r, again) {
			t.Errorf("seed %d: plans %v and %v", seed, r, again)
		}
		distinct[string(rune(r[0]))+string(rune(r[1]))+string(rune(r[2]))] = true
	}
	if len(distinct) < 2 {
		t.Errorf("8 seeds gave one random plan")
	}
	// The planned daemon samples exactly the plan.
	plan := []int{1, 3, 8}
	if got := runDaemon(t, scriptCfg, func(tr *Tracker) *Daemon { return NewPlanned(Centroid, tr, plan) }); !slices.Equal(got, plan) {
		t.Errorf("planned daemon sampled %v, want %v", got, plan)
	}
	if _, err := Plan(Third, scriptSeq, sigs, 1); err == nil {
		t.Error("Plan(third) did not fail")
	}
	if _, err := NewDaemon(Centroid, nil); err == nil {
		t.Error("NewDaemon(centroid) did not fail")
	}
}
