package sim

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/dise"
	"github.com/rvsim/rvsim/elf"
	"github.com/rvsim/rvsim/mem"
	"github.com/rvsim/rvsim/profile"
)

// DISEOptions attaches the DISE/HPS engine to a run
// (hps-phase-aware-remote-profiling.md §3).
type DISEOptions struct {
	ACF      []string     // ACF files, in priority order
	Handlers string       // the handler runtime ELF ("": DefaultHandlers)
	Trigger  string       // external trigger: "", "periodic:PERIOD:LENGTH" or "random:P:LENGTH[:SEED]"
	Config   *dise.Config // nil: dise.DefaultConfig()
	// MaxAppInstructions stops the run after this many application
	// instructions (0: no limit), so that a profiled run and an unprofiled
	// one bounded by Config.MaxInsts do the same work.
	MaxAppInstructions uint64
}

// DISEResult is what the engine did during a run.
type DISEResult struct {
	cpu.DISEStats
	Engine          dise.Stats
	Triggers        uint64 // trigger instructions injected
	AppInstructions uint64 // application instructions (not injected, not handler code)
	Kinds           []profile.Kind
	Trigger         string
}

// InjectedTotal is every instruction DISE added to the stream except
// handler code: sequence instructions (triggers included) and the
// argument stores and jumps of handler calls.
func (r *DISEResult) InjectedTotal() uint64 { return r.InjectedInstructions + r.CallInstructions }

// diseState is a machine's engine, runtime and trigger.
type diseState struct {
	eng      *dise.Engine
	sched    *dise.Schedule
	trigger  dise.Trigger
	handlers *elf.Program
	kinds    []profile.Kind
	triggers uint64
	maxApp   uint64
	appLimit bool // the run stopped at maxApp
}

// DefaultHandlers finds the handler runtime `make` builds: $RVSIM_HANDLERS,
// then handlers/rvsim-handlers.elf beside the rvsim executable (build/),
// then build/handlers/rvsim-handlers.elf under the working directory. It
// returns "" if there is none.
func DefaultHandlers() string {
	var cands []string
	if p := os.Getenv("RVSIM_HANDLERS"); p != "" {
		cands = append(cands, p)
	}
	if exe, err := os.Executable(); err == nil {
		cands = append(cands, filepath.Join(filepath.Dir(exe), "handlers", "rvsim-handlers.elf"))
	}
	cands = append(cands, filepath.Join("build", "handlers", "rvsim-handlers.elf"))
	for _, c := range cands {
		if st, err := os.Stat(c); err == nil && !st.IsDir() {
			return c
		}
	}
	return ""
}

// loadDISE loads the ACF files, the handler runtime (if a replacement
// calls a handler) and the trigger, and attaches the engine to the core.
func (mc *Machine) loadDISE(o *DISEOptions) error {
	cfg := dise.DefaultConfig()
	if o.Config != nil {
		cfg = *o.Config
	}
	if len(o.ACF) == 0 {
		return fmt.Errorf("dise: no ACF file")
	}
	prog, err := dise.LoadFiles(cfg, o.ACF...)
	if err != nil {
		return err
	}
	st := &diseState{}
	var rt *dise.Runtime
	if len(prog.Handlers()) > 0 {
		path := o.Handlers
		if path == "" {
			if path = DefaultHandlers(); path == "" {
				return fmt.Errorf("the ACF calls handlers (%s) but no handler runtime was found: build it with 'make' "+
					"or pass --handlers FILE", strings.Join(prog.Handlers(), ", "))
			}
		}
		if rt, st.handlers, err = mc.loadHandlers(path); err != nil {
			return err
		}
		seen := map[profile.Kind]bool{}
		for _, h := range prog.Handlers() {
			if k, ok := profile.HandlerKinds[h]; ok && !seen[k] {
				seen[k] = true
				st.kinds = append(st.kinds, k)
			}
		}
		sort.Slice(st.kinds, func(i, j int) bool { return st.kinds[i] < st.kinds[j] })
	} else if o.Handlers != "" {
		if rt, st.handlers, err = mc.loadHandlers(o.Handlers); err != nil {
			return err
		}
	}
	if st.eng, err = dise.New(prog, rt); err != nil {
		return err
	}
	if o.Trigger != "" {
		t, err := dise.ParseTrigger(o.Trigger)
		if err != nil {
			return err
		}
		if !prog.UsesTriggers() {
			return fmt.Errorf("--trigger %s: no production of %s matches hps.on or hps.off, so the trigger would do nothing",
				o.Trigger, strings.Join(o.ACF, ", "))
		}
		st.trigger, st.sched = t, t.Start()
	}
	st.maxApp = o.MaxAppInstructions
	st.eng.Attach(mc.CPU)
	mc.dise = st
	return nil
}

