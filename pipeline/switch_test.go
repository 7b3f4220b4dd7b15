package pipeline

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestScenarioContextSwitch: a record of another guest thread (DynInst.Tid
// changes) makes fetch drain as for a trap, even where the PCs run on: the
// new thread's first instruction is fetched redirect_penalty cycles after
// the old thread's last one commits. Without the change the same stream
// has no trap at all.
func TestScenarioContextSwitch(t *testing.T) {
	stream := func(switchAt int) []uint32 {
		tids := make([]uint32, 24)
		for i := range tids {
			tids[i] = 1000
			if switchAt >= 0 && i >= switchAt {
				tids[i] = 1001
			}
		}
		return tids
	}
	run := func(switchAt, penalty int) *Core {
		insts := straight(t, 0x10000, repeat(24, func(int) string { return "addi a1, a2, 1" })...)
		for i, tid := range stream(switchAt) {
			insts[i].Tid = tid
		}
		m := testMachine()
		m.Core.RedirectPenalty = penalty
		return feed(t, m, insts, 256, nil)
	}
	same := run(-1, 3)
	assert.Zero(t, same.fetch.switches)
	assert.Zero(t, same.fetch.traps)
	sw := run(12, 3)
	assert.Equal(t, uint64(1), sw.fetch.switches)
	assert.Equal(t, uint64(1), sw.fetch.traps)
	assert.Greater(t, sw.Cycles(), same.Cycles(), "the drain costs cycles")
	// Each cycle of redirect penalty delays the new thread by one cycle.
	sw0, sw7 := run(12, 0), run(12, 7)
	assert.Equal(t, sw0.Cycles()+7, sw7.Cycles())
	// The first record sets the thread: no switch before it.
	first := run(0, 3)
	assert.Zero(t, first.fetch.switches)
	assert.Equal(t, same.Cycles(), first.Cycles())
	assert.Equal(t, uint64(1), sw.Stats()["pipeline"].(map[string]any)["fetch"].(map[string]any)["context_switches"])
}
