package cpu

import (
	"unsafe"

	"github.com/rvsim/rvsim/isa"
)

// The traced block: under an observer every instruction needs its record,
// which holds values only known between two instructions (the base
// register of a load before it runs, the result after). Traced runs used
// to make every instruction a block of its own (attentionBlock, a copy
// into the step buffer, the record at the block's end: about 100 host
// instructions per instruction before the record itself). Instead, a
// traced block runs from a copy where a recording slot (opRecord) sits
// between each two instructions:
//
//	inst0, rec, inst1, rec, ..., inst(n-1), sentinel, sentinel
//
// Run executes it as any block; each opRecord writes the record of the
// instruction before it and saves what the next one's record needs. The
// last instruction's record is written at the block's end, as a single
// step's was (retireStep), with the pc control went to. Inside the copy
// an instruction's slot is not where its pc says, so each opRecord moves
// the bias pcOf uses to the next instruction.
//
// Nothing may interrupt the copy between two instructions but what ends
// a block anyway (a fault, a store to code or a mailbox, a taken branch):
// so the copy stops after the record that fills the observer's batch (a
// full batch is delivered right after the instruction that filled it,
// and the observer may then stop the core); a block longer than the
// budget left, or any block while a tap is set (its sink may stop the
// core after any record), runs an instruction at a time as before.

// opRecord is the recording slot of a traced block (see above).
const opRecord = opFusedEnd

// Every op must fit decoded.Op and leave 255 free (see Run's switch).
const _ = uint8(254 - opRecord)

// maxTraced is the longest run of a block that runs traced in one pass.
const maxTraced = 16

// slotSize is the size of a predecode slot.
const slotSize = unsafe.Sizeof(decoded{})

// tracedBuf holds a traced run: an instruction and a recording slot per
// instruction, the last instruction followed by two sentinels.
type tracedBuf [2*maxTraced + 1]decoded

// tracedCopy is an entry of the cache of traced copies (tracedCache): the
// copy of the block at pc, cnt long, of which n instructions were copied,
// valid while gen is the CPU's tracedGen.
type tracedCopy struct {
	pc  uint64
	gen uint64
	cnt uint16
	n   uint8
	buf tracedBuf
}

// tracedCacheSize entries of a direct-mapped cache of traced copies, by
// pc: loops run the same traced blocks again and again.
const tracedCacheSize = 256

// onePass reports whether the traced block at the current block start, n
// instructions long, runs in one pass (see above).
func (c *CPU) onePass(n uint64) bool {
	return n <= c.blk.left && c.tap.mask == 0 && c.observer != nil && !noOnePass
}

// noOnePass makes every traced block run an instruction at a time (tests
// compare the two).
var noOnePass = false

// traceBlock returns the traced copy of the block of bs.cnt instructions
// whose first slot is d, at pc, from the cache or made now; the first
// instruction's record is pending (see recordNext). The copy stops after
// maxTraced instructions and after the record that fills the observer's
// batch; the block's budget is still its whole length, and retireStep
// gives back what did not run. A copy made for the cache runs on past
// conditional branches (a taken one leaves the pass, as it leaves a
// block); one made for a single use, near a full batch, stops after the
// first (traced blocks are long and left early: copying the rest each
// time cost more than the pass saved).
func (c *CPU) traceBlock(d *decoded, pc uint64) *decoded {
	bs := &c.blk
	bs.rpc, bs.rseq = pc, bs.end-bs.left
	bs.rseq0 = bs.rseq
	room := cap(c.batch) - 16 - len(c.batch)
	e := &c.tracedCache[(pc>>1)&(tracedCacheSize-1)]
	if e.pc == pc && e.gen == c.tracedGen && uint64(e.cnt) == bs.cnt {
		if int(e.n) <= room {
			bs.rd = &e.buf[0]
			return bs.rd
		}
	} else if room >= maxTraced {
		e.pc, e.gen, e.cnt = pc, c.tracedGen, uint16(bs.cnt)
		e.n = uint8(copyTraced(&e.buf, d, min(int(bs.cnt), maxTraced), false))
		bs.rd = &e.buf[0]
		return bs.rd
	}
	copyTraced(&c.traced, d, min(int(bs.cnt), maxTraced, room), true)
	bs.rd = &c.traced[0]
	return bs.rd
}

// copyTraced copies at most n instructions of the block whose first slot
// is d into t (see traceBlock) and returns how many it copied.
func copyTraced(t *tracedBuf, d *decoded, n int, toBranch bool) int {
	rec := decoded{Op: uint8(opRecord), Adv: uint8(slotSize)}
	i := 0
	for ; i < n-1; i++ {
		s := *d
		if toBranch && s.Op-uint8(isa.BEQ) <= uint8(isa.BGEU-isa.BEQ) {
			break
		}
		d = (*decoded)(unsafe.Add(unsafe.Pointer(d), s.Adv))
		s.Op, s.Adv = plainOp(s.Op), uint8(slotSize) // (no superinstructions: each needs its record)
		t[2*i], t[2*i+1] = s, rec
	}
	s := *d
	s.Op, s.Adv = plainOp(s.Op), advance(s.Len) // onto a sentinel whose pc is the fall-through
	end := decoded{Op: uint8(opBlockEnd)}
	t[2*i], t[2*i+1], t[2*i+2] = s, end, end
	return i + 1
}

// recordNext is Run's opRecord: it writes the pending record (the
// instruction before d, which went on to the next) and makes the
// instruction after d pending, with the bias and base register its
// execution and record need. The batch has room (traceBlock), and no tap
// is set (onePass): retire's work is the class mix and the record. (The
// pending slot is not stored: it is the one before d here, and
// retireStep finds it by its number.)
func (c *CPU) recordNext(d *decoded) {
	bs := &c.blk
	prev := (*decoded)(unsafe.Add(unsafe.Pointer(d), -int(slotSize)))
	pc := bs.rpc
	next := pc + uint64(prev.Len)
	in := bs.page.fullAt(pc)
	if c.CountMix {
		c.Mix[in.Class]++
	}
	n := len(c.batch)
	c.batch = c.batch[:n+1]
	r := &c.batch[n]
	c.fillTail(r, c.fillHead(r, in, pc, next, bs.rseq), prev, in, pc, next) // (fillRecord, inline)
	nd := (*decoded)(unsafe.Add(unsafe.Pointer(d), slotSize))
	bs.rpc, bs.rseq = next, bs.rseq+1
	bs.setBias(next, nd)
	c.eaBase = c.X[nd.Rs1]
}

// retireStep writes the record of a traced block's last instruction, at
// the block's end; next is where it sent control and seq its number. A
// one-pass block's is pending; a single step's is in the step buffer. (A
// watched instruction the editor leaves alone, the last of its block,
// runs from the step buffer (edit), but its slot in the copy has the same
// length and destination, all the record reads of it.)
//
//go:noinline
func (c *CPU) retireStep(next, seq uint64) {
	bs := &c.blk
	if d := bs.rd; d != nil {
		// The copy may have stopped short of the block's end: the budget
		// gets back what did not run (a taken branch has given it back
		// already: then this changes nothing).
		d = (*decoded)(unsafe.Add(unsafe.Pointer(d), 2*slotSize*uintptr(bs.rseq-bs.rseq0)))
		bs.rd, bs.left = nil, bs.end-bs.rseq-1
		c.retire(d, bs.page.fullAt(bs.rpc), bs.rpc, next, bs.rseq)
		return
	}
	c.retire(&c.step[0], bs.page.fullAt(bs.bpc), bs.bpc, next, seq)
}
