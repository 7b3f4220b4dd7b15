package stratified

import (
	"bytes"
	"fmt"

	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/pipeline"
	"github.com/rvsim/rvsim/profhw"
	"github.com/rvsim/rvsim/profhw/tuple"
)

// inlineCompressor keeps the compressor on the unit's goroutine whatever
// the configuration (tests compare the two placements).
var inlineCompressor bool

func init() {
	profhw.Register(profhw.KindInfo{
		Name:  "stratified",
		Doc:   "stream-compression profiler: selectors, tuple queue, R/P/C/H[X]/A_k/tagged compressors, message buffer (stratified-sampling.md §2–5)",
		Build: build,
	})
}

// Config is a stratified unit's configuration (docs/PROFHW.md lists the
// keys).
type Config struct {
	Spec     Spec
	Options  Options
	Set      tuple.Set
	Delivery profhw.Delivery
	Queue    int // tuple-queue entries (§3.5); 0: unbounded (no stall)
	Filter   Filter
	Every    uint64 // convergence point every Every events; 0: none
	// MaxPoints bounds the curve: past it, every other point is dropped
	// and Every doubles (a point costs a pass over the exact profile).
	MaxPoints int
	Target    float64 // the error (percent) "to reach and stay below"
	// RealHandler: a full buffer interrupts the core, which runs the
	// handler runtime's Stratified_handler on the messages (beyond the
	// paper; docs/PROFHW.md). Otherwise the analytic model only.
	RealHandler bool
	// NoExact skips the exact reference profile (and so the error and the
	// convergence curve): the hardware alone, for speed measurements.
	NoExact bool
}

// ReadConfig reads a unit's keys.
func ReadConfig(c *profhw.UnitConfig) (Config, error) {
	cfg := Config{Options: DefaultOptions}
	name := c.String("compressor", "H[P256]2048")
	spec, err := ParseSpec(name)
	if err != nil {
		ne := err.(*NotationError)
		c.Errorf("compressor", "%q: at offset %d: %s (docs/PROFHW.md: the notation)", name, ne.Off, ne.Msg)
	}
	cfg.Spec = spec
	o := &cfg.Options
	o.Seed = uint64(c.Int("seed", int64(o.Seed), 0, 1<<62))
	o.CountBits = uint(c.Int("count_bits", int64(o.CountBits), 1, 63))
	// A_k counts messages behind R, P, D (8 bits merge 255 of them) but
	// occurrences behind C and the tagged compressor, whose messages
	// carry up to 2^hit-bits: those get 16 bits unless configured.
	defAssoc := o.AssocBits
	if spec.Counter || spec.Tagged != nil {
		defAssoc = 16
	}
	o.AssocBits = uint(c.Int("assoc_bits", int64(defAssoc), 1, 32))
	o.EvictHits = uint64(c.Int("tagged.evict_hits", int64(o.EvictHits), 1, 1<<32))
	o.ReplaceMiss = uint64(c.Int("tagged.replace_misses", int64(o.ReplaceMiss), 1, 1<<32))
	if t := spec.Tagged; t != nil && err == nil {
		o.EvictHits = fitThreshold(c, "tagged.evict_hits", o.EvictHits, t.HitBits, "hit", name)
		o.ReplaceMiss = fitThreshold(c, "tagged.replace_misses", o.ReplaceMiss, t.MissBits, "miss", name)
	} else if err == nil {
		for _, k := range []string{"tagged.evict_hits", "tagged.replace_misses"} {
			if c.Has(k) {
				c.Errorf(k, "applies to a tagged compressor (T[…]) only, and compressor %s has none", name)
			}
		}
	}
	cfg.Set = tuple.ReadSet(c, "value")
	cfg.Delivery = profhw.ReadDelivery(c, profhw.PaperDelivery)
	cfg.RealHandler = c.String("delivery.handler", "analytic", "analytic", "real") == "real"
	if cfg.Delivery.Buffer > windowMsgs {
		if cfg.RealHandler {
			c.Errorf("delivery.buffer", "%d messages do not fit the real handler's window (%d)", cfg.Delivery.Buffer, windowMsgs)
		}
	}
	cfg.Queue = int(c.Int("queue.size", 8, 0, 1<<20))
	cfg.Filter = Filter{
		MinPCCount:   uint64(c.Int("error.min_pc_count", int64(PaperFilter.MinPCCount), 1, 1<<40)),
		MinTupleFrac: c.Float("error.min_tuple_fraction", PaperFilter.MinTupleFrac, 0, 1),
		MinCovered:   c.Float("error.min_covered", PaperFilter.MinCovered, 0, 1),
	}
	cfg.NoExact = !c.Bool("error.exact", true)
	cfg.Every = uint64(c.Int("convergence.every", 100000, 0, 1<<40))
	if cfg.NoExact {
		if c.Has("convergence.every") && cfg.Every != 0 && !c.Overridden("error.exact") {
			c.Errorf("convergence.every", "a convergence curve needs the exact profile (error.exact = false)")
		}
		cfg.Every = 0
	}
	cfg.Target = c.Float("convergence.target_percent", 5, 0, 100)
	cfg.MaxPoints = int(c.Int("convergence.max_points", 64, 2, 1<<20))
	return cfg, c.Err()
}

