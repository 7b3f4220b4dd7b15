package syscalls

import (
	"fmt"
	"math"
	"os"
	"slices"

	"github.com/rvsim/rvsim/internal/crash"
	"github.com/rvsim/rvsim/mem"
)

// Process creation: fork, vfork and posix_spawn (clone and clone3
// without CLONE_THREAD). The child is a process of its own, with its own
// kernel (this package's state, copied as copy_process copies it) and
// its own copy of the parent's memory, on a core of its own that the
// glue builds (Forker) and runs on a goroutine of its own. The processes
// take turns, one at a time, at points fixed by what they do and by
// their clocks, so every run is the same:
//   - every process's clock counts on from its parent's at the fork: one
//     time line for the whole run;
//   - clone runs the child first, for one slice (processSlice: 1 ms of
//     its clock, instructions or sleep), or until it ends or waits for
//     something only another process can do (a pipe its parent has yet
//     to write or drain, a signal); then the parent goes on;
//   - a process that computes lets its children catch up with its clock
//     every slice (a parent that polls with WNOHANG, or spins on shared
//     memory, sees its children move);
//   - a process that waits (a pipe, poll, wait4 for a child, pause, a
//     sleep, a timed wait) lets its children run, one slice each in the
//     order they were made, and looks again when one of them made
//     progress (retired an instruction, let its clock run, changed
//     something another process may wait for, ended, or had a child of
//     its own progress); a child that has none hands the turn back to
//     its parent;
//   - no child's turn goes past the deadline of the wait that gave it,
//     nor past a waiting ancestor's (a slice bounds only the process's
//     own work: its children may be ahead of it). So a parent with a
//     timeout, a timer or a sleep to reach gets the turn back there,
//     whatever its children do: it can time out a child that computes
//     or sleeps without end (coreutils' timeout, Python's
//     subprocess.run(timeout=...)), and a child's long sleep does not
//     run ahead of its parent's kill;
//   - a parent that reaps a child sees its clock at least at the child's
//     end, so the time a parent measures around a child's run includes
//     it (a shell's time);
//   - when nobody can make progress, a wait4 kills the children it waits
//     for (Linux would hang), with a one-line warning; other waits end as
//     a single process's do (EINTR, with their warning);
//   - a process that ends hands its children to the run's first process,
//     which gives them turns as init's orphans, without waiting for them
//     (adopt); when the first process ends, they run to their ends.
// A child's instructions are not its parent's: the parent's instruction
// count, cycles and profiles are what they are without the child.
//
// vfork and CLONE_VM (posix_spawn) get a copy of the memory too, as
// POSIX allows: a vfork child may only exec or _exit. Its parent waits
// until it execs or ends, as Linux's CLONE_VFORK does, and when it ends
// without an exec its stores are copied back into its parent's memory
// (sim/fork.go, mem.Memory.TakeStores), as if the two had shared it:
// glibc's posix_spawn reports a failed exec that way (ENOENT for a
// missing program, where the call would otherwise succeed and the child
// exit with 127). A vfork child that waits for another process lets its
// parent go on, and their memories part there.

// ChildEnd is how a child process ended.
type ChildEnd struct {
	Code   int // its exit status (0..255), when Signal is 0
	Signal int // the signal that killed it
}

// Forker builds a child process; the glue sets it (SetForker). child is
// the child's kernel: the forker gives it a copy of the parent's memory
// (Attach) and a core at regs, and returns run, which runs the child to
// its end (on a goroutine of its own, while its parent waits), lets its
// own children finish (FinishChildren) and closes its kernel.
type Forker func(child *Kernel, regs UserRegs) (run func() ChildEnd)

// SetForker enables fork, vfork and posix_spawn with forker f (nil:
// clone without CLONE_THREAD answers ENOSYS with a warning).
func (k *Kernel) SetForker(f Forker) { k.forker = f }

// Pid returns the process's id.
func (k *Kernel) Pid() int32 { return k.pid }

// Warnf writes one warning line (the glue's, about this process).
func (k *Kernel) Warnf(format string, args ...any) {
	if k.cfg.Warn != nil {
		fmt.Fprintf(k.cfg.Warn, format+"\n", args...)
	}
}

// maxProcesses bounds the live processes of a run (each holds a copy of
// its parent's memory), whatever RLIMIT_NPROC says.
const maxProcesses = 256

