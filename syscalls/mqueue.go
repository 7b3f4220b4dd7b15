package syscalls

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// POSIX message queues (ipc/mqueue.c): mq_open, mq_unlink, mq_timedsend,
// mq_timedreceive, mq_notify and mq_getsetattr, on the run's queues
// (sysvIPC.mq: one IPC namespace per run, as for System V IPC):
//   - a queue is made by mq_open with O_CREAT, its attributes checked
//     against the namespace's limits (msg_max and msgsize_max, or the
//     hard limits for root) and its bytes charged to the creator's
//     RLIMIT_MSGQUEUE as mqueue_get_inode counts them; the namespace
//     holds at most queues_max;
//   - its descriptor is always close-on-exec (do_mq_open's
//     get_unused_fd_flags(O_CLOEXEC)); a read returns the QSIZE line,
//     poll reports room and messages; the queue outlives mq_unlink until
//     its last open file description closes;
//   - messages leave by priority, highest first, in the order sent
//     within one (msg_insert, msg_get);
//   - a receiver that waits is handed a message the moment one is sent,
//     and a sender that waits has its message put in the queue the
//     moment a receiver makes room (pipelined_send, pipelined_receive),
//     the waiters served in the order they came;
//   - a wait ends at its absolute CLOCK_REALTIME timeout (ETIMEDOUT) or
//     with a signal (ERESTARTSYS: restarted after an SA_RESTART handler);
//   - mq_notify registers one process, notified (a signal with SI_MESGQ,
//     or glibc's SIGEV_THREAD cookie on its netlink socket) when a
//     message arrives in an empty queue with no receiver waiting, and
//     then unregistered; any close of a descriptor of the queue by that
//     process unregisters it too (mqueue_flush_file).

// Limits (include/linux/ipc_namespace.h, mqueue.c).
const (
	mqQueuesMax      = 256      // DFLT_QUEUESMAX
	mqMsgMax         = 10       // DFLT_MSGMAX
	mqMsgsizeMax     = 8192     // DFLT_MSGSIZEMAX
	mqMsgDefault     = 10       // DFLT_MSG
	mqMsgsizeDefault = 8192     // DFLT_MSGSIZE
	mqHardMsgMax     = 65536    // HARD_MSGMAX
	mqHardMsgsizeMax = 16 << 20 // HARD_MSGSIZEMAX
	mqPrioMax        = 32768    // MQ_PRIO_MAX
	mqFilentSize     = 80       // FILENT_SIZE: a queue file's st_size

	// sizeof(struct msg_msg) and sizeof(struct posix_msg_tree_node) on a
	// 64-bit kernel, for the RLIMIT_MSGQUEUE charge.
	mqMsgHeader = 48
	mqTreeNode  = 48
	mqAttrSize  = 64 // struct mq_attr: four longs and four reserved
	rlimitMsgq  = 12 // RLIMIT_MSGQUEUE
	mqCookieLen = 32 // NOTIFY_COOKIE_LEN
	mqWokenUp   = 1  // NOTIFY_WOKENUP
	mqRemoved   = 2  // NOTIFY_REMOVED
	sigevThread = 2  // SIGEV_THREAD
	siMesgq     = -3 // SI_MESGQ
)

var mqueueDev = makedev(0, 19)

// mqueue is one queue (mqueue_inode_info).
type mqueue struct {
	name            string
	ino             uint64
	uid, gid, mode  uint32
	maxmsg, msgsize int64
	msgs            []*mqMsg // highest priority first, in the order sent within one
	qsize           uint64   // the bytes of text queued
	receivers       []*mqWaiter
	senders         []*mqWaiter
	notify          *mqNotify
	opens           int  // open file descriptions
	linked          bool // still has its name
	charged         uint32
	cost            uint64 // the bytes charged to user charged
	gens            wakeGens
	mtime           int64 // its last change (mtime, ctime and atime alike), seconds
}

// mqMsg is one message, and the monotonic time it was sent at.
type mqMsg struct {
	prio uint32
	text []byte
	at   int64
}

// mqWaiter is a waiting mq_timedreceive (msg is what it is handed) or
// mq_timedsend (msg is what it sends; done once it is in the queue).
type mqWaiter struct {
	msg  *mqMsg
	done bool
}

