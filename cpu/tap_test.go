package cpu

import (
	"unsafe"

	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/isa"
	"github.com/rvsim/rvsim/mem"
)

// TapLog is a TapSink for tests: it keeps every record and checks the
// delivery contract (never more records than it asked for). With Stop it
// calls RequestStop at every delivery the limit caused, and remembers the
// record that triggered it.
type TapLog struct {
	T     testing.TB
	C     *CPU
	Next  int  // what Tapped returns (0: the default batch)
	Stop  bool // request a stop at every full delivery
	Recs  []DynInst
	limit int // the limit in force, as the core applies it

	StopAt  *DynInst // the record after which Run must stop (nil: none pending)
	Stops   int      // stops requested
	Batches int
}

// Tapped implements TapSink.
func (l *TapLog) Tapped(recs []DynInst) int {
	if len(recs) > 0 {
		l.Batches++
		if len(recs) > l.limit {
			l.T.Errorf("tap delivered %d records, more than the %d asked for", len(recs), l.limit)
		}
		l.Recs = append(l.Recs, recs...)
		if l.Stop && len(recs) == l.limit {
			if l.StopAt != nil && !l.StopAt.Injected { // (a DISE handler call's records retire together)
				l.T.Errorf("tap: a second stop requested before the first was honoured (records %d and %d)",
					l.StopAt.Seq, recs[len(recs)-1].Seq)
			}
			r := recs[len(recs)-1]
			l.StopAt = &r
			l.Stops++
			l.C.RequestStop()
		}
	}
	l.limit = EffectiveTapLimit(l.Next)
	return l.Next
}

// EffectiveTapLimit is the limit the core applies for a sink's next.
func EffectiveTapLimit(next int) int {
	if next <= 0 {
		next = tapBatch
	}
	return min(next, TapBatchMax)
}

// FilterClasses is the subsequence of recs whose class is in mask.
func FilterClasses(recs []DynInst, mask ClassMask) []DynInst {
	out := []DynInst{}
	for _, r := range recs {
		if mask.Has(r.Inst.Class) {
			out = append(out, r)
		}
	}
	return out
}

// RequireSameRecords fails at the first record where got and want differ.
func RequireSameRecords(t testing.TB, want, got []DynInst, msg string) {
	t.Helper()
	for i := range min(len(want), len(got)) {
		if want[i] != got[i] {
			t.Fatalf("%s: record %d differs:\n want %+v\n  got %+v", msg, i, want[i], got[i])
		}
	}
	if len(want) != len(got) {
		t.Fatalf("%s: %d records, want %d", msg, len(got), len(want))
	}
}

func TestClassMask(t *testing.T) {
	tests := []struct {
		desc string
		mask ClassMask
		in   []isa.Class
		out  []isa.Class
	}{
		{"loads", LoadClasses, []isa.Class{isa.Load}, []isa.Class{isa.Store, isa.AMO, isa.IntALU}},
		{"every control transfer", BranchClasses, []isa.Class{isa.Branch, isa.Jal, isa.Jalr, isa.Call, isa.Return},
			[]isa.Class{isa.Load, isa.System, isa.CSR}},
		{"all", AllClasses, []isa.Class{isa.IntALU, isa.Fence, isa.FPConv}, nil},
		{"none", 0, nil, []isa.Class{isa.IntALU, isa.Load, isa.Fence}},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			for _, k := range tc.in {
				assert.True(t, tc.mask.Has(k), "%v", k)
			}
			for _, k := range tc.out {
				assert.False(t, tc.mask.Has(k), "%v", k)
			}
		})
	}
	assert.Equal(t, ClassMask(1<<isa.Load|1<<isa.Store), ClassesOf(isa.Load, isa.Store))
	assert.Equal(t, ClassMask(1<<isa.NumClasses-1), ClassesOf(isa.IntALU, isa.Fence, isa.NumClasses+3)|AllClasses,
		"classes beyond the last are dropped")
	assert.Equal(t, AllClasses, ClassesOf(isa.NumClasses+3)|AllClasses)
	assert.Zero(t, ClassesOf(isa.NumClasses+3))
}

// asmLabels assembles one instruction per line; "name:" before a line
// labels it, and "@name" in an operand is replaced by the pc-relative
// offset of that label (".+N" / ".-N").
func asmLabels(t testing.TB, lines ...string) []byte {
	t.Helper()
	at := map[string]int{}
	var body []string
	for _, l := range lines {
		if name, rest, ok := strings.Cut(l, ":"); ok && !strings.ContainsAny(name, " ,(") {
			at[name] = 4 * len(body)
			l = strings.TrimSpace(rest)
		}
		body = append(body, l)
	}
	for i, l := range body {
		for name, a := range at {
			l = strings.ReplaceAll(l, "@"+name, fmt.Sprintf(".%+d", a-4*i))
		}
		body[i] = l
	}
	return assemble(t, body...)
}

