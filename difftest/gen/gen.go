// Package gen generates constrained-random RV64GC programs for
// differential testing, in the spirit of riscv-dv and riscv-torture: code
// bytes for a bare region, no assembler needed. A program mixes integer,
// M, A, C, F and D instructions, loads and stores into a scratch region,
// FP operands chosen to hit NaNs, infinities, signed zeros, subnormals and
// the integer-conversion limits under every rounding mode, forward
// branches and small loops. The same seed always gives the same program.
package gen

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/rvsim/rvsim/isa"
)

// The program's memory layout.
const (
	CodeBase = 0x10000  // code, mapped R+W+X (programs modify themselves)
	DataBase = 0x100000 // scratch data, mapped R+W
	DataSize = 0x2000

	poolBase = DataBase         // constant pool: poolLen 8-byte entries
	poolLen  = 128              //
	s0Value  = DataBase + 0x800 // s0 (x8): pool at s0-2048..s0-1025, scratch above
	spValue  = DataBase + 0x1000

	// Reserved registers: sp and s0 point into the scratch region, t6
	// counts loop iterations.
	regSP   = 2
	regS0   = 8
	regLoop = 31
)

// Program is one generated test program and its initial state.
type Program struct {
	Seed   uint64
	Code   []byte // at CodeBase; ends with an exit system call
	Data   []byte // the initial DataSize bytes at DataBase
	X      [32]uint64
	F      [32]uint64
	FCSR   uint64 // frm<<5 | fflags
	Static int    // instructions in Code
}

// Generate returns the program for seed with at least length static
// instructions before the final exit.
func Generate(seed uint64, length int) (*Program, error) {
	g := &generator{r: rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))}
	p := &Program{Seed: seed}
	g.initState(p)
	for g.static < length {
		g.group()
	}
	g.exitGroup()
	code, err := g.layout()
	if err != nil {
		return nil, fmt.Errorf("gen: seed %d: %w", seed, err)
	}
	p.Code, p.Static = code, g.static
	return p, nil
}

// item is one instruction before layout; branches are encoded once every
// item's address is known.
type item struct {
	in     isa.Inst // the instruction; for 16-bit ones, its expansion
	c16    uint16   // the 16-bit encoding, if compressed
	target int      // index of the branch target item, or -1
	auipc  int      // for a jalr: index of its auipc item, or -1
	plus   int64    // added to the resolved offset (an odd jalr target)
}

type fkind uint8

const (
	kDouble fkind = iota // any 64-bit pattern
	kSingle              // a NaN-boxed single
)

type generator struct {
	r      *rand.Rand
	items  []item
	groups []int // index of the first item of each group
	static int
	fk     [32]fkind
	// straight counts instructions since the last control transfer; long
	// straight-line runs are cut with a jump to the next instruction
	// (see breakBlock).
	straight int
	pool     [poolLen]uint64
	poolK    [poolLen]fkind
}

func (g *generator) intn(n int) int      { return g.r.IntN(n) }
func (g *generator) chance(pct int) bool { return g.r.IntN(100) < pct }

// writable integer registers: everything but x0 and the reserved ones.
var writable = func() (rs []uint8) {
	for r := uint8(1); r < 32; r++ {
		if r != regSP && r != regS0 && r != regLoop {
			rs = append(rs, r)
		}
	}
	return rs
}()

func (g *generator) rd() uint8 { return writable[g.intn(len(writable))] }

// rdOrZero is a destination that is sometimes x0 (the result is dropped).
func (g *generator) rdOrZero() uint8 {
	if g.chance(4) {
		return 0
	}
	return g.rd()
}
func (g *generator) rs() uint8  { return uint8(g.intn(32)) }
func (g *generator) frd() uint8 { return uint8(g.intn(32)) }

// fsrc picks an F register holding a value of kind k (or any, rarely).
func (g *generator) fsrc(k fkind) uint8 {
	for range 8 {
		r := uint8(g.intn(32))
		if g.fk[r] == k || k == kDouble {
			return r
		}
	}
	// Make one.
	r := uint8(g.intn(32))
	g.loadPoolF(r, k)
	return r
}

