package pipeline

import (
	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/mem"
)

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
	// Cause is set by a hook that returns a stall: which of its
	// requesters (0, 1, ...: for the hub, the profiling unit) the stall is
	// charged to in Core.HookStallCycles. The core sets it to 0 before
	// each call.
	Cause int
}

// missSnap is an L1 cache's and the L2's miss counts, read before an
// access so that missEvents can tell what the access missed (an access
// that finds its line's fill in flight waits for it, but is no miss).
type missSnap struct{ l1, l2 uint64 }

func misses(c *mem.Cache) uint64 { return c.Misses() }

func (c *Core) snap(l1 *mem.Cache) missSnap { return missSnap{misses(l1), misses(c.l2)} }

// missEvents returns the events of an access to l1 after before: none if
// it did not miss; otherwise miss, an L2 access, and an L2 miss if the
// L2's count moved too.
func (c *Core) missEvents(l1 *mem.Cache, before missSnap, miss Events) Events {
	if misses(l1) == before.l1 {
		return 0
	}
	ev := miss | EvL2Access
	if misses(c.l2) != before.l2 {
		ev |= EvL2Miss
	}
	return ev
}
