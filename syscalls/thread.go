package syscalls

import (
	"fmt"
	"github.com/rvsim/rvsim/mem"
	"sort"
	"strings"
)

// Threads. The threads of the guest process share the one simulated hart,
// as the thread contexts of gem5's SE mode share a CPU: the kernel keeps
// each thread's registers (UserRegs) and its own kernel state (tstate:
// signal mask, pending signals, alternate stack, clear_child_tid, robust
// list) and schedules them deterministically. The running thread's
// tstate is embedded in Kernel, so the single-threaded code reads it as
// before; a switch exchanges it with the next thread's copy.
//
// Scheduling is round-robin in creation order. A thread runs until it
// blocks (futex wait, a sleep, sigsuspend), yields, exits, or has retired
// Quantum instructions (the driver stops the core there: SliceEnd,
// Preempt). When every thread is blocked, the deterministic clock jumps
// to the earliest deadline; with none, the run ends with a one-line
// deadlock error (Deadlock). So the same run switches at the same
// instruction counts every time.

// DefaultQuantum is the scheduling quantum in retired instructions when
// Config.Quantum is 0.
const DefaultQuantum = 10000

// MinQuantum is the shortest quantum a user may ask for: a switch clears
// the LR reservation (as Linux's return to user mode does), so a quantum
// shorter than an LR/SC retry loop could starve it forever.
const MinQuantum = 100

// tstate is the kernel state private to one thread.
type tstate struct {
	sigMask     uint64
	sigPending  uint64            // signals directed at this thread (or picked for it)
	sigShared   uint64            // those of sigPending sent to the process, which every thread blocked (signalfd.go)
	sigInfo     [nsig + 1]sigInfo // siginfo of each pending signal
	savedMask   uint64            // the mask to restore after sigsuspend, ppoll, pselect6
	restoreMask bool
	alt         altStack
	clearTID    uint64 // set_tid_address, CLONE_CHILD_CLEARTID
	robustList  uint64 // set_robust_list (recorded, never walked)
	robustLen   uint64
}

// thread is one guest thread.
type thread struct {
	tid  int32
	regs UserRegs // its registers while it does not run
	st   tstate   // its tstate while it does not run
	dead bool

	// A blocked thread waits for a futex wake (futex != 0), a signal, or
	// its deadline (monotonic ns, < 0: none); finish gives the system
	// call's result for the reason it woke.
	blocked  bool
	what     string // what it waits for, for the deadlock message
	futex    uint64
	bitset   uint32
	deadline int64
	waitSeq  uint64 // FIFO order of futex waiters
	finish   func(why waitResult) uint64
	io       bool // waits for a pipe or eventfd to change (ioWake)
	// fifoHeld is the FIFO whose open it waited in until the other end
	// opened (fifo.go): the end it counted meanwhile, which the open,
	// started again, takes over.
	fifoHeld  *fifoOpen
	fifoSince uint64 // the other end's opens when it began to wait
	// written is the part a blocking write wrote before its wait
	// (writeGather), which the write, started again, skips.
	written *partialWrite
	// timeoDeadline is the deadline of a socket wait with a timeout that
	// another thread's I/O woke (0: none): the call, started again, goes
	// on waiting until it, not for a fresh timeout (socktimeo.go).
	timeoDeadline int64
	// sigWait is the set a blocked rt_sigtimedwait waits for: those
	// signals wake it though it blocks them (sigtimedwait unblocks its
	// set while it waits).
	sigWait    uint64
	schedState // what the scheduling calls recorded (sched.go, schedattr.go)
	// seccompMode and seccomp are its seccomp mode and filter chain
	// (seccomp.go), inherited by the threads and processes it creates.
	seccompMode uint8
	seccomp     *seccompFilter
	// comm is its name (PR_SET_NAME, task/TID/comm); the process's
	// first thread's is Kernel.comm
	comm string
	// ready, when set, says whether an io wait's condition holds (epoll,
	// ppoll): ioWake wakes the thread only then, so its call can finish
	// (rather than start again, which would restart its timeout).
	ready func() bool
	// next, when set, is the earliest monotonic time at which ready may
	// come to hold by time alone (a watched timerfd's expiry; -1: none).
	next func() int64
	// host are the host descriptors (a terminal, a host pipe) among those
	// an io wait watches: pick polls them as the other threads run and
	// waits on them when every thread waits, rather than the whole
	// process waiting on the host while other threads could run.
	host []hostFD
	// A woken thread's system call has finished with ret (origA0 is a0 at
	// its entry, for the restart rules): set at its next switch-in.
	done   bool
	ret    uint64
	origA0 uint64
}

