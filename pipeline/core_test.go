package pipeline

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"github.com/rvsim/rvsim/isa"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/config"
	"github.com/rvsim/rvsim/cpu"
)

// mixedProgram exercises every part of the model: loads that hit and miss,
// stores and forwarding, a data-dependent branch, calls and returns,
// multiplies, divides and FP.
func mixedProgram(t testing.TB) ([]byte, func(h *cpu.CPU)) {
	code := assemble(t,
		".align 64",
		"loop:",
		"ld a3, 0(a0)",
		"add a4, a4, a3",
		"andi t1, a3, 1",
		"beqz t1, even",
		"mul a5, a5, a3",
		"even:",
		"sd a4, 8(a0)",
		"ld a6, 8(a0)",
		"jal ra, fn",
		"divu a7, a4, t2",
		"fcvt.d.l fa0, a4",
		"fmul.d fa1, fa1, fa0",
		"fadd.d fa2, fa2, fa1",
		"addi a0, a0, 72",
		"addi t0, t0, -1",
		"bnez t0, loop",
		"ebreak",
		"fn:",
		"xor s2, s2, a6",
		"ret",
	)
	setup := func(h *cpu.CPU) {
		data := randomBits(64 << 10)
		for i := range data {
			data[i] = byte(i*37) ^ data[i]
		}
		require.NoError(t, h.Mem.Poke(dataBase, data))
		h.SetReg(10, dataBase)
		h.SetReg(7, 3) // t2
		h.SetReg(5, 800)
	}
	return code, setup
}

// TestDeterminism: the same stream and machine give the same cycles and
// statistics, whatever the batch sizes, with or without idle-cycle
// skipping, and with or without the wheel bypass for consumers woken
// ready next cycle (issueStage.soon).
func TestDeterminism(t *testing.T) {
	code, setup := mixedProgram(t)
	insts := record(t, code, setup)
	for _, preset := range config.Presets() {
		t.Run(preset, func(t *testing.T) {
			m, err := config.Preset(preset)
			require.NoError(t, err)
			ref := feed(t, m, insts, 256, nil)
			refStats := ref.Stats()
			for _, tc := range []struct {
				desc  string
				batch int
				skip  bool
				wheel bool // every wakeup through the timing wheel
				scan  bool // every address event scans the store queue
				run   bool // fetch takes no straight-line run
			}{
				{"same again", 256, true, false, false, false},
				{"batches of 1", 1, true, false, false, false},
				{"batches of 7", 7, true, false, false, false},
				{"one batch", len(insts), true, false, false, false},
				{"every cycle simulated", 256, false, false, false, false},
				{"every cycle, batches of 13", 13, false, false, false, false},
				{"wakeups through the wheel", 256, true, true, false, false},
				{"every cycle, wakeups through the wheel", 7, false, true, false, false},
				{"every address event scans the store queue", 256, true, false, true, false},
				{"fetch takes every instruction on the general path", 256, true, false, false, true},
				{"every cycle, fetch on the general path, the wheel, the scan", 7, false, true, true, true},
			} {
				c := feed(t, m, insts, tc.batch, func(c *Core) {
					c.noSkip, c.issue.wheelOnly, c.issue.scanAll, c.fetch.noRun = !tc.skip, tc.wheel, tc.scan, tc.run
				})
				require.Equal(t, ref.Cycles(), c.Cycles(), tc.desc)
				require.True(t, reflect.DeepEqual(refStats, c.Stats()), "%s: statistics differ", tc.desc)
			}
		})
	}
}

