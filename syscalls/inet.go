package syscalls

import (
	"net/netip"
	"strconv"
)

// Loopback networking inside the run: AF_INET and AF_INET6 sockets,
// TCP (SOCK_STREAM) and UDP (SOCK_DGRAM), whose only network is the
// loopback interface and whose only host is the run's processes (one
// bind table, procList.net). A thread or a process serves on 127.0.0.1
// and another connects, as test suites, asyncio's start_server, a node
// http server with its client, and multiprocessing's managers do.
// Nothing touches the host's network.
//
// A connection is a socketpair's two ends (sockpair.go) made by connect:
// the listener's end waits in its accept queue. Linux's loopback
// handshake finishes inside connect, so connect succeeds at once when the
// listener's queue has room (a non-blocking one answers EINPROGRESS, as
// Linux's does, already connected); else a blocking connect waits for an
// accept and a non-blocking one stays in progress until one. No
// listener: ECONNREFUSED. What TCP adds to a socketpair is modelled as
// Linux's loopback shows it: closing with unread data, or a listener
// with queued connections, resets the peer (ECONNRESET once, then end of
// file); a send to a closed peer succeeds once and then fails (EPIPE);
// SHUT_RD does not stop the peer's sends.
//
// A UDP datagram goes to the first bound socket, in bind order, whose
// address and port it is sent to (a connected one only from its peer),
// with its source address; to a port without one it is dropped, and a
// connected sender gets ECONNREFUSED at its next call, as the loopback's
// ICMP error gives it.
//
// Addresses are the loopback ones (127.0.0.0/8, ::1) and the wildcards
// (0.0.0.0, ::), which mean this host; binding another is
// EADDRNOTAVAIL, and connecting or sending to one ENETUNREACH with a
// warning that names it (there is no network). Port 0 binds the next
// free port counting up from 32768 (ip_local_port_range), so runs are
// deterministic. Bind conflicts follow inet_csk_bind_conflict: the same
// port on overlapping addresses (a wildcard overlaps all, an AF_INET6
// wildcard overlaps IPv4 unless IPV6_V6ONLY) unless both sockets set
// SO_REUSEPORT, or both SO_REUSEADDR and neither listens (TCP). A closed
// connection leaves no TIME_WAIT behind.

// Address families, protocols and options (linux/socket.h, in.h, in6.h, tcp.h).
const (
	afUnspec = 0
	afInet   = 2
	afInet6  = 10

	ipprotoIP  = 0
	ipprotoTCP = 6
	ipprotoUDP = 17
	// ipprotoUDPLite is UDP-Lite (RFC 3828): UDP with a checksum that may
	// cover only the start of a datagram, its own ports, and two options
	// at its level (UDPLITE_SEND_CSCOV, UDPLITE_RECV_CSCOV).
	ipprotoUDPLite   = 136
	udpliteSendCscov = 10
	udpliteRecvCscov = 11
	ipprotoIPv6      = 41

	ipTOS       = 1
	ipTTL       = 2
	tcpNodelay  = 1
	tcpKeepidle = 4
	tcpKeepintv = 5
	tcpKeepcnt  = 6
	ipv6V6only  = 26

	soBroadcast = 6
	soReuseport = 15

	sockaddrInSize  = 16
	sockaddrIn6Size = 28
	sin6LenRFC2133  = 24 // the shortest sockaddr_in6 Linux takes
	sockaddrMax     = 128

	portLow   = 32768 // net.ipv4.ip_local_port_range
	portHigh  = 60999
	somaxconn = 4096

	udpMaxV4 = 65507 // 65535 less the IPv4 and UDP headers
	udpMaxV6 = 65527
)

// inetAddr is an address and port; an IPv4 address is kept v4-mapped
// (::ffff:a.b.c.d), as an AF_INET6 socket reports it.
type inetAddr struct {
	ip   [16]byte
	port uint16
}

var (
	v4Any      = [16]byte{10: 0xff, 11: 0xff}
	v4Loopback = [16]byte{10: 0xff, 11: 0xff, 12: 127, 15: 1}
	v6Loopback = [16]byte{15: 1}
)

func (a inetAddr) v4() bool { return [12]byte(a.ip[:12]) == [12]byte(v4Any[:12]) }

func (a inetAddr) wildcard() bool { return a.ip == [16]byte{} || a.ip == v4Any }

func (a inetAddr) loopback() bool {
	if a.v4() {
		return a.ip[12] == 127
	}
	return a.ip == v6Loopback
}

func (a inetAddr) String() string {
	return netip.AddrPortFrom(netip.AddrFrom16(a.ip).Unmap(), a.port).String()
}

// TCP states the model tells apart.
const (
	tcpClosed      = iota // not connected (fresh, refused, reset)
	tcpListen             // listening
	tcpConnecting         // a non-blocking connect waits for room in a listener's queue
	tcpEstablished        // connected (rx, tx set)
)

