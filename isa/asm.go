package isa

import (
	"fmt"
	"strconv"
	"strings"
)

// AsmError says why a line of assembly was not accepted.
type AsmError struct {
	Line string // the input line
	Msg  string // what was expected
}

func (e *AsmError) Error() string { return fmt.Sprintf("isa: assemble %q: %s", e.Line, e.Msg) }

// Assemble assembles one line into a 32-bit instruction. It accepts what
// Inst.String prints: every 32-bit mnemonic with x-names or ABI register
// names (fp = s0), aq/rl suffixes on AMOs, optional rounding modes, CSR names
// or numbers, ".+off"/".-off" (or a bare byte offset) as branch and jump
// targets, ".4byte 0x..." for a raw word, and the pseudo-instructions nop,
// li (12-bit), mv, not, neg(w), sext.w, zext.b, zext.w, seqz, snez, sltz,
// sgtz, beqz, bnez, blez, bgez, bltz, bgtz, bgt(u), ble(u), j, jal, jr,
// jalr, ret, fmv/fneg/fabs.{s,d}, csrr, csrw, csrs, csrc, csrwi, csrsi,
// csrci, frcsr, fscsr, frrm, fsrm, fsrmi, frflags, fsflags, fsflagsi,
// rdcycle, rdtime, rdinstret, unimp, fence.tso and pause. A '#' starts a
// comment. The result is what Decode returns for the encoded word.
func Assemble(line string) (Inst, error) {
	text := line
	if k := strings.IndexByte(text, '#'); k >= 0 {
		text = text[:k]
	}
	text = strings.TrimSpace(text)
	mn, rest := text, ""
	if k := strings.IndexAny(text, " \t"); k >= 0 {
		mn, rest = text[:k], strings.TrimSpace(text[k+1:])
	}
	mn = strings.ToLower(mn)
	var args []string
	if rest != "" {
		for _, a := range strings.Split(rest, ",") {
			args = append(args, strings.ToLower(strings.TrimSpace(a)))
		}
	}
	p := &asmParser{mn: mn, args: args}
	in := p.parse()
	if p.err != nil {
		return Inst{}, &AsmError{Line: line, Msg: p.err.Error()}
	}
	raw := p.raw
	if !p.isRaw {
		var err error
		if raw, err = Encode(in); err != nil {
			return Inst{}, &AsmError{Line: line, Msg: err.(*EncodeError).Msg}
		}
	}
	out, err := Decode(raw)
	if err != nil {
		return Inst{}, &AsmError{Line: line, Msg: err.(*DecodeError).Msg}
	}
	return out, nil
}

type asmParser struct {
	mn    string
	args  []string
	err   error
	raw   uint32 // set with isRaw for .4byte
	isRaw bool
}

func (p *asmParser) fail(format string, args ...any) {
	if p.err == nil {
		p.err = fmt.Errorf(format, args...)
	}
}

// want checks the operand count; it accepts any of the counts given.
func (p *asmParser) want(counts ...int) int {
	for _, n := range counts {
		if len(p.args) == n {
			return n
		}
	}
	p.fail("%s takes %s operands, found %d", p.mn, countList(counts), len(p.args))
	return -1
}

func countList(counts []int) string {
	s := make([]string, len(counts))
	for k, n := range counts {
		s[k] = strconv.Itoa(n)
	}
	return strings.Join(s, " or ")
}

var xRegByName, fRegByName = func() (map[string]uint8, map[string]uint8) {
	x, f := map[string]uint8{"fp": 8}, map[string]uint8{}
	for r := 0; r < 32; r++ {
		x[XRegNames[r]], x["x"+strconv.Itoa(r)] = uint8(r), uint8(r)
		f[FRegNames[r]], f["f"+strconv.Itoa(r)] = uint8(r), uint8(r)
	}
	return x, f
}()

func (p *asmParser) reg(kind RegKind, s string) uint8 {
	if kind == FReg {
		if r, ok := fRegByName[s]; ok {
			return r
		}
		p.fail("expected a floating-point register, found %q", s)
		return 0
	}
	if r, ok := xRegByName[s]; ok {
		return r
	}
	p.fail("expected an integer register, found %q", s)
	return 0
}

func (p *asmParser) x(s string) uint8 { return p.reg(XReg, s) }

func (p *asmParser) imm(s string) int64 {
	v, err := strconv.ParseInt(s, 0, 64)
	if err != nil {
		p.fail("expected an integer, found %q", s)
	}
	return v
}

// target parses a branch/jump target: ".+8", ". - 8", "." or a byte offset.
func (p *asmParser) target(s string) int64 {
	if strings.HasPrefix(s, ".") {
		t := strings.ReplaceAll(s[1:], " ", "")
		if t == "" {
			return 0
		}
		if t[0] == '+' {
			t = t[1:]
		}
		return p.imm(t)
	}
	return p.imm(s)
}

