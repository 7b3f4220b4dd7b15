package syscalls

import "strconv"

// socketpair(AF_UNIX): two connected sockets inside the process (what
// Python's asyncio wakes its event loop with, and threads talk over).
// Each end receives from one buffer and sends into the other, the pipe
// structure of pipe.go with the roles crossed: a stream end moves bytes,
// a datagram or seqpacket end whole messages (pipe.msgs). shutdown and
// close act as unix_shutdown and unix_release: a side shut for sending
// gives its peer end-of-file, one shut for receiving gives its peer
// EPIPE (and SIGPIPE unless MSG_NOSIGNAL). Blocking follows pipes: the
// thread waits while another can read or write, else a signal.

const (
	shutRcv = 1 // SHUT_RD's side
	shutSnd = 2 // SHUT_WR's side

	// sockCapacity is a socket's send buffer (net.core.wmem_default).
	sockCapacity = 212992

	// send and recv flags (linux/socket.h).
	msgOOB      = 0x1
	msgPeek     = 0x2
	msgTrunc    = 0x20
	msgDontwait = 0x40
	msgNosignal = 0x4000

	solSocket = 1
	// msghdrSize is struct msghdr on riscv64: name, namelen (padded),
	// iov, iovlen, control, controllen, flags (padded).
	msghdrSize = 56
	uioMaxIOV  = 1024
)

func sysSocketpair(k *Kernel, a sysArgs) (uint64, Errno) {
	domain, typ, proto, sv := a.Int(0), a.Uint(1), a.Int(2), a.Ptr(3)
	if domain != afUnix {
		return 0, EOPNOTSUPP // what Linux answers for a domain without pairs (AF_INET)
	}
	if e := checkUnixType(typ, proto); e != 0 {
		return 0, e
	}
	ab := &pipe{readers: 1, writers: 1, ino: k.nextIno()} // a sends, b receives
	ba := &pipe{readers: 1, writers: 1, ino: k.nextIno()}
	if typ&sockTypeMask != sockStream {
		ab.msgs, ba.msgs = []int{}, []int{}
	}
	end := func(rx, tx *pipe) *openFile {
		ino := k.nextIno()
		return &openFile{kind: kindSocket, guest: "socket:[" + strconv.FormatUint(ino, 10) + "]",
			flags: oRdwr | typ&sockNonblock, sockType: typ & sockTypeMask, sockIno: ino, rx: rx, tx: tx}
	}
	cloexec := typ&sockCloexec != 0
	ea, eb := end(ba, ab), end(ab, ba)
	if typ&sockTypeMask != sockDgram {
		ea.upair, eb.upair = eb, ea
	}
	fa, e := k.install(ea, cloexec, 0)
	if e != 0 {
		return 0, e
	}
	fb, e := k.install(eb, cloexec, 0)
	if e != 0 {
		k.closeFD(int32(fa))
		return 0, e
	}
	var b [8]byte
	put32(b[:], 0, uint32(fa))
	put32(b[:], 4, uint32(fb))
	if e := k.writeMem(sv, b[:]); e != 0 {
		k.closeFD(int32(fa))
		k.closeFD(int32(fb))
		return 0, e
	}
	return 0, 0
}

// shutdown shuts sides of a connected end (unix_shutdown; unix_release
// shuts both): the peer sees end-of-file, or EPIPE on sending.
func (of *openFile) shutdown(sides uint8) {
	if of.rx == nil {
		of.shut |= sides
		return
	}
	if sides&shutSnd != 0 && of.shut&shutSnd == 0 {
		of.tx.writers--
	}
	if sides&shutRcv != 0 && of.shut&shutRcv == 0 {
		of.rx.readers--
	}
	of.shut |= sides
	of.rx.gens[wakeAny]++
	of.tx.gens[wakeAny]++
}

// releasePair is unix_release_sock's part for the other end of a
// connected stream or seqpacket end being released: it is reset
// (ECONNRESET, reported once) if this end leaves data unread, or was
// still in a listener's queue (embryo).
func (of *openFile) releasePair(embryo bool) {
	p := of.upair
	if p == nil {
		return
	}
	of.upair, p.upair = nil, nil
	if embryo || len(of.rx.buf) > 0 || len(of.rx.msgs) > 0 {
		p.uerr = ECONNRESET
	}
}

