package phase

import (
	"fmt"
	"math/bits"
	"math/rand"
)

// Predictor is how the tracker predicts the next interval's phase.
type Predictor uint8

// The predictors.
const (
	// LastPhase predicts that the next interval is in the phase of the
	// one that just ended (Sherwood et al. 2003 §5's last-value baseline).
	LastPhase Predictor = iota
	// RunLength is Sherwood et al. 2003 §5's run-length encoding Markov
	// predictor: a table indexed by a hash of (phase ID, intervals the
	// phase has run so far) remembers the phase that followed that run
	// last time; without an entry it predicts the last phase.
	RunLength
	// Oracle is perfect prediction, as hps-phase-aware-remote-profiling.md
	// §4 assumes: two-pass, from the phase sequence of a first run of the
	// same program, input and configuration (Config.Oracle).
	Oracle
)

// PredictorNames are the predictors' names (the key `predictor`), in
// order.
var PredictorNames = []string{"last", "runlength", "oracle"}

func (p Predictor) String() string { return PredictorNames[p] }

// Config is a Phase Tracker's configuration.
type Config struct {
	Interval     uint64  // instructions per interval
	Accumulators int     // accumulator table entries (a power of two)
	SigBits      uint    // high-order bits of each accumulator in a signature
	Threshold    float64 // similarity threshold: Manhattan distance, percent of the interval
	Entries      int     // phase-ID table entries (fully associative)
	Seed         int64   // the phase-ID table's random replacement
	Predictor    Predictor
	RLEEntries   int   // run-length predictor table entries (a power of two)
	Oracle       []int // Oracle: the first pass's phase sequence
}

// DefaultConfig: Sherwood et al.'s 32 accumulators, hps §4's 20-entry
// phase-ID table, 100k-instruction intervals (the paper's 10M scaled to
// our runs: docs/PROFHW.md), a 25% similarity threshold, 8 signature
// bits, the last-phase predictor.
func DefaultConfig() Config {
	return Config{Interval: 100_000, Accumulators: 32, SigBits: 8, Threshold: 25,
		Entries: 20, Seed: 1, Predictor: LastPhase, RLEEntries: 64}
}

// Entry is one phase-ID table entry (hps §4): the phase's ID and
// signature, the sampled bit and the times the phase was seen.
type Entry struct {
	ID      int
	Sig     []uint32
	Sampled bool
	Count   uint64
}

// Interval is what the tracker reports at the end of an interval: what a
// profiling daemon asks for (hps §4, Fig. 7).
type Interval struct {
	Index    int    // 0-based
	Phase    int    // the interval's phase ID (IDs count from 1)
	New      bool   // its signature matched no phase in the table: a new ID
	Distance uint64 // Manhattan distance to the phase it matched or, if New, to the nearest (instructions; 0 for an empty table)
	// Predicted is the phase predicted for this interval at the end of
	// the previous one (0: none, for the first interval).
	Predicted int
	// Next is the prediction for the next interval, and NextKnown and
	// NextSampled whether that phase is in the table and its sampled
	// bit (an unknown phase, or 0, is one the daemon has not sampled).
	Next        int
	NextKnown   bool
	NextSampled bool
	Replaced    int // the phase ID a new one evicted from the full table (0: none)
}

type rleEntry struct {
	valid       bool
	phase, next int
	run         uint64
}

// Tracker is the Phase Tracker (Sherwood et al. 2003; hps §4): the
// accumulator table, the classification of each interval by Manhattan
// distance under the similarity threshold, the phase-ID table with random
// replacement, and the next-phase predictor.
type Tracker struct {
	cfg   Config
	det   *Detector
	th    uint64 // threshold, instructions
	table []Entry
	rng   *rand.Rand
	end   uint64 // instruction count that closes the current interval

	nextID   int
	rle      []rleEntry
	run      uint64 // intervals the current phase has run
	rleHit   int    // the RLE slot the last prediction came from (-1: none)
	cur      int    // the last interval's phase
	pred     int    // the prediction for the next interval
	Sequence []int  // the phase of every interval
	Log      []Interval
	Correct  int    // predictions that were right
	Checked  int    // predictions checked (intervals after the first)
	Replaced int    // phase-ID table replacements
	Closed   uint64 // instructions in the intervals closed (the last one ended there)

	// OnInterval, if set, is called at the end of each interval (the
	// profiling daemon's hook).
	OnInterval func(Interval)
}

