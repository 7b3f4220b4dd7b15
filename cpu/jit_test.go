package cpu

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runPatching runs a self-patching program to its ecall, with a1 at the
// code and a2 at the patch (in the data page): with the translator and
// settings jt, or interpreted if jt is nil.
func runPatching(t *testing.T, code, patch []byte, jt *JITTest) *CPU {
	t.Helper()
	c := newTestCPU(t, code)
	c.SetJIT(jt != nil)
	c.SetJITTest(jt)
	c.X[11], c.X[12] = codeBase, dataBase
	require.NoError(t, c.Mem.Poke(dataBase, patch))
	exit := c.Run(100000)
	require.Equal(t, StopEcall, exit.Reason, exit.Fault.Error())
	return c
}

// A translated loop body is patched by a store and run again: the store
// (a TLB miss in translated code, since code pages are watched) runs in
// the interpreter, drops the page's predecode and translations, and the
// loop runs the new instruction, retranslated.
func TestJITSelfModifyingCode(t *testing.T) {
	patched := assemble(t, "addi a0,a0,16")
	code := assemble(t,
		"addi s2,zero,50", // 0
		"addi a0,a0,1",    // 4: loop; patched below
		"addi s2,s2,-1",   // 8
		"bnez s2,.-8",     // 12: back to 4
		"bnez s1,.+24",    // 16: second time round: done (40)
		"addi s1,zero,1",  // 20
		"lw t0,0(a2)",     // 24: the new instruction word
		"sw t0,4(a1)",     // 28: patch slot 4
		"addi s2,zero,50", // 32
		"j .-32",          // 36: back to 4
		"ecall",           // 40
	)
	c, ref := runPatching(t, code, patched, &JITTest{Hot: 2}), runPatching(t, code, patched, nil)
	assert.Equal(t, uint64(50+50*16), c.X[10])
	assert.Equal(t, ref.X, c.X)
	assert.Equal(t, ref.Instret, c.Instret)
	assert.Equal(t, ref.PC, c.PC)
	if jitSupported {
		st := c.JITStats()
		assert.GreaterOrEqual(t, st.Blocks, uint64(2), "the loop is translated before and after the patch")
		assert.Greater(t, st.Retired, uint64(80))
	}
}

// Run's budget is exact with translated code: any limit stops at the same
// instruction, with the same state, as the interpreter.
func TestJITExactBudget(t *testing.T) {
	code := assemble(t,
		"addi s2,zero,40", // 0
		"addi a0,a0,3",    // 4: loop
		"sd a0,0(a1)",     // 8
		"ld a3,0(a1)",     // 12
		"add a4,a4,a3",    // 16
		"addi s2,s2,-1",   // 20
		"bnez s2,.-20",    // 24: back to 4
		"ecall",           // 28
	)
	for limit := uint64(1); limit < 250; limit += 7 {
		run := func(jit bool) *CPU {
			c := newTestCPU(t, code)
			c.SetJIT(jit)
			c.SetJITTest(&JITTest{Hot: 1, AnyPart: true})
			c.X[11] = dataBase
			for c.Instret < 400 {
				if exit := c.Run(limit); exit.Reason != StopLimit {
					break
				}
			}
			return c
		}
		c, ref := run(true), run(false)
		require.Equal(t, ref.X, c.X, "limit %d", limit)
		require.Equal(t, ref.Instret, c.Instret, "limit %d", limit)
		require.Equal(t, ref.PC, c.PC, "limit %d", limit)
		if jitSupported && limit > 10 {
			require.NotZero(t, c.JITStats().Retired, "limit %d", limit)
		}
	}
}