// mem parses "off(reg)" or "(reg)".
func (p *asmParser) mem(s string) (int64, uint8) {
	open := strings.IndexByte(s, '(')
	if open < 0 || !strings.HasSuffix(s, ")") {
		p.fail("expected offset(register), found %q", s)
		return 0, 0
	}
	var off int64
	if o := strings.TrimSpace(s[:open]); o != "" {
		off = p.imm(o)
	}
	return off, p.x(strings.TrimSpace(s[open+1 : len(s)-1]))
}

func (p *asmParser) csr(s string) uint16 {
	if n, ok := CSRByName(s); ok {
		return n
	}
	v, err := strconv.ParseUint(s, 0, 12)
	if err != nil {
		p.fail("expected a CSR name or number 0..0xfff, found %q", s)
	}
	return uint16(v)
}

func (p *asmParser) rm(s string) uint8 {
	for k, n := range RoundingModeNames {
		if n != "" && n == s {
			return uint8(k)
		}
	}
	p.fail("expected a rounding mode (rne, rtz, rdn, rup, rmm, dyn), found %q", s)
	return 0
}

func (p *asmParser) fenceSet(s string) uint8 {
	if s == "unknown" || s == "0" {
		return 0
	}
	var v uint8
	for _, c := range s {
		k := strings.IndexRune("iorw", c)
		if k < 0 || v&(8>>k) != 0 {
			p.fail("expected a fence set of i, o, r, w, found %q", s)
			return 0
		}
		v |= 8 >> k
	}
	return v
}