// inetSock is the state of an AF_INET or AF_INET6 socket.
type inetSock struct {
	family  uint16
	local   inetAddr
	bound   bool // in Kernel.net.bound (local.port is its port)
	peer    inetAddr
	hasPeer bool // TCP: connected; UDP: a default destination (connect)
	state   uint8
	err     Errno // SO_ERROR: a pending error, reported once
	// inProgress: a non-blocking connect answered EINPROGRESS; the next
	// connect reports how it ended (0 once, then EISCONN).
	inProgress bool
	finSent    bool // this end's sending side is shut (tx.writers counted down)
	wasReset   bool // the connection was reset
	gens       wakeGens

	backlog  int
	queue    []*openFile // tcpListen: connections that wait for accept
	waiting  []*openFile // tcpListen: non-blocking connects that wait for room
	listener *openFile   // tcpConnecting: the listener it waits on
	other    *openFile   // tcpEstablished: the peer's end

	inbox *pipe // UDP: received datagrams
	// lite: a UDP-Lite socket; sendCscov, recvCscov: its checksum
	// coverages (udp_sock's pcslen, pcrlen: 0 the whole datagram, else
	// at least the 8-byte header).
	lite                 bool
	sendCscov, recvCscov int32
	recvChecked          bool // UDPLITE_RECV_CSCOV was set (UDPLITE_RECV_CC)
	// rx: the ancillary data recvmsg gives (inetcmsg.go); hops6, tclass6:
	// IPV6_UNICAST_HOPS (-1: the route's) and IPV6_TCLASS.
	rx             rxOptions
	hops6, tclass6 int32
	from           []dgramInfo // UDP: their sources and headers, in order
	got            dgramInfo   // UDP: those of the datagram the last receive took

	reuseAddr, reusePort, keepalive, nodelay, v6only, broadcast bool
	linger                                                      [8]byte
	sndbuf, rcvbuf                                              int
	keepIdle, keepIntvl, keepCnt, tos, ttl                      int32
}

// netState is the process's network: the bound sockets, in bind order.
type netState struct {
	bound    []*openFile
	nextPort uint16
}

// inetSocket is socket(AF_INET or AF_INET6, ...).
func (k *Kernel) inetSocket(domain int32, typ uint32, proto int32) (uint64, Errno) {
	if typ&^(sockTypeMask|sockNonblock|sockCloexec) != 0 {
		return 0, EINVAL
	}
	s := &inetSock{family: uint16(domain), ttl: 64, hops6: -1, keepIdle: 7200, keepIntvl: 75, keepCnt: 9}
	switch typ & sockTypeMask {
	case sockStream:
		if proto != 0 && proto != ipprotoTCP {
			return 0, EPROTONOSUPPORT
		}
		s.sndbuf, s.rcvbuf = 16384, 131072 // net.ipv4.tcp_wmem, tcp_rmem defaults
	case sockDgram:
		if proto != 0 && proto != ipprotoUDP && proto != ipprotoUDPLite {
			return 0, EPROTONOSUPPORT
		}
		s.lite = proto == ipprotoUDPLite
		s.sndbuf, s.rcvbuf = sockCapacity, sockCapacity
		s.inbox = &pipe{readers: 1, writers: 1, msgs: []int{}, ino: k.nextIno()}
	default:
		return 0, ESOCKTNOSUPPORT
	}
	if domain == afInet {
		s.local.ip = v4Any
	}
	ino := k.nextIno()
	of := &openFile{kind: kindSocket, guest: "socket:[" + strconv.FormatUint(ino, 10) + "]",
		flags: oRdwr | typ&sockNonblock, sockType: typ & sockTypeMask, sockIno: ino, inet: s}
	return k.install(of, typ&sockCloexec != 0, 0)
}

// readInetAddr reads a sockaddr_in or sockaddr_in6 of the socket's family.
func (k *Kernel) readInetAddr(s *inetSock, addr, n uint64) (inetAddr, Errno) {
	if n > sockaddrMax {
		return inetAddr{}, EINVAL
	}
	if s.family == afInet && n < sockaddrInSize || s.family == afInet6 && n < sin6LenRFC2133 {
		return inetAddr{}, EINVAL
	}
	b, e := k.readMem(addr, n)
	if e != 0 {
		return inetAddr{}, e
	}
	if uint16(b[0])|uint16(b[1])<<8 != s.family {
		return inetAddr{}, EAFNOSUPPORT
	}
	a := inetAddr{port: uint16(b[2])<<8 | uint16(b[3])}
	if s.family == afInet {
		a.ip = v4Any
		copy(a.ip[12:], b[4:8])
	} else {
		copy(a.ip[:], b[8:24])
	}
	return a, 0
}

// sockaddr encodes a as the socket's family does (sockaddr_in, sockaddr_in6).
func (s *inetSock) sockaddr(a inetAddr) []byte {
	if s.family == afInet {
		b := make([]byte, sockaddrInSize)
		b[0] = afInet
		b[2], b[3] = byte(a.port>>8), byte(a.port)
		copy(b[4:8], a.ip[12:])
		return b
	}
	b := make([]byte, sockaddrIn6Size)
	b[0] = afInet6
	b[2], b[3] = byte(a.port>>8), byte(a.port)
	copy(b[8:24], a.ip[:])
	return b
}

// addrSet is the addresses a binding receives for one IP version: none,
// all (a wildcard), or one.
type addrSet struct {
	all, one bool
	ip       [16]byte
}

func (a addrSet) meets(b addrSet) bool {
	return (a.all || a.one) && (b.all || b.one) && (a.all || b.all || a.ip == b.ip)
}

