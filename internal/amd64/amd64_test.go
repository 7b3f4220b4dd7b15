package amd64

import (
	"testing"

	"golang.org/x/arch/x86/x86asm"
)

// decodeAll decodes b as a sequence of instructions in Intel syntax; it
// fails the test if any byte is left over or undecodable.
func decodeAll(t *testing.T, b []byte) []string {
	t.Helper()
	var out []string
	for len(b) > 0 {
		in, err := x86asm.Decode(b, 64)
		if err != nil {
			t.Fatalf("decode % x: %v", b, err)
		}
		out = append(out, x86asm.IntelSyntax(in, 0, nil))
		b = b[in.Len:]
	}
	return out
}

func TestEncodings(t *testing.T) {
	tests := []struct {
		desc string
		emit func(a *Asm)
		want string
	}{
		{"load 8", func(a *Asm) { a.Load(RAX, M(RDI, 8), 8, false) }, "mov rax, qword ptr [rdi+0x8]"},
		{"load 8 high regs", func(a *Asm) { a.Load(R12, M(R13, 0), 8, false) }, "mov r12, qword ptr [r13]"},
		{"load 8 rsp base", func(a *Asm) { a.Load(RCX, M(RSP, 16), 8, false) }, "mov rcx, qword ptr [rsp+0x10]"},
		{"load 8 disp32", func(a *Asm) { a.Load(RDX, M(RDI, 2048), 8, false) }, "mov rdx, qword ptr [rdi+0x800]"},
		{"load 8 negative disp", func(a *Asm) { a.Load(RDX, M(RDI, -8), 8, false) }, "mov rdx, qword ptr [rdi-0x8]"},
		{"load 8 sib", func(a *Asm) { a.Load(RDX, MI(RCX, RAX, 1, 0), 8, false) }, "mov rdx, qword ptr [rcx+rax]"},
		{"load 8 sib r8 base", func(a *Asm) { a.Load(RDX, MI(R8, RCX, 1, 8), 8, false) }, "mov rdx, qword ptr [r8+rcx+0x8]"},
		{"load 8 sib scale 8", func(a *Asm) { a.Load(RDX, MI(RDI, R9, 8, 0), 8, false) }, "mov rdx, qword ptr [rdi+8*r9]"},
		{"load 8 rbp base", func(a *Asm) { a.Load(RAX, M(RBP, 0), 8, false) }, "mov rax, qword ptr [rbp]"},
		{"load 8 r13 base sib", func(a *Asm) { a.Load(RAX, MI(R13, RCX, 1, 0), 8, false) }, "mov rax, qword ptr [r13+rcx]"},
		{"load 4 signed", func(a *Asm) { a.Load(RDX, MI(RCX, RAX, 1, 0), 4, true) }, "movsxd rdx, dword ptr [rcx+rax]"},
		{"load 4", func(a *Asm) { a.Load(RDX, MI(RCX, RAX, 1, 0), 4, false) }, "mov edx, dword ptr [rcx+rax]"},
		{"load 2 signed", func(a *Asm) { a.Load(RDX, MI(RCX, RAX, 1, 0), 2, true) }, "movsx rdx, word ptr [rcx+rax]"},
		{"load 2", func(a *Asm) { a.Load(RDX, MI(RCX, RAX, 1, 0), 2, false) }, "movzx edx, word ptr [rcx+rax]"},
		{"load 1 signed", func(a *Asm) { a.Load(RDX, MI(RCX, RAX, 1, 0), 1, true) }, "movsx rdx, byte ptr [rcx+rax]"},
		{"load 1", func(a *Asm) { a.Load(RDX, MI(RCX, RAX, 1, 0), 1, false) }, "movzx edx, byte ptr [rcx+rax]"},
		{"store 8", func(a *Asm) { a.Store(M(RDI, 256), RAX, 8) }, "mov qword ptr [rdi+0x100], rax"},
		{"store 4", func(a *Asm) { a.Store(MI(RCX, RAX, 1, 0), RDX, 4) }, "mov dword ptr [rcx+rax], edx"},
		{"store 2", func(a *Asm) { a.Store(MI(RCX, RAX, 1, 0), RDX, 2) }, "mov word ptr [rcx+rax], dx"},
		{"store 1", func(a *Asm) { a.Store(MI(RCX, RAX, 1, 0), RDX, 1) }, "mov byte ptr [rcx+rax], dl"},
		{"store 1 sil", func(a *Asm) { a.Store(M(RDI, 0), RSI, 1) }, "mov byte ptr [rdi], sil"},
		{"store 1 r9b", func(a *Asm) { a.Store(M(RDI, 0), R9, 1) }, "mov byte ptr [rdi], r9b"},
		{"mov rr", func(a *Asm) { a.MovRR(RCX, RAX) }, "mov rcx, rax"},
		{"mov rr high", func(a *Asm) { a.MovRR(R10, R11) }, "mov r10, r11"},
		{"mov imm32", func(a *Asm) { a.MovImm(RAX, 0x10074) }, "mov eax, 0x10074"},
		{"mov imm32 r11", func(a *Asm) { a.MovImm(R11, 1) }, "mov r11d, 0x1"},
		{"mov imm sign-extended", func(a *Asm) { a.MovImm(RAX, ^uint64(0)) }, "mov rax, -0x1"},
		{"mov imm64", func(a *Asm) { a.MovImm(RCX, 0x123456789a) }, "mov rcx, 0x123456789a"},
		{"store imm", func(a *Asm) { a.StoreImm(M(RDI, 8), -1) }, "mov qword ptr [rdi+0x8], -0x1"},
		{"add rm", func(a *Asm) { a.OpRM(ADD, true, RAX, M(RDI, 16)) }, "add rax, qword ptr [rdi+0x10]"},
		{"sub rm", func(a *Asm) { a.OpRM(SUB, true, RAX, M(RDI, 16)) }, "sub rax, qword ptr [rdi+0x10]"},
		{"and rm", func(a *Asm) { a.OpRM(AND, true, RAX, M(RDI, 16)) }, "and rax, qword ptr [rdi+0x10]"},
		{"or rm", func(a *Asm) { a.OpRM(OR, true, RAX, M(RDI, 16)) }, "or rax, qword ptr [rdi+0x10]"},
		{"xor rm", func(a *Asm) { a.OpRM(XOR, true, RAX, M(RDI, 16)) }, "xor rax, qword ptr [rdi+0x10]"},
		{"cmp rm", func(a *Asm) { a.OpRM(CMP, true, RDX, MI(R8, RCX, 1, 0)) }, "cmp rdx, qword ptr [r8+rcx]"},
		{"add rm 32", func(a *Asm) { a.OpRM(ADD, false, RAX, M(RDI, 16)) }, "add eax, dword ptr [rdi+0x10]"},
		{"cmp rr", func(a *Asm) { a.OpRR(CMP, true, RAX, RCX) }, "cmp rax, rcx"},
		{"add imm8", func(a *Asm) { a.OpImm(ADD, true, RAX, -3) }, "add rax, -0x3"},
		{"add imm32", func(a *Asm) { a.OpImm(ADD, true, RAX, 2047) }, "add rax, 0x7ff"},
		{"and imm32 32-bit", func(a *Asm) { a.OpImm(AND, false, RCX, 0x7ff0) }, "and ecx, 0x7ff0"},
		{"and imm tag mask", func(a *Asm) { a.OpImm(AND, true, RDX, -4089) }, "and rdx, -0xff9"},
		{"sub imm r10", func(a *Asm) { a.OpImm(SUB, true, R10, 5) }, "sub r10, 0x5"},
		{"cmp mem imm", func(a *Asm) { a.OpMemImm(CMP, M(RCX, 16), 7) }, "cmp qword ptr [rcx+0x10], 0x7"},
		{"cmp mem imm32", func(a *Asm) { a.OpMemImm(CMP, M(RCX, 16), 700) }, "cmp qword ptr [rcx+0x10], 0x2bc"},
		{"shl imm", func(a *Asm) { a.ShiftImm(SHL, true, RAX, 3) }, "shl rax, 0x3"},
		{"shr imm", func(a *Asm) { a.ShiftImm(SHR, true, RCX, 8) }, "shr rcx, 0x8"},
		{"sar imm 32", func(a *Asm) { a.ShiftImm(SAR, false, RAX, 31) }, "sar eax, 0x1f"},
		{"shl cl", func(a *Asm) { a.ShiftCL(SHL, true, RAX) }, "shl rax, cl"},
		{"sar cl 32", func(a *Asm) { a.ShiftCL(SAR, false, RAX) }, "sar eax, cl"},
		{"imul", func(a *Asm) { a.Imul(true, RAX, M(RDI, 24)) }, "imul rax, qword ptr [rdi+0x18]"},
		{"mul rr", func(a *Asm) { a.MulRR(RCX) }, "mul rcx"},
		{"adc rr", func(a *Asm) { a.OpRR(ADC, true, RDX, RDX) }, "adc rdx, rdx"},
		{"or mem8 imm", func(a *Asm) { a.OrMem8Imm(M(RDI, 4104), 1) }, "or byte ptr [rdi+0x1008], 0x1"},
		{"or mem8 imm r9", func(a *Asm) { a.OrMem8Imm(M(R9, 8), 0x10) }, "or byte ptr [r9+0x8], 0x10"},
		{"movsd load", func(a *Asm) { a.SSE(MOVSD, X0, M(RDI, 2048)) }, "movsd xmm0, qword ptr [rdi+0x800]"},
		{"movsd load r8", func(a *Asm) { a.SSE(MOVSD, X3, M(R8, 16)) }, "movsd xmm3, qword ptr [r8+0x10]"},
		{"addsd mem", func(a *Asm) { a.SSE(ADDSD, X1, M(RDI, 2056)) }, "addsd xmm1, qword ptr [rdi+0x808]"},
		{"subsd rr", func(a *Asm) { a.SSERR(SUBSD, X3, X0) }, "subsd xmm3, xmm0"},
		{"mulsd rr", func(a *Asm) { a.SSERR(MULSD, X2, X1) }, "mulsd xmm2, xmm1"},
		{"divsd mem", func(a *Asm) { a.SSE(DIVSD, X0, M(RDI, 2064)) }, "divsd xmm0, qword ptr [rdi+0x810]"},
		{"movsd rr", func(a *Asm) { a.SSERR(MOVSD, X2, X0) }, "movsd xmm2, xmm0"},
		{"ucomisd rr", func(a *Asm) { a.SSERR(UCOMISD, X3, X1) }, "ucomisd xmm3, xmm1"},
		{"movq from x", func(a *Asm) { a.MovqFromX(RAX, X2) }, "movq rax, xmm2"},
		{"movq from x rsi", func(a *Asm) { a.MovqFromX(RSI, X0) }, "movq rsi, xmm0"},
		{"movq to x", func(a *Asm) { a.MovqToX(X1, RAX) }, "movq xmm1, rax"},
		{"sqrtsd mem", func(a *Asm) { a.SSE(SQRTSD, X0, M(RDI, 2048)) }, "sqrtsd xmm0, qword ptr [rdi+0x800]"},
		{"cvtsi2sd 64", func(a *Asm) { a.CvtSI2SD(X0, RAX, true) }, "cvtsi2sd xmm0, rax"},
		{"cvtsi2sd 32", func(a *Asm) { a.CvtSI2SD(X1, RCX, false) }, "cvtsi2sd xmm1, ecx"},
		{"cvtsi2sd r12", func(a *Asm) { a.CvtSI2SD(X2, R12, true) }, "cvtsi2sd xmm2, r12"},
		{"cvttsd2si 64", func(a *Asm) { a.CvtTSD2SI(RCX, X0, true) }, "cvttsd2si rcx, xmm0"},
		{"cvttsd2si 32", func(a *Asm) { a.CvtTSD2SI(RCX, X0, false) }, "cvttsd2si ecx, xmm0"},
		{"cvttsd2si r9", func(a *Asm) { a.CvtTSD2SI(R9, X3, true) }, "cvttsd2si r9, xmm3"},
		{"imul 32", func(a *Asm) { a.Imul(false, RAX, M(RDI, 24)) }, "imul eax, dword ptr [rdi+0x18]"},
		{"mul", func(a *Asm) { a.MulHigh(false, M(RDI, 24)) }, "mul qword ptr [rdi+0x18]"},
		{"imul one operand", func(a *Asm) { a.MulHigh(true, M(RDI, 24)) }, "imul qword ptr [rdi+0x18]"},
		{"movsxd", func(a *Asm) { a.Movsxd(RAX, RAX) }, "movsxd rax, eax"},
		{"div", func(a *Asm) { a.Div(false, true, RCX) }, "div rcx"},
		{"idiv", func(a *Asm) { a.Div(true, true, RCX) }, "idiv rcx"},
		{"div 32", func(a *Asm) { a.Div(false, false, RCX) }, "div ecx"},
		{"idiv 32 r9", func(a *Asm) { a.Div(true, false, R9) }, "idiv r9d"},
		{"cqo", func(a *Asm) { a.SignExtendRAX(true) }, "cqo"},
		{"cdq", func(a *Asm) { a.SignExtendRAX(false) }, "cdq"},
		{"neg", func(a *Asm) { a.Neg(true, RAX) }, "neg rax"},
		{"neg 32", func(a *Asm) { a.Neg(false, RAX) }, "neg eax"},
		{"cmovg", func(a *Asm) { a.Cmov(CondG, true, RAX, RCX) }, "cmovnle rax, rcx"},
		{"cmova high", func(a *Asm) { a.Cmov(CondA, true, R8, R11) }, "cmovnbe r8, r11"},
		{"cmove 32", func(a *Asm) { a.Cmov(CondE, false, RAX, RDX) }, "cmovz eax, edx"},
		{"bswap", func(a *Asm) { a.Bswap(RAX) }, "bswap rax"},
		{"bsr", func(a *Asm) { a.Bsr(true, RAX, M(RDI, 8)) }, "bsr rax, qword ptr [rdi+0x8]"},
		{"bsr 32", func(a *Asm) { a.Bsr(false, RAX, M(RDI, 8)) }, "bsr eax, dword ptr [rdi+0x8]"},
		{"bsf", func(a *Asm) { a.Bsf(true, R9, M(RDI, 256)) }, "bsf r9, qword ptr [rdi+0x100]"},
		{"popcnt", func(a *Asm) { a.Popcnt(true, RAX, M(RDI, 8)) }, "popcnt rax, qword ptr [rdi+0x8]"},
		{"popcnt 32 high", func(a *Asm) { a.Popcnt(false, R10, M(R13, 16)) }, "popcnt r10d, dword ptr [r13+0x10]"},
		{"bswap r9", func(a *Asm) { a.Bswap(R9) }, "bswap r9"},
		{"rol cl", func(a *Asm) { a.ShiftCL(ROL, true, RAX) }, "rol rax, cl"},
		{"ror cl 32", func(a *Asm) { a.ShiftCL(ROR, false, RAX) }, "ror eax, cl"},
		{"ror imm", func(a *Asm) { a.ShiftImm(ROR, true, RAX, 13) }, "ror rax, 0xd"},
		{"ror imm 32", func(a *Asm) { a.ShiftImm(ROR, false, RAX, 31) }, "ror eax, 0x1f"},
		{"setl", func(a *Asm) { a.Setcc(CondL, RAX) }, "setl al; movzx eax, al"},
		{"setb sil", func(a *Asm) { a.Setcc(CondB, RSI) }, "setb sil; movzx esi, sil"},
		{"jne", func(a *Asm) { a.Jcc(CondNE) }, "jnz .+0x0"},
		{"jmp", func(a *Asm) { a.Jmp() }, "jmp .+0x0"},
		{"jmp mem", func(a *Asm) { a.JmpMem(M(RCX, 8)) }, "jmp qword ptr [rcx+0x8]"},
		{"ret", func(a *Asm) { a.Ret() }, "ret"},
	}
	for _, tt := range tests {
		var a Asm
		tt.emit(&a)
		got := ""
		for i, s := range decodeAll(t, a.B) {
			if i > 0 {
				got += "; "
			}
			got += s
		}
		if got != tt.want {
			t.Errorf("%s: % x decodes as %q, want %q", tt.desc, a.B, got, tt.want)
		}
	}
}

