package syscalls

import (
	"io"
	"math"
)

// POSIX record locks (fcntl F_GETLK, F_SETLK, F_SETLKW) and open file
// description locks (F_OFD_GETLK, F_OFD_SETLK, F_OFD_SETLKW), as Linux's
// fs/locks.c keeps them, run-wide (procList.locks), so that the run's
// processes exclude each other as sqlite's do:
//   - a lock covers a byte range of a file (start, and a length: 0 to
//     the end of the file and beyond, negative ending before start), read
//     (shared) or write (exclusive); locks of different owners conflict
//     where they overlap and one of them writes;
//   - a POSIX lock's owner is the process (its threads share it): a new
//     lock replaces the owner's own over its range, merging with
//     adjacent ones of the same type, and an unlock splits them; the
//     process's locks on a file go when it closes any descriptor of that
//     file, and when it ends; a child does not inherit them;
//   - an OFD lock's owner is the open file description (dup and fork
//     share it); it goes with the description's last close;
//   - F_SETLK answers EAGAIN at a conflict, F_SETLKW waits for the other
//     process (EDEADLK when that process waits for one of this one's, a
//     cycle of POSIX owners); F_GETLK describes the first conflicting
//     lock (l_pid -1 for an OFD lock) or answers F_UNLCK.

// fcntl's lock commands beside F_GETLK, F_SETLK and F_SETLKW (file.go).
const (
	fOfdGetlk  = 36
	fOfdSetlk  = 37
	fOfdSetlkw = 38
	fRdlck     = 0 // F_RDLCK
	fWrlck     = 1 // F_WRLCK
)

// lockOwner is a process (POSIX) or an open file description (OFD).
type lockOwner struct {
	proc *Kernel
	ofd  *openFile
}

// rangeLock is one lock: [start, end] (end inclusive; math.MaxInt64: to
// the end of the file and beyond), read or write.
type rangeLock struct {
	owner      lockOwner
	write      bool
	start, end int64
}

func (l rangeLock) overlaps(start, end int64) bool { return l.start <= end && start <= l.end }

// fileLocks are the locks held on one file, and the monotonic time of
// the last release: a process that found a lock in its way catches up
// with it when it takes its own (in that call or a later one: a waiter
// that a signal interrupted tries again), as it cannot take a lock
// before the other was released.
type fileLocks struct {
	held    []rangeLock
	freedAt int64
}

// conflict is the first lock of another owner that a lock of w over
// [start, end] conflicts with (nil: none).
func (f *fileLocks) conflict(o lockOwner, w bool, start, end int64) *rangeLock {
	for i := range f.held {
		l := &f.held[i]
		if l.owner != o && (w || l.write) && l.overlaps(start, end) {
			return l
		}
	}
	return nil
}

// set gives owner o a lock of w over [start, end] (unlock: none there),
// replacing what o held there and merging with o's adjacent or
// overlapping locks of the same type (posix_lock_inode).
func (f *fileLocks) set(o lockOwner, unlock, w bool, start, end int64) {
	kept := f.held[:0:0]
	for _, l := range f.held {
		if l.owner != o {
			kept = append(kept, l)
			continue
		}
		touches := l.overlaps(start, end) || l.end != math.MaxInt64 && l.end+1 == start || end != math.MaxInt64 && end+1 == l.start
		switch {
		case !unlock && l.write == w && touches: // merge into the new one
			start, end = min(start, l.start), max(end, l.end)
		case l.overlaps(start, end): // keep what lies outside the new range
			if l.start < start {
				kept = append(kept, rangeLock{owner: o, write: l.write, start: l.start, end: start - 1})
			}
			if l.end > end {
				kept = append(kept, rangeLock{owner: o, write: l.write, start: end + 1, end: l.end})
			}
		default:
			kept = append(kept, l)
		}
	}
	if !unlock {
		kept = append(kept, rangeLock{owner: o, write: w, start: start, end: end})
	}
	f.held = kept
}