// sets returns the IPv4 and IPv6 addresses the socket's binding receives.
func (s *inetSock) sets() (v4, v6 addrSet) {
	switch {
	case s.local.ip == [16]byte{}: // ::
		return addrSet{all: !s.v6only}, addrSet{all: true}
	case s.local.ip == v4Any:
		return addrSet{all: true}, addrSet{}
	case s.local.v4():
		return addrSet{one: true, ip: s.local.ip}, addrSet{}
	}
	return addrSet{}, addrSet{one: true, ip: s.local.ip}
}

// receives reports whether the socket's binding takes traffic for ip.
func (s *inetSock) receives(ip [16]byte) bool {
	v4, v6 := s.sets()
	set := v6
	if (inetAddr{ip: ip}).v4() {
		set = v4
	}
	return set.meets(addrSet{one: true, ip: ip})
}

// conflicts reports whether binding of's address would clash with o's
// (inet_csk_bind_conflict, inet_bind_conflict).
func conflicts(of, o *openFile) bool {
	s, t := of.inet, o.inet
	if of.sockType != o.sockType || s.lite != t.lite || s.local.port != t.local.port {
		return false
	}
	s4, s6 := s.sets()
	t4, t6 := t.sets()
	if !s4.meets(t4) && !s6.meets(t6) {
		return false
	}
	if s.reusePort && t.reusePort {
		return false
	}
	if s.reuseAddr && t.reuseAddr && (of.sockType == sockDgram || s.state != tcpListen && t.state != tcpListen) {
		return false
	}
	return true
}

// portFree reports whether no bound socket of of's type and protocol
// holds port.
func (k *Kernel) portFree(of *openFile, port uint16) bool {
	for _, o := range k.all.net.bound {
		if o.sockType == of.sockType && o.inet.lite == of.inet.lite && o.inet.local.port == port {
			return false
		}
	}
	return true
}

// bindPort binds of at its local address: its port, or for port 0 the
// next free one from the ephemeral range.
func (k *Kernel) bindPort(of *openFile, onExhaust Errno) Errno {
	s := of.inet
	if s.local.port == 0 {
		if k.all.net.nextPort < portLow {
			k.all.net.nextPort = portLow
		}
		for range portHigh - portLow + 1 {
			p := k.all.net.nextPort
			if k.all.net.nextPort++; k.all.net.nextPort > portHigh {
				k.all.net.nextPort = portLow
			}
			if k.portFree(of, p) {
				s.local.port = p
				break
			}
		}
		if s.local.port == 0 {
			return onExhaust
		}
	} else {
		for _, o := range k.all.net.bound {
			if conflicts(of, o) {
				return EADDRINUSE
			}
		}
	}
	s.bound = true
	k.all.net.bound = append(k.all.net.bound, of)
	return 0
}

// unbind drops of from the bound sockets.
func (k *Kernel) unbind(of *openFile) {
	if !of.inet.bound {
		return
	}
	of.inet.bound = false
	for i, o := range k.all.net.bound {
		if o == of {
			k.all.net.bound = append(k.all.net.bound[:i], k.all.net.bound[i+1:]...)
			return
		}
	}
}

// autobind binds an unbound socket to the wildcard and a free port, as
// Linux does at listen, connect and a first send.
func (k *Kernel) autobind(of *openFile, onExhaust Errno) Errno {
	if of.inet.bound {
		return 0
	}
	return k.bindPort(of, onExhaust)
}

func sysBind(k *Kernel, a sysArgs) (uint64, Errno) {
	of, e := k.sockFile(a.Int(0))
	if e != 0 {
		return 0, e
	}
	if of.nl != nil {
		return k.netlinkBind(of, a.Ptr(1), a.Ptr(2))
	}
	s := of.inet
	if s == nil {
		return k.unixBind(of, a.Ptr(1), a.Ptr(2))
	}
	ad, e := k.readInetAddr(s, a.Ptr(1), a.Ptr(2))
	if e != 0 {
		return 0, e
	}
	if s.family == afInet6 && ad.v4() && s.v6only {
		return 0, EINVAL
	}
	if !ad.wildcard() && !ad.loopback() {
		return 0, EADDRNOTAVAIL
	}
	if s.bound {
		return 0, EINVAL
	}
	if ad.port != 0 && ad.port < 1024 {
		if uid, _ := sysGeteuid(k, a); uid != 0 {
			return 0, EACCES // net.ipv4.ip_unprivileged_port_start
		}
	}
	old := s.local
	s.local = ad
	if e := k.bindPort(of, EADDRINUSE); e != 0 {
		s.local = old
		return 0, e
	}
	return 0, 0
}

func sysListen(k *Kernel, a sysArgs) (uint64, Errno) {
	of, e := k.sockFile(a.Int(0))
	if e != 0 {
		return 0, e
	}
	if of.nl != nil {
		return 0, EOPNOTSUPP // sock_no_listen
	}
	s := of.inet
	if s == nil {
		return k.unixListen(of, a.Uint(1))
	}
	if of.sockType != sockStream {
		return 0, EOPNOTSUPP
	}
	if s.state != tcpClosed && s.state != tcpListen {
		return 0, EINVAL
	}
	if e := k.autobind(of, EADDRINUSE); e != 0 {
		return 0, e
	}
	if s.state != tcpListen {
		s.state = tcpListen
		for _, o := range k.all.net.bound {
			if o != of && conflicts(of, o) {
				s.state = tcpClosed
				return 0, EADDRINUSE
			}
		}
	}
	s.backlog = somaxconn
	if b := a.Uint(1); b < somaxconn {
		s.backlog = int(b)
	}
	k.admit(of)
	return 0, 0
}