// takeUnixErr returns and clears a connected AF_UNIX end's error
// (sock_error).
func (of *openFile) takeUnixErr() Errno {
	e := of.uerr
	of.uerr = 0
	return e
}

// inq is what SIOCINQ (FIONREAD) reports: the bytes queued, or the next
// message's length.
func (p *pipe) inq() int {
	if p.msgs != nil {
		if len(p.msgs) == 0 {
			return 0
		}
		return p.msgs[0]
	}
	return len(p.buf)
}

// connectedPollMask is unix_poll's (and unix_dgram_poll's) answer for
// an end of a socketpair.
func connectedPollMask(of *openFile) uint32 {
	var m uint32
	rcvShut := of.shut&shutRcv != 0 || of.rx.writers == 0
	sndShut := of.shut&shutSnd != 0 || of.tx.readers == 0
	if rcvShut && sndShut {
		m |= pollHup
	}
	if rcvShut {
		m |= epollRdhup | pollIn | pollRdnorm
	}
	if len(of.rx.buf) > 0 || len(of.rx.msgs) > 0 {
		m |= pollIn | pollRdnorm
	}
	if of.uerr != 0 {
		m |= pollErr
	}
	if len(of.tx.buf) < sockCapacity {
		m |= pollOut | pollWrnorm | pollWrband
	}
	return m
}

// sockSend sends data from a socket (write, send, sendto, sendmsg) with
// the descriptors of anc, if any (sendmsg's SCM_RIGHTS; taken when
// queued).
func (k *Kernel) sockSend(of *openFile, data []byte, flags uint32, anc *ancillary) (int, Errno) {
	if flags&msgOOB != 0 {
		return 0, EOPNOTSUPP
	}
	if of.tx == nil {
		return 0, ENOTCONN
	}
	p := of.tx
	stream := of.sockType == sockStream
	if stream && len(data) == 0 {
		return 0, 0
	}
	if !stream && of.uerr != 0 { // (unix_seqpacket_sendmsg: sock_error first)
		return 0, of.takeUnixErr()
	}
	if !stream && len(data) > sockCapacity {
		return 0, EMSGSIZE
	}
	nonblock := of.flags&oNonblock != 0 || flags&msgDontwait != 0
	deadline := of.sndTimeo.deadline(k)
	total := 0
	for {
		if of.shut&shutSnd != 0 || p.readers == 0 {
			if flags&msgNosignal == 0 {
				k.raise(sigPIPE, k.senderInfo(sigPIPE, siUser))
			}
			if total > 0 {
				return total, 0
			}
			return 0, EPIPE
		}
		room := sockCapacity - len(p.buf)
		rest := data[total:]
		switch {
		case !stream && room >= len(rest): // a message goes whole
			p.msgs = append(p.msgs, len(rest))
			k.filled(p, rest)
			total = len(rest)
			anc.queueRights(p, 0)
		case stream && room > 0:
			n := min(room, len(rest))
			k.filled(p, rest[:n])
			total += n
			anc.queueRights(p, n) // with the first bytes (unix_stream_sendmsg)
		}
		if total == len(data) {
			return total, 0
		}
		if nonblock {
			if total > 0 {
				return total, 0
			}
			return 0, EAGAIN
		}
		if e := k.blockedIOUntil("socket write", deadline); e != 0 {
			if total > 0 {
				return total, 0
			}
			return 0, e
		}
	}
}

