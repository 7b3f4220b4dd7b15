package cpu

import (
	"cmp"
	"runtime"
	"syscall"
	"unsafe"

	hostcpu "golang.org/x/sys/cpu"

	. "github.com/rvsim/rvsim/internal/amd64"
	"github.com/rvsim/rvsim/isa"
	"github.com/rvsim/rvsim/mem"
	sf "github.com/rvsim/rvsim/softfloat"
)

// The amd64 translator. A hot block (jitHot starts) becomes host code in
// an mmap'ed executable buffer. Guest registers stay in CPU.X and CPU.F;
// every instruction loads its operands from there and stores its result,
// so the architectural state is exact at every instruction boundary and an
// exit needs no write-back. While translated code runs:
//
//	RDI  &CPU.X (CPU.F follows it)
//	R8   the read TLB, R9 the write TLB (mem.Memory.TLBs)
//	R10  the budget: instructions translated code may still retire
//	R11  the chaining table (jitTable)
//
// and it leaves with RAX the pc to go on at, R10 the budget left and RBX
// the reason (jitEnd, jitMiss). Every exit of a block subtracts from R10
// the instructions of the block that retired and goes to the chaining stub
// at the start of the buffer, which jumps to the translation of the next
// pc if the table holds it and the budget covers its whole length, and
// otherwise returns to Go. A load or store inlines the interpreter's TLB
// probe; on a miss (and for a misaligned access, whose tag never matches)
// it returns with jitMiss and the interpreter runs that instruction, so a
// fault or a store to watched code is handled exactly as it is without
// translation.

const jitSupported = true

const (
	jitHot       = 32      // block starts before a block is translated
	jitNever     = 0xffff  // hot count of a block that cannot be translated
	jitBufSize   = 1 << 26 // bytes of code (64 MB: cc1 compiling parser.c filled 32 MB twice, 64 MB never)
	jitMaxBudget = 1 << 18 // instructions per entry, so that Go gets control back often
	jitTableBits = 14      // (16K entries, 512 KB: the JVM's 69K translations missed a 4K table's chaining half as often again)
	jitTableSize = 1 << jitTableBits
	jitEmptyPC   = 1 // an odd pc: never a block start
	jitMinPart   = 8 // the shortest translation of part of a block
	// jitMaxLen is the longest translation: a block (which runs on past
	// its not-taken branches to the next jump) entered at many points is
	// translated once per entry to its end, so without a bound the code
	// translated grows with the square of its length. A translation that
	// stops here leaves for the rest of the block, another translation.
	// (The benchmarks' translations are almost all shorter; a Go program
	// of net/http spent 90% of its time translating: docs/SPEED.md.)
	jitMaxLen = 64
	// Pausing: over each window of jitWindow instructions, if less than
	// jitMinShare percent ran translated, block starts stop looking for
	// translations for jitPause instructions (from the next Run on).
	jitWindow   = 1 << 26
	jitMinShare = 40
	jitPause    = 1 << 28
	// jitGap is more instructions than a block start can be from the
	// last (a block is at most PageSize/2 long; translated code returns
	// through jitRun): a longer gap ran without the translator.
	jitGap = 1 << 16
)

// Exit reasons (RBX).
const (
	jitEnd  = 0 // the next pc has no translation the budget covers
	jitMiss = 1 // the instruction at pc must run in the interpreter
)

// jitEntry is one slot of the direct-mapped chaining table, by pc.
type jitEntry struct {
	pc   uint64
	code uintptr // absolute address of the translation
	n    uint64  // its length in instructions
	_    uint64
}

// jitPage is the translator's state of one predecoded page, by slot.
type jitPage struct {
	pn   uint64
	hot  [mem.PageSize / 2]uint16 // block starts counted (jitNever: untranslatable)
	code [mem.PageSize / 2]uint32 // offset in the buffer of the translation, 0 if none
	n    [mem.PageSize / 2]uint16 // instructions in the translation
}

// jitState is the translator's state, per hart.
type jitState struct {
	on   bool
	end  decoded // a sentinel slot: the block of no instructions (attentionBlock)
	buf  []byte  // the code buffer (mmap'ed read, write, execute)
	used int
	// stubEnd is where the chaining stub returns to Go (jitEnd), for
	// the exits that look their next pc up themselves.
	stubEnd int
	table   *[jitTableSize]jitEntry
	pages   []*jitPage // by codePage.jitIdx-1
	free    []uint32   // free indexes of pages
	asm     Asm
	stats   JITStats
	test    JITTest // SetJITTest

	// counting says whether the translations count the class mix
	// (CountMix when they were made): they add to their page's counters
	// as the interpreter's blocks do (mix.go).
	counting bool
	// taps says which tap the translations record, if any (jitTaps when
	// they were made): a value tap's loads or a control tap's transfers.
	taps uint8
	// seqBase is, while translated code runs, the instructions retired
	// before the entry plus its budget: a control record's retirement
	// number is seqBase - R10 plus the instructions of its block before it.
	seqBase uint64

	// The share of translated instructions, and pausing (see jitWindow).
	winStart, winJIT, pauseUntil, lastSeen uint64
	empty                                  *[jitTableSize]jitEntry // a chaining table that never matches (JITTest.EveryBlock)
}

// jitEnter runs translated code at code (jit_amd64.s).
//
//go:noescape
func jitEnter(code uintptr, x *[256]uint64, rtlb, wtlb *[mem.TLBSize]mem.TLBEntry, table *[jitTableSize]jitEntry, budget uint64) (pc, left, reason uint64)

func jitHash(pc uint64) uint64 { return (pc >> 1) & (jitTableSize - 1) }

// jitRun runs translated code from pc for as long as the next block has a
// translation the budget covers, counting and translating hot blocks on
// the way, and returns the pc the interpreter goes on at (its block is
// not run translated).
func (c *CPU) jitRun(pc uint64) uint64 {
	bs, j := &c.blk, &c.jit
	if j.end.Op == 0 {
		j.end.Op = uint8(opBlockEnd)
	}
	if taps := c.jitTaps(); j.counting != c.CountMix || j.taps != taps {
		if j.buf != nil {
			c.jitFlush() // made for the other setting
		}
		j.counting, j.taps = c.CountMix, taps
	}
	now := bs.end - bs.left
	if now < j.lastSeen || now-j.lastSeen > jitGap {
		// Instructions ran without the translator in between (another
		// kind of run, a pause): a new window starts.
		j.winStart, j.winJIT = now, 0
	}
	if now-j.winStart >= cmp.Or(j.test.Window, jitWindow) {
		if j.winJIT*100 < jitMinShare*(now-j.winStart) {
			// Little runs translated (FP arithmetic, say): the
			// interpreter alone, which chains its blocks, is faster.
			j.pauseUntil = now + cmp.Or(j.test.Window, jitWindow)*(jitPause/jitWindow)
			j.stats.Pauses++
			c.attn.jit = false
			return pc
		}
		j.winStart, j.winJIT = now, 0
	}
	pc = c.jitLoop(pc)
	j.lastSeen = bs.end - bs.left
	return pc
}

// jitLoop is jitRun's loop over translations.
func (c *CPU) jitLoop(pc uint64) uint64 {
	bs, j := &c.blk, &c.jit
	for bs.left > 0 {
		p := c.cachedCodePage(pc)
		if p == nil {
			if p = c.codePageFor(pc); p == nil {
				return pc
			}
		}
		jp := c.jitPageOf(p, pc)
		si := (pc & mem.PageMask) >> 1
		if jp.code[si] == 0 {
			if jp.hot[si] == jitNever || p.blen[si] == 0 { // (only built blocks count)
				return pc
			}
			if jp.hot[si]++; jp.hot[si] < cmp.Or(j.test.Hot, jitHot) {
				return pc
			}
			if !c.jitTranslate(p, jp, pc) {
				jp.hot[si] = jitNever
				return pc
			}
		}
		n := uint64(jp.n[si])
		if n > bs.left {
			return pc
		}
		budget := min(bs.left, jitMaxBudget)
		code := uintptr(unsafe.Pointer(&j.buf[0])) + uintptr(jp.code[si])
		e := &j.table[jitHash(pc)]
		e.pc, e.code, e.n = pc, code, n
		table := j.table
		if j.test.EveryBlock {
			if j.empty == nil {
				j.empty = new([jitTableSize]jitEntry)
				for i := range j.empty {
					j.empty[i].pc = jitEmptyPC
				}
			}
			table = j.empty
		}
		rtlb, wtlb := c.Mem.TLBs()
		j.seqBase = bs.end - bs.left + budget
		npc, left, reason := jitEnter(code, &c.X, rtlb, wtlb, table, budget)
		j.stats.Entries++
		j.stats.Retired += budget - left
		j.winJIT += budget - left
		bs.left -= budget - left
		pc = npc
		if j.test.Hook != nil {
			j.test.Hook(pc, bs.end-bs.left)
		}
		if reason == jitMiss {
			return pc
		}
	}
	return pc
}

