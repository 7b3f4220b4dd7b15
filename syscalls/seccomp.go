package syscalls

// seccomp (kernel/seccomp.c, Documentation/userspace-api/seccomp_filter.rst):
// strict mode and classic-BPF filters, per thread, inherited by clone and
// fork and kept through execve. A filter sees struct seccomp_data (the
// call's number, AUDIT_ARCH_RISCV64, the pc after the ecall, a0..a5); the
// chain's filters all run, newest first, and the action of highest
// precedence wins. Programs that sandbox themselves (OpenSSH's privilege
// separation, man-db, file, Chromium, systemd's services) install them
// through seccomp or prctl(PR_SET_SECCOMP).
//
// The calls a riscv64 Linux serves from its vDSO (clock_gettime,
// clock_getres, gettimeofday, riscv_hwprobe) never reach a filter there;
// rvsim has no vDSO, so glibc makes them as system calls, and the filter
// lets them through as Linux would never have seen them.
//
// Not modelled: user notification (SECCOMP_FILTER_FLAG_NEW_LISTENER is
// EINVAL and GET_ACTION_AVAIL reports its action unavailable, as from a
// kernel before 5.0), a tracer
// (SECCOMP_RET_TRACE answers ENOSYS, as with no tracer attached), and the
// audit log (SECCOMP_RET_LOG allows).

const (
	seccompSetModeStrict  = 0
	seccompSetModeFilter  = 1
	seccompGetActionAvail = 2
	seccompGetNotifSizes  = 3

	seccompFlagTsync      = 1
	seccompFlagLog        = 2
	seccompFlagSpecAllow  = 4
	seccompFlagTsyncESRCH = 16
	// seccompFlagMask is the flags rvsim knows: user notification's two
	// are refused as a kernel without it (before 5.0) refuses them, so
	// that libseccomp's probe sees no listeners.
	seccompFlagMask = seccompFlagTsync | seccompFlagLog | seccompFlagSpecAllow | seccompFlagTsyncESRCH

	seccompRetKillProcess = 0x80000000
	seccompRetKillThread  = 0x00000000
	seccompRetTrap        = 0x00030000
	seccompRetErrno       = 0x00050000
	seccompRetUserNotif   = 0x7fc00000
	seccompRetTrace       = 0x7ff00000
	seccompRetLog         = 0x7ffc0000
	seccompRetAllow       = 0x7fff0000
	seccompRetActionFull  = 0xffff0000
	seccompRetData        = 0x0000ffff

	seccompModeStrict = 1
	seccompModeFilter = 2
	seccompModeDead   = 3 // a thread seccomp is killing (SECCOMP_MODE_DEAD)

	prGetSeccomp = 21
	prSetSeccomp = 22

	auditArchRISCV64 = 0xc00000f3
	sysSeccomp       = 1 // SIGSYS's si_code
	seccompDataSize  = 64
	bpfMaxInsns      = 4096  // BPF_MAXINSNS
	maxInsnsPerPath  = 32768 // MAX_INSNS_PER_PATH
	bpfMemWords      = 16
	maxErrno         = 4095
)

// sockFilter is one classic BPF instruction (struct sock_filter).
type sockFilter struct {
	code   uint16
	jt, jf uint8
	k      uint32
}

// seccompFilter is one filter of a thread's chain (struct seccomp_filter):
// prev is the filter installed before it, shared with the threads and
// processes that inherited the chain.
type seccompFilter struct {
	prog []sockFilter
	prev *seccompFilter
}

// Classic BPF's fields of code (include/uapi/linux/filter.h, bpf_common.h).
const (
	bpfLD, bpfLDX, bpfST, bpfSTX, bpfALU, bpfJMP, bpfRET, bpfMISC = 0, 1, 2, 3, 4, 5, 6, 7

	bpfW, bpfIMM, bpfABS, bpfMEM, bpfLEN = 0x00, 0x00, 0x20, 0x60, 0x80
	bpfK, bpfX, bpfA                     = 0x00, 0x08, 0x10

	bpfADD, bpfSUB, bpfMUL, bpfDIV, bpfOR, bpfAND, bpfLSH, bpfRSH, bpfNEG, bpfXOR = 0x00, 0x10, 0x20, 0x30, 0x40, 0x50, 0x60, 0x70, 0x80, 0xa0
	bpfJA, bpfJEQ, bpfJGT, bpfJGE, bpfJSET                                        = 0x00, 0x10, 0x20, 0x30, 0x40
	bpfTAX, bpfTXA                                                                = 0x00, 0x80
)

// vdsoCall reports whether riscv64 Linux answers call nr in its vDSO:
// clock_gettime, clock_getres, gettimeofday, riscv_hwprobe.
func vdsoCall(nr uint64) bool { return nr == 113 || nr == 114 || nr == 169 || nr == 258 }

