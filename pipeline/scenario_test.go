package pipeline

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/config"
	"github.com/rvsim/rvsim/cpu"
)

// Scenario tests: tiny synthetic streams on testMachine with cold caches,
// each checking the exact cycle arithmetic of one stage.
//
// The common timeline of a first instruction (testMachine: l1i 1, l2 10,
// memory 100, decode_stages 2): fetch at cycle 0 misses the L1I and L2, so
// the block is delivered at 0+1+10+100 = 111; decode at 111 (ready
// 111+2 = 113); rename/dispatch at 113 (ready to issue at 114); issue at
// 114; an ALU result at 115; commit at 115; Cycles() counts cycles 0..115,
// so 116.
const firstIssue = 114

func TestScenarios(t *testing.T) {
	tests := []struct {
		desc   string
		lines  []string
		tweak  func(m *config.Machine)
		cycles uint64
		stalls map[string]uint64
	}{
		{desc: "one ALU op: issue at 114, done 115, commit 115",
			lines: []string{"addi a0, a0, 1"}, cycles: firstIssue + 2},
		{desc: "two independent ALU ops issue together",
			lines: []string{"addi a0, a0, 1", "addi a1, a1, 1"}, cycles: firstIssue + 2},
		{desc: "two dependent ALU ops: the second issues a cycle later",
			lines: []string{"addi a0, a0, 1", "addi a0, a0, 1"}, cycles: firstIssue + 3},
		{desc: "x0 is never a dependency",
			lines: []string{"addi zero, a0, 1", "addi a1, zero, 1"}, cycles: firstIssue + 2},
		{desc: "X and F register files are separate",
			lines: []string{"addi a0, a0, 1", "fadd.d fa0, fa0, fa1"}, cycles: firstIssue + 3 + 1},
		{desc: "multiply latency 4",
			lines: []string{"mul a0, a1, a2"}, cycles: firstIssue + 4 + 1},
		{desc: "a multiply chain: 4 + 4",
			lines: []string{"mul a0, a1, a2", "mul a0, a0, a2"}, cycles: firstIssue + 8 + 1},
		{desc: "unpipelined divider: the second independent div waits 20 cycles",
			lines: []string{"div a0, a1, a2", "div a3, a1, a2"}, cycles: firstIssue + 20 + 20 + 1},
		{desc: "pipelined multiplier: independent muls one cycle apart (one unit)",
			lines: []string{"mul a0, a1, a2", "mul a3, a1, a2"}, cycles: firstIssue + 1 + 4 + 1},
		{desc: "cold load: agen 1, then l1d 2 + l2 10 + memory 100",
			lines: []string{"ld a0, 0(a1) @0x2000000"}, cycles: firstIssue + 1 + 2 + 10 + 100 + 1},
		{desc: "ROB of 1: the second op dispatches when the first commits (cycle 115)",
			lines:  []string{"addi a0, a0, 1", "addi a1, a1, 1"},
			tweak:  func(m *config.Machine) { m.Core.ROB, m.Core.IQ = 1, 1 },
			cycles: firstIssue + 2 + 2, stalls: map[string]uint64{"rob_full": 2}},
		{desc: "IQ of 1: the second op dispatches the cycle after the first issues",
			lines:  []string{"addi a0, a0, 1", "addi a1, a1, 1"},
			tweak:  func(m *config.Machine) { m.Core.IQ = 1 },
			cycles: firstIssue + 2 + 1, stalls: map[string]uint64{"iq_full": 1}},
		{desc: "one rename register: the second result waits for the first commit",
			lines:  []string{"addi a0, a0, 1", "addi a1, a1, 1"},
			tweak:  func(m *config.Machine) { m.Core.IntRegs = 33 },
			cycles: firstIssue + 2 + 2, stalls: map[string]uint64{"regs_full": 2}},
		// The first store commits at 115 and writes the D-cache (a miss: the
		// fill completes at 115+2+10+100 = 227); its entry frees then. The
		// second store dispatches at 227, issues at 228, knows its address
		// and commits at 229.
		{desc: "SQ of 1: the second store waits for the first store's write to drain",
			lines:  []string{"sd a0, 0(a1) @0x2000000", "sd a0, 8(a1) @0x2000008"},
			tweak:  func(m *config.Machine) { m.Core.SQ = 1 },
			cycles: 227 + 3, stalls: map[string]uint64{"lsq_full": 227 - 113}},
		{desc: "a unified LSQ of 1 holds one load or store",
			lines:  []string{"ld a2, 0(a1) @0x2000000", "sd a0, 8(a1) @0x2000008"},
			tweak:  func(m *config.Machine) { m.Core.LSQ = 2; m.Core.LQ = 1 },
			cycles: firstIssue + 1 + 2 + 10 + 100 + 1},
		{desc: "serializing CSR op: the next op dispatches after it commits",
			lines:  []string{"csrr a0, mstatus", "addi a1, a1, 1"},
			cycles: firstIssue + 2 + 2, stalls: map[string]uint64{"serialize": 2}},
		{desc: "an op after a serializing one waits for the ROB to drain first",
			lines:  []string{"addi a1, a1, 1", "fence"},
			cycles: firstIssue + 2 + 2, stalls: map[string]uint64{"serialize": 2}},
		{desc: "a cycle-counter read does not serialize",
			lines: []string{"rdcycle a0", "addi a1, a1, 1"}, cycles: firstIssue + 2},
		// fadd (3 cycles) issues at 114; frflags reads the flags it sets.
		{desc: "an fflags read waits for the FP op before it, without serializing",
			lines: []string{"fadd.d fa0, fa1, fa2", "frflags a0", "addi a1, a1, 1"}, cycles: firstIssue + 3 + 1 + 1},
		{desc: "an fflags write orders nothing after it",
			lines: []string{"fsflags a0", "fadd.d fa0, fa1, fa2"}, cycles: firstIssue + 3 + 1},
		// fsrm issues at 114 (done 115); the dynamic-rounding fadd waits for it.
		{desc: "an FP op with dynamic rounding waits for an frm write",
			lines: []string{"fsrm a0", "fadd.d fa0, fa1, fa2"}, cycles: firstIssue + 1 + 3 + 1},
		{desc: "an FP op with a static rounding mode does not",
			lines: []string{"fsrm a0", "fadd.d fa0, fa1, fa2, rne"}, cycles: firstIssue + 3 + 1},
		{desc: "commit width 1: two ready ops commit in two cycles",
			lines:  []string{"addi a0, a0, 1", "addi a1, a1, 1"},
			tweak:  func(m *config.Machine) { m.Core.CommitWidth = 1 },
			cycles: firstIssue + 3},
		{desc: "issue width 1: independent ops issue one a cycle",
			lines:  []string{"addi a0, a0, 1", "addi a1, a1, 1", "addi a2, a2, 1"},
			tweak:  func(m *config.Machine) { m.Core.IssueWidth = 1 },
			cycles: firstIssue + 2 + 2},
		{desc: "fetch width 1: one instruction per cycle after the miss",
			lines:  []string{"addi a0, a0, 1", "addi a1, a1, 1"},
			tweak:  func(m *config.Machine) { m.Core.FetchWidth = 1 },
			cycles: firstIssue + 2 + 1},
		{desc: "deeper decode: 5 stages instead of 2",
			lines:  []string{"addi a0, a0, 1"},
			tweak:  func(m *config.Machine) { m.Core.DecodeStages = 5 },
			cycles: firstIssue + 3 + 2},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			m := testMachine()
			if tc.tweak != nil {
				tc.tweak(m)
			}
			for _, skip := range []bool{true, false} {
				c := feed(t, m, straight(t, codeBase, tc.lines...), 256, func(c *Core) { c.noSkip = !skip })
				assert.Equal(t, tc.cycles, c.Cycles(), "cycles (skip %v)", skip)
				st := c.Stats()["stalls"].(map[string]uint64)
				for k, v := range tc.stalls {
					assert.Equal(t, v, st[k], "stalls[%s] (skip %v)", k, skip)
				}
			}
		})
	}
}

