package cpu

import (
	"math"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/mem"
)

const (
	minI64 = uint64(1) << 63
	allOne = ^uint64(0)
)

// TestIntegerOps checks one instruction at a time: a1 and a2 are the
// operands, a0 the result (hand-computed from the ISA manual).
func TestIntegerOps(t *testing.T) {
	tests := []struct {
		desc   string
		inst   string
		a1, a2 uint64
		want   uint64
	}{
		{"add wraps", "add a0,a1,a2", allOne, 2, 1},
		{"sub", "sub a0,a1,a2", 1, 2, allOne},
		{"addi negative", "addi a0,a1,-5", 3, 0, allOne - 1},
		{"slt signed", "slt a0,a1,a2", allOne, 1, 1},
		{"sltu unsigned", "sltu a0,a1,a2", allOne, 1, 0},
		{"sltiu -1 is max", "sltiu a0,a1,-1", 5, 0, 1},
		{"sll uses 6 bits", "sll a0,a1,a2", 1, 65, 2},
		{"sra", "sra a0,a1,a2", minI64, 63, allOne},
		{"srl", "srl a0,a1,a2", minI64, 63, 1},
		{"srai", "srai a0,a1,4", 0xf000000000000000, 0, 0xff00000000000000},
		{"lui sign-extends", "lui a0,0x80000", 0, 0, 0xffffffff80000000},
		{"addiw sign-extends", "addiw a0,a1,1", 0x7fffffff, 0, 0xffffffff80000000},
		{"addw ignores upper", "addw a0,a1,a2", 0x1_0000_0001, 0x2_0000_0001, 2},
		{"subw", "subw a0,a1,a2", 0, 1, allOne},
		{"sllw 5 bits", "sllw a0,a1,a2", 1, 33, 2},
		{"srlw zero-extends source", "srlw a0,a1,a2", 0xffffffff_80000000, 31, 1},
		{"sraw", "sraw a0,a1,a2", 0x80000000, 31, allOne},
		{"sraiw", "sraiw a0,a1,1", 0x80000000, 0, 0xffffffffc0000000},
		{"srliw", "srliw a0,a1,1", 0x80000000, 0, 0x40000000},
		{"mul low", "mul a0,a1,a2", 3, allOne, allOne - 2},
		{"mulh signed", "mulh a0,a1,a2", allOne, allOne, 0},
		{"mulh min*min", "mulh a0,a1,a2", minI64, minI64, 1 << 62},
		{"mulhu", "mulhu a0,a1,a2", allOne, allOne, allOne - 1},
		{"mulhsu -1*max", "mulhsu a0,a1,a2", allOne, allOne, allOne},
		{"mulw", "mulw a0,a1,a2", 0x10000, 0x10000, 0},
		{"div by zero", "div a0,a1,a2", 7, 0, allOne},
		{"div overflow", "div a0,a1,a2", minI64, allOne, minI64},
		{"div truncates", "div a0,a1,a2", uint64(math.MaxUint64 - 6), 2, allOne - 2},
		{"divu by zero", "divu a0,a1,a2", 7, 0, allOne},
		{"rem by zero", "rem a0,a1,a2", 7, 0, 7},
		{"rem overflow", "rem a0,a1,a2", minI64, allOne, 0},
		{"rem sign of dividend", "rem a0,a1,a2", allOne - 6, 2, allOne},
		{"remu by zero", "remu a0,a1,a2", 7, 0, 7},
		{"divw by zero", "divw a0,a1,a2", 7, 0, allOne},
		{"divw overflow", "divw a0,a1,a2", 0x80000000, allOne, 0xffffffff80000000},
		{"divuw by zero", "divuw a0,a1,a2", 7, 0, allOne},
		{"divuw sign-extends", "divuw a0,a1,a2", 0xffffffff, 1, allOne},
		{"remw overflow", "remw a0,a1,a2", 0x80000000, allOne, 0},
		{"remw by zero", "remw a0,a1,a2", 0x1_80000000, 0, 0xffffffff80000000},
		{"remuw by zero", "remuw a0,a1,a2", 0x1_80000000, 0, 0xffffffff80000000},
		// Zba
		{"add.uw", "add.uw a0,a1,a2", 0xffffffff_ffffffff, 1, 0x1_0000_0000},
		{"sh1add", "sh1add a0,a1,a2", 3, 1, 7},
		{"sh2add", "sh2add a0,a1,a2", 3, 1, 13},
		{"sh3add", "sh3add a0,a1,a2", 3, 1, 25},
		{"sh3add.uw", "sh3add.uw a0,a1,a2", 0xf_0000_0001, 1, 9},
		{"slli.uw", "slli.uw a0,a1,4", 0xf_8000_0000, 0, 0x8_0000_0000},
		// Zbb
		{"andn", "andn a0,a1,a2", 0xff, 0x0f, 0xf0},
		{"orn", "orn a0,a1,a2", 0, allOne - 1, 1},
		{"xnor", "xnor a0,a1,a2", 0xff, 0x0f, ^uint64(0xf0)},
		{"clz of zero", "clz a0,a1", 0, 0, 64},
		{"clz", "clz a0,a1", 1, 0, 63},
		{"clzw", "clzw a0,a1", 0xffff_0000_0000_0001, 0, 31},
		{"clzw zero", "clzw a0,a1", 0xffff_0000_0000_0000, 0, 32},
		{"ctz", "ctz a0,a1", 8, 0, 3},
		{"ctzw zero", "ctzw a0,a1", 0x1_0000_0000, 0, 32},
		{"cpop", "cpop a0,a1", allOne, 0, 64},
		{"cpopw", "cpopw a0,a1", allOne, 0, 32},
		{"max", "max a0,a1,a2", allOne, 1, 1},
		{"maxu", "maxu a0,a1,a2", allOne, 1, allOne},
		{"min", "min a0,a1,a2", allOne, 1, allOne},
		{"minu", "minu a0,a1,a2", allOne, 1, 1},
		{"sext.b", "sext.b a0,a1", 0x80, 0, 0xffffffffffffff80},
		{"sext.h", "sext.h a0,a1", 0x8000, 0, 0xffffffffffff8000},
		{"zext.h", "zext.h a0,a1", allOne, 0, 0xffff},
		{"rol", "rol a0,a1,a2", minI64 | 1, 1, 3},
		{"ror", "ror a0,a1,a2", 3, 1, minI64 | 1},
		{"rori", "rori a0,a1,4", 0xf, 0, 0xf000000000000000},
		{"rolw", "rolw a0,a1,a2", 0x80000000, 1, 1},
		{"rorw sign-extends", "rorw a0,a1,a2", 1, 1, 0xffffffff80000000},
		{"roriw", "roriw a0,a1,1", 1, 0, 0xffffffff80000000},
		{"orc.b", "orc.b a0,a1", 0x0100_0000_0020_0003, 0, 0xff00_0000_00ff_00ff},
		{"rev8", "rev8 a0,a1", 0x0102030405060708, 0, 0x0807060504030201},
		// Zbs
		{"bclr", "bclr a0,a1,a2", allOne, 65, allOne - 2},
		{"bclri", "bclri a0,a1,63", allOne, 0, allOne >> 1},
		{"bext", "bext a0,a1,a2", 4, 2, 1},
		{"bexti", "bexti a0,a1,3", 4, 0, 0},
		{"binv", "binv a0,a1,a2", 0, 63, minI64},
		{"binvi", "binvi a0,a1,0", 1, 0, 0},
		{"bset", "bset a0,a1,a2", 0, 64, 1},
		{"bseti", "bseti a0,a1,5", 0, 0, 32},
		// Zbc (products in GF(2)[x], by hand: (x+1)^2 = x^2+1,
		// (x^2+x+1)(x+1) = x^3+1; all ones times x is 1 in the high
		// word and 0b11 at bits 64..63)
		{"clmul", "clmul a0,a1,a2", 3, 3, 5},
		{"clmul carries nothing", "clmul a0,a1,a2", 7, 3, 9},
		{"clmul low word", "clmul a0,a1,a2", allOne, 2, allOne - 1},
		{"clmulh", "clmulh a0,a1,a2", allOne, 2, 1},
		{"clmulh top", "clmulh a0,a1,a2", minI64, minI64, 1 << 62},
		{"clmulr", "clmulr a0,a1,a2", allOne, 2, 3},
		{"clmulr top", "clmulr a0,a1,a2", minI64, minI64, minI64},
		{"clmulr of 1", "clmulr a0,a1,a2", 1, 1, 0},
		// Zicond
		{"czero.eqz zero", "czero.eqz a0,a1,a2", 5, 0, 0},
		{"czero.eqz nonzero", "czero.eqz a0,a1,a2", 5, 7, 5},
		{"czero.nez zero", "czero.nez a0,a1,a2", 5, 0, 5},
		{"czero.nez nonzero", "czero.nez a0,a1,a2", 5, minI64, 0},
		// rd = rs2: the condition is the register's value before the write
		{"czero.eqz rd=rs2 zero", "czero.eqz a0,a1,a0", 14, 0, 0},  // (a0 is 0)
		{"czero.nez rd=rs2 zero", "czero.nez a0,a1,a0", 14, 3, 14}, // (a0 is 0)
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			c := runLines(t, func(c *CPU) { c.X[11], c.X[12] = tc.a1, tc.a2 }, tc.inst)
			assert.Equal(t, tc.want, c.X[10], "%s with a1=%#x a2=%#x", tc.inst, tc.a1, tc.a2)
		})
	}
}

