package syscalls

import (
	"fmt"
	"os"
	"strconv"

	"github.com/rvsim/rvsim/mem"
)

// Kernel objects that live inside the process: pipes (pipe2), event
// counters (eventfd2) and anonymous memory files (memfd_create). A pipe
// connects the process to itself, as after pipe() in Linux: what is
// written can be read back. A read or write that would wait for another
// process waits for a signal instead; when nothing can send one, it
// fails with EINTR and a warning (the process would block forever).

// pipeCapacity is a pipe's buffer (the default of 16 pages); pipeBuf is
// PIPE_BUF, the size up to which writes are atomic.
const (
	pipeCapacity = 65536
	pipeBuf      = 4096
)

// pipe is the shared buffer of a pipe's two ends.
type pipe struct {
	buf              []byte
	readers, writers int // open file descriptions of each end
	ino              uint64
	gens             wakeGens // epoll's edges (epoll.go)
	size             int      // F_SETPIPE_SZ's capacity; 0: pipeCapacity
	// msgs holds the lengths of the messages in buf, in order, for a
	// datagram or seqpacket socketpair (nil for a byte stream).
	msgs []int
	// rights are the descriptors in flight in buf (SCM_RIGHTS, scm.go),
	// in the order they were sent.
	rights []inflight
	// marks say when buf's bytes were written, in order: the writer's
	// monotonic clock. A reader of another process catches up with it,
	// as data cannot be read before it was written.
	marks []pipeMark
	// urg is a TCP receive queue's urgent mark (tcpurg.go).
	urg urgent
}

// pipeMark is n bytes of a pipe written at monotonic time t.
type pipeMark struct {
	n int
	t int64
}

// eventfd is an eventfd counter.
type eventfd struct {
	count     uint64
	semaphore bool
	id        int      // its number in the run, from 0 (fdinfo's eventfd-id)
	gens      wakeGens // epoll's edges (epoll.go)
}

const eventfdMax = ^uint64(0) - 1 // the largest value the counter holds

// pipe2 and eventfd2 flags (O_CLOEXEC, O_NONBLOCK, O_DIRECT; EFD_SEMAPHORE).
const efdSemaphore = 1

// Virtual device numbers of the pseudo file systems.
var (
	pipefsDev    = makedev(0, 12)
	anonInodeDev = makedev(0, 14)
)

// nextIno numbers pipes, deterministically.
func (k *Kernel) nextIno() uint64 {
	k.inoSeq++
	return 1000 + k.inoSeq
}

func sysPipe2(k *Kernel, a sysArgs) (uint64, Errno) {
	fds, flags := a.Ptr(0), a.Uint(1)
	if flags&^(oCloexec|oNonblock|oDirect) != 0 {
		return 0, EINVAL
	}
	p := &pipe{readers: 1, writers: 1, ino: k.nextIno()}
	name := "pipe:[" + strconv.FormatUint(p.ino, 10) + "]"
	st := flags & (oNonblock | oDirect)
	r := &openFile{kind: kindPipe, pipe: p, guest: name, flags: oRdonly | st}
	w := &openFile{kind: kindPipe, pipe: p, guest: name, flags: oWronly | st}
	cloexec := flags&oCloexec != 0
	rfd, e := k.install(r, cloexec, 0)
	if e != 0 {
		return 0, e
	}
	wfd, e := k.install(w, cloexec, 0)
	if e != 0 {
		k.closeFD(int32(rfd))
		return 0, e
	}
	var b [8]byte
	put32(b[:], 0, uint32(rfd))
	put32(b[:], 4, uint32(wfd))
	if e := k.writeMem(fds, b[:]); e != 0 {
		k.closeFD(int32(rfd))
		k.closeFD(int32(wfd))
		return 0, e
	}
	return 0, 0
}

