package rootfs

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
)

// A maintainer script is shell. Most update-alternatives commands in
// Debian's postinst scripts are literal (debhelper writes them so), but
// some are built from variables in a loop: OpenJDK's registers java,
// keytool and the rest with
//
//	jre_tools='java jpackage keytool rmiregistry'
//	for i in $jre_tools; do ... update-alternatives --install /usr/bin/$i $i $basedir/bin/$i $priority $slave1 $slave2; done
//
// scriptCommands reads such a script far enough to expand those: it
// splits the script into simple commands as sh(1) does (quotes, escapes,
// line continuations, comments, here-documents, command substitutions
// kept whole, redirections dropped), runs plain assignments, unset, for
// loops, if statements whose conditions it can decide (true, false, test
// and [ on strings, numbers and the root's files, joined by && and ||)
// and command substitutions whose output it can know (echo, and calls of
// shell functions that echo: xz-utils' slaves), and returns each
// update-alternatives command with its words expanded and split, up to
// the first word that cannot be. Everything else is not run: an
// undecidable condition runs every branch in order, a case statement's
// branches and a function's body are read where they are written, a
// while loop's body once. A word that needs what is not followed
// (another command's output, a glob, an unknown variable) ends its
// command, so a script outside this subset gives fewer alternatives or
// slaves, never made-up ones. The script is taken as dpkg runs it for a
// first install: "postinst configure" with no old version, DPKG_ROOT
// empty, in a root whose files are under root (none if "").
func scriptCommands(script, arch, root string) [][]string {
	sh := &shell{arch: arch, root: root, vars: map[string]string{
		"1": "configure", "2": "", "DPKG_ROOT": "", "DPKG_MAINTSCRIPT_ARCH": arch,
	}}
	cmds := splitCommands(script)
	sh.run(cmds, 0, len(cmds))
	return sh.out
}

// command is one simple command as written (quotes and escapes kept) and
// the operator after it: "\n", ";", "&", "|", "&&", "||", "(" or ")".
// A reserved word that opens or closes a compound command (if, then,
// do, done, ...) is a command of its own.
type command struct {
	words []string
	sep   string
}

// reserved are the words that structure a script where a command starts.
var reserved = map[string]bool{
	"if": true, "then": true, "elif": true, "else": true, "fi": true,
	"do": true, "done": true, "while": true, "until": true,
	"{": true, "}": true, "esac": true,
}

// splitCommands lexes a script into simple commands. Operators (newline
// ; & | && || ( ) ;;) end a command; redirections and their targets are
// dropped, and a here-document's body is skipped.
func splitCommands(s string) []command {
	var cmds []command
	var cur []string
	var heredocs []heredoc // delimiters whose bodies start after this line
	end := func(sep string) {
		if len(cur) > 0 {
			cmds = append(cmds, command{cur, sep})
			cur = nil
		} else if n := len(cmds); n > 0 && sep != "\n" {
			cmds[n-1].sep = sep
		}
	}
	dropNext := false // the word after a redirection operator is its target
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s) && s[i+1] == '\n':
			i += 2
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == '\n':
			end("\n")
			i++
			for _, h := range heredocs {
				i = skipHeredoc(s, i, h)
			}
			heredocs = nil
		case c == '#':
			for i < len(s) && s[i] != '\n' {
				i++
			}
		case c == '&' || c == '|':
			op := s[i : i+1]
			if i+1 < len(s) && s[i+1] == c {
				op = s[i : i+2]
			}
			end(op)
			i += len(op)
		case c == '(' && len(cur) == 1 && strings.HasPrefix(strings.TrimLeft(s[i+1:], " \t"), ")"):
			cmds = append(cmds, command{cur, "()"}) // a function's definition: name()
			cur = nil
			i = strings.IndexByte(s[i:], ')') + i + 1
		case c == ';' || c == '(' || c == ')':
			end(s[i : i+1])
			i++
		case c == '<' || c == '>':
			op := redirection(s[i:])
			i += len(op)
			if op == "<<" || op == "<<-" {
				for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
					i++
				}
				w, n := scanWord(s[i:])
				i += n
				heredocs = append(heredocs, heredoc{delim: unquoted(w), strip: op == "<<-"})
				continue
			}
			dropNext = true
		default:
			w, n := scanWord(s[i:])
			i += n
			if i < len(s) && (s[i] == '<' || s[i] == '>') && isDigits(w) {
				continue // an io-number: 2>/dev/null
			}
			if dropNext {
				dropNext = false
				continue
			}
			if len(cur) == 0 && reserved[w] {
				cmds = append(cmds, command{[]string{w}, ";"})
				continue
			}
			cur = append(cur, w)
		}
	}
	end("\n")
	return cmds
}

