package multihash

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"runtime"

	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/pipeline"
	"github.com/rvsim/rvsim/profhw"
	"github.com/rvsim/rvsim/profhw/tuple"
)

func init() {
	profhw.Register(profhw.KindInfo{Name: "multihash", Doc: "interval profiler: n hash tables + accumulator, shielding, retaining, resetting, conservative update (multi-hash-profiling.md §5-6; tables = 1 is the single-hash profiler)", Build: buildMultiHash})
	profhw.Register(profhw.KindInfo{Name: "spacesaving", Doc: "Space-Saving (Metwally et al.) over the same intervals, sized by storage bits (multi-hash baseline)", Build: buildSpaceSaving})
	profhw.Register(profhw.KindInfo{Name: "countmin", Doc: "Count-Min with conservative update and a top-k table over the same intervals (multi-hash baseline)", Build: buildCountMin})
}

// Unit is one interval profiler (or sketch) as a profhw unit.
type Unit struct {
	name, kind string
	set        tuple.Set
	classes    profhw.ClassMask // the selectors' classes
	buf        []tuple.Tuple
	bank       *Bank
	track      *Track
	prof       *Profiler // kind multihash
	sum        profhw.Summary
	config     string
	fpBound    float64
	pct        float64
	keep       int // outputs.interval_lists

	// Timing mode: the input queue between commit and the unit.
	timing    bool
	queueSize uint64 // tuples
	tputMilli uint64 // thousandths of a tuple drained per cycle
	occMilli  uint64
	last      uint64
	commitBuf []tuple.Tuple // Commit's tuples (on the timing model's goroutine when it has one: not buf)

	// hw runs the bank (the hardware and, through its own Offload, the
	// reference) on a goroutine of its own when nothing needs the
	// hardware's state at an exact instruction (no window); nil: inline.
	hw       *profhw.Pipe[*hwBatch]
	hwBatch  *hwBatch // the batch being filled
	started  bool
	parallel bool // the pipe's goroutine runs (GOMAXPROCS > 1)

	// The accumulator window (window.go).
	windowBase   uint64
	window       []byte
	interrupt    func(profhw.Unit)
	windowWrites uint64
}

// common reads the keys every kind shares and builds the unit's frame.
func common(c *profhw.UnitConfig, env profhw.Env, kind string) *Unit {
	u := &Unit{name: c.Name, kind: kind, timing: env.Mode == profhw.Timing, interrupt: env.Interrupt}
	u.set = tuple.ReadSet(c, "value")
	u.classes = u.set.Classes()
	interval := uint64(c.Int("interval", 10000, 1, 1<<40))
	u.pct = c.Float("threshold_percent", 1, 1e-6, 100)
	u.bank = NewBank(interval, u.pct)
	u.keep = int(c.Int("outputs.interval_lists", 1000, 0, 1<<30))
	u.queueSize = uint64(c.Int("queue.size", 16, 1, 1<<20))
	tput := c.Float("queue.throughput", 1, 0.001, 64)
	u.tputMilli = uint64(tput*1000 + 0.5)
	if u.queueSize < uint64(len(u.set)) {
		c.Errorf("queue.size", "%d is smaller than the %d tuples one instruction can make", u.queueSize, len(u.set))
	}
	u.sum = profhw.Summary{Unit: c.Name, Kind: kind, Mode: env.Mode.String(),
		ErrorMetric: "multi-hash-profiling.md §5.5.2 formula (1): per-interval candidate error weighted by frequency, mean over intervals"}
	// error.exact = false: the hardware alone, without the perfect
	// profiler it is scored against (speed measurements; no error).
	if !c.Bool("error.exact", true) {
		u.bank.DropReference()
		u.sum.ErrorMetric = "not measured (error.exact = false)"
	}
	return u
}

// tupleBits is the stored width of a tuple: two 64-bit words and the
// selector tag (§4.2 of stratified-sampling.md counts two words per tuple).
func (u *Unit) tupleBits() uint {
	if len(u.set) > 1 {
		return 128 + BitsFor(uint64(len(u.set)-1))
	}
	return 128
}

