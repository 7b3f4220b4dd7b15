package pathprof

import (
	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/isa"
	"github.com/rvsim/rvsim/profhw"
)

// Functional mode on a host with a second core: the simulation's
// goroutine hands the retiring control transfers over as the core's
// control tap records them (cpu.TapControl: PC, target, retirement number,
// class and length); the hardware model (fast, branch) and, through
// direct calls, the reference run on the Pipe's goroutine, in program
// order, which derives the rest (the block's instructions, the
// direction, the branch type). Nothing in a functional simulation
// depends on the profiler (the branch queue decouples it from commit in
// the hardware too), so the results are those of the inline model, every
// run.

// TakesControls: in functional mode the unit reads a control transfer's
// PC, target, retirement number, class and length only (the core's
// control tap, profhw.ControlTaker).
func (u *Unit) TakesControls() bool { return u.mode == profhw.Functional }

// RetireControls is the functional stream from the core's control tap:
// the application's control transfers, in program order.
func (u *Unit) RetireControls(recs []cpu.TapControl) {
	if len(recs) == 0 {
		return
	}
	if !u.async {
		u.retireControlsInline(recs)
		return
	}
	u.nextSeq = recs[len(recs)-1].Seq() + 1
	buf := u.pipeBuf
	for len(recs) > 0 {
		if len(buf) == cap(buf) {
			buf = u.pipe.Send(buf)[:0]
		}
		k := copy(buf[len(buf):cap(buf)], recs)
		buf, recs = buf[:len(buf)+k], recs[k:]
	}
	u.pipeBuf = buf
}

// retireControlsInline runs the control tap's records through Retire's
// inline model, as full records (only the fields it reads).
func (u *Unit) retireControlsInline(recs []cpu.TapControl) {
	ds := u.scratch[:0]
	for i := range recs {
		r := &recs[i]
		ds = append(ds, cpu.DynInst{Seq: r.Seq(), PC: r.PC, NextPC: r.NextPC})
		d := &ds[len(ds)-1]
		d.Inst.Class, d.Inst.Len = r.Class(), r.Len()
		d.Taken = r.NextPC != r.PC+uint64(d.Inst.Len)
	}
	u.scratch = ds
	u.Retire(ds)
}

// retireAsync hands the control transfers of the application among recs
// to the pipe as the control tap records them (the general path: a hub
// that does not use the control tap).
func (u *Unit) retireAsync(recs []cpu.DynInst) {
	buf := u.pipeBuf
	for i := range recs {
		d := &recs[i]
		if d.Injected || d.Handler || d.Inst.Class-isa.Branch > isa.Return-isa.Branch {
			continue // not the application's control transfer
		}
		if len(buf) == cap(buf) {
			buf = u.pipe.Send(buf)[:0]
		}
		buf = append(buf, cpu.ControlOf(d))
		u.nextSeq = d.Seq + 1
	}
	u.pipeBuf = buf
}

// The pipe's batches: 2048 records (48 KB), 32 of them spare. With four
// spares the pipe's goroutine, once it was the slower side (lz's ref
// input), woke the simulation's thread for every batch it freed and the
// two alternated: 2.0 s wall against 1.45 s with 32 spares, 1.5 s with 8
// or 16 (lisp's: 1.52, 1.33 and 1.42 s; docs/SPEED.md, "the sixth rounds
// merged"). The multi-hash pipes gained nothing from more spares.
const (
	pipeBatch = 2048
	pipeDepth = 32
)

// sendPipe hands the batch being filled to the hardware model.
func (u *Unit) sendPipe() {
	if len(u.pipeBuf) > 0 {
		u.pipeBuf = u.pipe.Send(u.pipeBuf)[:0]
	}
}