// Every translated ALU op against the interpreter, on edge operands
// (zero, ±1, the extremes, 32-bit boundaries) and random ones: each op
// runs in a loop whose second round is translated.
func TestJITOpsAgainstInterpreter(t *testing.T) {
	ops := []string{
		"add", "sub", "xor", "or", "and", "slt", "sltu", "sll", "srl", "sra",
		"addw", "subw", "sllw", "srlw", "sraw",
		"mul", "mulw", "mulh", "mulhu",
		"div", "divu", "rem", "remu", "divw", "divuw", "remw", "remuw",
		// Zba, Zbb, Zbs, Zicond (jitBitmanip)
		"add.uw", "sh1add", "sh2add", "sh3add", "sh1add.uw", "sh2add.uw", "sh3add.uw",
		"andn", "orn", "xnor", "min", "max", "minu", "maxu", "rol", "ror", "rolw", "rorw",
		"bset", "bclr", "binv", "bext", "czero.eqz", "czero.nez",
	}
	imms := []string{
		"addi a3,a1,-2048", "addi a3,a1,2047", "xori a3,a1,-1", "ori a3,a1,1365", "andi a3,a1,-16",
		"slti a3,a1,-5", "sltiu a3,a1,-5", "sltiu a3,a1,7", "slli a3,a1,63", "srli a3,a1,1", "srai a3,a1,33",
		"addiw a3,a1,-1", "slliw a3,a1,31", "srliw a3,a1,0", "sraiw a3,a1,7",
		"lui a3,0xfffff", "auipc a3,0x80000",
		"slli.uw a3,a1,0", "slli.uw a3,a1,5", "slli.uw a3,a1,63", "sext.b a3,a1", "sext.h a3,a1", "zext.h a3,a1",
		"rori a3,a1,0", "rori a3,a1,13", "rori a3,a1,63", "roriw a3,a1,0", "roriw a3,a1,31", "rev8 a3,a1",
		"bseti a3,a1,0", "bseti a3,a1,31", "bseti a3,a1,63", "bclri a3,a1,32", "bclri a3,a1,63",
		"binvi a3,a1,7", "binvi a3,a1,63", "bexti a3,a1,0", "bexti a3,a1,63",
		"clz a3,a1", "clzw a3,a1", "ctz a3,a1", "ctzw a3,a1", "cpop a3,a1", "cpopw a3,a1", "orc.b a3,a1",
		// rd = rs2: czero tests rs2 before its write
		"czero.eqz a2,a1,a2", "czero.nez a2,a1,a2", "czero.eqz a3,a1,a1",
	}
	vals := []uint64{0, 1, 2, ^uint64(0), ^uint64(1), 1 << 63, 1<<63 - 1, 1 << 31, 1<<31 - 1, 0xffffffff, 0xffffffff80000000, 0x123456789abcdef0, 7, 64, 33}
	r := uint64(0x9e3779b97f4a7c15)
	for range 10 {
		r = r*6364136223846793005 + 1442695040888963407
		vals = append(vals, r)
	}
	var lines []string
	for _, op := range ops {
		lines = append(lines, op+" a3,a1,a2")
	}
	lines = append(lines, imms...)
	for _, line := range lines {
		code := assemble(t, line, "addi s2,s2,-1", "bnez s2,.-8", "ecall")
		c, ref := newTestCPU(t, code), newTestCPU(t, code)
		c.SetJIT(true)
		c.SetJITTest(&JITTest{Hot: 1, AnyPart: true})
		for _, x := range vals {
			for _, y := range vals {
				for _, h := range []*CPU{c, ref} {
					h.PC, h.X[11], h.X[12], h.X[18] = codeBase, x, y, 3
					exit := h.Run(100)
					require.Equal(t, StopEcall, exit.Reason)
				}
				for r := 1; r < 32; r++ { // (a3 is the result, but for rd = rs2 lines a2)
					if c.X[r] != ref.X[r] {
						t.Fatalf("%s with a1=%#x a2=%#x: x%d = %#x, want %#x", line, x, y, r, c.X[r], ref.X[r])
					}
				}
				if jitSupported && c.JITStats().Retired == 0 && (jitPopcnt || !strings.HasPrefix(line, "cpop")) {
					t.Fatalf("%s: not translated", line)
				}
			}
		}
	}
}