// fitThreshold is a tagged threshold that fits its counter of width
// bits: one the user wrote must fit (else an error naming the key); a
// default that does not is clamped to the counter (T[2,4,3] has a 4-bit
// hit counter: ShouldEvict at 15).
func fitThreshold(c *profhw.UnitConfig, key string, v uint64, width uint, counter, name string) uint64 {
	most := uint64(1)<<width - 1
	if v <= most {
		return v
	}
	if c.Has(key) {
		c.Errorf(key, "%d does not fit the %d-bit %s counter of %s (at most %d)", v, width, counter, name, most)
	}
	return most
}

func build(c *profhw.UnitConfig, env profhw.Env) (profhw.Unit, error) {
	cfg, err := ReadConfig(c)
	if err != nil {
		return nil, err
	}
	// delivery.handler = "real" needs the handler runtime: sim loads it
	// before building the units (and fails if it cannot); a host with no
	// core (profhw check, tests) gets the analytic model.
	return NewUnit(c.Name, cfg, env), nil
}

// Point is one point of the convergence curve (Fig. 7, Fig. 8).
type Point struct {
	Events     uint64
	Error      float64
	Selected   int
	Messages   uint64
	Interrupts uint64
	Overhead   uint64
}

// Unit is a stratified-sampling profiler: selectors → tuple queue →
// compressor → message buffer → software (the Go fold of the messages,
// the profile an interrupt handler would build).
type Unit struct {
	name string
	cfg  Config
	env  profhw.Env
	comp *Compressor
	buf  []tuple.Tuple

	// The measurement (reference.go) on its own goroutine: the exact
	// profile of every tuple (the ideal profile, §5.3.1), the messages
	// folded (what software sees), the convergence curve. Finish closes
	// the stream; meas is then read on the unit's goroutine.
	ref    *profhw.Pipe[*refBatch]
	batch  *refBatch // being filled
	meas   *reference
	markAt int // where the marks of the chunk being compressed go
	// The compressor and the message buffer's count: here, or on the
	// measurement's goroutine (offload: only when its messages change
	// nothing that executes; NewUnit says when).
	snd     *sender
	offload bool

	// The tuple queue (timing mode, §3.5): occupancy at qCycle; one tuple
	// leaves per cycle.
	qLen   uint64
	qCycle uint64

	next     uint64   // the next convergence point
	pointsAt []uint64 // the points' event counts (the curve is thinned here, then in meas)
	sum      profhw.Summary

	// The real handler: messages waiting in the hardware buffer, what
	// the handler was given (folded in Go, to check its table against),
	// the buffer's analytic interrupts, and the cycles measured at commit.
	win          []Message
	handed       tuple.Counts
	handedMsgs   uint64
	maxAtIntr    int // the most messages the buffer held when an interrupt was taken
	analyticInts uint64
	lastCommit   uint64
	handlerInsts uint64
	// The handler's data-cache misses (its table does not fit the L1).
	handlerL1DMiss, handlerL2Miss uint64
	winAddr                       uint64
	handlerRead                   *Readback
}