const (
	rlimitNproc       = 6
	cloneVfork        = 0x00004000
	cloneClearSighand = 0x100000000 // CLONE_CLEAR_SIGHAND (clone3): the child's handlers return to SIG_DFL
	cloneForkOK       = cloneVM | cloneVfork | clonePidfd | cloneParentSettid | cloneChildSettid | cloneChildCleartid | cloneSettls | cloneClearSighand | 0xff
	cldExited         = 1 // CLD_EXITED
	cldKilled         = 2 // CLD_KILLED
	saNocldwait       = 0x2
)

// liveChild is a child process that has not ended. Its machine runs on a
// goroutine of its own, only between a resume and the next yield.
type liveChild struct {
	pid    int32
	kernel *Kernel
	parent *Kernel // the process that gives it turns
	// report is a stop or continuation not yet waited for (cldStopped,
	// cldContinued; 0: none), with its signal (jobctl.go).
	report    int32
	reportSig int
	exitSig   int
	resume    chan struct{}
	yield     chan childYield
	instret   uint64 // the child's instruction count at its last yield
	slept     int64  // and the time it had slept (its clock's other part)
	clock     int64  // its monotonic clock then
	wakeAt    int64  // asleep: the time it wakes; or yieldBlocked, yieldComputing
	// idle: its last turn made no progress and ended in a wait with no
	// deadline (it waits for another process; its clock stands still).
	idle bool
	// busy: in its last turn its own children computed, whatever it did
	// itself (a sleeping parent of a child that starts up).
	busy bool
	// orphan: its parent ended; the run's first process gives it turns
	// as init would, but does not wait for it (adopt).
	orphan bool
}

// childYield is what a child reports when it hands the turn back.
type childYield struct {
	ended   bool
	end     ChildEnd
	instret uint64
	slept   int64
	clock   int64 // its monotonic clock
	wakeAt  int64 // asleep: the time it wakes; or yieldBlocked, yieldComputing
	busy    bool  // its own children computed in the turn
}

// What a child was doing when it handed the turn back, beside a sleep's
// end (childYield.wakeAt).
const (
	yieldBlocked   = -1 // it waits for another process, with no deadline
	yieldComputing = -2 // its turn ended while it ran
)

// processSlice is the longest turn a child process gets at once, in
// retired instructions and in ns of its clock (1 ms: Linux's scheduler
// gives a task a few ms while others wait for the CPU). Every turn ends
// there, so a waiting parent looks at its condition again at least that
// often, whatever its children do.
const processSlice = 1_000_000

// turnBound is where a child process's current turn ends: at the end of
// its slice (retired instruction count inst, or monotonic time slice
// while it sleeps), and at monotonic time end (< 0: none), the deadline
// of a waiting ancestor, which bounds the turns it gives its own children
// too. The first process has none.
type turnBound struct {
	inst  uint64
	slice int64
	end   int64
}

// stop is the monotonic time at which the turn ends.
func (b turnBound) stop() int64 {
	if b.end >= 0 && b.end < b.slice {
		return b.end
	}
	return b.slice
}

// zombie is a child that has ended and not been waited for.
type zombie struct {
	pid    int32
	kernel *Kernel // the process, which its pidfds name
	end    ChildEnd
	ruid   uint32 // its real user id, SIGCHLD's si_uid
	clock  int64  // its monotonic clock when it ended
}

// status is the wait status of the child's end (WIFEXITED, WIFSIGNALED).
func (z zombie) status() uint32 {
	if z.end.Signal != 0 {
		return uint32(z.end.Signal)
	}
	return uint32(z.end.Code&0xff) << 8
}

