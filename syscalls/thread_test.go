package syscalls

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ecall makes system call name from the running thread whose registers
// are r (pc is past the ecall) and returns r afterwards: the same
// thread's with a0 set, or the next thread's after a switch.
func (x *tk) ecall(r *UserRegs, name string, args ...uint64) {
	x.t.Helper()
	r.X[17] = nr(x.t, name)
	for i := range 6 {
		r.X[10+i] = 0
	}
	copy(r.X[10:16], args)
	x.k.Ecall(r)
}

const threadFlags = cloneVM | cloneFS | cloneFiles | cloneSighand | cloneThread | cloneSysvsem |
	cloneSettls | cloneParentSettid | cloneChildCleartid

// spawn creates a thread from the running one (registers r) and returns
// its tid; the child gets sp and tp.
func (x *tk) spawn(r *UserRegs, sp, tp, ptid, ctid uint64) int64 {
	x.ecall(r, "clone", threadFlags, sp, ptid, tp, ctid)
	return int64(r.X[10])
}

func TestCloneCreatesAThread(t *testing.T) {
	x := newTK(t, Config{})
	ptid, ctid := x.alloc(4), x.alloc(4)
	r := UserRegs{PC: 0x1004}
	r.X[2], r.X[4], r.X[5] = 0x7000, 0x11, 0x55
	require.Equal(t, int64(1001), x.spawn(&r, 0x9000, 0x22, ptid, ctid))
	assert.Equal(t, uint32(1001), x.u32(ptid), "CLONE_PARENT_SETTID")
	assert.Equal(t, uint64(0x1004), r.PC, "the parent goes on")
	assert.Equal(t, 2, x.k.Threads())
	// The parent yields: the child runs, from the same pc, with a0 = 0,
	// its own stack and tp, and the caller's other registers.
	x.ecall(&r, "sched_yield")
	assert.Equal(t, int32(1001), x.k.Tid())
	assert.Equal(t, uint64(0x1004), r.PC)
	assert.Equal(t, uint64(0), r.X[10])
	assert.Equal(t, uint64(0x9000), r.X[2])
	assert.Equal(t, uint64(0x22), r.X[4])
	assert.Equal(t, uint64(0x55), r.X[5])
	x.ecall(&r, "gettid")
	assert.Equal(t, uint64(1001), r.X[10])
	// The child exits: clear_child_tid is zeroed and the parent, back,
	// finds its yield's result.
	x.ecall(&r, "exit", 0)
	assert.Equal(t, uint32(0), x.u32(ctid), "CLONE_CHILD_CLEARTID")
	assert.Equal(t, int32(1000), x.k.Tid())
	assert.Equal(t, uint64(0x7000), r.X[2])
	assert.Equal(t, 1, x.k.Threads())
	_, exited := x.k.Exited()
	assert.False(t, exited)
	// Without CLONE_THREAD: a fork, refused with a warning when no process
	// runner is attached (TestForkKernel attaches one).
	x.ecall(&r, "clone", 17, 0, 0, 0, 0)
	assert.Equal(t, int64(errno(ENOSYS)), int64(r.X[10]))
	assert.Contains(t, x.warn.String(), "syscall 220 (clone) returns ENOSYS: no process runner is attached to this kernel")
	// CLONE_THREAD without CLONE_SIGHAND is EINVAL, as on Linux.
	x.ecall(&r, "clone", cloneThread|cloneVM, 0, 0, 0, 0)
	assert.Equal(t, int64(errno(EINVAL)), int64(r.X[10]))
}