// TestScenarioFetchBlocks checks how fetch cuts blocks: at fetch_width, at
// an I-cache line boundary, and after a predicted-taken branch.
func TestScenarioFetchBlocks(t *testing.T) {
	jump := func(pc, target uint64) cpu.DynInst {
		d := straight(t, pc, "j .+0")[0]
		d.Inst.Imm = int64(target - pc)
		d.NextPC, d.Taken = target, true
		return d
	}
	tests := []struct {
		desc   string
		insts  func() []cpu.DynInst
		blocks uint64
	}{
		{desc: "8 straight instructions from a line start: 2 blocks of 4",
			insts: func() []cpu.DynInst { return straight(t, 0x10000, repeat(8, func(int) string { return "nop" })...) }, blocks: 2},
		{desc: "8 instructions starting 8 bytes before a line end: 2 + 4 + 2",
			insts: func() []cpu.DynInst { return straight(t, 0x10038, repeat(8, func(int) string { return "nop" })...) }, blocks: 3},
		{desc: "a taken jump ends the block: [nop j] [nop nop nop nop] [nop]",
			insts: func() []cpu.DynInst {
				s := straight(t, 0x10000, "nop")
				s = append(s, jump(0x10004, 0x10100))
				s = append(s, straight(t, 0x10100, repeat(5, func(int) string { return "nop" })...)...)
				return s
			}, blocks: 3},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			m := testMachine()
			m.BPred.Kind = "perfect"
			c := feed(t, m, tc.insts(), 256, nil)
			assert.Equal(t, tc.blocks, c.fetch.blocks)
		})
	}
}