// fork creates a child process and runs it to its end (see above).
func (k *Kernel) fork(num, flags, sp, ptid, tls, ctid, pidfdAddr uint64) (uint64, Errno) {
	ns := flags &^ 0xff & cloneNewAll // (the low byte is clone's exit signal)
	if ns != 0 {
		if e := k.newNamespaces(ns); e != 0 {
			return 0, e
		}
		flags &^= ns // a mount namespace (made below) or a cgroup one, a copy nothing tells apart (unshare.go)
	}
	if k.forker == nil || flags&^cloneForkOK != 0 {
		why := noProcessCreation
		if k.forker == nil {
			why = "no process runner is attached to this kernel"
		}
		return k.unsupported(num, why)
	}
	if k.cur == nil {
		return 0, ENOSYS // no register context (Syscall)
	}
	if uint64(len(k.all.kernels)) >= min(k.rlim[rlimitNproc].cur, maxProcesses) {
		return 0, EAGAIN // RLIMIT_NPROC: a fork bomb ends here, not in the host's memory
	}
	sched, resetNice, e := inheritSched(k.run)
	if e != 0 {
		return 0, e // a SCHED_DEADLINE thread without reset-on-fork
	}
	pidfd := int32(-1)
	if flags&clonePidfd != 0 { // the parent's descriptor for the child (copy_process)
		fd, e := k.newPidfd(nil, 0)
		if e != 0 {
			return 0, e
		}
		pidfd = int32(fd)
		if e := k.mayWriteU32(pidfdAddr); e != 0 {
			k.closeFD(pidfd)
			return 0, e
		}
	}
	pid := *k.nextTID
	*k.nextTID++
	if flags&cloneParentSettid != 0 {
		if e := k.writeU32(ptid, uint32(pid)); e != 0 {
			k.dropPidfd(pidfd)
			return 0, e
		}
	}
	sb, err := k.forkSandbox()
	if err != nil {
		k.dropPidfd(pidfd)
		return 0, EAGAIN // no host descriptors to spare
	}
	child := k.forkKernel(pid)
	child.sandboxFS = sb
	child.run.schedState = sched
	if resetNice && child.nice < 0 {
		child.nice = 0
	}
	if ns&cloneNewns != 0 {
		child.newMountNS()
	}
	if pidfd >= 0 { // open in the parent's table, not in the child's copy
		of := k.fds[pidfd].of
		of.process = child
		child.fds[pidfd] = nil
		of.refs--
	}
	regs := *k.cur
	regs.X[10] = 0
	if sp != 0 {
		regs.X[2] = sp
	}
	if flags&cloneSettls != 0 {
		regs.X[4] = tls
	}
	if flags&cloneChildSettid != 0 {
		child.setTID = ctid
	}
	if flags&cloneChildCleartid != 0 {
		child.clearTID = ctid
	}
	child.vforkHold = flags&cloneVfork != 0
	if flags&cloneClearSighand != 0 {
		for i := range child.sig {
			if child.sig[i].handler != sigIGN {
				child.sig[i] = sigAction{}
			}
		}
	}
	run := k.forker(child, regs)
	if pidfd >= 0 { // after the child's copy of memory: it does not see the number (copy_process)
		k.writeU32(pidfdAddr, uint32(pidfd))
	}
	c := &liveChild{pid: pid, kernel: child, parent: k, exitSig: int(flags & 0xff), resume: make(chan struct{}), yield: make(chan childYield),
		clock: child.monoNS(), wakeAt: yieldComputing}
	child.parentLink = c
	go func() {
		defer crash.Exit(os.Stderr) // (a child's goroutine: the main one cannot recover its panic)
		<-c.resume
		end := run()
		c.yield <- childYield{ended: true, end: end, clock: child.monoNS()}
	}()
	k.live = append(k.live, c)
	k.all.kernels = append(k.all.kernels, child)
	// Parent and child run at once: one slice; a vfork parent waits
	// until the child execs or ends (it yields then). Another thread may
	// wait for what the child did in it (a pipe it wrote before it ended).
	stop := k.monoNS() + processSlice
	if child.vforkHold {
		stop = math.MaxInt64
	}
	if k.turn(c, k.childBound(-1), stop) {
		k.wakeIO()
	}
	k.catchUpAt = k.instret + processSlice
	return uint64(pid), 0
}

// dropPidfd closes the pidfd a failed fork had made (fd < 0: none).
func (k *Kernel) dropPidfd(fd int32) {
	if fd >= 0 {
		k.closeFD(fd)
	}
}

// childBound is the time bound of the turns this process gives its
// children while it waits until monotonic time until (< 0: no deadline
// of its own): the earlier of until and its own turn's hard end (not its
// slice's: its children may be ahead of its clock).
func (k *Kernel) childBound(until int64) int64 {
	if b := k.turnBound; k.parentLink != nil && b.end >= 0 && (until < 0 || b.end < until) {
		return b.end
	}
	return until
}

// ownStop is the time at which the process's wait until monotonic time
// until (< 0: none) must stop for its turn's end: the earliest of until
// and, for a child, its turn's slice and hard end.
func (k *Kernel) ownStop(until int64) int64 {
	if k.parentLink == nil || k.vforkHold {
		return until
	}
	if b := k.turnBound.stop(); until < 0 || b < until {
		return b
	}
	return until
}