// mqNotify is a registration of mq_notify (notify, notify_owner).
type mqNotify struct {
	owner  *Kernel
	how    int32 // SIGEV_NONE, SIGEV_SIGNAL or SIGEV_THREAD
	signo  int32
	value  uint64
	sock   *openFile // SIGEV_THREAD: the netlink socket, and its cookie
	cookie []byte
}

// mqOpen is an open file description of a queue.
type mqOpen struct {
	q   *mqueue
	pos int64 // the read position in the QSIZE line
}

// mqSpace is the run's queues (the mqueue file system of its IPC
// namespace).
type mqSpace struct {
	byName  map[string]*mqueue
	count   int
	charged map[uint32]uint64 // user_struct's mq_bytes, by uid
	nextIno uint64
}

func (l *procList) mqueues() *mqSpace {
	s := &l.sysv().mq
	if s.byName == nil {
		s.byName, s.charged, s.nextIno = map[string]*mqueue{}, map[uint32]uint64{}, 1
	}
	return s
}

// mqName reads a queue's name (glibc passes it without its leading
// slash) as lookup_one_len takes it.
func (k *Kernel) mqName(addr uint64) (string, Errno) {
	name, e := k.readPath(addr)
	switch {
	case e != 0:
		return "", e
	case name == "":
		return "", ENOENT
	case name == "." || name == ".." || strings.ContainsRune(name, '/'):
		return "", EACCES
	case len(name) > 255:
		return "", ENAMETOOLONG
	}
	return name, 0
}

func sysMqOpen(k *Kernel, a sysArgs) (uint64, Errno) {
	flags, mode, attrAddr := a.Uint(1), a.Uint(2), a.Ptr(3)
	var attr []byte
	if attrAddr != 0 {
		var e Errno
		if attr, e = k.readMem(attrAddr, mqAttrSize); e != 0 {
			return 0, e
		}
	}
	name, e := k.mqName(a.Ptr(0))
	if e != 0 {
		return 0, e
	}
	// The descriptor is taken first (EMFILE before anything is made) and
	// is always close-on-exec (get_unused_fd_flags(O_CLOEXEC)).
	of := &openFile{kind: kindMqueue, guest: "/" + name, flags: flags&(oAccMode|oNonblock) | oLargefile}
	fd, e := k.install(of, true, 0)
	if e != 0 {
		return 0, e
	}
	q, e := k.mqLookup(name, flags, mode, attr)
	if e != 0 {
		k.fds[fd] = nil
		return 0, e
	}
	of.mq = &mqOpen{q: q}
	q.opens++
	return fd, 0
}

// mqLookup is prepare_open: the queue name names, made if need be.
func (k *Kernel) mqLookup(name string, flags, mode uint32, attr []byte) (*mqueue, Errno) {
	s := k.all.mqueues()
	q := s.byName[name]
	switch {
	case q == nil && flags&oCreat == 0:
		return nil, ENOENT
	case q == nil:
		return k.mqCreate(s, name, mode&^k.umask&0o7777, attr)
	case flags&(oCreat|oExcl) == oCreat|oExcl:
		return nil, EEXIST
	case flags&oAccMode == oAccMode:
		return nil, EINVAL
	case !k.mqAllowed(q, [3]uint32{rOK, wOK, rOK | wOK}[flags&oAccMode]):
		return nil, EACCES
	}
	return q, 0
}

