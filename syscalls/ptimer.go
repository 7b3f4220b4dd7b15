package syscalls

// POSIX per-process timers: timer_create, timer_settime, timer_gettime,
// timer_getoverrun and timer_delete (kernel/time/posix-timers.c), on the
// clocks clock_gettime reads. A timer counts on the monotonic clock (the
// real-time, monotonic and boot-time clocks: an absolute real-time
// expiry is converted when the timer is armed) or on the process's CPU
// clock. At expiry it sends its signal (SIGEV_SIGNAL, to the process;
// SIGEV_THREAD_ID, to one thread: glibc's SIGEV_THREAD helper) with
// si_code SI_TIMER, the timer's id, its overrun and its sigev_value, or
// nothing (SIGEV_NONE: timer_gettime polls it). A periodic timer that
// expired several times before it fired counts the missed expiries as
// its overrun, as hrtimer_forward does. Timers end at exec and are not
// inherited by a child.

const (
	sigevSignal   = 0 // SIGEV_SIGNAL
	sigevNone     = 1 // SIGEV_NONE
	sigevThreadID = 4 // SIGEV_THREAD_ID
	sigeventSize  = 64
	itimerspecLen = 32
	maxPTimers    = 1024
)

// posixTimer is one timer_create timer.
type posixTimer struct {
	clock    int32 // the clock it was created on (absolute times are on it)
	cpu      bool  // counts the process's CPU time, not the monotonic clock
	notify   int32 // SIGEV_*
	signo    int32
	value    uint64 // sigev_value
	tid      int32  // SIGEV_THREAD_ID's thread
	expiry   int64  // on its base clock, ns; 0: disarmed
	interval int64
	overrun  int32 // timer_getoverrun's: expiries the last delivered signal stood for, less one
	acc      int32 // the same, so far, for the signal sent last
	sent     bool  // a signal was sent and may still be pending
}

// pending reports whether t's signal is still pending on some thread.
func (k *Kernel) timerPending(t *posixTimer) bool {
	b := sigBit(int(t.signo))
	if k.sigPending&b != 0 {
		return true
	}
	for _, th := range k.threads {
		if th != k.run && th.st.sigPending&b != 0 {
			return true
		}
	}
	return false
}

// settleOverrun fixes the overrun of t's last signal once it has been delivered
// (it_overrun_last), as the kernel does at delivery.
func (k *Kernel) settleOverrun(t *posixTimer) {
	if t.sent && !k.timerPending(t) {
		t.overrun, t.acc, t.sent = t.acc, 0, false
	}
}

// base reads the clock a timer counts on.
func (k *Kernel) base(t *posixTimer) int64 {
	if t.cpu {
		return k.cpuNS()
	}
	return k.monoNS()
}

func (k *Kernel) ptimer(id int32) (*posixTimer, Errno) {
	if id < 0 || int(id) >= len(k.ptimers) || k.ptimers[id] == nil {
		return nil, EINVAL
	}
	return k.ptimers[id], 0
}

func sysTimerCreate(k *Kernel, a sysArgs) (uint64, Errno) {
	clock := a.Int(0)
	if _, e := k.now(clock); e != 0 {
		return 0, EINVAL
	}
	t := &posixTimer{clock: clock, notify: sigevSignal, signo: sigALRM}
	switch clock {
	case clockProcessCputimeID, clockThreadCputimeID:
		t.cpu = true
	case clockMonotonicRaw, clockRealtimeCoarse, clockMonotonicCoarse:
		return 0, EINVAL // clocks no timer counts (common_timer_create refuses them)
	}
	if clock < 0 {
		t.cpu = true // a CPU clock of this process or thread
	}
	id := -1
	for i, p := range k.ptimers {
		if p == nil {
			id = i
			break
		}
	}
	if id < 0 {
		if len(k.ptimers) >= maxPTimers {
			return 0, EAGAIN
		}
		id = len(k.ptimers)
	}
	t.value = uint64(id) // without a sigevent, sigev_value is the id
	if p := a.Ptr(1); p != 0 {
		b, e := k.readMem(p, sigeventSize)
		if e != 0 {
			return 0, e
		}
		t.value, t.signo, t.notify, t.tid = le64(b), int32(le64(b[8:])), int32(le64(b[12:])), int32(le64(b[16:]))
		switch t.notify {
		case sigevNone:
		case sigevSignal, sigevThreadID:
			if t.signo < 1 || t.signo > nsig {
				return 0, EINVAL
			}
			if t.notify == sigevThreadID && k.find(t.tid) == nil {
				return 0, EINVAL
			}
		default:
			return 0, EINVAL // SIGEV_THREAD is the C library's, made of SIGEV_THREAD_ID
		}
	}
	if e := k.writeU32(a.Ptr(2), uint32(id)); e != 0 {
		return 0, e
	}
	if id == len(k.ptimers) {
		k.ptimers = append(k.ptimers, t)
	} else {
		k.ptimers[id] = t
	}
	return 0, 0
}

