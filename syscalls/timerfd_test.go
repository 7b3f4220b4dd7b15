package syscalls

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// its is a struct itimerspec {interval, value} in ns.
func (x *tk) its(interval, value int64) uint64 {
	return x.u64s(uint64(interval/1e9), uint64(interval%1e9), uint64(value/1e9), uint64(value%1e9))
}

func (x *tk) mono() int64 { return x.k.monoNS() }

func TestTimerfdErrors(t *testing.T) {
	x := newTK(t, Config{})
	tfd := uint64(x.call("timerfd_create", clockMonotonic, oCloexec|oNonblock))
	require.GreaterOrEqual(t, int64(tfd), int64(3))
	efd := uint64(x.call("eventfd2", 0, 0))
	alarm := errno(EPERM)
	if x.k.cred.capable(capWakeAlarm) {
		alarm = int64(tfd + 2)
	}
	for _, c := range []struct {
		desc string
		name string
		args []uint64
		want int64
	}{
		{"a CPU-time clock", "timerfd_create", []uint64{clockProcessCputimeID, 0}, errno(EINVAL)},
		{"an unknown flag", "timerfd_create", []uint64{clockMonotonic, 1}, errno(EINVAL)},
		{"an alarm clock needs CAP_WAKE_ALARM", "timerfd_create", []uint64{clockBoottimeAlarm, 0}, alarm},
		{"unknown settime flags", "timerfd_settime", []uint64{tfd, 4, x.its(0, 1), 0}, errno(EINVAL)},
		{"nsec out of range", "timerfd_settime", []uint64{tfd, 0, x.u64s(0, 0, 0, 1e9), 0}, errno(EINVAL)},
		{"a bad itimerspec", "timerfd_settime", []uint64{tfd, 0, 8, 0}, errno(EFAULT)},
		{"not a timerfd", "timerfd_settime", []uint64{efd, 0, x.its(0, 1), 0}, errno(EINVAL)},
		{"a closed descriptor", "timerfd_gettime", []uint64{99, x.alloc(32)}, errno(EBADF)},
		{"gettime to a bad address", "timerfd_gettime", []uint64{tfd, 8}, errno(EFAULT)},
		{"a read shorter than 8", "read", []uint64{tfd, x.alloc(8), 7}, errno(EINVAL)},
		{"nothing expired, nonblocking", "read", []uint64{tfd, x.alloc(8), 8}, errno(EAGAIN)},
		{"no write", "write", []uint64{tfd, x.u64s(1), 8}, errno(EINVAL)},
		{"TFD_IOC_SET_TICKS of 0", "ioctl", []uint64{tfd, tfdIocSetTicks, x.u64s(0)}, errno(EINVAL)},
		{"TFD_IOC_SET_TICKS on an eventfd", "ioctl", []uint64{efd, tfdIocSetTicks, x.u64s(1)}, errno(ENOTTY)},
	} {
		assert.Equal(t, c.want, x.call(c.name, c.args...), c.desc)
	}
	// An anonymous inode that /proc/self/fd names.
	link := x.alloc(64)
	n := x.call("readlinkat", fdcwd, x.str("/proc/self/fd/"+strconv.FormatUint(tfd, 10)), link, 64)
	assert.Equal(t, "anon_inode:[timerfd]", string(x.peek(link, uint64(n))))
	assert.Equal(t, int64(oRdwr|oNonblock), x.call("fcntl", tfd, fGetfl)&^oLargefile)
}

