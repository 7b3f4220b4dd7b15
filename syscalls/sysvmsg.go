package syscalls

import "slices"

// System V message queues (ipc/msg.c): msgget, msgsnd, msgrcv, msgctl,
// the run's queues (sysvIPC.msg), as Linux keeps them:
//   - a queue holds at most msg_qbytes bytes of text and as many
//     messages; a sender waits for room (IPC_NOWAIT: EAGAIN), looking
//     again each time a message leaves or IPC_SET changes the queue;
//   - msgrcv takes the first message of the type it asks for (0: any;
//     > 0: that type, or with MSG_EXCEPT any other; < 0: the lowest type
//     up to its absolute value), E2BIG when the text is longer than the
//     buffer unless MSG_NOERROR truncates it; MSG_COPY (with IPC_NOWAIT)
//     copies the message at an index and leaves it;
//   - a receiver that waits is handed a message the moment one it wants
//     is sent, in the order the receivers came (pipelined_send); one
//     whose buffer is too small is woken with E2BIG instead and the
//     message goes on to the next, or to the queue;
//   - a wait ends with a signal (ERESTARTNOHAND: EINTR if a handler ran,
//     else restarted) or the queue's removal (EIDRM);
//   - a message carries the sender's time on the run's clock, which its
//     receiver catches up with, as a pipe's bytes do.

// msgsnd and msgrcv flags and msgctl commands (uapi/linux/msg.h).
const (
	msgNoerror = 0o10000
	msgExcept  = 0o20000
	msgCopy    = 0o40000
	msgStat    = 11
	msgInfo    = 12
	msgStatAny = 13

	// Linux's defaults (MSGMAX, MSGMNB, MSGMNI, MSGSSZ, MSGSEG, MSGPOOL).
	msgMax  = 8192
	msgMnb  = 16384
	msgMni  = 32000
	msgSsz  = 16
	msgSeg  = 0xffff
	msgPool = msgMni * msgMnb / 1024

	msqidDsSize = 120 // struct msqid64_ds (asm-generic, 64-bit)
)

// msgQueue is one queue (msg_queue).
type msgQueue struct {
	ipcPerm
	msgs                []*sysvMsg
	cbytes, qbytes      uint64
	stime, rtime, ctime int64
	lspid, lrpid        int32
	receivers           []*msgReceiver // waiting, in the order they came
	gen                 uint64         // counts the changes a waiting sender looks again at
	removed             bool
}

// sysvMsg is one message, and the monotonic time it was sent at.
type sysvMsg struct {
	typ  int64
	text []byte
	at   int64
}

// msgReceiver is a waiting msgrcv (msg_receiver).
type msgReceiver struct {
	k       *Kernel
	typ     int64
	mode    msgSearch
	maxSize uint64
	msg     *sysvMsg // handed over
	err     Errno    // E2BIG: what came was too long for it
}

// msgSearch is how msgrcv's type selects a message.
type msgSearch uint8

const (
	searchAny msgSearch = iota
	searchEqual
	searchNotEqual
	searchLessEqual
	searchNumber
)

// searchMode is convert_mode: the search msgrcv's type and flags ask for,
// and the type it compares with.
func searchMode(typ int64, flags uint32) (msgSearch, int64) {
	switch {
	case flags&msgCopy != 0:
		return searchNumber, typ
	case typ == 0:
		return searchAny, 0
	case typ < 0:
		if typ == -1<<63 {
			return searchLessEqual, 1<<63 - 1
		}
		return searchLessEqual, -typ
	case flags&msgExcept != 0:
		return searchNotEqual, typ
	}
	return searchEqual, typ
}

// wants is testmsg.
func (m *sysvMsg) wants(typ int64, mode msgSearch) bool {
	switch mode {
	case searchLessEqual:
		return m.typ <= typ
	case searchEqual:
		return m.typ == typ
	case searchNotEqual:
		return m.typ != typ
	}
	return true
}

// find is find_msg: the index of the message a receiver takes (-1:
// none).
func (q *msgQueue) find(typ int64, mode msgSearch) int {
	found, count := -1, int64(0)
	for i, m := range q.msgs {
		if !m.wants(typ, mode) {
			continue
		}
		switch {
		case mode == searchLessEqual && m.typ != 1:
			typ, found = m.typ-1, i
		case mode == searchNumber:
			if count == typ {
				return i
			}
		default:
			return i
		}
		count++
	}
	return found
}

// fits is msg_fits_inqueue.
func (q *msgQueue) fits(size uint64) bool {
	return size+q.cbytes <= q.qbytes && 1+uint64(len(q.msgs)) <= q.qbytes
}