func TestX0StaysZero(t *testing.T) {
	c := runLines(t, func(c *CPU) { c.X[11] = 5 }, "addi zero,a1,1", "add a0,zero,zero", "lui zero,1")
	assert.Zero(t, c.X[0])
	assert.Zero(t, c.X[10])
}

func TestLoadsAndStores(t *testing.T) {
	c := runLines(t, func(c *CPU) {
		c.X[11] = dataBase
		c.X[12] = 0x8182838485868788
	},
		"sd a2,0(a1)",
		"lb a0,0(a1)", "mv s2,a0",
		"lbu a0,0(a1)", "mv s3,a0",
		"lh a0,0(a1)", "mv s4,a0",
		"lhu a0,0(a1)", "mv s5,a0",
		"lw a0,4(a1)", "mv s6,a0",
		"lwu a0,4(a1)", "mv s7,a0",
		"sw a2,9(a1)", // misaligned store works
		"ld s8,9(a1)", // misaligned load works
		"addi a3,a1,2047", "addi a3,a3,2047",
		"sh a2,1(a3)", "lhu s9,1(a3)", // crossing a page boundary
	)
	assert.Equal(t, uint64(0xffffffffffffff88), c.X[18])
	assert.Equal(t, uint64(0x88), c.X[19])
	assert.Equal(t, uint64(0xffffffffffff8788), c.X[20])
	assert.Equal(t, uint64(0x8788), c.X[21])
	assert.Equal(t, uint64(0xffffffff81828384), c.X[22])
	assert.Equal(t, uint64(0x81828384), c.X[23])
	assert.Equal(t, uint64(0x85868788), c.X[24])
	assert.Equal(t, uint64(0x8788), c.X[25])
}