// drop removes every lock of owner o; it reports whether there was one.
func (f *fileLocks) drop(o lockOwner) bool {
	kept := f.held[:0]
	for _, l := range f.held {
		if l.owner != o {
			kept = append(kept, l)
		}
	}
	dropped := len(kept) != len(f.held)
	f.held = kept
	return dropped
}

// fcntlLock is fcntl's F_GETLK, F_SETLK, F_SETLKW and their OFD forms on
// of with the struct flock at addr.
func (k *Kernel) fcntlLock(of *openFile, cmd uint32, addr uint64) (uint64, Errno) {
	b, e := k.readMem(addr, flockSize)
	if e != 0 {
		return 0, e
	}
	if of.flags&oPath != 0 {
		return 0, EBADF
	}
	ofd := cmd == fOfdGetlk || cmd == fOfdSetlk || cmd == fOfdSetlkw
	typ, whence := int16(le16(b)), int16(le16(b[2:]))
	if ofd && u32(b, 24) != 0 { // l_pid must be 0
		return 0, EINVAL
	}
	if typ != fRdlck && typ != fWrlck && typ != fUnlck {
		return 0, EINVAL
	}
	st, e := k.statFile(of)
	if e != 0 {
		return 0, e
	}
	start, end, e := k.lockRange(of, st, whence, int64(le64(b[8:])), int64(le64(b[16:])))
	if e != 0 {
		return 0, e
	}
	o := lockOwner{proc: k}
	if ofd {
		o = lockOwner{ofd: of}
	}
	id := fileID{st.dev, st.ino}
	locks := k.all.fileLocks(id)
	if cmd == fGetlk || cmd == fOfdGetlk {
		if typ == fUnlck {
			return 0, EINVAL
		}
		l := locks.conflict(o, typ == fWrlck, start, end)
		if l == nil {
			put16(b, 0, fUnlck)
			return 0, k.writeMem(addr, b[:2])
		}
		return 0, k.writeMem(addr, l.describe(b))
	}
	switch {
	case typ == fRdlck && !of.canRead(), typ == fWrlck && !of.canWrite():
		return 0, EBADF
	case typ == fUnlck:
		locks.set(o, true, false, start, end)
		locks.freedAt = max(locks.freedAt, k.monoNS())
		k.ioWake() // (a waiter in another process looks again)
		return 0, 0
	}
	for {
		l := locks.conflict(o, typ == fWrlck, start, end)
		if l == nil {
			break
		}
		k.sawLock(id, true)
		if cmd == fSetlk || cmd == fOfdSetlk {
			return 0, EAGAIN
		}
		if !ofd && l.owner.proc != nil && k.waitsFor(l.owner.proc) {
			return 0, EDEADLK
		}
		k.lockWait = l.owner.proc
		e := k.blockedIO("fcntl lock")
		k.lockWait = nil
		if e != 0 {
			return 0, e
		}
	}
	k.catchUpWithRelease(id, true, locks.freedAt)
	locks.set(o, false, typ == fWrlck, start, end)
	if ofd {
		of.ofdLocked = true
	} else {
		k.posixLocks = true
	}
	return 0, 0
}

// lockRange turns a struct flock's whence, start and length into an
// inclusive byte range (flock64_to_posix_lock).
func (k *Kernel) lockRange(of *openFile, st statInfo, whence int16, start, length int64) (int64, int64, Errno) {
	switch whence {
	case io.SeekStart:
	case io.SeekCurrent:
		if of.f == nil {
			return 0, 0, EINVAL
		}
		pos, err := of.f.Seek(0, io.SeekCurrent)
		if err != nil {
			return 0, 0, errnoOf(err)
		}
		start += pos
	case io.SeekEnd:
		start += st.size
	default:
		return 0, 0, EINVAL
	}
	switch {
	case start < 0:
		return 0, 0, EINVAL
	case length == 0:
		return start, math.MaxInt64, 0
	case length > 0:
		if start > math.MaxInt64-length+1 {
			return 0, 0, EOVERFLOW
		}
		return start, start + length - 1, 0
	}
	if start+length < 0 {
		return 0, 0, EINVAL
	}
	return start + length, start - 1, 0
}

