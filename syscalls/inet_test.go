package syscalls

import (
	"fmt"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The expectations here are what Linux 6.x answers on its loopback
// (checked on a host with Python's socket module): poll masks, errors and
// their order, addresses.

// sin encodes a struct sockaddr_in.
func sin(a, b, c, d byte, port uint16) []byte {
	return []byte{afInet, 0, byte(port >> 8), byte(port), a, b, c, d, 0, 0, 0, 0, 0, 0, 0, 0}
}

// sin6 encodes a struct sockaddr_in6 (ip's last byte given; v4 maps an
// IPv4 address a.b.c.d into it).
func sin6(ip [16]byte, port uint16) []byte {
	b := make([]byte, sockaddrIn6Size)
	b[0], b[2], b[3] = afInet6, byte(port>>8), byte(port)
	copy(b[8:], ip[:])
	return b
}

func mapped4(a, b, c, d byte) [16]byte {
	return [16]byte{10: 0xff, 11: 0xff, 12: a, 13: b, 14: c, 15: d}
}

var (
	lo4  = sin(127, 0, 0, 1, 0)
	any4 = sin(0, 0, 0, 0, 0)
	lo6  = sin6(v6Loopback, 0)
	any6 = sin6([16]byte{}, 0)
)

func withPort(sa []byte, port uint16) []byte {
	b := append([]byte(nil), sa...)
	b[2], b[3] = byte(port>>8), byte(port)
	return b
}

func (x *tk) sock(domain, typ uint64) uint64 {
	x.t.Helper()
	fd := x.call("socket", domain, typ, 0)
	require.GreaterOrEqual(x.t, fd, int64(3))
	return uint64(fd)
}

func (x *tk) bind(fd uint64, sa []byte) int64 {
	return x.call("bind", fd, x.data(sa), uint64(len(sa)))
}

func (x *tk) connect(fd uint64, sa []byte) int64 {
	return x.call("connect", fd, x.data(sa), uint64(len(sa)))
}

// name returns getsockname's (or getpeername's) address bytes.
func (x *tk) name(call string, fd uint64) []byte {
	x.t.Helper()
	buf, n := x.alloc(128), x.u64s(128)
	require.Zero(x.t, x.call(call, fd, buf, n), call)
	return x.peek(buf, uint64(x.u32(n)))
}

func port(sa []byte) uint16 { return uint16(sa[2])<<8 | uint16(sa[3]) }

// listener makes a listening TCP socket bound at sa and returns it with its address.
func (x *tk) listener(domain uint64, sa []byte, backlog uint64) (uint64, []byte) {
	x.t.Helper()
	l := x.sock(domain, sockStream)
	require.Zero(x.t, x.bind(l, sa))
	require.Zero(x.t, x.call("listen", l, backlog))
	return l, x.name("getsockname", l)
}

// opt reads an int socket option.
func (x *tk) opt(fd uint64, level, name uint64) int64 {
	x.t.Helper()
	v, n := x.alloc(16), x.u64s(16)
	if r := x.call("getsockopt", fd, level, name, v, n); r != 0 {
		return r
	}
	return int64(int32(x.u32(v)))
}

func (x *tk) setopt(fd uint64, level, name uint64, v uint32) int64 {
	return x.call("setsockopt", fd, level, name, x.data([]byte{byte(v), byte(v >> 8), byte(v >> 16), byte(v >> 24)}), 4)
}

// TestInetConnectAccept: a server and a client of each address kind: the
// ports come from 32768 in order; getsockname and getpeername bytes; the
// data flows both ways; closing gives end of file.
func TestInetConnectAccept(t *testing.T) {
	tests := []struct {
		desc           string
		lfam, cfam     uint64
		bindAt, dialTo []byte
		// what the accepted end sees as its own and its peer's address
		srvName, srvPeer []byte
	}{
		{"IPv4", afInet, afInet, lo4, lo4, sin(127, 0, 0, 1, 32768), sin(127, 0, 0, 1, 32769)},
		{"IPv4 wildcard, dialled at 127.0.0.2", afInet, afInet, any4, sin(127, 0, 0, 2, 0), sin(127, 0, 0, 2, 32768), sin(127, 0, 0, 1, 32769)},
		{"IPv4 wildcard, dialled at 0.0.0.0", afInet, afInet, any4, any4, sin(127, 0, 0, 1, 32768), sin(127, 0, 0, 1, 32769)},
		{"IPv6", afInet6, afInet6, lo6, lo6, sin6(v6Loopback, 32768), sin6(v6Loopback, 32769)},
		{"IPv6 wildcard, dialled at ::", afInet6, afInet6, any6, any6, sin6(v6Loopback, 32768), sin6(v6Loopback, 32769)},
		{"dual stack, an IPv4 client", afInet6, afInet, any6, lo4, sin6(mapped4(127, 0, 0, 1), 32768), sin6(mapped4(127, 0, 0, 1), 32769)},
		{"IPv6 client to a v4-mapped address", afInet, afInet6, lo4, sin6(mapped4(127, 0, 0, 1), 0), sin(127, 0, 0, 1, 32768), sin(127, 0, 0, 1, 32769)},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			x := newTK(t, Config{})
			l, at := x.listener(tc.lfam, tc.bindAt, 8)
			require.Equal(t, uint16(32768), port(at), "the first ephemeral port")
			c := x.sock(tc.cfam, sockStream)
			require.Zero(t, x.connect(c, withPort(tc.dialTo, port(at))))
			assert.Equal(t, errno(EISCONN), x.connect(c, withPort(tc.dialTo, port(at))))
			peer, plen := x.alloc(128), x.u64s(128)
			s := x.call("accept4", l, peer, plen, sockCloexec)
			require.GreaterOrEqual(t, s, int64(3))
			assert.Equal(t, tc.srvPeer, x.peek(peer, uint64(x.u32(plen))), "accept's address")
			assert.Equal(t, tc.srvName, x.name("getsockname", uint64(s)))
			assert.Equal(t, tc.srvPeer, x.name("getpeername", uint64(s)))
			if tc.lfam == tc.cfam {
				assert.Equal(t, x.name("getsockname", c), x.name("getpeername", uint64(s)))
				assert.Equal(t, x.name("getpeername", c), x.name("getsockname", uint64(s)))
			}
			assert.Equal(t, int64(1), x.call("fcntl", uint64(s), 1, 0), "FD_CLOEXEC from accept4")

			require.Equal(t, int64(5), x.call("write", c, x.str("hello"), 5))
			got, _ := x.recv(uint64(s), 16, 0)
			assert.Equal(t, "hello", got)
			require.Equal(t, int64(2), x.call("sendto", uint64(s), x.str("ok"), 2, 0, 0, 0))
			got, _ = x.recv(c, 16, 0)
			assert.Equal(t, "ok", got)
			require.Zero(t, x.call("close", c))
			_, n := x.recv(uint64(s), 16, 0)
			assert.Zero(t, n, "end of file")
			assert.Empty(t, x.warn.String())
		})
	}
}