// jitPageOf returns p's translator state, making it if need be.
func (c *CPU) jitPageOf(p *codePage, pc uint64) *jitPage {
	j := &c.jit
	if p.jitIdx != 0 {
		return j.pages[p.jitIdx-1]
	}
	jp := &jitPage{pn: pc >> mem.PageBits}
	if n := len(j.free); n > 0 {
		p.jitIdx = j.free[n-1]
		j.free = j.free[:n-1]
		j.pages[p.jitIdx-1] = jp
	} else {
		j.pages = append(j.pages, jp)
		p.jitIdx = uint32(len(j.pages))
	}
	return jp
}

// jitDrop forgets the translations of a dropped page: its table entries
// go, so nothing chains into them; their code stays in the buffer,
// unreachable, until the buffer is emptied.
func (c *CPU) jitDrop(p *codePage) {
	j := &c.jit
	jp := j.pages[p.jitIdx-1]
	for si, off := range jp.code {
		if off != 0 {
			pc := jp.pn<<mem.PageBits + uint64(si)*2
			if e := &j.table[jitHash(pc)]; e.pc == pc {
				e.pc = jitEmptyPC
			}
		}
	}
	j.pages[p.jitIdx-1] = nil
	j.free = append(j.free, p.jitIdx)
	p.jitIdx = 0
}

// jitInit maps the code buffer and emits the chaining stub at its start.
func (c *CPU) jitInit() bool {
	j := &c.jit
	if j.buf == nil {
		b, err := syscall.Mmap(-1, 0, jitBufSize, syscall.PROT_READ|syscall.PROT_WRITE|syscall.PROT_EXEC, syscall.MAP_PRIVATE|syscall.MAP_ANON)
		if err != nil {
			j.on = false // (no executable memory: the interpreter runs everything)
			return false
		}
		j.buf = b
		runtime.AddCleanup(c, func(b []byte) { syscall.Munmap(b) }, b)
		j.table = new([jitTableSize]jitEntry)
	}
	for i := range j.table {
		j.table[i].pc = jitEmptyPC
	}
	a := &j.asm
	a.B = a.B[:0]
	// The chaining stub: RAX is the next pc.
	a.MovRR(RCX, RAX)
	a.ShiftImm(SHR, true, RCX, 1)
	a.OpImm(AND, false, RCX, jitTableSize-1)
	a.ShiftImm(SHL, false, RCX, 5) // (32-byte entries)
	a.OpRM(CMP, true, RAX, MI(R11, RCX, 1, 0))
	out := a.Jcc(CondNE)
	a.OpRM(CMP, true, R10, MI(R11, RCX, 1, 16))
	out2 := a.Jcc(CondB)
	a.JmpMem(MI(R11, RCX, 1, 8))
	a.Patch(out, a.Len())
	a.Patch(out2, a.Len())
	j.stubEnd = a.Len()
	a.MovImm(RBX, jitEnd)
	a.Ret()
	j.used = copy(j.buf, a.B)
	return true
}

// The host operation or condition of each translated op, by kind
// (package-level: a map literal in the translator was built anew at
// every instruction it translated).
var (
	jitBranchCond = map[isa.Op]Cond{isa.BEQ: CondE, isa.BNE: CondNE, isa.BLT: CondL, isa.BGE: CondGE, isa.BLTU: CondB, isa.BGEU: CondAE}
	jitALUImm     = map[isa.Op]ALU{isa.ADDI: ADD, isa.XORI: XOR, isa.ORI: OR, isa.ANDI: AND}
	jitShiftImm   = map[isa.Op]Shift{isa.SLLI: SHL, isa.SRLI: SHR, isa.SRAI: SAR}
	jitALUReg     = map[isa.Op]ALU{isa.ADD: ADD, isa.SUB: SUB, isa.XOR: XOR, isa.OR: OR, isa.AND: AND}
	jitShiftReg   = map[isa.Op]Shift{isa.SLL: SHL, isa.SRL: SHR, isa.SRA: SAR, isa.SLLW: SHL, isa.SRLW: SHR, isa.SRAW: SAR}
	jitShiftImmW  = map[isa.Op]Shift{isa.SLLIW: SHL, isa.SRLIW: SHR, isa.SRAIW: SAR}
	jitALURegW    = map[isa.Op]ALU{isa.ADDW: ADD, isa.SUBW: SUB}
	jitShAdd      = map[isa.Op]uint8{isa.SH1ADD: 1, isa.SH2ADD: 2, isa.SH3ADD: 3, isa.SH1ADD_UW: 1, isa.SH2ADD_UW: 2, isa.SH3ADD_UW: 3}
	jitALUNot     = map[isa.Op]ALU{isa.ANDN: AND, isa.ORN: OR}
	jitMinMax     = map[isa.Op]Cond{isa.MIN: CondG, isa.MAX: CondL, isa.MINU: CondA, isa.MAXU: CondB}
	jitRotate     = map[isa.Op]Shift{isa.ROL: ROL, isa.ROR: ROR, isa.ROLW: ROL, isa.RORW: ROR}
	jitFCompare   = map[isa.Op]Cond{isa.FEQ_D: CondE, isa.FLT_D: CondB, isa.FLE_D: CondBE}
)

// jitFlush empties the code buffer: every translation goes.
func (c *CPU) jitFlush() {
	j := &c.jit
	for _, jp := range j.pages {
		if jp != nil {
			jp.code = [mem.PageSize / 2]uint32{}
			jp.n = [mem.PageSize / 2]uint16{}
			jp.hot = [mem.PageSize / 2]uint16{}
		}
	}
	j.stats.Flushes++
	c.jitInit()
}

const _ = uint(unsafe.Sizeof(jitEntry{}) - 32) // the stub's shift assumes 32-byte entries

// fOff is the displacement of CPU.F from CPU.X.
var fOff = int32(unsafe.Offsetof(CPU{}.F) - unsafe.Offsetof(CPU{}.X))

func xm(r uint8) Mem { return M(RDI, int32(r)*8) }
func fm(r uint8) Mem { return M(RDI, fOff+int32(r)*8) }

