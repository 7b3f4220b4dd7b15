package syscalls

import (
	"cmp"
	"fmt"
	"strings"
)

// --- identity ---------------------------------------------------------------

func sysGetpid(k *Kernel, a sysArgs) (uint64, Errno)  { return uint64(k.pid), 0 }
func sysGetppid(k *Kernel, a sysArgs) (uint64, Errno) { return uint64(k.ppid), 0 }
func sysSetTidAddress(k *Kernel, a sysArgs) (uint64, Errno) {
	k.clearTID = a.Ptr(0)
	return uint64(k.run.tid), 0
}

func sysSetRobustList(k *Kernel, a sysArgs) (uint64, Errno) {
	if a.Ptr(1) != 24 { // sizeof(struct robust_list_head)
		return 0, EINVAL
	}
	k.robustList, k.robustLen = a.Ptr(0), a.Ptr(1)
	return 0, 0
}

func sysUname(k *Kernel, a sysArgs) (uint64, Errno) {
	b := make([]byte, utsnameSize)
	u := k.uts()
	for i, s := range [...]string{"Linux", u.node, release, version, "riscv64", u.domain} {
		copy(b[i*utsFieldLen:], s)
	}
	return 0, k.writeMem(a.Ptr(0), b)
}

// utsNames is the run's UTS namespace, one for all its processes: the
// node and domain names uname reports and sethostname and setdomainname
// set, each as its bytes (a NUL among them ends the name uname shows).
type utsNames struct{ node, domain string }

const utsNameMax = utsFieldLen - 1 // __NEW_UTS_LEN

// uts returns the run's names.
func (k *Kernel) uts() *utsNames {
	if k.all.uts == nil {
		k.all.uts = &utsNames{node: nodeName, domain: "(none)"}
	}
	return k.all.uts
}

func sysSethostname(k *Kernel, a sysArgs) (uint64, Errno) {
	return 0, k.setUTSName(&k.uts().node, a.Ptr(0), a.Int(1))
}

func sysSetdomainname(k *Kernel, a sysArgs) (uint64, Errno) {
	return 0, k.setUTSName(&k.uts().domain, a.Ptr(0), a.Int(1))
}

// setUTSName sets a name to the n bytes at addr as sethostname does:
// CAP_SYS_ADMIN first, then the length, then the bytes.
func (k *Kernel) setUTSName(name *string, addr uint64, n int32) Errno {
	if !k.cred.capable(capSysAdmin) {
		return EPERM
	}
	if n < 0 || n > utsNameMax {
		return EINVAL
	}
	b, e := k.readMem(addr, uint64(n))
	if e != 0 {
		return e
	}
	*name = string(b)
	return 0
}

// prctl options
const (
	prSetPdeathsig      = 1
	prGetPdeathsig      = 2
	prGetDumpable       = 3
	prSetDumpable       = 4
	prSetName           = 15
	prGetName           = 16
	prSetTimerslack     = 29
	prGetTimerslack     = 30
	prSetChildSubreaper = 36
	prGetChildSubreaper = 37
	prSetNoNewPrivs     = 38
	prGetNoNewPrivs     = 39
	defaultTimerSlack   = 50000 // ns (init_task's timer_slack_ns)
)

// taskComm is the name of thread tid (comm): the process's for its first
// thread, k.pid.
func (k *Kernel) taskComm(tid int32) string {
	if t := k.find(tid); t != nil && tid != k.pid {
		return t.comm
	}
	return k.comm
}

// setTaskComm names thread tid (PR_SET_NAME, a write of task/TID/comm):
// at most 15 bytes, up to a NUL, as set_task_comm keeps them.
func (k *Kernel) setTaskComm(tid int32, s string) {
	if i := strings.IndexByte(s, 0); i >= 0 {
		s = s[:i]
	}
	s = s[:min(len(s), 15)]
	if t := k.find(tid); t != nil && tid != k.pid {
		t.comm = s
		return
	}
	k.comm = s
}

