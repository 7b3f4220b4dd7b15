package syscalls

import "math"

// timerfd (fs/timerfd.c): timerfd_create, timerfd_settime,
// timerfd_gettime. A timerfd counts the expiries of one timer on
// CLOCK_MONOTONIC, CLOCK_BOOTTIME or CLOCK_REALTIME (the deterministic
// clocks of time.go, or the host's with Config.HostTime). Nothing
// interrupts the core at an expiry: the count is brought up to date
// (settle) whenever it is looked at, so it is a function of the clock
// alone. A read with no expiry waits for the next one (the clock jumps to
// it; another thread runs meanwhile); ppoll, pselect6 and epoll waits end
// at the watched timerfds' next expiry (watchNext).

// timerfd flags (uapi/linux/timerfd.h).
const (
	tfdTimerAbstime     = 1
	tfdTimerCancelOnSet = 2
	tfdIocSetTicks      = 0x40085400 // _IOW('T', 0, __u64)

	itimerspecSize = 32 // struct __kernel_itimerspec: interval, value
	capWakeAlarm   = 35
)

type timerfd struct {
	k        *Kernel // its clock
	clock    int32
	armed    bool
	value    int64 // the next expiry on clock, ns
	interval int64
	ticks    uint64 // expiries not yet read
	// mightCancel: an absolute realtime timer set with
	// TFD_TIMER_CANCEL_ON_SET; canceled: the realtime clock was set since
	// (reads fail with ECANCELED until the next timerfd_settime).
	mightCancel, canceled bool
	gens                  wakeGens // an expiry is an edge (epoll.go)
}

// settle counts the expiries up to now; a periodic timer moves to its
// next expiry after now (hrtimer_forward), a one-shot timer disarms.
func (t *timerfd) settle() {
	if !t.armed {
		return
	}
	now, _ := t.k.now(t.clock)
	if now < t.value {
		return
	}
	n := int64(1)
	if t.interval > 0 {
		n += (now - t.value) / t.interval
		t.value += n * t.interval
	} else {
		t.armed = false
	}
	t.ticks += uint64(n)
	t.gens[wakeIn]++
}

// left is the time to the next expiry (0 when disarmed).
func (t *timerfd) left() int64 {
	if !t.armed {
		return 0
	}
	now, _ := t.k.now(t.clock)
	return max(t.value-now, 0)
}

// nextMono is the next expiry in monotonic ns (-1: disarmed).
func (t *timerfd) nextMono() int64 {
	t.settle()
	if !t.armed {
		return -1
	}
	return t.k.monoNS() + t.left()
}

func sysTimerfdCreate(k *Kernel, a sysArgs) (uint64, Errno) {
	clock, flags := a.Int(0), a.Uint(1)
	if flags&^(oCloexec|oNonblock) != 0 {
		return 0, EINVAL
	}
	switch clock {
	case clockMonotonic, clockRealtime, clockBoottime:
	case clockRealtimeAlarm, clockBoottimeAlarm:
		if !k.cred.capable(capWakeAlarm) {
			return 0, EPERM
		}
	default:
		return 0, EINVAL
	}
	of := &openFile{kind: kindTimerfd, tfd: &timerfd{k: k, clock: clock},
		guest: "anon_inode:[timerfd]", flags: oRdwr | flags&oNonblock}
	return k.install(of, flags&oCloexec != 0, 0)
}

// timerfdFile returns the timerfd open as fd (EINVAL for another file).
func (k *Kernel) timerfdFile(fd int32) (*timerfd, Errno) {
	of, e := k.file(fd)
	if e != 0 {
		return nil, e
	}
	if of.kind != kindTimerfd {
		return nil, EINVAL
	}
	return of.tfd, 0
}

// itimerspec encodes t's setting as timerfd_gettime reports it.
func (t *timerfd) itimerspec() []byte {
	b := encodeTimespec(nsToTimespec(t.interval))
	return append(b, encodeTimespec(nsToTimespec(t.left()))...)
}