// jitTranslate translates the block at pc of page p (already built) and
// records it; false if its first instruction cannot be translated.
func (c *CPU) jitTranslate(p *codePage, jp *jitPage, pc uint64) bool {
	j := &c.jit
	if j.buf == nil && !c.jitInit() {
		return false
	}
	si := (pc & mem.PageMask) >> 1
	cnt := int(p.blen[si])
	a := &j.asm
	a.B = a.B[:0]
	type stub struct {
		jcc  int    // the displacement to patch
		done int    // instructions retired when it is taken
		pc   uint64 // where to go on
		miss bool   // the instruction at pc is not run
		from uint64 // the taken branch's pc (not a miss)
		ctl  bool   // the taken branch's control record goes here (control tap: RSI is its address)
		info uint8  // its class and length (controlInfo)
		vo   bool   // RSI holds a vo not yet stored (see voLive)
	}
	var stubs []stub
	// A tap's next record: RSI holds its address (the buffer's plus vo)
	// from the translation's first record (room) on, and vo is stored on
	// the way out, not after each record, so that a record is three short
	// instructions. (What a tapped run costs over a plain one grows with
	// the bytes of code, not with the stores: docs/SPEED.md.) voLive: RSI
	// holds the address; voDirty: vo's memory word is behind it. (Only
	// the FP helpers use RSI otherwise.)
	baseOff := valsOff
	if j.taps == 2 {
		baseOff = ctlsOff
	}
	voLive, voDirty := false, false
	addStub := func(s stub) {
		s.vo = voDirty
		stubs = append(stubs, s)
	}
	storeVO := func() {
		if voDirty {
			jitStoreVO(a, baseOff)
			voDirty = false
		}
	}
	// The class mix, when counting: the page's counters as the
	// interpreter's blocks keep them (mix.go): an entry at the block's
	// start; a taken branch, and a prefix's end, leave early after their
	// instruction; a miss takes back the entry of the instruction the
	// interpreter then runs (its block start counts it). The counters'
	// addresses are constants in the code: they are heap objects, which
	// do not move, kept alive by CPU.mixCounts.
	var counts *slotCounts
	if j.counting {
		counts = c.countsFor(p)
	}
	count := func(at uint64, leave bool, n int32) {
		if counts == nil {
			return
		}
		k := (at & mem.PageMask) >> 1
		addr := &counts.enter[k]
		if leave {
			addr = &counts.leave[k]
		}
		a.MovImm(RCX, uint64(uintptr(unsafe.Pointer(addr))))
		a.OpMemImm(ADD, M(RCX, 0), n)
	}
	count(pc, false, 1)
	exit := func(done int, next uint64) { // leave for next, done instructions retired
		storeVO()
		if done > 0 {
			a.OpImm(SUB, true, R10, int32(done))
		}
		a.MovImm(RAX, next)
		// next's entry in the chaining table is known here: the exit
		// looks it up itself, as the stub would, so that each exit has an
		// indirect jump of its own, which the host predicts far better
		// than the stub's one jump that serves every block (the JVM and
		// cc1 ran 12-15% faster; docs/SPEED.md, sixteenth round). A miss
		// returns to Go as the stub's does.
		e := int32(jitHash(next) * uint64(unsafe.Sizeof(jitEntry{})))
		a.OpRM(CMP, true, RAX, M(R11, e))
		a.Patch(a.Jcc(CondNE), j.stubEnd-j.used)
		a.OpRM(CMP, true, R10, M(R11, e+16))
		a.Patch(a.Jcc(CondB), j.stubEnd-j.used)
		a.JmpMem(M(R11, e+8))
	}
	n, ipc, last := 0, pc, pc
	ended := false
	for ; n < cnt && n < jitMaxLen && !ended; n++ {
		d := p.slot(ipc)
		op := isa.Op(plainOp(d.Op))
		valued := d.Op == uint8(opTapValue) || d.Op == uint8(opTapValueLD) // a load under a value tap
		ctl := d.Op == uint8(opTapControl)                                 // a control transfer under a control tap
		if valued || ctl {
			op = p.fullAt(ipc).Op // (the slot's Rs2 and Rs3 hold a load's size and kind, Rs3 a transfer's kind)
		}
		// room tests Run's rule for a tap's record: it goes inline while
		// vo < vlim (as addresses: RSI < vend); else translated code leaves before the
		// instruction, so that the interpreter runs it, records it and
		// delivers right after it (or leaves out a handler's: vlim is 0).
		room := func() {
			if !voLive {
				a.Load(RSI, M(RDI, voOff), 8, false)
				a.OpRM(ADD, true, RSI, M(RDI, baseOff))
				voLive = true
			}
			a.OpRM(CMP, true, RSI, M(RDI, vendOff))
			addStub(stub{jcc: a.Jcc(CondAE), done: n, pc: ipc, miss: true})
		}
		next := ipc + uint64(d.Len)
		if m, rounds := jitMode(op); !jitCanTranslate(op) || rounds && d.Rm != m && d.Rm != 7 {
			break // (a static rounding mode other than the translation's: softfloat's)
		}
		if jitIsCSR(op) && !jitCSR(p.fullAt(ipc)) {
			break
		}
		switch op {
		case isa.LUI:
			a.StoreImm(xm(d.Rd), int32(d.Imm))
		case isa.FENCE:
			// Nothing to order (one hart, program-order memory, as the
			// interpreter has it); it still ends its block, so the
			// translation ends with it and chains on.
		case isa.AUIPC:
			a.MovImm(RAX, ipc+uint64(d.Imm))
			a.Store(xm(d.Rd), RAX, 8)
		case isa.JAL:
			if ctl {
				room()
			}
			a.MovImm(RAX, next)
			a.Store(xm(d.Rd), RAX, 8)
			if ctl {
				jitTapControl(a, ipc, n, d.Rm, false, ipc+uint64(d.Imm))
				voDirty = true
			}
			exit(n+1, ipc+uint64(d.Imm))
			ended = true
		case isa.JALR:
			if ctl {
				room()
			}
			a.Load(RDX, xm(d.Rs1), 8, false)
			a.MovImm(RAX, next)
			a.Store(xm(d.Rd), RAX, 8)
			if d.Imm != 0 {
				a.OpImm(ADD, true, RDX, int32(d.Imm))
			}
			a.OpImm(AND, true, RDX, -2)
			if ctl {
				jitTapControl(a, ipc, n, d.Rm, true, 0)
				voDirty = true
			}
			storeVO()
			a.OpImm(SUB, true, R10, int32(n+1))
			a.MovRR(RAX, RDX)
			a.Patch(a.Jmp(), -j.used)
			ended = true
		case isa.BEQ, isa.BNE, isa.BLT, isa.BGE, isa.BLTU, isa.BGEU:
			if ctl {
				room()
			}
			a.Load(RAX, xm(d.Rs1), 8, false)
			a.OpRM(CMP, true, RAX, xm(d.Rs2))
			cc := jitBranchCond[op]
			addStub(stub{jcc: a.Jcc(cc), done: n + 1, pc: ipc + uint64(d.Imm), from: ipc, ctl: ctl, info: d.Rm})
			if ctl { // not taken (the taken branch's record is its stub's)
				jitTapControl(a, ipc, n, d.Rm, false, next)
				voDirty = true
			}
		case isa.LB, isa.LBU, isa.LH, isa.LHU, isa.LW, isa.LWU, isa.LD, isa.FLW, isa.FLD:
			w, signed := jitLoadWidth(op)
			if valued {
				room()
			}
			addStub(stub{jcc: jitProbe(a, d, R8, w), done: n, pc: ipc, miss: true})
			a.Load(RDX, MI(RCX, RAX, 1, 0), w, signed)
			switch op {
			case isa.FLD:
				a.Store(fm(d.Rd), RDX, 8)
			case isa.FLW:
				a.MovImm(RAX, 0xffffffff00000000)
				a.OpRR(OR, true, RDX, RAX)
				a.Store(fm(d.Rd), RDX, 8)
			default:
				a.Store(xm(d.Rd), RDX, 8)
			}
			if valued {
				jitTapValue(a, ipc)
				voDirty = true
			}
		case isa.SB, isa.SH, isa.SW, isa.SD, isa.FSW, isa.FSD:
			w := jitStoreWidth(op)
			addStub(stub{jcc: jitProbe(a, d, R9, w), done: n, pc: ipc, miss: true})
			if op == isa.FSW || op == isa.FSD {
				a.Load(RDX, fm(d.Rs2), 8, false)
			} else {
				a.Load(RDX, xm(d.Rs2), 8, false)
			}
			a.Store(MI(RCX, RAX, 1, 0), RDX, w)
		case isa.ADDI, isa.XORI, isa.ORI, isa.ANDI:
			a.Load(RAX, xm(d.Rs1), 8, false)
			if op != isa.ADDI || d.Imm != 0 {
				a.OpImm(jitALUImm[op], true, RAX, int32(d.Imm))
			}
			a.Store(xm(d.Rd), RAX, 8)
		case isa.SLTI, isa.SLTIU, isa.SLT, isa.SLTU:
			a.Load(RAX, xm(d.Rs1), 8, false)
			if op == isa.SLTI || op == isa.SLTIU {
				a.OpImm(CMP, true, RAX, int32(d.Imm))
			} else {
				a.OpRM(CMP, true, RAX, xm(d.Rs2))
			}
			cc := CondL
			if op == isa.SLTIU || op == isa.SLTU {
				cc = CondB
			}
			a.Setcc(cc, RCX)
			a.Store(xm(d.Rd), RCX, 8)
		case isa.SLLI, isa.SRLI, isa.SRAI:
			a.Load(RAX, xm(d.Rs1), 8, false)
			a.ShiftImm(jitShiftImm[op], true, RAX, uint8(d.Imm&63))
			a.Store(xm(d.Rd), RAX, 8)
		case isa.ADD, isa.SUB, isa.XOR, isa.OR, isa.AND:
			a.Load(RAX, xm(d.Rs1), 8, false)
			a.OpRM(jitALUReg[op], true, RAX, xm(d.Rs2))
			a.Store(xm(d.Rd), RAX, 8)
		case isa.SLL, isa.SRL, isa.SRA, isa.SLLW, isa.SRLW, isa.SRAW:
			w := op == isa.SLL || op == isa.SRL || op == isa.SRA
			a.Load(RCX, xm(d.Rs2), 8, false)
			a.Load(RAX, xm(d.Rs1), 8, false)
			a.ShiftCL(jitShiftReg[op], w, RAX)
			if !w {
				a.Movsxd(RAX, RAX)
			}
			a.Store(xm(d.Rd), RAX, 8)
		case isa.ADDIW:
			a.Load(RAX, xm(d.Rs1), 8, false)
			if d.Imm != 0 {
				a.OpImm(ADD, false, RAX, int32(d.Imm))
			}
			a.Movsxd(RAX, RAX)
			a.Store(xm(d.Rd), RAX, 8)
		case isa.SLLIW, isa.SRLIW, isa.SRAIW:
			a.Load(RAX, xm(d.Rs1), 8, false)
			a.ShiftImm(jitShiftImmW[op], false, RAX, uint8(d.Imm&31))
			a.Movsxd(RAX, RAX)
			a.Store(xm(d.Rd), RAX, 8)
		case isa.ADDW, isa.SUBW:
			a.Load(RAX, xm(d.Rs1), 8, false)
			a.OpRM(jitALURegW[op], false, RAX, xm(d.Rs2))
			a.Movsxd(RAX, RAX)
			a.Store(xm(d.Rd), RAX, 8)
		case isa.MUL, isa.MULW:
			a.Load(RAX, xm(d.Rs1), 8, false)
			a.Imul(op == isa.MUL, RAX, xm(d.Rs2))
			if op == isa.MULW {
				a.Movsxd(RAX, RAX)
			}
			a.Store(xm(d.Rd), RAX, 8)
		case isa.MULH, isa.MULHU:
			a.Load(RAX, xm(d.Rs1), 8, false)
			a.MulHigh(op == isa.MULH, xm(d.Rs2))
			a.Store(xm(d.Rd), RDX, 8)
		case isa.DIV, isa.DIVU, isa.REM, isa.REMU, isa.DIVW, isa.DIVUW, isa.REMW, isa.REMUW:
			jitDivide(a, d, op)
		case isa.FMV_X_D:
			a.Load(RAX, fm(d.Rs1), 8, false)
			a.Store(xm(d.Rd), RAX, 8)
		case isa.FMV_D_X:
			a.Load(RAX, xm(d.Rs1), 8, false)
			a.Store(fm(d.Rd), RAX, 8)
		case isa.FMV_X_W:
			a.Load(RAX, fm(d.Rs1), 4, true)
			a.Store(xm(d.Rd), RAX, 8)
		case isa.FMV_W_X:
			a.Load(RDX, xm(d.Rs1), 4, false)
			a.MovImm(RAX, 0xffffffff00000000)
			a.OpRR(OR, true, RDX, RAX)
			a.Store(fm(d.Rd), RDX, 8)
		case isa.CSRRW, isa.CSRRS, isa.CSRRC, isa.CSRRWI, isa.CSRRSI, isa.CSRRCI:
			jitFCSR(a, d, p.fullAt(ipc))
		case isa.FADD_D, isa.FSUB_D, isa.FMUL_D, isa.FDIV_D, isa.FSQRT_D, isa.FEQ_D, isa.FLT_D, isa.FLE_D,
			isa.FSGNJ_D, isa.FSGNJN_D, isa.FSGNJX_D, isa.FCVT_D_W, isa.FCVT_D_L, isa.FCVT_W_D, isa.FCVT_L_D:
			storeVO() // (the FP helpers use RSI)
			voLive = false
			for _, m := range jitFP(a, d, op) {
				addStub(stub{jcc: m, done: n, pc: ipc, miss: true})
			}
		default:
			if jitBitmanipOp(op) {
				jitBitmanip(a, d, op)
			}
		}
		last, ipc = ipc, next
	}
	if n == 0 || n < cnt && n < jitMinPart && !j.test.AnyPart {
		// A short prefix costs more in the trips to and from Go than it
		// saves (measured: a prefix that ends after a loop's back edge
		// too, n-body got 40% slower).
		return false
	}
	if !ended {
		if n < cnt {
			count(last, true, 1) // a prefix: the interpreter's block start counts the rest
		}
		exit(n, ipc) // the block runs on into the next (or an untranslated instruction)
	}
	for _, s := range stubs {
		a.Patch(s.jcc, a.Len())
		if s.vo && !s.ctl { // (a taken branch's record stores vo after it)
			jitStoreVO(a, baseOff)
		}
		if s.miss {
			count(s.pc, false, -1)
			if s.done > 0 {
				a.OpImm(SUB, true, R10, int32(s.done))
			}
			a.MovImm(RAX, s.pc)
			a.MovImm(RBX, jitMiss)
			a.Ret()
		} else {
			if s.ctl {
				jitTapControl(a, s.from, s.done-1, s.info, false, s.pc)
				jitStoreVO(a, baseOff)
			}
			count(s.from, true, 1)
			exit(s.done, s.pc)
		}
	}
	if j.used+a.Len() > len(j.buf) {
		c.jitFlush()
		return c.jitTranslate(p, jp, pc) // (the jumps to the stub are relative to j.used)
	}
	off := j.used
	j.used += copy(j.buf[off:], a.B)
	jp.code[si], jp.n[si] = uint32(off), uint16(n)
	e := &j.table[jitHash(pc)]
	e.pc, e.code, e.n = pc, uintptr(unsafe.Pointer(&j.buf[0]))+uintptr(off), uint64(n)
	j.stats.Blocks++
	j.stats.Instructions += uint64(n)
	return true
}

