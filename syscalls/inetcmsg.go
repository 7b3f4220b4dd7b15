package syscalls

// Ancillary data on AF_INET and AF_INET6 datagram sockets: the IP header
// fields a sender sets per datagram with a control message, and the ones
// a receiver asks to see (RFC 3542 for IPv6). A datagram carries its
// hop limit (IPv4: TTL) and traffic class (IPv4: TOS) from the sender's
// control message or, without one, from the sender's socket options; a
// receiver that set IP_PKTINFO, IP_RECVTTL, IP_RECVTOS, IPV6_RECVPKTINFO,
// IPV6_RECVHOPLIMIT or IPV6_RECVTCLASS gets them in recvmsg's control
// buffer, in the order and with the truncation of Linux's put_cmsg
// (ip_cmsg_recv_offset, ip6_datagram_recv_ctl). The values are the
// loopback's: interface index 1, the datagram's own addresses.

// IP and IPv6 options and control message types (linux/in.h, in6.h).
const (
	ipPktinfo        = 8
	ipRecvTTL        = 12
	ipRecvTOS        = 13
	ipv6UnicastHops  = 16
	ipv6RecvPktinfo  = 49
	ipv6Pktinfo      = 50
	ipv6RecvHoplimit = 51
	ipv6Hoplimit     = 52
	ipv6DontFrag     = 62
	ipv6RecvTclass   = 66
	ipv6Tclass       = 67

	soPriority     = 12
	soMark         = 36
	soTimestamping = 37
	scmTxtime      = 61

	loopbackIfindex = 1
	defaultHopLimit = 64 // the loopback route's (net.ipv6.conf.lo.hop_limit)
)

// ipAnc is what a sendmsg's IP-level control messages set for its
// datagram: the hop limit (TTL) and traffic class (TOS), each if given.
type ipAnc struct {
	hops, class       int32
	hasHops, hasClass bool
}

// dgramInfo is a queued datagram's source and the header fields its
// receiver may ask for.
type dgramInfo struct {
	src, dst    inetAddr
	hops, class uint8 // IPv4: TTL and TOS; IPv6: hop limit and traffic class
}

// rxOptions are the ancillary data an inet socket asks to receive.
type rxOptions struct {
	pktinfo4, ttl, tos, pktinfo6, hoplimit, tclass bool
}

// header is the datagram s sends from src to dst with anc's fields.
func (s *inetSock) header(src, dst inetAddr, anc ipAnc) dgramInfo {
	d := dgramInfo{src: src, dst: dst}
	if dst.v4() {
		d.hops, d.class = uint8(s.ttl), uint8(s.tos)
	} else {
		d.hops, d.class = defaultHopLimit, uint8(s.tclass6)
		if s.hops6 >= 0 {
			d.hops = uint8(s.hops6)
		}
	}
	if anc.hasHops && anc.hops >= 0 {
		d.hops = uint8(anc.hops)
	}
	if anc.hasClass {
		d.class = uint8(anc.class) // -1 gives 255, as Linux 6.18's loopback shows
	}
	return d
}

// inetCmsgs parses a sendmsg's control messages on an inet socket
// (ip_cmsg_send, ip6_datagram_send_ctl, __sock_cmsg_send): a stream
// socket looks only at SOL_SOCKET's; a datagram socket also at its own
// IP version's level, other levels skipped.
func (k *Kernel) inetCmsgs(of *openFile, control, n uint64) (ipAnc, Errno) {
	var anc ipAnc
	own := int32(ipprotoIP)
	if of.inet.family == afInet6 {
		own = ipprotoIPv6
	}
	e := k.eachCmsg(control, n, func(level, typ int32, data []byte) Errno {
		ok := true // another level's, or a stream's: skipped
		switch {
		case level == solSocket:
			ok = sockCmsgOK(typ, data)
		case level != own || of.sockType != sockDgram:
		case own == ipprotoIP:
			ok = anc.ipv4(typ, data)
		default:
			ok = anc.ipv6(typ, data)
		}
		if !ok {
			return EINVAL
		}
		return 0
	})
	return anc, e
}

// sockCmsgOK checks a SOL_SOCKET control message on an inet socket
// (__sock_cmsg_send): descriptors and credentials mean nothing there and
// are ignored; the mark, priority, timestamping and transmit time are
// accepted without effect.
func sockCmsgOK(typ int32, data []byte) bool {
	switch typ {
	case scmRights, scmCreds:
		return true
	case soMark, soPriority, soTimestamping:
		return len(data) == 4
	case scmTxtime:
		return len(data) == 8
	}
	return false
}

