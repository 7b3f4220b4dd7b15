package syscalls

import (
	"math/bits"
	"strconv"

	"github.com/rvsim/rvsim/mem"
)

// Signals, as Linux riscv64 delivers them to one single-threaded process
// (kernel/signal.c, arch/riscv/kernel/signal.c, arch/riscv/kernel/traps.c).
//
// A signal is raised by kill/tkill/tgkill/rt_sigqueueinfo on the process
// itself, by an interval timer, by a write to a pipe without readers, or
// by a fault of the core (Trap). It is then pending until it is delivered
// at a return to user mode: after a system call (Ecall), after the fault
// (Trap), or when a timer expires (Interrupt, at the exact instruction
// count of its expiry). Delivery to a handler builds the rt_sigframe on
// the user stack (or the alternate stack) exactly as setup_rt_frame does
// and points ra at a two-instruction sigreturn trampoline (see
// SigreturnAddr): Linux uses the vDSO's __vdso_rt_sigreturn, and rvsim
// maps no vDSO.

// Signal numbers used here by name.
const (
	nsig      = 64
	sigHUP    = 1
	sigINT    = 2
	sigQUIT   = 3
	sigILL    = 4
	sigTRAP   = 5
	sigABRT   = 6
	sigBUS    = 7
	sigFPE    = 8
	sigKILL   = 9
	sigSEGV   = 11
	sigPIPE   = 13
	sigALRM   = 14
	sigCONT   = 18
	sigSTOP   = 19
	sigTSTP   = 20
	sigTTIN   = 21
	sigTTOU   = 22
	sigVTALRM = 26
	sigPROF   = 27
	sigWINCH  = 28
	sigSYS    = 31

	sigDFL   = 0 // SIG_DFL
	sigIGN   = 1 // SIG_IGN
	sigBlock = 0
	sigUnblk = 1
	sigSet   = 2

	ssOnstack     = 1
	ssDisable     = 2
	ssAutodisarm  = 1 << 31
	minSigStkSize = 2048 // MINSIGSTKSZ
)

// sa_flags (asm-generic/signal.h; riscv has no SA_RESTORER: the kernel
// always returns through the vDSO).
const (
	saSiginfo   = 0x00000004
	saOnstack   = 0x08000000
	saRestart   = 0x10000000
	saNodefer   = 0x40000000
	saResethand = 0x80000000
)

// si_code values (asm-generic/siginfo.h).
const (
	siUser   = 0
	siKernel = 0x80
	siQueue  = -1
	siTkill  = -6

	illIllopc  = 1 // ILL_ILLOPC
	segvMaperr = 1 // SEGV_MAPERR
	segvAccerr = 2 // SEGV_ACCERR
	busAdraln  = 1 // BUS_ADRALN
	busAdrerr  = 2 // BUS_ADRERR: past the end of a mapped object
	trapBrkpt  = 1 // TRAP_BRKPT
)

// The signal frame (struct rt_sigframe { siginfo_t info; struct ucontext
// uc; }) and its parts; layout_ext_test.go checks every offset against
// the riscv64 uapi headers.
const (
	siginfoSize     = 128
	siAddrOff       = 16 // si_addr (faults)
	siPidOff        = 16 // si_pid (kill)
	siUIDOff        = 20 // si_uid (kill)
	ucFlagsOff      = 0
	ucLinkOff       = 8
	ucStackOff      = 16 // stack_t uc_stack
	ucSigmaskOff    = 40
	ucMcontextOff   = 176 // struct sigcontext uc_mcontext, 16-byte aligned
	ucontextSize    = 960
	scFPOff         = 256 // union __riscv_fp_state sc_fpregs, after user_regs_struct
	fpFcsrOff       = 256 // __riscv_d_ext_state.fcsr within sc_fpregs
	fpReservedOff   = 516 // __riscv_q_ext_state.reserved[0] == __riscv_extra_ext_header.reserved
	fpExtHdrOff     = 520 // __riscv_extra_ext_header.hdr: the END header (magic 0, size 0)
	fpStateSize     = 528
	sigcontextSize  = scFPOff + fpStateSize
	rtSigframeUCOff = siginfoSize
	rtSigframeSize  = siginfoSize + ucontextSize // already a multiple of 16
)

// SigreturnAddr is the page that holds the sigreturn trampoline, "li a7,
// 139; ecall", where a handler returns to (ra). Linux points ra at the
// vDSO's __vdso_rt_sigreturn, which is the same two instructions (so
// libgcc's unwinder recognises the frame); rvsim has no vDSO and maps this
// page read+execute at the first delivery to a handler. It lies in the gap
// between the DISE handler runtime (at MmapTop) and the stack, where
// neither mmap nor the stack reaches.
const SigreturnAddr = MmapTop + 64<<20

// sigreturnCode is li a7, 139 (addi a7, zero, 139); ecall.
var sigreturnCode = []byte{0x93, 0x08, 0xb0, 0x08, 0x73, 0x00, 0x00, 0x00}