func sysPrctl(k *Kernel, a sysArgs) (uint64, Errno) {
	if r, e, ok := k.capPrctl(a); ok {
		return r, e
	}
	switch a.Int(0) {
	case prGetSeccomp, prSetSeccomp:
		return k.prctlSeccomp(a)
	case prSetName:
		s, err := k.mem.ReadCString(a.Ptr(1), 16)
		if err != nil {
			b, e := k.readMem(a.Ptr(1), 15)
			if e != 0 {
				return 0, e
			}
			s = string(b)
		}
		k.setTaskComm(k.currentTID(), s)
		return 0, 0
	case prGetName:
		b := make([]byte, 16)
		copy(b, k.taskComm(k.currentTID()))
		return 0, k.writeMem(a.Ptr(1), b)
	case prGetDumpable:
		return 1, 0
	case prSetDumpable:
		return 0, 0
	case prSetPdeathsig: // the signal the process gets when its parent ends (FinishChildren)
		if sig := a.Ptr(1); sig > nsig {
			return 0, EINVAL
		}
		k.pdeathsig = int(a.Ptr(1))
		return 0, 0
	case prGetPdeathsig:
		return 0, k.writeU32(a.Ptr(1), uint32(k.pdeathsig))
	case prSetChildSubreaper: // the orphans of its descendants become its children (adopt)
		k.subreaper = a.Ptr(1) != 0
		return 0, 0
	case prGetChildSubreaper:
		return 0, k.writeU32(a.Ptr(1), uint32(b2u(k.subreaper)))
	case prSetTimerslack:
		k.timerSlack = a.Ptr(1)
		if k.timerSlack == 0 {
			k.timerSlack = defaultTimerSlack
		}
		return 0, 0
	case prGetTimerslack:
		if k.timerSlack == 0 {
			return defaultTimerSlack, 0
		}
		return k.timerSlack, 0
	case prSetNoNewPrivs: // kept through fork and exec; nothing here gains privileges anyway
		if a.Ptr(1) != 1 || a.Ptr(2)|a.Ptr(3)|a.Ptr(4) != 0 {
			return 0, EINVAL
		}
		k.noNewPrivs = true
		return 0, 0
	case prGetNoNewPrivs:
		if a.Ptr(1)|a.Ptr(2)|a.Ptr(3)|a.Ptr(4) != 0 {
			return 0, EINVAL
		}
		return uint64(b2u(k.noNewPrivs)), 0
	}
	return 0, EINVAL
}

// --- resource limits ------------------------------------------------------------

const (
	rlimitRSS        = 5
	rlimitStack      = 3
	rlimitSigpending = 11
	rlimitNofile     = 7
	rlimitCount      = 16
	rlimInfinity     = ^uint64(0)
)

type rlimit struct{ cur, max uint64 }

