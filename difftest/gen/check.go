package gen

import (
	"fmt"

	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/difftest"
	"github.com/rvsim/rvsim/mem"
)

// Machine builds rvsim's side of p: the code and scratch regions and a
// user-mode core in p's initial state.
func (p *Program) Machine() (*cpu.CPU, *mem.Memory, error) {
	m := mem.New()
	codeSize := (uint64(len(p.Code)) + mem.PageMask) &^ mem.PageMask
	// Writable code: programs modify themselves (selfModify).
	if err := m.Map(CodeBase, codeSize, mem.RWX, "code"); err != nil {
		return nil, nil, err
	}
	if err := m.Map(DataBase, DataSize, mem.RW, "data"); err != nil {
		return nil, nil, err
	}
	if err := m.Poke(CodeBase, p.Code); err != nil {
		return nil, nil, err
	}
	if err := m.Poke(DataBase, p.Data); err != nil {
		return nil, nil, err
	}
	c := cpu.New(m)
	copy(c.X[:32], p.X[:])
	copy(c.F[:32], p.F[:])
	c.PC = CodeBase
	c.SetFCSR(uint8(p.FCSR&0x1f), uint8(p.FCSR>>5&7))
	return c, m, nil
}

// ReproCommand is the command that reruns one seed.
func ReproCommand(seed uint64, length int) string {
	return fmt.Sprintf("rvsim fuzz --seed %d --count 1 --length %d", seed, length)
}

// resetter is an oracle that can be reused for another program.
type resetter interface{ Reset() error }

// Check generates the program for seed and runs it in lock-step with the
// oracle (opts.Oracle, reset first if it can be; nil opens Unicorn). A
// divergence is reported in Report.Divergence; an error means the run
// could not be made, or the program misbehaved (it faulted or did not
// finish), which is a generator bug.
func Check(seed uint64, length int, opts difftest.Options) (difftest.Report, error) {
	p, err := Generate(seed, length)
	if err != nil {
		return difftest.Report{}, err
	}
	c, m, err := p.Machine()
	if err != nil {
		return difftest.Report{}, err
	}
	if r, ok := opts.Oracle.(resetter); ok {
		if err := r.Reset(); err != nil {
			return difftest.Report{}, err
		}
	}
	if opts.MaxInsts == 0 {
		opts.MaxInsts = 50 * uint64(length+100) // loops are short: this is a runaway guard
	}
	var last cpu.Exit
	t := difftest.Target{CPU: c, Mem: m, Service: func(exit cpu.Exit) (bool, []difftest.Range) {
		last = exit
		return exit.Reason == cpu.StopEcall || exit.Reason == cpu.StopFault, nil
	}}
	rep, err := difftest.RunTarget(t, opts)
	if err != nil || rep.Divergence != nil {
		return rep, err
	}
	switch {
	case !rep.Done:
		return rep, fmt.Errorf("gen: seed %d: program did not finish in %d instructions", seed, opts.MaxInsts)
	case last.Reason == cpu.StopFault:
		return rep, fmt.Errorf("gen: seed %d: program faulted: %v", seed, last.Fault.Error())
	}
	return rep, nil
}