// TestRetireHookStalls: the retire hook sees every instruction once, in
// order, with non-decreasing cycles, and a stall it returns is honoured:
// the next instruction commits no earlier than stall cycles later, and the
// run gets longer by the stalls (commit is as wide as the rest of the
// machine, so nothing hides them).
func TestRetireHookStalls(t *testing.T) {
	code := loopProgram(t, rotating(62)...)
	const n, every, stall = 200, 100, 20
	base := timeProgram(t, testMachine(), code, iters(n))

	h := newHart(t, code)
	h.SetReg(5, n)
	c, err := New(testMachine())
	require.NoError(t, err)
	type call struct{ seq, cycle uint64 }
	var calls []call
	stalls := uint64(0)
	c.SetRetireHook(func(r *Commit) uint64 {
		d := r.D
		calls = append(calls, call{d.Seq, r.Cycle})
		if d.Seq%every == every-1 {
			stalls++
			return stall
		}
		return 0
	}, cpu.AllClasses)
	runOn(t, h, c)
	require.NoError(t, c.Finish())
	require.Len(t, calls, int(c.Instructions()))
	for i, cl := range calls {
		require.Equal(t, uint64(i), cl.seq, "in order, once each")
		if i > 0 {
			require.GreaterOrEqual(t, cl.cycle, calls[i-1].cycle)
		}
		if cl.seq%every == every-1 && i+1 < len(calls) {
			require.GreaterOrEqual(t, calls[i+1].cycle, cl.cycle+stall, "instruction %d: the stall is honoured", i)
		}
	}
	st := c.Stats()["stalls"].(map[string]uint64)
	assert.Equal(t, stalls*stall, st["profiler"], "profiler stall cycles")
	within(t, float64(base.Cycles()+stalls*stall), float64(c.Cycles()), 0.01, "cycles with stalls")
}

// A hook for some classes sees exactly those instructions, in order, and
// a stall it asks for costs what it costs a hook that sees every class;
// with no stall the timing is the run's without a hook.
func TestRetireHookClasses(t *testing.T) {
	code := loopProgram(t, "ld a2, 0(sp)", "addi a3, a3, 1", "ld a4, 8(sp)", "addi a5, a5, 1")
	const n = 300
	setup := func(h *cpu.CPU) { h.SetReg(5, n); h.SetReg(2, dataBase) }
	base := timeProgram(t, testMachine(), code, setup)
	run := func(classes cpu.ClassMask, stallEvery uint64) (*Core, []uint64) {
		h := newHart(t, code)
		setup(h)
		c, err := New(testMachine())
		require.NoError(t, err)
		var seqs []uint64
		c.SetRetireHook(func(r *Commit) uint64 {
			if classes != cpu.AllClasses && r.D.Inst.Class != isa.Load {
				t.Fatalf("the hook saw a %v", r.D.Inst.Class)
			}
			if r.D.Inst.Class == isa.Load {
				seqs = append(seqs, r.D.Seq)
			}
			if stallEvery != 0 && r.D.Inst.Class == isa.Load && r.D.Seq%stallEvery == 0 {
				return 7
			}
			return 0
		}, classes)
		runOn(t, h, c)
		require.NoError(t, c.Finish())
		return c, seqs
	}
	loads := cpu.ClassesOf(isa.Load)
	c, seqs := run(loads, 0)
	assert.Equal(t, base.Cycles(), c.Cycles(), "no stall: the cycles without a hook")
	require.Len(t, seqs, 2*n)
	for i := 1; i < len(seqs); i++ {
		require.Greater(t, seqs[i], seqs[i-1])
	}
	narrow, nseqs := run(loads, 12)
	wide, wseqs := run(cpu.AllClasses, 12)
	assert.Equal(t, wseqs, nseqs)
	assert.Equal(t, wide.Cycles(), narrow.Cycles(), "a load's stall costs the same")
	assert.Greater(t, narrow.Cycles(), base.Cycles())
}

