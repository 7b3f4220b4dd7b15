package syscalls

import (
	"math"
	"time"
)

// Clock ids.
const (
	clockRealtime         = 0
	clockMonotonic        = 1
	clockProcessCputimeID = 2
	clockThreadCputimeID  = 3
	clockMonotonicRaw     = 4
	clockRealtimeCoarse   = 5
	clockMonotonicCoarse  = 6
	clockBoottime         = 7
	clockRealtimeAlarm    = 8
	clockBoottimeAlarm    = 9
	clockTAI              = 11

	timerAbstime = 1    // TIMER_ABSTIME
	taiOffsetNS  = 37e9 // TAI - UTC since 2017
	coarseResNS  = 4e6  // jiffy at HZ=250
)

// Deterministic time. The core retires one instruction per nanosecond
// (a nominal 1 GHz with CPI 1): CLOCK_MONOTONIC and CLOCK_BOOTTIME are
// instret ns plus the time the process asked to sleep (sleeps return at
// once and advance the clock instead); CLOCK_REALTIME adds the epoch
// 2024-01-01T00:00:00Z; the CPU-time clocks are instret ns. With
// Config.HostTime the host's clocks are used and sleeps really sleep.

// monoNS is the monotonic time in ns.
func (k *Kernel) monoNS() int64 {
	if k.cfg.HostTime {
		return int64(time.Since(k.start))
	}
	return int64(k.instret) + k.sleptNS
}

// cpuNS is the process CPU time in ns.
func (k *Kernel) cpuNS() int64 {
	if k.cfg.HostTime {
		return int64(time.Since(k.start))
	}
	return int64(k.instret)
}

// epoch is CLOCK_REALTIME at instruction 0, in seconds (Config.Epoch).
func (k *Kernel) epoch() int64 {
	if k.cfg.Epoch != 0 {
		return k.cfg.Epoch
	}
	return epochSec
}

// now reads clock id in ns.
func (k *Kernel) now(clock int32) (int64, Errno) {
	switch clock {
	case clockRealtime, clockRealtimeCoarse, clockRealtimeAlarm, clockTAI:
		var ns int64
		if k.cfg.HostTime {
			ns = time.Now().UnixNano()
		} else {
			ns = k.epoch()*1e9 + k.monoNS()
		}
		ns += k.realSet
		if clock == clockTAI {
			ns += taiOffsetNS
		}
		return ns, 0
	case clockMonotonic, clockMonotonicRaw, clockMonotonicCoarse, clockBoottime, clockBoottimeAlarm:
		return k.monoNS(), 0
	case clockProcessCputimeID, clockThreadCputimeID:
		return k.cpuNS(), 0
	}
	if clock < 0 && k.cpuClockOK(clock) { // clock_getcpuclockid, pthread_getcpuclockid
		return k.cpuNS(), 0
	}
	return 0, EINVAL
}

// cpuClockOK checks a CPU-time clock id made from a pid or tid
// (MAKE_PROCESS_CPUCLOCK, MAKE_THREAD_CPUCLOCK: ~id << 3 | per-thread
// bit 4 | PROF 0, VIRT 1 or SCHED 2) that names this process or one of
// its threads. Each reads the process's CPU time (docs/LINUX.md).
func (k *Kernel) cpuClockOK(clock int32) bool {
	if clock&3 == 3 {
		return false
	}
	id := ^(clock >> 3)
	if clock&4 != 0 {
		return id == 0 || k.find(id) != nil
	}
	return id == 0 || id == k.pid
}

// setRealtime sets CLOCK_REALTIME to ns (clock_settime, settimeofday):
// later reads go on from it; the monotonic clocks do not move. Setting
// the clock needs CAP_SYS_TIME.
func (k *Kernel) setRealtime(ns int64) Errno {
	if !k.cred.capable(capSysTime) {
		return EPERM
	}
	now, _ := k.now(clockRealtime)
	k.realSet += ns - now
	k.clockWasSet()
	return 0
}

func sysClockSettime(k *Kernel, a sysArgs) (uint64, Errno) {
	ts, e := k.readTimespec(a.Ptr(1))
	if e != 0 {
		return 0, e
	}
	switch clock := a.Int(0); {
	case clock == clockRealtime:
	case clock < 0 && k.cpuClockOK(clock):
		return 0, EPERM // CPU-time clocks are not settable
	default:
		return 0, EINVAL
	}
	if ts.sec >= maxSleepNS/1e9 {
		return 0, EINVAL
	}
	return 0, k.setRealtime(ts.sec*1e9 + ts.nsec)
}

