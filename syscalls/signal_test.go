package syscalls

import (
	"testing"

	"github.com/rvsim/rvsim/mem"
	"github.com/stretchr/testify/require"
)

// Signal delivery through the register-context entry points (Ecall, Trap,
// Interrupt), checked against the layout of Linux riscv64's rt_sigframe
// (arch/riscv/kernel/signal.c) byte by byte.

const (
	stackLo   = 0x7000000
	stackSize = 1 << 20
	stackHi   = stackLo + stackSize
	handlerA  = 0x12340
	handlerB  = 0x56780
)

// sigTK is a kernel with a mapped stack and a register file.
type sigTK struct {
	*tk
	r UserRegs
}

func newSigTK(t *testing.T) *sigTK {
	x := &sigTK{tk: newTK(t, Config{})}
	require.NoError(t, x.m.Map(stackLo, stackSize, mem.RW, "stack"))
	for i := range x.r.X {
		x.r.X[i] = 0x1000 + uint64(i)
	}
	x.r.X[0] = 0
	x.r.X[2] = stackHi - 0x100 + 8 // misaligned on purpose: the frame is aligned down
	for i := range x.r.F {
		x.r.F[i] = 0x4000000000000000 | uint64(i)
	}
	x.r.FCSR = 0x65
	x.r.PC = 0x10000
	return x
}

// ecall performs a system call through Ecall.
func (x *sigTK) ecall(name string, args ...uint64) int64 {
	x.t.Helper()
	x.r.X[17] = nr(x.t, name)
	for i := 0; i < 6; i++ {
		x.r.X[10+i] = 0
		if i < len(args) {
			x.r.X[10+i] = args[i]
		}
	}
	x.r.PC += 4
	x.k.Ecall(&x.r)
	return int64(x.r.X[10])
}

// handle installs a handler with flags and mask.
func (x *sigTK) handle(sig int, handler, flags, mask uint64) {
	x.t.Helper()
	require.Zero(x.t, x.call("rt_sigaction", uint64(sig), x.u64s(handler, flags, mask), 0, 8))
}

func TestTrapSignals(t *testing.T) {
	tests := []struct {
		desc       string
		trap       Trap
		sig, code  int32
		addr       uint64
		mapAddress bool
	}{
		{"illegal instruction", Trap{PC: 0x10000, Cause: causeIllegalInst, Tval: 0xffffffff}, sigILL, illIllopc, 0x10000, false},
		{"ebreak", Trap{PC: 0x10002, Cause: causeBreakpoint}, sigTRAP, trapBrkpt, 0x10002, false},
		{"load from unmapped memory", Trap{PC: 0x10004, Cause: causeLoadAccess, Tval: 0x18}, sigSEGV, segvMaperr, 0x18, false},
		{"store to a read-only page", Trap{PC: 0x10008, Cause: causeStoreAccess, Tval: 0x20000010}, sigSEGV, segvAccerr, 0x20000010, true},
		{"fetch from unmapped memory", Trap{PC: 0x4444, Cause: causeFetchAccess, Tval: 0x4444}, sigSEGV, segvMaperr, 0x4444, false},
		{"misaligned atomic: si_addr is the pc", Trap{PC: 0x1000c, Cause: causeStoreMisaligned, Tval: 0x20000001}, sigBUS, busAdraln, 0x1000c, true},
		{"misaligned load", Trap{PC: 0x10010, Cause: causeLoadMisaligned, Tval: 0x20000003}, sigBUS, busAdraln, 0x10010, true},
	}
	for _, tc := range tests {
		x := newSigTK(t)
		if tc.mapAddress {
			require.NoError(t, x.m.Map(0x20000000, PageSize, mem.R, "ro"))
		}
		x.handle(int(tc.sig), handlerA, saSiginfo, 0)
		x.r.PC = tc.trap.PC
		x.k.Trap(&x.r, tc.trap)
		require.Equal(t, int(tc.sig), x.k.TrapSignal(tc.trap), tc.desc)
		require.Equal(t, uint64(handlerA), x.r.PC, tc.desc)
		info := x.peek(x.r.X[11], siginfoSize)
		require.Equal(t, uint32(tc.sig), u32(info, 0), tc.desc)
		require.Equal(t, uint32(tc.code), u32(info, 8), tc.desc)
		require.Equal(t, tc.addr, le64(info[siAddrOff:]), tc.desc)
		sc := x.r.X[12] + ucMcontextOff
		require.Equal(t, tc.trap.PC, x.u64(sc), "%s: the saved pc is the faulting instruction", tc.desc)
	}
}

