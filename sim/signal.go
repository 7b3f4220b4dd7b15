package sim

import (
	"fmt"

	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/syscalls"
)

// The process side of Service: system calls, faults and interval timers
// go to the kernel with the core's register state, which the kernel may
// change (a signal handler's entry, rt_sigreturn, a restarted system
// call). See syscalls.Kernel.Ecall, Trap and Interrupt.

// userRegs copies the core's user-visible state out.
func (mc *Machine) userRegs() syscalls.UserRegs {
	c := mc.CPU
	r := syscalls.UserRegs{PC: c.PC, FCSR: uint32(c.FRM())<<5 | uint32(c.FFlags())}
	copy(r.X[1:], c.X[1:32])
	copy(r.F[:], c.F[:32])
	return r
}

// setUserRegs installs r in the core if the kernel changed it beyond a0,
// and counts the change (Redirects).
func (mc *Machine) setUserRegs(r, before *syscalls.UserRegs) {
	c := mc.CPU
	c.Tid = uint32(mc.Kernel.Tid()) // the kernel may have switched threads
	c.SetReg(10, r.X[10])
	b := *before
	b.X[10] = r.X[10]
	if *r == b {
		return
	}
	mc.redirects++
	loadUserRegs(c, r)
	// A trap return clears the LR reservation (the kernel's sc on the way
	// out of every exception).
	c.ClearReservation()
}

// loadUserRegs installs r in the core: pc, the integer and FP registers
// and fcsr.
func loadUserRegs(c *cpu.CPU, r *syscalls.UserRegs) {
	c.PC = r.PC
	copy(c.X[1:32], r.X[1:])
	copy(c.F[:32], r.F[:])
	c.SetFCSR(uint8(r.FCSR&0x1f), uint8(r.FCSR>>5&7))
}

// Redirects counts the times a system call, fault or timer replaced the
// core's register state beyond a system call's result: signal handler
// entries, rt_sigreturn, restarted system calls. A lock-step driver copies
// the whole state into its reference model when it changes.
func (mc *Machine) Redirects() uint64 { return mc.redirects }

// ecall performs the system call the core stopped for.
func (mc *Machine) ecall(res *Result) bool {
	k := mc.Kernel
	k.SetInstret(mc.CPU.Instret)
	r := mc.userRegs()
	before := r
	k.Ecall(&r)
	if mc.memoryExhausted(res, fmt.Sprintf("in system call %s", syscallName(before.X[17]))) {
		return true
	}
	if mc.ended(res) {
		return true
	}
	mc.setUserRegs(&r, &before)
	return false
}

// fault delivers the signal for a fault of the core; a fault whose signal
// ends the process is reported with the fault's own message.
func (mc *Machine) fault(f cpu.Fault, res *Result) bool {
	if mc.memoryExhausted(res, fmt.Sprintf("at pc %#x", f.PC)) {
		return true
	}
	k := mc.Kernel
	k.SetInstret(mc.CPU.Instret)
	t := syscalls.Trap{PC: f.PC, Cause: f.Cause, Tval: f.Tval}
	r := mc.userRegs()
	r.PC = f.PC
	before := r
	k.Trap(&r, t)
	if mc.memoryExhausted(res, "writing a signal frame") {
		return true
	}
	if sig, _, ok := k.FatalSignal(); ok && sig == k.TrapSignal(t) {
		res.Stop, res.ExitCode, res.Message = StopSignal, 128+sig, f.Error()
		return true
	}
	if mc.ended(res) {
		return true
	}
	mc.setUserRegs(&r, &before)
	return false
}

// Interrupt delivers an asynchronous signal that is due at the current
// instruction boundary (an interval timer's expiry), and switches threads
// when the running thread's quantum has ended (syscalls.Kernel.Preempt).
// It reports whether the core's state changed and whether the run is
// over. Run calls it where the core stops at a timer's instruction count
// or a quantum's end; a driver that steps the core itself (lock-step
// difftest) calls it between instructions. Inside a DISE replacement
// sequence or handler, delivery and switching wait for the next
// application instruction boundary. On bare metal it drives the CLINT's
// timer interrupt and takes a pending, enabled interrupt.
func (mc *Machine) Interrupt(res *Result) (delivered, done bool) {
	if mc.clint != nil { // bare metal: the CLINT's interrupts
		return mc.CPU.DISEStep() == 0 && mc.clint.tick(), false
	}
	if !mc.TimerDue() {
		return false, false
	}
	k := mc.Kernel
	r := mc.userRegs()
	before := r
	changed := k.Interrupt(&r, mc.CPU.Instret)
	if !mc.ended(res) && mc.sliceDue() {
		changed = k.Preempt(&r, mc.CPU.Instret) || changed
	}
	if mc.memoryExhausted(res, "writing a signal frame") {
		return false, true
	}
	if mc.ended(res) {
		return false, true
	}
	if changed {
		mc.setUserRegs(&r, &before)
	}
	return changed, false
}

// TimerDue reports whether an interval timer has expired by the current
// instruction count, or the running thread's quantum has ended, at an
// application instruction boundary: Interrupt would act. On bare metal:
// whether the CLINT's timer line is to change, or an interrupt is ready
// to be taken.
func (mc *Machine) TimerDue() bool {
	if d := mc.clint; d != nil {
		c := mc.CPU
		return c.DISEStep() == 0 && (d.due() != c.DevicePending(cpu.MIPMTIP) || c.InterruptReady())
	}
	k := mc.Kernel
	if k == nil || mc.htif != nil || mc.CPU.DISEStep() != 0 {
		return false
	}
	at, ok := k.NextTimer()
	return ok && at <= mc.CPU.Instret || mc.sliceDue()
}

// sliceDue reports whether the running thread's quantum has ended.
func (mc *Machine) sliceDue() bool {
	at, ok := mc.Kernel.SliceEnd()
	return ok && at <= mc.CPU.Instret
}

// timerBudget limits budget so that the core stops at the next timer
// expiry and at the end of the running thread's quantum (one
// instruction at a time past it while a DISE sequence is in progress);
// on bare metal, at the CLINT's mtimecmp, the same way.
func (mc *Machine) timerBudget(budget uint64) uint64 {
	if d := mc.clint; d != nil {
		if mc.CPU.DISEStep() != 0 && d.due() {
			return min(budget, 1) // (Interrupt waits for the sequence's end)
		}
		return d.budget(budget)
	}
	if mc.Kernel == nil || mc.htif != nil {
		return budget
	}
	if at, ok := mc.Kernel.SliceEnd(); ok {
		budget = min(budget, max(at, mc.CPU.Instret+1)-mc.CPU.Instret)
	}
	at, ok := mc.Kernel.NextTimer()
	if !ok || at <= mc.CPU.Instret {
		return budget
	}
	return min(budget, at-mc.CPU.Instret)
}

// ended records the process's end in res, if it has ended.
func (mc *Machine) ended(res *Result) bool {
	k := mc.Kernel
	if msg, ok := k.Deadlock(); ok {
		res.Stop, res.ExitCode, res.Message = StopDeadlock, ExitDeadlock, msg
		return true
	}
	if sig, name, ok := k.FatalSignal(); ok {
		res.Stop, res.ExitCode, res.Message = StopSignal, 128+sig, name
		return true
	}
	if code, ok := k.Exited(); ok {
		res.Stop, res.ExitCode = StopExit, code
		return true
	}
	return false
}