// tapScenario is a program the tap is checked on.
type tapScenario struct {
	desc   string
	code   []byte
	setup  func(t testing.TB, c *CPU)
	budget uint64 // instructions (and bare-metal traps) to run
	// dise: Run may stop inside a replacement sequence, where pc is the
	// replaced instruction's, not the record's NextPC.
	dise bool
}

func tapScenarios(t testing.TB) []tapScenario {
	data := func(t testing.TB, c *CPU) {
		c.X[11] = dataBase // a1
		c.X[3] = codeBase  // gp
		for i := uint64(0); i < 64; i += 8 {
			require.NoError(t, c.Mem.Poke(dataBase+i, []byte{byte(0x81 + i), 0x92, 0xa3, 0xb4, 0xc5, 0xd6, 0xe7, 0xf8}))
		}
	}
	patch := assemble(t, "addi a0,a0,16")
	fenced := assemble(t, "addi a5,a5,100")
	return []tapScenario{
		{
			desc: "every load kind, stores, atomics, ALU, FP, CSRs, calls, branches, ecall",
			code: asmLabels(t,
				"top: ld t0,0(a1)",
				"lb t1,1(a1)",
				"lbu t2,2(a1)",
				"lh t3,2(a1)",
				"lhu t4,4(a1)",
				"lw t5,4(a1)",
				"lwu t6,8(a1)",
				"flw ft0,12(a1)",
				"fld ft1,16(a1)",
				"lw zero,20(a1)", // a load to x0
				"sd t0,24(a1)",
				"sw t1,32(a1)",
				"fsd ft1,40(a1)",
				"addi a2,a1,48",
				"amoadd.d a3,t0,(a2)",
				"lr.d a4,(a2)",
				"sc.d a5,t1,(a2)",
				"mul a6,t0,t1",
				"divu a7,t0,t2",
				"fadd.d ft2,ft1,ft1",
				"frflags s4",      // a CSR read inside a block
				"fsflags zero",    // a CSR write that does not end its block
				"csrr s5,instret", // instret read mid-block
				"jal ra,@func",    // a call
				"j @loop",
				"func: addi s1,s1,1",
				"ret",
				"loop: addi s2,s2,1",
				"slti s3,s2,3",
				"bnez s3,@loop", // taken twice, then not
				"beq zero,zero,@over",
				"addi s2,s2,100", // skipped
				"over: auipc t0,0",
				"jalr zero,12(t0)", // an indirect jump, not a call
				"addi s2,s2,100",   // skipped
				"fence",
				"li a7,64",
				"ecall",        // the runner ignores it
				"ld a1,0(a1)",  // the base register overwritten by the load
				"mv a1,gp",     // (any mapped address)
				"addi a1,a1,0", // a1 = code: loads from code
				"lw s6,0(a1)",
				"lui a1,0x20",
				"addi s7,s7,1",
				"slti s8,s7,4",
				"bnez s8,@top", // the whole thing four times
				"j .",
			),
			setup:  data,
			budget: 4*48 + 40,
		},
		{
			desc: "self-modifying code: stores into the running block and page, fence.i",
			code: asmLabels(t,
				"patched: addi a0,a0,1", // patched to addi a0,a0,16 the second time round
				"bnez s1,@second",
				"li s1,1",
				"lw t0,0(a2)",
				"sw t0,0(a1)", // patch the first instruction: same page
				"j @patched",
				"second: lw t1,4(a2)",
				"sw t1,8(t2)", // patch the instruction two ahead in this block
				"addi a4,a4,1",
				"addi a5,a5,1", // replaced by addi a5,a5,100
				"fence.i",
				"ld s2,0(a2)",
				"j .",
			),
			setup: func(t testing.TB, c *CPU) {
				c.X[11] = codeBase
				c.X[12] = dataBase
				c.X[7] = codeBase + 7*4 // t2: the sw t1 itself
				require.NoError(t, c.Mem.Poke(dataBase, append(append([]byte{}, patch...), fenced...)))
			},
			budget: 40,
		},
		{
			desc: "bare metal: traps, mret, CSR writes",
			code: assemble(t,
				"auipc t0,0",       // 0
				"addi t0,t0,68",    // 4: handler at 68
				"csrw mtvec,t0",    // 8
				"auipc t1,0",       // 12
				"addi t1,t1,36",    // 16: user code at 48
				"csrw mepc,t1",     // 20
				"lui t2,2",         // 24
				"addi t2,t2,-2048", // 28: 0x1800
				"csrc mstatus,t2",  // 32: MPP = U
				"mret",             // 36
				"nop",              // 40
				"nop",              // 44
				"ecall",            // 48: user code
				"ld a0,0(zero)",    // 52: load fault
				"csrr a0,mscratch", // 56: illegal from U-mode
				"ebreak",           // 60
				"j .",              // 64: user code ends here
				"addi s0,s0,1",     // 68: handler
				"csrr t3,mcause",   // 72
				"slli s1,s1,4",     // 76
				"or s1,s1,t3",      // 80
				"csrr t4,mepc",     // 84
				"addi t4,t4,4",     // 88
				"csrw mepc,t4",     // 92
				"csrr s2,mtval",    // 96
				"ld s3,0(sp)",      // 100
				"mret",             // 104
			),
			setup: func(t testing.TB, c *CPU) {
				c.EnterBareMetal()
				c.X[2] = dataBase
			},
			budget: 10 + 4 + 4*11 + 20,
		},
		{
			desc: "DISE: replacement sequences with an in-sequence branch and a handler call",
			code: asmLabels(t,
				"loop: addi a0,a0,5", // watched: replaced
				"ld t0,0(a1)",
				"addi a2,a2,1",
				"bne a2,a3,@loop", // watched: replaced, the original inside
				"j .",
			),
			setup: func(t testing.TB, c *CPU) {
				data(t, c)
				c.X[13] = 3
				c.X[2] = 0x7777
				setupDISE(t, c, &testEditor{enabled: true, exp: &Expansion{Seq: []SeqOp{
					{Kind: SeqInst, Inst: addD0},
					{Kind: SeqBranch, Inst: skipIfZ, Target: 3},
					{Kind: SeqInst, Inst: addS2},
					{Kind: SeqCall, Call: &HandlerCall{Entry: handlerBase, Stack: mailbox + 2*mem.PageSize, Args: []HandlerArg{
						{Addr: mailbox + 0x800, Source: ArgConst, Value: 7},
						{Addr: mailbox + 0x808, Source: ArgOrigFallthru},
					}}},
					{Kind: SeqOriginal},
					{Kind: SeqInst, Inst: addD0}, // after the original
				}}})
			},
			budget: 120,
			dise:   true,
		},
		{
			desc: "DISE: watched instructions the editor lets pass",
			code: asmLabels(t,
				"loop: addi a0,a0,5",
				"ld t0,0(a1)",
				"addi a2,a2,1",
				"bne a2,a3,@loop",
				"j .",
			),
			setup: func(t testing.TB, c *CPU) {
				data(t, c)
				c.X[13] = 5
				setupDISE(t, c, &testEditor{enabled: false})
			},
			budget: 40,
			dise:   true,
		},
	}
}