// sysSettimeofday sets the realtime clock from a timeval; the time zone
// argument is accepted and ignored, as Linux keeps it only for FAT.
func sysSettimeofday(k *Kernel, a sysArgs) (uint64, Errno) {
	if tv := a.Ptr(0); tv != 0 {
		b, e := k.readMem(tv, timevalSize)
		if e != 0 {
			return 0, e
		}
		sec, usec := int64(le64(b)), int64(le64(b[8:]))
		if sec < 0 || usec < 0 || usec >= 1e6 || sec >= maxSleepNS/1e9 {
			return 0, EINVAL
		}
		return 0, k.setRealtime(sec*1e9 + usec*1e3)
	}
	if tz := a.Ptr(1); tz != 0 {
		if _, e := k.readMem(tz, 8); e != 0 {
			return 0, e
		}
	}
	return 0, 0
}

// maxSleepNS bounds one sleep (about 100 years), so that the clock cannot
// overflow.
const maxSleepNS = 100 * 365 * 24 * 3600 * 1e9

// ns converts a valid timespec to ns, saturating at maxSleepNS.
func (t timespec) ns() int64 {
	if t.sec >= maxSleepNS/1e9 {
		return maxSleepNS
	}
	return t.sec*1e9 + t.nsec
}

// passTime lets the clock run on towards monotonic time until (< 0:
// none, with host) while every thread of the process is blocked: the
// children run first, their turns bounded by until; when none makes
// progress the clock jumps there, or, when a child's own turn ends
// sooner, to that end, and the turn goes back to its parent. host, when
// not nil, waits on the host's descriptors for that stretch first
// (waitHost); ready reports that one became ready. moved reports that
// anything happened (false: the clock has saturated); ran, that another
// process ran.
func (k *Kernel) passTime(until int64, host func(ns int64) bool) (ready, moved, ran bool) {
	if k.runChildren(k.childBound(until)) {
		k.wakeIO()
		k.handBackPastTurn(max(until, yieldBlocked))
		return false, true, true
	}
	now, stop := k.monoNS(), k.ownStop(until)
	if host != nil {
		d := int64(-1)
		if stop >= 0 {
			d = min(stop-now, maxSleepNS)
		}
		if host(d) {
			return true, true, false
		}
		if stop < 0 {
			return false, true, false // cannot happen: host(-1) returns only when ready
		}
	}
	if host == nil || !k.cfg.HostTime { // (a host wait under host time has let it pass)
		k.sleep(stop - now)
	}
	if stop != until {
		k.yieldTurn(max(until, yieldBlocked))
		k.wakeIO()
		return false, true, true
	}
	return false, k.monoNS() != now, false
}

// sleep lets d ns pass.
func (k *Kernel) sleep(d int64) {
	if d <= 0 {
		return
	}
	d = min(d, maxSleepNS)
	if k.sleptNS > math.MaxInt64/2 {
		return // the clock has reached the far future; it stays there
	}
	if k.cfg.HostTime {
		time.Sleep(time.Duration(d))
		return
	}
	k.sleptNS += d
}

func (k *Kernel) readTimespec(addr uint64) (timespec, Errno) {
	b, e := k.readMem(addr, timespecSize)
	if e != 0 {
		return timespec{}, e
	}
	ts := timespec{int64(le64(b)), int64(le64(b[8:]))}
	if ts.sec < 0 || ts.nsec < 0 || ts.nsec >= 1e9 {
		return timespec{}, EINVAL
	}
	return ts, 0
}

func sysClockGettime(k *Kernel, a sysArgs) (uint64, Errno) {
	ns, e := k.now(a.Int(0))
	if e != 0 {
		return 0, e
	}
	return 0, k.writeMem(a.Ptr(1), encodeTimespec(nsToTimespec(ns)))
}

func sysClockGetres(k *Kernel, a sysArgs) (uint64, Errno) {
	clock := a.Int(0)
	if _, e := k.now(clock); e != 0 {
		return 0, e
	}
	res := int64(1)
	if clock == clockRealtimeCoarse || clock == clockMonotonicCoarse {
		res = coarseResNS
	}
	if a.Ptr(1) == 0 {
		return 0, 0
	}
	return 0, k.writeMem(a.Ptr(1), encodeTimespec(timespec{0, res}))
}

func sysGettimeofday(k *Kernel, a sysArgs) (uint64, Errno) {
	if tv := a.Ptr(0); tv != 0 {
		ns, _ := k.now(clockRealtime)
		b := make([]byte, timevalSize)
		put64(b, 0, uint64(ns/1e9))
		put64(b, 8, uint64(ns%1e9/1e3))
		if e := k.writeMem(tv, b); e != 0 {
			return 0, e
		}
	}
	if tz := a.Ptr(1); tz != 0 {
		if e := k.writeMem(tz, make([]byte, 8)); e != 0 { // struct timezone: UTC, no DST
			return 0, e
		}
	}
	return 0, 0
}

