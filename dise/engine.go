package dise

import (
	"fmt"
	"sort"
	"strings"

	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/dise/asm"
	"github.com/rvsim/rvsim/isa"
)

// Runtime is the loaded handler runtime, as the engine needs it: where
// call(handler, …) jumps, the mailbox its arguments are stored in, and
// the handlers' own stack.
type Runtime struct {
	Mailbox uint64                           // MailboxSlots 64-bit argument slots
	Stack   uint64                           // sp while a handler runs
	Lookup  func(name string) (uint64, bool) // a handler's entry address
	Names   []string                         // the handlers it has (for messages)
	File    string                           // where it came from (for messages)
	// Handlers are the declarations of the handlers that have one
	// (HPS_HANDLER): their arguments, and whether they are tagged.
	Handlers map[string]HandlerInfo
}

// HandlerNames is the runtime's handlers, sorted: its entry points and
// the handlers it declares. The checker's messages and 'rvsim handlers
// build' both list them, so they name the same handlers.
func (rt *Runtime) HandlerNames() []string {
	seen := map[string]bool{}
	var out []string
	for _, n := range rt.Names {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	for n := range rt.Handlers {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// Describe is a handler with what it declares: "Count_handler (1-2
// arguments, tagged)", or "Clobber_handler (arguments not declared)" for
// one without HPS_HANDLER.
func (rt *Runtime) Describe(name string) string {
	h, ok := rt.Handlers[name]
	switch {
	case !ok:
		return name + " (arguments not declared)"
	case h.Tagged:
		return fmt.Sprintf("%s (%s, tagged)", name, argSpan(h.MinArgs, h.MaxArgs))
	}
	return fmt.Sprintf("%s (%s)", name, argSpan(h.MinArgs, h.MaxArgs))
}

func argSpan(lo, hi int) string {
	switch {
	case lo == hi && lo == 1:
		return "1 argument"
	case lo == hi:
		return fmt.Sprintf("%d arguments", lo)
	}
	return fmt.Sprintf("%d-%d arguments", lo, hi)
}

// Stats counts the engine's decisions.
type Stats struct {
	Matches      uint64 // dynamic instructions a production matched (pattern and flags)
	NullMatches  uint64 // … whose production had no replacement: they passed unchanged
	Replacements uint64 // … that were replaced by a sequence
	MicroOps     uint64 // conditional micro-ops executed
	Triggers     uint64 // external triggers acted on
	// PerProduction counts matches per production, in priority order.
	PerProduction []uint64
}

// Engine is the DISE/HPS decode-stage editor: the pattern, conditionals
// and replacement tables of a Program, the HPS counters, and the
// instantiation logic. It implements cpu.Editor.
type Engine struct {
	prog     *Program
	mask     uint64
	counters []uint64
	overflow []bool
	regs     *[256]uint64 // the core's registers: $dN is regs[isa.DISEReg0+N]
	sites    map[uint64]*site
	stats    Stats
	prodIdx  map[*prod]int
}

// site caches the decode-time facts of one static instruction: the
// productions whose field part its encoding matches (the PT's answer
// depends only on the instruction and its pc) and their instantiated
// replacements.
type site struct {
	raw   uint32
	len   uint8
	cands []cand
}

type cand struct {
	p   *prod
	exp *cpu.Expansion
}

// New builds an engine for a program, binding its handler calls to the
// runtime rt (which may be nil if no replacement calls a handler).
func New(prog *Program, rt *Runtime) (*Engine, error) {
	if err := prog.bind(rt); err != nil {
		return nil, err
	}
	e := &Engine{prog: prog, mask: prog.Config.counterMask(), sites: map[uint64]*site{}, prodIdx: map[*prod]int{}}
	for i, p := range prog.prods {
		e.prodIdx[p] = i
	}
	e.stats.PerProduction = make([]uint64, len(prog.prods))
	e.Reset()
	return e, nil
}

// bind resolves handler names to entry addresses.
func (pr *Program) bind(rt *Runtime) error {
	if err := pr.CheckRuntime(rt); err != nil {
		return err
	}
	var errs ErrorList
	for _, call := range pr.calls {
		if rt == nil {
			errs.Add(call.pos, fmt.Sprintf("call(%s, …) needs the handler runtime, and none is loaded (build it with make, or pass --handlers)", call.handler))
			continue
		}
		entry, ok := rt.Lookup(call.handler)
		if !ok {
			errs.Add(call.pos, fmt.Sprintf("handler %s is not in the handler runtime %s (it has: %s)", call.handler, rt.File, strings.Join(rt.HandlerNames(), ", ")))
			continue
		}
		call.entry, call.mailbox, call.stack = entry, rt.Mailbox, rt.Stack
	}
	errs.Sort()
	return errs.Err()
}

// Reset puts the counters at their initial values and clears the caches
// and statistics.
func (e *Engine) Reset() {
	e.counters = append(e.counters[:0], e.prog.Counters...)
	e.overflow = make([]bool, len(e.counters))
	clear(e.sites)
	per := e.stats.PerProduction
	clear(per)
	e.stats = Stats{PerProduction: per}
}

// Attach installs the engine as c's editor and loads the DISE-private
// registers' initial values into c (§3.1: "a small number of DISE-private
// hardware registers").
func (e *Engine) Attach(c *cpu.CPU) {
	e.regs = &c.X
	for n, v := range e.prog.RegInit {
		c.X[isa.DISEReg0+n] = v
	}
	c.AuthorizeHPS(e.prog.AuthorizesHPS())
	c.SetEditor(e)
}

// Stats returns the engine's counters.
func (e *Engine) Stats() Stats {
	s := e.stats
	s.PerProduction = append([]uint64(nil), s.PerProduction...)
	return s
}

// Program returns the loaded program.
func (e *Engine) Program() *Program { return e.prog }

// Counter returns counter n's value and its zero and overflow flags.
func (e *Engine) Counter(n int) (value uint64, zero, overflow bool) {
	return e.counters[n], e.counters[n] == 0, e.overflow[n]
}

// Watches implements cpu.Editor: the PT's answer for one static
// instruction (§3.1: "The hardware compares (in parallel) each instruction
// that enters the decode stage against the entries in the PT").
func (e *Engine) Watches(in *isa.Inst, pc uint64) bool {
	s := e.site(in, pc)
	return len(s.cands) > 0
}

// site returns the (cached) PT matches of the instruction at pc.
func (e *Engine) site(in *isa.Inst, pc uint64) *site {
	if s := e.sites[pc]; s != nil && s.raw == in.Raw && s.len == in.Len {
		return s
	}
	s := &site{raw: in.Raw, len: in.Len}
	target := staticTarget(in, pc)
	for _, p := range e.prog.prods {
		if p.matchFields(in, pc, target) {
			s.cands = append(s.cands, cand{p: p})
		}
	}
	e.sites[pc] = s
	return s
}

// Edit implements cpu.Editor: decode of one dynamic instance. The first
// production (in priority order) whose pattern matches and whose CT
// condition holds on the current flags wins; its micro-ops run; a null
// replacement makes the match fail, so the instruction passes unchanged
// and unpenalised (§3.3).
func (e *Engine) Edit(in *isa.Inst, pc uint64) *cpu.Expansion {
	s := e.site(in, pc)
	for i := range s.cands {
		cd := &s.cands[i]
		if !e.decide(cd.p) {
			continue
		}
		if cd.p.repl == nil {
			return nil
		}
		if cd.exp == nil {
			cd.exp = e.instantiate(cd.p.repl, in, pc)
		}
		e.stats.Replacements++
		return cd.exp
	}
	return nil
}

// decide applies a production whose fields matched: the CT's truth table
// on the current flags, then its micro-ops. It reports whether it matched.
func (e *Engine) decide(p *prod) bool {
	if ct := p.ct; ct != nil {
		row := 0
		for k, in := range ct.inputs {
			var f bool
			if in.overflow {
				f = e.overflow[in.counter]
			} else {
				f = e.counters[in.counter] == 0
			}
			if f {
				row |= 1 << k
			}
		}
		if ct.table[row>>6]>>(row&63)&1 == 0 {
			return false
		}
		for _, m := range ct.micro {
			e.micro(m)
		}
	}
	e.stats.Matches++
	e.stats.PerProduction[e.prodIdx[p]]++
	if p.repl == nil {
		e.stats.NullMatches++
	}
	return true
}

// micro runs one conditional micro-op (§3.3): inc_N and dec_N wrap at the
// counter's width and then set its sticky overflow flag; set_N copies a
// DISE register (truncated to the width) and clears the overflow flag.
// The zero flag is the counter's value being zero.
func (e *Engine) micro(m microOp) {
	e.stats.MicroOps++
	n := m.counter
	switch m.kind {
	case ActInc:
		e.counters[n] = (e.counters[n] + 1) & e.mask
		if e.counters[n] == 0 {
			e.overflow[n] = true
		}
	case ActDec:
		if e.counters[n] == 0 {
			e.overflow[n] = true
		}
		e.counters[n] = (e.counters[n] - 1) & e.mask
	case ActSet:
		var v uint64
		if e.regs != nil {
			v = e.regs[isa.DISEReg0+m.dreg]
		} else {
			v = e.prog.RegInit[m.dreg]
		}
		e.counters[n], e.overflow[n] = v&e.mask, false
	}
}

// Trigger runs decode on an external trigger instruction (hps.on or
// hps.off, §3.4) at pc and returns the sequence to inject for it: the
// trigger itself, or its production's replacement with the trigger
// standing in for T.INSN. Every element is injected, so the timing model
// charges the decode penalty for it.
func (e *Engine) Trigger(on bool, pc uint64) *cpu.Expansion {
	e.stats.Triggers++
	in := TriggerInst(on)
	target := staticTarget(&in, pc)
	for _, p := range e.prog.prods {
		if !p.matchFields(&in, pc, target) || !e.decide(p) {
			continue
		}
		if p.repl == nil {
			break
		}
		e.stats.Replacements++
		x := e.instantiate(p.repl, &in, pc)
		for i := range x.Seq {
			if x.Seq[i].Kind == cpu.SeqOriginal {
				x.Seq[i] = cpu.SeqOp{Kind: cpu.SeqInst, Inst: in}
			}
		}
		return x
	}
	return &cpu.Expansion{Seq: []cpu.SeqOp{{Kind: cpu.SeqInst, Inst: in}}}
}

// TriggerInst is the decoded hps.on or hps.off.
func TriggerInst(on bool) isa.Inst {
	raw := uint32(0x0000200b)
	if on {
		raw = 0x0000100b
	}
	in, _ := isa.Decode(raw)
	return in
}

// staticTarget is T.TARGET as decode knows it: a branch's or jal's
// destination, and the fall-through for everything else (a jalr's
// destination is only known when it executes).
func staticTarget(in *isa.Inst, pc uint64) uint64 {
	switch in.Op.Info().Format {
	case isa.FmtBranch, isa.FmtJ:
		return pc + uint64(in.Imm)
	}
	return pc + uint64(in.Len)
}

// matchFields reports whether one of the production's PT entries matches.
func (p *prod) matchFields(in *isa.Inst, pc, target uint64) bool {
	for _, term := range p.terms {
		ok := true
		for i := range term {
			if !term[i].eval(in, pc, target) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

func fieldValue(d asm.Directive, in *isa.Inst, pc, target uint64, compressed bool) uint64 {
	switch d {
	case asm.DirOP:
		if compressed {
			return uint64(in.COp)
		}
		return uint64(in.Op)
	case asm.DirOPCLASS:
		return uint64(in.Class)
	case asm.DirRD:
		return uint64(in.Rd)
	case asm.DirRS1:
		return uint64(in.Rs1)
	case asm.DirRS2:
		return uint64(in.Rs2)
	case asm.DirIMM:
		return uint64(in.Imm)
	case asm.DirPC:
		return pc
	case asm.DirTARGET:
		return target
	case asm.DirINSN:
		return uint64(in.Raw)
	}
	return 0
}

func (a *atom) eval(in *isa.Inst, pc, target uint64) bool {
	x := fieldValue(a.f, in, pc, target, a.compressed)
	y := a.v
	if a.g != asm.DirNone {
		y = fieldValue(a.g, in, pc, target, false)
	}
	var lt bool
	if a.f == asm.DirIMM {
		lt = int64(x) < int64(y)
	} else {
		lt = x < y
	}
	switch a.op {
	case tEql:
		return x == y
	case tNeq:
		return x != y
	case tLss:
		return lt
	case tLeq:
		return lt || x == y
	case tGtr:
		return !lt && x != y
	case tGeq:
		return !lt
	}
	return false
}

// origRegArg is where a T.RD, T.RS1 or T.RS2 call argument comes from: the
// register the original names, in the file its operand is in, so an FP
// load's T.RD is f[rd] (its loaded value), not x[rd] of the same number.
func origRegArg(d asm.Directive, in *isa.Inst) (cpu.ArgSource, uint64) {
	info := in.Info()
	kind := info.Rd
	switch d {
	case asm.DirRS1:
		kind = info.Rs1
	case asm.DirRS2:
		kind = info.Rs2
	}
	n := fieldValue(d, in, 0, 0, false)
	if kind == isa.FReg {
		return cpu.ArgFReg, n
	}
	return cpu.ArgReg, n
}

// instantiate is the IL (§3.1): it fills a replacement sequence's
// templates from the matched instruction.
func (e *Engine) instantiate(s *rtSeq, in *isa.Inst, pc uint64) *cpu.Expansion {
	target := staticTarget(in, pc)
	x := &cpu.Expansion{Seq: make([]cpu.SeqOp, 0, len(s.items))}
	for i := range s.items {
		it := &s.items[i]
		switch it.kind {
		case ItemOriginal:
			x.Seq = append(x.Seq, cpu.SeqOp{Kind: cpu.SeqOriginal})
		case ItemInst:
			inst := it.tmpl.Instantiate(in, pc, target)
			if it.tmpl.Label != "" {
				x.Seq = append(x.Seq, cpu.SeqOp{Kind: cpu.SeqBranch, Inst: inst, Target: it.target})
			} else {
				x.Seq = append(x.Seq, cpu.SeqOp{Kind: cpu.SeqInst, Inst: inst})
			}
		case ItemCall:
			c := it.call
			hc := &cpu.HandlerCall{Entry: c.entry, Stack: c.stack, Args: make([]cpu.HandlerArg, len(c.args))}
			for k, a := range c.args {
				ha := &hc.Args[k]
				ha.Addr = c.mailbox + 8*uint64(k)
				switch a.kind {
				case argConst:
					ha.Source, ha.Value = cpu.ArgConst, a.v
				case argReg:
					ha.Source, ha.Value = cpu.ArgReg, a.v
				case argOrigReg:
					ha.Source, ha.Value = origRegArg(a.dir, in)
				case argDir:
					switch a.dir {
					case asm.DirTARGET:
						ha.Source = cpu.ArgOrigTarget
					case asm.DirICOUNT:
						ha.Source = cpu.ArgAppInstret
					default:
						ha.Source, ha.Value = cpu.ArgConst, fieldValue(a.dir, in, pc, target, false)+a.v
					}
				}
			}
			x.Seq = append(x.Seq, cpu.SeqOp{Kind: cpu.SeqCall, Call: hc})
		}
	}
	return x
}
