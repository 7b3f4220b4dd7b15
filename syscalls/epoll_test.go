package syscalls

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

// epx is a test's view of one epoll instance.
type epx struct {
	x   *tk
	ep  uint64
	buf uint64 // room for 8 events
}

func newEpoll(x *tk) *epx {
	ep := x.call("epoll_create1", 0)
	require.GreaterOrEqual(x.t, ep, int64(3))
	return &epx{x: x, ep: uint64(ep), buf: x.alloc(8 * epollEventSize)}
}

// ctl calls epoll_ctl with an event of events and data.
func (e *epx) ctl(op, fd uint64, events uint32, data uint64) int64 {
	b := make([]byte, epollEventSize)
	put32(b, 0, events)
	put64(b, 8, data)
	return e.x.call("epoll_ctl", e.ep, op, fd, e.x.data(b))
}

// wait calls epoll_pwait with timeout ms and returns {events, data} pairs.
func (e *epx) wait(max int, ms int64) [][2]uint64 {
	e.x.t.Helper()
	n := e.x.call("epoll_pwait", e.ep, e.buf, uint64(max), neg(ms), 0, 8)
	require.GreaterOrEqual(e.x.t, n, int64(0))
	var out [][2]uint64
	for i := range n {
		a := e.buf + uint64(i)*epollEventSize
		out = append(out, [2]uint64{uint64(e.x.u32(a)), e.x.u64(a + 8)})
	}
	return out
}

func TestEpollErrors(t *testing.T) {
	x := workdir(t, "f=x")
	f := x.open("f", oRdonly, 0)
	null := x.open("/dev/null", oRdonly, 0)
	fds := x.alloc(8)
	require.Zero(t, x.call("pipe2", fds, 0))
	r, _ := x.fds2(fds)
	e := newEpoll(x)
	other := newEpoll(x)

	require.Equal(t, errno(EINVAL), x.call("epoll_create1", 1), "unknown flag")
	cl := x.call("epoll_create1", oCloexec)
	require.GreaterOrEqual(t, cl, int64(3))
	require.Equal(t, int64(fdCloexec), x.call("fcntl", uint64(cl), fGetfd))

	for _, tc := range []struct {
		desc string
		got  int64
		want Errno
	}{
		{"bad epfd", x.call("epoll_ctl", 99, epollCtlAdd, r, x.alloc(16)), EBADF},
		{"bad fd", e.ctl(epollCtlAdd, 99, pollIn, 0), EBADF},
		{"regular file", e.ctl(epollCtlAdd, f, pollIn, 0), EPERM},
		{"/dev/null", e.ctl(epollCtlAdd, null, pollIn, 0), EPERM},
		{"epfd not epoll", x.call("epoll_ctl", r, epollCtlAdd, r, x.alloc(16)), EINVAL},
		{"itself", e.ctl(epollCtlAdd, e.ep, pollIn, 0), EINVAL},
		{"unknown op", e.ctl(7, r, pollIn, 0), EINVAL},
		{"exclusive modify", e.ctl(epollCtlMod, r, pollIn|epollExclusive, 0), EINVAL},
		{"exclusive epoll", e.ctl(epollCtlAdd, other.ep, pollIn|epollExclusive, 0), EINVAL},
		{"exclusive with oneshot", e.ctl(epollCtlAdd, r, pollIn|epollExclusive|epollOneshot, 0), EINVAL},
		{"delete absent", e.ctl(epollCtlDel, r, 0, 0), ENOENT},
		{"modify absent", e.ctl(epollCtlMod, r, pollIn, 0), ENOENT},
		{"bad event address", x.call("epoll_ctl", e.ep, epollCtlAdd, r, 8), EFAULT},
		{"wait: no events", x.call("epoll_pwait", e.ep, e.buf, 0, 0, 0, 8), EINVAL},
		{"wait: too many", x.call("epoll_pwait", e.ep, e.buf, epMaxEvents+1, 0, 0, 8), EINVAL},
		{"wait: not epoll", x.call("epoll_pwait", r, e.buf, 1, 0, 0, 8), EINVAL},
		{"wait: bad fd", x.call("epoll_pwait", 99, e.buf, 1, 0, 0, 8), EBADF},
		{"wait: sigsetsize", x.call("epoll_pwait", e.ep, e.buf, 1, 0, x.u64s(0), 16), EINVAL},
		{"wait2: bad timeout", x.call("epoll_pwait2", e.ep, e.buf, 1, x.u64s(0, 1e9), 0, 8), EINVAL},
		{"read", x.call("read", e.ep, e.buf, 8), EINVAL},
		{"write", x.call("write", e.ep, e.buf, 8), EINVAL},
	} {
		require.Equal(t, errno(tc.want), tc.got, tc.desc)
	}
	require.Zero(t, e.ctl(epollCtlAdd, r, pollIn, 1))
	require.Equal(t, errno(EEXIST), e.ctl(epollCtlAdd, r, pollIn, 1))
	require.Zero(t, e.ctl(epollCtlDel, r, 0, 0))
	require.Zero(t, e.ctl(epollCtlAdd, r, pollIn|epollExclusive, 1), "exclusive add")
	require.Equal(t, errno(EINVAL), e.ctl(epollCtlMod, r, pollIn, 1), "an exclusive item cannot be modified")

	// An anonymous inode: no file type bits; /proc/self/fd names it.
	st := x.alloc(128)
	require.Zero(t, x.call("fstat", e.ep, st))
	require.Equal(t, uint32(0o600), x.u32(st+16))
	link := x.alloc(64)
	n := x.call("readlinkat", fdcwd, x.str("/proc/self/fd/"+strconv.FormatUint(e.ep, 10)), link, 64)
	require.Equal(t, "anon_inode:[eventpoll]", string(x.peek(link, uint64(n))))
}

