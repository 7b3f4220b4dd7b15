package pipeline

import (
	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/pipeline/bpred"
)

// Warm updates the caches and the branch predictor with instructions the
// core does not time, as they would be updated at fetch and execute, with
// no timing: sampled simulation's functional warming between the timed
// windows (Wunderlich et al., "SMARTS", ISCA 2003, §4.2: functional
// warming keeps the long-history state, caches and predictors, current
// during fast-forward). Lines are installed ready (mem.Cache.Warm: no
// cache statistics); the predictor's statistics count (sim subtracts them
// with the warm-up's). Call it only while the core is drained (before its
// first Retire, or after Finish).
func (c *Core) Warm(batch []cpu.DynInst) {
	shift := c.l1i.Config().LineSize
	for i := range batch {
		d := &batch[i]
		if line := d.PC / uint64(shift); line != c.warmLine {
			c.l1i.Warm(d.PC, false)
			c.warmLine = line
		}
		fl := opTable[d.Inst.Op].flags
		if fl&(fLoad|fStore) != 0 && d.Size != 0 {
			c.l1d.Warm(d.Addr, fl&fStore != 0)
		}
		if fl&fCtrl != 0 && !d.Injected {
			if g, ok := bpred.GroupOf(d.Inst.Class); ok {
				c.bp.Predict(d.PC, g, d.Taken, d.NextPC, d.PC+uint64(d.Inst.Len))
			}
		}
	}
}

// warmer is the cpu.Observer that warms a core (Core.Warmer).
type warmer struct{ c *Core }

func (w warmer) Retire(batch []cpu.DynInst) { w.c.Warm(batch) }

// Warmer returns an observer that warms the core with what it retires.
func (c *Core) Warmer() cpu.Observer { return warmer{c} }

// InheritState gives c, a new core of the same machine, the caches' lines
// and the predictor's state of o, a drained one (sampled simulation with
// functional warming: the next window's model starts where the previous
// one ended and is warmed from there).
func (c *Core) InheritState(o *Core) {
	c.l1i.CopyState(o.l1i)
	c.l1d.CopyState(o.l1d)
	c.l2.CopyState(o.l2)
	c.bp.CopyState(o.bp)
}