// TestInetBind: conflicts and the other errors of bind.
func TestInetBind(t *testing.T) {
	const p = 40000
	type sock struct {
		fam       uint64
		sa        []byte
		reuseAddr bool
		reusePort bool
		v6only    bool
		listen    bool
	}
	v4 := func(sa []byte) sock { return sock{fam: afInet, sa: withPort(sa, p)} }
	v6 := func(sa []byte) sock { return sock{fam: afInet6, sa: withPort(sa, p)} }
	reuse := func(s sock) sock { s.reuseAddr = true; return s }
	listening := func(s sock) sock { s.listen = true; return s }
	tests := []struct {
		desc        string
		first, then sock
		want        Errno
	}{
		{"the same address", v4(lo4), v4(lo4), EADDRINUSE},
		{"the wildcard overlaps", v4(any4), v4(lo4), EADDRINUSE},
		{"another loopback address", v4(lo4), v4(sin(127, 0, 0, 2, 0)), 0},
		{"SO_REUSEADDR on both", reuse(v4(lo4)), reuse(v4(lo4)), 0},
		{"SO_REUSEADDR on one", v4(lo4), reuse(v4(lo4)), EADDRINUSE},
		{"SO_REUSEADDR but a listener", listening(reuse(v4(lo4))), reuse(v4(lo4)), EADDRINUSE},
		{"SO_REUSEPORT on both, a listener", listening(sock{fam: afInet, sa: withPort(lo4, p), reusePort: true}), sock{fam: afInet, sa: withPort(lo4, p), reusePort: true}, 0},
		{"dual-stack :: takes IPv4", v4(any4), v6(any6), EADDRINUSE},
		{"IPV6_V6ONLY :: does not", v4(any4), sock{fam: afInet6, sa: withPort(any6, p), v6only: true}, 0},
		{"::1 and 127.0.0.1 differ", v4(lo4), v6(lo6), 0},
		{"a v4-mapped address", v4(lo4), v6(sin6(mapped4(127, 0, 0, 1), 0)), EADDRINUSE},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			x := newTK(t, Config{})
			mk := func(s sock) uint64 {
				fd := x.sock(s.fam, sockStream)
				if s.reuseAddr {
					require.Zero(t, x.setopt(fd, solSocket, soReuseaddr, 1))
				}
				if s.reusePort {
					require.Zero(t, x.setopt(fd, solSocket, soReuseport, 1))
				}
				if s.v6only {
					require.Zero(t, x.setopt(fd, ipprotoIPv6, ipv6V6only, 1))
				}
				return fd
			}
			a := mk(tc.first)
			require.Zero(t, x.bind(a, tc.first.sa))
			if tc.first.listen {
				require.Zero(t, x.call("listen", a, 1))
			}
			b := mk(tc.then)
			assert.Equal(t, errno(tc.want), x.bind(b, tc.then.sa))
			if tc.want != 0 {
				// A failed bind leaves the socket unbound.
				assert.Equal(t, uint16(0), port(x.name("getsockname", b)))
				require.Zero(t, x.call("close", a))
				assert.Zero(t, x.bind(b, tc.then.sa), "free after the close")
			}
		})
	}

	x := newTK(t, Config{})
	s := x.sock(afInet, sockStream)
	assert.Equal(t, errno(EADDRNOTAVAIL), x.bind(s, sin(10, 0, 0, 1, 0)))
	assert.Equal(t, errno(EINVAL), x.call("bind", s, x.data(lo4), 8), "short")
	assert.Equal(t, errno(EAFNOSUPPORT), x.bind(s, lo6[:16]), "another family")
	if os.Geteuid() != 0 {
		assert.Equal(t, errno(EACCES), x.bind(s, withPort(lo4, 80)), "a privileged port")
	}
	require.Zero(t, x.bind(s, lo4))
	assert.Equal(t, sin(127, 0, 0, 1, 32768), x.name("getsockname", s))
	assert.Equal(t, errno(EINVAL), x.bind(s, lo4), "bound already")
	s6 := x.sock(afInet6, sockStream)
	require.Zero(t, x.bind(s6, lo6))
	assert.Equal(t, errno(EINVAL), x.setopt(s6, ipprotoIPv6, ipv6V6only, 1), "IPV6_V6ONLY after bind")
	v6o := x.sock(afInet6, sockDgram)
	require.Zero(t, x.setopt(v6o, ipprotoIPv6, ipv6V6only, 1))
	assert.Equal(t, errno(EINVAL), x.bind(v6o, sin6(mapped4(127, 0, 0, 1), 0)), "a v4-mapped address on an IPv6-only socket")

	// Ephemeral ports skip the taken ones; TCP and UDP count apart.
	y := newTK(t, Config{})
	a := y.sock(afInet, sockStream)
	require.Zero(t, y.bind(a, withPort(lo4, 32769)))
	b, c, u := y.sock(afInet, sockStream), y.sock(afInet, sockStream), y.sock(afInet, sockDgram)
	require.Zero(t, y.bind(b, lo4))
	require.Zero(t, y.bind(c, lo4))
	require.Zero(t, y.bind(u, lo4))
	assert.Equal(t, []uint16{32768, 32770, 32771}, []uint16{port(y.name("getsockname", b)), port(y.name("getsockname", c)), port(y.name("getsockname", u))})
}