// TestTimerfdCounts: reads return the expiries counted on the clock; a
// read with none waits for the next (the clock jumps to it).
func TestTimerfdCounts(t *testing.T) {
	x := newTK(t, Config{})
	tfd := uint64(x.call("timerfd_create", clockMonotonic, 0))
	buf, cur := x.alloc(8), x.alloc(32)
	read := func() uint64 {
		t.Helper()
		require.Equal(t, int64(8), x.call("read", tfd, buf, 8))
		return x.u64(buf)
	}
	start := x.mono()
	for _, c := range []struct {
		desc            string
		interval, value int64 // set relative to now (value < 0: absolute -value)
		sleep           int64 // before the read
		want            uint64
		wantAt          int64 // the clock after the read, from the step's start
		left, intv      int64 // timerfd_gettime after the read
	}{
		{"one-shot: the read waits for it", 0, 5e6, 0, 1, 5e6, 0, 0},
		{"one-shot, already expired", 0, 1e6, 3e6, 1, 3e6, 0, 0},
		{"periodic: three expiries while asleep", 1e6, 1e6, 3.5e6, 3, 3.5e6, 0.5e6, 1e6},
		{"periodic: the read waits for the next period", 2e6, 2e6, 0, 1, 2e6, 2e6, 2e6},
		{"absolute, in the past: one expiry now", 0, -1, 0, 1, 0, 0, 0},
	} {
		step := x.mono()
		v := c.value
		flags := uint64(0)
		if v < 0 {
			flags, v = tfdTimerAbstime, -v
		}
		require.Zero(t, x.call("timerfd_settime", tfd, flags, x.its(c.interval, v), 0), c.desc)
		if c.sleep > 0 {
			require.Zero(t, x.call("nanosleep", x.u64s(0, uint64(c.sleep)), 0))
		}
		assert.Equal(t, c.want, read(), c.desc)
		assert.Equal(t, c.wantAt, x.mono()-step, c.desc)
		require.Zero(t, x.call("timerfd_gettime", tfd, cur))
		assert.Equal(t, [2]int64{c.intv, c.left}, [2]int64{int64(x.u64(cur + 8)), int64(x.u64(cur + 24))}, c.desc)
	}
	assert.Positive(t, x.mono()-start)

	// settime returns the old setting; a zero value disarms, and a read
	// of a disarmed timer that nothing can arm warns and fails.
	old := x.alloc(32)
	require.Zero(t, x.call("timerfd_settime", tfd, 0, x.its(3e9, 7e9), 0))
	require.Zero(t, x.call("timerfd_settime", tfd, 0, x.its(0, 0), old))
	assert.Equal(t, []uint64{3, 0, 7, 0}, []uint64{x.u64(old), x.u64(old + 8), x.u64(old + 16), x.u64(old + 24)})
	assert.Equal(t, errno(EINTR), x.call("read", tfd, buf, 8))
	assert.Contains(t, x.warn.String(), "timerfd read would wait forever")
	// A disarming setting keeps its interval (timerfd_setup stores it):
	// the next settime's old value and gettime report it.
	require.Zero(t, x.call("timerfd_settime", tfd, 0, x.its(1e6, 0), 0))
	require.Zero(t, x.call("timerfd_gettime", tfd, cur))
	assert.Equal(t, []uint64{0, 1e6, 0, 0}, []uint64{x.u64(cur), x.u64(cur + 8), x.u64(cur + 16), x.u64(cur + 24)})
	require.Zero(t, x.call("timerfd_settime", tfd, 0, x.its(0, 0), old))
	assert.Equal(t, []uint64{0, 1e6, 0, 0}, []uint64{x.u64(old), x.u64(old + 8), x.u64(old + 16), x.u64(old + 24)})

	// TFD_IOC_SET_TICKS sets the count; CLOCK_REALTIME takes absolute times on its clock.
	require.Zero(t, x.call("ioctl", tfd, tfdIocSetTicks, x.u64s(42)))
	assert.Equal(t, uint64(42), read())
	rt := uint64(x.call("timerfd_create", clockRealtime, 0))
	now, _ := x.k.now(clockRealtime)
	step := x.mono()
	require.Zero(t, x.call("timerfd_settime", rt, tfdTimerAbstime|tfdTimerCancelOnSet, x.its(0, now+4e6), 0))
	require.Equal(t, int64(8), x.call("read", rt, buf, 8))
	assert.Equal(t, int64(4e6), x.mono()-step)
	// A date past 2070 (100 years from the epoch; up to 2116) is kept as it is.
	require.Zero(t, x.call("timerfd_settime", rt, tfdTimerAbstime, x.u64s(0, 0, 4e9, 0), 0))
	require.Zero(t, x.call("timerfd_gettime", rt, cur))
	now, _ = x.k.now(clockRealtime)
	assert.Equal(t, int64(4e18)-now, int64(x.u64(cur+16))*1e9+int64(x.u64(cur+24)))
}

