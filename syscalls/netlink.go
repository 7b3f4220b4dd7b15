package syscalls

import "strconv"

// Netlink sockets of NETLINK_ROUTE (rtnetlink), the way glibc's
// if_nameindex and getifaddrs, Python's socket.if_nameindex and
// iproute2 list the interfaces: the kernel end answers each request
// into the socket's receive queue as net/netlink/af_netlink.c and
// net/core/rtnetlink.c do, about the one interface there is (netif.go).
//
// A send to the kernel (nl_pid 0) runs netlink_rcv_skb over the
// datagram: each whole message with NLM_F_REQUEST is answered in turn
// (a short or overlong one ends the datagram silently), NLM_F_ACK or an
// error adds an NLMSG_ERROR that echoes the request's header (and, for
// an error, the request, unless NETLINK_CAP_ACK). What is answered:
//
//   - RTM_GETLINK dumps (lo's RTM_NEWLINK: rtnl_fill_ifinfo's attributes
//     without IFLA_AF_SPEC, the counters zero) and gets by ifi_index or
//     IFLA_IFNAME (ENODEV for another);
//   - RTM_GETADDR dumps (127.0.0.1/8 by inet_fill_ifaddr, ::1/128 by
//     inet6_fill_ifaddr; ifa_family AF_INET or AF_INET6 picks one);
//   - RTM_GETROUTE dumps (lo's routes of the local table: 127.0.0.0/8,
//     127.0.0.1 and ::1 local, 127.255.255.255 broadcast; the main table
//     is empty, as on a host whose only interface is lo);
//   - dumps of what lo has none of: NLMSG_DONE alone (RTM_GETNEIGH: no
//     neighbour entries before any traffic; RTM_GETTCLASS, GETTFILTER,
//     GETACTION: noqueue has no classes or filters; RTM_GETNSID,
//     GETCHAIN).
//
// A dump's messages come in one datagram and its NLMSG_DONE in the next,
// queued once the first is read (netlink_dump runs from recvmsg); a
// second dump asked for before that is EBUSY. Other requests that read
// are EOPNOTSUPP (not modelled: fib rules, qdiscs, netconf, single route
// and address gets), and every request that changes something is EPERM
// (no CAP_NET_ADMIN, netif.go). Requests to a user port or a multicast
// group need CAP_NET_ADMIN too (EPERM), so nothing passes between the
// run's netlink sockets, and none receives notifications.
//
// Port ids are Linux's: bind with nl_pid 0, or a first send, takes the
// process's pid if free (netlink_autobind), else -4097, -4098, ...
// (where Linux draws a random negative id), unique in the run (one
// network namespace for all its processes). The receive buffer counts
// the bytes of queued datagrams (Linux counts their skb truesize): an
// answer that does not fit is dropped and the next receive reports
// ENOBUFS (netlink_overrun), unless NETLINK_NO_ENOBUFS.

// Netlink constants (linux/netlink.h, linux/rtnetlink.h).
const (
	afNetlink       = 16
	sockRaw         = 3
	netlinkRoute    = 0
	netlinkProtoMax = 32 // MAX_LINKS
	solNetlink      = 270
	sockaddrNlSize  = 12 // struct sockaddr_nl: family, pad, pid, groups

	nlmsgHdrLen  = 16
	nlmsgError   = 2
	nlmsgDone    = 3
	nlmsgMinType = 0x10
	nlmFRequest  = 0x1
	nlmFMulti    = 0x2
	nlmFAck      = 0x4
	nlmFDump     = 0x300 // NLM_F_ROOT | NLM_F_MATCH: either asks for a dump
	nlmFCapped   = 0x100 // NLMSG_ERROR without the request's payload
	nlmFAckTLVs  = 0x200 // NLMSG_ERROR or NLMSG_DONE with extended-ack attributes
	nlmFFiltered = 0x20  // NLM_F_DUMP_FILTERED
	nlmsgerrMsg  = 1     // NLMSGERR_ATTR_MSG
	nlaFNested   = 0x8000
	nlaTypeMask  = 0x3fff

	netlinkAddMembership  = 1
	netlinkDropMembership = 2
	netlinkPktinfo        = 3
	netlinkBroadcastError = 4
	netlinkNoENOBUFS      = 5
	netlinkListenAllNSID  = 8
	netlinkListMembership = 9
	netlinkCapAck         = 10
	netlinkExtAck         = 11
	netlinkGetStrictChk   = 12
	rtnlGroups            = 39 // RTNLGRP_MAX of Linux 6.18: the groups a NETLINK_ROUTE socket may join

	rtmNewlink  = 16
	rtmGetlink  = 18
	rtmNewaddr  = 20
	rtmGetaddr  = 22
	rtmNewroute = 24
	rtmGetroute = 26
	rtmGetneigh = 30
	// dumps of things lo has none of
	rtmGettclass  = 42
	rtmGettfilter = 46
	rtmGetaction  = 50
	rtmGetnsid    = 90
	rtmGetchain   = 102
	rtmMax        = 123 // RTM_MAX: the last of the RTM_*TUNNEL group
	rtmKindGet    = 2   // the low two bits of an RTM_ type: NEW 0, DEL 1, GET 2, SET 3
	afBridge      = 7

	ifinfomsgSize = 16
	ifaddrmsgSize = 8
	rtmsgSize     = 12
	rtmFCloned    = 0x200
	rtmFPrefix    = 0x800
)