func TestControlFlow(t *testing.T) {
	c := newTestCPU(t, assemble(t,
		"beq a1,zero,.+8", // not taken
		"addi a0,a0,1",
		"bne a1,zero,.+8", // taken: skips the next
		"addi a0,a0,100",
		"jal ra,.+8", // skips the next, links
		"addi a0,a0,1000",
		"addi a0,a0,10",
	))
	c.X[11] = 1
	require.Equal(t, StopLimit, c.Run(5).Reason)
	assert.Equal(t, uint64(11), c.X[10])
	assert.Equal(t, uint64(codeBase+5*4), c.X[1], "jal links pc+4")
	assert.Equal(t, uint64(codeBase+7*4), c.PC)

	// jalr clears bit 0 and writes rd after reading rs1 (rd == rs1).
	c = runLines(t, func(c *CPU) { c.X[1] = codeBase + 9 }, "jalr ra,0(ra)")
	assert.Equal(t, uint64(codeBase+8), c.PC)
	assert.Equal(t, uint64(codeBase+4), c.X[1])
}

func TestCompressed(t *testing.T) {
	// c.li a0,5 ; c.addi a0,3 ; c.mv a1,a0 ; c.add a1,a0 ; c.slli a1,2
	code := []byte{0x15, 0x45, 0x0d, 0x05, 0xaa, 0x85, 0xaa, 0x95, 0x8a, 0x05}
	c := newTestCPU(t, code)
	exit := c.Run(5)
	require.Equal(t, StopLimit, exit.Reason)
	assert.Equal(t, uint64(8), c.X[10])
	assert.Equal(t, uint64(64), c.X[11])
	assert.Equal(t, uint64(codeBase+10), c.PC, "2-byte instructions advance pc by 2")
}

