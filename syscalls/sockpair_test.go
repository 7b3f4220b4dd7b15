package syscalls

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// pair makes a socketpair of typ and returns its two descriptors.
func (x *tk) pair(typ uint64) (uint64, uint64) {
	x.t.Helper()
	sv := x.alloc(8)
	require.Zero(x.t, x.call("socketpair", afUnix, typ, 0, sv))
	return x.fds2(sv)
}

// recv reads up to n bytes with flags and returns them (or the errno).
func (x *tk) recv(fd uint64, n uint64, flags uint64) (string, int64) {
	buf := x.alloc(n + 1)
	got := x.call("recvfrom", fd, buf, n, flags, 0, 0)
	if got <= 0 {
		return "", got
	}
	return string(x.peek(buf, min(uint64(got), n))), got
}

// revents polls one descriptor for every event and returns what it reports.
func (x *tk) revents(fd uint64) uint32 {
	p := x.data([]byte{byte(fd), 0, 0, 0, 0xff, 0x3f, 0, 0})
	x.call("ppoll", p, 1, x.u64s(0, 0), 0, 8)
	return x.u32(p+4) >> 16
}

func TestSocketpairStream(t *testing.T) {
	x := newTK(t, Config{})
	a, b := x.pair(sockStream)
	require.Equal(t, uint32(pollOut|pollWrnorm|pollWrband), x.revents(a), "writable, nothing to read")
	require.Equal(t, int64(5), x.call("write", a, x.str("hello"), 5))
	require.Equal(t, int64(3), x.call("sendto", b, x.str("abc"), 3, msgNosignal, 0, 0))
	require.Equal(t, uint32(pollIn|pollRdnorm|pollOut|pollWrnorm|pollWrband), x.revents(b))
	n := x.alloc(4)
	require.Zero(t, x.call("ioctl", b, fionread, n))
	require.Equal(t, uint32(5), x.u32(n))

	s, got := x.recv(b, 3, msgPeek)
	require.Equal(t, "hel", s, "a peek leaves the bytes")
	require.Equal(t, int64(3), got)
	s, _ = x.recv(b, 16, 0)
	require.Equal(t, "hello", s, "a stream has no boundaries to keep")
	s, _ = x.recv(a, 16, 0)
	require.Equal(t, "abc", s, "the other direction")
	_, got = x.recv(a, 16, msgDontwait)
	require.Equal(t, errno(EAGAIN), got)

	// The peer's SHUT_WR: end of file here, readable and RDHUP; this end
	// still sends.
	require.Zero(t, x.call("shutdown", b, 1))
	_, got = x.recv(a, 16, 0)
	require.Zero(t, got)
	require.Equal(t, uint32(epollRdhup|pollIn|pollRdnorm|pollOut|pollWrnorm|pollWrband), x.revents(a))
	require.Equal(t, int64(2), x.call("write", a, x.str("ok"), 2))
	require.Equal(t, errno(EPIPE), x.call("sendto", b, x.str("z"), 1, msgNosignal, 0, 0), "b shut its sending side")

	// This end's SHUT_RD: the peer's sends fail with EPIPE and SIGPIPE
	// (blocked here, so that it stays pending).
	require.Zero(t, x.call("rt_sigprocmask", 0, x.u64s(1<<(sigPIPE-1)), 0, 8))
	require.Zero(t, x.call("shutdown", b, 0))
	require.Equal(t, errno(EPIPE), x.call("write", a, x.str("z"), 1))
	pend := x.alloc(8)
	require.Zero(t, x.call("rt_sigpending", pend, 8))
	require.Equal(t, uint64(1)<<(sigPIPE-1), x.u64(pend))

	// Closing one end hangs up the other.
	c, d := x.pair(sockStream | sockNonblock)
	require.Zero(t, x.call("close", d))
	require.Equal(t, uint32(pollHup|epollRdhup|pollIn|pollRdnorm|pollOut|pollWrnorm|pollWrband), x.revents(c))
	_, got = x.recv(c, 4, 0)
	require.Zero(t, got)
	require.Equal(t, errno(EPIPE), x.call("sendto", c, x.str("z"), 1, msgNosignal, 0, 0))
}