// Special floating-point bit patterns.
var (
	specialD = []uint64{
		0, 1 << 63, // ±0
		0x7ff0000000000000, 0xfff0000000000000, // ±inf
		0x7ff8000000000000, 0x7ff8000000000123, 0xfff8000000000000, // quiet NaNs
		0x7ff0000000000001, 0x7ff4000000000000, 0xfff0000000000001, // signalling NaNs
		1, 0x000fffffffffffff, 0x8000000000000001, 0x800fffffffffffff, // subnormals
		0x0010000000000000, 0x7fefffffffffffff, 0xffefffffffffffff, // min normal, ±max
		f64(1), f64(-1), f64(0.5), f64(-0.5), f64(1.5), f64(2.5), f64(-2.5), f64(3), f64(0.1), f64(math.Pi),
		f64(2147483647), f64(2147483647.5), f64(2147483648), f64(2147483648.5), f64(-2147483648),
		f64(-2147483648.5), f64(-2147483649), f64(4294967295), f64(4294967295.5), f64(4294967296),
		f64(-1.0 / 3), f64(9223372036854774784), f64(9223372036854775808), f64(-9223372036854775808),
		f64(-9223372036854777856), f64(18446744073709549568), f64(18446744073709551616),
		f64(1e300), f64(-1e-300), f64(2.2250738585072014e-308 / 3),
	}
	specialS = []uint32{
		0, 1 << 31,
		0x7f800000, 0xff800000,
		0x7fc00000, 0x7fc00123, 0xffc00000,
		0x7f800001, 0x7fa00000, 0xff800001,
		1, 0x007fffff, 0x80000001, 0x807fffff,
		0x00800000, 0x7f7fffff, 0xff7fffff,
		f32(1), f32(-1), f32(0.5), f32(-0.5), f32(1.5), f32(2.5), f32(-2.5), f32(3), f32(0.1), f32(math.Pi),
		0x4effffff, f32(2147483648), 0xcf000000, 0xcf000001, f32(4294967296), 0x4f7fffff,
		0x5effffff, f32(9223372036854775808), 0xdf000000, 0xdf000001, 0x5f7fffff, f32(18446744073709551616),
		f32(-1.0 / 3), f32(1e30), f32(-1e-30),
	}
	specialX = []uint64{
		0, 1, 2, 3, ^uint64(0), ^uint64(1), 1<<31 - 1, 1 << 31, 1<<32 - 1, 1 << 32,
		0xffffffff80000000, 0xffffffff7fffffff, 1<<63 - 1, 1 << 63, 1<<63 + 1,
		0xffffffff00000000, 0x00000000ffffffff, 0x8000000080000000, 0x5555555555555555,
		0xaaaaaaaaaaaaaaaa, 0x0123456789abcdef, 0xfedcba9876543210, 0x7f, 0x80, 0xff, 0x8000, 0xffff,
	}
)

func f64(v float64) uint64 { return math.Float64bits(v) }
func f32(v float64) uint32 { return math.Float32bits(float32(v)) }

// initState fills the constant pool, the scratch region and the registers.
func (g *generator) initState(p *Program) {
	p.Data = make([]byte, DataSize)
	for i := range g.pool {
		var v uint64
		k := kDouble
		switch g.intn(4) {
		case 0:
			v = specialD[g.intn(len(specialD))]
		case 1:
			v = 0xffffffff<<32 | uint64(specialS[g.intn(len(specialS))])
			k = kSingle
		case 2:
			v = specialX[g.intn(len(specialX))]
		default:
			v = g.r.Uint64()
			if g.chance(50) {
				v = 0xffffffff<<32 | v&0xffffffff
				k = kSingle
			}
		}
		g.pool[i], g.poolK[i] = v, k
		binary.LittleEndian.PutUint64(p.Data[8*i:], v)
	}
	for i := poolLen * 8; i < DataSize; i += 8 {
		v := g.r.Uint64()
		if g.chance(30) {
			v = specialD[g.intn(len(specialD))]
		}
		binary.LittleEndian.PutUint64(p.Data[i:], v)
	}
	for r := 1; r < 32; r++ {
		if g.chance(60) {
			p.X[r] = specialX[g.intn(len(specialX))]
		} else {
			p.X[r] = g.r.Uint64()
		}
	}
	p.X[regSP], p.X[regS0], p.X[regLoop] = spValue, s0Value, 0
	for r := range p.F {
		if g.chance(50) {
			p.F[r] = 0xffffffff<<32 | uint64(specialS[g.intn(len(specialS))])
			g.fk[r] = kSingle
		} else {
			p.F[r] = specialD[g.intn(len(specialD))]
			g.fk[r] = kDouble
		}
	}
	p.FCSR = uint64(g.intn(5)) << 5
}

