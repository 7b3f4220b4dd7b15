package dise

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/rvsim/rvsim/dise/asm"
	"github.com/rvsim/rvsim/isa"
)

// Profiles the ACF names, the checks against a handler runtime, and the
// warnings `rvsim acf` prints.

// NamedProfile is a profile an ACF names: call(Handler, args…) as "Name".
// Every call that names it passes its Tag in the tag word (mailbox slot
// 0, with the number of arguments in bits 32-39) and its arguments after
// it; the handler counts them in a tagged table, and rvsim writes the
// entries of each tag as a profile of its own.
type NamedProfile struct {
	Name    string
	Handler string
	Tag     uint64
	Keys    []ProfileField // one per argument
	Pos     Pos            // the first call that names it
}

// ProfileField is a key field of a named profile.
type ProfileField struct {
	Name   string
	Format string // "code" (T.PC, T.TARGET: an address in the program), "hex" (T.INSN) or "dec"
}

// NamedProfiles returns the profiles the ACF names, by tag.
func (pr *Program) NamedProfiles() []NamedProfile { return append([]NamedProfile(nil), pr.named...) }

// HandlerInfo is what a handler runtime declares about one handler.
type HandlerInfo struct {
	MinArgs, MaxArgs int
	Tagged           bool // its calls name a profile: call(H, …) as "NAME"
}

// TagWord is the mailbox's slot 0 for a call naming profile tag with n
// arguments.
func TagWord(tag uint64, n int) uint64 { return tag | uint64(n)<<32 }

// profileCall checks `as "NAME"(fields…)` on a call and derives its key
// fields.
func (c *checker) profileCall(call *callTmpl, it *Item) {
	call.profile, call.ppos = it.Profile, it.ProfilePos
	if !validProfileName(it.Profile) {
		c.errorf(it.ProfilePos, "profile name %q: want letters, digits, '-', '_' and '.'", it.Profile)
		return
	}
	taken := map[string]bool{}
	for k := range it.Args {
		name, format := argField(&it.Args[k], k)
		if taken[name] {
			name += strconv.Itoa(k + 1)
		}
		taken[name] = true
		call.keys = append(call.keys, ProfileField{Name: name, Format: format})
	}
	if it.Fields == nil {
		return
	}
	call.keysGiven = true
	if len(it.Fields) != len(it.Args) {
		pos := it.ProfilePos
		if len(it.Fields) > 0 {
			pos = it.FieldPos[0]
		}
		c.errorf(pos, "%d field %s for %d %s: name each argument's field",
			len(it.Fields), plural(len(it.Fields), "name", "names"), len(it.Args), plural(len(it.Args), "argument", "arguments"))
		return
	}
	seen := map[string]bool{}
	for k, n := range it.Fields {
		switch {
		case !validProfileName(n):
			c.errorf(it.FieldPos[k], "field name %q: want letters, digits, '-', '_' and '.'", n)
		case n == "count":
			c.errorf(it.FieldPos[k], "field name \"count\" is taken by each entry's own count")
		case seen[n]:
			c.errorf(it.FieldPos[k], "field %s is named twice", n)
		}
		seen[n] = true
		call.keys[k].Name = n
	}
}

func validProfileName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return false
		}
	}
	return true
}

// argField is the default field name and format of call argument k.
func argField(o *asm.Operand, k int) (string, string) {
	switch o.Kind {
	case asm.KindDir:
		name := strings.ToLower(strings.TrimPrefix(o.Dir.String(), "T."))
		switch o.Dir {
		case asm.DirPC, asm.DirTARGET:
			return name, "code"
		case asm.DirINSN:
			return name, "hex"
		}
		return name, "dec"
	case asm.KindDReg:
		return "d" + strconv.Itoa(o.N), "dec"
	case asm.KindIdent:
		return o.Name, "dec"
	}
	return "key" + strconv.Itoa(k+1), "dec"
}

