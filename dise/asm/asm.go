// Package asm assembles DISE replacement instructions: RISC-V assembly
// whose operands may also be DISE-private registers ($d0…$d7, or names
// bound to them), instantiation directives (T.RD, T.RS1, T.RS2, T.IMM,
// T.PC, T.TARGET, T.INSN) and labels of the replacement sequence.
//
// It is driven by isa's op table: the operand layout of every mnemonic
// comes from its OpInfo.Format and register kinds, so every 32-bit
// RV64GC+Zba/Zbb/Zbc/Zbs/Zicond operation assembles without a per-mnemonic rule.
// The result is a Template: a pre-decoded instruction with holes that the
// instantiation logic (hps-phase-aware-remote-profiling.md §3.1, "IL")
// fills from the matched instruction.
package asm

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/rvsim/rvsim/isa"
)

// Directive names a field of the matched instruction (T.*).
type Directive uint8

// The directives. DirICount is an rvsim extension usable only as a
// handler-call argument (see docs/ACF.md).
const (
	DirNone    Directive = iota
	DirRD                // T.RD: the original's rd register number
	DirRS1               // T.RS1
	DirRS2               // T.RS2
	DirIMM               // T.IMM: the original's immediate
	DirPC                // T.PC: the original's address
	DirTARGET            // T.TARGET: where the original transfers control (static part)
	DirINSN              // T.INSN: the original's encoding (as a value); as an item, the original itself
	DirOP                // T.OP: the original's operation (patterns; as a mnemonic, a branch's opcode)
	DirOPCLASS           // T.OPCLASS: the original's class (patterns only)
	DirICOUNT            // T.ICOUNT: application instructions retired before the original (call arguments)
	NumDirectives
)

var dirNames = [NumDirectives]string{"", "T.RD", "T.RS1", "T.RS2", "T.IMM", "T.PC", "T.TARGET", "T.INSN",
	"T.OP", "T.OPCLASS", "T.ICOUNT"}

func (d Directive) String() string {
	if d < NumDirectives {
		return dirNames[d]
	}
	return "T.?"
}

// DirectiveByName returns the directive spelled name ("T.RS1"); the
// field part is case-insensitive.
func DirectiveByName(name string) (Directive, bool) {
	if len(name) < 3 || (name[0] != 'T' && name[0] != 't') || name[1] != '.' {
		return DirNone, false
	}
	up := "T." + strings.ToUpper(name[2:])
	for d, n := range dirNames {
		if d > 0 && n == up {
			return Directive(d), true
		}
	}
	return DirNone, false
}

// Kind says what an operand is syntactically.
type Kind uint8

// Operand kinds.
const (
	KindIdent Kind = iota // a bare name: register, DISE register name, label, CSR, rounding mode
	KindDReg              // $dN
	KindDir               // a directive, with an optional constant addend (T.IMM+4)
	KindImm               // an integer literal
	KindMem               // offset(base): Off is KindImm or KindDir, Base the register operand
)

// Operand is one parsed operand of a replacement instruction.
type Operand struct {
	Kind  Kind
	Name  string    // KindIdent: as written
	N     int       // KindDReg: the register number
	Dir   Directive // KindDir
	Value int64     // KindImm: the value; KindDir: the addend
	Off   *Operand  // KindMem: the offset (nil: 0)
	Base  *Operand  // KindMem: the base register
}

func (o *Operand) String() string {
	switch o.Kind {
	case KindDReg:
		return "$d" + strconv.Itoa(o.N)
	case KindDir:
		switch {
		case o.Value > 0:
			return fmt.Sprintf("%s+%d", o.Dir, o.Value)
		case o.Value < 0:
			return fmt.Sprintf("%s%d", o.Dir, o.Value)
		}
		return o.Dir.String()
	case KindImm:
		return strconv.FormatInt(o.Value, 10)
	case KindMem:
		off := ""
		if o.Off != nil {
			off = o.Off.String()
		}
		return off + "(" + o.Base.String() + ")"
	}
	return o.Name
}