func TestEpollLevelAndEdge(t *testing.T) {
	x := workdir(t)
	fds := x.alloc(8)
	require.Zero(t, x.call("pipe2", fds, 0))
	r, w := x.fds2(fds)
	e := newEpoll(x)

	// Level-triggered: reported while ready.
	require.Zero(t, e.ctl(epollCtlAdd, r, pollIn, 11))
	require.Zero(t, e.ctl(epollCtlAdd, w, pollOut, 22))
	require.Equal(t, [][2]uint64{{pollOut, 22}}, e.wait(8, 0))
	require.Equal(t, int64(3), x.call("write", w, x.str("abc"), 3))
	require.Equal(t, [][2]uint64{{pollIn, 11}, {pollOut, 22}}, e.wait(8, 0))
	require.Equal(t, [][2]uint64{{pollIn, 11}, {pollOut, 22}}, e.wait(8, 0), "still ready")

	// Edge-triggered: reported once per write, and once when made ready.
	require.Zero(t, e.ctl(epollCtlDel, w, 0, 0))
	require.Zero(t, e.ctl(epollCtlMod, r, pollIn|epollET, 33))
	require.Equal(t, [][2]uint64{{pollIn, 33}}, e.wait(8, 0), "ready when modified")
	require.Empty(t, e.wait(8, 0), "no new edge")
	buf := x.alloc(8)
	require.Equal(t, int64(1), x.call("read", r, buf, 1))
	require.Empty(t, e.wait(8, 0), "a read is no edge for a reader")
	require.Equal(t, int64(1), x.call("write", w, x.str("d"), 1))
	require.Equal(t, [][2]uint64{{pollIn, 33}}, e.wait(8, 0), "a write is")
	require.Empty(t, e.wait(8, 0))
	// An edge that finds the pipe empty again is consumed unreported.
	require.Equal(t, int64(1), x.call("write", w, x.str("e"), 1))
	require.Equal(t, int64(4), x.call("read", r, buf, 8))
	require.Empty(t, e.wait(8, 0))
	require.Equal(t, int64(1), x.call("write", w, x.str("f"), 1))
	require.Equal(t, [][2]uint64{{pollIn, 33}}, e.wait(8, 0))

	// One-shot: disabled after its report until modified.
	require.Zero(t, e.ctl(epollCtlMod, r, pollIn|epollOneshot, 44))
	require.Equal(t, [][2]uint64{{pollIn, 44}}, e.wait(8, 0))
	require.Empty(t, e.wait(8, 0))
	require.Zero(t, x.call("close", w))
	require.Empty(t, e.wait(8, 0), "not even a hang-up")
	require.Zero(t, e.ctl(epollCtlMod, r, pollIn, 55))
	require.Equal(t, [][2]uint64{{pollIn | pollHup, 55}}, e.wait(8, 0), "data and the writer gone")

	// An eventfd: readable with a count, writable below the maximum.
	efd := uint64(x.call("eventfd2", 0, oNonblock))
	require.Zero(t, e.ctl(epollCtlDel, r, 0, 0))
	require.Zero(t, e.ctl(epollCtlAdd, efd, pollIn|pollOut|epollET, 66))
	require.Equal(t, [][2]uint64{{pollOut, 66}}, e.wait(8, 0))
	require.Equal(t, int64(8), x.call("write", efd, x.u64s(5), 8))
	require.Equal(t, [][2]uint64{{pollIn | pollOut, 66}}, e.wait(8, 0))
	require.Empty(t, e.wait(8, 0))
	require.Equal(t, int64(8), x.call("read", efd, buf, 8))
	require.Equal(t, [][2]uint64{{pollOut, 66}}, e.wait(8, 0), "a read wakes writers")
}