// heredoc is a pending here-document: its delimiter, and whether leading
// tabs are stripped (<<-).
type heredoc struct {
	delim string
	strip bool
}

// skipHeredoc returns the offset just past the body of h starting at i.
func skipHeredoc(s string, i int, h heredoc) int {
	for i < len(s) {
		j := strings.IndexByte(s[i:], '\n')
		line, next := s[i:], len(s)
		if j >= 0 {
			line, next = s[i:i+j], i+j+1
		}
		if h.strip {
			line = strings.TrimLeft(line, "\t")
		}
		i = next
		if line == h.delim {
			break
		}
	}
	return i
}

// redirection returns the redirection operator s starts with.
func redirection(s string) string {
	for _, op := range []string{"<<-", "<<", "<>", "<&", ">>", ">&", ">|", "<", ">"} {
		if strings.HasPrefix(s, op) {
			return op
		}
	}
	return s[:1]
}

// scanWord returns the word s starts with, as written, and its length:
// up to unquoted white space or an operator, with quoted strings,
// escapes, $(...), ${...} and `...` taken whole.
func scanWord(s string) (string, int) {
	i := 0
	for i < len(s) {
		switch c := s[i]; c {
		case ' ', '\t', '\r', '\n', ';', '&', '|', '(', ')', '<', '>':
			return s[:i], i
		case '$':
			i = skipDollar(s, i)
		default:
			i = skipQuoting(s, i)
		}
	}
	return s, i
}

// skipQuoting returns the offset after the escape or quoted string that
// starts at s[i], or after s[i] itself if none does.
func skipQuoting(s string, i int) int {
	switch s[i] {
	case '\\':
		return min(i+2, len(s))
	case '\'':
		return skipPast(s, i+1, '\'')
	case '"':
		return skipDouble(s, i+1)
	case '`':
		return skipBackquote(s, i+1)
	}
	return i + 1
}

// skipPast returns the offset after the next c at or after i.
func skipPast(s string, i int, c byte) int {
	if j := strings.IndexByte(s[i:], c); j >= 0 {
		return i + j + 1
	}
	return len(s)
}

// skipDouble returns the offset after the double-quoted string whose
// body starts at i.
func skipDouble(s string, i int) int { return skipQuoted(s, i, '"') }

// skipBackquote returns the offset after the `...` whose body starts at i.
func skipBackquote(s string, i int) int { return skipQuoted(s, i, '`') }

// skipQuoted returns the offset after the closing quote of a string
// whose body starts at i: escapes skipped, and in a double-quoted one
// the substitutions it holds taken whole.
func skipQuoted(s string, i int, quote byte) int {
	for i < len(s) {
		c := s[i]
		switch {
		case c == '\\':
			i += 2
		case c == quote:
			return i + 1
		case quote == '"' && c == '`':
			i = skipBackquote(s, i+1)
		case quote == '"' && c == '$':
			i = skipDollar(s, i)
		default:
			i++
		}
	}
	return len(s)
}

