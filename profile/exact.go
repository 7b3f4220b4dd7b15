package profile

import (
	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/isa"
)

// Exact collects the exact profiles of the application's instruction
// stream (a cpu.Observer): instructions a replacement sequence injected
// and handler instructions are not the application's and are skipped; the
// original of a replacement is. The events are the ones the shipped ACFs
// instrument:
//
//   - a conditional branch ends a code region; its region is the
//     application instructions retired since the previous conditional
//     branch: from that branch (inclusive) up to this one (exclusive), or
//     from the start of the program for the first branch;
//   - a call (jal/jalr writing a link register) invokes its target;
//   - a taken conditional branch to a lower address is a backward branch
//     of the function containing it.
type Exact struct {
	Counts   *Counts
	App      uint64 // application instructions seen
	lastBr   uint64 // App before the previous branch
	Branches uint64
}

// NewExact returns an empty exact profiler.
func NewExact() *Exact { return &Exact{Counts: NewCounts()} }

// Retire implements cpu.Observer.
func (x *Exact) Retire(batch []cpu.DynInst) {
	c := x.Counts
	for i := range batch {
		d := &batch[i]
		if d.Injected || d.Handler {
			continue
		}
		switch d.Inst.Class {
		case isa.Branch:
			r := c.Regions[d.PC]
			r.Count++
			r.Instructions += x.App - x.lastBr
			c.Regions[d.PC] = r
			x.lastBr = x.App
			x.Branches++
			if d.Taken && d.NextPC < d.PC {
				c.Backedges[d.PC]++
			}
		case isa.Call:
			c.Calls[d.NextPC]++
			c.Pairs[Pair{d.PC, d.NextPC}]++
		}
		x.App++
	}
}