// nameProfiles numbers the profiles the loaded calls name and puts each
// call's tag word in front of its arguments.
func (c *checker) nameProfiles() {
	byName := map[string]int{}
	for _, call := range c.pr.calls {
		if call.profile == "" {
			continue
		}
		i, ok := byName[call.profile]
		if !ok {
			i = len(c.pr.named)
			byName[call.profile] = i
			c.pr.named = append(c.pr.named, NamedProfile{Name: call.profile, Handler: call.handler, Tag: uint64(i + 1), Keys: call.keys, Pos: call.ppos})
		} else if np := &c.pr.named[i]; np.Handler != call.handler || !sameFields(np.Keys, call.keys) {
			c.errorf(call.ppos, "profile %q is collected by %s(%s) at %s: every call naming it passes the same fields",
				call.profile, np.Handler, fieldNames(np.Keys), np.Pos)
			continue
		}
		tag := argTmpl{kind: argConst, v: TagWord(uint64(i+1), call.nargs)}
		call.args = append([]argTmpl{tag}, call.args...)
	}
}

func sameFields(a, b []ProfileField) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func fieldNames(fs []ProfileField) string {
	var ns []string
	for _, f := range fs {
		ns = append(ns, f.Name)
	}
	return strings.Join(ns, ", ")
}

// CheckRuntime checks the program's handler calls against a handler
// runtime: every handler exists, takes the number of arguments it is
// given, and is called with `as "NAME"` exactly when it is tagged.
func (pr *Program) CheckRuntime(rt *Runtime) error {
	var errs ErrorList
	var tagged []string
	if rt != nil {
		for n, h := range rt.Handlers {
			if h.Tagged {
				tagged = append(tagged, n)
			}
		}
		sort.Strings(tagged)
	}
	for _, call := range pr.calls {
		if rt == nil {
			errs.Add(call.pos, fmt.Sprintf("call(%s, …) needs the handler runtime, and none is loaded (build it with make, or pass --handlers)", call.handler))
			continue
		}
		if _, ok := rt.Lookup(call.handler); !ok {
			errs.Add(call.pos, fmt.Sprintf("handler %s is not in the handler runtime %s (it has: %s)", call.handler, rt.File, strings.Join(rt.HandlerNames(), ", ")))
			continue
		}
		h, declared := rt.Handlers[call.handler]
		switch {
		case call.profile != "" && !h.Tagged:
			which := "the tagged handlers of " + rt.File + ": " + strings.Join(tagged, ", ")
			if len(tagged) == 0 {
				which = rt.File + " has none"
			}
			errs.Add(call.ppos, fmt.Sprintf("as %q: %s is not a tagged handler, so the ACF cannot name its profile (%s)", call.profile, call.handler, which))
		case call.profile == "" && h.Tagged:
			errs.Add(call.pos, fmt.Sprintf("%s is tagged: name the profile it collects, as in call(%s, …) as \"NAME\"", call.handler, call.handler))
		case declared && (call.nargs < h.MinArgs || call.nargs > h.MaxArgs):
			errs.Add(call.pos, fmt.Sprintf("%s takes %s, found %d", call.handler, argRange(h.MinArgs, h.MaxArgs), call.nargs))
		}
	}
	errs.Sort()
	return errs.Err()
}

func argRange(lo, hi int) string {
	switch {
	case hi == 0:
		return "no arguments"
	case lo == hi:
		return fmt.Sprintf("%d %s", lo, plural(lo, "argument", "arguments"))
	case hi == lo+1:
		return fmt.Sprintf("%d or %d arguments", lo, hi)
	}
	return fmt.Sprintf("%d to %d arguments", lo, hi)
}

// replUse is how the productions use one loaded replacement.
type replUse struct {
	r        *Replacement
	original bool // used by a production that matches more than trigger instructions
}

// useReplacement records that production lp uses replacement r.
func (c *checker) useReplacement(lp *prod, r *Replacement) {
	if c.repls == nil {
		c.repls = map[*rtSeq]*replUse{}
	}
	u := c.repls[lp.repl]
	if u == nil {
		u = &replUse{r: r}
		c.repls[lp.repl] = u
	}
	if !triggersOnly(lp.terms) {
		u.original = true
	}
}

// triggersOnly reports whether every PT entry of a production matches only
// hps.on or hps.off: instructions that do nothing, so a replacement
// without T.INSN loses nothing.
func triggersOnly(terms [][]atom) bool {
	for _, term := range terms {
		ok := false
		for _, a := range term {
			if a.f == asm.DirOP && a.op == tEql && a.g == asm.DirNone && !a.compressed && (isa.Op(a.v) == isa.HPS_ON || isa.Op(a.v) == isa.HPS_OFF) {
				ok = true
			}
		}
		if !ok {
			return false
		}
	}
	return len(terms) > 0
}

