package dise

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/rvsim/rvsim/dise/asm"
)

// ParseFile parses one ACF file. It reports every syntax error it finds
// (an ErrorList) and returns the parts it could parse.
func ParseFile(name string, src []byte) (*File, error) {
	var errs ErrorList
	p := &parser{file: &File{Name: name}, errs: &errs}
	p.toks = tokenize(name, src, &errs)
	p.tok = p.toks[0]
	p.parseFile()
	errs.Sort()
	return p.file, errs.Err()
}

// parser is a recursive-descent parser with one token of lookahead
// (go/parser's shape). Two decisions look further, and say so: a tLabel
// at the top level starts a production if its line holds an arrow, and
// otherwise a replacement.
type parser struct {
	toks []token
	i    int
	tok  token
	file *File
	errs *ErrorList
}

func (p *parser) next() {
	if p.i < len(p.toks)-1 {
		p.i++
	}
	p.tok = p.toks[p.i]
}

func (p *parser) peek(k int) token {
	if p.i+k < len(p.toks) {
		return p.toks[p.i+k]
	}
	return p.toks[len(p.toks)-1]
}

// errorf records an error; like go/parser it keeps only the first error
// of a line, since the rest are usually consequences.
func (p *parser) errorf(pos Pos, format string, args ...any) {
	if n := len(*p.errs); n > 0 {
		if last := (*p.errs)[n-1].Pos; last.File == pos.File && last.Line == pos.Line {
			return
		}
	}
	p.errs.Add(pos, fmt.Sprintf(format, args...))
}

// errorExpected reports what was expected instead of the current token;
// a token on a later line than the previous one means the line ended.
func (p *parser) errorExpected(what string) {
	if p.i > 0 {
		if prev := p.toks[p.i-1]; prev.kind != tNewline && p.tok.pos.Line > prev.end.Line {
			p.errorf(prev.end, "expected %s, found end of line", what)
			return
		}
	}
	p.errorf(p.tok.pos, "expected %s, found %s", what, p.tok.describe())
}

// expect consumes a token of kind k, reporting it if it is another; it
// always makes progress.
func (p *parser) expect(k tokKind, what string) token {
	t := p.tok
	if t.kind != k {
		p.errorExpected(what)
	}
	p.next()
	return t
}

// atEnd reports whether the token ends a statement.
func (p *parser) atEnd() bool {
	switch p.tok.kind {
	case tNewline, tSemi, tEOF:
		return true
	}
	return false
}

// syncLine skips to the end of the statement (error recovery): the end
// of the line, or a declaration starting on a later line (the lexer emits
// no newline after a token that cannot end a statement).
func (p *parser) syncLine() {
	line := p.tok.pos.Line
	for p.tok.kind != tNewline && p.tok.kind != tEOF && !(p.tok.pos.Line > line && startsDecl(p.tok.kind)) {
		p.next()
	}
}

func startsDecl(k tokKind) bool {
	return k == tLabel || k == tDiseReg || k == tCounter || k == tAuthorize
}

// onNewLine reports whether the current token starts a later line than
// the previous token ends on.
func (p *parser) onNewLine() bool {
	return p.i > 0 && p.tok.pos.Line > p.toks[p.i-1].end.Line
}

func (p *parser) parseFile() {
	for p.tok.kind != tEOF {
		switch p.tok.kind {
		case tNewline, tSemi:
			p.next()
			continue
		case tDiseReg:
			p.parseRegDecl()
		case tCounter:
			p.parseCounterDecl()
		case tAuthorize:
			p.parseAuthorize()
		case tLabel:
			p.parseLabelled()
		default:
			p.errorExpected("a declaration (dise_reg, counter, authorize) or a labelled production or replacement (P1: …)")
			p.syncLine()
			continue
		}
		if !p.atEnd() {
			if p.onNewLine() && startsDecl(p.tok.kind) {
				continue // the line ended the statement
			}
			p.errorExpected("end of line")
			p.syncLine()
		}
	}
}

// parseInt parses an integer literal token (any Go base prefix).
func (p *parser) parseInt(t token) int64 {
	if v, err := strconv.ParseInt(t.lit, 0, 64); err == nil {
		return v
	}
	if u, err := strconv.ParseUint(t.lit, 0, 64); err == nil {
		return int64(u)
	}
	p.errorf(t.pos, "malformed integer %q (want decimal, 0x hex, 0o octal or 0b binary, at most 64 bits)", t.lit)
	return 0
}