// blockedIO waits for a signal while a pipe or eventfd operation cannot
// proceed: ERESTARTSYS (the call is restarted after a handler with
// SA_RESTART) when one arrives, else EINTR with a warning.
//
// In a process with other threads, the operation blocks the thread
// instead (thread.go) until another thread reads, writes or closes a
// pipe or eventfd or releases a lock (ioWake), and the call then starts
// again.
func (k *Kernel) blockedIO(what string) Errno {
	if k.multi() && !k.deliverable(0) {
		_, e := k.block("in "+what, 0, 0, -1, func(why waitResult) uint64 {
			if why == waitReady {
				return errnoRet(errRestartNoIntr)
			}
			return errnoRet(errRestartSys)
		})
		k.run.io = true
		return e
	}
	switch k.waitHost(-1, 0, nil, true) {
	case waitSignal:
		return errRestartSys
	case waitOthers: // (a timer of its own let the children run)
		if k.exited {
			return EINTR
		}
		return 0
	}
	served := k.othersServe(-1) // another process may do it (fork.go)
	if k.exited {               // killed meanwhile
		return EINTR
	}
	if served {
		return 0
	}
	k.warnOnce("block "+what, "rvsim: warning: %s would wait forever (nothing else can %s); returns EINTR", what,
		map[string]string{"pipe read": "write to the pipe", "pipe write": "read from the pipe",
			"eventfd read": "write to the counter", "eventfd write": "read the counter", "flock": "release the lock",
			"socket read": "write to the other end", "socket write": "read from the other end",
			"timerfd read": "arm the timer", "socket accept": "connect to the socket", "fcntl lock": "release the lock",
			"socket connect": "accept a connection", "semop": "change the semaphores", "msgsnd": "receive a message",
			"msgrcv": "send a message", "mq_timedsend": "receive a message", "mq_timedreceive": "send a message"}[what])
	return EINTR
}

// awaitData waits until the pipe open as of has bytes to read; eof when
// it is empty with no writer left.
func (k *Kernel) awaitData(of *openFile, nonblock bool) (eof bool, e Errno) {
	p := of.pipe
	for len(p.buf) == 0 {
		if p.writers == 0 {
			return true, 0
		}
		if nonblock || of.flags&oNonblock != 0 {
			return false, EAGAIN
		}
		if e := k.blockedIO("pipe read"); e != 0 {
			return false, e
		}
	}
	return false, 0
}

// readPipe reads up to count bytes from a pipe into guest memory.
func (k *Kernel) readPipe(of *openFile, buf, count uint64) (uint64, Errno) {
	if eof, e := k.awaitData(of, false); eof || e != 0 {
		return 0, e
	}
	p := of.pipe
	n := min(count, uint64(len(p.buf)))
	w := k.copyOut(buf, p.buf[:n])
	if w == 0 {
		return 0, EFAULT
	}
	k.drained(p, w)
	return uint64(w), 0
}

// drained notes that n bytes left a pipe (its writers may go on): the
// bytes go before the wake-up, so that a waiter asked whether the pipe
// has room sees it.
func (k *Kernel) drained(p *pipe, n int) {
	p.passUrgent(n)
	p.buf = p.buf[n:]
	if len(p.buf) == 0 {
		p.buf = nil
	}
	k.catchUp(p.takeMarks(n))
	p.gens[wakeOut]++
	k.ioWake()
}

// takeMarks drops the marks of the first n bytes read and returns the
// latest time among them (0 when none is left: a flushed queue).
func (p *pipe) takeMarks(n int) int64 {
	var t int64
	for n > 0 && len(p.marks) > 0 {
		m := &p.marks[0]
		t = max(t, m.t)
		if m.n > n {
			m.n -= n
			break
		}
		n -= m.n
		p.marks = p.marks[1:]
	}
	if len(p.marks) == 0 {
		p.marks = nil
	}
	return t
}

// clear drops what a pipe holds (a terminal's flush).
func (p *pipe) clear() {
	p.buf, p.marks = nil, nil
}