// TestScenarioMispredict checks the redirect arithmetic of one
// mispredicted branch (bimodal counters start weakly not-taken, so a taken
// branch is mispredicted).
func TestScenarioMispredict(t *testing.T) {
	// bnez at 0x10000 taken to 0x10040, then one addi there.
	br := straight(t, 0x10000, "bnez a0, .+64")[0]
	br.NextPC, br.Taken = 0x10040, true
	insts := append([]cpu.DynInst{br}, straight(t, 0x10040, "addi a1, a1, 1")...)
	for _, penalty := range []int{0, 2, 7} {
		m := testMachine()
		m.BPred.Kind = "bimodal"
		m.Core.RedirectPenalty = penalty
		c := feed(t, m, insts, 256, nil)
		// The branch issues at 114 and resolves at 115; fetch restarts at
		// 115+penalty and misses in the L1I (another line) but hits... no:
		// the L2 holds 64-byte lines, so 0x10040 is a new L2 line too:
		// 1 + 10 + 100 cycles. Then decode 2, dispatch, issue, done, commit.
		restart := uint64(firstIssue + 1 + penalty)
		want := restart + 111 + 2 + 1 + 1 + 1
		assert.Equal(t, want, c.Cycles(), "penalty %d", penalty)
		st := c.Stats()["stalls"].(map[string]uint64)
		assert.Equal(t, restart-1, st["mispredict"], "penalty %d: fetch idles from cycle 1 to the restart", penalty)
		assert.Equal(t, uint64(1), c.fetch.redirects)
	}
}

// TestScenarioDISE checks the decode penalty of DISE replacements.
func TestScenarioDISE(t *testing.T) {
	for _, tc := range []struct {
		desc     string
		perInst  bool
		penalty  int
		replaced []int // which of the 4 instructions start a replacement
		charges  uint64
	}{
		{desc: "one replacement of four instructions: one charge", penalty: 3, replaced: []int{0}, charges: 1},
		{desc: "two adjacent replacements: two charges", penalty: 3, replaced: []int{0, 2}, charges: 2},
		{desc: "per instruction: every injected one", perInst: true, penalty: 3, replaced: []int{0}, charges: 4},
		{desc: "no penalty", penalty: 0, replaced: []int{0}, charges: 0},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			m := testMachine()
			m.Core.DISEPenalty, m.Core.DISEPerInst = tc.penalty, tc.perInst
			// Four injected instructions at the replaced PC (NextPC = PC).
			insts := straight(t, codeBase, "addi a0, a0, 1", "addi a1, a1, 1", "addi a2, a2, 1", "addi a3, a3, 1")
			for i := range insts {
				insts[i].PC, insts[i].NextPC, insts[i].Injected = codeBase, codeBase, true
			}
			for _, r := range tc.replaced {
				insts[r].Replaced = true
			}
			c := feed(t, m, insts, 256, nil)
			assert.Equal(t, tc.charges, c.decode.diseCharges)
			// The first instruction stands for the fetched original: one
			// I-cache access (a cold miss, delivered at 111) and one unit of
			// fetch bandwidth; the rest ride along. Decode at 111 plus the
			// charges (each holds the whole group), then dispatch 2 later,
			// issue, done, commit.
			assert.Equal(t, uint64(1), c.fetch.blocks)
			want := 111 + tc.charges*uint64(tc.penalty) + 2 + 1 + 1 + 1
			assert.Equal(t, want, c.Cycles())
			assert.Equal(t, tc.charges*uint64(tc.penalty), c.Stats()["stalls"].(map[string]uint64)["dise"])
		})
	}
}

