package phase

import (
	"encoding/json"
	"fmt"
	"math"
	"os"

	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/pipeline"
	"github.com/rvsim/rvsim/profhw"
)

func init() {
	profhw.Register(profhw.KindInfo{Name: "phase", Doc: "Phase Tracker: branch-PC accumulator signatures, Manhattan classification, 20-entry phase-ID table, next-phase prediction (hps-phase-aware-remote-profiling.md §4 after Sherwood et al. ISCA 2003)", Build: build})
}

// UnitConfig is a phase unit's configuration.
type UnitConfig struct {
	Tracker      Config
	PJPerBranch  float64 // energy per dynamic branch, picojoules (hps §4: about 4)
	OracleSource string  // the summary file the oracle's sequence came from
}

func build(c *profhw.UnitConfig, env profhw.Env) (profhw.Unit, error) {
	cfg, err := ReadConfig(c)
	if err != nil {
		return nil, err
	}
	return New(c.Name, cfg, env)
}

// ReadConfig reads a [[unit]] table of kind "phase" (docs/PROFHW.md).
func ReadConfig(c *profhw.UnitConfig) (UnitConfig, error) {
	t := DefaultConfig()
	t.Interval, t.Accumulators, t.SigBits = ReadDetectorKeys(c, "", t.Interval, t.Accumulators, t.SigBits)
	t.Threshold = c.Float("threshold", t.Threshold, 0, 200)
	t.Entries = int(c.Int("table.entries", int64(t.Entries), 1, 4096))
	t.Seed = c.Int("table.seed", t.Seed, 0, math.MaxInt64)
	p := c.String("predictor.kind", PredictorNames[t.Predictor], PredictorNames...)
	for i, n := range PredictorNames {
		if p == n {
			t.Predictor = Predictor(i)
		}
	}
	t.RLEEntries = int(c.Int("predictor.entries", int64(t.RLEEntries), 1, 1<<16))
	if e := t.RLEEntries; e&(e-1) != 0 {
		c.Errorf("predictor.entries", "%d is not a power of two", e)
	} else if t.Predictor != RunLength && c.Has("predictor.entries") {
		c.Errorf("predictor.entries", "only the runlength predictor has a table (predictor.kind = %q)", p)
	}
	u := UnitConfig{Tracker: t, PJPerBranch: c.Float("energy.pj_per_branch", 4, 0, 1e6)}
	src := c.String("predictor.oracle_summary", "")
	switch {
	case t.Predictor == Oracle && src == "":
		c.Errorf("predictor.kind", "the oracle is two-pass: it needs predictor.oracle_summary, the NAME.summary.json of a first run with the same program, input and configuration")
	case t.Predictor != Oracle && src != "":
		c.Errorf("predictor.oracle_summary", "only the oracle predictor reads a first run (predictor.kind = %q)", p)
	case src != "":
		seq, err := readSequence(src)
		if err != nil {
			c.Errorf("predictor.oracle_summary", "%v", err)
		}
		u.Tracker.Oracle, u.OracleSource = seq, src
	}
	return u, c.Err()
}

// ReadDetectorKeys reads an accumulator table's keys, prefix+"interval",
// "accumulators" and "signature_bits" (the Phase Tracker's, and the path
// profiler's under "phase."), with the given defaults.
func ReadDetectorKeys(c *profhw.UnitConfig, prefix string, interval uint64, acc int, sigBits uint) (uint64, int, uint) {
	interval = uint64(c.Int(prefix+"interval", int64(interval), 1000, 1<<40))
	acc = int(c.Int(prefix+"accumulators", int64(acc), 2, 1<<16))
	if acc&(acc-1) != 0 {
		c.Errorf(prefix+"accumulators", "%d is not a power of two", acc)
	} else if interval < 64*uint64(acc) {
		// A detector may keep a signature of 4-byte accumulators per
		// interval: at least 64 instructions per accumulator bounds them
		// at 1/8 byte per instruction of the run.
		c.Errorf(prefix+"interval", "%d instructions for %d accumulators: at least 64 per accumulator (%d)", interval, acc, 64*uint64(acc))
	}
	sigBits = uint(c.Int(prefix+"signature_bits", int64(sigBits), 1, 32))
	return interval, acc, sigBits
}

// maxOracleBytes bounds the first run's summary file.
const maxOracleBytes = 256 << 20

// readSequence reads phase_sequence from a phase unit's summary.
func readSequence(file string) ([]int, error) {
	st, err := os.Stat(file)
	if err != nil {
		return nil, err
	}
	if st.Size() > maxOracleBytes {
		return nil, fmt.Errorf("%s: %d bytes, more than a summary's %d", file, st.Size(), maxOracleBytes)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var s struct {
		Kind string `json:"kind"`
		Seq  *[]int `json:"phase_sequence"`
	}
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("%s: not a summary: %v", file, err)
	}
	if s.Kind != "phase" || s.Seq == nil {
		return nil, fmt.Errorf("%s: not a phase unit's summary (no phase_sequence)", file)
	}
	for i, id := range *s.Seq {
		if id < 1 {
			return nil, fmt.Errorf("%s: phase_sequence[%d] = %d is not a phase ID (>= 1)", file, i, id)
		}
	}
	return *s.Seq, nil
}

// Unit is the Phase Tracker as a profiling unit: it sees every retired
// control transfer (a dynamic branch, Sherwood et al. 2003 §3) in both
// modes.
type Unit struct {
	name    string
	cfg     UnitConfig
	tr      *Tracker
	nextSeq uint64
	insts   uint64
	sum     profhw.Summary
	ended   bool
}