// TestSignalFrame checks every field of the frame setup_rt_frame builds.
func TestSignalFrame(t *testing.T) {
	x := newSigTK(t)
	// Fill the stack with a pattern: bytes Linux does not write keep it.
	fill := make([]byte, 0x2000)
	for i := range fill {
		fill[i] = 0xa5
	}
	require.NoError(t, x.m.WriteBytes(stackHi-0x2000, fill))
	x.handle(sigSEGV, handlerA, saSiginfo, 1<<(10-1)) // sa_mask: SIGUSR1
	blocked := uint64(1 << (12 - 1))                  // SIGUSR2 blocked before
	require.Zero(t, x.call("rt_sigprocmask", sigBlock, x.u64s(blocked), 0, 8))
	before := x.r
	x.r.PC = 0x10040
	before.PC = 0x10040
	x.k.Trap(&x.r, Trap{PC: 0x10040, Cause: causeLoadAccess, Tval: 0x8})

	sp := before.X[2]
	frame := (sp - rtSigframeSize) &^ 15
	require.Equal(t, []Range{{SigreturnAddr, 8}, {frame, rtSigframeSize}}, append([]Range(nil), x.k.LastWrites()...),
		"the writes a reference model must copy")
	require.Equal(t, uint64(stackHi-0x100-rtSigframeSize), frame, "sp - sizeof(rt_sigframe), 16-byte aligned")
	require.Equal(t, frame, x.r.X[2], "sp")
	require.Equal(t, uint64(handlerA), x.r.PC, "pc: the handler")
	require.Equal(t, uint64(SigreturnAddr), x.r.X[1], "ra: the sigreturn trampoline")
	require.Equal(t, uint64(sigSEGV), x.r.X[10], "a0: the signal")
	require.Equal(t, frame, x.r.X[11], "a1: &frame->info")
	require.Equal(t, frame+rtSigframeUCOff, x.r.X[12], "a2: &frame->uc")
	for i := 3; i < 32; i++ {
		if i != 10 && i != 11 && i != 12 {
			require.Equal(t, before.X[i], x.r.X[i], "x%d is unchanged", i)
		}
	}
	require.Equal(t, before.F, x.r.F)
	require.Equal(t, before.FCSR, x.r.FCSR)

	b := x.peek(frame, rtSigframeSize)
	uc := b[rtSigframeUCOff:]
	require.Equal(t, uint64(0), le64(uc[ucFlagsOff:]), "uc_flags")
	require.Equal(t, uint64(0), le64(uc[ucLinkOff:]), "uc_link")
	require.Equal(t, uint64(0), le64(uc[ucStackOff:]), "uc_stack.ss_sp")
	require.Equal(t, uint32(ssDisable), u32(uc, ucStackOff+8), "uc_stack.ss_flags: no alternate stack")
	require.Equal(t, []byte{0xa5, 0xa5, 0xa5, 0xa5}, uc[ucStackOff+12:ucStackOff+16], "stack_t padding untouched")
	require.Equal(t, uint64(0), le64(uc[ucStackOff+16:]), "uc_stack.ss_size")
	require.Equal(t, blocked, le64(uc[ucSigmaskOff:]), "uc_sigmask: the mask before delivery")
	require.Equal(t, byte(0xa5), uc[ucSigmaskOff+8], "the rest of the 1024-bit sigset area is untouched")
	sc := uc[ucMcontextOff:]
	require.Equal(t, uint64(0x10040), le64(sc), "sc_regs.pc")
	for i := 1; i < 32; i++ {
		require.Equal(t, before.X[i], le64(sc[8*i:]), "sc_regs x%d", i)
	}
	fp := sc[scFPOff:]
	for i := 0; i < 32; i++ {
		require.Equal(t, before.F[i], le64(fp[8*i:]), "f%d", i)
	}
	require.Equal(t, uint32(0x65), u32(fp, fpFcsrOff), "fcsr")
	require.Equal(t, uint32(0), u32(fp, fpFcsrOff+4), "d-state padding")
	require.Equal(t, byte(0xa5), fp[fpFcsrOff+8], "the Q-extension area above the D state is untouched")
	require.Equal(t, uint32(0), u32(fp, fpReservedOff), "reserved word")
	require.Equal(t, uint64(0), le64(fp[fpExtHdrOff:]), "END header: magic 0, size 0")

	// The handler runs with its sa_mask and the signal itself blocked.
	mask := x.alloc(8)
	require.Zero(t, x.call("rt_sigprocmask", sigBlock, 0, mask, 8))
	require.Equal(t, blocked|1<<(10-1)|1<<(sigSEGV-1), x.u64(mask))

	// The trampoline: li a7, 139; ecall, read+execute.
	r, ok := x.m.RegionAt(SigreturnAddr)
	require.True(t, ok)
	require.Equal(t, mem.R|mem.X, r.Perm)
	require.Equal(t, []byte{0x93, 0x08, 0xb0, 0x08, 0x73, 0x00, 0x00, 0x00}, x.peek(SigreturnAddr, 8))
}

