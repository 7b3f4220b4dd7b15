package pipeline

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/config"
	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/pipeline/bpred"
)

// The validation suite: microbenchmarks assembled here and run on the
// functional core with the timing core attached. Each states the machine
// (testMachine plus the keys it changes), derives the expected CPI or IPC
// by hand from it, and asserts the measured value within 5% unless it says
// otherwise. Register t0 (x5) holds the loop count.

const tol = 0.05

// loopProgram wraps a loop body: `loop:` body, t0 -= 1, bnez t0, loop,
// then ebreak. The loop starts on a 64-byte boundary.
func loopProgram(t testing.TB, body ...string) []byte {
	lines := concat([]string{".align 64", "loop:"}, body, []string{"addi t0, t0, -1", "bnez t0, loop", "ebreak"})
	return assemble(t, lines...)
}

func iters(n uint64) func(h *cpu.CPU) { return func(h *cpu.CPU) { h.SetReg(5, n) } }

// rotating returns n independent ALU ops cycling through 16 registers, so
// that a register is rewritten every 16 instructions.
func rotating(n int) []string {
	regs := []string{"s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "a2", "a3", "a4", "a5", "a6", "a7"}
	return repeat(n, func(i int) string { return fmt.Sprintf("addi %s, %s, 1", regs[i%16], regs[i%16]) })
}

// steady runs code with t0 = n and with t0 = 2n and returns the cycles and
// instructions of the extra n iterations: cold caches, predictor training
// and the pipeline fill cancel, leaving the steady state.
func steady(t testing.TB, m *config.Machine, code []byte, setup func(h *cpu.CPU), n uint64) (cycles, insts float64, short, long *Core) {
	t.Helper()
	run := func(k uint64) *Core {
		return timeProgram(t, m, code, func(h *cpu.CPU) {
			if setup != nil {
				setup(h)
			}
			h.SetReg(5, k)
		})
	}
	short, long = run(n), run(2*n)
	return float64(long.Cycles() - short.Cycles()), float64(long.Instructions() - short.Instructions()), short, long
}

// TestValidationDependentALU: a chain of 64 dependent addi per iteration
// plus 2 loop instructions that run beside it. The chain issues one op a
// cycle (latency 1), so an iteration takes 64 cycles: IPC = 66/64.
func TestValidationDependentALU(t *testing.T) {
	code := loopProgram(t, repeat(64, func(int) string { return "addi a0, a0, 1" })...)
	cycles, insts, _, _ := steady(t, testMachine(), code, nil, 150)
	within(t, 66.0/64, insts/cycles, tol, "IPC")
}

// TestValidationIndependentALU: 62 independent addi + 2 loop instructions,
// 64 per iteration from a 64-byte boundary: 64/width fetch blocks, so the
// front end delivers `width` a cycle, and the back end issues
// min(width, ALUs): IPC = min(width, ALUs).
func TestValidationIndependentALU(t *testing.T) {
	for _, tc := range []struct {
		desc        string
		width, alus int
	}{
		{"4-wide, 4 ALUs", 4, 4},
		{"8-wide, 2 ALUs", 8, 2},
		{"2-wide, 4 ALUs", 2, 4},
		{"8-wide, 8 ALUs", 8, 8},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			m := testMachine()
			k := &m.Core
			k.FetchWidth, k.DecodeWidth, k.RenameWidth, k.IssueWidth, k.CommitWidth = tc.width, tc.width, tc.width, tc.width, tc.width
			k.FetchQueue = 4 * tc.width
			m.FU.IntALU.Count = tc.alus
			cycles, insts, _, _ := steady(t, m, loopProgram(t, rotating(62)...), nil, 150)
			within(t, float64(min(tc.width, tc.alus)), insts/cycles, tol, "IPC")
		})
	}
}