func TestAtomics(t *testing.T) {
	c := runLines(t, func(c *CPU) {
		c.X[11] = dataBase
		c.X[12] = 0xffffffff_80000001 // upper bits ignored by .w ops
		c.X[13] = 5
	},
		"sd a3,0(a1)",
		"amoadd.w a0,a2,(a1)", "mv s2,a0", // old 5; new 0x80000006
		"lw s3,0(a1)",
		"amomaxu.w a0,a3,(a1)", "lw s4,0(a1)", // unsigned max keeps 0x80000006
		"amomax.w a0,a3,(a1)", "lw s5,0(a1)", // signed max: 5
		"lr.d a0,(a1)", "sc.d s6,a2,(a1)", "ld s7,0(a1)", // succeeds
		"sc.d s8,a3,(a1)",                 // no reservation: fails
		"lr.w a0,(a1)", "sc.d s9,a3,(a1)", // reservation of another size: fails
		"amoswap.d s10,a3,(a1)",
		"amominu.d a0,a2,(a1)", "ld s11,0(a1)",
	)
	assert.Equal(t, uint64(5), c.X[18])
	assert.Equal(t, uint64(0xffffffff80000006), c.X[19])
	assert.Equal(t, uint64(0xffffffff80000006), c.X[20])
	assert.Equal(t, uint64(5), c.X[21])
	assert.Equal(t, uint64(0), c.X[22], "sc succeeds after lr")
	assert.Equal(t, uint64(0xffffffff_80000001), c.X[23])
	assert.Equal(t, uint64(1), c.X[24], "sc fails without a reservation")
	assert.Equal(t, uint64(1), c.X[25], "sc.d fails on an lr.w reservation")
	assert.Equal(t, uint64(0xffffffff_80000001), c.X[26])
	assert.Equal(t, uint64(5), c.X[27])
}

func TestMisalignedAtomicFaults(t *testing.T) {
	c := newTestCPU(t, assemble(t, "amoadd.w a0,a2,(a1)"))
	c.X[11] = dataBase + 2
	exit := c.Run(1)
	require.Equal(t, StopFault, exit.Reason)
	assert.Equal(t, uint64(CauseStoreMisaligned), exit.Fault.Cause)
	assert.Equal(t, uint64(dataBase+2), exit.Fault.Tval)
	sig, _ := exit.Fault.Signal()
	assert.Equal(t, 7, sig, "SIGBUS")
}