// skipDollar returns the offset after the expansion at s[i] ('$'): $(...)
// and $((...)) with their nesting and quotes, ${...}, or $ alone.
func skipDollar(s string, i int) int {
	if i+1 >= len(s) {
		return len(s)
	}
	switch s[i+1] {
	case '(':
		depth := 0
		for j := i + 1; j < len(s); {
			switch s[j] {
			case '(':
				depth++
				j++
			case ')':
				depth--
				j++
				if depth == 0 {
					return j
				}
			default:
				j = skipQuoting(s, j)
			}
		}
		return len(s)
	case '{':
		return skipPast(s, i+2, '}')
	}
	return i + 1
}

func isDigits(w string) bool {
	if w == "" {
		return false
	}
	for i := 0; i < len(w); i++ {
		if w[i] < '0' || w[i] > '9' {
			return false
		}
	}
	return true
}

// unquoted is a here-document delimiter's word without its quotes.
func unquoted(w string) string {
	return strings.NewReplacer(`'`, "", `"`, "", `\`, "").Replace(w)
}

// shell runs the subset of a script scriptCommands follows.
type shell struct {
	arch, root string
	vars       map[string]string // set variables; an unknown one is absent
	out        [][]string
	funcs      map[string]function
	// capture is the output of the command substitution being run (nil
	// outside one); captureUnknown, that a command in it printed what is
	// not known.
	capture        *strings.Builder
	captureUnknown bool
	steps, calls   int // commands run, and functions active: bounded
}

// function is a shell function's body, cmds[start:end].
type function struct {
	cmds       []command
	start, end int
}

// Bounds on what a script may make the reader do: a loop over many words
// in a loop over many words, a function that calls itself.
const (
	maxSteps = 100000
	maxCalls = 16
)

// run runs cmds[i:end]. A command after && or || runs unless the list's
// value so far (known for test, [, true and false) says it would not.
func (sh *shell) run(cmds []command, i, end int) {
	prev := unknown // the and-or list's value so far
	for start := i; i < end; {
		if sh.steps++; sh.steps > maxSteps {
			return
		}
		if cmds[i].sep == "()" {
			i = sh.define(cmds, i, end)
			prev = unknown
			continue
		}
		switch cmds[i].words[0] {
		case "if":
			i = sh.ifClause(cmds, i, end)
			prev = unknown
		case "for":
			i = sh.forLoop(cmds, i, end)
			prev = unknown
		case "while", "until": // the condition and the body, once
			i++
		default:
			c := cmds[i]
			op := ";"
			if i > start {
				op = cmds[i-1].sep
			}
			if !shortCut(op, prev) && !reserved[c.words[0]] {
				sh.exec(c.words)
				prev = andOr(op, prev, sh.status(c.words))
			}
			i++
		}
	}
}

// define records the function defined at cmds[i] (name() then a { }
// group) and runs its body where it is written, with its arguments
// unknown; it returns the index after the body.
func (sh *shell) define(cmds []command, i, end int) int {
	name := cmds[i].words[0]
	if i+1 >= end || cmds[i+1].words[0] != "{" {
		return i + 1
	}
	close := closing(cmds, i+2, end, "}")
	if sh.funcs == nil {
		sh.funcs = map[string]function{}
	}
	sh.funcs[name] = function{cmds, i + 2, close}
	saved := sh.positional(nil)
	sh.run(cmds, i+2, close)
	sh.restore(saved)
	return close + 1
}

// positional sets $1 to $9 to args, or makes them unknown (nil), and
// returns what they were, for restore.
func (sh *shell) positional(args []string) map[string]*string {
	old := map[string]*string{}
	for k := 1; k <= 9; k++ {
		n := strconv.Itoa(k)
		if v, ok := sh.vars[n]; ok {
			old[n] = &v
		} else {
			old[n] = nil
		}
		switch {
		case args == nil:
			delete(sh.vars, n)
		case k <= len(args):
			sh.vars[n] = args[k-1]
		default:
			sh.vars[n] = ""
		}
	}
	return old
}

// restore undoes positional.
func (sh *shell) restore(saved map[string]*string) {
	for n, v := range saved {
		if v == nil {
			delete(sh.vars, n)
		} else {
			sh.vars[n] = *v
		}
	}
}

// call runs a function with its arguments, inside a command
// substitution (elsewhere a body is read where it is written).
func (sh *shell) call(f function, args []string) {
	if sh.calls >= maxCalls {
		sh.captureUnknown = true
		return
	}
	sh.calls++
	saved := sh.positional(args)
	sh.run(f.cmds, f.start, f.end)
	sh.restore(saved)
	sh.calls--
}

// substitute runs the command substitution $(inner) and returns its
// output without its trailing newlines: known when every command in it
// is echo, a call of a function whose commands are, an assignment, or a
// loop or condition of these.
func (sh *shell) substitute(inner string) (string, bool) {
	if strings.Join(strings.Fields(inner), " ") == "dpkg --print-architecture" {
		return sh.arch, true
	}
	outer, outerUnknown := sh.capture, sh.captureUnknown
	var b strings.Builder
	sh.capture, sh.captureUnknown = &b, false
	cmds := splitCommands(inner)
	sh.run(cmds, 0, len(cmds))
	ok := !sh.captureUnknown && sh.steps <= maxSteps
	sh.capture, sh.captureUnknown = outer, outerUnknown
	return strings.TrimRight(b.String(), "\n"), ok
}

// closing returns the index of the first of the words in stop at cmds'
// top level from i on (end if none), counting if/fi and loops/done.
func closing(cmds []command, i, end int, stop ...string) int {
	depth := 0
	for ; i < end; i++ {
		w := cmds[i].words[0]
		if depth == 0 && len(cmds[i].words) == 1 {
			for _, s := range stop {
				if w == s {
					return i
				}
			}
		}
		switch w {
		case "if", "for", "while", "until", "{":
			depth++
		case "fi", "done", "}":
			depth--
		}
	}
	return end
}

// ifClause runs the if statement at cmds[i]: the first branch whose
// condition holds, or, from a condition it cannot decide on, every
// branch in order. It returns the index after fi.
func (sh *shell) ifClause(cmds []command, i, end int) int {
	fi := closing(cmds, i+1, end, "fi")
	decided := false
	for at := i; at < fi && !decided; {
		var body int
		switch cmds[at].words[0] {
		case "if", "elif":
			then := closing(cmds, at+1, fi, "then")
			holds := sh.condition(cmds[at+1 : then])
			body = then + 1
			next := closing(cmds, body, fi, "elif", "else")
			if holds != no {
				sh.run(cmds, body, next)
			}
			decided = holds == yes
			at = next
		default: // else
			sh.run(cmds, at+1, fi)
			at = fi
		}
	}
	return fi + 1
}

// forLoop runs the for loop at cmds[i] and returns the index after done:
// its body once per item, or once with the variable unknown when its
// list cannot be expanded.
func (sh *shell) forLoop(cmds []command, i, end int) int {
	done := closing(cmds, i+1, end, "done")
	body := closing(cmds, i+1, done, "do") + 1
	words := cmds[i].words
	if len(words) < 2 || !isName(words[1]) {
		return done + 1
	}
	name := words[1]
	var items []string
	ok := len(words) >= 3 && words[2] == "in"
	if ok {
		for _, w := range words[3:] {
			f, fine := sh.expand(w, true)
			if !fine {
				ok = false
				break
			}
			items = append(items, f...)
		}
	}
	if !ok {
		delete(sh.vars, name)
		sh.run(cmds, body, done)
		return done + 1
	}
	for _, it := range items {
		sh.vars[name] = it
		sh.run(cmds, body, done)
	}
	return done + 1
}

// truth is a condition's value: yes, no, or not known here.
type truth int

const (
	unknown truth = iota
	yes
	no
)

// not is !v.
func (v truth) not() truth {
	switch v {
	case yes:
		return no
	case no:
		return yes
	}
	return unknown
}

func truthOf(b bool) truth {
	if b {
		return yes
	}
	return no
}

// condition decides an and-or list of commands as sh would; a
// pipeline's value is not known.
func (sh *shell) condition(cmds []command) truth {
	v, op := yes, ";"
	for k, c := range cmds {
		if !shortCut(op, v) {
			v = andOr(op, v, sh.status(c.words))
		}
		op = c.sep
		if op == "|" || k > 0 && cmds[k-1].sep == "|" {
			v = unknown
		}
	}
	return v
}

// shortCut reports whether a command after op is not run, the list's
// value so far being v.
func shortCut(op string, v truth) bool {
	return op == "&&" && v == no || op == "||" && v == yes
}

// andOr is an and-or list's value after a command of value w that ran
// after op, its value before being v.
func andOr(op string, v, w truth) truth {
	switch {
	case op == "&&" && v == unknown:
		if w == no {
			return no
		}
		return unknown
	case op == "||" && v == unknown:
		if w == yes {
			return yes
		}
		return unknown
	}
	return w
}

// status is a simple command's success as a condition: true, false, :,
// test and [ are known; ! negates.
func (sh *shell) status(words []string) truth {
	if len(words) > 0 && words[0] == "!" {
		return sh.status(words[1:]).not()
	}
	if len(words) == 0 {
		return unknown
	}
	switch words[0] {
	case "true", ":":
		return yes
	case "false":
		return no
	case "test", "[":
	default:
		return unknown
	}
	var args []string
	for _, w := range words[1:] {
		f, ok := sh.expand(w, true)
		if !ok {
			return unknown
		}
		args = append(args, f...)
	}
	if words[0] == "[" {
		if len(args) == 0 || args[len(args)-1] != "]" {
			return unknown
		}
		args = args[:len(args)-1]
	}
	return sh.test(args)
}

// test evaluates test(1)'s expression of zero to three arguments (and !
// before one): strings, integers, and files under the root.
func (sh *shell) test(args []string) truth {
	of := truthOf
	if len(args) > 0 && args[0] == "!" && len(args) <= 3 {
		return sh.test(args[1:]).not()
	}
	switch len(args) {
	case 0:
		return no
	case 1:
		return of(args[0] != "")
	case 2:
		switch args[0] {
		case "-z":
			return of(args[1] == "")
		case "-n":
			return of(args[1] != "")
		}
		return sh.testFile(args[0], args[1])
	case 3:
		x, y := args[0], args[2]
		switch args[1] {
		case "=", "==":
			return of(x == y)
		case "!=":
			return of(x != y)
		}
		a, errA := strconv.ParseInt(strings.TrimSpace(x), 10, 64)
		b, errB := strconv.ParseInt(strings.TrimSpace(y), 10, 64)
		if errA != nil || errB != nil {
			return unknown
		}
		switch args[1] {
		case "-eq":
			return of(a == b)
		case "-ne":
			return of(a != b)
		case "-gt":
			return of(a > b)
		case "-ge":
			return of(a >= b)
		case "-lt":
			return of(a < b)
		case "-le":
			return of(a <= b)
		}
	}
	return unknown
}

// testFile evaluates a file test on a guest path in the root (links
// inside it resolved as the guest would), unknown without a root.
func (sh *shell) testFile(op, p string) truth {
	if sh.root == "" || !strings.HasPrefix(p, "/") {
		return unknown
	}
	var fi fs.FileInfo
	var err error
	if op == "-L" || op == "-h" {
		var dir string
		if dir, err = resolveIn(sh.root, path.Dir(p)); err == nil {
			fi, err = os.Lstat(filepath.Join(sh.root, dir, path.Base(p)))
		}
	} else {
		fi, err = statIn(sh.root, p)
	}
	ok := err == nil
	switch op {
	case "-e":
	case "-L", "-h":
		ok = ok && fi.Mode()&fs.ModeSymlink != 0
	case "-f":
		ok = ok && fi.Mode().IsRegular()
	case "-d":
		ok = ok && fi.IsDir()
	case "-s":
		ok = ok && fi.Size() > 0
	case "-x":
		ok = ok && fi.Mode()&0o111 != 0
	case "-r", "-w":
	default:
		return unknown
	}
	return truthOf(ok)
}

// exec runs one simple command: assignments, unset, or the expansion of
// an update-alternatives command.
func (sh *shell) exec(words []string) {
	if words[0] == "!" {
		words = words[1:]
	}
	n := 0
	for n < len(words) && isAssignment(words[n]) {
		n++
	}
	if n == len(words) { // assignments alone set the shell's variables
		sh.assign(words)
		return
	}
	words = words[n:] // assignments before a command are its environment only
	switch words[0] {
	case "export", "local", "readonly":
		var as []string
		for _, w := range words[1:] {
			if isAssignment(w) {
				as = append(as, w)
			}
		}
		sh.assign(as)
		return
	case "unset":
		for _, w := range words[1:] {
			if isName(w) {
				sh.vars[w] = ""
			}
		}
		return
	}
	if sh.capture != nil && sh.printed(words) {
		return
	}
	if path.Base(words[0]) != "update-alternatives" {
		return
	}
	var args []string
	for _, w := range words[1:] {
		f, ok := sh.expand(w, true)
		if !ok { // the words before it (xz-utils' slaves come from a function's output)
			break
		}
		args = append(args, f...)
	}
	sh.out = append(sh.out, args)
}

// printed runs, inside a command substitution, a command whose output
// counts: echo, or a function's call. Any other command but
// update-alternatives makes the output unknown. false for
// update-alternatives, which exec expands as anywhere else.
func (sh *shell) printed(words []string) bool {
	f, isFunc := sh.funcs[words[0]]
	if !isFunc && words[0] != "echo" {
		if path.Base(words[0]) == "update-alternatives" {
			return false
		}
		if sh.status(words) == unknown { // not test, [, true or false
			sh.captureUnknown = true
		}
		return true
	}
	var args []string
	for _, w := range words[1:] {
		a, ok := sh.expand(w, true)
		if !ok {
			sh.captureUnknown = true
			return true
		}
		args = append(args, a...)
	}
	if isFunc {
		sh.call(f, args)
		return true
	}
	if len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' && strings.Trim(args[0][1:], "neE") == "" { // echo -n, -e: not followed
		sh.captureUnknown = true
		return true
	}
	sh.capture.WriteString(strings.Join(args, " ") + "\n")
	return true
}

// assign runs NAME=VALUE words; a value that cannot be expanded makes
// its variable unknown.
func (sh *shell) assign(words []string) {
	for _, w := range words {
		eq := strings.IndexByte(w, '=')
		name := w[:eq]
		v, ok := sh.expand(w[eq+1:], false)
		if !ok {
			delete(sh.vars, name)
			continue
		}
		sh.vars[name] = strings.Join(v, "")
	}
}

func isAssignment(w string) bool {
	eq := strings.IndexByte(w, '=')
	return eq > 0 && isName(w[:eq])
}

func isName(w string) bool {
	for i := 0; i < len(w); i++ {
		c := w[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return w != ""
}

// expand expands a word as written: quotes removed, variables replaced,
// and (with split, outside an assignment) unquoted expansions split into
// fields at white space. false when the word needs what is not followed:
// a command substitution, arithmetic, a parameter operator, an unknown
// variable or an unquoted glob.
func (sh *shell) expand(w string, split bool) ([]string, bool) {
	var fields []string
	var cur strings.Builder
	have := false // cur is a field even if empty ("" or '')
	flush := func() {
		if have {
			fields = append(fields, cur.String())
		}
		cur.Reset()
		have = false
	}
	for i := 0; i < len(w); {
		switch c := w[i]; c {
		case '\'':
			j := skipPast(w, i+1, '\'')
			cur.WriteString(w[i+1 : quoteEnd(w, i, j)])
			have, i = true, j
		case '"':
			j := skipDouble(w, i+1)
			v, ok := sh.expandDouble(w[i+1 : quoteEnd(w, i, j)])
			if !ok {
				return nil, false
			}
			cur.WriteString(v)
			have, i = true, j
		case '\\':
			if i+1 < len(w) {
				cur.WriteByte(w[i+1])
			}
			have, i = true, i+2
		case '$':
			v, n, ok := sh.parameter(w[i:])
			if !ok {
				return nil, false
			}
			i += n
			if !split {
				cur.WriteString(v)
				have = true
				continue
			}
			parts := strings.Fields(v)
			if len(parts) == 0 {
				continue
			}
			if v[0] == ' ' || v[0] == '\t' || v[0] == '\n' {
				flush()
			}
			for k, p := range parts {
				if k > 0 {
					flush()
				}
				cur.WriteString(p)
				have = true
			}
			if last := v[len(v)-1]; last == ' ' || last == '\t' || last == '\n' {
				flush()
			}
		case '`':
			return nil, false
		case '*', '?', '[':
			if split {
				return nil, false
			}
			cur.WriteByte(c)
			have, i = true, i+1
		default:
			cur.WriteByte(c)
			have, i = true, i+1
		}
	}
	flush()
	if !split && len(fields) == 0 {
		fields = []string{""}
	}
	return fields, true
}