// filled appends b to a pipe (its readers may go on).
func (k *Kernel) filled(p *pipe, b []byte) {
	p.buf = append(p.buf, b...)
	if t := k.monoNS(); len(p.marks) > 0 && p.marks[len(p.marks)-1].t == t {
		p.marks[len(p.marks)-1].n += len(b)
	} else if len(b) > 0 {
		p.marks = append(p.marks, pipeMark{len(b), t})
	}
	p.gens[wakeIn]++
	k.ioWake()
}

// writePipe appends data to a pipe. Without readers it is EPIPE and
// SIGPIPE. Writes of up to PIPE_BUF bytes are atomic.
func (k *Kernel) writePipe(of *openFile, data []byte) (int, Errno) {
	p := of.pipe
	total := 0
	for {
		if p.readers == 0 {
			k.raise(sigPIPE, k.senderInfo(sigPIPE, siUser))
			if total > 0 {
				return total, 0
			}
			return 0, EPIPE
		}
		room := p.capacity() - len(p.buf)
		rest := data[total:]
		if room > 0 && (len(rest) > pipeBuf || room >= len(rest)) {
			n := min(room, len(rest))
			total += n
			k.filled(p, rest[:n])
		}
		if total == len(data) {
			return total, 0
		}
		if of.flags&oNonblock != 0 {
			if total > 0 {
				return total, 0
			}
			return 0, EAGAIN
		}
		if e := k.blockedIO("pipe write"); e != 0 {
			if total > 0 {
				return total, 0
			}
			return 0, e
		}
	}
}

// writeFrom writes count bytes from guest memory at buf with write, a
// chunk at a time (writeGather).
func (k *Kernel) writeFrom(buf, count, chunk, unit uint64, write func([]byte) (int, Errno)) (uint64, Errno) {
	return k.writeGather(buf, [][2]uint64{{buf, count}}, chunk, unit, write)
}

// writeGather writes the bytes of the buffers iov names, in order, with
// write, at most chunk at a time: a blocking write to a pipe or a stream
// socket takes them all, as Linux's pipe_write and unix_stream_sendmsg
// do, and ends early only at a signal, when non-blocking, or at a fault.
// At a fault, what was written before it counts, in whole units: Linux
// copies a pipe's bytes a page at a time and a stream's a buffer at a
// time, and drops the one that the fault cut short (EFAULT if it was the
// first).
//
// In a process of several threads, a write that must wait after writing
// part blocks its thread (thread.go) and starts again when woken: it goes
// on from where it stopped (thread.written, found by key, the call's
// buffer, iovec or msghdr address), and a signal or a timeout that ends
// the wait returns the part written, as pipe_write does.
func (k *Kernel) writeGather(key uint64, iov [][2]uint64, chunk, unit uint64, write func([]byte) (int, Errno)) (uint64, Errno) {
	count := iovBytes(iov)
	done := k.resumedWrite(key, count)
	rest := skipIov(iov, done)
	for {
		b, fault := k.gatherReadable(rest, chunk)
		if fault {
			if b = b[:uint64(len(b))/unit*unit]; len(b) == 0 {
				if done > 0 {
					return done, 0
				}
				return 0, EFAULT
			}
		}
		n, e := write(b)
		done += uint64(n)
		if t := k.run; (e == errBlocked || e == 0 && n < len(b)) && done > 0 && t != nil && t.blocked {
			k.waitToWriteOn(t, partialWrite{key: key, count: count, done: done})
			return 0, errBlocked
		}
		if e != 0 || n < len(b) || done == count {
			if done > 0 || e == 0 {
				return done, 0
			}
			return 0, e
		}
		rest = skipIov(rest, uint64(n))
	}
}

// iovBytes is how many bytes the buffers iov names hold.
func iovBytes(iov [][2]uint64) uint64 {
	var n uint64
	for _, v := range iov {
		n += v[1]
	}
	return n
}