// mqCreate is mqueue_create_attr and mqueue_get_inode: the queue name
// gets, with attr's mq_maxmsg and mq_msgsize (nil: the defaults).
func (k *Kernel) mqCreate(s *mqSpace, name string, mode uint32, attr []byte) (*mqueue, Errno) {
	root := k.cred.capable(capSysResource)
	if s.count >= mqQueuesMax && !root {
		return nil, ENOSPC
	}
	maxmsg, msgsize := int64(min(mqMsgMax, mqMsgDefault)), int64(min(mqMsgsizeMax, mqMsgsizeDefault))
	if attr != nil {
		maxmsg, msgsize = int64(le64(attr[8:])), int64(le64(attr[16:]))
	}
	if maxmsg <= 0 || msgsize <= 0 {
		return nil, EINVAL
	}
	if root && (maxmsg > mqHardMsgMax || msgsize > mqHardMsgsizeMax) || !root && (maxmsg > mqMsgMax || msgsize > mqMsgsizeMax) {
		return nil, EINVAL
	}
	cost := uint64(maxmsg)*(mqMsgHeader+uint64(msgsize)) + uint64(min(maxmsg, mqPrioMax))*mqTreeNode
	uid := k.cred.ruid // (current_user(): the real uid's user_struct)
	if s.charged[uid]+cost > k.rlim[rlimitMsgq].cur {
		return nil, EMFILE
	}
	s.charged[uid] += cost
	s.count++
	now := k.realSeconds()
	q := &mqueue{name: name, ino: s.nextIno, uid: k.cred.fsuid, gid: k.cred.fsgid, mode: mode,
		maxmsg: maxmsg, msgsize: msgsize, linked: true, charged: uid, cost: cost, mtime: now}
	s.nextIno++
	s.byName[name] = q
	return q, 0
}

// mqAllowed is inode_permission on the queue's file.
func (k *Kernel) mqAllowed(q *mqueue, want uint32) bool {
	c := &k.cred
	if c.capable(capDacOverride) {
		return true
	}
	bits := q.mode & 7
	switch {
	case c.fsuid == q.uid:
		bits = q.mode >> 6 & 7
	case c.fsgid == q.gid || slices.Contains(c.groups, q.gid):
		bits = q.mode >> 3 & 7
	}
	return bits&want == want
}

func sysMqUnlink(k *Kernel, a sysArgs) (uint64, Errno) {
	name, e := k.mqName(a.Ptr(0))
	if e != 0 {
		return 0, e
	}
	s := k.all.mqueues()
	q := s.byName[name]
	if q == nil {
		return 0, ENOENT
	}
	// The mqueue root is sticky and writable by all (may_delete): only
	// the queue's owner or root removes it.
	if k.cred.fsuid != 0 && k.cred.fsuid != q.uid {
		return 0, EACCES
	}
	delete(s.byName, name)
	q.linked = false
	k.mqFree(q)
	return 0, 0
}

// mqFree is mqueue_evict_inode, once the queue has neither a name nor an
// open file description: its charge goes back.
func (k *Kernel) mqFree(q *mqueue) {
	if q.linked || q.opens > 0 {
		return
	}
	s := k.all.mqueues()
	s.charged[q.charged] -= q.cost
	s.count--
	q.msgs, q.qsize = nil, 0
}

// mqFile returns the queue behind fd (EBADF for any other file).
func (k *Kernel) mqFile(fd int32) (*openFile, *mqueue, Errno) {
	of, e := k.file(fd)
	if e != 0 {
		return nil, nil, e
	}
	if of.kind != kindMqueue {
		return nil, nil, EBADF
	}
	return of, of.mq.q, 0
}

// mqDeadline reads an absolute CLOCK_REALTIME timeout (prepare_timeout:
// EINVAL when not a valid time) as a monotonic deadline (< 0: none).
func (k *Kernel) mqDeadline(addr uint64) (int64, Errno) {
	if addr == 0 {
		return -1, 0
	}
	b, e := k.readMem(addr, timespecSize)
	if e != 0 {
		return 0, e
	}
	sec, nsec := int64(le64(b)), int64(le64(b[8:]))
	if sec < 0 || nsec < 0 || nsec >= 1e9 {
		return 0, EINVAL
	}
	real, _ := k.now(clockRealtime)
	return max(sec*1e9+nsec-(real-k.monoNS()), 0), 0
}

// mqWait waits for ready, until deadline: ETIMEDOUT when it passes, a
// signal ERESTARTSYS (EINTR when nothing could end the wait).
func (k *Kernel) mqWait(what string, deadline int64, ready func() bool, done func() (uint64, Errno), cancel func()) (uint64, Errno) {
	return k.ipcWait(what, deadline, ready, func(why waitResult) (uint64, Errno) {
		if ready() {
			return done()
		}
		cancel()
		switch {
		case why == waitTimeout:
			return 0, ETIMEDOUT
		case k.deliverable(0):
			return 0, errRestartSys
		}
		return 0, EINTR
	})
}

