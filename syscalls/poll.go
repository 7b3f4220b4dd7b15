package syscalls

import (
	"math/bits"
	"os"
)

// ppoll and pselect6 (riscv64 has no poll or select: glibc builds them,
// and pause(), on these). Readiness is decided here: regular files,
// directories and devices are always ready (as DEFAULT_POLLMASK says for
// files without a poll method), and so are standard streams that are not
// host files; pipes and eventfds of the process report their state; a
// pipe, FIFO or terminal of the host (a standard stream or an opened
// FIFO) reports what the host's poll says. With nothing ready the call
// waits for its timeout or a signal; the deterministic clock jumps to
// whichever comes first. With host descriptors among the fds the host
// waits too, for the same timeout in wall-clock time (time.go waitHost).

// poll events (asm-generic/poll.h).
const (
	pollIn     = 0x001
	pollPri    = 0x002
	pollOut    = 0x004
	pollErr    = 0x008
	pollHup    = 0x010
	pollNval   = 0x020
	pollRdnorm = 0x040
	pollRdband = 0x080
	pollWrnorm = 0x100
	pollWrband = 0x200

	defaultPollMask = pollIn | pollOut | pollRdnorm | pollWrnorm

	pollInSet  = pollRdnorm | pollRdband | pollIn | pollHup | pollErr
	pollOutSet = pollWrband | pollWrnorm | pollOut | pollErr
	pollExSet  = pollPri
)

// pollMask is what vfs_poll reports for an open file. A process that
// sees bytes another process wrote catches up with the writer's clock at
// the first of them, as a read of them does (drained): it cannot see
// them before they were written.
func (k *Kernel) pollMask(of *openFile) uint32 {
	m := k.fileMask(of)
	if m&pollIn != 0 {
		if p := of.inputPipe(); p != nil && len(p.marks) > 0 {
			k.catchUp(p.marks[0].t)
		}
	}
	return m
}

// inputPipe is the buffer an open file's reads take bytes from, when
// they come from a pipe-like buffer (a pipe's read end, a connected
// socket, a terminal's end); nil otherwise.
func (of *openFile) inputPipe() *pipe {
	switch of.kind {
	case kindPipe:
		if of.canRead() {
			return of.pipe
		}
	case kindSocket:
		return of.rx
	case kindPtyMaster:
		return of.pty.out
	case kindPtySlave:
		return of.pty.in
	}
	return nil
}

// fileMask is pollMask's readiness, before the clock's catch-up.
func (k *Kernel) fileMask(of *openFile) uint32 {
	switch of.kind {
	case kindPipe:
		p := of.pipe
		var m uint32
		if of.canRead() {
			if len(p.buf) > 0 {
				m |= pollIn | pollRdnorm
			}
			if p.writers == 0 {
				m |= pollHup
			}
			return m
		}
		// pipe_poll: writable when a buffer slot is free, so that any
		// write of up to PIPE_BUF bytes goes through without waiting (a
		// writer that polls, then writes 512 bytes into the last 47 of
		// room, would wait for a reader that waits for it).
		if p.capacity()-len(p.buf) >= pipeBuf {
			m |= pollOut | pollWrnorm
		}
		if p.readers == 0 {
			m |= pollErr
		}
		return m
	case kindSocket:
		return socketPollMask(of)
	case kindPtyMaster, kindPtySlave:
		return ptyPollMask(of)
	case kindEpoll: // ep_eventpoll_poll
		if k.anyReady(of.epoll) {
			return pollIn | pollRdnorm
		}
		return 0
	case kindTimerfd:
		if of.tfd.settle(); of.tfd.ticks > 0 {
			return pollIn | pollRdnorm
		}
		return 0
	case kindSignalfd:
		if k.sigfdPending(of.sfd.mask) != 0 {
			return pollIn | pollRdnorm
		}
		return 0
	case kindPidfd:
		return pidfdPollMask(of.process)
	case kindMqueue:
		return mqPollMask(of.mq.q)
	case kindInotify:
		if len(of.ino.queue) > 0 {
			return pollIn | pollRdnorm
		}
		return 0
	case kindEventfd:
		var m uint32
		if of.efd.count > 0 {
			m |= pollIn | pollRdnorm
		}
		if of.efd.count < eventfdMax {
			m |= pollOut | pollWrnorm
		}
		return m
	}
	return defaultPollMask
}