// sched is the scheduler's state.
type sched struct {
	threads    []*thread // live threads in creation order (the round-robin order)
	run        *thread   // the running thread
	nextTID    *int32    // the next thread or process id, shared with forked children
	all        *procList // the live processes of the run (fork.go), shared likewise
	quantum    uint64
	sliceStart uint64 // instret when run was switched in
	resched    bool   // switch after the system call in progress (yield)
	waitSeq    uint64
	deadlock   string  // why the run ended in a deadlock ("" if it did not)
	asking     *thread // the blocked thread whose wait condition is being asked (signalfd.go asker)
	switches   uint64
}

// errBlocked is the internal result of a system call that blocked its
// thread (or ended it): Ecall switches to another thread.
const errBlocked Errno = 1000

func (k *Kernel) initThreads() {
	k.run = &thread{tid: k.pid, deadline: -1}
	k.threads = []*thread{k.run}
	k.nextTID = new(int32)
	*k.nextTID = k.pid + 1
	k.all = &procList{kernels: []*Kernel{k}}
	k.quantum = k.cfg.Quantum
	if k.quantum == 0 {
		k.quantum = DefaultQuantum
	}
}

// Tid returns the id of the running thread.
func (k *Kernel) Tid() int32 { return k.run.tid }

// Threads returns the number of live threads.
func (k *Kernel) Threads() int { return len(k.threads) }

// Switches counts the context switches so far.
func (k *Kernel) Switches() uint64 { return k.switches }

// Deadlock returns the one-line error of a run that ended because every
// thread was blocked forever.
func (k *Kernel) Deadlock() (string, bool) { return k.deadlock, k.deadlock != "" }

// SliceEnd returns the retired-instruction count at which the running
// thread's quantum ends, when there is another thread to switch to (or
// one whose timed wait may expire meanwhile); the driver stops the core
// there and calls Preempt.
func (k *Kernel) SliceEnd() (uint64, bool) {
	if len(k.threads) < 2 || k.exited {
		return 0, false
	}
	return k.sliceStart + k.quantum, true
}

// Preempt ends the running thread's quantum at instret retired
// instructions: expired timed waits end, and the next runnable thread in
// round-robin order gets the core (r is saved and replaced by its
// registers, with its deliverable signals delivered). It reports whether
// r changed.
//
// It adds to LastWrites (a thread's clear_child_tid, a signal frame)
// rather than starting them afresh: the driver calls it after Interrupt.
func (k *Kernel) Preempt(r *UserRegs, instret uint64) bool {
	k.instret = instret
	if k.exited {
		return false
	}
	before := *r
	k.fireTimers()
	k.reschedule(r)
	return *r != before
}

// reschedule saves the running thread's registers (unless it died) and
// switches to the next runnable thread in round-robin order (it may be
// the same one), letting time pass when every thread is blocked.
func (k *Kernel) reschedule(r *UserRegs) {
	for k.switchThread(r) && k.stopped != 0 && !k.exited {
		// A signal just taken stopped the process: its threads wait in
		// pick until it is continued.
	}
}

// switchThread is one reschedule: false when no thread is left to run.
func (k *Kernel) switchThread(r *UserRegs) bool {
	k.resched = false
	old := k.run
	if !old.dead {
		old.regs = *r
	}
	next := k.pick(old)
	if next == nil {
		return false // the process ended (a deadlock, or a fatal signal meanwhile)
	}
	if next != old {
		if !old.dead {
			old.st = k.tstate
		}
		k.tstate = next.st
		k.run = next
		k.switches++
	}
	k.reap()
	k.sliceStart = k.instret
	*r = next.regs
	if next.done {
		next.done = false
		r.X[10] = next.ret
		k.deliver(r, &sysEntry{origA0: next.origA0, ret: next.ret})
	} else {
		k.deliver(r, nil)
	}
	k.settleRestore()
	return true
}