// NewUnit builds a unit.
func NewUnit(name string, cfg Config, env profhw.Env) *Unit {
	u := &Unit{name: name, cfg: cfg, env: env, handed: tuple.Counts{}, next: cfg.Every,
		snd: &sender{comp: New(cfg.Spec, cfg.Options), buffer: cfg.Delivery.Buffer}}
	// The compressor moves to the measurement's goroutine when its
	// messages interrupt nothing. With the exact profile too: since the
	// exact profile became a tuple.PCTable, the two together (about 90
	// host instructions a tuple each on lisp) cost that goroutine less
	// than recording and selecting the tuples costs the simulation's,
	// which the compressor would otherwise join (docs/SPEED.md).
	u.offload = !cfg.RealHandler && !inlineCompressor
	u.meas = newReference(&u.cfg)
	if u.offload {
		u.meas.snd = u.snd
	}
	spares := make([]*refBatch, refBatches)
	for i := range spares {
		spares[i] = newRefBatch()
	}
	u.ref = profhw.NewPipe(spares, u.meas.consume)
	u.batch = newRefBatch()
	u.sum = profhw.Summary{Unit: name, Kind: "stratified", Mode: env.Mode.String(),
		ErrorMetric: "frequency-weighted invariance error (stratified-sampling.md §5.3.1)"}
	if cfg.NoExact {
		u.sum.ErrorMetric = "not measured (error.exact = false)"
	}
	return u
}

func (u *Unit) Name() string { return u.name }

func (u *Unit) Watch() profhw.Watch {
	w := profhw.Watch{Retired: u.cfg.Set.Classes(), Committed: u.env.Mode == profhw.Timing && u.cfg.Queue > 0, Lean: true}
	if !u.cfg.RealHandler {
		// Only tuples enter the queue; the real handler's cost is
		// measured at the commit of every instruction.
		w.CommitClasses = u.cfg.Set.Classes()
	}
	return w
}

// Retire selects, counts and compresses the retired instructions' tuples.
// The batch's tuples go through in chunks that end at convergence points:
// within a chunk the order of the exact records and the messages does not
// change what a point measures.
func (u *Unit) Retire(recs []cpu.DynInst) {
	// The tuples are selected into the measurement's batch (the exact
	// profile counts each once; an offloaded compressor compresses them
	// there), or a buffer of the unit's own.
	u.selectThen(func(buf []tuple.Tuple) []tuple.Tuple { return u.cfg.Set.AppendAll(buf, recs) })
}

// TakesValues reports whether the unit can take the core's value tap
// (profhw.ValueTaker): a single value selector of loads, and no real
// handler (whose buffer paces the core).
func (u *Unit) TakesValues() bool { return u.cfg.Set.ValueOnly() && !u.cfg.RealHandler }

// RetireValues is Retire on the value tap's records (each is a tuple).
// With the compressor on the measurement's goroutine, nothing here reads
// the tuples: the records go into the batch as they are (a copy of 16
// bytes each) and become tuples there (reference.consume).
func (u *Unit) RetireValues(vals []cpu.TapValue) {
	if b := u.batch; u.offload && len(b.tuples) == 0 {
		b.vals = append(b.vals, vals...)
		u.take(len(vals), nil)
		return
	}
	u.selectThen(func(buf []tuple.Tuple) []tuple.Tuple { return u.cfg.Set.AppendValues(buf, vals) })
}

// selectThen has sel append the tuples to the measurement's batch, or a
// buffer of the unit's own, and takes them.
func (u *Unit) selectThen(sel func([]tuple.Tuple) []tuple.Tuple) {
	if u.cfg.NoExact && !u.offload {
		u.buf = sel(u.buf[:0])
		u.take(len(u.buf), u.buf)
		return
	}
	b := u.batch
	if len(b.vals) > 0 { // (a batch holds tuples or values: these come first)
		b.tuples = u.cfg.Set.AppendValues(b.tuples, b.vals)
		b.vals = b.vals[:0]
	}
	start := len(b.tuples)
	b.tuples = sel(b.tuples)
	u.take(len(b.tuples)-start, b.tuples[start:])
}