// TestInetConnectErrors: no listener, a non-loopback address, and what a
// non-blocking connect reports later.
func TestInetConnectErrors(t *testing.T) {
	x := newTK(t, Config{})
	c := x.sock(afInet, sockStream)
	assert.Equal(t, errno(ECONNREFUSED), x.connect(c, withPort(lo4, 9)))
	assert.Equal(t, errno(ENETUNREACH), x.connect(c, sin(8, 8, 8, 8, 53)))
	assert.Equal(t, errno(ENETUNREACH), x.connect(c, sin(8, 8, 8, 8, 53)))
	assert.Equal(t, "rvsim: warning: 8.8.8.8:53 is unreachable: only loopback addresses reach anything (no network)\n", x.warn.String(), "one warning")
	c6 := x.sock(afInet6, sockStream)
	assert.Equal(t, errno(ENETUNREACH), x.connect(c6, sin6([16]byte{0: 0x20, 1: 0x01, 15: 1}, 80)))
	assert.Contains(t, x.warn.String(), "[2001::1]:80 is unreachable")
	assert.Equal(t, errno(EAFNOSUPPORT), x.connect(c, lo6))
	assert.Equal(t, errno(EINVAL), x.call("connect", c, x.data(lo4), 4))

	// Non-blocking, refused: EINPROGRESS, then the error through
	// SO_ERROR (once) and poll; the next connect says it was aborted.
	n := x.sock(afInet, sockStream|sockNonblock)
	assert.Equal(t, uint32(pollOut|pollWrnorm|pollHup), x.revents(n), "a fresh socket")
	assert.Equal(t, errno(EINPROGRESS), x.connect(n, withPort(lo4, 9)))
	assert.Equal(t, uint32(pollErr|pollHup|pollIn|pollRdnorm|epollRdhup|pollOut|pollWrnorm), x.revents(n))
	assert.Equal(t, int64(ECONNREFUSED), x.opt(n, solSocket, soError))
	assert.Equal(t, int64(0), x.opt(n, solSocket, soError))
	assert.Equal(t, uint32(pollHup|pollIn|pollRdnorm|epollRdhup|pollOut|pollWrnorm), x.revents(n))
	assert.Equal(t, errno(ECONNABORTED), x.connect(n, withPort(lo4, 9)))
	n2 := x.sock(afInet, sockStream|sockNonblock)
	assert.Equal(t, errno(EINPROGRESS), x.connect(n2, withPort(lo4, 9)))
	assert.Equal(t, errno(ECONNREFUSED), x.connect(n2, withPort(lo4, 9)), "the error, unread, is the next connect's")

	// Unconnected: send is EPIPE (and SIGPIPE), receive ENOTCONN.
	u := x.sock(afInet, sockStream)
	assert.Equal(t, errno(EPIPE), x.call("sendto", u, x.str("x"), 1, msgNosignal, 0, 0))
	_, got := x.recv(u, 1, 0)
	assert.Equal(t, errno(ENOTCONN), got)
	assert.Equal(t, errno(ENOTCONN), x.call("getpeername", u, x.alloc(32), x.u64s(32)))
	assert.Equal(t, errno(ENOTCONN), x.call("shutdown", u, 1))
}

// TestInetBacklog: a non-blocking accept with nothing queued; a
// listener's readiness; connects beyond the backlog wait for an accept.
func TestInetBacklog(t *testing.T) {
	x := newTK(t, Config{})
	l, at := x.listener(afInet, lo4, 0) // backlog 0 holds one connection
	require.Zero(t, x.call("fcntl", l, 4, oNonblock))
	assert.Equal(t, errno(EAGAIN), x.call("accept", l, 0, 0))
	assert.Zero(t, x.revents(l), "nothing to accept")
	assert.Equal(t, int64(1), x.opt(l, solSocket, soAcceptconn))
	ep := x.call("epoll_create1", 0)
	ev := x.alloc(16)
	require.Zero(t, x.call("epoll_ctl", uint64(ep), 1, l, x.data([]byte{1, 0, 0, 0x80, 0, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0}))) // EPOLLIN|EPOLLET
	assert.Zero(t, x.call("epoll_pwait", uint64(ep), ev, 1, 0, 0, 8))

	a := x.sock(afInet, sockStream|sockNonblock)
	assert.Equal(t, errno(EINPROGRESS), x.connect(a, at), "a non-blocking connect: in progress, though done")
	assert.Equal(t, uint32(pollOut|pollWrnorm), x.revents(a), "connected")
	assert.Zero(t, x.connect(a, at), "the connect that finds it done")
	assert.Equal(t, errno(EISCONN), x.connect(a, at))
	assert.Equal(t, uint32(pollIn|pollRdnorm), x.revents(l))
	assert.Equal(t, int64(1), x.call("epoll_pwait", uint64(ep), ev, 1, 0, 0, 8))
	assert.Zero(t, x.call("epoll_pwait", uint64(ep), ev, 1, 0, 0, 8), "edge-triggered: once")

	b := x.sock(afInet, sockStream|sockNonblock)
	assert.Equal(t, errno(EINPROGRESS), x.connect(b, at))
	assert.Zero(t, x.revents(b), "waits for room in the queue")
	assert.Equal(t, errno(EALREADY), x.connect(b, at))
	buf := x.alloc(8)
	assert.Equal(t, errno(EAGAIN), x.call("write", b, buf, 1))
	_, got := x.recv(b, 1, 0)
	assert.Equal(t, errno(EAGAIN), got)

	sa := x.call("accept", l, 0, 0)
	require.GreaterOrEqual(t, sa, int64(3))
	assert.Equal(t, uint32(pollOut|pollWrnorm), x.revents(b), "the accept made room")
	assert.Equal(t, int64(1), x.call("epoll_pwait", uint64(ep), ev, 1, 0, 0, 8), "b's connection is a new edge")
	assert.Zero(t, x.connect(b, at))
	sb := x.call("accept", l, 0, 0)
	require.GreaterOrEqual(t, sb, int64(3))
	assert.Equal(t, x.name("getsockname", b), x.name("getpeername", uint64(sb)))

	// A connect still waiting when the listener closes is refused.
	c := x.sock(afInet, sockStream|sockNonblock)
	d := x.sock(afInet, sockStream|sockNonblock)
	x.connect(c, at)
	assert.Equal(t, errno(EINPROGRESS), x.connect(d, at))
	require.Zero(t, x.call("close", l))
	_, got = x.recv(c, 1, 0)
	assert.Equal(t, errno(ECONNRESET), got, "queued, unaccepted: reset")
	assert.Equal(t, int64(ECONNREFUSED), x.opt(d, solSocket, soError), "waiting: refused")
}