// sockRecv takes up to count bytes from a socket (read, recv, recvfrom,
// recvmsg); full is the message's whole length (a datagram longer than
// count is cut, the rest discarded, as MSG_TRUNC reports), rights the
// descriptors that came with them (scm.go), each with a reference the
// caller installs or drops.
func (k *Kernel) sockRecv(of *openFile, count uint64, flags uint32) (data []byte, full int, rights []*openFile, e Errno) {
	tcp := of.inet != nil && of.sockType == sockStream
	if flags&msgOOB != 0 && !tcp {
		return nil, 0, nil, EOPNOTSUPP
	}
	if of.nl != nil {
		return k.netlinkRecv(of, count, flags)
	}
	p := of.rx
	if of.inet != nil {
		var e Errno
		if p, e = of.inetRecvQueue(); e != 0 {
			return nil, 0, nil, e
		}
		if flags&msgOOB != 0 {
			data, full, e := of.recvUrgent(p, count, flags)
			return data, full, nil, e
		}
	} else if p == nil {
		p = of.uin // a bound AF_UNIX datagram socket's
	}
	if p == nil {
		return nil, 0, nil, ENOTCONN
	}
	stream := of.sockType == sockStream
	if of.uerr != 0 && !stream { // before the data (__skb_try_recv_datagram)
		return nil, 0, nil, of.takeUnixErr()
	}
	deadline := of.rcvTimeo.deadline(k)
	var skip int // at an urgent byte taken out of the stream (tcpurg.go): a read skips it
	for {
		skip = 0
		if tcp && of.urgentSkip(p) {
			if flags&msgPeek == 0 {
				k.drained(p, 1)
			} else {
				skip = 1
			}
		}
		if len(p.buf) > skip || len(p.msgs) > 0 {
			break
		}
		if of.inet != nil && of.inet.err != 0 { // after the data (tcp_recvmsg)
			return nil, 0, nil, of.inet.takeErr()
		}
		if of.uerr != 0 { // after the data (unix_stream_read_generic)
			return nil, 0, nil, of.takeUnixErr()
		}
		if of.shut&shutRcv != 0 || p.writers == 0 {
			return nil, 0, nil, 0
		}
		if of.flags&oNonblock != 0 || flags&msgDontwait != 0 {
			return nil, 0, nil, EAGAIN
		}
		if e := k.blockedIOUntil("socket read", deadline); e != 0 {
			return nil, 0, nil, e
		}
	}
	full = len(p.buf) - skip
	if !stream {
		full = p.msgs[0]
	}
	n := min(uint64(full), count)
	if stream {
		n = uint64(urgentLimit(p, p.streamLimit(int(n))))
	}
	data = append([]byte(nil), p.buf[skip:skip+int(n)]...)
	if s := of.inet; s != nil && !stream {
		s.got = s.from[0]
	}
	if p == of.uin {
		of.ugot = of.ufrom[0]
	}
	if flags&msgPeek != 0 {
		return data, full, p.takeRights(int(n), true), 0
	}
	take := int(n)
	if !stream {
		take, p.msgs = full, p.msgs[1:]
		if s := of.inet; s != nil {
			s.from = s.from[1:]
		}
		if p == of.uin {
			of.ufrom = of.ufrom[1:]
		}
	}
	rights = p.takeRights(take, false)
	k.drained(p, take)
	return data, full, rights, 0
}

// recvFD receives into guest memory at buf.
func (k *Kernel) recvFD(of *openFile, buf, count uint64, flags uint32) (uint64, Errno) {
	data, full, rights, e := k.sockRecv(of, count, flags)
	if e != 0 {
		return 0, e
	}
	k.releaseRights(rights) // no room for them: closed
	if len(data) > 0 && k.copyOut(buf, data) == 0 {
		return 0, EFAULT
	}
	if flags&msgTrunc != 0 && of.sockType != sockStream {
		return uint64(full), 0
	}
	return uint64(len(data)), 0
}

// sockFile returns the socket open as fd.
func (k *Kernel) sockFile(fd int32) (*openFile, Errno) {
	of, e := k.file(fd)
	if e != 0 {
		return nil, e
	}
	if of.kind != kindSocket {
		return nil, ENOTSOCK
	}
	return of, 0
}

// sendTo checks a destination address: a connected socket has its
// peer; for an unconnected one the address is looked up as connect does
// (nothing listens).
func (k *Kernel) sendTo(of *openFile, addr, addrLen uint64) Errno {
	if addr == 0 {
		return 0
	}
	if of.sockType == sockStream {
		if of.rx != nil {
			return EISCONN
		}
		return EOPNOTSUPP
	}
	_, e := k.connectUnix(addr, addrLen)
	return e
}