// netlinkSock is the state of a NETLINK_ROUTE socket.
type netlinkSock struct {
	portid uint32    // 0 until bound
	groups [2]uint32 // the multicast groups joined, a bit each (1..rtnlGroups)
	inbox  *pipe     // the kernel's answers, a datagram each
	// dumpDone is a running dump's NLMSG_DONE datagram, queued when the
	// dump's messages are read (nil: no dump runs: cb_running).
	dumpDone []byte
	err      Errno // sk_err: ENOBUFS after an overrun, reported once
	// congested: an answer was dropped; the others are until the queue
	// is empty (NETLINK_S_CONGESTED).
	congested      bool
	rcvbuf, sndbuf int
	// the NETLINK_* options set
	pktinfo, broadcastErr, noENOBUFS, capAck, extAck, strict bool
}

// netlinkPorts is the run's table of bound NETLINK_ROUTE sockets by port id.
type netlinkPorts struct {
	bound map[uint32]*openFile
	rover int32 // the next negative id to try
}

// ports returns the run's port table.
func (k *Kernel) ports() *netlinkPorts {
	if k.all.netlink == nil {
		k.all.netlink = &netlinkPorts{bound: map[uint32]*openFile{}, rover: -4097}
	}
	return k.all.netlink
}

// netlinkSocket is socket(AF_NETLINK, ...) (netlink_create): NETLINK_ROUTE
// only; another protocol is one whose module this kernel lacks.
func (k *Kernel) netlinkSocket(typ uint32, proto int32) (uint64, Errno) {
	if typ&^(sockTypeMask|sockNonblock|sockCloexec) != 0 {
		return 0, EINVAL
	}
	if t := typ & sockTypeMask; t != sockRaw && t != sockDgram {
		return 0, ESOCKTNOSUPPORT
	}
	if proto != netlinkRoute {
		return 0, EPROTONOSUPPORT
	}
	s := &netlinkSock{inbox: &pipe{readers: 1, writers: 1, msgs: []int{}, ino: k.nextIno()},
		rcvbuf: sockCapacity, sndbuf: sockCapacity}
	ino := k.nextIno()
	of := &openFile{kind: kindSocket, guest: "socket:[" + strconv.FormatUint(ino, 10) + "]",
		flags: oRdwr | typ&sockNonblock, sockType: typ & sockTypeMask, sockIno: ino, nl: s}
	return k.install(of, typ&sockCloexec != 0, 0)
}

// netlinkAutobind gives an unbound socket its port id (netlink_autobind).
func (k *Kernel) netlinkAutobind(of *openFile) {
	if of.nl.portid != 0 {
		return
	}
	t := k.ports()
	id := uint32(k.pid)
	for t.bound[id] != nil {
		id = uint32(t.rover)
		if t.rover--; t.rover > -4097 { // wrapped past the most negative
			t.rover = -4097
		}
	}
	t.bound[id] = of
	of.nl.portid = id
}

// readSockaddrNl reads a struct sockaddr_nl of n bytes: its pid and groups.
func (k *Kernel) readSockaddrNl(addr, n uint64) (pid, groups uint32, e Errno) {
	if n > sockaddrMax {
		return 0, 0, EINVAL
	}
	b, e := k.readMem(addr, min(n, sockaddrNlSize))
	if e != 0 {
		return 0, 0, e
	}
	if n < sockaddrNlSize || le16(b) != afNetlink {
		return 0, 0, EINVAL
	}
	return u32(b, 4), u32(b, 8), 0
}

