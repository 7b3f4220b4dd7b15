package profhw

import "runtime"

// Offload runs a unit's reference model (the exact profile its accuracy
// is measured against, which no hardware has) on a goroutine of its own,
// so that on a host with a second core it costs the simulation little
// wall-clock time. The unit Puts records in program order; the consumer
// sees them in the same order, in batches, on one goroutine: what it
// computes is the same, every run, as if it ran inline.
//
// Full batches go through a bounded channel (a consumer that falls behind
// blocks the producer, so memory stays bounded). With GOMAXPROCS 1 there
// is no core to gain and the consumer runs inline, at each full batch.
type Offload[T any] struct {
	cur     []T
	consume func([]T)
	full    chan []T
	free    chan []T
	done    chan struct{}
	inline  bool
	closed  bool
	synced  chan struct{}
}

// offloadBatch records per batch: big enough that the hand-over (a
// channel send) is rare, small enough to stay in the host's L2.
const offloadBatch = 8192

// offloadDepth batches may be in flight.
const offloadDepth = 4

// NewOffload starts consume's goroutine.
func NewOffload[T any](consume func([]T)) *Offload[T] {
	o := &Offload[T]{consume: consume, cur: make([]T, 0, offloadBatch)}
	if runtime.GOMAXPROCS(0) < 2 {
		o.inline = true
		return o
	}
	o.full = make(chan []T, offloadDepth)
	o.free = make(chan []T, offloadDepth+1)
	o.done = make(chan struct{})
	o.synced = make(chan struct{})
	for range offloadDepth {
		o.free <- make([]T, 0, offloadBatch)
	}
	go o.run()
	return o
}

func (o *Offload[T]) run() {
	defer close(o.done)
	for b := range o.full {
		if b == nil { // a Sync marker
			o.synced <- struct{}{}
			continue
		}
		o.consume(b)
		o.free <- b[:0]
	}
}

// Put appends one record.
func (o *Offload[T]) Put(v T) {
	if len(o.cur) == cap(o.cur) {
		o.flush()
	}
	o.cur = append(o.cur, v)
}

// flush hands the current batch over.
func (o *Offload[T]) flush() {
	if len(o.cur) == 0 {
		return
	}
	if o.inline {
		o.consume(o.cur)
		o.cur = o.cur[:0]
		return
	}
	o.full <- o.cur
	o.cur = <-o.free
}

// Sync returns when the consumer has seen every record Put so far (a
// reader of the reference model's state calls it first).
func (o *Offload[T]) Sync() {
	o.flush()
	if o.inline || o.closed {
		return
	}
	o.full <- nil
	<-o.synced
}

// Close hands over the last records and stops the goroutine once they
// are consumed. The reference model's state is then the caller's again.
func (o *Offload[T]) Close() {
	if o.closed {
		return
	}
	o.flush()
	o.closed = true
	if o.inline {
		return
	}
	close(o.full)
	<-o.done
}
