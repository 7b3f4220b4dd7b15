package syscalls

import "slices"

// System V semaphores (ipc/sem.c): semget, semop, semtimedop, semctl,
// the run's semaphore sets (sysvIPC.sem), as Linux keeps them:
//   - an operation array applies all or nothing, in its order (the same
//     semaphore twice sees the first operation's result:
//     perform_atomic_semop_slow); it fails with ERANGE past SEMVMX or past
//     the SEM_UNDO adjustment's range, else would block on its first
//     operation that cannot proceed (a decrement below zero, a wait for
//     zero on a non-zero value): EAGAIN with IPC_NOWAIT on that
//     operation, else the caller queues;
//   - a queued operation is performed by the process whose change lets it
//     proceed (update_queue), in the order the waiters came, each time
//     looking again from the first waiter after one proceeds (as Linux
//     does while a complex operation waits); the waiter returns its
//     result, catching up with the time of that change on the run's
//     clock;
//   - GETNCNT and GETZCNT count the waiters whose blocking operation is a
//     decrement of, or a wait for zero on, the semaphore (SUSv3 since
//     Linux 3.16);
//   - a wait ends with a signal (EINTR, never restarted), its timeout
//     (EAGAIN), or the set's removal (EIDRM);
//   - SEM_UNDO adjustments are per process and set (sem_undo), kept
//     across execve, not inherited by fork, applied when the process ends
//     (exit_sem: clamped to [0, SEMVMX]), and cleared for a semaphore that
//     SETVAL or SETALL sets.

// semop flags and semctl commands (uapi/linux/sem.h).
const (
	semUndoFlag = 0x1000
	semGetpid   = 11
	semGetval   = 12
	semGetall   = 13
	semGetncnt  = 14
	semGetzcnt  = 15
	semSetval   = 16
	semSetall   = 17
	semStat     = 18
	semInfo     = 19
	semStatAny  = 20

	// Linux's defaults (SEMMSL, SEMMNS, SEMOPM, SEMMNI, SEMVMX, SEMAEM,
	// SEMUSZ).
	semMsl = 32000
	semMns = semMni * semMsl
	semOpm = 500
	semMni = 32000
	semVmx = 32767
	semAem = semVmx
	semUsz = 20

	semidDsSize = 88 // struct semid64_ds (asm-generic, 64-bit)
	sembufSize  = 6  // struct sembuf
)

// semSet is one set (sem_array).
type semSet struct {
	ipcPerm
	sems         []semaphore
	otime, ctime int64
	pending      []*semWaiter // in the order they came
	undos        []*semUndo   // every process's adjustments for it
	removed      bool
}

// semaphore is one semaphore of a set, and the monotonic time of its
// last change (what a process whose operation waited on it catches up
// with).
type semaphore struct {
	val int32
	pid int32
	at  int64
}

// sembuf is one operation.
type sembuf struct {
	num       uint16
	op, flags int16
}

// semWaiter is a queued operation array (sem_queue).
type semWaiter struct {
	k        *Kernel
	ops      []sembuf
	undo     *semUndo // nil: no SEM_UNDO among ops
	blocking int      // the operation it waits on
	done     bool
	err      Errno
	at       int64 // the monotonic time at which it was performed
}

// semUndo is a process's SEM_UNDO adjustments for one set (sem_undo).
type semUndo struct {
	set *semSet // nil: the set was removed
	adj []int32
}

// perform applies w's operations to s all or nothing
// (perform_atomic_semop_slow): 0 when done, ERANGE, EAGAIN with
// IPC_NOWAIT on the operation that cannot proceed, or errBlocked when
// w must wait (w.blocking says on which).
func (s *semSet) perform(w *semWaiter) Errno {
	i := 0
	var e Errno
	for ; i < len(w.ops); i++ {
		o := w.ops[i]
		cur := &s.sems[o.num]
		v := cur.val + int32(o.op)
		if o.op == 0 && cur.val != 0 || v < 0 {
			w.blocking, e = i, errBlocked
			if o.flags&ipcNowait != 0 {
				e = EAGAIN
			}
			break
		}
		if v > semVmx {
			e = ERANGE
			break
		}
		if o.flags&semUndoFlag != 0 {
			u := w.undo.adj[o.num] - int32(o.op)
			if u < -semAem-1 || u > semAem {
				e = ERANGE
				break
			}
			w.undo.adj[o.num] = u
		}
		cur.val = v
	}
	if e != 0 {
		for i--; i >= 0; i-- { // undo what was applied
			o := w.ops[i]
			s.sems[o.num].val -= int32(o.op)
			if o.flags&semUndoFlag != 0 {
				w.undo.adj[o.num] += int32(o.op)
			}
		}
		return e
	}
	return 0
}

