package profhw

import (
	"context"
	"os"
	"runtime"
	"runtime/pprof"

	"github.com/rvsim/rvsim/internal/crash"
)

// Pipe runs a unit's reference model (the exact profile its accuracy is
// measured against, which no hardware has) on a goroutine of its own, so
// that on a host with a second core it costs the simulation little
// wall-clock time. The unit fills batches of its own type in program
// order and Sends them; the consumer sees them in the same order, on one
// goroutine: what it computes is the same, every run, as if it ran
// inline.
//
// Batches circulate: Send returns a spare one to fill next, so a
// consumer that falls behind blocks the producer and memory stays
// bounded. With GOMAXPROCS 1 there is no core to gain and Send consumes
// the batch inline.
//
// A consumer that has caught up sleeps until half the batches are full
// (or the producer must wait, or Syncs): waking a sleeping goroutine is
// a system call on the producer's thread, and once per batch it cost a
// consumer that keeps up about a tenth of the run. (Spinning instead
// of sleeping bought as much with the second core idle, and lost it
// twice over when other runs had it: --jobs 2.)
type Pipe[B any] struct {
	consume func(B)
	full    chan pipeItem[B]
	free    chan B
	kick    chan struct{} // wakes a consumer that found full empty
	wakeAt  int           // batches in full that wake it
	done    chan struct{}
	synced  chan struct{}
	inline  bool
	closed  bool
}

// pipeItem is a batch, or a Sync marker.
type pipeItem[B any] struct {
	b    B
	sync bool
}

// NewPipe starts consume's goroutine; spares are the batches Send hands
// back (at least one).
func NewPipe[B any](spares []B, consume func(B)) *Pipe[B] {
	p := &Pipe[B]{consume: consume}
	if runtime.GOMAXPROCS(0) < 2 {
		p.inline = true
		return p
	}
	p.full = make(chan pipeItem[B], len(spares)+2) // every batch and a Sync: Send never blocks
	p.free = make(chan B, len(spares)+1)
	p.kick = make(chan struct{}, 1)
	p.wakeAt = max(1, len(spares)/2)
	p.done = make(chan struct{})
	p.synced = make(chan struct{})
	for _, b := range spares {
		p.free <- b
	}
	// The label tells the consumer's time apart in CPU profiles
	// (go tool pprof -tagfocus profhw=reference).
	go pprof.Do(context.Background(), pprof.Labels("profhw", "reference"), func(context.Context) { defer crash.Exit(os.Stderr); p.run() })
	return p
}

func (p *Pipe[B]) run() {
	defer close(p.done)
	for {
		var it pipeItem[B]
		var ok bool
		select {
		case it, ok = <-p.full:
		default: // caught up: sleep until kicked
			<-p.kick
			continue
		}
		if !ok {
			return
		}
		if it.sync {
			p.synced <- struct{}{}
			continue
		}
		p.consume(it.b)
		p.free <- it.b
	}
}

// wake kicks the consumer (it may be asleep).
func (p *Pipe[B]) wake() {
	select {
	case p.kick <- struct{}{}:
	default: // a kick is pending already
	}
}

// Send hands b over and returns a batch to fill next (b itself when the
// consumer runs inline). The caller empties it.
func (p *Pipe[B]) Send(b B) B {
	if p.inline {
		p.consume(b)
		return b
	}
	p.full <- pipeItem[B]{b: b}
	if len(p.full) >= p.wakeAt {
		p.wake()
	}
	select {
	case f := <-p.free:
		return f
	default: // every spare is in flight: the consumer must run
		p.wake()
		return <-p.free
	}
}

// Sync returns when the consumer has seen every batch sent so far.
func (p *Pipe[B]) Sync() {
	if p.inline || p.closed {
		return
	}
	p.full <- pipeItem[B]{sync: true}
	p.wake()
	<-p.synced
}

// Close stops the goroutine once the batches sent are consumed; the
// reference model's state is then the caller's again.
func (p *Pipe[B]) Close() {
	if p.closed {
		return
	}
	p.closed = true
	if p.inline {
		return
	}
	close(p.full)
	p.wake()
	<-p.done
}

// Offload is a Pipe of records: the unit Puts records one at a time and
// the consumer gets them in batches.
type Offload[T any] struct {
	cur  []T
	pipe *Pipe[*[]T]
}

// offloadBatch records per batch: big enough that the hand-over (a
// channel send) is rare, small enough to stay in the host's L2.
const offloadBatch = 8192

// offloadDepth batches may be in flight.
const offloadDepth = 4

// NewOffload starts consume's goroutine.
func NewOffload[T any](consume func([]T)) *Offload[T] {
	spares := make([]*[]T, offloadDepth)
	for i := range spares {
		b := make([]T, 0, offloadBatch)
		spares[i] = &b
	}
	o := &Offload[T]{cur: make([]T, 0, offloadBatch)}
	o.pipe = NewPipe(spares, func(b *[]T) { consume(*b) })
	return o
}

// Put appends one record.
func (o *Offload[T]) Put(v T) {
	if len(o.cur) == cap(o.cur) {
		o.flush()
	}
	o.cur = append(o.cur, v)
}

func (o *Offload[T]) flush() {
	if len(o.cur) == 0 {
		return
	}
	b := o.cur
	o.cur = (*o.pipe.Send(&b))[:0]
}

// Sync returns when the consumer has seen every record Put so far (a
// reader of the reference model's state calls it first).
func (o *Offload[T]) Sync() {
	o.flush()
	o.pipe.Sync()
}

// Close hands over the last records and stops the goroutine once they
// are consumed.
func (o *Offload[T]) Close() {
	o.flush()
	o.pipe.Close()
}
