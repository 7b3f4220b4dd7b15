package difftest

import (
	"fmt"

	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/sim"
	"github.com/rvsim/rvsim/syscalls"
)

// Run runs a loaded program in lock-step with the oracle. For a Linux
// program rvsim performs the system calls, and their results and memory
// writes are copied into the oracle; for a bare-metal one the M-mode
// state the oracle does not model (CSRs, traps, mret, the CLINT) is
// rvsim's, copied over (GapBareMetal). Report.Result holds the guest's outcome as
// Machine.Run would report it (Stop is sim.StopLimit when opts.MaxInsts
// ended the run, sim.StopHalted at a divergence).
func Run(mc *sim.Machine, opts Options) (Report, error) {
	var res sim.Result
	if mc.Kernel != nil {
		mc.Kernel.ListSharedWrites() // what a child stores in shared memory is this process's to see
	}
	writes := func() []Range { return ranges(mc.Kernel.LastWrites()) }
	t := Target{CPU: mc.CPU, Mem: mc.Mem, Service: func(exit cpu.Exit) (bool, []Range) {
		done := mc.Service(exit, &res)
		if hw := mc.HostWrites(); hw != nil { // bare metal: the HTIF command's
			return done, ranges(hw)
		}
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
	if mc.Kernel != nil {
		mc.Kernel.FinishChildren() // orphans run to their ends, as after Machine.Run
	}
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

// ranges converts the kernel's or the HTIF host's written ranges.
func ranges(ws []syscalls.Range) []Range {
	out := make([]Range, len(ws))
	for i, w := range ws {
		out[i] = Range{Addr: w.Addr, Len: w.Len}
	}
	return out
}