// voOff, vendOff and valsOff are the displacements of CPU.tap's vo, vend
// and vals from CPU.X.
var (
	voOff   = int32(unsafe.Offsetof(CPU{}.tap) + unsafe.Offsetof(tapState{}.vo) - unsafe.Offsetof(CPU{}.X))
	vendOff = int32(unsafe.Offsetof(CPU{}.tap) + unsafe.Offsetof(tapState{}.vend) - unsafe.Offsetof(CPU{}.X))
	valsOff = int32(unsafe.Offsetof(CPU{}.tap) + unsafe.Offsetof(tapState{}.vals) - unsafe.Offsetof(CPU{}.X))
)

// jitStoreVO emits the store of vo: RSI, the next record's address, less
// the buffer's (at baseOff). It uses RAX.
func jitStoreVO(a *Asm, baseOff int32) {
	a.MovRR(RAX, RSI)
	a.OpRM(SUB, true, RAX, M(RDI, baseOff))
	a.Store(M(RDI, voOff), RAX, 8)
}

// jitStoreWord emits the store of the constant v at m, in one instruction
// if v is a sign-extended 32-bit number (a PC of most programs). It may
// use RAX.
func jitStoreWord(a *Asm, m Mem, v uint64) {
	if int64(v) == int64(int32(v)) {
		a.StoreImm(m, int32(v))
		return
	}
	a.MovImm(RAX, v)
	a.Store(m, RAX, 8)
}