// UserRegs is the user-visible register state of the process as the
// kernel saves it in a signal frame: struct user_regs_struct (pc, then
// x1..x31) and the D extension's state (f0..f31 as raw 64-bit values and
// fcsr). The core's driver passes it to Ecall, Trap and Interrupt, which
// may change it (a signal handler's entry, rt_sigreturn, a restarted
// system call).
type UserRegs struct {
	PC   uint64
	X    [32]uint64 // X[0] is unused
	F    [32]uint64
	FCSR uint32
}

// Trap is a synchronous exception a user-mode instruction raised, as the
// core reports it: the RISC-V exception cause (mcause) and tval.
type Trap struct {
	PC, Cause, Tval uint64
}

// RISC-V exception causes the kernel turns into signals.
const (
	causeFetchMisaligned = 0
	causeFetchAccess     = 1
	causeIllegalInst     = 2
	causeBreakpoint      = 3
	causeLoadMisaligned  = 4
	causeLoadAccess      = 5
	causeStoreMisaligned = 6
	causeStoreAccess     = 7
)

type sigAction struct {
	handler, flags, mask uint64
}

// sigInfo is a siginfo_t as the guest sees it.
type sigInfo [siginfoSize]byte

func makeInfo(sig, code int32) sigInfo {
	var si sigInfo
	put32(si[:], 0, uint32(sig))
	put32(si[:], 8, uint32(code))
	return si
}

// faultInfo is the siginfo of force_sig_fault: si_addr is the address.
func faultInfo(sig, code int32, addr uint64) sigInfo {
	si := makeInfo(sig, code)
	put64(si[:], siAddrOff, addr)
	return si
}

// senderInfo is the siginfo of a signal the process sent itself (kill:
// SI_USER, tkill/tgkill: SI_TKILL): si_pid and si_uid name the sender.
func (k *Kernel) senderInfo(sig, code int32) sigInfo {
	si := makeInfo(sig, code)
	put32(si[:], siPidOff, uint32(k.pid))
	put32(si[:], siUIDOff, k.cred.ruid)
	return si
}

// altStack is the sigaltstack state (sas_ss_sp, sas_ss_size, sas_ss_flags).
type altStack struct {
	sp, size uint64
	flags    uint32
}

var signalNames = [...]string{
	1: "Hangup", 2: "Interrupt", 3: "Quit", 4: "Illegal instruction", 5: "Trace/breakpoint trap",
	6: "Aborted", 7: "Bus error", 8: "Floating point exception", 9: "Killed",
	10: "User defined signal 1", 11: "Segmentation fault", 12: "User defined signal 2",
	13: "Broken pipe", 14: "Alarm clock", 15: "Terminated", 16: "Stack fault", 17: "Child exited",
	18: "Continued", 19: "Stopped (signal)", 20: "Stopped", 21: "Stopped (tty input)",
	22: "Stopped (tty output)", 23: "Urgent I/O condition", 24: "CPU time limit exceeded",
	25: "File size limit exceeded", 26: "Virtual timer expired", 27: "Profiling timer expired",
	28: "Window changed", 29: "I/O possible", 30: "Power failure", 31: "Bad system call",
}

// SignalName returns glibc's strsignal text for Linux signal sig.
func SignalName(sig int) string {
	if sig > 0 && sig < len(signalNames) {
		return signalNames[sig]
	}
	if sig >= 32 && sig <= nsig {
		return "Real-time signal " + strconv.Itoa(sig-32)
	}
	return "Unknown signal " + strconv.Itoa(sig)
}

// defaultIgnored reports whether the default action of sig is to ignore
// it (sig_kernel_ignore; SIGCONT's continuing happens when it is sent:
// jobctl.go).
func defaultIgnored(sig int) bool {
	switch sig {
	case 17, 18, 23, 28: // SIGCHLD, SIGCONT, SIGURG, SIGWINCH
		return true
	}
	return false
}

func sigBit(sig int) uint64 { return 1 << (sig - 1) }

// unblockable are the signals no mask can block.
const unblockable = 1<<(sigKILL-1) | 1<<(sigSTOP-1)

// synchronous are the signals dequeued first (SYNCHRONOUS_MASK).
const synchronous = 1<<(sigSEGV-1) | 1<<(sigBUS-1) | 1<<(sigILL-1) | 1<<(sigTRAP-1) | 1<<(sigFPE-1) | 1<<(sigSYS-1)

// ignored reports whether sig would be discarded on arrival: its action
// is SIG_IGN, or SIG_DFL with an ignoring default.
func (k *Kernel) ignored(sig int) bool {
	h := k.sig[sig].handler
	return sig != sigKILL && (h == sigIGN || h == sigDFL && defaultIgnored(sig))
}

// raise sends sig to the process with the given siginfo. A blocked
// signal stays pending; an ignored one is discarded (a blocked one is
// kept: the action may change before it is unblocked). As for Linux's
// standard signals, a signal that is already pending is not queued twice
// (real-time signals are not queued either: one instance each).
func (k *Kernel) raise(sig int, info sigInfo) {
	b := sigBit(sig)
	if k.sigMask&b == 0 && k.ignored(sig) {
		return
	}
	if k.sigPending&b != 0 {
		return
	}
	k.sigPending |= b
	k.sigShared &^= b
	k.sigInfo[sig] = info
	k.sigGens++
}

