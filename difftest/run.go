package difftest

import (
	"errors"
	"fmt"

	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/sim"
)

// ErrBareMetal is returned for programs that run bare-metal (HTIF): their
// traps go to the program's own M-mode handler, which the oracle's
// exception hook cannot mirror.
var ErrBareMetal = errors.New("difftest: bare-metal (HTIF) programs are not supported; only Linux user programs")

// Run runs a loaded Linux program in lock-step with the oracle: rvsim
// performs the system calls and their results and memory writes are
// copied into the oracle. Report.Result holds the guest's outcome as
// Machine.Run would report it (Stop is sim.StopLimit when opts.MaxInsts
// ended the run, sim.StopHalted at a divergence).
func Run(mc *sim.Machine, opts Options) (Report, error) {
	if mc.Prog != nil && mc.Prog.HasToHost {
		return Report{}, ErrBareMetal
	}
	var res sim.Result
	writes := func() []Range {
		ws := mc.Kernel.LastWrites()
		out := make([]Range, len(ws))
		for i, w := range ws {
			out[i] = Range{Addr: w.Addr, Len: w.Len}
		}
		return out
	}
	t := Target{CPU: mc.CPU, Mem: mc.Mem, Service: func(exit cpu.Exit) (bool, []Range) {
		done := mc.Service(exit, &res)
		if exit.Reason != cpu.StopEcall && exit.Reason != cpu.StopFault {
			return done, nil
		}
		return done, writes() // a system call's, or a signal frame's
	}}
	t.TimerDue = mc.TimerDue
	t.Interrupt = func() (bool, []Range) {
		_, done := mc.Interrupt(&res)
		return done, writes()
	}
	t.Redirects = mc.Redirects
	rep, err := RunTarget(t, opts)
	switch {
	case rep.Divergence != nil:
		res.Stop, res.Message = sim.StopHalted, fmt.Sprintf("difftest: divergence at instruction %d", rep.Divergence.Seq)
	case !rep.Done && err == nil:
		res.Stop = sim.StopLimit
		res.Message = fmt.Sprintf("instruction limit reached (%d instructions)", mc.CPU.Instret)
	}
	res.Instructions = mc.CPU.Instret
	res.HostSeconds = rep.Seconds
	rep.Result = res
	return rep, err
}