// A loop body reached by chaining from another translation is patched:
// dropping the page must drop the chaining table's entry too, or the
// outer loop's translation would jump to the stale one.
func TestJITSelfModifyingChained(t *testing.T) {
	patched := assemble(t, "addi a0,a0,16")
	code := assemble(t,
		"addi s3,zero,40", // 0: outer count
		"addi s2,zero,2",  // 4: outer loop: inner count
		"addi a0,a0,1",    // 8: inner loop; patched below
		"addi s2,s2,-1",   // 12
		"bnez s2,.-8",     // 16: back to 8
		"addi s3,s3,-1",   // 20
		"addi t1,zero,20", // 24
		"bne s3,t1,.+12",  // 28: patch only when s3 reaches 20
		"lw t0,0(a2)",     // 32: the new instruction word
		"sw t0,8(a1)",     // 36: patch slot 8
		"bnez s3,.-36",    // 40: back to 4
		"ecall",           // 44
	)
	c, ref := runPatching(t, code, patched, &JITTest{Hot: 2, AnyPart: true}), runPatching(t, code, patched, nil)
	assert.Equal(t, uint64(20*2+20*2*16), c.X[10])
	assert.Equal(t, ref.X, c.X)
	assert.Equal(t, ref.Instret, c.Instret)
	if jitSupported {
		assert.Greater(t, c.JITStats().Retired, c.Instret/2)
	}
}

// jitFPOperands are pairs of doubles for TestJITDoubleOps: exact and
// inexact results, zeros of both signs, subnormal, tiny and huge operands
// and results at the edges of the fast paths' ranges, infinities, quiet
// and signalling NaNs, and random bit patterns over every exponent.
func jitFPOperands() [][2]uint64 {
	f := math.Float64bits
	pairs := [][2]uint64{
		{f(1), f(2)}, {f(1), f(3)}, {f(0.1), f(0.2)}, {f(1.5), f(1.5)}, {f(3), f(1.5)}, {f(-2.5), f(0.5)},
		{f(1e308), f(1e308)}, {f(-1e308), f(1e308)}, {f(2.2250738585072014e-308), f(0.5)}, {f(5e-324), f(1)},
		{0, 1 << 63}, {1 << 63, 1 << 63}, {0, f(1)}, {f(1), 0}, {0, 0},
		{f(math.Inf(1)), f(1)}, {f(math.Inf(1)), f(math.Inf(1))}, {f(math.Inf(-1)), f(math.Inf(1))},
		{0x7ff8000000000000, f(1)}, {f(1), 0x7ff0000000000001}, {0xfff8000000000000, 0x7ff8000000000000},
		{f(1 + 0x1p-52), f(1 - 0x1p-53)}, {f(1 + 0x1p-52), f(1 + 0x1p-52)}, {f(0x1p-959), f(1)}, {f(0x1p-960), f(1)},
		{f(0x1p-959), f(0x1p-1)}, {f(0x1p1023), f(2)}, {f(0x1p1023), f(0.5)}, {f(0x1p-500), f(0x1p-459)}, {f(0x1p-500), f(0x1p-460)},
		{f(7), f(7)}, {f(-7), f(7)}, {f(1), f(math.Nextafter(1, 2))},
		// Zeros times finite numbers, infinities, NaNs and subnormals.
		{1 << 63, f(-3)}, {f(-2), 0}, {f(0x1p1000), 1 << 63}, {0, f(math.Inf(1))}, {f(math.Inf(-1)), 1 << 63},
		{0, 0x7ff8000000000001}, {0xfff0000000000001, 0}, {1 << 63, 1}, {0x800fffffffffffff, 0},
		// Conversions: doubles at and beyond the integer ranges, and
		// integers (the first word, read as one) beyond 2^53.
		{f(0x1p31 - 0.5), 0}, {f(-0x1p31), 0}, {f(-0x1p31 - 1), 0}, {f(0x1p31), 0}, {f(1e10), 0}, {f(-0.5), 0},
		{f(0x1p63), 0}, {f(-0x1p63), 0}, {f(0x1p63 - 1024), 0}, {1 << 63, 0}, {f(2.5), 0}, {f(-2.5), 0},
		{0, 0}, {^uint64(0), 0}, {1<<53 + 1, 0}, {1<<63 - 1, 0}, {0xffffffff80000000, 0}, {0x7fffffff, 0}, {1 << 62, 0},
		// Square roots: exact (a square) and not, at the range's edges.
		{f(4), 0}, {f(2), 0}, {f(0x1p-958), 0}, {f(0x1p-959), 0}, {f(0x1.fffffffffffffp1023), 0}, {f(-4), 0}, {f(9 * 0x1p-900), 0},
		// A quotient z whose product with the divisor has the low half
		// 1<<63: only the carry into the high half tells it is inexact.
		{f(1 + 0x1p-11 + 0x1p-52), f(1 + 0x1p-52)},
		{f(5e-324), f(0x1p-1060)}, {f(0x1p-1000), f(0x1p-1000)}, {f(0x1.8p-1000), f(0x1p-990)}, {f(0x1p-900), f(5e-324)}, {f(0x1.8p-900), f(0x3p-1074)}, {f(5e-324), f(0x1p200)}, {f(0x1.8p300), f(0x3p-1074)}, {f(0x3p-1074), f(0x1.8p300)},
	}
	r := rand.New(rand.NewPCG(1, 2))
	for len(pairs) < 240 {
		var p [2]uint64
		for i := range p {
			switch r.IntN(3) {
			case 0: // any bits
				p[i] = r.Uint64()
			default: // a moderate exponent, so that most results are in range
				p[i] = r.Uint64()&(1<<63|1<<52-1) | uint64(1023-40+r.IntN(80))<<52
			}
		}
		if r.IntN(8) == 0 { // equal operands for the comparisons
			p[1] = p[0]
		}
		pairs = append(pairs, p)
	}
	return pairs
}

