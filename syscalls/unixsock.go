package syscalls

import (
	"fmt"
	"strings"
)

// Named AF_UNIX sockets of the run: bind to a path (a socket file made
// through the sandbox, as mknodat(S_IFSOCK) makes one) or an abstract
// name, listen, accept, and connect from another socket of any process of
// the run (the names are the run's, procList.unixNames), stream or
// seqpacket. A connection is a socketpair's two ends
// (sockpair.go), the listener's end waiting in its accept queue; connect
// finds the listener by the socket file's identity (so any path to the
// file reaches it) or by the abstract name. As unix_stream_connect: a
// full queue (backlog + 1) makes a blocking connect wait for an accept
// and a non-blocking one fail with EAGAIN. A socket file no socket of
// the run is bound to refuses the connection, as a stale one does on
// Linux. A bound datagram socket receives what the run's processes send
// to its name, with the sender's name; connect sets a datagram socket's
// destination, and then only that socket may send to it (EPERM).

// unixListener is a listening AF_UNIX socket's accept queue.
type unixListener struct {
	backlog int
	queue   []*openFile
	gens    wakeGens
}

// unixName is where a socket's name is registered: "@" and the abstract
// name's bytes, or the socket file's identity.
func unixFileKey(s statInfo) string { return fmt.Sprintf("file %d:%d", s.dev, s.ino) }

// hostStatAt is the host's stat of the socket file at guest path p (follow:
// its final link too). Its identity keys the run's names: the host's
// (device, inode) is the same in every process of the run, which the
// guest's numbering (ident.go) need not be for a process made before its
// parent had seen any file.
func (k *Kernel) hostStatAt(p string, follow bool) (statInfo, Errno) {
	l, e := k.resolveExisting(atFDCWD, p, follow)
	if e != 0 {
		return statInfo{}, e
	}
	defer l.close()
	return l.obj.stat(), 0
}

// readUnixAddr reads a sockaddr_un (unix_validate_addr).
func (k *Kernel) readUnixAddr(addr, n uint64) ([]byte, Errno) {
	if n < 2 || n > 2+sunPathMax {
		return nil, EINVAL
	}
	b, e := k.readMem(addr, n)
	if e != 0 {
		return nil, e
	}
	if uint16(b[0])|uint16(b[1])<<8 != afUnix {
		return nil, EINVAL
	}
	return append([]byte(nil), b...), 0 // kept as the socket's name
}

// unixBind binds an AF_UNIX socket: a path makes its socket file (an
// existing file is EADDRINUSE), an abstract name must be free, and the
// family alone picks a free abstract name (autobind).
func (k *Kernel) unixBind(of *openFile, addr, n uint64) (uint64, Errno) {
	b, e := k.readUnixAddr(addr, n)
	if e != 0 {
		return 0, e
	}
	if of.uaddr != nil || of.rx != nil {
		return 0, EINVAL
	}
	var key string
	switch {
	case len(b) == 2: // autobind: five hex digits, deterministic
		for {
			name := fmt.Sprintf("\x00%05x", k.all.unixAuto&0xfffff)
			k.all.unixAuto++
			if k.all.unixNames["@"+name] == nil {
				b, key = append(b, name...), "@"+name
				break
			}
		}
	case b[2] == 0:
		key = "@" + string(b[2:])
		if k.all.unixNames[key] != nil {
			return 0, EADDRINUSE
		}
	default:
		p, _, _ := strings.Cut(string(b[2:]), "\x00")
		l, e := k.newEntryAt(atFDCWD, p)
		if e == EEXIST {
			return 0, EADDRINUSE
		}
		if e != 0 {
			return 0, e
		}
		err := mknodIn(l, sIFSOCK|0o777&^k.umask)
		if err != nil {
			l.close()
			if e := errnoOf(err); e != EEXIST {
				return 0, e
			}
			return 0, EADDRINUSE
		}
		k.ownNew(l)
		k.notifyCreated(l, false)
		hold, err := holdIn(l)
		l.close()
		if err != nil {
			return 0, errnoOf(err)
		}
		fi, err := hold.Stat()
		if err != nil {
			hold.Close()
			return 0, errnoOf(err)
		}
		of.uhold, key = hold, unixFileKey(hostStat(fi))
		b = append(append(b[:2:2], p...), 0) // as getsockname reports it
	}
	if k.all.unixNames == nil {
		k.all.unixNames = map[string]*openFile{}
	}
	k.all.unixNames[key] = of
	of.uaddr, of.ukey = b, key
	if of.sockType == sockDgram {
		of.uin = &pipe{readers: 1, writers: 1, msgs: []int{}, ino: k.nextIno()}
	}
	return 0, 0
}