// Field says where an instantiated register field comes from.
type Field uint8

// Register field sources.
const (
	Fixed   Field = iota // the template's own register
	FromRD               // the original's rd
	FromRS1              // the original's rs1
	FromRS2              // the original's rs2
)

// Template is an assembled replacement instruction: a pre-decoded
// instruction whose register fields and immediate may be filled in from
// the matched instruction.
type Template struct {
	Inst isa.Inst // the fixed parts; Imm is the literal, or the addend of a directive
	// OpFromOriginal: the mnemonic was T.OP; Op and Class are the
	// original's (a conditional branch: the checker makes sure).
	OpFromOriginal bool
	Rd, Rs1, Rs2   Field
	ImmFrom        Directive // DirNone, DirIMM, DirPC, DirTARGET or DirINSN
	Label          string    // a branch's target label in the sequence ("" if not a branch)
	Text           string    // the instruction as written, for listings
}

// Instantiate fills the template from the original instruction at pc
// whose static target is target (the instantiation logic).
func (t *Template) Instantiate(orig *isa.Inst, pc, target uint64) isa.Inst {
	in := t.Inst
	if t.OpFromOriginal {
		in.Op, in.Class = orig.Op, orig.Class
	}
	pick := func(f Field, own uint8) uint8 {
		switch f {
		case FromRD:
			return orig.Rd
		case FromRS1:
			return orig.Rs1
		case FromRS2:
			return orig.Rs2
		}
		return own
	}
	in.Rd, in.Rs1, in.Rs2 = pick(t.Rd, in.Rd), pick(t.Rs1, in.Rs1), pick(t.Rs2, in.Rs2)
	switch t.ImmFrom {
	case DirIMM:
		in.Imm += orig.Imm
	case DirPC:
		in.Imm += int64(pc)
	case DirTARGET:
		in.Imm += int64(target)
	case DirINSN:
		in.Imm += int64(orig.Raw)
	}
	return in
}

// Error says which operand of an instruction is wrong; Operand is -1 for
// the mnemonic or the instruction as a whole.
type Error struct {
	Operand int
	Msg     string
}

func (e *Error) Error() string { return e.Msg }

// DISERegs is the number of DISE-private registers; $dN is integer
// register isa.DISEReg0+N in instantiated instructions.
const DISERegs = isa.NumDISERegs

// Names resolves a bare name to a DISE register (a dise_reg declaration);
// it may be nil.
type Names func(name string) (dreg int, ok bool)

var xRegByName, fRegByName = func() (map[string]uint8, map[string]uint8) {
	x, f := map[string]uint8{"fp": 8}, map[string]uint8{}
	for r := 0; r < 32; r++ {
		x[isa.XRegNames[r]], x["x"+strconv.Itoa(r)] = uint8(r), uint8(r)
		f[isa.FRegNames[r]], f["f"+strconv.Itoa(r)] = uint8(r), uint8(r)
	}
	return x, f
}()

// IsRegisterName reports whether name is an integer or FP register name.
func IsRegisterName(name string) bool {
	_, x := xRegByName[strings.ToLower(name)]
	_, f := fRegByName[strings.ToLower(name)]
	return x || f
}

// XReg returns the number of an integer register name (ABI or xN).
func XReg(name string) (uint8, bool) {
	r, ok := xRegByName[strings.ToLower(name)]
	return r, ok
}

type assembler struct {
	mn    string
	ops   []Operand
	names Names
	t     Template
	err   *Error
}

func (a *assembler) fail(k int, format string, args ...any) {
	if a.err == nil {
		a.err = &Error{Operand: k, Msg: fmt.Sprintf(format, args...)}
	}
}

func (a *assembler) want(n ...int) bool {
	for _, k := range n {
		if len(a.ops) == k {
			return true
		}
	}
	s := make([]string, len(n))
	for i, k := range n {
		s[i] = strconv.Itoa(k)
	}
	a.fail(-1, "%s takes %s operands, found %d", a.mn, strings.Join(s, " or "), len(a.ops))
	return false
}