// send sends data from a socket to the address at addr (0: none), with
// sendmsg's ancillary data (nil: none; scm.go, inetcmsg.go).
func (k *Kernel) send(of *openFile, data []byte, flags uint32, addr, addrLen uint64, anc *ancillary) (int, Errno) {
	if of.inet != nil {
		return k.inetSend(of, data, flags, addr, addrLen, anc)
	}
	if of.nl != nil {
		return k.netlinkSend(of, data, flags, addr, addrLen)
	}
	if of.sockType == sockDgram && of.rx == nil {
		return k.unixDgramSend(of, data, flags, addr, addrLen, anc)
	}
	if e := k.sendTo(of, addr, addrLen); e != 0 {
		return 0, e
	}
	return k.sockSend(of, data, flags, anc)
}

func sysSendto(k *Kernel, a sysArgs) (uint64, Errno) {
	of, e := k.sockFile(a.Int(0))
	if e != 0 {
		return 0, e
	}
	return k.sendFrom(of, a.Ptr(1), a.Ptr(2), a.Uint(3), a.Ptr(4), a.Ptr(5))
}

// sendFrom sends count bytes from guest memory at buf (write, sendto): a
// stream socket takes them all, a chunk at a time (writeFrom); a
// message-based one takes one message, which may be too long (EMSGSIZE).
func (k *Kernel) sendFrom(of *openFile, buf, count uint64, flags uint32, addr, addrLen uint64) (uint64, Errno) {
	if of.sockType == sockStream {
		return k.writeFrom(buf, count, sockCapacity, sockCapacity, func(b []byte) (int, Errno) { return k.send(of, b, flags, addr, addrLen, nil) })
	}
	b, e := k.readMem(buf, min(count, sockCapacity+1))
	if e != 0 {
		return 0, e
	}
	n, e := k.send(of, b, flags, addr, addrLen, nil)
	return uint64(n), e
}

// unnamedPeer writes a peer's address for recvfrom and recvmsg: a
// socketpair's peer is unbound, so the length is 0 (unix_copy_addr).
func (k *Kernel) unnamedPeer(lenAddr uint64) Errno {
	if lenAddr == 0 {
		return 0
	}
	return k.writeU32(lenAddr, 0)
}

// source is the address recvfrom and recvmsg report for what of just
// received: a UDP datagram's source; none for a stream (tcp_recvmsg).
func (of *openFile) source() []byte {
	if of.nl != nil {
		return kernelSockaddr
	}
	if s := of.inet; s != nil && of.sockType == sockDgram {
		return s.sockaddr(s.got.src)
	}
	if of.uin != nil && of.rx == nil {
		return of.ugot // nil: an unnamed sender
	}
	return of.upeer // a named AF_UNIX peer's address (unix_copy_addr)
}

func sysRecvfrom(k *Kernel, a sysArgs) (uint64, Errno) {
	of, e := k.sockFile(a.Int(0))
	if e != 0 {
		return 0, e
	}
	n, e := k.recvFD(of, a.Ptr(1), a.Ptr(2), a.Uint(3))
	if e != 0 {
		return 0, e
	}
	if a.Ptr(4) != 0 {
		if src := of.source(); src != nil {
			e = k.putSockaddr(a.Ptr(4), a.Ptr(5), src)
		} else {
			e = k.unnamedPeer(a.Ptr(5))
		}
		if e != 0 {
			return 0, e
		}
	}
	return n, 0
}

// msghdr is the part of struct msghdr sendmsg and recvmsg use.
type msghdr struct {
	name, iov, control uint64
	nameLen            uint32
	iovLen, controlLen uint64
}

func (k *Kernel) readMsghdr(addr uint64) (msghdr, [][2]uint64, Errno) {
	b, e := k.readMem(addr, msghdrSize)
	if e != 0 {
		return msghdr{}, nil, e
	}
	m := msghdr{name: le64(b), nameLen: u32(b, 8), iov: le64(b[16:]), iovLen: le64(b[24:]),
		control: le64(b[32:]), controlLen: le64(b[40:])}
	if m.iovLen > uioMaxIOV {
		return m, nil, EMSGSIZE
	}
	iov, e := k.iovecs(m.iov, int32(m.iovLen))
	return m, iov, e
}

