package pipeline

import (
	"github.com/rvsim/rvsim/cpu"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The retire hook sees the events the model charged to each instruction:
// a cold load misses L1D and L2, the same line again hits; a store to a
// cold line misses at commit; the first instruction of a fetch block
// accessed (and, cold, missed) the I-cache.
func TestCommitEvents(t *testing.T) {
	insts := straight(t, 0x10000,
		"ld a0,0(a1) @0x200000",  // cold: L1D and L2 miss
		"ld a2,8(a1) @0x200008",  // same line: hit (or an MSHR hit: not a miss of its own)
		"addi a3,a3,1",           // no memory
		"sd a3,0(a4) @0x300000",  // cold store: miss at commit
		"ld a5,64(a1) @0x200040", // next line: miss
	)
	var evs []Events
	feed(t, testMachine(), insts, len(insts), func(c *Core) {
		c.SetRetireHook(func(r *Commit) uint64 {
			require.Equal(t, uint64(len(evs)), r.D.Seq)
			evs = append(evs, r.Ev)
			return 0
		}, cpu.AllClasses)
	})
	require.Len(t, evs, 5)
	miss := EvL1DAccess | EvL1DMiss | EvL2Access | EvL2Miss
	assert.Equal(t, miss, evs[0]&^(EvL1IAccess|EvL1IMiss), "cold load")
	assert.NotZero(t, evs[0]&EvL1IAccess, "the first instruction starts a fetch block")
	assert.NotZero(t, evs[0]&EvL1IMiss, "cold code")
	assert.Equal(t, EvL1DAccess, evs[1]&^(EvL1IAccess|EvL1IMiss), "same line")
	assert.Zero(t, evs[2]&(EvL1DAccess|EvL1DMiss|EvL2Miss), "no memory access")
	assert.Equal(t, miss, evs[3]&^(EvL1IAccess|EvL1IMiss), "cold store, written at commit")
	assert.Equal(t, miss, evs[4]&^(EvL1IAccess|EvL1IMiss), "next line")
}