func sysTimerfdSettime(k *Kernel, a sysArgs) (uint64, Errno) {
	fd, flags, newAddr, oldAddr := a.Int(0), a.Int(1), a.Ptr(2), a.Ptr(3)
	if _, e := k.readMem(newAddr, itimerspecSize); e != 0 {
		return 0, e
	}
	if flags&^(tfdTimerAbstime|tfdTimerCancelOnSet) != 0 {
		return 0, EINVAL
	}
	interval, e := k.readTimespec(newAddr)
	if e != 0 {
		return 0, e
	}
	value, e := k.readTimespec(newAddr + timespecSize)
	if e != 0 {
		return 0, e
	}
	t, e := k.timerfdFile(fd)
	if e != 0 {
		return 0, e
	}
	t.settle()
	old := t.itimerspec()
	// timerfd_setup: the count restarts; a zero value disarms, though the
	// interval is kept (gettime and the next settime's old value report
	// it). CANCEL_ON_SET marks an absolute realtime timer that setting
	// the clock cancels (clockWasSet).
	t.ticks, t.armed, t.interval = 0, false, interval.ns()
	t.canceled = false
	t.mightCancel = flags&(tfdTimerAbstime|tfdTimerCancelOnSet) == tfdTimerAbstime|tfdTimerCancelOnSet &&
		(t.clock == clockRealtime || t.clock == clockRealtimeAlarm)
	if v := value.ns(); v != 0 {
		now, _ := k.now(t.clock)
		if flags&tfdTimerAbstime == 0 {
			v += now
		} else if value.sec < math.MaxInt64/2/1_000_000_000 {
			v = value.sec*1e9 + value.nsec // a realtime date may lie beyond ns's 100 years
		} else {
			v = math.MaxInt64 / 2
		}
		t.armed, t.value = true, v
	}
	k.ioWake() // a read blocked on it starts again with the new setting
	if oldAddr != 0 {
		return 0, k.writeMem(oldAddr, old)
	}
	return 0, 0
}

func sysTimerfdGettime(k *Kernel, a sysArgs) (uint64, Errno) {
	t, e := k.timerfdFile(a.Int(0))
	if e != 0 {
		return 0, e
	}
	t.settle()
	return 0, k.writeMem(a.Ptr(1), t.itimerspec())
}

// readTimerfd returns the expiries counted so far and resets the count;
// with none it waits for the next expiry.
func (k *Kernel) readTimerfd(of *openFile, buf, count uint64) (uint64, Errno) {
	if count < 8 {
		return 0, EINVAL
	}
	t := of.tfd
	for t.settle(); t.ticks == 0 && !t.canceled; t.settle() {
		if of.flags&oNonblock != 0 {
			return 0, EAGAIN
		}
		if !t.armed {
			// Only another thread's timerfd_settime can arm it.
			if e := k.blockedIO("timerfd read"); e != 0 {
				return 0, e
			}
			continue
		}
		next := t.nextMono()
		if k.multi() && !k.deliverable(0) {
			_, e := k.block("in timerfd read", 0, 0, next, func(why waitResult) uint64 {
				if why == waitSignal {
					return errnoRet(errRestartSys)
				}
				return errnoRet(errRestartNoIntr)
			})
			k.run.io = true
			return 0, e
		}
		if k.wait(next, 0) == waitSignal {
			return 0, errRestartSys
		}
	}
	if t.canceled { // timerfd_canceled
		t.ticks = 0
		return 0, ECANCELED
	}
	n := t.ticks
	t.ticks = 0
	return 8, k.writeU64(buf, n)
}

// clockWasSet cancels the timers that asked to be (timerfd_clock_was_set):
// each becomes readable, and its reads fail with ECANCELED.
func (k *Kernel) clockWasSet() {
	for _, fe := range k.fds {
		if fe == nil || fe.of.kind != kindTimerfd || !fe.of.tfd.mightCancel {
			continue
		}
		t := fe.of.tfd
		t.canceled = true
		t.ticks++
		t.gens[wakeIn]++
	}
	k.ioWake()
}

// setTicks is TFD_IOC_SET_TICKS: the count becomes *arg (not 0).
func (k *Kernel) setTicks(of *openFile, arg uint64) Errno {
	n, e := k.readU64(arg)
	if e != 0 {
		return e
	}
	if n == 0 {
		return EINVAL
	}
	of.tfd.settle()
	of.tfd.ticks = n
	of.tfd.gens[wakeIn]++
	k.ioWake()
	return 0
}

// watchNext is the earliest monotonic time at which a timerfd among ofs
// (or watched by an epoll instance among them) expires next; -1: none.
func (k *Kernel) watchNext(ofs []*openFile) int64 {
	next := int64(-1)
	for _, of := range ofs {
		n := int64(-1)
		switch of.kind {
		case kindTimerfd:
			n = of.tfd.nextMono()
		case kindEpoll:
			items := make([]*openFile, len(of.epoll.items))
			for i, it := range of.epoll.items {
				items[i] = it.key.of
			}
			n = k.watchNext(items)
		}
		if n >= 0 && (next < 0 || n < next) {
			next = n
		}
	}
	return next
}

// hasTimerfd reports whether ofs hold a timerfd (directly or in an epoll
// instance).
func hasTimerfd(ofs []*openFile) bool {
	for _, of := range ofs {
		if of.kind == kindTimerfd {
			return true
		}
		if of.kind == kindEpoll {
			for _, it := range of.epoll.items {
				if hasTimerfd([]*openFile{it.key.of}) {
					return true
				}
			}
		}
	}
	return false
}