// --- emitting --------------------------------------------------------------

func (g *generator) emit(in isa.Inst) {
	g.items = append(g.items, item{in: in, target: -1, auipc: -1})
	g.static++
	g.straight++
}

func (g *generator) op(op isa.Op, rd, rs1, rs2 uint8, imm int64) {
	g.emit(isa.Inst{Op: op, Rd: rd, Rs1: rs1, Rs2: rs2, Imm: imm})
}

// emitC appends a 16-bit instruction with its expected expansion, checked
// against isa.Decode at layout.
func (g *generator) emitC(h uint16, exp isa.Inst) {
	g.items = append(g.items, item{in: exp, c16: h, target: -1, auipc: -1})
	g.static++
	g.straight++
}

// branch appends a control transfer to the start of a later group (k
// groups ahead of the current one, resolved at layout).
func (g *generator) branch(in isa.Inst, c16 uint16, k int) {
	g.items = append(g.items, item{in: in, c16: c16, target: -2 - k, auipc: -1})
	g.static++
	g.straight = 0
}

// maxStraight bounds straight-line runs: compiled code has short basic
// blocks, and the jumps that end them exercise block boundaries in both
// models' translation caches.
const maxStraight = 16

// breakBlock ends the basic block with a jump to the next instruction.
func (g *generator) breakBlock() {
	if g.chance(50) {
		g.emitC(0xa001|encodeCBranch(0xa001, 2), isa.Inst{Op: isa.JAL, Imm: 2})
	} else {
		g.op(isa.JAL, 0, 0, 0, 4)
	}
	g.straight = 0
}

func (g *generator) rm() uint8 {
	if g.chance(35) {
		return 7 // dyn: frm, set by fsrm/fscsr
	}
	return uint8(g.intn(5))
}

// group appends one group of instructions: branch targets are always the
// start of a group, so multi-instruction sequences are never entered in
// the middle.
func (g *generator) group() {
	g.groups = append(g.groups, len(g.items))
	if g.straight >= maxStraight {
		g.breakBlock()
		return
	}
	switch n := g.intn(100); {
	case n < 22:
		g.intALU()
	case n < 30:
		g.mulDiv()
	case n < 44:
		g.compressed()
	case n < 54:
		g.memory()
	case n < 59:
		g.atomic()
	case n < 82:
		g.float()
	case n < 85:
		g.csr()
	case n < 92:
		g.forwardBranch()
	case n < 93:
		g.selfModify()
	default:
		g.loop()
	}
}

var (
	aluR  = []isa.Op{isa.ADD, isa.SUB, isa.SLL, isa.SLT, isa.SLTU, isa.XOR, isa.SRL, isa.SRA, isa.OR, isa.AND, isa.ADDW, isa.SUBW, isa.SLLW, isa.SRLW, isa.SRAW}
	aluI  = []isa.Op{isa.ADDI, isa.SLTI, isa.SLTIU, isa.XORI, isa.ORI, isa.ANDI, isa.ADDIW}
	shI   = []isa.Op{isa.SLLI, isa.SRLI, isa.SRAI}
	shIW  = []isa.Op{isa.SLLIW, isa.SRLIW, isa.SRAIW}
	mulOp = []isa.Op{isa.MUL, isa.MULH, isa.MULHSU, isa.MULHU, isa.DIV, isa.DIVU, isa.REM, isa.REMU, isa.MULW, isa.DIVW, isa.DIVUW, isa.REMW, isa.REMUW}
)

func (g *generator) imm12() int64 {
	switch g.intn(4) {
	case 0:
		return []int64{0, 1, -1, 2047, -2048, 31, 32, 63}[g.intn(8)]
	}
	return int64(g.intn(4096)) - 2048
}