// TestDeadlockDetector: a lost wakeup (the model bug the detector exists
// for) is reported as an error with a dump, never a hang; so is a state
// that keeps promising progress but never makes any.
func TestDeadlockDetector(t *testing.T) {
	insts := straight(t, codeBase, "div a0, a1, a2", "addi a3, a0, 1", "addi a4, a3, 1")
	t.Run("lost wakeup", func(t *testing.T) {
		c, err := New(testMachine())
		require.NoError(t, err)
		stopped := false
		c.SetStopFunc(func() { stopped = true })
		c.Retire(insts)
		for c.dispatched < 3 {
			require.Positive(t, c.cycle()+1)
			c.now++
		}
		c.win[0].deps = -1 // the divide forgets its consumer
		err = c.Finish()
		var de *DeadlockError
		require.True(t, errors.As(err, &de), "want a DeadlockError, got %v", err)
		assert.Contains(t, de.Why, "nothing can make progress")
		assert.Contains(t, de.Dump, "ROB #1")
		assert.Regexp(t, `ROB #1 pc 0x10004 addi +x13 <- x10 `, de.Dump)
		assert.True(t, stopped, "the stop function is called")
		assert.Equal(t, err, c.Err())
		c.Retire(insts) // ignored after a failure, no panic
	})
	t.Run("no progress for deadlock_cycles", func(t *testing.T) {
		m := testMachine()
		m.Core.DeadlockCycles = 5000
		c, err := New(m)
		require.NoError(t, err)
		c.Retire(insts)
		for c.win[0].flags&fIssued == 0 {
			c.cycle()
			c.now++
		}
		c.win[0].doneAt = 1 << 40 // never completes in practice
		err = c.Finish()
		var de *DeadlockError
		require.True(t, errors.As(err, &de), "want a DeadlockError, got %v", err)
		assert.Contains(t, de.Why, "no progress for")
		assert.Less(t, de.Cycle, uint64(1<<30), "detected long before the completion")
	})
	t.Run("a long retire-hook stall is not a deadlock", func(t *testing.T) {
		m := testMachine()
		m.Core.DeadlockCycles = 1000
		c, err := New(m)
		require.NoError(t, err)
		c.SetRetireHook(func(*Commit) uint64 { return 50000 }, cpu.AllClasses)
		c.Retire(insts)
		require.NoError(t, c.Finish())
		assert.Greater(t, c.Cycles(), uint64(3*50000))
	})
}

// TestIntervals: --interval output has a header and one line per interval
// whose counts add up to the totals.
func TestIntervals(t *testing.T) {
	code, setup := mixedProgram(t)
	insts := record(t, code, setup)
	var buf bytes.Buffer
	c := feed(t, config.Default(), insts, 256, func(c *Core) { c.SetIntervalWriter(&buf, 1000) })
	rows, err := csv.NewReader(&buf).ReadAll()
	require.NoError(t, err)
	require.Greater(t, len(rows), 2)
	head := rows[0]
	require.Equal(t, "interval", head[0])
	col := func(name string) int {
		for i, h := range head {
			if h == name {
				return i
			}
		}
		t.Fatalf("no column %s", name)
		return 0
	}
	var insn, cyc, misp uint64
	for i, r := range rows[1:] {
		require.Len(t, r, len(head))
		assert.Equal(t, strconv.Itoa(i), r[0])
		v := func(name string) uint64 {
			x, err := strconv.ParseUint(r[col(name)], 10, 64)
			require.NoError(t, err)
			return x
		}
		if i < len(rows)-2 {
			assert.InDelta(t, 1000, float64(v("instructions")), 4, "row %d: an interval ends within a commit group of the boundary", i)
		}
		insn += v("instructions")
		cyc += v("cycles")
		misp += v("mispredicts")
	}
	assert.Equal(t, c.Instructions(), insn)
	assert.LessOrEqual(t, cyc, c.Cycles())
	assert.Greater(t, cyc, c.Cycles()-10, "the intervals cover the run")
	all := c.Stats()["bpred"].(map[string]any)["all"].(map[string]any)
	assert.Equal(t, all["mispredicts"], misp)
}

