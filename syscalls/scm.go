package syscalls

// Ancillary data on AF_UNIX sockets (net/core/scm.c, net/unix/af_unix.c):
// descriptors passed with SCM_RIGHTS. sendmsg takes a reference to each
// open file its control message names; the files travel with the data,
// and recvmsg installs them as new descriptors of the receiver and writes
// an SCM_RIGHTS control message, as scm_detach_fds does: as many as the
// control buffer holds, the rest closed and MSG_CTRUNC set. A read, recv
// or recvmsg without room for them closes them too. A message carries its
// sender's descriptors whole; on a stream they ride with the bytes of the
// sendmsg that sent them, and a read stops after those bytes, so that
// descriptors from two sends never arrive in one call
// (unix_stream_read_generic). Files in flight when the receiving socket
// closes are released with it. SCM_CREDENTIALS is checked as
// scm_check_creds does and not delivered (SO_PASSCRED has no effect).

// inflight is one send's descriptors in a socket's receive queue: on a
// stream, the bytes buf[at:at+n] carry them; on a datagram or seqpacket
// socket, message msgs[at] does.
type inflight struct {
	at, n int
	files []*openFile
}

// Control-message constants (linux/socket.h).
const (
	cmsgHdrSize   = 16 // struct cmsghdr: cmsg_len (size_t), cmsg_level, cmsg_type
	scmRights     = 1
	scmCreds      = 2
	scmMaxFD      = 253 // SCM_MAX_FD
	msgCtrunc     = 0x8
	msgCmsgClexec = 0x40000000 // MSG_CMSG_CLOEXEC
)

func cmsgAlign(n uint64) uint64 { return (n + 7) &^ 7 }

// eachCmsg calls fn on each control message of a sendmsg's control
// buffer at control of n bytes (for_each_cmsghdr): a buffer too short for
// one header holds none; a message whose length is below its header's or
// past the buffer is EINVAL (CMSG_OK); fn's error ends the walk.
func (k *Kernel) eachCmsg(control, n uint64, fn func(level, typ int32, data []byte) Errno) Errno {
	if n > 1<<31-1 {
		return ENOBUFS
	}
	if n < cmsgHdrSize {
		return 0
	}
	buf, e := k.readMem(control, n)
	if e != 0 {
		return e
	}
	for off := uint64(0); off+cmsgHdrSize <= n; {
		clen := le64(buf[off:])
		if clen < cmsgHdrSize || clen > n-off {
			return EINVAL
		}
		level, typ := int32(u32(buf[off:], 8)), int32(u32(buf[off:], 12))
		data := buf[off+cmsgHdrSize : off+clen]
		off += cmsgAlign(clen)
		if e := fn(level, typ, data); e != 0 {
			return e
		}
	}
	return 0
}

// scmSend parses a sendmsg's control messages (__scm_send) for an AF_UNIX
// socket: the open files of SCM_RIGHTS, each referenced once more, which
// the caller passes on or releases (releaseRights).
func (k *Kernel) scmSend(control, n uint64) ([]*openFile, Errno) {
	var files []*openFile
	e := k.eachCmsg(control, n, func(level, typ int32, data []byte) Errno {
		if level != solSocket {
			return 0 // a protocol's (none for AF_UNIX)
		}
		switch typ {
		case scmRights: // scm_fp_copy
			count := len(data) / 4
			if len(files)+count > scmMaxFD {
				return EINVAL
			}
			for i := range count {
				of, e := k.file(int32(u32(data, 4*i)))
				if e != 0 {
					return EBADF
				}
				of.refs++
				files = append(files, of)
			}
			return 0
		case scmCreds:
			if len(data) != 12 { // struct ucred
				return EINVAL
			}
			return k.checkCreds(int32(u32(data, 0)), u32(data, 4), u32(data, 8))
		}
		return EINVAL
	})
	if e != 0 {
		k.releaseRights(files)
		return nil, e
	}
	return files, 0
}

// checkCreds is scm_check_creds: a process may claim its own pid (any
// with CAP_SYS_ADMIN) and its real, effective or saved ids (any with
// CAP_SETUID, CAP_SETGID).
func (k *Kernel) checkCreds(pid int32, uid, gid uint32) Errno {
	c := k.cred
	if (pid == k.pid || c.capable(capSysAdmin)) &&
		(uid == c.ruid || uid == c.euid || uid == c.suid || c.capable(capSetuid)) &&
		(gid == c.rgid || gid == c.egid || gid == c.sgid || c.capable(capSetgid)) {
		return 0
	}
	return EPERM
}