// turn lets child c run until it ends, hands the turn back, reaches the
// end of its slice (one slice of instructions, or monotonic time slice
// while it sleeps), or monotonic time bound (< 0: none), which bounds its
// own children's turns too. It reports whether the child made progress
// (retired an instruction, let its clock run, changed something another
// process may wait for, ended, or had a child of its own progress).
func (k *Kernel) turn(c *liveChild, bound, slice int64) bool {
	c.kernel.turnBound = turnBound{inst: c.instret + processSlice, slice: slice, end: bound}
	stirs := k.all.stirs
	k.all.running = c.kernel
	c.resume <- struct{}{}
	y := <-c.yield
	k.all.running = k
	if y.ended {
		k.childEnded(c, y)
		k.recordShared()
		return true
	}
	progressed := y.instret != c.instret || y.slept != c.slept || k.all.stirs != stirs
	c.instret, c.slept, c.clock, c.wakeAt, c.busy = y.instret, y.slept, y.clock, y.wakeAt, y.busy
	c.idle = !progressed && y.wakeAt == yieldBlocked
	if progressed {
		k.all.stirs++ // (this process's own parent sees it too)
		k.recordShared()
	}
	return progressed
}

// yieldTurn hands the turn back to the parent (a child's) and waits for
// the next; wakeAt is the time a sleeping process wakes, or
// yieldBlocked or yieldComputing.
func (k *Kernel) yieldTurn(wakeAt int64) {
	k.vforkHold = false // (a vfork child that waits lets its parent go on: their memories part)
	c := k.parentLink
	c.yield <- childYield{instret: k.instret, slept: k.sleptNS, clock: k.monoNS(), wakeAt: wakeAt, busy: k.turnBusy}
	k.turnBusy = false
	<-c.resume
}

// turnOver reports whether a child's turn has ended by its instruction
// count and clock.
func (k *Kernel) turnOver() bool {
	b := k.turnBound
	return k.parentLink != nil && !k.exited && !k.vforkHold && (k.instret >= b.inst || k.monoNS() >= b.stop())
}

// VforkPending reports whether the process is a vfork child (CLONE_VFORK,
// as glibc's vfork and posix_spawn make) that has not exec'd: its stores
// so far are its parent's, with CLONE_VM, and the glue copies them back
// when it ends (mem.Memory.TakeStores). glibc's posix_spawn reports a
// failed exec that way.
func (k *Kernel) VforkPending() bool { return k.vforkHold }

// releaseVfork lets a vfork child's parent go on: the child has exec'd.
func (k *Kernel) releaseVfork() {
	if k.vforkHold {
		k.yieldTurn(yieldComputing)
	}
}

// turnNext is the retired-instruction count at which a child's turn ends
// (NextTimer stops the core there).
func (k *Kernel) turnNext() (uint64, bool) {
	if k.parentLink == nil || k.vforkHold {
		return 0, false
	}
	b := k.turnBound
	if k.cfg.HostTime {
		return min(b.inst, k.instret+hostTimerPoll), true
	}
	return min(b.inst, uint64(max(b.stop()-k.sleptNS, 0))), true
}

// childrenNext is the retired-instruction count at which the live
// children next catch up with the process's clock (NextTimer stops the
// core there).
func (k *Kernel) childrenNext() (uint64, bool) {
	return k.catchUpAt, len(k.live) > 0
}

// letChildrenCatchUp gives the live children a turn bounded by the
// process's clock, once a slice of its instructions has passed since the
// last (Interrupt): they run side by side with a parent that computes.
func (k *Kernel) letChildrenCatchUp() {
	if len(k.live) == 0 || k.instret < k.catchUpAt {
		return
	}
	if k.runChildren(k.childBound(k.monoNS())) {
		k.wakeIO()
	}
	k.catchUpAt = k.instret + processSlice
}

// catchUp moves the clock on to monotonic time t if it is behind: the
// process has seen something another process did at t.
func (k *Kernel) catchUp(t int64) {
	if now := k.monoNS(); !k.cfg.HostTime && t > now {
		k.sleep(t - now)
	}
}

// recordShared notes the pages of shared mappings as written by the
// system call under way, when asked to (ListSharedWrites): a child that
// ran meanwhile may have stored there.
func (k *Kernel) recordShared() {
	if !k.listShared {
		return
	}
	for _, a := range k.mem.SharedPages() {
		k.record(a, PageSize)
	}
}

// childEnded turns c into a zombie and sends its exit signal (SIGCHLD),
// or reaps it at once when SIGCHLD is ignored, as Linux does.
func (k *Kernel) childEnded(c *liveChild, y childYield) {
	k.all.drop(c.kernel)
	k.dropLocks(lockOwner{proc: c.kernel}, nil, y.clock) // (its record locks end with it)
	for i, l := range k.live {
		if l == c {
			k.live = append(k.live[:i], k.live[i+1:]...)
			break
		}
	}
	if c.orphan || c.exitSig == sigCHLD && (k.sig[sigCHLD].handler == sigIGN || k.sig[sigCHLD].flags&saNocldwait != 0) {
		c.kernel.reaped = true
		return
	}
	z := zombie{pid: c.pid, kernel: c.kernel, end: y.end, ruid: c.kernel.cred.ruid, clock: y.clock}
	k.children = append(k.children, z)
	if c.exitSig > 0 && c.exitSig <= nsig {
		k.raise(c.exitSig, k.childInfo(z, int32(c.exitSig)))
	}
}

