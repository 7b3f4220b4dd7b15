package cpu

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

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
	run := func(jit bool) *CPU {
		c := newTestCPU(t, code)
		c.SetJIT(jit)
		c.SetJITTest(&JITTest{Hot: 2})
		c.X[11], c.X[12] = codeBase, dataBase
		require.NoError(t, c.Mem.Poke(dataBase, patched))
		exit := c.Run(10000)
		require.Equal(t, StopEcall, exit.Reason, exit.Fault.Error())
		return c
	}
	c, ref := run(true), run(false)
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
