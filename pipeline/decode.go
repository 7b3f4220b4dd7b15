package pipeline

// decodeStage moves up to decode_width instructions a cycle from the fetch
// queue into the decode pipe, where they spend decode_stages cycles before
// rename may take them. It is where DISE sits (hps-phase-aware-remote-
// profiling.md §3): the first instruction of each replacement sequence
// (DynInst.Replaced) stalls decode for dise_penalty cycles; with
// dise_penalty_per_inst every instruction of a sequence that DISE injected
// is charged too.
type decodeStage struct {
	width, capacity int
	depth           uint64
	penalty         uint64
	perInst         bool
	stallUntil      uint64 // DISE stall: no decode before this cycle

	// Statistics.
	insts, diseCharges uint64
}

func (d *decodeStage) init(c *Core, capacity int) {
	d.width, d.capacity = c.cfg.Core.DecodeWidth, capacity
	d.depth = uint64(c.cfg.Core.DecodeStages)
	d.penalty = uint64(c.cfg.Core.DISEPenalty)
	d.perInst = c.cfg.Core.DISEPerInst
}

func (d *decodeStage) tick(c *Core) int {
	now := c.now
	if now < d.stallUntil {
		return 0 // the DISE penalty was counted when charged
	}
	// Hot state in locals (the compiler reloads fields through c after
	// every store).
	win, mask := c.win, c.mask
	start := c.decoded
	end := min(c.fetched, start+uint64(d.width), c.dispatched+uint64(d.capacity))
	ready := now + d.depth
	pos := start
	for ; pos < end; pos++ {
		u := &win[pos&mask]
		if u.readyAt > now {
			break
		}
		if u.flags&(fReplaced|fInjected) != 0 && d.charge(c, u) {
			break
		}
		u.readyAt = ready
	}
	c.decoded = pos
	d.insts += pos - start
	return int(pos - start)
}

// charge applies the DISE penalty to u if it is due, and reports whether
// decode stalls.
func (d *decodeStage) charge(c *Core, u *uop) bool {
	due := u.flags&fReplaced != 0 || d.perInst && u.flags&fInjected != 0
	if !due || d.penalty == 0 || u.flags&fDISECharged != 0 {
		return false
	}
	u.flags |= fDISECharged
	d.diseCharges++
	d.stallUntil = c.now + d.penalty
	c.stalls[stallDISE] += d.penalty
	return true
}