// nextSignal returns the pending, unblocked signal that is delivered
// next: synchronous signals first, then the lowest number (0: none).
func (k *Kernel) nextSignal() int {
	p := k.sigPending &^ k.sigMask
	if p == 0 {
		return 0
	}
	if s := p & synchronous; s != 0 {
		p = s
	}
	return bits.TrailingZeros64(p) + 1
}

// settle applies the actions that need no register context: a deliverable
// signal whose action is to ignore it is dropped, and one whose default
// action ends the process ends it. Signals with handlers stay pending
// for deliver.
func (k *Kernel) settle() {
	for p := k.sigPending &^ k.sigMask; p != 0 && !k.exited; p &= p - 1 {
		sig := bits.TrailingZeros64(p) + 1
		switch {
		case k.ignored(sig):
			k.sigPending &^= sigBit(sig)
		case k.sig[sig].handler == sigDFL && !stopSignal(sig): // (a stop waits for deliver)
			k.die(sig)
		}
	}
}

// die ends the process with sig's default action.
func (k *Kernel) die(sig int) {
	k.exited, k.exitCode, k.fatalSig = true, 128+sig, sig
	k.flushShared()
}

// deliverable reports whether a signal will be delivered (to a handler,
// or as a fatal default action) at the next return to user mode, or is
// pending in wake (the set a sigtimedwait waits for).
func (k *Kernel) deliverable(wake uint64) bool {
	k.settle()
	return k.exited || k.sigPending&(^k.sigMask|wake) != 0
}

// deliver delivers every deliverable signal (get_signal and
// handle_signal in a loop, as exit_to_user_mode_loop does): each handler
// gets a frame on top of the previous one, so the last one set up runs
// first. r is the state the process resumes with; entry is how it entered
// the kernel (a system call's restart rules need it).
func (k *Kernel) deliver(r *UserRegs, sc *sysEntry) {
signals:
	for !k.exited {
		sig := k.nextSignal()
		if sig == 0 {
			break
		}
		b := sigBit(sig)
		k.sigPending &^= b
		info := k.sigInfo[sig]
		act := k.sig[sig]
		switch {
		case k.ignored(sig):
			continue
		case act.handler == sigDFL && stopSignal(sig):
			if sig != sigSTOP && k.orphanedPgrp() {
				continue // job control's stops do nothing in an orphaned group
			}
			k.stopProcess(sig) // reschedule waits until it is continued
			break signals
		case act.handler == sigDFL:
			k.die(sig)
			return
		}
		if act.flags&saResethand != 0 { // SA_ONESHOT
			k.sig[sig].handler = sigDFL
		}
		if sc != nil {
			sc.restartForHandler(r, act.flags)
			sc = nil // a system call restarts at most once
		}
		old := k.sigMask
		if k.restoreMask {
			old = k.savedMask
		}
		if !k.setupFrame(sig, &info, act, old, r) {
			// force_sigsegv: a handler for SIGSEGV itself is reset first.
			if sig == sigSEGV {
				k.sig[sigSEGV].handler = sigDFL
			}
			k.force(sigSEGV, makeInfo(sigSEGV, siKernel))
			continue
		}
		// signal_delivered
		k.restoreMask = false
		k.sigMask |= act.mask
		if act.flags&saNodefer == 0 {
			k.sigMask |= b
		}
		k.sigMask &^= unblockable
		if k.alt.flags&ssAutodisarm != 0 {
			k.alt = altStack{flags: ssDisable}
		}
	}
	if sc != nil {
		sc.restartWithoutHandler(r)
	}
	if k.restoreMask { // no handler ran: put the saved mask back
		k.sigMask, k.restoreMask = k.savedMask, false
	}
}

// force sends a signal the process cannot block or ignore away
// (force_sig_info): a blocked or ignored signal is unblocked and its
// action reset to SIG_DFL.
func (k *Kernel) force(sig int, info sigInfo) {
	b := sigBit(sig)
	if k.sigMask&b != 0 || k.sig[sig].handler == sigIGN {
		k.sig[sig].handler = sigDFL
		k.sigMask &^= b
	}
	if k.sigPending&b == 0 {
		k.sigPending |= b
		k.sigInfo[sig] = info
	}
}

// onSigStack reports whether sp lies on the alternate signal stack
// (on_sig_stack; with SS_AUTODISARM the kernel never considers it).
func (k *Kernel) onSigStack(sp uint64) bool {
	if k.alt.flags&ssAutodisarm != 0 {
		return false
	}
	return sp > k.alt.sp && sp-k.alt.sp <= k.alt.size
}

// sasFlags is sas_ss_flags(sp).
func (k *Kernel) sasFlags(sp uint64) uint32 {
	if k.alt.size == 0 {
		return ssDisable
	}
	if k.onSigStack(sp) {
		return ssOnstack
	}
	return 0
}

