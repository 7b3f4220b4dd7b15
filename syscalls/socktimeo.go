package syscalls

// SO_RCVTIMEO and SO_SNDTIMEO (net/core/sock.c: sock_set_timeout,
// sock_get_timeout), on every socket: a blocking receive or accept that
// waits longer than the receive timeout, or a blocking send that waits
// longer than the send timeout, returns what it moved, else EAGAIN. The
// timeout runs on the process's deterministic clock. A signal ends such
// a wait with EINTR, never restarting it, even with SA_RESTART
// (sock_intr_errno); a wait that another thread's I/O wakes, started
// again, keeps its deadline (thread.timeoDeadline).

// sockTimeo is a socket's timeout: 0 none; > 0 a duration in ns; < 0 an
// immediate one (a negative tv_sec, which Linux takes as 0 jiffies).
type sockTimeo int64

// deadline is the monotonic time at which a wait that starts now gives
// up (-1: never), or the one a woken thread's wait, started again, had.
func (t sockTimeo) deadline(k *Kernel) int64 {
	if th := k.run; th != nil && th.timeoDeadline != 0 {
		d := th.timeoDeadline
		th.timeoDeadline = 0
		return d
	}
	switch {
	case t == 0:
		return -1
	case t < 0:
		return k.monoNS()
	}
	return k.monoNS() + int64(t)
}

// setSockTimeo sets of's SO_RCVTIMEO or SO_SNDTIMEO from the struct
// timeval at val (n bytes).
func (k *Kernel) setSockTimeo(of *openFile, name int32, val, n uint64) (uint64, Errno) {
	if n < 16 {
		return 0, EINVAL
	}
	b, e := k.readMem(val, 16)
	if e != 0 {
		return 0, e
	}
	sec, usec := int64(le64(b)), int64(le64(b[8:]))
	if usec < 0 || usec >= 1_000_000 {
		return 0, EDOM
	}
	t := sockTimeo(sec*1e9 + usec*1e3)
	switch {
	case sec < 0:
		t = -1
	case sec >= 1<<32: // beyond MAX_SCHEDULE_TIMEOUT's reach: none
		t = 0
	}
	if name == soRcvtimeo {
		of.rcvTimeo = t
	} else {
		of.sndTimeo = t
	}
	return 0, 0
}

// sockTimeoValue is getsockopt's struct timeval of of's SO_RCVTIMEO or
// SO_SNDTIMEO (0 for none and for an immediate one).
func sockTimeoValue(of *openFile, name int32) []byte {
	t := of.rcvTimeo
	if name == soSndtimeo {
		t = of.sndTimeo
	}
	b := make([]byte, 16)
	if t > 0 {
		put64(b, 0, uint64(t/1e9))
		put64(b, 8, uint64(t%1e9/1e3))
	}
	return b
}

// blockedIOUntil is blockedIO with a deadline (monotonic ns; < 0: none):
// EAGAIN once it has passed, EINTR at a signal.
func (k *Kernel) blockedIOUntil(what string, deadline int64) Errno {
	if deadline < 0 {
		return k.blockedIO(what)
	}
	if k.monoNS() >= deadline {
		return EAGAIN
	}
	if k.multi() && !k.deliverable(0) {
		t := k.run
		_, e := k.block("in "+what, 0, 0, deadline, func(why waitResult) uint64 {
			switch why {
			case waitReady:
				t.timeoDeadline = deadline
				return errnoRet(errRestartNoIntr)
			case waitTimeout:
				return errnoRet(EAGAIN)
			}
			return errnoRet(EINTR)
		})
		t.io = true
		return e
	}
	switch k.waitHost(deadline, 0, nil, true) {
	case waitSignal:
		return EINTR
	case waitTimeout:
		return EAGAIN
	}
	if k.exited {
		return EINTR
	}
	return 0
}