// sysNanosleep sleeps; a signal that is delivered meanwhile ends the sleep
// with EINTR and the time left in *rem.
func sysNanosleep(k *Kernel, a sysArgs) (uint64, Errno) {
	ts, e := k.readTimespec(a.Ptr(0))
	if e != 0 {
		return 0, e
	}
	return k.sleepUntil(k.monoNS()+ts.ns(), a.Ptr(1))
}

// sleepUntil blocks until monotonic time deadline; when a signal
// interrupts it, the time left goes to rem (if not 0) and the result is
// EINTR.
func (k *Kernel) sleepUntil(deadline int64, rem uint64) (uint64, Errno) {
	if k.multi() && !k.deliverable(0) { // the other threads run meanwhile (thread.go)
		return k.block("asleep", 0, 0, deadline, func(why waitResult) uint64 {
			if why != waitSignal {
				return 0
			}
			if rem != 0 {
				if e := k.writeMem(rem, encodeTimespec(nsToTimespec(max(deadline-k.monoNS(), 0)))); e != 0 {
					return errnoRet(e)
				}
			}
			return errnoRet(EINTR)
		})
	}
	if k.wait(deadline, 0) != waitSignal {
		return 0, 0
	}
	if rem != 0 {
		if e := k.writeMem(rem, encodeTimespec(nsToTimespec(max(deadline-k.monoNS(), 0)))); e != 0 {
			return 0, e
		}
	}
	return 0, EINTR
}

func sysClockNanosleep(k *Kernel, a sysArgs) (uint64, Errno) {
	clock, flags := a.Int(0), a.Int(1)
	if clock == clockThreadCputimeID {
		return 0, EINVAL
	}
	now, e := k.now(clock)
	if e != 0 {
		return 0, e
	}
	ts, e := k.readTimespec(a.Ptr(2))
	if e != 0 {
		return 0, e
	}
	d := ts.ns()
	rem := a.Ptr(3)
	if flags&timerAbstime != 0 {
		d -= now
		rem = 0 // an absolute sleep is simply restarted: nothing is left to report
	}
	return k.sleepUntil(k.monoNS()+max(d, 0), rem)
}

// --- interval timers ---------------------------------------------------------------

// Interval timers (setitimer, getitimer; alarm in glibc). ITIMER_REAL
// counts monotonic time, ITIMER_VIRTUAL and ITIMER_PROF count the
// process's CPU time; with deterministic time both are derived from the
// retired-instruction count (1 ns each; only the real clock advances while
// the process sleeps). The driver stops the core at the exact instruction
// count of the next expiry (NextTimer) and the signal (SIGALRM, SIGVTALRM,
// SIGPROF; si_code SI_KERNEL) is delivered at that instruction boundary
// (Interrupt); an expiry inside a system call that waits is delivered when
// the call returns.
const (
	itimerReal    = 0
	itimerVirtual = 1
	itimerProf    = 2
	itimervalSize = 32 // struct __kernel_old_itimerval: two timevals

	hostTimerPoll = 1 << 20 // instructions between timer checks with host time
)

// itimer is one interval timer: value is the absolute expiry on the
// timer's clock in ns (0: disarmed), interval the reload.
type itimer struct{ value, interval int64 }

func (t *itimer) armed() bool { return t.value != 0 }

var itimerSignal = [3]int{sigALRM, sigVTALRM, sigPROF}

// timerClock reads the clock timer w counts.
func (k *Kernel) timerClock(w int) int64 {
	if w == itimerReal {
		return k.monoNS()
	}
	return k.cpuNS()
}

// fireTimers raises the signal of every timer that has expired and
// reloads it (a periodic timer that expired several times while the
// process slept raises one signal: hrtimer_forward's overruns).
func (k *Kernel) fireTimers() {
	for w := range k.timers {
		t := &k.timers[w]
		if !t.armed() {
			continue
		}
		now := k.timerClock(w)
		if now < t.value {
			continue
		}
		if t.interval > 0 {
			t.value += ((now-t.value)/t.interval + 1) * t.interval
		} else {
			t.value = 0
		}
		sig := itimerSignal[w]
		k.raiseProcess(sig, makeInfo(int32(sig), siKernel))
	}
	k.firePTimers()
}

// readTimeval reads a struct timeval as ns, EINVAL unless it is valid.
func (k *Kernel) readTimeval(b []byte) (int64, Errno) {
	sec, usec := int64(le64(b)), int64(le64(b[8:]))
	if sec < 0 || usec < 0 || usec >= 1e6 {
		return 0, EINVAL
	}
	if sec >= maxSleepNS/1e9 {
		return maxSleepNS, 0
	}
	return sec*1e9 + usec*1e3, 0
}