// reg resolves operand k as a register of the given kind into *r, or
// records that it comes from the original.
func (a *assembler) reg(k int, kind isa.RegKind, r *uint8, f *Field) {
	o := &a.ops[k]
	switch o.Kind {
	case KindDir:
		if o.Value != 0 {
			a.fail(k, "a register directive takes no addend, found %s", o)
			return
		}
		switch o.Dir {
		case DirRD:
			*f = FromRD
		case DirRS1:
			*f = FromRS1
		case DirRS2:
			*f = FromRS2
		default:
			a.fail(k, "expected a register, found %s (only T.RD, T.RS1 and T.RS2 name registers)", o.Dir)
		}
		return
	case KindDReg:
		if kind == isa.FReg {
			a.fail(k, "expected a floating-point register, found %s (DISE registers are integer registers)", o)
			return
		}
		if o.N < 0 || o.N >= DISERegs {
			a.fail(k, "no DISE register $d%d (there are %d: $d0-$d%d)", o.N, DISERegs, DISERegs-1)
			return
		}
		*r = uint8(isa.DISEReg0 + o.N)
		return
	case KindIdent:
		name := strings.ToLower(o.Name)
		if kind == isa.FReg {
			if n, ok := fRegByName[name]; ok {
				*r = n
				return
			}
			a.fail(k, "expected a floating-point register, found %q", o.Name)
			return
		}
		if n, ok := xRegByName[name]; ok {
			*r = n
			return
		}
		if a.names != nil {
			if d, ok := a.names(o.Name); ok {
				*r = uint8(isa.DISEReg0 + d)
				return
			}
		}
		a.fail(k, "expected an integer register, $d register or T.RD/T.RS1/T.RS2, found %q", o.Name)
		return
	}
	what := "a floating-point register"
	if kind != isa.FReg {
		what = "an integer register"
	}
	a.fail(k, "expected %s, found %s", what, &a.ops[k])
}

func (a *assembler) x(k int, r *uint8, f *Field) { a.reg(k, isa.XReg, r, f) }

// imm resolves operand k as an immediate: a literal, or a value directive
// (T.IMM, T.PC, T.TARGET, T.INSN) with an optional addend.
func (a *assembler) imm(k int) {
	o := &a.ops[k]
	switch o.Kind {
	case KindImm:
		a.t.Inst.Imm = o.Value
		return
	case KindDir:
		switch o.Dir {
		case DirIMM, DirPC, DirTARGET, DirINSN:
			a.t.ImmFrom, a.t.Inst.Imm = o.Dir, o.Value
			return
		}
		a.fail(k, "expected an immediate, found %s (value directives are T.IMM, T.PC, T.TARGET and T.INSN)", o.Dir)
		return
	}
	a.fail(k, "expected an immediate, found %s", o)
}

// label resolves operand k as a branch target: a label of the sequence.
func (a *assembler) label(k int) {
	o := &a.ops[k]
	if o.Kind == KindIdent && !IsRegisterName(o.Name) {
		a.t.Label = o.Name
		return
	}
	a.fail(k, "expected a label of the replacement sequence, found %s (branches in replacement code go to labels)", o)
}

// mem resolves operand k as offset(base).
func (a *assembler) mem(k int) {
	o := &a.ops[k]
	if o.Kind != KindMem {
		a.fail(k, "expected offset(register), found %s", o)
		return
	}
	if o.Off != nil {
		saved := a.ops[k]
		a.ops[k] = *o.Off
		a.imm(k)
		a.ops[k] = saved
	}
	saved := a.ops[k]
	a.ops[k] = *o.Base
	a.x(k, &a.t.Inst.Rs1, &a.t.Rs1)
	a.ops[k] = saved
}

