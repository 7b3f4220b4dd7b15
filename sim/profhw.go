package sim

import (
	"fmt"
	"path/filepath"

	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/dise"
	"github.com/rvsim/rvsim/elf"
	"github.com/rvsim/rvsim/profhw"
	_ "github.com/rvsim/rvsim/profhw/all" // every kind of unit
)

// The retire-stage profiling hardware (package profhw): sim builds the
// configured units, hands them the retired stream (functional) and the
// commit hook (timing), takes their interrupts at the instruction
// boundary they ask for, and ends them with the run.

// loadProfHW builds the units of cfgs and attaches their hub.
// The units see the functional stream through the core's tap, so only
// the classes they watch are recorded, and a unit that must act at an exact
// instruction (Pacer) sees it right after it retires.
func (mc *Machine) loadProfHW(cfgs []*profhw.UnitConfig) error {
	if err := mc.loadProfHWRuntime(cfgs); err != nil {
		return err
	}
	env := profhw.Env{Mode: profhw.Functional, Handlers: mc.dise != nil && mc.dise.handlers != nil, Entry: mc.CPU.PC}
	if mc.cfg.Timing != nil {
		env.Mode = profhw.Timing
	}
	var hub *profhw.Hub
	env.Interrupt = func(u profhw.Unit) { hub.Interrupt(u) }
	units, err := profhw.Build(cfgs, env)
	if err != nil {
		return err
	}
	hub = profhw.NewHub(units)
	hub.SetStop(mc.CPU.RequestStop)
	mc.profhw = hub
	mc.CPU.SetTapLean(hub.Lean())
	mc.CPU.SetTapValues(hub.Values())
	mc.CPU.SetTapControls(hub.Controls())
	mc.CPU.SetTap(hub.Classes(), hub)
	return nil
}

// ProfHW returns the run's profiling-hardware hub (nil without units).
func (mc *Machine) ProfHW() *profhw.Hub { return mc.profhw }

// takeInterrupts runs the handlers of the units that interrupted the core.
func (mc *Machine) takeInterrupts() error {
	return mc.profhw.TakeInterrupts(profhwHost{mc})
}

// finishProfHW ends the units once the run (and the timing model) has.
func (mc *Machine) finishProfHW(res *Result) {
	if mc.profhw == nil {
		return
	}
	end := profhw.End{Instructions: res.Instructions, AppInsts: mc.CPU.AppInstret(), Cycles: res.Cycles, Host: profhwHost{mc}}
	switch {
	case mc.timing != nil && mc.cfg.UnmeasuredProfHWStalls && !mc.cfg.DropProfHWStalls:
		end.StallsUnmeasured = true
	case res.Sampled != nil: // the windows' models' (sampled.go)
		end.StallCycles = res.Sampled.HookStallCycles
	case mc.timing != nil:
		end.StallCycles = mc.timing.HookStallCycles()
	}
	if err := mc.profhw.Finish(end); err != nil {
		res.ProfHWErr = err
	}
}

// CodeSymbolizer names an address "symbol+0xoff" within the program's
// symbols (or in hex).
func (mc *Machine) CodeSymbolizer() profhw.Symbolizer {
	return func(addr uint64) string {
		if s, off, ok := mc.Prog.SymbolAt(addr - mc.Bias); ok && s.Name != "" { // the program at the end, after an execve
			if off == 0 {
				return s.Name
			}
			return fmt.Sprintf("%s+%#x", s.Name, off)
		}
		return fmt.Sprintf("%#x", addr)
	}
}

// profhwHost is what an interrupting unit may do to the stopped core.
type profhwHost struct{ mc *Machine }

func (h profhwHost) Lookup(sym string) (uint64, bool) {
	st := h.mc.dise
	if st == nil || st.handlers == nil {
		return 0, false
	}
	s, ok := st.handlers.Lookup(sym)
	return s.Value, ok
}

