package sim

import (
	"fmt"
	"os"
	"path/filepath"
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
	Trigger  string       // external trigger: "", "periodic:PERIOD:LENGTH", "random:P:LENGTH[:SEED]" or "phase:POLICY[:key=value,...]" (phasetrigger.go)
	Config   *dise.Config // nil: dise.DefaultConfig()
	// AuthorizeHPS lets application code execute hps.on/hps.off, as an
	// ACF's `authorize hps` does; without either they raise SIGILL
	// (hps-phase-aware-remote-profiling.md §4). External triggers and
	// handler code are always authorised.
	AuthorizeHPS bool
	// MaxAppInstructions stops the run after this many application
	// instructions (0: no limit), so that a profiled run and an unprofiled
	// one bounded by Config.MaxInsts do the same work.
	MaxAppInstructions uint64
	// OnInterval, with a phase trigger, is told of each interval's end,
	// with the profiles HPS collected during it if it was sampled (the
	// profile buffer's input, collector.Buffer.Interval).
	OnInterval func(PhaseInterval) error
}

// DISEResult is what the engine did during a run. Replacements counts
// the application's instructions that were replaced; the trigger
// instructions an external trigger injected are counted in Triggers
// alone.
type DISEResult struct {
	cpu.DISEStats
	Engine          dise.Stats
	Triggers        uint64 // trigger instructions injected
	AppInstructions uint64 // application instructions (not injected, not handler code)
	Kinds           []profile.Kind
	Trigger         string
	Phase           *PhaseResult // the phase trigger's account (nil without one)
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
	phase    *phaseTrigger // a phase trigger instead of sched
	handlers *elf.Program
	plan     profile.Plan // the profiles --profile-out writes
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
		var desc *profile.Runtime
		if rt, st.handlers, desc, err = mc.loadHandlers(path); err != nil {
			return err
		}
		if err := prog.CheckRuntime(rt); err != nil {
			return err
		}
		if st.plan, err = desc.Plan(prog.Handlers(), namedProfiles(prog)); err != nil {
			return fmt.Errorf("handler runtime %s: %v", path, err)
		}
		st.kinds = st.plan.Kinds
	} else if o.Handlers != "" {
		if rt, st.handlers, _, err = mc.loadHandlers(o.Handlers); err != nil {
			return err
		}
	}
	if st.eng, err = dise.New(prog, rt); err != nil {
		return err
	}
	if isPhaseTrigger(o.Trigger) {
		if err := mc.loadPhaseTrigger(st, prog, o); err != nil {
			return err
		}
	} else if o.Trigger != "" {
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
	if o.AuthorizeHPS {
		mc.CPU.AuthorizeHPS(true) // as well as an ACF's `authorize hps`
	}
	mc.dise = st
	return nil
}

// loadHandlers maps the handler runtime into the guest at its link
// address, which must not overlap the program.
func (mc *Machine) loadHandlers(path string) (*dise.Runtime, *elf.Program, *profile.Runtime, error) {
	hp, err := elf.LoadFile(path)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("handler runtime: %v", err)
	}
	if hp.IsPIE() {
		return nil, nil, nil, fmt.Errorf("handler runtime %s: must be linked at a fixed address (ET_EXEC)", path)
	}
	for _, s := range hp.Segments {
		lo, hi := s.Vaddr&^mem.PageMask, (s.Vaddr+s.Memsz+mem.PageMask)&^mem.PageMask
		if !mc.Mem.IsFree(lo, hi-lo) {
			return nil, nil, nil, fmt.Errorf("handler runtime %s: its segment [%#x, %#x) overlaps the program's memory", path, lo, hi)
		}
	}
	if _, err := hp.Load(mc.Mem, 0); err != nil {
		return nil, nil, nil, fmt.Errorf("handler runtime %s: %v", path, err)
	}
	rt, desc, err := describeHandlers(path, hp, mc.Mem)
	return rt, hp, desc, err
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
	if st.sched != nil || st.phase != nil {
		app := c.AppInstret()
		for app >= st.next() {
			if s := c.DISEStep(); s != 0 {
				return c.Run(s) // finish the sequence or handler first
			}
			if x := st.fire(c, app); x != nil {
				if err := c.Inject(x); err == nil {
					st.triggers++
				}
			}
		}
		budget = min(budget, st.next()-app)
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
	// The core counts every sequence it enters; an injected trigger is not
	// a replaced instruction: it is counted in Triggers.
	r.Replacements -= st.triggers
	if st.sched != nil {
		r.Trigger = st.trigger.String()
	}
	if st.phase != nil {
		r.Phase = st.phase.result()
		r.Trigger = r.Phase.Trigger
		r.Triggers = r.Phase.Triggers
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
	return func(addr uint64) string {
		if s, _, ok := mc.Prog.SymbolAt(addr - mc.Bias); ok && s.Func { // the program at the end, after an execve
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

// Profiles returns the profiles the handlers collected: one per profile
// type the ACF's handlers fill, and one per profile the ACF names.
func (mc *Machine) Profiles() ([]profile.Profile, error) {
	st := mc.dise
	if st == nil || st.handlers == nil || len(st.plan.Kinds)+len(st.plan.Tables)+len(st.plan.Named) == 0 {
		return nil, fmt.Errorf("no replacement calls a handler that fills a profile")
	}
	out, err := profile.ReadProfiles(mc.Mem.Peek, func(name string) (uint64, bool) {
		s, ok := st.handlers.Lookup(name)
		return s.Value, ok
	}, st.plan, mc.Symbolizer())
	if err != nil {
		return nil, err
	}
	for i := range out {
		out[i].Program, out[i].Source = mc.Prog.Path, "handlers"
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
	if r.Phase != nil {
		out["phase"] = r.Phase.Stats()
	}
	return out
}

// Resolver names the program's code addresses: functions from its ELF
// symbols, files and lines from its DWARF line tables (a program built
// with -g).
func (mc *Machine) Resolver() (profile.Resolver, error) {
	lines, err := elf.ReadLineTable(mc.Prog.Path)
	if err != nil {
		return nil, err
	}
	return profile.NewResolver(mc.Symbolizer(), lines, mc.Bias), nil
}

// Pprof starts a pprof profile of the program, its frames named by
// Resolver.
func (mc *Machine) Pprof() (*profile.Pprof, error) {
	res, err := mc.Resolver()
	if err != nil {
		return nil, err
	}
	lo, hi := mc.Prog.Span()
	return profile.NewPprof(mc.Prog.Path, lo+mc.Bias, hi+mc.Bias, res), nil
}