func (c *checker) warnf(pos Pos, format string, args ...any) {
	c.pr.Warnings.Add(pos, fmt.Sprintf(format, args...))
}

// warn finds what is legal but probably a mistake.
func (c *checker) warn(files []*File) {
	used := map[*Replacement]bool{}
	for _, u := range c.repls {
		used[u.r] = true
	}
	for _, f := range files {
		for _, r := range f.Replacements {
			if _, referenced := c.loaded[r]; !referenced && !used[r] {
				c.warnf(r.Pos, "replacement %s is not used by any production", r.Label)
			}
		}
	}
	for seq, u := range c.repls {
		for _, it := range seq.items {
			if it.kind != ItemInst {
				continue
			}
			if reg := appRegWritten(&it.tmpl); reg != "" {
				c.warnf(it.pos, "%s writes the application register %s: the program's value is lost (use $d0-$d7 for scratch)", it.tmpl.Text, reg)
			}
		}
		if !u.original {
			continue
		}
		switch fewest, most, present := originalRuns(seq); {
		case !present:
			c.warnf(u.r.Pos, "replacement %s has no T.INSN: the instruction it replaces is deleted", seq.label)
		case fewest == 0:
			c.warnf(u.r.Pos, "replacement %s can end without running T.INSN: on that path the instruction it replaces is deleted", seq.label)
		case most > 1:
			c.warnf(u.r.Pos, "replacement %s can run T.INSN twice on one path: the instruction it replaces then executes twice", seq.label)
		}
	}
}

// appRegWritten names the application register a replacement
// instruction writes ("" if none: no destination, x0, or a DISE register).
func appRegWritten(t *asm.Template) string {
	info := t.Inst.Op.Info()
	switch {
	case t.OpFromOriginal:
		return ""
	case info.Rd == isa.XReg && t.Rd == asm.FromRD:
		return "T.RD"
	case info.Rd == isa.XReg && t.Rd == asm.Fixed && t.Inst.Rd != 0 && t.Inst.Rd < 32:
		return isa.XRegNames[t.Inst.Rd]
	case info.Rd == isa.FReg && t.Rd == asm.FromRD:
		return "T.RD"
	case info.Rd == isa.FReg:
		return isa.FRegNames[t.Inst.Rd&31]
	}
	return ""
}

// originalRuns follows every path through a replacement sequence and
// returns the fewest and most times T.INSN runs on one (the most capped at
// 2; a loop through T.INSN counts as 2), and whether it appears at all.
func originalRuns(seq *rtSeq) (fewest, most int, present bool) {
	n := len(seq.items)
	type state struct{ at, runs int }
	seen := map[state]bool{}
	work := []state{{0, 0}}
	fewest, most = 3, -1
	for len(work) > 0 {
		s := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[s] {
			continue
		}
		seen[s] = true
		if s.at >= n {
			fewest, most = min(fewest, s.runs), max(most, s.runs)
			continue
		}
		it := &seq.items[s.at]
		runs := s.runs
		if it.kind == ItemOriginal {
			present = true
			runs = min(runs+1, 2)
		}
		next := []int{s.at + 1}
		if it.kind == ItemInst && it.tmpl.Label != "" {
			next = []int{it.target, s.at + 1}
			if alwaysTaken(&it.tmpl) {
				next = next[:1]
			}
		}
		for _, at := range next {
			work = append(work, state{at, runs})
		}
	}
	if most < 0 { // no path ends (an endless loop): nothing to say
		return 1, 1, present
	}
	return fewest, most, present
}

// alwaysTaken reports whether a branch in a sequence always goes to its
// label (j label is beq zero, zero, label).
func alwaysTaken(t *asm.Template) bool {
	return !t.OpFromOriginal && t.Rs1 == asm.Fixed && t.Rs2 == asm.Fixed && t.Inst.Rs1 == t.Inst.Rs2 &&
		(t.Inst.Op == isa.BEQ || t.Inst.Op == isa.BGE || t.Inst.Op == isa.BGEU)
}