// setupDISE maps the test handler (see newDISECPU; this one loads and
// branches, which a value or control tap leaves out) and attaches ed.
func setupDISE(t testing.TB, c *CPU, ed *testEditor) {
	require.NoError(t, c.Mem.Map(mailbox, 2*mem.PageSize, mem.RW, "mailbox+stack"))
	require.NoError(t, c.Mem.Map(handlerBase, mem.PageSize, mem.RX, "handler"))
	require.NoError(t, c.Mem.Poke(handlerBase, append(assemble(t, "addi s11,s11,1", "ld s9,0(a1)", "beq s9,s9,4", "mv s10,sp"), 0x0b, 0x30, 0, 0)))
	c.SetEditor(ed)
}

// runScenario runs sc's budget in chunks (one Run if chunks is nil),
// checking every StopRequest against what the tap log asked for; ref, if
// given, is the observer's full stream, indexed by Seq.
func runScenario(t testing.TB, c *CPU, sc tapScenario, log *TapLog, chunks *rand.Rand, ref []DynInst) {
	t.Helper()
	for i := 0; c.Instret+c.Traps < sc.budget; i++ {
		require.Less(t, i, 100000, "no progress")
		n := sc.budget - c.Instret - c.Traps
		if chunks != nil {
			n = min(n, 1+chunks.Uint64N(20))
		}
		before := c.Instret + c.Traps
		exit := c.Run(n)
		switch exit.Reason {
		case StopLimit, StopEcall:
			if log != nil && log.StopAt != nil && exit.Reason == StopLimit && c.Instret+c.Traps < sc.budget {
				// A stop asked for at the last instruction of the budget is
				// honoured by the next Run, at once.
				require.Equal(t, c.Instret, log.StopAt.Seq+1, "a stop was requested earlier and not honoured")
			}
		case StopRequest:
			require.NotNil(t, log, "StopRequest without a tap")
			CheckTapStop(t, c, log.StopAt, ref, sc.dise)
			if c.Instret+c.Traps == before {
				require.Equal(t, c.Instret, log.StopAt.Seq+1, "an immediate StopRequest is the previous Run's")
			}
			log.StopAt = nil
		default:
			t.Fatalf("stopped: %v %v at pc %#x", exit.Reason, exit.Fault.Error(), c.PC)
		}
	}
}

