package dise

import (
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/rvsim/rvsim/dise/asm"
	"github.com/rvsim/rvsim/isa"
)

// Program is a checked set of productions loaded into the hardware
// tables: the PT, CT and RT contents, the DISE registers' and counters'
// initial values, and the handlers the replacements call.
type Program struct {
	Config Config
	prods  []*prod // in priority order (PT order)

	RegInit  [asm.DISERegs]uint64 // initial values of $d0…$d7
	RegNames [asm.DISERegs]string // the name bound to each register ("" if none)
	Counters []uint64             // initial counter values

	// Table occupancy after loading.
	PTUsed, CTUsed, RTUsed int

	calls    []*callTmpl // every call(…) in the loaded replacements
	handlers []string    // distinct handler names, sorted
	triggers bool        // some production matches hps.on or hps.off
	authHPS  bool        // some file says `authorize hps`
	named    []NamedProfile

	// Warnings are legal constructs that are probably mistakes (`rvsim
	// acf` prints them): replacements that write application registers,
	// that can skip or repeat T.INSN, and that no production uses.
	Warnings ErrorList
}

// Handlers returns the names of the handlers the program calls.
func (pr *Program) Handlers() []string { return append([]string(nil), pr.handlers...) }

// UsesTriggers reports whether a production matches hps.on or hps.off
// (so an external trigger has something to act on).
func (pr *Program) UsesTriggers() bool { return pr.triggers }

// AuthorizesHPS reports whether a loaded file grants application code
// the trigger instructions (`authorize hps`, hps-phase-aware-remote-profiling.md §4).
func (pr *Program) AuthorizesHPS() bool { return pr.authHPS }

// Productions returns the labels of the loaded productions, in priority order.
func (pr *Program) Productions() []string {
	out := make([]string, len(pr.prods))
	for i, p := range pr.prods {
		out[i] = p.label
	}
	return out
}

// prod is one loaded production: its PT entries (§3.1, the pattern table),
// its CT entry (§3.3) and its RT sequence.
type prod struct {
	label string
	pos   Pos
	terms [][]atom // PT entries: the pattern's field part as a disjunction of conjunctions
	pt    int      // index of its first PT entry
	ct    *ctEntry // nil: no flag test and no micro-ops
	repl  *rtSeq   // nil: null (the match fails, the instruction passes)
}

// atom is one comparison of a PT entry.
type atom struct {
	f, g       asm.Directive // the field, and the field it is compared with (DirNone: v)
	op         tokKind
	v          uint64
	compressed bool // T.OP compared with a 16-bit mnemonic: compares COp
}

// ctEntry is a conditionals-table entry: a truth table over up to
// CTInputs status flags, and the micro-ops to run on a match
// (hps-phase-aware-remote-profiling.md §3.3, Fig. 4).
type ctEntry struct {
	index  int
	inputs []flagRef
	table  []uint64 // bit i: the condition holds when the flags spell i (input k is bit k)
	micro  []microOp
}

type flagRef struct {
	counter  int
	overflow bool
}

type microOp struct {
	kind    ActionKind
	counter int
	dreg    int // set_N: the DISE register copied
}

// rtSeq is a replacement sequence in the RT (§3.1, the replacement table).
type rtSeq struct {
	label  string
	pos    Pos
	first  int // first RT entry
	size   int // RT entries
	items  []rtItem
	opT    bool // holds a T.OP instruction (needs a conditional-branch original)
	loaded bool // in the RT
}

type rtItem struct {
	kind   ItemKind // ItemInst (plain or branch), ItemOriginal, ItemCall
	pos    Pos      // where warnings point: an instruction's first operand
	tmpl   asm.Template
	target int // branch: the element a taken branch continues at
	call   *callTmpl
}

// callTmpl is a call(handler, args…) element: §3.5's "call to the profile
// collection routine", entering real handler code.
type callTmpl struct {
	handler string
	pos     Pos
	args    []argTmpl
	nargs   int // the arguments the ACF passes (args may hold a tag word first)
	// `as "NAME"`: the profile it names, where, and its key fields.
	profile   string
	ppos      Pos
	keys      []ProfileField
	keysGiven bool   // named in the ACF rather than derived from the arguments
	entry     uint64 // bound by the runtime
	mailbox   uint64
	stack     uint64
}

type argKind uint8