func (k *Kernel) initRlimits() {
	for i := range k.rlim {
		k.rlim[i] = rlimit{rlimInfinity, rlimInfinity}
	}
	k.rlim[rlimitStack] = rlimit{StackSize, rlimInfinity}
	k.rlim[4] = rlimit{0, rlimInfinity} // RLIMIT_CORE
	k.rlim[rlimitNproc] = rlimit{63459, 63459}
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
	if p := a.Int(0); p != 0 && p != k.pid {
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
	if p := a.Int(0); p != 0 && k.find(p) == nil {
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
	if p := a.Int(0); p != 0 && k.find(p) == nil {
		return 0, ESRCH
	}
	return 0, 0
}

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
		bitset := ^uint32(0)
		if cmd == futexWaitBitset {
			if val3 == 0 {
				return 0, EINVAL
			}
			bitset = val3
		}
		cur, e := k.readU32(uaddr)
		if e != 0 {
			return 0, e
		}
		if cur != val {
			return 0, EAGAIN
		}
		deadline := int64(-1)
		if timeout != 0 {
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
			deadline = k.monoNS() + max(d, 0)
		}
		// Another thread may wake it (thread.go), or on shared memory
		// another process.
		if k.multi() || k.sharedFutex(uaddr, op) {
			return k.block(fmt.Sprintf("in futex wait on %#x", uaddr), uaddr, bitset, deadline, func(why waitResult) uint64 {
				switch why {
				case waitReady:
					return 0
				case waitTimeout:
					return errnoRet(ETIMEDOUT)
				}
				if timeout != 0 {
					return errnoRet(EINTR)
				}
				return errnoRet(errRestartSys)
			})
		}
		// Nobody else can change *uaddr: the wait can only time out or be
		// interrupted by a signal.
		if timeout == 0 {
			if k.wait(-1, 0) == waitForever {
				k.warnOnce("futex wait", "rvsim: warning: futex wait with no other thread to wake it returns EINTR")
				return 0, EINTR
			}
			return 0, errRestartSys
		}
		if k.wait(deadline, 0) == waitSignal {
			return 0, EINTR
		}
		return 0, ETIMEDOUT
	case futexWake, futexWakeBitset:
		bitset := ^uint32(0)
		if cmd == futexWakeBitset {
			if val3 == 0 {
				return 0, EINVAL
			}
			bitset = val3
		}
		return uint64(k.futexWakeAll(uaddr, op, int(min(val, 1<<30)), bitset)), 0
	case futexRequeue, futexCmpRequeue:
		if cmd == futexCmpRequeue {
			cur, e := k.readU32(uaddr)
			if e != 0 {
				return 0, e
			}
			if cur != val3 {
				return 0, EAGAIN
			}
		}
		if uaddr2&3 != 0 {
			return 0, EINVAL
		}
		n2 := uint32(timeout) // val2 is passed in the timeout argument
		if int32(val) < 0 || int32(n2) < 0 {
			return 0, EINVAL
		}
		return uint64(k.futexRequeue(uaddr, uaddr2, int(val), int(n2))), 0
	case futexWakeOp:
		old, e := k.futexOp(uaddr2, val3)
		if e != 0 {
			return 0, e
		}
		n := k.futexWakeAll(uaddr, op, int(min(val, 1<<30)), ^uint32(0))
		if futexCmp(old, val3) {
			n += k.futexWakeAll(uaddr2, op, int(min(uint32(timeout), 1<<30)), ^uint32(0))
		}
		return uint64(n), 0
	}
	return 0, ENOSYS
}

// futexCmp evaluates FUTEX_WAKE_OP's comparison of the old value.
func futexCmp(old, enc uint32) bool {
	cmp := (enc >> 24) & 0xf
	arg := uint32(int32(enc<<20) >> 20) // bits 0..11, sign-extended
	switch cmp {
	case 0:
		return old == arg
	case 1:
		return old != arg
	case 2:
		return int32(old) < int32(arg)
	case 3:
		return int32(old) <= int32(arg)
	case 4:
		return int32(old) > int32(arg)
	case 5:
		return int32(old) >= int32(arg)
	}
	return false
}

