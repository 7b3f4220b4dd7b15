package sim

import (
	"fmt"

	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/profhw"
	_ "github.com/rvsim/rvsim/profhw/all" // every kind of unit
)

// The retire-stage profiling hardware (package profhw): sim builds the
// configured units, hands them the retired stream (functional) and the
// commit hook (timing), takes their interrupts at the instruction
// boundary they ask for, and ends them with the run.

// loadProfHW builds the units of cfgs and attaches their hub.
func (mc *Machine) loadProfHW(cfgs []*profhw.UnitConfig) ([]cpu.Observer, error) {
	env := profhw.Env{Mode: profhw.Functional, Handlers: mc.dise != nil && mc.dise.handlers != nil}
	if mc.cfg.Timing != nil {
		env.Mode = profhw.Timing
	}
	var hub *profhw.Hub
	env.Interrupt = func(u profhw.Unit) { hub.Interrupt(u) }
	units, err := profhw.Build(cfgs, env)
	if err != nil {
		return nil, err
	}
	hub = profhw.NewHub(units)
	hub.SetStop(mc.CPU.RequestStop)
	mc.profhw = hub
	if hub.Classes() == 0 {
		return nil, nil
	}
	return []cpu.Observer{hub}, nil
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
	if err := mc.profhw.Finish(end); err != nil {
		res.ProfHWErr = err
	}
}

// CodeSymbolizer names an address "symbol+0xoff" within the program's
// symbols (or in hex).
func (mc *Machine) CodeSymbolizer() profhw.Symbolizer {
	p, bias := mc.Prog, mc.Bias
	return func(addr uint64) string {
		if s, off, ok := p.SymbolAt(addr - bias); ok && s.Name != "" {
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

func (h profhwHost) ReadMem(addr uint64, buf []byte) error {
	return h.mc.Mem.Peek(addr, buf)
}

func (h profhwHost) WriteMem(addr uint64, buf []byte) error {
	return h.mc.Mem.Poke(addr, buf)
}

func (h profhwHost) CallHandler(sym string, args ...uint64) error {
	return fmt.Errorf("profhw: calling handler %s: no handler runtime is loaded", sym)
}
