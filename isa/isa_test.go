package isa

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestDecodeFields(t *testing.T) {
	tests := []struct {
		desc string
		raw  uint32 // hand-encoded from the ISA manual's field tables
		want Inst
	}{
		{"addi a0,a1,-1", 0xfff58513, Inst{Op: ADDI, Class: IntALU, Rd: 10, Rs1: 11, Imm: -1}},
		{"lui a0,0x80000 sign-extends", 0x80000537, Inst{Op: LUI, Class: IntALU, Rd: 10, Imm: -0x80000000}},
		{"auipc a0,0x7ffff", 0x7ffff517, Inst{Op: AUIPC, Class: IntALU, Rd: 10, Imm: 0x7ffff000}},
		{"beq a0,a1,-4096", 0x80b50063, Inst{Op: BEQ, Class: Branch, Rs1: 10, Rs2: 11, Imm: -4096}},
		{"bgeu a0,a1,+4094", 0x7eb57fe3, Inst{Op: BGEU, Class: Branch, Rs1: 10, Rs2: 11, Imm: 4094}},
		{"jal ra,-2", 0xfffff0ef, Inst{Op: JAL, Class: Call, Rd: 1, Imm: -2}},
		{"jal zero,+1048574", 0x7ffff06f, Inst{Op: JAL, Class: Jal, Imm: 1048574}},
		{"jalr zero,-2048(ra)", 0x80008067, Inst{Op: JALR, Class: Return, Rs1: 1, Imm: -2048}},
		{"sd ra,8(sp)", 0x00113423, Inst{Op: SD, Class: Store, Rs1: 2, Rs2: 1, Imm: 8}},
		{"sw a0,-1(sp)", 0xfea12fa3, Inst{Op: SW, Class: Store, Rs1: 2, Rs2: 10, Imm: -1}},
		{"lwu a0,2047(a1)", 0x7ff5e503, Inst{Op: LWU, Class: Load, Rd: 10, Rs1: 11, Imm: 2047}},
		{"srai a0,a1,63", 0x43f5d513, Inst{Op: SRAI, Class: IntALU, Rd: 10, Rs1: 11, Imm: 63}},
		{"sraiw a0,a1,31", 0x41f5d51b, Inst{Op: SRAIW, Class: IntALU, Rd: 10, Rs1: 11, Imm: 31}},
		{"clz a0,a1 has no rs2", 0x60059513, Inst{Op: CLZ, Class: IntALU, Rd: 10, Rs1: 11}},
		{"fmadd.d fa0,fa1,fa2,fa3,rmm", 0x6ac5c543, Inst{Op: FMADD_D, Class: FPMul, Rd: 10, Rs1: 11, Rs2: 12, Rs3: 13, Rm: 4}},
		{"fadd.d fa0,fa1,fa2 (dyn)", 0x02c5f553, Inst{Op: FADD_D, Class: FPAdd, Rd: 10, Rs1: 11, Rs2: 12, Rm: 7}},
		{"fcvt.d.w fa0,a0", 0xd2050553, Inst{Op: FCVT_D_W, Class: FPConv, Rd: 10, Rs1: 10}},
		{"feq.d a0,fa1,fa2 has no rm", 0xa2c5a553, Inst{Op: FEQ_D, Class: FPAdd, Rd: 10, Rs1: 11, Rs2: 12}},
		{"amoswap.w.aqrl a0,a2,(a1)", 0x0ec5a52f, Inst{Op: AMOSWAP_W, Class: AMO, Rd: 10, Rs1: 11, Rs2: 12, Rm: 3}},
		{"lr.d.aq a0,(a1)", 0x1405b52f, Inst{Op: LR_D, Class: AMO, Rd: 10, Rs1: 11, Rm: 2}},
		{"csrrsi a0,fflags,1", 0x0010e573, Inst{Op: CSRRSI, Class: CSR, Rd: 10, Csr: 1, Imm: 1}},
		{"csrrw a0,mstatus,a1", 0x30059573, Inst{Op: CSRRW, Class: CSR, Rd: 10, Rs1: 11, Csr: 0x300}},
		{"fence r,rw", 0x0230000f, Inst{Op: FENCE, Class: Fence, Rm: 0x23, Imm: 0x23}},
		{"fence.tso", 0x8330000f, Inst{Op: FENCE, Class: Fence, Rm: 0x33, Imm: 0x833}},
		{"fence with rs1=a0 (ignored, kept)", 0x0ff5000f, Inst{Op: FENCE, Class: Fence, Rs1: 10, Rm: 0xff, Imm: 0xff}},
		{"fence.i with imm=1 (ignored, kept)", 0x0010100f, Inst{Op: FENCE_I, Class: Fence, Imm: 1}},
		{"ecall", 0x00000073, Inst{Op: ECALL, Class: System}},
		{"mret", 0x30200073, Inst{Op: MRET, Class: System}},
		{"wfi", 0x10500073, Inst{Op: WFI, Class: System}},
		{"sret", 0x10200073, Inst{Op: SRET, Class: System}},
		{"sfence.vma a0,a1", 0x12b50073, Inst{Op: SFENCE_VMA, Class: System, Rs1: 10, Rs2: 11}},
		{"hps.on", 0x0000100b, Inst{Op: HPS_ON, Class: System}},
		{"hps.off", 0x0000200b, Inst{Op: HPS_OFF, Class: System}},
		{"dise.ret", 0x0000300b, Inst{Op: DISE_RET, Class: System}},
		{"c.addi16sp sp,-16", 0x717d, Inst{Op: ADDI, COp: C_ADDI16SP, Class: IntALU, Rd: 2, Rs1: 2, Imm: -16}},
		{"c.addi4spn a0,sp,1020", 0x1ff8, Inst{Op: ADDI, COp: C_ADDI4SPN, Class: IntALU, Rd: 14, Rs1: 2, Imm: 1020}},
		{"c.lw a0,4(a1)", 0x41c8, Inst{Op: LW, COp: C_LW, Class: Load, Rd: 10, Rs1: 11, Imm: 4}},
		{"c.sdsp ra,8(sp)", 0xe406, Inst{Op: SD, COp: C_SDSP, Class: Store, Rs1: 2, Rs2: 1, Imm: 8}},
		{"c.ldsp a5,504(sp)", 0x77fe, Inst{Op: LD, COp: C_LDSP, Class: Load, Rd: 15, Rs1: 2, Imm: 504}},
		{"c.beqz a0,-2", 0xdd7d, Inst{Op: BEQ, COp: C_BEQZ, Class: Branch, Rs1: 10, Imm: -2}},
		{"c.j -2048", 0xb001, Inst{Op: JAL, COp: C_J, Class: Jal, Imm: -2048}},
		{"c.lui a0,0xfffff", 0x757d, Inst{Op: LUI, COp: C_LUI, Class: IntALU, Rd: 10, Imm: -4096}},
		{"c.srai64 a0 (HINT)", 0x8501, Inst{Op: SRAI, COp: C_SRAI, Class: IntALU, Rd: 10, Rs1: 10}},
		{"c.srli a0,32", 0x9101, Inst{Op: SRLI, COp: C_SRLI, Class: IntALU, Rd: 10, Rs1: 10, Imm: 32}},
		{"c.nop 1 (HINT)", 0x0005, Inst{Op: ADDI, COp: C_NOP, Class: IntALU, Imm: 1}},
		{"c.mv a0,a1", 0x852e, Inst{Op: ADD, COp: C_MV, Class: IntALU, Rd: 10, Rs2: 11}},
		{"c.ebreak", 0x9002, Inst{Op: EBREAK, COp: C_EBREAK, Class: System}},
		{"c.subw s1,a5", 0x9c9d, Inst{Op: SUBW, COp: C_SUBW, Class: IntALU, Rd: 9, Rs1: 9, Rs2: 15}},
		{"c.fsd fa5,248(a5)", 0xbffc, Inst{Op: FSD, COp: C_FSD, Class: Store, Rs1: 15, Rs2: 15, Imm: 248}},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			want := tt.want
			want.Raw, want.Len = tt.raw, 4
			if tt.raw&3 != 3 {
				want.Len = 2
			}
			got, err := Decode(tt.raw)
			require.NoError(t, err)
			require.Equal(t, want, got)
		})
	}
}

