package cpu

import (
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
	}
	imms := []string{
		"addi a3,a1,-2048", "addi a3,a1,2047", "xori a3,a1,-1", "ori a3,a1,1365", "andi a3,a1,-16",
		"slti a3,a1,-5", "sltiu a3,a1,-5", "sltiu a3,a1,7", "slli a3,a1,63", "srli a3,a1,1", "srai a3,a1,33",
		"addiw a3,a1,-1", "slliw a3,a1,31", "srliw a3,a1,0", "sraiw a3,a1,7",
		"lui a3,0xfffff", "auipc a3,0x80000",
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
				if c.X[13] != ref.X[13] {
					t.Fatalf("%s with a1=%#x a2=%#x: %#x, want %#x", line, x, y, c.X[13], ref.X[13])
				}
				if jitSupported && c.JITStats().Retired == 0 {
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
