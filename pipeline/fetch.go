package pipeline

import (
	"github.com/rvsim/rvsim/isa"
	"github.com/rvsim/rvsim/pipeline/bpred"
)

// fetchStage moves instructions from the input into the fetch queue, one
// fetch block per cycle: up to fetch_width instructions from one I-cache
// line with one I-cache access, ended early by a predicted-taken control
// instruction. The branch predictor, BTB and RAS are looked up here. A
// mispredicted (or BTB-missed) instruction ends the block and blocks fetch
// until it resolves in execute (signals.redirectAt). An I-cache miss
// delivers the block when the line arrives and fetch resumes then.
//
// DISE: fetch delivers the replaced instruction; decode expands it. So the
// first instruction of a replacement (DynInst.Replaced) is fetched like any
// other, and the rest of its sequence (the elements at the replaced PC:
// injected instructions and the original, T.INSN) come from the
// replacement table and ride along without an I-cache access or fetch
// bandwidth; decode charges their cost. Injected instructions carry the
// replaced PC. Branches inside a sequence are decode's business (see
// decodeStage). The call into a handler routine is made by decode, so
// fetch cannot follow it before decode has seen it: fetch stops after the
// injected jump and restarts at the handler when decode redirects it
// (signals.redirectAt), like a jump resolved in decode; the jump pushes a
// resume token on the RAS. The handler's closing dise.ret is a return
// predicted by the RAS: right if it pops the token of its call, and then
// the rest of the sequence comes from the DISE engine, not the I-cache.
type fetchStage struct {
	width, queue int
	lineMask     uint64

	stallUntil uint64 // no fetch before this cycle (an I-cache fill or a redirect)
	stallWhy   int    // the stall cause while now < stallUntil
	blocked    bool   // waiting for blockedOn to resolve (signals.redirectAt)
	blockedOn  uint64 // position of the mispredicted branch (or trapping instruction)
	blockedWhy int    // stallMispredict or stallTrap
	penalty    uint64 // redirect penalty
	lastNext   uint64 // NextPC of the last fetched instruction (at c.fetched-1; valid if c.fetched > 0)
	lastInj    bool   // the last fetched instruction was injected
	ready      uint64 // the current block's delivery cycle
	inSeq      bool   // a replacement sequence at seqPC is being delivered
	seqPC      uint64
	token      uint64 // the RAS entry the last handler call pushed (its replaced PC)
	perfectRAS bool   // a perfect predictor: every dise.ret is predicted
	pre        bool   // the producer predicted (Async, streamPredictor): fMispred is set already, c.bp is not the model's
	noRun      bool   // tests: no straight-line run (every instruction takes the general path)

	// Statistics.
	blocks, icacheMisses, redirects, traps        uint64 // (instructions: c.fetched)
	switches                                      uint64 // context switches between guest threads (a trap each)
	handlerEntries, diseReturns, diseReturnMisses uint64
}

func (f *fetchStage) init(c *Core) {
	f.width, f.queue = c.cfg.Core.FetchWidth, c.cfg.Core.FetchQueue
	f.lineMask = ^uint64(c.cfg.L1I.Line - 1)
	f.penalty = uint64(c.cfg.Core.RedirectPenalty)
	f.perfectRAS = c.cfg.BPred.Kind == "perfect"
}