// netlinkBind is bind (netlink_bind): a port id of its own (nl_pid 0:
// the kernel picks one) and the first 32 multicast groups.
func (k *Kernel) netlinkBind(of *openFile, addr, n uint64) (uint64, Errno) {
	pid, groups, e := k.readSockaddrNl(addr, n)
	if e != 0 {
		return 0, e
	}
	s := of.nl
	if s.portid != 0 && pid != s.portid {
		return 0, EINVAL
	}
	if s.portid == 0 {
		if pid == 0 {
			k.netlinkAutobind(of)
		} else {
			t := k.ports()
			if t.bound[pid] != nil {
				return 0, EADDRINUSE
			}
			t.bound[pid] = of
			s.portid = pid
		}
	}
	s.groups[0] = groups
	return 0, 0
}

// netlinkConnect is connect (netlink_connect): AF_UNSPEC disconnects;
// the kernel (pid 0, no groups) is the only destination allowed.
func (k *Kernel) netlinkConnect(of *openFile, addr, n uint64) (uint64, Errno) {
	if n >= 2 && n <= sockaddrMax {
		if b, e := k.readMem(addr, 2); e == 0 && le16(b) == afUnspec {
			return 0, 0
		}
	}
	pid, groups, e := k.readSockaddrNl(addr, n)
	if e != 0 {
		return 0, e
	}
	if pid != 0 || groups != 0 {
		return 0, EPERM // NL_CFG_F_NONROOT_SEND is not rtnetlink's, and CAP_NET_ADMIN not ours
	}
	k.netlinkAutobind(of)
	return 0, 0
}

// netlinkClose releases the socket's port id.
func (k *Kernel) netlinkClose(of *openFile) {
	if id := of.nl.portid; id != 0 && k.ports().bound[id] == of {
		delete(k.ports().bound, id)
	}
}

// sockaddr is getsockname's address of the socket: its port id and
// groups (netlink_getname); a peer is always the kernel.
func (s *netlinkSock) sockaddr(peer bool) []byte {
	b := make([]byte, sockaddrNlSize)
	put16(b, 0, afNetlink)
	if !peer {
		put32(b, 4, s.portid)
		put32(b, 8, s.groups[0])
	}
	return b
}

// kernelSockaddr is where every answer comes from: the kernel, port 0.
var kernelSockaddr = []byte{afNetlink, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}

// netlinkSend is netlink_sendmsg: data goes to the kernel, which answers
// each request in it.
func (k *Kernel) netlinkSend(of *openFile, data []byte, flags uint32, addr, addrLen uint64) (int, Errno) {
	if flags&msgOOB != 0 {
		return 0, EOPNOTSUPP
	}
	if addr != 0 && addrLen != 0 {
		pid, groups, e := k.readSockaddrNl(addr, addrLen)
		if e != 0 {
			return 0, e
		}
		if pid != 0 || groups != 0 {
			return 0, EPERM
		}
	}
	k.netlinkAutobind(of)
	s := of.nl
	if len(data) > s.sndbuf-32 {
		return 0, EMSGSIZE
	}
	for rest := data; len(rest) >= nlmsgHdrLen; { // netlink_rcv_skb
		n := int(u32(rest, 0))
		if n < nlmsgHdrLen || n > len(rest) {
			break
		}
		req, reqFlags := rest[:n], le16(rest[6:])
		var e Errno
		var why string
		dump := false
		if reqFlags&nlmFRequest != 0 && le16(req[4:]) >= nlmsgMinType { // else only acknowledged
			e, why, dump = k.rtnetlink(of, req)
		}
		if !dump && (reqFlags&nlmFAck != 0 || e != 0) {
			k.nlQueue(s, s.ack(req, e, why))
		}
		rest = rest[min(nlmsgAlign(n), len(rest)):]
	}
	return len(data), 0
}

func nlmsgAlign(n int) int { return (n + 3) &^ 3 }

