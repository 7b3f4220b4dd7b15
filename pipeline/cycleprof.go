package pipeline

import "github.com/rvsim/rvsim/isa"

// The cycle profile's hook: where the simulated cycles go, per
// instruction (rvsim run --cycle-profile; package profile builds the
// pprof profile from these records).
//
// Every cycle is charged, in its CPI-stack bucket (the cpi* constants,
// decided at commit), to the instruction at the head of the ROB: the
// next instruction to commit. The cycles accumulate from one commit cycle
// to the next and go to the first instruction committed in a cycle, with
// that cycle itself (a commit cycle). With an empty ROB the head is the
// instruction fetch is waiting to bring in, which is the next to commit:
// its I-cache miss, the mispredict before it, a pipeline fill are its
// cycles. Cycles after the last commit (none: the run ends one cycle
// after it) would stay uncharged. So the records' cycles, bucket by
// bucket, add up to the run's CPI stack as counted (cpi; see cpiStack
// for the retire-hook twin's adjustment, which the records do not make).

// NumCPI is the number of CPI-stack buckets.
const NumCPI = numCPI

// CPINames are the CPI-stack buckets' names, as the statistics'
// cpi_stack has them, in index order.
func CPINames() [NumCPI]string { return cpiNames }

// CycleCommit is one committed instruction as the cycle profile sees it.
type CycleCommit struct {
	Pos    uint64 // position in the committed stream (0: the model's first instruction)
	PC     uint64
	Next   uint64    // the architectural successor (a return's target)
	Len    uint8     // instruction length (a call's return address is PC+Len)
	Class  isa.Class // refined: Call and Return from the link-register hints
	Ev     Events
	Cycles [NumCPI]uint64 // cycles charged to it, by bucket (see above)
}

// cycleRec buffers the records for the cycle profile's sink.
type cycleRec struct {
	sink    func([]CycleCommit)
	buf     []CycleCommit
	charged [numCPI]uint64 // c.cpi when cycles were last charged
	from    uint64         // the first position charged (sampled simulation's mark)
}

// cycleBatch is how many records the core buffers before handing them on.
const cycleBatch = 256

// SetCycleSink makes the core hand every committed instruction, in
// order and in batches, to sink with the cycles charged to it (nil turns
// it off). Set it before the first Retire. With SetMark, instructions
// before the mark and the cycles up to the mark's cycle are not handed
// on (sampled simulation's warm-up), so the records add up to the timed
// part. The batch is valid only during the call. Finish hands on the last
// batch.
func (c *Core) SetCycleSink(sink func([]CycleCommit)) {
	c.cyc.sink = sink
	c.cyc.buf = make([]CycleCommit, 0, cycleBatch)
	c.setExtras()
}

// chargeCycles records the instructions [from, to) that committed this
// cycle (after the cycle's bucket was accounted): the first of them that
// counts takes the cycles accumulated since the last charge.
func (c *Core) chargeCycles(from, to uint64) {
	r := &c.cyc
	// Before the mark's cycle has ended no cycles count (markCharged
	// drops them then), nor do the instructions before the mark.
	// With marks wanted (SetMarks), nothing before the first mark
	// counts, even before that mark is known: sampled simulation adds it
	// when the functional core reaches it, ahead of commit.
	charge := !c.marking || len(c.markCycles) > 0
	if c.marking {
		if len(c.marks) == 0 {
			from = to
		} else if from < c.marks[0] {
			from = min(c.marks[0], to)
		}
	}
	for p := from; p < to; p++ {
		u := &c.win[p&c.mask]
		r.buf = r.buf[:len(r.buf)+1] // (written in place: no 100-byte temporary)
		rec := &r.buf[len(r.buf)-1]
		rec.Pos, rec.PC, rec.Next, rec.Len, rec.Class, rec.Ev = p, u.pc, u.next, u.len, u.class, u.ev
		if p == from && charge {
			for b := range rec.Cycles {
				rec.Cycles[b] = c.cpi[b] - r.charged[b]
			}
			r.charged = c.cpi
		} else {
			rec.Cycles = [NumCPI]uint64{}
		}
		if len(r.buf) == cycleBatch {
			r.sink(r.buf)
			r.buf = r.buf[:0]
		}
	}
}

// markCharged drops the cycles accumulated so far: sampled simulation's
// warm-up ended this cycle.
func (c *Core) markCharged() { c.cyc.charged = c.cpi }

// flushCycles hands on the buffered records.
func (c *Core) flushCycles() {
	if r := &c.cyc; r.sink != nil && len(r.buf) > 0 {
		r.sink(r.buf)
		r.buf = r.buf[:0]
	}
}