// hostWaitable returns the host file behind of when its readiness is
// the host's to tell (a pipe, FIFO, terminal or socket of the host); nil
// for regular files, directories and everything rvsim emulates.
func (of *openFile) hostWaitable() *os.File {
	if of.f == nil || of.isDir || of.proc || of.memfd {
		return nil
	}
	switch of.kind {
	case kindHost:
		if of.regular {
			return nil
		}
	case kindStdin, kindStdout:
		if fi, err := of.f.Stat(); err != nil || fi.Mode().IsRegular() || fi.IsDir() {
			return nil
		}
	default:
		return nil
	}
	return of.f
}

// hostSet is the host descriptors of one ppoll or pselect6 call.
type hostSet struct {
	fds []hostFD
	pos []int // the index of each in the caller's list
}

func (h *hostSet) add(f *os.File, events uint32, pos int) {
	h.fds = append(h.fds, hostFD{f: f, events: events})
	h.pos = append(h.pos, pos)
}

// waiter is the host wait for pollWait: nil without host descriptors.
func (h *hostSet) waiter() func(ns int64) bool {
	if len(h.fds) == 0 {
		return nil
	}
	return func(ns int64) bool { return hostPoll(h.fds, ns) }
}

// pollTimeout reads a ppoll/pselect6 timeout: the deadline in monotonic
// ns (-1: none) and whether it is zero.
func (k *Kernel) pollTimeout(addr uint64) (deadline int64, zero bool, e Errno) {
	if addr == 0 {
		return -1, false, 0
	}
	ts, e := k.readTimespec(addr)
	if e != 0 {
		return 0, false, e
	}
	return k.monoNS() + ts.ns(), ts.ns() == 0, 0
}

// pollFinish writes the time left back to the timeout (as
// poll_select_finish does for ppoll and pselect6) and, unless a signal
// interrupted the call, restores the signal mask the call replaced.
func (k *Kernel) pollFinish(tsAddr uint64, deadline int64, zero bool, interrupted bool) Errno {
	if !interrupted && k.restoreMask {
		k.sigMask, k.restoreMask = k.savedMask, false
	}
	return k.pollTimeLeft(tsAddr, deadline, zero)
}

// pollTimeLeft writes the time left back to the timeout. (A blocked
// thread's wait ends while another thread's state is current: its mask
// is put back at its switch-in, settleRestore.)
func (k *Kernel) pollTimeLeft(tsAddr uint64, deadline int64, zero bool) Errno {
	if tsAddr == 0 || zero {
		return 0
	}
	return k.writeMem(tsAddr, encodeTimespec(nsToTimespec(max(deadline-k.monoNS(), 0))))
}

// blockPoll blocks a ppoll or pselect6 (or, with no descriptors, a
// pause or sleep) of a thread whose descriptors another thread can make
// ready: ioWake (or sigWake, or a timerfd of ofs expiring) ends the wait
// when scan finds one ready, then done gives the call's result.
func (k *Kernel) blockPoll(what string, tsAddr uint64, deadline int64, ofs []*openFile, scan func() int, done func(ready int) uint64) (uint64, Errno) {
	k.block("in "+what, 0, 0, deadline, func(why waitResult) uint64 {
		ready := 0
		if why != waitSignal {
			ready = scan()
		}
		if e := k.pollTimeLeft(tsAddr, deadline, false); e != 0 {
			return errnoRet(e)
		}
		if why == waitSignal {
			return errnoRet(EINTR)
		}
		return done(ready)
	})
	k.run.io, k.run.ready = true, func() bool { return scan() > 0 }
	k.watchTimers(ofs)
	return 0, errBlocked
}

// waitMask installs the signal mask a ppoll or epoll_pwait waits with,
// if the call gives one (addr, its sigsetsize size).
func (k *Kernel) waitMask(addr, size uint64) Errno {
	if addr == 0 {
		return 0
	}
	if size != 8 {
		return EINVAL
	}
	m, e := k.readU64(addr)
	if e != 0 {
		return e
	}
	k.setTempMask(m)
	return 0
}

// watchTimers lets the running thread's blocked wait end at the next
// expiry of a timerfd among ofs, if it is ready then (wakeExpired).
func (k *Kernel) watchTimers(ofs []*openFile) {
	if hasTimerfd(ofs) {
		k.run.next = func() int64 { return k.watchNext(ofs) }
	}
}