// settleRestore puts back a mask a wait replaced when no handler ran.
func (k *Kernel) settleRestore() {
	if k.restoreMask {
		k.sigMask, k.restoreMask = k.savedMask, false
	}
}

// reap drops dead threads from the round-robin list.
func (k *Kernel) reap() {
	live := k.threads[:0]
	for _, t := range k.threads {
		if !t.dead {
			live = append(live, t)
		}
	}
	for i := len(live); i < len(k.threads); i++ {
		k.threads[i] = nil
	}
	k.threads = live
}

// pick returns the next runnable thread after old in round-robin order
// (old itself last). When none is runnable, the clock advances to the
// earliest deadline (a timed wait, ITIMER_REAL); with none, the process
// ends in a deadlock and pick returns nil.
func (k *Kernel) pick(old *thread) *thread {
	start := 0
	for i, t := range k.threads {
		if t == old {
			start = i + 1
		}
	}
	for !k.exited {
		k.wakeExpired()
		host := k.wakeHostReady()
		n := len(k.threads)
		for i := 0; i < n && k.stopped == 0; i++ { // (a stopped process's threads wait: jobctl.go)
			t := k.threads[(start+i)%n]
			if !t.dead && !t.blocked {
				return t
			}
		}
		now := k.monoNS()
		until := int64(-1)
		for _, t := range k.threads {
			if t.blocked && t.deadline >= 0 && (until < 0 || t.deadline < until) {
				until = t.deadline
			}
			if t.blocked && t.next != nil {
				if n := t.next(); n >= 0 && (until < 0 || n < until) {
					until = n
				}
			}
		}
		if at := k.nextMonoExpiry(); at >= 0 && (until < 0 || at < until) {
			until = at
		}
		if k.othersServe(until) { // another process may wake one (fork.go)
			continue
		}
		if k.exited { // killed while the others ran
			return nil
		}
		var waiter func(ns int64) bool
		if len(host) > 0 { // a thread waits on the host: so does the process
			waiter = func(ns int64) bool { return hostPoll(host, ns) }
		}
		if until < 0 && waiter == nil {
			k.endDeadlock()
			return nil
		}
		if until > now || waiter != nil {
			if ready, moved, _ := k.passTime(until, waiter); !ready && !moved { // the clock saturated
				k.endDeadlock()
				return nil
			}
		}
		k.fireTimers()
	}
	return nil
}

// wakeHostReady wakes the blocked threads whose host descriptors have
// made their wait's condition hold, and returns the host descriptors the
// others still wait on.
func (k *Kernel) wakeHostReady() []hostFD {
	var left []hostFD
	for _, t := range k.threads {
		if !t.blocked || t.host == nil {
			continue
		}
		if hostPoll(t.host, 0) && k.readyFor(t) {
			k.wake(t, waitReady)
			continue
		}
		left = append(left, t.host...)
	}
	return left
}

// endDeadlock ends the process: every thread is blocked and nothing can
// wake any of them.
func (k *Kernel) endDeadlock() {
	var b strings.Builder
	for i, t := range k.threads {
		if t.dead {
			continue
		}
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "thread %d %s", t.tid, t.what)
	}
	k.deadlock = fmt.Sprintf("deadlock: every thread is blocked forever (%s)", b.String())
	if k.stopped != 0 {
		k.deadlock = fmt.Sprintf("deadlock: the process is stopped by signal %d (%s) and no process of the run can continue it", k.stopped, SignalName(k.stopped))
	}
	k.exited, k.exitCode = true, 1
	k.flushShared()
}

// wakeExpired ends the timed waits whose deadline has passed, and the
// waits a timerfd's expiry has made ready.
func (k *Kernel) wakeExpired() {
	now := k.monoNS()
	for _, t := range k.threads {
		switch {
		case !t.blocked:
		case t.deadline >= 0 && now >= t.deadline:
			k.wake(t, waitTimeout)
		case t.next != nil && k.readyFor(t):
			// (Asked at each switch: an expiry that has passed has
			// disarmed a one-shot timer, so next no longer shows it.)
			k.wake(t, waitReady)
		}
	}
}

// readyFor asks blocked thread t's wait condition, in t's view.
func (k *Kernel) readyFor(t *thread) bool {
	k.asking = t
	defer func() { k.asking = nil }()
	return t.ready()
}