func TestDecode16IgnoresUpperHalf(t *testing.T) {
	a, errA := Decode(0x8082)
	b, errB := Decode(0xdead8082)
	require.NoError(t, errA)
	require.NoError(t, errB)
	require.Equal(t, a, b)
}

func TestDecodeErrors(t *testing.T) {
	tests := []struct {
		desc string
		raw  uint32
		want string
	}{
		{"all-zero 16-bit word", 0x0000, "16-bit 0x0000: the all-zero 16-bit word is defined illegal"},
		{"c.addi4spn nzuimm=0", 0x0004, "c.addi4spn: nzuimm=0 is reserved"},
		{"c.addi16sp nzimm=0", 0x6101, "c.addi16sp: nzimm=0 is reserved"},
		{"c.lui nzimm=0", 0x6501, "c.lui: nzimm=0 is reserved"},
		{"c.lui x0 nzimm=0", 0x6001, "c.lui: nzimm=0 is reserved"},
		{"c.addiw rd=x0", 0x2005, "c.addiw: rd=x0 is reserved"},
		{"c.lwsp rd=x0", 0x4002, "c.lwsp: rd=x0 is reserved"},
		{"c.ldsp rd=x0", 0x6002, "c.ldsp: rd=x0 is reserved"},
		{"c.jr rs1=x0", 0x8002, "c.jr: rs1=x0 is reserved"},
		{"quadrant 0 funct3=100 (Zcb, unsupported)", 0x8000, "quadrant 0 with funct3=4"},
		{"c.mulw slot (reserved in RV64C)", 0x9c41, "quadrant 1 with funct3=4"},
		{"custom-0 other than hps.*", 0x0000000b, "custom-0 holds only hps.on (0x0000100b), hps.off (0x0000200b) and dise.ret (0x0000300b)"},
		{"custom-0 hps.on with rd set", 0x0000108b, "custom-0 holds only"},
		{"48-bit prefix", 0x0000001f, "longer than 32 bits"},
		{"rm=5", 0x02b5d553, "fadd.d: reserved rounding mode 5"},
		{"rm=6 on fcvt.w.d", 0xc205e553, "fcvt.w.d: reserved rounding mode 6"},
		{"slliw with shamt[5]=1", 0x0205151b, "major opcode OP-IMM-32 with funct3=1 funct7=0x01"},
		{"lr.w with rs2!=0", 0x1015a52f, "major opcode AMO"},
		{"vector op", 0x00000057, "major opcode 0x57 holds no RV64GC"},
		{"flw with funct3=1 (Zfh flh)", 0x00001007, "major opcode LOAD-FP with funct3=1"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			in, err := Decode(tt.raw)
			require.Error(t, err)
			require.Contains(t, err.Error(), tt.want)
			require.NotContains(t, err.Error(), "\n")
			var de *DecodeError
			require.ErrorAs(t, err, &de)
			require.Equal(t, ILLEGAL, in.Op)
			require.Equal(t, de.Raw, in.Raw)
			require.Equal(t, de.Len, in.Len)
		})
	}
}