func sysSeccompCall(k *Kernel, a sysArgs) (uint64, Errno) {
	op, flags, uargs := a.Uint(0), a.Uint(1), a.Ptr(2)
	switch op {
	case seccompSetModeStrict:
		if flags != 0 || uargs != 0 {
			return 0, EINVAL
		}
		return k.seccompStrict()
	case seccompSetModeFilter:
		return k.seccompSetFilter(flags, uargs)
	case seccompGetActionAvail:
		if flags != 0 {
			return 0, EINVAL
		}
		action, e := k.readU32(uargs)
		if e != 0 {
			return 0, e
		}
		switch action {
		case seccompRetKillProcess, seccompRetKillThread, seccompRetTrap, seccompRetErrno,
			seccompRetTrace, seccompRetLog, seccompRetAllow:
			return 0, 0
		}
		return 0, EOPNOTSUPP // SECCOMP_RET_USER_NOTIF among them: no listeners here
	case seccompGetNotifSizes:
		if flags != 0 {
			return 0, EINVAL
		}
		var b [6]byte // struct seccomp_notif_sizes
		put16(b[:], 0, 80)
		put16(b[:], 2, 24)
		put16(b[:], 4, seccompDataSize)
		return 0, k.writeMem(uargs, b[:])
	}
	return 0, EINVAL
}

// prctlSeccomp is prctl's PR_GET_SECCOMP and PR_SET_SECCOMP (mode 1:
// strict, with arg3 unused; mode 2: the filter at arg3).
func (k *Kernel) prctlSeccomp(a sysArgs) (uint64, Errno) {
	if a.Int(0) == prGetSeccomp {
		return uint64(k.run.seccompMode), 0
	}
	switch a.Ptr(1) {
	case seccompModeStrict:
		return k.seccompStrict()
	case seccompModeFilter:
		return k.seccompSetFilter(0, a.Ptr(2))
	}
	return 0, EINVAL
}

func (k *Kernel) seccompStrict() (uint64, Errno) {
	if k.run.seccompMode != 0 { // seccomp_may_assign_mode
		return 0, EINVAL
	}
	k.run.seccompMode = seccompModeStrict
	return 0, 0
}

// seccompSetFilter is seccomp_set_mode_filter: the flags, the program
// (struct sock_fprog: a 16-bit length and a pointer) and its checks, the
// right to install it, the chain's length, and TSYNC.
func (k *Kernel) seccompSetFilter(flags uint32, uargs uint64) (uint64, Errno) {
	if flags&^seccompFlagMask != 0 {
		return 0, EINVAL
	}
	hdr, e := k.readMem(uargs, 16)
	if e != 0 {
		return 0, e
	}
	n := int(le16(hdr))
	if n == 0 || n > bpfMaxInsns {
		return 0, EINVAL
	}
	if !k.noNewPrivs && !k.cred.capable(capSysAdmin) { // CAP_SYS_ADMIN, or no_new_privs
		return 0, EACCES
	}
	raw, e := k.readMem(le64(hdr[8:]), uint64(n)*8)
	if e != 0 {
		return 0, e
	}
	prog := make([]sockFilter, n)
	for i := range prog {
		b := raw[8*i:]
		prog[i] = sockFilter{code: le16(b), jt: b[2], jf: b[3], k: u32(b, 4)}
	}
	if !seccompCheckFilter(prog) {
		return 0, EINVAL
	}
	if k.run.seccompMode == seccompModeStrict {
		return 0, EINVAL
	}
	total := n
	for f := k.run.seccomp; f != nil; f = f.prev {
		total += len(f.prog) + 4 // the kernel's penalty per filter
	}
	if total > maxInsnsPerPath {
		return 0, ENOMEM
	}
	if flags&seccompFlagTsync != 0 {
		for _, t := range k.threads {
			if t == k.run || t.dead || t.seccompMode == 0 ||
				t.seccompMode == seccompModeFilter && isAncestor(t.seccomp, k.run.seccomp) {
				continue
			}
			if flags&seccompFlagTsyncESRCH != 0 {
				return 0, ESRCH
			}
			return uint64(t.tid), 0 // the thread that cannot follow
		}
	}
	f := &seccompFilter{prog: prog, prev: k.run.seccomp}
	k.run.seccomp, k.run.seccompMode = f, seccompModeFilter
	if flags&seccompFlagTsync != 0 {
		for _, t := range k.threads {
			if !t.dead {
				t.seccomp, t.seccompMode = f, seccompModeFilter
			}
		}
	}
	return 0, 0
}

// isAncestor reports whether parent is child or one of the filters
// before it (nil is everyone's).
func isAncestor(parent, child *seccompFilter) bool {
	for ; child != nil; child = child.prev {
		if child == parent {
			return true
		}
	}
	return parent == nil
}