// mqTransfer is what mq_timedsend and mq_timedreceive check first, in
// Linux's order: the timeout, the descriptor (a queue's, open for
// sending or receiving: EBADF) and size against mq_msgsize (EMSGSIZE: a
// message longer, or a buffer shorter).
func (k *Kernel) mqTransfer(a sysArgs, send bool) (of *openFile, q *mqueue, deadline int64, e Errno) {
	if deadline, e = k.mqDeadline(a.Ptr(4)); e != 0 {
		return nil, nil, 0, e
	}
	if send && a.Uint(3) >= mqPrioMax {
		return nil, nil, 0, EINVAL
	}
	if of, q, e = k.mqFile(a.Int(0)); e != 0 {
		return nil, nil, 0, e
	}
	size := a.Ptr(2)
	switch {
	case send && !of.canWrite(), !send && !of.canRead():
		return nil, nil, 0, EBADF
	case send && size > uint64(q.msgsize), !send && size < uint64(q.msgsize):
		return nil, nil, 0, EMSGSIZE
	}
	return of, q, deadline, 0
}

func sysMqTimedsend(k *Kernel, a sysArgs) (uint64, Errno) {
	addr, size, prio := a.Ptr(1), a.Ptr(2), a.Uint(3)
	of, q, deadline, e := k.mqTransfer(a, true)
	if e != 0 {
		return 0, e
	}
	text, e := k.readMem(addr, size)
	if e != 0 {
		return 0, e
	}
	m := &mqMsg{prio: prio, text: text, at: k.monoNS()}
	if int64(len(q.msgs)) < q.maxmsg {
		q.send(k, m)
		return 0, 0
	}
	if of.flags&oNonblock != 0 {
		return 0, EAGAIN
	}
	w := &mqWaiter{msg: m}
	q.senders = append(q.senders, w)
	return k.mqWait("mq_timedsend", deadline, func() bool { return w.done },
		func() (uint64, Errno) { return 0, 0 },
		func() { q.senders = slices.DeleteFunc(q.senders, func(x *mqWaiter) bool { return x == w }) })
}

// send is the sending half of do_mq_timedsend with room in the queue:
// the first waiting receiver is handed m (pipelined_send), else m is
// queued and the registered process notified (__do_notify).
func (q *mqueue) send(k *Kernel, m *mqMsg) {
	q.mtime = k.realSeconds()
	if len(q.receivers) > 0 {
		r := q.receivers[0]
		q.receivers = q.receivers[1:]
		r.msg = m
	} else {
		q.insert(m)
		if len(q.msgs) == 1 {
			k.mqNotified(q)
		}
	}
	q.gens[wakeIn]++
	k.ioWake()
}

// insert is msg_insert: after the messages of m's priority and above.
func (q *mqueue) insert(m *mqMsg) {
	i := len(q.msgs)
	for i > 0 && q.msgs[i-1].prio < m.prio {
		i--
	}
	q.msgs = slices.Insert(q.msgs, i, m)
	q.qsize += uint64(len(m.text))
}

func sysMqTimedreceive(k *Kernel, a sysArgs) (uint64, Errno) {
	addr, prioAddr := a.Ptr(1), a.Ptr(3)
	of, q, deadline, e := k.mqTransfer(a, false)
	if e != 0 {
		return 0, e
	}
	if len(q.msgs) > 0 {
		m := q.msgs[0]
		q.msgs = q.msgs[1:]
		q.qsize -= uint64(len(m.text))
		q.mtime = k.realSeconds()
		// pipelined_receive: the first waiting sender's message takes
		// the room.
		if len(q.senders) > 0 {
			w := q.senders[0]
			q.senders = q.senders[1:]
			q.insert(w.msg)
			w.done = true
			q.gens[wakeIn]++
		}
		q.gens[wakeOut]++
		k.ioWake()
		return k.mqDeliver(m, addr, prioAddr)
	}
	if of.flags&oNonblock != 0 {
		return 0, EAGAIN
	}
	w := &mqWaiter{}
	q.receivers = append(q.receivers, w)
	return k.mqWait("mq_timedreceive", deadline, func() bool { return w.msg != nil },
		func() (uint64, Errno) { return k.mqDeliver(w.msg, addr, prioAddr) },
		func() { q.receivers = slices.DeleteFunc(q.receivers, func(x *mqWaiter) bool { return x == w }) })
}