const (
	argConst   argKind = iota // v
	argReg                    // integer register v (DISE registers included)
	argDir                    // a directive with addend v
	argOrigReg                // the value of the original's register named by dir
)

type argTmpl struct {
	kind argKind
	v    uint64
	dir  asm.Directive
}

// LoadFiles reads, parses and checks ACF files into a Program.
func LoadFiles(cfg Config, paths ...string) (*Program, error) {
	var files []*File
	var errs ErrorList
	for _, path := range paths {
		src, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", path, unwrapPath(err))
		}
		f, err := ParseFile(path, src)
		if err != nil {
			errs = append(errs, err.(ErrorList)...)
			continue
		}
		files = append(files, f)
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return Compile(cfg, files...)
}

func unwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

// Compile checks parsed files and loads them, in order, into the tables
// of a DISE engine with configuration cfg.
func Compile(cfg Config, files ...*File) (*Program, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	c := &checker{cfg: cfg, pr: &Program{Config: cfg, Counters: make([]uint64, cfg.Counters)}, mask: cfg.counterMask()}
	for r := range c.pinned {
		c.pinned[r] = -1
	}
	c.counterSet = make([]*CounterDecl, cfg.Counters)
	c.declareRegs(files)
	for _, f := range files {
		c.file(f)
	}
	c.nameProfiles()
	c.warn(files)
	c.errs.Sort()
	c.pr.Warnings.Sort()
	if len(c.errs) > 0 {
		return nil, c.errs
	}
	hs := map[string]bool{}
	for _, call := range c.pr.calls {
		hs[call.handler] = true
	}
	for h := range hs {
		c.pr.handlers = append(c.pr.handlers, h)
	}
	sort.Strings(c.pr.handlers)
	return c.pr, nil
}

type checker struct {
	cfg        Config
	mask       uint64
	pr         *Program
	errs       ErrorList
	repls      map[*rtSeq]*replUse      // how each loaded replacement is used, for the warnings
	names      map[*File]map[string]int // dise_reg names per file -> register
	pinned     [asm.DISERegs]int        // value-setting declarations per register (index into decls, -1 none)
	decls      []*RegDecl
	counterSet []*CounterDecl
	loaded     map[*Replacement]*rtSeq
}

func (c *checker) errorf(pos Pos, format string, args ...any) {
	c.errs.Add(pos, fmt.Sprintf(format, args...))
}

// declareRegs binds dise_reg names to registers: pinned ones first, then
// the rest to the lowest registers no replacement names as $dN.
func (c *checker) declareRegs(files []*File) {
	c.names = map[*File]map[string]int{}
	used := [asm.DISERegs]bool{}
	for _, f := range files {
		for _, r := range f.Replacements {
			for _, it := range r.Items {
				for _, o := range append(append([]asm.Operand(nil), it.Operands...), it.Args...) {
					markDReg(&o, &used)
				}
			}
		}
		for _, p := range f.Productions {
			for _, a := range p.Actions {
				if a.Kind == ActSet && strings.HasPrefix(a.Reg, "$d") {
					var n int
					if _, err := fmt.Sscanf(a.Reg, "$d%d", &n); err == nil && n >= 0 && n < asm.DISERegs {
						used[n] = true
					}
				}
			}
		}
	}
	setInit := func(d *RegDecl, n int) {
		if prev := c.pinned[n]; prev >= 0 {
			if p := c.decls[prev]; p.Value != d.Value {
				c.errorf(d.NamePos, "$d%d already holds %#x (declared at %s); a register has one initial value", n, p.Value, p.Pos)
				return
			}
		}
		c.decls = append(c.decls, d)
		c.pinned[n] = len(c.decls) - 1
		c.pr.RegInit[n] = d.Value
		if d.Name != "" {
			c.pr.RegNames[n] = d.Name
		}
	}
	var auto []struct {
		f *File
		d *RegDecl
	}
	for _, f := range files {
		names := map[string]int{}
		c.names[f] = names
		seen := map[string]*RegDecl{}
		for _, d := range f.Regs {
			if d.Name != "" {
				if prev, ok := seen[d.Name]; ok {
					c.errorf(d.NamePos, "dise_reg %s redeclared (first declared at %s)", d.Name, prev.Pos)
					continue
				}
				if asm.IsRegisterName(d.Name) {
					c.errorf(d.NamePos, "dise_reg %s: the name is an application register's", d.Name)
					continue
				}
				seen[d.Name] = d
			}
			if d.DReg >= 0 {
				used[d.DReg] = true
				if d.Name != "" {
					names[d.Name] = d.DReg
				}
				setInit(d, d.DReg)
				continue
			}
			auto = append(auto, struct {
				f *File
				d *RegDecl
			}{f, d})
		}
	}
	for _, a := range auto {
		n := -1
		for r := 0; r < asm.DISERegs; r++ {
			if !used[r] {
				n = r
				break
			}
		}
		if n < 0 {
			c.errorf(a.d.NamePos, "no free DISE register for %s (all %d of $d0-$d%d are named or used)", a.d.Name, asm.DISERegs, asm.DISERegs-1)
			continue
		}
		used[n] = true
		c.names[a.f][a.d.Name] = n
		setInit(a.d, n)
	}
}

