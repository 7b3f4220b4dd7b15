package pathprof

import (
	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/isa"
)

// Functional mode on a host with a second core: the simulation's
// goroutine classifies each retiring branch and packs it into a word
// (refEncoder.branch's format); the hardware model (fast, branch) and,
// through direct calls, the reference run on the Offload's goroutine, in
// program order. Nothing in a functional simulation depends on the
// profiler (the branch queue decouples it from commit in the hardware
// too), so the results are those of the inline model, every run.

// A branch's word on the pipe is refEncoder.branch's, but for its low five
// bits: the instruction's class (isa.Class), which the consumer classifies
// (Classify), and the events are never in a word of their own.

// retireAsync packs the branches of a batch, as many records at a time as
// the pipe's batch has room for even if each takes the most words (the
// loop that packs them calls nothing, so its state stays in registers:
// it is the simulation's thread's share of the unit).
func (u *Unit) retireAsync(recs []cpu.DynInst) {
	ev := uint64(evNone)
	if u.cfg.Metric == Instructions {
		ev = evInsts // the block's events are its instructions
	}
	p := packer{nextSeq: u.nextSeq, last: u.pipeLast, ev: ev}
	w, buf := len(u.pipeBuf), u.pipeBuf[:cap(u.pipeBuf)]
	for len(recs) > 0 {
		if w > len(buf)-5 { // room for the longest record
			buf = u.pipe.Send(buf[:w])
			w, buf = 0, buf[:cap(buf)]
		}
		k := min(len(recs), (len(buf)-w)/5)
		w = p.pack(buf, w, recs[:k])
		recs = recs[k:]
	}
	u.nextSeq, u.pipeLast, u.pipeBuf = p.nextSeq, p.last, buf[:w]
}

// packer is retireAsync's state: the sequence number after the last
// branch, its target, and the events kind.
type packer struct {
	nextSeq, last, ev uint64
}

// pack writes the branches of recs into buf from word w, which has room
// for five words a record, and returns the next free word.
func (p *packer) pack(buf []uint64, w int, recs []cpu.DynInst) int {
	nextSeq, last, ev := p.nextSeq, p.last, p.ev
	packed := brPacked | ev<<8
	for i := range recs {
		d := &recs[i]
		if d.Injected || d.Handler {
			continue
		}
		c := d.Inst.Class
		if c-isa.Branch > isa.Return-isa.Branch {
			continue // not a control transfer
		}
		seq, pc, next, l := d.Seq+1, d.PC, d.NextPC, d.Inst.Len
		n := seq - nextSeq
		nextSeq = seq
		pd, td := pc-last, next-pc+brTgtBias
		last = next
		h := uint64(c) | uint64(b2u(d.Taken))<<5
		if (pd|n)>>16|td>>22|(0x14>>l&1^1) == 0 {
			buf[w] = h | uint64(l&4)<<4 | packed | n<<brInstsSh | pd<<brPCSh | td<<brTgtSh
			w++
			continue
		}
		var events uint64
		if ev == evInsts {
			events = n
		}
		r := buf[w : w+5]
		r[0], r[1], r[2], r[3], r[4] = h|uint64(l)<<8, pc, next, n, events
		w += 5
	}
	p.nextSeq, p.last = nextSeq, last
	return w
}

// The pipe's batches: 8192 words (64 KB, the host's L2 holds the ones in
// flight), four of them spare.
const (
	pipeBatch = 8192
	pipeDepth = 4
)

// sendPipe hands the batch being filled to the hardware model.
func (u *Unit) sendPipe() {
	if len(u.pipeBuf) > 0 {
		u.pipeBuf = u.pipe.Send(u.pipeBuf)[:0]
	}
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
		n := 1
		if h&brPacked == 0 {
			n = 5
		}
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
		taken := h&(1<<5) != 0
		t, _ := classOf(isa.Class(h&31), taken, pc, target) // records are of control transfers only
		if t == Forward && u.fastForward && u.forward(taken, insts, events) {
			u.sum.Events++
			u.hw.Stats.Updates++
			if u.refOn {
				// reference.forward's common case, inline.
				if rs := u.ref.ref; u.ref.fwdUpdate && rs.n > 0 && rs.buf[rs.lo+rs.n-1].d.Len+1 < rs.maxLen {
					e := &rs.buf[rs.lo+rs.n-1]
					rs.Stats.Updates++
					e.insts += insts
					e.events = min(e.events+events, rs.countMax)
					e.d.Dirs |= b2u(taken) << e.d.Len
					e.d.Len++
				} else {
					u.ref.forward(pc, target, taken, ilen, insts, events)
				}
			}
			if u.winOn && u.hwSeq >= u.winEnd {
				u.endWindow(u.hwSeq)
			}
			i += n
			continue
		}
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

// forward extends the hardware stack's top path by a forward branch that
// only updates (Stack.Branch's first case) and reports whether it could
// (small enough to be inlined: the caller counts the event and the update).
func (u *Unit) forward(taken bool, insts, events uint64) bool {
	s := u.hw
	if s.n == 0 {
		return false
	}
	e := &s.buf[s.lo+s.n-1]
	if e.d.Len+1 >= s.maxLen {
		return false
	}
	e.insts += insts
	e.events = min(e.events+events, s.countMax)
	e.d.Dirs |= b2u(taken) << e.d.Len
	e.d.Len++
	return true
}

// forward runs a forward branch through the unbounded stack: inline when
// it only extends the top path (Stack.Branch's first case).
func (r *reference) forward(pc, target uint64, taken bool, ilen uint8, insts, events uint64) {
	if s := r.ref; r.fwdUpdate && s.n > 0 {
		if e := &s.buf[s.lo+s.n-1]; e.d.Len+1 < s.maxLen {
			s.nOut = 0
			s.LastOps = OpUpdate
			s.Stats.Updates++
			e.insts += insts
			e.events = min(e.events+events, s.countMax)
			e.d.Dirs |= b2u(taken) << e.d.Len
			e.d.Len++
			return
		}
	}
	r.branch(Forward, pc, target, taken, ilen, insts, events)
}
