package syscalls

import (
	"fmt"
	"strconv"
	"strings"
)

// Sockets. rvsim has no network, and no second process to talk to, so
// network socket calls return ENOSYS with a warning (table.go). A
// socketpair talks to the process itself (sockpair.go). And a process on
// a Linux host without the service it looks for observes this part of
// AF_UNIX: socket(AF_UNIX, ...) gives a descriptor, and connect on it
// fails as it does when nothing listens at the path: ENOENT when the path
// does not exist, ECONNREFUSED otherwise. This is what glibc's probe of
// the nscd daemon (getpwuid, getgrnam, getaddrinfo... connect to
// /var/run/nscd/socket) meets on a host without nscd, quietly. Reading or
// writing the unconnected socket gives ENOTCONN.

// Socket constants (linux/socket.h, linux/net.h).
const (
	afUnix        = 1
	sockStream    = 1
	sockDgram     = 2
	sockSeqpacket = 5
	sockTypeMask  = 0xf
	sockNonblock  = oNonblock
	sockCloexec   = oCloexec
	sunPathMax    = 108 // sizeof(sockaddr_un.sun_path)
)

var sockfsDev = makedev(0, 8)

// noNetwork is the answer of a socket call rvsim does not support: the
// warning the dispatcher gives Unsupported calls (why: what is not
// supported), and ENOSYS.
func (k *Kernel) noNetwork(num uint64, why string) (uint64, Errno) {
	k.warnOnce(fmt.Sprintf("syscall %d", num),
		"rvsim: warning: syscall %d (%s) returns ENOSYS: %s", num, Name(num), why)
	return 0, ENOSYS
}

func sysSocket(k *Kernel, a sysArgs) (uint64, Errno) {
	domain, typ, proto := a.Int(0), a.Uint(1), a.Int(2)
	if domain == afInet || domain == afInet6 {
		return k.inetSocket(domain, typ, proto)
	}
	if domain != afUnix {
		return k.noNetwork(198, "only AF_INET and AF_INET6 on the loopback, and AF_UNIX, are supported (no network)")
	}
	if e := checkUnixType(typ, proto); e != 0 {
		return 0, e
	}
	ino := k.nextIno()
	of := &openFile{kind: kindSocket, guest: "socket:[" + strconv.FormatUint(ino, 10) + "]",
		flags: oRdwr | typ&sockNonblock, sockType: typ & sockTypeMask, sockIno: ino}
	return k.install(of, typ&sockCloexec != 0, 0)
}

func sysConnect(k *Kernel, a sysArgs) (uint64, Errno) {
	of, e := k.file(a.Int(0))
	if e != 0 {
		return 0, e
	}
	if of.kind != kindSocket {
		return 0, ENOTSOCK
	}
	if of.inet != nil {
		return k.inetConnect(of, a.Ptr(1), a.Ptr(2))
	}
	if of.rx != nil {
		return 0, EISCONN
	}
	return k.connectUnix(a.Ptr(1), a.Ptr(2))
}

// connectUnix is connect's answer for an AF_UNIX address: nothing
// listens at any path.
func (k *Kernel) connectUnix(addr, n uint64) (uint64, Errno) {
	if n < 2 || n > 2+sunPathMax {
		return 0, EINVAL
	}
	b, e := k.readMem(addr, n)
	if e != 0 {
		return 0, e
	}
	if uint16(b[0])|uint16(b[1])<<8 != afUnix || n == 2 {
		return 0, EINVAL
	}
	p := string(b[2:])
	if p[0] == 0 { // an abstract name: nothing listens
		return 0, ECONNREFUSED
	}
	p, _, _ = strings.Cut(p, "\x00")
	s, e := k.statAt(atFDCWD, p, 0)
	if e != 0 {
		return 0, e
	}
	if s.mode&sIFMT == sIFSOCK {
		k.warnOnce("connect "+p, "rvsim: warning: connect to the socket %s returns ECONNREFUSED: sockets are not supported (no network)", p)
	}
	return 0, ECONNREFUSED
}

// checkUnixType checks an AF_UNIX socket's type (with its flags) and
// protocol, for socket and socketpair.
func checkUnixType(typ uint32, proto int32) Errno {
	if typ&^(sockTypeMask|sockNonblock|sockCloexec) != 0 {
		return EINVAL
	}
	switch typ & sockTypeMask {
	case sockStream, sockDgram, sockSeqpacket:
	default:
		return ESOCKTNOSUPPORT
	}
	if proto != 0 && proto != afUnix {
		return EPROTONOSUPPORT
	}
	return 0
}

// socketPollMask is unix_poll's answer for an unconnected socket: writable,
// and hung up if connection-oriented.
func socketPollMask(of *openFile) uint32 {
	if of.inet != nil {
		return inetPollMask(of)
	}
	if of.rx != nil {
		return connectedPollMask(of)
	}
	m := uint32(pollOut | pollWrnorm)
	if of.sockType != sockDgram {
		m |= pollHup
	}
	return m
}
