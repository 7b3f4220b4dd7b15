package cpu

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/isa"
	"github.com/rvsim/rvsim/mem"
)

// testEditor replaces every "addi a0,a0,imm" by a fixed sequence and
// counts the decisions it was asked for.
type testEditor struct {
	exp     *Expansion
	enabled bool
	asked   int
}

func (e *testEditor) Watches(in *isa.Inst, pc uint64) bool {
	return in.Op == isa.ADDI && in.Rd == 10 && in.Rs1 == 10 || in.Op == isa.BNE
}

func (e *testEditor) Edit(in *isa.Inst, pc uint64) *Expansion {
	e.asked++
	if !e.enabled {
		return nil
	}
	return e.exp
}

var (
	addD0   = isa.Inst{Op: isa.ADDI, Class: isa.IntALU, Rd: isa.DISEReg0, Rs1: isa.DISEReg0, Imm: 1, Len: 4}
	skipIfZ = isa.Inst{Op: isa.BEQ, Class: isa.Branch, Rs1: isa.DISEReg0 + 1, Rs2: 0, Len: 4}
	addS2   = isa.Inst{Op: isa.ADDI, Class: isa.IntALU, Rd: 18, Rs1: 18, Imm: 100, Len: 4}
)

const (
	handlerBase = 0x30000
	mailbox     = 0x40000
)

func newDISECPU(t *testing.T, ed *testEditor, code []byte) *CPU {
	c := newTestCPU(t, code)
	require.NoError(t, c.Mem.Map(mailbox, 2*mem.PageSize, mem.RW, "mailbox+stack"))
	require.NoError(t, c.Mem.Map(handlerBase, mem.PageSize, mem.RX, "handler"))
	// The handler counts its calls in s11 (it never saves anything: this
	// test checks plumbing, not the runtime), records its sp in s10, and
	// runs one watched addi, which must not be edited.
	require.NoError(t, c.Mem.Poke(handlerBase, append(assemble(t, "addi s11,s11,1", "addi a0,a0,0", "mv s10,sp"), 0x0b, 0x30, 0, 0)))
	c.SetEditor(ed)
	return c
}