func buildMultiHash(c *profhw.UnitConfig, env profhw.Env) (profhw.Unit, error) {
	u := common(c, env, "multihash")
	p := Params{
		Interval:     u.bank.Interval(),
		ThresholdPct: u.pct,
		Tables:       int(c.Int("tables", 4, 1, 64)),
		Entries:      int(c.Int("entries", 2048, 1, MaxCounters)),
		Conservative: c.Bool("conservative", true),
		Reset:        c.Bool("reset", false),
		Retain:       c.Bool("retain", true),
		AccEntries:   int(c.Int("accumulator.entries", 0, 0, MaxEntries)),
		HashBits:     uint(c.Int("counter_bits", 24, 1, 64)),
		AccBits:      uint(c.Int("accumulator.counter_bits", 0, 0, 64)),
		Seed:         uint64(c.Int("seed", 1, 0, 1<<62)),
		TupleBits:    u.tupleBits(),
	}
	u.windowBase = uint64(c.Int("window.base", 0, 0, 1<<62))
	if u.windowBase%8 != 0 {
		c.Errorf("window.base", "%#x is not 8-byte aligned (the window is 64-bit words)", u.windowBase)
	}
	if err := c.Err(); err != nil {
		return nil, err
	}
	pr, err := NewProfiler(p)
	if err != nil {
		return nil, paramError(c, err, "entries")
	}
	p = pr.Params()
	u.prof = pr
	u.config = fmt.Sprintf("%d×%d counters of %d bits, C%d-R%d, retaining %s, accumulator %d×(%d+%d+2) bits",
		p.Tables, p.Entries/p.Tables, p.HashBits, b2i(p.Conservative), b2i(p.Reset), onOff(p.Retain), p.AccEntries, p.TupleBits, p.AccBits)
	u.fpBound = FPBound(p.Tables, p.Entries, p.ThresholdPct)
	u.track = u.bank.AddProfiler(c.Name, pr)
	u.track.KeepLists = u.keep
	if u.windowBase != 0 {
		u.window = make([]byte, WindowSize(p.AccEntries))
		u.track.OnEnd = func(n int) {
			EncodeWindow(u.window, uint64(n+1), p.Interval, pr.Threshold(), pr.Accumulator())
			if u.interrupt != nil {
				u.interrupt(u)
			}
		}
	}
	return u, c.Err()
}

// paramError is a sizing error as the user's configuration names it: the
// key the error is about if the file sets it, else def.
func paramError(c *profhw.UnitConfig, err error, def string) error {
	key := def
	if pe, ok := err.(*ParamError); ok && (c.Has(pe.Key) || pe.Key == "threshold_percent") {
		key = pe.Key
	}
	return c.Errorf(key, "%v", err)
}

func buildSpaceSaving(c *profhw.UnitConfig, env profhw.Env) (profhw.Unit, error) {
	u := common(c, env, "spacesaving")
	cb := uint(c.Int("counter_bits", int64(BitsFor(u.bank.Interval())), 1, 64))
	k := uint64(c.Int("entries", 0, 0, MaxEntries))
	if bits := c.Int("storage_bits", 0, 0, 1<<40); bits > 0 {
		if k != 0 {
			c.Errorf("storage_bits", "give entries or storage_bits, not both")
		}
		k = uint64(SpaceSavingEntries(uint64(bits), cb, u.tupleBits()))
		if err := CheckEntries("storage_bits", fmt.Sprintf("storage_bits = %d", bits), k); err != nil {
			c.Errorf("storage_bits", "%v", err)
		}
	}
	if k == 0 {
		k = uint64(math.Floor(100/u.pct + 1e-9))
		if err := CheckEntries("threshold_percent", fmt.Sprintf("the 100/t bound at threshold_percent = %g", u.pct), k); err != nil {
			c.Errorf("threshold_percent", "%v", err)
		}
	}
	if err := CheckCounter("counter_bits", cb, u.bank.Threshold()); err != nil {
		c.Errorf("counter_bits", "%v", err)
	}
	if err := c.Err(); err != nil {
		return nil, err
	}
	s, err := NewSpaceSaving(int(k), u.bank.Threshold(), cb, u.tupleBits())
	if err != nil {
		return nil, c.Errorf("entries", "%v", err)
	}
	u.config = fmt.Sprintf("%d entries × (%d+2×%d) bits", k, u.tupleBits(), cb)
	u.track = u.bank.AddSpaceSaving(c.Name, s)
	u.track.KeepLists = u.keep
	return u, c.Err()
}

