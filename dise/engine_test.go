package dise

import (
	"encoding/binary"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/isa"
	"github.com/rvsim/rvsim/mem"
)

const (
	codeBase    = 0x10000
	handlerBase = 0x30000
	mailboxBase = 0x40000
	stackTop    = 0x48000
)

func assemble(t testing.TB, lines ...string) []byte {
	t.Helper()
	var out []byte
	for _, l := range lines {
		if l == "dise.ret" {
			out = binary.LittleEndian.AppendUint32(out, 0x0000300b)
			continue
		}
		in, err := isa.Assemble(l) // (in.Raw is the encoding)
		require.NoError(t, err, l)
		out = binary.LittleEndian.AppendUint32(out, in.Raw)
	}
	return out
}

// recorder keeps every retired instruction.
type recorder struct{ insts []cpu.DynInst }

func (r *recorder) Retire(b []cpu.DynInst) { r.insts = append(r.insts, b...) }

// testRuntime has one handler, H, which counts its calls in s11.
var testRuntime = &Runtime{Mailbox: mailboxBase, Stack: stackTop, File: "test", Names: []string{"H"},
	Lookup: func(name string) (uint64, bool) { return handlerBase, name == "H" }}

func compile(t testing.TB, cfg Config, src string) *Program {
	t.Helper()
	f, err := ParseFile("test.acf", []byte(src))
	require.NoError(t, err)
	p, err := Compile(cfg, f)
	require.NoError(t, err)
	return p
}

// machine builds a hart running code at codeBase under the ACF src.
func machine(t testing.TB, src string, code []byte) (*cpu.CPU, *Engine, *recorder) {
	t.Helper()
	m := mem.New()
	require.NoError(t, m.Map(codeBase, 4*mem.PageSize, mem.RWX, "code"))
	require.NoError(t, m.Map(handlerBase, mem.PageSize, mem.RX, "handler"))
	require.NoError(t, m.Map(mailboxBase, stackTop-mailboxBase, mem.RW, "mailbox+stack"))
	require.NoError(t, m.Poke(codeBase, code))
	require.NoError(t, m.Poke(handlerBase, assemble(t, "addi s11,s11,1", "dise.ret")))
	c := cpu.New(m)
	c.PC = codeBase
	e, err := New(compile(t, DefaultConfig(), src), testRuntime)
	require.NoError(t, err)
	e.Attach(c)
	rec := &recorder{}
	c.SetObserver(rec)
	return c, e, rec
}

func decode(t testing.TB, line string) isa.Inst {
	t.Helper()
	in, err := isa.Assemble(line)
	require.NoError(t, err)
	return in
}