// parseConst parses ['-'] INT {('+'|'-') INT}: a constant of declarations.
func (p *parser) parseConst() uint64 {
	neg := false
	if p.tok.kind == tSub {
		neg = true
		p.next()
	}
	if p.tok.kind != tInt {
		p.errorExpected("an integer")
		return 0
	}
	v := uint64(p.parseInt(p.tok))
	if neg {
		v = -v
	}
	p.next()
	for p.tok.kind == tAdd || p.tok.kind == tSub {
		sub := p.tok.kind == tSub
		p.next()
		if p.tok.kind != tInt {
			p.errorExpected("an integer")
			return v
		}
		w := uint64(p.parseInt(p.tok))
		p.next()
		if sub {
			v -= w
		} else {
			v += w
		}
	}
	return v
}

// dreg parses the number of a $dN token.
func (p *parser) dreg(t token) int {
	n, err := strconv.Atoi(strings.TrimPrefix(t.lit, "$d"))
	if !strings.HasPrefix(t.lit, "$d") || err != nil || n < 0 || n >= asm.DISERegs {
		p.errorf(t.pos, "expected a DISE register $d0..$d%d, found %q", asm.DISERegs-1, t.lit)
		return 0
	}
	return n
}

// dise_reg NAME [($dN)] = CONST   or   dise_reg $dN = CONST
func (p *parser) parseRegDecl() {
	d := &RegDecl{Pos: p.tok.pos, DReg: -1}
	p.next()
	d.NamePos = p.tok.pos
	switch p.tok.kind {
	case tIdent:
		d.Name = p.tok.lit
		p.next()
		if p.tok.kind == tLParen {
			p.next()
			t := p.expect(tDReg, "a DISE register $d0..$d7")
			if t.kind == tDReg {
				d.DReg = p.dreg(t)
			}
			p.expect(tRParen, "')'")
		}
	case tDReg:
		d.DReg = p.dreg(p.tok)
		p.next()
	default:
		p.errorExpected("a register name or $dN after dise_reg")
		p.syncLine()
		return
	}
	p.expect(tAssign, "'=' and the register's initial value")
	d.Value = p.parseConst()
	p.file.Regs = append(p.file.Regs, d)
}

// counter N = CONST
func (p *parser) parseCounterDecl() {
	d := &CounterDecl{Pos: p.tok.pos}
	p.next()
	d.NPos = p.tok.pos
	t := p.expect(tInt, "a counter number")
	if t.kind == tInt {
		d.N = int(p.parseInt(t))
	}
	p.expect(tAssign, "'=' and the counter's initial value")
	d.Value = p.parseConst()
	p.file.Counters = append(p.file.Counters, d)
}

// authorize hps: the grant that lets application code execute hps.on and
// hps.off (hps-phase-aware-remote-profiling.md §4: "Only authorized agents
// … may execute this instruction"); without one they are illegal.
func (p *parser) parseAuthorize() {
	pos := p.tok.pos
	p.next()
	if p.tok.kind != tIdent || p.tok.lit != "hps" {
		p.errorExpected("'hps' after authorize (the only grant: application code may execute hps.on/hps.off)")
		if !p.onNewLine() {
			p.syncLine()
		}
		return
	}
	p.next()
	p.file.Authorize = append(p.file.Authorize, pos)
}

// parseLabelled parses a production or a replacement.
func (p *parser) parseLabelled() {
	label := p.tok
	p.next()
	if p.tok.kind == tLBrace {
		p.parseReplacement(label)
		return
	}
	if p.lineHasArrow() || p.looksLikePattern() {
		p.parseProduction(label)
		return
	}
	p.parseReplacement(label)
}

// lineHasArrow looks ahead to the end of the statement for -> or =>.
func (p *parser) lineHasArrow() bool {
	line := p.tok.pos.Line
	for k := 0; ; k++ {
		t := p.peek(k)
		switch {
		case t.kind == tArrow:
			return true
		case t.kind == tNewline, t.kind == tEOF, t.kind == tLBrace, t.kind == tRBrace,
			t.pos.Line > line && startsDecl(t.kind):
			return false
		}
	}
}

// looksLikePattern reports whether the token can only start a pattern
// (so a missing arrow is reported as such).
func (p *parser) looksLikePattern() bool {
	switch p.tok.kind {
	case tLParen, tNot:
		return true
	case tIdent:
		if _, _, ok := flagName(p.tok.lit); ok {
			return true
		}
		if d, ok := asm.DirectiveByName(p.tok.lit); ok {
			switch p.peek(1).kind {
			case tEql, tNeq, tLss, tLeq, tGtr, tGeq:
				return true
			}
			return d != asm.DirOP && d != asm.DirINSN
		}
	}
	return false
}

