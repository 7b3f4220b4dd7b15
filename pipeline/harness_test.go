package pipeline

import (
	"encoding/binary"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/config"
	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/isa"
	"github.com/rvsim/rvsim/mem"
)

// Test programs run in user mode: code at codeBase, data from dataBase.
const (
	codeBase = 0x10000
	dataBase = 0x1000000
	dataSize = 8 << 20
)

// testMachine is the validation machine the microbenchmarks derive their
// expected figures from (each test states the keys it changes).
func testMachine() *config.Machine {
	return &config.Machine{
		Name: "test",
		Core: config.Core{
			FetchWidth: 4, FetchQueue: 16, DecodeWidth: 4, DecodeStages: 2, RenameWidth: 4,
			IssueWidth: 4, CommitWidth: 4, ROB: 128, IQ: 64, LQ: 32, SQ: 32,
			IntRegs: 256, FPRegs: 256, RedirectPenalty: 2, ForwardLatency: 2,
			DISEPenalty: 1, DISERedirectPenalty: -1, DeadlockCycles: 100000,
		},
		FU: config.FUPool{
			IntALU:  config.Unit{Count: 4, Latency: 1, Pipelined: true},
			IntMul:  config.Unit{Count: 1, Latency: 4, Pipelined: true},
			IntDiv:  config.Unit{Count: 1, Latency: 20, Pipelined: false},
			FPAdd:   config.Unit{Count: 2, Latency: 3, Pipelined: true},
			FPMul:   config.Unit{Count: 2, Latency: 4, Pipelined: true},
			FPDiv:   config.Unit{Count: 1, Latency: 12, Pipelined: false},
			MemPort: config.Unit{Count: 2, Latency: 1, Pipelined: true},
		},
		BPred: config.BPred{Kind: "tournament", BimodalEntries: 4096, GshareEntries: 4096, HistoryBits: 12,
			MetaEntries: 4096, BTBEntries: 1024, BTBAssoc: 4, RASDepth: 16},
		L1I:    config.Cache{Size: 32 << 10, Assoc: 4, Line: 64, Latency: 1, MSHRs: 4},
		L1D:    config.Cache{Size: 32 << 10, Assoc: 4, Line: 64, Latency: 2, MSHRs: 8},
		L2:     config.Cache{Size: 256 << 10, Assoc: 8, Line: 64, Latency: 10, MSHRs: 16},
		Memory: config.Memory{Latency: 100},
	}
}

// assemble assembles lines; "name:" lines define labels, and a branch or
// jump whose last operand is a label gets the right offset. ".align N"
// pads with nops to an N-byte boundary (relative to codeBase).
func assemble(t testing.TB, lines ...string) []byte {
	t.Helper()
	labels := map[string]int64{}
	pc := int64(0)
	var body []string
	for _, l := range lines {
		l = strings.TrimSpace(l)
		switch {
		case strings.HasSuffix(l, ":"):
			labels[strings.TrimSuffix(l, ":")] = pc
		case strings.HasPrefix(l, ".align "):
			var n int64
			_, err := fmt.Sscan(strings.TrimPrefix(l, ".align "), &n)
			require.NoError(t, err, l)
			for pc%n != 0 {
				body = append(body, "nop")
				pc += 4
			}
		default:
			body = append(body, l)
			pc += 4
		}
	}
	var out []byte
	for i, l := range body {
		if k := strings.LastIndexByte(l, ','); k >= 0 || strings.HasPrefix(l, "j ") {
			last := strings.TrimSpace(l[k+1:])
			if k < 0 {
				last = strings.TrimSpace(strings.TrimPrefix(l, "j "))
			}
			if target, ok := labels[last]; ok {
				l = l[:len(l)-len(last)] + fmt.Sprintf(".%+d", target-int64(4*i))
			}
		}
		in, err := isa.Assemble(l) // (in.Raw is the encoding)
		require.NoError(t, err, l)
		out = binary.LittleEndian.AppendUint32(out, in.Raw)
	}
	return out
}