// setupFrame builds the rt_sigframe for sig and enters the handler
// (setup_rt_frame). Bytes of the frame Linux does not write (padding, the
// unused tail of uc_sigmask's area, the Q-extension area above the D
// state) keep what the stack held. It reports false when the frame
// cannot be written (the caller then forces SIGSEGV).
func (k *Kernel) setupFrame(sig int, info *sigInfo, act sigAction, oldMask uint64, r *UserRegs) bool {
	sp := r.X[2]
	// get_sigframe: a frame that would overflow the alternate stack while
	// on it goes to an always-bad address.
	if k.onSigStack(sp) && !k.onSigStack(sp-rtSigframeSize) {
		return false
	}
	if act.flags&saOnstack != 0 && k.sasFlags(sp) == 0 {
		sp = k.alt.sp + k.alt.size
	}
	frame := (sp - rtSigframeSize) &^ 15
	if frame > sp || k.userOK(frame, rtSigframeSize, mem.W) != rtSigframeSize {
		return false
	}
	ret, ok := k.sigreturnTrampoline()
	if !ok {
		return false
	}
	b := make([]byte, rtSigframeSize)
	if k.mem.Peek(frame, b) != nil {
		return false
	}
	copy(b, info[:])
	uc := b[rtSigframeUCOff:]
	put64(uc, ucFlagsOff, 0)
	put64(uc, ucLinkOff, 0)
	put64(uc, ucStackOff, k.alt.sp) // __save_altstack: the raw flags
	put32(uc, ucStackOff+8, k.alt.flags)
	put64(uc, ucStackOff+16, k.alt.size)
	put64(uc, ucSigmaskOff, oldMask)
	sc := uc[ucMcontextOff:]
	put64(sc, 0, r.PC)
	for i := 1; i < 32; i++ {
		put64(sc, 8*i, r.X[i])
	}
	fp := sc[scFPOff:]
	for i := 0; i < 32; i++ {
		put64(fp, 8*i, r.F[i])
	}
	put32(fp, fpFcsrOff, r.FCSR)
	put32(fp, fpFcsrOff+4, 0) // the padding of __riscv_d_ext_state, copied from the (zeroed) thread state
	put32(fp, fpReservedOff, 0)
	put32(fp, fpExtHdrOff, 0)   // END_MAGIC
	put32(fp, fpExtHdrOff+4, 0) // END_HDR_SIZE
	if k.writeMem(frame, b) != 0 {
		return false
	}
	r.X[1] = ret
	r.PC = act.handler
	r.X[2] = frame
	r.X[10] = uint64(sig)
	r.X[11] = frame
	r.X[12] = frame + rtSigframeUCOff
	return true
}

// sigreturnTrampoline returns the address of the sigreturn trampoline,
// mapping its page on first use.
func (k *Kernel) sigreturnTrampoline() (uint64, bool) {
	if k.trampoline {
		return SigreturnAddr, true
	}
	if !k.mem.IsFree(SigreturnAddr, PageSize) {
		return 0, false
	}
	if k.mem.Map(SigreturnAddr, PageSize, mem.R|mem.X, "[sigreturn]") != nil {
		return 0, false
	}
	if k.pokeMem(SigreturnAddr, sigreturnCode) != 0 {
		return 0, false
	}
	k.trampoline = true
	return SigreturnAddr, true
}

// sigreturn restores the state a handler interrupted from the frame at
// sp (rt_sigreturn). A frame that cannot be read, or whose reserved words
// are not zero (no V-extension state is accepted: this hart has none),
// is a bad frame: SIGSEGV.
func (k *Kernel) sigreturn(r *UserRegs) {
	frame := r.X[2]
	b, e := k.readMem(frame, rtSigframeSize)
	if e != 0 {
		k.force(sigSEGV, makeInfo(sigSEGV, siKernel))
		r.X[10] = 0
		return
	}
	uc := b[rtSigframeUCOff:]
	k.sigMask = le64(uc[ucSigmaskOff:]) &^ unblockable
	sc := uc[ucMcontextOff:]
	r.PC = le64(sc)
	for i := 1; i < 32; i++ {
		r.X[i] = le64(sc[8*i:])
	}
	fp := sc[scFPOff:]
	for i := 0; i < 32; i++ {
		r.F[i] = le64(fp[8*i:])
	}
	r.FCSR = uint32(le64(append(fp[fpFcsrOff:fpFcsrOff+4:fpFcsrOff+4], 0, 0, 0, 0)))
	// The reserved word, then the extension headers: only END is valid.
	if u32(fp, fpReservedOff) != 0 || u32(fp, fpExtHdrOff) != 0 || u32(fp, fpExtHdrOff+4) != 0 {
		k.force(sigSEGV, makeInfo(sigSEGV, siKernel))
		r.X[10] = 0
		return
	}
	// restore_altstack: errors other than EFAULT are ignored.
	st := uc[ucStackOff:]
	_ = k.setAltStack(altStack{sp: le64(st), flags: u32(st, 8), size: le64(st[16:])}, r.X[2])
}

func u32(b []byte, off int) uint32 {
	return uint32(b[off]) | uint32(b[off+1])<<8 | uint32(b[off+2])<<16 | uint32(b[off+3])<<24
}

// setAltStack changes the alternate stack (do_sigaltstack with a new
// stack); sp is the user stack pointer.
func (k *Kernel) setAltStack(ns altStack, sp uint64) Errno {
	if k.onSigStack(sp) {
		return EPERM
	}
	mode := ns.flags &^ ssAutodisarm
	if mode != 0 && mode != ssDisable && mode != ssOnstack {
		return EINVAL
	}
	if ns == k.alt {
		return 0
	}
	if mode == ssDisable {
		ns.sp, ns.size = 0, 0
	} else if ns.size < minSigStkSize {
		return ENOMEM
	}
	k.alt = ns
	return 0
}