// mqDeliver writes m's priority (if asked) and text; the receiver
// catches up with the time it was sent at.
func (k *Kernel) mqDeliver(m *mqMsg, addr, prioAddr uint64) (uint64, Errno) {
	k.catchUp(m.at)
	if prioAddr != 0 {
		if e := k.writeU32(prioAddr, m.prio); e != 0 {
			return 0, EFAULT
		}
	}
	if e := k.writeMem(addr, m.text); e != 0 {
		return 0, EFAULT
	}
	return uint64(len(m.text)), 0
}

// mqNotified is __do_notify's notification of the registered process,
// which it then unregisters.
func (k *Kernel) mqNotified(q *mqueue) {
	n := q.notify
	if n == nil {
		return
	}
	q.notify = nil
	switch n.how {
	case sigevSignal:
		if n.signo == 0 || n.owner.exited {
			return
		}
		si := makeInfo(n.signo, siMesgq)
		put32(si[:], siPidOff, uint32(k.pid))
		put32(si[:], siUIDOff, k.cred.ruid)
		put64(si[:], 24, n.value) // si_value
		n.owner.raiseProcess(int(n.signo), si)
	case sigevThread:
		k.sendCookie(n, mqWokenUp)
	}
}

// sendCookie queues a SIGEV_THREAD registration's cookie, its last byte
// code, on its netlink socket (netlink_sendskb), and lets go of the
// socket.
func (k *Kernel) sendCookie(n *mqNotify, code byte) {
	n.cookie[mqCookieLen-1] = code
	k.nlQueue(n.sock.nl, n.cookie)
	n.owner.unref(n.sock)
	n.sock = nil
}

// removeNotify is remove_notification: a SIGEV_THREAD registration's
// socket is told NOTIFY_REMOVED.
func (k *Kernel) removeNotify(q *mqueue) {
	n := q.notify
	q.notify = nil
	if n != nil && n.how == sigevThread {
		k.sendCookie(n, mqRemoved)
	}
}

func sysMqNotify(k *Kernel, a sysArgs) (uint64, Errno) {
	var n *mqNotify
	if addr := a.Ptr(1); addr != 0 {
		b, e := k.readMem(addr, sigeventSize)
		if e != 0 {
			return 0, e
		}
		n = &mqNotify{owner: k, value: le64(b), signo: int32(u32(b, 8)), how: int32(u32(b, 12))}
		switch n.how {
		case sigevNone:
		case sigevSignal:
			if uint32(n.signo) > nsig {
				return 0, EINVAL
			}
		case sigevThread:
			if n.cookie, e = k.readMem(n.value, mqCookieLen); e != 0 {
				return 0, e
			}
			sock, e := k.file(n.signo)
			switch {
			case e != 0:
				return 0, e
			case sock.kind != kindSocket:
				return 0, ENOTSOCK
			case sock.nl == nil:
				return 0, ECONNREFUSED
			}
			n.sock = sock
		default:
			return 0, EINVAL
		}
	}
	_, q, e := k.mqFile(a.Int(0))
	if e != 0 {
		return 0, e
	}
	switch {
	case n == nil:
		if q.notify != nil && q.notify.owner == k {
			k.removeNotify(q)
		}
	case q.notify != nil:
		return 0, EBUSY
	default:
		if n.sock != nil {
			n.sock.refs++ // (netlink_getsockbyfilp's reference)
		}
		q.notify = n
	}
	return 0, 0
}

func sysMqGetsetattr(k *Kernel, a sysArgs) (uint64, Errno) {
	newAddr, oldAddr := a.Ptr(1), a.Ptr(2)
	var set []byte
	if newAddr != 0 {
		var e Errno
		if set, e = k.readMem(newAddr, mqAttrSize); e != 0 {
			return 0, e
		}
		if le64(set)&^oNonblock != 0 {
			return 0, EINVAL
		}
	}
	of, q, e := k.mqFile(a.Int(0))
	if e != 0 {
		return 0, e
	}
	old := make([]byte, mqAttrSize)
	put64(old, 0, uint64(of.flags&oNonblock))
	put64(old, 8, uint64(q.maxmsg))
	put64(old, 16, uint64(q.msgsize))
	put64(old, 24, uint64(len(q.msgs)))
	if set != nil {
		of.flags = of.flags&^oNonblock | uint32(le64(set))&oNonblock
	}
	if oldAddr == 0 {
		return 0, 0
	}
	return 0, k.writeMem(oldAddr, old)
}