func TestEpollRotationCloseAndNesting(t *testing.T) {
	x := workdir(t)
	e := newEpoll(x)
	var ws []uint64
	for i := range 3 {
		fds := x.alloc(8)
		require.Zero(t, x.call("pipe2", fds, 0))
		_, w := x.fds2(fds)
		require.Zero(t, e.ctl(epollCtlAdd, w, pollOut, uint64(i)))
		ws = append(ws, w)
	}
	// maxevents 1: each wait reports the next ready item.
	var order []uint64
	for range 4 {
		ev := e.wait(1, 0)
		require.Len(t, ev, 1)
		order = append(order, ev[0][1])
	}
	require.Equal(t, []uint64{0, 1, 2, 0}, order)

	// A closed descriptor's item goes with its last reference; a dup
	// keeps it, still reported under the old number.
	require.Zero(t, x.call("close", ws[0]))
	d := uint64(x.call("dup", ws[1]))
	require.Zero(t, x.call("close", ws[1]))
	got := e.wait(8, 0)
	require.ElementsMatch(t, [][2]uint64{{pollOut, 1}, {pollOut, 2}}, got)
	require.Equal(t, errno(EBADF), e.ctl(epollCtlDel, ws[1], 0, 0), "the number is closed")
	require.Zero(t, x.call("close", d))
	require.Equal(t, [][2]uint64{{pollOut, 2}}, e.wait(8, 0))

	// An instance watching another reports EPOLLIN when the inner one
	// has events; loops and chains deeper than four are refused.
	outer := newEpoll(x)
	require.Zero(t, outer.ctl(epollCtlAdd, e.ep, pollIn, 77))
	require.Equal(t, [][2]uint64{{pollIn, 77}}, outer.wait(8, 0))
	require.Equal(t, errno(ELOOP), e.ctl(epollCtlAdd, outer.ep, pollIn, 0), "a loop")
	chain := []*epx{outer}
	for range 3 {
		n := newEpoll(x)
		require.Zero(t, n.ctl(epollCtlAdd, chain[len(chain)-1].ep, pollIn, 0))
		chain = append(chain, n)
	}
	top := newEpoll(x)
	require.Equal(t, errno(ELOOP), top.ctl(epollCtlAdd, chain[len(chain)-1].ep, pollIn, 0), "five deep")
	require.Equal(t, int64(1), x.call("ppoll", x.data([]byte{byte(chain[3].ep), 0, 0, 0, pollIn, 0, 0, 0}), 1, x.u64s(0, 0), 0, 8),
		"ppoll sees an instance with events")
}

func TestEpollTimeouts(t *testing.T) {
	x := workdir(t)
	fds := x.alloc(8)
	require.Zero(t, x.call("pipe2", fds, 0))
	r, _ := x.fds2(fds)
	e := newEpoll(x)
	require.Zero(t, e.ctl(epollCtlAdd, r, pollIn, 1))

	// Nothing ready: the timeout passes on the deterministic clock.
	before, _ := x.k.now(clockMonotonic)
	require.Empty(t, e.wait(8, 30))
	after, _ := x.k.now(clockMonotonic)
	require.Equal(t, int64(30e6), after-before)
	require.Zero(t, x.call("epoll_pwait2", e.ep, e.buf, 8, x.u64s(0, 5e6), 0, 8))
	now, _ := x.k.now(clockMonotonic)
	require.Equal(t, int64(5e6), now-after)

	// No timeout and no other thread: nothing can make it ready.
	require.Equal(t, errno(EINTR), x.call("epoll_pwait", e.ep, e.buf, 8, neg(-1), 0, 8))
	require.Contains(t, x.warn.String(), "epoll_wait waits forever")
}