// gatherReadable reads up to max bytes of the buffers iov names, in
// order, up to the first byte that cannot be read (fault: there was one).
func (k *Kernel) gatherReadable(iov [][2]uint64, max uint64) (b []byte, fault bool) {
	for _, v := range iov {
		if uint64(len(b)) == max {
			break
		}
		want := min(v[1], max-uint64(len(b)))
		if want == 0 {
			continue
		}
		p, e := k.readMem(v[0], want)
		if e != 0 {
			if n := k.userOK(v[0], want, mem.R); n > 0 {
				p, _ = k.readMem(v[0], n)
				b = append(b, p...)
			}
			return b, true
		}
		if b == nil {
			b = p // (one buffer: no copy)
		} else {
			b = append(b, p...)
		}
	}
	return b, false
}

// resumedWrite is how many of count bytes the call named by key wrote
// before its thread waited (thread.written), 0 for a call that starts
// afresh; the record goes either way.
func (k *Kernel) resumedWrite(key, count uint64) uint64 {
	t := k.run
	if t == nil || t.written == nil {
		return 0
	}
	w := t.written
	t.written = nil
	if w.key == key && w.count == count {
		return w.done
	}
	return 0
}

// resumingWrite tells whether the call named by key, of count bytes,
// goes on after a part written before its thread waited.
func (k *Kernel) resumingWrite(key, count uint64) bool {
	t := k.run
	return t != nil && t.written != nil && t.written.key == key && t.written.count == count
}

// partialWrite is a blocking write of count bytes, named by key (its
// buffer, iovec or msghdr address), that wrote done of them before it had
// to wait.
type partialWrite struct{ key, count, done uint64 }

// waitToWriteOn lets thread t's write w, which set up its wait after
// writing part, wait: woken because the reader made room, the call starts
// again and goes on after the part; woken by a signal or a timeout, it
// returns the part.
func (k *Kernel) waitToWriteOn(t *thread, w partialWrite) {
	t.written = &w
	finish := t.finish
	t.finish = func(why waitResult) uint64 {
		if why == waitReady {
			return finish(why)
		}
		t.written = nil
		return w.done
	}
}

// capacity is how many bytes the pipe holds (F_GETPIPE_SZ).
func (p *pipe) capacity() int {
	if p.size == 0 {
		return pipeCapacity
	}
	return p.size
}

// setPipeSize is F_SETPIPE_SZ (pipe_set_size): the size rounds up to a
// power of two of pages, at most /proc/sys/fs/pipe-max-size (1 MiB)
// unless the caller is privileged; it cannot drop below what the pipe
// holds.
func setPipeSize(p *pipe, arg int64, privileged bool) (uint64, Errno) {
	const maxSize = 1 << 20
	if arg < 0 || arg > 1<<31 {
		return 0, EINVAL
	}
	pages := max((arg+PageSize-1)/PageSize, 1)
	size := int64(PageSize)
	for size/PageSize < pages {
		size <<= 1
	}
	if size > maxSize && !privileged {
		return 0, EPERM
	}
	if int(size) < len(p.buf) {
		return 0, EBUSY
	}
	p.size = int(size)
	return uint64(size), 0
}

// closePipeEnd drops one end of a pipe (both, for a FIFO opened O_RDWR).
func (of *openFile) closePipeEnd() {
	of.pipe.gens[wakeAny]++
	if of.canRead() {
		of.pipe.readers--
	}
	if of.canWrite() {
		of.pipe.writers--
	}
}

// --- eventfd ------------------------------------------------------------------------

func sysEventfd2(k *Kernel, a sysArgs) (uint64, Errno) {
	flags := a.Uint(1)
	if flags&^(oCloexec|oNonblock|efdSemaphore) != 0 {
		return 0, EINVAL
	}
	of := &openFile{kind: kindEventfd, efd: &eventfd{count: uint64(a.Uint(0)), semaphore: flags&efdSemaphore != 0, id: k.all.nextEventfdID()},
		guest: "anon_inode:[eventfd]", flags: oRdwr | flags&oNonblock}
	return k.install(of, flags&oCloexec != 0, 0)
}