// describe fills the struct flock b with the lock, as F_GETLK reports a
// conflicting one: its type, SEEK_SET, start, length (0: to the end) and
// owner's pid (-1 for an OFD lock).
func (l *rangeLock) describe(b []byte) []byte {
	typ := uint16(fRdlck)
	if l.write {
		typ = fWrlck
	}
	put16(b, 0, typ)
	put16(b, 2, io.SeekStart)
	put64(b, 8, uint64(l.start))
	length := int64(0)
	if l.end != math.MaxInt64 {
		length = l.end - l.start + 1
	}
	put64(b, 16, uint64(length))
	pid := int32(-1)
	if l.owner.proc != nil {
		pid = l.owner.proc.pid
	}
	put32(b, 24, uint32(pid))
	return b
}

// waitsFor reports whether process p waits, directly or through others
// waiting in turn, for a lock this process holds (posix_locks_deadlock).
func (k *Kernel) waitsFor(p *Kernel) bool {
	for seen := 0; p != nil && seen < len(k.all.kernels); seen++ {
		if p.lockWait == k {
			return true
		}
		p = p.lockWait
	}
	return false
}

// fileLocks is the lock table of file id, made when first asked for.
func (l *procList) fileLocks(id fileID) *fileLocks {
	if l.locks == nil {
		l.locks = map[fileID]*fileLocks{}
	}
	f := l.locks[id]
	if f == nil {
		f = &fileLocks{}
		l.locks[id] = f
	}
	return f
}

// dropLocks removes owner o's locks at monotonic time at: on the file
// id given, or on every file (id nil: a process that ended). Waiters look
// again.
func (k *Kernel) dropLocks(o lockOwner, id *fileID, at int64) {
	// (An empty table stays: its release time is what a waiter that a
	// signal interrupted catches up with when it tries again.)
	drop := func(f *fileLocks) bool {
		if f == nil || !f.drop(o) {
			return false
		}
		f.freedAt = max(f.freedAt, at)
		return true
	}
	dropped := false
	if id != nil { // (one file: a close, which must not walk every table)
		dropped = drop(k.all.locks[*id])
	} else {
		for _, f := range k.all.locks {
			dropped = drop(f) || dropped
		}
	}
	if dropped {
		k.ioWake()
	}
}

// releaseLocksOnClose drops the locks a close ends: the process's POSIX
// locks on the file of any descriptor it closes, and a description's OFD
// locks at its last close (last).
func (k *Kernel) releaseLocksOnClose(of *openFile, last bool) {
	if last && of.ofdLocked {
		k.dropLocks(lockOwner{ofd: of}, nil, k.monoNS())
		of.ofdLocked = false
	}
	if !k.posixLocks || of.kind == kindPipe || of.kind == kindSocket {
		return
	}
	if st, e := k.statFile(of); e == 0 {
		id := fileID{st.dev, st.ino}
		k.dropLocks(lockOwner{proc: k}, &id, k.monoNS())
	}
}

// lockSeen is the file on which the process last found a lock in its
// way, by fcntl's record locks or by flock (fcntl false); a later lock of
// its own on that file catches up with the file's last release.
type lockSeen struct {
	id    fileID
	fcntl bool
	valid bool
}

// sawLock notes that a lock on file id was in the process's way.
func (k *Kernel) sawLock(id fileID, fcntl bool) {
	k.lockSeen = lockSeen{id: id, fcntl: fcntl, valid: true}
}

// catchUpWithRelease moves the process's clock on to the file's last
// release (freedAt) as it takes a lock there, when a lock on it was in
// its way before: it cannot have taken the lock before the other was
// released.
func (k *Kernel) catchUpWithRelease(id fileID, fcntl bool, freedAt int64) {
	if k.lockSeen == (lockSeen{id: id, fcntl: fcntl, valid: true}) {
		k.catchUp(freedAt)
		k.lockSeen = lockSeen{}
	}
}