// CheckTapStop checks a StopRequest against the record at whose delivery
// the sink asked to stop: Run stopped right after that instruction. ref,
// if not nil, is the observer's stream of the same run (indexed by Seq);
// with dise, pc is checked against the next record's (inside a
// replacement sequence pc stays at the replaced instruction), else
// against the record's NextPC.
func CheckTapStop(t testing.TB, c *CPU, at *DynInst, ref []DynInst, dise bool) {
	t.Helper()
	require.NotNil(t, at, "StopRequest nobody asked for (after %d instructions)", c.Instret)
	s := at.Seq
	if ref != nil && ref[s].Injected && ref[s].Inst.Op == isa.SD {
		// A handler call's argument stores and jump retire together.
		for ref[s].Inst.Op != isa.JAL {
			s++
		}
	}
	require.Equal(t, s+1, c.Instret, "Run stopped right after the record that asked (%+v)", *at)
	switch {
	case !dise:
		require.Equal(t, at.NextPC, c.PC, "pc is the next instruction's")
	case ref != nil && int(s+1) < len(ref):
		require.Equal(t, ref[s+1].PC, c.PC, "pc is the next instruction's")
	}
}

// observedRun runs sc's budget with an observer: the reference run and
// its full record stream.
func observedRun(t testing.TB, sc tapScenario) (*CPU, *recorder) {
	t.Helper()
	ref := scenarioCPU(t, sc)
	rec := &recorder{}
	ref.SetObserver(rec)
	runScenario(t, ref, sc, nil, nil, nil)
	return ref, rec
}

// scenarioCPU builds sc's hart, with the class mix counted.
func scenarioCPU(t testing.TB, sc tapScenario) *CPU {
	c := newTestCPU(t, sc.code)
	if sc.setup != nil {
		sc.setup(t, c)
	}
	c.CountMix = true
	if scenarioJIT != nil {
		c.SetJIT(true)
		c.SetJITTest(scenarioJIT)
	}
	return c
}

// scenarioJIT, if not nil, makes scenarioCPU's harts translate with these
// settings (TestTapJIT); scenarioJITRetired adds up what runShortTap's
// runs retired in translated code.
var (
	scenarioJIT        *JITTest
	scenarioJITRetired uint64
)

var tapMasks = []struct {
	desc string
	mask ClassMask
}{
	{"loads", LoadClasses},
	{"control transfers", BranchClasses},
	{"stores and atomics", ClassesOf(isa.Store, isa.AMO)},
	{"integer ALU", ClassesOf(isa.IntALU)},
	{"CSR, system, fence", ClassesOf(isa.CSR, isa.System, isa.Fence)},
	{"loads and calls", ClassesOf(isa.Load, isa.Call, isa.Return)},
	{"all", AllClasses},
}

// TestTapEqualsObserverSubsequence: on every scenario, for several masks
// and delivery limits, with and without stop requests, in one Run or in
// random chunks, the tap's records are exactly the observer's records of
// the tapped classes, and the run (registers, counts, class mix) is
// unchanged.
func TestTapEqualsObserverSubsequence(t *testing.T) {
	for _, sc := range tapScenarios(t) {
		t.Run(sc.desc, func(t *testing.T) {
			ref, rec := observedRun(t, sc)
			for i, r := range rec.insts {
				require.Equal(t, uint64(i), r.Seq)
			}
			plain := scenarioCPU(t, sc)
			runScenario(t, plain, sc, nil, nil, nil)
			require.Equal(t, ref.ClassMix(), plain.ClassMix())
			for _, m := range tapMasks {
				want := FilterClasses(rec.insts, m.mask)
				if len(want) == 0 {
					continue // (every scenario has several of the masks' classes)
				}
				for _, next := range []int{1, 7, 0} {
					for _, stop := range []bool{false, true} {
						for ci, chunked := range []bool{false, true} {
							name := fmt.Sprintf("%s next=%d stop=%v chunked=%v", m.desc, next, stop, chunked)
							c := scenarioCPU(t, sc)
							log := &TapLog{T: t, C: c, Next: next, Stop: stop}
							c.SetTap(m.mask, log)
							var chunks *rand.Rand
							if chunked {
								chunks = rand.New(rand.NewPCG(uint64(next), uint64(ci)))
							}
							runScenario(t, c, sc, log, chunks, rec.insts)
							RequireSameRecords(t, want, log.Recs, name)
							RequireSameState(t, plain, c, name)
							if stop && next == 1 {
								require.Equal(t, len(want), log.Stops, name)
							}
						}
					}
				}
			}
		})
	}
}