// full reports whether a listener's accept queue is full (sk_acceptq_is_full:
// it holds backlog+1).
func (s *inetSock) full() bool { return len(s.queue) > s.backlog }

// admit connects the listener's waiting non-blocking connects while its
// queue has room.
func (k *Kernel) admit(l *openFile) {
	s := l.inet
	for len(s.waiting) > 0 && !s.full() {
		c := s.waiting[0]
		s.waiting = s.waiting[1:]
		k.establish(c, l, c.inet.peer)
	}
}

// loopbackDst is where a connect or send to a goes: a wildcard means
// this host (ip_route_connect, tcp_v6_connect); another non-loopback
// address is unreachable.
func (k *Kernel) loopbackDst(a inetAddr) (inetAddr, Errno) {
	switch {
	case a.ip == [16]byte{}:
		a.ip = v6Loopback
	case a.ip == v4Any:
		a.ip = v4Loopback
	case !a.loopback():
		k.warnOnce("unreachable "+a.String(), "rvsim: warning: %s is unreachable: only loopback addresses reach anything (no network)", a)
		return a, ENETUNREACH
	}
	return a, 0
}

// srcFor is the source address of traffic from s to dst: its bound
// address, else the loopback address of dst's version.
func (s *inetSock) srcFor(dst inetAddr) [16]byte {
	if !s.local.wildcard() {
		return s.local.ip
	}
	if dst.v4() {
		return v4Loopback
	}
	return v6Loopback
}

// findListener returns the first listener that takes connections to dst.
func (k *Kernel) findListener(dst inetAddr) *openFile {
	for _, o := range k.all.net.bound {
		if s := o.inet; s.state == tcpListen && s.local.port == dst.port && s.receives(dst.ip) {
			return o
		}
	}
	return nil
}

// establish connects c to listener l: the listener's end of the new
// connection joins its accept queue, bound at dst, the address c reached.
func (k *Kernel) establish(c, l *openFile, dst inetAddr) {
	cs, ls := c.inet, l.inet
	up := &pipe{readers: 1, writers: 1, ino: k.nextIno()} // c sends, the new end receives
	down := &pipe{readers: 1, writers: 1, ino: k.nextIno()}
	ino := k.nextIno()
	srv := &openFile{kind: kindSocket, guest: "socket:[" + strconv.FormatUint(ino, 10) + "]",
		flags: oRdwr, sockType: sockStream, sockIno: ino, rx: up, tx: down}
	ss := *ls // inherits the listener's options
	ss.local, ss.peer, ss.hasPeer, ss.state, ss.other = dst, cs.local, true, tcpEstablished, c
	ss.queue, ss.waiting, ss.gens, ss.err, ss.inProgress = nil, nil, wakeGens{}, 0, false
	srv.inet = &ss
	k.all.net.bound = append(k.all.net.bound, srv)
	c.rx, c.tx = down, up
	cs.peer, cs.hasPeer, cs.state, cs.other, cs.listener = dst, true, tcpEstablished, srv, nil
	cs.gens[wakeOut]++
	ls.queue = append(ls.queue, srv)
	ls.gens[wakeIn]++
	k.ioWake()
}

// inetConnect is connect on an AF_INET or AF_INET6 socket.
func (k *Kernel) inetConnect(of *openFile, addr, n uint64) (uint64, Errno) {
	s := of.inet
	if n >= 2 {
		if b, e := k.readMem(addr, 2); e == 0 && b[0] == afUnspec && b[1] == 0 && of.sockType == sockDgram {
			s.hasPeer = false // dissolve the association (udp_disconnect)
			return 0, 0
		}
	}
	if of.sockType == sockDgram {
		ad, e := k.readInetAddr(s, addr, n)
		if e != 0 {
			return 0, e
		}
		dst, e := k.loopbackDst(ad)
		if e != 0 {
			return 0, e
		}
		if e := k.autobind(of, EAGAIN); e != 0 {
			return 0, e
		}
		s.local.ip = s.srcFor(dst)
		s.peer, s.hasPeer = dst, true
		return 0, 0
	}
	switch s.state {
	case tcpListen:
		return 0, EISCONN
	case tcpEstablished:
		if s.inProgress {
			s.inProgress = false
			return 0, 0
		}
		return 0, EISCONN
	case tcpConnecting:
		return 0, EALREADY
	}
	if s.inProgress { // it ended, refused
		s.inProgress = false
		if e := s.takeErr(); e != 0 {
			return 0, e
		}
		return 0, ECONNABORTED
	}
	ad, e := k.readInetAddr(s, addr, n)
	if e != 0 {
		return 0, e
	}
	dst, e := k.loopbackDst(ad)
	if e != 0 {
		return 0, e
	}
	nonblock := of.flags&oNonblock != 0
	l := k.findListener(dst)
	if l == nil {
		if nonblock { // the refusal arrives after connect returns
			s.err, s.inProgress = ECONNREFUSED, true
			of.shut = shutRcv | shutSnd
			s.gens[wakeAny]++
			k.ioWake()
			return 0, EINPROGRESS
		}
		return 0, ECONNREFUSED
	}
	if !s.bound {
		s.local.ip = s.srcFor(dst)
		if e := k.bindPort(of, EADDRNOTAVAIL); e != 0 {
			return 0, e
		}
	} else if s.local.wildcard() {
		s.local.ip = s.srcFor(dst)
	}
	if l.inet.full() {
		if !nonblock {
			return 0, k.blockedIO("socket connect")
		}
		s.state, s.listener, s.peer, s.inProgress = tcpConnecting, l, dst, true
		l.inet.waiting = append(l.inet.waiting, of)
		return 0, EINPROGRESS
	}
	k.establish(of, l, dst)
	if nonblock {
		s.inProgress = true
		return 0, EINPROGRESS
	}
	return 0, 0
}