// int32Of reads a control message's int, which must be its whole data.
func int32Of(data []byte) (int32, bool) {
	if len(data) != 4 {
		return 0, false
	}
	return int32(u32(data, 0)), true
}

// ipv4 takes an IPPROTO_IP control message (ip_cmsg_send).
func (a *ipAnc) ipv4(typ int32, data []byte) bool {
	switch typ {
	case ipTTL:
		v, ok := int32Of(data)
		if !ok || v < 1 || v > 255 {
			return false
		}
		a.hops, a.hasHops = v, true
	case ipTOS:
		v, ok := int32Of(data)
		if len(data) == 1 {
			v, ok = int32(data[0]), true
		}
		if !ok || v < 0 || v > 255 {
			return false
		}
		a.class, a.hasClass = v, true
	case ipPktinfo:
		return len(data) == 12 // struct in_pktinfo: the loopback's, whatever it names
	default:
		return false
	}
	return true
}

// ipv6 takes an IPPROTO_IPV6 control message (ip6_datagram_send_ctl).
func (a *ipAnc) ipv6(typ int32, data []byte) bool {
	switch typ {
	case ipv6Hoplimit, ipv6Tclass:
		v, ok := int32Of(data)
		if !ok || v < -1 || v > 255 {
			return false
		}
		if typ == ipv6Hoplimit {
			a.hops, a.hasHops = v, true
		} else {
			a.class, a.hasClass = v, true
		}
	case ipv6DontFrag:
		v, ok := int32Of(data)
		return ok && v >= -1 && v <= 1
	case ipv6Pktinfo:
		return len(data) == 20 // struct in6_pktinfo
	default:
		return false
	}
	return true
}

// cmsgWriter writes control messages into a recvmsg's buffer as
// put_cmsg does: a message that does not fit is cut to the room left
// (its cmsg_len too) and MSG_CTRUNC set.
type cmsgWriter struct {
	k              *Kernel
	at, room, used uint64
	flags          uint32
	err            Errno
}

func (w *cmsgWriter) put(level, typ int32, data []byte) {
	if w.err != 0 {
		return
	}
	if w.at == 0 || w.room < cmsgHdrSize {
		w.flags |= msgCtrunc
		return
	}
	clen := uint64(cmsgHdrSize + len(data))
	if w.room < clen {
		w.flags |= msgCtrunc
		clen = w.room
	}
	msg := make([]byte, cmsgHdrSize+len(data))
	put64(msg, 0, clen)
	put32(msg, 8, uint32(level))
	put32(msg, 12, uint32(typ))
	copy(msg[cmsgHdrSize:], data)
	if w.err = w.k.writeMem(w.at, msg[:clen]); w.err != 0 {
		return
	}
	step := min(cmsgAlign(uint64(cmsgHdrSize+len(data))), w.room)
	w.at, w.room, w.used = w.at+step, w.room-step, w.used+step
}

// inetReceiveCmsgs writes the ancillary data of the datagram the last
// receive took, as the socket asked for it.
func (k *Kernel) inetReceiveCmsgs(of *openFile, control, room uint64) (used uint64, flags uint32, e Errno) {
	s := of.inet
	rx, d := s.rx, s.got
	w := &cmsgWriter{k: k, at: control, room: room}
	word := func(v uint8) []byte { b := make([]byte, 4); put32(b, 0, uint32(v)); return b }
	if s.family == afInet6 && rx.pktinfo6 { // struct in6_pktinfo
		b := make([]byte, 20)
		copy(b, d.dst.ip[:])
		put32(b, 16, loopbackIfindex)
		w.put(ipprotoIPv6, ipv6Pktinfo, b)
	}
	if d.dst.v4() {
		if rx.pktinfo4 { // struct in_pktinfo: the interface, the local and the destination address
			b := make([]byte, 12)
			put32(b, 0, loopbackIfindex)
			copy(b[4:8], d.dst.ip[12:])
			copy(b[8:12], d.dst.ip[12:])
			w.put(ipprotoIP, ipPktinfo, b)
		}
		if rx.ttl {
			w.put(ipprotoIP, ipTTL, word(d.hops))
		}
		if rx.tos {
			w.put(ipprotoIP, ipTOS, []byte{d.class})
		}
	} else {
		if rx.hoplimit {
			w.put(ipprotoIPv6, ipv6Hoplimit, word(d.hops))
		}
		if rx.tclass {
			w.put(ipprotoIPv6, ipv6Tclass, word(d.class))
		}
	}
	return w.used, w.flags, w.err
}