// Assemble assembles one replacement instruction. mnemonic may be "T.OP"
// (a conditional branch with the original's condition).
func Assemble(mnemonic string, ops []Operand, names Names) (Template, *Error) {
	a := &assembler{mn: strings.ToLower(mnemonic), ops: ops, names: names}
	a.t.Text = text(mnemonic, ops)
	if d, ok := DirectiveByName(mnemonic); ok {
		if d != DirOP {
			return Template{}, &Error{Operand: -1, Msg: fmt.Sprintf("expected a mnemonic or T.OP, found %s", d)}
		}
		a.mn = d.String()
		if a.want(3) {
			a.t.OpFromOriginal = true
			a.t.Inst = isa.Inst{Op: isa.BEQ, Class: isa.Branch, Len: 4}
			a.x(0, &a.t.Inst.Rs1, &a.t.Rs1)
			a.x(1, &a.t.Inst.Rs2, &a.t.Rs2)
			a.label(2)
		}
		return a.finish()
	}
	if !a.pseudo() {
		a.op()
	}
	return a.finish()
}

func text(mn string, ops []Operand) string {
	s := make([]string, len(ops))
	for i := range ops {
		s[i] = ops[i].String()
	}
	if len(s) == 0 {
		return mn
	}
	return mn + " " + strings.Join(s, ", ")
}

func (a *assembler) finish() (Template, *Error) {
	if a.err != nil {
		return Template{}, a.err
	}
	t := &a.t
	t.Inst.Len = 4
	if !t.OpFromOriginal {
		t.Inst.Class = t.Inst.Op.Info().Class
	}
	info := t.Inst.Op.Info()
	// Control transfers other than in-sequence branches would leave the
	// sequence behind the editor's back.
	switch {
	case info.Format == isa.FmtBranch && t.Label == "":
		return Template{}, &Error{Operand: -1, Msg: "a branch in replacement code needs a label of the sequence as its target"}
	case info.Class == isa.Jal || info.Class == isa.Jalr || t.Inst.Op == isa.MRET || t.Inst.Op == isa.ECALL ||
		t.Inst.Op == isa.EBREAK || t.Inst.Op == isa.WFI || t.Inst.Op == isa.DISE_RET:
		return Template{}, &Error{Operand: -1, Msg: fmt.Sprintf("%s cannot appear in replacement code "+
			"(use branches to labels, and call(handler, ...) to run handler code)", t.Inst.Op)}
	}
	// Literal operands must be encodable; registers filled in later and
	// DISE registers (which no encoding can name) are checked for kind only.
	if t.ImmFrom == DirNone || info.Format == isa.FmtBranch {
		probe := t.Inst
		for _, r := range []*uint8{&probe.Rd, &probe.Rs1, &probe.Rs2, &probe.Rs3} {
			if *r > 31 {
				*r = 0
			}
		}
		if info.Format == isa.FmtBranch || info.Format == isa.FmtJ {
			probe.Imm = 0
		}
		if _, err := isa.Encode(probe); err != nil {
			msg := err.Error()
			if ee, ok := err.(*isa.EncodeError); ok {
				msg = ee.Msg
			}
			k := -1 // range errors are about the last operand (immediate, offset)
			if strings.Contains(msg, "imm") || strings.Contains(msg, "offset") || strings.Contains(msg, "shift") {
				k = len(a.ops) - 1
			}
			return Template{}, &Error{Operand: k, Msg: fmt.Sprintf("%s: %s", a.mn, msg)}
		}
	}
	return *t, nil
}