// pseudo handles the aliases; ok=false means mn is not one.
func (p *asmParser) pseudo() (in Inst, ok bool) {
	a := p.args
	n := len(a)
	r := func(op Op, rd, rs1, rs2 uint8) Inst { return Inst{Op: op, Rd: rd, Rs1: rs1, Rs2: rs2} }
	ri := func(op Op, rd, rs1 uint8, imm int64) Inst { return Inst{Op: op, Rd: rd, Rs1: rs1, Imm: imm} }
	switch p.mn {
	case "nop", "ret", "unimp", "fence.tso", "pause":
		p.want(0)
		return map[string]Inst{
			"nop":       ri(ADDI, 0, 0, 0),
			"ret":       ri(JALR, 0, 1, 0),
			"unimp":     {Op: CSRRW, Csr: 0xc00},
			"fence.tso": {Op: FENCE, Rm: 0x33, Imm: 0x833},
			"pause":     {Op: FENCE, Rm: 0x10, Imm: 0x010},
		}[p.mn], true
	case "li":
		if p.want(2) == 2 {
			v := p.imm(a[1])
			if v < -2048 || v > 2047 {
				p.fail("li immediate %d needs more than one instruction (want -2048..2047)", v)
			}
			return ri(ADDI, p.x(a[0]), 0, v), true
		}
	case "mv", "not", "sext.w", "zext.b", "seqz":
		if p.want(2) == 2 {
			op, imm := map[string]Op{"mv": ADDI, "not": XORI, "sext.w": ADDIW, "zext.b": ANDI, "seqz": SLTIU}[p.mn],
				map[string]int64{"not": -1, "zext.b": 255, "seqz": 1}[p.mn]
			return ri(op, p.x(a[0]), p.x(a[1]), imm), true
		}
	case "neg", "negw", "snez", "sgtz":
		if p.want(2) == 2 {
			op := map[string]Op{"neg": SUB, "negw": SUBW, "snez": SLTU, "sgtz": SLT}[p.mn]
			return r(op, p.x(a[0]), 0, p.x(a[1])), true
		}
	case "sltz", "zext.w":
		if p.want(2) == 2 {
			return r(map[string]Op{"sltz": SLT, "zext.w": ADD_UW}[p.mn], p.x(a[0]), p.x(a[1]), 0), true
		}
	case "beqz", "bnez", "bgez", "bltz":
		if p.want(2) == 2 {
			op := map[string]Op{"beqz": BEQ, "bnez": BNE, "bgez": BGE, "bltz": BLT}[p.mn]
			return Inst{Op: op, Rs1: p.x(a[0]), Imm: p.target(a[1])}, true
		}
	case "blez", "bgtz":
		if p.want(2) == 2 {
			return Inst{Op: map[string]Op{"blez": BGE, "bgtz": BLT}[p.mn], Rs2: p.x(a[0]), Imm: p.target(a[1])}, true
		}
	case "bgt", "ble", "bgtu", "bleu":
		if p.want(3) == 3 {
			op := map[string]Op{"bgt": BLT, "ble": BGE, "bgtu": BLTU, "bleu": BGEU}[p.mn]
			return Inst{Op: op, Rs1: p.x(a[1]), Rs2: p.x(a[0]), Imm: p.target(a[2])}, true
		}
	case "j":
		if p.want(1) == 1 {
			return Inst{Op: JAL, Imm: p.target(a[0])}, true
		}
	case "jal":
		if n == 1 {
			return Inst{Op: JAL, Rd: 1, Imm: p.target(a[0])}, true
		}
		return in, false
	case "jr":
		if p.want(1) == 1 {
			if strings.Contains(a[0], "(") {
				off, base := p.mem(a[0])
				return ri(JALR, 0, base, off), true
			}
			return ri(JALR, 0, p.x(a[0]), 0), true
		}
	case "jalr":
		switch p.want(1, 2, 3) {
		case 1:
			if strings.Contains(a[0], "(") {
				off, base := p.mem(a[0])
				return ri(JALR, 1, base, off), true
			}
			return ri(JALR, 1, p.x(a[0]), 0), true
		case 2:
			if strings.Contains(a[1], "(") {
				off, base := p.mem(a[1])
				return ri(JALR, p.x(a[0]), base, off), true
			}
			return ri(JALR, p.x(a[0]), p.x(a[1]), 0), true
		case 3:
			return ri(JALR, p.x(a[0]), p.x(a[1]), p.imm(a[2])), true
		}
	case "fmv.s", "fmv.d", "fneg.s", "fneg.d", "fabs.s", "fabs.d":
		if p.want(2) == 2 {
			op := map[string]Op{"fmv.s": FSGNJ_S, "fmv.d": FSGNJ_D, "fneg.s": FSGNJN_S,
				"fneg.d": FSGNJN_D, "fabs.s": FSGNJX_S, "fabs.d": FSGNJX_D}[p.mn]
			rs := p.reg(FReg, a[1])
			return r(op, p.reg(FReg, a[0]), rs, rs), true
		}
	case "csrr":
		if p.want(2) == 2 {
			return Inst{Op: CSRRS, Rd: p.x(a[0]), Csr: p.csr(a[1])}, true
		}
	case "csrw", "csrs", "csrc":
		if p.want(2) == 2 {
			op := map[string]Op{"csrw": CSRRW, "csrs": CSRRS, "csrc": CSRRC}[p.mn]
			return Inst{Op: op, Csr: p.csr(a[0]), Rs1: p.x(a[1])}, true
		}
	case "csrwi", "csrsi", "csrci":
		if p.want(2) == 2 {
			op := map[string]Op{"csrwi": CSRRWI, "csrsi": CSRRSI, "csrci": CSRRCI}[p.mn]
			return Inst{Op: op, Csr: p.csr(a[0]), Imm: p.imm(a[1])}, true
		}
	case "frcsr", "frrm", "frflags", "rdcycle", "rdtime", "rdinstret":
		if p.want(1) == 1 {
			csr := map[string]uint16{"frcsr": 3, "frrm": 2, "frflags": 1, "rdcycle": 0xc00,
				"rdtime": 0xc01, "rdinstret": 0xc02}[p.mn]
			return Inst{Op: CSRRS, Rd: p.x(a[0]), Csr: csr}, true
		}
	case "fscsr", "fsrm", "fsflags":
		csr := map[string]uint16{"fscsr": 3, "fsrm": 2, "fsflags": 1}[p.mn]
		switch p.want(1, 2) {
		case 1:
			return Inst{Op: CSRRW, Csr: csr, Rs1: p.x(a[0])}, true
		case 2:
			return Inst{Op: CSRRW, Csr: csr, Rd: p.x(a[0]), Rs1: p.x(a[1])}, true
		}
	case "fsrmi", "fsflagsi":
		csr := map[string]uint16{"fsrmi": 2, "fsflagsi": 1}[p.mn]
		switch p.want(1, 2) {
		case 1:
			return Inst{Op: CSRRWI, Csr: csr, Imm: p.imm(a[0])}, true
		case 2:
			return Inst{Op: CSRRWI, Csr: csr, Rd: p.x(a[0]), Imm: p.imm(a[1])}, true
		}
	case "fence":
		switch p.want(0, 2) {
		case 0:
			return Inst{Op: FENCE, Rm: 0xff, Imm: 0xff}, true
		case 2:
			sets := p.fenceSet(a[0])<<4 | p.fenceSet(a[1])
			return Inst{Op: FENCE, Rm: sets, Imm: int64(sets)}, true
		}
	case ".4byte":
		if p.want(1) == 1 {
			v, err := strconv.ParseUint(a[0], 0, 32)
			if err != nil {
				p.fail("expected a 32-bit word, found %q", a[0])
			}
			p.raw, p.isRaw = uint32(v), true
		}
	default:
		return in, false
	}
	return in, true
}