// ioWake wakes the threads waiting for a pipe or eventfd to change:
// their calls start again (a spurious wake blocks again), or finish when
// the thread's ready condition holds.
func (k *Kernel) ioWake() {
	k.all.stirs++
	k.wakeIO()
}

// wakeIO is ioWake for a change this process did not make (another
// process ran): it does not count as its progress.
func (k *Kernel) wakeIO() {
	for _, t := range k.threads {
		if t.blocked && t.io && (t.ready == nil || k.readyFor(t)) {
			k.wake(t, waitReady)
		}
	}
}

// unblock cancels a wait that the running thread's call set up but did
// not end in (a readv that blocked after reading something returns it).
func (k *Kernel) unblock() {
	t := k.run
	t.blocked, t.futex, t.io, t.ready, t.next, t.sigWait, t.finish, t.host = false, 0, false, nil, nil, 0, nil, nil
	t.written = nil // (a writev that returns what its earlier buffers took)
}

// wake ends t's wait for reason why.
func (k *Kernel) wake(t *thread, why waitResult) {
	t.blocked, t.futex, t.io, t.ready, t.next, t.sigWait, t.host = false, 0, false, nil, nil, 0, nil
	k.asking = t // a finishing poll or epoll_wait rescans in t's view
	t.ret, t.done = t.finish(why), true
	k.asking = nil
	t.finish = nil
}

// block makes the running thread wait (the system call returns
// errBlocked): for a futex wake on uaddr (0: none) matching bitset, a
// signal, or the deadline (< 0: none). finish gives the call's result.
func (k *Kernel) block(what string, uaddr uint64, bitset uint32, deadline int64, finish func(why waitResult) uint64) (uint64, Errno) {
	t := k.run
	k.waitSeq++
	t.blocked, t.what, t.futex, t.bitset, t.deadline, t.waitSeq, t.finish = true, what, uaddr, bitset, deadline, k.waitSeq, finish
	return 0, errBlocked
}

// multi reports whether blocking calls should block the thread and let
// the others run (rather than the single-threaded process's waits).
func (k *Kernel) multi() bool { return len(k.threads) > 1 }

// find returns the live thread tid.
func (k *Kernel) find(tid int32) *thread {
	for _, t := range k.threads {
		if t.tid == tid && !t.dead {
			return t
		}
	}
	return nil
}

// raiseOn sends sig to thread t (tgkill, or the thread chosen for a
// process-directed signal). A signal t does not block wakes it from a
// wait; one whose default action kills ends the process at once, as
// complete_signal does.
func (k *Kernel) raiseOn(t *thread, sig int, info sigInfo) {
	defer k.sigWake()
	k.prepareSignal(sig)
	if t == k.run {
		k.raise(sig, info)
		// Blocked itself (every thread is: pick lets time pass and a
		// timer fires), it wakes for a signal it waits for or takes.
		if b := sigBit(sig); t.blocked && k.sigPending&(^k.sigMask|t.sigWait)&b != 0 {
			k.wake(t, waitSignal)
		}
		return
	}
	k.tstate, t.st = t.st, k.tstate
	k.raise(sig, info)
	k.tstate, t.st = t.st, k.tstate
	b := sigBit(sig)
	if t.st.sigPending&(^t.st.sigMask|t.sigWait)&b == 0 {
		return
	}
	if t.sigWait&b == 0 && k.sig[sig].handler == sigDFL && !k.ignored(sig) && !stopSignal(sig) {
		k.die(sig)
		return
	}
	if t.blocked {
		k.wake(t, waitSignal)
	}
}

// raiseProcess sends a process-directed signal (kill, an interval timer,
// rt_sigqueueinfo): the running thread takes it unless it blocks it, then
// the first thread in creation order that does not (complete_signal's
// choice); if every thread blocks it, it stays pending on the running one.
func (k *Kernel) raiseProcess(sig int, info sigInfo) {
	b := sigBit(sig)
	target := k.run
	if k.sigMask&b != 0 {
		for _, t := range k.threads {
			if t != k.run && !t.dead && (t.st.sigMask&b == 0 || t.blocked && t.sigWait&b != 0) {
				target = t
				break
			}
		}
	}
	st := k.stateOf(target)
	fresh := st.sigPending&b == 0
	k.raiseOn(target, sig, info)
	if fresh && st.sigPending&b != 0 {
		st.sigShared |= b // sent to the process: any thread's signalfd may take it, after its own
		k.sigWake()       // (raiseOn's asked before it was shared)
	}
}