// TestInetCloseAndShutdown: end of file, resets and EPIPE as Linux's
// loopback gives them.
func TestInetCloseAndShutdown(t *testing.T) {
	x := newTK(t, Config{})
	l, at := x.listener(afInet, lo4, 8)
	pair := func() (uint64, uint64) {
		c := x.sock(afInet, sockStream)
		require.Zero(t, x.connect(c, at))
		s := x.call("accept", l, 0, 0)
		require.GreaterOrEqual(t, s, int64(3))
		return c, uint64(s)
	}
	require.Zero(t, x.call("rt_sigprocmask", 0, x.u64s(1<<(sigPIPE-1)), 0, 8))

	// The peer closes: end of file, readable and RDHUP, no HUP; a send
	// still goes (the reset comes back), the next is EPIPE.
	c, s := pair()
	require.Zero(t, x.call("close", s))
	assert.Equal(t, uint32(pollIn|pollRdnorm|epollRdhup|pollOut|pollWrnorm), x.revents(c))
	assert.Equal(t, int64(1), x.call("write", c, x.str("x"), 1))
	assert.Equal(t, errno(EPIPE), x.call("write", c, x.str("x"), 1))
	_, got := x.recv(c, 1, 0)
	assert.Zero(t, got)
	assert.Equal(t, uint32(pollHup|pollIn|pollRdnorm|epollRdhup|pollOut|pollWrnorm), x.revents(c))

	// Closed with data unread: the peer is reset.
	c, s = pair()
	require.Equal(t, int64(3), x.call("write", c, x.str("abc"), 3))
	require.Zero(t, x.call("close", s))
	_, got = x.recv(c, 1, 0)
	assert.Equal(t, errno(ECONNRESET), got)
	_, got = x.recv(c, 1, 0)
	assert.Zero(t, got)
	assert.Equal(t, errno(EPIPE), x.call("write", c, x.str("x"), 1))

	// A reset leaves the data that had arrived to be read first.
	c, s = pair()
	require.Equal(t, int64(2), x.call("write", s, x.str("hi"), 2))
	require.Equal(t, int64(1), x.call("write", c, x.str("z"), 1))
	require.Zero(t, x.call("close", s))
	str, _ := x.recv(c, 8, 0)
	assert.Equal(t, "hi", str)
	_, got = x.recv(c, 1, 0)
	assert.Equal(t, errno(ECONNRESET), got)

	// SHUT_RD does not stop the peer's sends; what arrives is read.
	c, s = pair()
	require.Zero(t, x.call("shutdown", s, 0))
	assert.Equal(t, int64(1), x.call("write", c, x.str("x"), 1))
	str, _ = x.recv(s, 8, 0)
	assert.Equal(t, "x", str)
	_, got = x.recv(s, 8, 0)
	assert.Zero(t, got, "shut: end of file")
	// SHUT_WR: the peer's end of file.
	require.Zero(t, x.call("shutdown", c, 1))
	_, got = x.recv(s, 8, 0)
	assert.Zero(t, got)
	assert.Equal(t, uint32(pollIn|pollRdnorm|epollRdhup|pollOut|pollWrnorm), x.revents(s), "its own side still sends: no HUP")
	assert.Len(t, x.name("getpeername", c), sockaddrInSize, "one side shut: still connected")
	require.Zero(t, x.call("shutdown", s, 1))
	assert.Equal(t, errno(ENOTCONN), x.call("getpeername", c, x.alloc(32), x.u64s(32)), "both FINs exchanged: closed")
	assert.Equal(t, errno(ENOTCONN), x.call("getpeername", s, x.alloc(32), x.u64s(32)))
	assert.Equal(t, errno(EPIPE), x.call("write", c, x.str("x"), 1))

	// A duplicate keeps the connection open.
	c, s = pair()
	d := x.call("dup", s)
	require.Zero(t, x.call("close", s))
	require.Equal(t, int64(1), x.call("write", c, x.str("x"), 1))
	str, _ = x.recv(uint64(d), 8, 0)
	assert.Equal(t, "x", str)

	// shutdown(SHUT_RD) of a listener stops it: accept fails.
	require.Zero(t, x.call("shutdown", l, 2))
	assert.Equal(t, errno(EINVAL), x.call("accept", l, 0, 0))
	assert.Equal(t, errno(ECONNREFUSED), x.connect(x.sock(afInet, sockStream), at))

	// Nothing blocked remains: the signals were blocked, SIGPIPE pends.
	pend := x.alloc(8)
	require.Zero(t, x.call("rt_sigpending", pend, 8))
	assert.Equal(t, uint64(1)<<(sigPIPE-1), x.u64(pend))
}