func buildCountMin(c *profhw.UnitConfig, env profhw.Env) (profhw.Unit, error) {
	u := common(c, env, "countmin")
	d := int(c.Int("rows", 4, 1, 64))
	entries := int(c.Int("entries", 2048, 1, MaxCounters))
	cb := uint(c.Int("counter_bits", 24, 1, 64))
	k := int(c.Int("top_k", 0, 1, MaxEntries))
	ab := uint(c.Int("top.counter_bits", int64(BitsFor(u.bank.Interval())), 1, 64))
	seed := uint64(c.Int("seed", 1, 0, 1<<62))
	if entries%d != 0 {
		c.Errorf("entries", "%d counters do not split evenly over %d rows", entries, d)
	}
	if k == 0 { // the accumulator's 100/t bound
		n := uint64(math.Floor(100/u.pct + 1e-9))
		if err := CheckEntries("threshold_percent", fmt.Sprintf("the top-k table's 100/t bound at threshold_percent = %g", u.pct), n); err != nil {
			c.Errorf("threshold_percent", "%v", err)
		}
		k = int(min(n, MaxEntries))
	}
	if err := CheckCounter("counter_bits", cb, u.bank.Threshold()); err != nil {
		c.Errorf("counter_bits", "%v", err)
	}
	if err := CheckCounter("top.counter_bits", ab, u.bank.Threshold()); err != nil {
		c.Errorf("top.counter_bits", "%v", err)
	}
	if err := c.Err(); err != nil {
		return nil, err
	}
	cm, err := NewCountMin(d, entries/d, k, u.bank.Threshold(), cb, ab, u.tupleBits(), seed)
	if err != nil {
		return nil, c.Errorf("entries", "%v", err)
	}
	u.config = fmt.Sprintf("%d×%d counters of %d bits, conservative update, top-%d × (%d+%d) bits", d, entries/d, cb, k, u.tupleBits(), ab)
	u.track = u.bank.AddCountMin(c.Name, cm)
	u.track.KeepLists = u.keep
	return u, c.Err()
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

func (u *Unit) Name() string { return u.name }

func (u *Unit) Watch() profhw.Watch {
	// Commit ignores other classes (the queue drains lazily, at the next
	// tuple), so the timing model need not call it for them.
	return profhw.Watch{Retired: u.classes, Committed: u.timing, CommitClasses: u.classes, Lean: true}
}

func (u *Unit) Retire(recs []cpu.DynInst) {
	u.take(func(buf []tuple.Tuple) []tuple.Tuple { return u.set.AppendAll(buf, recs) })
}

// take runs the bank on the tuples sel appends to a buffer.
func (u *Unit) take(sel func([]tuple.Tuple) []tuple.Tuple) {
	if !u.started {
		u.start()
	}
	if u.hw != nil {
		b := u.hwBatch
		if len(b.vals) > 0 {
			u.sendBatch() // (a batch holds one kind)
			b = u.hwBatch
		}
		b.tuples = sel(b.tuples)
		if len(b.tuples) >= hwBatchLen {
			u.sendBatch()
		}
		return
	}
	u.buf = sel(u.buf[:0])
	u.bank.AddAll(u.buf)
}

// TakesValues reports whether the unit can take the core's value tap
// (profhw.ValueTaker): a single value selector of loads, and no window
// (whose interval ends pace the core).
func (u *Unit) TakesValues() bool { return u.set.ValueOnly() && u.windowBase == 0 }

// RetireValues is Retire on the value tap's records (each is a tuple).
// With the bank on its own goroutine the records go to it as they are (a
// copy of 16 bytes each): the interval profiler reads them there, and
// they become tuples only in the reference's batches.
func (u *Unit) RetireValues(vals []cpu.TapValue) {
	if !u.started {
		u.start()
	}
	if u.hw == nil {
		u.take(func(buf []tuple.Tuple) []tuple.Tuple { return u.set.AppendValues(buf, vals) })
		return
	}
	b := u.hwBatch
	if len(b.tuples) > 0 {
		u.sendBatch()
		b = u.hwBatch
	}
	b.vals = append(b.vals, vals...)
	if len(b.vals) >= hwBatchLen {
		u.sendBatch()
	}
}

// hwBatch is a batch handed to the bank's goroutine: tuples, or the value
// tap's records.
type hwBatch struct {
	tuples []tuple.Tuple
	vals   []cpu.TapValue
}

// hwBatchLen is the tuples per batch handed to the bank's goroutine.
const hwBatchLen = 8192

func (u *Unit) sendBatch() {
	if b := u.hwBatch; len(b.tuples) > 0 || len(b.vals) > 0 {
		b = u.hw.Send(b)
		b.tuples, b.vals = b.tuples[:0], b.vals[:0]
		u.hwBatch = b
	}
}

// runBatch is the bank's goroutine's work on a batch.
func (u *Unit) runBatch(b *hwBatch) {
	if len(b.vals) > 0 {
		u.bank.AddAllValues(b.vals, u.set[0].Tag)
		return
	}
	u.bank.AddAll(b.tuples)
}

// start decides, at the first records, where the bank runs: on a
// goroutine of its own (inline with GOMAXPROCS 1) unless something needs
// the hardware's state at an exact instruction (the window). The
// selected tuples go straight into the batches the goroutine takes.
func (u *Unit) start() {
	u.started = true
	if u.windowBase != 0 {
		return
	}
	newBatch := func() *hwBatch { return &hwBatch{tuples: make([]tuple.Tuple, 0, hwBatchLen+256)} }
	spares := make([]*hwBatch, 4)
	for i := range spares {
		spares[i] = newBatch()
	}
	u.hwBatch = newBatch()
	u.parallel = runtime.GOMAXPROCS(0) > 1
	u.hw = profhw.NewPipe(spares, u.runBatch)
}

// hwOffloaded reports whether the bank runs on its own goroutine (tests).
func (u *Unit) hwOffloaded() bool { return u.parallel }

// sync waits for the bank to have seen every tuple retired so far.
func (u *Unit) sync() {
	if u.hw != nil {
		u.sendBatch()
		u.hw.Sync()
	}
	u.bank.Sync()
}

// Commit models the input queue (timing mode): each committed instruction
// puts its tuples in a queue of queue.size entries that the unit drains at
// queue.throughput tuples per cycle; a tuple that finds the queue full
// stalls commit until there is room. The profiler itself is off the
// critical path (§7).
func (u *Unit) Commit(r *pipeline.Commit) uint64 {
	if !u.classes.Has(r.D.Inst.Class) {
		return 0 // no tuple: the queue drains lazily, at the next tuple
	}
	u.commitBuf = u.set.Append(u.commitBuf[:0], r.D)
	now := r.Cycle
	if now > u.last {
		u.occMilli -= min(u.occMilli, (now-u.last)*u.tputMilli)
		u.last = now
	}
	if len(u.commitBuf) == 0 {
		return 0
	}
	need, capacity := uint64(len(u.commitBuf))*1000, u.queueSize*1000
	var stall uint64
	if u.occMilli+need > capacity {
		excess := u.occMilli + need - capacity
		stall = (excess + u.tputMilli - 1) / u.tputMilli
		u.occMilli -= min(u.occMilli, stall*u.tputMilli)
		u.last = now + stall
	}
	u.occMilli += need
	u.sum.StallReq += stall
	return stall
}

// Pace bounds how many records the unit may be given before it sees them
// (profhw.Pacer): with a window in guest memory, the core must stop right
// after the instruction whose tuple ends an interval. A record makes at
// most one tuple per selector.
func (u *Unit) Pace() int {
	if u.windowBase == 0 || u.interrupt == nil {
		return 0
	}
	left := u.bank.Interval() - u.bank.Partial()
	return int(max(1, min(left/uint64(max(1, len(u.set))), 1<<20)))
}

// TakeInterrupt copies the latched accumulator window into guest memory at
// window.base (the window appears in the address space at the instruction
// boundary after the interval's last tuple retires).
func (u *Unit) TakeInterrupt(h profhw.HandlerHost) error {
	if err := h.WriteMem(u.windowBase, u.window); err != nil {
		return fmt.Errorf("accumulator window at %#x: %v", u.windowBase, err)
	}
	u.windowWrites++
	return nil
}

func (u *Unit) Finish(end profhw.End) error {
	if u.hw != nil {
		u.sendBatch()
		u.hw.Close()
	}
	u.bank.Finish()
	n := u.track.Net()
	s := &u.sum
	s.AppCycles = end.Cycles
	s.Events = u.bank.Events
	s.StorageBits = u.track.StorageBits()
	s.Set("intervals", u.bank.Intervals())
	switch {
	case !u.bank.Reference():
		s.Null("error_percent", "not measured (error.exact = false)")
	case u.bank.Intervals() == 0:
		s.Null("error_percent", fmt.Sprintf("no complete interval: the run had %d events, the interval is %d", u.bank.Events, u.bank.Interval()))
	}
	if u.bank.Reference() {
		s.ErrorPercent = n.Error
		s.Set("false_positive_percent", n.FalsePos)
		s.Set("false_negative_percent", n.FalseNeg)
		s.Set("neutral_positive_percent", n.NeutralPos)
		s.Set("neutral_negative_percent", n.NeutralNeg)
		s.Set("fp_rate", n.FPRate)
	}
	if u.prof != nil {
		s.Set("promotions", u.prof.Promotions)
		s.Set("failed_promotions", u.prof.FailedPromotes)
		var failedIv, maxProm uint64
		used := 0
		for _, st := range u.track.Stats {
			maxProm = max(maxProm, st.Promotions)
			used = max(used, st.AccUsed)
			if st.FailedPromotions > 0 {
				failedIv++
			}
		}
		s.Set("promotions_max_per_interval", maxProm)
		s.Set("intervals_with_failed_promotions", failedIv)
		s.Set("accumulator_entries", u.prof.Params().AccEntries)
		s.Set("accumulator_used_max", used)
		s.Set("fp_bound", u.fpBound)
		s.Set("window_writes", u.windowWrites)
	}
	s.Set("interval", u.bank.Interval())
	s.Set("threshold_percent", u.pct)
	s.Set("threshold_events", u.bank.Threshold())
	s.Set("partial_interval_events", u.bank.Partial())
	s.Set("configuration", u.config)
	s.Set("tuples", u.set.String())
	if u.bank.Reference() {
		distinct, cands := u.bank.Means()
		s.Set("distinct_tuples_per_interval", distinct)
		s.Set("perfect_candidates_per_interval", cands)
		s.Set("new_candidates_per_interval", mean(u.bank.NewCands))
	}
	if u.timing {
		s.Set("queue_size", u.queueSize)
		s.Set("queue_throughput", float64(u.tputMilli)/1000)
	}
	return nil
}

// Means are the mean distinct tuples and perfect candidates per interval
// (Fig. 4/5).
func (b *Bank) Means() (distinct, candidates float64) {
	return mean(b.Distinct), mean(b.PerfectCands)
}

func mean(xs []int) float64 {
	if len(xs) == 0 {
		return 0
	}
	t := 0
	for _, x := range xs {
		t += x
	}
	return float64(t) / float64(len(xs))
}

func (u *Unit) Summary() *profhw.Summary { return &u.sum }

// Bank is the unit's interval clock and reference (tests), its reference
// up to date.
func (u *Unit) Bank() *Bank {
	u.sync()
	return u.bank
}

// Track is the unit's accuracy record (tests), up to date.
func (u *Unit) Track() *Track {
	u.sync()
	return u.track
}

// Window is the last latched accumulator window image (multihash kind).
func (u *Unit) Window() []byte { return u.window }

func (u *Unit) Outputs(sym profhw.Symbolizer) ([]profhw.Output, error) {
	iv := profhw.Output{Suffix: "intervals.json", Write: func(w io.Writer) error { return u.writeIntervals(w, sym) }}
	outs := []profhw.Output{u.track.Profile.Profile(u.name, "estimated", u.set, sym).Output("profile.json"), iv}
	if !u.bank.Reference() {
		return outs, nil // no exact profile, no errors
	}
	return append(outs, u.bank.exactProfile(u.name, u.set, sym).Output("exact.json"), profhw.Output{Suffix: "errors.csv", Data: u.track.ErrorsCSV()}), nil
}

// ErrorsCSV is the per-interval error breakdown (Fig. 13's series and
// Fig. 3's categories).
func (t *Track) ErrorsCSV() []byte {
	var b bytes.Buffer
	b.WriteString("interval,error_percent,false_positive_percent,false_negative_percent,neutral_positive_percent,neutral_negative_percent,false_positives,false_negatives,neutral_positives,neutral_negatives,exact,hardware_candidates,perfect_candidates,distinct_tuples,new_candidates,promotions,failed_promotions,accumulator_used\n")
	for i, r := range t.Intervals {
		fmt.Fprintf(&b, "%d,%.4f,%.4f,%.4f,%.4f,%.4f,%d,%d,%d,%d,%d,%d,%d,%d,%d", i, r.Error, r.FalsePos, r.FalseNeg, r.NeutralPos, r.NeutralNeg,
			r.NFalsePos, r.NFalseNeg, r.NNeutralPos, r.NNeutralNeg, r.NSame, r.Hardware, r.Perfect, r.Distinct, r.NewCands)
		if i < len(t.Stats) { // interval profilers only
			st := t.Stats[i]
			fmt.Fprintf(&b, ",%d,%d,%d\n", st.Promotions, st.FailedPromotions, st.AccUsed)
		} else {
			b.WriteString(",,,\n")
		}
	}
	return b.Bytes()
}

type jsonCand struct {
	PC    string `json:"pc"`
	PCHex string `json:"pc_hex"`
	Word  string `json:"word"`
	Tag   uint8  `json:"tag"`
	Count uint64 `json:"count"`
	State string `json:"state,omitempty"`
}

type jsonInterval struct {
	Interval int     `json:"interval"`
	Error    float64 `json:"error_percent"`
	NewCands int     `json:"new_candidates"` // perfect candidates new this interval (with the reference)
	// Interval profilers: what the accumulator did (EngineStats).
	Promotions  *uint64    `json:"promotions,omitempty"`
	Failed      *uint64    `json:"failed_promotions,omitempty"`
	AccUsed     *int       `json:"accumulator_used,omitempty"`
	Hardware    []jsonCand `json:"candidates"`
	Perfect     []jsonCand `json:"perfect"`
	Accumulator []jsonCand `json:"accumulator,omitempty"`
}

var stateNames = [...]string{accEmpty: "empty", accLocked: "candidate", accRetained: "retained", accStale: "stale"}

// intervalsHead is NAME.intervals.json's fields before its list.
type intervalsHead struct {
	Unit      string `json:"unit"`
	Interval  uint64 `json:"interval"`
	Threshold uint64 `json:"threshold_events"`
	Intervals int    `json:"intervals"`
	Listed    int    `json:"listed"`
}

func (u *Unit) intervalsHead() intervalsHead {
	return intervalsHead{Unit: u.name, Interval: u.bank.Interval(), Threshold: u.bank.Threshold(), Intervals: u.bank.Intervals(), Listed: len(u.track.Lists)}
}

// writeIntervals writes NAME.intervals.json: what json.MarshalIndent
// writes for the head's fields and then "list", the listed intervals,
// written one at a time (TestIntervalsStreamed).
func (u *Unit) writeIntervals(w io.Writer, sym profhw.Symbolizer) error {
	h := u.intervalsHead()
	name, err := json.Marshal(h.Unit)
	if err != nil {
		return err
	}
	b := fmt.Appendf(nil, "{\n  \"unit\": %s,\n  \"interval\": %d,\n  \"threshold_events\": %d,\n  \"intervals\": %d,\n  \"listed\": %d,\n  \"list\": [",
		name, h.Interval, h.Threshold, h.Intervals, h.Listed)
	names := map[uint64]string{} // sym remembered: the lists repeat their PCs
	msym := func(a uint64) string {
		s, ok := names[a]
		if !ok {
			s = sym(a)
			names[a] = s
		}
		return s
	}
	for i := range u.track.Lists {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, "\n    "...)
		iv, err := json.MarshalIndent(u.interval(i, msym), "    ", "  ")
		if err != nil {
			return err
		}
		b = append(b, iv...)
		if len(b) >= 64<<10 {
			if _, err := w.Write(b); err != nil {
				return err
			}
			b = b[:0]
		}
	}
	if len(u.track.Lists) > 0 {
		b = append(b, "\n  "...)
	}
	b = append(b, "]\n}\n"...)
	_, err = w.Write(b)
	return err
}