func TestSocketpairDatagrams(t *testing.T) {
	x := newTK(t, Config{})
	for _, typ := range []uint64{sockDgram, sockSeqpacket} {
		a, b := x.pair(typ)
		require.Equal(t, int64(5), x.call("write", a, x.str("first"), 5))
		require.Zero(t, x.call("write", a, x.str(""), 0), "an empty message")
		require.Equal(t, int64(6), x.call("write", a, x.str("second"), 6))
		n := x.alloc(4)
		require.Zero(t, x.call("ioctl", b, fionread, n))
		require.Equal(t, uint32(5), x.u32(n), "the next message's length")
		s, got := x.recv(b, 3, msgTrunc)
		require.Equal(t, "fir", s, "a message longer than the buffer is cut")
		require.Equal(t, int64(5), got, "MSG_TRUNC: its real length")
		_, got = x.recv(b, 16, 0)
		require.Zero(t, got, "the empty message")

		// recvmsg scatters one message and reports MSG_TRUNC.
		iov := x.u64s(x.alloc(4), 2, x.alloc(4), 2)
		hdr := x.u64s(0, 0, iov, 2, 0, 0, 0)
		require.Equal(t, int64(4), x.call("recvmsg", b, hdr, 0))
		require.Equal(t, "se", string(x.peek(x.u64(iov), 2)))
		require.Equal(t, "co", string(x.peek(x.u64(iov+16), 2)))
		require.Equal(t, uint32(msgTrunc), x.u32(hdr+48))

		// sendmsg gathers one message.
		out := x.u64s(x.str("ab"), 2, x.str("cd"), 2)
		require.Equal(t, int64(4), x.call("sendmsg", a, x.u64s(0, 0, out, 2, 0, 0, 0), 0))
		s, _ = x.recv(b, 16, 0)
		require.Equal(t, "abcd", s)
		require.Equal(t, errno(EMSGSIZE), x.call("write", a, x.alloc(sockCapacity+1), sockCapacity+1))
	}
}