// TestFutexRequeueAndWake: two threads wait on f1; CMP_REQUEUE wakes one
// and moves the other to f2, where WAKE finds it. Waiters wake in the
// order they started waiting.
func TestFutexRequeueAndWake(t *testing.T) {
	x := newTK(t, Config{})
	f1, f2 := x.alloc(4), x.alloc(4)
	r := UserRegs{PC: 0x1004}
	x.spawn(&r, 0x9000, 0, x.alloc(4), 0) // 1001
	x.spawn(&r, 0xa000, 0, x.alloc(4), 0) // 1002
	x.ecall(&r, "sched_yield")            // 1001 runs
	require.Equal(t, int32(1001), x.k.Tid())
	x.ecall(&r, "futex", f1, futexWait|futexPrivate, 0, 0, 0, 0) // blocks: 1002 runs
	require.Equal(t, int32(1002), x.k.Tid())
	x.ecall(&r, "futex", f1, futexWait|futexPrivate, 0, 0, 0, 0) // blocks: 1000 runs
	require.Equal(t, int32(1000), x.k.Tid())
	assert.Equal(t, uint64(0), r.X[10], "the main thread's yield returned 0")
	x.ecall(&r, "futex", f1, futexCmpRequeue|futexPrivate, 1, 5, f2, 1)
	assert.Equal(t, int64(errno(EAGAIN)), int64(r.X[10]), "*f1 is 0, not 1")
	x.ecall(&r, "futex", f1, futexCmpRequeue|futexPrivate, 1, 5, f2, 0)
	assert.Equal(t, uint64(2), r.X[10], "one woken, one requeued")
	x.ecall(&r, "futex", f1, futexWake|futexPrivate, 5, 0, 0, 0)
	assert.Equal(t, uint64(0), r.X[10], "nobody waits on f1 any more")
	x.ecall(&r, "futex", f2, futexWakeBitset|futexPrivate, 5, 0, 0, 4)
	assert.Equal(t, uint64(1), r.X[10], "the requeued waiter (bitset all)")
	// The main thread yields: 1001 (woken first, FIFO) returns 0.
	x.ecall(&r, "sched_yield")
	assert.Equal(t, int32(1001), x.k.Tid())
	assert.Equal(t, uint64(0), r.X[10])
}

// TestTimedWaitAdvancesTheClock: when every thread is blocked, the clock
// jumps to the earliest deadline and that wait ends with ETIMEDOUT.
func TestTimedWaitAdvancesTheClock(t *testing.T) {
	x := newTK(t, Config{})
	f, ts := x.alloc(4), x.u64s(0, 5000) // 5 µs
	r := UserRegs{PC: 0x1004}
	x.spawn(&r, 0x9000, 0, x.alloc(4), 0)
	x.ecall(&r, "futex", f, futexWait, 0, 0, 0, 0) // forever: 1001 runs
	require.Equal(t, int32(1001), x.k.Tid())
	before := x.k.monoNS()
	x.ecall(&r, "futex", f+4, futexWait, 0, ts, 0, 0) // both blocked: time passes
	assert.Equal(t, int32(1001), x.k.Tid())
	assert.Equal(t, int64(errno(ETIMEDOUT)), int64(r.X[10]))
	assert.Equal(t, before+5000, x.k.monoNS())
	// Now 1001 waits forever too: a deadlock, one line naming both.
	x.ecall(&r, "futex", f+4, futexWait, 0, 0, 0, 0)
	msg, ok := x.k.Deadlock()
	require.True(t, ok)
	assert.Equal(t, "deadlock: every thread is blocked forever (thread 1000 in futex wait on 0x10000000, thread 1001 in futex wait on 0x10000004)", msg)
	_, exited := x.k.Exited()
	assert.True(t, exited)
}

// TestQuantumPreempts: the quantum ends at sliceStart+quantum; Preempt
// switches round-robin and a thread's signal mask travels with it.
func TestQuantumPreempts(t *testing.T) {
	x := newTK(t, Config{Quantum: 500})
	r := UserRegs{PC: 0x1004}
	_, ok := x.k.SliceEnd()
	assert.False(t, ok, "one thread: no quantum")
	x.spawn(&r, 0x9000, 0, x.alloc(4), 0)
	end, ok := x.k.SliceEnd()
	require.True(t, ok)
	assert.Equal(t, uint64(500), end)
	x.k.sigMask = sigBit(10) // the main thread blocks SIGUSR1
	assert.True(t, x.k.Preempt(&r, 500))
	assert.Equal(t, int32(1001), x.k.Tid())
	assert.Zero(t, x.k.sigMask, "the child's mask")
	end, _ = x.k.SliceEnd()
	assert.Equal(t, uint64(1000), end)
	// A process-directed SIGUSR1 goes to 1001, the one that does not block it.
	x.ecall(&r, "kill", fixedPID, 0) // signal 0: a probe
	x.k.raiseProcess(10, makeInfo(10, siUser))
	assert.NotZero(t, x.k.sigPending&sigBit(10))
	x.k.sigPending = 0
	assert.True(t, x.k.Preempt(&r, 1000))
	assert.Equal(t, int32(1000), x.k.Tid())
	assert.Equal(t, sigBit(10), x.k.sigMask)
	// tgkill to the main thread while it blocks the signal: pending there.
	x.ecall(&r, "tgkill", fixedPID, fixedPID, 10)
	assert.Equal(t, sigBit(10), x.k.sigPending)
	x.ecall(&r, "tgkill", fixedPID, 4242, 10)
	assert.Equal(t, int64(errno(ESRCH)), int64(r.X[10]))
}