// newHart returns a user-mode hart with code loaded at codeBase and a data
// region at dataBase; a0..a7 hold the values in regs.
func newHart(t testing.TB, code []byte) *cpu.CPU {
	t.Helper()
	m := mem.New()
	require.NoError(t, m.Map(codeBase, uint64(len(code)+mem.PageSize)&^uint64(mem.PageSize-1), mem.RWX, "code"))
	require.NoError(t, m.Map(dataBase, dataSize, mem.RW, "data"))
	require.NoError(t, m.Poke(codeBase, code))
	h := cpu.New(m)
	h.PC = codeBase
	return h
}

// runOn runs the hart until its program ends (an ebreak) with observers
// attached, and returns the number of instructions retired.
func runOn(t testing.TB, h *cpu.CPU, obs cpu.Observer) uint64 {
	t.Helper()
	h.SetObserver(obs)
	exit := h.Run(50_000_000)
	require.Equal(t, cpu.StopFault, exit.Reason, "the program must end with ebreak")
	require.Equal(t, uint64(cpu.CauseBreakpoint), exit.Fault.Cause, exit.Fault.Error())
	return h.Instret
}

// timeProgram runs code (after setup) on machine m and returns the core
// after Finish.
func timeProgram(t testing.TB, m *config.Machine, code []byte, setup func(h *cpu.CPU)) *Core {
	t.Helper()
	h := newHart(t, code)
	if setup != nil {
		setup(h)
	}
	c, err := New(m)
	require.NoError(t, err)
	n := runOn(t, h, c)
	require.NoError(t, c.Finish())
	require.Equal(t, n, c.Instructions(), "every retired instruction commits")
	return c
}

// recorder keeps the stream.
type recorder struct{ insts []cpu.DynInst }

func (r *recorder) Retire(batch []cpu.DynInst) { r.insts = append(r.insts, batch...) }

// record runs code and returns its DynInst stream.
func record(t testing.TB, code []byte, setup func(h *cpu.CPU)) []cpu.DynInst {
	t.Helper()
	h := newHart(t, code)
	if setup != nil {
		setup(h)
	}
	var r recorder
	runOn(t, h, &r)
	return r.insts
}

// feed runs a recorded stream through a new core in batches of the given
// size and returns the core after Finish.
func feed(t testing.TB, m *config.Machine, insts []cpu.DynInst, batch int, tweak func(c *Core)) *Core {
	t.Helper()
	c, err := New(m)
	require.NoError(t, err)
	if tweak != nil {
		tweak(c)
	}
	for i := 0; i < len(insts); i += batch {
		c.Retire(insts[i:min(i+batch, len(insts))])
	}
	require.NoError(t, c.Finish())
	require.Equal(t, uint64(len(insts)), c.Instructions())
	return c
}

// straight builds a synthetic straight-line stream from pc0: each line is
// one instruction; "@ADDR" after a memory instruction gives its address.
func straight(t testing.TB, pc0 uint64, lines ...string) []cpu.DynInst {
	t.Helper()
	var out []cpu.DynInst
	pc := pc0
	for i, l := range lines {
		text, addr, hasAddr := strings.Cut(l, "@")
		in, err := isa.Assemble(strings.TrimSpace(text))
		require.NoError(t, err, l)
		d := cpu.DynInst{Seq: uint64(i), PC: pc, NextPC: pc + 4, Inst: in}
		if hasAddr {
			_, err := fmt.Sscan(strings.TrimSpace(addr), &d.Addr)
			require.NoError(t, err, l)
			d.Size = in.Op.Info().MemSize
		}
		out = append(out, d)
		pc += 4
	}
	return out
}

// within asserts that got is within tol (a fraction) of want.
func within(t testing.TB, want, got, tol float64, msg string, args ...any) {
	t.Helper()
	t.Logf("%s: want %.4g, measured %.4g (%+.2f%%)", fmt.Sprintf(msg, args...), want, got, 100*(got-want)/want)
	require.InDelta(t, want, got, tol*want, "%s: want %.4f ±%.0f%%, got %.4f", fmt.Sprintf(msg, args...), want, tol*100, got)
}

// repeat returns n copies of the lines produced by f(i).
func repeat(n int, f func(i int) string) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = f(i)
	}
	return out
}

func concat(parts ...[]string) []string {
	var out []string
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}