func TestSocketpairCalls(t *testing.T) {
	x := newTK(t, Config{})
	a, b := x.pair(sockStream | sockCloexec)
	require.Equal(t, int64(fdCloexec), x.call("fcntl", a, fGetfd))
	fds := x.alloc(8)
	require.Zero(t, x.call("pipe2", fds, 0))
	r, _ := x.fds2(fds)
	un := uint64(x.call("socket", afUnix, sockStream, 0))
	buf, l := x.alloc(16), x.alloc(4)
	setLen := func(v uint32) uint64 { require.NoError(t, x.m.WriteBytes(l, []byte{byte(v), 0, 0, 0})); return l }
	opt := func(fd, name uint64) (uint32, int64) {
		got := x.call("getsockopt", fd, solSocket, name, buf, setLen(4))
		return x.u32(buf), got
	}
	for _, tc := range []struct {
		desc string
		got  int64
		want Errno
	}{
		{"AF_INET", x.call("socketpair", 2, sockStream, 0, x.alloc(8)), EOPNOTSUPP},
		{"raw", x.call("socketpair", afUnix, 3, 0, x.alloc(8)), ESOCKTNOSUPPORT},
		{"protocol", x.call("socketpair", afUnix, sockStream, 6, x.alloc(8)), EPROTONOSUPPORT},
		{"flags", x.call("socketpair", afUnix, sockStream|0x100, 0, x.alloc(8)), EINVAL},
		{"fault", x.call("socketpair", afUnix, sockStream, 0, 8), EFAULT},
		{"send on a pipe", x.call("sendto", r, buf, 1, 0, 0, 0), ENOTSOCK},
		{"send with an address", x.call("sendto", a, buf, 1, 0, x.data(unnamedUnix), 2), EISCONN},
		{"connect a connected socket", x.call("connect", a, x.data(unnamedUnix), 2), EISCONN},
		{"unconnected send", x.call("sendto", un, buf, 1, 0, 0, 0), ENOTCONN},
		{"unconnected peer", x.call("getpeername", un, buf, setLen(16)), ENOTCONN},
		{"out of band", x.call("sendto", a, buf, 1, msgOOB, 0, 0), EOPNOTSUPP},
		{"shutdown how", x.call("shutdown", a, 3), EINVAL},
		{"unknown option", x.call("getsockopt", a, solSocket, 99, buf, setLen(4)), ENOPROTOOPT},
		{"other level", x.call("getsockopt", a, 6, 1, buf, setLen(4)), EOPNOTSUPP},
		{"short option", x.call("setsockopt", a, solSocket, soRcvbuf, buf, 2), EINVAL},
		{"a control message's length below its header's", x.call("sendmsg", a, x.u64s(0, 0, 0, 0, x.u64s(8, solSocket), 16, 0), 0), EINVAL},
		{"too many iovecs", x.call("sendmsg", a, x.u64s(0, 0, buf, uioMaxIOV+1, 0, 0, 0), 0), EMSGSIZE},
	} {
		require.Equal(t, errno(tc.want), tc.got, tc.desc)
	}
	require.Empty(t, x.warn.String())

	// Names: unbound, the family alone; recvfrom's peer has none.
	require.Zero(t, x.call("getsockname", a, buf, setLen(16)))
	require.Equal(t, []byte{afUnix, 0}, x.peek(buf, 2))
	require.Equal(t, uint32(2), x.u32(l))
	require.Zero(t, x.call("getpeername", b, buf, setLen(16)))
	require.Equal(t, uint32(2), x.u32(l))
	require.Equal(t, int64(1), x.call("write", b, x.str("q"), 1))
	require.Equal(t, int64(1), x.call("recvfrom", a, buf, 4, 0, x.alloc(16), setLen(16)))
	require.Zero(t, x.u32(l), "the peer is unnamed")

	v, got := opt(a, soType)
	require.Zero(t, got)
	require.Equal(t, uint32(sockStream), v)
	v, _ = opt(a, soRcvbuf)
	require.Equal(t, uint32(sockCapacity), v)
	v, _ = opt(a, soDomain)
	require.Equal(t, uint32(afUnix), v)
	require.Zero(t, x.call("getsockopt", a, solSocket, soPeercred, buf, setLen(16)))
	require.Equal(t, uint32(12), x.u32(l))
	require.Equal(t, uint32(fixedPID), x.u32(buf))
	require.Zero(t, x.call("setsockopt", a, solSocket, soSndbuf, x.u64s(4096), 4))

	// The end is a socket to fstat, and /proc/self/fd names it.
	st := x.alloc(128)
	require.Zero(t, x.call("fstat", a, st))
	require.Equal(t, uint32(sIFSOCK), x.u32(st+16)&sIFMT)
}

// TestSocketpairEpollEdges: an edge-triggered socket item reports a
// received message once, and the peer's read as a writable edge.
func TestSocketpairEpollEdges(t *testing.T) {
	x := newTK(t, Config{})
	a, b := x.pair(sockStream)
	e := newEpoll(x)
	require.Zero(t, e.ctl(epollCtlAdd, b, pollIn|epollET, 1))
	require.Empty(t, e.wait(8, 0))
	require.Equal(t, int64(2), x.call("write", a, x.str("hi"), 2))
	require.Equal(t, [][2]uint64{{pollIn, 1}}, e.wait(8, 0))
	require.Empty(t, e.wait(8, 0))
	require.Zero(t, x.call("close", a))
	require.Equal(t, [][2]uint64{{pollIn | pollHup, 1}}, e.wait(8, 0), "the peer's close")
}