func (p *asmParser) parse() Inst {
	if in, ok := p.pseudo(); ok {
		return in
	}
	name, aqrl := p.mn, uint8(0)
	op, ok := OpByName(name)
	if !ok {
		for k, sfx := range aqrlSuffix {
			if k > 0 && strings.HasSuffix(name, sfx) {
				if o, found := OpByName(strings.TrimSuffix(name, sfx)); found && opTable[o].AqRl {
					op, ok, aqrl = o, true, uint8(k)
				}
			}
		}
	}
	if !ok {
		p.fail("unknown mnemonic %q", p.mn)
		return Inst{}
	}
	if op.Compressed() {
		p.fail("%s is a 16-bit instruction; only 32-bit instructions are assembled", p.mn)
		return Inst{}
	}
	info := &opTable[op]
	in := Inst{Op: op, Rm: aqrl}
	a := p.args
	// rmArg parses an optional trailing rounding mode after n operands.
	rmArg := func(n int) {
		in.Rm = 7
		if info.ExactRM {
			in.Rm = 0
		}
		if p.want(n, n+1) == n+1 {
			in.Rm = p.rm(a[n])
		}
	}
	switch info.Format {
	case FmtNone, FmtFenceI:
		p.want(0)
	case FmtSfence:
		switch p.want(0, 1, 2) {
		case 2:
			in.Rs2 = p.x(a[1])
			fallthrough
		case 1:
			in.Rs1 = p.x(a[0])
		}
	case FmtR:
		if info.RM {
			rmArg(3)
		} else {
			p.want(3)
		}
		if p.err == nil {
			in.Rd, in.Rs1, in.Rs2 = p.reg(info.Rd, a[0]), p.reg(info.Rs1, a[1]), p.reg(info.Rs2, a[2])
		}
	case FmtR2:
		if info.RM {
			rmArg(2)
		} else {
			p.want(2)
		}
		if p.err == nil {
			in.Rd, in.Rs1 = p.reg(info.Rd, a[0]), p.reg(info.Rs1, a[1])
		}
	case FmtR4:
		if rmArg(4); p.err == nil {
			in.Rd, in.Rs1 = p.reg(info.Rd, a[0]), p.reg(info.Rs1, a[1])
			in.Rs2, in.Rs3 = p.reg(info.Rs2, a[2]), p.reg(info.Rs3, a[3])
		}
	case FmtI, FmtShift, FmtShiftW:
		if p.want(3) == 3 {
			in.Rd, in.Rs1, in.Imm = p.x(a[0]), p.x(a[1]), p.imm(a[2])
		}
	case FmtLoad, FmtJalr:
		if p.want(2) == 2 {
			in.Rd = p.reg(info.Rd, a[0])
			in.Imm, in.Rs1 = p.mem(a[1])
		}
	case FmtStore:
		if p.want(2) == 2 {
			in.Rs2 = p.reg(info.Rs2, a[0])
			in.Imm, in.Rs1 = p.mem(a[1])
		}
	case FmtBranch:
		if p.want(3) == 3 {
			in.Rs1, in.Rs2, in.Imm = p.x(a[0]), p.x(a[1]), p.target(a[2])
		}
	case FmtU:
		if p.want(2) == 2 {
			in.Rd = p.x(a[0])
			v := p.imm(a[1])
			if v < -0x80000 || v > 0xfffff {
				p.fail("%s immediate %#x out of range (want a 20-bit value)", p.mn, v)
			}
			in.Imm = int64(int32(uint32(v) << 12))
		}
	case FmtJ:
		if p.want(2) == 2 {
			in.Rd, in.Imm = p.x(a[0]), p.target(a[1])
		}
	case FmtAMO:
		if p.want(3) == 3 {
			in.Rd, in.Rs2 = p.x(a[0]), p.x(a[1])
			in.Rs1 = p.amoAddr(a[2])
		}
	case FmtLR:
		if p.want(2) == 2 {
			in.Rd, in.Rs1 = p.x(a[0]), p.amoAddr(a[1])
		}
	case FmtCSR:
		if p.want(3) == 3 {
			in.Rd, in.Csr, in.Rs1 = p.x(a[0]), p.csr(a[1]), p.x(a[2])
		}
	case FmtCSRI:
		if p.want(3) == 3 {
			in.Rd, in.Csr, in.Imm = p.x(a[0]), p.csr(a[1]), p.imm(a[2])
		}
	}
	return in
}

// amoAddr parses an AMO address: "(rs1)" or "0(rs1)".
func (p *asmParser) amoAddr(s string) uint8 {
	off, base := p.mem(s)
	if off != 0 {
		p.fail("%s takes an address without offset, found %q", p.mn, s)
	}
	return base
}
