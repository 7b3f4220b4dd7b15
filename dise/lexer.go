package dise

import "fmt"

// lexer turns ACF source into tokens (go/scanner's shape). Newlines end
// statements, as in Go: a newline becomes a tNewline token only after a
// token that can end a statement, so a pattern continues on the next line
// after && or ||, a call after a comma, and a replacement after its label.
type lexer struct {
	src  []byte
	file string
	off  int
	line int
	col  int
	last tokKind
	errs *ErrorList
}

func newLexer(file string, src []byte, errs *ErrorList) *lexer {
	return &lexer{src: src, file: file, line: 1, col: 1, last: tNewline, errs: errs}
}

func (l *lexer) pos() Pos { return Pos{l.file, l.line, l.col} }

func (l *lexer) peekc(k int) byte {
	if l.off+k < len(l.src) {
		return l.src[l.off+k]
	}
	return 0
}

func (l *lexer) advance() {
	if l.off < len(l.src) {
		if l.src[l.off] == '\n' {
			l.line++
			l.col = 1
		} else {
			l.col++
		}
		l.off++
	}
}

// endsStatement says whether a newline after a token of kind k ends a
// statement.
func endsStatement(k tokKind) bool {
	switch k {
	case tIdent, tDReg, tInt, tString, tRParen, tRBrace, tNull:
		return true
	}
	return false
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }

// next returns the next token.
func (l *lexer) next() token {
	t := l.scan()
	t.end = l.pos()
	if t.kind == tNewline {
		t.end = t.pos
	}
	l.last = t.kind
	return t
}

func (l *lexer) scan() token {
	for {
		c := l.peekc(0)
		switch {
		case l.off >= len(l.src):
			if endsStatement(l.last) {
				return token{kind: tNewline, pos: l.pos(), lit: "\n"}
			}
			return token{kind: tEOF, pos: l.pos()}
		case c == '\n':
			p := l.pos()
			l.advance()
			if endsStatement(l.last) {
				return token{kind: tNewline, pos: p, lit: "\n"}
			}
			continue
		case c == ' ' || c == '\t' || c == '\r':
			l.advance()
			continue
		case c == '#':
			for l.off < len(l.src) && l.src[l.off] != '\n' {
				l.advance()
			}
			continue
		case c == '/' && l.peekc(1) == '*':
			// A block comment; one that spans lines ends a statement like a newline.
			p := l.pos()
			l.advance()
			l.advance()
			nl := false
			for l.off < len(l.src) && !(l.src[l.off] == '*' && l.peekc(1) == '/') {
				nl = nl || l.src[l.off] == '\n'
				l.advance()
			}
			if l.off >= len(l.src) {
				l.errs.Add(p, "comment not terminated (a /* comment ends with */)")
				continue
			}
			l.advance()
			l.advance()
			if nl && endsStatement(l.last) {
				return token{kind: tNewline, pos: p, lit: "\n"}
			}
			continue
		}
		break
	}
	p := l.pos()
	c := l.peekc(0)
	two := func(k tokKind, lit string) token {
		l.advance()
		l.advance()
		return token{kind: k, pos: p, lit: lit}
	}
	one := func(k tokKind) token {
		l.advance()
		return token{kind: k, pos: p, lit: string(c)}
	}
	switch {
	case isLetter(c):
		start := l.off
		for isLetter(l.peekc(0)) || isDigit(l.peekc(0)) || l.peekc(0) == '.' {
			l.advance()
		}
		lit := string(l.src[start:l.off])
		if k, ok := keywords[lit]; ok {
			return token{kind: k, pos: p, lit: lit}
		}
		// name: is a label (spaces may come before the colon).
		k := 0
		for l.peekc(k) == ' ' || l.peekc(k) == '\t' {
			k++
		}
		if l.peekc(k) == ':' {
			for i := 0; i <= k; i++ {
				l.advance()
			}
			return token{kind: tLabel, pos: p, lit: lit}
		}
		return token{kind: tIdent, pos: p, lit: lit}
	case isDigit(c):
		start := l.off
		for isLetter(l.peekc(0)) || isDigit(l.peekc(0)) {
			l.advance()
		}
		return token{kind: tInt, pos: p, lit: string(l.src[start:l.off])}
	case c == '"':
		// A string: no escapes, and it ends on its line.
		start := l.off
		l.advance()
		for l.off < len(l.src) && l.src[l.off] != '"' && l.src[l.off] != '\n' {
			l.advance()
		}
		if l.off >= len(l.src) || l.src[l.off] != '"' {
			l.errs.Add(p, "string not terminated (a \"string\" ends on its line)")
			return token{kind: tString, pos: p, lit: string(l.src[start:l.off]) + `"`}
		}
		l.advance()
		return token{kind: tString, pos: p, lit: string(l.src[start:l.off])}
	case c == '$':
		start := l.off
		l.advance()
		for isLetter(l.peekc(0)) || isDigit(l.peekc(0)) {
			l.advance()
		}
		return token{kind: tDReg, pos: p, lit: string(l.src[start:l.off])}
	}
	switch c {
	case ';':
		return one(tSemi)
	case '(':
		return one(tLParen)
	case ')':
		return one(tRParen)
	case '{':
		return one(tLBrace)
	case '}':
		return one(tRBrace)
	case ',':
		return one(tComma)
	case '+':
		return one(tAdd)
	case '-':
		if l.peekc(1) == '>' {
			return two(tArrow, "->")
		}
		return one(tSub)
	case '=':
		switch l.peekc(1) {
		case '=':
			return two(tEql, "==")
		case '>':
			return two(tArrow, "=>")
		}
		return one(tAssign)
	case '!':
		if l.peekc(1) == '=' {
			return two(tNeq, "!=")
		}
		return one(tNot)
	case '<':
		if l.peekc(1) == '=' {
			return two(tLeq, "<=")
		}
		return one(tLss)
	case '>':
		if l.peekc(1) == '=' {
			return two(tGeq, ">=")
		}
		return one(tGtr)
	case '&':
		if l.peekc(1) == '&' {
			return two(tLAnd, "&&")
		}
	case '|':
		if l.peekc(1) == '|' {
			return two(tLOr, "||")
		}
	}
	l.advance()
	lit := string(c)
	if c < ' ' || c >= 0x7f {
		lit = fmt.Sprintf("\\x%02x", c)
	}
	return token{kind: tIllegal, pos: p, lit: lit}
}

// tokenize returns every token of src, ending with tEOF.
func tokenize(file string, src []byte, errs *ErrorList) []token {
	l := newLexer(file, src, errs)
	var out []token
	for {
		t := l.next()
		out = append(out, t)
		if t.kind == tEOF {
			return out
		}
	}
}