// seqOff and ctlsOff are the displacements of CPU.jit.seqBase and
// CPU.tap.ctls from CPU.X.
var (
	seqOff  = int32(unsafe.Offsetof(CPU{}.jit) + unsafe.Offsetof(jitState{}.seqBase) - unsafe.Offsetof(CPU{}.X))
	ctlsOff = int32(unsafe.Offsetof(CPU{}.tap) + unsafe.Offsetof(tapState{}.ctls) - unsafe.Offsetof(CPU{}.X))
)

// jitTapControl emits a control tap's record of the transfer at pc, the
// n-th instruction of its translation (class and length info), which goes
// to next (or, if dynamic, to RDX), at the address in RSI (tested below
// vend before it), and moves RSI on, as Run's opTapControl path moves vo
// (the caller stores vo before translated code leaves: jitStoreVO). Its
// retirement number is seqBase - R10 + n (R10 is the budget at the
// translation's entry until an exit subtracts from it). RDX is kept.
func jitTapControl(a *Asm, pc uint64, n int, info uint8, dynamic bool, next uint64) {
	jitStoreWord(a, M(RSI, 0), pc)
	if dynamic {
		a.Store(M(RSI, 8), RDX, 8)
	} else {
		jitStoreWord(a, M(RSI, 8), next)
	}
	a.Load(RAX, M(RDI, seqOff), 8, false)
	a.OpRR(SUB, true, RAX, R10)
	a.ShiftImm(SHL, true, RAX, 8)
	a.OpImm(ADD, true, RAX, int32(n)<<8|int32(info))
	a.Store(M(RSI, 16), RAX, 8)
	a.OpImm(ADD, true, RSI, int32(tapControlSize))
}

// jitTapValue emits a value tap's record of the load at pc, whose value
// is in RDX, at the address in RSI (tested below vend before the load),
// and moves RSI on, as Run's opTapValue path moves vo (the caller stores
// vo before translated code leaves: jitStoreVO). (The records hold no
// pointers: no write barrier.)
func jitTapValue(a *Asm, pc uint64) {
	jitStoreWord(a, M(RSI, 0), pc)
	a.Store(M(RSI, 8), RDX, 8)
	a.OpImm(ADD, true, RSI, int32(tapValueSize))
}

// jitProbe emits the TLB probe of the load or store d of w bytes (tlb is
// R8 or R9) and returns the displacement of its miss jump. On a hit, RCX
// is the host page and RAX the offset in it.
func jitProbe(a *Asm, d *decoded, tlb Reg, w Width) int {
	a.Load(RAX, xm(d.Rs1), 8, false)
	if d.Imm != 0 {
		a.OpImm(ADD, true, RAX, int32(d.Imm))
	}
	// RCX = (addr >> PageBits & (TLBSize-1)) * 16, in two steps.
	a.MovRR(RCX, RAX)
	a.ShiftImm(SHR, true, RCX, mem.PageBits-4)
	a.OpImm(AND, false, RCX, (mem.TLBSize-1)<<4)
	a.MovRR(RDX, RAX)
	a.OpImm(AND, true, RDX, int32(^int64(mem.PageMask&^(uint64(w)-1)))) // the tag mask (mem.tagMask)
	a.OpRM(CMP, true, RDX, MI(tlb, RCX, 1, 0))
	miss := a.Jcc(CondNE)
	a.Load(RCX, MI(tlb, RCX, 1, 8), 8, false)
	a.OpImm(AND, false, RAX, mem.PageMask)
	return miss
}

// jitDivide emits a division or remainder with RISC-V's results where
// x86 would trap: a zero divisor gives all ones (quotient) or the
// dividend (remainder); a divisor of -1 gives the negated dividend
// (wrapping, so MIN/-1 is MIN) and remainder 0. The W forms work on the
// low 32 bits and sign-extend.
func jitDivide(a *Asm, d *decoded, op isa.Op) {
	w := op == isa.DIV || op == isa.DIVU || op == isa.REM || op == isa.REMU
	signed := op == isa.DIV || op == isa.REM || op == isa.DIVW || op == isa.REMW
	rem := op == isa.REM || op == isa.REMU || op == isa.REMW || op == isa.REMUW
	result := func(r Reg) { // store r (sign-extending a W result)
		if !w {
			a.Movsxd(r, r)
		}
		a.Store(xm(d.Rd), r, 8)
	}
	var done []int
	a.Load(RCX, xm(d.Rs2), 8, false)
	a.Load(RAX, xm(d.Rs1), 8, false)
	a.OpImm(CMP, w, RCX, 0)
	zero := a.Jcc(CondE)
	var minus1 int
	if signed {
		a.OpImm(CMP, w, RCX, -1)
		minus1 = a.Jcc(CondE)
	}
	if signed {
		a.SignExtendRAX(w)
	} else {
		a.OpRR(XOR, false, RDX, RDX)
	}
	a.Div(signed, w, RCX)
	if rem {
		result(RDX)
	} else {
		result(RAX)
	}
	done = append(done, a.Jmp())
	if signed {
		a.Patch(minus1, a.Len())
		if rem {
			a.StoreImm(xm(d.Rd), 0)
		} else {
			a.Neg(w, RAX)
			result(RAX)
		}
		done = append(done, a.Jmp())
	}
	a.Patch(zero, a.Len())
	if rem {
		result(RAX)
	} else {
		a.StoreImm(xm(d.Rd), -1)
	}
	for _, j := range done {
		a.Patch(j, a.Len())
	}
}

func jitLoadWidth(op isa.Op) (Width, bool) {
	switch op {
	case isa.LB:
		return 1, true
	case isa.LBU:
		return 1, false
	case isa.LH:
		return 2, true
	case isa.LHU:
		return 2, false
	case isa.LW:
		return 4, true
	case isa.LWU, isa.FLW:
		return 4, false
	}
	return 8, false
}

func jitStoreWidth(op isa.Op) Width {
	switch op {
	case isa.SB:
		return 1
	case isa.SH:
		return 2
	case isa.SW, isa.FSW:
		return 4
	}
	return 8
}

// jitPopcnt says whether the host has POPCNT, which cpop's translation
// uses (x86-64-v2; without it cpop ends its translation).
var jitPopcnt = hostcpu.X86.HasPOPCNT

// jitBitmanipOp says whether jitBitmanip translates op: Zba, Zbb (cpop
// with the host's POPCNT), Zbs and Zicond.
func jitBitmanipOp(op isa.Op) bool {
	switch op {
	case isa.ADD_UW, isa.SH1ADD, isa.SH2ADD, isa.SH3ADD, isa.SH1ADD_UW, isa.SH2ADD_UW, isa.SH3ADD_UW, isa.SLLI_UW,
		isa.ANDN, isa.ORN, isa.XNOR, isa.MIN, isa.MAX, isa.MINU, isa.MAXU, isa.SEXT_B, isa.SEXT_H, isa.ZEXT_H,
		isa.ROL, isa.ROR, isa.ROLW, isa.RORW, isa.RORI, isa.RORIW, isa.REV8, isa.ORC_B,
		isa.CLZ, isa.CLZW, isa.CTZ, isa.CTZW,
		isa.BSET, isa.BCLR, isa.BINV, isa.BEXT, isa.BSETI, isa.BCLRI, isa.BINVI, isa.BEXTI,
		isa.CZERO_EQZ, isa.CZERO_NEZ:
		return true
	case isa.CPOP, isa.CPOPW:
		return jitPopcnt
	}
	return false
}