func (g *generator) intALU() {
	switch g.intn(6) {
	case 0, 1:
		g.op(aluR[g.intn(len(aluR))], g.rdOrZero(), g.rs(), g.rs(), 0)
	case 2:
		g.op(aluI[g.intn(len(aluI))], g.rdOrZero(), g.rs(), 0, g.imm12())
	case 3:
		if g.chance(50) {
			g.op(shI[g.intn(len(shI))], g.rd(), g.rs(), 0, int64(g.intn(64)))
		} else {
			g.op(shIW[g.intn(len(shIW))], g.rd(), g.rs(), 0, int64(g.intn(32)))
		}
	case 4:
		op := isa.LUI
		if g.chance(40) {
			op = isa.AUIPC
		}
		g.op(op, g.rd(), 0, 0, int64(int32(g.r.Uint32()&0xfffff000)))
	case 5:
		// An interesting constant from the pool.
		g.op(isa.LD, g.rd(), regS0, 0, int64(-2048+8*g.intn(poolLen)))
	}
}

func (g *generator) mulDiv() {
	g.op(mulOp[g.intn(len(mulOp))], g.rdOrZero(), g.rs(), g.rs(), 0)
}

// --- memory ------------------------------------------------------------------

var (
	loads  = []isa.Op{isa.LB, isa.LH, isa.LW, isa.LD, isa.LBU, isa.LHU, isa.LWU}
	stores = []isa.Op{isa.SB, isa.SH, isa.SW, isa.SD}
)

// addrReg computes a random address sp+[0, 0x7ff]&^(align-1) into a
// fresh register and returns it.
func (g *generator) addrReg(align int64) uint8 {
	t := g.rd()
	g.op(isa.ANDI, t, g.rs(), 0, 0x7ff&^(align-1))
	g.op(isa.ADD, t, t, regSP, 0)
	return t
}

func (g *generator) memory() {
	isStore := g.chance(45)
	fp := g.chance(25)
	var base uint8
	var off int64
	switch g.intn(3) {
	case 0:
		base, off = regSP, g.imm12()
	case 1:
		base, off = regS0, int64(g.intn(3072))-1024 // above the pool
		if !isStore && g.chance(50) {
			off = int64(-2048 + 8*g.intn(poolLen)) // a pool entry
		}
		off = min(off, 2047)
	default:
		base, off = g.addrReg(1), int64(g.intn(2048))-1024
	}
	switch {
	case fp && isStore:
		if g.chance(50) {
			g.op(isa.FSD, 0, base, g.fsrc(kDouble), off)
		} else {
			g.op(isa.FSW, 0, base, g.fsrc(kDouble), off)
		}
	case fp:
		rd := g.frd()
		if g.chance(50) {
			g.op(isa.FLW, rd, base, 0, off)
			g.fk[rd] = kSingle
		} else {
			g.op(isa.FLD, rd, base, 0, off)
			g.fk[rd] = kDouble
			if base == regS0 && off < -1024 && off%8 == 0 {
				g.fk[rd] = g.poolK[(off+2048)/8]
			}
		}
	case isStore:
		g.op(stores[g.intn(len(stores))], 0, base, g.rs(), off)
	default:
		g.op(loads[g.intn(len(loads))], g.rdOrZero(), base, 0, off)
	}
}

var amos = []isa.Op{isa.AMOSWAP_W, isa.AMOADD_W, isa.AMOXOR_W, isa.AMOAND_W, isa.AMOOR_W,
	isa.AMOMIN_W, isa.AMOMAX_W, isa.AMOMINU_W, isa.AMOMAXU_W, isa.AMOSWAP_D, isa.AMOADD_D,
	isa.AMOXOR_D, isa.AMOAND_D, isa.AMOOR_D, isa.AMOMIN_D, isa.AMOMAX_D, isa.AMOMINU_D, isa.AMOMAXU_D}