// Counter flags (§3.3): the zero flag is the value being zero; inc_N and
// dec_N wrap at the counter's width and set the sticky overflow flag;
// set_N copies a DISE register, truncated, and clears overflow.
func TestCounterSemantics(t *testing.T) {
	type step struct {
		imm      int // 1: inc_0, 2: dec_0, 3: set_0(V)
		value    uint64
		zero, ov bool
	}
	for _, tc := range []struct {
		desc       string
		bits       int
		init, regV uint64 // counter 0's initial value; V's value at run time
		steps      []step
	}{
		{"3-bit counter wraps to zero with overflow, which sticks", 3, 6, 0, []step{
			{1, 7, false, false}, {1, 0, true, true}, {1, 1, false, true}, {2, 0, true, true}}},
		{"set truncates to the width and clears overflow", 3, 7, 0x1d, []step{
			{1, 0, true, true}, {3, 5, false, false}}},
		{"dec below zero wraps to the largest value with overflow", 3, 2, 0, []step{
			{2, 1, false, false}, {2, 0, true, false}, {2, 7, false, true}, {1, 0, true, true}, {3, 0, true, false}}},
		{"16-bit counter", 16, 0xfffe, 0x1d, []step{{1, 0xffff, false, false}, {1, 0, true, true}, {3, 0x1d, false, false}, {2, 0x1c, false, false}}},
		{"1-bit counter", 1, 1, 0, []step{{2, 0, true, false}, {2, 1, false, true}, {1, 0, true, true}}},
		{"64-bit counter", 64, 1<<64 - 1, 1 << 63, []step{{1, 0, true, true}, {3, 1 << 63, false, false}, {2, 1<<63 - 1, false, false}}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			cfg := DefaultConfig()
			cfg.CounterBits = tc.bits
			src := fmt.Sprintf(`
dise_reg V = 0
counter 0 = %#x
P1: T.OP == addi && T.IMM == 1 -> inc_0, null
P2: T.OP == addi && T.IMM == 2 -> dec_0, null
P3: T.OP == addi && T.IMM == 3 -> set_0(V), null
`, tc.init)
			prog := compile(t, cfg, src)
			e, err := New(prog, nil)
			require.NoError(t, err)
			var regs [256]uint64
			regs[isa.DISEReg0] = tc.regV // as a replacement could have written it
			e.regs = &regs
			v, zero, ov := e.Counter(0)
			require.Equal(t, tc.init, v)
			require.Equal(t, tc.init == 0, zero)
			require.False(t, ov)
			for i, s := range tc.steps {
				in := decode(t, fmt.Sprintf("addi a0, a0, %d", s.imm))
				assert.Nil(t, e.Edit(&in, codeBase), "null replacements")
				v, zero, ov := e.Counter(0)
				assert.Equal(t, s.value, v, "step %d value", i)
				assert.Equal(t, s.zero, zero, "step %d zero", i)
				assert.Equal(t, s.ov, ov, "step %d overflow", i)
			}
			assert.Equal(t, uint64(len(tc.steps)), e.Stats().MicroOps)
		})
	}
	// The checker refuses an initial value the counter cannot hold.
	cfg := DefaultConfig()
	cfg.CounterBits = 3
	f, err := ParseFile("t.acf", []byte("dise_reg V = 9\ncounter 1 = 8\nP: T.OP == add -> set_0(V), null\n"))
	require.NoError(t, err)
	_, err = Compile(cfg, f)
	require.EqualError(t, err, "t.acf:2:9: counter 1 = 0x8 does not fit a 3-bit counter (largest 0x7)\n"+
		"t.acf:3:25: V starts at 0x9, which does not fit the 3-bit counter 0")
}

// The CT masks a match with the flags; the first production that matches
// wins; a production whose flags fail runs no micro-ops and lets the next
// one try.
func TestConditionalMatch(t *testing.T) {
	src := `
dise_reg NIL = 0
counter 0 = 1
counter 1 = 0
P1: T.OP == addi && zero_0 -> R1, inc_1
P2: T.OP == addi && !zero_0 && zero_1 -> inc_1, null
P3: T.OP == addi -> R3
P4: T.OP == hps.on -> set_0(NIL), null
R1: addi $d1, $d1, 1; T.INSN
R3: addi $d3, $d3, 1; T.INSN
`
	prog := compile(t, DefaultConfig(), src)
	e, err := New(prog, nil)
	require.NoError(t, err)
	var regs [256]uint64
	e.regs = &regs
	in := decode(t, "addi a0, a0, 1")
	require.True(t, e.Watches(&in, codeBase))
	x := e.Edit(&in, codeBase)
	require.Nil(t, x, "P2 matched (null)")
	v, _, _ := e.Counter(1)
	assert.Equal(t, uint64(1), v, "P2's inc_1 ran")
	x = e.Edit(&in, codeBase)
	require.NotNil(t, x, "P2's flags fail now: P3")
	assert.Equal(t, isa.DISEReg0+3, int(x.Seq[0].Inst.Rd))
	v, _, _ = e.Counter(1)
	assert.Equal(t, uint64(1), v, "P3 has no micro-ops")
	e.Trigger(true, codeBase)
	_, zero, _ := e.Counter(0)
	require.True(t, zero)
	x = e.Edit(&in, codeBase)
	require.NotNil(t, x)
	assert.Equal(t, isa.DISEReg0+1, int(x.Seq[0].Inst.Rd), "P1 now")
	v, _, _ = e.Counter(1)
	assert.Equal(t, uint64(2), v, "P1's micro-op")
	st := e.Stats()
	assert.Equal(t, uint64(4), st.Matches)
	assert.Equal(t, uint64(2), st.NullMatches, "P2 and the trigger's P4")
	assert.Equal(t, uint64(2), st.Replacements)
	assert.Equal(t, []uint64{1, 1, 1, 1}, st.PerProduction)

	other := decode(t, "add a0, a0, a1")
	assert.False(t, e.Watches(&other, codeBase+4), "no production can match add")
}

