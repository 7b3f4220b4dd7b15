package stratified

import (
	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/profhw/tuple"
)

// The measurement side of a unit (no hardware has it): the exact profile
// of every tuple, the fold of the messages (what software sees), and the
// convergence curve. It runs on a profhw.Pipe's goroutine, fed in program
// order by refBatches: the tuples the unit selected (the buffer it
// selects them into is handed over) and, between them, marks.
type reference struct {
	filter   Filter
	delivery func(messages, interrupts uint64) uint64
	exact    *tuple.PCTable // nil: error.exact = false
	est      *tuple.PCTable
	points   []Point
	snd      *sender // the offloaded compressor (nil: the unit compresses)
	set      tuple.Set
}

// sender is a unit's compressor and its message buffer's count (§2.2:
// a full buffer of Buffer messages is an interrupt).
type sender struct {
	comp                   *Compressor
	buffer                 int
	buffered               int
	messages, analyticInts uint64
}

// count is one more message in the buffer.
func (s *sender) count() {
	s.messages++
	if s.buffered++; s.buffered == s.buffer {
		s.analyticInts++
		s.buffered = 0
	}
}

// refKind says what a refRec is.
type refKind uint8

const (
	refMessage refKind = iota // a message: N occurrences of the tuple (software's fold)
	refPoint                  // a convergence point: PC events, W messages, N interrupts
	refThin                   // the curve is thinned to the points at multiples of N
)

// refRec is a mark of the reference's stream.
type refRec struct {
	PC, W, N uint64
	Tag      uint8
	Kind     refKind
}

// refBatch is tuples in program order, each counted once, and marks that
// apply after the first At of them. The tuples may come as the value
// tap's records instead (vals: one tuple each, Set.AppendValues), which
// consume counts as they are; a batch holds one kind or the other.
type refBatch struct {
	tuples []tuple.Tuple
	vals   []cpu.TapValue
	marks  []refMark
}

// len is the batch's tuples, in either form.
func (b *refBatch) len() int { return len(b.tuples) + len(b.vals) }

type refMark struct {
	At int
	refRec
}

// refBatchTuples is a batch's size when the unit hands it over;
// refBatches are in rotation. A batch is back in the unit's hands long
// after the measurement read it, so that writing it again finds its lines
// gone from the other core's cache, not shared with it.
const (
	refBatchTuples = 8192
	refBatches     = 12
)

func newRefBatch() *refBatch {
	return &refBatch{tuples: make([]tuple.Tuple, 0, 2*refBatchTuples)}
}

func newReference(cfg *Config) *reference {
	r := &reference{filter: cfg.Filter, delivery: cfg.Delivery.Cycles, est: tuple.NewPCTable(0), set: cfg.Set}
	if !cfg.NoExact {
		// The exact table tracks the words above the filter's share: a
		// point visits those only (ErrorPC).
		r.exact = tuple.NewPCTable(cfg.Filter.MinTupleFrac)
	}
	return r
}

func (r *reference) consume(b *refBatch) {
	if len(b.vals) > 0 {
		// The value records as they are: the exact profile and the
		// compressor take them so, and no tuples are made but the
		// messages'.
		walkMarks(r, b.marks, b.vals, r.countValues)
		return
	}
	walkMarks(r, b.marks, b.tuples, r.count)
}

// walkMarks counts xs, a batch's tuples in either form, between its
// marks, and applies each mark at its place.
func walkMarks[T any](r *reference, marks []refMark, xs []T, count func([]T)) {
	done := 0
	for i := range marks {
		m := &marks[i]
		count(xs[done:m.At])
		done = m.At
		r.apply(&m.refRec)
	}
	count(xs[done:])
}

func (r *reference) count(ts []tuple.Tuple) {
	if r.exact != nil {
		r.exact.AddAll(ts)
	}
	if r.snd != nil && len(ts) > 0 {
		r.snd.comp.PushAll(ts)
		r.fold()
	}
}

func (r *reference) countValues(vs []cpu.TapValue) {
	if r.exact != nil {
		r.exact.AddAllValues(vs, r.set[0].Tag)
	}
	if r.snd != nil && len(vs) > 0 {
		r.snd.comp.PushAllValues(vs, r.set[0].Tag)
		r.fold()
	}
}

// fold is software folding the offloaded compressor's messages.
func (r *reference) fold() {
	c := r.snd.comp
	for _, m := range c.Out {
		r.est.Add(m.T, m.Count)
		r.snd.count()
	}
	c.Out = c.Out[:0]
}

func (r *reference) apply(x *refRec) {
	switch x.Kind {
	case refMessage:
		r.est.Add(tuple.Tuple{PC: x.PC, W: x.W, Tag: x.Tag}, x.N)
	case refPoint:
		if r.snd != nil { // the messages are counted here
			r.point(x.PC, r.snd.messages, r.snd.analyticInts)
		} else {
			r.point(x.PC, x.W, x.N)
		}
	case refThin:
		kept := r.points[:0]
		for _, p := range r.points {
			if p.Events%x.N == 0 {
				kept = append(kept, p)
			}
		}
		r.points = kept
	}
}

// point measures the error of the messages so far against the exact
// profile so far (Fig. 7, Fig. 8).
func (r *reference) point(events, messages, interrupts uint64) {
	e, n := ErrorPC(r.exact, r.est, r.filter)
	r.points = append(r.points, Point{Events: events, Error: e, Selected: n, Messages: messages,
		Interrupts: interrupts, Overhead: r.delivery(messages, interrupts)})
}