// TestClone3 reads struct clone_args: the child's stack is stack +
// stack_size; a fork without CLONE_THREAD keeps its warning.
func TestClone3(t *testing.T) {
	x := newTK(t, Config{})
	ptid := x.alloc(4)
	// flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls
	args := x.u64s(threadFlags, 0, 0, ptid, 0, 0x8000, 0x1000, 0x33)
	r := UserRegs{PC: 0x2004}
	x.ecall(&r, "clone3", args, cloneArgsSize0)
	require.Equal(t, uint64(1001), r.X[10])
	assert.Equal(t, uint32(1001), x.u32(ptid))
	x.ecall(&r, "sched_yield")
	require.Equal(t, int32(1001), x.k.Tid())
	assert.Equal(t, uint64(0x9000), r.X[2])
	assert.Equal(t, uint64(0x33), r.X[4])
	assert.Equal(t, uint64(0), r.X[10])
	x.ecall(&r, "clone3", args, 8)
	assert.Equal(t, int64(errno(EINVAL)), int64(r.X[10]), "smaller than CLONE_ARGS_SIZE_VER0")
	bad := x.u64s(threadFlags, 0, 0, 0, 0, 0x8000, 0, 0)
	x.ecall(&r, "clone3", bad, cloneArgsSize0)
	assert.Equal(t, int64(errno(EINVAL)), int64(r.X[10]), "a stack without a size")
}

// TestThreadNames: each thread has its name (comm): a new thread takes
// its creator's; PR_SET_NAME and PR_GET_NAME act on the calling thread;
// /proc/self/comm, stat and status show the first thread's,
// /proc/thread-self/comm and task/TID/comm a thread's, and a write of a
// comm file (what pthread_setname_np does for another thread) renames
// its thread, keeping 15 bytes.
func TestThreadNames(t *testing.T) {
	x := newTK(t, Config{ExePath: "/bin/prog"})
	_, err := x.k.SetupProcess(Image{Entry: 0x10000}, []string{"prog"}, nil)
	require.NoError(t, err)
	r := UserRegs{PC: 0x1004}
	require.Equal(t, int64(1001), x.spawn(&r, 0x9000, 0, x.alloc(4), 0))
	comm := func(path string) string { return x.readAll(x.open(path, oRdonly, 0)) }
	assert.Equal(t, "prog\n", comm("/proc/self/task/1001/comm"), "the creator's name")

	require.Zero(t, x.call("prctl", prSetName, x.str("main")))
	assert.Equal(t, "main\n", comm("/proc/self/comm"))
	assert.Equal(t, "main\n", comm("/proc/thread-self/comm"))
	assert.Equal(t, "prog\n", comm("/proc/self/task/1001/comm"), "the other thread keeps its name")

	fd := x.open("/proc/self/task/1001/comm", oWronly, 0)
	require.Equal(t, int64(23), x.call("write", uint64(fd), x.str("worker-with-a-long-name"), 23))
	require.Zero(t, x.call("close", uint64(fd)))
	assert.Equal(t, "worker-with-a-l\n", comm("/proc/self/task/1001/comm"))
	assert.Zero(t, x.call("faccessat", fdcwd, x.str("/proc/self/comm"), 2), "comm is writable")
	assert.Equal(t, errno(EACCES), x.call("faccessat", fdcwd, x.str("/proc/self/stat"), 2))

	x.ecall(&r, "sched_yield") // thread 1001 runs
	require.Equal(t, int32(1001), x.k.Tid())
	name := x.alloc(16)
	require.Zero(t, x.call("prctl", prGetName, name))
	assert.Equal(t, "worker-with-a-l\x00", string(x.peek(name, 16)))
	assert.Equal(t, "worker-with-a-l\n", comm("/proc/thread-self/comm"))
	assert.Equal(t, "main\n", comm("/proc/self/comm"), "the process's is the first thread's")
	assert.Contains(t, comm("/proc/self/stat"), "(main)")
}