// TestTapWithObserver: both attached, the observer still sees everything
// and the tap its classes.
func TestTapWithObserver(t *testing.T) {
	for _, sc := range tapScenarios(t) {
		t.Run(sc.desc, func(t *testing.T) {
			ref, want := observedRun(t, sc)
			for _, next := range []int{1, 7, 0} {
				c := scenarioCPU(t, sc)
				got := &recorder{}
				c.SetObserver(got)
				log := &TapLog{T: t, C: c, Next: next, Stop: true}
				c.SetTap(ClassesOf(isa.Load, isa.Branch, isa.Store, isa.Jal), log)
				runScenario(t, c, sc, log, nil, want.insts)
				RequireSameRecords(t, want.insts, got.insts, "observer")
				RequireSameRecords(t, FilterClasses(want.insts, c.TapMask()), log.Recs, "tap")
				require.Equal(t, ref.ClassMix(), c.ClassMix())
			}
		})
	}
}

// TestTapMaskChange: a new mask takes effect at the next Run (the
// predecoded code is rebuilt), and detaching stops the records.
func TestTapMaskChange(t *testing.T) {
	sc := tapScenarios(t)[0]
	ref, rec := observedRun(t, sc)

	c := scenarioCPU(t, sc)
	runTo := func(n uint64) { // (the scenario's ecalls are no-ops)
		for c.Instret < n {
			exit := c.Run(n - c.Instret)
			require.Contains(t, []StopReason{StopLimit, StopEcall}, exit.Reason)
		}
	}
	loads := &TapLog{T: t, C: c}
	c.SetTap(LoadClasses, loads)
	runTo(60)
	branches := &TapLog{T: t, C: c, Next: 3}
	c.SetTap(BranchClasses, branches)
	runTo(120)
	c.SetTap(0, nil)
	runTo(180)
	all := &TapLog{T: t, C: c, Next: 5}
	c.SetTap(AllClasses, all)
	runTo(sc.budget)
	RequireSameRecords(t, FilterClasses(rec.insts[:60], LoadClasses), loads.Recs, "loads")
	RequireSameRecords(t, FilterClasses(rec.insts[60:120], BranchClasses), branches.Recs, "branches")
	RequireSameRecords(t, rec.insts[180:], all.Recs, "all")
	require.Equal(t, ref.ClassMix(), c.ClassMix())
}

// TestTapStopAtExactInstruction: a sink that stops the core at its 5th
// load sees Run return right after that load, at the next pc, with the
// exact instruction count, in straight-line code and at a block's end.
func TestTapStopAtExactInstruction(t *testing.T) {
	c := newTestCPU(t, assemble(t,
		"ld a2,0(a1)", "addi a0,a0,1", "ld a3,8(a1)", "ld a4,16(a1)", "addi a0,a0,1",
		"ld a5,24(a1)", "beq zero,zero,.+8", "addi a0,a0,100", "ld a6,32(a1)", "addi a0,a0,1", "j .-40",
	))
	c.X[11] = dataBase
	log := &TapLog{T: t, C: c, Next: 5, Stop: true}
	c.SetTap(LoadClasses, log)
	exit := c.Run(1000)
	require.Equal(t, StopRequest, exit.Reason)
	assert.Equal(t, uint64(codeBase+36), c.PC, "right after the 5th load (ld a6)")
	assert.Equal(t, uint64(8), c.Instret, "eight instructions retired")
	assert.Equal(t, uint64(2), c.X[10], "the addi after it has not run")
	require.Len(t, log.Recs, 5)
	assert.Equal(t, uint64(7), log.Recs[4].Seq)
	assert.Equal(t, uint64(dataBase+32), log.Recs[4].Addr)
	// The sink's new limit applies from its next delivery on.
	log.StopAt, log.Next = nil, 3
	exit = c.Run(1000)
	require.Equal(t, StopRequest, exit.Reason)
	assert.Equal(t, uint64(codeBase+36), c.PC, "still five loads: the limit returned with the first delivery")
	assert.Equal(t, uint64(8+10), c.Instret)
	assert.Equal(t, uint64(5), c.X[10])
	log.StopAt = nil
	exit = c.Run(1000)
	require.Equal(t, StopRequest, exit.Reason)
	assert.Equal(t, uint64(codeBase+16), c.PC, "three loads: right after ld a4, mid-block")
	assert.Equal(t, uint64(8+10+6), c.Instret)
	assert.Equal(t, uint64(7), c.X[10], "the addi after it has not run")

	// A stop asked for as Run leaves for an ecall is honoured at once by
	// the next Run, which executes nothing.
	c = newTestCPU(t, assemble(t, "ld a2,0(a1)", "li a7,64", "ecall", "addi a0,a0,1"))
	c.X[11] = dataBase
	log = &TapLog{T: t, C: c, Next: 2, Stop: true}
	c.SetTap(ClassesOf(isa.Load, isa.System), log)
	exit = c.Run(10)
	require.Equal(t, StopEcall, exit.Reason)
	require.Len(t, log.Recs, 2, "the ecall's record reached the sink before the syscall")
	assert.Equal(t, 1, log.Stops)
	exit = c.Run(10)
	require.Equal(t, StopRequest, exit.Reason)
	assert.Equal(t, uint64(3), c.Instret)
	assert.Equal(t, uint64(codeBase+12), c.PC)
	log.StopAt = nil
	exit = c.Run(1)
	require.Equal(t, StopLimit, exit.Reason)
	assert.Equal(t, uint64(1), c.X[10])
}