// seccompCheckFilter is bpf_check_classic and seccomp_check_filter
// together (both answer EINVAL): only the instructions seccomp allows,
// loads of seccomp_data's aligned words, constant divisors and shifts in
// range, scratch words in range and stored before they are loaded on
// every path, jumps inside the program, and a return at its end.
func seccompCheckFilter(prog []sockFilter) bool {
	n := len(prog)
	for pc, in := range prog {
		switch in.code {
		case bpfLD | bpfW | bpfABS:
			if in.k >= seccompDataSize || in.k&3 != 0 {
				return false
			}
		case bpfALU | bpfDIV | bpfK:
			if in.k == 0 {
				return false
			}
		case bpfALU | bpfLSH | bpfK, bpfALU | bpfRSH | bpfK:
			if in.k >= 32 {
				return false
			}
		case bpfLD | bpfMEM, bpfLDX | bpfMEM, bpfST, bpfSTX:
			if in.k >= bpfMemWords {
				return false
			}
		case bpfJMP | bpfJA:
			if in.k >= uint32(n-pc-1) {
				return false
			}
		case bpfJMP | bpfJEQ | bpfK, bpfJMP | bpfJEQ | bpfX, bpfJMP | bpfJGE | bpfK, bpfJMP | bpfJGE | bpfX,
			bpfJMP | bpfJGT | bpfK, bpfJMP | bpfJGT | bpfX, bpfJMP | bpfJSET | bpfK, bpfJMP | bpfJSET | bpfX:
			if pc+int(in.jt)+1 >= n || pc+int(in.jf)+1 >= n {
				return false
			}
		case bpfLD | bpfW | bpfLEN, bpfLDX | bpfW | bpfLEN, bpfRET | bpfK, bpfRET | bpfA,
			bpfALU | bpfADD | bpfK, bpfALU | bpfADD | bpfX, bpfALU | bpfSUB | bpfK, bpfALU | bpfSUB | bpfX,
			bpfALU | bpfMUL | bpfK, bpfALU | bpfMUL | bpfX, bpfALU | bpfDIV | bpfX,
			bpfALU | bpfAND | bpfK, bpfALU | bpfAND | bpfX, bpfALU | bpfOR | bpfK, bpfALU | bpfOR | bpfX,
			bpfALU | bpfXOR | bpfK, bpfALU | bpfXOR | bpfX, bpfALU | bpfLSH | bpfX, bpfALU | bpfRSH | bpfX,
			bpfALU | bpfNEG, bpfLD | bpfIMM, bpfLDX | bpfIMM, bpfMISC | bpfTAX, bpfMISC | bpfTXA:
		default:
			return false
		}
	}
	if c := prog[n-1].code; c != bpfRET|bpfK && c != bpfRET|bpfA {
		return false
	}
	return checkLoadsAndStores(prog)
}

// checkLoadsAndStores is check_load_and_stores: a scratch word is loaded
// only where every path to the load stored it.
func checkLoadsAndStores(prog []sockFilter) bool {
	masks := make([]uint16, len(prog))
	for i := range masks {
		masks[i] = 0xffff
	}
	var valid uint16
	for pc, in := range prog {
		valid &= masks[pc]
		switch {
		case in.code == bpfST || in.code == bpfSTX:
			valid |= 1 << in.k
		case in.code == bpfLD|bpfMEM || in.code == bpfLDX|bpfMEM:
			if valid&(1<<in.k) == 0 {
				return false
			}
		case in.code == bpfJMP|bpfJA:
			masks[pc+1+int(in.k)] &= valid
			valid = 0xffff
		case in.code&7 == bpfJMP:
			masks[pc+1+int(in.jt)] &= valid
			masks[pc+1+int(in.jf)] &= valid
			valid = 0xffff
		}
	}
	return true
}