// consumeHW runs a batch of control transfers through the hardware model.
// A forward branch that only extends the top paths (the hardware stack's
// and, once it has taken over, the reference's: Stack.Branch's first
// case) stays in this loop, whose state is in locals (most of a program's
// control transfers); any other goes through control, after which the
// locals are read again.
func (u *Unit) consumeHW(recs []cpu.TapControl) {
	evMask := uint64(0)
	if u.cfg.Metric == Instructions {
		evMask = ^uint64(0) // the block's events are its instructions
	}
	s := u.hw
	for i := 0; i < len(recs); i++ {
		// The locals: the top entries (e nil: no fast case), where the
		// window ends, the sequence number.
		var e, re *entry
		var rs *Stack
		end, hwSeq := ^uint64(0), u.hwSeq
		if u.fastForward && s.n > 0 {
			e = &s.buf[s.lo+s.n-1]
			if u.refOn {
				if rs = u.ref.ref; u.ref.fwdUpdate && rs.n > 0 {
					re = &rs.buf[rs.lo+rs.n-1]
				} else {
					e = nil
				}
			}
			if u.winOn {
				end = u.winEnd
			}
		}
		// (The stacks' limits in locals: a store through e may alias them
		// for the compiler. At most 32, so that the direction's shift
		// needs no test for a count past the word.)
		maxLen, countMax := min(s.maxLen, 32), s.countMax
		rMaxLen, rCountMax := uint8(32), uint64(0)
		if re != nil {
			rMaxLen, rCountMax = min(rs.maxLen, 32), rs.countMax
		}
		j := i
		for ; e != nil && j < len(recs); j++ {
			r := &recs[j]
			k := isa.Class(r.SeqInfo & 31)
			pc, target, seq := r.PC, r.NextPC, r.SeqInfo>>8+1
			taken := target != pc+2+r.SeqInfo>>4&2
			if k != isa.Branch && k != isa.Jal || taken && target <= pc || seq >= end ||
				e.d.Len+1 >= maxLen || re != nil && re.d.Len+1 >= rMaxLen {
				break // not a forward branch (classOf) that only updates and ends no window
			}
			insts := seq - hwSeq
			hwSeq = seq
			ev := insts & evMask
			dir := b2u(taken)
			e.insts += insts
			e.events = min(e.events+ev, countMax)
			e.d.Dirs |= dir << (e.d.Len & 31)
			e.d.Len++
			if re != nil {
				re.insts += insts
				re.events = min(re.events+ev, rCountMax)
				re.d.Dirs |= dir << (re.d.Len & 31)
				re.d.Len++
			}
		}
		if nf := uint64(j - i); nf > 0 {
			u.hwSeq = hwSeq
			u.sum.Events += nf
			s.Stats.Updates += nf
			if re != nil {
				rs.Stats.Updates += nf
			}
		}
		if i = j; i < len(recs) {
			u.control(&recs[i], evMask)
		}
	}
}

// control runs one control transfer through the hardware model (and the
// reference): consumeHW's general case.
func (u *Unit) control(r *cpu.TapControl, evMask uint64) {
	seq := r.SeqInfo >> 8
	pc, target := r.PC, r.NextPC
	ilen := 2 + uint8(r.SeqInfo>>4&2)
	insts := seq + 1 - u.hwSeq
	u.hwSeq = seq + 1
	events := insts & evMask
	taken := target != pc+uint64(ilen)
	t, _ := classOf(isa.Class(r.SeqInfo&31), taken, pc, target) // records are of control transfers only
	if t == Forward && u.fastForward && u.forward(taken, insts, events) {
		u.sum.Events++
		u.hw.Stats.Updates++
		if u.refOn {
			u.ref.forward(pc, target, taken, ilen, insts, events)
		}
		if u.winOn && u.hwSeq >= u.winEnd {
			u.endWindow(u.hwSeq)
		}
		return
	}
	if u.fastBL {
		if _, ok := u.fast(t, pc, target, taken, ilen, u.hwSeq, insts, events); ok {
			return
		}
	}
	d := cpu.DynInst{Seq: seq, PC: pc, NextPC: target, Taken: taken}
	d.Inst.Len = ilen
	u.branch(t, &d, insts, events)
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