// TestSigreturnRestoresEverything: rt_sigreturn restores pc, every
// register, the FP state and the mask from the (possibly edited) frame.
func TestSigreturnRestoresEverything(t *testing.T) {
	x := newSigTK(t)
	x.handle(sigILL, handlerA, saSiginfo, 0)
	before := x.r
	x.k.Trap(&x.r, Trap{PC: x.r.PC, Cause: causeIllegalInst})
	frame := x.r.X[2]
	sc := frame + rtSigframeUCOff + ucMcontextOff
	// The handler skips the instruction and changes s2 and f9.
	require.NoError(t, x.m.WriteBytes(sc, le(before.PC+4)))
	require.NoError(t, x.m.WriteBytes(sc+8*18, le(0x5eed)))
	require.NoError(t, x.m.WriteBytes(sc+scFPOff+8*9, le(0x3ff0000000000000)))
	// The handler's own code clobbers registers before returning.
	for i := 3; i < 32; i++ {
		x.r.X[i] = 0xdead
	}
	x.r.PC = SigreturnAddr
	x.ecall("rt_sigreturn")
	want := before
	want.PC = before.PC + 4
	want.X[18] = 0x5eed
	want.F[9] = 0x3ff0000000000000
	require.Equal(t, want, x.r)
	mask := x.alloc(8)
	require.Zero(t, x.call("rt_sigprocmask", sigBlock, 0, mask, 8))
	require.Zero(t, x.u64(mask), "the mask before the signal")
}

func TestBadSigreturnFrameIsSIGSEGV(t *testing.T) {
	tests := []struct {
		desc  string
		spoil func(x *sigTK, frame uint64)
	}{
		{"reserved word", func(x *sigTK, frame uint64) {
			require.NoError(x.t, x.m.WriteBytes(frame+rtSigframeUCOff+ucMcontextOff+scFPOff+fpReservedOff, []byte{1}))
		}},
		{"a V-extension header (this hart has no V)", func(x *sigTK, frame uint64) {
			require.NoError(x.t, x.m.WriteBytes(frame+rtSigframeUCOff+ucMcontextOff+scFPOff+fpExtHdrOff, []byte{0x54, 0x57, 0x46, 0x53}))
		}},
		{"unmapped frame", func(x *sigTK, frame uint64) { x.r.X[2] = 0x100 }},
	}
	for _, tc := range tests {
		x := newSigTK(t)
		x.handle(sigUSR1, handlerA, 0, 0)
		require.Equal(t, int64(sigUSR1), x.ecall("kill", fixedPID, sigUSR1), "a0 in the handler")
		require.Equal(t, uint64(handlerA), x.r.PC, tc.desc)
		tc.spoil(x, x.r.X[2])
		x.ecall("rt_sigreturn")
		code, ok := x.k.Exited()
		require.True(t, ok, tc.desc)
		require.Equal(t, 128+sigSEGV, code, tc.desc)
	}
}

const (
	sigUSR1 = 10
	sigUSR2 = 12
)

