package cpu

import (
	"github.com/rvsim/rvsim/isa"
	"github.com/rvsim/rvsim/mem"
)

// The class mix without per-instruction bookkeeping. With CountMix and no
// observer, blocks run at full speed; each code page counts, per slot, how
// often execution entered straight-line code there (a block start) and
// how often it left early, right after the instruction there (a taken
// conditional branch, a single-stepped instruction, a store that changed
// code). An instruction reached but not executed (a fault, a DISE
// replacement, which counts its original itself) takes one entry back.
// foldMix turns these into per-instruction counts with one pass over the
// page in address order: an instruction runs as often as execution entered
// there plus as often as it fell through from the instruction before, and
// blocks are straight-line, so falling through is all that is left.
// Counting costs the block start a counter increment and a taken branch a
// flag test; the equivalence with per-instruction counting is tested on
// random programs (difftest/gen).

// slotCounts are a code page's counters (see above).
type slotCounts struct {
	enter [mem.PageSize / 2]int64
	leave [mem.PageSize / 2]int64
}

func (c *CPU) countsFor(p *codePage) *slotCounts {
	if p.mixIdx == 0 {
		if k := len(c.mixFree); k > 0 { // counters of a dropped page
			p.mixIdx, c.mixFree = c.mixFree[k-1], c.mixFree[:k-1]
		} else {
			c.mixCounts = append(c.mixCounts, new(slotCounts))
			p.mixIdx = uint32(len(c.mixCounts))
		}
	}
	return c.mixCounts[p.mixIdx-1]
}

// countEnter records an entry into the code at pc in p (n is -1 for an
// instruction reached but not executed).
func (c *CPU) countEnter(p *codePage, pc uint64, n int64) {
	c.countsFor(p).enter[(pc&mem.PageMask)>>1] += n
}

// countLeave records an early exit after the instruction at pc in p.
func (c *CPU) countLeave(p *codePage, pc uint64) {
	c.countsFor(p).leave[(pc&mem.PageMask)>>1]++
}

// foldMix adds a page's counted instructions to c.Mix and clears its
// counters. Counters are consistent between blocks only: call it when no
// block of the page is executing.
func (c *CPU) foldMix(p *codePage) {
	if p.mixIdx == 0 {
		return
	}
	n := c.mixCounts[p.mixIdx-1]
	var in [mem.PageSize / 2]int64 // fall-through arrivals at each slot
	for k := range n.enter {
		d := &p.insts[k]
		if d.Op == uint8(isa.ILLEGAL) {
			continue // never decoded, so never executed
		}
		x := n.enter[k] + in[k]
		if x == 0 {
			continue
		}
		full := &p.full[k]
		c.Mix[full.Class] += uint64(x)
		if next := k + int(d.Len)/2; !endsBlock(d, full) && next < len(in) {
			in[next] += x - n.leave[k]
		}
	}
	*n = slotCounts{}
}

// dropCode removes a predecoded page from use; its counters are folded
// into the mix when Run next returns (a block may still be running in it).
func (c *CPU) dropCode(p *codePage) {
	c.tracedGen++ // (traced copies of its blocks are stale)
	if p.jitIdx != 0 {
		c.jitDrop(p)
	}
	if p.mixIdx != 0 {
		c.dropped = append(c.dropped, p)
	}
}

// foldDropped folds the counters of pages dropped while Run ran.
func (c *CPU) foldDropped() {
	for _, p := range c.dropped {
		c.foldMix(p)
		c.mixFree = append(c.mixFree, p.mixIdx)
		p.mixIdx = 0
	}
	c.dropped = c.dropped[:0]
}

// ClassMix is the number of retired instructions by class since CountMix
// was set. Call it between runs.
func (c *CPU) ClassMix() [isa.NumClasses]uint64 {
	c.foldDropped()
	for _, p := range c.code {
		c.foldMix(p)
	}
	return c.Mix
}