// tick stays a function of its own (the profile-guided build would inline
// it into Core.cycle, where its loops spill: +1%).
//
//go:noinline
func (f *fetchStage) tick(c *Core) int {
	if f.blocked {
		if c.sig.redirectAt == 0 {
			c.stall(stFetch, f.blockedWhy)
			return 0
		}
		f.blocked = false
		f.stallUntil, f.stallWhy = c.sig.redirectAt, f.blockedWhy
		c.sig.redirectAt = 0
	}
	if c.now < f.stallUntil {
		c.stall(stFetch, f.stallWhy)
		return 0
	}
	if c.fetched == c.tail {
		return 0 // end of the stream (Finish)
	}
	space := f.queue - int(c.fetched-c.decoded)
	if space <= 0 {
		c.stall(stFetch, stallFetchQ)
		return 0
	}
	n, got, line, win, wm := 0, 0, uint64(0), c.win, c.mask
	_ = win[wm] // wm < len(win): no bounds check on win[x&wm] below
	for c.fetched < c.tail && n < f.width && got < space {
		u := &win[c.fetched&wm]
		inj := u.flags&fInjected != 0
		free := inj
		if u.flags&(fInjected|fReplaced) != 0 || f.inSeq {
			switch {
			case u.flags&fReplaced != 0:
				free, f.inSeq, f.seqPC = false, true, u.pc
			case f.inSeq && u.pc == f.seqPC:
				free = true
			case !inj:
				f.inSeq = false
			}
		}
		if !free {
			// (Each test starts with the operand that is rarely true.)
			if u.flags&fSwitch != 0 && c.fetched != 0 {
				// Another guest thread's instruction: the kernel switched
				// context (a system call or a quantum's end). Fetch drains
				// as for a trap; caches and predictors stay as they are.
				u.flags &^= fSwitch
				f.switches++
				f.trap(c)
				break
			}
			if u.pc != f.lastNext && c.fetched != 0 && !f.lastInj {
				// The stream continues elsewhere than the last instruction
				// said: a trap. Fetch restarts when that one commits.
				f.trap(c)
				break
			}
			if n == 0 {
				line = u.pc & f.lineMask
				done, hit := c.l1i.Access(u.pc, false, c.now)
				f.ready = done
				f.blocks++
				u.ev |= EvL1IAccess
				if !hit {
					u.ev |= missEvents(c.l1i, EvL1IMiss)
					f.icacheMisses++
					f.stallUntil, f.stallWhy = done, stallICache
				}
			} else if u.pc&f.lineMask != line {
				break
			}
			if !inj && !f.inSeq && u.flags&(fSwitch|fDISERet) == 0 && !f.noRun {
				// A run: u and what follows take a slot each in this
				// block, up to the first instruction that is DISE's,
				// another thread's, not at the last one's successor or in
				// another line, and up to and including a control
				// instruction predicted taken or mispredicted (each is
				// predicted on the way). The loop is the general path's
				// effect on such instructions (below), without its tests
				// for what a run excludes; u passes the run's test.
				// The run's test is one flag (markRuns), set by intake
				// (with Async: the producer); u passes it whatever its own
				// flag says (that is about the instruction before it).
				pos, lim := c.fetched, min(c.tail, c.fetched+uint64(min(f.width-n, space-got)))
				ready, stop, brk := f.ready, false, uint32(0)
				for ; pos < lim; pos++ { // (win[x&wm] has no bounds check: see above)
					v := &win[pos&wm]
					fl := v.flags // (once: the store to readyAt would reload it)
					if fl&brk != 0 {
						break
					}
					brk = fRunBreak
					v.readyAt = ready
					if fl&fCtrl != 0 { // f.predict's body (a call spills the loop's values)
						g, _ := bpred.GroupOf(v.class)
						taken := v.flags&fTaken != 0
						var ok bool
						if f.pre {
							ok = v.flags&fMispred == 0
						} else {
							ok = c.bp.Predict(v.pc, g, taken, v.next, v.pc+uint64(v.len))
						}
						if !ok {
							v.flags |= fMispred
							v.ev |= EvMispredict
							f.blocked, f.blockedOn, f.blockedWhy = true, v.pos, stallMispredict
							f.redirects++
							stop = true
						}
						if stop || taken {
							stop = true
							pos++
							break
						}
					}
				}
				k := int(pos - c.fetched)
				c.fetched, f.lastNext, f.lastInj = pos, win[(pos-1)&wm].next, false
				n, got = n+k, got+k
				if stop {
					break
				}
				continue
			}
			n++
		} else if got == 0 && n == 0 {
			f.ready = c.now + 1
		}
		u.readyAt = f.ready
		c.fetched++
		got++
		// After an injected instruction (which keeps the replaced PC) the
		// stream may continue anywhere: no trap check.
		f.lastNext, f.lastInj = u.next, free || inj
		if u.flags&fCtrl == 0 {
			continue
		}
		if inj {
			if u.flags&fHandlerEntry != 0 {
				f.handlerEntry(c, u)
				break
			}
			if u.class == isa.Call && !f.pre {
				c.bp.PushReturn(u.pc + uint64(u.len))
			}
			continue
		}
		if u.flags&fDISERet != 0 {
			f.diseReturn(c, u)
			break
		}
		if f.predict(c, u) {
			break
		}
	}
	// (the instructions fetched are c.fetched: no count per call)
	return got
}