// take counts and compresses the left tuples just selected (ts: the end
// of the measurement's batch, or the unit's own buffer; nil if they are
// the value records at the end of the batch, with the compressor on the
// measurement's goroutine).
func (u *Unit) take(left int, ts []tuple.Tuple) {
	b := u.batch
	for left > 0 {
		n := left
		if u.cfg.Every != 0 {
			n = int(min(uint64(n), u.next-u.sum.Events))
		}
		left -= n
		u.sum.Events += uint64(n)
		u.markAt = b.len() - left // marks apply after this chunk
		if !u.offload {
			chunk := ts[:n]
			ts = ts[n:]
			u.snd.comp.PushAll(chunk)
			if len(u.snd.comp.Out) > 0 {
				u.deliver()
			}
		}
		if u.sum.Events == u.next {
			u.point()
			u.next += u.cfg.Every
			if len(u.pointsAt) > u.cfg.MaxPoints {
				u.thin()
			}
		}
	}
	if b.len() >= refBatchTuples || len(b.marks) >= refBatchTuples {
		u.handOver()
	}
}

// mark appends a mark to the measurement's stream, after the tuples of
// the current chunk.
func (u *Unit) mark(r refRec) {
	at := u.markAt
	if u.cfg.NoExact && !u.offload {
		at = 0 // no tuples in the batch
	}
	u.batch.marks = append(u.batch.marks, refMark{At: at, refRec: r})
}

// handOver sends the batch to the measurement's goroutine.
func (u *Unit) handOver() {
	b := u.ref.Send(u.batch)
	b.tuples, b.vals, b.marks = b.tuples[:0], b.vals[:0], b.marks[:0]
	u.batch, u.markAt = b, 0
}

// deliver moves the compressor's messages into the message buffer; a full
// buffer interrupts the processor and software folds it (§2.2).
func (u *Unit) deliver() {
	for _, m := range u.snd.comp.Out {
		u.mark(refRec{PC: m.T.PC, W: m.T.W, N: m.Count, Tag: m.T.Tag, Kind: refMessage})
		u.snd.count()
		if u.cfg.RealHandler {
			u.win = append(u.win, m)
			if len(u.win) >= u.cfg.Delivery.Buffer && u.env.Interrupt != nil {
				u.env.Interrupt(u) // taken at the next instruction boundary
			}
		}
	}
	u.snd.comp.Out = u.snd.comp.Out[:0]
}

// Pace bounds how many records the unit may be given before it sees them
// (profhw.Pacer): with a real handler, the buffer must interrupt right
// after the instruction that fills it. A record makes at most one tuple
// per selector, and a tuple at most one message, so the buffer cannot
// fill before free/len(selectors) more records.
func (u *Unit) Pace() int {
	if !u.cfg.RealHandler {
		return 0
	}
	free := u.cfg.Delivery.Buffer - len(u.win)
	return max(1, free/max(1, len(u.cfg.Set)))
}