func TestCapget(t *testing.T) {
	x := newTK(t, Config{})
	c := x.k.cred.caps
	caps := [3][2]uint32{{uint32(c.eff), uint32(c.eff >> 32)}, {uint32(c.prm), uint32(c.prm >> 32)}, {uint32(c.inh), uint32(c.inh >> 32)}}
	hdr := func(version uint32, pid int32) uint64 {
		b := make([]byte, 8)
		put32(b, 0, version)
		put32(b, 4, uint32(pid))
		return x.data(b)
	}
	data := x.alloc(24)
	require.Zero(t, x.call("capget", hdr(capVersion3, 0), data))
	for w := range 2 {
		for s := range 3 {
			require.Equal(t, caps[s][w], x.u32(data+uint64(12*w+4*s)), "word %d set %d", w, s)
		}
	}
	require.Zero(t, x.call("capget", hdr(capVersion1, fixedPID), data))
	require.Equal(t, caps[1][0], x.u32(data+4))

	h := hdr(1, 0)
	require.Zero(t, x.call("capget", h, 0), "a probe for the version")
	require.Equal(t, uint32(capVersion3), x.u32(h))
	require.Equal(t, errno(EINVAL), x.call("capget", hdr(1, 0), data))
	require.Equal(t, errno(ESRCH), x.call("capget", hdr(capVersion3, 99), data))
	require.Equal(t, errno(EINVAL), x.call("capget", hdr(capVersion3, -1), data))
	require.Equal(t, errno(EFAULT), x.call("capget", 8, data))
}