// A null replacement lets the instruction pass unchanged and unpenalised:
// no DynInst is marked, nothing is injected, but the micro-ops ran.
func TestNullReplacementNoPenalty(t *testing.T) {
	code := assemble(t, "addi a0,a0,1", "addi a1,a1,-1", "bnez a1, .-8", "nop")
	c, e, rec := machine(t, "P: T.OP == addi && T.RD == a0 -> inc_3, null\n", code)
	c.X[11] = 5
	require.Equal(t, cpu.StopLimit, c.Run(16).Reason)
	assert.Equal(t, uint64(5), c.X[10])
	v, _, _ := e.Counter(3)
	assert.Equal(t, uint64(5), v)
	assert.Equal(t, cpu.DISEStats{}, c.DISEStats())
	require.Len(t, rec.insts, 16)
	for _, d := range rec.insts {
		assert.False(t, d.Injected || d.Replaced, "%#x", d.PC)
	}

	// The same with a replacement: each addi a0 is marked replaced.
	c, _, rec = machine(t, "P: T.OP == addi && T.RD == a0 -> R\nR: T.INSN\n", code)
	c.X[11] = 5
	require.Equal(t, cpu.StopLimit, c.Run(16).Reason)
	replaced := 0
	for _, d := range rec.insts {
		if d.Replaced {
			replaced++
		}
	}
	assert.Equal(t, 5, replaced)
	assert.Equal(t, uint64(5), c.DISEStats().Replacements)
}