// atomic appends an AMO, or an LR/SC pair (sometimes one that must fail).
// Addresses are naturally aligned.
func (g *generator) atomic() {
	aqrl := uint8(g.intn(4))
	if g.chance(60) {
		op := amos[g.intn(len(amos))]
		t := g.addrReg(int64(op.Info().MemSize))
		g.emit(isa.Inst{Op: op, Rd: g.rdOrZero(), Rs1: t, Rs2: g.rs(), Rm: aqrl})
		return
	}
	lr, sc, size := isa.LR_D, isa.SC_D, int64(8)
	if g.chance(50) {
		lr, sc, size = isa.LR_W, isa.SC_W, 4
	}
	t := g.addrReg(size)
	switch g.intn(6) {
	case 0: // sc without a reservation: fails
		g.emit(isa.Inst{Op: sc, Rd: g.rd(), Rs1: t, Rs2: g.rs(), Rm: aqrl})
		return
	case 1: // sc to another address than the lr: fails
		g.emit(isa.Inst{Op: lr, Rd: pickNot(g, t), Rs1: t, Rm: aqrl})
		u := g.addrReg(size)
		g.op(isa.ADDI, u, u, 0, size) // never the same address as t... unless t moved
		g.emit(isa.Inst{Op: sc, Rd: g.rd(), Rs1: u, Rs2: g.rs(), Rm: aqrl})
		return
	}
	g.emit(isa.Inst{Op: lr, Rd: pickNot(g, t), Rs1: t, Rm: aqrl})
	for range g.intn(3) {
		g.op(aluR[g.intn(len(aluR))], pickNot(g, t), g.rs(), g.rs(), 0)
	}
	g.emit(isa.Inst{Op: sc, Rd: g.rd(), Rs1: t, Rs2: g.rs(), Rm: aqrl})
}

// pickNot returns a writable register other than t.
func pickNot(g *generator, t uint8) uint8 {
	for {
		if r := g.rd(); r != t {
			return r
		}
	}
}

// --- floating point --------------------------------------------------------

type fpOp struct {
	op     isa.Op
	in     fkind // operand kind
	out    fkind // result kind (F destination)
	xout   bool  // writes an integer register
	xin    bool  // reads an integer register
	nsrc   int   // F sources
	withRM bool
}