// The translated double-precision operations give the interpreter's
// results and fflags (cleared before each operation and read after it)
// for every operand pair of jitFPOperands (the first word also as an
// integer, for the conversions from integers), under every rounding
// setting: the translation's mode static and dynamic, and others, which
// the translator leaves to the interpreter.
func TestJITDoubleOps(t *testing.T) {
	pairs := jitFPOperands()
	data := make([]byte, 0, 32*len(pairs))
	for _, p := range pairs {
		data = binary.LittleEndian.AppendUint64(data, p[0])
		data = binary.LittleEndian.AppendUint64(data, p[1])
		data = append(data, make([]byte, 16)...)
	}
	type variant struct {
		rm  string // the rounding-mode operand ("": dynamic)
		frm int
	}
	rne := []variant{{",rne", 2}, {"", 0}, {"", 1}, {"", 3}, {",rtz", 0}}
	rtz := []variant{{",rtz", 0}, {"", 1}, {"", 0}, {",rne", 1}, {",rup", 1}}
	for _, c := range []struct {
		inst, store string
		variants    []variant // the first two are the translation's mode, static and dynamic
	}{
		{"fadd.d f3,f1,f2", "fsd f3,16(a2)", rne}, {"fsub.d f3,f1,f2", "fsd f3,16(a2)", rne},
		{"fmul.d f3,f1,f2", "fsd f3,16(a2)", rne}, {"fdiv.d f3,f1,f2", "fsd f3,16(a2)", rne},
		{"fsqrt.d f3,f1", "fsd f3,16(a2)", rne}, {"fcvt.d.l f3,a0", "fsd f3,16(a2)", rne},
		{"fcvt.w.d a1,f1", "sd a1,16(a2)", rtz}, {"fcvt.l.d a1,f1", "sd a1,16(a2)", rtz},
		{"fcvt.d.w f3,a0", "fsd f3,16(a2)", []variant{{"", 0}, {"", 3}}},
		{"feq.d a1,f1,f2", "sd a1,16(a2)", nil}, {"flt.d a1,f1,f2", "sd a1,16(a2)", nil}, {"fle.d a1,f1,f2", "sd a1,16(a2)", nil},
		{"fsgnj.d f3,f1,f2", "fsd f3,16(a2)", nil}, {"fsgnjn.d f3,f1,f2", "fsd f3,16(a2)", nil}, {"fsgnjx.d f3,f1,f2", "fsd f3,16(a2)", nil},
	} {
		variants := c.variants
		if variants == nil {
			variants = []variant{{"", 0}}
		}
		for vi, v := range variants {
			inst := c.inst + v.rm
			code := assemble(t,
				"fsrmi "+strconv.Itoa(v.frm), // 0
				"fsflags zero",               // 4: loop
				"j .+4",                      // 8: (ends the block)
				"fld f1,0(a2)",               // 12: the translated part
				"fld f2,8(a2)",               // 16
				"ld a0,0(a2)",                // 20
				inst,                         // 24
				c.store,                      // 28
				"fsgnj.s f4,f4,f4",           // 32: (single precision: not translated)
				"frflags t0",                 // 36
				"sd t0,24(a2)",               // 40
				"addi a2,a2,32",              // 44
				"addi s2,s2,-1",              // 48
				"bnez s2,.-48",               // 52: back to 4
				"ecall",                      // 56
			)
			jc, got := runOnData(t, code, data, uint64(len(pairs)), nil, &JITTest{Hot: 1, AnyPart: true})
			ref, want := runOnData(t, code, data, uint64(len(pairs)), nil, nil)
			for i := range pairs {
				g, w := got[32*i+16:32*i+32], want[32*i+16:32*i+32]
				if !bytes.Equal(g, w) {
					t.Errorf("%s (frm %d) of %#x, %#x: result %#x fflags %#x, want %#x fflags %#x", inst, v.frm, pairs[i][0], pairs[i][1],
						binary.LittleEndian.Uint64(g), binary.LittleEndian.Uint64(g[8:]), binary.LittleEndian.Uint64(w), binary.LittleEndian.Uint64(w[8:]))
				}
			}
			assert.Equal(t, ref.X, jc.X, inst)
			assert.Equal(t, ref.F, jc.F, inst)
			assert.Equal(t, ref.Instret, jc.Instret, inst)
			if jitSupported {
				// The loop's head (fsflags, j) and the three loads always
				// run translated; the operation and its store too in the
				// translation's rounding mode, for many operands, and never
				// in another mode.
				n := jc.JITStats().Retired
				if vi < 2 {
					// (The first starts are interpreted; a square root of a
					// negative number, half the random operands, misses.)
					assert.GreaterOrEqual(t, n, uint64(5*(len(pairs)-2)+2*len(pairs)/4), "%s (frm %d): not translated", inst, v.frm)
				} else {
					assert.LessOrEqual(t, n, uint64(5*len(pairs)), "%s (frm %d): translated in another rounding mode", inst, v.frm)
				}
			}
		}
	}
}