// TestInetUDP: datagrams between the process's sockets, with their source.
func TestInetUDP(t *testing.T) {
	x := newTK(t, Config{})
	a := x.sock(afInet, sockDgram)
	require.Zero(t, x.bind(a, lo4))
	at := x.name("getsockname", a)
	assert.Equal(t, uint32(pollOut|pollWrnorm|pollWrband), x.revents(a))

	// An unbound sender gets a port at its first send; the receiver
	// sees 127.0.0.1 and that port.
	b := x.sock(afInet, sockDgram)
	assert.Equal(t, errno(EDESTADDRREQ), x.call("sendto", b, x.str("x"), 1, 0, 0, 0))
	require.Equal(t, int64(5), x.call("sendto", b, x.str("hello"), 5, 0, x.data(at), 16))
	require.Equal(t, int64(0), x.call("sendto", b, x.str(""), 0, 0, x.data(at), 16), "an empty datagram")
	assert.Equal(t, any4[:2], x.name("getsockname", b)[:2])
	assert.Equal(t, uint16(32769), port(x.name("getsockname", b)))
	assert.Equal(t, uint32(pollIn|pollRdnorm|pollOut|pollWrnorm|pollWrband), x.revents(a))
	n := x.alloc(4)
	require.Zero(t, x.call("ioctl", a, fionread, n))
	assert.Equal(t, uint32(5), x.u32(n), "the next datagram's length")
	buf, from, flen := x.alloc(16), x.alloc(32), x.u64s(32)
	require.Equal(t, int64(5), x.call("recvfrom", a, buf, 16, msgPeek, from, flen))
	assert.Equal(t, sin(127, 0, 0, 1, 32769), x.peek(from, uint64(x.u32(flen))))
	require.Equal(t, int64(5), x.call("recvfrom", a, buf, 3, msgTrunc, from, flen), "MSG_TRUNC: the whole length")
	assert.Equal(t, "hel", string(x.peek(buf, 3)))
	require.Equal(t, int64(0), x.call("recvfrom", a, buf, 16, 0, from, flen))
	_, got := x.recv(a, 16, msgDontwait)
	assert.Equal(t, errno(EAGAIN), got)

	// connect: the default destination; a connected socket takes only
	// its peer's datagrams; one sent to no one comes back as ECONNREFUSED.
	require.Zero(t, x.connect(a, x.name("getsockname", b)))
	assert.Equal(t, sin(127, 0, 0, 1, 32769), x.name("getpeername", a))
	c := x.sock(afInet, sockDgram)
	require.Equal(t, int64(1), x.call("sendto", c, x.str("c"), 1, 0, x.data(at), 16), "dropped: a is connected to b")
	require.Equal(t, int64(2), x.call("write", a, x.str("ab"), 2))
	str, _ := x.recv(b, 8, 0)
	assert.Equal(t, "ab", str)
	_, got = x.recv(a, 8, msgDontwait)
	assert.Equal(t, errno(EAGAIN), got)
	require.Zero(t, x.call("close", b))
	assert.Equal(t, int64(1), x.call("write", a, x.str("x"), 1))
	assert.Equal(t, uint32(pollErr|pollOut|pollWrnorm|pollWrband), x.revents(a))
	assert.Equal(t, errno(ECONNREFUSED), x.call("write", a, x.str("x"), 1))
	assert.Equal(t, int64(1), x.call("write", a, x.str("x"), 1))
	require.Zero(t, x.connect(a, []byte{afUnspec, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}))
	assert.Equal(t, errno(ENOTCONN), x.call("getpeername", a, x.alloc(32), x.u64s(32)))
	assert.Equal(t, errno(EOPNOTSUPP), x.call("listen", a, 1))
	assert.Equal(t, errno(EOPNOTSUPP), x.call("accept", a, 0, 0))
	assert.Equal(t, errno(EMSGSIZE), x.call("sendto", c, x.alloc(65508), 65508, 0, x.data(at), 16))

	// An AF_INET6 socket on :: receives IPv4, v4-mapped; recvmsg names it.
	d := x.sock(afInet6, sockDgram)
	require.Zero(t, x.bind(d, withPort(any6, 5000)))
	require.Equal(t, int64(2), x.call("sendto", c, x.str("v4"), 2, 0, x.data(sin(127, 0, 0, 1, 5000)), 16))
	cport := port(x.name("getsockname", c))
	iov := x.u64s(buf, 16)
	name := x.alloc(32)
	hdr := x.u64s(name, 32, iov, 1, 0, 0, 0)
	require.Equal(t, int64(2), x.call("recvmsg", d, hdr, 0))
	assert.Equal(t, uint32(sockaddrIn6Size), x.u32(hdr+8), "msg_namelen")
	assert.Equal(t, sin6(mapped4(127, 0, 0, 1), cport), x.peek(name, sockaddrIn6Size))

	// sendmmsg and recvmmsg: a batch each way, msg_len filled in.
	vec := x.alloc(3 * mmsghdrSize)
	dst := x.data(withPort(lo6, 5000))
	for i, s := range []string{"one", "two", "three"} {
		h := x.u64s(0, 0, x.u64s(x.str(s), uint64(len(s))), 1, 0, 0, 0, 0)
		require.NoError(t, x.m.WriteBytes(vec+uint64(i)*mmsghdrSize, x.peek(h, 64)))
	}
	e := x.sock(afInet6, sockDgram)
	require.Zero(t, x.connect(e, x.peek(dst, sockaddrIn6Size)))
	require.Equal(t, int64(3), x.call("sendmmsg", e, vec, 3, 0))
	assert.Equal(t, uint32(5), x.u32(vec+2*mmsghdrSize+msghdrSize))
	rvec := x.alloc(4 * mmsghdrSize)
	for i := range 4 {
		h := x.u64s(0, 0, x.u64s(x.alloc(8), 8), 1, 0, 0, 0, 0)
		require.NoError(t, x.m.WriteBytes(rvec+uint64(i)*mmsghdrSize, x.peek(h, 64)))
	}
	require.Equal(t, int64(3), x.call("recvmmsg", d, rvec, 4, 0, 0), "what has arrived")
	assert.Equal(t, []uint32{3, 3, 5}, []uint32{x.u32(rvec + msghdrSize), x.u32(rvec + mmsghdrSize + msghdrSize), x.u32(rvec + 2*mmsghdrSize + msghdrSize)})
	assert.Empty(t, x.warn.String())
}