func sysSendmsg(k *Kernel, a sysArgs) (uint64, Errno) {
	of, e := k.sockFile(a.Int(0))
	if e != 0 {
		return 0, e
	}
	return k.sendmsg(of, a.Ptr(1), a.Uint(2))
}

// sendmsg sends the message of the msghdr at hdr.
func (k *Kernel) sendmsg(of *openFile, hdr uint64, flags uint32) (uint64, Errno) {
	m, iov, e := k.readMsghdr(hdr)
	if e != 0 {
		return 0, e
	}
	anc := &ancillary{}
	// (a stream's call resumed after a part went with its descriptors)
	if m.controlLen != 0 && !(of.sockType == sockStream && k.resumingWrite(hdr, iovBytes(iov))) {
		if of.inet != nil {
			anc.ip, e = k.inetCmsgs(of, m.control, m.controlLen)
		} else {
			anc.rights, e = k.scmSend(m.control, m.controlLen)
		}
		if e != 0 {
			return 0, e
		}
	}
	sent := anc // its descriptors are released unless sent (nil when they were)
	defer func() { k.releaseRights(sent.rights) }()
	return k.sendIov(of, hdr, iov, flags, m.name, uint64(m.nameLen), anc)
}

// sendIov sends the bytes of the buffers iov names (sendmsg, writev): a
// message-based socket takes them as one message; a blocking stream
// takes every byte, as tcp_sendmsg and unix_stream_sendmsg wait for
// room, a buffer's worth at a time, the descriptors with the first
// (writeGather, which key names for a resumed call).
func (k *Kernel) sendIov(of *openFile, key uint64, iov [][2]uint64, flags uint32, name, nameLen uint64, anc *ancillary) (uint64, Errno) {
	if of.sockType != sockStream { // a message goes whole: one send
		data, e := gatherIov(k, iov, sockCapacity+1)
		if e != 0 {
			return 0, e
		}
		n, e := k.send(of, data, flags, name, nameLen, anc)
		return uint64(n), e
	}
	return k.writeGather(key, iov, sockCapacity, sockCapacity, func(b []byte) (int, Errno) {
		n, e := k.send(of, b, flags, name, nameLen, anc)
		anc = nil
		return n, e
	})
}

// gatherIov reads up to max bytes of the buffers iov names, in order.
func gatherIov(k *Kernel, iov [][2]uint64, max uint64) ([]byte, Errno) {
	var data []byte
	for _, v := range iov {
		if v[1] == 0 {
			continue
		}
		if uint64(len(data)) >= max {
			break
		}
		b, e := k.readMem(v[0], min(v[1], max-uint64(len(data))))
		if e != 0 {
			return nil, e
		}
		data = append(data, b...)
	}
	return data, 0
}

// skipIov is iov without its first n bytes.
func skipIov(iov [][2]uint64, n uint64) [][2]uint64 {
	for len(iov) > 0 && n >= iov[0][1] {
		n -= iov[0][1]
		iov = iov[1:]
	}
	if len(iov) > 0 && n > 0 {
		iov = append([][2]uint64{{iov[0][0] + n, iov[0][1] - n}}, iov[1:]...)
	}
	return iov
}

func sysRecvmsg(k *Kernel, a sysArgs) (uint64, Errno) {
	of, e := k.sockFile(a.Int(0))
	if e != 0 {
		return 0, e
	}
	return k.recvmsg(of, a.Ptr(1), a.Uint(2))
}