// TestTapRecordFields checks records by hand: a load's address, size and
// value, a branch's outcome, a call's link, a store's address.
func TestTapRecordFields(t *testing.T) {
	c := newTestCPU(t, assemble(t,
		"lb a2,3(a1)",       // 0
		"flw fa0,8(a1)",     // 4
		"sw a2,16(a1)",      // 8
		"bne a2,zero,.+8",   // 12: taken
		"nop",               // 16
		"jal ra,.+8",        // 20: a call
		"nop",               // 24
		"beq a2,zero,.+100", // 28: not taken
		"lw zero,0(a1)",     // 32: to x0
	))
	c.X[11] = dataBase
	require.NoError(t, c.Mem.Poke(dataBase, []byte{1, 2, 3, 0xf0, 5, 6, 7, 8, 0x00, 0x00, 0x80, 0x3f}))
	log := &TapLog{T: t, C: c}
	c.SetTap(AllClasses, log)
	require.Equal(t, StopLimit, c.Run(7).Reason)
	require.Len(t, log.Recs, 7)
	lb, flw, sw, bne, jal, beq, lw := log.Recs[0], log.Recs[1], log.Recs[2], log.Recs[3], log.Recs[4], log.Recs[5], log.Recs[6]
	assert.Equal(t, uint64(0xf0), uint64(uint8(lb.Result)))
	assert.Equal(t, DynInst{Seq: 0, PC: codeBase, NextPC: codeBase + 4, Inst: lb.Inst, Addr: dataBase + 3, Size: 1,
		Result: 0xfffffffffffffff0}, lb)
	assert.Equal(t, isa.LB, lb.Inst.Op)
	assert.Equal(t, uint64(0xffffffff3f800000), flw.Result, "1.0f NaN-boxed")
	assert.Equal(t, uint8(4), flw.Size)
	assert.Equal(t, uint64(dataBase+16), sw.Addr)
	assert.Equal(t, uint8(4), sw.Size)
	assert.Zero(t, sw.Result)
	assert.True(t, bne.Taken)
	assert.Equal(t, uint64(codeBase+20), bne.NextPC)
	assert.Equal(t, uint64(3), bne.Seq)
	assert.Equal(t, isa.Call, jal.Inst.Class)
	assert.Equal(t, uint64(codeBase+24), jal.Result, "the link")
	assert.Equal(t, uint64(codeBase+28), jal.NextPC)
	assert.False(t, beq.Taken)
	assert.Equal(t, uint64(codeBase+32), beq.NextPC)
	assert.Equal(t, uint64(0xfffffffff0030201), lw.Result, "a load to x0 records the value it read")
	assert.Zero(t, c.X[0])
}

// LeanRecords is what a lean tap records of recs: a load's or store's
// Seq is 0 and its Inst only Class and Len (SetTapLean); the rest as is.
func LeanRecords(recs []DynInst) []DynInst {
	out := make([]DynInst, len(recs))
	for i, r := range recs {
		if k := r.Inst.Class; k == isa.Load || k == isa.Store {
			r.Seq = 0
			r.Inst = isa.Inst{Class: k, Len: r.Inst.Len}
		}
		out[i] = r
	}
	return out
}