// completed records w's operations as performed by process pid at
// monotonic time at (real time now), and the time w catches up with:
// what it decremented or waited for zero on was last changed at cur.at.
func (s *semSet) completed(w *semWaiter, pid int32, at int64, now int64) {
	for _, o := range w.ops {
		cur := &s.sems[o.num]
		if o.op <= 0 {
			w.at = max(w.at, cur.at)
		}
		cur.pid = pid
		if o.op != 0 {
			cur.at = at
		}
	}
	s.otime = now
}

// update performs the queued operations that can now proceed
// (do_smart_update), first come first, looking again from the first
// after each that changed a value; the process that made the change
// (at its monotonic time at, real time now) performs them.
func (s *semSet) update(at, now int64) {
again:
	for i := 0; i < len(s.pending); i++ {
		w := s.pending[i]
		if w.k.exited { // (a killed waiter)
			s.dequeue(w)
			i--
			continue
		}
		e := s.perform(w)
		if e == errBlocked {
			continue
		}
		s.dequeue(w)
		w.done, w.err = true, e
		if e != 0 {
			i--
			continue
		}
		s.completed(w, w.k.pid, at, now)
		w.at = max(w.at, at)
		for _, o := range w.ops {
			if o.op != 0 {
				goto again
			}
		}
		i--
	}
}

// dequeue takes w off the queue.
func (s *semSet) dequeue(w *semWaiter) {
	for i, x := range s.pending {
		if x == w {
			s.pending = append(s.pending[:i], s.pending[i+1:]...)
			return
		}
	}
}

// count is GETNCNT (zero false) or GETZCNT for semaphore num
// (count_semcnt).
func (s *semSet) count(num uint16, zero bool) int {
	n := 0
	for _, w := range s.pending {
		if o := w.ops[w.blocking]; o.num == num && (zero && o.op == 0 || !zero && o.op < 0) {
			n++
		}
	}
	return n
}

// undoFor returns the process's adjustments for s, made when missing
// (find_alloc_undo).
func (k *Kernel) undoFor(s *semSet) *semUndo {
	for _, u := range k.semUndos {
		if u.set == s {
			return u
		}
	}
	u := &semUndo{set: s, adj: make([]int32, len(s.sems))}
	k.semUndos = append(k.semUndos, u)
	s.undos = append(s.undos, u)
	return u
}

// exitSem applies the process's SEM_UNDO adjustments as it ends
// (exit_sem), the newest first, and takes its waiters off the queues.
func (k *Kernel) exitSem() {
	if k.all.ipc == nil {
		return
	}
	at, now := k.monoNS(), k.realSeconds()
	k.all.ipc.sem.each(func(s *semSet) {
		s.pending = slices.DeleteFunc(s.pending, func(w *semWaiter) bool { return w.k == k })
	})
	for i := len(k.semUndos) - 1; i >= 0; i-- {
		u := k.semUndos[i]
		s := u.set
		if s == nil {
			continue
		}
		for j, x := range s.undos {
			if x == u {
				s.undos = append(s.undos[:j], s.undos[j+1:]...)
				break
			}
		}
		changed := false
		for n, adj := range u.adj {
			if adj == 0 {
				continue
			}
			cur := &s.sems[n]
			cur.val = min(max(cur.val+adj, 0), semVmx)
			cur.pid, cur.at, changed = k.pid, at, true
		}
		if changed {
			s.update(at, now)
		}
	}
	k.semUndos = nil
}

func sysSemget(k *Kernel, a sysArgs) (uint64, Errno) {
	key, nsems, flags := a.Int(0), a.Int(1), a.Uint(2)
	if nsems < 0 || nsems > semMsl {
		return 0, EINVAL
	}
	return ipcGet(k, &k.all.sysv().sem, key, flags, func(s *semSet) Errno {
		if int(nsems) > len(s.sems) {
			return EINVAL
		}
		return 0
	}, func(p ipcPerm) (*semSet, Errno) {
		if nsems == 0 {
			return nil, EINVAL
		}
		return &semSet{ipcPerm: p, sems: make([]semaphore, nsems), ctime: k.realSeconds()}, 0
	})
}

