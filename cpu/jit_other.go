//go:build !amd64

package cpu

// No translator on this host: the interpreter runs everything.

const jitSupported = false

// jitPopcnt: no translator, no POPCNT in translations.
const jitPopcnt = false

type jitState struct {
	on    bool
	end   decoded
	stats JITStats
	test  JITTest

	pauseUntil uint64
}

func (c *CPU) jitRun(pc uint64) uint64 { return pc }

func (c *CPU) jitDrop(p *codePage) {}