// TestInetUDPLite: UDP-Lite sockets have ports of their own (a UDP
// socket binds the same port, and neither receives the other's
// datagrams), and a receiver that sets UDPLITE_RECV_CSCOV drops
// datagrams whose sender covers less (Linux 6.18's answers, read off the
// host with Python's socket module).
func TestInetUDPLite(t *testing.T) {
	x := newTK(t, Config{})
	lite := func() uint64 {
		fd := x.call("socket", afInet, sockDgram|sockNonblock, ipprotoUDPLite)
		require.GreaterOrEqual(t, fd, int64(3))
		return uint64(fd)
	}
	a := lite()
	require.Zero(t, x.bind(a, lo4))
	at := x.name("getsockname", a)
	u := x.sock(afInet, sockDgram|sockNonblock)
	require.Zero(t, x.bind(u, at), "UDP binds UDP-Lite's port")
	assert.Equal(t, int64(ipprotoUDPLite), x.opt(a, solSocket, soProtocol))
	recv := func(fd uint64) string {
		s, e := x.recv(fd, 64, 0)
		if e == errno(EAGAIN) {
			return "none"
		}
		return s
	}
	b, c := lite(), x.sock(afInet, sockDgram)
	send := func(fd uint64, s string) {
		require.Equal(t, int64(len(s)), x.call("sendto", fd, x.str(s), uint64(len(s)), 0, x.data(at), 16))
	}
	send(b, "lite")
	send(c, "udp")
	assert.Equal(t, []string{"lite", "udp", "none", "none"}, []string{recv(a), recv(u), recv(a), recv(u)})

	twenty := "12345678901234567890" // 28 bytes with the header
	for _, tc := range []struct {
		desc      string
		send, rcv int64 // coverages set (-1: not set)
		want      bool
	}{
		{"partial, receiver unset", 10, -1, true},
		{"partial 10, receiver 20", 10, 20, false},
		{"partial 10, receiver 10", 10, 10, true},
		{"partial, receiver 0 (full)", 10, 0, false},
		{"full (0), receiver 0", 0, 0, true},
		{"coverage past the datagram, receiver 0", 100, 0, true},
		{"coverage = length, receiver 30", 28, 30, true},
	} {
		require.Zero(t, x.setopt(b, ipprotoUDPLite, udpliteSendCscov, uint32(tc.send)), tc.desc)
		if tc.rcv >= 0 {
			require.Zero(t, x.setopt(a, ipprotoUDPLite, udpliteRecvCscov, uint32(tc.rcv)), tc.desc)
		}
		send(b, twenty)
		got := recv(a)
		assert.Equal(t, tc.want, got == twenty, "%s: %q", tc.desc, got)
	}
	require.Zero(t, x.setopt(b, ipprotoUDPLite, udpliteSendCscov, uint32(0xfffffffb)))
	assert.Equal(t, int64(8), x.opt(b, ipprotoUDPLite, udpliteSendCscov), "-5: the header's 8")
	require.Zero(t, x.setopt(b, ipprotoUDPLite, udpliteRecvCscov, 70000))
	assert.Equal(t, int64(0xffff), x.opt(b, ipprotoUDPLite, udpliteRecvCscov))
	assert.Equal(t, int64(0), x.opt(u, ipprotoUDPLite, udpliteSendCscov), "UDP reads it")
	assert.Equal(t, errno(ENOPROTOOPT), x.setopt(u, ipprotoUDPLite, udpliteSendCscov, 8), "UDP cannot set it")
	assert.Equal(t, errno(EPROTONOSUPPORT), x.call("socket", afInet, sockStream, ipprotoUDPLite))
}

// cmsgOf encodes one control message with an int (or the bytes given).
func cmsgOf(level, typ int32, data ...byte) []byte {
	b := make([]byte, cmsgAlign(uint64(cmsgHdrSize+len(data))))
	put64(b, 0, uint64(cmsgHdrSize+len(data)))
	put32(b, 8, uint32(level))
	put32(b, 12, uint32(typ))
	copy(b[cmsgHdrSize:], data)
	return b
}

func intData(v int32) []byte { b := make([]byte, 4); put32(b, 0, uint32(v)); return b }

type cmsgSeen struct {
	level, typ int32
	data       string // hex
}

// sendmsgTo sends "m" to the address sa with the control bytes ctl.
func (x *tk) sendmsgTo(fd uint64, sa, ctl []byte) int64 {
	c := uint64(0)
	if len(ctl) > 0 {
		c = x.data(ctl)
	}
	return x.call("sendmsg", fd, x.u64s(x.data(sa), uint64(len(sa)), x.u64s(x.str("m"), 1), 1, c, uint64(len(ctl)), 0), 0)
}

// recvmsgCmsgs receives a datagram with room bytes of control buffer
// and returns its control messages, msg_controllen and msg_flags.
func (x *tk) recvmsgCmsgs(fd uint64, room uint64) ([]cmsgSeen, uint64, uint32) {
	x.t.Helper()
	ctl := uint64(0)
	if room > 0 {
		ctl = x.alloc(room)
	}
	hdr := x.u64s(0, 0, x.u64s(x.alloc(8), 8), 1, ctl, room, 0)
	require.Equal(x.t, int64(1), x.call("recvmsg", fd, hdr, msgDontwait))
	used := x.u64(hdr + 40)
	buf := x.peek(ctl, used)
	var out []cmsgSeen
	for off := uint64(0); off+cmsgHdrSize <= used; {
		clen := le64(buf[off:])
		out = append(out, cmsgSeen{int32(u32(buf[off:], 8)), int32(u32(buf[off:], 12)), fmt.Sprintf("%x", buf[off+cmsgHdrSize:off+clen])})
		off += cmsgAlign(clen)
	}
	return out, used, x.u32(hdr + 48)
}

