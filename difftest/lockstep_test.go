package difftest_test

import (
	"encoding/binary"
	"flag"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/difftest"
	"github.com/rvsim/rvsim/difftest/gen"
	"github.com/rvsim/rvsim/isa"
	"github.com/rvsim/rvsim/mem"
)

// Flags for larger or reproducing runs of the random programs, e.g.
//
//	go test ./difftest -run TestRandomPrograms -difftest.seed 1234 -difftest.count 1
var (
	flagSeed   = flag.Uint64("difftest.seed", 1, "first seed of TestRandomPrograms")
	flagCount  = flag.Int("difftest.count", 2000, "number of random programs in TestRandomPrograms (200 with -short)")
	flagLength = flag.Int("difftest.length", 500, "static instructions per random program")
)

// TestRandomPrograms runs constrained-random programs (2,000 of 500+
// instructions by default) in lock-step with the oracle, spread over
// GOMAXPROCS workers. A failure names the seed and the command that
// reproduces it.
func TestRandomPrograms(t *testing.T) {
	difftest.NeedOracle(t)
	count := *flagCount
	if testing.Short() && count == 2000 {
		count = 200
	}
	first, length := *flagSeed, *flagLength
	type failure struct {
		seed uint64
		msg  string
	}
	var (
		mu        sync.Mutex
		next      = first
		fails     []failure
		insts     uint64
		unchecked = map[string]uint64{}
		wg        sync.WaitGroup
	)
	start := time.Now()
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			u, err := difftest.NewUnicorn()
			if err != nil {
				mu.Lock()
				fails = append(fails, failure{0, err.Error()})
				mu.Unlock()
				return
			}
			defer u.Close()
			for {
				mu.Lock()
				if next >= first+uint64(count) || len(fails) > 0 {
					mu.Unlock()
					return
				}
				seed := next
				next++
				mu.Unlock()
				rep, err := gen.Check(seed, length, difftest.Options{Oracle: u})
				mu.Lock()
				insts += rep.Instructions
				for k, v := range rep.Unchecked {
					unchecked[k] += v
				}
				switch {
				case err != nil:
					fails = append(fails, failure{seed, err.Error()})
				case rep.Divergence != nil:
					fails = append(fails, failure{seed, rep.Divergence.String()})
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	for _, f := range fails {
		t.Errorf("seed %d:\n%s\nreproduce with: %s\n  or: go test ./difftest -run TestRandomPrograms -difftest.seed %d -difftest.count 1 -difftest.length %d",
			f.seed, f.msg, gen.ReproCommand(f.seed, length), f.seed, length)
	}
	secs := time.Since(start).Seconds()
	t.Logf("%d programs (seeds %d..%d), %d instructions in lock-step in %.1f s (%.0f inst/s); unchecked: %v",
		count, first, first+uint64(count)-1, insts, secs, float64(insts)/secs, unchecked)
}

// loopProgram builds a tiny user-mode machine running
//
//	loop: addi a0, a0, 1; sd a0, 0(a1); addi a2, a2, 3; bne a0, a3, loop; ecall
func loopProgram(t testing.TB, iterations uint64) difftest.Target {
	t.Helper()
	difftest.NeedOracle(t)
	var code []byte
	for _, l := range []string{"addi a0, a0, 1", "sd a0, 0(a1)", "addi a2, a2, 3", "bne a0, a3, .-12", "ecall"} {
		in, err := isa.Assemble(l)
		require.NoError(t, err)
		code = binary.LittleEndian.AppendUint32(code, in.Raw)
	}
	m := mem.New()
	require.NoError(t, m.Map(0x10000, mem.PageSize, mem.RX, "code"))
	require.NoError(t, m.Map(0x20000, mem.PageSize, mem.RW, "data"))
	require.NoError(t, m.Poke(0x10000, code))
	c := cpu.New(m)
	c.PC = 0x10000
	c.X[11], c.X[13] = 0x20000, iterations
	return difftest.Target{CPU: c, Mem: m, Service: func(exit cpu.Exit) (bool, []difftest.Range) {
		return true, nil
	}}
}

// TestInjectedBugIsCaught flips one result bit after a chosen instruction
// (a stand-in for a semantic bug in the core) and checks that difftest
// stops exactly there and names the register, with the right values.
func TestInjectedBugIsCaught(t *testing.T) {
	for _, tt := range []struct {
		desc    string
		step    uint64 // 0-based instruction to corrupt
		corrupt func(c *cpu.CPU)
		wantPC  uint64
		wantReg string
		wantDis string
	}{
		{"addi result bit 0", 8, func(c *cpu.CPU) { c.X[10] ^= 1 }, 0x10000, "a0 (x10)", "addi x10,x10,1"},
		{"third addi of an iteration, bit 63", 6, func(c *cpu.CPU) { c.X[12] ^= 1 << 63 }, 0x10008, "a2 (x12)", "addi x12,x12,3"},
		{"a wrong branch target", 3, func(c *cpu.CPU) { c.PC += 4 }, 0x1000c, "pc", "bne x10,x13,"},
		{"an FP register no instruction wrote", 1, func(c *cpu.CPU) { c.F[3] ^= 1 << 40 }, 0x10004, "ft3 (f3)", "sd x10,0(x11)"},
		{"a stored byte", 5, func(c *cpu.CPU) { b, _ := c.Mem.Read8(0x20001); c.Mem.Write8(0x20001, b^0x10) }, 0x10004, "mem[0x20000]/8", "sd x10,0(x11)"},
		{"fflags", 2, func(c *cpu.CPU) { c.SetFCSR(c.FFlags()|1, c.FRM()) }, 0x10008, "fflags", "addi x12,x12,3"},
	} {
		t.Run(tt.desc, func(t *testing.T) {
			tg := loopProgram(t, 10)
			rep, err := difftest.RunTarget(tg, difftest.Options{Corrupt: func(seq uint64, c *cpu.CPU) {
				if seq == tt.step {
					tt.corrupt(c)
				}
			}})
			require.NoError(t, err)
			d := rep.Divergence
			require.NotNil(t, d, "the injected bug went unnoticed")
			assert.Equal(t, tt.step, d.Seq)
			assert.Equal(t, tt.wantPC, d.PC)
			assert.Contains(t, d.Disasm, tt.wantDis)
			require.Len(t, d.Diffs, 1, "exactly one difference: %v", d.Diffs)
			assert.Equal(t, tt.wantReg, d.Diffs[0].Name)
			assert.NotEqual(t, d.Diffs[0].Expected, d.Diffs[0].Actual)
			assert.Equal(t, tt.step+1, uint64(len(d.History)), "history up to and including the instruction")
			assert.Equal(t, tt.wantPC, d.History[len(d.History)-1].PC)
		})
	}
}

// TestCorruptedValuesAreReported checks the expected/actual values of a
// flipped bit and the rendered report.
func TestCorruptedValuesAreReported(t *testing.T) {
	tg := loopProgram(t, 100)
	rep, err := difftest.RunTarget(tg, difftest.Options{Corrupt: func(seq uint64, c *cpu.CPU) {
		if seq == 200 { // the 51st iteration's first addi: a0 = 51
			c.X[10] ^= 4
		}
	}})
	require.NoError(t, err)
	d := rep.Divergence
	require.NotNil(t, d)
	assert.Equal(t, []difftest.RegDiff{{Name: "a0 (x10)", Expected: 51, Actual: 51 ^ 4}}, d.Diffs)
	assert.Len(t, d.History, difftest.HistoryLen)
	assert.Equal(t, uint64(200-difftest.HistoryLen+1), d.History[0].Seq)

	out := d.String()
	lines := strings.Split(strings.TrimSpace(out), "\n")
	assert.Equal(t, "difftest: divergence at instruction 200, pc 0x10000: addi x10,x10,1  (00150513)", lines[0])
	assert.Contains(t, out, fmt.Sprintf("%-16s %#018x   %#018x", "a0 (x10)", 51, 51^4))
	assert.Contains(t, out, "last 32 retired instructions (oldest first):")
	assert.Len(t, lines, 1+2+1+32, "header, table, history title, 32 instructions")
	assert.Contains(t, lines[len(lines)-1], "addi x10,x10,1")
}

// TestCleanRunAgrees runs the loop without corruption to its end.
func TestCleanRunAgrees(t *testing.T) {
	tg := loopProgram(t, 1000)
	rep, err := difftest.RunTarget(tg, difftest.Options{})
	require.NoError(t, err)
	assert.Nil(t, rep.Divergence)
	assert.True(t, rep.Done)
	assert.Equal(t, uint64(4*1000+1), rep.Instructions, "4 per iteration and the ecall")
	assert.Equal(t, uint64(1000), tg.CPU.X[10])
}

// TestMaxInsts stops a run early without a divergence.
func TestMaxInsts(t *testing.T) {
	tg := loopProgram(t, 1000)
	rep, err := difftest.RunTarget(tg, difftest.Options{MaxInsts: 101})
	require.NoError(t, err)
	assert.Nil(t, rep.Divergence)
	assert.False(t, rep.Done)
	assert.Equal(t, uint64(101), rep.Instructions)
}

// BenchmarkLockstep measures lock-step throughput on a hot loop (the
// steady state: the oracle's translations are cached). The figure in
// docs/DIFFTEST.md comes from here and from the benchmark runs.
func BenchmarkLockstep(b *testing.B) {
	tg := loopProgram(b, 1<<40)
	b.ResetTimer()
	rep, err := difftest.RunTarget(tg, difftest.Options{MaxInsts: uint64(b.N)})
	if err != nil || rep.Divergence != nil {
		b.Fatal(err, rep.Divergence)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "inst/s")
}

// BenchmarkRandomPrograms measures whole random programs (code translated
// once per program by the oracle dominates).
func BenchmarkRandomPrograms(b *testing.B) {
	difftest.NeedOracle(b)
	u, err := difftest.NewUnicorn()
	if err != nil {
		b.Fatal(err)
	}
	defer u.Close()
	var insts uint64
	for i := 0; i < b.N; i++ {
		rep, err := gen.Check(uint64(i+1), 500, difftest.Options{Oracle: u})
		if err != nil || rep.Divergence != nil {
			b.Fatal(err, rep.Divergence)
		}
		insts += rep.Instructions
	}
	b.ReportMetric(float64(insts)/b.Elapsed().Seconds(), "inst/s")
}

// TestSelfModifyingCode stores a new instruction over one ahead, runs
// fence.i and executes it: both models must run the new one.
func TestSelfModifyingCode(t *testing.T) {
	difftest.NeedOracle(t)
	newWord, err := isa.Assemble("addi a0, zero, 2")
	require.NoError(t, err)
	lines := []string{
		"auipc t0, 0",
		fmt.Sprintf("lui t1, %#x", (newWord.Raw+0x800)>>12&0xfffff),
		fmt.Sprintf("addiw t1, t1, %d", int32(newWord.Raw<<20)>>20),
		"sw t1, 20(t0)",
		"fence.i",
		"addi a0, zero, 1", // replaced by addi a0, zero, 2
		"ecall",
	}
	var code []byte
	for _, l := range lines {
		in, err := isa.Assemble(l)
		require.NoError(t, err, l)
		code = binary.LittleEndian.AppendUint32(code, in.Raw)
	}
	m := mem.New()
	require.NoError(t, m.Map(0x10000, mem.PageSize, mem.RWX, "code"))
	require.NoError(t, m.Poke(0x10000, code))
	c := cpu.New(m)
	c.PC = 0x10000
	tg := difftest.Target{CPU: c, Mem: m, Service: func(cpu.Exit) (bool, []difftest.Range) { return true, nil }}
	rep, err := difftest.RunTarget(tg, difftest.Options{})
	require.NoError(t, err)
	require.Nil(t, rep.Divergence, "%v", rep.Divergence)
	assert.True(t, rep.Done)
	assert.Equal(t, uint64(2), c.X[10], "the new instruction ran")
}

// TestEnginesOpenAndCloseWhileOthersRun opens and closes engines on one
// goroutine while another runs programs: Unicorn 2.0.1 crashed the
// running engine when another was closed concurrently, which the
// binding's lifecycle lock prevents.
func TestEnginesOpenAndCloseWhileOthersRun(t *testing.T) {
	difftest.NeedOracle(t)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 20 {
			u, err := difftest.NewUnicorn()
			if err != nil {
				t.Error(err)
				return
			}
			u.Close()
		}
	}()
	u, err := difftest.NewUnicorn()
	require.NoError(t, err)
	defer u.Close()
	for seed := uint64(1); seed <= 40; seed++ {
		rep, err := gen.Check(seed, 500, difftest.Options{Oracle: u})
		require.NoError(t, err)
		require.Nil(t, rep.Divergence)
	}
	<-done
}

// TestFaultsAgree: when rvsim faults (a load from unmapped memory, an
// illegal instruction, a privileged instruction in user mode, a jump to
// unmapped memory), the oracle must refuse the instruction too (it runs
// in U-mode, as the process does), and the run ends through Service as it
// would without difftest.
func TestFaultsAgree(t *testing.T) {
	difftest.NeedOracle(t)
	for _, tt := range []struct {
		desc    string
		lines   []string
		cause   uint64
		faultPC uint64
		retired uint64 // instructions completed before the fault
	}{
		{"load from unmapped memory", []string{"ld a0, 0(zero)"}, cpu.CauseLoadAccess, 0x10000, 0},
		{"store to read-only code", []string{"auipc t0, 0", "sd a0, 0(t0)"}, cpu.CauseStoreAccess, 0x10004, 1},
		{"illegal instruction", []string{".4byte 0xffffffff"}, cpu.CauseIllegalInst, 0x10000, 0},
		{"csrr mstatus in user mode", []string{"addi a0, zero, 1", "csrr a0, mstatus"}, cpu.CauseIllegalInst, 0x10004, 1},
		{"mret in user mode", []string{"mret"}, cpu.CauseIllegalInst, 0x10000, 0},
		{"wfi in user mode (the oracle halts)", []string{"addi a0, zero, 1", "wfi"}, cpu.CauseIllegalInst, 0x10004, 1},
		{"jump to unmapped memory", []string{"lui t0, 0x12340", "jalr ra, 0(t0)"}, cpu.CauseFetchAccess, 0x12340000, 2},
		{"jump into data (not executable)", []string{"jalr ra, 0(gp)"}, cpu.CauseFetchAccess, 0x20000, 1},
	} {
		t.Run(tt.desc, func(t *testing.T) {
			var code []byte
			for _, l := range tt.lines {
				var raw uint32 = 0xffffffff
				if l[0] != '.' {
					in, err := isa.Assemble(l)
					require.NoError(t, err)
					raw = in.Raw
				}
				code = binary.LittleEndian.AppendUint32(code, raw)
			}
			m := mem.New()
			require.NoError(t, m.Map(0x10000, mem.PageSize, mem.RX, "code"))
			require.NoError(t, m.Map(0x20000, mem.PageSize, mem.RW, "data"))
			require.NoError(t, m.Poke(0x10000, code))
			c := cpu.New(m)
			c.PC, c.X[3] = 0x10000, 0x20000
			var got cpu.Exit
			tg := difftest.Target{CPU: c, Mem: m, Service: func(e cpu.Exit) (bool, []difftest.Range) {
				got = e
				return true, nil
			}}
			rep, err := difftest.RunTarget(tg, difftest.Options{})
			require.NoError(t, err)
			require.Nil(t, rep.Divergence, "%v", rep.Divergence)
			assert.True(t, rep.Done)
			assert.Equal(t, cpu.StopFault, got.Reason)
			assert.Equal(t, tt.cause, got.Fault.Cause)
			assert.Equal(t, tt.faultPC, got.Fault.PC)
			assert.Equal(t, tt.retired, rep.Instructions)
		})
	}
}

// TestFaultMismatchIsADivergence: agreement needs both models to refuse the
// same instruction. A core that faults on an instruction the oracle
// executes is caught, and so is one that runs a jump target the oracle
// cannot fetch. (The Corrupt hook changes rvsim's address map behind the
// oracle's back after the first instruction.)
func TestFaultMismatchIsADivergence(t *testing.T) {
	difftest.NeedOracle(t)
	for _, tt := range []struct {
		desc    string
		lines   []string
		corrupt func(m *mem.Memory)
		note    string
	}{
		{"rvsim faults, the oracle executes", []string{"addi a0, zero, 1", "ld a0, 0(gp)"},
			func(m *mem.Memory) { m.Unmap(0x20000, mem.PageSize) },
			`rvsim raised "segmentation fault: load from address 0x20000 at pc 0x10004"; the oracle executed the instruction`},
		{"the oracle cannot fetch, rvsim executes", []string{"lui t0, 0x30", "jalr ra, 0(t0)"},
			func(m *mem.Memory) {
				m.Map(0x30000, mem.PageSize, mem.RX, "only in rvsim")
				m.Poke(0x30000, []byte{0x13, 0, 0, 0}) // nop
			},
			`the oracle stopped with "Invalid memory fetch (UC_ERR_FETCH_UNMAPPED)"; rvsim executed the instruction`},
	} {
		t.Run(tt.desc, func(t *testing.T) {
			var code []byte
			for _, l := range tt.lines {
				in, err := isa.Assemble(l)
				require.NoError(t, err)
				code = binary.LittleEndian.AppendUint32(code, in.Raw)
			}
			m := mem.New()
			require.NoError(t, m.Map(0x10000, mem.PageSize, mem.RX, "code"))
			require.NoError(t, m.Map(0x20000, mem.PageSize, mem.RW, "data"))
			require.NoError(t, m.Poke(0x10000, code))
			c := cpu.New(m)
			c.PC, c.X[3] = 0x10000, 0x20000
			tg := difftest.Target{CPU: c, Mem: m, Service: func(e cpu.Exit) (bool, []difftest.Range) { return true, nil }}
			rep, err := difftest.RunTarget(tg, difftest.Options{Corrupt: func(seq uint64, _ *cpu.CPU) {
				if seq == 0 {
					tt.corrupt(m)
				}
			}})
			require.NoError(t, err)
			require.NotNil(t, rep.Divergence)
			assert.Equal(t, tt.note, rep.Divergence.Note)
			assert.False(t, rep.Done)
		})
	}
}