// TestTimerfdEndsWaits: ppoll, pselect6 and epoll_pwait watching a
// timerfd end at its expiry, before their timeout; an edge-triggered
// item reports once per expiry.
func TestTimerfdEndsWaits(t *testing.T) {
	x := newTK(t, Config{})
	tfd := uint64(x.call("timerfd_create", clockMonotonic, 0))
	e := newEpoll(x)
	require.Zero(t, e.ctl(epollCtlAdd, tfd, pollIn, 7))
	pfd := x.data([]byte{byte(tfd), 0, 0, 0, pollIn, 0, 0, 0})
	set := x.alloc(8)
	for _, c := range []struct {
		desc string
		wait func() int64
	}{
		{"ppoll", func() int64 { return x.call("ppoll", pfd, 1, x.u64s(0, 50e6), 0, 8) }},
		{"pselect6", func() int64 {
			require.NoError(t, x.m.WriteBytes(set, []byte{1 << tfd, 0, 0, 0, 0, 0, 0, 0}))
			return x.call("pselect6", 64, set, 0, 0, x.u64s(0, 50e6), 0)
		}},
		{"epoll_pwait", func() int64 { return x.call("epoll_pwait", e.ep, e.buf, 8, 50, 0, 8) }},
		{"epoll_pwait, no timeout", func() int64 { return x.call("epoll_pwait", e.ep, e.buf, 8, neg(-1), 0, 8) }},
	} {
		require.Zero(t, x.call("timerfd_settime", tfd, 0, x.its(0, 3e6), 0))
		start := x.mono()
		assert.Equal(t, int64(1), c.wait(), c.desc)
		assert.Equal(t, int64(3e6), x.mono()-start, "%s ends at the expiry", c.desc)
		require.Equal(t, int64(8), x.call("read", tfd, x.alloc(8), 8))
	}
	// Disarmed: the timeout.
	start := x.mono()
	assert.Zero(t, x.call("ppoll", pfd, 1, x.u64s(0, 20e6), 0, 8))
	assert.Equal(t, int64(20e6), x.mono()-start)

	// Edge-triggered: a periodic timer's every expiry is an edge, though
	// the count is never read; level-triggered reports at once.
	require.Zero(t, e.ctl(epollCtlMod, tfd, pollIn|epollET, 8))
	require.Zero(t, x.call("timerfd_settime", tfd, 0, x.its(1e6, 1e6), 0))
	start = x.mono()
	for i := range 3 {
		assert.Equal(t, [][2]uint64{{pollIn, 8}}, e.wait(8, 100), "edge %d", i)
		assert.Equal(t, int64(i+1)*1e6, x.mono()-start, "edge %d comes at its expiry", i)
	}
	require.Zero(t, e.ctl(epollCtlMod, tfd, pollIn, 9))
	assert.Equal(t, [][2]uint64{{pollIn, 9}}, e.wait(8, 100))
	assert.Equal(t, int64(3e6), x.mono()-start)
	require.Equal(t, int64(8), x.call("read", tfd, x.alloc(8), 8))
	assert.Equal(t, uint64(3), x.u64(x.next-16))
}