// runChildren gives each live child one turn, in the order they were
// made, bounded by monotonic time bound (< 0: none) and by one slice of
// the child's clock: the children keep pace with each other, and a
// waiting parent looks at its condition again at least every slice.
// When none of them was computing at the end of its last turn (each
// sleeps or waits for another process), the slice stretches to the
// earliest time a sleeper wakes: nothing the parent waits for can change
// before it, and a long sleep takes one turn, not one per slice. A child
// whose own children computed in its last turn counts as computing: they
// may act before it wakes (a sleeping parent's child that starts up and
// then writes to this process). It reports whether any made progress.
func (k *Kernel) runChildren(bound int64) bool {
	live := append([]*liveChild(nil), k.live...)
	wake, quiet := int64(-1), k.quietSince()
	for _, c := range live {
		if c.wakeAt == yieldComputing || c.busy {
			quiet = false
		}
		if c.wakeAt >= 0 && (wake < 0 || c.wakeAt < wake) {
			wake = c.wakeAt
		}
	}
	progressed, computed := false, false
	for _, c := range live {
		slice := c.clock + processSlice
		if quiet && wake > slice {
			slice = wake
			// A child process's children stretch no further than its own
			// turn: its parent may act meanwhile (a forkserver's parent
			// sends the request for the next worker while a worker waits
			// for it with a timeout).
			if k.parentLink != nil && !k.vforkHold {
				slice = max(min(slice, k.turnBound.slice), c.clock+processSlice)
			}
		}
		before := c.instret
		if k.turn(c, bound, slice) {
			progressed = true
		}
		if c.instret != before || c.busy || !slices.Contains(k.live, c) { // (ended)
			computed = true
		}
	}
	k.lastRound = roundMark{quiet: !computed, instret: k.instret, stirs: k.all.stirs}
	k.turnBusy = k.turnBusy || computed
	return progressed
}

// handBackPastTurn hands the turn of a child process that waits while
// its own children run back to its parent once they are past the end of
// its turn, whether they only wait or compute now and then (a server's
// timed waits); wakeAt is the wait's deadline (yieldBlocked: none). Else
// the wait would loop on them, their clocks running ahead, while the
// parent, which may be what they wait for or may act on them (kill their
// parent), stood still. Its own clock moves on to the turn's end (or the
// deadline), as time passes while it waits: a waiting process between a
// waiting parent and busy children (a forkserver's) would otherwise stay
// behind the parent's turn, which would then never end. It reports
// whether it handed the turn back.
func (k *Kernel) handBackPastTurn(wakeAt int64) bool {
	if k.parentLink == nil || k.vforkHold || !k.childrenPast(k.turnBound.stop()) {
		return false
	}
	stop := k.turnBound.stop()
	if wakeAt >= 0 {
		stop = min(stop, wakeAt)
	}
	if !k.cfg.HostTime {
		k.sleep(stop - k.monoNS())
	}
	k.yieldTurn(wakeAt)
	k.wakeIO()
	return true
}

// childrenPast reports whether every live child's clock has reached t,
// or the child is idle: an idle worker's clock stands still until another
// process serves it, so it cannot hold the turn (a forkserver with an idle
// pool worker would otherwise keep the turn while a sibling's timed waits
// ran its clock to the turn's bound, or on for ever without one).
func (k *Kernel) childrenPast(t int64) bool {
	for _, c := range k.live {
		if c.clock < t && !c.idle {
			return false
		}
	}
	return true
}

// roundMark is how the children's last round went: whether none retired
// an instruction (each only slept or waited), and this process's
// instruction count and the run's stirs at its end.
type roundMark struct {
	quiet   bool
	instret uint64
	stirs   uint64
}

// quietSince reports whether the children's last round was quiet and
// nothing has happened since that could have woken one: the next round's
// slices may then stretch to the earliest sleeper's wake. A child woken
// in a round (by a sibling's futex wake or pipe write, say) has its turn
// in the next round with an ordinary slice, so that it cannot sleep past
// siblings it now works with (a waiting child's clock would otherwise
// jump to its own deadline while they stood still).
func (k *Kernel) quietSince() bool {
	r := k.lastRound
	return r.quiet && r.instret == k.instret && r.stirs == k.all.stirs
}

