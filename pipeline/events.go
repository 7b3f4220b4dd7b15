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

// missEvents returns the events of an access to l1 that did not hit:
// none if it found its line's fill in flight (an MSHR hit, no miss);
// otherwise miss, an L2 access, and an L2 miss if the fill missed there
// too. (An access that hit has none: callers test hit first.)
func missEvents(l1 *mem.Cache, miss Events) Events {
	missed, l2 := l1.LastMissed()
	if !missed {
		return 0
	}
	if l2 {
		return miss | EvL2Access | EvL2Miss
	}
	return miss | EvL2Access
}