func TestPatch(t *testing.T) {
	var a Asm
	j := a.Jcc(CondE)
	a.Ret()
	a.Patch(j, 0) // back to the jump itself
	in, err := x86asm.Decode(a.B, 64)
	if err != nil {
		t.Fatal(err)
	}
	if rel := in.Args[0].(x86asm.Rel); int(rel) != -in.Len {
		t.Errorf("patched jump: rel %d, want %d", rel, -in.Len)
	}
}

var regNames = [16]x86asm.Reg{x86asm.RAX, x86asm.RCX, x86asm.RDX, x86asm.RBX, x86asm.RSP, x86asm.RBP,
	x86asm.RSI, x86asm.RDI, x86asm.R8, x86asm.R9, x86asm.R10, x86asm.R11, x86asm.R12, x86asm.R13, x86asm.R14, x86asm.R15}

// FuzzMemOperand checks every base, index, scale and displacement of a
// 64-bit load, a 32-bit store and an ALU op against the decoder's view
// of the same operands.
func FuzzMemOperand(f *testing.F) {
	f.Add(uint8(0), uint8(7), uint8(0xff), uint8(0), int32(0))
	f.Add(uint8(13), uint8(5), uint8(12), uint8(3), int32(-129))
	f.Add(uint8(8), uint8(4), uint8(1), uint8(1), int32(128))
	f.Fuzz(func(t *testing.T, r, base, index, scale uint8, disp int32) {
		reg, b := Reg(r&15), Reg(base&15)
		idx := NoIndex
		if index < 0x80 && Reg(index&15) != RSP {
			idx = Reg(index & 15)
		}
		m := MI(b, idx, 1<<(scale&3), disp)
		want := x86asm.Mem{Base: regNames[b], Disp: int64(disp)}
		if idx != NoIndex {
			want.Index, want.Scale = regNames[idx], m.Scale
		}
		for _, op := range []struct {
			emit func(a *Asm)
			w    int
		}{{func(a *Asm) { a.Load(reg, m, 8, false) }, 8}, {func(a *Asm) { a.Store(m, reg, 4) }, 4}, {func(a *Asm) { a.OpRM(XOR, true, reg, m) }, 8}} {
			var a Asm
			op.emit(&a)
			in, err := x86asm.Decode(a.B, 64)
			if err != nil || in.Len != len(a.B) {
				t.Fatalf("% x: decode %v, length %d of %d", a.B, err, in.Len, len(a.B))
			}
			var gotMem x86asm.Mem
			var gotReg x86asm.Reg
			for _, arg := range in.Args {
				switch v := arg.(type) {
				case x86asm.Mem:
					gotMem = v
				case x86asm.Reg:
					gotReg = v
				}
			}
			if gotMem.Scale == 0 && want.Index == 0 {
				want.Scale = 0
			} else if want.Index == 0 {
				want.Scale = gotMem.Scale
			}
			gotMem.Disp = int64(int32(gotMem.Disp)) // (the decoder leaves a disp32 unsigned)
			if gotMem != want {
				t.Errorf("% x: memory operand %+v, want %+v", a.B, gotMem, want)
			}
			wantReg := regNames[reg]
			if op.w == 4 {
				wantReg = x86asm.EAX + wantReg - x86asm.RAX
			}
			if gotReg != wantReg {
				t.Errorf("% x: register %v, want %v", a.B, gotReg, wantReg)
			}
		}
	})
}