// recvmsg receives a message into the msghdr at hdr.
func (k *Kernel) recvmsg(of *openFile, hdr uint64, flags uint32) (uint64, Errno) {
	m, iov, e := k.readMsghdr(hdr)
	if e != 0 {
		return 0, e
	}
	data, full, rights, e := k.sockRecv(of, iovBytes(iov), flags)
	if e != 0 {
		return 0, e
	}
	var used uint64
	var ctrunc uint32
	if of.inet != nil && of.sockType == sockDgram {
		used, ctrunc, e = k.inetReceiveCmsgs(of, m.control, m.controlLen)
	} else if of.nl != nil {
		used, ctrunc, e = k.netlinkCmsgs(of, m.control, m.controlLen)
	} else {
		used, ctrunc, e = k.scmReceive(rights, m.control, m.controlLen, flags)
	}
	if e != 0 {
		return 0, e
	}
	if e := k.scatter(iov, data); e != 0 {
		return 0, e
	}
	var out [4]byte
	if m.name != 0 {
		src := of.source() // none: the peer is unnamed
		if n := min(int(m.nameLen), len(src)); n > 0 {
			if e := k.writeMem(m.name, src[:n]); e != 0 {
				return 0, e
			}
		}
		put32(out[:], 0, uint32(len(src)))
		if e := k.writeMem(hdr+8, out[:]); e != 0 { // msg_namelen
			return 0, e
		}
	}
	var tail [12]byte // msg_controllen, msg_flags
	put64(tail[:], 0, used)
	put32(tail[:], 8, ctrunc)
	if full > len(data) && of.sockType != sockStream {
		put32(tail[:], 8, ctrunc|msgTrunc)
	}
	if e := k.writeMem(hdr+40, tail[:12]); e != 0 {
		return 0, e
	}
	if flags&msgTrunc != 0 && of.sockType != sockStream {
		return uint64(full), 0
	}
	return uint64(len(data)), 0
}

// recvIov receives into the buffers iov names (readv): one message,
// scattered over them, its tail dropped when they are too small, as
// sock_read_iter passes them all to the protocol; descriptors sent with
// it are closed, as read's are.
func (k *Kernel) recvIov(of *openFile, iov [][2]uint64) (uint64, Errno) {
	data, _, rights, e := k.sockRecv(of, iovBytes(iov), 0)
	if e != 0 {
		return 0, e
	}
	k.releaseRights(rights)
	if e := k.scatter(iov, data); e != 0 {
		return 0, e
	}
	return uint64(len(data)), 0
}

// scatter copies data into the buffers iov names, in order.
func (k *Kernel) scatter(iov [][2]uint64, data []byte) Errno {
	for _, v := range iov {
		n := min(v[1], uint64(len(data)))
		if n > 0 && k.copyOut(v[0], data[:n]) == 0 {
			return EFAULT
		}
		data = data[n:]
	}
	return 0
}

func sysShutdown(k *Kernel, a sysArgs) (uint64, Errno) {
	how := a.Int(1)
	if how < 0 || how > 2 {
		return 0, EINVAL
	}
	of, e := k.sockFile(a.Int(0))
	if e != 0 {
		return 0, e
	}
	if of.inet != nil {
		return 0, k.inetShutdown(of, uint8(how+1))
	}
	if of.nl != nil {
		return 0, EOPNOTSUPP // sock_no_shutdown
	}
	of.shutdown(uint8(how + 1)) // SHUT_RD 0, SHUT_WR 1, SHUT_RDWR 2
	if of.rx != nil {
		k.ioWake()
	}
	return 0, 0
}

// putSockaddr writes an address of klen bytes as move_addr_to_user does:
// as much as the caller's length allows, and the full length.
func (k *Kernel) putSockaddr(addr, lenAddr uint64, b []byte) Errno {
	n, e := k.readU32(lenAddr)
	if e != 0 {
		return e
	}
	if int32(n) < 0 {
		return EINVAL
	}
	if m := min(int(n), len(b)); m > 0 {
		if e := k.writeMem(addr, b[:m]); e != 0 {
			return e
		}
	}
	return k.writeU32(lenAddr, uint32(len(b)))
}

// unnamedUnix is an unbound AF_UNIX address: the family alone.
var unnamedUnix = []byte{afUnix, 0}

func sysGetsockname(k *Kernel, a sysArgs) (uint64, Errno) {
	of, e := k.sockFile(a.Int(0))
	if e != 0 {
		return 0, e
	}
	if s := of.inet; s != nil {
		return 0, k.putSockaddr(a.Ptr(1), a.Ptr(2), s.sockaddr(s.local))
	}
	if s := of.nl; s != nil {
		return 0, k.putSockaddr(a.Ptr(1), a.Ptr(2), s.sockaddr(false))
	}
	if of.uaddr != nil {
		return 0, k.putSockaddr(a.Ptr(1), a.Ptr(2), of.uaddr)
	}
	return 0, k.putSockaddr(a.Ptr(1), a.Ptr(2), unnamedUnix)
}

