package cpu

import (
	"encoding/binary"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/isa"
	"github.com/rvsim/rvsim/mem"
)

// fastPathProgram is a loop built to run every superinstruction (see fuse)
// and every kind of chaining (see Run's jumped): independent and
// dependent ld;ld, sd;sd, addi;addi (one writing x0), addi;add, a taken
// branch and a jump to a block on the same page, a call to a block on the
// next page and the return from it (not chained: another page), and an sd;sd whose second store patches an instruction
// ahead of it. It ends with a load pair whose first (fault "first") or second (fault
// "second") load faults.
func fastPathProgram(t *testing.T, fault string) []byte {
	const callee = mem.PageSize // offset of the routine on the next page
	lines := []string{
		"li a0,6",                             // 0: iterations (addi;addi with the next)
		"li a2,0",                             // 4
		"ld t0,0(a1)",                         // 8: loop: ld;ld, independent
		"ld t1,8(a1)",                         // 12
		"add a2,a2,t0",                        // 16
		"add a2,a2,t1",                        // 20
		"addi t2,a1,16",                       // 24: addi;addi
		"addi a2,a2,3",                        // 28
		"sd a2,16(a1)",                        // 32: sd;sd
		"sd t2,24(a1)",                        // 36
		"ld t3,24(a1)",                        // 40: ld;ld, the second's base is the first's result (t3 = a1+16)
		"ld t4,0(t3)",                         // 44: reloads the stored a2
		"addi a3,a3,1",                        // 48: addi;add
		"add a4,a4,a3",                        // 52
		"addi zero,a0,5",                      // 56: addi;addi writing x0 first
		"addi a0,a0,-1",                       // 60
		"andi t5,a0,1",                        // 64
		"beqz t5,.+8",                         // 68: taken on even a0: chains within the page
		"addi a5,a5,1",                        // 72: odd a0 only
		fmt.Sprintf("jal ra,.+%d", callee-76), // 76: to the next page and back
		"bnez a0,.-72",                        // 80: back to the loop (chains)
		"j .+4",                               // 84: a jump that chains to the next block
		"ld t0,40(a1)",                        // 88: the new word for 100
		"sd t0,48(a1)",                        // 92: sd;sd, the second patches 100
		"sd t0,0(a6)",                         // 96
		"addi a7,a7,1",                        // 100: patched to addi a7,a7,16
		"nop",                                 // 104: (the patch's upper half)
	}
	switch fault {
	case "first":
		lines = append(lines, "ld s2,0(zero)", "ld s3,0(a1)")
	case "second":
		lines = append(lines, "ld s2,0(a1)", "ld s3,0(zero)")
	}
	code := assemble(t, lines...)
	code = append(code, make([]byte, callee-len(code))...)
	return append(code, assemble(t, "addi s4,s4,1", "addi s5,s4,2", "ld s6,8(a1)", "addi s7,s6,1", "ret")...)
}

// runFastPath runs fastPathProgram in chunks of chunk instructions until
// it faults and returns what it saw after each chunk and the hart.
func runFastPath(t *testing.T, fault string, chunk uint64, traced bool) ([]string, *CPU) {
	t.Helper()
	c := newFastPathCPU(t, fault)
	if traced {
		c.SetObserver(&recorder{})
	}
	var seen []string
	for i := 0; i < 10000; i++ {
		exit := c.Run(chunk)
		seen = append(seen, fmt.Sprintf("%v pc=%#x instret=%d", exit.Reason, c.PC, c.Instret))
		if exit.Reason == StopFault {
			seen = append(seen, exit.Fault.Error())
			return seen, c
		}
		require.Equal(t, StopLimit, exit.Reason)
	}
	t.Fatalf("chunk %d: no fault", chunk)
	return nil, nil
}

// newFastPathCPU is a hart loaded with fastPathProgram and its data.
func newFastPathCPU(t *testing.T, fault string) *CPU {
	t.Helper()
	c := newTestCPU(t, fastPathProgram(t, fault))
	c.X[11], c.X[16] = dataBase, codeBase+100
	data := make([]byte, 64)
	binary.LittleEndian.PutUint64(data[0:], 7)
	binary.LittleEndian.PutUint64(data[8:], 11)
	copy(data[40:], assemble(t, "addi a7,a7,16", "nop"))
	require.NoError(t, c.Mem.Poke(dataBase, data))
	return c
}