// op assembles a table mnemonic from its format.
func (a *assembler) op() {
	name, aqrl := a.mn, uint8(0)
	op, ok := isa.OpByName(name)
	if !ok {
		for k, sfx := range []string{"", ".rl", ".aq", ".aqrl"} {
			if k > 0 && strings.HasSuffix(name, sfx) {
				if o, found := isa.OpByName(strings.TrimSuffix(name, sfx)); found && o.Info().AqRl {
					op, ok, aqrl = o, true, uint8(k)
				}
			}
		}
	}
	if !ok {
		a.fail(-1, "unknown mnemonic %q", a.mn)
		return
	}
	if op.Compressed() {
		a.fail(-1, "%s is a 16-bit instruction; replacement code uses 32-bit instructions", a.mn)
		return
	}
	info := op.Info()
	t := &a.t
	t.Inst = isa.Inst{Op: op, Rm: aqrl}
	rm := func(n int) bool {
		t.Inst.Rm = 7
		if info.ExactRM {
			t.Inst.Rm = 0
		}
		if !a.want(n, n+1) {
			return false
		}
		if len(a.ops) == n+1 {
			o := &a.ops[n]
			found := false
			if o.Kind == KindIdent {
				for k, nm := range isa.RoundingModeNames {
					if nm != "" && nm == strings.ToLower(o.Name) {
						t.Inst.Rm, found = uint8(k), true
					}
				}
			}
			if !found {
				a.fail(n, "expected a rounding mode (rne, rtz, rdn, rup, rmm, dyn), found %s", o)
			}
		}
		return true
	}
	in := &t.Inst
	switch info.Format {
	case isa.FmtNone, isa.FmtFenceI:
		a.want(0)
	case isa.FmtFence:
		if a.want(0) {
			in.Rm, in.Imm = 0xff, 0xff
		}
	case isa.FmtR, isa.FmtR2, isa.FmtR4:
		n := map[isa.Format]int{isa.FmtR: 3, isa.FmtR2: 2, isa.FmtR4: 4}[info.Format]
		if info.RM || info.Format == isa.FmtR4 {
			if !rm(n) {
				return
			}
		} else if !a.want(n) {
			return
		}
		a.reg(0, info.Rd, &in.Rd, &t.Rd)
		a.reg(1, info.Rs1, &in.Rs1, &t.Rs1)
		if n >= 3 {
			a.reg(2, info.Rs2, &in.Rs2, &t.Rs2)
		}
		if n == 4 {
			var f Field
			a.reg(3, info.Rs3, &in.Rs3, &f)
			if f != Fixed {
				a.fail(3, "rs3 cannot be instantiated (the original has no T.RS3)")
			}
		}
	case isa.FmtI, isa.FmtShift, isa.FmtShiftW:
		if a.want(3) {
			a.x(0, &in.Rd, &t.Rd)
			a.x(1, &in.Rs1, &t.Rs1)
			a.imm(2)
		}
	case isa.FmtLoad, isa.FmtJalr:
		if a.want(2) {
			a.reg(0, info.Rd, &in.Rd, &t.Rd)
			a.mem(1)
		}
	case isa.FmtStore:
		if a.want(2) {
			a.reg(0, info.Rs2, &in.Rs2, &t.Rs2)
			a.mem(1)
		}
	case isa.FmtBranch:
		if a.want(3) {
			a.x(0, &in.Rs1, &t.Rs1)
			a.x(1, &in.Rs2, &t.Rs2)
			a.label(2)
		}
	case isa.FmtU:
		if a.want(2) {
			a.x(0, &in.Rd, &t.Rd)
			a.imm(1)
			if t.ImmFrom == DirNone {
				if in.Imm < -0x80000 || in.Imm > 0xfffff {
					a.fail(1, "%s immediate %#x out of range (want a 20-bit value)", a.mn, in.Imm)
				}
				in.Imm = int64(int32(uint32(in.Imm) << 12))
			}
		}
	case isa.FmtJ:
		if a.want(2) {
			a.x(0, &in.Rd, &t.Rd)
			a.label(1)
		}
	case isa.FmtAMO:
		if a.want(3) {
			a.x(0, &in.Rd, &t.Rd)
			a.x(1, &in.Rs2, &t.Rs2)
			a.amoAddr(2)
		}
	case isa.FmtLR:
		if a.want(2) {
			a.x(0, &in.Rd, &t.Rd)
			a.amoAddr(1)
		}
	case isa.FmtCSR, isa.FmtCSRI:
		if a.want(3) {
			a.x(0, &in.Rd, &t.Rd)
			a.csr(1)
			if info.Format == isa.FmtCSR {
				a.x(2, &in.Rs1, &t.Rs1)
			} else {
				a.imm(2)
			}
		}
	default:
		a.fail(-1, "%s cannot be assembled in replacement code", a.mn)
	}
}