// TestTapLean: on every scenario, with loads, stores and control
// transfers tapped, a lean tap's records are the full ones with a
// load's or store's Seq and Inst cut down (a store that runs as a traced
// step may keep its full record), and the run is unchanged.
func TestTapLean(t *testing.T) {
	mask := ClassesOf(isa.Load, isa.Store, isa.Branch, isa.Call, isa.Return)
	for _, sc := range tapScenarios(t) {
		t.Run(sc.desc, func(t *testing.T) {
			ref, rec := observedRun(t, sc)
			want := FilterClasses(rec.insts, mask)
			lean := LeanRecords(want)
			for _, next := range []int{1, 7, 0} {
				c := scenarioCPU(t, sc)
				c.SetTapLean(true)
				log := &TapLog{T: t, C: c, Next: next} // (stops are checked by Seq, which a lean record lacks)
				c.SetTap(mask, log)
				runScenario(t, c, sc, log, nil, nil)
				require.Len(t, log.Recs, len(want))
				for i, got := range log.Recs {
					if got != lean[i] && got != want[i] {
						t.Fatalf("next=%d: record %d:\n want %+v\n  got %+v", next, i, lean[i], got)
					}
					if got.Inst.Class == isa.Load {
						require.Equal(t, lean[i], got, "next=%d: a load's record is lean", next)
					}
				}
				require.Equal(t, ref.Instret, c.Instret)
				require.Equal(t, ref.X, c.X)
				require.Equal(t, ref.ClassMix(), c.ClassMix())
			}
		})
	}
}

// recordLog keeps every compact record a tap gives (a value or a
// control transfer), checking the delivery limit.
type recordLog[T any] struct {
	TapLog
	recs []T
}

func (l *recordLog[T]) take(what string, recs []T) int {
	if len(recs) > l.limit && l.limit > 0 {
		l.T.Errorf("%s tap delivered %d records, more than the %d asked for", what, len(recs), l.limit)
	}
	l.recs = append(l.recs, recs...)
	l.limit = EffectiveTapLimit(l.Next)
	return l.Next
}

// valueLog is a ValueSink that keeps every value it is given.
type valueLog struct{ recordLog[TapValue] }

func (l *valueLog) TappedValues(vals []TapValue) int { return l.take("value", vals) }

// TestTapValues: a value tap (SetTapValues, loads) gives, of every load
// the observer sees that is neither injected by DISE nor inside a
// handler, its PC and result, in order, on every scenario (handlers, DISE
// replacements, TLB misses, faults) and delivery limit, in one Run or in
// chunks; the run is unchanged. Without a ValueSink, or with another
// mask, the tap gives full records as before. Each scenario runs with an
// ld's own case in Run (opTapValueLD) and with the general value path
// (noTapValueLD).
func TestTapValues(t *testing.T) {
	defer func(v bool) { noTapValueLD = v }(noTapValueLD)
	for _, general := range []bool{false, true} {
		noTapValueLD = general
		testTapValues(t, map[bool]string{false: "ld case", true: "general"}[general])
	}
}

// TestTapJIT is TestTapValues and TestTapControls with the translator on
// (a block translated at its first start, however short; chained, and
// returning to Go at every block's exit): translated loads and control
// transfers record a value or control tap's records as Run does, and
// leave to it those that fill the buffer, those of handlers, and TLB
// misses.
func TestTapJIT(t *testing.T) {
	if !jitSupported {
		t.Skip("no translator on this host")
	}
	defer func() { scenarioJIT = nil }()
	for _, tap := range []struct {
		desc string
		run  func(*testing.T, string)
	}{{"values", testTapValues}, {"controls", testTapControls}} {
		for _, every := range []bool{false, true} {
			scenarioJIT, scenarioJITRetired = &JITTest{Hot: 1, AnyPart: true, EveryBlock: every}, 0
			name := fmt.Sprintf("%s/everyBlock=%v", tap.desc, every)
			tap.run(t, name)
			require.NotZero(t, scenarioJITRetired, "%s: nothing ran translated", name)
			t.Logf("%s: %d instructions ran translated", name, scenarioJITRetired)
		}
	}
}