// TestDeliveryAfterSyscall: a signal sent by a system call is delivered
// when it returns; the frame saves its result and the pc after ecall.
func TestDeliveryAfterSyscall(t *testing.T) {
	x := newSigTK(t)
	x.handle(sigUSR1, handlerA, saSiginfo, 0)
	pc := x.r.PC
	require.Equal(t, int64(sigUSR1), x.ecall("tgkill", fixedPID, fixedPID, sigUSR1), "a0 is the signal in the handler")
	require.Equal(t, uint64(handlerA), x.r.PC)
	frame := x.r.X[2]
	info := x.peek(frame, siginfoSize)
	require.Equal(t, uint32(0xfffffffa), u32(info, 8), "SI_TKILL")
	require.Equal(t, uint32(fixedPID), u32(info, siPidOff))
	sc := frame + rtSigframeUCOff + ucMcontextOff
	require.Equal(t, pc+4, x.u64(sc), "resumes after the ecall")
	require.Equal(t, uint64(0), x.u64(sc+8*10), "a0: tgkill's result")
}

// TestNestedFramesAndOrder: two deliverable signals get two frames; the
// lower-numbered is set up first, so the other's handler runs first and
// returns into it.
func TestNestedFramesAndOrder(t *testing.T) {
	x := newSigTK(t)
	x.handle(sigUSR1, handlerA, 0, 0)
	x.handle(sigUSR2, handlerB, 0, 0)
	require.Zero(t, x.call("rt_sigprocmask", sigBlock, x.u64s(1<<(sigUSR1-1)|1<<(sigUSR2-1)), 0, 8))
	require.Zero(t, x.ecall("kill", fixedPID, sigUSR2))
	require.Zero(t, x.ecall("kill", fixedPID, sigUSR1))
	x.ecall("rt_sigprocmask", sigSet, x.u64s(0), 0, 8)
	require.Equal(t, uint64(handlerB), x.r.PC, "SIGUSR2's frame is on top")
	outer := x.r.X[2] + rtSigframeUCOff + ucMcontextOff
	require.Equal(t, uint64(handlerA), x.u64(outer), "it returns into SIGUSR1's handler")
	require.Equal(t, uint64(SigreturnAddr), x.u64(outer+8), "whose ra is the trampoline")
}

// TestMaskFlags: SA_NODEFER, SA_RESETHAND, and a blocked fault signal
// (forced: the process dies).
func TestMaskFlags(t *testing.T) {
	x := newSigTK(t)
	x.handle(sigUSR1, handlerA, saNodefer|saResethand, 0)
	x.ecall("kill", fixedPID, sigUSR1)
	require.Equal(t, uint64(handlerA), x.r.PC)
	mask := x.alloc(8)
	require.Zero(t, x.call("rt_sigprocmask", sigBlock, 0, mask, 8))
	require.Zero(t, x.u64(mask), "SA_NODEFER: the signal is not blocked")
	old := x.alloc(sigactionSize)
	require.Zero(t, x.call("rt_sigaction", sigUSR1, 0, old, 8))
	require.Equal(t, uint64(sigDFL), x.u64(old), "SA_RESETHAND: the handler is reset")

	x = newSigTK(t)
	x.handle(sigSEGV, handlerA, 0, 0)
	require.Zero(t, x.call("rt_sigprocmask", sigBlock, x.u64s(1<<(sigSEGV-1)), 0, 8))
	x.k.Trap(&x.r, Trap{PC: x.r.PC, Cause: causeLoadAccess, Tval: 0})
	code, ok := x.k.Exited()
	require.True(t, ok, "a blocked SIGSEGV from a fault kills")
	require.Equal(t, 139, code)

	x = newSigTK(t)
	x.handle(sigILL, sigIGN, 0, 0)
	x.k.Trap(&x.r, Trap{PC: x.r.PC, Cause: causeIllegalInst})
	code, ok = x.k.Exited()
	require.True(t, ok, "an ignored SIGILL from a fault kills")
	require.Equal(t, 132, code)
}