// rtnetlink answers one request (rtnetlink_rcv_msg): the error to
// acknowledge it with and its extended-ack message, or that it started
// a dump (which is not acknowledged).
func (k *Kernel) rtnetlink(of *openFile, req []byte) (e Errno, why string, dump bool) {
	s := of.nl
	typ, flags, seq := le16(req[4:]), le16(req[6:]), u32(req, 8)
	if typ > rtmMax {
		return EOPNOTSUPP, "", false
	}
	body := req[nlmsgHdrLen:]
	if len(body) < 1 { // smaller than a struct rtgenmsg
		return 0, "", false
	}
	if typ&3 != rtmKindGet {
		return EPERM, "", false
	}
	if flags&nlmFDump == 0 {
		if typ != rtmGetlink {
			return EOPNOTSUPP, "", false
		}
		e, why := s.getLink(k, body, seq)
		return e, why, false
	}
	switch typ {
	case rtmGetlink, rtmGetaddr, rtmGetroute, rtmGetneigh, rtmGettclass, rtmGettfilter, rtmGetaction,
		rtmGetnsid, rtmGetchain:
	default:
		return EOPNOTSUPP, "", false
	}
	if s.dumpDone != nil { // netlink_dump_start: one dump at a time
		return EBUSY, "", false
	}
	out := &nlBuf{seq: seq, pid: s.portid, flags: nlmFMulti}
	switch typ {
	case rtmGetlink:
		e, why = s.dumpLinks(out, body)
	case rtmGetaddr:
		e, why = s.dumpAddrs(out, body)
	case rtmGetroute:
		e, why = s.dumpRoutes(out, body)
	} // the others have nothing to list: lo has no neighbours yet, no
	// traffic classes, filters or actions (noqueue), and there are no
	// other namespaces or filter chains
	done := &nlBuf{seq: seq, pid: s.portid, flags: out.flags} // with the dump's NLM_F_DUMP_FILTERED
	done.done(e, why, s.extAck)
	if len(out.b) == 0 || e != 0 { // nothing, or an error: the DONE at once
		k.nlQueue(s, done.b)
		return 0, "", true
	}
	k.nlQueue(s, out.b)
	s.dumpDone = done.b
	return 0, "", true
}

// getLink answers RTM_GETLINK without NLM_F_DUMP (rtnl_getlink): the
// interface ifi_index names, or else IFLA_IFNAME (or IFLA_ALT_IFNAME).
func (s *netlinkSock) getLink(k *Kernel, body []byte, seq uint32) (Errno, string) {
	if len(body) < ifinfomsgSize {
		return EINVAL, "Invalid header for get link"
	}
	if s.strict && (body[1] != 0 || le16(body[2:]) != 0 || u32(body, 8) != 0 || u32(body, 12) != 0) {
		return EINVAL, "Invalid values in header for get link request"
	}
	attrs := nlAttrs(body[ifinfomsgSize:])
	name, ok := attrs[iflaIfname]
	if !ok {
		name, ok = attrs[iflaAltIfname]
	}
	if ok && len(cString(name)) >= ifNameSize {
		return EINVAL, "Attribute failed policy validation"
	}
	switch index := int32(u32(body, 4)); {
	case index > 0:
		if index != loIndex {
			return ENODEV, ""
		}
	case ok:
		if cString(name) != loName {
			return ENODEV, ""
		}
	default:
		return EINVAL, ""
	}
	out := &nlBuf{seq: seq, pid: s.portid}
	out.link()
	k.nlQueue(s, out.b)
	return 0, ""
}

// dumpLinks is rtnl_dump_ifinfo: lo (AF_BRIDGE asks for bridge ports, of
// which there are none). A request shorter than struct ifinfomsg is
// taken as the old struct rtgenmsg.
func (s *netlinkSock) dumpLinks(out *nlBuf, body []byte) (Errno, string) {
	if s.strict {
		if len(body) < ifinfomsgSize {
			return EINVAL, "Invalid header for link dump"
		}
		if body[1] != 0 || le16(body[2:]) != 0 || u32(body, 8) != 0 || u32(body, 12) != 0 {
			return EINVAL, "Invalid values in header for link dump request"
		}
		if u32(body, 4) != 0 {
			return EINVAL, "Filter by device index not supported for link dumps"
		}
	}
	if body[0] != afBridge {
		out.link()
	}
	return 0, ""
}

