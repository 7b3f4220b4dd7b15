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

// now reads clock id in ns.
func (k *Kernel) now(clock int32) (int64, Errno) {
	switch clock {
	case clockRealtime, clockRealtimeCoarse, clockRealtimeAlarm, clockTAI:
		var ns int64
		if k.cfg.HostTime {
			ns = time.Now().UnixNano()
		} else {
			ns = epochSec*1e9 + k.monoNS()
		}
		if clock == clockTAI {
			ns += taiOffsetNS
		}
		return ns, 0
	case clockMonotonic, clockMonotonicRaw, clockMonotonicCoarse, clockBoottime, clockBoottimeAlarm:
		return k.monoNS(), 0
	case clockProcessCputimeID, clockThreadCputimeID:
		return k.cpuNS(), 0
	}
	return 0, EINVAL
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

func sysNanosleep(k *Kernel, a sysArgs) (uint64, Errno) {
	ts, e := k.readTimespec(a.Ptr(0))
	if e != 0 {
		return 0, e
	}
	k.sleep(ts.ns())
	return 0, 0
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
	if flags&timerAbstime != 0 {
		d -= now
	}
	k.sleep(d)
	return 0, 0
}