func testTapValues(t *testing.T, path string) {
	for _, sc := range tapScenarios(t) {
		t.Run(path+"/"+sc.desc, func(t *testing.T) {
			ref, rec := observedRun(t, sc)
			want := []TapValue{}
			for _, r := range FilterClasses(rec.insts, LoadClasses) {
				if !r.Injected && !r.Handler {
					want = append(want, TapValue{r.PC, r.Result})
				}
			}
			runShortTap(t, sc, ref, unsafe.Sizeof(TapValue{}), want, func(c *CPU, next int) (*TapLog, func() any) {
				c.SetTapValues(true)
				log := &valueLog{recordLog[TapValue]{TapLog: TapLog{T: t, C: c, Next: next}}}
				c.SetTap(LoadClasses, log)
				return &log.TapLog, func() any { return log.recs }
			})
			// Another mask: full records, whatever SetTapValues says.
			c := scenarioCPU(t, sc)
			c.SetTapValues(true)
			log := &valueLog{recordLog[TapValue]{TapLog: TapLog{T: t, C: c}}}
			mask := ClassesOf(isa.Load, isa.Store)
			c.SetTap(mask, log)
			runScenario(t, c, sc, nil, nil, nil)
			c.SetTap(0, nil)
			require.Empty(t, log.recs)
			RequireSameRecords(t, FilterClasses(rec.insts, mask), log.Recs, "loads and stores")
		})
	}
}

// controlLog is a ControlSink that keeps every control transfer it is given.
type controlLog struct{ recordLog[TapControl] }

func (l *controlLog) TappedControls(recs []TapControl) int { return l.take("control", recs) }

// TestTapControls: a control tap (SetTapControls, control transfers)
// gives, of every control transfer the observer sees that is neither
// injected by DISE nor inside a handler, its PC, NextPC, retirement
// number, class and length, in order, in Run's path, tapControl's and
// traced steps'; the run is unchanged.
func TestTapControls(t *testing.T) { testTapControls(t, "interpreted") }

func testTapControls(t *testing.T, path string) {
	for _, sc := range tapScenarios(t) {
		t.Run(path+"/"+sc.desc, func(t *testing.T) {
			ref, rec := observedRun(t, sc)
			want := []TapControl{}
			for _, r := range FilterClasses(rec.insts, BranchClasses) {
				if !r.Injected && !r.Handler {
					want = append(want, ControlOf(&r))
					require.Equal(t, r.Taken, r.NextPC != r.PC+uint64(r.Inst.Len), "Taken is derivable")
				}
			}
			runShortTap(t, sc, ref, unsafe.Sizeof(TapControl{}), want, func(c *CPU, next int) (*TapLog, func() any) {
				c.SetTapControls(true)
				log := &controlLog{recordLog[TapControl]{TapLog: TapLog{T: t, C: c, Next: next}}}
				c.SetTap(BranchClasses, log)
				return &log.TapLog, func() any { return log.recs }
			})
			for _, r := range want {
				k, n := r.Class(), r.Len()
				require.True(t, BranchClasses.Has(k) && (n == 2 || n == 4), "%+v", r)
			}
			// Another mask: full records, whatever SetTapControls says.
			c := scenarioCPU(t, sc)
			c.SetTapControls(true)
			log := &controlLog{recordLog[TapControl]{TapLog: TapLog{T: t, C: c}}}
			mask := ClassesOf(isa.Load, isa.Call, isa.Return)
			c.SetTap(mask, log)
			runScenario(t, c, sc, nil, nil, nil)
			c.SetTap(0, nil)
			require.Empty(t, log.recs)
			RequireSameRecords(t, FilterClasses(rec.insts, mask), log.Recs, "loads, calls and returns")
		})
	}
}

// runShortTap runs sc under a value or control tap (records of size
// bytes at the offset vo) with delivery limits 1, 7 (every instruction
// traced: the records come through tapRecord) and the default, in one run
// and in chunks: attach turns the tap on and returns its log and what it
// got, which must be want; the run must be ref's.
func runShortTap(t *testing.T, sc tapScenario, ref *CPU, size uintptr, want any, attach func(c *CPU, next int) (*TapLog, func() any)) {
	for _, next := range []int{1, 7, 0} {
		for ci, chunked := range []bool{false, true} {
			c := scenarioCPU(t, sc)
			if next == 7 {
				c.SetObserver(&recorder{})
			}
			log, got := attach(c, next)
			var chunks *rand.Rand
			if chunked {
				chunks = rand.New(rand.NewPCG(uint64(next), uint64(ci)))
			}
			runScenario(t, c, sc, nil, chunks, nil)
			scenarioJITRetired += c.JITStats().Retired
			name := fmt.Sprintf("next=%d chunked=%v", next, chunked)
			if len(c.saved) == 0 { // Run's path is open again after a handler
				require.Equal(t, uintptr(c.tap.next-1)*size, c.tap.vlim, name)
			}
			c.SetTap(0, nil) // delivers what is pending
			require.Equal(t, want, got(), name)
			require.Empty(t, log.Recs, name)
			require.Equal(t, ref.Instret, c.Instret, name)
			require.Equal(t, ref.X, c.X, name)
			require.Equal(t, ref.F, c.F, name)
			require.Equal(t, ref.ClassMix(), c.ClassMix(), name)
		}
	}
}