// flagName parses zero_N and overflow_N.
func flagName(s string) (overflow bool, n int, ok bool) {
	for _, pre := range []string{"zero_", "overflow_"} {
		if rest, found := strings.CutPrefix(s, pre); found {
			v, err := strconv.Atoi(rest)
			if err == nil && v >= 0 && rest != "" && rest[0] != '+' {
				return pre == "overflow_", v, true
			}
		}
	}
	return false, 0, false
}

// microOpName parses inc_N, dec_N and set_N.
func microOpName(s string) (ActionKind, int, bool) {
	for _, m := range []struct {
		pre  string
		kind ActionKind
	}{{"inc_", ActInc}, {"dec_", ActDec}, {"set_", ActSet}} {
		if rest, found := strings.CutPrefix(s, m.pre); found {
			v, err := strconv.Atoi(rest)
			if err == nil && v >= 0 && rest != "" && rest[0] != '+' {
				return m.kind, v, true
			}
		}
	}
	return 0, 0, false
}

// LABEL: PATTERN -> ACTION {, ACTION}
func (p *parser) parseProduction(label token) {
	prod := &Production{Pos: label.pos, Label: label.lit}
	prod.Pattern = p.parseOr()
	prod.Arrow = p.tok.pos
	if p.tok.kind != tArrow {
		p.errorExpected("'->' (or '=>') and the production's actions")
		p.syncLine()
		return
	}
	p.next()
	for {
		if a := p.parseAction(); a != nil {
			prod.Actions = append(prod.Actions, a)
		}
		if p.tok.kind != tComma {
			break
		}
		p.next()
	}
	if prod.Pattern != nil {
		p.file.Productions = append(p.file.Productions, prod)
	}
}

func (p *parser) parseAction() *Action {
	t := p.tok
	switch t.kind {
	case tNull:
		p.next()
		return &Action{Pos: t.pos, Kind: ActNull}
	case tIdent:
		p.next()
		kind, n, ok := microOpName(t.lit)
		if !ok {
			return &Action{Pos: t.pos, Kind: ActReplace, Name: t.lit}
		}
		a := &Action{Pos: t.pos, Kind: kind, Counter: n}
		if kind == ActSet {
			p.expect(tLParen, "'(' and the DISE register set_N copies")
			r := p.tok
			if r.kind == tIdent || r.kind == tDReg {
				a.Reg, a.RegPos = r.lit, r.pos
				p.next()
			} else {
				p.errorExpected("a DISE register (a dise_reg name or $dN)")
			}
			p.expect(tRParen, "')'")
		} else if p.tok.kind == tLParen {
			p.errorf(p.tok.pos, "%s takes no operand (only set_N copies a DISE register)", t.lit)
			p.syncLine()
		}
		return a
	}
	p.errorExpected("a micro-op (inc_N, dec_N, set_N(reg)), a replacement label or null")
	p.syncLine()
	return nil
}

// Pattern expressions: || binds looser than &&, ! binds tightest.
func (p *parser) parseOr() Expr {
	x := p.parseAnd()
	for p.tok.kind == tLOr {
		pos := p.tok.pos
		p.next()
		y := p.parseAnd()
		if x == nil || y == nil {
			x = nil
			continue
		}
		x = &BinaryExpr{OpPos: pos, Op: tLOr, X: x, Y: y}
	}
	return x
}

func (p *parser) parseAnd() Expr {
	x := p.parseUnary()
	for p.tok.kind == tLAnd {
		pos := p.tok.pos
		p.next()
		y := p.parseUnary()
		if x == nil || y == nil {
			x = nil
			continue
		}
		x = &BinaryExpr{OpPos: pos, Op: tLAnd, X: x, Y: y}
	}
	return x
}

func (p *parser) parseUnary() Expr {
	if p.tok.kind == tNot {
		pos := p.tok.pos
		p.next()
		x := p.parseUnary()
		if x == nil {
			return nil
		}
		return &NotExpr{Pos: pos, X: x}
	}
	return p.parsePrimary()
}

const termWhat = "a pattern term (T.OP, T.OPCLASS, T.PC, T.TARGET, T.RD, T.RS1, T.RS2, T.IMM, T.INSN, zero_N, overflow_N or '(')"