// unixListen makes a bound AF_UNIX stream or seqpacket socket listen.
func (k *Kernel) unixListen(of *openFile, backlog uint32) (uint64, Errno) {
	if of.sockType == sockDgram {
		return 0, EOPNOTSUPP
	}
	if of.uaddr == nil || of.rx != nil {
		return 0, EINVAL
	}
	if of.ul == nil {
		of.ul = &unixListener{}
	}
	of.ul.backlog = int(min(backlog, somaxconn))
	return 0, 0
}

// unixTarget finds the socket of the process bound at the address b
// (nil: none). A path that is no socket file gives its error (ENOENT,
// ECONNREFUSED), as unix_find_bsd does.
func (k *Kernel) unixTarget(b []byte) (*openFile, Errno) {
	if len(b) == 2 {
		return nil, EINVAL
	}
	if b[2] == 0 {
		return k.all.unixNames["@"+string(b[2:])], 0
	}
	p, _, _ := strings.Cut(string(b[2:]), "\x00")
	s, e := k.hostStatAt(p, true)
	if e != 0 {
		return nil, e
	}
	if s.mode&sIFMT != sIFSOCK {
		return nil, ECONNREFUSED
	}
	if t := k.all.unixNames[unixFileKey(s)]; t != nil {
		return t, 0
	}
	k.warnOnce("connect "+p, "rvsim: warning: connect to the socket %s returns ECONNREFUSED: no socket of the run is bound to it (the host's are not the guest's)", p)
	return nil, 0
}

// unixConnect connects an AF_UNIX socket to the listener at the address.
func (k *Kernel) unixConnect(of *openFile, addr, n uint64) (uint64, Errno) {
	if of.sockType == sockDgram && n >= 2 {
		if b, e := k.readMem(addr, 2); e == 0 && b[0] == afUnspec && b[1] == 0 {
			of.udpeer, of.upeer = nil, nil // dissolve the association
			return 0, 0
		}
	}
	b, e := k.readUnixAddr(addr, n)
	if e != 0 {
		return 0, e
	}
	l, e := k.unixTarget(b)
	if e != 0 {
		return 0, e
	}
	if l == nil {
		return 0, ECONNREFUSED
	}
	if of.sockType == sockDgram {
		if l.sockType != sockDgram {
			return 0, EPROTOTYPE
		}
		of.udpeer, of.upeer = l, l.uaddr
		return 0, 0
	}
	if l.sockType == sockDgram {
		return 0, EPROTOTYPE
	}
	if of.ul != nil {
		return 0, EINVAL
	}
	if l.sockType != of.sockType {
		return 0, EPROTOTYPE
	}
	if l.ul == nil {
		return 0, ECONNREFUSED
	}
	if len(l.ul.queue) > l.ul.backlog {
		if of.flags&oNonblock != 0 {
			return 0, EAGAIN
		}
		return 0, k.blockedIO("socket connect")
	}
	up := &pipe{readers: 1, writers: 1, ino: k.nextIno()} // of sends, the new end receives
	down := &pipe{readers: 1, writers: 1, ino: k.nextIno()}
	if of.sockType != sockStream {
		up.msgs, down.msgs = []int{}, []int{}
	}
	ino := k.nextIno()
	srv := &openFile{kind: kindSocket, guest: fmt.Sprintf("socket:[%d]", ino), flags: oRdwr, sockType: of.sockType,
		sockIno: ino, rx: up, tx: down, uaddr: l.uaddr, upeer: of.uaddr}
	of.rx, of.tx, of.upeer = down, up, l.uaddr
	of.upair, srv.upair = srv, of
	l.ul.queue = append(l.ul.queue, srv)
	l.ul.gens[wakeIn]++
	k.ioWake()
	return 0, 0
}

