package dise

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// expectation is an /* ERROR "regexp" */ comment: the error must be
// reported at the token just before the comment (or later on its line).
type expectation struct {
	anchor  Pos // the token the comment follows
	comment Pos
	re      *regexp.Regexp
	matched bool
}

var (
	errorComment   = regexp.MustCompile(`/\* ERROR ("(?:[^"\\]|\\.)*") \*/`)
	warningComment = regexp.MustCompile(`/\* WARNING ("(?:[^"\\]|\\.)*") \*/`)
)

// expectations reads the ERROR (or WARNING) comments of an ACF source.
func expectations(t *testing.T, name string, src []byte, comment *regexp.Regexp) []*expectation {
	t.Helper()
	var errs ErrorList
	toks := tokenize(name, src, &errs)
	var out []*expectation
	for _, m := range comment.FindAllSubmatchIndex(src, -1) {
		line, col := 1, 1
		for _, c := range src[:m[0]] {
			if c == '\n' {
				line, col = line+1, 1
			} else {
				col++
			}
		}
		cpos := Pos{name, line, col}
		// The quoted text is a regexp; only \" is an escape of the comment.
		lit := strings.ReplaceAll(string(src[m[2]+1:m[3]-1]), `\"`, `"`)
		re, err := regexp.Compile(lit)
		require.NoError(t, err, "%s: bad ERROR comment", cpos)
		e := &expectation{comment: cpos, re: re}
		for _, tk := range toks {
			if tk.kind != tNewline && tk.kind != tEOF && before(tk.pos, cpos) {
				e.anchor = tk.pos
			}
		}
		out = append(out, e)
	}
	return out
}

func before(a, b Pos) bool { return a.Line < b.Line || a.Line == b.Line && a.Col < b.Col }

// match finds the expectation an error at pos belongs to: on the same
// line, the one with the last anchor at or before pos (or the first).
func match(exps []*expectation, pos Pos) *expectation {
	var best *expectation
	for _, e := range exps {
		if e.comment.Line != pos.Line {
			continue
		}
		if best == nil || (!before(pos, e.anchor) && before(best.anchor, e.anchor)) {
			best = e
		}
	}
	return best
}

// checkErrors compares the errors of parsing and checking a testdata file
// with its ERROR comments.
func checkErrors(t *testing.T, path string) {
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	name := filepath.Base(path)
	exps := expectations(t, name, src, errorComment)
	require.NotEmpty(t, exps, "no ERROR comments in %s", name)
	f, err := ParseFile(name, src)
	if err == nil {
		_, err = Compile(DefaultConfig(), f)
	}
	require.Error(t, err)
	list, ok := err.(ErrorList)
	require.True(t, ok, "want an ErrorList, got %T", err)
	matchComments(t, exps, list)
}

// checkWarnings compares the warnings of a testdata file that compiles
// with its WARNING comments.
func checkWarnings(t *testing.T, path string) {
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	name := filepath.Base(path)
	exps := expectations(t, name, src, warningComment)
	require.NotEmpty(t, exps, "no WARNING comments in %s", name)
	f, err := ParseFile(name, src)
	require.NoError(t, err)
	prog, err := Compile(DefaultConfig(), f)
	require.NoError(t, err)
	matchComments(t, exps, prog.Warnings)
}

// matchComments matches each error of list with an expectation.
func matchComments(t *testing.T, exps []*expectation, list ErrorList) {
	t.Helper()
	for _, e := range list {
		x := match(exps, e.Pos)
		if !assert.NotNil(t, x, "unexpected error %s", e) {
			continue
		}
		if assert.Regexp(t, x.re, e.Msg, "error at %s", e.Pos) {
			assert.False(t, before(e.Pos, x.anchor) && e.Pos.Line == x.anchor.Line,
				"%s: error reported before the token the comment follows (%s)", e, x.anchor)
		}
		x.matched = true
	}
	for _, x := range exps {
		assert.True(t, x.matched, "%s: no error matching %q", x.comment, x.re)
	}
}

func TestSyntaxErrors(t *testing.T) { checkErrors(t, "testdata/syntax.acf") }

func TestCheckErrors(t *testing.T) { checkErrors(t, "testdata/check.acf") }

func TestProfileErrors(t *testing.T) { checkErrors(t, "testdata/profiles.acf") }

func TestWarnings(t *testing.T) { checkWarnings(t, "testdata/warnings.acf") }

// The whole message, as a user sees it.
func TestErrorFormat(t *testing.T) {
	src := "P1: T.OPCLASS == branch R1\nR1: T.INSN\nP2: T.OP == addi -> R9\n"
	f, err := ParseFile("x.acf", []byte(src))
	require.EqualError(t, err, `x.acf:1:25: expected '->' (or '=>') and the production's actions, found name "R1"`)
	_, err = Compile(DefaultConfig(), f)
	require.EqualError(t, err, `x.acf:3:21: undefined replacement R9 (and R9 is not a micro-op: inc_N, dec_N or set_N(reg))`)

	// Several errors in one run, one per line, sorted.
	_, err = ParseFile("y.acf", []byte("P1: T.OP == -> null\ncounter x = 1\nP2: T.OP == beq -> null\nR1: {\n"))
	require.EqualError(t, err, "y.acf:1:13: expected a field, a name or an integer, found '->'\n"+
		"y.acf:2:9: expected a counter number, found name \"x\"\n"+
		"y.acf:4:6: expected '}' to close the replacement R1, found end of line")

	_, err = ParseFile("z.acf", []byte("/* open"))
	require.EqualError(t, err, "z.acf:1:1: comment not terminated (a /* comment ends with */)")
	_, err = ParseFile("s.acf", []byte("R: call(H, T.PC) as \"open\nP: T.OP == beq -> R\n"))
	require.EqualError(t, err, `s.acf:1:21: string not terminated (a "string" ends on its line)`)
}

func TestLoadFilesErrors(t *testing.T) {
	_, err := LoadFiles(DefaultConfig(), "testdata/does-not-exist.acf")
	require.ErrorContains(t, err, "testdata/does-not-exist.acf: no such file or directory")
	_, err = LoadFiles(DefaultConfig(), "testdata/syntax.acf", "testdata/check.acf")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "syntax.acf:3:")
	assert.NotContains(t, err.Error(), "check.acf", "a file with syntax errors stops before checking")
	require.Greater(t, len(err.(ErrorList)), 10)
}