// itimerval encodes timer w as getitimer reports it.
func (k *Kernel) itimerval(w int) []byte {
	t := k.timers[w]
	var left int64
	if t.armed() {
		left = t.value - k.timerClock(w)
		if left <= 0 { // about to fire
			left = 1e3
			if w != itimerReal {
				left = coarseResNS
			}
		}
	}
	b := make([]byte, itimervalSize)
	put64(b, 0, uint64(t.interval/1e9))
	put64(b, 8, uint64(t.interval%1e9/1e3))
	put64(b, 16, uint64(left/1e9))
	put64(b, 24, uint64(left%1e9/1e3))
	return b
}

func sysGetitimer(k *Kernel, a sysArgs) (uint64, Errno) {
	w := a.Int(0)
	if w < 0 || w > itimerProf {
		return 0, EINVAL
	}
	return 0, k.writeMem(a.Ptr(1), k.itimerval(int(w)))
}

// sysSetitimer arms (or, with a zero value, disarms) a timer and returns
// the old setting. A NULL new value disarms, as Linux still accepts.
func sysSetitimer(k *Kernel, a sysArgs) (uint64, Errno) {
	w := a.Int(0)
	if w < 0 || w > itimerProf {
		return 0, EINVAL
	}
	var interval, value int64
	if p := a.Ptr(1); p != 0 {
		b, e := k.readMem(p, itimervalSize)
		if e != 0 {
			return 0, e
		}
		if interval, e = k.readTimeval(b); e != 0 {
			return 0, e
		}
		if value, e = k.readTimeval(b[16:]); e != 0 {
			return 0, e
		}
	}
	old := k.itimerval(int(w))
	t := &k.timers[w]
	*t = itimer{}
	if value > 0 {
		*t = itimer{value: k.timerClock(int(w)) + value, interval: interval}
	}
	if p := a.Ptr(2); p != 0 {
		if e := k.writeMem(p, old); e != 0 {
			return 0, e
		}
	}
	return 0, 0
}

// --- blocking ---------------------------------------------------------------------

// waitResult says why wait returned.
type waitResult uint8

const (
	waitSignal  waitResult = iota // a signal is deliverable (or pending in the wake set)
	waitTimeout                   // the deadline passed
	waitForever                   // no deadline and nothing that could send a signal
	waitReady                     // a host descriptor became ready (waitHost)
	waitOthers                    // another process ran (waitHost with others): look again
)

// wait lets time pass while the process is blocked, until monotonic time
// deadline (< 0: none), or until a signal is deliverable or one of wake
// is pending. ITIMER_REAL fires at its expiry meanwhile (the CPU-time
// timers do not advance while the process is blocked). With no deadline
// and no real timer armed, nothing can end the wait of a single-threaded
// process: the result is waitForever and the caller decides.
func (k *Kernel) wait(deadline int64, wake uint64) waitResult {
	return k.waitHost(deadline, wake, nil, false)
}

// waitHost is wait for a call that also waits on host descriptors (poll
// and select on a host pipe or terminal): host(ns) blocks the host up to
// ns of wall-clock time (< 0: without a limit) and reports whether a
// descriptor became ready. Each stretch of waiting is first spent on the
// host; if nothing became ready, the guest's clock then advances by the
// same stretch as an in-process wait's does (under Config.HostTime it
// already has). So a timeout on a host descriptor is the guest's timeout
// in both clocks: the guest sees its deterministic clock jump by the
// timeout, and the run really waited that long for input; input that
// arrives earlier ends the wait with the guest's clock unchanged.
// Meanwhile the children run (passTime); with others, the wait ends
// (waitOthers) when one of them made progress or the turn went to the
// parent and came back, for a caller whose condition another process
// may have met.
func (k *Kernel) waitHost(deadline int64, wake uint64, host func(ns int64) bool, others bool) waitResult {
	for {
		if k.deliverable(wake) {
			return waitSignal
		}
		now := k.monoNS()
		if deadline >= 0 && now >= deadline {
			return waitTimeout
		}
		until := deadline
		if at := k.nextMonoExpiry(); at >= 0 && (until < 0 || at < until) {
			until = at
		}
		if host == nil && until < 0 {
			return waitForever
		}
		ready, moved, ran := k.passTime(until, host)
		switch {
		case ready:
			return waitReady
		case ran && others:
			return waitOthers
		}
		if !moved { // the clock saturated: it cannot reach until
			if deadline >= 0 {
				return waitTimeout
			}
			return waitForever
		}
		k.fireTimers()
	}
}