var fpOps = []fpOp{
	{isa.FADD_S, kSingle, kSingle, false, false, 2, true}, {isa.FSUB_S, kSingle, kSingle, false, false, 2, true},
	{isa.FMUL_S, kSingle, kSingle, false, false, 2, true}, {isa.FDIV_S, kSingle, kSingle, false, false, 2, true},
	{isa.FSQRT_S, kSingle, kSingle, false, false, 1, true},
	{isa.FMIN_S, kSingle, kSingle, false, false, 2, false}, {isa.FMAX_S, kSingle, kSingle, false, false, 2, false},
	{isa.FSGNJ_S, kSingle, kSingle, false, false, 2, false}, {isa.FSGNJN_S, kSingle, kSingle, false, false, 2, false},
	{isa.FSGNJX_S, kSingle, kSingle, false, false, 2, false},
	{isa.FMADD_S, kSingle, kSingle, false, false, 3, true}, {isa.FMSUB_S, kSingle, kSingle, false, false, 3, true},
	{isa.FNMSUB_S, kSingle, kSingle, false, false, 3, true}, {isa.FNMADD_S, kSingle, kSingle, false, false, 3, true},
	{isa.FEQ_S, kSingle, 0, true, false, 2, false}, {isa.FLT_S, kSingle, 0, true, false, 2, false},
	{isa.FLE_S, kSingle, 0, true, false, 2, false}, {isa.FCLASS_S, kSingle, 0, true, false, 1, false},
	{isa.FCVT_W_S, kSingle, 0, true, false, 1, true}, {isa.FCVT_WU_S, kSingle, 0, true, false, 1, true},
	{isa.FCVT_L_S, kSingle, 0, true, false, 1, true}, {isa.FCVT_LU_S, kSingle, 0, true, false, 1, true},
	{isa.FMV_X_W, kDouble, 0, true, false, 1, false},
	{isa.FCVT_S_W, 0, kSingle, false, true, 0, true}, {isa.FCVT_S_WU, 0, kSingle, false, true, 0, true},
	{isa.FCVT_S_L, 0, kSingle, false, true, 0, true}, {isa.FCVT_S_LU, 0, kSingle, false, true, 0, true},
	{isa.FMV_W_X, 0, kSingle, false, true, 0, false},

	{isa.FADD_D, kDouble, kDouble, false, false, 2, true}, {isa.FSUB_D, kDouble, kDouble, false, false, 2, true},
	{isa.FMUL_D, kDouble, kDouble, false, false, 2, true}, {isa.FDIV_D, kDouble, kDouble, false, false, 2, true},
	{isa.FSQRT_D, kDouble, kDouble, false, false, 1, true},
	{isa.FMIN_D, kDouble, kDouble, false, false, 2, false}, {isa.FMAX_D, kDouble, kDouble, false, false, 2, false},
	{isa.FSGNJ_D, kDouble, kDouble, false, false, 2, false}, {isa.FSGNJN_D, kDouble, kDouble, false, false, 2, false},
	{isa.FSGNJX_D, kDouble, kDouble, false, false, 2, false},
	{isa.FMADD_D, kDouble, kDouble, false, false, 3, true}, {isa.FMSUB_D, kDouble, kDouble, false, false, 3, true},
	{isa.FNMSUB_D, kDouble, kDouble, false, false, 3, true}, {isa.FNMADD_D, kDouble, kDouble, false, false, 3, true},
	{isa.FEQ_D, kDouble, 0, true, false, 2, false}, {isa.FLT_D, kDouble, 0, true, false, 2, false},
	{isa.FLE_D, kDouble, 0, true, false, 2, false}, {isa.FCLASS_D, kDouble, 0, true, false, 1, false},
	{isa.FCVT_W_D, kDouble, 0, true, false, 1, true}, {isa.FCVT_WU_D, kDouble, 0, true, false, 1, true},
	{isa.FCVT_L_D, kDouble, 0, true, false, 1, true}, {isa.FCVT_LU_D, kDouble, 0, true, false, 1, true},
	{isa.FMV_X_D, kDouble, 0, true, false, 1, false},
	{isa.FCVT_D_W, 0, kDouble, false, true, 0, false}, {isa.FCVT_D_WU, 0, kDouble, false, true, 0, false},
	{isa.FCVT_D_L, 0, kDouble, false, true, 0, true}, {isa.FCVT_D_LU, 0, kDouble, false, true, 0, true},
	{isa.FMV_D_X, 0, kDouble, false, true, 0, false},
	{isa.FCVT_S_D, kDouble, kSingle, false, false, 1, true}, {isa.FCVT_D_S, kSingle, kDouble, false, false, 1, false},
}

// loadPoolF loads a pool entry of kind k into F register r.
func (g *generator) loadPoolF(r uint8, k fkind) {
	for {
		i := g.intn(poolLen)
		if g.poolK[i] == k || k == kDouble {
			g.op(isa.FLD, r, regS0, 0, int64(-2048+8*i))
			g.fk[r] = g.poolK[i]
			return
		}
	}
}

func (g *generator) float() {
	if g.chance(15) {
		// Refresh an operand with a special value.
		k := kDouble
		if g.chance(50) {
			k = kSingle
		}
		g.loadPoolF(g.frd(), k)
		return
	}
	f := fpOps[g.intn(len(fpOps))]
	in := isa.Inst{Op: f.op}
	var src [3]uint8
	for i := 0; i < f.nsrc; i++ {
		src[i] = g.fsrc(f.in)
	}
	in.Rs1, in.Rs2, in.Rs3 = src[0], src[1], src[2]
	if f.xin {
		in.Rs1 = g.rs()
	}
	if f.withRM {
		in.Rm = g.rm()
	}
	if f.xout {
		in.Rd = g.rd()
	} else {
		in.Rd = g.frd()
		g.fk[in.Rd] = f.out
	}
	g.emit(in)
}

// --- CSRs --------------------------------------------------------------------

const (
	csrFflags = 0x001
	csrFrm    = 0x002
	csrFcsr   = 0x003
)