// TestAltStack: SA_ONSTACK puts the frame at the top of the alternate
// stack; sigaltstack inside reports SS_ONSTACK and refuses changes; a
// frame that would overflow it, or a stack that cannot be written, is
// SIGSEGV.
func TestAltStack(t *testing.T) {
	x := newSigTK(t)
	const alt, altSize = stackLo + 0x1000, 0x4000
	ss := x.alloc(stackTSize)
	require.NoError(t, x.m.WriteBytes(ss, append(append(le(alt), 0, 0, 0, 0, 0, 0, 0, 0), le(altSize)...)))
	require.Zero(t, x.call("sigaltstack", ss, 0))
	x.handle(sigUSR1, handlerA, saOnstack, 0)
	x.ecall("kill", fixedPID, sigUSR1)
	frame := x.r.X[2]
	require.Equal(t, uint64((alt+altSize-rtSigframeSize)&^15), frame)
	uc := frame + rtSigframeUCOff
	require.Equal(t, uint64(alt), x.u64(uc+ucStackOff))
	require.Equal(t, uint32(0), x.u32(uc+ucStackOff+8), "ss_flags as set")
	require.Equal(t, uint64(altSize), x.u64(uc+ucStackOff+16))

	oss := x.alloc(stackTSize)
	require.Zero(t, x.ecall("sigaltstack", 0, oss))
	require.Equal(t, uint32(ssOnstack), x.u32(oss+8), "on the alternate stack")
	require.Equal(t, errno(EPERM), x.ecall("sigaltstack", ss, 0), "no change while on it")

	// Nested: a second signal on the alternate stack goes below the first frame.
	x.handle(sigUSR2, handlerB, saOnstack, 0)
	x.ecall("kill", fixedPID, sigUSR2)
	require.Equal(t, (frame-rtSigframeSize)&^15, x.r.X[2])

	// Near the bottom of the alternate stack: the frame would overflow it.
	x.r.X[2] = alt + 0x100
	x.handle(sigHUP, handlerA, saOnstack, 0)
	x.ecall("kill", fixedPID, sigHUP)
	code, ok := x.k.Exited()
	require.True(t, ok)
	require.Equal(t, 139, code, "SIGSEGV")

	x = newSigTK(t)
	x.handle(sigUSR1, handlerA, 0, 0)
	x.r.X[2] = 0x5000 // unmapped
	x.ecall("kill", fixedPID, sigUSR1)
	code, ok = x.k.Exited()
	require.True(t, ok)
	require.Equal(t, 139, code, "no room for the frame: SIGSEGV")
}

func TestAltStackAutodisarm(t *testing.T) {
	x := newSigTK(t)
	const alt, altSize = stackLo + 0x1000, 0x4000
	ss := x.alloc(stackTSize)
	b := append(append(le(alt), le(ssAutodisarm)...), le(altSize)...)
	require.NoError(t, x.m.WriteBytes(ss, b))
	require.Zero(t, x.call("sigaltstack", ss, 0))
	x.handle(sigUSR1, handlerA, saOnstack, 0)
	x.ecall("kill", fixedPID, sigUSR1)
	uc := x.r.X[2] + rtSigframeUCOff
	require.Equal(t, uint32(ssAutodisarm), x.u32(uc+ucStackOff+8), "saved with its flags")
	oss := x.alloc(stackTSize)
	require.Zero(t, x.ecall("sigaltstack", 0, oss))
	require.Equal(t, uint32(ssDisable), x.u32(oss+8), "disarmed during the handler")
	x.r.PC = SigreturnAddr
	x.ecall("rt_sigreturn")
	require.Zero(t, x.ecall("sigaltstack", 0, oss))
	require.Equal(t, uint32(ssAutodisarm), x.u32(oss+8), "rt_sigreturn restores it")
	require.Equal(t, uint64(alt), x.u64(oss))
}

// TestRestartRules: a wait a signal interrupts is restarted after a
// handler with SA_RESTART (pc back on the ecall, a0 its first argument),
// and fails with EINTR otherwise.
func TestRestartRules(t *testing.T) {
	for _, restart := range []bool{false, true} {
		x := newSigTK(t)
		flags := uint64(0)
		if restart {
			flags = saRestart
		}
		x.handle(sigALRM, handlerA, flags, 0)
		it := x.u64s(0, 0, 0, 1000) // 1 ms, once
		require.Zero(t, x.ecall("setitimer", itimerReal, it, 0))
		word := x.alloc(4)
		ecallPC := x.r.PC + 4
		x.ecall("futex", word, futexWait, 0, 0) // no timeout: only the alarm ends it
		require.Equal(t, uint64(handlerA), x.r.PC)
		sc := x.r.X[2] + rtSigframeUCOff + ucMcontextOff
		if restart {
			require.Equal(t, ecallPC-4, x.u64(sc), "SA_RESTART: back on the ecall")
			require.Equal(t, word, x.u64(sc+8*10), "with a0 restored")
		} else {
			require.Equal(t, ecallPC, x.u64(sc))
			require.Equal(t, uint64(errnoRet(EINTR)), x.u64(sc+8*10))
		}
		mono, _ := x.k.now(clockMonotonic)
		require.GreaterOrEqual(t, mono, int64(1e6), "time passed to the alarm")
	}
}

