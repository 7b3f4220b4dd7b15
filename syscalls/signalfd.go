package syscalls

import "math/bits"

// signalfd (fs/signalfd.c): signalfd4. A signalfd reads the pending
// signals of its mask as struct signalfd_siginfo, taking them as
// dequeue_signal does: the reading thread's own first, then those sent
// to the process. rvsim keeps no process-wide queue: a process-directed
// signal that every thread blocks stays pending on the thread that was
// running, marked shared (tstate.sigShared), and any thread's signalfd may
// take it. A signal arriving wakes the threads whose ppoll, pselect6 or
// epoll wait watches a signalfd it makes readable (sigWake).

// signalfd flags are O_CLOEXEC and O_NONBLOCK; struct signalfd_siginfo
// is 128 bytes.
const signalfdSiginfoSize = 128

type signalfd struct {
	k    *Kernel
	mask uint64 // the signals it reads (never SIGKILL or SIGSTOP)
}

func sysSignalfd4(k *Kernel, a sysArgs) (uint64, Errno) {
	fd, maskAddr, size, flags := a.Int(0), a.Ptr(1), a.Ptr(2), a.Uint(3)
	if size != 8 {
		return 0, EINVAL
	}
	mask, e := k.readU64(maskAddr)
	if e != 0 {
		return 0, e
	}
	if flags&^(oCloexec|oNonblock) != 0 {
		return 0, EINVAL
	}
	mask &^= unblockable
	if fd != -1 {
		of, e := k.file(fd)
		if e != 0 {
			return 0, e
		}
		if of.kind != kindSignalfd {
			return 0, EINVAL
		}
		of.sfd.mask = mask
		k.sigGens++ // wake_up(&sighand->signalfd_wqh)
		k.sigWake()
		return uint64(fd), 0
	}
	of := &openFile{kind: kindSignalfd, sfd: &signalfd{k: k, mask: mask},
		guest: "anon_inode:[signalfd]", flags: oRdwr | flags&oNonblock}
	return k.install(of, flags&oCloexec != 0, 0)
}

// stateOf returns t's signal state (the running thread's is k.tstate).
func (k *Kernel) stateOf(t *thread) *tstate {
	if t == k.run {
		return &k.tstate
	}
	return &t.st
}

// asker is the thread whose view a readiness question takes: a blocked
// thread's while its wait condition is asked (readyFor, wake), else the
// running one.
func (k *Kernel) asker() *thread {
	if k.asking != nil {
		return k.asking
	}
	return k.run
}

// sigfdPending is the signals of mask that a signalfd read by the asker
// would find: its own pending ones and those sent to the process.
func (k *Kernel) sigfdPending(mask uint64) uint64 {
	p := k.stateOf(k.asker()).sigPending & mask
	for _, t := range k.threads {
		if !t.dead {
			st := k.stateOf(t)
			p |= st.sigPending & st.sigShared & mask
		}
	}
	return p
}

// firstSignal is the signal of set dequeued first (next_signal):
// synchronous signals, then the lowest number.
func firstSignal(set uint64) int {
	if s := set & synchronous; s != 0 {
		set = s
	}
	return bits.TrailingZeros64(set) + 1
}

// dequeueSignal takes a pending signal of mask for the running thread
// (those sent to it, then those sent to the process, wherever they wait)
// and returns it with its siginfo; 0: none.
func (k *Kernel) dequeueSignal(mask uint64) (int, sigInfo) {
	if p := k.sigPending &^ k.sigShared & mask; p != 0 {
		sig := firstSignal(p)
		k.sigPending &^= sigBit(sig)
		return sig, k.sigInfo[sig]
	}
	var shared uint64
	for _, t := range k.threads {
		if st := k.stateOf(t); !t.dead {
			shared |= st.sigPending & st.sigShared & mask
		}
	}
	if shared == 0 {
		return 0, sigInfo{}
	}
	sig := firstSignal(shared)
	b := sigBit(sig)
	for _, t := range append([]*thread{k.run}, k.threads...) {
		if st := k.stateOf(t); !t.dead && st.sigPending&st.sigShared&b != 0 {
			st.sigPending &^= b
			return sig, st.sigInfo[sig]
		}
	}
	return 0, sigInfo{}
}

// readSignalfd reads as many whole signalfd_siginfo records as fit and
// are pending; with none it waits for one (only the first record waits).
func (k *Kernel) readSignalfd(of *openFile, buf, count uint64) (uint64, Errno) {
	n := count / signalfdSiginfoSize
	if n == 0 {
		return 0, EINVAL
	}
	mask := of.sfd.mask
	var out []byte
	for uint64(len(out)) < n*signalfdSiginfoSize {
		sig, info := k.dequeueSignal(mask)
		if sig == 0 {
			if len(out) > 0 {
				break
			}
			if of.flags&oNonblock != 0 {
				return 0, EAGAIN
			}
			if e := k.waitSignalfd(mask); e != 0 {
				return 0, e
			}
			continue
		}
		rec := signalfdInfo(sig, info)
		out = append(out, rec[:]...)
	}
	if e := k.writeMem(buf, out); e != 0 {
		return 0, e
	}
	return uint64(len(out)), 0
}