// mqFlush is mqueue_flush_file: any close of a descriptor of the queue
// by the registered process unregisters it.
func (k *Kernel) mqFlush(of *openFile) {
	if q := of.mq.q; q.notify != nil && q.notify.owner == k {
		k.removeNotify(q)
	}
}

// mqClose is the last close of an open file description of a queue.
func (k *Kernel) mqClose(of *openFile) {
	q := of.mq.q
	q.opens--
	k.mqFree(q)
}

// line is what a read of the queue's file returns (mqueue_read_file).
func (q *mqueue) line() []byte {
	how, signo, pid := int32(0), int32(0), int32(0)
	if n := q.notify; n != nil {
		how, pid = n.how, n.owner.pid
		if n.how == sigevSignal {
			signo = n.signo
		}
	}
	return fmt.Appendf(nil, "QSIZE:%-10d NOTIFY:%-5d SIGNO:%-5d NOTIFY_PID:%-6d\n", q.qsize, how, signo, pid)
}

// readMqueue reads the QSIZE line from the file position on.
func (k *Kernel) readMqueue(of *openFile, buf, count uint64) (uint64, Errno) {
	line := of.mq.q.line()
	if of.mq.pos >= int64(len(line)) {
		return 0, 0
	}
	b := line[of.mq.pos:]
	b = b[:min(uint64(len(b)), count)]
	if e := k.writeMem(buf, b); e != 0 {
		return 0, e
	}
	of.mq.pos += int64(len(b))
	return uint64(len(b)), 0
}

// seek is default_llseek on the queue's file, whose size is
// FILENT_SIZE (SEEK_DATA and SEEK_HOLE as for a file of that size).
func (o *mqOpen) seek(off int64, whence int) (uint64, Errno) {
	pos := off
	switch whence {
	case io.SeekCurrent:
		pos += o.pos
	case io.SeekEnd:
		pos += mqFilentSize
	case 3, 4: // SEEK_DATA, SEEK_HOLE
		if off >= mqFilentSize {
			return 0, ENXIO
		}
		if whence == 4 {
			pos = mqFilentSize
		}
	}
	if pos < 0 {
		return 0, EINVAL
	}
	o.pos = pos
	return uint64(pos), 0
}

// mqPollMask is mqueue_poll_file.
func mqPollMask(q *mqueue) uint32 {
	var m uint32
	if len(q.msgs) > 0 {
		m |= pollIn | pollRdnorm
	}
	if int64(len(q.msgs)) < q.maxmsg {
		m |= pollOut | pollWrnorm
	}
	return m
}

// stat is the queue file's metadata.
func (q *mqueue) stat() statInfo {
	nlink := uint32(0)
	if q.linked {
		nlink = 1
	}
	t := timespec{sec: q.mtime}
	return statInfo{dev: mqueueDev, ino: q.ino, mode: sIFREG | q.mode, nlink: nlink, uid: q.uid, gid: q.gid,
		size: mqFilentSize, blksize: PageSize, atime: t, mtime: t, ctime: t}
}

// procMqueueFiles are /proc/sys/fs/mqueue's limits.
var procMqueueFiles = map[string]int{
	"/proc/sys/fs/mqueue/queues_max":      mqQueuesMax,
	"/proc/sys/fs/mqueue/msg_max":         mqMsgMax,
	"/proc/sys/fs/mqueue/msgsize_max":     mqMsgsizeMax,
	"/proc/sys/fs/mqueue/msg_default":     mqMsgDefault,
	"/proc/sys/fs/mqueue/msgsize_default": mqMsgsizeDefault,
}

func init() {
	for name, v := range procMqueueFiles {
		systemFiles[name] = func(*Kernel) []byte { return []byte(strconv.Itoa(v) + "\n") }
	}
}