func sysGetpeername(k *Kernel, a sysArgs) (uint64, Errno) {
	of, e := k.sockFile(a.Int(0))
	if e != 0 {
		return 0, e
	}
	if s := of.inet; s != nil {
		if !s.hasPeer || of.sockType == sockStream && s.closed(of) {
			return 0, ENOTCONN
		}
		return 0, k.putSockaddr(a.Ptr(1), a.Ptr(2), s.sockaddr(s.peer))
	}
	if s := of.nl; s != nil {
		return 0, k.putSockaddr(a.Ptr(1), a.Ptr(2), s.sockaddr(true))
	}
	if of.rx == nil && of.udpeer == nil {
		return 0, ENOTCONN
	}
	if of.upeer != nil {
		return 0, k.putSockaddr(a.Ptr(1), a.Ptr(2), of.upeer)
	}
	return 0, k.putSockaddr(a.Ptr(1), a.Ptr(2), unnamedUnix)
}

// SOL_SOCKET options (asm-generic/socket.h).
const (
	soReuseaddr  = 2
	soType       = 3
	soError      = 4
	soSndbuf     = 7
	soRcvbuf     = 8
	soKeepalive  = 9
	soLinger     = 13
	soPasscred   = 16
	soPeercred   = 17
	soRcvtimeo   = 20
	soSndtimeo   = 21
	soAcceptconn = 30
	soProtocol   = 38
	soDomain     = 39
)

func sysGetsockopt(k *Kernel, a sysArgs) (uint64, Errno) {
	of, e := k.sockFile(a.Int(0))
	if e != 0 {
		return 0, e
	}
	level, name, val, lenAddr := a.Int(1), a.Int(2), a.Ptr(3), a.Ptr(4)
	timeo := level == solSocket && (name == soRcvtimeo || name == soSndtimeo)
	if level != solSocket && of.inet == nil && of.nl == nil {
		return 0, EOPNOTSUPP
	}
	n, e := k.readU32(lenAddr)
	if e != 0 {
		return 0, e
	}
	if int32(n) < 0 {
		return 0, EINVAL
	}
	var b []byte
	generic, isGeneric := of.generic(name)
	if timeo {
		b = sockTimeoValue(of, name)
	} else if level == solSocket && isGeneric {
		b = generic
	} else if of.inet != nil {
		b, e = k.inetGetsockopt(of, level, name)
	} else if of.nl != nil {
		b, e = k.netlinkGetsockopt(of, level, name)
	} else {
		b, e = k.unixGetsockopt(of, name)
	}
	if e != 0 {
		return 0, e
	}
	b = b[:min(int(n), len(b))]
	if e := k.writeMem(val, b); e != 0 {
		return 0, e
	}
	return 0, k.writeU32(lenAddr, uint32(len(b)))
}

// unixGetsockopt answers getsockopt(SOL_SOCKET) on an AF_UNIX socket.
func (k *Kernel) unixGetsockopt(of *openFile, name int32) ([]byte, Errno) {
	var b []byte
	word := func(v uint32) []byte { w := make([]byte, 4); put32(w, 0, v); return w }
	switch name {
	case soType:
		b = word(of.sockType)
	case soError:
		b = word(uint32(of.takeUnixErr()))
	case soReuseaddr, soKeepalive, soPasscred, soProtocol:
		b = word(0)
	case soAcceptconn:
		b = word(0)
		if of.ul != nil {
			b = word(1)
		}
	case soSndbuf, soRcvbuf:
		b = word(sockCapacity)
	case soDomain:
		b = word(afUnix)
	case soLinger:
		b = make([]byte, 8)
	case soPeercred: // struct ucred: the peer is this process
		b = make([]byte, 12)
		if of.rx != nil {
			put32(b, 0, uint32(k.pid))
			uid, _ := sysGeteuid(k, sysArgs{})
			gid, _ := sysGetegid(k, sysArgs{})
			put32(b, 4, uint32(uid))
			put32(b, 8, uint32(gid))
		} else {
			put32(b, 4, ^uint32(0))
			put32(b, 8, ^uint32(0))
		}
	default:
		return nil, ENOPROTOOPT
	}
	return b, 0
}