// --- clone, exit ----------------------------------------------------------------------

// clone flags (include/uapi/linux/sched.h)
const (
	cloneVM            = 0x00000100
	cloneFS            = 0x00000200
	cloneFiles         = 0x00000400
	cloneSighand       = 0x00000800
	cloneThread        = 0x00010000
	cloneSysvsem       = 0x00040000
	cloneSettls        = 0x00080000
	cloneParentSettid  = 0x00100000
	cloneChildCleartid = 0x00200000
	cloneDetached      = 0x00400000
	cloneChildSettid   = 0x01000000

	// cloneThreadOK are the flags a thread may be created with.
	cloneThreadOK = cloneVM | cloneFS | cloneFiles | cloneSighand | cloneThread | cloneSysvsem |
		cloneSettls | cloneParentSettid | cloneChildCleartid | cloneDetached | cloneChildSettid
)

// noProcessCreation says why a clone that is neither a thread nor a
// fork, vfork or posix_spawn is refused.
const noProcessCreation = "rvsim creates threads (CLONE_THREAD) and processes as fork, vfork and posix_spawn do, not processes that share descriptor tables, signal handlers or namespaces"

// clone creates a thread (CLONE_THREAD): the child starts with the
// caller's registers, a0 = 0, sp = the new stack and tp = tls
// (CLONE_SETTLS), the caller's signal mask, no pending signals and no
// alternate stack. It is appended to the round-robin order; the caller
// continues. Anything but a thread (fork, vfork, posix_spawn) answers
// ENOSYS with the warning it always had.
func (k *Kernel) clone(num uint64, flags, sp, ptid, tls, ctid, pidfd uint64) (uint64, Errno) {
	if flags&cloneThread == 0 {
		return k.fork(num, flags, sp, ptid, tls, ctid, pidfd)
	}
	if flags&cloneSighand == 0 || flags&cloneVM == 0 || flags&^(cloneThreadOK|0xff) != 0 {
		return 0, EINVAL
	}
	if k.cur == nil {
		return 0, ENOSYS // no register context (Syscall)
	}
	sched, _, e := inheritSched(k.run) // (rvsim's nice value is the process's: a thread keeps it)
	if e != 0 {
		return 0, e
	}
	t := &thread{tid: *k.nextTID, regs: *k.cur, deadline: -1, schedState: sched,
		seccompMode: k.run.seccompMode, seccomp: k.run.seccomp,
		comm: k.taskComm(k.currentTID())} // (copy_process copies the name)
	t.regs.X[10] = 0
	if sp != 0 {
		t.regs.X[2] = sp
	}
	if flags&cloneSettls != 0 {
		t.regs.X[4] = tls
	}
	t.st.sigMask = k.sigMask
	t.st.alt = altStack{flags: ssDisable}
	if flags&cloneChildCleartid != 0 {
		t.st.clearTID = ctid
	}
	if flags&cloneParentSettid != 0 {
		if e := k.writeU32(ptid, uint32(t.tid)); e != 0 {
			return 0, e
		}
	}
	if flags&cloneChildSettid != 0 {
		if e := k.writeU32(ctid, uint32(t.tid)); e != 0 {
			return 0, e
		}
	}
	*k.nextTID++
	if len(k.threads) == 1 { // the caller's first quantum starts now
		k.sliceStart = k.instret
	}
	k.threads = append(k.threads, t)
	return uint64(t.tid), 0
}

func sysClone(k *Kernel, a sysArgs) (uint64, Errno) {
	// riscv64: clone(flags, newsp, parent_tidptr, tls, child_tidptr)
	flags, ptid := a.Ptr(0), a.Ptr(2)
	if flags&clonePidfd != 0 && flags&cloneParentSettid != 0 {
		return 0, EINVAL // both would be written to parent_tid
	}
	return k.clone(220, flags, a.Ptr(1), ptid, a.Ptr(3), a.Ptr(4), ptid)
}

// cloneArgsSize0 is CLONE_ARGS_SIZE_VER0, sizeof the first struct
// clone_args (flags, pidfd, child_tid, parent_tid, exit_signal, stack,
// stack_size, tls).
const cloneArgsSize0 = 64