func (g *generator) csr() {
	switch g.intn(8) {
	case 0: // fsrmi: a new dynamic rounding mode
		g.emit(isa.Inst{Op: isa.CSRRWI, Rd: g.pick0(), Csr: csrFrm, Imm: int64(g.intn(5))})
	case 1: // frflags / frcsr / frrm
		g.emit(isa.Inst{Op: isa.CSRRS, Rd: g.rd(), Csr: []uint16{csrFflags, csrFrm, csrFcsr}[g.intn(3)]})
	case 2: // fsflags from a register, or clear some flags
		op := []isa.Op{isa.CSRRW, isa.CSRRS, isa.CSRRC}[g.intn(3)]
		g.emit(isa.Inst{Op: op, Rd: g.pick0(), Rs1: g.rs(), Csr: csrFflags})
	case 3: // fscsr with a valid rounding mode (0 or 4)
		t := g.rd()
		g.op(isa.ANDI, t, g.rs(), 0, 0x9f)
		g.emit(isa.Inst{Op: isa.CSRRW, Rd: g.pick0(), Rs1: t, Csr: csrFcsr})
	case 4:
		g.emit(isa.Inst{Op: []isa.Op{isa.CSRRSI, isa.CSRRCI}[g.intn(2)], Rd: g.pick0(), Csr: csrFflags, Imm: int64(g.intn(32))})
	case 5: // rdcycle, rdtime, rdinstret: the driver copies these
		g.emit(isa.Inst{Op: isa.CSRRS, Rd: g.rd(), Csr: uint16(0xc00 + g.intn(3))})
	case 6:
		g.emit(isa.Inst{Op: isa.FENCE, Rm: uint8(g.intn(256))})
	default:
		g.emit(isa.Inst{Op: isa.FENCE_I})
	}
}

// pick0 returns x0 a third of the time (a CSR write that discards the old
// value), else a writable register.
func (g *generator) pick0() uint8 {
	if g.chance(33) {
		return 0
	}
	return g.rd()
}

// --- control flow ------------------------------------------------------------

var branches = []isa.Op{isa.BEQ, isa.BNE, isa.BLT, isa.BGE, isa.BLTU, isa.BGEU}

// forwardBranch jumps over the next 1..4 groups, conditionally or not.
func (g *generator) forwardBranch() {
	k := 1 + g.intn(4)
	switch g.intn(11) {
	case 10: // auipc + addi + c.jr / c.jalr
		t := g.rd()
		g.op(isa.AUIPC, t, 0, 0, 0)
		g.items = append(g.items, item{in: isa.Inst{Op: isa.ADDI, Rd: t, Rs1: t}, target: -2 - k, auipc: len(g.items) - 1})
		g.static++
		if g.chance(50) {
			g.emitC(0x8002|uint16(t)<<7, isa.Inst{Op: isa.JALR, Rs1: t})
		} else {
			g.emitC(0x9002|uint16(t)<<7, isa.Inst{Op: isa.JALR, Rd: 1, Rs1: t})
		}
		g.straight = 0
	case 0: // jal
		g.branch(isa.Inst{Op: isa.JAL, Rd: g.pick0()}, 0, k)
	case 1: // auipc + jalr, sometimes with an odd offset (jalr clears bit 0)
		t := g.rd()
		g.op(isa.AUIPC, t, 0, 0, 0)
		g.items = append(g.items, item{in: isa.Inst{Op: isa.JALR, Rd: g.pick0(), Rs1: t}, target: -2 - k,
			auipc: len(g.items) - 1, plus: int64(g.intn(2))})
		g.static++
		g.straight = 0
	case 2: // c.j
		g.branch(isa.Inst{Op: isa.JAL}, 0xa001, k)
	case 3: // c.beqz / c.bnez
		rs := uint8(8 + g.intn(8))
		h, op := uint16(0xc001), isa.BEQ
		if g.chance(50) {
			h, op = 0xe001, isa.BNE
		}
		g.branch(isa.Inst{Op: op, Rs1: rs}, h|uint16(rs-8)<<7, k)
	default:
		a, b := g.rs(), g.rs()
		if g.chance(20) {
			b = a
		}
		g.branch(isa.Inst{Op: branches[g.intn(len(branches))], Rs1: a, Rs2: b}, 0, k)
	}
}