// curSP is the user stack pointer of the system call in progress (0 when
// Syscall is called without a register context).
func (k *Kernel) curSP() uint64 {
	if k.cur == nil {
		return 0
	}
	return k.cur.X[2]
}

// --- the entry points of the core's driver -------------------------------------

// sysEntry is a system call in progress, for the restart rules of
// handle_signal and do_signal.
type sysEntry struct {
	origA0 uint64 // a0 at entry
	ret    uint64 // the value for a0 (may be an internal restart code)
}

// Internal errnos that ask for a system call to be restarted
// (include/linux/errno.h); the guest never sees them.
const (
	errRestartSys    Errno = 512 // ERESTARTSYS: restart if the handler has SA_RESTART, else EINTR
	errRestartNoIntr Errno = 513 // ERESTARTNOINTR: always restart
	errRestartNoHand Errno = 514 // ERESTARTNOHAND: restart unless a handler runs
)

// restartForHandler applies handle_signal's rules before a handler's frame
// is built.
func (sc *sysEntry) restartForHandler(r *UserRegs, flags uint64) {
	switch sc.ret {
	case errnoRet(errRestartNoHand):
		r.X[10] = errnoRet(EINTR)
	case errnoRet(errRestartSys):
		if flags&saRestart == 0 {
			r.X[10] = errnoRet(EINTR)
			return
		}
		fallthrough
	case errnoRet(errRestartNoIntr):
		r.X[10] = sc.origA0
		r.PC -= 4
	}
}

// restartWithoutHandler applies do_signal's rules when no handler ran.
func (sc *sysEntry) restartWithoutHandler(r *UserRegs) {
	switch sc.ret {
	case errnoRet(errRestartSys), errnoRet(errRestartNoIntr), errnoRet(errRestartNoHand):
		r.X[10] = sc.origA0
		r.PC -= 4
	}
}

// Ecall performs the system call the process made: the number in a7,
// the arguments in a0..a5, r.PC already past the ecall. It writes the
// result to a0 and then delivers the signals that became deliverable (a
// handler's frame changes r: pc, sp, ra, a0..a2), fires interval timers
// that expired, and applies rt_sigreturn's restored state. Exited reports
// whether the process ended.
func (k *Kernel) Ecall(r *UserRegs) {
	k.writes = k.writes[:0]
	if k.exited {
		return
	}
	k.cur = r
	defer func() { k.cur = nil }()
	var args [6]uint64
	copy(args[:], r.X[10:16])
	sc := sysEntry{origA0: r.X[10]}
	if ret, run := k.seccompEnter(r, args); !run {
		sc.ret = ret
	} else {
		sc.ret = k.dispatch(r.X[17], args)
	}
	if sc.ret == errnoRet(errBlocked) { // the thread waits or has ended: another runs (thread.go)
		k.run.origA0 = sc.origA0
		k.fireTimers()
		k.reschedule(r)
		return
	}
	if k.run.blocked {
		k.unblock()
	}
	k.run.timeoDeadline = 0 // (a call that no longer waits)
	r.X[10] = sc.ret
	k.fireTimers()
	k.deliver(r, &sc)
	if (k.resched || k.stopped != 0) && !k.exited { // (a stopped process waits there)
		k.reschedule(r)
	}
}

// Trap delivers the signal for a fault of the instruction at t.PC (the
// core did not retire it), as arch/riscv/kernel/traps.c and the page
// fault handler send it: SIGILL (ILL_ILLOPC, si_addr = pc) for an illegal
// instruction, SIGTRAP (TRAP_BRKPT) for ebreak, SIGBUS (BUS_ADRALN,
// si_addr = pc) for a misaligned access the kernel does not emulate (an
// atomic), and SIGSEGV for an access to memory that is not mapped
// (SEGV_MAPERR) or lacks the permission (SEGV_ACCERR), si_addr = the
// address. The signal is forced: if it is blocked or ignored, the
// process dies of it. r.PC must be t.PC.
func (k *Kernel) Trap(r *UserRegs, t Trap) {
	k.writes = k.writes[:0]
	if k.exited {
		return
	}
	sig, info := k.trapSignal(t)
	k.force(sig, info)
	k.deliver(r, nil)
	if k.stopped != 0 && !k.exited { // a stop signal pending before the fault's
		k.reschedule(r)
	}
}

// TrapSignal returns the signal Trap sends for t.
func (k *Kernel) TrapSignal(t Trap) int {
	sig, _ := k.trapSignal(t)
	return sig
}

func (k *Kernel) trapSignal(t Trap) (int, sigInfo) {
	switch t.Cause {
	case causeIllegalInst:
		return sigILL, faultInfo(sigILL, illIllopc, t.PC)
	case causeBreakpoint:
		return sigTRAP, faultInfo(sigTRAP, trapBrkpt, t.PC)
	case causeFetchMisaligned, causeLoadMisaligned, causeStoreMisaligned:
		return sigBUS, faultInfo(sigBUS, busAdraln, t.PC)
	case causeFetchAccess, causeLoadAccess, causeStoreAccess:
		if k.mem.BeyondObject(t.Tval) {
			return sigBUS, faultInfo(sigBUS, busAdrerr, t.Tval)
		}
		code := int32(segvMaperr)
		if _, ok := k.mem.RegionAt(t.Tval); ok {
			code = segvAccerr
		}
		return sigSEGV, faultInfo(sigSEGV, code, t.Tval)
	}
	return sigSEGV, faultInfo(sigSEGV, siKernel, t.PC)
}

