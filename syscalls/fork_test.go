package syscalls

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestForkKernel drives clone without CLONE_THREAD through a forker that
// plays the glue's part with children that end at once: the child's
// kernel and registers are what copy_process gives, its end becomes a
// zombie, SIGCHLD follows, and wait4 and waitid report it in Linux's
// formats. (test/programs/fork runs real children that take turns.)
func TestForkKernel(t *testing.T) {
	x := newTK(t, Config{})
	var got *Kernel
	var gotRegs UserRegs
	x.k.SetForker(func(child *Kernel, regs UserRegs) func() ChildEnd {
		got, gotRegs = child, regs
		child.Attach(x.m) // (a test: the parent's memory itself)
		return func() ChildEnd { return ChildEnd{Code: 3} }
	})
	ptid, ctid, st := x.alloc(4), x.alloc(4), x.alloc(4)
	r := UserRegs{PC: 0x1004}
	r.X[2], r.X[5] = 0x7000, 0x55
	x.ecall(&r, "clone", cloneParentSettid|cloneChildSettid|sigCHLD, 0x9000, ptid, 0, ctid)
	require.Equal(t, uint64(1001), r.X[10], "the child's pid")
	assert.Equal(t, uint32(1001), x.u32(ptid), "CLONE_PARENT_SETTID")
	assert.Equal(t, uint32(1001), x.u32(ctid), "CLONE_CHILD_SETTID, in the child's memory")
	require.NotNil(t, got)
	assert.Equal(t, int32(1001), got.Pid())
	assert.Equal(t, int32(1001), got.Tid())
	assert.Equal(t, int32(1000), got.ppid)
	assert.Equal(t, uint64(0), gotRegs.X[10], "a0 = 0 in the child")
	assert.Equal(t, uint64(0x9000), gotRegs.X[2], "the new stack")
	assert.Equal(t, uint64(0x55), gotRegs.X[5], "the other registers")
	assert.Equal(t, uint64(0x1004), gotRegs.PC)

	// kill accepts the zombie; wait4 reaps it with WEXITSTATUS 3.
	x.ecall(&r, "kill", 1001, 0)
	assert.Equal(t, uint64(0), r.X[10])
	x.ecall(&r, "wait4", ^uint64(0), st, 0, 0)
	assert.Equal(t, uint64(1001), r.X[10])
	assert.Equal(t, uint32(3<<8), x.u32(st))
	x.ecall(&r, "wait4", ^uint64(0), st, 0, 0)
	assert.Equal(t, int64(errno(ECHILD)), int64(r.X[10]))
	x.ecall(&r, "kill", 1001, 0)
	assert.Equal(t, int64(errno(ESRCH)), int64(r.X[10]))

	// A child killed by a signal, seen by waitid with WNOWAIT, then wait4.
	x.k.SetForker(func(*Kernel, UserRegs) func() ChildEnd { return func() ChildEnd { return ChildEnd{Signal: 9} } })
	x.ecall(&r, "clone", sigCHLD, 0, 0, 0, 0)
	require.Equal(t, uint64(1002), r.X[10])
	info := x.alloc(128)
	x.ecall(&r, "waitid", 1, 1002, info, wExited|wNowait, 0)
	assert.Equal(t, uint64(0), r.X[10])
	assert.Equal(t, uint32(sigCHLD), x.u32(info), "si_signo")
	assert.Equal(t, uint32(cldKilled), x.u32(info+8), "si_code")
	assert.Equal(t, uint32(1002), x.u32(info+16), "si_pid")
	assert.Equal(t, uint32(9), x.u32(info+24), "si_status")
	x.ecall(&r, "wait4", 1002, st, 0, 0)
	assert.Equal(t, uint64(1002), r.X[10])
	assert.Equal(t, uint32(9), x.u32(st), "WTERMSIG 9")

	// With SIGCHLD ignored, children are reaped at once.
	x.ecall(&r, "clone", sigCHLD, 0, 0, 0, 0)
	x.ecall(&r, "wait4", ^uint64(0), 0, 0, 0)
	require.Equal(t, uint64(1003), r.X[10], "waited for")
	x.k.sig[sigCHLD].handler = sigIGN
	x.ecall(&r, "clone", sigCHLD, 0, 0, 0, 0)
	assert.Equal(t, uint64(1004), r.X[10])
	x.ecall(&r, "wait4", ^uint64(0), 0, 0, 0)
	assert.Equal(t, int64(errno(ECHILD)), int64(r.X[10]), "reaped at once")

	// Sharing a descriptor table or handlers is refused with a warning.
	x.ecall(&r, "clone", cloneFiles|sigCHLD, 0, 0, 0, 0)
	assert.Equal(t, int64(errno(ENOSYS)), int64(r.X[10]))
	assert.Contains(t, x.warn.String(), "not processes that share descriptor tables")
}