func sysClone3(k *Kernel, a sysArgs) (uint64, Errno) {
	size := a.Ptr(1)
	if size < cloneArgsSize0 || size > PageSize {
		return 0, EINVAL
	}
	b, e := k.readMem(a.Ptr(0), cloneArgsSize0)
	if e != 0 {
		return 0, e
	}
	flags, ctid, ptid, stack, stackSize, tls := le64(b), le64(b[16:]), le64(b[24:]), le64(b[40:]), le64(b[48:]), le64(b[56:])
	if exitSig := le64(b[32:]); flags&0xff == 0 && flags&cloneThread == 0 && exitSig <= nsig {
		flags |= exitSig // clone3 names a child's exit signal apart from its flags
	} else if exitSig != 0 && flags&cloneThread == 0 {
		return 0, EINVAL
	}
	if size > cloneArgsSize0 { // set_tid, cgroup: must be unused
		rest, e := k.readMem(a.Ptr(0)+cloneArgsSize0, size-cloneArgsSize0)
		if e != 0 {
			return 0, e
		}
		for _, c := range rest {
			if c != 0 && flags&cloneThread != 0 {
				return 0, EINVAL
			}
		}
	}
	if flags&cloneThread != 0 && (stack == 0) != (stackSize == 0) {
		return 0, EINVAL
	}
	sp := uint64(0)
	if stack != 0 {
		sp = stack + stackSize
	}
	return k.clone(435, flags, sp, ptid, tls, ctid, le64(b[8:]))
}

// sysExit ends the calling thread; the last thread's exit ends the
// process with its status. The thread's clear_child_tid word is zeroed
// and its futex woken (what pthread_join waits for).
func sysExit(k *Kernel, a sysArgs) (uint64, Errno) {
	if len(k.threads) < 2 {
		return sysExitGroup(k, a)
	}
	k.exitThread()
	return 0, errBlocked
}

// exitThread ends the running thread (do_exit's mm_release).
func (k *Kernel) exitThread() {
	t := k.run
	if k.clearTID != 0 {
		if k.writeU32(k.clearTID, 0) == 0 {
			k.futexWake(k.clearTID, 1, ^uint32(0))
		}
	}
	t.dead = true
}

// sysExitGroup ends the process.
func sysExitGroup(k *Kernel, a sysArgs) (uint64, Errno) {
	k.exited, k.exitCode = true, int(a.Int(0)&0xff)
	k.flushShared()
	return 0, 0
}

func sysGettid(k *Kernel, a sysArgs) (uint64, Errno) { return uint64(k.run.tid), 0 }

func sysSchedYieldThreads(k *Kernel, a sysArgs) (uint64, Errno) {
	if k.multi() {
		k.resched = true
	}
	return 0, 0
}

func sysGetRobustList(k *Kernel, a sysArgs) (uint64, Errno) {
	var st *tstate
	if pid := a.Int(0); pid == 0 || pid == k.run.tid {
		st = &k.tstate
	} else if t := k.find(pid); t != nil {
		st = &t.st
	} else {
		return 0, ESRCH
	}
	if e := k.writeU64(a.Ptr(1), st.robustList); e != 0 {
		return 0, e
	}
	return 0, k.writeU64(a.Ptr(2), st.robustLen)
}

// --- futex ---------------------------------------------------------------------------

// futexWake wakes up to n threads waiting on uaddr whose bitset meets
// bitset, in the order they started waiting; it returns how many.
func (k *Kernel) futexWake(uaddr uint64, n int, bitset uint32) int {
	ws := k.waiters(uaddr)
	woken := 0
	for _, t := range ws {
		if woken >= n {
			break
		}
		if t.bitset&bitset == 0 {
			continue
		}
		k.wake(t, waitReady)
		woken++
	}
	return woken
}

// waiters lists the threads blocked on futex uaddr, in FIFO order.
func (k *Kernel) waiters(uaddr uint64) []*thread {
	var ws []*thread
	for _, t := range k.threads {
		if t.blocked && t.futex == uaddr && uaddr != 0 {
			ws = append(ws, t)
		}
	}
	sort.Slice(ws, func(i, j int) bool { return ws[i].waitSeq < ws[j].waitSeq })
	return ws
}