// NextTimer returns the retired-instruction count at which the next
// interval timer expires, a child process's turn ends or the live
// children are to catch up, so that the driver can stop the core there
// and call Interrupt. With host time, ITIMER_REAL is polled every
// hostTimerPoll instructions.
func (k *Kernel) NextTimer() (uint64, bool) {
	next, ok := uint64(0), false
	take := func(at uint64) {
		if !ok || at < next {
			next, ok = at, true
		}
	}
	if at := k.nextMonoExpiry(); at >= 0 {
		if k.cfg.HostTime {
			take(k.instret + hostTimerPoll)
		} else {
			take(uint64(max(at-k.sleptNS, 0)))
		}
	}
	for _, w := range [...]int{itimerVirtual, itimerProf} {
		if t := &k.timers[w]; t.armed() {
			take(uint64(t.value))
		}
	}
	if at, ok := k.turnNext(); ok { // a child's turn ends there (fork.go)
		take(at)
	}
	if at, ok := k.childrenNext(); ok { // its children catch up there
		take(at)
	}
	if _, cpu := k.nextPTimer(); cpu > 0 {
		take(uint64(cpu))
	}
	return next, ok
}

// Interrupt fires the interval timers that have expired by instret
// retired instructions, lets the live children catch up and hands the
// turn back to the parent when a child process's turn is over (fork.go),
// and delivers what is deliverable at this instruction boundary. It
// reports whether it changed r.
func (k *Kernel) Interrupt(r *UserRegs, instret uint64) bool {
	k.writes = k.writes[:0]
	k.instret = instret
	if k.exited {
		return false
	}
	k.fireTimers()
	k.letChildrenCatchUp()
	for k.turnOver() { // a child's slice is over: its parent runs (fork.go)
		k.yieldTurn(yieldComputing)
		k.fireTimers()
	}
	if k.exited || !k.deliverable(0) {
		return false
	}
	before := *r
	k.deliver(r, nil)
	if k.stopped != 0 && !k.exited { // stopped: its threads wait until it is continued
		k.reschedule(r)
	}
	return *r != before
}

// --- system calls ---------------------------------------------------------------

func sysRtSigaction(k *Kernel, a sysArgs) (uint64, Errno) {
	sig, act, oact, size := int(a.Int(0)), a.Ptr(1), a.Ptr(2), a.Ptr(3)
	if size != 8 || sig < 1 || sig > nsig {
		return 0, EINVAL
	}
	var na sigAction
	if act != 0 {
		if sig == sigKILL || sig == sigSTOP {
			return 0, EINVAL
		}
		b, e := k.readMem(act, sigactionSize)
		if e != 0 {
			return 0, e
		}
		na = sigAction{le64(b), le64(b[8:]), le64(b[16:]) &^ unblockable}
	}
	if oact != 0 {
		o := k.sig[sig]
		b := make([]byte, sigactionSize)
		put64(b, 0, o.handler)
		put64(b, 8, o.flags)
		put64(b, 16, o.mask)
		if e := k.writeMem(oact, b); e != 0 {
			return 0, e
		}
	}
	if act != 0 {
		k.sig[sig] = na
		if k.ignored(sig) {
			k.sigPending &^= sigBit(sig) // POSIX: discard pending ignored signals, blocked or not
		}
	}
	return 0, 0
}

func sysRtSigprocmask(k *Kernel, a sysArgs) (uint64, Errno) {
	how, set, oset, size := a.Int(0), a.Ptr(1), a.Ptr(2), a.Ptr(3)
	if size != 8 {
		return 0, EINVAL
	}
	var ns uint64
	if set != 0 {
		if how != sigBlock && how != sigUnblk && how != sigSet {
			return 0, EINVAL
		}
		v, e := k.readU64(set)
		if e != 0 {
			return 0, e
		}
		ns = v
	}
	if oset != 0 {
		if e := k.writeU64(oset, k.sigMask); e != 0 {
			return 0, e
		}
	}
	if set != 0 {
		switch how {
		case sigBlock:
			k.sigMask |= ns
		case sigUnblk:
			k.sigMask &^= ns
		case sigSet:
			k.sigMask = ns
		}
		k.sigMask &^= unblockable
	}
	return 0, 0
}

func sysRtSigpending(k *Kernel, a sysArgs) (uint64, Errno) {
	if a.Ptr(1) > 8 {
		return 0, EINVAL
	}
	return 0, k.writeU64(a.Ptr(0), k.sigPending&k.sigMask)
}

// sysRtSigreturn returns from a handler; only Ecall has the register
// context it needs.
func sysRtSigreturn(k *Kernel, a sysArgs) (uint64, Errno) {
	if k.cur == nil {
		return 0, ENOSYS
	}
	k.sigreturn(k.cur)
	return k.cur.X[10], 0
}