// othersServe lets the other processes run while the running thread
// waits for something they may do, until monotonic time until (< 0: the
// wait has no deadline to reach by itself): this process's children
// first, their turns bounded by until, then (a child's, when the wait
// has no deadline) its parent. It reports whether the wait should look
// again.
func (k *Kernel) othersServe(until int64) bool {
	if k.runChildren(k.childBound(until)) {
		k.wakeIO()
		if k.handBackPastTurn(max(until, yieldBlocked)) {
			return !k.exited
		}
		return true
	}
	if k.parentLink != nil && !k.exited && until < 0 {
		k.yieldTurn(yieldBlocked)
		k.wakeIO()
		return !k.exited
	}
	return false
}

// killChildren kills the live children wait's pid argument selects, which
// wait for this process as it waits for them (Linux would hang).
func (k *Kernel) killChildren(pid int32) {
	for _, c := range append([]*liveChild(nil), k.live...) {
		if !c.orphan && (pid <= 0 || c.pid == pid) {
			k.killChild(c, "it and its parent wait for each other")
		}
	}
}

// killChild kills live child c (why: for the warning) and lets it end.
func (k *Kernel) killChild(c *liveChild, why string) {
	k.Warnf("rvsim: warning: child process %d killed: %s", c.pid, why)
	c.kernel.die(sigKILL)
	for !k.turn(c, -1, math.MaxInt64) { // a killed child ends at its next turn, or at most a few later
	}
}

// FinishChildren hands the live children of a process that has ended to
// the run's first process (adopt), or, when the first process itself
// has ended, runs them to their ends, killing those that wait forever.
func (k *Kernel) FinishChildren() {
	// exit_sem comes before exit_notify: SEM_UNDO first.
	k.exitSem()
	for _, c := range k.live { // forget_original_parent: PR_SET_PDEATHSIG
		if sig := c.kernel.pdeathsig; sig != 0 && !c.kernel.exited {
			c.kernel.raiseProcess(sig, k.senderInfo(int32(sig), siUser))
		}
	}
	if k.parentLink != nil {
		k.adopt()
	}
	if len(k.live) > 0 { // exit_files: the children see their pipes' ends close
		for fd := range k.fds {
			if k.fds[fd] != nil {
				k.closeFD(int32(fd))
			}
		}
	}
	for len(k.live) > 0 {
		if !k.runChildren(-1) {
			for _, c := range append([]*liveChild(nil), k.live...) {
				k.killChild(c, "it waits for its parent, which has ended")
			}
		}
	}
	for _, z := range k.children { // init reaps the orphaned zombies
		z.kernel.reaped = true
	}
	k.children = nil
	if k.parentLink == nil { // the run's first process: every process has ended
		k.removePrivateShm()
	}
}

// adopt gives the live children of this ended process to their new
// reaper, as forget_original_parent reparents them: their parent's end
// is reported at once (a daemon's starter, pg_ctl's or daemon(3)'s,
// returns while the daemon goes on). The reaper is the nearest ancestor
// that made itself a child subreaper (PR_SET_CHILD_SUBREAPER), whose
// children they then are (getppid names it, it gets SIGCHLD and waits
// for them, the zombies left unreaped included); else init: getppid says
// 1, and the run's first process gives them turns with its own
// children's without waiting for them (wait4 does not see them; their
// ends are reaped as init reaps).
func (k *Kernel) adopt() {
	reaper := k.parentLink.parent
	for !reaper.subreaper && reaper.parentLink != nil {
		reaper = reaper.parentLink.parent
	}
	init := !reaper.subreaper
	for _, c := range k.live {
		c.parent, c.orphan = reaper, init
		c.kernel.ppid = 1
		if !init {
			c.kernel.ppid, c.exitSig = reaper.pid, sigCHLD
		}
		reaper.live = append(reaper.live, c)
	}
	k.live = nil
	if !init { // (reparent_leader: the zombies are the reaper's to wait for)
		for _, z := range k.children {
			z.kernel.ppid = reaper.pid
			reaper.children = append(reaper.children, z)
			reaper.raiseProcess(sigCHLD, reaper.childInfo(z, sigCHLD))
		}
		k.children = nil
	}
	k.all.stirs++
}

// liveChildFor reports whether a live child matches wait's pid argument.
func (k *Kernel) liveChildFor(pid int32) bool {
	for _, c := range k.live {
		if c.orphan {
			continue
		}
		if pid <= 0 || c.pid == pid {
			return true
		}
	}
	return false
}