// releaseRights drops the references of descriptors that go nowhere.
func (k *Kernel) releaseRights(files []*openFile) {
	for _, of := range files {
		k.unref(of)
	}
}

// queueRights puts a send's descriptors into p beside the data just
// queued: n bytes ending at the end of buf, or the last message.
func queueRights(p *pipe, files []*openFile, n int) {
	if len(files) == 0 {
		return
	}
	if p.msgs != nil {
		p.rights = append(p.rights, inflight{at: len(p.msgs) - 1, files: files})
		return
	}
	p.rights = append(p.rights, inflight{at: len(p.buf) - n, n: n, files: files})
}

// ancillary is what a sendmsg's control messages ask for: descriptors
// to pass (AF_UNIX) or a datagram's IP header fields (inetcmsg.go).
type ancillary struct {
	rights []*openFile
	ip     ipAnc
}

// queueRights queues a's descriptors (if any) beside the data just
// queued in p, as queueRights does, and takes them from a.
func (a *ancillary) queueRights(p *pipe, n int) {
	if a == nil || len(a.rights) == 0 {
		return
	}
	queueRights(p, a.rights, n)
	a.rights = nil
}

// streamLimit is how many of want bytes at the head of stream p one
// receive may take: up to the end of the first bytes that carry
// descriptors.
func (p *pipe) streamLimit(want int) int {
	if len(p.rights) > 0 && p.rights[0].at < want {
		return min(want, p.rights[0].at+p.rights[0].n)
	}
	return want
}

// takeRights returns the descriptors that arrive with a receive of
// taken bytes (a stream) or of the head message, and moves the others'
// places; with peek the descriptors stay queued and the receiver gets
// references of its own (unix_peek_fds).
func (p *pipe) takeRights(taken int, peek bool) []*openFile {
	if len(p.rights) == 0 {
		return nil
	}
	r := p.rights[0]
	arrives := r.at < max(taken, 1) && (p.msgs == nil || r.at == 0)
	if peek {
		if !arrives {
			return nil
		}
		for _, of := range r.files {
			of.refs++
		}
		return r.files
	}
	var got []*openFile
	if arrives {
		got, p.rights = r.files, p.rights[1:]
	}
	shift := taken // bytes before the others
	if p.msgs != nil {
		shift = 1 // one message
	}
	for i := range p.rights {
		p.rights[i].at -= shift
	}
	if len(p.rights) == 0 {
		p.rights = nil
	}
	return got
}

// dropQueuedRights releases the descriptors in flight in a receive queue
// no one will read (its socket closed).
func (k *Kernel) dropQueuedRights(p *pipe) {
	rs := p.rights
	p.rights = nil
	for _, r := range rs {
		k.releaseRights(r.files)
	}
}

// scmReceive installs received descriptors for recvmsg (scm_detach_fds)
// and writes their SCM_RIGHTS message into the control buffer at control
// of room bytes. It returns the control bytes used and MSG_CTRUNC when
// some did not fit; every reference the message held is dropped.
func (k *Kernel) scmReceive(files []*openFile, control, room uint64, flags uint32) (used uint64, outFlags uint32, e Errno) {
	if len(files) == 0 {
		return 0, 0, 0
	}
	defer k.releaseRights(files)
	fit := 0
	if room >= cmsgHdrSize {
		fit = min(len(files), int((room-cmsgHdrSize)/4))
	}
	msg := make([]byte, cmsgHdrSize+4*fit)
	installed := 0
	for _, of := range files[:fit] {
		fd, e := k.install(of, flags&msgCmsgClexec != 0, 0)
		if e != 0 {
			break // EMFILE: the rest are closed (MSG_CTRUNC)
		}
		put32(msg, cmsgHdrSize+4*installed, uint32(fd))
		installed++
	}
	if installed < len(files) {
		outFlags = msgCtrunc
	}
	if installed == 0 {
		return 0, outFlags, 0
	}
	clen := uint64(cmsgHdrSize + 4*installed)
	put64(msg, 0, clen)
	put32(msg, 8, solSocket)
	put32(msg, 12, scmRights)
	if e := k.writeMem(control, msg[:clen]); e != 0 {
		return 0, 0, e
	}
	return min(cmsgAlign(clen), room), outFlags, 0
}