// dumpAddrs is rtnl_dump_all over inet_dump_ifaddr and
// inet6_dump_ifaddr, or one of them as ifa_family asks.
func (s *netlinkSock) dumpAddrs(out *nlBuf, body []byte) (Errno, string) {
	family := body[0]
	if s.strict {
		if len(body) < ifaddrmsgSize {
			return EINVAL, "Invalid header for address dump request"
		}
		if body[1] != 0 || body[2] != 0 || body[3] != 0 {
			return EINVAL, "Invalid values in header for address dump request"
		}
		if index := u32(body, 4); index != 0 {
			out.flags |= nlmFFiltered
			if index != loIndex {
				return ENODEV, ""
			}
		}
	}
	if family != afInet6 {
		out.addr4()
	}
	if family != afInet {
		out.addr6()
	}
	return 0, ""
}

// dumpRoutes is rtnl_dump_all over inet_dump_fib and inet6_dump_fib,
// or one of them as rtm_family asks: lo's routes, all in the local
// table. RTM_F_CLONED asks for cached routes: there are none.
func (s *netlinkSock) dumpRoutes(out *nlBuf, body []byte) (Errno, string) {
	family := body[0]
	var rtmFlags uint32
	if len(body) >= rtmsgSize {
		rtmFlags = u32(body, 8)
	}
	if s.strict {
		if len(body) < rtmsgSize {
			return EINVAL, "Invalid header for FIB dump request"
		}
		if body[1] != 0 || body[2] != 0 || body[3] != 0 || body[6] != 0 || body[7] != 0 {
			return EINVAL, "Invalid values in header for FIB dump request"
		}
		if rtmFlags&^(rtmFCloned|rtmFPrefix) != 0 {
			return EINVAL, "Invalid flags for FIB dump request"
		}
	}
	if rtmFlags&rtmFCloned != 0 {
		return 0, ""
	}
	if family != afInet6 {
		out.route4([4]byte{127, 0, 0, 0}, 8, rtScopeHost, rtnLocal)
		out.route4(lo4Addr, 32, rtScopeHost, rtnLocal)
		out.route4([4]byte{127, 255, 255, 255}, 32, rtScopeLink, rtnBroadcast)
	}
	if family != afInet {
		out.route6()
	}
	return 0, ""
}

// nlQueue queues one datagram for the socket to receive
// (netlink_attachskb): over the receive buffer it is dropped, the
// socket congested and, unless NETLINK_NO_ENOBUFS, given ENOBUFS.
func (k *Kernel) nlQueue(s *netlinkSock, b []byte) {
	if s.congested || len(s.inbox.buf) > s.rcvbuf {
		if !s.noENOBUFS && !s.congested {
			s.err = ENOBUFS
		}
		s.congested = true
		return
	}
	s.inbox.msgs = append(s.inbox.msgs, len(b))
	k.filled(s.inbox, b)
}

// netlinkRecv takes (or with MSG_PEEK reads) the next datagram
// (netlink_recvmsg): a pending error comes first; then a running dump
// goes on into the queue.
func (k *Kernel) netlinkRecv(of *openFile, count uint64, flags uint32) (data []byte, full int, rights []*openFile, e Errno) {
	s, p := of.nl, of.nl.inbox
	for len(p.msgs) == 0 || s.err != 0 {
		if e := s.err; e != 0 {
			s.err = 0
			return nil, 0, nil, e
		}
		if of.flags&oNonblock != 0 || flags&msgDontwait != 0 {
			return nil, 0, nil, EAGAIN
		}
		if e := k.blockedIO("netlink read"); e != 0 {
			return nil, 0, nil, e
		}
	}
	full = p.msgs[0]
	data = append([]byte(nil), p.buf[:min(uint64(full), count)]...)
	if flags&msgPeek == 0 {
		p.msgs = p.msgs[1:]
		k.drained(p, full)
	}
	if s.dumpDone != nil && len(p.buf) <= s.rcvbuf/2 {
		k.nlQueue(s, s.dumpDone)
		s.dumpDone = nil
	}
	if len(p.msgs) == 0 { // netlink_rcv_wake
		s.congested = false
	}
	return data, full, nil, 0
}

// netlinkCmsgs is what netlink_recvmsg adds as control messages: with
// NETLINK_PKTINFO, a struct nl_pktinfo naming the group (0: unicast).
func (k *Kernel) netlinkCmsgs(of *openFile, control, room uint64) (used uint64, outFlags uint32, e Errno) {
	if !of.nl.pktinfo {
		return 0, 0, 0
	}
	w := &cmsgWriter{k: k, at: control, room: room}
	w.put(solNetlink, netlinkPktinfo, make([]byte, 4))
	return w.used, w.flags, w.err
}