// TestValidationMulChain: 32 dependent mul per iteration; each waits for
// the previous one, so a mul costs the multiplier latency in cycles.
func TestValidationMulChain(t *testing.T) {
	for _, lat := range []int{3, 4, 7} {
		t.Run(fmt.Sprintf("latency %d", lat), func(t *testing.T) {
			m := testMachine()
			m.FU.IntMul.Latency = lat
			const n = 100
			cycles, _, _, _ := steady(t, m, loopProgram(t, repeat(32, func(int) string { return "mul a0, a0, a1" })...), nil, n)
			within(t, float64(lat), cycles/(n*32), tol, "cycles per mul")
		})
	}
}

// ring writes a circular linked list of n nodes, stride bytes apart, from
// base: each node holds the address of the next.
func ring(base uint64, n, stride int) func(h *cpu.CPU) {
	return func(h *cpu.CPU) {
		buf := make([]byte, 8)
		for i := 0; i < n; i++ {
			binary.LittleEndian.PutUint64(buf, base+uint64((i+1)%n*stride))
			if err := h.Mem.Poke(base+uint64(i*stride), buf); err != nil {
				panic(err)
			}
		}
		h.SetReg(10, base) // a0
	}
}

// TestValidationL1LoadChain: a pointer chase over 64 nodes in 8 lines
// (L1-resident after the first pass), 32 loads per iteration. Each load
// waits for the previous one: cycles per load = address generation
// (mem_port latency 1) + L1D latency.
func TestValidationL1LoadChain(t *testing.T) {
	for _, lat := range []int{2, 4} {
		t.Run(fmt.Sprintf("l1d latency %d", lat), func(t *testing.T) {
			m := testMachine()
			m.L1D.Latency = lat
			const n = 100
			code := loopProgram(t, repeat(32, func(int) string { return "ld a0, 0(a0)" })...)
			cycles, _, _, _ := steady(t, m, code, ring(dataBase, 64, 8), n)
			within(t, float64(1+lat), cycles/(n*32), tol, "cycles per load")
		})
	}
}

// TestValidationPointerChaseMemory: a pointer chase over 2048 nodes, one
// per 64-byte line (128 KiB), with a 32 KiB L2: every load misses the L1D
// and the L2 (LRU over a cyclic walk larger than the cache). Cycles per
// load = agen 1 + l1d 2 + l2 10 + memory 100 = 113.
func TestValidationPointerChaseMemory(t *testing.T) {
	m := testMachine()
	m.L2.Size = 32 << 10
	const n = 256 // 16 loads per iteration: 4096 loads, two passes
	setup := ring(dataBase, 2048, 64)
	code := loopProgram(t, repeat(16, func(int) string { return "ld a0, 0(a0)" })...)
	c := timeProgram(t, m, code, func(h *cpu.CPU) { setup(h); iters(n)(h) })
	within(t, 113, float64(c.Cycles())/(n*16), tol, "cycles per load")
	l2 := c.l2.Stats()
	assert.GreaterOrEqual(t, l2.ReadMisses, uint64(n*16), "every load misses the L2")
	assert.Greater(t, c.stalls[stallDCache], c.Cycles()*9/10, "D-cache miss stalls dominate")
}

// TestValidationLoopBranch: an always-taken loop branch is learnt at once:
// only the first iterations (cold counters, a BTB miss) and the loop exit
// mispredict, under every predictor.
func TestValidationLoopBranch(t *testing.T) {
	const n = 10000
	for _, kind := range []string{"bimodal", "gshare", "tournament", "perfect"} {
		t.Run(kind, func(t *testing.T) {
			m := testMachine()
			m.BPred.Kind = kind
			c := timeProgram(t, m, loopProgram(t, "addi a1, a1, 1"), iters(n))
			s := c.bp.Stats(bpred.Cond)
			require.Equal(t, uint64(n), s.Lookups)
			rate := float64(s.Mispredicts) / n
			assert.Less(t, rate, 0.002, "mispredict rate (%d mispredicts)", s.Mispredicts)
			if kind == "perfect" {
				assert.Zero(t, s.Mispredicts)
			}
		})
	}
}

// randomBits returns n bytes, each 0 or 1, from a fixed seed.
func randomBits(n int) []byte {
	r := rand.New(rand.NewPCG(1, 2))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.IntN(2))
	}
	return b
}