// The IL fills every T.* field: registers (by reading the registers they
// name), the immediate, the pc, the static target and the encoding; call
// arguments add the dynamic target and the application instruction count.
func TestInstantiateEveryField(t *testing.T) {
	src := `
P1: T.OP == sd -> R1
R1: {
	addi $d0, T.RS1, 0          # the value of the original's rs1 (s0)
	addi $d1, T.RS2, 0          # rs2 (a5)
	addi $d2, zero, T.IMM       # -24
	li $d3, T.PC
	li $d4, T.INSN
	T.INSN
}
P2: T.OP == bltu -> R2
R2: {
	li $d5, T.TARGET            # static: the branch's destination
	T.OP T.RS1, T.RS2, taken    # the branch's own condition
	addi $d6, zero, 1           # not taken
	j done
taken:
	addi $d6, zero, 2
done:
	T.INSN
}
P3: T.OP == jalr -> R3
R3: call(H, T.PC, T.TARGET, T.ICOUNT, T.RS1, T.RD, $d3, -5, T.INSN); addi $d7, T.RD, 0; T.INSN
`
	code := assemble(t,
		"sd a5, -24(s0)",   // 0x10000
		"bltu a3, a4, .+8", // 0x10004: taken
		"nop",              // 0x10008
		"jalr ra, 0(t1)",   // 0x1000c -> t1
		"nop",              // 0x10010
		"nop",              // 0x10014: t1 points here
	)
	c, _, rec := machine(t, src, code)
	for r := 1; r < 32; r++ {
		c.X[r] = 1000 + uint64(r)
	}
	c.X[8] = 0x20000 + 24 // s0: the store goes to the data page
	c.X[13], c.X[14] = 1, 2
	c.X[6] = codeBase + 0x14
	require.NoError(t, c.Mem.Map(0x20000, mem.PageSize, mem.RW, "data"))
	for c.PC != codeBase+0x18 {
		require.Equal(t, cpu.StopLimit, c.Run(max(1, c.DISEStep())).Reason)
	}
	d := func(n int) uint64 { return c.X[isa.DISEReg0+n] }
	sd := decode(t, "sd a5, -24(s0)")
	sdRaw, _ := isa.Encode(sd)
	assert.Equal(t, uint64(0x20000+24), d(0), "T.RS1")
	assert.Equal(t, uint64(1015), d(1), "T.RS2")
	assert.Equal(t, ^uint64(23), d(2), "T.IMM")
	assert.Equal(t, uint64(codeBase), d(3), "T.PC")
	assert.Equal(t, uint64(sdRaw), d(4), "T.INSN")
	assert.Equal(t, uint64(codeBase+4+8), d(5), "T.TARGET")
	assert.Equal(t, uint64(2), d(6), "T.OP took the taken path")
	assert.Equal(t, uint64(1001), d(7), "T.RD read before the jalr wrote ra")
	v, _ := c.Mem.Read64(0x20000)
	assert.Equal(t, uint64(1015), v, "the original store ran")
	mb := func(k int) uint64 {
		v, ok := c.Mem.Read64(mailboxBase + 8*uint64(k))
		require.True(t, ok)
		return v
	}
	jalr := decode(t, "jalr ra, 0(t1)")
	jalrRaw, _ := isa.Encode(jalr)
	assert.Equal(t, uint64(codeBase+0xc), mb(0), "T.PC")
	assert.Equal(t, uint64(codeBase+0x14), mb(1), "T.TARGET of a jalr, from t1 at the call")
	assert.Equal(t, uint64(2), mb(2), "T.ICOUNT: sd and bltu (nop skipped) before the jalr")
	assert.Equal(t, uint64(codeBase+0x14), mb(3), "T.RS1's value")
	assert.Equal(t, uint64(1001), mb(4), "T.RD's value before the jalr")
	assert.Equal(t, uint64(codeBase), mb(5), "$d3")
	assert.Equal(t, ^uint64(4), mb(6), "a constant")
	assert.Equal(t, uint64(jalrRaw), mb(7), "T.INSN")
	assert.Equal(t, uint64(1028), c.X[27], "the handler ran once")
	assert.Equal(t, uint64(codeBase+0x10), c.X[1], "the jalr linked")
	// The branch's record: not injected, taken; the in-sequence branch: injected.
	var orig, inseq *cpu.DynInst
	for i := range rec.insts {
		r := &rec.insts[i]
		if r.PC == codeBase+4 && r.Inst.Op == isa.BLTU {
			if r.Injected {
				inseq = r
			} else {
				orig = r
			}
		}
	}
	require.NotNil(t, orig)
	require.NotNil(t, inseq)
	assert.True(t, orig.Taken)
	assert.Equal(t, uint64(codeBase+12), orig.NextPC)
	assert.True(t, inseq.Taken)
	assert.False(t, inseq.Replaced, "the penalty rides on R2's first element, li $d5")
}

// External triggers (§3.4): the trigger's production runs in decode; a
// null replacement injects just the trigger, a replacement is injected
// with the trigger standing in for T.INSN.
func TestTrigger(t *testing.T) {
	src := `
dise_reg ON = 0
dise_reg OFF = 1
counter 0 = 1
P0: T.OP == hps.on -> set_0(ON), R_on
P1: T.OP == hps.off -> set_0(OFF), null
R_on: addi $d7, $d7, 1; T.INSN
`
	e, err := New(compile(t, DefaultConfig(), src), nil)
	require.NoError(t, err)
	var regs [256]uint64
	regs[isa.DISEReg0+1] = 1
	e.regs = &regs
	x := e.Trigger(true, codeBase)
	_, zero, _ := e.Counter(0)
	assert.True(t, zero, "sampling on")
	require.Len(t, x.Seq, 2)
	assert.Equal(t, cpu.SeqInst, x.Seq[0].Kind)
	assert.Equal(t, isa.ADDI, x.Seq[0].Inst.Op)
	assert.Equal(t, cpu.SeqInst, x.Seq[1].Kind, "the trigger is injected, not an original")
	assert.Equal(t, isa.HPS_ON, x.Seq[1].Inst.Op)
	x = e.Trigger(false, codeBase)
	_, zero, _ = e.Counter(0)
	assert.False(t, zero, "sampling off")
	require.Len(t, x.Seq, 1)
	assert.Equal(t, isa.HPS_OFF, x.Seq[0].Inst.Op)
	assert.Equal(t, uint64(2), e.Stats().Triggers)
}