// TestIntervalTimers: expiries are exact instruction counts; periodic
// timers reload; the default action of SIGALRM ends the process.
func TestIntervalTimers(t *testing.T) {
	x := newSigTK(t)
	x.handle(sigALRM, handlerA, saSiginfo, 0)
	x.k.SetInstret(5000)
	require.Zero(t, x.ecall("setitimer", itimerReal, x.u64s(0, 250, 0, 1000), 0)) // 1 ms, then every 250 µs
	at, ok := x.k.NextTimer()
	require.True(t, ok)
	require.Equal(t, uint64(5000+1000000), at)
	require.False(t, x.k.Interrupt(&x.r, at-1), "not yet")
	cur := x.alloc(itimervalSize)
	require.Zero(t, x.call("getitimer", itimerReal, cur))
	require.Equal(t, []uint64{0, 250, 0, 0}, []uint64{x.u64(cur), x.u64(cur + 8), x.u64(cur + 16), x.u64(cur + 24)},
		"1 ns left shows as 0 µs")
	require.True(t, x.k.Interrupt(&x.r, at))
	require.Equal(t, uint64(handlerA), x.r.PC)
	info := x.peek(x.r.X[11], siginfoSize)
	require.Equal(t, uint32(sigALRM), u32(info, 0))
	require.Equal(t, uint32(siKernel), u32(info, 8))
	at2, ok := x.k.NextTimer()
	require.True(t, ok)
	require.Equal(t, at+250000, at2, "reloaded")

	// ITIMER_VIRTUAL counts instructions only; sleeping does not advance it.
	x.handle(sigVTALRM, handlerB, 0, 0)
	require.Zero(t, x.ecall("setitimer", itimerReal, x.u64s(0, 0, 0, 0), 0), "disarm the real timer")
	x.k.SetInstret(at)
	require.Zero(t, x.ecall("setitimer", itimerVirtual, x.u64s(0, 0, 0, 10), 0))
	require.Zero(t, x.ecall("nanosleep", x.u64s(5, 0), 0))
	vt, ok := x.k.NextTimer()
	require.True(t, ok)
	require.Equal(t, at+10000, vt)
	require.True(t, x.k.Interrupt(&x.r, vt))
	require.Equal(t, uint64(handlerB), x.r.PC)
	_, ok = x.k.NextTimer()
	require.False(t, ok, "one-shot")

	// Invalid arguments.
	require.Equal(t, errno(EINVAL), x.ecall("setitimer", 3, x.u64s(0, 0, 0, 1), 0))
	require.Equal(t, errno(EINVAL), x.ecall("setitimer", itimerReal, x.u64s(0, 0, 0, 1000000), 0))

	// The default action.
	x = newSigTK(t)
	require.Zero(t, x.ecall("setitimer", itimerProf, x.u64s(0, 0, 0, 1), 0))
	at, _ = x.k.NextTimer()
	require.Equal(t, uint64(1000), at)
	x.k.Interrupt(&x.r, at)
	sig, name, ok := x.k.FatalSignal()
	require.True(t, ok)
	require.Equal(t, sigPROF, sig)
	require.Equal(t, "Profiling timer expired", name)
}