// closed reports whether a TCP socket is in Linux's TCP_CLOSE state: never
// connected, refused, reset, or with both directions' FINs exchanged
// (which on the loopback end TIME_WAIT and LAST_ACK at once).
func (s *inetSock) closed(of *openFile) bool {
	return s.state != tcpEstablished || s.wasReset || s.finSent && of.rx.writers == 0
}

// takeErr reports the pending error once (sock_error).
func (s *inetSock) takeErr() Errno {
	e := s.err
	s.err = 0
	return e
}

func sysAccept(k *Kernel, a sysArgs) (uint64, Errno) {
	return k.accept(a.Int(0), a.Ptr(1), a.Ptr(2), 0)
}

func sysAccept4(k *Kernel, a sysArgs) (uint64, Errno) {
	return k.accept(a.Int(0), a.Ptr(1), a.Ptr(2), a.Uint(3))
}

func (k *Kernel) accept(fd int32, addr, lenAddr uint64, flags uint32) (uint64, Errno) {
	if flags&^(sockNonblock|sockCloexec) != 0 {
		return 0, EINVAL
	}
	of, e := k.sockFile(fd)
	if e != 0 {
		return 0, e
	}
	if of.nl != nil {
		return 0, EOPNOTSUPP // sock_no_accept
	}
	s := of.inet
	if s == nil {
		return k.unixAccept(of, addr, lenAddr, flags)
	}
	if of.sockType != sockStream {
		return 0, EOPNOTSUPP
	}
	if s.state != tcpListen {
		return 0, EINVAL
	}
	deadline := of.rcvTimeo.deadline(k)
	for len(s.queue) == 0 {
		if of.flags&oNonblock != 0 {
			return 0, EAGAIN
		}
		if e := k.blockedIOUntil("socket accept", deadline); e != 0 {
			return 0, e
		}
	}
	srv := s.queue[0]
	srv.flags = oRdwr | flags&sockNonblock
	nfd, e := k.install(srv, flags&sockCloexec != 0, 0)
	if e != 0 {
		return 0, e
	}
	s.queue = s.queue[1:]
	k.admit(of)
	if addr != 0 {
		if e := k.putSockaddr(addr, lenAddr, srv.inet.sockaddr(srv.inet.peer)); e != 0 {
			k.closeFD(int32(nfd))
			return 0, e
		}
	}
	return nfd, 0
}

// reset ends of's connection abruptly with error e (tcp_reset): the
// error once, then end of file; both sides shut.
func (k *Kernel) reset(of *openFile, e Errno) {
	s := of.inet
	s.err, s.wasReset = e, true
	of.shut = shutRcv | shutSnd
	s.gens[wakeAny]++
	if s.state == tcpConnecting {
		k.leaveWaiting(of)
	}
	if s.state != tcpEstablished {
		s.state = tcpClosed
	}
}

// leaveWaiting drops a connecting socket from its listener's waiters.
func (k *Kernel) leaveWaiting(of *openFile) {
	s := of.inet
	if l := s.listener; l != nil {
		w := l.inet.waiting
		for i, c := range w {
			if c == of {
				l.inet.waiting = append(w[:i:i], w[i+1:]...)
				break
			}
		}
	}
	s.listener, s.state = nil, tcpClosed
}

// stopListening resets the connections in a listener's queue and
// refuses those waiting for room.
func (k *Kernel) stopListening(of *openFile) {
	s := of.inet
	for _, srv := range s.queue {
		if c := srv.inet.other; c != nil {
			c.inet.other = nil
			k.reset(c, ECONNRESET)
		}
		k.release(srv)
	}
	for _, c := range s.waiting {
		c.inet.listener = nil
		k.reset(c, ECONNREFUSED)
		c.inet.state = tcpClosed
	}
	s.queue, s.waiting, s.state = nil, nil, tcpClosed
	s.gens[wakeAny]++
	k.ioWake()
}

// release frees a connected end's pipes and port (its last close): the
// peer sees end of file, or a reset if data was left unread or SO_LINGER
// is on with a time of 0 (tcp_close's abort: the peer's bytes queued
// before it stay readable, then ECONNRESET, and it is no longer
// connected).
func (k *Kernel) release(of *openFile) {
	s := of.inet
	k.unbind(of)
	if of.rx == nil {
		return
	}
	if c := s.other; c != nil {
		c.inet.other = nil
		if len(of.rx.buf) > 0 || s.abortsOnClose() {
			k.reset(c, ECONNRESET)
		}
		c.inet.gens[wakeAny]++
	}
	s.other = nil
	if !s.finSent {
		of.tx.writers--
		s.finSent = true
	}
	of.rx.readers--
	of.rx.gens[wakeAny]++
	of.tx.gens[wakeAny]++
}