// itimerspec encodes a timer's interval and time left (0 0: disarmed).
func (k *Kernel) itimerspec(t *posixTimer) []byte {
	var left int64
	if t.expiry != 0 {
		left = max(t.expiry-k.base(t), 1) // about to fire
	}
	b := make([]byte, itimerspecLen)
	copy(b, encodeTimespec(nsToTimespec(t.interval)))
	copy(b[16:], encodeTimespec(nsToTimespec(left)))
	return b
}

func sysTimerSettime(k *Kernel, a sysArgs) (uint64, Errno) {
	t, e := k.ptimer(a.Int(0))
	if e != 0 {
		return 0, e
	}
	flags := a.Int(1)
	if flags&^timerAbstime != 0 {
		return 0, EINVAL
	}
	interval, e := k.readTimespecNS(a.Ptr(2))
	if e != 0 {
		return 0, e
	}
	value, e := k.readTimespecNS(a.Ptr(2) + timespecSize)
	if e != 0 {
		return 0, e
	}
	if p := a.Ptr(3); p != 0 {
		if e := k.writeMem(p, k.itimerspec(t)); e != 0 {
			return 0, e
		}
	}
	t.expiry, t.interval, t.overrun = 0, interval, 0
	if value == 0 {
		return 0, 0 // disarmed
	}
	now := k.base(t)
	if flags&timerAbstime == 0 {
		t.expiry = now + value
	} else {
		// value is on the timer's own clock, which runs a constant offset
		// from its base (the epoch, for the real-time clock).
		clockNow, _ := k.now(t.clock)
		t.expiry = max(value-(clockNow-now), 1)
	}
	k.firePTimers() // an expiry already past fires now
	return 0, 0
}

// readTimespecNS reads a struct timespec as ns (EINVAL unless valid).
func (k *Kernel) readTimespecNS(addr uint64) (int64, Errno) {
	ts, e := k.readTimespec(addr)
	if e != 0 {
		return 0, e
	}
	return ts.ns(), 0
}

func sysTimerGettime(k *Kernel, a sysArgs) (uint64, Errno) {
	t, e := k.ptimer(a.Int(0))
	if e != 0 {
		return 0, e
	}
	return 0, k.writeMem(a.Ptr(1), k.itimerspec(t))
}

func sysTimerGetoverrun(k *Kernel, a sysArgs) (uint64, Errno) {
	t, e := k.ptimer(a.Int(0))
	if e != 0 {
		return 0, e
	}
	k.settleOverrun(t)
	return uint64(t.overrun), 0
}

func sysTimerDelete(k *Kernel, a sysArgs) (uint64, Errno) {
	id := a.Int(0)
	if _, e := k.ptimer(id); e != 0 {
		return 0, e
	}
	k.ptimers[id] = nil
	return 0, 0
}

// firePTimers sends the signal of every timer that has expired and
// reloads it.
func (k *Kernel) firePTimers() {
	for id, t := range k.ptimers {
		if t == nil || t.expiry == 0 {
			continue
		}
		now := k.base(t)
		if now < t.expiry {
			continue
		}
		missed := int32(0)
		if t.interval > 0 {
			m := (now - t.expiry) / t.interval
			t.expiry += (m + 1) * t.interval
			missed = int32(min(m, 1<<30))
		} else {
			t.expiry = 0
		}
		if t.notify == sigevNone {
			t.overrun = missed
			continue
		}
		if t.sent && k.timerPending(t) { // not queued twice: the pending one stands for this expiry too
			t.acc = min(t.acc+1+missed, 1<<30)
			continue
		}
		k.settleOverrun(t)
		t.acc, t.sent = missed, true
		info := makeInfo(t.signo, siTimer)
		put32(info[:], 16, uint32(id)) // si_tid (the timer's id)
		put32(info[:], 20, uint32(missed))
		put64(info[:], 24, t.value)
		if th := k.find(t.tid); t.notify == sigevThreadID && th != nil {
			k.raiseOn(th, int(t.signo), info)
		} else {
			k.raiseProcess(int(t.signo), info)
		}
	}
}

// nextMonoExpiry returns the earliest expiry of a signalling timer on the
// monotonic clock, ITIMER_REAL or a POSIX timer (-1: none): a wait ends
// there, and the core stops there.
func (k *Kernel) nextMonoExpiry() int64 {
	at, _ := k.nextPTimer()
	if t := &k.timers[itimerReal]; t.armed() && (at < 0 || t.value < at) {
		at = t.value
	}
	return at
}

// nextPTimer returns the earliest expiry of a signalling timer on the
// monotonic clock (for waits) and on the CPU clock (for the core's
// budget), each < 0 if none.
func (k *Kernel) nextPTimer() (mono, cpu int64) {
	mono, cpu = -1, -1
	for _, t := range k.ptimers {
		if t == nil || t.expiry == 0 || t.notify == sigevNone {
			continue
		}
		if t.cpu {
			if cpu < 0 || t.expiry < cpu {
				cpu = t.expiry
			}
		} else if mono < 0 || t.expiry < mono {
			mono = t.expiry
		}
	}
	return mono, cpu
}