// sysRtSigsuspend waits for a signal with the mask temporarily replaced;
// the handler's frame saves the original mask, which rt_sigreturn puts
// back.
func sysRtSigsuspend(k *Kernel, a sysArgs) (uint64, Errno) {
	if a.Ptr(1) != 8 {
		return 0, EINVAL
	}
	m, e := k.readU64(a.Ptr(0))
	if e != 0 {
		return 0, e
	}
	k.setTempMask(m)
	return k.waitForSignal("sigsuspend", "rt_sigsuspend waits for a signal that nothing can send; returns EINTR")
}

// waitForSignal blocks the calling thread until a signal it does not
// block is deliverable, and answers EINTR (what a wait that only a
// signal ends returns). In a process of one thread that nothing can
// signal it returns at once, with the warning (once per key).
func (k *Kernel) waitForSignal(key, warning string) (uint64, Errno) {
	if k.multi() && !k.deliverable(0) { // another thread may send the signal (thread.go)
		return k.block("in "+key, 0, 0, -1, func(waitResult) uint64 { return errnoRet(EINTR) })
	}
	// A child may end, and SIGCHLD come (fork.go); with a timer armed the
	// process reaches it by itself, without waiting for its parent.
	for !k.deliverable(0) && k.othersServe(k.nextMonoExpiry()) {
	}
	if k.wait(-1, 0) == waitForever {
		k.warnOnce(key, "rvsim: warning: "+warning)
	}
	return 0, EINTR
}

// setTempMask installs a mask for the duration of a wait (sigsuspend,
// ppoll, pselect6), remembering the current one for restore.
func (k *Kernel) setTempMask(m uint64) {
	if !k.restoreMask {
		k.savedMask, k.restoreMask = k.sigMask, true
	}
	k.sigMask = m &^ unblockable
}

// sysRtSigtimedwait dequeues a pending signal of the set, waiting up to
// the timeout for one. Signals outside the set interrupt the wait (EINTR)
// if they are delivered.
func sysRtSigtimedwait(k *Kernel, a sysArgs) (uint64, Errno) {
	setAddr, infoAddr, tsAddr := a.Ptr(0), a.Ptr(1), a.Ptr(2)
	if a.Ptr(3) != 8 {
		return 0, EINVAL
	}
	set, e := k.readU64(setAddr)
	if e != 0 {
		return 0, e
	}
	set &^= unblockable
	deadline := int64(-1)
	if tsAddr != 0 {
		ts, e := k.readTimespec(tsAddr)
		if e != 0 {
			return 0, e
		}
		deadline = k.monoNS() + ts.ns()
	}
	take := func() (uint64, Errno) {
		p := k.sigPending & set
		sig := bits.TrailingZeros64(p) + 1
		k.sigPending &^= sigBit(sig)
		if infoAddr != 0 {
			info := k.sigInfo[sig]
			if e := k.writeMem(infoAddr, info[:]); e != 0 {
				return 0, e
			}
		}
		return uint64(sig), 0
	}
	if k.sigPending&set != 0 {
		return take()
	}
	if k.multi() && !k.deliverable(set) {
		// Another thread may send one: this one waits (thread.go wakes
		// it for a signal of set), then takes it in its own state when
		// the call starts again.
		t := k.run
		k.block("in rt_sigtimedwait", 0, 0, deadline, func(why waitResult) uint64 {
			st := &t.st // the waiting thread's state, unless it is still the current one
			if t == k.run {
				st = &k.tstate
			}
			switch {
			case why == waitTimeout:
				return errnoRet(EAGAIN)
			case st.sigPending&set == 0: // another signal: its handler runs, the call fails
				return errnoRet(EINTR)
			}
			return errnoRet(errRestartNoIntr)
		})
		t.sigWait = set
		return 0, errBlocked
	}
	switch k.wait(deadline, set) {
	case waitTimeout:
		return 0, EAGAIN
	case waitForever:
		k.warnOnce("sigtimedwait", "rvsim: warning: rt_sigtimedwait waits for a signal that nothing can send; returns EINTR")
		return 0, EINTR
	}
	if k.sigPending&set != 0 {
		return take()
	}
	return 0, EINTR
}

func sysSigaltstack(k *Kernel, a sysArgs) (uint64, Errno) {
	ss, oss := a.Ptr(0), a.Ptr(1)
	sp := k.curSP()
	var ns altStack
	if ss != 0 {
		b, e := k.readMem(ss, stackTSize)
		if e != 0 {
			return 0, e
		}
		ns = altStack{sp: le64(b), flags: u32(b, 8), size: le64(b[16:])}
	}
	old := k.alt
	oldFlags := k.sasFlags(sp) | k.alt.flags&ssAutodisarm
	if ss != 0 {
		if e := k.setAltStack(ns, sp); e != 0 {
			return 0, e
		}
	}
	if oss != 0 {
		b := make([]byte, stackTSize)
		put64(b, 0, old.sp)
		put32(b, 8, oldFlags)
		put64(b, 16, old.size)
		if e := k.writeMem(oss, b); e != 0 {
			return 0, e
		}
	}
	return 0, 0
}