func TestTableOverflow(t *testing.T) {
	for _, tc := range []struct {
		desc string
		cfg  func(*Config)
		src  string
		err  string
	}{
		{"PT: a pattern takes one entry per alternative",
			func(c *Config) { c.PTEntries = 3 },
			"P1: T.OP == add -> null\nP2: T.OP == beq || T.OP == bne || T.OP == blt -> null\n",
			"test.acf:2:1: pattern table overflow: production P2 needs 3 entries but only 2 of 3 are free"},
		{"PT: De Morgan",
			func(c *Config) { c.PTEntries = 1 },
			"P1: !(T.OP == beq && T.RD == 0) -> null\n",
			"test.acf:1:1: pattern table overflow: production P1 needs 2 entries but only 1 of 1 are free"},
		{"CT",
			func(c *Config) { c.CTEntries = 1 },
			"P1: T.OP == add && zero_0 -> null\nP2: T.OP == sub -> null\nP3: T.OP == beq -> inc_1, null\n",
			"test.acf:3:1: conditionals table overflow: production P3 needs an entry but all 1 are in use"},
		{"RT: the production that loads the replacement",
			func(c *Config) { c.RTEntries = 5 },
			"P1: T.OP == add -> R1\nP2: T.OP == sub -> R1\nP3: T.OP == beq -> R2\nR1: call(H, T.PC, T.TARGET); T.INSN\nR2: addi $d0, $d0, 1; T.INSN\n",
			"test.acf:3:1: replacement table overflow: production P3 needs 2 entries for R2 but only 1 of 5 are free"},
		{"CT inputs",
			func(c *Config) { c.CTInputs = 1 },
			"P1: T.OP == add && (zero_0 || overflow_0) -> null\n",
			"test.acf:1:21: the pattern tests 2 status flags; a conditionals-table entry's truth table has 1 inputs"},
		{"no free DISE register",
			nil,
			"dise_reg A = 1\nP: T.OP == add -> R\nR: addi $d0, $d1, 0; add $d2, $d3, $d4; add $d5, $d6, $d7\n",
			"test.acf:1:10: no free DISE register for A (all 8 of $d0-$d7 are named or used)"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			cfg := DefaultConfig()
			if tc.cfg != nil {
				tc.cfg(&cfg)
			}
			f, err := ParseFile("test.acf", []byte(tc.src))
			require.NoError(t, err)
			_, err = Compile(cfg, f)
			require.EqualError(t, err, tc.err)
		})
	}
}

// Loaded sizes: R1 (shared) is loaded once; a call takes an entry per
// argument and one for the jump.
func TestTableUse(t *testing.T) {
	p := compile(t, DefaultConfig(), `
dise_reg A = 5
P1: T.OP == add -> R1
P2: T.OP == sub || T.OP == xor -> R1
P3: T.OP == beq && zero_2 -> null
P4: T.OP == bne -> inc_1, null
R1: call(H, T.PC, T.TARGET); T.INSN
R9: T.INSN
`)
	assert.Equal(t, 4+1, p.PTUsed)
	assert.Equal(t, 2, p.CTUsed)
	assert.Equal(t, 4, p.RTUsed, "R1 once; R9 unused")
	assert.Equal(t, []string{"P1", "P2", "P3", "P4"}, p.Productions())
	assert.Equal(t, []string{"H"}, p.Handlers())
	assert.Equal(t, uint64(5), p.RegInit[0], "A gets the first free register")
	assert.Equal(t, "A", p.RegNames[0])
	assert.False(t, p.UsesTriggers())

	_, err := New(p, nil)
	require.EqualError(t, err, "test.acf:7:5: call(H, …) needs the handler runtime, and none is loaded (build it with make, or pass --handlers)")
	_, err = New(p, &Runtime{File: "rt.elf", Names: []string{"X", "B"}, Lookup: func(string) (uint64, bool) { return 0, false }})
	require.EqualError(t, err, "test.acf:7:5: handler H is not in the handler runtime rt.elf (it has: B, X)")
}

