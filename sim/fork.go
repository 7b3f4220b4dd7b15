package sim

import (
	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/mem"
	"github.com/rvsim/rvsim/syscalls"
)

// forkChild is the glue's half of process creation (syscalls.Forker):
// the child gets a copy of the parent's memory, a core of its own at the
// registers clone gave it, and a functional machine around them (no
// timing model, observers, DISE or profiling units: those watch the
// process rvsim was started with). The kernel runs it on a goroutine of
// its own, taking turns with its parent (syscalls/fork.go); its own
// children and execs work the same way. A vfork child that ends without
// an exec gives its stores back to its parent's memory. A child killed
// for waiting forever gets a one-line warning.
func (mc *Machine) forkChild(child *syscalls.Kernel, regs syscalls.UserRegs) func() syscalls.ChildEnd {
	m := mc.Mem.Clone()
	child.Attach(m)
	c := cpu.New(m)
	c.SetJIT(mc.cfg.JIT)
	kid := &Machine{CPU: c, Mem: m, Kernel: child, Prog: mc.Prog, Bias: mc.Bias, Interp: mc.Interp, InterpBias: mc.InterpBias,
		cfg: Config{Program: mc.cfg.Program, Kernel: mc.cfg.Kernel, JIT: mc.cfg.JIT, MaxInsts: mc.cfg.MaxInsts}} // each process has --max-insts of its own
	loadUserRegs(c, &regs)
	c.Tid = uint32(child.Tid())
	child.SetExecLoader(kid.prepareExec)
	child.SetForker(kid.forkChild)
	return func() syscalls.ChildEnd {
		res := kid.Run() // (Run lets the child's own children finish)
		// A vfork child that ended before any exec: its stores were its
		// parent's (CLONE_VM), glibc's posix_spawn's error among them.
		if child.VforkPending() {
			for _, a := range mc.Mem.TakeStores(m) {
				mc.Kernel.NoteWrite(a, mem.PageSize)
			}
		}
		child.Close()
		switch res.Stop {
		case StopExit:
			return syscalls.ChildEnd{Code: res.ExitCode}
		case StopSignal:
			return syscalls.ChildEnd{Signal: res.ExitCode - 128}
		}
		// A deadlock, the memory limit, the instruction limit: killed.
		child.Warnf("rvsim: child process %d killed: %s", child.Pid(), res.Message)
		return syscalls.ChildEnd{Signal: 9}
	}
}