// interval is listed interval i as the file gives it.
func (u *Unit) interval(i int, sym profhw.Symbolizer) jsonInterval {
	conv := func(cs []Cand) []jsonCand {
		out := make([]jsonCand, 0, len(cs))
		for _, c := range cs {
			out = append(out, jsonCand{PC: sym(c.T.PC), PCHex: fmt.Sprintf("%#x", c.T.PC), Word: fmt.Sprintf("%#x", c.T.W), Tag: c.T.Tag, Count: c.Count})
		}
		return out
	}
	l := u.track.Lists[i]
	ji := jsonInterval{Interval: i, Hardware: conv(l.Hardware), Perfect: conv(l.Perfect)}
	if i < len(u.track.Intervals) { // scored (the reference is on)
		ji.Error, ji.NewCands = u.track.Intervals[i].Error, u.track.Intervals[i].NewCands
	}
	if i < len(u.track.Stats) {
		st := u.track.Stats[i]
		ji.Promotions, ji.Failed, ji.AccUsed = &st.Promotions, &st.FailedPromotions, &st.AccUsed
	}
	for _, e := range l.Accumulator {
		if e.State == accEmpty {
			continue
		}
		ji.Accumulator = append(ji.Accumulator, jsonCand{PC: sym(e.T.PC), PCHex: fmt.Sprintf("%#x", e.T.PC), Word: fmt.Sprintf("%#x", e.T.W), Tag: e.T.Tag, Count: e.Count, State: stateNames[e.State]})
	}
	return ji
}