func TestDISEReplacementSequence(t *testing.T) {
	ed := &testEditor{enabled: true, exp: &Expansion{Seq: []SeqOp{
		{Kind: SeqInst, Inst: addD0},
		{Kind: SeqBranch, Inst: skipIfZ, Target: 3}, // $d1 == 0: skip the next element
		{Kind: SeqInst, Inst: addS2},
		{Kind: SeqCall, Call: &HandlerCall{Entry: handlerBase, Stack: mailbox + 2*mem.PageSize, Args: []HandlerArg{
			{Addr: mailbox + 0x800, Source: ArgConst, Value: 7},
			{Addr: mailbox + 0x808, Source: ArgOrigFallthru},
			{Addr: mailbox + 0x810, Source: ArgReg, Value: isa.DISEReg0},
		}}},
		{Kind: SeqOriginal},
	}}}
	c := newDISECPU(t, ed, assemble(t, "addi a0,a0,5", "addi a0,a0,5", "addi a1,a1,1"))
	rec := &recorder{}
	c.SetObserver(rec)
	c.X[2] = 0x7777
	// Per replaced addi: 2 injected + 3 arg stores + jump + 4 handler + original = 11.
	exit := c.Run(11 + 11 + 1)
	require.Equal(t, StopLimit, exit.Reason, exit.Fault.Error())
	assert.Equal(t, uint64(10), c.X[10], "both originals executed")
	assert.Equal(t, uint64(1), c.X[11])
	assert.Equal(t, uint64(0), c.X[18], "the skipped element never ran")
	assert.Equal(t, uint64(2), c.X[isa.DISEReg0], "$d0 counted both replacements")
	assert.Equal(t, uint64(2), c.X[27], "handler ran twice")
	assert.Equal(t, uint64(mailbox+2*mem.PageSize), c.X[26], "the handler ran on its own stack")
	assert.Equal(t, uint64(0x7777), c.X[2], "dise.ret restored the application's sp")
	assert.Equal(t, uint64(0), c.X[10]-10, "the handler's own addi a0,a0,0 was not edited")
	assert.Equal(t, 2, ed.asked, "the handler's addi never reached the editor")
	v, _ := c.Mem.Read64(mailbox + 0x808)
	assert.Equal(t, uint64(codeBase+8), v, "fall-through of the second addi")
	v, _ = c.Mem.Read64(mailbox + 0x810)
	assert.Equal(t, uint64(2), v, "$d0 at the second call")
	assert.Equal(t, uint64(codeBase+12), c.PC)
	st := c.DISEStats()
	assert.Equal(t, uint64(2), st.Replacements)
	assert.Equal(t, uint64(4), st.InjectedInstructions, "addi $d0 and the branch, twice")
	assert.Equal(t, uint64(8), st.HandlerInstructions)
	assert.Equal(t, uint64(2), st.HandlerCalls)

	require.Len(t, rec.insts, 23)
	for i, r := range rec.insts {
		assert.Equal(t, uint64(i), r.Seq)
	}
	first := rec.insts[0]
	assert.True(t, first.Injected)
	assert.True(t, first.Replaced, "the first element carries the decode penalty")
	assert.Equal(t, uint64(codeBase), first.PC)
	br := rec.insts[1]
	assert.True(t, br.Injected)
	assert.True(t, br.Taken, "in-sequence branch taken")
	assert.Equal(t, isa.SD, rec.insts[2].Inst.Op, "argument store")
	assert.Equal(t, uint64(mailbox+0x800), rec.insts[2].Addr)
	jump := rec.insts[5]
	assert.Equal(t, uint64(handlerBase), jump.NextPC)
	assert.False(t, rec.insts[6].Injected, "handler instructions are ordinary")
	assert.True(t, rec.insts[6].Handler)
	assert.True(t, rec.insts[9].Handler, "dise.ret is the handler's")
	assert.False(t, rec.insts[10].Handler)
	ret := rec.insts[9]
	assert.Equal(t, isa.DISE_RET, ret.Inst.Op)
	assert.Equal(t, uint64(codeBase), ret.NextPC, "dise.ret goes back to the replaced pc")
	o := rec.insts[10]
	assert.False(t, o.Injected, "the original is not injected")
	assert.False(t, o.Replaced)
	assert.Equal(t, uint64(codeBase), o.PC)
	assert.Equal(t, uint64(codeBase+4), o.NextPC)
	assert.Equal(t, uint64(5), o.Result)
	assert.Equal(t, uint64(codeBase+8), rec.insts[22].PC)
}

func TestDISEOriginalBranchInSequence(t *testing.T) {
	ed := &testEditor{enabled: true, exp: &Expansion{Seq: []SeqOp{
		{Kind: SeqOriginal},
		{Kind: SeqInst, Inst: addD0}, // after the original: still runs, then control goes where it went
	}}}
	c := newDISECPU(t, ed, assemble(t, "bne a1,zero,.+8", "addi a2,a2,1", "addi a3,a3,1"))
	c.X[11] = 1
	rec := &recorder{}
	c.SetObserver(rec)
	exit := c.Run(3)
	require.Equal(t, StopLimit, exit.Reason, exit.Fault.Error())
	assert.Equal(t, uint64(0), c.X[12], "branch taken over addi a2")
	assert.Equal(t, uint64(1), c.X[13])
	assert.Equal(t, uint64(1), c.X[isa.DISEReg0])
	b := rec.insts[0]
	assert.True(t, b.Taken)
	assert.True(t, b.Replaced)
	assert.Equal(t, uint64(codeBase+8), b.NextPC, "the original reports its real outcome")
}