// isSelf reports whether pid names this process for kill(2): its pid, its
// process group (0 or -pgid). pid -1 means every process but the caller,
// which here is none (ESRCH).
func (k *Kernel) signal(sig int32, code int32) (uint64, Errno) {
	if sig < 0 || sig > nsig {
		return 0, EINVAL
	}
	if sig != 0 {
		k.raiseProcess(int(sig), k.senderInfo(sig, code))
	}
	return 0, 0
}

// sysKill sends a signal to a process of the run (pid > 0), to the
// caller's process group (0), to group -pid, or to every process of the
// run but the caller (-1), as kill(2) does; the caller, if it is one of
// them, gets it last. A zombie child accepts and ignores it. Another
// process acts on it at its next turn; a blocked thread there wakes for
// it.
func sysKill(k *Kernel, a sysArgs) (uint64, Errno) {
	pid, sig := a.Int(0), a.Int(1)
	if sig < 0 || sig > nsig {
		return 0, EINVAL
	}
	var targets []*Kernel
	switch {
	case pid > 0:
		if p := k.process(pid); p != nil {
			targets = append(targets, p)
		} else if k.reapable(pid) >= 0 {
			return 0, 0
		}
	default:
		group := -pid
		if pid == 0 {
			group = k.pgid()
		}
		for _, p := range k.all.kernels {
			if !p.exited && (pid == -1 && p != k || pid != -1 && p.pgid() == group) {
				targets = append(targets, p)
			}
		}
	}
	if len(targets) == 0 {
		return 0, ESRCH
	}
	// check_kill_permission for each: one target's refusal is the
	// answer; a group's only when no member took it; kill(-1) ignores
	// refusals (kill_something_info).
	self, sent, refused := false, false, false
	for _, p := range targets {
		if e := k.mayKill(p, sig); e != 0 {
			refused = true
			continue
		}
		sent = true
		if p == k {
			self = true
		} else if sig != 0 {
			p.raiseProcess(int(sig), k.senderInfo(sig, siUser))
		}
	}
	if refused && !sent && pid != -1 {
		return 0, EPERM
	}
	if self {
		return k.signal(sig, siUser)
	}
	return 0, 0
}

// mayKill is check_kill_permission for a signal from the caller to
// process p (kill_ok_by_cred): the caller's real or effective uid is the
// target's real or saved one, or the caller has CAP_KILL; SIGCONT goes to
// any process of the caller's session. Signal 0 is checked too.
func (k *Kernel) mayKill(p *Kernel, sig int32) Errno {
	c, t := &k.cred, &p.cred
	switch {
	case p == k, c.euid == t.suid, c.euid == t.ruid, c.ruid == t.suid, c.ruid == t.ruid, c.capable(capKill):
		return 0
	case sig == sigCONT && p.session() == k.session():
		return 0
	}
	return EPERM
}

// signalThread sends sig to thread tid (tkill, tgkill).
func (k *Kernel) signalThread(tid, sig int32) (uint64, Errno) {
	t := k.find(tid)
	if t == nil {
		return 0, ESRCH
	}
	if sig < 0 || sig > nsig {
		return 0, EINVAL
	}
	if sig != 0 {
		k.raiseOn(t, int(sig), k.senderInfo(sig, siTkill))
	}
	return 0, 0
}

func sysTkill(k *Kernel, a sysArgs) (uint64, Errno) {
	if a.Int(0) <= 0 {
		return 0, EINVAL
	}
	return k.signalThread(a.Int(0), a.Int(1))
}

func sysTgkill(k *Kernel, a sysArgs) (uint64, Errno) {
	if a.Int(0) <= 0 || a.Int(1) <= 0 {
		return 0, EINVAL
	}
	if a.Int(0) != k.pid {
		return 0, ESRCH
	}
	return k.signalThread(a.Int(1), a.Int(2))
}

// queueInfo sends sig with a siginfo from the guest (rt_sigqueueinfo,
// rt_tgsigqueueinfo). Linux refuses a kernel or kill(2) si_code only when
// the target is another process; here it is always the sender itself.
func (k *Kernel) queueInfo(sig int32, addr uint64) (uint64, Errno) {
	b, e := k.readMem(addr, siginfoSize)
	if e != 0 {
		return 0, e
	}
	if sig < 0 || sig > nsig {
		return 0, EINVAL
	}
	if sig == 0 {
		return 0, 0
	}
	var si sigInfo
	copy(si[:], b)
	put32(si[:], 0, uint32(sig))
	k.raiseProcess(int(sig), si)
	return 0, 0
}

func sysRtSigqueueinfo(k *Kernel, a sysArgs) (uint64, Errno) {
	if a.Int(0) != k.pid {
		return 0, ESRCH
	}
	return k.queueInfo(a.Int(1), a.Ptr(2))
}

func sysRtTgsigqueueinfo(k *Kernel, a sysArgs) (uint64, Errno) {
	if a.Int(0) <= 0 || a.Int(1) <= 0 {
		return 0, EINVAL
	}
	if a.Int(0) != k.pid || k.find(a.Int(1)) == nil {
		return 0, ESRCH
	}
	if a.Int(1) != k.run.tid { // a signal for another thread: its siginfo as tgkill's
		return k.signalThread(a.Int(1), a.Int(2))
	}
	return k.queueInfo(a.Int(2), a.Ptr(3))
}