// waitSignalfd waits for a signal of mask: ERESTARTSYS when a signal is
// to be delivered meanwhile (signal_pending), 0 when one of mask came.
func (k *Kernel) waitSignalfd(mask uint64) Errno {
	if k.multi() && !k.deliverable(0) {
		_, e := k.block("in signalfd read", 0, 0, -1, func(why waitResult) uint64 {
			if why == waitSignal {
				return errnoRet(errRestartSys)
			}
			return errnoRet(errRestartNoIntr)
		})
		k.run.io, k.run.ready = true, func() bool { return k.sigfdPending(mask) != 0 }
		return e
	}
	switch k.wait(-1, mask) {
	case waitForever:
		k.warnOnce("block signalfd read", "rvsim: warning: signalfd read would wait forever (nothing else can send the signal); returns EINTR")
		return EINTR
	case waitSignal:
		if k.sigPending&mask == 0 { // dequeue_signal comes before signal_pending
			return errRestartSys
		}
	}
	return 0
}

// Kernel siginfo offsets beyond si_signo, si_errno, si_code and the
// kill fields (asm-generic/siginfo.h, 64-bit).
const (
	siErrnoOff   = 4
	siValueOff   = 24 // si_int/si_ptr (timers, queued signals)
	siStatusOff  = 24 // SIGCHLD
	siUtimeOff   = 32
	siStimeOff   = 40
	siTidOff     = 16 // POSIX timers
	siOverrunOff = 20
	siBandOff    = 16 // SIGPOLL: si_band (long), si_fd
	siFDOff      = 24
	siLsbOff     = 24 // si_addr_lsb after si_addr
	siCallOff    = 16 // SIGSYS: si_call_addr, si_syscall, si_arch
	siSyscallOff = 24
	siArchOff    = 28

	sigCHLD  = 17
	sigPOLL  = 29
	siTimer  = -2
	siSigio  = -5
	busMceAR = 4 // BUS_MCEERR_AR, BUS_MCEERR_AO = 5
)

// siginfo layouts (siginfo_layout).
const (
	silKill = iota
	silTimer
	silPoll
	silFault
	silFaultMce
	silChld
	silRT
	silSys
)

// siginfoLayout says which union member a siginfo fills (kernel/signal.c
// siginfo_layout, without the SPARC and Alpha trap-number cases).
func siginfoLayout(sig int, code int32) int {
	if code > siUser && code < siKernel {
		limit := map[int]struct {
			n      int32
			layout int
		}{sigILL: {11, silFault}, sigFPE: {15, silFault}, sigSEGV: {10, silFault}, sigBUS: {5, silFault},
			sigTRAP: {6, silFault}, sigCHLD: {6, silChld}, sigPOLL: {6, silPoll}, sigSYS: {2, silSys}}
		if l, ok := limit[sig]; ok && code <= l.n {
			if sig == sigBUS && (code == busMceAR || code == busMceAR+1) {
				return silFaultMce
			}
			return l.layout
		}
		if code <= 6 { // NSIGPOLL
			return silPoll
		}
		return silKill
	}
	switch {
	case code == siTimer:
		return silTimer
	case code == siSigio:
		return silPoll
	case code < 0:
		return silRT
	}
	return silKill
}

// signalfdInfo is struct signalfd_siginfo for a dequeued signal
// (signalfd_copyinfo).
func signalfdInfo(sig int, si sigInfo) [signalfdSiginfoSize]byte {
	var b [signalfdSiginfoSize]byte
	code := int32(u32(si[:], 8))
	put32(b[:], 0, uint32(sig))
	put32(b[:], 4, u32(si[:], siErrnoOff))
	put32(b[:], 8, uint32(code))
	word := func(off int) uint32 { return u32(si[:], off) }
	long := func(off int) uint64 { return le64(si[off:]) }
	switch siginfoLayout(sig, code) {
	case silKill:
		put32(b[:], 12, word(siPidOff))
		put32(b[:], 16, word(siUIDOff))
	case silTimer:
		put32(b[:], 24, word(siTidOff))
		put32(b[:], 32, word(siOverrunOff))
		put64(b[:], 48, long(siValueOff))
		put32(b[:], 44, word(siValueOff))
	case silPoll:
		put32(b[:], 28, uint32(long(siBandOff)))
		put32(b[:], 20, word(siFDOff))
	case silFault:
		put64(b[:], 72, long(siAddrOff))
	case silFaultMce:
		put64(b[:], 72, long(siAddrOff))
		put16(b[:], 80, uint16(word(siLsbOff)))
	case silChld:
		put32(b[:], 12, word(siPidOff))
		put32(b[:], 16, word(siUIDOff))
		put32(b[:], 40, word(siStatusOff))
		put64(b[:], 56, long(siUtimeOff))
		put64(b[:], 64, long(siStimeOff))
	case silRT:
		put32(b[:], 12, word(siPidOff))
		put32(b[:], 16, word(siUIDOff))
		put64(b[:], 48, long(siValueOff))
		put32(b[:], 44, word(siValueOff))
	case silSys:
		put64(b[:], 88, long(siCallOff))
		put32(b[:], 84, word(siSyscallOff))
		put32(b[:], 96, word(siArchOff))
	}
	return b
}

// sigWake wakes the threads whose wait a signal just sent may have made
// ready (a watched signalfd): only those whose condition now holds.
func (k *Kernel) sigWake() {
	if k.exited {
		return
	}
	for _, t := range k.threads {
		if t.blocked && t.io && t.ready != nil && k.readyFor(t) {
			k.wake(t, waitReady)
		}
	}
}

// watchSigs is the union of the masks of the signalfds among ofs
// (directly or in an epoll instance).
func watchSigs(ofs []*openFile) uint64 {
	var m uint64
	for _, of := range ofs {
		switch of.kind {
		case kindSignalfd:
			m |= of.sfd.mask
		case kindEpoll:
			for _, it := range of.epoll.items {
				m |= watchSigs([]*openFile{it.key.of})
			}
		}
	}
	return m
}