func TestDISENullReplacementAndDisabled(t *testing.T) {
	ed := &testEditor{enabled: false}
	code := assemble(t, "addi a0,a0,5", "addi a0,a0,5")
	c := newDISECPU(t, ed, code)
	require.Equal(t, StopLimit, c.Run(2).Reason)
	assert.Equal(t, uint64(10), c.X[10])
	assert.Equal(t, 2, ed.asked)
	assert.Zero(t, c.DISEStats().Replacements)

	// Without an editor the trigger and return ops are illegal, as on
	// hardware without HPS.
	c = newTestCPU(t, []byte{0x0b, 0x10, 0, 0})
	exit := c.Run(1)
	require.Equal(t, StopFault, exit.Reason)
	assert.Equal(t, uint64(CauseIllegalInst), exit.Fault.Cause)
	// With an editor, application code may execute them only if
	// authorised (hps-phase-aware-remote-profiling.md §4); then they are
	// no-ops.
	c = newDISECPU(t, ed, []byte{0x0b, 0x10, 0, 0, 0x0b, 0x20, 0, 0})
	exit = c.Run(2)
	require.Equal(t, StopFault, exit.Reason, "an unauthorised hps.on is illegal")
	assert.Equal(t, Fault{PC: codeBase, Cause: CauseIllegalInst, Tval: 0x100b}, exit.Fault)
	c = newDISECPU(t, ed, []byte{0x0b, 0x10, 0, 0, 0x0b, 0x20, 0, 0})
	c.AuthorizeHPS(true)
	assert.Equal(t, StopLimit, c.Run(2).Reason, "authorised hps.on/hps.off are no-ops with an editor")
	c = newDISECPU(t, ed, []byte{0x0b, 0x30, 0, 0})
	assert.Equal(t, StopFault, c.Run(1).Reason, "dise.ret outside a handler is illegal")
}

func TestDISESameStateTracedOrNot(t *testing.T) {
	mk := func() *CPU {
		ed := &testEditor{enabled: true, exp: &Expansion{Seq: []SeqOp{
			{Kind: SeqInst, Inst: addD0},
			{Kind: SeqCall, Call: &HandlerCall{Entry: handlerBase}},
			{Kind: SeqOriginal},
		}}}
		return newDISECPU(t, ed, assemble(t, "addi a0,a0,1", "j .-4"))
	}
	a, b := mk(), mk()
	b.SetObserver(&recorder{})
	a.CountMix, b.CountMix = true, true // per block and per instruction
	for i := 0; i < 7; i++ {            // stop at awkward points inside sequences and handlers
		a.Run(13)
		b.Run(13)
	}
	assert.Equal(t, a.X, b.X)
	assert.Equal(t, a.PC, b.PC)
	assert.Equal(t, a.Instret, b.Instret)
	assert.Equal(t, a.DISEStats(), b.DISEStats())
	assert.Equal(t, b.ClassMix(), a.ClassMix())
	var sum uint64
	for _, n := range a.ClassMix() {
		sum += n
	}
	assert.Equal(t, a.Instret, sum, "every retired instruction has a class")
}

// TestDISEWatchedBranchNotReplaced: a watched branch the editor leaves
// alone runs from the step buffer; taken, it must not chain to its target
// in the page as if it had run from there (the pc of what follows would
// be computed from the step buffer's address).
func TestDISEWatchedBranchNotReplaced(t *testing.T) {
	ed := &testEditor{enabled: false}
	code := assemble(t, "li a1,5", "addi a2,a2,1", "addi a1,a1,-1", "bnez a1,.-8", "addi a3,a3,1")
	c := newDISECPU(t, ed, code)
	require.Equal(t, StopLimit, c.Run(1+5*3+1).Reason)
	assert.Equal(t, uint64(5), c.X[12], "a2: iterations")
	assert.Equal(t, uint64(1), c.X[13], "a3: after the loop")
	assert.Equal(t, uint64(codeBase+20), c.PC)
	assert.Equal(t, 5, ed.asked)
}