// TakeInterrupt hands the buffer to the real handler: the messages go to
// the window, their number to the mailbox, and the core enters
// Stratified_handler (toolchain/handlers/src/stratified.c).
func (u *Unit) TakeInterrupt(h profhw.HandlerHost) error {
	if len(u.win) == 0 {
		return nil
	}
	if u.winAddr == 0 {
		a, ok := h.Lookup(windowSym)
		if !ok {
			return fmt.Errorf("profhw unit %s: the handler runtime has no %s (rebuild it with make)", u.name, windowSym)
		}
		u.winAddr = a
	}
	u.maxAtIntr = max(u.maxAtIntr, len(u.win))
	n := min(len(u.win), windowMsgs)
	buf := make([]byte, 32*n)
	for i, m := range u.win[:n] {
		putWords(buf[32*i:], m.T.PC, m.T.W, uint64(m.T.Tag), m.Count)
	}
	if err := h.WriteMem(u.winAddr+windowHeader, buf); err != nil {
		return fmt.Errorf("profhw unit %s: writing the message window: %v", u.name, err)
	}
	var cnt [8]byte
	putWords(cnt[:], uint64(n))
	if err := h.WriteMem(u.winAddr+16, cnt[:]); err != nil {
		return fmt.Errorf("profhw unit %s: writing the message window: %v", u.name, err)
	}
	err := h.CallHandler(handlerSym, uint64(n))
	if err == profhw.ErrHandlerBusy {
		return nil // the next message asks again
	}
	if err != nil {
		return fmt.Errorf("profhw unit %s: %v", u.name, err)
	}
	for _, m := range u.win[:n] {
		u.handed[m.T] += m.Count
	}
	u.handedMsgs += uint64(n)
	u.sum.Interrupts++
	u.win = append(u.win[:0], u.win[n:]...)
	return nil
}

// thin keeps every other point (those at multiples of twice the
// interval) and doubles the interval.
func (u *Unit) thin() {
	u.cfg.Every *= 2
	kept := u.pointsAt[:0]
	for _, e := range u.pointsAt {
		if e%u.cfg.Every == 0 {
			kept = append(kept, e)
		}
	}
	u.pointsAt = kept
	u.mark(refRec{N: u.cfg.Every, Kind: refThin})
	u.next = (u.sum.Events/u.cfg.Every + 1) * u.cfg.Every
}

// point asks the measurement for a convergence point here.
func (u *Unit) point() {
	u.pointsAt = append(u.pointsAt, u.sum.Events)
	r := refRec{PC: u.sum.Events, Kind: refPoint}
	if !u.offload { // (offloaded, the sender is the measurement's: it counts there, and reading it here was a data race)
		r.W, r.N = u.snd.messages, u.interrupts()
	}
	u.mark(r)
}

// interrupts is the count so far: the real handler's, or the message
// buffer's analytic ones.
func (u *Unit) interrupts() uint64 {
	if u.cfg.RealHandler {
		return u.sum.Interrupts
	}
	return u.snd.analyticInts
}

// Commit models the tuple queue (§3.5): the committed instruction's tuples
// enter it; one tuple leaves per cycle; commit stalls while it is full.
func (u *Unit) Commit(r *pipeline.Commit) uint64 {
	// The real handler's cost: the commit cycles of its instructions (the
	// call gate's stores and jump, the routine, dise.ret).
	if u.cfg.RealHandler && (r.D.Handler || r.D.Injected) {
		u.sum.HandlerCyc += r.Cycle - min(r.Cycle, u.lastCommit)
		u.handlerInsts++
		if r.Ev&pipeline.EvL1DMiss != 0 {
			u.handlerL1DMiss++
		}
		if r.Ev&pipeline.EvL2Miss != 0 {
			u.handlerL2Miss++
		}
	}
	u.lastCommit = r.Cycle
	var k uint64
	for i := range u.cfg.Set {
		if _, ok := u.cfg.Set[i].Select(r.D); ok {
			k++
		}
	}
	if k == 0 {
		return 0
	}
	if r.Cycle > u.qCycle {
		left := r.Cycle - u.qCycle
		u.qLen -= min(u.qLen, left)
		u.qCycle = r.Cycle
	}
	size := uint64(u.cfg.Queue)
	var stall uint64
	if u.qLen+k > size {
		stall = u.qLen + k - size
		u.qLen = size
		u.qCycle += stall
	} else {
		u.qLen += k
	}
	u.sum.StallReq += stall
	u.lastCommit += stall
	return stall
}