// Check validates a configuration (the unit's keys have their own
// one-line errors; this guards code that builds a tracker directly).
func (c Config) Check() error {
	switch {
	case c.Accumulators < 2 || c.Accumulators&(c.Accumulators-1) != 0:
		return fmt.Errorf("accumulators: %d is not a power of two >= 2", c.Accumulators)
	case c.Interval < 64*uint64(c.Accumulators):
		return fmt.Errorf("interval: %d instructions for %d accumulators: at least 64 per accumulator", c.Interval, c.Accumulators)
	case c.SigBits < 1 || c.SigBits > 32:
		return fmt.Errorf("signature_bits: %d is out of range [1, 32]", c.SigBits)
	case !(c.Threshold >= 0 && c.Threshold <= 200):
		return fmt.Errorf("threshold: %g is out of range [0, 200] percent of the interval", c.Threshold)
	case c.Entries < 1:
		return fmt.Errorf("table.entries: %d is not >= 1", c.Entries)
	case c.RLEEntries < 1 || c.RLEEntries&(c.RLEEntries-1) != 0:
		return fmt.Errorf("predictor.entries: %d is not a power of two", c.RLEEntries)
	}
	return nil
}

// NewTracker builds a tracker.
func NewTracker(cfg Config) (*Tracker, error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	t := &Tracker{cfg: cfg, det: NewDetector(cfg.Accumulators, cfg.SigBits, cfg.Interval),
		th:  uint64(cfg.Threshold / 100 * float64(cfg.Interval)),
		rng: rand.New(rand.NewSource(cfg.Seed)), end: cfg.Interval, nextID: 1, rleHit: -1}
	if cfg.Predictor == RunLength {
		t.rle = make([]rleEntry, cfg.RLEEntries)
	}
	return t, nil
}

// Branch takes a retired branch at pc that ends a block of n instructions
// (those since the previous branch, the branch included); seqEnd is the
// instructions retired so far. It closes the interval when seqEnd reaches
// its end, and then returns it.
func (t *Tracker) Branch(pc, n, seqEnd uint64) (Interval, bool) {
	t.det.Add(pc, n)
	if seqEnd < t.end {
		return Interval{}, false
	}
	t.end = seqEnd - seqEnd%t.cfg.Interval + t.cfg.Interval
	t.Closed = seqEnd
	return t.EndInterval(t.det.Close()), true
}

// EndInterval classifies a closed interval's signature, updates the
// table and the predictor, and predicts the next interval.
func (t *Tracker) EndInterval(sig []uint32) Interval {
	iv := Interval{Index: len(t.Sequence), Predicted: t.pred}
	best, bestD := -1, uint64(0)
	for i := range t.table {
		d := Manhattan(sig, t.table[i].Sig) << t.det.shift
		if best < 0 || d < bestD {
			best, bestD = i, d
		}
	}
	iv.Distance = bestD
	if best >= 0 && bestD <= t.th {
		e := &t.table[best]
		e.Count++
		iv.Phase = e.ID
	} else {
		iv.New = true
		iv.Phase = t.nextID
		t.nextID++
		e := Entry{ID: iv.Phase, Sig: sig, Count: 1}
		if len(t.table) < t.cfg.Entries {
			t.table = append(t.table, e)
		} else {
			// hps §4: fully associative, random replacement.
			v := t.rng.Intn(len(t.table))
			iv.Replaced = t.table[v].ID
			t.table[v] = e
			t.Replaced++
		}
	}
	if iv.Index > 0 {
		t.Checked++
		if iv.Predicted == iv.Phase {
			t.Correct++
		}
	}
	t.predict(iv.Phase)
	iv.Next = t.pred
	if e := t.Lookup(iv.Next); e != nil {
		iv.NextKnown, iv.NextSampled = true, e.Sampled
	}
	t.Sequence = append(t.Sequence, iv.Phase)
	t.Log = append(t.Log, iv)
	if t.OnInterval != nil {
		t.OnInterval(iv)
	}
	return iv
}