// sysSetsockopt sets the timeouts (socktimeo.go) and accepts the other
// SOL_SOCKET options a socketpair's user sets (buffer sizes, credentials
// passing), without effect.
func sysSetsockopt(k *Kernel, a sysArgs) (uint64, Errno) {
	of, e := k.sockFile(a.Int(0))
	if e != 0 {
		return 0, e
	}
	level, name, n := a.Int(1), a.Int(2), a.Ptr(4)
	if level == solSocket && (name == soRcvtimeo || name == soSndtimeo) {
		return k.setSockTimeo(of, name, a.Ptr(3), n)
	}
	if level == solSocket {
		if ok, r, e := k.setGeneric(of, name, a.Ptr(3), n); ok {
			return r, e
		}
	}
	if of.inet != nil {
		return k.inetSetsockopt(of, level, name, a.Ptr(3), n)
	}
	if of.nl != nil && (level != solSocket || name == soRcvbuf || name == soSndbuf) {
		return k.netlinkSetsockopt(of, level, name, a.Ptr(3), n)
	}
	if level != solSocket {
		return 0, EOPNOTSUPP
	}
	switch name {
	case soReuseaddr, soSndbuf, soRcvbuf, soKeepalive, soPasscred:
		if n < 4 {
			return 0, EINVAL
		}
	case soLinger:
		if n < 8 {
			return 0, EINVAL
		}
	default:
		return 0, ENOPROTOOPT
	}
	if _, e := k.readMem(a.Ptr(3), n); e != 0 {
		return 0, e
	}
	return 0, 0
}

// mmsghdrSize is struct mmsghdr on riscv64: a msghdr and msg_len (padded).
const mmsghdrSize = 64

// sysSendmmsg sends vlen messages as sendmsg does, each one's length
// into its msg_len. A send that fails after the first ends the batch
// with the count so far; sends after the first do not wait, so that the
// batch is never restarted with messages already sent.
func sysSendmmsg(k *Kernel, a sysArgs) (uint64, Errno) {
	of, e := k.sockFile(a.Int(0))
	if e != 0 {
		return 0, e
	}
	return k.mmsg(of, a.Ptr(1), min(a.Uint(2), uioMaxIOV), a.Uint(3), k.sendmsg)
}

// sysRecvmmsg receives up to vlen messages as recvmsg does. Receives
// after the first do not wait (as with MSG_WAITFORONE), and the timeout
// is not applied: a blocking first receive waits as recvmsg's.
func sysRecvmmsg(k *Kernel, a sysArgs) (uint64, Errno) {
	of, e := k.sockFile(a.Int(0))
	if e != 0 {
		return 0, e
	}
	if t := a.Ptr(4); t != 0 {
		if _, e := k.readMem(t, 16); e != 0 {
			return 0, e
		}
	}
	return k.mmsg(of, a.Ptr(1), min(a.Uint(2), uioMaxIOV), a.Uint(3)&^msgWaitforone, k.recvmsg)
}

const msgWaitforone = 0x10000

// mmsg does one call per struct mmsghdr of the vector at vec.
func (k *Kernel) mmsg(of *openFile, vec uint64, vlen uint32, flags uint32, call func(*openFile, uint64, uint32) (uint64, Errno)) (uint64, Errno) {
	var done uint32
	for ; done < vlen; done++ {
		hdr := vec + uint64(done)*mmsghdrSize
		if done > 0 {
			flags |= msgDontwait
		}
		n, e := call(of, hdr, flags)
		if e != 0 {
			if done > 0 {
				break
			}
			return 0, e
		}
		if e := k.writeU32(hdr+msghdrSize, uint32(n)); e != 0 {
			if done > 0 {
				break
			}
			return 0, e
		}
	}
	return uint64(done), 0
}
