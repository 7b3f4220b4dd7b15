package syscalls

import (
	"os"
	"strconv"
)

// --- exit -----------------------------------------------------------------

func sysExit(k *Kernel, a sysArgs) (uint64, Errno) {
	// One thread: exit ends the process like exit_group.
	k.exited, k.exitCode = true, int(a.Int(0)&0xff)
	return 0, 0
}

// --- signals ------------------------------------------------------------------

const (
	nsig     = 64
	sigKILL  = 9
	sigSTOP  = 19
	sigPIPE  = 13
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

type sigAction struct {
	handler, flags, mask uint64
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
// it. Stop signals are also treated as ignored (there is no job control).
func defaultIgnored(sig int) bool {
	switch sig {
	case 17, 18, 23, 28, // SIGCHLD, SIGCONT, SIGURG, SIGWINCH
		19, 20, 21, 22: // SIGSTOP, SIGTSTP, SIGTTIN, SIGTTOU
		return true
	}
	return false
}

func sigBit(sig int) uint64 { return 1 << (sig - 1) }

// raise sends sig to the process: delivered now, or left pending while
// blocked.
func (k *Kernel) raise(sig int) {
	if k.sigMask&sigBit(sig) != 0 && sig != sigKILL && sig != sigSTOP {
		k.sigPending |= sigBit(sig)
		return
	}
	k.deliver(sig)
}

// deliver applies sig's action. Handlers are not run (signal delivery to
// guest code is not implemented): a handled signal acts as its default,
// with a warning.
func (k *Kernel) deliver(sig int) {
	act := k.sig[sig]
	if sig != sigKILL && act.handler == sigIGN {
		return
	}
	if act.handler != sigDFL && sig != sigKILL {
		k.warnOnce("handler "+strconv.Itoa(sig),
			"rvsim: warning: signal %d (%s) has a handler; handlers are not run, default action taken", sig, SignalName(sig))
	}
	if defaultIgnored(sig) {
		return
	}
	k.exited, k.exitCode, k.fatalSig = true, 128+sig, sig
}

// deliverPending delivers pending signals that are no longer blocked.
func (k *Kernel) deliverPending() {
	for sig := 1; sig <= nsig && !k.exited; sig++ {
		if b := sigBit(sig); k.sigPending&b != 0 && k.sigMask&b == 0 {
			k.sigPending &^= b
			k.deliver(sig)
		}
	}
}

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
		na = sigAction{le64(b), le64(b[8:]), le64(b[16:])}
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
		if na.handler == sigIGN || (na.handler == sigDFL && defaultIgnored(sig)) {
			k.sigPending &^= sigBit(sig) // POSIX: discard pending ignored signals
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
		k.sigMask &^= sigBit(sigKILL) | sigBit(sigSTOP)
		k.deliverPending()
	}
	return 0, 0
}

func sysRtSigpending(k *Kernel, a sysArgs) (uint64, Errno) {
	if a.Ptr(1) > 8 {
		return 0, EINVAL
	}
	return 0, k.writeU64(a.Ptr(0), k.sigPending&k.sigMask)
}

func sysSigaltstack(k *Kernel, a sysArgs) (uint64, Errno) {
	ss, oss := a.Ptr(0), a.Ptr(1)
	var nw [3]uint64
	if ss != 0 {
		b, e := k.readMem(ss, stackTSize)
		if e != 0 {
			return 0, e
		}
		nw = [3]uint64{le64(b), uint64(uint32(le64(b[8:]))), le64(b[16:])}
		flags := uint32(nw[1])
		mode := flags &^ ssAutodisarm
		if mode != 0 && mode != ssDisable && mode != ssOnstack {
			return 0, EINVAL
		}
		if mode == ssDisable {
			nw = [3]uint64{0, ssDisable, 0}
		} else if nw[2] < minSigStkSize {
			return 0, ENOMEM
		}
	}
	if oss != 0 {
		cur := k.altStack
		if cur[1] == 0 && cur[2] == 0 {
			cur[1] = ssDisable
		}
		b := make([]byte, stackTSize)
		put64(b, 0, cur[0])
		put32(b, 8, uint32(cur[1]))
		put64(b, 16, cur[2])
		if e := k.writeMem(oss, b); e != 0 {
			return 0, e
		}
	}
	if ss != 0 {
		k.altStack = nw
	}
	return 0, 0
}

// isSelf reports whether pid names this process for kill(2): its pid, its
// process group (0 or -pgid). pid -1 means every process but the caller,
// which here is none (ESRCH).
func isSelf(pid int32) bool {
	return pid == fixedPID || pid == 0 || pid == -fixedPID
}

func (k *Kernel) signal(sig int32) (uint64, Errno) {
	if sig < 0 || sig > nsig {
		return 0, EINVAL
	}
	if sig != 0 {
		k.raise(int(sig))
	}
	return 0, 0
}

func sysKill(k *Kernel, a sysArgs) (uint64, Errno) {
	if !isSelf(a.Int(0)) {
		return 0, ESRCH
	}
	return k.signal(a.Int(1))
}

func sysTkill(k *Kernel, a sysArgs) (uint64, Errno) {
	if a.Int(0) <= 0 {
		return 0, EINVAL
	}
	if a.Int(0) != fixedPID {
		return 0, ESRCH
	}
	return k.signal(a.Int(1))
}

func sysTgkill(k *Kernel, a sysArgs) (uint64, Errno) {
	if a.Int(0) <= 0 || a.Int(1) <= 0 {
		return 0, EINVAL
	}
	if a.Int(0) != fixedPID || a.Int(1) != fixedPID {
		return 0, ESRCH
	}
	return k.signal(a.Int(2))
}

// --- identity ---------------------------------------------------------------

func sysGetpid(k *Kernel, a sysArgs) (uint64, Errno)  { return fixedPID, 0 }
func sysGetppid(k *Kernel, a sysArgs) (uint64, Errno) { return fixedPPID, 0 }
func sysGetuid(k *Kernel, a sysArgs) (uint64, Errno)  { return uint64(uint32(os.Getuid())), 0 }
func sysGeteuid(k *Kernel, a sysArgs) (uint64, Errno) { return uint64(uint32(os.Geteuid())), 0 }
func sysGetgid(k *Kernel, a sysArgs) (uint64, Errno)  { return uint64(uint32(os.Getgid())), 0 }
func sysGetegid(k *Kernel, a sysArgs) (uint64, Errno) { return uint64(uint32(os.Getegid())), 0 }

func sysGetpgid(k *Kernel, a sysArgs) (uint64, Errno) {
	if p := a.Int(0); p != 0 && p != fixedPID {
		return 0, ESRCH
	}
	return fixedPID, 0
}

func sysGetresuid(k *Kernel, a sysArgs) (uint64, Errno) {
	return 0, k.putIDs(a, uint32(os.Getuid()), uint32(os.Geteuid()))
}

func sysGetresgid(k *Kernel, a sysArgs) (uint64, Errno) {
	return 0, k.putIDs(a, uint32(os.Getgid()), uint32(os.Getegid()))
}

func (k *Kernel) putIDs(a sysArgs, real, eff uint32) Errno {
	for i, v := range [3]uint32{real, eff, eff} {
		if e := k.writeU32(a.Ptr(i), v); e != 0 {
			return e
		}
	}
	return 0
}

func sysGetgroups(k *Kernel, a sysArgs) (uint64, Errno) {
	if a.Int(0) < 0 {
		return 0, EINVAL
	}
	return 0, 0
}

func sysSetTidAddress(k *Kernel, a sysArgs) (uint64, Errno) {
	k.clearTID = a.Ptr(0)
	return fixedPID, 0
}

func sysSetRobustList(k *Kernel, a sysArgs) (uint64, Errno) {
	if a.Ptr(1) != 24 { // sizeof(struct robust_list_head)
		return 0, EINVAL
	}
	k.robustList = a.Ptr(0)
	return 0, 0
}

func sysUname(k *Kernel, a sysArgs) (uint64, Errno) {
	b := make([]byte, utsnameSize)
	for i, s := range [...]string{"Linux", nodeName, release, version, "riscv64", "(none)"} {
		copy(b[i*utsFieldLen:], s)
	}
	return 0, k.writeMem(a.Ptr(0), b)
}

// prctl options
const (
	prGetDumpable = 3
	prSetDumpable = 4
	prSetName     = 15
	prGetName     = 16
)

func sysPrctl(k *Kernel, a sysArgs) (uint64, Errno) {
	switch a.Int(0) {
	case prSetName:
		s, err := k.mem.ReadCString(a.Ptr(1), 16)
		if err != nil {
			b, e := k.readMem(a.Ptr(1), 15)
			if e != 0 {
				return 0, e
			}
			s = string(b)
		}
		k.comm = s
		return 0, 0
	case prGetName:
		b := make([]byte, 16)
		copy(b, k.comm)
		return 0, k.writeMem(a.Ptr(1), b)
	case prGetDumpable:
		return 1, 0
	case prSetDumpable:
		return 0, 0
	}
	return 0, EINVAL
}

// --- resource limits ------------------------------------------------------------

const (
	rlimitStack  = 3
	rlimitNofile = 7
	rlimitCount  = 16
	rlimInfinity = ^uint64(0)
)

type rlimit struct{ cur, max uint64 }

func (k *Kernel) initRlimits() {
	for i := range k.rlim {
		k.rlim[i] = rlimit{rlimInfinity, rlimInfinity}
	}
	k.rlim[rlimitStack] = rlimit{StackSize, rlimInfinity}
	k.rlim[4] = rlimit{0, rlimInfinity} // RLIMIT_CORE
	k.rlim[6] = rlimit{63459, 63459}    // RLIMIT_NPROC
	k.rlim[rlimitNofile] = rlimit{1024, 4096}
	k.rlim[8] = rlimit{8 << 20, 8 << 20} // RLIMIT_MEMLOCK
	k.rlim[11] = rlimit{63459, 63459}    // RLIMIT_SIGPENDING
	k.rlim[12] = rlimit{819200, 819200}  // RLIMIT_MSGQUEUE
	k.rlim[13] = rlimit{0, 0}            // RLIMIT_NICE
	k.rlim[14] = rlimit{0, 0}            // RLIMIT_RTPRIO
}

// prlimit reads and/or sets limit res.
func (k *Kernel) prlimit(res uint32, newAddr, oldAddr uint64) Errno {
	if res >= rlimitCount {
		return EINVAL
	}
	var nl rlimit
	if newAddr != 0 {
		b, e := k.readMem(newAddr, rlimitSize)
		if e != 0 {
			return e
		}
		nl = rlimit{le64(b), le64(b[8:])}
		if nl.cur > nl.max {
			return EINVAL
		}
		if nl.max > k.rlim[res].max {
			return EPERM
		}
	}
	if oldAddr != 0 {
		b := make([]byte, rlimitSize)
		put64(b, 0, k.rlim[res].cur)
		put64(b, 8, k.rlim[res].max)
		if e := k.writeMem(oldAddr, b); e != 0 {
			return e
		}
	}
	if newAddr != 0 {
		k.rlim[res] = nl
	}
	return 0
}

func sysPrlimit64(k *Kernel, a sysArgs) (uint64, Errno) {
	if p := a.Int(0); p != 0 && p != fixedPID {
		return 0, ESRCH
	}
	return 0, k.prlimit(a.Uint(1), a.Ptr(2), a.Ptr(3))
}

func sysGetrlimit(k *Kernel, a sysArgs) (uint64, Errno) {
	return 0, k.prlimit(a.Uint(0), 0, a.Ptr(1))
}

func sysSetrlimit(k *Kernel, a sysArgs) (uint64, Errno) {
	return 0, k.prlimit(a.Uint(0), a.Ptr(1), 0)
}

// --- scheduling, futex ------------------------------------------------------------

func sysSchedGetaffinity(k *Kernel, a sysArgs) (uint64, Errno) {
	if p := a.Int(0); p != 0 && p != fixedPID {
		return 0, ESRCH
	}
	size := a.Ptr(1)
	if size < 8 || size&7 != 0 {
		return 0, EINVAL
	}
	b := make([]byte, 8)
	b[0] = 1 // CPU 0 only
	if e := k.writeMem(a.Ptr(2), b); e != 0 {
		return 0, e
	}
	return 8, 0
}

func sysSchedSetaffinity(k *Kernel, a sysArgs) (uint64, Errno) {
	if p := a.Int(0); p != 0 && p != fixedPID {
		return 0, ESRCH
	}
	return 0, 0
}

func sysSchedYield(k *Kernel, a sysArgs) (uint64, Errno) { return 0, 0 }

func sysGetcpu(k *Kernel, a sysArgs) (uint64, Errno) {
	for i := 0; i < 2; i++ {
		if a.Ptr(i) != 0 {
			if e := k.writeU32(a.Ptr(i), 0); e != 0 {
				return 0, e
			}
		}
	}
	return 0, 0
}

// futex operations
const (
	futexWait         = 0
	futexWake         = 1
	futexRequeue      = 3
	futexCmpRequeue   = 4
	futexWakeOp       = 5
	futexWaitBitset   = 9
	futexWakeBitset   = 10
	futexPrivate      = 128
	futexClockRealtm  = 256
	futexOpOpArgShift = 0x8 // FUTEX_OP_OPARG_SHIFT flag in the op field
)

func sysFutex(k *Kernel, a sysArgs) (uint64, Errno) {
	uaddr, op, val, timeout, uaddr2, val3 := a.Ptr(0), a.Int(1), a.Uint(2), a.Ptr(3), a.Ptr(4), a.Uint(5)
	cmd := op &^ (futexPrivate | futexClockRealtm)
	if uaddr&3 != 0 {
		return 0, EINVAL
	}
	switch cmd {
	case futexWait, futexWaitBitset:
		if cmd == futexWaitBitset && val3 == 0 {
			return 0, EINVAL
		}
		cur, e := k.readU32(uaddr)
		if e != 0 {
			return 0, e
		}
		if cur != val {
			return 0, EAGAIN
		}
		// Nobody else can change *uaddr: the wait can only time out.
		if timeout == 0 {
			k.warnOnce("futex wait", "rvsim: warning: futex wait with no other thread to wake it returns EINTR")
			return 0, EINTR
		}
		ts, e := k.readTimespec(timeout)
		if e != 0 {
			return 0, e
		}
		d := ts.ns()
		if cmd == futexWaitBitset { // absolute deadline
			clock := int32(clockMonotonic)
			if op&futexClockRealtm != 0 {
				clock = clockRealtime
			}
			now, _ := k.now(clock)
			d -= now
		}
		k.sleep(d)
		return 0, ETIMEDOUT
	case futexWake, futexWakeBitset:
		if cmd == futexWakeBitset && val3 == 0 {
			return 0, EINVAL
		}
		return 0, 0
	case futexRequeue:
		return 0, 0
	case futexCmpRequeue:
		cur, e := k.readU32(uaddr)
		if e != 0 {
			return 0, e
		}
		if cur != val3 {
			return 0, EAGAIN
		}
		return 0, 0
	case futexWakeOp:
		return 0, k.futexOp(uaddr2, val3)
	}
	return 0, ENOSYS
}

// futexOp performs the atomic operation encoded in FUTEX_WAKE_OP's val3 on
// *uaddr2 (there is no waiter to wake).
func (k *Kernel) futexOp(uaddr2 uint64, enc uint32) Errno {
	if uaddr2&3 != 0 {
		return EINVAL
	}
	op, cmp := (enc>>28)&7, (enc>>24)&0xf
	oparg := int32(enc<<8) >> 20 // bits 12..23, sign-extended
	if enc&(futexOpOpArgShift<<28) != 0 {
		oparg = 1 << (oparg & 31)
	}
	if op > 4 || cmp > 5 {
		return ENOSYS
	}
	old, e := k.readU32(uaddr2)
	if e != 0 {
		return e
	}
	arg := uint32(oparg)
	nv := [...]uint32{arg, old + arg, old | arg, old &^ arg, old ^ arg}[op] // SET, ADD, OR, ANDN, XOR
	return k.writeU32(uaddr2, nv)
}

// --- randomness, hardware probing ----------------------------------------------------

// getrandom flags
const (
	grndNonblock = 1
	grndRandom   = 2
	grndInsecure = 4
)

func sysGetrandom(k *Kernel, a sysArgs) (uint64, Errno) {
	buf, n, flags := a.Ptr(0), a.Ptr(1), a.Uint(2)
	if flags&^(grndNonblock|grndRandom|grndInsecure) != 0 || flags&(grndRandom|grndInsecure) == grndRandom|grndInsecure {
		return 0, EINVAL
	}
	n = min(n, 1<<25) // the kernel caps one call at 32 MiB
	if n == 0 {
		return 0, 0
	}
	return k.fill(buf, n, func(p []byte) (int, error) { k.rand.fill(p); return len(p), nil }, true, nil)
}

// riscv_hwprobe keys and values (arch/riscv/include/uapi/asm/hwprobe.h).
const (
	hwprobeMvendorid    = 0
	hwprobeMarchid      = 1
	hwprobeMimpid       = 2
	hwprobeBaseBehavior = 3
	hwprobeIMAExt0      = 4
	hwprobeCPUPerf0     = 5

	hwprobeBaseIMA = 1 << 0
	hwprobeIMAFD   = 1 << 0
	hwprobeIMAC    = 1 << 1
	hwprobeExtZba  = 1 << 3
	hwprobeExtZbb  = 1 << 4
	hwprobeExtZbs  = 1 << 5
)

func sysRiscvHwprobe(k *Kernel, a sysArgs) (uint64, Errno) {
	pairs, count, cpusetsize, cpus, flags := a.Ptr(0), a.Ptr(1), a.Ptr(2), a.Ptr(3), a.Uint(4)
	if flags != 0 {
		return 0, EINVAL
	}
	if cpus != 0 && cpusetsize != 0 {
		b, e := k.readMem(cpus, min(cpusetsize, 8))
		if e != 0 {
			return 0, e
		}
		if b[0]&1 == 0 { // no online CPU in the set
			return 0, EINVAL
		}
	} else if cpus != 0 || cpusetsize != 0 {
		return 0, EFAULT
	}
	for i := uint64(0); i < count; i++ {
		p := pairs + i*hwprobePair
		key, e := k.readU64(p)
		if e != 0 {
			return 0, e
		}
		var val uint64
		switch int64(key) {
		case hwprobeMvendorid, hwprobeMarchid, hwprobeMimpid:
			val = 0
		case hwprobeBaseBehavior:
			val = hwprobeBaseIMA
		case hwprobeIMAExt0:
			val = hwprobeIMAFD | hwprobeIMAC | hwprobeExtZba | hwprobeExtZbb | hwprobeExtZbs
		case hwprobeCPUPerf0:
			val = 0 // RISCV_HWPROBE_MISALIGNED_UNKNOWN
		default:
			key = ^uint64(0) // unknown key: -1, value 0
		}
		b := make([]byte, hwprobePair)
		put64(b, 0, key)
		put64(b, 8, val)
		if e := k.writeMem(p, b); e != 0 {
			return 0, e
		}
	}
	return 0, 0
}

// --- accounting ---------------------------------------------------------------

func sysGetrusage(k *Kernel, a sysArgs) (uint64, Errno) {
	who := a.Int(0)
	if who != 0 && who != -1 && who != 1 { // RUSAGE_SELF, _CHILDREN, _THREAD
		return 0, EINVAL
	}
	b := make([]byte, rusageSize)
	if who != -1 {
		cpu := k.cpuNS()
		put64(b, 0, uint64(cpu/1e9))
		put64(b, 8, uint64(cpu%1e9/1e3))
		put64(b, rusageMaxRSS, uint64(k.mem.Footprint())*PageSize/1024)
	}
	return 0, k.writeMem(a.Ptr(1), b)
}

func sysTimes(k *Kernel, a sysArgs) (uint64, Errno) {
	ticks := uint64(k.cpuNS() / 1e7) // USER_HZ = 100
	if a.Ptr(0) != 0 {
		b := make([]byte, tmsSize)
		put64(b, 0, ticks)
		if e := k.writeMem(a.Ptr(0), b); e != 0 {
			return 0, e
		}
	}
	mono, _ := k.now(clockMonotonic)
	return uint64(mono / 1e7), 0
}

func sysSysinfo(k *Kernel, a sysArgs) (uint64, Errno) {
	const total = 4 << 30
	b := make([]byte, sysinfoSize)
	mono, _ := k.now(clockMonotonic)
	put64(b, 0, uint64(mono/1e9))
	used := uint64(k.mem.Footprint()) * PageSize
	put64(b, sysinfoTotalramOff, total)
	put64(b, sysinfoFreeramOff, total-min(used, total))
	put16(b, sysinfoProcsOff, 1)
	put32(b, sysinfoMemUnitOff, 1)
	return 0, k.writeMem(a.Ptr(0), b)
}