// TestValidationRandomBranch: a branch on random data mispredicts half the
// time whatever the predictor, and each mispredict costs the redirect
// penalty: raising the penalty by 10 cycles raises the run time by 10
// cycles per mispredict.
func TestValidationRandomBranch(t *testing.T) {
	const n = 4096
	bitsData := randomBits(n)
	code := assemble(t,
		".align 64",
		"loop:",
		"lbu t1, 0(a0)",
		"addi a0, a0, 1",
		"beqz t1, skip",
		"addi a2, a2, 1",
		"skip:",
		"addi t0, t0, -1",
		"bnez t0, loop",
		"ebreak")
	setup := func(h *cpu.CPU) {
		require.NoError(t, h.Mem.Poke(dataBase, bitsData))
		h.SetReg(10, dataBase)
		h.SetReg(5, n)
	}
	for _, kind := range []string{"bimodal", "gshare", "tournament"} {
		t.Run(kind, func(t *testing.T) {
			var cycles [2]uint64
			var misp [2]uint64
			for i, penalty := range []int{2, 12} {
				m := testMachine()
				m.BPred.Kind = kind
				m.Core.RedirectPenalty = penalty
				c := timeProgram(t, m, code, setup)
				s := c.bp.Stats(bpred.Cond)
				require.Equal(t, uint64(2*n), s.Lookups)
				cycles[i], misp[i] = c.Cycles(), s.Mispredicts
			}
			require.Equal(t, misp[0], misp[1], "prediction does not depend on timing")
			// The loop branch mispredicts only a few times (see
			// TestValidationLoopBranch), so the random branch's rate is
			// mispredicts/n within half a percent.
			within(t, 0.5, float64(misp[0])/n, 0.1, "random-branch mispredict rate (±5 points)")
			within(t, 10*float64(misp[0]), float64(cycles[1]-cycles[0]), tol, "extra cycles for +10 penalty")
		})
	}
}

// TestValidationStoreForwarding: each step stores a0, loads it back and
// increments it. The load forwards from the store: the chain per step is
// the addi (1), the load issuing the cycle after the store data is known
// (+1, address generation) and the forwarding latency.
func TestValidationStoreForwarding(t *testing.T) {
	for _, fwd := range []int{2, 5} {
		t.Run(fmt.Sprintf("forward latency %d", fwd), func(t *testing.T) {
			m := testMachine()
			m.Core.ForwardLatency = fwd
			const n = 100
			var lines []string
			for i := 0; i < 16; i++ {
				lines = append(lines, "sd a0, 0(sp)", "ld a0, 0(sp)", "addi a0, a0, 1")
			}
			cycles, _, short, long := steady(t, m, loopProgram(t, lines...), func(h *cpu.CPU) { h.SetReg(2, dataBase+4096) }, n)
			assert.Equal(t, uint64(n*16), long.issue.forwards-short.issue.forwards, "every load forwards")
			within(t, float64(1+1+fwd), cycles/(n*16), tol, "cycles per store/load/addi step")
		})
	}
}

// TestValidationICacheThrash: a 4 KiB loop (1024 instructions, 64 lines)
// through a 1 KiB L1I misses on every line and hits the L2. Per line the
// first fetch block costs l1i 1 + l2 10 cycles, the other three blocks one
// cycle each: 14 cycles per 16 instructions, CPI 0.875. With a 32 KiB L1I
// the loop fits and runs at the fetch width (CPI 0.25).
func TestValidationICacheThrash(t *testing.T) {
	code := loopProgram(t, rotating(1022)...)
	for _, tc := range []struct {
		desc string
		size int
		cpi  float64
	}{
		{"1 KiB L1I thrashes", 1 << 10, 14.0 / 16},
		{"32 KiB L1I holds the loop", 32 << 10, 0.25},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			m := testMachine()
			m.L1I.Size, m.L1I.Assoc = tc.size, 2
			const n = 20
			cycles, insts, short, long := steady(t, m, code, nil, n)
			within(t, tc.cpi, cycles/insts, tol, "CPI")
			misses := long.l1i.Stats().Misses() - short.l1i.Stats().Misses()
			if tc.size == 1<<10 {
				assert.Equal(t, uint64(n*64), misses, "a miss per line per iteration")
			} else {
				assert.Zero(t, misses, "no misses once warm")
			}
		})
	}
}

