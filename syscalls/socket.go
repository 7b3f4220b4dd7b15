package syscalls

import (
	"strconv"
)

// Sockets. rvsim has no network, so every socket talks to the run's own
// processes: a socketpair (sockpair.go),
// AF_UNIX sockets bound to a name (unixsock.go), TCP and UDP over the
// loopback (inet.go), NETLINK_ROUTE for the interfaces (netlink.go).
// Other domains return ENOSYS with a warning. And a
// process on a Linux host without the service it looks for observes this
// part of AF_UNIX: connect to a path no socket of the process is bound
// to fails as it does when nothing listens there: ENOENT when the path
// does not exist, ECONNREFUSED otherwise. This is what glibc's probe of
// the nscd daemon (getpwuid, getgrnam, getaddrinfo... connect to
// /var/run/nscd/socket) meets on a host without nscd, quietly. Reading or
// writing an unconnected socket gives ENOTCONN.

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

// socketFamilies says which address families the guest's socket has.
const socketFamilies = "only AF_INET and AF_INET6 on the loopback, AF_UNIX and AF_NETLINK (NETLINK_ROUTE) are supported (no network)"

func sysSocket(k *Kernel, a sysArgs) (uint64, Errno) {
	domain, typ, proto := a.Int(0), a.Uint(1), a.Int(2)
	if domain == afInet || domain == afInet6 {
		return k.inetSocket(domain, typ, proto)
	}
	if domain == afNetlink {
		return k.netlinkSocket(typ, proto)
	}
	if domain != afUnix {
		// Linux's answer for a family its kernel has no support for
		// (__sock_create), with one warning saying what rvsim has.
		k.warnOnce("syscall 198", "rvsim: warning: syscall 198 (socket) returns EAFNOSUPPORT for address family %d: %s", domain, socketFamilies)
		return 0, EAFNOSUPPORT
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
	if of.nl != nil {
		return k.netlinkConnect(of, a.Ptr(1), a.Ptr(2))
	}
	if of.rx != nil {
		return 0, EISCONN
	}
	return k.unixConnect(of, a.Ptr(1), a.Ptr(2))
}

// connectUnix is a datagram destination's answer: an address that does
// not exist is its error; else nothing is delivered by name.
func (k *Kernel) connectUnix(addr, n uint64) (uint64, Errno) {
	b, e := k.readUnixAddr(addr, n)
	if e != 0 {
		return 0, e
	}
	if _, e := k.unixTarget(b); e != 0 {
		return 0, e
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
	if of.nl != nil {
		return netlinkPollMask(of)
	}
	if of.ul != nil { // a listener: readable when a connection waits
		if len(of.ul.queue) > 0 {
			return pollIn | pollRdnorm
		}
		return 0
	}
	if of.rx != nil {
		return connectedPollMask(of)
	}
	m := uint32(pollOut | pollWrnorm)
	if of.sockType != sockDgram {
		m |= pollHup
	}
	if of.uin != nil && len(of.uin.msgs) > 0 {
		m |= pollIn | pollRdnorm
	}
	return m
}