func sysSemop(k *Kernel, a sysArgs) (uint64, Errno) {
	return k.semtimedop(a.Int(0), a.Ptr(1), a.Uint(2), 0)
}

func sysSemtimedop(k *Kernel, a sysArgs) (uint64, Errno) {
	return k.semtimedop(a.Int(0), a.Ptr(1), a.Uint(2), a.Ptr(3))
}

// semtimedop is do_semtimedop: nsops operations at addr on set id, a
// wait bounded by the struct timespec at timeout (0: none).
func (k *Kernel) semtimedop(id int32, addr uint64, nsops uint32, timeout uint64) (uint64, Errno) {
	if nsops < 1 || id < 0 {
		return 0, EINVAL
	}
	if nsops > semOpm {
		return 0, E2BIG
	}
	b, e := k.readMem(addr, uint64(nsops)*sembufSize)
	if e != 0 {
		return 0, e
	}
	deadline := int64(-1)
	if timeout != 0 {
		rel, e := k.readTimespecNS(timeout)
		if e != 0 {
			return 0, e
		}
		deadline = k.monoNS() + rel
	}
	w := &semWaiter{k: k, ops: make([]sembuf, nsops)}
	top, undo, alter := uint16(0), false, false
	for i := range w.ops {
		o := sembuf{num: le16(b[i*sembufSize:]), op: int16(le16(b[i*sembufSize+2:])), flags: int16(le16(b[i*sembufSize+4:]))}
		w.ops[i] = o
		top = max(top, o.num)
		undo = undo || o.flags&semUndoFlag != 0
		alter = alter || o.op != 0
	}
	s, e := k.all.sysv().sem.byID(id)
	if e != 0 {
		return 0, e
	}
	if int(top) >= len(s.sems) {
		return 0, EFBIG
	}
	want := uint32(rOK)
	if alter {
		want = wOK
	}
	if !k.ipcAllowed(&s.ipcPerm, want) {
		return 0, EACCES
	}
	if undo {
		w.undo = k.undoFor(s)
	}
	switch e := s.perform(w); e {
	case 0:
		at, now := k.monoNS(), k.realSeconds()
		s.completed(w, k.pid, at, now)
		k.catchUp(w.at)
		if alter {
			s.update(at, now)
			k.ioWake()
		}
		return 0, 0
	case errBlocked:
	default:
		return 0, e
	}
	s.pending = append(s.pending, w)
	finish := func(why waitResult) (uint64, Errno) {
		if w.done {
			k.catchUp(w.at)
			return 0, w.err
		}
		s.dequeue(w)
		switch {
		case s.removed:
			return 0, EIDRM
		case why == waitTimeout:
			return 0, EAGAIN
		}
		return 0, EINTR
	}
	return k.ipcWait("semop", deadline, func() bool { return w.done || s.removed }, finish)
}

// ipcWait waits until ready holds (another process or thread performed
// the operation, or removed the object), a signal, or monotonic time
// deadline (< 0: none); finish gives the call's result for the reason
// the wait ended. In a process with other threads the thread blocks (the
// call returns errBlocked, and finish ends it when it wakes).
func (k *Kernel) ipcWait(what string, deadline int64, ready func() bool, finish func(why waitResult) (uint64, Errno)) (uint64, Errno) {
	if k.multi() && !k.deliverable(0) {
		k.block("in "+what, 0, 0, deadline, func(why waitResult) uint64 {
			r, e := finish(why)
			if e != 0 {
				return errnoRet(e)
			}
			return r
		})
		k.run.io, k.run.ready = true, ready
		return 0, errBlocked
	}
	for !ready() {
		switch k.blockedIOUntil(what, deadline) {
		case 0:
		case EAGAIN:
			return finish(waitTimeout)
		default:
			return finish(waitSignal)
		}
	}
	return finish(waitReady)
}