func sysMsgget(k *Kernel, a sysArgs) (uint64, Errno) {
	return ipcGet(k, &k.all.sysv().msg, a.Int(0), a.Uint(1), func(*msgQueue) Errno { return 0 },
		func(p ipcPerm) (*msgQueue, Errno) {
			return &msgQueue{ipcPerm: p, qbytes: msgMnb, ctime: k.realSeconds()}, 0
		})
}

func sysMsgsnd(k *Kernel, a sysArgs) (uint64, Errno) {
	id, addr, size, flags := a.Int(0), a.Ptr(1), a.Ptr(2), a.Uint(3)
	b, e := k.readMem(addr, 8)
	if e != 0 {
		return 0, e
	}
	typ := int64(le64(b))
	if size > msgMax || id < 0 || typ < 1 {
		return 0, EINVAL
	}
	text, e := k.readMem(addr+8, size)
	if e != 0 {
		return 0, e
	}
	q, e := k.all.sysv().msg.byID(id)
	if e != 0 {
		return 0, e
	}
	for {
		if !k.ipcAllowed(&q.ipcPerm, wOK) {
			return 0, EACCES
		}
		if q.removed {
			return 0, EIDRM
		}
		if q.fits(size) {
			break
		}
		if flags&ipcNowait != 0 {
			return 0, EAGAIN
		}
		gen := q.gen
		r, e := k.ipcWait("msgsnd", -1, func() bool { return q.gen != gen }, func(why waitResult) (uint64, Errno) {
			if why == waitReady {
				return 0, errRestartNoIntr // look again (as the loop does)
			}
			return 0, k.interrupted()
		})
		switch {
		case e == errBlocked:
			return r, e
		case e != errRestartNoIntr:
			return 0, e
		}
	}
	q.lspid, q.stime = k.pid, k.realSeconds()
	m := &sysvMsg{typ: typ, text: slices.Clone(text), at: k.monoNS()}
	if !q.handOver(k, m) {
		q.msgs = append(q.msgs, m)
		q.cbytes += size
	}
	k.ioWake()
	return 0, 0
}

// handOver is pipelined_send: m goes to the first waiting receiver that
// wants it, one whose buffer is too small woken with E2BIG on the way.
func (q *msgQueue) handOver(k *Kernel, m *sysvMsg) bool {
	for i := 0; i < len(q.receivers); i++ {
		r := q.receivers[i]
		if !m.wants(r.typ, r.mode) {
			continue
		}
		q.receivers = slices.Delete(q.receivers, i, i+1)
		i--
		if r.maxSize < uint64(len(m.text)) {
			r.err = E2BIG
			continue
		}
		q.lrpid, q.rtime = r.k.pid, k.realSeconds()
		r.msg = m
		return true
	}
	return false
}

func sysMsgrcv(k *Kernel, a sysArgs) (uint64, Errno) {
	id, addr, size, typ, flags := a.Int(0), a.Ptr(1), a.Ptr(2), int64(a.Ptr(3)), a.Uint(4)
	if id < 0 || int64(size) < 0 {
		return 0, EINVAL
	}
	if flags&msgCopy != 0 && (flags&msgExcept != 0 || flags&ipcNowait == 0) {
		return 0, EINVAL
	}
	mode, typ := searchMode(typ, flags)
	q, e := k.all.sysv().msg.byID(id)
	if e != 0 {
		return 0, e
	}
	for {
		if !k.ipcAllowed(&q.ipcPerm, rOK) {
			return 0, EACCES
		}
		if q.removed {
			return 0, EIDRM
		}
		if i := q.find(typ, mode); i >= 0 {
			m := q.msgs[i]
			if size < uint64(len(m.text)) && flags&msgNoerror == 0 {
				return 0, E2BIG
			}
			if flags&msgCopy == 0 {
				q.msgs = slices.Delete(q.msgs, i, i+1)
				q.cbytes -= uint64(len(m.text))
				q.lrpid, q.rtime = k.pid, k.realSeconds()
				q.gen++
				k.ioWake()
			}
			return k.deliverMsg(m, addr, size)
		}
		if flags&ipcNowait != 0 {
			return 0, ENOMSG
		}
		r := &msgReceiver{k: k, typ: typ, mode: mode, maxSize: size}
		if flags&msgNoerror != 0 {
			r.maxSize = 1<<31 - 1
		}
		q.receivers = append(q.receivers, r)
		gen := q.gen
		ready := func() bool { return r.msg != nil || r.err != 0 || q.removed || q.gen != gen }
		n, e := k.ipcWait("msgrcv", -1, ready, func(why waitResult) (uint64, Errno) {
			switch {
			case r.msg != nil:
				return k.deliverMsg(r.msg, addr, size)
			case r.err != 0:
				return 0, r.err
			}
			q.receivers = slices.DeleteFunc(q.receivers, func(x *msgReceiver) bool { return x == r })
			switch {
			case q.removed:
				return 0, EIDRM
			case why == waitReady:
				return 0, errRestartNoIntr // look again (as the loop does)
			}
			return 0, k.interrupted()
		})
		if e != errRestartNoIntr || k.multi() {
			return n, e
		}
	}
}