// TestSignalfd: reading the pending signals of the mask.
func TestSignalfd(t *testing.T) {
	x := newTK(t, Config{})
	usr := sigBit(10) | sigBit(12)
	require.Zero(t, x.call("rt_sigprocmask", sigBlock, x.u64s(usr|sigBit(sigALRM)), 0, 8))
	sfd := uint64(x.call("signalfd4", neg(-1), x.u64s(usr|sigBit(sigKILL)), 8, oNonblock|oCloexec))
	require.GreaterOrEqual(t, int64(sfd), int64(3))
	efd := uint64(x.call("eventfd2", 0, 0))
	buf := x.alloc(3 * signalfdSiginfoSize)
	for _, c := range []struct {
		desc string
		name string
		args []uint64
		want int64
	}{
		{"a sigset size other than 8", "signalfd4", []uint64{neg(-1), x.u64s(usr), 4, 0}, errno(EINVAL)},
		{"an unknown flag", "signalfd4", []uint64{neg(-1), x.u64s(usr), 8, 1}, errno(EINVAL)},
		{"a bad mask address", "signalfd4", []uint64{neg(-1), 8, 8, 0}, errno(EFAULT)},
		{"not a signalfd", "signalfd4", []uint64{efd, x.u64s(usr), 8, 0}, errno(EINVAL)},
		{"a closed descriptor", "signalfd4", []uint64{99, x.u64s(usr), 8, 0}, errno(EBADF)},
		{"shorter than one record", "read", []uint64{sfd, buf, 127}, errno(EINVAL)},
		{"nothing pending, nonblocking", "read", []uint64{sfd, buf, 128}, errno(EAGAIN)},
		{"no write", "write", []uint64{sfd, buf, 128}, errno(EINVAL)},
	} {
		assert.Equal(t, c.want, x.call(c.name, c.args...), c.desc)
	}
	assert.Equal(t, usr, x.k.fds[sfd].of.sfd.mask, "SIGKILL is dropped from the mask")

	// Two pending signals in one read, lowest first; the mask's signals only.
	require.Zero(t, x.call("kill", fixedPID, 12))
	require.Zero(t, x.call("tgkill", fixedPID, fixedPID, 10))
	require.Zero(t, x.call("kill", fixedPID, sigALRM))
	assert.Equal(t, int64(2*signalfdSiginfoSize), x.call("read", sfd, buf, 3*signalfdSiginfoSize))
	assert.Equal(t, []uint32{10, 0, uint32(siTkill & 0xffffffff), fixedPID}, []uint32{x.u32(buf), x.u32(buf + 4), x.u32(buf + 8), x.u32(buf + 12)})
	assert.Equal(t, []uint32{12, siUser, fixedPID}, []uint32{x.u32(buf + 128), x.u32(buf + 136), x.u32(buf + 140)})
	assert.Equal(t, sigBit(sigALRM), x.k.sigPending, "SIGALRM is not in the mask: still pending")

	// A signal sent to the thread comes before one sent to the process
	// (dequeue_signal: the thread's queue first), whatever the numbers.
	require.Zero(t, x.call("tgkill", fixedPID, fixedPID, 12))
	require.Zero(t, x.call("kill", fixedPID, 10))
	assert.Equal(t, int64(2*signalfdSiginfoSize), x.call("read", sfd, buf, 3*signalfdSiginfoSize))
	assert.Equal(t, []uint32{12, 10}, []uint32{x.u32(buf), x.u32(buf + 128)})

	// signalfd4 on the descriptor changes its mask.
	assert.Equal(t, int64(sfd), x.call("signalfd4", sfd, x.u64s(sigBit(sigALRM)), 8, 0))
	assert.Equal(t, int64(signalfdSiginfoSize), x.call("read", sfd, buf, 3*signalfdSiginfoSize))
	assert.Equal(t, uint32(sigALRM), x.u32(buf))
	assert.Zero(t, x.k.sigPending)

	// A queued signal's value; a signal that comes while ppoll waits (an
	// interval timer) ends the wait as an event, not EINTR.
	require.Equal(t, int64(sfd), x.call("signalfd4", sfd, x.u64s(usr|sigBit(sigALRM)), 8, 0))
	si := make([]byte, siginfoSize)
	put32(si, 8, uint32(siQueue&0xffffffff))
	put64(si, siValueOff, 0xfeedf00d12345678)
	require.Zero(t, x.call("rt_sigqueueinfo", fixedPID, 10, x.data(si)))
	assert.Equal(t, int64(signalfdSiginfoSize), x.call("read", sfd, buf, signalfdSiginfoSize))
	assert.Equal(t, []uint64{0x12345678, 0xfeedf00d12345678}, []uint64{uint64(x.u32(buf + 44)), x.u64(buf + 48)})
	require.Zero(t, x.call("setitimer", itimerReal, x.u64s(0, 0, 0, 2000), 0)) // 2 ms
	pfd := x.data([]byte{byte(sfd), 0, 0, 0, pollIn, 0, 0, 0})
	start := x.mono()
	require.Equal(t, int64(1), x.call("ppoll", pfd, 1, 0, 0, 8))
	assert.Equal(t, int64(2e6), x.mono()-start)
	require.Equal(t, int64(signalfdSiginfoSize), x.call("read", sfd, buf, signalfdSiginfoSize))
	assert.Equal(t, []uint32{sigALRM, siKernel}, []uint32{x.u32(buf), x.u32(buf + 8)})

	// A blocking read waits for the timer's signal; edge-triggered epoll
	// reports each signal queued.
	blocking := uint64(x.call("signalfd4", neg(-1), x.u64s(sigBit(sigALRM)), 8, 0))
	require.Zero(t, x.call("setitimer", itimerReal, x.u64s(0, 0, 0, 3000), 0))
	start = x.mono()
	require.Equal(t, int64(signalfdSiginfoSize), x.call("read", blocking, buf, signalfdSiginfoSize))
	assert.Equal(t, int64(3e6), x.mono()-start)
	e := newEpoll(x)
	require.Zero(t, e.ctl(epollCtlAdd, sfd, pollIn|epollET, 5))
	assert.Empty(t, e.wait(8, 0))
	require.Zero(t, x.call("kill", fixedPID, 10))
	assert.Equal(t, [][2]uint64{{pollIn, 5}}, e.wait(8, 0))
	assert.Empty(t, e.wait(8, 0), "the edge is consumed")
	require.Zero(t, x.call("kill", fixedPID, 12))
	assert.Equal(t, [][2]uint64{{pollIn, 5}}, e.wait(8, 0), "a second signal: a new edge")
}

