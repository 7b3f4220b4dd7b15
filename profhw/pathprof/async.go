package pathprof

import "github.com/rvsim/rvsim/cpu"

// Functional mode on a host with a second core: the simulation's
// goroutine classifies each retiring branch and packs it into a word
// (refEncoder.branch's format); the hardware model (fast, branch) and,
// through direct calls, the reference run on the Offload's goroutine, in
// program order. Nothing in a functional simulation depends on the
// profiler (the branch queue decouples it from commit in the hardware
// too), so the results are those of the inline model, every run.

// retireAsync packs the branches of a batch.
func (u *Unit) retireAsync(recs []cpu.DynInst) {
	nextSeq, last, p := u.nextSeq, u.pipeLast, u.pipe
	ev := uint64(evNone)
	if u.cfg.Metric == Instructions {
		ev = evInsts // the block's events are its instructions
	}
	for i := range recs {
		d := &recs[i]
		if d.Injected || d.Handler {
			continue
		}
		t, ok := Classify(d)
		if !ok {
			continue
		}
		n := d.Seq + 1 - nextSeq
		nextSeq = d.Seq + 1
		pd, td, l := d.PC-last, d.NextPC-d.PC+brTgtBias, d.Inst.Len
		last = d.NextPC
		h := uint64(refBranch) | uint64(t)<<2 | uint64(b2u(d.Taken))<<5
		if (pd|n)>>16|td>>22|(0x14>>l&1^1) == 0 {
			p.Put(h | uint64(l&4)<<4 | brPacked | ev<<8 | n<<brInstsSh | pd<<brPCSh | td<<brTgtSh)
			continue
		}
		var events uint64
		if ev == evInsts {
			events = n
		}
		p.Put(h | uint64(l)<<8)
		p.Put(d.PC)
		p.Put(d.NextPC)
		p.Put(n)
		p.Put(events)
	}
	u.nextSeq, u.pipeLast = nextSeq, last
}

// consumeHW runs a batch of packed branches through the hardware model; a
// record the batch ends inside waits in carry for the rest.
func (u *Unit) consumeHW(ws []uint64) {
	if n := len(u.carry); n > 0 {
		k := min(len(ws), carryExtra)
		u.carry = append(u.carry, ws[:k]...)
		done := u.decodeHW(u.carry)
		if done < n {
			return
		}
		ws = ws[done-n:]
		u.carry = u.carry[:0]
	}
	done := u.decodeHW(ws)
	u.carry = append(u.carry, ws[done:]...)
}

// decodeHW runs the complete records at the start of ws and returns the
// words they take.
func (u *Unit) decodeHW(ws []uint64) int {
	i := 0
	for i < len(ws) {
		h := ws[i]
		n := recLen(h)
		if i+n > len(ws) {
			break
		}
		var pc, target, insts, events uint64
		var ilen uint8
		if h&brPacked != 0 {
			insts = h >> brInstsSh & (1<<16 - 1)
			pc = u.hwLast + h>>brPCSh&(1<<16-1)
			target = pc + h>>brTgtSh - brTgtBias
			ilen = 2 + uint8(h>>6&1)*2
			if h>>8&3 == evInsts {
				events = insts
			}
		} else {
			ilen = uint8(h >> 8)
			pc, target, insts, events = ws[i+1], ws[i+2], ws[i+3], ws[i+4]
		}
		u.hwLast = target
		u.hwSeq += insts
		t, taken := BranchType(h>>2&7), h&(1<<5) != 0
		if u.fastBL {
			if _, ok := u.fast(t, pc, target, taken, ilen, u.hwSeq, insts, events); ok {
				i += n
				continue
			}
		}
		d := cpu.DynInst{Seq: u.hwSeq - 1, PC: pc, NextPC: target, Taken: taken}
		d.Inst.Len = ilen
		u.branch(t, &d, insts, events)
		i += n
	}
	return i
}