// interrupted is a message queue wait's end for a signal,
// ERESTARTNOHAND, or EINTR when nothing else could end the wait.
func (k *Kernel) interrupted() Errno {
	if k.deliverable(0) {
		return errRestartNoHand
	}
	return EINTR
}

// deliverMsg is do_msg_fill: m's type and up to size bytes of its text
// at addr; the receiver catches up with the time it was sent at.
func (k *Kernel) deliverMsg(m *sysvMsg, addr, size uint64) (uint64, Errno) {
	k.catchUp(m.at)
	var b [8]byte
	put64(b[:], 0, uint64(m.typ))
	if e := k.writeMem(addr, b[:]); e != 0 {
		return 0, e
	}
	n := min(size, uint64(len(m.text)))
	return n, k.writeMem(addr+8, m.text[:n])
}

func sysMsgctl(k *Kernel, a sysArgs) (uint64, Errno) {
	id, cmd, buf := a.Int(0), a.Int(1), a.Ptr(2)
	if id < 0 || cmd < 0 {
		return 0, EINVAL
	}
	ids := &k.all.sysv().msg
	switch cmd {
	case ipcInfo, msgInfo:
		b := make([]byte, 32) // struct msginfo
		pool, msgmap, tql := msgPool, msgMnb, msgMnb
		if cmd == msgInfo {
			pool, msgmap, tql = ids.inUse(), 0, 0
			ids.each(func(q *msgQueue) { msgmap, tql = msgmap+len(q.msgs), tql+int(q.cbytes) })
		}
		for i, v := range []int{pool, msgmap, msgMax, msgMnb, msgMni, msgSsz, tql} {
			put32(b, 4*i, uint32(v)) // msgpool, msgmap, msgmax, msgmnb, msgmni, msgssz, msgtql
		}
		put16(b, 28, msgSeg)
		if e := k.writeMem(buf, b); e != 0 {
			return 0, e
		}
		return uint64(ids.highest()), 0
	case msgStat, msgStatAny:
		return ipcStatIndex(k, ids, id, cmd == msgStatAny, buf, (*msgQueue).msqidDs)
	case ipcStat, ipcSet, ipcRmid:
	default:
		return 0, EINVAL
	}
	var in []byte
	if cmd == ipcSet {
		var e Errno
		if in, e = k.readMem(buf, msqidDsSize); e != 0 {
			return 0, e
		}
	}
	q, e := ids.byID(id)
	if e != 0 {
		return 0, e
	}
	switch cmd {
	case ipcStat:
		if !k.ipcAllowed(&q.ipcPerm, rOK) {
			return 0, EACCES
		}
		return 0, k.writeMem(buf, q.msqidDs())
	}
	if !k.ipcOwner(&q.ipcPerm) {
		return 0, EPERM
	}
	if cmd == ipcSet {
		qbytes := le64(in[88:])
		if qbytes > msgMnb && !k.cred.capable(capSysResource) {
			return 0, EPERM
		}
		q.setPerm(in)
		q.qbytes, q.ctime = qbytes, k.realSeconds()
	} else { // IPC_RMID (freeque)
		q.removed = true
		ids.remove(q)
	}
	q.gen++ // (the waiting receivers and senders look again)
	q.receivers = nil
	k.ioWake()
	return 0, 0
}

// msqidDs encodes struct msqid64_ds for q.
func (q *msgQueue) msqidDs() []byte {
	b := make([]byte, msqidDsSize)
	q.putPerm(b)
	put64(b, 48, uint64(q.stime))
	put64(b, 56, uint64(q.rtime))
	put64(b, 64, uint64(q.ctime))
	put64(b, 72, q.cbytes)
	put64(b, 80, uint64(len(q.msgs)))
	put64(b, 88, q.qbytes)
	put32(b, 96, uint32(q.lspid))
	put32(b, 100, uint32(q.lrpid))
	return b
}