// abortsOnClose reports whether SO_LINGER is on with a linger time of 0
// (struct linger: l_onoff, l_linger).
func (s *inetSock) abortsOnClose() bool {
	return u32(s.linger[:], 0) != 0 && u32(s.linger[:], 4) == 0
}

// inetClose is the last close of an AF_INET or AF_INET6 socket.
func (k *Kernel) inetClose(of *openFile) {
	s := of.inet
	switch s.state {
	case tcpListen:
		k.stopListening(of)
	case tcpConnecting:
		k.leaveWaiting(of)
	}
	k.release(of)
	k.ioWake()
}

// inetShutdown is shutdown on an AF_INET or AF_INET6 socket (inet_shutdown).
func (k *Kernel) inetShutdown(of *openFile, sides uint8) Errno {
	s := of.inet
	switch {
	case s.state == tcpListen:
		if sides&shutRcv != 0 { // stops listening; a blocked accept fails
			k.stopListening(of)
		}
		return 0
	case s.state == tcpConnecting:
		k.leaveWaiting(of)
		return 0
	case s.state == tcpEstablished:
		if sides&shutSnd != 0 && !s.finSent {
			of.tx.writers--
			s.finSent = true
		}
	case of.sockType == sockDgram && s.hasPeer:
	default:
		of.shut |= sides
		return ENOTCONN
	}
	of.shut |= sides
	s.gens[wakeAny]++
	if of.rx != nil {
		of.tx.gens[wakeAny]++
	}
	k.ioWake()
	return 0
}

// inetSend sends data from an AF_INET or AF_INET6 socket to the
// address at addr (0: its peer).
func (k *Kernel) inetSend(of *openFile, data []byte, flags uint32, addr, addrLen uint64, anc *ancillary) (int, Errno) {
	s := of.inet
	if of.sockType == sockDgram {
		var ip ipAnc
		if anc != nil {
			ip = anc.ip
		}
		return k.udpSend(of, data, flags, addr, addrLen, ip)
	}
	epipe := func() (int, Errno) {
		if flags&msgNosignal == 0 {
			k.raise(sigPIPE, k.senderInfo(sigPIPE, siUser))
		}
		return 0, EPIPE
	}
	if e := s.takeErr(); e != 0 {
		if e == EPIPE {
			return epipe()
		}
		return 0, e
	}
	if s.state == tcpConnecting {
		if of.flags&oNonblock != 0 || flags&msgDontwait != 0 {
			return 0, EAGAIN
		}
		return 0, k.blockedIO("socket connect")
	}
	if of.tx == nil || of.shut&shutSnd != 0 {
		return epipe()
	}
	if of.tx.readers == 0 { // the peer closed: its reset comes back (a send of no bytes sends nothing)
		if len(data) > 0 {
			k.reset(of, EPIPE)
			k.ioWake()
		}
		return len(data), 0
	}
	n, e := k.sockSend(of, data, flags&^msgOOB, nil)
	if flags&msgOOB != 0 && n > 0 { // its last byte is urgent (tcpurg.go)
		k.markUrgent(of.tx, s.other)
	}
	return n, e
}

// udpSend sends one datagram.
func (k *Kernel) udpSend(of *openFile, data []byte, flags uint32, addr, addrLen uint64, anc ipAnc) (int, Errno) {
	s := of.inet
	if flags&msgOOB != 0 {
		return 0, EOPNOTSUPP
	}
	var dst inetAddr
	switch {
	case addr != 0:
		ad, e := k.readInetAddr(s, addr, addrLen)
		if e != 0 {
			return 0, e
		}
		dst = ad
	case s.hasPeer:
		dst = s.peer
	default:
		return 0, EDESTADDRREQ
	}
	if len(data) > 0xffff {
		return 0, EMSGSIZE
	}
	if of.shut&shutSnd != 0 {
		return 0, EPIPE
	}
	if e := s.takeErr(); e != 0 {
		return 0, e
	}
	dst, e := k.loopbackDst(dst)
	if e != 0 {
		return 0, e
	}
	if len(data) > udpMaxV4 && dst.v4() || len(data) > udpMaxV6 {
		return 0, EMSGSIZE
	}
	if e := k.autobind(of, EAGAIN); e != 0 {
		return 0, e
	}
	src := inetAddr{ip: s.srcFor(dst), port: s.local.port}
	r := k.findUDP(dst, src, s.lite)
	if r == nil {
		if s.hasPeer { // the port-unreachable error of a connected socket
			s.err = ECONNREFUSED
			s.gens[wakeAny]++
			k.ioWake()
		}
		return len(data), 0
	}
	rs := r.inet
	if len(rs.inbox.buf)+len(data) > rs.rcvbuf { // the receive buffer is full: dropped
		return len(data), 0
	}
	if s.lite && !rs.coverageAccepted(s.sendCscov, len(data)) {
		return len(data), 0
	}
	rs.inbox.msgs = append(rs.inbox.msgs, len(data))
	rs.from = append(rs.from, s.header(src, dst, anc))
	k.filled(rs.inbox, data)
	return len(data), 0
}

// coverageAccepted reports whether a UDP-Lite socket takes a datagram
// of n bytes whose sender covers sendCscov bytes (udplite_sender_cscov,
// udplite_checksum_init, udp_queue_rcv_one_skb): one with partial
// coverage only if its receiver asked for no more than it covers.
func (s *inetSock) coverageAccepted(sendCscov int32, n int) bool {
	partial := sendCscov > 0 && int(sendCscov) < n+8
	if !partial || !s.recvChecked {
		return true
	}
	return s.recvCscov != 0 && sendCscov >= s.recvCscov
}