// TestInetAncillary: IPv4 and IPv6 ancillary data on UDP sockets, every
// expectation read off Linux 6.18's loopback with Python's socket module
// (sendmsg with the same control messages, recvmsg's ancdata and flags).
func TestInetAncillary(t *testing.T) {
	x := newTK(t, Config{})
	// IPv6: packet info, hop limit, traffic class.
	a := x.sock(afInet6, sockDgram)
	require.Zero(t, x.bind(a, lo6))
	at := x.name("getsockname", a)
	b := x.sock(afInet6, sockDgram)
	for _, o := range []uint64{ipv6RecvHoplimit, ipv6RecvTclass, ipv6RecvPktinfo} {
		require.Zero(t, x.setopt(a, ipprotoIPv6, o, 1))
	}
	pkt6 := cmsgSeen{ipprotoIPv6, ipv6Pktinfo, "0000000000000000000000000000000101000000"}
	hops := func(v string) cmsgSeen { return cmsgSeen{ipprotoIPv6, ipv6Hoplimit, v} }
	class := func(v string) cmsgSeen { return cmsgSeen{ipprotoIPv6, ipv6Tclass, v} }
	cat := func(bs ...[]byte) []byte {
		var out []byte
		for _, b := range bs {
			out = append(out, b...)
		}
		return out
	}
	for _, tc := range []struct {
		desc string
		ctl  []byte
		want []cmsgSeen
	}{
		{"defaults", nil, []cmsgSeen{pkt6, hops("40000000"), class("00000000")}},
		{"hop limit 2, class -1", cat(cmsgOf(ipprotoIPv6, ipv6Hoplimit, intData(2)...), cmsgOf(ipprotoIPv6, ipv6Tclass, intData(-1)...)),
			[]cmsgSeen{pkt6, hops("02000000"), class("ff000000")}},
		{"class 0x28", cmsgOf(ipprotoIPv6, ipv6Tclass, intData(0x28)...), []cmsgSeen{pkt6, hops("40000000"), class("28000000")}},
		{"IPPROTO_IP's skipped, SCM_RIGHTS ignored", cat(cmsgOf(ipprotoIP, ipTTL, intData(5)...), cmsgOf(solSocket, scmRights, intData(0)...)),
			[]cmsgSeen{pkt6, hops("40000000"), class("00000000")}},
	} {
		require.Equal(t, int64(1), x.sendmsgTo(b, at, tc.ctl), tc.desc)
		got, _, flags := x.recvmsgCmsgs(a, 1024)
		assert.Equal(t, tc.want, got, tc.desc)
		assert.Zero(t, flags, tc.desc)
	}
	require.Zero(t, x.setopt(b, ipprotoIPv6, ipv6UnicastHops, 7))
	require.Zero(t, x.setopt(b, ipprotoIPv6, ipv6Tclass, 9))
	require.Equal(t, int64(1), x.sendmsgTo(b, at, nil))
	got, _, _ := x.recvmsgCmsgs(a, 1024)
	assert.Equal(t, []cmsgSeen{pkt6, hops("07000000"), class("09000000")}, got, "the sender's options")
	assert.Equal(t, []int64{7, 9, 1}, []int64{x.opt(b, ipprotoIPv6, ipv6UnicastHops), x.opt(b, ipprotoIPv6, ipv6Tclass), x.opt(a, ipprotoIPv6, ipv6RecvHoplimit)})
	fresh := x.sock(afInet6, sockDgram)
	assert.Equal(t, []int64{64, 0}, []int64{x.opt(fresh, ipprotoIPv6, ipv6UnicastHops), x.opt(fresh, ipprotoIPv6, ipv6Tclass)})
	// Truncation as put_cmsg's: the first message cut to 20 bytes.
	require.Equal(t, int64(1), x.sendmsgTo(b, at, nil))
	got, used, flags := x.recvmsgCmsgs(a, 20)
	assert.Equal(t, []cmsgSeen{{ipprotoIPv6, ipv6Pktinfo, "00000000"}}, got)
	assert.Equal(t, []uint64{20, msgCtrunc}, []uint64{used, uint64(flags)})
	require.Equal(t, int64(1), x.sendmsgTo(b, at, nil))
	got, used, flags = x.recvmsgCmsgs(a, 0)
	assert.Empty(t, got)
	assert.Equal(t, []uint64{0, msgCtrunc}, []uint64{used, uint64(flags)})
	for _, bad := range [][]byte{
		cmsgOf(ipprotoIPv6, ipv6Hoplimit, intData(256)...),
		cmsgOf(ipprotoIPv6, ipv6Hoplimit, intData(-2)...),
		cmsgOf(ipprotoIPv6, ipv6Hoplimit, 1, 0, 0, 0, 0),
		cmsgOf(ipprotoIPv6, 99, intData(1)...),
	} {
		assert.Equal(t, errno(EINVAL), x.sendmsgTo(b, at, bad), "%x", bad)
	}

	// IPv4: packet info, TTL, TOS (one byte).
	c := x.sock(afInet, sockDgram)
	require.Zero(t, x.bind(c, lo4))
	cat4 := x.name("getsockname", c)
	d := x.sock(afInet, sockDgram)
	for _, o := range []uint64{ipRecvTTL, ipRecvTOS, ipPktinfo} {
		require.Zero(t, x.setopt(c, ipprotoIP, o, 1))
	}
	pkt4 := cmsgSeen{ipprotoIP, ipPktinfo, "010000007f0000017f000001"}
	ttl := func(v string) cmsgSeen { return cmsgSeen{ipprotoIP, ipTTL, v} }
	tos := func(v string) cmsgSeen { return cmsgSeen{ipprotoIP, ipTOS, v} }
	for _, tc := range []struct {
		desc string
		ctl  []byte
		want []cmsgSeen
	}{
		{"defaults", nil, []cmsgSeen{pkt4, ttl("40000000"), tos("00")}},
		{"TTL 3, TOS 16", cat(cmsgOf(ipprotoIP, ipTTL, intData(3)...), cmsgOf(ipprotoIP, ipTOS, intData(0x10)...)),
			[]cmsgSeen{pkt4, ttl("03000000"), tos("10")}},
		{"TOS as a byte", cmsgOf(ipprotoIP, ipTOS, 0x20), []cmsgSeen{pkt4, ttl("40000000"), tos("20")}},
		{"IPPROTO_IPV6's skipped", cmsgOf(ipprotoIPv6, ipv6Hoplimit, intData(1)...), []cmsgSeen{pkt4, ttl("40000000"), tos("00")}},
	} {
		require.Equal(t, int64(1), x.sendmsgTo(d, cat4, tc.ctl), tc.desc)
		got, _, _ := x.recvmsgCmsgs(c, 1024)
		assert.Equal(t, tc.want, got, tc.desc)
	}
	require.Zero(t, x.setopt(d, ipprotoIP, ipTTL, 9))
	require.Zero(t, x.setopt(d, ipprotoIP, ipTOS, 0x44))
	require.Equal(t, int64(1), x.sendmsgTo(d, cat4, nil))
	got, _, _ = x.recvmsgCmsgs(c, 1024)
	assert.Equal(t, []cmsgSeen{pkt4, ttl("09000000"), tos("44")}, got)
	assert.Equal(t, []int64{1, 1, 1}, []int64{x.opt(c, ipprotoIP, ipRecvTTL), x.opt(c, ipprotoIP, ipPktinfo), x.opt(c, ipprotoIP, ipRecvTOS)})
	for _, bad := range [][]byte{
		cmsgOf(ipprotoIP, ipTTL, intData(0)...),
		cmsgOf(ipprotoIP, ipTTL, intData(256)...),
		cmsgOf(ipprotoIP, ipTOS, intData(256)...),
		cmsgOf(ipprotoIP, ipTTL, 1),
		cmsgOf(ipprotoIP, 99, intData(1)...),
	} {
		assert.Equal(t, errno(EINVAL), x.sendmsgTo(d, cat4, bad), "%x", bad)
	}

	// IPv4 to a dual-stack socket: IPV6_PKTINFO names the mapped
	// address; IPv6's hop limit and class are IPv6 datagrams' only;
	// IP_RECVTTL on it gives IPv4's.
	e := x.sock(afInet6, sockDgram)
	require.Zero(t, x.bind(e, withPort(any6, 5001)))
	for _, o := range []uint64{ipv6RecvHoplimit, ipv6RecvTclass, ipv6RecvPktinfo} {
		require.Zero(t, x.setopt(e, ipprotoIPv6, o, 1))
	}
	require.Equal(t, int64(1), x.sendmsgTo(d, sin(127, 0, 0, 1, 5001), nil))
	got, _, _ = x.recvmsgCmsgs(e, 1024)
	mapped := cmsgSeen{ipprotoIPv6, ipv6Pktinfo, "00000000000000000000ffff7f00000101000000"}
	assert.Equal(t, []cmsgSeen{mapped}, got)
	require.Zero(t, x.setopt(e, ipprotoIP, ipRecvTTL, 1))
	require.Equal(t, int64(1), x.sendmsgTo(d, sin(127, 0, 0, 1, 5001), nil))
	got, _, _ = x.recvmsgCmsgs(e, 1024)
	assert.Equal(t, []cmsgSeen{mapped, ttl("09000000")}, got)
	assert.Empty(t, x.warn.String())
}