// loop emits a small counted loop (1..5 iterations) of straight-line code.
func (g *generator) loop() {
	g.op(isa.ADDI, regLoop, 0, 0, int64(1+g.intn(5)))
	body := len(g.items)
	for range 2 + g.intn(6) {
		switch g.intn(5) {
		case 0:
			g.intALU()
		case 1:
			g.mulDiv()
		case 2:
			g.memory()
		case 3:
			g.compressed()
		default:
			g.float()
		}
	}
	g.op(isa.ADDI, regLoop, regLoop, 0, -1)
	g.items = append(g.items, item{in: isa.Inst{Op: isa.BNE, Rs1: regLoop}, target: body, auipc: -1})
	g.static++
	g.straight = 0
}

// selfModify stores a new instruction over one a few bytes ahead, runs
// fence.i and executes it: the predecode cache must notice.
func (g *generator) selfModify() {
	t := g.rd()
	v := pickNot(g, t)
	old := isa.Inst{Op: aluI[g.intn(len(aluI))], Rd: g.rd(), Rs1: g.rs(), Imm: g.imm12()}
	repl := isa.Inst{Op: aluR[g.intn(len(aluR))], Rd: g.rd(), Rs1: g.rs(), Rs2: g.rs()}
	w, err := isa.Encode(repl)
	if err != nil {
		w = 0x00000013 // nop; cannot happen for these ops
	}
	lo := int64(int32(w<<20) >> 20) // sign-extended low 12 bits
	hi := int64(int32(w - uint32(lo)))
	g.op(isa.AUIPC, t, 0, 0, 0)
	g.op(isa.LUI, v, 0, 0, hi)
	g.op(isa.ADDIW, v, v, 0, lo)
	g.op(isa.SW, 0, t, v, 5*4) // the slot: five 4-byte instructions after the auipc
	g.emit(isa.Inst{Op: isa.FENCE_I})
	g.emit(old)
	g.straight = 0
}

// exitGroup ends the program with exit(a0 & 0xff) — Linux's exit system call.
func (g *generator) exitGroup() {
	g.groups = append(g.groups, len(g.items))
	g.op(isa.ADDI, 17, 0, 0, 93)
	g.emit(isa.Inst{Op: isa.ECALL})
}

// layout assigns addresses, resolves branch targets and encodes.
func (g *generator) layout() ([]byte, error) {
	addr := make([]uint64, len(g.items)+1)
	a := uint64(CodeBase)
	for i, it := range g.items {
		addr[i] = a
		if it.c16 != 0 {
			a += 2
		} else {
			a += 4
		}
	}
	addr[len(g.items)] = a
	// Which group each item is in.
	groupOf := make([]int, len(g.items))
	for gi, start := range g.groups {
		end := len(g.items)
		if gi+1 < len(g.groups) {
			end = g.groups[gi+1]
		}
		for i := start; i < end; i++ {
			groupOf[i] = gi
		}
	}
	var code []byte
	for i := range g.items {
		it := &g.items[i]
		if it.target <= -2 {
			// k groups ahead of this item's group, clamped to the exit group.
			gi := min(groupOf[i]+(-2-it.target), len(g.groups)-1)
			it.target = g.groups[gi]
		}
		if it.target >= 0 {
			off := int64(addr[it.target]) - int64(addr[i])
			if it.auipc >= 0 {
				off = int64(addr[it.target]) - int64(addr[it.auipc])
			}
			it.in.Imm = off + it.plus
			if it.c16 != 0 {
				it.c16 = encodeCBranch(it.c16, off)
			}
		}
		if it.c16 != 0 {
			got, err := isa.Decode(uint32(it.c16))
			if err != nil {
				return nil, fmt.Errorf("compressed %#04x: %v", it.c16, err)
			}
			if got.Op != it.in.Op || got.Rd != it.in.Rd || got.Rs1 != it.in.Rs1 || got.Rs2 != it.in.Rs2 || got.Imm != it.in.Imm {
				return nil, fmt.Errorf("compressed %#04x decodes as %v, want %v %d,%d,%d,%d", it.c16, got, it.in.Op, it.in.Rd, it.in.Rs1, it.in.Rs2, it.in.Imm)
			}
			code = binary.LittleEndian.AppendUint16(code, it.c16)
			continue
		}
		w, err := isa.Encode(it.in)
		if err != nil {
			return nil, err
		}
		code = binary.LittleEndian.AppendUint32(code, w)
	}
	return code, nil
}