func TestEncode(t *testing.T) {
	tests := []struct {
		desc string
		in   Inst
		want uint32 // 0 = error
		err  string
	}{
		{"addi", Inst{Op: ADDI, Rd: 10, Rs1: 11, Imm: -1}, 0xfff58513, ""},
		{"addi imm 2048", Inst{Op: ADDI, Imm: 2048}, 0, "imm 2048 out of range -2048..2047"},
		{"addi imm -2049", Inst{Op: ADDI, Imm: -2049}, 0, "out of range"},
		{"add rd 32", Inst{Op: ADD, Rd: 32}, 0, "rd=32"},
		{"unused fields are ignored", Inst{Op: LUI, Rd: 10, Rs1: 99, Rm: 9, Imm: 0x1000}, 0x00001537, ""},
		{"slli 63", Inst{Op: SLLI, Rd: 10, Rs1: 10, Imm: 63}, 0x03f51513, ""},
		{"slli 64", Inst{Op: SLLI, Imm: 64}, 0, "shift amount 64 out of range 0..63"},
		{"slliw 32", Inst{Op: SLLIW, Imm: 32}, 0, "out of range 0..31"},
		{"sd offset 2048", Inst{Op: SD, Imm: 2048}, 0, "offset 2048"},
		{"beq odd offset", Inst{Op: BEQ, Imm: 3}, 0, "not even"},
		{"beq offset 4096", Inst{Op: BEQ, Imm: 4096}, 0, "-4096..4094"},
		{"beq -4096", Inst{Op: BEQ, Rs1: 10, Rs2: 11, Imm: -4096}, 0x80b50063, ""},
		{"jal 1<<20", Inst{Op: JAL, Imm: 1 << 20}, 0, "jump offset"},
		{"jal ra,-2", Inst{Op: JAL, Rd: 1, Imm: -2}, 0xfffff0ef, ""},
		{"lui not a multiple of 4096", Inst{Op: LUI, Imm: 0x123}, 0, "multiple of 0x1000"},
		{"lui 1<<31", Inst{Op: LUI, Imm: 1 << 31}, 0, "signed 32-bit"},
		{"csr 0x1000", Inst{Op: CSRRW, Csr: 0x1000}, 0, "csr 0x1000"},
		{"csrrwi zimm 32", Inst{Op: CSRRWI, Imm: 32}, 0, "zimm 32"},
		{"fadd.d rm 5", Inst{Op: FADD_D, Rm: 5}, 0, "rounding mode 5"},
		{"fadd.d rm 8", Inst{Op: FADD_D, Rm: 8}, 0, "rounding mode 8"},
		{"amoadd.w aqrl 4", Inst{Op: AMOADD_W, Rm: 4}, 0, "aq/rl bits 4"},
		{"fence fm 16", Inst{Op: FENCE, Imm: 0x1000}, 0, "fm field"},
		{"fence.tso", Inst{Op: FENCE, Rm: 0x33, Imm: 0x833}, 0x8330000f, ""},
		{"illegal", Inst{}, 0, "illegal: not a 32-bit operation"},
		{"compressed op", Inst{Op: C_ADDI}, 0, "c.addi: not a 32-bit operation"},
		{"out-of-range op", Inst{Op: 255}, 0, "not a 32-bit operation"},
		{"hps.off", Inst{Op: HPS_OFF}, 0x0000200b, ""},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			got, err := Encode(tt.in)
			if tt.err != "" {
				require.Error(t, err)
				require.Contains(t, err.Error(), tt.err)
				require.NotContains(t, err.Error(), "\n")
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.want, got, "got %#08x", got)
		})
	}
}