// futexOp performs the atomic operation encoded in FUTEX_WAKE_OP's val3 on
// *uaddr2 and returns the old value.
func (k *Kernel) futexOp(uaddr2 uint64, enc uint32) (uint32, Errno) {
	if uaddr2&3 != 0 {
		return 0, EINVAL
	}
	op, cmp := (enc>>28)&7, (enc>>24)&0xf
	oparg := int32(enc<<8) >> 20 // bits 12..23, sign-extended
	if enc&(futexOpOpArgShift<<28) != 0 {
		oparg = 1 << (oparg & 31)
	}
	if op > 4 || cmp > 5 {
		return 0, ENOSYS
	}
	old, e := k.readU32(uaddr2)
	if e != 0 {
		return 0, e
	}
	arg := uint32(oparg)
	nv := [...]uint32{arg, old + arg, old | arg, old &^ arg, old ^ arg}[op] // SET, ADD, OR, ANDN, XOR
	return old, k.writeU32(uaddr2, nv)
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
	hwprobeExtZbc  = 1 << 7
	// RISCV_HWPROBE_EXT_ZICOND
	hwprobeExtZicond = 1 << 35
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
			val = hwprobeIMAFD | hwprobeIMAC | hwprobeExtZba | hwprobeExtZbb | hwprobeExtZbs | hwprobeExtZbc | hwprobeExtZicond
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

// sysinfoTotalram is the simulated machine's memory (sysinfo,
// /proc/meminfo).
const sysinfoTotalram = 4 << 30

func sysSysinfo(k *Kernel, a sysArgs) (uint64, Errno) {
	const total = sysinfoTotalram
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

// --- priorities, process groups, sessions, children ------------------------------------

const rlimitMemlock = 8

// priority "which" values
const (
	prioProcess = 0
	prioPgrp    = 1
	prioUser    = 2
)

// prioTargets returns the live processes of the run that (which, who)
// names (kernel/sys.c's getpriority and setpriority): a process (or a
// thread's, by its id), the members of a process group, or the processes
// of a real user id; who 0 is the caller, its group or its real uid. An
// empty list is ESRCH.
func (k *Kernel) prioTargets(which, who int32) ([]*Kernel, Errno) {
	var out []*Kernel
	switch which {
	case prioProcess:
		if p := k.taskProcess(cmp.Or(who, k.pid)); p != nil {
			out = append(out, p)
		}
	case prioPgrp:
		g := cmp.Or(who, k.pgid())
		for _, o := range k.all.kernels {
			if !o.exited && o.pgid() == g {
				out = append(out, o)
			}
		}
	case prioUser:
		uid := k.cred.ruid
		if who != 0 {
			uid = uint32(who)
		}
		for _, o := range k.all.kernels {
			if !o.exited && o.cred.ruid == uid {
				out = append(out, o)
			}
		}
	default:
		return nil, EINVAL
	}
	if len(out) == 0 {
		return nil, ESRCH
	}
	return out, 0
}

// sysGetpriority returns 20 - nice of the least nice target, the raw
// system call's encoding (glibc turns it back into the nice value).
func sysGetpriority(k *Kernel, a sysArgs) (uint64, Errno) {
	ps, e := k.prioTargets(a.Int(0), a.Int(1))
	if e != 0 {
		return 0, e
	}
	best := int32(0)
	for _, p := range ps {
		best = max(best, 20-p.nice)
	}
	return uint64(best), 0
}

// sysSetpriority sets each target's nice value, clamped to -20..19
// (set_one_prio): another user's process (neither its real nor its
// effective uid the caller's effective one) needs CAP_SYS_NICE (EPERM),
// and so does lowering the value (EACCES: RLIMIT_NICE is 0). The answer
// is the last target's refusal, else 0.
func sysSetpriority(k *Kernel, a sysArgs) (uint64, Errno) {
	ps, e := k.prioTargets(a.Int(0), a.Int(1))
	if e != 0 {
		return 0, e
	}
	n := min(max(a.Int(2), -20), 19)
	nice := k.cred.capable(capSysNice)
	for _, p := range ps {
		switch {
		case !k.sameOwner(p) && !nice:
			e = EPERM
		case n < p.nice && !nice:
			e = EACCES
		default:
			p.nice = n
		}
	}
	return 0, e
}

// The process is a process-group leader in the session of its parent
// (pid 1), as a command started by a job-control shell is.
const fixedSID = fixedPPID

func (k *Kernel) pgid() int32 {
	if k.pgrp == 0 {
		return k.pid
	}
	return k.pgrp
}

// session is the process's session id.
func (k *Kernel) session() int32 {
	if k.sid == 0 {
		return fixedSID
	}
	return k.sid
}

// process returns the live process pid of the run (0: the caller), nil
// if there is none (the parent outside the run, pid 1, is none).
func (k *Kernel) process(pid int32) *Kernel {
	if pid == 0 || pid == k.pid {
		return k
	}
	for _, o := range k.all.kernels {
		if o.pid == pid && !o.exited {
			return o
		}
	}
	return nil
}

// sysGetpgid and sysGetsid answer for any process of the run, and for
// its parent outside it (pid 1, its own group and session).
func sysGetpgid(k *Kernel, a sysArgs) (uint64, Errno) {
	if a.Int(0) == fixedPPID {
		return fixedSID, 0
	}
	p := k.process(a.Int(0))
	if p == nil {
		return 0, ESRCH
	}
	return uint64(p.pgid()), 0
}

func sysGetsid(k *Kernel, a sysArgs) (uint64, Errno) {
	if a.Int(0) == fixedPPID {
		return fixedSID, 0
	}
	p := k.process(a.Int(0))
	if p == nil {
		return 0, ESRCH
	}
	return uint64(p.session()), 0
}

// sysSetpgid moves the process, or a child of it in its session, into
// the group pg (0: the target's pid) of that session (setpgid(2)): a
// new group led by the target, or one that a process of the run leads,
// or the parent's group (1) for a process still in the parent's session.
func sysSetpgid(k *Kernel, a sysArgs) (uint64, Errno) {
	pid, pg := a.Int(0), a.Int(1)
	if pg < 0 {
		return 0, EINVAL
	}
	t := k.process(pid)
	if t == nil || t != k && !k.isChild(t.pid) {
		return 0, ESRCH
	}
	if t.session() != k.session() || t.sid == t.pid {
		return 0, EPERM // another session's, or a session leader
	}
	if pg == 0 {
		pg = t.pid
	}
	ok := pg == t.pid || pg == fixedSID && t.session() == fixedSID
	for _, o := range k.all.kernels {
		ok = ok || !o.exited && o.pgid() == pg && o.session() == t.session()
	}
	if !ok {
		return 0, EPERM // no such group in this session
	}
	t.pgrp = pg
	return 0, 0
}

// isChild reports whether pid is a live child of the process.
func (k *Kernel) isChild(pid int32) bool {
	for _, c := range k.live {
		if c.pid == pid && !c.orphan {
			return true
		}
	}
	return false
}

// sysSetsid makes a new session and group led by the process, unless it
// leads a group already.
func sysSetsid(k *Kernel, a sysArgs) (uint64, Errno) {
	if k.pgid() == k.pid {
		return 0, EPERM
	}
	k.sid, k.pgrp = k.pid, k.pid
	return uint64(k.pid), 0
}

// wait4 and waitid options
const (
	wNohang    = 1
	wUntraced  = 2
	wExited    = 4
	wContinued = 8
	wNowait    = 0x01000000
	wNothread  = 0x20000000
	wAll       = 0x40000000
	wClone     = 0x80000000
)

// sysWait4: the process has no children (it cannot create any).
// membarrier commands
const (
	mbQuery                    = 0
	mbGlobal                   = 1
	mbGlobalExpedited          = 2
	mbRegisterGlobalExpedited  = 4
	mbPrivateExpedited         = 8
	mbRegisterPrivateExpedited = 16
	mbSupported                = mbGlobal | mbGlobalExpedited | mbRegisterGlobalExpedited |
		mbPrivateExpedited | mbRegisterPrivateExpedited
)

// sysMembarrier: with one thread on one hart every barrier is already
// complete; the registration rules are kept.
func sysMembarrier(k *Kernel, a sysArgs) (uint64, Errno) {
	cmd, flags := a.Int(0), a.Uint(1)
	if flags != 0 {
		return 0, EINVAL
	}
	switch cmd {
	case mbQuery:
		return mbSupported, 0
	case mbGlobal, mbGlobalExpedited:
		return 0, 0
	case mbRegisterGlobalExpedited, mbRegisterPrivateExpedited:
		k.membarrier |= uint32(cmd)
		return 0, 0
	case mbPrivateExpedited:
		if k.membarrier&mbRegisterPrivateExpedited == 0 {
			return 0, EPERM
		}
		return 0, 0
	}
	return 0, EINVAL
}

// Capability header versions (uapi/linux/capability.h).
const (
	capVersion1 = 0x19980330 // one 32-bit word per set
	capVersion2 = 0x20071026 // two words (deprecated, same layout as 3)
	capVersion3 = 0x20080522
)