func TestFaults(t *testing.T) {
	tests := []struct {
		desc  string
		code  []byte
		cause uint64
		tval  uint64
		msg   string
		sig   int
	}{
		{"illegal custom-0", []byte{0x0b, 0, 0, 0}, CauseIllegalInst, 0x0b, "illegal instruction 0x0000000b at pc 0x10000", 4},
		{"all-zero halfword", []byte{0, 0, 0, 0}, CauseIllegalInst, 0, "illegal instruction 0x00000000 at pc 0x10000", 4},
		{"load from null", assemble(t, "ld a0,0(zero)"), CauseLoadAccess, 0, "segmentation fault: load from address 0x0 at pc 0x10000", 11},
		{"store to text", assemble(t, "sd a0,-16(zero)"), CauseStoreAccess, allOne - 15, "segmentation fault: store to address 0xfffffffffffffff0 at pc 0x10000", 11},
		{"ebreak", assemble(t, "ebreak"), CauseBreakpoint, codeBase, "breakpoint (ebreak) at pc 0x10000", 5},
		{"machine CSR from user mode", assemble(t, "csrr a0,mstatus"), CauseIllegalInst, 0x30002573, "illegal instruction 0x30002573 at pc 0x10000", 4},
		{"write read-only CSR", assemble(t, "csrw cycle,a0"), CauseIllegalInst, 0xc0051073, "illegal instruction 0xc0051073 at pc 0x10000", 4},
		{"mret in user mode", assemble(t, "mret"), CauseIllegalInst, 0x30200073, "illegal instruction 0x30200073 at pc 0x10000", 4},
		{"wfi in a Linux process (SIGILL, as Linux and qemu-user)", assemble(t, "wfi"), CauseIllegalInst, 0x10500073, "illegal instruction 0x10500073 at pc 0x10000", 4},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			c := newTestCPU(t, tc.code)
			exit := c.Run(10)
			require.Equal(t, StopFault, exit.Reason)
			assert.Equal(t, tc.cause, exit.Fault.Cause)
			assert.Equal(t, tc.tval, exit.Fault.Tval)
			assert.Equal(t, tc.msg, exit.Fault.Error())
			sig, _ := exit.Fault.Signal()
			assert.Equal(t, tc.sig, sig)
			assert.Equal(t, uint64(codeBase), c.PC, "the faulting instruction does not retire")
			assert.Zero(t, c.Instret)
		})
	}
	// Falling off the end of the mapped code faults on fetch.
	c := newTestCPU(t, nil)
	c.PC = codeBase + 4*mem.PageSize
	exit := c.Run(1)
	require.Equal(t, StopFault, exit.Reason)
	assert.Equal(t, uint64(CauseFetchAccess), exit.Fault.Cause)
}

func TestEcallStops(t *testing.T) {
	c := newTestCPU(t, assemble(t, "li a7,93", "ecall", "li a0,1"))
	exit := c.Run(100)
	require.Equal(t, StopEcall, exit.Reason)
	assert.Equal(t, uint64(codeBase+8), c.PC, "pc is past the ecall")
	assert.Equal(t, uint64(2), c.Instret)
	exit = c.Run(1)
	assert.Equal(t, StopLimit, exit.Reason)
	assert.Equal(t, uint64(1), c.X[10])
}

func TestSelfModifyingCode(t *testing.T) {
	// Run "addi a0,a0,1" twice through a loop, patching it to "addi a0,a0,16"
	// in between; the store must drop the predecoded copy.
	patched := assemble(t, "addi a0,a0,16")
	code := assemble(t,
		"addi a0,a0,1",     // 0: patched below
		"bnez s1,.+20",     // 4: second time round: done
		"li s1,1",          // 8
		"lw t0,0(a2)",      // 12: the new instruction word
		"sw t0,0(a1)",      // 16: patch slot 0
		"j .-20",           // 20: back to 0
		"addi zero,zero,0", // 24
	)
	c := newTestCPU(t, code)
	c.X[11] = codeBase
	c.X[12] = dataBase
	require.NoError(t, c.Mem.Poke(dataBase, patched))
	exit := c.Run(8)
	require.Equal(t, StopLimit, exit.Reason, exit.Fault.Error())
	assert.Equal(t, uint64(17), c.X[10])
	assert.Equal(t, uint64(codeBase+24), c.PC)
}