// childInfo is the siginfo of a child's end (SIGCHLD, waitid).
func (k *Kernel) childInfo(z zombie, sig int32) sigInfo {
	code, st := int32(cldExited), uint32(z.end.Code&0xff)
	if z.end.Signal != 0 {
		code, st = cldKilled, uint32(z.end.Signal)
	}
	si := makeInfo(sig, code)
	put32(si[:], siPidOff, uint32(z.pid))
	put32(si[:], siUIDOff, z.ruid)
	put32(si[:], 24, st) // si_status
	return si
}

// forkKernel copies the kernel state a child inherits (copy_process):
// the file descriptors (sharing their open files), the working
// directory and root, the signal actions and the caller's mask, limits,
// the process group, the clock (the child's starts where its parent's
// stands), the file identities and the shared file mappings (their bytes
// are one mem.Object in both). The child's getrandom stream is seeded
// from its parent's, so that each process draws different bytes (two
// children asking for a key get two keys), the same in every run. Not
// inherited: pending signals, interval timers, memory locks, other
// threads, children.
func (k *Kernel) forkKernel(pid int32) *Kernel {
	c := &Kernel{
		cfg: k.cfg, rootDir: k.rootDir, writeDirs: k.writeDirs, cwd: k.cwd, umask: k.umask,
		exePath: k.exePath, sysroot: k.sysroot, sysrootDir: k.sysrootDir, comm: k.comm, cred: k.cred.clone(),
		argv: k.argv, auxv: k.auxv, stackStart: k.stackStart,
		argStart: k.argStart, argEnd: k.argEnd, envStart: k.envStart, envEnd: k.envEnd,
		brkStart: k.brkStart, brk: k.brk,
		pid: pid, ppid: k.pid, rlim: k.rlim, nice: k.nice, mnt: k.mnt, timerSlack: k.timerSlack, noNewPrivs: k.noNewPrivs, persona: k.persona, ioprio: k.ioprio,
		pgrp: k.pgid(), sid: k.sid, sig: k.sig, trampoline: k.trampoline,
		inoSeq: k.inoSeq, ids: k.ids,
		sleptNS: k.monoNS(), realSet: k.realSet, start: k.start, fileEpoch: k.fileEpoch,
		rand: splitMix{state: k.rand.next()}, warned: make(map[string]bool), buf: make([]byte, chunk),
	}
	for key, v := range k.warned {
		c.warned[key] = v
	}
	c.tstate = tstate{sigMask: k.sigMask, alt: k.alt}
	c.run = &thread{tid: pid, deadline: -1, schedState: k.run.schedState, comm: k.taskComm(k.currentTID()),
		seccompMode: k.run.seccompMode, seccomp: k.run.seccomp}
	c.threads = []*thread{c.run}
	c.nextTID, c.all = k.nextTID, k.all
	c.quantum = k.quantum
	for _, m := range k.shared { // the child's stores through them reach the file too
		m.file.refs++
		c.shared = append(c.shared, &sharedMap{start: m.start, end: m.end, file: m.file, off: m.off, snap: append([]byte(nil), m.snap...)})
	}
	c.fds = make([]*fdEntry, len(k.fds))
	for i, f := range k.fds {
		if f != nil {
			f.of.refs++
			c.fds[i] = &fdEntry{of: f.of, cloexec: f.cloexec}
		}
	}
	return c
}

// Attach gives a forked child its memory (a copy of its parent's) and
// writes what CLONE_CHILD_SETTID asks into it.
func (k *Kernel) Attach(m *mem.Memory) {
	k.mem = m
	if k.setTID != 0 {
		k.writeU32(k.setTID, uint32(k.pid)) // a fault here is the child's to meet, as in Linux
		k.setTID = 0
	}
}

// reapable returns the index of the zombie wait's pid argument selects
// (-1: any child; 0 or -pgid: a child in that group, which every child
// is, since none leaves its parent's group before it has ended), or -1.
func (k *Kernel) reapable(pid int32) int {
	for i, z := range k.children {
		if pid <= 0 || z.pid == pid {
			return i
		}
	}
	return -1
}

// reapZombie removes zombie i.
func (k *Kernel) reapZombie(i int) {
	k.children[i].kernel.reaped = true
	k.children = append(k.children[:i], k.children[i+1:]...)
}

func sysWait4(k *Kernel, a sysArgs) (uint64, Errno) {
	if a.Uint(2)&^(wNohang|wUntraced|wContinued|wNothread|wAll|wClone) != 0 {
		return 0, EINVAL
	}
	i, c, e := k.awaitChild(a.Int(0), a.Uint(2)|wExited)
	if e != 0 || i < 0 && c == nil {
		return 0, e
	}
	pid, status := int32(0), uint32(0)
	if c != nil { // a stop or a continuation (jobctl.go)
		pid, status = c.pid, reportStatus(c)
	} else {
		pid, status = k.children[i].pid, k.children[i].status()
	}
	if st := a.Ptr(1); st != 0 {
		if e := k.writeU32(st, status); e != 0 {
			return 0, e
		}
	}
	if ru := a.Ptr(3); ru != 0 {
		if e := k.writeMem(ru, make([]byte, rusageSize)); e != 0 {
			return 0, e
		}
	}
	if c != nil {
		c.report = 0
	} else {
		k.reapZombie(i)
	}
	return uint64(pid), 0
}