// readEventfd returns the counter (or 1 in semaphore mode) and takes it
// away; an empty counter blocks.
func (k *Kernel) readEventfd(of *openFile, buf, count uint64) (uint64, Errno) {
	if count < 8 {
		return 0, EINVAL
	}
	ev := of.efd
	for ev.count == 0 {
		if of.flags&oNonblock != 0 {
			return 0, EAGAIN
		}
		if e := k.blockedIO("eventfd read"); e != 0 {
			return 0, e
		}
	}
	v := ev.count
	if ev.semaphore {
		v = 1
	}
	if e := k.writeU64(buf, v); e != 0 {
		return 0, e
	}
	ev.count -= v
	ev.gens[wakeOut]++
	k.ioWake()
	return 8, 0
}

// writeEventfd adds an 8-byte value to the counter.
func (k *Kernel) writeEventfd(of *openFile, buf, count uint64) (uint64, Errno) {
	if count < 8 {
		return 0, EINVAL
	}
	v, e := k.readU64(buf)
	if e != 0 {
		return 0, e
	}
	if v == ^uint64(0) {
		return 0, EINVAL
	}
	ev := of.efd
	for eventfdMax-ev.count < v {
		if of.flags&oNonblock != 0 {
			return 0, EAGAIN
		}
		if e := k.blockedIO("eventfd write"); e != 0 {
			return 0, e
		}
	}
	ev.count += v
	ev.gens[wakeIn]++
	k.ioWake()
	return 8, 0
}

// --- memfd ---------------------------------------------------------------------------

// memfd_create flags and file seals.
const (
	mfdCloexec      = 1
	mfdAllowSealing = 2
	mfdNameMax      = 249 // NAME_MAX - strlen("memfd:")

	fAddSeals    = 1033
	fGetSeals    = 1034
	fSetPipeSz   = 1031
	fGetPipeSz   = 1032
	fSealSeal    = 1
	fSealShrink  = 2
	fSealGrow    = 4
	fSealWrite   = 8
	fSealFutureW = 16
)

// sysMemfdCreate creates an anonymous file. Its bytes live in an unlinked
// host temporary file that only this descriptor reaches (outside the
// guest's file system, so the sandbox is not involved).
func sysMemfdCreate(k *Kernel, a sysArgs) (uint64, Errno) {
	flags := a.Uint(1)
	if flags&^(mfdCloexec|mfdAllowSealing) != 0 {
		return 0, EINVAL // MFD_HUGETLB: no huge pages; MFD_EXEC/NOEXEC_SEAL are Linux 6.3
	}
	name, err := k.mem.ReadCString(a.Ptr(0), mfdNameMax+1)
	if err != nil {
		if _, e := k.readMem(a.Ptr(0), 1); e != 0 {
			return 0, EFAULT
		}
		return 0, EINVAL
	}
	f, err := os.CreateTemp("", "rvsim-memfd-*")
	if err != nil {
		return 0, errnoOf(err)
	}
	os.Remove(f.Name())
	seals := uint32(fSealSeal)
	if flags&mfdAllowSealing != 0 {
		seals = 0
	}
	of := &openFile{kind: kindHost, f: f, guest: fmt.Sprintf("/memfd:%s (deleted)", name),
		flags: oRdwr | oLargefile, regular: true, memfd: true, seals: seals}
	fd, e := k.install(of, flags&mfdCloexec != 0, 0)
	if e != 0 {
		f.Close()
	}
	return fd, e
}

// sealed reports whether a change of of is forbidden by its seals:
// writing (F_SEAL_WRITE), growing (F_SEAL_GROW) or shrinking to size.
func (of *openFile) sealed(write bool, size int64) bool {
	if of.seals == 0 {
		return false
	}
	if write && of.seals&(fSealWrite|fSealFutureW) != 0 {
		return true
	}
	if size >= 0 {
		fi, err := of.f.Stat()
		if err != nil {
			return false
		}
		if size > fi.Size() && of.seals&fSealGrow != 0 || size < fi.Size() && of.seals&fSealShrink != 0 {
			return true
		}
	}
	return false
}