// A loop that runs mostly interpreted (fused multiply-adds, which the
// translator leaves to the interpreter, after a translated prefix) makes
// the translator pause, and the state stays the interpreter's.
func TestJITPauses(t *testing.T) {
	lines := []string{}
	for range 8 {
		lines = append(lines, "addi a0,a0,1") // the translated prefix
	}
	for range 24 {
		lines = append(lines, "fmadd.d f1,f1,f2,f3")
	}
	lines = append(lines, "addi s2,s2,-1", "bnez s2,.-132", "ecall")
	code := assemble(t, lines...)
	run := func(jt *JITTest) *CPU {
		c := newTestCPU(t, code)
		c.SetJIT(jt != nil)
		c.SetJITTest(jt)
		c.X[18] = 2000
		c.F[1], c.F[2], c.F[3] = math.Float64bits(1), math.Float64bits(0.999), math.Float64bits(0.5)
		exit := c.Run(1 << 20)
		require.Equal(t, StopEcall, exit.Reason, exit.Fault.Error())
		return c
	}
	c, ref := run(&JITTest{Window: 1 << 12}), run(nil)
	assert.Equal(t, uint64(8*2000), c.X[10])
	assert.Equal(t, ref.X, c.X)
	assert.Equal(t, ref.F, c.F)
	assert.Equal(t, ref.FFlags(), c.FFlags())
	assert.Equal(t, ref.Instret, c.Instret)
	if jitSupported {
		st := c.JITStats()
		assert.NotZero(t, st.Retired, "nothing ran translated")
		assert.NotZero(t, st.Pauses, "the translator never paused")
	}
}