// TestInetSockopts: the options, and ENOPROTOOPT for the others.
func TestInetSockopts(t *testing.T) {
	x := newTK(t, Config{})
	s := x.sock(afInet6, sockStream)
	u := x.sock(afInet, sockDgram)
	tests := []struct {
		desc         string
		fd           uint64
		level, name  uint64
		want         int64
		set, wantSet int64 // a value to set (-1: none) and what reads back
	}{
		{"SO_TYPE", s, solSocket, soType, sockStream, -1, 0},
		{"SO_DOMAIN", s, solSocket, soDomain, afInet6, -1, 0},
		{"SO_PROTOCOL tcp", s, solSocket, soProtocol, ipprotoTCP, -1, 0},
		{"SO_PROTOCOL udp", u, solSocket, soProtocol, ipprotoUDP, -1, 0},
		{"SO_ACCEPTCONN", s, solSocket, soAcceptconn, 0, -1, 0},
		{"SO_SNDBUF tcp", s, solSocket, soSndbuf, 16384, 100000, 200000},
		{"SO_RCVBUF tcp", s, solSocket, soRcvbuf, 131072, 10, 2304},
		{"SO_SNDBUF udp", u, solSocket, soSndbuf, 212992, 1 << 30, 425984},
		{"SO_REUSEADDR", s, solSocket, soReuseaddr, 0, 5, 1},
		{"SO_KEEPALIVE", s, solSocket, soKeepalive, 0, 1, 1},
		{"TCP_NODELAY", s, ipprotoTCP, tcpNodelay, 0, 1, 1},
		{"TCP_KEEPIDLE", s, ipprotoTCP, tcpKeepidle, 7200, 60, 60},
		{"IPV6_V6ONLY", s, ipprotoIPv6, ipv6V6only, 0, 1, 1},
		{"IP_TTL", u, ipprotoIP, ipTTL, 64, 5, 5},
		{"TCP_NODELAY on UDP", u, ipprotoTCP, tcpNodelay, errno(ENOPROTOOPT), -1, 0},
		{"IPV6_V6ONLY on IPv4", u, ipprotoIPv6, ipv6V6only, errno(ENOPROTOOPT), -1, 0},
		{"IP_MULTICAST_TTL", u, ipprotoIP, 33, errno(ENOPROTOOPT), -1, 0},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, x.opt(tc.fd, tc.level, tc.name), tc.desc)
		if tc.set >= 0 {
			require.Zero(t, x.setopt(tc.fd, tc.level, tc.name, uint32(tc.set)), tc.desc)
			assert.Equal(t, tc.wantSet, x.opt(tc.fd, tc.level, tc.name), tc.desc)
		}
	}
	assert.Equal(t, errno(ENOPROTOOPT), x.setopt(s, ipprotoTCP, 99, 1))
	assert.Equal(t, errno(EINVAL), x.call("setsockopt", s, solSocket, soReuseaddr, x.alloc(4), 2))
}

// TestInetBlockingAccept: a thread blocks in accept while another
// connects; alone, a blocking accept would wait forever: EINTR, warned.
func TestInetBlockingAccept(t *testing.T) {
	x := newTK(t, Config{})
	l, at := x.listener(afInet, lo4, 8)
	r := UserRegs{PC: 0x1004}
	x.ecall(&r, "accept", l, 0, 0)
	assert.Equal(t, errno(EINTR), int64(r.X[10]))
	assert.Contains(t, x.warn.String(), "socket accept would wait forever (nothing else can connect to the socket)")

	require.Equal(t, int64(1001), x.spawn(&r, 0x9000, 0, x.alloc(4), x.alloc(4)))
	x.ecall(&r, "accept", l, 0, 0) // blocks: the child runs
	require.Equal(t, int32(1001), x.k.Tid())
	c := x.sock(afInet, sockStream)
	x.ecall(&r, "connect", c, x.data(at), 16)
	require.Zero(t, r.X[10])
	x.ecall(&r, "sched_yield")
	require.Equal(t, int32(1000), x.k.Tid())
	assert.Equal(t, uint64(0x1000), r.PC, "woken, the accept starts again")
	x.ecall(&r, "accept", l, 0, 0)
	assert.GreaterOrEqual(t, int64(r.X[10]), int64(3))
}