func TestCSRs(t *testing.T) {
	c := runLines(t, func(c *CPU) { c.X[11] = 0xff },
		"csrw fcsr,a1",       // fflags=0x1f, frm=7
		"csrr s2,fflags",     //
		"csrr s3,frm",        //
		"csrwi frm,2",        //
		"csrr s4,fcsr",       // 0x5f
		"csrrci s5,fflags,1", // reads 0x1f, clears NX
		"csrr s6,fflags",     //
		"rdinstret s7",       // 7 instructions retired before it
		"rdcycle s8",         // CPI 1 in functional mode
		"rdtime s9",
	)
	assert.Equal(t, uint64(0x1f), c.X[18])
	assert.Equal(t, uint64(7), c.X[19])
	assert.Equal(t, uint64(0x5f), c.X[20])
	assert.Equal(t, uint64(0x1f), c.X[21])
	assert.Equal(t, uint64(0x1e), c.X[22])
	assert.Equal(t, uint64(7), c.X[23])
	assert.Equal(t, uint64(8), c.X[24])
	assert.Equal(t, uint64(0), c.X[25], "time: 10 MHz timebase at a nominal 1 GHz")
}

func TestObserver(t *testing.T) {
	code := assemble(t,
		"li a0,3",
		"sd a0,8(a1)",
		"addi a0,a0,-1",
		"bnez a0,.-4",
		"ld a2,8(a1)",
	)
	c := newTestCPU(t, code)
	c.X[11] = dataBase
	rec := &recorder{}
	c.SetObserver(rec)
	exit := c.Run(100)
	require.Equal(t, StopFault, exit.Reason, "runs off into zeroed code")
	require.Len(t, rec.insts, 9)
	for i, r := range rec.insts {
		assert.Equal(t, uint64(i), r.Seq)
	}
	st := rec.insts[1]
	assert.Equal(t, uint64(dataBase+8), st.Addr)
	assert.Equal(t, uint8(8), st.Size)
	br := rec.insts[3]
	assert.True(t, br.Taken)
	assert.Equal(t, uint64(codeBase+8), br.NextPC)
	assert.False(t, rec.insts[7].Taken, "last bnez falls through")
	ld := rec.insts[8]
	assert.Equal(t, uint64(3), ld.Result)
	assert.Equal(t, uint64(dataBase+8), ld.Addr)
	assert.Equal(t, uint64(2), rec.insts[2].Result, "addi result")

	// The same program without an observer ends in the same state.
	c2 := newTestCPU(t, code)
	c2.X[11] = dataBase
	c2.Run(100)
	assert.Equal(t, c.X, c2.X)
	assert.Equal(t, c.Instret, c2.Instret)
}

func TestBareMetalTraps(t *testing.T) {
	// M-mode sets mtvec, drops to U-mode with mret, U-mode runs an ecall
	// and an illegal instruction; the handler counts traps in s0, records
	// mcause in s1/s2, skips the trapping instruction and returns.
	code := assemble(t,
		"auipc t0,0",        // 0
		"addi t0,t0,68",     // 4: handler at 68
		"csrw mtvec,t0",     // 8
		"auipc t1,0",        // 12
		"addi t1,t1,36",     // 16: user code at 48
		"csrw mepc,t1",      // 20
		"lui t2,2",          // 24
		"addi t2,t2,-2048",  // 28: 0x1800
		"csrc mstatus,t2",   // 32: MPP = U
		"mret",              // 36
		"nop",               // 40
		"nop",               // 44
		"ecall",             // 48: user code
		".4byte 0x0000000b", // 52: illegal
		"csrr a0,mscratch",  // 56: illegal from U-mode
		"ebreak",            // 60
		"j .",               // 64: user code ends here
		"addi s0,s0,1",      // 68: handler
		"csrr t3,mcause",    // 68
		"slli s1,s1,4",      // 72
		"or s1,s1,t3",       // 76
		"csrr t4,mepc",      // 80
		"addi t4,t4,4",      // 84
		"csrw mepc,t4",      // 88
		"csrr s2,mtval",     // 92
		"csrr s3,mstatus",   // 96
		"mret",              // 100
	)
	c := newTestCPU(t, code)
	c.EnterBareMetal()
	c.CountMix = true
	traced := newTestCPU(t, code)
	traced.EnterBareMetal()
	traced.CountMix = true
	traced.SetObserver(&recorder{})
	traced.Run(10 + 4 + 4*10 + 6)
	exit := c.Run(10 + 4 + 4*10 + 6) // setup, traps, handler runs, spins
	assert.Equal(t, traced.ClassMix(), c.ClassMix(), "class mix per block and per instruction")
	assert.Equal(t, traced.Instret, c.Instret)
	require.Equal(t, StopLimit, exit.Reason, exit.Fault.Error())
	assert.Equal(t, uint64(4), c.X[8], "four traps taken")
	assert.Equal(t, uint64(0x8223), c.X[9], "causes: ecall-from-U, illegal, illegal, breakpoint")
	assert.Equal(t, uint64(codeBase+60), c.X[18], "ebreak's mtval is its pc")
	assert.Equal(t, uint64(0), c.X[19]&mstatusMPP, "MPP records U-mode")
	assert.Equal(t, PrivU, c.Priv, "mret returned to U-mode")
}