// TestEncodeExpansion: a decoded 16-bit instruction encodes as its 32-bit
// equivalent (hand-encoded here), and for every valid 16-bit word that
// equivalent decodes to the same operation and operands.
func TestEncodeExpansion(t *testing.T) {
	for _, tt := range []struct {
		desc     string
		c16, w32 uint32
	}{
		{"c.addi16sp sp,-16 = addi sp,sp,-16", 0x717d, 0xff010113},
		{"c.lw a0,4(a1) = lw a0,4(a1)", 0x41c8, 0x0045a503},
		{"c.jr ra = jalr zero,0(ra)", 0x8082, 0x00008067},
		{"c.ebreak = ebreak", 0x9002, 0x00100073},
		{"c.mv a0,a1 = add a0,zero,a1", 0x852e, 0x00b00533},
	} {
		t.Run(tt.desc, func(t *testing.T) {
			in, err := Decode(tt.c16)
			require.NoError(t, err)
			w, err := Encode(in)
			require.NoError(t, err)
			require.Equal(t, tt.w32, w, "got %#08x", w)
		})
	}
	for raw := uint32(0); raw < 1<<16; raw++ {
		in, err := Decode(raw)
		if raw&3 == 3 || err != nil {
			continue
		}
		w, err := Encode(in)
		require.NoError(t, err, "%#04x", raw)
		back, err := Decode(w)
		require.NoError(t, err, "%#04x -> %#08x", raw, w)
		in.COp, in.Len, in.Raw = ILLEGAL, 4, w
		require.Equal(t, in, back, "%#04x", raw)
	}
}