// netlinkPollMask is datagram_poll's answer.
func netlinkPollMask(of *openFile) uint32 {
	m := uint32(pollOut | pollWrnorm | pollWrband)
	if len(of.nl.inbox.msgs) > 0 {
		m |= pollIn | pollRdnorm
	}
	if of.nl.err != 0 {
		m |= pollErr
	}
	return m
}

// netlinkSetsockopt sets a SOL_NETLINK option (netlink_setsockopt) or a
// buffer size.
func (k *Kernel) netlinkSetsockopt(of *openFile, level, name int32, val, n uint64) (uint64, Errno) {
	s := of.nl
	var v uint32
	if n >= 4 { // a shorter value counts as 0
		var e Errno
		if v, e = k.readU32(val); e != 0 {
			return 0, e
		}
	}
	if level == solSocket {
		if n < 4 {
			return 0, EINVAL
		}
		if name == soRcvbuf {
			s.rcvbuf = bufSize(int32(v), 2304)
		} else {
			s.sndbuf = bufSize(int32(v), 4608)
		}
		return 0, 0
	}
	if level != solNetlink {
		return 0, ENOPROTOOPT
	}
	switch name {
	case netlinkAddMembership, netlinkDropMembership:
		if v == 0 || v > rtnlGroups {
			return 0, EINVAL
		}
		bit := uint32(1) << ((v - 1) % 32)
		if name == netlinkAddMembership {
			s.groups[(v-1)/32] |= bit
		} else {
			s.groups[(v-1)/32] &^= bit
		}
		return 0, 0
	case netlinkListenAllNSID:
		return 0, EPERM // CAP_NET_BROADCAST
	}
	f := s.flag(name)
	if f == nil {
		return 0, ENOPROTOOPT
	}
	*f = v != 0
	return 0, 0
}

// flag is the SOL_NETLINK option that is a flag of the socket's, or nil.
func (s *netlinkSock) flag(name int32) *bool {
	switch name {
	case netlinkPktinfo:
		return &s.pktinfo
	case netlinkBroadcastError:
		return &s.broadcastErr
	case netlinkNoENOBUFS:
		return &s.noENOBUFS
	case netlinkCapAck:
		return &s.capAck
	case netlinkExtAck:
		return &s.extAck
	case netlinkGetStrictChk:
		return &s.strict
	}
	return nil
}

// optWord is an int option's value as getsockopt gives it.
func optWord(v uint32) []byte {
	b := make([]byte, 4)
	put32(b, 0, v)
	return b
}

// netlinkGetsockopt answers getsockopt on a netlink socket: SOL_NETLINK
// (netlink_getsockopt) and the SOL_SOCKET options whose answers differ
// from an AF_UNIX socket's.
func (k *Kernel) netlinkGetsockopt(of *openFile, level, name int32) ([]byte, Errno) {
	s := of.nl
	if level == solSocket {
		switch name {
		case soError:
			e := s.err
			s.err = 0
			return optWord(uint32(e)), 0
		case soDomain:
			return optWord(afNetlink), 0
		case soProtocol:
			return optWord(netlinkRoute), 0
		case soRcvbuf:
			return optWord(uint32(s.rcvbuf)), 0
		case soSndbuf:
			return optWord(uint32(s.sndbuf)), 0
		}
		return k.unixGetsockopt(of, name)
	}
	if level != solNetlink {
		return nil, ENOPROTOOPT
	}
	switch name {
	case netlinkListenAllNSID:
		return optWord(0), 0
	case netlinkListMembership:
		return append(optWord(s.groups[0]), optWord(s.groups[1])...), 0
	}
	if f := s.flag(name); f != nil {
		if *f {
			return optWord(1), 0
		}
		return optWord(0), 0
	}
	return nil, ENOPROTOOPT
}

// nlAttrs parses the attributes of b as nla_parse does liberally: by
// type (the flag bits masked), a later one of a type replacing an
// earlier; trailing bytes that make no attribute are ignored.
func nlAttrs(b []byte) map[uint16][]byte {
	attrs := map[uint16][]byte{}
	for len(b) >= 4 {
		n := int(le16(b))
		if n < 4 || n > len(b) {
			break
		}
		attrs[le16(b[2:])&nlaTypeMask] = b[4:n]
		b = b[min(nlmsgAlign(n), len(b)):]
	}
	return attrs
}

func le16(b []byte) uint16 { return uint16(b[0]) | uint16(b[1])<<8 }