// The translated accesses to fflags, frm and fcsr give the interpreter's
// registers and flags, with values from random words (bits above the
// fifth too), frm written (by the interpreter: a write ends the block) and
// an FP operation that raises NX between them.
func TestJITFPCSRs(t *testing.T) {
	const iters = 60
	r := rand.New(rand.NewPCG(3, 4))
	data := make([]byte, 0, 64*iters)
	for range iters {
		data = binary.LittleEndian.AppendUint64(data, r.Uint64())
		data = append(data, make([]byte, 56)...)
	}
	for frm := range 5 {
		code := assemble(t,
			"fsrmi "+strconv.Itoa(frm), // 0
			"ld a0,0(a2)",              // 4: loop
			"andi t6,a0,3",             // 8: (a valid frm: no flush of the code)
			"fsrm t5,t6",               // 12: (an frm write ends the block)
			"fsflags a1,a0",            // 16
			"frflags a3",               // 20
			"csrrs a4,fflags,t3",       // 24
			"csrrc a5,fflags,a0",       // 28
			"csrrsi a6,fflags,5",       // 32
			"csrrci a7,fflags,3",       // 36
			"frrm t1",                  // 40
			"frcsr t2",                 // 44
			"fadd.d f3,f1,f2,rne",      // 48: inexact
			"csrrs t3,fflags,zero",     // 52
			"sd a1,8(a2)",              // 56
			"sd a3,16(a2)",             // 60
			"sd a4,24(a2)",             // 64
			"sd a5,32(a2)",             // 68
			"sd a6,40(a2)",             // 72
			"sd a7,48(a2)",             // 76
			"add t1,t1,t2",             // 80
			"add t1,t1,t3",             // 84
			"sd t1,56(a2)",             // 88
			"addi a2,a2,64",            // 92
			"addi s2,s2,-1",            // 96
			"bnez s2,.-96",             // 100: back to 4
			"ecall",                    // 104
		)
		setF := func(c *CPU) { c.F[1], c.F[2] = math.Float64bits(0.1), math.Float64bits(0.2) }
		jc, got := runOnData(t, code, data, iters, setF, &JITTest{Hot: 1, AnyPart: true})
		ref, want := runOnData(t, code, data, iters, setF, nil)
		assert.Equal(t, want, got, "frm %d", frm)
		assert.Equal(t, ref.X, jc.X, "frm %d", frm)
		assert.Equal(t, ref.FFlags(), jc.FFlags(), "frm %d", frm)
		assert.Equal(t, ref.FRM(), jc.FRM(), "frm %d", frm)
		assert.Equal(t, ref.Instret, jc.Instret, "frm %d", frm)
		if jitSupported {
			assert.GreaterOrEqual(t, jc.JITStats().Retired, uint64(19*(iters-2)), "frm %d: not translated", frm)
		}
	}
}

// runOnData runs code to its ecall with data at dataBase (a2 points to
// it, s2 is iters), after setup if not nil: with the translator and
// settings jt, or interpreted if jt is nil. It returns the hart and the
// data as the run left it.
func runOnData(t *testing.T, code, data []byte, iters uint64, setup func(*CPU), jt *JITTest) (*CPU, []byte) {
	t.Helper()
	c := newTestCPU(t, code)
	c.SetJIT(jt != nil)
	c.SetJITTest(jt)
	c.X[12], c.X[18] = dataBase, iters
	if setup != nil {
		setup(c)
	}
	require.NoError(t, c.Mem.Poke(dataBase, data))
	exit := c.Run(1 << 20)
	require.Equal(t, StopEcall, exit.Reason, exit.Fault.Error())
	out := make([]byte, len(data))
	require.NoError(t, c.Mem.Peek(dataBase, out))
	return c, out
}