// TestStatsConsistency: the CPI stack covers every cycle once, the class
// counts add up, and the per-stage counts agree with the commit count.
func TestStatsConsistency(t *testing.T) {
	code, setup := mixedProgram(t)
	c := timeProgram(t, config.Default(), code, setup)
	s := c.Stats()
	var sum uint64
	for _, v := range s["cpi_stack"].(map[string]uint64) {
		sum += v
	}
	assert.Equal(t, c.Cycles(), sum, "the CPI stack sums to the cycles")
	p := s["pipeline"].(map[string]any)
	for _, stage := range []string{"fetch", "decode", "rename", "commit"} {
		assert.Equal(t, c.Instructions(), p[stage].(map[string]any)["instructions"], stage)
	}
	var issued uint64
	for _, v := range s["fu"].(map[string]any) {
		issued += v.(map[string]any)["issued"].(uint64)
	}
	assert.Equal(t, c.Instructions(), issued, "every instruction issues once")
	assert.InDelta(t, float64(c.Instructions())/float64(c.Cycles()), s["ipc"], 1e-12)
	caches := s["caches"].(map[string]any)
	l1d := caches["l1d"].(map[string]any)
	assert.Equal(t, l1d["accesses"], l1d["hits"].(uint64)+l1d["misses"].(uint64)+l1d["mshr_hits"].(uint64))
	var out bytes.Buffer
	c.Summary(&out)
	for _, want := range []string{"IPC", "conditional", "return", "l1d", "unit utilisation"} {
		assert.Contains(t, out.String(), want)
	}
}

// TestCycleAt: the cycle CSR function follows the model and never goes back.
func TestCycleAt(t *testing.T) {
	code := loopProgram(t, "csrr a1, cycle", "addi a2, a2, 1")
	h := newHart(t, code)
	h.SetReg(5, 300)
	c, err := New(testMachine())
	require.NoError(t, err)
	h.CycleFunc = c.CycleAt
	var prev uint64
	c.SetRetireHook(func(r *Commit) uint64 {
		d := r.D
		if d.Inst.Op.String() == "csrrs" {
			require.GreaterOrEqual(t, d.Result, prev, "the cycle CSR never decreases")
			prev = d.Result
		}
		return 0
	}, cpu.AllClasses)
	runOn(t, h, c)
	require.NoError(t, c.Finish())
	assert.Positive(t, prev)
	assert.LessOrEqual(t, prev, c.Cycles())
}

func TestNewErrors(t *testing.T) {
	_, err := New(nil)
	require.Error(t, err)
	m := testMachine()
	m.Core.ROB = 0
	_, err = New(m)
	require.ErrorContains(t, err, "core.rob")
	m = testMachine()
	m.BPred.Kind = "oracle"
	_, err = New(m)
	require.ErrorContains(t, err, "bpred.kind")
}

// TestPresetsRun: every preset runs the mixed program; the timing is in a
// plausible range (an IPC between 0.05 and the width).
func TestPresetsRun(t *testing.T) {
	code, setup := mixedProgram(t)
	for _, name := range config.Presets() {
		t.Run(name, func(t *testing.T) {
			m, err := config.Preset(name)
			require.NoError(t, err)
			c := timeProgram(t, m, code, setup)
			ipc := float64(c.Instructions()) / float64(c.Cycles())
			assert.Greater(t, ipc, 0.05, name)
			assert.Less(t, ipc, float64(m.Core.CommitWidth), name)
			assert.Equal(t, name, c.Stats()["machine"])
		})
	}
}

// TestTrapRedirect: a jump in the stream that no instruction explains (a
// trap) restarts fetch after the instruction before it commits.
func TestTrapRedirect(t *testing.T) {
	a := straight(t, codeBase, "addi a0, a0, 1")
	b := straight(t, codeBase+0x1000, "addi a1, a1, 1")
	b[0].Seq = 1
	m := testMachine()
	c := feed(t, m, append(a, b...), 256, nil)
	assert.Equal(t, uint64(1), c.fetch.traps)
	// The first instruction commits at 115 (see TestScenarios); fetch
	// restarts at 115 + penalty 2, misses (111), then decode 2, dispatch,
	// issue, done, commit.
	assert.Equal(t, uint64(115+2+111+2+1+1+1), c.Cycles())
	assert.Equal(t, uint64(115+2-1), c.Stats()["stalls"].(map[string]uint64)["trap"])
}

