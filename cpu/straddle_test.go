package cpu

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/mem"
)

// TestStoreFromInstructionStraddlingPages: a 32-bit store whose upper half
// lies on the next page writes an instruction on that page. Found by
// difftest (seed 200109, length 3000): invalidating the store's own
// predecoded slot while it executed left its length 0, so the pc did not
// advance past it.
func TestStoreFromInstructionStraddlingPages(t *testing.T) {
	for _, tt := range []struct {
		desc   string
		traced bool
	}{{"plain run", false}, {"with an observer", true}} {
		t.Run(tt.desc, func(t *testing.T) {
			const at = codeBase + mem.PageSize - 2 // the sw straddles the page boundary
			code := make([]byte, mem.PageSize-2)
			code = append(code, assemble(t,
				"sw t1, 8(t0)",         // at 0x10ffe: overwrites the instruction at 0x11006
				"addi a1, zero, 5",     // 0x11002
				"addi a0, zero, 1",     // 0x11006: replaced by addi a0, zero, 7
				"addi a2, zero, 9")...) // 0x1100a
			c := newTestCPU(t, code)
			repl := assemble(t, "addi a0, zero, 7")
			c.PC = at
			c.X[5] = at + 0 // t0: 0x10ffe + 8 = 0x11006
			c.X[6] = uint64(repl[0]) | uint64(repl[1])<<8 | uint64(repl[2])<<16 | uint64(repl[3])<<24
			rec := &recorder{}
			if tt.traced {
				c.SetObserver(rec)
			}
			exit := c.Run(4)
			require.Equal(t, StopLimit, exit.Reason, "fault: %v", exit.Fault.Error())
			assert.Equal(t, uint64(at+16), c.PC, "four instructions retired")
			assert.Equal(t, uint64(5), c.X[11], "a1")
			assert.Equal(t, uint64(7), c.X[10], "a0: the new instruction ran")
			assert.Equal(t, uint64(9), c.X[12], "a2")
			if tt.traced {
				require.Len(t, rec.insts, 4)
				assert.Equal(t, uint64(at), rec.insts[0].PC)
				assert.Equal(t, uint64(at+4), rec.insts[0].NextPC)
			}
		})
	}
}

// TestStoreToUpperHalfOfStraddlingInstruction: a store to the first bytes
// of a page changes the upper half of a 32-bit instruction that starts on
// the previous page; the previous page's predecode must be dropped.
func TestStoreToUpperHalfOfStraddlingInstruction(t *testing.T) {
	const at = codeBase + mem.PageSize - 2
	code := assemble(t, "sh t1, 0(t0)", "j .+4090") // jumps to at
	code = append(code, make([]byte, mem.PageSize-2-len(code))...)
	code = append(code, assemble(t, "addi a0, a0, 1")...)
	c := newTestCPU(t, code)
	c.PC = at
	require.Equal(t, StopLimit, c.Run(1).Reason)
	require.Equal(t, uint64(1), c.X[10])

	repl := assemble(t, "addi a0, a0, 100")
	c.X[5] = codeBase + mem.PageSize              // t0: the upper half
	c.X[6] = uint64(repl[2]) | uint64(repl[3])<<8 // t1
	c.PC = codeBase
	exit := c.Run(3)
	require.Equal(t, StopLimit, exit.Reason, "fault: %v", exit.Fault.Error())
	assert.Equal(t, uint64(101), c.X[10], "the rewritten instruction ran")
}