// TestScenarioDISEFetch: the rest of a replacement sequence takes no fetch
// bandwidth, and a handler call continues at the handler's code without a
// trap or a misprediction (decode redirects fetch to it: see
// TestScenarioDISEHandlerCall for the cycles).
func TestScenarioDISEFetch(t *testing.T) {
	m := testMachine()
	seq := straight(t, codeBase, "addi a0, a0, 1", "addi a1, a1, 1", "addi a2, a2, 1", "addi a3, a3, 1",
		"addi a4, a4, 1", "addi a5, a5, 1", "addi a6, a6, 1", "addi a7, a7, 1")
	for i := range seq {
		seq[i].PC, seq[i].NextPC, seq[i].Injected = codeBase, codeBase, true
	}
	seq[0].Replaced = true
	call := straight(t, codeBase, "j .+0")[0]
	call.Injected, call.Taken, call.NextPC = true, true, codeBase+0x800
	handler := straight(t, codeBase+0x800, "addi s2, s2, 1", "addi s3, s3, 1")
	after := straight(t, codeBase+4, "addi s4, s4, 1")
	handler[1].NextPC = codeBase + 4 // returns past the replaced instruction
	insts := append(append(append(seq, call), handler...), after...)
	c := feed(t, m, insts, 256, nil)
	assert.Zero(t, c.fetch.traps, "no trap")
	assert.Zero(t, c.fetch.redirects, "injected control flow is not predicted")
	assert.Equal(t, uint64(1), c.fetch.handlerEntries)
	// Blocks: the replaced instruction (+8 free, the injected jump), the
	// handler (another line), the instruction after the replacement.
	assert.Equal(t, uint64(3), c.fetch.blocks)
	assert.Equal(t, uint64(len(insts)), c.Instructions())
}

// TestScenarioForwarding checks store-to-load forwarding arithmetic. A
// 20-cycle divide heads each stream so that the store cannot commit (at
// 134) before the load issues; the test checks the load's completion cycle.
func TestScenarioForwarding(t *testing.T) {
	tests := []struct {
		desc                string
		lines               []string
		fwd, waits, partial uint64
		loadDone            uint64
	}{
		// The store issues at 114 (address known at 115); the load, blocked
		// until then, issues at 115 and forwards: max(115+1, data 0) + 2.
		{desc: "full overlap forwards",
			lines: []string{"div a5, a6, a7", "sd a0, 0(a1) @0x2000000", "ld a2, 0(a1) @0x2000000"},
			fwd:   1, loadDone: 115 + 1 + 2},
		{desc: "a narrower load inside the store forwards",
			lines: []string{"div a5, a6, a7", "sd a0, 0(a1) @0x2000000", "lw a2, 4(a1) @0x2000004"},
			fwd:   1, loadDone: 115 + 1 + 2},
		// A wider load waits until the store has written the D-cache: it
		// commits at 134, its write misses and fills at 134+2+10+100 = 246,
		// when the entry drains; the load issues at 247 and hits: +1 +2.
		{desc: "partial overlap waits for the store's write",
			lines:   []string{"div a5, a6, a7", "sw a0, 0(a1) @0x2000000", "ld a2, 0(a1) @0x2000000"},
			partial: 1, loadDone: 246 + 1 + 1 + 2},
		{desc: "an older store to other bytes of the granule does not forward",
			lines:    []string{"div a5, a6, a7", "sw a0, 4(a1) @0x2000004", "lw a2, 0(a1) @0x2000000"},
			loadDone: 115 + 1 + 2 + 10 + 100},
		{desc: "the youngest overlapping store forwards, not an older one",
			lines: []string{"div a5, a6, a7", "sd a0, 0(a1) @0x2000000", "sw a0, 8(a1) @0x2000008",
				"lw a2, 4(a1) @0x2000004"},
			fwd: 1, loadDone: 115 + 1 + 2},
		{desc: "different lines: no forwarding, the load goes to memory",
			lines:    []string{"div a5, a6, a7", "sd a0, 0(a1) @0x2000000", "ld a2, 8(a1) @0x2000040"},
			loadDone: 115 + 1 + 2 + 10 + 100},
		// The data comes from a 4-cycle multiply issued at 114 (ready 118),
		// known before the load issues at 115: max(116, 118) + 2.
		{desc: "forwarding waits for the store data",
			lines: []string{"div a5, a6, a7", "mul a0, a3, a3", "sd a0, 0(a1) @0x2000000", "ld a2, 0(a1) @0x2000000"},
			fwd:   1, loadDone: 118 + 2},
		// The data comes from a second divide, which waits for the unit until
		// 134 (ready 154). The load parks on the store at 115 and is woken when
		// the divide issues: it issues at 135 and forwards at 154 + 2.
		{desc: "a load parks until the store data's producer issues",
			lines: []string{"div a5, a6, a7", "div a0, a3, a4", "sd a0, 0(a1) @0x2000000", "ld a2, 0(a1) @0x2000000"},
			fwd:   1, waits: 1, loadDone: 154 + 2},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			for _, skip := range []bool{true, false} {
				insts := straight(t, codeBase, tc.lines...)
				c := feed(t, testMachine(), insts, 256, func(c *Core) { c.noSkip = !skip })
				load := &c.win[uint64(len(insts)-1)&c.mask]
				assert.Equal(t, tc.loadDone, load.doneAt, "load completion (skip %v)", skip)
				assert.Equal(t, tc.fwd, c.issue.forwards, "forwards")
				assert.Equal(t, tc.waits, c.issue.fwdWaits, "waits for store data")
				assert.Equal(t, tc.partial, c.issue.partialWaits, "partial-overlap waits")
			}
		})
	}
}