// jitBitmanip emits a Zba, Zbb, Zbs or Zicond op: the result in RAX,
// stored to rd. The 32-bit forms (the .uw sources, rolw, rorw, roriw) use
// the host's 32-bit operations, which zero the upper half, as .uw wants;
// the W results are then sign-extended.
func jitBitmanip(a *Asm, d *decoded, op isa.Op) {
	switch op {
	case isa.ADD_UW, isa.SH1ADD_UW, isa.SH2ADD_UW, isa.SH3ADD_UW, isa.SH1ADD, isa.SH2ADD, isa.SH3ADD:
		w := Width(8)
		if op == isa.ADD_UW || op == isa.SH1ADD_UW || op == isa.SH2ADD_UW || op == isa.SH3ADD_UW {
			w = 4 // rs1's low word, zero-extended
		}
		a.Load(RAX, xm(d.Rs1), w, false)
		if n := jitShAdd[op]; n != 0 {
			a.ShiftImm(SHL, true, RAX, n)
		}
		a.OpRM(ADD, true, RAX, xm(d.Rs2))
	case isa.SLLI_UW:
		a.Load(RAX, xm(d.Rs1), 4, false)
		a.ShiftImm(SHL, true, RAX, uint8(d.Imm&63))
	case isa.ANDN, isa.ORN:
		a.Load(RAX, xm(d.Rs2), 8, false)
		a.OpImm(XOR, true, RAX, -1)
		a.OpRM(jitALUNot[op], true, RAX, xm(d.Rs1))
	case isa.XNOR:
		a.Load(RAX, xm(d.Rs1), 8, false)
		a.OpRM(XOR, true, RAX, xm(d.Rs2))
		a.OpImm(XOR, true, RAX, -1)
	case isa.MIN, isa.MAX, isa.MINU, isa.MAXU: // rs2 replaces rs1 when rs1 loses
		a.Load(RAX, xm(d.Rs1), 8, false)
		a.Load(RCX, xm(d.Rs2), 8, false)
		a.OpRR(CMP, true, RAX, RCX)
		a.Cmov(jitMinMax[op], true, RAX, RCX)
	case isa.SEXT_B, isa.SEXT_H, isa.ZEXT_H:
		w := Width(1)
		if op != isa.SEXT_B {
			w = 2
		}
		a.Load(RAX, xm(d.Rs1), w, op != isa.ZEXT_H)
	case isa.ROL, isa.ROR, isa.ROLW, isa.RORW:
		a.Load(RCX, xm(d.Rs2), 8, false)
		a.Load(RAX, xm(d.Rs1), 8, false)
		w := op == isa.ROL || op == isa.ROR
		a.ShiftCL(jitRotate[op], w, RAX)
		if !w {
			a.Movsxd(RAX, RAX)
		}
	case isa.RORI:
		a.Load(RAX, xm(d.Rs1), 8, false)
		a.ShiftImm(ROR, true, RAX, uint8(d.Imm&63))
	case isa.RORIW:
		a.Load(RAX, xm(d.Rs1), 8, false)
		a.ShiftImm(ROR, false, RAX, uint8(d.Imm&31))
		a.Movsxd(RAX, RAX)
	case isa.REV8:
		a.Load(RAX, xm(d.Rs1), 8, false)
		a.Bswap(RAX)
	case isa.CLZ, isa.CLZW: // width-1 - bsr, with bsr's result -1 for a zero source
		w := op == isa.CLZ
		a.MovImm(RCX, ^uint64(0))
		a.Bsr(w, RAX, xm(d.Rs1)) // (the 32-bit form reads the register's low word)
		a.Cmov(CondE, w, RAX, RCX)
		a.Neg(w, RAX)
		top := int32(63)
		if !w {
			top = 31
		}
		a.OpImm(ADD, w, RAX, top)
	case isa.CTZ, isa.CTZW: // bsf, with the width for a zero source
		w := op == isa.CTZ
		if w {
			a.MovImm(RCX, 64)
		} else {
			a.MovImm(RCX, 32)
		}
		a.Bsf(w, RAX, xm(d.Rs1))
		a.Cmov(CondE, w, RAX, RCX)
	case isa.CPOP, isa.CPOPW:
		a.Popcnt(op == isa.CPOP, RAX, xm(d.Rs1))
	case isa.ORC_B:
		// A byte's top bit in ((x & 0x7f..) + 0x7f..) | x is set exactly
		// when the byte is not zero (the sum cannot carry into the next
		// byte); that bit, moved to the byte's bottom and times 255, is
		// the byte of the result.
		a.Load(RCX, xm(d.Rs1), 8, false)
		a.MovImm(RDX, 0x7f7f7f7f7f7f7f7f)
		a.MovRR(RAX, RCX)
		a.OpRR(AND, true, RAX, RDX)
		a.OpRR(ADD, true, RAX, RDX)
		a.OpRR(OR, true, RAX, RCX)
		a.ShiftImm(SHR, true, RAX, 7)
		a.MovImm(RDX, 0x0101010101010101)
		a.OpRR(AND, true, RAX, RDX)
		a.MovRR(RCX, RAX)
		a.ShiftImm(SHL, true, RAX, 8)
		a.OpRR(SUB, true, RAX, RCX) // times 255
	case isa.BSET, isa.BCLR, isa.BINV: // the bit's mask by a shift of 1 (the host masks the count to 6 bits, as the ISA does)
		a.Load(RCX, xm(d.Rs2), 8, false)
		a.MovImm(RDX, 1)
		a.ShiftCL(SHL, true, RDX)
		jitBitOp(a, d, op, RDX)
	case isa.BSETI, isa.BCLRI, isa.BINVI:
		a.MovImm(RDX, 1<<(d.Imm&63))
		jitBitOp(a, d, op, RDX)
	case isa.BEXT:
		a.Load(RCX, xm(d.Rs2), 8, false)
		a.Load(RAX, xm(d.Rs1), 8, false)
		a.ShiftCL(SHR, true, RAX)
		a.OpImm(AND, true, RAX, 1)
	case isa.BEXTI:
		a.Load(RAX, xm(d.Rs1), 8, false)
		a.ShiftImm(SHR, true, RAX, uint8(d.Imm&63))
		a.OpImm(AND, true, RAX, 1)
	case isa.CZERO_EQZ, isa.CZERO_NEZ: // rs1, or 0 (RCX) when rs2's test holds; rs2 is read before rd is written
		a.Load(RAX, xm(d.Rs1), 8, false)
		a.OpRR(XOR, false, RCX, RCX)
		a.OpMemImm(CMP, xm(d.Rs2), 0)
		cc := CondE
		if op == isa.CZERO_NEZ {
			cc = CondNE
		}
		a.Cmov(cc, true, RAX, RCX)
	}
	a.Store(xm(d.Rd), RAX, 8)
}

// jitBitOp applies the one-bit mask in m to rs1 as bset, bclr or binv
// (and their immediate forms) do, into RAX.
func jitBitOp(a *Asm, d *decoded, op isa.Op, m Reg) {
	a.Load(RAX, xm(d.Rs1), 8, false)
	switch op {
	case isa.BSET, isa.BSETI:
		a.OpRR(OR, true, RAX, m)
	case isa.BINV, isa.BINVI:
		a.OpRR(XOR, true, RAX, m)
	default: // bclr
		a.OpImm(XOR, true, m, -1)
		a.OpRR(AND, true, RAX, m)
	}
}