// awaitChild finds the zombie wait's pid argument selects, letting the
// live children run until one ends (see above); -1 with WNOHANG when
// only live children match.
func (k *Kernel) awaitChild(pid int32, opts uint32) (int, *liveChild, Errno) {
	found := func() bool {
		return opts&wExited != 0 && k.reapable(pid) >= 0 || k.childReport(pid, opts) != nil || !k.liveChildFor(pid)
	}
	for {
		if i := k.reapable(pid); i >= 0 && opts&wExited != 0 {
			k.catchUp(k.children[i].clock)
			return i, nil, 0
		}
		if c := k.childReport(pid, opts); c != nil {
			return -1, c, 0
		}
		if !k.liveChildFor(pid) {
			return -1, nil, ECHILD
		}
		if opts&wNohang != 0 {
			return -1, nil, 0
		}
		if k.deliverable(0) {
			return -1, nil, errRestartSys // a signal first (a SIGCHLD handler, say)
		}
		if k.multi() {
			// The process's other threads go on while this one waits (an
			// asyncio child watcher's thread in waitpid, the event loop in
			// the main thread): the thread blocks until a child it may
			// reap has ended, and the children run when every thread
			// waits (pick) or catch up with the process's clock each slice.
			_, e := k.block("in wait4", 0, 0, -1, func(why waitResult) uint64 {
				if why == waitReady {
					return errnoRet(errRestartNoIntr)
				}
				return errnoRet(errRestartSys)
			})
			k.run.io, k.run.ready = true, found
			return -1, nil, e
		}
		until := k.nextMonoExpiry() // a timer of its own ends the wait with a signal
		switch {
		case k.othersServe(until):
		case until >= 0:
			if k.waitHost(-1, 0, nil, true) == waitForever {
				k.killChildren(pid)
			}
		default:
			k.killChildren(pid)
		}
	}
}

func sysWaitid(k *Kernel, a sysArgs) (uint64, Errno) {
	idtype, id := a.Int(0), a.Int(1)
	if idtype < 0 || idtype > pPidfd { // P_ALL, P_PID, P_PGID, P_PIDFD
		return 0, EINVAL
	}
	opts := a.Uint(3)
	if opts&^(wNohang|wUntraced|wExited|wContinued|wNowait|wNothread|wAll|wClone) != 0 ||
		opts&(wExited|wUntraced|wContinued) == 0 {
		return 0, EINVAL
	}
	pid, nonblock := int32(-1), false
	switch idtype {
	case 1: // P_PID
		pid = id
	case pPidfd: // the pidfd's process, which must be a child
		if id < 0 {
			return 0, EINVAL
		}
		p, of, e := k.pidfdProcess(id)
		if e != 0 {
			return 0, e
		}
		pid, nonblock = p.pid, of.flags&oNonblock != 0
	}
	await := opts
	if nonblock {
		await |= wNohang
	}
	i, c, e := k.awaitChild(pid, await) // (WSTOPPED is WUNTRACED)
	if e != 0 {
		return 0, e
	}
	if i < 0 && c == nil && opts&wNohang == 0 { // a nonblocking pidfd's child has not ended
		return 0, EAGAIN
	}
	if i < 0 && c == nil { // WNOHANG, none has ended: siginfo's si_pid is 0
		if info := a.Ptr(2); info != 0 {
			return 0, k.writeMem(info, make([]byte, siginfoSize))
		}
		return 0, 0
	}
	var si sigInfo
	if c != nil {
		si = c.kernel.stopInfo(sigCHLD, c.report, c.reportSig)
	} else {
		si = k.childInfo(k.children[i], sigCHLD)
	}
	if info := a.Ptr(2); info != 0 {
		if e := k.writeMem(info, si[:]); e != 0 {
			return 0, e
		}
	}
	if ru := a.Ptr(4); ru != 0 {
		if e := k.writeMem(ru, make([]byte, rusageSize)); e != 0 {
			return 0, e
		}
	}
	switch {
	case opts&wNowait != 0:
	case c != nil:
		c.report = 0
	default:
		k.reapZombie(i)
	}
	return 0, 0
}