// predict updates the predictor with the phase p of the interval that
// ended and sets the prediction for the next one.
func (t *Tracker) predict(p int) {
	i := len(t.Sequence) // p is interval i's phase
	switch t.cfg.Predictor {
	case LastPhase:
		t.pred = p
	case Oracle:
		t.pred = 0
		if i+1 < len(t.cfg.Oracle) {
			t.pred = t.cfg.Oracle[i+1]
		}
	case RunLength:
		if i > 0 {
			// Learn: the run of t.cur of length t.run was followed by p.
			slot := t.rleSlot(t.cur, t.run)
			if p != t.cur {
				t.rle[slot] = rleEntry{valid: true, phase: t.cur, run: t.run, next: p}
			} else if slot == t.rleHit {
				t.rle[slot].valid = false // it predicted a change that did not come
			}
		}
		if i > 0 && p == t.cur {
			t.run = min(t.run+1, maxRun) // a 16-bit saturating run counter
		} else {
			t.run = 1
		}
		t.pred, t.rleHit = p, -1
		slot := t.rleSlot(p, t.run)
		if e := t.rle[slot]; e.valid && e.phase == p && e.run == t.run {
			t.pred, t.rleHit = e.next, slot
		}
	}
	t.cur = p
}

// maxRun is the run-length counter's largest value.
const maxRun = 1<<16 - 1

func (t *Tracker) rleSlot(p int, run uint64) int {
	return int(Mix(uint64(p)<<32^run) & uint64(len(t.rle)-1))
}

// Lookup is the phase-ID table's entry of phase id (nil if the table does
// not hold it).
func (t *Tracker) Lookup(id int) *Entry {
	for i := range t.table {
		if t.table[i].ID == id {
			return &t.table[i]
		}
	}
	return nil
}

// MarkSampled sets phase id's sampled bit (the daemon sampled one of its
// intervals); false if the table does not hold the phase.
func (t *Tracker) MarkSampled(id int) bool {
	e := t.Lookup(id)
	if e == nil {
		return false
	}
	e.Sampled = true
	return true
}

// Table is the phase-ID table's entries, in slot order.
func (t *Tracker) Table() []Entry { return t.table }

// Phase is the last interval's phase (0 before the first ends).
func (t *Tracker) Phase() int { return t.cur }

// Prediction is the predicted phase of the next interval (0: none).
func (t *Tracker) Prediction() int { return t.pred }

// Distinct is the number of phase IDs the tracker assigned.
func (t *Tracker) Distinct() int { return t.nextID - 1 }

// Detector is the tracker's accumulator table.
func (t *Tracker) Detector() *Detector { return t.det }

// ThresholdInstructions is the similarity threshold in instructions.
func (t *Tracker) ThresholdInstructions() uint64 { return t.th }

// idBits is the width of a phase ID in the hardware: enough for the IDs
// assigned, at least one bit.
func idBits(distinct int) uint64 { return uint64(max(1, bits.Len(uint(distinct)))) }

// StorageBits is the tracker's storage: the accumulators (each as wide as
// an interval's instruction count), the phase-ID table (valid bit,
// signature, ID, sampled bit, a 32-bit count), and the run-length
// predictor's table (valid, phase, 16-bit run length, next phase).
func (t *Tracker) StorageBits() uint64 {
	c := t.cfg
	id := idBits(max(t.Distinct(), c.Entries))
	b := uint64(c.Accumulators) * uint64(bits.Len64(c.Interval))
	b += uint64(c.Entries) * (1 + uint64(c.Accumulators)*uint64(c.SigBits) + id + 1 + 32)
	if c.Predictor == RunLength {
		b += uint64(c.RLEEntries) * (1 + id + 16 + id)
	}
	return b
}