// findUDP returns the first UDP (or with lite, UDP-Lite) socket that
// takes a datagram from src to dst.
func (k *Kernel) findUDP(dst, src inetAddr, lite bool) *openFile {
	for _, o := range k.all.net.bound {
		s := o.inet
		if o.sockType == sockDgram && s.lite == lite && s.local.port == dst.port && s.receives(dst.ip) && (!s.hasPeer || s.peer == src) {
			return o
		}
	}
	return nil
}

// inetRecvQueue returns the buffer an AF_INET or AF_INET6 socket
// receives from, or the error of receiving on it.
func (of *openFile) inetRecvQueue() (*pipe, Errno) {
	s := of.inet
	if of.sockType == sockDgram {
		return s.inbox, 0
	}
	if of.rx != nil {
		return of.rx, 0
	}
	if e := s.takeErr(); e != 0 {
		return nil, e
	}
	if s.state == tcpConnecting {
		return nil, EAGAIN
	}
	return nil, ENOTCONN
}

// inetPollMask is tcp_poll's and udp_poll's answer.
func inetPollMask(of *openFile) uint32 {
	s := of.inet
	var m uint32
	if s.err != 0 {
		m |= pollErr
	}
	rcvShut := of.shut&shutRcv != 0
	sndShut := of.shut&shutSnd != 0
	if of.sockType == sockDgram {
		if rcvShut {
			m |= epollRdhup | pollIn | pollRdnorm
		}
		if rcvShut && sndShut {
			m |= pollHup
		}
		if len(s.inbox.msgs) > 0 {
			m |= pollIn | pollRdnorm
		}
		return m | pollOut | pollWrnorm | pollWrband
	}
	switch s.state {
	case tcpListen:
		if len(s.queue) > 0 {
			return pollIn | pollRdnorm
		}
		return 0
	case tcpConnecting:
		return m
	case tcpClosed:
		m |= pollHup | pollOut | pollWrnorm
		if rcvShut {
			m |= epollRdhup | pollIn | pollRdnorm
		}
		return m
	}
	rcvShut = rcvShut || of.rx.writers == 0
	if rcvShut && sndShut {
		m |= pollHup
	}
	if rcvShut {
		m |= epollRdhup | pollIn | pollRdnorm
	}
	pri, readable := of.urgentPollMask(of.rx)
	if readable {
		m |= pollIn | pollRdnorm
	}
	if pri {
		m |= pollPri
	}
	if sndShut || len(of.tx.buf) < sockCapacity {
		m |= pollOut | pollWrnorm
	}
	return m
}

// inetWakeGens are an AF_INET or AF_INET6 socket's wake generations:
// its own (state changes, a listener's queue) and its buffers'.
func inetWakeGens(of *openFile) wakeGens {
	g := of.inet.gens
	if p := of.inet.inbox; p != nil {
		g[wakeIn] += p.gens[wakeIn]
		g[wakeAny] += p.gens[wakeAny]
	}
	if of.rx != nil {
		g[wakeIn] += of.rx.gens[wakeIn]
		g[wakeOut] += of.tx.gens[wakeOut]
		g[wakeAny] += of.rx.gens[wakeAny] + of.tx.gens[wakeAny]
	}
	return g
}

// --- socket options ------------------------------------------------------------------

// bufSize is what SO_SNDBUF and SO_RCVBUF set (sock_setsockopt): twice
// the request, within net.core.wmem_max and the minimum.
func bufSize(v int32, least int) int {
	return max(int(min(max(v, 0), sockCapacity))*2, least)
}