// TestSignalfdInfo: the siginfo fields signalfd_copyinfo copies, by layout.
func TestSignalfdInfo(t *testing.T) {
	for _, c := range []struct {
		desc   string
		sig    int
		code   int32
		layout int
		off    int // where a siginfo word at 16.. lands in signalfd_siginfo
	}{
		{"kill", 10, siUser, silKill, 12},
		{"tgkill", 10, siTkill, silRT, 12},
		{"an interval timer", sigALRM, siKernel, silKill, 12},
		{"a fault", sigSEGV, segvMaperr, silFault, 72},
		{"a memory error", sigBUS, busMceAR, silFaultMce, 72},
		{"SIGCHLD", sigCHLD, 1, silChld, 12},
		{"SIGPOLL", sigPOLL, 1, silPoll, 28},
		{"SIGSYS", sigSYS, 1, silSys, 88},
		{"a positive code of another signal", 10, 3, silPoll, 28},
		{"a POSIX timer", 34, siTimer, silTimer, 24},
		{"SI_SIGIO", 10, siSigio, silPoll, 28},
		{"sigqueue", 34, siQueue, silRT, 12},
	} {
		assert.Equal(t, c.layout, siginfoLayout(c.sig, c.code), c.desc)
		si := makeInfo(int32(c.sig), c.code)
		put32(si[:], 16, 0xabcd)
		rec := signalfdInfo(c.sig, si)
		assert.Equal(t, uint32(c.sig), u32(rec[:], 0), c.desc)
		assert.Equal(t, uint32(c.code), u32(rec[:], 8), c.desc)
		assert.Equal(t, uint32(0xabcd), u32(rec[:], c.off), c.desc)
	}
}