func (p *parser) parsePrimary() Expr {
	switch p.tok.kind {
	case tLParen:
		pos := p.tok.pos
		p.next()
		x := p.parseOr()
		p.expect(tRParen, "')'")
		if x == nil {
			return nil
		}
		return &ParenExpr{Pos: pos, X: x}
	case tIdent:
		if ov, n, ok := flagName(p.tok.lit); ok {
			f := &FlagExpr{Pos: p.tok.pos, Overflow: ov, Counter: n}
			p.next()
			return f
		}
	case tInt, tSub:
	default:
		p.errorExpected(termWhat)
		return nil
	}
	l := p.parseTerm()
	if l == nil {
		return nil
	}
	op := p.tok
	switch op.kind {
	case tEql, tNeq, tLss, tLeq, tGtr, tGeq:
	default:
		p.errorExpected(fmt.Sprintf("a comparison operator (==, !=, <, <=, >, >=) after %s", l.Text))
		return nil
	}
	p.next()
	r := p.parseTerm()
	if r == nil {
		return nil
	}
	return &CompareExpr{OpPos: op.pos, Op: op.kind, L: l, R: r}
}

func (p *parser) parseTerm() *Term {
	t := p.tok
	switch t.kind {
	case tIdent, tCall: // "call" is also an op class
		p.next()
		term := &Term{Pos: t.pos, Text: t.lit}
		if d, ok := asm.DirectiveByName(t.lit); ok {
			term.Field = d
		} else if strings.HasPrefix(t.lit, "T.") {
			p.errorf(t.pos, "unknown field %s (fields are T.OP, T.OPCLASS, T.PC, T.TARGET, T.RD, T.RS1, T.RS2, T.IMM and T.INSN)", t.lit)
			return nil
		} else {
			term.Name = t.lit
		}
		return term
	case tInt:
		p.next()
		return &Term{Pos: t.pos, IsInt: true, Int: p.parseInt(t), Text: t.lit}
	case tSub:
		p.next()
		if p.tok.kind != tInt {
			p.errorExpected("an integer after '-'")
			return nil
		}
		v := p.tok
		p.next()
		return &Term{Pos: t.pos, IsInt: true, Int: -p.parseInt(v), Text: "-" + v.lit}
	}
	p.errorExpected("a field, a name or an integer")
	return nil
}

// A replacement: LABEL: ITEM {; ITEM}   or   LABEL: { ITEMS }
func (p *parser) parseReplacement(label token) {
	r := &Replacement{Pos: label.pos, Label: label.lit}
	if p.tok.kind == tLBrace {
		p.next()
		for {
			for p.tok.kind == tNewline || p.tok.kind == tSemi {
				p.next()
			}
			if p.tok.kind == tRBrace || p.tok.kind == tEOF {
				break
			}
			it := p.parseItem()
			if it == nil {
				for !p.atEnd() && p.tok.kind != tRBrace {
					p.next()
				}
				continue
			}
			r.Items = append(r.Items, it)
			if it.Kind == ItemLabel {
				continue
			}
			if !p.atEnd() && p.tok.kind != tRBrace {
				p.errorExpected("';', a new line or '}' after the instruction")
				for !p.atEnd() && p.tok.kind != tRBrace {
					p.next()
				}
			}
		}
		p.expect(tRBrace, "'}' to close the replacement "+label.lit)
	} else {
		for {
			if p.tok.kind == tNewline || p.tok.kind == tEOF {
				if len(r.Items) == 0 {
					p.errorExpected("the replacement's instructions (or '{')")
				}
				break
			}
			it := p.parseItem()
			if it == nil {
				p.syncLine()
				break
			}
			r.Items = append(r.Items, it)
			if it.Kind == ItemLabel {
				if p.tok.pos.Line != it.Pos.Line {
					break // a label ends the line: the replacement ends with it
				}
				continue
			}
			if p.tok.kind == tSemi {
				p.next()
				continue
			}
			if !p.atEnd() {
				p.errorExpected("';' or the end of the line after the instruction")
				p.syncLine()
			}
			break
		}
	}
	p.file.Replacements = append(p.file.Replacements, r)
}