func TestFloatingPoint(t *testing.T) {
	one, two := math.Float64bits(1), math.Float64bits(2)
	c := runLines(t, func(c *CPU) {
		c.F[1], c.F[2] = one, two
		c.X[11] = 0x3f800000 // 1.0f
	},
		"fadd.d f3,f1,f2",   // 3.0
		"fdiv.d f4,f1,f0",   // 1/0 = inf, DZ
		"fmv.w.x f5,a1",     // boxed 1.0f
		"fadd.s f6,f5,f5",   // 2.0f
		"fadd.s f7,f1,f5",   // f1 is not NaN-boxed: canonical NaN result
		"fcvt.wu.d a0,f2",   // 2
		"fcvt.w.d a2,f4",    // +inf saturates, NV
		"fsgnjn.d f8,f1,f1", // -1.0
		"fmv.x.w a3,f5",     // sign-extends the low word
		"fclass.d a4,f4",    // +inf: bit 7
		"frflags a5",        //
	)
	assert.Equal(t, math.Float64bits(3), c.F[3])
	assert.Equal(t, math.Float64bits(math.Inf(1)), c.F[4])
	assert.Equal(t, uint64(0xffffffff3f800000), c.F[5])
	assert.Equal(t, uint64(0xffffffff40000000), c.F[6])
	assert.Equal(t, uint64(0xffffffff7fc00000), c.F[7])
	assert.Equal(t, uint64(2), c.X[10])
	assert.Equal(t, uint64(0x7fffffff), c.X[12])
	assert.Equal(t, math.Float64bits(-1), c.F[8])
	assert.Equal(t, uint64(0x3f800000), c.X[13])
	assert.Equal(t, uint64(1<<7), c.X[14])
	assert.Equal(t, uint64(0x10|0x08), c.X[15], "NV and DZ accrued")

	// fcvt.wu of a value with bit 31 set sign-extends the 32-bit result.
	c = runLines(t, func(c *CPU) { c.F[1] = math.Float64bits(3e9) }, "fcvt.wu.d a0,f1")
	assert.Equal(t, uint64(0xffffffff_b2d05e00), c.X[10])
}

func TestInvalidDynamicRoundingMode(t *testing.T) {
	c := newTestCPU(t, assemble(t, "fsrmi 5", "fadd.d f1,f1,f1", "nop"))
	exit := c.Run(3)
	require.Equal(t, StopFault, exit.Reason)
	assert.Equal(t, uint64(CauseIllegalInst), exit.Fault.Cause)
	assert.Equal(t, uint64(codeBase+4), exit.Fault.PC)
	// A static rounding mode is still legal with an invalid frm.
	c = newTestCPU(t, assemble(t, "fsrmi 5", "fadd.d f1,f1,f1,rne"))
	assert.Equal(t, StopLimit, c.Run(2).Reason)
}

func TestFPDisabled(t *testing.T) {
	c := newTestCPU(t, assemble(t, "lui t0,6", "csrc mstatus,t0", "fadd.d f1,f1,f1"))
	c.EnterBareMetal()
	c.csr.m.tvec = codeBase + 0x100
	exit := c.Run(3)
	require.Equal(t, StopLimit, exit.Reason)
	assert.Equal(t, uint64(CauseIllegalInst), c.csr.m.cause, "FP op with mstatus.FS=Off traps")
	assert.Equal(t, uint64(codeBase+0x100), c.PC)
	assert.Equal(t, uint64(2), c.Instret)
	assert.Equal(t, uint64(1), c.Traps, "the trap used up the last of the budget")
}