// pollWait blocks a ppoll, pselect6 or epoll_wait that found nothing
// ready; host waits on the host descriptors among its fds (nil if none).
// The wait also ends at the next expiry of a timerfd among ofs, when
// ready says something is ready then (else it waits on: the timer may
// have been rearmed for later), and at a signal of a watched signalfd's
// mask, which is not an interruption: the caller rescans.
func (k *Kernel) pollWait(what string, deadline int64, host func(ns int64) bool, ofs []*openFile, ready func() bool) (interrupted bool) {
	sigs := watchSigs(ofs)
	for {
		if ready() {
			return false
		}
		// With a deadline, a timerfd or an interval timer to reach, the
		// process goes on by itself: its children run, its parent waits.
		until := deadline
		for _, at := range [...]int64{k.watchNext(ofs), k.nextMonoExpiry()} {
			if at >= 0 && (until < 0 || at < until) {
				until = at
			}
		}
		if !k.deliverable(sigs) && k.othersServe(until) { // another process may make one ready (fork.go)
			if k.exited {
				return true
			}
			continue
		}
		until = deadline
		if n := k.watchNext(ofs); n >= 0 && (until < 0 || n < until) {
			until = n
		}
		switch k.waitHost(until, sigs, host, true) {
		case waitOthers:
			if k.exited {
				return true
			}
			continue
		case waitSignal:
			return k.deliverable(0)
		case waitForever:
			k.warnOnce(what, "rvsim: warning: %s waits forever (no timeout, nothing can become ready); returns EINTR", what)
			return true
		case waitTimeout:
			if until != deadline && k.monoNS() >= until && !ready() {
				continue
			}
		}
		return false
	}
}

func sysPpoll(k *Kernel, a sysArgs) (uint64, Errno) {
	fdsAddr, nfds, tsAddr, maskAddr := a.Ptr(0), a.Ptr(1), a.Ptr(2), a.Ptr(3)
	if nfds > k.rlim[rlimitNofile].cur {
		return 0, EINVAL
	}
	deadline, zero, e := k.pollTimeout(tsAddr)
	if e != 0 {
		return 0, e
	}
	b, e := k.readMem(fdsAddr, nfds*pollfdSize)
	if e != 0 {
		return 0, e
	}
	if e := k.waitMask(maskAddr, a.Ptr(4)); e != 0 {
		return 0, e
	}
	var host hostSet
	var ofs []*openFile
	for i := uint64(0); i < nfds; i++ {
		rec := b[i*pollfdSize:]
		if fd := int32(u32(rec, 0)); fd >= 0 {
			if of, e := k.file(fd); e == 0 {
				ofs = append(ofs, of)
				if f := of.hostWaitable(); f != nil {
					host.add(f, uint32(rec[4])|uint32(rec[5])<<8, int(i))
				}
			}
		}
	}
	scan := func() int {
		hostPoll(host.fds, 0)
		ready, h := 0, 0
		for i := uint64(0); i < nfds; i++ {
			rec := b[i*pollfdSize:]
			fd := int32(u32(rec, 0))
			events := uint32(rec[4]) | uint32(rec[5])<<8
			var rev uint32
			if fd >= 0 {
				switch of, e := k.file(fd); {
				case e != 0:
					rev = pollNval
				case h < len(host.pos) && host.pos[h] == int(i):
					rev = host.fds[h].revents & (events | pollErr | pollHup)
					h++
				default:
					rev = k.pollMask(of) & (events | pollErr | pollHup)
				}
			}
			put16(rec, 6, uint16(rev))
			if rev != 0 {
				ready++
			}
		}
		return ready
	}
	ready := scan()
	interrupted := false
	if ready == 0 && !zero && k.multi() && !k.deliverable(0) {
		// The other threads run meanwhile (and may make an fd ready; the
		// host's descriptors are watched as they run and waited on when
		// every thread waits: thread.host).
		defer func() { k.run.host = host.fds }()
		return k.blockPoll("ppoll", tsAddr, deadline, ofs, scan, func(ready int) uint64 {
			if e := k.writeMem(fdsAddr, b); e != 0 {
				return errnoRet(e)
			}
			return uint64(ready)
		})
	}
	if ready == 0 && !zero {
		if interrupted = k.pollWait("ppoll", deadline, host.waiter(), ofs, func() bool { return scan() > 0 }); !interrupted {
			ready = scan()
		}
	}
	if e := k.pollFinish(tsAddr, deadline, zero, interrupted); e != 0 {
		return 0, e
	}
	if interrupted {
		return 0, EINTR
	}
	return uint64(ready), k.writeMem(fdsAddr, b)
}

