package dise

import (
	"fmt"
	"sort"
	"strings"
)

// Pos is a position in an ACF file: 1-based line and column (in bytes).
type Pos struct {
	File      string
	Line, Col int
}

func (p Pos) String() string {
	switch {
	case p.Line == 0:
		return p.File
	case p.File == "":
		return fmt.Sprintf("%d:%d", p.Line, p.Col)
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// IsValid reports whether the position names a place in a file.
func (p Pos) IsValid() bool { return p.Line > 0 }

// Error is one problem in an ACF file.
type Error struct {
	Pos Pos
	Msg string
}

func (e *Error) Error() string {
	if e.Pos.File == "" && !e.Pos.IsValid() {
		return e.Msg
	}
	return e.Pos.String() + ": " + e.Msg
}

// ErrorList is a sorted list of errors; it prints one per line.
type ErrorList []*Error

// Add appends an error.
func (l *ErrorList) Add(pos Pos, msg string) { *l = append(*l, &Error{pos, msg}) }

// Sort orders the list by file, line and column (stable for equal positions).
func (l ErrorList) Sort() {
	sort.SliceStable(l, func(i, j int) bool {
		a, b := l[i].Pos, l[j].Pos
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
}

// maxListed bounds how many errors Error prints.
const maxListed = 20

func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	var b strings.Builder
	for i, e := range l {
		if i == maxListed {
			fmt.Fprintf(&b, "\n(and %d more errors)", len(l)-maxListed)
			break
		}
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Err returns the list as an error, or nil if it is empty.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

// token kinds.
type tokKind uint8

const (
	tEOF     tokKind = iota
	tIllegal         // a character that starts no token
	tNewline         // end of a line that ends a statement
	tSemi            // ;
	tIdent           // names, mnemonics, op names with dots, T.* directives
	tLabel           // name:
	tDReg            // $dN
	tInt             // integer literal
	tString          // "text" (a profile's name)
	tLParen
	tRParen
	tLBrace
	tRBrace
	tComma
	tArrow  // -> or =>
	tAssign // =
	tEql    // ==
	tNeq    // !=
	tLss    // <
	tLeq    // <=
	tGtr    // >
	tGeq    // >=
	tLAnd   // &&
	tLOr    // ||
	tNot    // !
	tAdd    // +
	tSub    // -
	// keywords
	tDiseReg   // dise_reg
	tCounter   // counter
	tNull      // null
	tCall      // call
	tAuthorize // authorize
)

var tokNames = [...]string{
	tEOF: "end of file", tIllegal: "illegal character", tNewline: "end of line", tSemi: "';'",
	tIdent: "name", tLabel: "label", tDReg: "DISE register", tInt: "integer", tString: "string",
	tLParen: "'('", tRParen: "')'", tLBrace: "'{'", tRBrace: "'}'", tComma: "','", tArrow: "'->'",
	tAssign: "'='", tEql: "'=='", tNeq: "'!='", tLss: "'<'", tLeq: "'<='", tGtr: "'>'", tGeq: "'>='",
	tLAnd: "'&&'", tLOr: "'||'", tNot: "'!'", tAdd: "'+'", tSub: "'-'",
	tDiseReg: "'dise_reg'", tCounter: "'counter'", tNull: "'null'", tCall: "'call'",
	tAuthorize: "'authorize'",
}

func (k tokKind) String() string {
	if int(k) < len(tokNames) {
		return tokNames[k]
	}
	return "token"
}

var keywords = map[string]tokKind{"dise_reg": tDiseReg, "counter": tCounter, "null": tNull, "call": tCall, "authorize": tAuthorize}

// token is one lexical token.
type token struct {
	kind tokKind
	pos  Pos
	end  Pos    // just after the token
	lit  string // the source text (label: without the colon)
}

// describe names the token for "expected X, found Y" messages.
func (t token) describe() string {
	switch t.kind {
	case tIdent, tInt, tDReg:
		return fmt.Sprintf("%s %q", t.kind, t.lit)
	case tString:
		return "string " + t.lit
	case tLabel:
		return fmt.Sprintf("label %q", t.lit+":")
	case tIllegal:
		return fmt.Sprintf("illegal character %q", t.lit)
	}
	return t.kind.String()
}
