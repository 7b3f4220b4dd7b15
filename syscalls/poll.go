package syscalls

import "math/bits"

// ppoll and pselect6 (riscv64 has no poll or select: glibc builds them,
// and pause(), on these). Readiness is decided here: regular files,
// directories, devices and the standard streams are always ready (as
// DEFAULT_POLLMASK says for files without a poll method; a terminal or a
// pipe on the host is assumed ready, and reading it blocks the host as
// read would); pipes and eventfds report their state. With nothing ready
// the call waits for its timeout or a signal; the deterministic clock
// jumps to whichever comes first.

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

// pollMask is what vfs_poll reports for an open file.
func (k *Kernel) pollMask(of *openFile) uint32 {
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
		if len(p.buf) < pipeCapacity {
			m |= pollOut | pollWrnorm
		}
		if p.readers == 0 {
			m |= pollErr
		}
		return m
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
	if tsAddr == 0 || zero {
		return 0
	}
	return k.writeMem(tsAddr, encodeTimespec(nsToTimespec(max(deadline-k.monoNS(), 0))))
}

// pollWait blocks a ppoll or pselect6 that found nothing ready.
func (k *Kernel) pollWait(what string, deadline int64) (interrupted bool) {
	switch k.wait(deadline, 0) {
	case waitSignal:
		return true
	case waitForever:
		k.warnOnce(what, "rvsim: warning: %s waits forever (no timeout, nothing can become ready); returns EINTR", what)
		return true
	}
	return false
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
	if maskAddr != 0 {
		if a.Ptr(4) != 8 {
			return 0, EINVAL
		}
		m, e := k.readU64(maskAddr)
		if e != 0 {
			return 0, e
		}
		k.setTempMask(m)
	}
	scan := func() int {
		ready := 0
		for i := uint64(0); i < nfds; i++ {
			rec := b[i*pollfdSize:]
			fd := int32(u32(rec, 0))
			events := uint32(rec[4]) | uint32(rec[5])<<8
			var rev uint32
			if fd >= 0 {
				if of, e := k.file(fd); e != 0 {
					rev = pollNval
				} else {
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
	if ready == 0 && !zero {
		interrupted = k.pollWait("ppoll", deadline)
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
		if maskAddr := le64(b); maskAddr != 0 {
			if le64(b[8:]) != 8 {
				return 0, EINVAL
			}
			m, e := k.readU64(maskAddr)
			if e != 0 {
				return 0, e
			}
			k.setTempMask(m)
		}
	}
	// Every descriptor named must be open.
	for _, s := range sets {
		for w, word := range s {
			for ; word != 0; word &= word - 1 {
				fd := int32(w*64 + bits.TrailingZeros64(word))
				if _, e := k.file(fd); e != 0 {
					if k.restoreMask {
						k.sigMask, k.restoreMask = k.savedMask, false
					}
					return 0, EBADF
				}
			}
		}
	}
	masks := [3]uint32{pollInSet, pollOutSet, pollExSet}
	var res [3][]uint64
	ready := 0
	for i, s := range sets {
		if s == nil {
			continue
		}
		res[i] = make([]uint64, words)
		for w, word := range s {
			for ; word != 0; word &= word - 1 {
				bit := bits.TrailingZeros64(word)
				of, _ := k.file(int32(w*64 + bit))
				if k.pollMask(of)&masks[i] != 0 {
					res[i][w] |= 1 << bit
					ready++
				}
			}
		}
	}
	interrupted := false
	if ready == 0 && !zero {
		interrupted = k.pollWait("pselect6", deadline)
	}
	if e := k.pollFinish(a.Ptr(4), deadline, zero, interrupted); e != 0 {
		return 0, e
	}
	if interrupted {
		return 0, EINTR
	}
	for i, r := range res {
		if r == nil {
			continue
		}
		b := make([]byte, 8*len(r))
		for w, v := range r {
			put64(b, 8*w, v)
		}
		if e := k.writeMem(a.Ptr(1+i), b); e != 0 {
			return 0, e
		}
	}
	return uint64(ready), 0
}