// TestTimerfdSignalfdThreads: a thread blocked in epoll_pwait, ppoll or a
// read wakes when another thread sends a signal of a watched signalfd's
// mask, and at a watched timerfd's expiry; a timer disarmed meanwhile
// does not end the wait, its rearming does.
func TestTimerfdSignalfdThreads(t *testing.T) {
	x := newTK(t, Config{})
	x.k.sigMask = sigBit(10) | sigBit(12) // both threads block them
	tfd := uint64(x.call("timerfd_create", clockMonotonic, 0))
	sfd := uint64(x.call("signalfd4", neg(-1), x.u64s(sigBit(10)|sigBit(12)), 8, 0))
	e := newEpoll(x)
	require.Zero(t, e.ctl(epollCtlAdd, tfd, pollIn, 1))
	require.Zero(t, e.ctl(epollCtlAdd, sfd, pollIn, 2))
	buf := x.alloc(signalfdSiginfoSize)
	r := UserRegs{PC: 0x1004}
	x.spawn(&r, 0x9000, 0, x.alloc(4), 0) // 1001
	require.Equal(t, int32(1000), x.k.Tid())

	// A kill that every thread blocks: pending on 1001, read by 1000.
	x.ecall(&r, "epoll_pwait", e.ep, e.buf, 8, neg(-1), 0, 8)
	require.Equal(t, int32(1001), x.k.Tid(), "epoll_pwait blocks")
	x.ecall(&r, "kill", fixedPID, 10)
	x.ecall(&r, "sched_yield")
	require.Equal(t, int32(1000), x.k.Tid(), "the signal ends the wait")
	require.Equal(t, uint64(1), r.X[10])
	assert.Equal(t, [2]uint64{pollIn, 2}, [2]uint64{uint64(x.u32(e.buf)), x.u64(e.buf + 8)})
	x.ecall(&r, "read", sfd, buf, signalfdSiginfoSize)
	require.Equal(t, uint64(signalfdSiginfoSize), r.X[10])
	assert.Equal(t, uint32(10), x.u32(buf))
	assert.Zero(t, x.k.threads[1].st.sigPending, "taken from 1001's pending signals")

	// The same with ppoll on the signalfd alone (no timerfd to look at).
	sfdOnly := x.data([]byte{byte(sfd), 0, 0, 0, pollIn, 0, 0, 0})
	x.ecall(&r, "ppoll", sfdOnly, 1, 0, 0, 8)
	require.Equal(t, int32(1001), x.k.Tid(), "ppoll blocks")
	x.ecall(&r, "kill", fixedPID, 12)
	x.ecall(&r, "sched_yield")
	require.Equal(t, int32(1000), x.k.Tid(), "the signal ends ppoll")
	require.Equal(t, uint64(1), r.X[10])
	x.ecall(&r, "read", sfd, buf, signalfdSiginfoSize)
	assert.Equal(t, uint32(12), x.u32(buf))

	// The timer expires while both threads wait: the clock jumps to it.
	// (1001 waits on the futex f until 1000 wakes it.)
	f := x.alloc(4)
	x.ecall(&r, "timerfd_settime", tfd, 0, x.its(0, 5e6), 0)
	start := x.mono()
	x.ecall(&r, "epoll_pwait", e.ep, e.buf, 8, neg(-1), 0, 8)
	require.Equal(t, int32(1001), x.k.Tid())
	x.ecall(&r, "futex", f, futexWait, 0, 0, 0, 0)
	require.Equal(t, int32(1000), x.k.Tid(), "the expiry ends the wait")
	require.Equal(t, uint64(1), r.X[10])
	assert.Equal(t, [2]uint64{pollIn, 1}, [2]uint64{uint64(x.u32(e.buf)), x.u64(e.buf + 8)})
	assert.Equal(t, int64(5e6), x.mono()-start)
	x.ecall(&r, "read", tfd, buf, 8)
	require.Equal(t, uint64(8), r.X[10])
	x.ecall(&r, "futex", f, futexWake, 1, 0, 0, 0)

	// ppoll on the timerfd; 1001 disarms it and sleeps past its expiry,
	// then rearms it: the wait ends at the new expiry.
	pfd := x.data([]byte{byte(tfd), 0, 0, 0, pollIn, 0, 0, 0})
	x.ecall(&r, "timerfd_settime", tfd, 0, x.its(0, 5e6), 0)
	start = x.mono()
	x.ecall(&r, "ppoll", pfd, 1, 0, 0, 8)
	require.Equal(t, int32(1001), x.k.Tid())
	x.ecall(&r, "timerfd_settime", tfd, 0, x.its(0, 0), 0)
	x.ecall(&r, "nanosleep", x.u64s(0, 10e6), 0)
	require.Equal(t, int32(1001), x.k.Tid(), "disarmed: 1000 waits on")
	assert.Equal(t, int64(10e6), x.mono()-start)
	x.ecall(&r, "timerfd_settime", tfd, 0, x.its(0, 1e6), 0)
	x.ecall(&r, "futex", f, futexWait, 0, 0, 0, 0)
	require.Equal(t, int32(1000), x.k.Tid())
	require.Equal(t, uint64(1), r.X[10])
	assert.Equal(t, int64(11e6), x.mono()-start)
	x.ecall(&r, "futex", f, futexWake, 1, 0, 0, 0)

	// Blocking reads: a timerfd's waits for the expiry, a signalfd's for
	// another thread's tgkill; each call starts again and reads.
	x.ecall(&r, "read", tfd, buf, 8) // the expiry counted above
	x.ecall(&r, "timerfd_settime", tfd, 0, x.its(0, 2e6), 0)
	start = x.mono()
	x.ecall(&r, "read", tfd, buf, 8)
	require.Equal(t, int32(1001), x.k.Tid())
	x.ecall(&r, "futex", f, futexWait, 0, 0, 0, 0)
	require.Equal(t, int32(1000), x.k.Tid())
	assert.Equal(t, int64(2e6), x.mono()-start)
	assert.Equal(t, r.PC, uint64(0x1000), "the read starts again")
	r.PC += 4
	x.ecall(&r, "read", tfd, buf, 8)
	require.Equal(t, uint64(8), r.X[10])
	assert.Equal(t, uint64(1), x.u64(buf))
	x.ecall(&r, "futex", f, futexWake, 1, 0, 0, 0)

	x.ecall(&r, "read", sfd, buf, signalfdSiginfoSize)
	require.Equal(t, int32(1001), x.k.Tid())
	x.ecall(&r, "tgkill", fixedPID, fixedPID, 12)
	x.ecall(&r, "sched_yield")
	require.Equal(t, int32(1000), x.k.Tid(), "a tgkill to 1000 ends its read")
	r.PC += 4
	x.ecall(&r, "read", sfd, buf, signalfdSiginfoSize)
	require.Equal(t, uint64(signalfdSiginfoSize), r.X[10])
	assert.Equal(t, uint32(12), x.u32(buf))
}
