package syscalls

import (
	"net"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sockaddrUn encodes a struct sockaddr_un for path.
func sockaddrUn(path string) []byte {
	return append([]byte{afUnix, 0}, append([]byte(path), 0)...)
}

// TestUnixSocketWithoutListener: socket(AF_UNIX) succeeds and connect
// fails as on Linux when nothing listens (ENOENT without the path,
// ECONNREFUSED with one), quietly, as glibc's nscd probe meets it; only a
// real socket at the path, which Linux could reach, gets a warning.
func TestUnixSocketWithoutListener(t *testing.T) {
	x := newTK(t, Config{})
	require.NoError(t, os.WriteFile(filepath.Join(x.root, "file"), []byte("data"), 0o644))
	fd := x.call("socket", afUnix, sockStream|sockCloexec|sockNonblock, 0)
	require.GreaterOrEqual(t, fd, int64(3))
	nscd := sockaddrUn("/var/run/nscd/socket")
	assert.Equal(t, errno(ENOENT), x.call("connect", uint64(fd), x.data(nscd), uint64(len(nscd))))
	file := sockaddrUn("/file")
	assert.Equal(t, errno(ECONNREFUSED), x.call("connect", uint64(fd), x.data(file), uint64(len(file))))
	assert.Equal(t, errno(ECONNREFUSED), x.call("connect", uint64(fd), x.data([]byte{afUnix, 0, 0, 'a'}), 4))
	assert.Equal(t, errno(EINVAL), x.call("connect", uint64(fd), x.data([]byte{2, 0, 0, 0}), 4))
	assert.Empty(t, x.warn.String(), "the probe is quiet")

	buf := x.alloc(256)
	assert.Equal(t, errno(ENOTCONN), x.call("read", uint64(fd), buf, 8))
	assert.Equal(t, errno(ENOTCONN), x.call("write", uint64(fd), buf, 8))
	assert.Equal(t, errno(ESPIPE), x.call("lseek", uint64(fd), 0, 0))
	require.Equal(t, int64(0), x.call("fstat", uint64(fd), buf))
	assert.Equal(t, uint32(sIFSOCK|0o777), x.u32(buf+16))
	assert.Equal(t, int64(oRdwr|oNonblock), x.call("fcntl", uint64(fd), 3, 0)) // F_GETFL
	assert.Equal(t, int64(1), x.call("fcntl", uint64(fd), 1, 0))               // F_GETFD: FD_CLOEXEC
	// Every other call on a socket descriptor answers without a panic.
	for _, name := range []string{"pread64", "pwrite64", "readv", "writev", "fstatfs", "fsync", "fdatasync", "ftruncate",
		"fallocate", "fchmod", "fchown", "getdents64", "ioctl", "flock", "fadvise64", "fchdir", "dup", "close"} {
		x.call(name, uint64(fd), buf, 8, 0, 0, 0)
	}
	assert.Equal(t, errno(EBADF), x.call("read", uint64(fd), buf, 8), "closed")
	sfd := x.call("socket", afUnix, sockDgram, 0)
	assert.Equal(t, errno(ENOTCONN), x.call("sendfile", uint64(sfd), uint64(x.open("/file", oRdonly, 0)), 0, 4))
	assert.Equal(t, errno(ENOTSOCK), x.call("connect", uint64(x.open("/file", oRdonly, 0)), x.data(file), uint64(len(file))))

	assert.Equal(t, errno(ESOCKTNOSUPPORT), x.call("socket", afUnix, 3, 0))
	assert.Equal(t, errno(EPROTONOSUPPORT), x.call("socket", afUnix, sockStream, 6))
	assert.Empty(t, x.warn.String())

	// A listening socket on the host: the guest cannot reach it, and says so.
	l, err := net.Listen("unix", filepath.Join(x.root, "sock"))
	require.NoError(t, err)
	defer l.Close()
	sock := sockaddrUn("/sock")
	assert.Equal(t, errno(ECONNREFUSED), x.call("connect", uint64(sfd), x.data(sock), uint64(len(sock))))
	assert.Equal(t, "rvsim: warning: connect to the socket /sock returns ECONNREFUSED: no socket of the run is bound to it (the host's are not the guest's)\n", x.warn.String())
	x.warn.Reset()
	assert.Equal(t, errno(EAFNOSUPPORT), x.call("socket", 17, 3, 0)) // AF_PACKET
	assert.Equal(t, errno(EAFNOSUPPORT), x.call("socket", 31, 1, 0)) // AF_BLUETOOTH: one warning
	assert.Equal(t, "rvsim: warning: syscall 198 (socket) returns EAFNOSUPPORT for address family 17: only AF_INET and AF_INET6 on the loopback, AF_UNIX and AF_NETLINK (NETLINK_ROUTE) are supported (no network)\n", x.warn.String())
	x.warn.Reset()
	assert.Equal(t, errno(EADDRINUSE), x.call("bind", uint64(sfd), x.data(sock), uint64(len(sock))), "the path exists")
}

// TestUnixNamedSockets: bind to a path (a socket file) or an abstract
// name, listen, accept, connect from the process itself.
func TestUnixNamedSockets(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(root, "d"), 0o755))
	x := newTK(t, Config{Root: root, AllowWrite: []string{filepath.Join(root, "d")}})
	l := uint64(x.call("socket", afUnix, sockStream, 0))
	outside := sockaddrUn("/srv.sock")
	assert.Equal(t, errno(EACCES), x.call("bind", l, x.data(outside), uint64(len(outside))), "the sandbox refuses the file")
	path := sockaddrUn("/d/srv.sock")
	assert.Equal(t, errno(EINVAL), x.call("listen", l, 1), "unbound")
	require.Zero(t, x.call("bind", l, x.data(path), uint64(len(path))))
	fi, err := os.Lstat(filepath.Join(x.root, "d/srv.sock"))
	require.NoError(t, err)
	assert.Equal(t, os.ModeSocket, fi.Mode().Type(), "a socket file")
	assert.Equal(t, path, x.name("getsockname", l))
	assert.Equal(t, errno(EINVAL), x.call("bind", l, x.data(path), uint64(len(path))), "bound already")
	other := uint64(x.call("socket", afUnix, sockStream, 0))
	assert.Equal(t, errno(EADDRINUSE), x.call("bind", other, x.data(path), uint64(len(path))))
	require.Zero(t, x.call("listen", l, 0)) // holds one connection
	assert.Equal(t, int64(1), x.opt(l, solSocket, soAcceptconn))
	require.Zero(t, x.call("fcntl", l, 4, oNonblock))
	assert.Equal(t, errno(EAGAIN), x.call("accept", l, 0, 0))
	assert.Zero(t, x.revents(l))

	// Another path to the same file reaches the listener.
	require.Zero(t, x.call("chdir", x.str("/d")))
	rel := sockaddrUn("./srv.sock")
	c := uint64(x.call("socket", afUnix, sockStream, 0))
	require.Zero(t, x.call("connect", c, x.data(rel), uint64(len(rel))))
	assert.Equal(t, uint32(pollIn|pollRdnorm), x.revents(l))
	c2 := uint64(x.call("socket", afUnix, sockStream|sockNonblock, 0))
	assert.Equal(t, errno(EAGAIN), x.call("connect", c2, x.data(path), uint64(len(path))), "the queue is full")
	peer, plen := x.alloc(128), x.u64s(128)
	s := x.call("accept4", l, peer, plen, sockNonblock)
	require.GreaterOrEqual(t, s, int64(3))
	assert.Equal(t, unnamedUnix, x.peek(peer, uint64(x.u32(plen))), "the client is unnamed")
	assert.Equal(t, path, x.name("getsockname", uint64(s)))
	assert.Equal(t, path, x.name("getpeername", c))
	require.Zero(t, x.call("connect", c2, x.data(path), uint64(len(path))), "room again")
	require.Equal(t, int64(4), x.call("write", uint64(s), x.str("pong"), 4))
	buf, from, flen := x.alloc(8), x.alloc(128), x.u64s(128)
	require.Equal(t, int64(4), x.call("recvfrom", c, buf, 8, 0, from, flen))
	assert.Equal(t, path, x.peek(from, uint64(x.u32(flen))), "from the listener's name")

	// The listener closes: its queued connection is reset (ECONNRESET
	// once, then end of file, as unix_release_sock resets an embryo's
	// peer), the name is free, the file stays and refuses.
	require.Zero(t, x.call("close", l))
	assert.Equal(t, uint32(pollIn|pollRdnorm|pollErr|pollHup|epollRdhup), x.revents(c2)&^uint32(pollOut|pollWrnorm|pollWrband))
	_, got := x.recv(c2, 4, 0)
	assert.Equal(t, errno(ECONNRESET), got)
	_, got = x.recv(c2, 4, 0)
	assert.Zero(t, got)
	assert.Equal(t, errno(ECONNREFUSED), x.call("connect", other, x.data(path), uint64(len(path))))
	assert.Contains(t, x.warn.String(), "connect to the socket /d/srv.sock returns ECONNREFUSED")

	// Abstract names; seqpacket keeps its type; autobind.
	abs := []byte{afUnix, 0, 0, 'a', 'b'}
	sp := uint64(x.call("socket", afUnix, sockSeqpacket, 0))
	require.Zero(t, x.call("bind", sp, x.data(abs), uint64(len(abs))))
	assert.Equal(t, errno(EADDRINUSE), x.call("bind", other, x.data(abs), uint64(len(abs))))
	require.Zero(t, x.call("listen", sp, 4))
	assert.Equal(t, errno(EPROTOTYPE), x.call("connect", other, x.data(abs), uint64(len(abs))))
	q := uint64(x.call("socket", afUnix, sockSeqpacket, 0))
	require.Zero(t, x.call("bind", q, x.data(unnamedUnix), 2))
	assert.Equal(t, []byte{afUnix, 0, 0, '0', '0', '0', '0', '0'}, x.name("getsockname", q), "autobind")
	require.Zero(t, x.call("connect", q, x.data(abs), uint64(len(abs))))
	plen = x.u64s(128)
	qs := x.call("accept", sp, peer, plen)
	require.GreaterOrEqual(t, qs, int64(3))
	assert.Equal(t, x.name("getsockname", q), x.peek(peer, uint64(x.u32(plen))))
	require.Equal(t, int64(3), x.call("write", q, x.str("one"), 3))
	require.Equal(t, int64(3), x.call("write", q, x.str("two"), 3))
	str, _ := x.recv(uint64(qs), 8, 0)
	assert.Equal(t, "one", str, "messages keep their bounds")
	require.Zero(t, x.call("close", sp))
	require.Zero(t, x.call("bind", uint64(x.call("socket", afUnix, sockStream, 0)), x.data(abs), uint64(len(abs))), "the name is free")

	// Datagram sockets by name: they do not listen or take connections;
	// they receive with the sender's name (none for an unbound one).
	dg := uint64(x.call("socket", afUnix, sockDgram, 0))
	dname := []byte{afUnix, 0, 0, 'd'}
	require.Zero(t, x.call("bind", dg, x.data(dname), uint64(len(dname))))
	assert.Equal(t, errno(EOPNOTSUPP), x.call("listen", dg, 1))
	assert.Equal(t, errno(EPROTOTYPE), x.call("connect", other, x.data(dname), uint64(len(dname))))
	assert.Equal(t, uint32(pollOut|pollWrnorm), x.revents(dg))
	anon := uint64(x.call("socket", afUnix, sockDgram, 0))
	assert.Equal(t, errno(ENOTCONN), x.call("write", anon, x.str("x"), 1))
	require.Equal(t, int64(5), x.call("sendto", anon, x.str("first"), 5, 0, x.data(dname), uint64(len(dname))))
	named := uint64(x.call("socket", afUnix, sockDgram|sockNonblock, 0))
	nname := []byte{afUnix, 0, 0, 'n'}
	require.Zero(t, x.call("bind", named, x.data(nname), uint64(len(nname))))
	require.Zero(t, x.call("connect", named, x.data(dname), uint64(len(dname))))
	assert.Equal(t, dname, x.name("getpeername", named))
	require.Equal(t, int64(6), x.call("write", named, x.str("second"), 6))
	assert.Equal(t, uint32(pollIn|pollRdnorm|pollOut|pollWrnorm), x.revents(dg))
	require.Zero(t, x.call("ioctl", dg, fionread, buf))
	assert.Equal(t, uint32(5), x.u32(buf))
	flen = x.u64s(128)
	require.Equal(t, int64(5), x.call("recvfrom", dg, buf, 8, 0, from, flen))
	assert.Equal(t, "first", string(x.peek(buf, 5)))
	assert.Zero(t, x.u32(flen), "an unnamed sender")
	flen = x.u64s(128)
	require.Equal(t, int64(6), x.call("recvfrom", dg, buf, 8, 0, from, flen))
	assert.Equal(t, nname, x.peek(from, uint64(x.u32(flen))))
	// dg connected to named takes no one else's; a full queue is EAGAIN;
	// a closed destination refuses.
	require.Zero(t, x.call("connect", dg, x.data(nname), uint64(len(nname))))
	assert.Equal(t, errno(EPERM), x.call("sendto", anon, x.str("x"), 1, 0, x.data(dname), uint64(len(dname))))
	big := x.alloc(sockCapacity)
	require.Equal(t, int64(sockCapacity), x.call("sendto", named, big, sockCapacity, 0, 0, 0))
	assert.Equal(t, errno(EAGAIN), x.call("sendto", named, big, 1, 0, 0, 0))
	require.Zero(t, x.call("close", dg))
	assert.Equal(t, errno(ECONNREFUSED), x.call("write", named, x.str("x"), 1))
	assert.Equal(t, errno(ENOTCONN), x.call("write", named, x.str("x"), 1), "the dead peer is forgotten")
	require.Zero(t, x.call("connect", named, x.data(nname), uint64(len(nname))))
	require.Zero(t, x.call("connect", named, x.data([]byte{0, 0}), 2), "AF_UNSPEC dissolves the association")
	assert.Equal(t, errno(ENOTCONN), x.call("write", named, x.str("x"), 1))
}