func (a *assembler) amoAddr(k int) {
	o := &a.ops[k]
	if o.Kind != KindMem || (o.Off != nil && !(o.Off.Kind == KindImm && o.Off.Value == 0)) {
		a.fail(k, "%s takes an address without offset, (register), found %s", a.mn, o)
		return
	}
	saved := a.ops[k]
	a.ops[k] = *o.Base
	a.x(k, &a.t.Inst.Rs1, &a.t.Rs1)
	a.ops[k] = saved
}

func (a *assembler) csr(k int) {
	o := &a.ops[k]
	switch o.Kind {
	case KindIdent:
		if n, ok := isa.CSRByName(strings.ToLower(o.Name)); ok {
			a.t.Inst.Csr = n
			return
		}
	case KindImm:
		if o.Value >= 0 && o.Value <= 0xfff {
			a.t.Inst.Csr = uint16(o.Value)
			return
		}
	}
	a.fail(k, "expected a CSR name or number 0..0xfff, found %s", o)
}

// pseudo assembles the pseudo-instructions replacement code may use; it
// returns false if mn is not one.
func (a *assembler) pseudo() bool {
	t := &a.t
	in := &t.Inst
	set := func(op isa.Op) { *in = isa.Inst{Op: op} }
	switch a.mn {
	case "nop":
		if a.want(0) {
			set(isa.ADDI)
		}
	case "li":
		// li loads a 12-bit literal with addi; a directive takes the
		// IL's 64-bit immediate path (li $d0, T.PC is one instruction).
		if a.want(2) {
			set(isa.ADDI)
			a.x(0, &in.Rd, &t.Rd)
			a.imm(1)
			if t.ImmFrom == DirNone && (in.Imm < -2048 || in.Imm > 2047) {
				a.fail(1, "li immediate %d needs more than one instruction (want -2048..2047, or a T.* directive)", in.Imm)
			}
		}
	case "mv", "not", "sext.w", "seqz", "zext.b":
		if a.want(2) {
			set(map[string]isa.Op{"mv": isa.ADDI, "not": isa.XORI, "sext.w": isa.ADDIW, "seqz": isa.SLTIU, "zext.b": isa.ANDI}[a.mn])
			in.Imm = map[string]int64{"not": -1, "seqz": 1, "zext.b": 255}[a.mn]
			a.x(0, &in.Rd, &t.Rd)
			a.x(1, &in.Rs1, &t.Rs1)
		}
	case "neg", "negw", "snez", "sgtz":
		if a.want(2) {
			set(map[string]isa.Op{"neg": isa.SUB, "negw": isa.SUBW, "snez": isa.SLTU, "sgtz": isa.SLT}[a.mn])
			a.x(0, &in.Rd, &t.Rd)
			a.x(1, &in.Rs2, &t.Rs2)
		}
	case "sltz":
		if a.want(2) {
			set(isa.SLT)
			a.x(0, &in.Rd, &t.Rd)
			a.x(1, &in.Rs1, &t.Rs1)
		}
	case "beqz", "bnez", "bgez", "bltz":
		if a.want(2) {
			set(map[string]isa.Op{"beqz": isa.BEQ, "bnez": isa.BNE, "bgez": isa.BGE, "bltz": isa.BLT}[a.mn])
			a.x(0, &in.Rs1, &t.Rs1)
			a.label(1)
		}
	case "blez", "bgtz":
		if a.want(2) {
			set(map[string]isa.Op{"blez": isa.BGE, "bgtz": isa.BLT}[a.mn])
			a.x(0, &in.Rs2, &t.Rs2)
			a.label(1)
		}
	case "bgt", "ble", "bgtu", "bleu":
		if a.want(3) {
			set(map[string]isa.Op{"bgt": isa.BLT, "ble": isa.BGE, "bgtu": isa.BLTU, "bleu": isa.BGEU}[a.mn])
			a.x(0, &in.Rs2, &t.Rs2)
			a.x(1, &in.Rs1, &t.Rs1)
			a.label(2)
		}
	case "j":
		// An unconditional jump within the sequence: beq zero, zero, label.
		if a.want(1) {
			set(isa.BEQ)
			a.label(0)
		}
	case "csrr":
		if a.want(2) {
			set(isa.CSRRS)
			a.x(0, &in.Rd, &t.Rd)
			a.csr(1)
		}
	case "csrw":
		if a.want(2) {
			set(isa.CSRRW)
			a.csr(0)
			a.x(1, &in.Rs1, &t.Rs1)
		}
	case "rdcycle", "rdtime", "rdinstret":
		if a.want(1) {
			set(isa.CSRRS)
			in.Csr = map[string]uint16{"rdcycle": 0xc00, "rdtime": 0xc01, "rdinstret": 0xc02}[a.mn]
			a.x(0, &in.Rd, &t.Rd)
		}
	default:
		return false
	}
	return true
}