func TestAssemble(t *testing.T) {
	tests := []struct {
		desc string
		line string
		want uint32 // when err == ""
		err  string
	}{
		{"x-names and spaces", "addi x10, x11, -1", 0xfff58513, ""},
		{"upper case", "ADDI A0,A1,-1", 0xfff58513, ""},
		{"fp is s0", "addi fp,sp,16", 0x01010413, ""},
		{"comment", "mv a0,a1 # copy", 0x00058513, ""},
		{"li 2047", "li a0,2047", 0x7ff00513, ""},
		{"li too big", "li a0,2048", 0, "needs more than one instruction"},
		{"hex immediate", "addi a0,a0,0x7ff", 0x7ff50513, ""},
		{"dyn rounding by default", "fadd.d fa0,fa1,fa2", 0x02c5f553, ""},
		{"static rounding", "fadd.d fa0,fa1,fa2,rtz", 0x02c59553, ""},
		{"exact conversion defaults to rne", "fcvt.d.w fa0,a0", 0xd2050553, ""},
		{"bad rounding mode", "fadd.d fa0,fa1,fa2,xyz", 0, "expected a rounding mode"},
		{"relative target", "beq a0,a1,.+8", 0x00b50463, ""},
		{"bare offset target", "beq a0,a1,8", 0x00b50463, ""},
		{"target with spaces", "beq a0,a1,. - 4096", 0x80b50063, ""},
		{"target too far", "beq a0,a1,.+4096", 0, "branch offset 4096"},
		{"bgt swaps operands", "bgt a0,a1,.+8", 0x00a5c463, ""},
		{"bleu swaps operands", "bleu a0,a1,.+8", 0x00a5f463, ""},
		{"jal with one operand links ra", "jal .+8", 0x008000ef, ""},
		{"jalr three-operand form", "jalr a0,a1,4", 0x00458567, ""},
		{"jalr rd,rs1", "jalr t0,a0", 0x000502e7, ""},
		{"amo with aq", "amoadd.w.aq a0,a2,(a1)", 0x04c5a52f, ""},
		{"amo with 0 offset", "amoadd.w.aq a0,a2,0(a1)", 0x04c5a52f, ""},
		{"lr with offset", "lr.w a0,4(a1)", 0, "without offset"},
		{"aq suffix on a non-AMO", "add.aq a0,a1,a2", 0, "unknown mnemonic"},
		{"csr by number", "csrr a0,0x7c0", 0x7c002573, ""},
		{"unknown csr", "csrr a0,nosuchcsr", 0, "expected a CSR name or number"},
		{"fscsr one operand", "fscsr a1", 0x00359073, ""},
		{"fence sets", "fence r,rw", 0x0230000f, ""},
		{"fence empty set", "fence unknown,w", 0x0010000f, ""},
		{"bad fence set", "fence rw,xyz", 0, "expected a fence set"},
		{"pause", "pause", 0x0100000f, ""},
		{"raw word", ".4byte 0x00b50533", 0x00b50533, ""},
		{"raw word that does not decode", ".4byte 0x0000000b", 0, "custom-0"},
		{"hps.on", "hps.on", 0x0000100b, ""},
		{"lui range", "lui a0,0x100000", 0, "20-bit"},
		{"lui negative", "lui a0,-1", 0xfffff537, ""},
		{"compressed mnemonic", "c.addi a0,1", 0, "16-bit instruction"},
		{"unknown mnemonic", "frobnicate a0", 0, `unknown mnemonic "frobnicate"`},
		{"empty line", "  # nothing", 0, `unknown mnemonic ""`},
		{"operand count", "add a0,a1", 0, "add takes 3 operands, found 2"},
		{"fp register where x expected", "add a0,a1,fa0", 0, `expected an integer register, found "fa0"`},
		{"x register where f expected", "fadd.d fa0,fa1,a2", 0, "expected a floating-point register"},
		{"bad memory operand", "sw a0,sp", 0, "expected offset(register)"},
		{"bad integer", "addi a0,a0,twelve", 0, `expected an integer, found "twelve"`},
		{"shift out of range", "slli a0,a0,64", 0, "shift amount 64"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			in, err := Assemble(tt.line)
			if tt.err != "" {
				require.Error(t, err)
				require.Contains(t, err.Error(), tt.err)
				require.NotContains(t, err.Error(), "\n")
				var ae *AsmError
				require.ErrorAs(t, err, &ae)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.want, in.Raw, "got %#08x", in.Raw)
			want, err := Decode(tt.want)
			require.NoError(t, err)
			require.Equal(t, want, in)
		})
	}
}