// A long straight run of code entered at many points is translated in
// pieces of at most jitMaxLen instructions: each entry's translation
// would otherwise run to the end of the block, so the code translated
// would grow with the square of its length (Go's compiler lays out long
// functions this way: a program of net/http spent 90% of its time
// translating, and filled the code buffer 54 times). A loop jumps into
// a 512-instruction block at eight points, 64 instructions apart.
func TestJITLongBlockInPieces(t *testing.T) {
	lines := []string{
		"addi s2,zero,200", // 0
		"auipc s3,0",       // 4
		"addi s3,s3,28",    // 8: s3 = 32, the block
		"andi t0,s2,7",     // 12: loop
		"slli t0,t0,8",     // 16: 64 instructions a step
		"add t0,t0,s3",     // 20
		"jalr zero,0(t0)",  // 24
		"addi zero,zero,0", // 28
	}
	for range 512 {
		lines = append(lines, "addi a0,a0,1") // 32: the block
	}
	lines = append(lines, "addi s2,s2,-1", "bnez s2,.-2072", "ecall") // back to 12
	code := assemble(t, lines...)
	run := func(jt *JITTest) *CPU {
		c := newTestCPU(t, code)
		c.SetJIT(jt != nil)
		c.SetJITTest(jt)
		exit := c.Run(1 << 20)
		require.Equal(t, StopEcall, exit.Reason, exit.Fault.Error())
		return c
	}
	c, ref := run(&JITTest{Hot: 2}), run(nil)
	assert.Equal(t, ref.X, c.X)
	assert.Equal(t, ref.Instret, c.Instret)
	want := uint64(0)
	for i := uint64(1); i <= 200; i++ {
		want += 512 - 64*(i%8)
	}
	assert.Equal(t, want, c.X[10])
	if jitSupported {
		st := c.JITStats()
		assert.Greater(t, st.Retired, uint64(50000), "the block ran translated")
		assert.LessOrEqual(t, st.Instructions, uint64(600), "translated instructions: 8 pieces of 64, and the loop")
	}
}

// A fence (and fence.tso, pause) runs translated, as the interpreter's
// no-op, ending its block: a loop of fenced stores, which the JVM's
// code is full of, does not go back to Go at every fence.
func TestJITFence(t *testing.T) {
	code := assemble(t,
		"addi s2,zero,500", // 0
		"addi a0,a0,1",     // 4: loop
		"sd a0,0(a1)",      // 8
		"fence rw,rw",      // 12
		"ld a3,0(a1)",      // 16
		"fence.tso",        // 20
		"add a4,a4,a3",     // 24
		"pause",            // 28
		"addi s2,s2,-1",    // 32
		"bnez s2,.-32",     // 36: back to 4
		"ecall",            // 40
	)
	run := func(jt *JITTest) *CPU {
		c := newTestCPU(t, code)
		c.SetJIT(jt != nil)
		c.SetJITTest(jt)
		c.X[11] = dataBase
		exit := c.Run(1 << 20)
		require.Equal(t, StopEcall, exit.Reason, exit.Fault.Error())
		return c
	}
	c, ref := run(&JITTest{Hot: 2, AnyPart: true}), run(nil)
	assert.Equal(t, ref.X, c.X)
	assert.Equal(t, ref.Instret, c.Instret)
	assert.Equal(t, uint64(500*501/2), c.X[14])
	if jitSupported {
		st := c.JITStats()
		assert.Greater(t, st.Retired, uint64(4400), "the loop ran translated")
		assert.Less(t, st.Entries, uint64(20), "entries from Go")
	}
}