func sysSemctl(k *Kernel, a sysArgs) (uint64, Errno) {
	id, num, cmd, arg := a.Int(0), a.Int(1), a.Int(2), a.Ptr(3)
	if id < 0 {
		return 0, EINVAL
	}
	ids := &k.all.sysv().sem
	switch cmd {
	case ipcInfo, semInfo:
		b := make([]byte, 40) // struct seminfo
		usz, aem := semUsz, semAem
		if cmd == semInfo {
			usz, aem = ids.inUse(), 0
			ids.each(func(s *semSet) { aem += len(s.sems) })
		}
		for i, v := range []int{semMns, semMni, semMns, semMns, semMsl, semOpm, semOpm, usz, semVmx, aem} {
			put32(b, 4*i, uint32(v)) // semmap, semmni, semmns, semmnu, semmsl, semopm, semume, semusz, semvmx, semaem
		}
		if e := k.writeMem(arg, b); e != 0 {
			return 0, e
		}
		return uint64(ids.highest()), 0
	case semStat, semStatAny:
		return ipcStatIndex(k, ids, id, cmd == semStatAny, arg, (*semSet).semidDs)
	case ipcStat, ipcSet, ipcRmid, semGetpid, semGetval, semGetall, semGetncnt, semGetzcnt, semSetval, semSetall:
	default:
		return 0, EINVAL
	}
	if cmd == semSetval {
		if v := int32(arg); v < 0 || v > semVmx {
			return 0, ERANGE
		}
	}
	var in []byte
	if cmd == ipcSet {
		var e Errno
		if in, e = k.readMem(arg, semidDsSize); e != 0 {
			return 0, e
		}
	}
	s, e := ids.byID(id)
	if e != 0 {
		return 0, e
	}
	switch cmd {
	case ipcStat:
		if !k.ipcAllowed(&s.ipcPerm, rOK) {
			return 0, EACCES
		}
		return 0, k.writeMem(arg, s.semidDs())
	case ipcSet, ipcRmid:
		if !k.ipcOwner(&s.ipcPerm) {
			return 0, EPERM
		}
		if cmd == ipcSet {
			s.setPerm(in)
			s.ctime = k.realSeconds()
			return 0, 0
		}
		k.removeSemSet(s)
		return 0, 0
	}
	want := uint32(rOK)
	if cmd == semSetall || cmd == semSetval {
		want = wOK
	}
	if cmd == semSetval && (num < 0 || int(num) >= len(s.sems)) {
		return 0, EINVAL
	}
	if !k.ipcAllowed(&s.ipcPerm, want) {
		return 0, EACCES
	}
	switch cmd {
	case semGetall:
		b := make([]byte, 2*len(s.sems))
		for i, m := range s.sems {
			put16(b, 2*i, uint16(m.val))
		}
		return 0, k.writeMem(arg, b)
	case semSetall, semSetval:
		vals := []int32{int32(arg)}
		first := int(num)
		if cmd == semSetall {
			b, e := k.readMem(arg, uint64(2*len(s.sems)))
			if e != 0 {
				return 0, e
			}
			vals, first = make([]int32, len(s.sems)), 0
			for i := range vals {
				if vals[i] = int32(le16(b[2*i:])); vals[i] > semVmx {
					return 0, ERANGE
				}
			}
		}
		at, now := k.monoNS(), k.realSeconds()
		for i, v := range vals {
			s.sems[first+i] = semaphore{val: v, pid: k.pid, at: at}
			for _, u := range s.undos {
				u.adj[first+i] = 0
			}
		}
		s.ctime = now
		s.update(at, now)
		k.ioWake()
		return 0, 0
	}
	if num < 0 || int(num) >= len(s.sems) {
		return 0, EINVAL
	}
	switch cmd {
	case semGetval:
		return uint64(s.sems[num].val), 0
	case semGetpid:
		return uint64(s.sems[num].pid), 0
	case semGetncnt:
		return uint64(s.count(uint16(num), false)), 0
	}
	return uint64(s.count(uint16(num), true)), 0 // GETZCNT
}

// removeSemSet is IPC_RMID (freeary): the waiters wake with EIDRM, the
// processes' adjustments for the set go.
func (k *Kernel) removeSemSet(s *semSet) {
	s.removed = true
	for _, u := range s.undos {
		u.set = nil
	}
	s.undos = nil
	k.all.sysv().sem.remove(s)
	k.ioWake()
}

// semidDs encodes struct semid64_ds for s.
func (s *semSet) semidDs() []byte {
	b := make([]byte, semidDsSize)
	s.putPerm(b)
	put64(b, 48, uint64(s.otime))
	put64(b, 56, uint64(s.ctime))
	put64(b, 64, uint64(len(s.sems)))
	return b
}
