package pipeline

// decodeStage moves up to decode_width instructions a cycle from the fetch
// queue into the decode pipe, where they spend decode_stages cycles before
// rename may take them. It is where DISE sits (hps-phase-aware-remote-
// profiling.md §3): the first instruction of each replacement sequence
// (DynInst.Replaced) stalls decode for dise_penalty cycles; with
// dise_penalty_per_inst every instruction of a sequence that DISE injected
// is charged too.
//
// DISE's control transfers cost what the hardware would pay (§3.2: "2-5
// additional instructions (and potentially a pipeline flush) per profiled
// instruction"). A branch inside a replacement sequence is predicted
// not-taken: the engine goes on streaming the elements after it. A taken
// one (fDISEBranch) is found out when it executes, so decode stops after
// it and resumes dise_redirect_penalty cycles after it resolves
// (signals.diseRedirectAt); what follows refills the decode pipe. The
// injected jump into a handler routine is made here: decoding it redirects
// fetch, which stopped after it, to the handler.
type decodeStage struct {
	width, capacity int
	depth           uint64
	penalty         uint64
	perInst         bool
	redirect        uint64 // dise_redirect_penalty, resolved
	stallUntil      uint64 // no decode before this cycle (the DISE penalty, or a DISE branch's redirect)
	stallWhy        int    // stallDISE or stallDISEBranch while now < stallUntil
	waiting         bool   // a taken DISE branch is decoded and has not resolved yet

	// Statistics.
	diseCharges, diseTaken uint64 // (instructions: c.decoded)
}

func (d *decodeStage) init(c *Core, capacity int) {
	d.width, d.capacity = c.cfg.Core.DecodeWidth, capacity
	d.depth = uint64(c.cfg.Core.DecodeStages)
	d.penalty = uint64(c.cfg.Core.DISEPenalty)
	d.perInst = c.cfg.Core.DISEPerInst
	d.redirect = uint64(c.cfg.Core.DISERedirect())
}

func (d *decodeStage) tick(c *Core) int {
	now := c.now
	if d.waiting {
		if c.sig.diseRedirectAt == 0 {
			c.stall(stDecode, stallDISEBranch)
			return 0
		}
		d.waiting = false
		d.stallUntil, d.stallWhy = max(d.stallUntil, c.sig.diseRedirectAt), stallDISEBranch
		c.sig.diseRedirectAt = 0
	}
	if now < d.stallUntil {
		if d.stallWhy == stallDISEBranch {
			c.stall(stDecode, stallDISEBranch)
		}
		return 0 // the DISE penalty was counted when charged
	}
	// Hot state in locals (the compiler reloads fields through c).
	win, mask := c.win, c.mask
	_ = win[mask] // mask < len(win): no bounds check on win[x&mask] below
	start := c.decoded
	end := min(c.fetched, start+uint64(d.width), c.dispatched+uint64(d.capacity))
	ready := now + d.depth
	pos := start
	for ; pos < end; pos++ {
		u := &win[pos&mask]
		if u.readyAt > now {
			break
		}
		if u.flags&(fReplaced|fInjected) == 0 { // not DISE's: the common case
			u.readyAt = ready
			continue
		}
		if d.charge(c, u) {
			break
		}
		u.readyAt = ready
		// (DISE's control transfers are injected instructions: classify.)
		if u.flags&(fDISEBranch|fHandlerEntry) != 0 && d.transfer(c, u) {
			pos++
			break
		}
	}
	c.decoded = pos
	// (the instructions decoded are c.decoded: no count per call)
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
	d.stallUntil, d.stallWhy = c.now+d.penalty, stallDISE
	c.stalls[stallDISE] += d.penalty
	return true
}

// transfer handles DISE's control transfers as decode sees them, and
// reports whether decode stops after u: a taken branch inside a sequence
// (predicted not-taken) stops it until the branch resolves; the jump into a
// handler redirects fetch, which waits for it (fetchStage.handlerEntry).
func (d *decodeStage) transfer(c *Core, u *uop) bool {
	if u.flags&fHandlerEntry != 0 {
		c.sig.redirectAt = c.now + d.redirect
		return false
	}
	d.diseTaken++
	d.waiting = true
	return true
}