// TestSocketpairReset: releasing a stream or seqpacket end that leaves
// data unread resets its peer (unix_release_sock: sk_err = ECONNRESET),
// reported once: by a stream's read after the data queued for it, by a
// seqpacket's read or send before it (sock_error first), by SO_ERROR,
// and as POLLERR. An end closed with nothing unread, and a datagram
// pair, only hang up.
func TestSocketpairReset(t *testing.T) {
	x := newTK(t, Config{})
	a, b := x.pair(sockStream | sockNonblock)
	require.Equal(t, int64(2), x.call("write", b, x.str("xy"), 2))
	require.Equal(t, int64(4), x.call("write", a, x.str("data"), 4))
	require.Zero(t, x.call("close", b)) // "data" unread
	require.Equal(t, uint32(pollErr|pollHup|epollRdhup|pollIn|pollRdnorm|pollOut|pollWrnorm|pollWrband), x.revents(a))
	s, _ := x.recv(a, 16, 0)
	require.Equal(t, "xy", s, "the data first")
	_, got := x.recv(a, 16, 0)
	require.Equal(t, errno(ECONNRESET), got)
	_, got = x.recv(a, 16, 0)
	require.Zero(t, got, "then end of file")
	require.Equal(t, uint32(pollHup|epollRdhup|pollIn|pollRdnorm|pollOut|pollWrnorm|pollWrband), x.revents(a), "reported once")

	c, d := x.pair(sockStream)
	require.Equal(t, int64(1), x.call("write", c, x.str("z"), 1))
	require.Zero(t, x.call("close", d))
	require.Equal(t, int64(ECONNRESET), x.opt(c, solSocket, soError))
	require.Zero(t, x.opt(c, solSocket, soError), "SO_ERROR clears it")
	_, got = x.recv(c, 16, 0)
	require.Zero(t, got)

	e, f := x.pair(sockSeqpacket | sockNonblock)
	require.Equal(t, int64(2), x.call("write", f, x.str("m1"), 2))
	require.Equal(t, int64(1), x.call("write", e, x.str("q"), 1))
	require.Zero(t, x.call("close", f))
	_, got = x.recv(e, 16, 0)
	require.Equal(t, errno(ECONNRESET), got, "before the message")
	s, _ = x.recv(e, 16, 0)
	require.Equal(t, "m1", s)
	_, got = x.recv(e, 16, 0)
	require.Zero(t, got)

	g, h := x.pair(sockSeqpacket)
	require.Equal(t, int64(1), x.call("write", g, x.str("q"), 1))
	require.Zero(t, x.call("close", h))
	require.Equal(t, errno(ECONNRESET), x.call("sendto", g, x.str("z"), 1, msgNosignal, 0, 0), "a send reports it first")
	require.Equal(t, errno(EPIPE), x.call("sendto", g, x.str("z"), 1, msgNosignal, 0, 0))

	i, j := x.pair(sockDgram | sockNonblock)
	require.Equal(t, int64(1), x.call("write", i, x.str("q"), 1))
	require.Zero(t, x.call("close", j))
	require.Zero(t, x.opt(i, solSocket, soError), "a datagram pair is not reset")
}

// TestGenericSocketOptions: SO_OOBINLINE, SO_DONTROUTE and SO_PRIORITY
// are kept by every socket, as sock_setsockopt keeps them, and read back
// (an FTP server sets SO_OOBINLINE on each connection: ENOPROTOOPT ended
// Python's test_ftplib server before). SO_PRIORITY above 6 needs
// CAP_NET_ADMIN (EPERM); a short option is EINVAL.
func TestGenericSocketOptions(t *testing.T) {
	x := newTK(t, Config{})
	a, _ := x.pair(sockStream)
	tcp := uint64(x.call("socket", afInet, sockStream, 0))
	one, seven, out, n := x.u64s(1), x.u64s(7), x.alloc(8), x.alloc(4)
	get := func(fd uint64, name uint64) int64 {
		require.NoError(t, x.m.WriteBytes(n, []byte{4, 0, 0, 0}))
		require.Zero(t, x.call("getsockopt", fd, solSocket, name, out, n))
		require.Equal(t, uint32(4), x.u32(n))
		return int64(int32(x.u32(out)))
	}
	for _, fd := range []uint64{a, tcp} {
		for _, name := range []uint64{soOobinline, soDontroute, soPriority} {
			require.Zero(t, get(fd, uint64(name)), "off by default")
			require.Zero(t, x.call("setsockopt", fd, solSocket, name, one, 4))
			require.Equal(t, int64(1), get(fd, uint64(name)))
			require.Equal(t, errno(EINVAL), x.call("setsockopt", fd, solSocket, name, one, 2))
		}
		x.setRoot(false)
		require.Equal(t, errno(EPERM), x.call("setsockopt", fd, solSocket, soPriority, seven, 4))
		x.setRoot(true)
		require.Zero(t, x.call("setsockopt", fd, solSocket, soPriority, seven, 4))
		require.Equal(t, int64(7), get(fd, soPriority))
	}
}
