package pathprof

import (
	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/isa"
)

// The fast path of the common configuration: Table 1's PPCR (BL paths)
// without extension or phase detection. Each case below is what
// Stack.Branch and Unit.branch do for the branch type when the stack
// neither overflows, underflows nor needs a longjmp repair; anything else
// takes the general path (TestFastPathMatchesGeneral runs both on the
// same streams).

// fastBL reports whether cfg takes the fast path.
func fastBL(cfg *Config, phase bool) bool {
	return cfg.PPCR.Ops == BL.Ops && cfg.PPCR.Extend == ExtendNone && !phase
}

// fast runs a branch (type t at pc, successor target, block
// of insts instructions and events events) through the fast path, and
// reports whether it could; lat is the profiler's latency.
func (u *Unit) fast(t BranchType, pc, target uint64, taken bool, ilen uint8, seqEnd, insts, events uint64) (lat uint64, ok bool) {
	s := u.hw
	c := &u.cfg
	switch t {
	case Forward:
		// update: the branch extends the top path.
		if s.n == 0 {
			return 0, false
		}
		e := &s.buf[s.lo+s.n-1]
		if e.d.Len+1 >= s.maxLen {
			return 0, false
		}
		s.Stats.Updates++
		e.insts += insts
		e.events = min(e.events+events, s.countMax)
		e.d.Dirs |= b2u(taken) << e.d.Len // branch-free: directions are unpredictable
		e.d.Len++
		lat = c.LatUpdate
		s.LastOps = OpUpdate
	case Backward, Indirect:
		// update, pop, push: the path ends and the next starts at the
		// target in the same entry. A full stack first hands the exact
		// profile to the reference (Unit.branch).
		if s.n == 0 || (s.n >= s.depth && !u.refOn) {
			return 0, false
		}
		e := &s.buf[s.lo+s.n-1]
		s.Stats.Updates++
		s.Stats.Pops++
		s.Stats.Pushes++
		e.insts += insts
		e.events = min(e.events+events, s.countMax)
		e.d.Dirs |= b2u(taken) << e.d.Len // branch-free: directions are unpredictable
		e.d.Len++
		lat = c.LatUpdate + c.LatPush + c.LatPop + u.popped(e)
		*e = entry{d: Desc{Start: target}, link: e.link, lastRet: e.lastRet}
		s.LastOps = OpUpdate | OpPop | OpPush
	case Call:
		// update-count, push: the callee's path starts at the target.
		if s.n == 0 || s.n >= s.depth || s.lo+s.n == len(s.buf) {
			return 0, false
		}
		e := &s.buf[s.lo+s.n-1]
		s.Stats.UpdateCounts++
		e.insts += insts
		e.events = min(e.events+events, s.countMax)
		s.Stats.Pushes++
		s.buf[s.lo+s.n] = entry{d: Desc{Start: target}, link: pc + uint64(ilen)}
		s.n++
		if d := s.n + len(s.mem); d > s.Stats.MaxDepth {
			s.Stats.MaxDepth = d
		}
		lat = c.LatUpdateCount + c.LatPush
		s.LastOps = OpUpdateCount | OpPush
	case Return:
		// update-count, pop: the callee's path ends, the caller's entry
		// below goes on; no repair (the top entry's call returns here).
		if s.n < 2 {
			return 0, false
		}
		e := &s.buf[s.lo+s.n-1]
		if e.link != 0 && !e.incomplete && e.link != target {
			return 0, false
		}
		s.Stats.UpdateCounts++
		e.insts += insts
		e.events = min(e.events+events, s.countMax)
		s.Stats.Pops++
		lat = c.LatUpdateCount + c.LatPop + u.popped(e)
		s.n--
		s.buf[s.lo+s.n-1].lastRet = target
		s.LastOps = OpUpdateCount | OpPop
	default:
		return 0, false
	}
	s.nOut = 0 // Out is Stack.Branch's; the fast path hands the path on itself
	u.sum.Events++
	if u.refOn {
		e := u.enc
		pd, td := pc-e.lastTarget, target-pc+brTgtBias
		if e.direct == nil && (pd|insts)>>16|td>>22|(0x14>>ilen&1^1)|events == 0 { // one test: fits, a 2- or 4-byte instruction, no events
			// refEncoder.branch's packed form, inline.
			var tk uint64
			if taken {
				tk = 1
			}
			e.lastTarget = target
			e.off.Put(uint64(t)<<2 | tk<<5 | uint64(ilen&4)<<4 | brPacked | insts<<brInstsSh | pd<<brPCSh | td<<brTgtSh)
		} else {
			e.branch(t, pc, target, taken, ilen, insts, events)
		}
	}
	if u.winOn && seqEnd >= u.winEnd {
		u.endWindow(seqEnd)
	}
	return lat, true
}