func TestStringAt(t *testing.T) {
	in, err := Decode(0xdd7d) // c.beqz a0,-2
	require.NoError(t, err)
	require.Equal(t, "beqz a0,.-2", in.String())
	require.Equal(t, "beqz a0,0x1000", in.StringAt(0x1002))
	in, err = Decode(0x008000ef)
	require.NoError(t, err)
	require.Equal(t, "jal 0x10008", in.StringAt(0x10000))
	require.Equal(t, ".4byte 0x0", Inst{}.String())
}

// TestRoundTrip32 checks Encode(Decode(x)) == x and Assemble(String) ==
// Decode(x) on random operands of every 32-bit row (FuzzDecode does the same
// on fuzzed words).
func TestRoundTrip32(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	n := 300
	if testing.Short() {
		n = 30
	}
	for op := Op(1); op < C_ADDI4SPN; op++ {
		info := op.Info()
		hits := 0
		for k := 0; k < n; k++ {
			raw := info.Match | rng.Uint32()&^info.Mask
			in, err := Decode(raw)
			if err != nil {
				require.True(t, info.RM, "%s %#08x: %v", op, raw, err)
				continue
			}
			require.Equal(t, op, in.Op)
			hits++
			w, err := Encode(in)
			require.NoError(t, err)
			require.Equal(t, raw, w, "%s: Encode(Decode(%#08x)) = %#08x", op, raw, w)
			back, err := Assemble(in.String())
			require.NoError(t, err, "%q", in.String())
			require.Equal(t, in, back, "%q", in.String())
		}
		require.Positive(t, hits, "%s", op)
	}
}

func TestErrorsAreOneLine(t *testing.T) {
	for _, err := range []error{
		&DecodeError{Raw: 1, Len: 2, Msg: "x"}, &EncodeError{Op: ADD, Msg: "y"}, &AsmError{Line: "a\nb", Msg: "z"},
	} {
		require.False(t, strings.Contains(err.Error(), "\n"), err.Error())
	}
}

func TestDecodeDoesNotAllocate(t *testing.T) {
	for _, raw := range []uint32{0x00b50533, 0x02c5f553, 0x0ec5a52f, 0x8082, 0x717d} {
		allocs := testing.AllocsPerRun(100, func() { _, _ = Decode(raw) })
		require.Zero(t, allocs, "%#08x", raw)
	}
}

func benchWords(b *testing.B, want16 bool) []uint32 {
	var words []uint32
	for _, g := range readGolden(b, "testdata/golden.txt") {
		if _, err := Decode(g.raw); err == nil && (g.len == 2) == want16 {
			words = append(words, g.raw)
		}
	}
	return words
}

func BenchmarkDecode32(b *testing.B) {
	words := benchWords(b, false)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_, _ = Decode(words[i%len(words)])
	}
}

func BenchmarkDecode16(b *testing.B) {
	words := benchWords(b, true)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_, _ = Decode(words[i%len(words)])
	}
}

func BenchmarkString(b *testing.B) {
	words := benchWords(b, false)
	insts := make([]Inst, len(words))
	for k, w := range words {
		insts[k], _ = Decode(w)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = insts[i%len(insts)].String()
	}
}
