package pipeline

import "github.com/rvsim/rvsim/cpu"

// Events are what the timing model charged to one instruction: the
// retire-stage profiling hardware (profhw) reads them at commit, e.g. to
// accumulate cache misses or mispredicts along a path
// (hardware-path-profiling.md §4).
type Events uint8

// The events. An instruction that starts a fetch block is charged that
// block's I-cache access; a load its D-cache read (at issue), a store its
// D-cache write (at commit); an L1 miss that goes on to the L2 is an L2
// access of the same instruction.
const (
	EvL1IAccess  Events = 1 << iota // started an I-cache access (the first of its fetch block)
	EvL1IMiss                       // that access missed
	EvL1DAccess                     // a load or store accessed the D-cache
	EvL1DMiss                       // that access missed (a fill from L2)
	EvL2Access                      // its L1 miss reached the L2
	EvL2Miss                        // and missed there too (a fill from memory)
	EvMispredict                    // the front end mispredicted it
)

// Commit is what the retire hook learns of one instruction at commit.
type Commit struct {
	D     *cpu.DynInst // the functional core's record
	Cycle uint64       // the cycle it reached the ROB head complete (it commits then, or after the hook's stall)
	Ev    Events
}

// l2Misses is the L2's miss count, read before an L1 access so that
// missEvents can tell whether that access went on to miss in the L2.
func (c *Core) l2Misses() uint64 {
	s := c.l2.Stats()
	return s.ReadMisses + s.WriteMisses
}

// missEvents returns the events of an L1 access that hit (none) or missed
// (miss, an L2 access, and an L2 miss if the L2's count moved past
// before).
func (c *Core) missEvents(hit bool, before uint64, miss Events) Events {
	if hit {
		return 0
	}
	ev := miss | EvL2Access
	if c.l2Misses() != before {
		ev |= EvL2Miss
	}
	return ev
}