func (p *parser) parseItem() *Item {
	t := p.tok
	switch t.kind {
	case tLabel:
		p.next()
		return &Item{Pos: t.pos, Kind: ItemLabel, Label: t.lit}
	case tCall:
		p.next()
		it := &Item{Pos: t.pos, Kind: ItemCall}
		p.expect(tLParen, "'(' after call")
		h := p.expect(tIdent, "the handler's name")
		if h.kind != tIdent {
			return nil
		}
		it.Handler = h.lit
		for p.tok.kind == tComma {
			p.next()
			pos := p.tok.pos
			o, ok := p.parseOperand()
			if !ok {
				return nil
			}
			it.Args, it.ArgPos = append(it.Args, o), append(it.ArgPos, pos)
		}
		p.expect(tRParen, "',' and an argument, or ')' to end the call")
		if p.tok.kind == tIdent && p.tok.lit == "as" {
			p.next()
			s := p.expect(tString, `the profile's name in quotes after 'as' (as "NAME")`)
			if s.kind != tString {
				return nil
			}
			it.Profile, it.ProfilePos = strings.Trim(s.lit, `"`), s.pos
			if p.tok.kind == tLParen {
				p.next()
				for {
					f := p.expect(tIdent, "a field name")
					if f.kind != tIdent {
						return nil
					}
					it.Fields, it.FieldPos = append(it.Fields, f.lit), append(it.FieldPos, f.pos)
					if p.tok.kind != tComma {
						break
					}
					p.next()
				}
				p.expect(tRParen, "',' and a field name, or ')' to end the field names")
			}
		}
		return it
	case tIdent:
		p.next()
		if d, ok := asm.DirectiveByName(t.lit); ok && d == asm.DirINSN {
			return &Item{Pos: t.pos, Kind: ItemOriginal}
		}
		it := &Item{Pos: t.pos, Kind: ItemInst, Mnemonic: t.lit}
		if p.atEnd() || p.tok.kind == tRBrace {
			return it
		}
		for {
			pos := p.tok.pos
			o, ok := p.parseOperand()
			if !ok {
				return nil
			}
			it.Operands, it.OpPos = append(it.Operands, o), append(it.OpPos, pos)
			if p.tok.kind != tComma {
				break
			}
			p.next()
		}
		return it
	}
	p.errorExpected("an instruction, T.INSN, call(handler, …) or a label")
	return nil
}

// parseOperand parses one operand of a replacement instruction or call.
func (p *parser) parseOperand() (asm.Operand, bool) {
	var o asm.Operand
	t := p.tok
	switch t.kind {
	case tDReg:
		p.next()
		o = asm.Operand{Kind: asm.KindDReg, N: p.dreg(t)}
		return o, true
	case tInt, tSub:
		neg := t.kind == tSub
		if neg {
			p.next()
			if p.tok.kind != tInt {
				p.errorExpected("an integer after '-'")
				return o, false
			}
		}
		v := p.parseInt(p.tok)
		if neg {
			v = -v
		}
		p.next()
		o = asm.Operand{Kind: asm.KindImm, Value: v}
	case tIdent:
		p.next()
		if d, ok := asm.DirectiveByName(t.lit); ok {
			o = asm.Operand{Kind: asm.KindDir, Dir: d}
			if p.tok.kind == tAdd || p.tok.kind == tSub {
				neg := p.tok.kind == tSub
				p.next()
				if p.tok.kind != tInt {
					p.errorExpected("an integer addend")
					return o, false
				}
				v := p.parseInt(p.tok)
				if neg {
					v = -v
				}
				o.Value = v
				p.next()
			}
		} else if strings.HasPrefix(t.lit, "T.") {
			p.errorf(t.pos, "unknown directive %s", t.lit)
			return o, false
		} else {
			return asm.Operand{Kind: asm.KindIdent, Name: t.lit}, true
		}
	case tLParen:
	default:
		p.errorExpected("an operand (register, $dN, integer, T.* directive, label or offset(register))")
		return o, false
	}
	if p.tok.kind != tLParen {
		return o, true
	}
	// offset(base)
	mem := asm.Operand{Kind: asm.KindMem}
	if t.kind != tLParen {
		off := o
		mem.Off = &off
	}
	p.next()
	b := p.tok
	var base asm.Operand
	switch b.kind {
	case tDReg:
		base = asm.Operand{Kind: asm.KindDReg, N: p.dreg(b)}
	case tIdent:
		if d, ok := asm.DirectiveByName(b.lit); ok {
			base = asm.Operand{Kind: asm.KindDir, Dir: d}
		} else {
			base = asm.Operand{Kind: asm.KindIdent, Name: b.lit}
		}
	default:
		p.errorExpected("a base register")
		return o, false
	}
	p.next()
	mem.Base = &base
	p.expect(tRParen, "')' after the base register")
	return mem, true
}