func markDReg(o *asm.Operand, used *[asm.DISERegs]bool) {
	switch o.Kind {
	case asm.KindDReg:
		if o.N >= 0 && o.N < asm.DISERegs {
			used[o.N] = true
		}
	case asm.KindMem:
		markDReg(o.Base, used)
	}
}

func (c *checker) file(f *File) {
	if len(f.Authorize) > 0 {
		c.pr.authHPS = true
	}
	for _, d := range f.Counters {
		switch {
		case d.N < 0 || d.N >= c.cfg.Counters:
			c.errorf(d.NPos, "counter %d does not exist (%s)", d.N, c.counterRange())
		case d.Value > c.mask:
			c.errorf(d.NPos, "counter %d = %#x does not fit a %d-bit counter (largest %#x)", d.N, d.Value, c.cfg.CounterBits, c.mask)
		case c.counterSet[d.N] != nil && c.counterSet[d.N].Value != d.Value:
			c.errorf(d.NPos, "counter %d already starts at %#x (declared at %s)", d.N, c.counterSet[d.N].Value, c.counterSet[d.N].Pos)
		default:
			c.counterSet[d.N] = d
			c.pr.Counters[d.N] = d.Value
		}
	}
	labels := map[string]Pos{}
	repls := map[string]*Replacement{}
	prods := map[string]bool{}
	for _, p := range f.Productions {
		if prev, dup := labels[p.Label]; dup {
			c.errorf(p.Pos, "%s redeclared (first declared at %s)", p.Label, prev)
			continue
		}
		labels[p.Label], prods[p.Label] = p.Pos, true
	}
	for _, r := range f.Replacements {
		if prev, dup := labels[r.Label]; dup {
			c.errorf(r.Pos, "%s redeclared (also declared at %s)", r.Label, prev)
			continue
		}
		labels[r.Label], repls[r.Label] = r.Pos, r
	}
	if c.loaded == nil {
		c.loaded = map[*Replacement]*rtSeq{}
	}
	for _, p := range f.Productions {
		c.production(f, p, repls, prods)
	}
	// A replacement no production names is assembled too, so that a typo
	// in it is an error now and not when a production first uses it; it
	// is not loaded into the RT, and warn reports it unused.
	for _, r := range f.Replacements {
		if _, done := c.loaded[r]; !done && repls[r.Label] == r {
			c.replacement(f, r)
			delete(c.loaded, r)
		}
	}
}

func (c *checker) counterRange() string {
	if c.cfg.Counters == 0 {
		return "this configuration has no counters"
	}
	return fmt.Sprintf("there are %d counters: 0-%d", c.cfg.Counters, c.cfg.Counters-1)
}