// ParseOperands splits an operand list written as text ("a0, 8(sp),
// T.IMM+4") into operands: a convenience for tests and tools; the ACF
// parser builds operands from its own tokens.
func ParseOperands(s string) ([]Operand, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, nil
	}
	var out []Operand
	for _, f := range strings.Split(s, ",") {
		o, err := parseOperand(strings.TrimSpace(f))
		if err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	return out, nil
}

func parseOperand(s string) (Operand, error) {
	if s == "" {
		return Operand{}, fmt.Errorf("empty operand")
	}
	if open := strings.IndexByte(s, '('); open >= 0 && strings.HasSuffix(s, ")") {
		base, err := parseOperand(strings.TrimSpace(s[open+1 : len(s)-1]))
		if err != nil {
			return Operand{}, err
		}
		o := Operand{Kind: KindMem, Base: &base}
		if off := strings.TrimSpace(s[:open]); off != "" {
			v, err := parseOperand(off)
			if err != nil {
				return Operand{}, err
			}
			o.Off = &v
		}
		return o, nil
	}
	if strings.HasPrefix(s, "$d") {
		n, err := strconv.Atoi(s[2:])
		if err != nil {
			return Operand{}, fmt.Errorf("bad DISE register %q", s)
		}
		return Operand{Kind: KindDReg, N: n}, nil
	}
	if len(s) > 2 && (s[0] == 'T' || s[0] == 't') && s[1] == '.' {
		name, add := s, int64(0)
		if k := strings.IndexAny(s[2:], "+-"); k >= 0 {
			name = s[:k+2]
			v, err := strconv.ParseInt(strings.ReplaceAll(s[k+2:], " ", ""), 0, 64)
			if err != nil {
				return Operand{}, fmt.Errorf("bad addend in %q", s)
			}
			add = v
		}
		d, ok := DirectiveByName(strings.TrimSpace(name))
		if !ok {
			return Operand{}, fmt.Errorf("unknown directive %q", name)
		}
		return Operand{Kind: KindDir, Dir: d, Value: add}, nil
	}
	if v, err := strconv.ParseInt(s, 0, 64); err == nil {
		return Operand{Kind: KindImm, Value: v}, nil
	}
	if u, err := strconv.ParseUint(s, 0, 64); err == nil {
		return Operand{Kind: KindImm, Value: int64(u)}, nil
	}
	return Operand{Kind: KindIdent, Name: s}, nil
}

// AssembleText assembles "mnemonic operands" (a test and tool convenience).
func AssembleText(line string, names Names) (Template, error) {
	line = strings.TrimSpace(line)
	mn, rest, _ := strings.Cut(line, " ")
	ops, err := ParseOperands(rest)
	if err != nil {
		return Template{}, err
	}
	t, aerr := Assemble(mn, ops, names)
	if aerr != nil {
		return Template{}, aerr
	}
	return t, nil
}