// Handler runtime symbols (toolchain/handlers).
const (
	symMailbox  = "dise_mailbox"
	symStackTop = "dise_stack_top"
	symABI      = "hps_runtime_abi"
	handlerABI  = 1
)

// loadHandlers maps the handler runtime into the guest at its link
// address, which must not overlap the program.
func (mc *Machine) loadHandlers(path string) (*dise.Runtime, *elf.Program, error) {
	hp, err := elf.LoadFile(path)
	if err != nil {
		return nil, nil, fmt.Errorf("handler runtime: %v", err)
	}
	if hp.IsPIE() {
		return nil, nil, fmt.Errorf("handler runtime %s: must be linked at a fixed address (ET_EXEC)", path)
	}
	for _, s := range hp.Segments {
		lo, hi := s.Vaddr&^mem.PageMask, (s.Vaddr+s.Memsz+mem.PageMask)&^mem.PageMask
		if !mc.Mem.IsFree(lo, hi-lo) {
			return nil, nil, fmt.Errorf("handler runtime %s: its segment [%#x, %#x) overlaps the program's memory", path, lo, hi)
		}
	}
	if _, err := hp.Load(mc.Mem, 0); err != nil {
		return nil, nil, fmt.Errorf("handler runtime %s: %v", path, err)
	}
	need := func(name string) (uint64, error) {
		s, ok := hp.Lookup(name)
		if !ok {
			return 0, fmt.Errorf("handler runtime %s: no symbol %s (not an rvsim handler runtime?)", path, name)
		}
		return s.Value, nil
	}
	mailbox, err := need(symMailbox)
	if err != nil {
		return nil, nil, err
	}
	stack, err := need(symStackTop)
	if err != nil {
		return nil, nil, err
	}
	abiAddr, err := need(symABI)
	if err != nil {
		return nil, nil, err
	}
	var b [8]byte
	if err := mc.Mem.Peek(abiAddr, b[:]); err != nil || binary.LittleEndian.Uint64(b[:]) != handlerABI {
		return nil, nil, fmt.Errorf("handler runtime %s: ABI version %d, want %d (rebuild it with make)", path, binary.LittleEndian.Uint64(b[:]), handlerABI)
	}
	rt := &dise.Runtime{Mailbox: mailbox, Stack: stack, File: path}
	for _, s := range hp.Symbols {
		if s.Func && s.Name != "" && s.Name[0] >= 'A' && s.Name[0] <= 'Z' {
			rt.Names = append(rt.Names, s.Name)
		}
	}
	rt.Lookup = func(name string) (uint64, bool) {
		s, ok := hp.Lookup(name)
		if !ok || !s.Func {
			return 0, false
		}
		return s.Value, true
	}
	return rt, hp, nil
}