// Finish drains what the hardware still holds that software can read
// (A_k's complete tuples and the message buffer: a last interrupt at exit)
// and computes the error.
func (u *Unit) Finish(end profhw.End) error {
	m, snd := u.meas, u.snd
	viaHandler := u.cfg.RealHandler
	if u.offload {
		u.handOver()
		u.ref.Close() // the compressor is this goroutine's again
		snd.comp.Drain()
		m.fold()
	} else {
		snd.comp.Drain()
		u.markAt = u.batch.len()
		u.cfg.RealHandler = false // what is left is read at exit, not by an interrupt
		u.deliver()
		u.cfg.RealHandler = viaHandler
		u.handOver()
		u.ref.Close()
	}
	if snd.buffered > 0 {
		snd.analyticInts++
		snd.buffered = 0
	}
	s := &u.sum
	s.Messages = snd.messages
	if !viaHandler {
		s.Interrupts = snd.analyticInts
	}
	s.OverheadCyc = u.cfg.Delivery.Cycles(s.Messages, snd.analyticInts)
	s.AppCycles = end.Cycles
	s.StorageBits = snd.comp.StorageBits()
	if m.exact != nil {
		e, n := ErrorPC(m.exact, m.est, u.cfg.Filter)
		s.ErrorPercent = e
		s.Set("selected_tuples", n)
		s.Set("distinct_tuples", m.exact.Len())
		if n == 0 {
			s.Null("error_percent", noSelected)
		}
	} else {
		s.Null("error_percent", "not measured (error.exact = false)")
	}
	if u.cfg.Every != 0 && (len(m.points) == 0 || m.points[len(m.points)-1].Events != s.Events) {
		m.point(s.Events, s.Messages, u.interrupts())
	}
	s.Set("compressor", u.cfg.Spec.String())
	s.Set("tuples", u.cfg.Set.String())
	s.Set("first_level_messages", snd.comp.FirstLevel)
	s.Set("hash_table_bits", snd.comp.HashBits())
	s.Set("queue_bits", uint64(u.cfg.Queue)*(2*64+8))
	s.Set("buffer_bits", uint64(u.cfg.Delivery.Buffer)*(2*64+8+32))
	s.Set("queue_entries", u.cfg.Queue)
	s.Set("message_buffer", u.cfg.Delivery.Buffer)
	s.Set("seed", u.cfg.Options.Seed)
	if viaHandler {
		s.Set("delivery", "real handler")
		s.Set("analytic_interrupts", snd.analyticInts)
		s.Set("handler_messages", u.handedMsgs)
		s.Set("handler_buffer_at_interrupt_max", u.maxAtIntr)
		s.Set("messages_left_at_exit", uint64(len(u.win)))
		s.Set("handler_instructions", u.handlerInsts)
		s.Set("handler_l1d_misses", u.handlerL1DMiss)
		s.Set("handler_l2_misses", u.handlerL2Miss)
		if u.handedMsgs > 0 {
			s.Set("handler_instructions_per_message", float64(u.handlerInsts)/float64(u.handedMsgs))
		} else {
			s.Null("handler_instructions_per_message", "the handler was given no message")
		}
		switch {
		case u.env.Mode != profhw.Timing:
			// The handler's instructions run, but nothing times them.
			s.Null("handler_cycles", "functional mode has no cycles (run with --timing)")
			s.Null("handler_cycles_per_message", "functional mode has no cycles (run with --timing)")
		case u.handedMsgs > 0:
			s.Set("handler_cycles_per_message", float64(s.HandlerCyc)/float64(u.handedMsgs))
		default:
			s.Null("handler_cycles_per_message", "the handler was given no message")
		}
		rb, err := ReadTable(end.Host)
		if err != nil {
			return fmt.Errorf("reading the handler's table: %v", err)
		}
		u.handlerRead = rb
		s.Set("handler_table_tuples", len(rb.Counts))
		s.Set("handler_table_dropped", rb.Dropped)
		s.Set("handler_profile_equals_go_fold", rb.Dropped == 0 && equalCounts(rb.Counts, u.handed))
	} else {
		s.Set("delivery", "analytic")
	}
	if s.Messages > 0 {
		s.Set("analytic_cycles_per_message", float64(s.OverheadCyc)/float64(s.Messages))
	} else {
		s.Null("analytic_cycles_per_message", "no message was sent")
	}
	s.Set("cost_model", profhw.CostModelNames[u.cfg.Delivery.Model])
	if snd.comp.tag != nil {
		tr := map[string]uint64{}
		for i, n := range snd.comp.tag.Transitions {
			tr[TransitionNames[i]] = n
		}
		s.Set("transitions", tr)
	}
	if u.cfg.Every != 0 {
		reach, stay := u.Convergence(u.cfg.Target)
		s.Set("target_percent", u.cfg.Target)
		s.Set("events_to_reach_target", reach)
		s.Set("events_to_stay_below_target", stay)
		selected := false
		for _, p := range u.meas.points {
			selected = selected || p.Selected > 0
		}
		switch {
		case !selected:
			s.Null("events_to_reach_target", "never: no convergence point had a selected tuple ("+noSelected+")")
			s.Null("events_to_stay_below_target", "never: no convergence point had a selected tuple ("+noSelected+")")
		case reach == 0:
			s.Null("events_to_reach_target", "never: no convergence point was below target_percent")
			s.Null("events_to_stay_below_target", "never: no convergence point was below target_percent")
		case stay == 0:
			s.Null("events_to_stay_below_target", "never: the last convergence point was not below target_percent")
		}
	}
	if t := snd.comp.tag; t != nil {
		s.Set("tagged_evict_hits", t.evictHits)
		s.Set("tagged_replace_misses", t.replace)
	}
	return nil
}