// jitCanTranslate says whether the translator handles op; any other op
// ends the translated part of its block.
func jitCanTranslate(op isa.Op) bool {
	switch op {
	case isa.LUI, isa.AUIPC, isa.JAL, isa.JALR, isa.BEQ, isa.BNE, isa.BLT, isa.BGE, isa.BLTU, isa.BGEU, isa.FENCE,
		isa.LB, isa.LBU, isa.LH, isa.LHU, isa.LW, isa.LWU, isa.LD, isa.FLW, isa.FLD,
		isa.SB, isa.SH, isa.SW, isa.SD, isa.FSW, isa.FSD,
		isa.ADDI, isa.XORI, isa.ORI, isa.ANDI, isa.SLTI, isa.SLTIU, isa.SLLI, isa.SRLI, isa.SRAI,
		isa.ADD, isa.SUB, isa.XOR, isa.OR, isa.AND, isa.SLT, isa.SLTU, isa.SLL, isa.SRL, isa.SRA,
		isa.SLLW, isa.SRLW, isa.SRAW, isa.ADDIW, isa.SLLIW, isa.SRLIW, isa.SRAIW, isa.ADDW, isa.SUBW,
		isa.MUL, isa.MULW, isa.MULH, isa.MULHU,
		isa.DIV, isa.DIVU, isa.REM, isa.REMU, isa.DIVW, isa.DIVUW, isa.REMW, isa.REMUW,
		isa.FMV_X_D, isa.FMV_D_X, isa.FMV_X_W, isa.FMV_W_X,
		isa.FADD_D, isa.FSUB_D, isa.FMUL_D, isa.FDIV_D, isa.FSQRT_D, isa.FEQ_D, isa.FLT_D, isa.FLE_D,
		isa.FSGNJ_D, isa.FSGNJN_D, isa.FSGNJX_D, isa.FCVT_D_W, isa.FCVT_D_L, isa.FCVT_W_D, isa.FCVT_L_D:
		return true
	}
	return jitBitmanipOp(op) || jitIsCSR(op) // (the FP CSRs only: jitCSR)
}

func jitIsCSR(op isa.Op) bool {
	switch op {
	case isa.CSRRW, isa.CSRRS, isa.CSRRC, isa.CSRRWI, isa.CSRRSI, isa.CSRRCI:
		return true
	}
	return false
}

// jitCSR says whether the translator handles the CSR instruction in:
// reads of fflags, frm and fcsr, and writes of fflags, which leave the
// block going on (csrEndsBlock). They are legal in user mode whenever an
// FP instruction is: a change of mstatus.FS flushes every translation.
func jitCSR(in *isa.Inst) bool {
	switch in.Csr {
	case csrFflags:
		return true
	case csrFrm, csrFcsr:
		return !csrWrites(in)
	}
	return false
}

// jitFCSR emits the CSR instruction d (in) that jitCSR accepts, as
// csrAccess runs it: the CSR's old value to rd, and for fflags the new
// value (the source, or the old one with the source's bits set or
// cleared) masked to five bits.
func jitFCSR(a *Asm, d *decoded, in *isa.Inst) {
	switch in.Csr {
	case csrFflags:
		a.Load(RAX, M(RDI, ffOff), 1, false)
	case csrFrm:
		a.Load(RAX, M(RDI, frmOff), 1, false)
	case csrFcsr:
		a.Load(RAX, M(RDI, frmOff), 1, false)
		a.ShiftImm(SHL, false, RAX, 5)
		a.Load(RCX, M(RDI, ffOff), 1, false)
		a.OpRR(OR, false, RAX, RCX)
	}
	if csrWrites(in) {
		switch in.Op {
		case isa.CSRRW, isa.CSRRS, isa.CSRRC:
			a.Load(RCX, xm(in.Rs1), 8, false)
		default:
			a.MovImm(RCX, uint64(in.Imm))
		}
		switch in.Op {
		case isa.CSRRS, isa.CSRRSI:
			a.OpRR(OR, false, RCX, RAX)
		case isa.CSRRC, isa.CSRRCI:
			a.MovRR(RDX, RCX) // old &^ src
			a.MovRR(RCX, RAX)
			a.OpImm(XOR, false, RDX, -1)
			a.OpRR(AND, false, RCX, RDX)
		}
		a.OpImm(AND, false, RCX, 0x1f)
		a.Store(M(RDI, ffOff), RCX, 1)
	}
	a.Store(xm(d.Rd), RAX, 8)
}

// jitMode is the rounding mode the translation of op implements, if op
// rounds: to nearest even (the interpreter's fast paths), or towards zero
// for the conversions to integers (C's casts), which the host's
// truncating conversion does.
func jitMode(op isa.Op) (mode uint8, rounds bool) {
	switch op {
	case isa.FADD_D, isa.FSUB_D, isa.FMUL_D, isa.FDIV_D, isa.FSQRT_D, isa.FCVT_D_L:
		return uint8(sf.RNE), true
	case isa.FCVT_W_D, isa.FCVT_L_D:
		return uint8(sf.RTZ), true
	}
	return 0, false
}

// ffOff and frmOff are the displacements of CPU.fflags and CPU.frm from
// CPU.X.
var (
	ffOff  = int32(unsafe.Offsetof(CPU{}.fflags) - unsafe.Offsetof(CPU{}.X))
	frmOff = int32(unsafe.Offsetof(CPU{}.frm) - unsafe.Offsetof(CPU{}.X))
)

const signBit = 1 << 63