// TestScenarioStoreAddressOrdering checks that a load waits for an older
// store's address even when the oracle says they do not overlap.
func TestScenarioStoreAddressOrdering(t *testing.T) {
	// The store's address comes from a 20-cycle divide issued at 114: the
	// store issues at 134 (address known at 135); the independent load to
	// another line may issue only then.
	lines := []string{"div a1, a3, a4", "sd a0, 0(a1) @0x2000000", "ld a2, 0(a5) @0x2000040"}
	c := feed(t, testMachine(), straight(t, codeBase, lines...), 256, nil)
	require.Equal(t, uint64(1), c.issue.loadsBlocked)
	assert.Equal(t, uint64(135+1+2+10+100+1), c.Cycles())
}

// TestScenarioStoreZero: a store of x0 has its data at once. Rename writes
// lastWriter's slot 0 for every instruction without a destination (here
// the first store), so a store's x0 data is regZero, never slot 0.
func TestScenarioStoreZero(t *testing.T) {
	lines := []string{"div a5, a6, a7", "sd a5, 8(a1) @0x2000008", "sd zero, 0(a1) @0x2000000"}
	c := feed(t, testMachine(), straight(t, codeBase, lines...), 256, nil)
	st := &c.win[2&c.mask]
	require.Equal(t, uint8(regZero), st.dsrc)
	assert.Equal(t, uint64(0), st.dataAt, "x0's data waits for nothing")
	assert.Equal(t, uint8(0), st.pendData)
	// The first store's data, a5, waits for the divide (issued at 114, 20 cycles).
	assert.Equal(t, uint64(firstIssue+20), c.win[1&c.mask].dataAt, "a5's data waits for the divide")
}

// TestScenarioFourSources: a fused multiply-add with dynamic rounding has
// four sources (rs1, rs2, rs3 and frm); each one is waited for.
func TestScenarioFourSources(t *testing.T) {
	for k, producer := range []string{"fmul.d fa1, fa5, fa5", "fmul.d fa2, fa5, fa5", "fmul.d fa3, fa5, fa5", "fsrm a0"} {
		c := feed(t, testMachine(), straight(t, codeBase, producer, "fmadd.d fa0, fa1, fa2, fa3"), 256, nil)
		lat := uint64(4) // fmul
		if k == 3 {
			lat = 1 // fsrm on an ALU
		}
		// The producer issues at 114; the fmadd (4 cycles) when it is done.
		assert.Equal(t, firstIssue+lat+4+1, c.Cycles(), producer)
	}
}

// TestScenarioWideWakeup: 40 consumers of one multiply become ready in the
// same cycle, more than a wheel bucket holds (the rest overflow to its
// heap). On an 8-wide machine with 8 ALUs and 256-byte lines (so the 41
// instructions arrive in one fetch miss), the multiply issues at 114
// (ready 118); the consumers issue 8 a cycle from 118 to 122 and the last
// commits at 123: 124 cycles. Skipping idle cycles changes nothing.
func TestScenarioWideWakeup(t *testing.T) {
	m := testMachine()
	k := &m.Core
	k.FetchWidth, k.DecodeWidth, k.RenameWidth, k.IssueWidth, k.CommitWidth, k.FetchQueue = 8, 8, 8, 8, 8, 64
	m.FU.IntALU.Count = 8
	m.L1I.Line, m.L2.Line = 256, 256
	lines := []string{"mul a0, a1, a2"}
	for i := 0; i < 40; i++ {
		lines = append(lines, "addi t1, a0, 1")
	}
	for _, skip := range []bool{true, false} {
		c := feed(t, m, straight(t, codeBase, lines...), 256, func(c *Core) { c.noSkip = !skip })
		assert.Equal(t, uint64(118+5+1), c.Cycles(), "skip %v", skip)
	}
}