// quoteEnd is where the body of the quoted string that opens at w[i] and
// ends before w[j] stops: before its closing quote, or at j when the
// string is not closed.
func quoteEnd(w string, i, j int) int {
	if j-1 > i && w[j-1] == w[i] {
		return j - 1
	}
	return j
}

// expandDouble expands the body of a double-quoted string.
func (sh *shell) expandDouble(s string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); {
		switch c := s[i]; c {
		case '\\':
			if i+1 < len(s) && strings.IndexByte("$`\"\\\n", s[i+1]) >= 0 {
				if s[i+1] != '\n' {
					b.WriteByte(s[i+1])
				}
				i += 2
				continue
			}
			b.WriteByte(c)
			i++
		case '$':
			v, n, ok := sh.parameter(s[i:])
			if !ok {
				return "", false
			}
			b.WriteString(v)
			i += n
		case '`':
			return "", false
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String(), true
}

// parameter expands the $NAME, ${NAME} or $1 that s starts with: its
// value and the length it took. false for an unknown variable, a special
// parameter, an operator in braces, or a substitution other than
// $(dpkg --print-architecture). A $ followed by
// nothing a parameter starts with is itself.
func (sh *shell) parameter(s string) (string, int, bool) {
	if len(s) < 2 {
		return "$", 1, true
	}
	var name string
	n := 0
	switch c := s[1]; {
	case c == '{':
		j := strings.IndexByte(s, '}')
		if j < 0 {
			return "", 0, false
		}
		name, n = s[2:j], j+1
	case c >= '0' && c <= '9':
		name, n = s[1:2], 2
	case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		j := 1
		for j < len(s) && isName(s[1:j+1]) {
			j++
		}
		name, n = s[1:j], j
	case c == '(':
		n := skipDollar(s, 0)
		if n < 3 || s[n-1] != ')' || strings.HasPrefix(s, "$((") { // unclosed, or arithmetic
			return "", 0, false
		}
		v, ok := sh.substitute(s[2 : n-1])
		return v, n, ok
	case strings.IndexByte("@*#?$!-", c) >= 0:
		return "", 0, false
	default:
		return "$", 1, true
	}
	v, ok := sh.vars[name]
	if !ok || !(isName(name) || isDigits(name)) {
		return "", 0, false
	}
	return v, n, true
}