// futexRequeue wakes up to n waiters of uaddr and moves up to n2 of the
// rest to uaddr2; it returns how many it woke plus how many it moved.
func (k *Kernel) futexRequeue(uaddr, uaddr2 uint64, n, n2 int) int {
	woken := k.futexWake(uaddr, n, ^uint32(0))
	moved := 0
	for _, t := range k.waiters(uaddr) {
		if moved >= n2 {
			break
		}
		t.futex = uaddr2
		moved++
	}
	return woken + moved
}

// procList is the run's live processes (their kernels) in the order they
// were made, shared by all of them: a futex wake on shared memory reaches
// the waiters of the others.
type procList struct {
	kernels  []*Kernel
	files    map[fileID]*mem.Object // the objects of shared file mappings (fileObject)
	fifos    map[fileID]*fifoOpen   // the pipes of opened FIFOs (fifo.go)
	flocks   map[fileID]*flockState // flock(2)'s locks (flock.go)
	eventfds int                    // eventfds made so far (their ids: fdinfo.go)
	locks    map[fileID]*fileLocks  // fcntl's record locks (posixlock.go)
	uts      *utsNames              // the node and domain names (proc.go; nil: the defaults)
	netlink  *netlinkPorts          // bound netlink sockets by port id (netlink.go)
	// stirs counts the changes a process made that another may wait for
	// (ioWake): a child that wrote part of a long write, then waits,
	// has made progress without retiring an instruction (fork.go).
	stirs uint64
	ptys  []*pty // the pseudo-terminals, by index (nil: free; pty.go)
	// The run's one network namespace: the loopback's bound AF_INET and
	// AF_INET6 sockets (inet.go) and the bound AF_UNIX names (unixsock.go),
	// so that a process connects to another's listener.
	net       netState
	unixNames map[string]*openFile
	unixAuto  uint32
	// running is the process whose turn it is (nil: the first, before
	// any other has had one), which /proc shows as running.
	running *Kernel
	inotify *inotifyHub // the inotify watches (inotify.go; nil before the first instance)
	ipc     *sysvIPC    // System V IPC objects (sysvipc.go; nil before the first)
	mounts  *mounts     // the mount namespaces (mount.go; nil before the first is asked for)
}

// mapped reports whether a process of the run maps obj.
func (l *procList) mapped(obj *mem.Object) bool {
	for _, k := range l.kernels {
		if k.mem == nil {
			continue
		}
		for _, r := range k.mem.Regions() {
			if r.Obj == obj {
				return true
			}
		}
	}
	return false
}

// drop removes an ended process.
func (l *procList) drop(k *Kernel) {
	for i, o := range l.kernels {
		if o == k {
			l.kernels = append(l.kernels[:i], l.kernels[i+1:]...)
			return
		}
	}
}

// sharedFutex reports whether a futex operation op on uaddr may concern
// other processes: it is not FUTEX_PRIVATE_FLAG's and uaddr is in a
// shared mapping (mem.Object), which forked children map too. Linux keys
// such a futex by the page it is in, not by the address.
func (k *Kernel) sharedFutex(uaddr uint64, op int32) bool {
	if op&futexPrivate != 0 {
		return false
	}
	r, ok := k.mem.RegionAt(uaddr)
	return ok && r.Obj != nil
}

// futexWakeAll is futexWake for operation op: on a shared futex, the
// waiters of the other processes that map the same bytes come after
// this process's own (up to n in all; the processes in the order they
// were made, each one's waiters in the order they began to wait).
func (k *Kernel) futexWakeAll(uaddr uint64, op int32, n int, bitset uint32) int {
	woken := k.futexWake(uaddr, n, bitset)
	if woken >= n || !k.sharedFutex(uaddr, op) {
		return woken
	}
	r, _ := k.mem.RegionAt(uaddr)
	off := r.Off + uaddr - r.Start
	for _, o := range k.all.kernels {
		if o == k || o.exited || o.mem == nil {
			continue
		}
		for _, or := range o.mem.Regions() {
			if or.Obj == r.Obj && off >= or.Off && off < or.Off+(or.End-or.Start) && woken < n {
				woken += o.futexWake(or.Start+off-or.Off, n-woken, bitset)
			}
		}
	}
	return woken
}