// popped emits the path of entry e (Stack.emit) into the HPT and the
// reference, and returns the HPT's latency.
func (u *Unit) popped(e *entry) uint64 {
	s := u.hw
	if e.incomplete {
		s.Stats.IncompletePaths++
		s.Stats.IncompleteInsts += e.insts
		return 0
	}
	s.Stats.CompletePaths++
	s.Stats.CompleteInsts += e.insts
	w := e.events
	if u.cfg.Metric == Frequency {
		w = 1
	}
	lat := u.cfg.LatHPTHit
	if !u.hpt.Update(e.d, w) {
		lat = max(lat, u.hpt.MissCycles())
	}
	if u.winOn || !u.refOn {
		u.enc.path(e.d, e.insts, w)
	}
	return lat
}

// retireBL is Retire for the fast configuration with the frequency
// metric (the block's events are none): forward branches, most of the
// stream, are handled here with the loop's state in locals and their
// reference record packed inline (refEncoder.branch's packed form).
func (u *Unit) retireBL(recs []cpu.DynInst) {
	s := u.hw
	enc := u.enc
	nextSeq := u.nextSeq
	refOn := u.refOn
	winEnd := u.windowEnd()
	var fwd uint64
	s.nOut = 0
	for i := range recs {
		d := &recs[i]
		if d.Injected || d.Handler {
			continue
		}
		var tk uint64 // branch-free uses of the direction
		if d.Taken {
			tk = 1
		}
		var t BranchType
		switch d.Inst.Class {
		case isa.Branch, isa.Jal:
			if tk != 0 && d.NextPC <= d.PC {
				t = Backward
				break
			}
			t = Forward
			if s.n == 0 {
				break
			}
			e := &s.buf[s.lo+s.n-1]
			if e.d.Len+1 >= s.maxLen {
				break
			}
			n := d.Seq + 1 - nextSeq
			nextSeq = d.Seq + 1
			fwd++
			e.insts += n
			e.d.Dirs |= uint32(tk) << (e.d.Len & 31)
			e.d.Len++
			if refOn {
				pd, td := d.PC-enc.lastTarget, d.NextPC-d.PC+brTgtBias
				if l := d.Inst.Len; (pd|n)>>16|td>>22|(0x14>>l&1^1) == 0 { // one test: fits, a 2- or 4-byte instruction
					enc.lastTarget = d.NextPC
					enc.off.Put(uint64(Forward)<<2 | tk<<5 | uint64(l&4)<<4 | brPacked | n<<brInstsSh | pd<<brPCSh | td<<brTgtSh)
				} else {
					enc.branch(Forward, d.PC, d.NextPC, tk != 0, l, n, 0)
				}
			}
			if nextSeq >= winEnd {
				u.endWindow(nextSeq)
				winEnd = u.winEnd
			}
			continue
		default: // calls, returns, indirect jumps
			var ok bool
			if t, ok = classOf(d.Inst.Class, tk != 0, d.PC, d.NextPC); !ok {
				continue
			}
		}
		n := d.Seq + 1 - nextSeq
		nextSeq = d.Seq + 1
		if _, ok := u.fast(t, d.PC, d.NextPC, d.Taken, d.Inst.Len, nextSeq, n, 0); !ok {
			u.branch(t, d, n, 0)
			refOn = u.refOn
		}
		winEnd = u.windowEnd()
	}
	u.nextSeq = nextSeq
	u.sum.Events += fwd
	s.Stats.Updates += fwd
}

// windowEnd is where the current overlap window ends (never, without
// windows).
func (u *Unit) windowEnd() uint64 {
	if u.winOn {
		return u.winEnd
	}
	return ^uint64(0)
}