// TestSuperinstructionsAndChaining: the superinstructions and chained
// blocks (untraced runs) give what plain single steps give (traced runs,
// whose step buffer unfuses every slot), with superinstructions on and
// off, in chunks of every size up to past the program's length: the same
// stops, instruction counts, registers and memory.
func TestSuperinstructionsAndChaining(t *testing.T) {
	defer func(v bool) { noFuse = v }(noFuse)
	for _, fault := range []string{"first", "second"} {
		for chunk := uint64(1); chunk <= 130; chunk++ {
			if chunk > 50 && chunk < 120 {
				continue
			}
			noFuse = true
			want, ref := runFastPath(t, fault, chunk, true)
			for _, fused := range []bool{false, true} {
				noFuse = !fused
				for _, traced := range []bool{false, true} {
					name := fmt.Sprintf("fault %s chunk %d fused %v traced %v", fault, chunk, fused, traced)
					got, c := runFastPath(t, fault, chunk, traced)
					require.Equal(t, want, got, name)
					require.Equal(t, ref.X, c.X, name)
					for a := uint64(dataBase); a < dataBase+64; a += 8 {
						w, _ := ref.Mem.Read64(a)
						g, _ := c.Mem.Read64(a)
						require.Equal(t, w, g, "%s: memory at %#x", name, a)
					}
				}
			}
		}
	}
	// The program did what it was written to do (by hand): six iterations.
	_, c := runFastPath(t, "first", 1000, false)
	require.Equal(t, uint64(6), c.X[13], "a3: iterations")
	require.Equal(t, uint64(21), c.X[14], "a4: 1+2+...+6")
	require.Equal(t, uint64(3), c.X[15], "a5: odd a0 after the decrement (5, 3, 1)")
	require.Equal(t, uint64(6), c.X[20], "s4: calls to the next page")
	require.Equal(t, uint64(12), c.X[23], "s7")
	require.Equal(t, uint64(16), c.X[17], "a7: the patched instruction ran")
	require.Equal(t, uint64(6*(7+11+3)), c.X[12], "a2")
	require.Equal(t, c.X[12], c.X[29], "t4: the dependent load pair reloaded a2")
	require.Equal(t, uint64(codeBase+108), c.PC, "the first load of the last pair faults")
	_, c = runFastPath(t, "second", 1000, false)
	require.Equal(t, uint64(codeBase+112), c.PC, "the second load of the last pair faults")
	require.Equal(t, uint64(7), c.X[18], "s2: the first load of the pair retired")
}

// TestSuperinstructionsFused: fastPathProgram's pairs are fused (else
// TestSuperinstructionsAndChaining would compare the plain cases with
// themselves), and a traced run's step buffer holds the plain op.
func TestSuperinstructionsFused(t *testing.T) {
	c := newTestCPU(t, fastPathProgram(t, "first"))
	c.X[11], c.X[16] = dataBase, codeBase+100
	c.Run(40)
	p := c.code[codeBase>>mem.PageBits]
	require.NotNil(t, p)
	for off, op := range map[uint64]isa.Op{0: opAddiAddi, 8: opLdLd, 24: opAddiAddi, 32: opSdSd, 40: opLdLd, 48: opAddiAdd, 56: opAddiAddi} {
		require.Equal(t, uint8(op), p.slot(codeBase+off).Op, "slot at +%d", off)
	}
	q := c.code[codeBase>>mem.PageBits+1]
	require.NotNil(t, q)
	require.Equal(t, uint8(opAddiAddi), q.slot(codeBase+mem.PageSize).Op)
	require.Equal(t, uint8(isa.LD), c.stepOne(p.slot(codeBase+8)).Op, "a single step runs the first ld alone")
}

// TestRecordReusesSlots: the observer's records are written into the
// batch's slots without zeroing them first (record), so every field must be
// written: records built over slots full of garbage equal those built over
// zeroed ones.
func TestRecordReusesSlots(t *testing.T) {
	_, ref := runFastPath(t, "second", 1000, true)
	ref.Flush()
	want := ref.observer.(*recorder).insts
	require.NotEmpty(t, want)
	c := newFastPathCPU(t, "second")
	rec := &recorder{}
	c.SetObserver(rec)
	garbage := DynInst{Seq: ^uint64(0), PC: 1, NextPC: 2, Inst: isa.Inst{Op: isa.FDIV_D, Imm: -1, Raw: 3, Len: 4},
		Addr: 5, Size: 6, Taken: true, Tid: 7, Result: 8, Injected: true, Replaced: true, Handler: true}
	b := c.batch[:cap(c.batch)]
	for i := range b {
		b[i] = garbage
	}
	for c.Run(1000).Reason != StopFault {
	}
	c.Flush()
	require.Equal(t, want, rec.insts)
}

// TestBatchNeverGrows: the observer's path flushes the batch before it is
// full (flushIfFull's condition, tested inline in retire), so a long traced
// run never reallocates it.
func TestBatchNeverGrows(t *testing.T) {
	c := newTestCPU(t, assemble(t,
		"addi t0,t0,1", // 0
		"j -4",         // 4
	))
	rec := &recorder{}
	c.SetObserver(rec)
	size := cap(c.batch)
	c.Run(10 * uint64(size))
	require.Len(t, rec.insts, 10*size)
	require.Equal(t, size, cap(c.batch), "the batch was reallocated")
}