// predict looks control instruction u up in the branch predictor (which
// trains on its outcome) and reports whether fetch stops after it: it is
// predicted taken, or mispredicted (then fetch blocks until it resolves).
func (f *fetchStage) predict(c *Core, u *uop) bool {
	g, _ := bpred.GroupOf(u.class)
	taken := u.flags&fTaken != 0
	var ok bool
	if f.pre {
		ok = u.flags&fMispred == 0
	} else {
		ok = c.bp.Predict(u.pc, g, taken, u.next, u.pc+uint64(u.len))
	}
	if !ok {
		u.flags |= fMispred
		u.ev |= EvMispredict
		f.blocked, f.blockedOn, f.blockedWhy = true, u.pos, stallMispredict
		f.redirects++
		return true
	}
	return taken
}

// trap handles a jump in the stream after the last fetched instruction:
// fetch restarts redirect_penalty cycles after that instruction commits.
func (f *fetchStage) trap(c *Core) {
	f.traps++
	f.lastInj = true      // the check is done; the next instruction starts the new path
	last := c.fetched - 1 // the last fetched instruction
	if last < c.head {
		f.stallUntil, f.stallWhy = c.now+f.penalty, stallTrap
		return
	}
	c.win[last&c.mask].flags |= fTrapRedirect
	f.blocked, f.blockedOn, f.blockedWhy = true, last, stallTrap
}

// handlerEntry handles the injected jump into a handler routine (a DISE
// call, hps-phase-aware-remote-profiling.md §3.2: "a procedure call that
// implements them"): decode makes the call, so fetch waits for decode to
// redirect it to the handler (decodeStage.transfer). The call pushes a
// resume token, its replaced PC, for the handler's dise.ret.
func (f *fetchStage) handlerEntry(c *Core, u *uop) {
	f.handlerEntries++
	f.token = u.pc
	if !f.pre {
		c.bp.PushReturn(u.pc)
	}
	f.blocked, f.blockedOn, f.blockedWhy = true, u.pos, stallDISECall
}

// diseReturn predicts dise.ret with the RAS: right if it pops the token of
// its handler call, and then fetch continues (the next block: a taken
// return ends this one) with the rest of the sequence, which the DISE
// engine supplies; wrong (the entry was lost to deeper calls), and fetch
// waits for it to resolve in execute, like a mispredicted return.
func (f *fetchStage) diseReturn(c *Core, u *uop) {
	f.diseReturns++
	var miss bool
	if f.pre {
		miss = u.flags&fMispred != 0
	} else {
		v, ok := c.bp.PopReturn()
		miss = !f.perfectRAS && (!ok || v != f.token)
	}
	if miss {
		f.diseReturnMisses++
		u.flags |= fMispred
		u.ev |= EvMispredict
		f.blocked, f.blockedOn, f.blockedWhy = true, u.pos, stallMispredict
		f.redirects++
	}
	// After the handler the sequence resumes at its replaced PC, unless the
	// call was its last element.
	f.inSeq, f.seqPC = u.next == f.token, f.token
}

// streamPredictor runs the branch predictor on the functional core's
// thread, in program order, as the producer stages the records (Async):
// fetch's calls into the predictor for each control uop (predict,
// handlerEntry, diseReturn, an injected call's return address), with
// their outcome left in the uop as fMispred for fetch to read
// (fetchStage.pre). Prediction and training happen together with the
// actual outcome, in program order, so the outcome does not depend on
// when fetch gets to the uop: the same as inline.
type streamPredictor struct {
	bp         *bpred.Predictor
	token      uint64 // the RAS entry the last handler call pushed (fetchStage.token)
	perfectRAS bool
}

// uop predicts control uop u as fetch would and marks it fMispred if
// fetch would.
func (p *streamPredictor) uop(u *uop) {
	if u.flags&fInjected != 0 {
		if u.flags&fHandlerEntry != 0 {
			p.token = u.pc
			p.bp.PushReturn(u.pc)
		} else if u.class == isa.Call {
			p.bp.PushReturn(u.pc + uint64(u.len))
		}
		return
	}
	if u.flags&fDISERet != 0 {
		v, ok := p.bp.PopReturn()
		if !p.perfectRAS && (!ok || v != p.token) {
			u.flags |= fMispred
		}
		return
	}
	g, _ := bpred.GroupOf(u.class)
	if !p.bp.Predict(u.pc, g, u.flags&fTaken != 0, u.next, u.pc+uint64(u.len)) {
		u.flags |= fMispred
	}
}