func ExampleCore() {
	m, _ := config.Preset("default")
	core, _ := New(m)
	// h := cpu.New(memory); h.SetObserver(core); h.CycleFunc = core.CycleAt; h.Run(...)
	core.Retire([]cpu.DynInst{})
	if err := core.Finish(); err != nil {
		fmt.Println(err)
	}
	fmt.Println(core.Cycles(), strings.Contains(fmt.Sprint(core.Stats()["machine"]), "default"))
	// Output: 0 true
}

// TestCommitCounts: commit counts every load and every store of the
// stream once (plain ones take commit's inline path, the rest retireRare).
func TestCommitCounts(t *testing.T) {
	code, setup := mixedProgram(t)
	insts := record(t, code, setup)
	var loads, stores uint64
	for i := range insts {
		var u uop
		u.classify(&insts[i], new(decodeCache))
		if u.flags&fLoad != 0 {
			loads++
		}
		if u.flags&fStore != 0 {
			stores++
		}
	}
	require.NotZero(t, loads)
	require.NotZero(t, stores)
	for _, preset := range config.Presets() {
		m, err := config.Preset(preset)
		require.NoError(t, err)
		c := feed(t, m, insts, 256, nil)
		require.Equal(t, loads, c.commit.loads, preset)
		require.Equal(t, stores, c.commit.stores, preset)
	}
}

// TestCommitExtras: commit's tick runs its tail (the hook-cost record, the
// interval writer, the cycle sink) only when one of them is set; with
// each set, the run is the same as with the tail run every cycle.
func TestCommitExtras(t *testing.T) {
	code, setup := mixedProgram(t)
	insts := record(t, code, setup)
	type run struct {
		stats     map[string]any
		intervals string
		recs      []CycleCommit
		hooked    int
	}
	settings := map[string]func(c *Core, r *run, buf *bytes.Buffer){
		"hook": func(c *Core, r *run, _ *bytes.Buffer) {
			c.SetRetireHook(func(d *Commit) uint64 {
				r.hooked++
				return uint64(d.D.Seq % 3) // stalls of 0 to 2 cycles
			}, cpu.AllClasses)
		},
		"intervals": func(c *Core, _ *run, buf *bytes.Buffer) { c.SetIntervalWriter(buf, 100) },
		"cycle sink": func(c *Core, r *run, _ *bytes.Buffer) {
			c.SetCycleSink(func(b []CycleCommit) { r.recs = append(r.recs, b...) })
		},
		"none": func(*Core, *run, *bytes.Buffer) {},
	}
	for name, set := range settings {
		var out [2]run
		for i, all := range []bool{false, true} {
			var buf bytes.Buffer
			c := feed(t, config.Default(), insts, 256, func(c *Core) {
				c.commit.allTail = all
				c.setExtras()
				set(c, &out[i], &buf)
				require.Equal(t, all || name != "none", c.commit.extras, name)
			})
			out[i].stats, out[i].intervals = c.Stats(), buf.String()
			delete(out[i].stats, "host_seconds")
			delete(out[i].stats, "mips")
		}
		require.Equal(t, out[1], out[0], name)
	}
	c, err := New(config.Default())
	require.NoError(t, err)
	c.SetRetireHook(func(*Commit) uint64 { return 0 }, cpu.AllClasses)
	c.SetIntervalWriter(new(bytes.Buffer), 10)
	require.True(t, c.commit.extras)
	c.SetRetireHook(nil, 0)
	require.True(t, c.commit.extras, "the interval writer is still set")
	c.SetIntervalWriter(nil, 0)
	require.False(t, c.commit.extras, "nothing is set")
}