// production checks one production and loads it into the tables.
func (c *checker) production(f *File, p *Production, repls map[string]*Replacement, prods map[string]bool) {
	nerr := len(c.errs)
	lp := &prod{label: p.Label, pos: p.Pos}
	// The pattern: FIELDS && FLAGS (the PT matches the fields, the CT's
	// truth table masks the match with the flags: §3.3, Fig. 4).
	var fieldParts, flagParts []Expr
	for _, x := range conjuncts(p.Pattern) {
		hasField, hasFlag := kinds(x)
		switch {
		case hasField && hasFlag:
			c.errorf(x.exprPos(), "pattern mixes counter flags and instruction fields under || or !: "+
				"write it as FIELDS && FLAGS, or split it into two productions")
		case hasFlag:
			flagParts = append(flagParts, x)
		default:
			fieldParts = append(fieldParts, x)
		}
	}
	var fieldExpr Expr
	for _, x := range fieldParts {
		if fieldExpr == nil {
			fieldExpr = x
		} else {
			fieldExpr = &BinaryExpr{Op: tLAnd, X: fieldExpr, Y: x}
		}
	}
	if fieldExpr == nil {
		lp.terms = [][]atom{nil} // matches every instruction
	} else {
		lp.terms = c.dnf(fieldExpr, false, c.cfg.PTEntries+1)
	}
	// Flags: the truth table.
	var ct ctEntry
	var flagExpr Expr
	for _, x := range flagParts {
		if flagExpr == nil {
			flagExpr = x
		} else {
			flagExpr = &BinaryExpr{Op: tLAnd, X: flagExpr, Y: x}
		}
	}
	if flagExpr != nil {
		c.flags(flagExpr, &ct)
	}
	// Actions.
	var replName *Action
	for _, a := range p.Actions {
		switch a.Kind {
		case ActReplace:
			if replName != nil {
				c.errorf(a.Pos, "%s has two replacements (%s and %s); a production names at most one", p.Label, replName.Name, a.Name)
				continue
			}
			replName = a
		case ActInc, ActDec, ActSet:
			if a.Counter >= c.cfg.Counters {
				c.errorf(a.Pos, "counter %d does not exist (%s)", a.Counter, c.counterRange())
				continue
			}
			m := microOp{kind: a.Kind, counter: a.Counter, dreg: -1}
			if a.Kind == ActSet {
				m.dreg = c.resolveReg(f, a.Reg, a.RegPos)
				if m.dreg >= 0 && c.pinned[m.dreg] >= 0 {
					if d := c.decls[c.pinned[m.dreg]]; d.Value > c.mask {
						c.errorf(a.RegPos, "%s starts at %#x, which does not fit the %d-bit counter %d", a.Reg, d.Value, c.cfg.CounterBits, a.Counter)
					}
				}
			}
			ct.micro = append(ct.micro, m)
		}
	}
	if len(ct.micro) > c.cfg.CTMicroOps {
		c.errorf(p.Pos, "production %s has %d micro-ops; a conditionals-table entry holds %d", p.Label, len(ct.micro), c.cfg.CTMicroOps)
	}
	if replName != nil {
		r, ok := repls[replName.Name]
		switch {
		case ok:
			lp.repl = c.replacement(f, r)
		case prods[replName.Name]:
			c.errorf(replName.Pos, "%s is a production, not a replacement", replName.Name)
		default:
			c.errorf(replName.Pos, "undefined replacement %s (and %s is not a micro-op: inc_N, dec_N or set_N(reg))", replName.Name, replName.Name)
		}
		if lp.repl != nil && lp.repl.opT {
			for _, term := range lp.terms {
				if !impliesCondBranch(term) {
					c.errorf(replName.Pos, "replacement %s uses T.OP as a mnemonic, which needs a conditional branch, "+
						"but the pattern of %s does not limit it to conditional branches (add T.OPCLASS == branch)", lp.repl.label, p.Label)
					break
				}
			}
		}
	}
	if len(c.errs) > nerr {
		return
	}
	if lp.repl != nil {
		c.useReplacement(lp, repls[replName.Name])
	}
	if lp.repl != nil && !lp.repl.loaded {
		s := lp.repl
		if c.pr.RTUsed+s.size > c.cfg.RTEntries {
			c.errorf(p.Pos, "replacement table overflow: production %s needs %d %s for %s but only %d of %d are free",
				p.Label, s.size, plural(s.size, "entry", "entries"), s.label, c.cfg.RTEntries-c.pr.RTUsed, c.cfg.RTEntries)
			return
		}
		s.first, s.loaded = c.pr.RTUsed, true
		c.pr.RTUsed += s.size
		for _, it := range s.items {
			if it.call != nil {
				c.pr.calls = append(c.pr.calls, it.call)
			}
		}
	}
	// Load: PT entries, CT entry, RT sequence (the replacement was loaded
	// by c.replacement). Overflow is a load-time error naming the production.
	if need := len(lp.terms); c.pr.PTUsed+need > c.cfg.PTEntries {
		c.errorf(p.Pos, "pattern table overflow: production %s needs %d %s but only %d of %d are free",
			p.Label, need, plural(need, "entry", "entries"), c.cfg.PTEntries-c.pr.PTUsed, c.cfg.PTEntries)
		return
	}
	lp.pt = c.pr.PTUsed
	c.pr.PTUsed += len(lp.terms)
	if len(ct.inputs) > 0 || len(ct.micro) > 0 {
		if c.pr.CTUsed >= c.cfg.CTEntries {
			c.errorf(p.Pos, "conditionals table overflow: production %s needs an entry but all %d are in use", p.Label, c.cfg.CTEntries)
			return
		}
		ct.index = c.pr.CTUsed
		c.pr.CTUsed++
		if len(ct.inputs) == 0 {
			ct.table = []uint64{1} // no flag test: always
		}
		lp.ct = &ct
	}
	for _, term := range lp.terms {
		for _, a := range term {
			if a.f == asm.DirOP && a.op == tEql && !a.compressed && (isa.Op(a.v) == isa.HPS_ON || isa.Op(a.v) == isa.HPS_OFF) {
				c.pr.triggers = true
			}
		}
	}
	c.pr.prods = append(c.pr.prods, lp)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// conjuncts splits a pattern at its top-level &&s (through parentheses).
func conjuncts(x Expr) []Expr {
	switch e := x.(type) {
	case *ParenExpr:
		return conjuncts(e.X)
	case *BinaryExpr:
		if e.Op == tLAnd {
			return append(conjuncts(e.X), conjuncts(e.Y)...)
		}
	}
	return []Expr{x}
}

// kinds reports whether x tests instruction fields and/or counter flags.
func kinds(x Expr) (field, flag bool) {
	switch e := x.(type) {
	case *ParenExpr:
		return kinds(e.X)
	case *NotExpr:
		return kinds(e.X)
	case *BinaryExpr:
		a, b := kinds(e.X)
		c, d := kinds(e.Y)
		return a || c, b || d
	case *FlagExpr:
		return false, true
	}
	return true, false
}

// dnf converts a field expression into a disjunction of conjunctions of
// atoms, negated if neg; it stops growing past limit terms.
func (c *checker) dnf(x Expr, neg bool, limit int) [][]atom {
	switch e := x.(type) {
	case *ParenExpr:
		return c.dnf(e.X, neg, limit)
	case *NotExpr:
		return c.dnf(e.X, !neg, limit)
	case *BinaryExpr:
		or := e.Op == tLOr
		if neg {
			or = !or // De Morgan
		}
		a, b := c.dnf(e.X, neg, limit), c.dnf(e.Y, neg, limit)
		if or {
			out := append(append([][]atom(nil), a...), b...)
			if len(out) > limit {
				out = out[:limit]
			}
			return out
		}
		var out [][]atom
		for _, ta := range a {
			for _, tb := range b {
				if len(out) >= limit {
					return out
				}
				out = append(out, append(append([]atom(nil), ta...), tb...))
			}
		}
		return out
	case *CompareExpr:
		a, ok := c.compare(e)
		if !ok {
			return [][]atom{nil}
		}
		if neg {
			a.op = negate(a.op)
		}
		return [][]atom{{a}}
	}
	return [][]atom{nil}
}

func negate(op tokKind) tokKind {
	return map[tokKind]tokKind{tEql: tNeq, tNeq: tEql, tLss: tGeq, tGeq: tLss, tGtr: tLeq, tLeq: tGtr}[op]
}

func mirror(op tokKind) tokKind {
	return map[tokKind]tokKind{tEql: tEql, tNeq: tNeq, tLss: tGtr, tGtr: tLss, tLeq: tGeq, tGeq: tLeq}[op]
}

// fieldType groups fields by what they can be compared with.
type fieldType uint8

const (
	ftOp fieldType = iota
	ftClass
	ftReg
	ftImm
	ftAddr
	ftBits
)

func typeOf(d asm.Directive) (fieldType, bool) {
	switch d {
	case asm.DirOP:
		return ftOp, true
	case asm.DirOPCLASS:
		return ftClass, true
	case asm.DirRD, asm.DirRS1, asm.DirRS2:
		return ftReg, true
	case asm.DirIMM:
		return ftImm, true
	case asm.DirPC, asm.DirTARGET:
		return ftAddr, true
	case asm.DirINSN:
		return ftBits, true
	}
	return 0, false
}

var opAliases = map[string]string{"on_trig_inst": "hps.on", "off_trig_inst": "hps.off", "trig_inst": "hps.on"}

var classAliases = map[string]string{"proc_call": "call", "proc_return": "return", "cond_branch": "branch",
	"fp_div": "fp-div/sqrt", "fp_sqrt": "fp-div/sqrt"}

// ClassByACFName resolves a class name as written in an ACF: isa's names
// with '-' or '_' ("int-alu", "int_alu"), and the paper's proc_call.
func ClassByACFName(name string) (isa.Class, bool) {
	n := strings.ToLower(name)
	if a, ok := classAliases[n]; ok {
		n = a
	}
	if cl, ok := isa.ClassByName(n); ok {
		return cl, true
	}
	norm := func(s string) string { return strings.NewReplacer("-", "_", "/", "_").Replace(s) }
	for cl := isa.Class(0); cl < isa.NumClasses; cl++ {
		if norm(cl.String()) == norm(n) {
			return cl, true
		}
	}
	return 0, false
}

// compare type-checks a comparison into an atom.
func (c *checker) compare(e *CompareExpr) (atom, bool) {
	l, r, op := e.L, e.R, e.Op
	if l.Field == asm.DirNone && r.Field != asm.DirNone {
		l, r, op = r, l, mirror(op)
	}
	if l.Field == asm.DirNone {
		c.errorf(e.L.Pos, "a comparison needs a T.* field on one side, found %s and %s", e.L.Text, e.R.Text)
		return atom{}, false
	}
	if l.Field == asm.DirICOUNT {
		c.errorf(l.Pos, "T.ICOUNT is a handler-call argument; patterns test the instruction's static fields")
		return atom{}, false
	}
	ft, _ := typeOf(l.Field)
	a := atom{f: l.Field, op: op}
	if (ft == ftOp || ft == ftClass) && op != tEql && op != tNeq {
		c.errorf(e.OpPos, "%s compares with == and != only", l.Field)
		return atom{}, false
	}
	if r.Field != asm.DirNone {
		rt, ok := typeOf(r.Field)
		if !ok || rt != ft {
			c.errorf(r.Pos, "cannot compare %s with %s", l.Field, r.Field)
			return atom{}, false
		}
		a.g = r.Field
		return a, true
	}
	switch ft {
	case ftOp:
		name := strings.ToLower(r.Name)
		if al, ok := opAliases[name]; ok {
			name = al
		}
		op, ok := isa.OpByName(name)
		if r.IsInt || !ok {
			c.errorf(r.Pos, "expected an operation mnemonic for %s (beq, jal, hps.on, c.beqz, …), found %s", l.Field, r.Text)
			return atom{}, false
		}
		a.v, a.compressed = uint64(op), op.Compressed()
	case ftClass:
		cl, ok := ClassByACFName(r.Name)
		if r.IsInt || !ok {
			names := make([]string, 0, isa.NumClasses)
			for k := isa.Class(0); k < isa.NumClasses; k++ {
				names = append(names, k.String())
			}
			c.errorf(r.Pos, "expected an op class for T.OPCLASS (%s), found %s", strings.Join(names, ", "), r.Text)
			return atom{}, false
		}
		a.v = uint64(cl)
	case ftReg:
		switch {
		case r.IsInt && r.Int >= 0 && r.Int < 32:
			a.v = uint64(r.Int)
		case !r.IsInt && asm.IsRegisterName(r.Name):
			n, ok := asm.XReg(r.Name)
			if !ok { // an FP register name: its number
				for k, fn := range isa.FRegNames {
					if fn == strings.ToLower(r.Name) || fmt.Sprintf("f%d", k) == strings.ToLower(r.Name) {
						n = uint8(k)
					}
				}
			}
			a.v = uint64(n)
		default:
			c.errorf(r.Pos, "expected a register (name or 0..31) for %s, found %s", l.Field, r.Text)
			return atom{}, false
		}
	default:
		if !r.IsInt {
			c.errorf(r.Pos, "expected an integer for %s, found %s", l.Field, r.Text)
			return atom{}, false
		}
		a.v = uint64(r.Int)
	}
	return a, true
}

// flags builds the CT truth table of a flag-only expression.
func (c *checker) flags(x Expr, ct *ctEntry) {
	var refs []flagRef
	var collect func(Expr)
	collect = func(x Expr) {
		switch e := x.(type) {
		case *ParenExpr:
			collect(e.X)
		case *NotExpr:
			collect(e.X)
		case *BinaryExpr:
			collect(e.X)
			collect(e.Y)
		case *FlagExpr:
			if e.Counter >= c.cfg.Counters {
				c.errorf(e.Pos, "counter %d does not exist (%s)", e.Counter, c.counterRange())
				return
			}
			f := flagRef{e.Counter, e.Overflow}
			for _, r := range refs {
				if r == f {
					return
				}
			}
			refs = append(refs, f)
		}
	}
	collect(x)
	if len(refs) > c.cfg.CTInputs {
		c.errorf(x.exprPos(), "the pattern tests %d status flags; a conditionals-table entry's truth table has %d inputs", len(refs), c.cfg.CTInputs)
		return
	}
	rows := 1 << len(refs)
	table := make([]uint64, (rows+63)/64)
	for row := 0; row < rows; row++ {
		if evalFlags(x, refs, row) {
			table[row/64] |= 1 << (row % 64)
		}
	}
	ct.inputs, ct.table = refs, table
}

func evalFlags(x Expr, refs []flagRef, row int) bool {
	switch e := x.(type) {
	case *ParenExpr:
		return evalFlags(e.X, refs, row)
	case *NotExpr:
		return !evalFlags(e.X, refs, row)
	case *BinaryExpr:
		if e.Op == tLAnd {
			return evalFlags(e.X, refs, row) && evalFlags(e.Y, refs, row)
		}
		return evalFlags(e.X, refs, row) || evalFlags(e.Y, refs, row)
	case *FlagExpr:
		for k, r := range refs {
			if r == (flagRef{e.Counter, e.Overflow}) {
				return row>>k&1 != 0
			}
		}
	}
	return false
}

// impliesCondBranch reports whether a PT term only matches conditional branches.
func impliesCondBranch(term []atom) bool {
	for _, a := range term {
		if a.op != tEql || a.g != asm.DirNone {
			continue
		}
		if a.f == asm.DirOPCLASS && isa.Class(a.v) == isa.Branch {
			return true
		}
		if a.f == asm.DirOP && !a.compressed && isa.Op(a.v).Info().Format == isa.FmtBranch {
			return true
		}
		if a.f == asm.DirOP && a.compressed && isa.Op(a.v).Info().Expand.Info().Format == isa.FmtBranch {
			return true
		}
	}
	return false
}

// resolveReg resolves a DISE register written as $dN or a dise_reg name.
func (c *checker) resolveReg(f *File, name string, pos Pos) int {
	if strings.HasPrefix(name, "$d") {
		var n int
		if _, err := fmt.Sscanf(name, "$d%d", &n); err == nil && n >= 0 && n < asm.DISERegs && fmt.Sprintf("$d%d", n) == name {
			return n
		}
		c.errorf(pos, "expected a DISE register $d0..$d%d, found %q", asm.DISERegs-1, name)
		return -1
	}
	if n, ok := c.names[f][name]; ok {
		return n
	}
	c.errorf(pos, "undefined DISE register %s (declare it: dise_reg %s = VALUE)", name, name)
	return -1
}

// replacement assembles a replacement (once); the first production that
// uses it loads it into the RT.
func (c *checker) replacement(f *File, r *Replacement) *rtSeq {
	if s, ok := c.loaded[r]; ok {
		return s
	}
	nerr := len(c.errs)
	seq := &rtSeq{label: r.Label, pos: r.Pos}
	labels := map[string]int{}
	labelPos := map[string]Pos{}
	type fix struct {
		elem  int
		label string
		pos   Pos
	}
	var fixes []fix
	names := func(name string) (int, bool) {
		n, ok := c.names[f][name]
		return n, ok
	}
	for _, it := range r.Items {
		switch it.Kind {
		case ItemLabel:
			if prev, ok := labelPos[it.Label]; ok {
				c.errorf(it.Pos, "label %s redeclared in %s (first at %s)", it.Label, r.Label, prev)
				continue
			}
			labels[it.Label], labelPos[it.Label] = len(seq.items), it.Pos
		case ItemOriginal:
			seq.items = append(seq.items, rtItem{kind: ItemOriginal, pos: it.Pos})
			seq.size++
		case ItemInst:
			t, err := asm.Assemble(it.Mnemonic, it.Operands, names)
			if err != nil {
				pos := it.Pos
				if err.Operand >= 0 && err.Operand < len(it.OpPos) {
					pos = it.OpPos[err.Operand]
				}
				c.errorf(pos, "%s", err.Msg)
				continue
			}
			if t.Label != "" {
				pos := it.Pos
				if n := len(it.OpPos); n > 0 {
					pos = it.OpPos[n-1]
				}
				fixes = append(fixes, fix{len(seq.items), t.Label, pos})
			}
			if t.OpFromOriginal {
				seq.opT = true
			}
			pos := it.Pos
			if len(it.OpPos) > 0 {
				pos = it.OpPos[0] // the destination, which warnings name
			}
			seq.items = append(seq.items, rtItem{kind: ItemInst, tmpl: t, pos: pos})
			seq.size++
		case ItemCall:
			call := &callTmpl{handler: it.Handler, pos: it.Pos, nargs: len(it.Args)}
			slots := MailboxSlots
			if it.Profile != "" {
				slots-- // the tag word takes slot 0
			}
			if len(it.Args) > slots {
				c.errorf(it.ArgPos[slots], "call passes %d arguments; the handler mailbox has %d slots%s", len(it.Args), MailboxSlots,
					map[bool]string{true: " and a named profile's tag takes one", false: ""}[it.Profile != ""])
				continue
			}
			for k := range it.Args {
				if a, ok := c.arg(f, &it.Args[k], it.ArgPos[k]); ok {
					call.args = append(call.args, a)
				}
			}
			if it.Profile != "" {
				c.profileCall(call, it)
			}
			seq.items = append(seq.items, rtItem{kind: ItemCall, call: call, pos: it.Pos})
			seq.size += 1 + len(call.args)
			if call.profile != "" {
				seq.size++ // the tag word
			}
		}
	}
	for _, fx := range fixes {
		n, ok := labels[fx.label]
		if !ok {
			c.errorf(fx.pos, "undefined label %s in replacement %s", fx.label, r.Label)
			continue
		}
		seq.items[fx.elem].target = n
	}
	if len(seq.items) == 0 && len(c.errs) == nerr {
		c.errorf(r.Pos, "replacement %s is empty (a production without replacement says null)", r.Label)
	}
	if len(c.errs) > nerr {
		c.loaded[r] = nil
		return nil
	}
	c.loaded[r] = seq
	return seq
}

// MailboxSlots is how many 64-bit arguments a handler call passes.
const MailboxSlots = 8

// arg checks one call argument.
func (c *checker) arg(f *File, o *asm.Operand, pos Pos) (argTmpl, bool) {
	switch o.Kind {
	case asm.KindImm:
		return argTmpl{kind: argConst, v: uint64(o.Value)}, true
	case asm.KindDReg:
		return argTmpl{kind: argReg, v: uint64(isa.DISEReg0 + o.N)}, true
	case asm.KindIdent:
		if n, ok := asm.XReg(o.Name); ok {
			return argTmpl{kind: argReg, v: uint64(n)}, true
		}
		if n, ok := c.names[f][o.Name]; ok {
			return argTmpl{kind: argReg, v: uint64(isa.DISEReg0 + n)}, true
		}
		c.errorf(pos, "expected a handler argument (integer, register, $dN, T.* directive), found %q", o.Name)
	case asm.KindDir:
		switch o.Dir {
		case asm.DirRD, asm.DirRS1, asm.DirRS2:
			if o.Value != 0 {
				c.errorf(pos, "%s passes a register's value and takes no addend", o.Dir)
				return argTmpl{}, false
			}
			return argTmpl{kind: argOrigReg, dir: o.Dir}, true
		case asm.DirTARGET, asm.DirICOUNT:
			if o.Value != 0 {
				c.errorf(pos, "%s is computed when the call runs and takes no addend", o.Dir)
				return argTmpl{}, false
			}
			return argTmpl{kind: argDir, dir: o.Dir}, true
		default:
			return argTmpl{kind: argDir, dir: o.Dir, v: uint64(o.Value)}, true
		}
	default:
		c.errorf(pos, "expected a handler argument (integer, register, $dN, T.* directive), found %s", o)
	}
	return argTmpl{}, false
}