func TestPredecodeEntryIs16Bytes(t *testing.T) {
	// codePage.slot relies on the size; the loop relies on it for speed.
	assert.Equal(t, uintptr(16), unsafe.Sizeof(decoded{}))
}

// A conditional branch does not end its predecode block, so a taken branch
// leaves a block early and an instruction budget can end inside a block
// whose branches fell through. Instruction counts, rdinstret and the stop
// pc must match a traced (one-at-a-time) run for every budget size.
func TestBranchesInsideBlocks(t *testing.T) {
	code := assemble(t,
		"li a0,5",
		"li a1,0",
		"addi a1,a1,1",   // loop:
		"andi a2,a1,1",   //
		"beqz a2,.+12",   // taken on even a1: skips two
		"addi a3,a3,1",   //
		"rdinstret a4",   // instret mid-block, after a fall-through
		"addi a0,a0,-1",  //
		"bnez a0,.-24",   // back to loop
		"bltu a0,a1,.+8", // taken
		"addi a5,a5,1",   // skipped
		"bgeu a0,a1,.+8", // falls through
		"ld a6,0(zero)",  // faults after two branches in its block
	)
	run := func(chunk uint64, traced bool) (pcs []uint64, c *CPU) {
		c = newTestCPU(t, code)
		if traced {
			c.SetObserver(&recorder{})
		}
		for i := 0; i < 100; i++ {
			exit := c.Run(chunk)
			pcs = append(pcs, c.PC, c.Instret, c.X[14])
			if exit.Reason == StopFault {
				return pcs, c
			}
			require.Equal(t, StopLimit, exit.Reason)
		}
		t.Fatalf("chunk %d: no fault", chunk)
		return nil, nil
	}
	for chunk := uint64(1); chunk <= 40; chunk++ {
		want, cw := run(chunk, true)
		got, cg := run(chunk, false)
		require.Equal(t, want, got, "chunk %d", chunk)
		require.Equal(t, cw.X, cg.X, "chunk %d", chunk)
	}
	_, c := run(1000, false)
	assert.Equal(t, uint64(codeBase+48), c.PC, "stops at the faulting load")
	assert.Equal(t, uint64(2+3*7+2*5+2), c.Instret, "the faulting load does not retire")
	assert.Equal(t, uint64(3), c.X[13], "odd a1 iterations")
	assert.Equal(t, uint64(0), c.X[15], "taken bltu skipped it")
}

// TestWFIBareMetal: on the bare-metal hart (no interrupt sources) wfi is a
// nop in M-mode and in U-mode unless mstatus.TW makes it trap; in a Linux
// process it is illegal (TestFaults).
func TestWFIBareMetal(t *testing.T) {
	tests := []struct {
		desc  string
		priv  Priv
		tw    bool
		fault bool
	}{
		{"M-mode", PrivM, false, false},
		{"M-mode with TW (TW does not apply to M)", PrivM, true, false},
		{"U-mode", PrivU, false, false},
		{"U-mode with TW", PrivU, true, true},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			c := newTestCPU(t, assemble(t, "wfi", "addi a0,zero,7", "j .", "addi a1,zero,9", "j ."))
			c.EnterBareMetal()
			c.Priv = tc.priv
			if tc.tw {
				c.csr.mstatus |= mstatusTW
			}
			c.csr.m.tvec = codeBase + 12 // the handler sets a1
			c.Run(3)
			if tc.fault {
				assert.Equal(t, uint64(9), c.X[11], "the trap handler ran")
				assert.Zero(t, c.X[10])
				assert.Equal(t, uint64(CauseIllegalInst), c.csr.m.cause)
				assert.Equal(t, uint64(codeBase), c.csr.m.epc)
				return
			}
			assert.Equal(t, uint64(7), c.X[10], "wfi retired as a nop")
			assert.Zero(t, c.X[11], "no trap")
		})
	}
}