// SourceLines is the program's address-to-source-line function, from its
// DWARF line tables (nil when the ELF has none, or they are unreadable):
// the path profiler's hot-path listing prints file:line beside the code.
func (h profhwHost) SourceLines() func(addr uint64) (file string, line int, ok bool) {
	p, bias := h.mc.Prog, h.mc.Bias
	if p == nil || p.Path == "" {
		return nil
	}
	lt, err := elf.ReadLineTable(p.Path)
	if err != nil {
		return nil
	}
	return func(addr uint64) (string, int, bool) {
		file, line, ok := lt.Lookup(addr - bias)
		return filepath.Base(file), line, ok
	}
}

func (h profhwHost) ReadMem(addr uint64, buf []byte) error {
	return h.mc.Mem.Peek(addr, buf)
}

func (h profhwHost) WriteMem(addr uint64, buf []byte) error {
	return h.mc.Mem.Poke(addr, buf)
}

// CallHandler injects a call of handler routine sym through the DISE call
// gate before the next application instruction: the arguments go to the
// runtime's mailbox, sp to the handler stack, and the handler's dise.ret
// resumes the application. The core must be at an application boundary
// (no replacement sequence or handler in progress): ErrHandlerBusy if not.
func (h profhwHost) CallHandler(sym string, args ...uint64) error {
	st := h.mc.dise
	if st == nil || st.handlers == nil {
		return fmt.Errorf("profhw: calling handler %s: no handler runtime is loaded", sym)
	}
	entry, ok := st.handlers.Lookup(sym)
	if !ok || !entry.Func {
		return fmt.Errorf("profhw: calling handler %s: not in the handler runtime (rebuild it with make)", sym)
	}
	mailbox, _ := st.handlers.Lookup(symMailbox)
	stack, _ := st.handlers.Lookup(symStackTop)
	if len(args) > mailboxSlots {
		return fmt.Errorf("profhw: calling handler %s: %d arguments, the mailbox holds %d", sym, len(args), mailboxSlots)
	}
	call := &cpu.HandlerCall{Entry: entry.Value, Stack: stack.Value}
	for i, a := range args {
		call.Args = append(call.Args, cpu.HandlerArg{Addr: mailbox.Value + 8*uint64(i), Source: cpu.ArgConst, Value: a})
	}
	if h.mc.CPU.DISEStep() != 0 {
		return profhw.ErrHandlerBusy
	}
	return h.mc.CPU.Inject(&cpu.Expansion{Seq: []cpu.SeqOp{{Kind: cpu.SeqCall, Call: call}}})
}

// mailboxSlots is toolchain/handlers' MAILBOX_SLOTS.
const mailboxSlots = 8

// loadProfHWRuntime loads the handler runtime, without an ACF, when a unit
// asks for real handlers (delivery.handler = "real") and DISE has not
// loaded it: an engine with no productions is attached so that the core
// has a call gate (it watches no instruction, so nothing else changes).
func (mc *Machine) loadProfHWRuntime(cfgs []*profhw.UnitConfig) error {
	want := false
	var first *profhw.UnitConfig
	for _, c := range cfgs {
		if c.Has("delivery.handler") && c.String("delivery.handler", "") == "real" {
			if first != nil {
				return fmt.Errorf("profhw: units %s and %s both ask for delivery.handler = \"real\": they would share the handler's window and table (one per run)", first.Name, c.Name)
			}
			want, first = true, c
		}
	}
	if !want || (mc.dise != nil && mc.dise.handlers != nil) {
		return nil
	}
	if mc.dise != nil {
		return fmt.Errorf("profhw: delivery.handler = \"real\" with an ACF that calls no handler: pass --handlers FILE")
	}
	path := DefaultHandlers()
	if path == "" {
		return fmt.Errorf("profhw: delivery.handler = \"real\" needs the handler runtime: build it with 'make'")
	}
	rt, hp, _, err := mc.loadHandlers(path)
	if err != nil {
		return err
	}
	prog, err := dise.Compile(dise.DefaultConfig())
	if err != nil {
		return err
	}
	eng, err := dise.New(prog, rt)
	if err != nil {
		return err
	}
	eng.Attach(mc.CPU)
	mc.dise = &diseState{eng: eng, handlers: hp}
	return nil
}