// step runs the core for at most budget instructions, acting on the
// external trigger at its boundaries (§3.4, "External Sampling Triggers"): a trigger instruction is injected
// at the first application-instruction boundary at or after the count,
// once any replacement sequence or handler in progress has finished.
func (mc *Machine) step(budget uint64) cpu.Exit {
	c := mc.CPU
	st := mc.dise
	if st == nil {
		return c.Run(budget)
	}
	if st.sched != nil {
		app := c.AppInstret()
		for app >= st.sched.Next() {
			if s := c.DISEStep(); s != 0 {
				return c.Run(s) // finish the sequence or handler first
			}
			if ch := st.sched.Fire(); ch != 0 {
				x := st.eng.Trigger(ch > 0, c.PC)
				if err := c.Inject(x); err == nil {
					st.triggers++
				}
			}
		}
		budget = min(budget, st.sched.Next()-app)
	}
	if st.maxApp != 0 {
		app := c.AppInstret()
		if app >= st.maxApp {
			if s := c.DISEStep(); s != 0 {
				return c.Run(s)
			}
			st.appLimit = true
			return cpu.Exit{Reason: cpu.StopRequest}
		}
		budget = min(budget, st.maxApp-app)
	}
	// A handler call retires its argument stores and jump at once: give
	// it the budget it needs rather than stall.
	if s := c.DISEStep(); budget < s {
		budget = s
	}
	return c.Run(max(budget, 1))
}

// finishDISE records the engine's statistics in res.
func (mc *Machine) finishDISE(res *Result) {
	st := mc.dise
	if st == nil {
		return
	}
	r := &DISEResult{DISEStats: mc.CPU.DISEStats(), Engine: st.eng.Stats(), Triggers: st.triggers,
		AppInstructions: mc.CPU.AppInstret(), Kinds: st.kinds}
	if st.sched != nil {
		r.Trigger = st.trigger.String()
	}
	if st.appLimit {
		res.Stop = StopLimit
		res.Message = fmt.Sprintf("application instruction limit reached (%d instructions)", st.maxApp)
	}
	res.DISE = r
}

// Engine returns the machine's DISE engine (nil without one).
func (mc *Machine) Engine() *dise.Engine {
	if mc.dise == nil {
		return nil
	}
	return mc.dise.eng
}

// Symbolizer names the program's function containing an address.
func (mc *Machine) Symbolizer() profile.Symbolizer {
	p, bias := mc.Prog, mc.Bias
	return func(addr uint64) string {
		if s, _, ok := p.SymbolAt(addr - bias); ok && s.Func {
			return s.Name
		}
		return ""
	}
}

// HandlerCounts reads the counts the profile handlers collected.
func (mc *Machine) HandlerCounts() (*profile.Counts, error) {
	st := mc.dise
	if st == nil || st.handlers == nil {
		return nil, fmt.Errorf("no handler runtime is loaded")
	}
	return profile.ReadTables(mc.Mem.Peek, func(name string) (uint64, bool) {
		s, ok := st.handlers.Lookup(name)
		return s.Value, ok
	}, st.kinds)
}

// Profiles returns the profiles the handlers collected, one per profile
// type the ACF's handlers collect.
func (mc *Machine) Profiles() ([]profile.Profile, error) {
	if mc.dise == nil || len(mc.dise.kinds) == 0 {
		return nil, fmt.Errorf("no replacement calls a profile handler (Branch_handler, HotMethod_handler, HotMethod_backedge, CallPair_handler)")
	}
	counts, err := mc.HandlerCounts()
	if err != nil {
		return nil, err
	}
	var out []profile.Profile
	for _, k := range mc.dise.kinds {
		p := profile.Build(k, counts, mc.Symbolizer())
		p.Program, p.Source = mc.Prog.Path, "handlers"
		out = append(out, p)
	}
	return out, nil
}

// Stats is the "dise" object of --stats.
func (r *DISEResult) Stats() map[string]any {
	out := map[string]any{
		"replacements":             r.Replacements,
		"injected_instructions":    r.InjectedTotal(),
		"handler_instructions":     r.HandlerInstructions,
		"handler_calls":            r.HandlerCalls,
		"application_instructions": r.AppInstructions,
		"triggers":                 r.Triggers,
		"matches":                  r.Engine.Matches,
		"null_matches":             r.Engine.NullMatches,
		"micro_ops":                r.Engine.MicroOps,
	}
	if r.Trigger != "" {
		out["trigger"] = r.Trigger
	}
	return out
}