// runFilter runs one checked program on seccomp_data (16 words) and
// returns its result. A division by a zero X returns 0, as the kernel's
// conversion of classic BPF does; shifts by X take its low five bits.
func runFilter(prog []sockFilter, data *[16]uint32) uint32 {
	var a, x uint32
	var m [bpfMemWords]uint32
	for pc := 0; pc < len(prog); pc++ {
		in := prog[pc]
		v := in.k
		if in.code&bpfX != 0 {
			v = x
		}
		switch in.code {
		case bpfLD | bpfW | bpfABS:
			a = data[in.k/4]
		case bpfLD | bpfW | bpfLEN:
			a = seccompDataSize
		case bpfLDX | bpfW | bpfLEN:
			x = seccompDataSize
		case bpfLD | bpfIMM:
			a = in.k
		case bpfLDX | bpfIMM:
			x = in.k
		case bpfLD | bpfMEM:
			a = m[in.k]
		case bpfLDX | bpfMEM:
			x = m[in.k]
		case bpfST:
			m[in.k] = a
		case bpfSTX:
			m[in.k] = x
		case bpfMISC | bpfTAX:
			x = a
		case bpfMISC | bpfTXA:
			a = x
		case bpfRET | bpfK:
			return in.k
		case bpfRET | bpfA:
			return a
		case bpfJMP | bpfJA:
			pc += int(in.k)
		default:
			switch in.code & 7 {
			case bpfALU:
				switch in.code & 0xf0 {
				case bpfADD:
					a += v
				case bpfSUB:
					a -= v
				case bpfMUL:
					a *= v
				case bpfDIV:
					if v == 0 {
						return 0
					}
					a /= v
				case bpfOR:
					a |= v
				case bpfAND:
					a &= v
				case bpfXOR:
					a ^= v
				case bpfLSH:
					a <<= v & 31
				case bpfRSH:
					a >>= v & 31
				case bpfNEG:
					a = -a
				}
			case bpfJMP:
				var taken bool
				switch in.code & 0xf0 {
				case bpfJEQ:
					taken = a == v
				case bpfJGT:
					taken = a > v
				case bpfJGE:
					taken = a >= v
				case bpfJSET:
					taken = a&v != 0
				}
				if taken {
					pc += int(in.jt)
				} else {
					pc += int(in.jf)
				}
			}
		}
	}
	return 0 // unreachable: a checked program ends in a return
}

// seccompEnter is __secure_computing for the call the running thread
// makes at r (r.PC past the ecall): run reports whether the call goes
// ahead; when it does not, ret is its result (a0), or errBlocked when its
// thread ended.
func (k *Kernel) seccompEnter(r *UserRegs, args [6]uint64) (ret uint64, run bool) {
	t, nr := k.run, r.X[17]
	if t.seccompMode == 0 {
		return 0, true
	}
	if t.seccompMode == seccompModeStrict {
		switch nr {
		case 63, 64, 93, 139: // read, write, exit, rt_sigreturn
			return 0, true
		}
		return k.seccompKill(sigKILL, false, r, 0), false
	}
	if vdsoCall(nr) {
		return 0, true
	}
	var data [16]uint32
	data[0], data[1] = uint32(nr), auditArchRISCV64
	data[2], data[3] = uint32(r.PC), uint32(r.PC>>32)
	for i, v := range args {
		data[4+2*i], data[5+2*i] = uint32(v), uint32(v>>32)
	}
	result := uint32(seccompRetAllow)
	for f := t.seccomp; f != nil; f = f.prev {
		if cur := runFilter(f.prog, &data); int32(cur&seccompRetActionFull) < int32(result&seccompRetActionFull) {
			result = cur
		}
	}
	action, val := result&seccompRetActionFull, result&seccompRetData
	switch action {
	case seccompRetAllow, seccompRetLog:
		return 0, true
	case seccompRetErrno:
		return errnoRet(Errno(min(val, maxErrno))), false
	case seccompRetTrap:
		k.force(sigSYS, sigsysInfo(r, val))
		return r.X[10], false // syscall_rollback: a0 as it was
	case seccompRetTrace, seccompRetUserNotif: // no tracer, no listener
		return errnoRet(ENOSYS), false
	}
	return k.seccompKill(sigSYS, action == seccompRetKillThread, r, val), false
}

// seccompKill ends the thread (killThread, when other threads live: its
// do_exit) or the process, by sig: SIGSYS forced past any handler, whose
// siginfo names the call and the filter's data, or SIGKILL (strict mode).
func (k *Kernel) seccompKill(sig int, killThread bool, r *UserRegs, data uint32) uint64 {
	k.run.seccompMode = seccompModeDead
	if (killThread || sig == sigKILL) && len(k.threads) > 1 { // as sysExit counts them
		k.exitThread()
		return errnoRet(errBlocked)
	}
	if sig == sigKILL {
		k.die(sigKILL)
		return r.X[10]
	}
	k.sig[sigSYS].handler = sigDFL // force_sig_seccomp's HANDLER_EXIT
	k.force(sigSYS, sigsysInfo(r, data))
	return r.X[10]
}

// seccompFilters is the length of the thread's chain (Seccomp_filters in
// /proc/PID/status).
func (t *thread) seccompFilters() int {
	n := 0
	for f := t.seccomp; f != nil; f = f.prev {
		n++
	}
	return n
}

// sigsysInfo is force_sig_seccomp's siginfo for the call at r: SYS_SECCOMP,
// si_errno the filter's data, and _sigsys (the pc after the ecall, the
// call's number, the architecture).
func sigsysInfo(r *UserRegs, data uint32) sigInfo {
	info := makeInfo(sigSYS, sysSeccomp)
	put32(info[:], siErrnoOff, data)
	put64(info[:], 16, r.PC)
	put32(info[:], 24, uint32(r.X[17]))
	put32(info[:], 28, auditArchRISCV64)
	return info
}