// Patterns see compressed instructions as their 32-bit equivalents, and
// by their own name too.
func TestCompressedAndStaticFields(t *testing.T) {
	e, err := New(compile(t, DefaultConfig(), `
P1: T.OP == c.beqz -> null
P2: T.OP == beq && T.TARGET < T.PC -> null
P3: T.OPCLASS == int_alu && T.IMM < 0 -> null
P4: T.RD == ra && T.OPCLASS == call -> null
`), nil)
	require.NoError(t, err)
	cbeqz, err := isa.Decode(0xc119) // c.beqz a0, .+? (any)
	require.NoError(t, err)
	require.Equal(t, isa.C_BEQZ, cbeqz.COp)
	assert.True(t, e.Watches(&cbeqz, codeBase))
	back := decode(t, "beq a0, a1, .-8")
	fwd := decode(t, "beq a0, a1, .+8")
	assert.True(t, e.Watches(&back, codeBase))
	assert.False(t, e.Watches(&fwd, codeBase))
	neg := decode(t, "addi a0, a0, -1")
	pos := decode(t, "addi a0, a0, 1")
	assert.True(t, e.Watches(&neg, codeBase))
	assert.False(t, e.Watches(&pos, codeBase), "T.IMM compares signed")
	call := decode(t, "jal ra, .+16")
	assert.True(t, e.Watches(&call, codeBase))
	jump := decode(t, "jal zero, .+16")
	assert.False(t, e.Watches(&jump, codeBase))
}

// A program can toggle sampling itself with hps.on/hps.off (the paper's
// profiling daemon, §4) when an ACF authorises it: the core hands them to
// the editor in decode.
func TestSoftwareTrigger(t *testing.T) {
	src := `
authorize hps
dise_reg ON = 0
dise_reg OFF = 1
counter 0 = 1
P0: T.OP == hps.on -> set_0(ON), null
P1: T.OP == hps.off -> set_0(OFF), null
P2: T.OP == addi && T.RD == a0 && zero_0 -> R
R: addi $d0, $d0, 1; T.INSN
`
	code := append(assemble(t, "addi a0,a0,1"), 0x0b, 0x10, 0, 0) // hps.on
	code = append(code, assemble(t, "addi a0,a0,1", "addi a0,a0,1")...)
	code = append(code, 0x0b, 0x20, 0, 0) // hps.off
	code = append(code, assemble(t, "addi a0,a0,1")...)
	c, e, rec := machine(t, src, code)
	require.Equal(t, cpu.StopLimit, c.Run(8).Reason)
	assert.Equal(t, uint64(4), c.X[10])
	assert.Equal(t, uint64(2), c.X[isa.DISEReg0], "only the two addis between hps.on and hps.off")
	_, zero, _ := e.Counter(0)
	assert.False(t, zero)
	for _, d := range rec.insts {
		if d.Inst.Op == isa.HPS_ON || d.Inst.Op == isa.HPS_OFF {
			assert.False(t, d.Injected || d.Replaced, "a null production: the trigger passes unpenalised")
		}
	}
}