// New builds a phase unit.
func New(name string, cfg UnitConfig, env profhw.Env) (*Unit, error) {
	tr, err := NewTracker(cfg.Tracker)
	if err != nil {
		return nil, err
	}
	return &Unit{name: name, cfg: cfg, tr: tr, sum: profhw.Summary{Unit: name, Kind: "phase", Mode: env.Mode.String(), NoAnalytic: true}}, nil
}

// Name is the unit's name.
func (u *Unit) Name() string { return u.name }

// Watch: the retired control transfers, in both modes.
func (u *Unit) Watch() profhw.Watch { return profhw.Watch{Retired: profhw.Control} }

// Tracker is the unit's Phase Tracker: a profiling daemon sets its
// OnInterval hook and reads and sets the phase-ID table's sampled bits.
func (u *Unit) Tracker() *Tracker { return u.tr }

// Retire feeds each branch with the instructions since the previous one
// (its block, the branch included) to the tracker.
func (u *Unit) Retire(recs []cpu.DynInst) {
	for i := range recs {
		d := &recs[i]
		end := d.Seq + 1
		n := end - u.nextSeq
		u.nextSeq = end
		u.sum.Events++
		u.tr.Branch(d.PC, n, end)
	}
}

// Commit: the tracker is off the critical path (it never stalls commit).
func (u *Unit) Commit(*pipeline.Commit) uint64 { return 0 }

// Finish ends the run: the last, partial interval is not classified.
func (u *Unit) Finish(end profhw.End) error {
	if u.ended {
		return nil
	}
	u.ended = true
	u.insts = max(end.Instructions, u.nextSeq)
	t := u.tr
	s := &u.sum
	s.AppCycles = end.Cycles
	s.StorageBits = t.StorageBits()
	s.ErrorMetric = "none: the tracker has no exact profile (prediction_accuracy_percent is its measure)"
	s.Null("error_percent", "the phase tracker has no exact profile to compare against")
	n := len(t.Sequence)
	s.Set("interval_instructions", u.cfg.Tracker.Interval)
	s.Set("intervals", n)
	s.Set("instructions", u.insts)
	s.Set("instructions_unclassified", u.insts-t.Closed)
	s.Set("threshold_percent", u.cfg.Tracker.Threshold)
	s.Set("threshold_instructions", t.ThresholdInstructions())
	s.Set("phase_table_entries", u.cfg.Tracker.Entries)
	s.Set("phase_table_replacements", t.Replaced)
	s.Set("phases_distinct", t.Distinct())
	s.Set("phase_sequence", append([]int{}, t.Sequence...))
	s.Set("predictor", u.cfg.Tracker.Predictor.String())
	s.Set("predictions_checked", t.Checked)
	s.Set("predictions_correct", t.Correct)
	if t.Checked == 0 {
		s.Null("prediction_accuracy_percent", fmt.Sprintf("fewer than two intervals (%d of %d instructions): no prediction to check", n, u.cfg.Tracker.Interval))
	} else {
		s.Set("prediction_accuracy_percent", 100*float64(t.Correct)/float64(t.Checked))
	}
	e := float64(s.Events) * u.cfg.PJPerBranch
	s.Set("energy_pj_per_branch", u.cfg.PJPerBranch)
	s.Set("energy_pj", e)
	if u.cfg.Tracker.Predictor == Oracle {
		// Two-pass: this run must be the first one again.
		o := u.cfg.Tracker.Oracle
		for i, id := range t.Sequence {
			if i >= len(o) || o[i] != id {
				return fmt.Errorf("unit %s: predictor.oracle_summary: %s differs from this run at interval %d (not a first run of the same program, input and configuration)", u.name, u.cfg.OracleSource, i)
			}
		}
		if len(o) != n {
			return fmt.Errorf("unit %s: predictor.oracle_summary: %s has %d intervals, this run %d (not a first run of the same program, input and configuration)", u.name, u.cfg.OracleSource, len(o), n)
		}
	}
	return nil
}

// Summary is the unit's summary.
func (u *Unit) Summary() *profhw.Summary { return &u.sum }

// intervalJSON is one line of NAME.intervals.json.
type intervalJSON struct {
	Index       int    `json:"interval"`
	Phase       int    `json:"phase"`
	New         bool   `json:"new"`
	Distance    uint64 `json:"distance_instructions"`
	Predicted   int    `json:"predicted"`
	Next        int    `json:"next_predicted"`
	NextSampled bool   `json:"next_sampled"`
	Replaced    int    `json:"replaced,omitempty"`
}

// tableJSON is one phase-ID table entry in NAME.intervals.json.
type tableJSON struct {
	ID      int    `json:"phase"`
	Count   uint64 `json:"count"`
	Sampled bool   `json:"sampled"`
}

// Outputs: NAME.intervals.json, every interval's classification and
// prediction, and the phase-ID table at exit.
func (u *Unit) Outputs(profhw.Symbolizer) ([]profhw.Output, error) {
	out := struct {
		Intervals []intervalJSON `json:"intervals"`
		Table     []tableJSON    `json:"phase_table"`
	}{Intervals: []intervalJSON{}, Table: []tableJSON{}}
	for _, iv := range u.tr.Log {
		out.Intervals = append(out.Intervals, intervalJSON{iv.Index, iv.Phase, iv.New, iv.Distance, iv.Predicted, iv.Next, iv.NextSampled, iv.Replaced})
	}
	for _, e := range u.tr.Table() {
		out.Table = append(out.Table, tableJSON{e.ID, e.Count, e.Sampled})
	}
	data, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return nil, err
	}
	return []profhw.Output{{Suffix: "intervals.json", Data: append(data, '\n')}}, nil
}