// jitFP emits the double-precision operation d (op) as the interpreter's
// fast paths compute it (exec.go; softfloat's FastAdd64, MulRNE64 and
// MulNX64, DivRNE64 and DivNX64): the host's SSE2 arithmetic, which rounds
// to nearest even as Go's float64 arithmetic does (Go keeps the MXCSR's
// default: no flush to zero), with the same range checks, and the
// inexact flag from the same exactness tests. Whatever the fast path
// leaves to softfloat (a rounding mode other than RNE in frm, a zero,
// tiny, infinite or NaN operand or result, a comparison with a NaN, which
// may raise NV) jumps to one of the returned displacements, and the
// interpreter runs the instruction. RSI holds a result, R12 a significand.
func jitFP(a *Asm, d *decoded, op isa.Op) (misses []int) {
	miss := func(cc Cond) { misses = append(misses, a.Jcc(cc)) }
	var inexact []int
	nx := func(cc Cond) { inexact = append(inexact, a.Jcc(cc)) }
	var outOfLine func()      // a rarer case's code, after the common case's end
	finish := func(dst Mem) { // NX where an nx jump was taken; the result (RSI) to dst
		exact := a.Jmp()
		for _, j := range inexact {
			a.Patch(j, a.Len())
		}
		a.OrMem8Imm(M(RDI, ffOff), uint8(sf.NX))
		a.Patch(exact, a.Len())
		a.Store(dst, RSI, 8)
	}
	exponent := func(dst, src Reg) { // dst = src's exponent field; ZF if zero
		a.MovRR(dst, src)
		a.ShiftImm(SHR, true, dst, 52)
		a.OpImm(AND, false, dst, 0x7ff)
	}
	fastRange := func(r Reg) { // miss unless r's exponent field is in [64, 0x7fe] (fastRange64)
		exponent(RDX, r)
		a.OpImm(SUB, false, RDX, 64)
		a.OpImm(CMP, false, RDX, 0x7ff-64)
		miss(CondAE)
	}
	result := func(op SSEOp) { // RSI = rs1 op rs2, in the fast range; RDX = 1<<63
		a.SSE(MOVSD, X0, fm(d.Rs1))
		a.SSE(op, X0, fm(d.Rs2))
		a.MovqFromX(RSI, X0)
		fastRange(RSI)
		a.MovImm(RDX, signBit)
	}
	significand := func(r Reg) { // r = r<<11 | 1<<63 (sig64); RDX holds 1<<63
		a.ShiftImm(SHL, true, r, 11)
		a.OpRR(OR, true, r, RDX)
	}
	if m, rounds := jitMode(op); rounds && d.Rm == 7 { // dynamic: frm must be the translation's
		a.Load(RAX, M(RDI, frmOff), 1, false)
		a.OpImm(CMP, false, RAX, int32(m))
		miss(CondNE)
	}
	// exactProduct: NX unless the product of the significands in RAX and
	// RCX, normalized, is the significand in R12 (DivNX64).
	exactProduct := func() {
		a.MulRR(RCX) // RDX:RAX = hi:lo
		a.OpImm(CMP, true, RDX, 0)
		top := a.Jcc(CondS) // the top bit at 127: no shift
		a.OpRR(ADD, true, RAX, RAX)
		a.OpRR(ADC, true, RDX, RDX) // hi:lo <<= 1
		a.Patch(top, a.Len())
		a.OpImm(CMP, true, RAX, 0)
		nx(CondNE)
		a.OpRR(CMP, true, RDX, R12)
		nx(CondNE)
	}
	switch op {
	case isa.FADD_D, isa.FSUB_D:
		a.SSE(MOVSD, X0, fm(d.Rs1)) // x
		if op == isa.FADD_D {
			a.SSE(MOVSD, X1, fm(d.Rs2)) // y
		} else {
			a.Load(RAX, fm(d.Rs2), 8, false) // y = -rs2, as FastAdd64(a, b^signBit64)
			a.MovImm(RCX, signBit)
			a.OpRR(XOR, true, RAX, RCX)
			a.MovqToX(X1, RAX)
		}
		a.SSERR(MOVSD, X2, X0)
		a.SSERR(ADDSD, X2, X1) // s
		a.MovqFromX(RSI, X2)
		exponent(RCX, RSI) // s must be finite
		a.OpImm(CMP, false, RCX, 0x7ff)
		miss(CondE)
		// Exact iff s-x == y and s-y == x (Dekker): the sum is finite, so
		// nothing is unordered.
		a.SSERR(MOVSD, X3, X2)
		a.SSERR(SUBSD, X3, X0)
		a.SSERR(UCOMISD, X3, X1)
		nx(CondNE)
		a.SSERR(MOVSD, X3, X2)
		a.SSERR(SUBSD, X3, X1)
		a.SSERR(UCOMISD, X3, X0)
		nx(CondNE)
	case isa.FMUL_D:
		a.Load(RAX, fm(d.Rs1), 8, false)
		a.Load(RCX, fm(d.Rs2), 8, false)
		// Both operands normal (or inf, NaN: then the product is out of
		// range), or one of them zero (zeros below).
		exponent(RDX, RAX)
		zeroA := a.Jcc(CondE)
		exponent(RDX, RCX)
		zeroB := a.Jcc(CondE)
		outOfLine = func() {
			// A zero times a finite number (Mul64: a zero of the two
			// signs' exclusive or, exact): common in real code (raytrace,
			// imgcodec), where each miss was a trip to Go. A subnormal,
			// or a zero times an infinity or NaN, misses.
			over := a.Jmp()
			zero := func(z, other Reg, pos int) {
				a.Patch(pos, a.Len())
				a.MovRR(RDX, z) // z's exponent field is zero: a zero iff z<<1 is
				a.OpRR(ADD, true, RDX, RDX)
				miss(CondNE)
				exponent(RDX, other)
				a.OpImm(CMP, false, RDX, 0x7ff)
				miss(CondE)
			}
			zero(RAX, RCX, zeroA)
			toZero := a.Jmp()
			zero(RCX, RAX, zeroB)
			a.Patch(toZero, a.Len())
			a.MovRR(RSI, RAX)
			a.OpRR(XOR, true, RSI, RCX)
			a.MovImm(RDX, signBit)
			a.OpRR(AND, true, RSI, RDX)
			a.Store(fm(d.Rd), RSI, 8)
			a.Patch(over, a.Len())
		}
		result(MULSD)
		// MulNX64: the 128-bit product of the significands is exact iff
		// nothing below its top 53 bits is set.
		significand(RAX)
		significand(RCX)
		a.MulRR(RCX) // RDX:RAX
		a.OpImm(CMP, true, RAX, 0)
		nx(CondNE)
		a.MovRR(RCX, RDX) // hi << (53 + (hi>>63 ^ 1))
		a.ShiftImm(SHR, true, RCX, 63)
		a.OpImm(XOR, false, RCX, 1)
		a.OpImm(ADD, false, RCX, 53)
		a.ShiftCL(SHL, true, RDX)
		a.OpImm(CMP, true, RDX, 0)
		nx(CondNE)
	case isa.FDIV_D:
		a.Load(RAX, fm(d.Rs1), 8, false)
		a.Load(RCX, fm(d.Rs2), 8, false)
		exponent(RDX, RAX) // the dividend not tiny
		a.OpImm(CMP, false, RDX, 64)
		miss(CondB)
		exponent(RDX, RCX) // the divisor normal
		miss(CondE)
		result(DIVSD)
		// DivNX64: exact iff sig(z)*sig(b), normalized, is sig(a).
		a.MovRR(R12, RAX)
		significand(R12)
		a.MovRR(RAX, RSI)
		significand(RAX)
		significand(RCX)
		exactProduct()
	case isa.FSQRT_D:
		// sqrt64Fast: positive, exponent field in [64, 0x7fe]; exact iff
		// z*z is x, that is iff sig(z)*sig(z), normalized, is sig(x) (z is
		// the correctly rounded root, so the exponents then agree).
		a.Load(RAX, fm(d.Rs1), 8, false)
		a.MovRR(RDX, RAX)
		a.MovImm(RCX, 64<<52)
		a.OpRR(SUB, true, RDX, RCX)
		a.MovImm(RCX, (0x7ff-64)<<52)
		a.OpRR(CMP, true, RDX, RCX)
		miss(CondAE)
		a.SSE(SQRTSD, X0, fm(d.Rs1))
		a.MovqFromX(RSI, X0)
		a.MovImm(RDX, signBit)
		a.MovRR(R12, RAX)
		significand(R12)
		a.MovRR(RAX, RSI)
		significand(RAX)
		a.MovRR(RCX, RAX)
		exactProduct()
	case isa.FCVT_D_W: // exact
		a.Load(RAX, xm(d.Rs1), 8, false)
		a.CvtSI2SD(X0, RAX, false)
		a.MovqFromX(RSI, X0)
		a.Store(fm(d.Rd), RSI, 8)
		return misses
	case isa.FCVT_D_L: // inexact iff converting back gives another integer
		a.Load(RAX, xm(d.Rs1), 8, false)
		a.CvtSI2SD(X0, RAX, true)
		a.MovqFromX(RSI, X0)
		a.CvtTSD2SI(RCX, X0, true) // (2^63, out of range, gives -2^63: not the integer either)
		a.OpRR(CMP, true, RCX, RAX)
		nx(CondNE)
	case isa.FCVT_W_D, isa.FCVT_L_D:
		// Truncated; the integer indefinite (out of range, NaN, or the
		// most negative integer itself) is the interpreter's to saturate
		// and flag. Inexact iff the integer converted back differs.
		w := op == isa.FCVT_L_D
		a.SSE(MOVSD, X0, fm(d.Rs1))
		a.CvtTSD2SI(RSI, X0, w)
		if w {
			a.MovImm(RCX, signBit)
			a.OpRR(CMP, true, RSI, RCX)
		} else {
			a.OpImm(CMP, false, RSI, -1<<31)
		}
		miss(CondE)
		a.CvtSI2SD(X1, RSI, w)
		if !w {
			a.Movsxd(RSI, RSI)
		}
		a.SSERR(UCOMISD, X1, X0)
		nx(CondNE)
		finish(xm(d.Rd))
		return misses
	case isa.FEQ_D, isa.FLT_D, isa.FLE_D:
		a.SSE(MOVSD, X0, fm(d.Rs1))
		a.SSE(UCOMISD, X0, fm(d.Rs2))
		miss(CondP) // a NaN: softfloat decides NV
		a.Setcc(jitFCompare[op], RAX)
		a.Store(xm(d.Rd), RAX, 8)
		return misses
	case isa.FSGNJ_D, isa.FSGNJN_D, isa.FSGNJX_D:
		// rs1 with its sign bit flipped where it differs from the sign
		// wanted: rs2's, its complement, or their exclusive or.
		a.Load(RSI, fm(d.Rs1), 8, false)
		a.Load(RDX, fm(d.Rs2), 8, false)
		a.MovImm(RCX, signBit)
		if op != isa.FSGNJX_D {
			a.OpRR(XOR, true, RDX, RSI)
		}
		if op == isa.FSGNJN_D {
			a.OpRR(XOR, true, RDX, RCX)
		}
		a.OpRR(AND, true, RDX, RCX)
		a.OpRR(XOR, true, RSI, RDX)
		a.Store(fm(d.Rd), RSI, 8)
		return misses
	}
	finish(fm(d.Rd))
	if outOfLine != nil {
		outOfLine()
	}
	return misses
}