// sysPselect6 is select with a timespec timeout and a temporary signal
// mask (its sixth argument points at {const sigset_t *ss; size_t len}).
func sysPselect6(k *Kernel, a sysArgs) (uint64, Errno) {
	n := a.Int(0)
	if n < 0 {
		return 0, EINVAL
	}
	// Bits beyond the descriptor table (at least 64 wide) are ignored.
	maxFDs := max(64, (len(k.fds)+63)&^63)
	n = min(n, int32(maxFDs))
	words := uint64(n+63) / 64
	deadline, zero, e := k.pollTimeout(a.Ptr(4))
	if e != 0 {
		return 0, e
	}
	var sets [3][]uint64
	for i := range sets {
		addr := a.Ptr(1 + i)
		if addr == 0 {
			continue
		}
		b, e := k.readMem(addr, words*8)
		if e != 0 {
			return 0, e
		}
		sets[i] = make([]uint64, words)
		for w := range sets[i] {
			sets[i][w] = le64(b[8*w:])
		}
		if w := words; w > 0 && n%64 != 0 {
			sets[i][w-1] &= 1<<(uint(n)%64) - 1
		}
	}
	if sig := a.Ptr(5); sig != 0 {
		b, e := k.readMem(sig, 16)
		if e != 0 {
			return 0, e
		}
		if e := k.waitMask(le64(b), le64(b[8:])); e != 0 {
			return 0, e
		}
	}
	// Every descriptor named must be open.
	var ofs []*openFile
	for _, s := range sets {
		for w, word := range s {
			for ; word != 0; word &= word - 1 {
				fd := int32(w*64 + bits.TrailingZeros64(word))
				of, e := k.file(fd)
				ofs = append(ofs, of)
				if e != 0 {
					if k.restoreMask {
						k.sigMask, k.restoreMask = k.savedMask, false
					}
					return 0, EBADF
				}
			}
		}
	}
	// The host descriptors named, with the events of the sets naming them
	// (select's POLLIN_SET, POLLOUT_SET and POLLEX_SET ask for these).
	masks := [3]uint32{pollInSet, pollOutSet, pollExSet}
	asks := [3]uint32{pollIn | pollRdnorm | pollRdband, pollOut | pollWrnorm | pollWrband, pollPri}
	var host hostSet
	hostAt := map[int32]int{}
	for i, s := range sets {
		for w, word := range s {
			for ; word != 0; word &= word - 1 {
				fd := int32(w*64 + bits.TrailingZeros64(word))
				of, _ := k.file(fd)
				f := of.hostWaitable()
				if f == nil {
					continue
				}
				if j, ok := hostAt[fd]; ok {
					host.fds[j].events |= asks[i]
					continue
				}
				hostAt[fd] = len(host.fds)
				host.add(f, asks[i], int(fd))
			}
		}
	}
	var res [3][]uint64
	scan := func() int {
		hostPoll(host.fds, 0)
		ready := 0
		for i, s := range sets {
			if s == nil {
				continue
			}
			res[i] = make([]uint64, words)
			for w, word := range s {
				for ; word != 0; word &= word - 1 {
					bit := bits.TrailingZeros64(word)
					fd := int32(w*64 + bit)
					var m uint32
					of, e := k.file(fd)
					switch j, ok := hostAt[fd]; {
					case e != 0: // closed by another thread meanwhile: do_select's DEFAULT_POLLMASK, ready
						m = defaultPollMask
					case ok:
						m = host.fds[j].revents
					default:
						m = k.pollMask(of)
					}
					if m&masks[i] != 0 {
						res[i][w] |= 1 << bit
						ready++
					}
				}
			}
		}
		return ready
	}
	writeSets := func() Errno {
		for i, r := range res {
			if r == nil {
				continue
			}
			b := make([]byte, 8*len(r))
			for w, v := range r {
				put64(b, 8*w, v)
			}
			if e := k.writeMem(a.Ptr(1+i), b); e != 0 {
				return e
			}
		}
		return 0
	}
	ready := scan()
	interrupted := false
	if ready == 0 && !zero && k.multi() && !k.deliverable(0) {
		defer func() { k.run.host = host.fds }()
		return k.blockPoll("pselect6", a.Ptr(4), deadline, ofs, scan, func(ready int) uint64 {
			if e := writeSets(); e != 0 {
				return errnoRet(e)
			}
			return uint64(ready)
		})
	}
	if ready == 0 && !zero {
		if interrupted = k.pollWait("pselect6", deadline, host.waiter(), ofs, func() bool { return scan() > 0 }); !interrupted {
			ready = scan()
		}
	}
	if e := k.pollFinish(a.Ptr(4), deadline, zero, interrupted); e != 0 {
		return 0, e
	}
	if interrupted {
		return 0, EINTR
	}
	return uint64(ready), writeSets()
}