func (k *Kernel) inetSetsockopt(of *openFile, level, name int32, val, n uint64) (uint64, Errno) {
	s := of.inet
	var v int32
	word := func() Errno {
		if n < 4 {
			return EINVAL
		}
		w, e := k.readU32(val)
		v = int32(w)
		return e
	}
	flag := func(f *bool) (uint64, Errno) {
		if e := word(); e != 0 {
			return 0, e
		}
		*f = v != 0
		return 0, 0
	}
	// cscov sets a UDP-Lite coverage as udp_lib_setsockopt does: 0 (the
	// whole datagram), else at least the header and at most 65535.
	cscov := func(f *int32) (uint64, Errno) {
		if e := word(); e != 0 {
			return 0, e
		}
		switch {
		case v != 0 && v < 8:
			v = 8
		case v > 0xffff:
			v = 0xffff
		}
		*f = v
		if f == &s.recvCscov {
			s.recvChecked = true
		}
		return 0, 0
	}
	num := func(f *int32, lo int32) (uint64, Errno) {
		if e := word(); e != 0 {
			return 0, e
		}
		if v < lo {
			return 0, EINVAL
		}
		*f = v
		return 0, 0
	}
	switch {
	case level == solSocket:
		switch name {
		case soReuseaddr:
			return flag(&s.reuseAddr)
		case soReuseport:
			return flag(&s.reusePort)
		case soKeepalive:
			return flag(&s.keepalive)
		case soBroadcast:
			return flag(&s.broadcast)
		case soSndbuf:
			e := word()
			s.sndbuf = bufSize(v, 4608)
			return 0, e
		case soRcvbuf:
			e := word()
			s.rcvbuf = bufSize(v, 2304)
			return 0, e
		case soLinger:
			if n < 8 {
				return 0, EINVAL
			}
			b, e := k.readMem(val, 8)
			if e == 0 {
				copy(s.linger[:], b)
			}
			return 0, e
		}
	case level == ipprotoTCP && of.sockType == sockStream:
		switch name {
		case tcpNodelay:
			return flag(&s.nodelay)
		case tcpKeepidle:
			return num(&s.keepIdle, 1)
		case tcpKeepintv:
			return num(&s.keepIntvl, 1)
		case tcpKeepcnt:
			return num(&s.keepCnt, 1)
		}
	case level == ipprotoIPv6 && s.family == afInet6:
		switch name {
		case ipv6V6only:
			if s.bound {
				return 0, EINVAL
			}
			return flag(&s.v6only)
		case ipv6RecvPktinfo:
			return flag(&s.rx.pktinfo6)
		case ipv6RecvHoplimit:
			return flag(&s.rx.hoplimit)
		case ipv6RecvTclass:
			return flag(&s.rx.tclass)
		case ipv6UnicastHops, ipv6Tclass: // -1 to 255 (do_ipv6_setsockopt)
			if e := word(); e != 0 {
				return 0, e
			}
			if v < -1 || v > 255 {
				return 0, EINVAL
			}
			if name == ipv6UnicastHops {
				s.hops6 = v
			} else {
				s.tclass6 = max(v, 0)
			}
			return 0, 0
		}
	case level == ipprotoUDPLite && s.lite:
		switch name {
		case udpliteSendCscov:
			return cscov(&s.sendCscov)
		case udpliteRecvCscov:
			return cscov(&s.recvCscov)
		}
	case level == ipprotoIP:
		switch name {
		case ipTOS:
			return num(&s.tos, 0)
		case ipTTL:
			return num(&s.ttl, 1)
		case ipPktinfo:
			return flag(&s.rx.pktinfo4)
		case ipRecvTTL:
			return flag(&s.rx.ttl)
		case ipRecvTOS:
			return flag(&s.rx.tos)
		}
	}
	return 0, ENOPROTOOPT
}

func (k *Kernel) inetGetsockopt(of *openFile, level, name int32) ([]byte, Errno) {
	s := of.inet
	word := func(v int) []byte { w := make([]byte, 4); put32(w, 0, uint32(v)); return w }
	flag := func(f bool) []byte {
		if f {
			return word(1)
		}
		return word(0)
	}
	switch {
	case level == solSocket:
		switch name {
		case soType:
			return word(int(of.sockType)), 0
		case soError:
			return word(int(s.takeErr())), 0
		case soReuseaddr:
			return flag(s.reuseAddr), 0
		case soReuseport:
			return flag(s.reusePort), 0
		case soKeepalive:
			return flag(s.keepalive), 0
		case soBroadcast:
			return flag(s.broadcast), 0
		case soAcceptconn:
			return flag(s.state == tcpListen), 0
		case soPasscred:
			return word(0), 0
		case soProtocol:
			if s.lite {
				return word(ipprotoUDPLite), 0
			}
			if of.sockType == sockDgram {
				return word(ipprotoUDP), 0
			}
			return word(ipprotoTCP), 0
		case soDomain:
			return word(int(s.family)), 0
		case soSndbuf:
			return word(s.sndbuf), 0
		case soRcvbuf:
			return word(s.rcvbuf), 0
		case soLinger:
			return append([]byte(nil), s.linger[:]...), 0
		case soPeercred: // no peer credentials on an inet socket: pid 0, ids -1
			return []byte{0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, 0
		}
	case level == ipprotoTCP && of.sockType == sockStream:
		switch name {
		case tcpNodelay:
			return flag(s.nodelay), 0
		case tcpKeepidle:
			return word(int(s.keepIdle)), 0
		case tcpKeepintv:
			return word(int(s.keepIntvl)), 0
		case tcpKeepcnt:
			return word(int(s.keepCnt)), 0
		}
	case level == ipprotoIPv6 && s.family == afInet6:
		switch name {
		case ipv6V6only:
			return flag(s.v6only), 0
		case ipv6RecvPktinfo:
			return flag(s.rx.pktinfo6), 0
		case ipv6RecvHoplimit:
			return flag(s.rx.hoplimit), 0
		case ipv6RecvTclass:
			return flag(s.rx.tclass), 0
		case ipv6UnicastHops:
			if s.hops6 < 0 {
				return word(defaultHopLimit), 0
			}
			return word(int(s.hops6)), 0
		case ipv6Tclass:
			return word(int(s.tclass6)), 0
		}
	case level == ipprotoUDPLite && of.sockType == sockDgram: // UDP's read too (udp_lib_getsockopt)
		switch name {
		case udpliteSendCscov:
			return word(int(s.sendCscov)), 0
		case udpliteRecvCscov:
			return word(int(s.recvCscov)), 0
		}
	case level == ipprotoIP:
		switch name {
		case ipTOS:
			return word(int(s.tos)), 0
		case ipTTL:
			return word(int(s.ttl)), 0
		case ipPktinfo:
			return flag(s.rx.pktinfo4), 0
		case ipRecvTTL:
			return flag(s.rx.ttl), 0
		case ipRecvTOS:
			return flag(s.rx.tos), 0
		}
	}
	return nil, ENOPROTOOPT
}