// TestWaitsInterruptedByTimers: sleeps, pause (ppoll), sigsuspend and
// sigtimedwait against an armed ITIMER_REAL.
func TestWaitsInterruptedByTimers(t *testing.T) {
	x := newSigTK(t)
	x.handle(sigALRM, handlerA, 0, 0)
	arm := func(us uint64) {
		require.Zero(t, x.ecall("setitimer", itimerReal, x.u64s(0, 0, 0, us), 0))
	}
	back := func() { x.r.PC = SigreturnAddr; x.ecall("rt_sigreturn") }

	arm(50000)
	rem := x.alloc(timespecSize)
	x.ecall("nanosleep", x.u64s(1, 0), rem)
	sc := x.r.X[2] + rtSigframeUCOff + ucMcontextOff
	require.Equal(t, uint64(errnoRet(EINTR)), x.u64(sc+8*10), "nanosleep returns EINTR")
	require.Equal(t, uint64(0), x.u64(rem))
	require.InDelta(t, 950e6, float64(x.u64(rem+8)), 1e3, "the time left")
	back()

	arm(1000)
	x.ecall("ppoll", 0, 0, 0, 0, 8) // pause()
	sc = x.r.X[2] + rtSigframeUCOff + ucMcontextOff
	require.Equal(t, uint64(errnoRet(EINTR)), x.u64(sc+8*10))
	back()

	// sigsuspend: the frame saves the mask from before the call.
	require.Zero(t, x.ecall("rt_sigprocmask", sigBlock, x.u64s(1<<(sigALRM-1)), 0, 8))
	arm(1000)
	x.ecall("rt_sigsuspend", x.u64s(0), 8)
	require.Equal(t, uint64(handlerA), x.r.PC)
	uc := x.r.X[2] + rtSigframeUCOff
	require.Equal(t, uint64(1<<(sigALRM-1)), x.u64(uc+ucSigmaskOff))
	back()
	mask := x.alloc(8)
	require.Zero(t, x.ecall("rt_sigprocmask", sigBlock, 0, mask, 8))
	require.Equal(t, uint64(1<<(sigALRM-1)), x.u64(mask))

	// sigtimedwait takes the (blocked) alarm without running the handler.
	arm(2000)
	pc := x.r.PC
	info := x.alloc(siginfoSize)
	require.Equal(t, int64(sigALRM), x.ecall("rt_sigtimedwait", x.u64s(1<<(sigALRM-1)), info, 0, 8))
	require.Equal(t, pc+4, x.r.PC, "no handler ran")
	require.Equal(t, uint32(siKernel), x.u32(info+8))
	require.Equal(t, errno(EAGAIN), x.ecall("rt_sigtimedwait", x.u64s(1<<(sigALRM-1)), 0, x.u64s(0, 1000), 8))

	// Nothing can end the wait: a warning, EINTR.
	require.Equal(t, errno(EINTR), x.ecall("rt_sigsuspend", x.u64s(0), 8))
	require.Contains(t, x.warn.String(), "rt_sigsuspend waits for a signal that nothing can send")
}

// TestKillInfo: the siginfo of kill, tkill and rt_sigqueueinfo.
func TestKillInfo(t *testing.T) {
	tests := []struct {
		desc string
		send func(x *sigTK) int64
		code uint32
		val  uint64
	}{
		{"kill: SI_USER", func(x *sigTK) int64 { return x.ecall("kill", fixedPID, sigUSR1) }, siUser, 0},
		{"tkill: SI_TKILL", func(x *sigTK) int64 { return x.ecall("tkill", fixedPID, sigUSR1) }, 0xfffffffa, 0},
		{"rt_sigqueueinfo: the caller's siginfo", func(x *sigTK) int64 {
			si := make([]byte, siginfoSize)
			put32(si, 8, 0xffffffff) // SI_QUEUE
			put64(si, 24, 4242)
			return x.ecall("rt_sigqueueinfo", fixedPID, sigUSR1, x.data(si))
		}, 0xffffffff, 4242},
	}
	for _, tc := range tests {
		x := newSigTK(t)
		x.handle(sigUSR1, handlerA, saSiginfo, 0)
		require.Equal(t, int64(sigUSR1), tc.send(x), tc.desc)
		info := x.peek(x.r.X[11], siginfoSize)
		require.Equal(t, uint32(sigUSR1), u32(info, 0), tc.desc)
		require.Equal(t, tc.code, u32(info, 8), tc.desc)
		require.Equal(t, tc.val, le64(info[24:]), tc.desc)
	}
	x := newSigTK(t)
	require.Equal(t, errno(ESRCH), x.ecall("rt_sigqueueinfo", 0, sigUSR1, x.alloc(siginfoSize)))
	require.Equal(t, errno(EFAULT), x.ecall("rt_sigqueueinfo", fixedPID, sigUSR1, 0))
}

// TestSigreturnWithoutContext: through Syscall (no registers) rt_sigreturn
// cannot work.
func TestSigreturnWithoutContext(t *testing.T) {
	x := newTK(t, Config{})
	require.Equal(t, errno(ENOSYS), x.call("rt_sigreturn"))
}