// TestValidationMLP: independent loads to fresh lines (every one misses to
// memory: agen 1 + l1d 2 + l2 10 + memory 100 = 113 cycles), each followed
// by 7 independent ALU ops, so 8 instructions per load.
//
//   - ROB 32 (4 loads in the window), many MSHRs: the window limits the
//     overlap. When a load completes at T it commits with the 3 ops after
//     it; the 4 freed entries take the next 4 instructions at once (rename
//     runs after commit in a cycle), the first of which is the load 32
//     instructions later: it issues at T+1 and completes at T+114. So 4
//     loads per 114 cycles, 28.5 cycles per load.
//   - ROB 256 (32 loads), 4 L1D MSHRs: an MSHR is held from the miss (issue
//   - agen + l1d) to the fill (l2 10 + memory 100): 4 loads per 110
//     cycles, 27.5 cycles per load.
//   - ROB 256, 16 MSHRs (L2: 32): 16 loads per 110 cycles, 6.875.
func TestValidationMLP(t *testing.T) {
	var body []string
	for g := 0; g < 8; g++ {
		body = append(body, fmt.Sprintf("ld t1, %d(a0)", 64*g))
		if g < 7 {
			body = append(body, rotating(7)...)
		} else {
			body = append(body, rotating(4)...)
			body = append(body, "addi a0, a0, 512")
		}
	}
	code := loopProgram(t, body...)
	for _, tc := range []struct {
		desc       string
		rob, mshrs int
		want       float64
	}{
		{"ROB-limited: 4 loads in a 32-entry ROB", 32, 32, 114.0 / 4},
		{"MSHR-limited: 4 MSHRs", 256, 4, 110.0 / 4},
		{"MSHR-limited: 16 MSHRs", 256, 16, 110.0 / 16},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			m := testMachine()
			m.Core.ROB, m.Core.IQ, m.Core.LQ = tc.rob, min(tc.rob, 64), 64
			m.L1D.MSHRs, m.L2.MSHRs = tc.mshrs, 32
			const n = 300 // 8 loads per iteration, a fresh line each
			cycles, _, _, _ := steady(t, m, code, func(h *cpu.CPU) { h.SetReg(10, dataBase) }, n)
			within(t, tc.want, cycles/(n*8), tol, "cycles per load")
		})
	}
}

// TestValidationUnchangedResults: attaching the timing core never changes
// the architectural outcome (registers, memory, instruction count).
func TestValidationUnchangedResults(t *testing.T) {
	code := loopProgram(t, "ld a3, 0(a0)", "add a4, a4, a3", "sd a4, 8(a0)", "mul a5, a4, a3",
		"addi a0, a0, 16", "fcvt.d.l fa0, a4", "fadd.d fa1, fa1, fa0")
	setup := func(h *cpu.CPU) {
		buf := make([]byte, 16*100)
		for i := range buf {
			buf[i] = byte(i * 7)
		}
		require.NoError(t, h.Mem.Poke(dataBase, buf))
		h.SetReg(10, dataBase)
		h.SetReg(5, 100)
	}
	plain := newHart(t, code)
	setup(plain)
	n := runOn(t, plain, nil)
	timed := newHart(t, code)
	setup(timed)
	c, err := New(config.Default())
	require.NoError(t, err)
	require.Equal(t, n, runOn(t, timed, c))
	require.NoError(t, c.Finish())
	assert.Equal(t, plain.X, timed.X)
	assert.Equal(t, plain.F, timed.F)
	a, b := make([]byte, 4096), make([]byte, 4096)
	require.NoError(t, plain.Mem.Peek(dataBase, a))
	require.NoError(t, timed.Mem.Peek(dataBase, b))
	assert.Equal(t, a, b)
	assert.Equal(t, n, c.Instructions())
}