// noSelected is why a unit's error has no value.
const noSelected = "no tuple passed the §5.3.1 filters (selected_tuples = 0), so there is nothing to measure"

// Convergence returns the events at the first point whose error is below
// target, and at the first point from which every later one is (0: never;
// the summary writes null). Points with no selected tuple do not count.
func (u *Unit) Convergence(target float64) (reach, stay uint64) {
	for _, p := range u.meas.points {
		if p.Selected > 0 && p.Error < target {
			if reach == 0 {
				reach = p.Events
			}
			if stay == 0 {
				stay = p.Events
			}
		} else {
			stay = 0
		}
	}
	return reach, stay
}

func (u *Unit) Summary() *profhw.Summary { return &u.sum }

// Offloaded reports whether the compressor runs on the measurement's
// goroutine.
func (u *Unit) Offloaded() bool { return u.offload }

// Exact is the exact profile; Estimated the messages folded.
func (u *Unit) Exact() tuple.Counts {
	if u.meas.exact == nil {
		return nil
	}
	return u.meas.exact.Counts()
}
func (u *Unit) Estimated() tuple.Counts { return u.meas.est.Counts() }

// Handed is the Go fold of the messages the real handler was given;
// HandlerTable what its table held at exit (nil without a real handler).
func (u *Unit) Handed() tuple.Counts    { return u.handed }
func (u *Unit) HandlerTable() *Readback { return u.handlerRead }

// Points is the convergence curve.
func (u *Unit) Points() []Point { return u.meas.points }

func (u *Unit) Outputs(sym profhw.Symbolizer) ([]profhw.Output, error) {
	outs := []profhw.Output{u.meas.est.Profile(u.name, "estimated", u.cfg.Set, sym).Output("profile.json")}
	if u.meas.exact != nil {
		outs = append(outs, u.meas.exact.Profile(u.name, "exact", u.cfg.Set, sym).Output("exact.json"))
	}
	if u.cfg.Every != 0 {
		var b bytes.Buffer
		b.WriteString("events,error_percent,selected_tuples,messages,interrupts,overhead_cycles_analytic\n")
		for _, p := range u.meas.points {
			e := "" // no selected tuple: no error (an empty field)
			if p.Selected > 0 {
				e = fmt.Sprintf("%.4f", p.Error)
			}
			fmt.Fprintf(&b, "%d,%s,%d,%d,%d,%d\n", p.Events, e, p.Selected, p.Messages, p.Interrupts, p.Overhead)
		}
		outs = append(outs, profhw.Output{Suffix: "convergence.csv", Data: b.Bytes()})
	}
	return outs, nil
}