// TestWaitsBlockTheThread: with a second thread, epoll_pwait, ppoll and
// pselect6 with nothing ready block the caller while the other thread
// runs. A write to a descriptor the wait does not watch leaves it
// blocked; one to a watched descriptor ends it with the events; a
// timeout ends it when every thread waits.
func TestWaitsBlockTheThread(t *testing.T) {
	x := newTK(t, Config{})
	fds := x.alloc(8)
	require.Zero(t, x.call("pipe2", fds, 0))
	rd, w := x.fds2(fds)
	other := uint64(x.call("eventfd2", 0, 0))
	e := newEpoll(x)
	require.Zero(t, e.ctl(epollCtlAdd, rd, pollIn, 9))
	pfd := x.data([]byte{byte(rd), 0, 0, 0, pollIn, 0, 0, 0})
	set := x.alloc(8)
	r := UserRegs{PC: 0x1004}
	x.spawn(&r, 0x9000, 0, x.alloc(4), 0) // 1001
	drain := x.alloc(8)

	for _, wait := range []struct {
		name string
		call func()
		want func()
	}{
		{"epoll_pwait", func() { x.ecall(&r, "epoll_pwait", e.ep, e.buf, 8, neg(-1), 0, 8) },
			func() { require.Equal(t, [2]uint64{pollIn, 9}, [2]uint64{uint64(x.u32(e.buf)), x.u64(e.buf + 8)}) }},
		{"ppoll", func() { x.ecall(&r, "ppoll", pfd, 1, 0, 0, 8) },
			func() { require.Equal(t, uint32(pollIn), x.u32(pfd+4)>>16, "revents") }},
		{"pselect6", func() {
			require.NoError(t, x.m.WriteBytes(set, []byte{1 << rd, 0, 0, 0, 0, 0, 0, 0}))
			x.ecall(&r, "pselect6", 64, set, 0, 0, 0, 0)
		}, func() { require.Equal(t, uint64(1)<<rd, x.u64(set)) }},
	} {
		require.Equal(t, int32(1000), x.k.Tid(), wait.name)
		wait.call()
		require.Equal(t, int32(1001), x.k.Tid(), "%s blocks: the other thread runs", wait.name)
		x.ecall(&r, "write", other, x.u64s(1), 8)
		x.ecall(&r, "sched_yield")
		require.Equal(t, int32(1001), x.k.Tid(), "%s: an unwatched eventfd does not end the wait", wait.name)
		x.ecall(&r, "write", w, x.str("z"), 1)
		x.ecall(&r, "sched_yield")
		require.Equal(t, int32(1000), x.k.Tid(), "%s: the pipe's write ends it", wait.name)
		require.Equal(t, uint64(1), r.X[10], wait.name)
		wait.want()
		x.ecall(&r, "read", rd, drain, 8)
		x.ecall(&r, "read", other, drain, 8)
	}

	// A wait for room in a full pipe ends when the other thread reads
	// a buffer's worth (PIPE_BUF: Linux's pipe_poll wants a free slot;
	// 8 bytes do not make one): the read takes its bytes before it wakes
	// the waiters.
	big := x.alloc(pipeCapacity)
	require.Equal(t, int64(pipeCapacity), x.call("write", w, big, pipeCapacity))
	out := newEpoll(x)
	require.Zero(t, out.ctl(epollCtlAdd, w, pollOut, 5))
	x.ecall(&r, "epoll_pwait", out.ep, out.buf, 8, neg(-1), 0, 8)
	require.Equal(t, int32(1001), x.k.Tid(), "a full pipe: the writer's wait blocks")
	x.ecall(&r, "read", rd, drain, 8)
	x.ecall(&r, "sched_yield")
	require.Equal(t, int32(1001), x.k.Tid(), "8 bytes of room: the writer still waits")
	x.ecall(&r, "read", rd, big, pipeBuf)
	x.ecall(&r, "sched_yield")
	require.Equal(t, int32(1000), x.k.Tid(), "the read made room")
	require.Equal(t, uint64(1), r.X[10])
	require.Equal(t, uint32(pollOut), x.u32(out.buf))
	x.ecall(&r, "read", rd, big, pipeCapacity)

	// A timed wait ends at its deadline once every thread waits.
	before, _ := x.k.now(clockMonotonic)
	x.ecall(&r, "epoll_pwait", e.ep, e.buf, 8, 40, 0, 8)
	require.Equal(t, int32(1001), x.k.Tid())
	x.ecall(&r, "nanosleep", x.u64s(1, 0), 0)
	require.Equal(t, int32(1000), x.k.Tid())
	require.Zero(t, r.X[10])
	after, _ := x.k.now(clockMonotonic)
	require.Equal(t, int64(40e6), after-before)
}

// TestSelectOnClosedDescriptor: another thread closes a descriptor that
// a blocked pselect6 watches; the select's rescan at the next wake finds
// it closed and takes do_select's DEFAULT_POLLMASK for it: ready to read
// and to write, as Linux 6.18 reports (a C program selecting on a pipe
// whose ends another thread closes returns 1, that pipe's read end set).
// Before, the rescan panicked on the closed descriptor.
func TestSelectOnClosedDescriptor(t *testing.T) {
	x := newTK(t, Config{})
	fds := x.alloc(8)
	require.Zero(t, x.call("pipe2", fds, 0))
	rd, w := x.fds2(fds)
	require.Zero(t, x.call("pipe2", fds, 0))
	rd2, _ := x.fds2(fds)
	set := x.alloc(8)
	require.NoError(t, x.m.WriteBytes(set, []byte{1<<rd | 1<<rd2, 0, 0, 0, 0, 0, 0, 0}))
	r := UserRegs{PC: 0x1004}
	x.spawn(&r, 0x9000, 0, x.alloc(4), 0) // 1001
	x.ecall(&r, "pselect6", 64, set, 0, 0, 0, 0)
	require.Equal(t, int32(1001), x.k.Tid(), "the select blocks")
	x.ecall(&r, "close", rd)
	x.ecall(&r, "close", w) // (the pipe's change wakes the waiters to look again)
	x.ecall(&r, "sched_yield")
	require.Equal(t, int32(1000), x.k.Tid(), "the closed descriptor counts as ready")
	require.Equal(t, uint64(1), r.X[10])
	require.Equal(t, uint64(1)<<rd, x.u64(set))
}