// Without `authorize hps`, an application's hps.on is an illegal
// instruction (§4: "Only authorized agents … may execute this
// instruction"): the core faults at its pc with its bits as tval, the
// editor never sees it, and sampling stays off.
func TestSoftwareTriggerUnauthorised(t *testing.T) {
	src := `
dise_reg ON = 0
dise_reg OFF = 1
counter 0 = 1
P0: T.OP == hps.on -> set_0(ON), null
P1: T.OP == hps.off -> set_0(OFF), null
P2: T.OP == addi && T.RD == a0 && zero_0 -> R
R: addi $d0, $d0, 1; T.INSN
`
	code := append(assemble(t, "addi a0,a0,1"), 0x0b, 0x10, 0, 0) // hps.on at codeBase+4
	code = append(code, assemble(t, "addi a0,a0,1")...)
	c, e, _ := machine(t, src, code)
	exit := c.Run(8)
	require.Equal(t, cpu.StopFault, exit.Reason)
	assert.Equal(t, cpu.Fault{PC: codeBase + 4, Cause: cpu.CauseIllegalInst, Tval: 0x0000100b}, exit.Fault)
	assert.Equal(t, uint64(codeBase+4), c.PC)
	assert.Equal(t, uint64(1), c.Instret, "hps.on does not retire")
	assert.Equal(t, uint64(1), c.X[10])
	assert.Zero(t, c.X[isa.DISEReg0])
	v, zero, _ := e.Counter(0)
	assert.Equal(t, uint64(1), v, "sampling stays off")
	assert.False(t, zero)
	assert.Zero(t, e.Stats().PerProduction[0], "the editor never saw it")

	// hps.off alike; and a --hps-authorize-style grant on the core works
	// without the ACF's.
	c, _, _ = machine(t, src, []byte{0x0b, 0x20, 0, 0})
	exit = c.Run(1)
	require.Equal(t, cpu.StopFault, exit.Reason)
	assert.Equal(t, uint64(0x0000200b), exit.Fault.Tval)
	c, e, _ = machine(t, src, code)
	c.AuthorizeHPS(true)
	require.Equal(t, cpu.StopLimit, c.Run(3).Reason)
	assert.Equal(t, uint64(1), c.X[isa.DISEReg0], "the addi after hps.on was sampled")
	_, zero, _ = e.Counter(0)
	assert.True(t, zero, "hps.on turned sampling on")
}

// T.RD, T.RS1 and T.RS2 as call arguments pass the value of the register
// the original names, in the register file its operand is in: an integer
// load's x[rd], an FP load's f[rd] (not x[rd] of the same number), an FP
// store's f[rs2] with its x[rs1].
func TestCallPassesRegistersOfTheirFile(t *testing.T) {
	src := `
P1: T.OP == fld -> R1
R1: T.INSN; call(H, T.RD, T.RS1)
P2: T.OP == ld -> R2
R2: T.INSN; call(H, T.RD, T.RS1)
P3: T.OP == fsd -> R3
R3: call(H, T.RS2, T.RS1); T.INSN
P4: T.OP == flw -> R4
R4: T.INSN; call(H, T.RD, T.RS1)
`
	code := assemble(t,
		"fld fa5, 0(a0)",  // 0x10000
		"ld a5, 8(a0)",    // 0x10004
		"fsd fa4, 16(a0)", // 0x10008
		"flw fa3, 24(a0)", // 0x1000c
	)
	c, _, _ := machine(t, src, code)
	require.NoError(t, c.Mem.Map(0x20000, mem.PageSize, mem.RW, "data"))
	c.X[10] = 0x20000
	c.X[15] = 0xbad                                             // a5: what T.RD of fld must not pass
	c.X[14] = 0xbad2                                            // a4: what T.RS2 of fsd must not pass
	c.F[14] = 0x400c000000000000                                // fa4 = 3.5
	require.True(t, c.Mem.Write64(0x20000, 0x3ff8000000000000)) // 1.5
	require.True(t, c.Mem.Write64(0x20008, 42))
	require.True(t, c.Mem.Write32(0x20018, 0x40200000)) // 2.5f
	mb := func(k int) uint64 {
		v, ok := c.Mem.Read64(mailboxBase + 8*uint64(k))
		require.True(t, ok)
		return v
	}
	step := func(pc uint64) {
		for c.PC != pc {
			require.Equal(t, cpu.StopLimit, c.Run(max(1, c.DISEStep())).Reason)
		}
	}
	step(codeBase + 4)
	assert.Equal(t, uint64(0x3ff8000000000000), mb(0), "fld: T.RD is f[rd], the loaded 1.5")
	assert.Equal(t, uint64(0x20000), mb(1), "fld: T.RS1 is x[rs1]")
	step(codeBase + 8)
	assert.Equal(t, uint64(42), mb(0), "ld: T.RD is x[rd]")
	step(codeBase + 12)
	assert.Equal(t, uint64(0x400c000000000000), mb(0), "fsd: T.RS2 is f[rs2]")
	assert.Equal(t, uint64(0x20000), mb(1), "fsd: T.RS1 is x[rs1]")
	step(codeBase + 16)
	assert.Equal(t, uint64(0xffffffff40200000), mb(0), "flw: T.RD is f[rd] as the register holds it, NaN-boxed")
}
