package cpu

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/isa"
	"github.com/rvsim/rvsim/mem"
)

// An injected sequence runs before the instruction at PC, every element
// injected and the first carrying the decode penalty; the application
// instruction count ignores it.
func TestInjectTrigger(t *testing.T) {
	ed := &testEditor{enabled: false}
	c := newDISECPU(t, ed, assemble(t, "addi a1,a1,1", "addi a1,a1,1"))
	rec := &recorder{}
	c.SetObserver(rec)
	require.Equal(t, StopLimit, c.Run(1).Reason)
	assert.Equal(t, uint64(0), c.DISEStep(), "at an application boundary")
	on := isa.Inst{Op: isa.HPS_ON, Class: isa.System, Len: 4, Raw: 0x100b}
	require.NoError(t, c.Inject(&Expansion{Seq: []SeqOp{{Kind: SeqInst, Inst: on}, {Kind: SeqInst, Inst: addD0}}}))
	assert.Equal(t, uint64(1), c.DISEStep(), "a sequence is pending")
	assert.Error(t, c.Inject(&Expansion{Seq: []SeqOp{{Kind: SeqInst, Inst: on}}}), "not at a boundary")
	require.Equal(t, StopLimit, c.Run(3).Reason)
	assert.Equal(t, uint64(2), c.X[11])
	assert.Equal(t, uint64(1), c.X[isa.DISEReg0])
	assert.Equal(t, uint64(codeBase+8), c.PC)
	require.Len(t, rec.insts, 4)
	tr := rec.insts[1]
	assert.Equal(t, isa.HPS_ON, tr.Inst.Op)
	assert.True(t, tr.Injected)
	assert.True(t, tr.Replaced, "the injected trigger pays the decode penalty")
	assert.Equal(t, uint64(codeBase+4), tr.PC, "it sits before the next application instruction")
	assert.True(t, rec.insts[2].Injected)
	assert.False(t, rec.insts[2].Replaced)
	assert.False(t, rec.insts[3].Injected)
	assert.Equal(t, uint64(codeBase+4), rec.insts[3].PC)
	assert.Equal(t, uint64(4), c.Instret)
	assert.Equal(t, uint64(2), c.AppInstret())
	assert.Equal(t, uint64(1), c.DISEStats().Replacements)

	assert.Error(t, c.Inject(&Expansion{Seq: []SeqOp{{Kind: SeqOriginal}}}), "no original to run")
	assert.Error(t, c.Inject(&Expansion{}))
	plain := newTestCPU(t, assemble(t, "nop"))
	assert.Error(t, plain.Inject(&Expansion{Seq: []SeqOp{{Kind: SeqInst, Inst: on}}}), "no editor")
}

// ArgAppInstret passes the number of application instructions retired
// before the replaced one; CallInstructions counts the call's records, and
// AppInstret stays right inside a handler.
func TestAppInstret(t *testing.T) {
	ed := &testEditor{enabled: true, exp: &Expansion{Seq: []SeqOp{
		{Kind: SeqInst, Inst: addD0},
		{Kind: SeqCall, Call: &HandlerCall{Entry: handlerBase, Stack: mailbox + 2*mem.PageSize, Args: []HandlerArg{
			{Addr: mailbox + 0x800, Source: ArgAppInstret},
			{Addr: mailbox + 0x808, Source: ArgReg, Value: 11},
		}}},
		{Kind: SeqOriginal},
	}}}
	// a1 counts application instructions; every addi a0 is replaced.
	c := newDISECPU(t, ed, assemble(t, "addi a1,a1,1", "addi a1,a1,1", "addi a0,a0,5", "addi a1,a1,1", "addi a0,a0,5", "addi a1,a1,1"))
	// Per replacement: 1 injected + 3 call records + 4 handler + original = 9.
	require.Equal(t, StopLimit, c.Run(2+9+1+9+1).Reason)
	v, _ := c.Mem.Read64(mailbox + 0x800)
	assert.Equal(t, uint64(4), v, "a1,a1,addi a0,a1 retired before the second addi a0")
	v, _ = c.Mem.Read64(mailbox + 0x808)
	assert.Equal(t, uint64(3), v)
	st := c.DISEStats()
	assert.Equal(t, uint64(6), st.CallInstructions, "two calls of two stores and a jump")
	assert.Equal(t, uint64(6), c.AppInstret())
	assert.Equal(t, c.Instret, c.AppInstret()+st.InjectedInstructions+st.CallInstructions+st.HandlerInstructions)

	// Stopped inside the handler: its instructions so far are not the application's.
	c = newDISECPU(t, ed, assemble(t, "addi a0,a0,5", "addi a1,a1,1"))
	require.Equal(t, StopLimit, c.Run(1+3+2).Reason)
	assert.Equal(t, uint64(1), c.DISEStep(), "inside the handler")
	assert.Equal(t, uint64(0), c.AppInstret())
	require.Equal(t, StopLimit, c.Run(2+1).Reason)
	assert.Equal(t, uint64(0), c.DISEStep())
	assert.Equal(t, uint64(1), c.AppInstret())
}

// DISEStep asks for the whole call when the next element is a call.
func TestDISEStepAtCall(t *testing.T) {
	ed := &testEditor{enabled: true, exp: &Expansion{Seq: []SeqOp{
		{Kind: SeqInst, Inst: addD0},
		{Kind: SeqCall, Call: &HandlerCall{Entry: handlerBase, Args: []HandlerArg{
			{Addr: mailbox, Source: ArgConst, Value: 1}, {Addr: mailbox + 8, Source: ArgConst, Value: 2},
		}}},
		{Kind: SeqOriginal},
	}}}
	c := newDISECPU(t, ed, assemble(t, "addi a0,a0,5"))
	require.Equal(t, StopLimit, c.Run(1).Reason)
	assert.Equal(t, uint64(3), c.DISEStep(), "two stores and the jump")
	before := c.Instret
	require.Equal(t, StopLimit, c.Run(c.DISEStep()).Reason)
	assert.Equal(t, before+3, c.Instret, "the call went in with that budget")
}