// unixAccept takes a connection from a listening AF_UNIX socket.
func (k *Kernel) unixAccept(of *openFile, addr, lenAddr uint64, flags uint32) (uint64, Errno) {
	if of.sockType == sockDgram {
		return 0, EOPNOTSUPP
	}
	if of.ul == nil {
		return 0, EINVAL
	}
	deadline := of.rcvTimeo.deadline(k)
	for len(of.ul.queue) == 0 {
		if of.flags&oNonblock != 0 {
			return 0, EAGAIN
		}
		if e := k.blockedIOUntil("socket accept", deadline); e != 0 {
			return 0, e
		}
	}
	srv := of.ul.queue[0]
	srv.flags = oRdwr | flags&sockNonblock
	fd, e := k.install(srv, flags&sockCloexec != 0, 0)
	if e != 0 {
		return 0, e
	}
	of.ul.queue = of.ul.queue[1:]
	k.ioWake() // connects waiting for room
	if addr != 0 {
		peer := srv.upeer
		if peer == nil {
			peer = unnamedUnix
		}
		if e := k.putSockaddr(addr, lenAddr, peer); e != 0 {
			k.closeFD(int32(fd))
			return 0, e
		}
	}
	return fd, 0
}

// unixClose releases a named AF_UNIX socket's name and its listener's
// queued connections (their peers see ECONNRESET once, then end of
// file). The socket file stays, as on Linux.
func (k *Kernel) unixClose(of *openFile) {
	if of.ukey != "" && k.all.unixNames[of.ukey] == of {
		delete(k.all.unixNames, of.ukey)
	}
	if of.uhold != nil {
		of.uhold.Close()
		of.uhold = nil
	}
	if of.ul != nil {
		for _, srv := range of.ul.queue {
			srv.releasePair(true)
			srv.shutdown(shutRcv | shutSnd)
		}
		of.ul.queue = nil
		of.ul.gens[wakeAny]++
	}
	k.ioWake()
}

// unixDgramSend sends a datagram from an AF_UNIX socket that is no
// socketpair end to the socket bound at addr, or to its connect's.
func (k *Kernel) unixDgramSend(of *openFile, data []byte, flags uint32, addr, n uint64, anc *ancillary) (int, Errno) {
	if flags&msgOOB != 0 {
		return 0, EOPNOTSUPP
	}
	t := of.udpeer
	if addr != 0 {
		b, e := k.readUnixAddr(addr, n)
		if e != 0 {
			return 0, e
		}
		if t, e = k.unixTarget(b); e != 0 {
			return 0, e
		}
	} else if t == nil {
		return 0, ENOTCONN
	}
	if t != nil && t.refs == 0 && t == of.udpeer { // closed since: forgotten after this answer
		of.udpeer, of.upeer = nil, nil
	}
	switch {
	case t == nil || t.refs == 0: // none, or closed since
		return 0, ECONNREFUSED
	case t.sockType != sockDgram:
		return 0, EPROTOTYPE
	case t.udpeer != nil && t.udpeer != of: // unix_may_send
		return 0, EPERM
	case len(data) > sockCapacity:
		return 0, EMSGSIZE
	}
	deadline := of.sndTimeo.deadline(k)
	for len(t.uin.buf)+len(data) > sockCapacity {
		if of.flags&oNonblock != 0 || flags&msgDontwait != 0 {
			return 0, EAGAIN
		}
		if e := k.blockedIOUntil("socket write", deadline); e != 0 {
			return 0, e
		}
	}
	t.uin.msgs = append(t.uin.msgs, len(data))
	t.ufrom = append(t.ufrom, of.uaddr)
	k.filled(t.uin, data)
	anc.queueRights(t.uin, 0)
	return len(data), 0
}
