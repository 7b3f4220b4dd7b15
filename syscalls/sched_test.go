package syscalls

import (
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestSchedulingPolicies(t *testing.T) {
	x := newTK(t, Config{})
	for _, tc := range []struct {
		policy uint64
		lo, hi int64
	}{{schedOther, 0, 0}, {schedFIFO, 1, 99}, {schedRR, 1, 99}, {schedBatch, 0, 0}, {schedIdle, 0, 0}, {schedDeadline, 0, 0}, {4, -22, -22}, {99, -22, -22}} {
		require.Equal(t, tc.lo, x.call("sched_get_priority_min", tc.policy), "min of %d", tc.policy)
		require.Equal(t, tc.hi, x.call("sched_get_priority_max", tc.policy), "max of %d", tc.policy)
	}
	param := x.alloc(4)
	setPrio := func(v uint32) uint64 {
		require.NoError(t, x.m.WriteBytes(param, []byte{byte(v), 0, 0, 0}))
		return param
	}
	require.Zero(t, x.call("sched_getscheduler", 0))
	require.Zero(t, x.call("sched_getparam", 0, param))
	require.Zero(t, x.u32(param))
	require.Equal(t, errno(ESRCH), x.call("sched_getscheduler", 999))
	require.Equal(t, errno(EINVAL), x.call("sched_getscheduler", neg(-1)))
	require.Equal(t, errno(EINVAL), x.call("sched_setscheduler", 0, schedOther, setPrio(5)), "SCHED_OTHER takes priority 0")
	require.Equal(t, errno(EINVAL), x.call("sched_setscheduler", 0, schedDeadline, setPrio(0)), "SCHED_DEADLINE needs sched_setattr")
	require.Equal(t, errno(EINVAL), x.call("sched_setscheduler", 0, schedFIFO, 0), "no param")
	require.Zero(t, x.call("sched_setscheduler", fixedPID, schedBatch|schedResetOnFork, setPrio(0)))
	require.Equal(t, int64(schedBatch|schedResetOnFork), x.call("sched_getscheduler", 0))

	rt := x.call("sched_setscheduler", 0, schedRR, setPrio(10))
	if os.Geteuid() != 0 {
		require.Equal(t, errno(EPERM), rt, "real time needs root")
		return
	}
	require.Zero(t, rt)
	require.Equal(t, int64(schedRR), x.call("sched_getscheduler", 0))
	require.Zero(t, x.call("sched_setparam", 0, setPrio(42)))
	require.Zero(t, x.call("sched_getparam", 0, param))
	require.Equal(t, uint32(42), x.u32(param))
	require.Equal(t, errno(EINVAL), x.call("sched_setparam", 0, setPrio(100)))
	ts := x.alloc(16)
	require.Zero(t, x.call("sched_rr_get_interval", 0, ts))
	require.Equal(t, []uint64{0, 100e6}, []uint64{x.u64(ts), x.u64(ts + 8)})

	// A new thread inherits them; the calls name it by its tid.
	r := UserRegs{PC: 0x1004}
	tid := x.spawn(&r, 0x9000, 0, x.alloc(4), 0)
	require.Equal(t, int64(schedRR), x.call("sched_getscheduler", uint64(tid)))
	require.Equal(t, int64(8), x.call("sched_getaffinity", uint64(tid), 8, x.alloc(8)))
	require.Zero(t, x.call("sched_setscheduler", uint64(tid), schedOther, setPrio(0)))
	require.Equal(t, int64(schedOther), x.call("sched_getscheduler", uint64(tid)))
	require.Equal(t, int64(schedRR), x.call("sched_getscheduler", 0), "the caller's is its own")
}

func TestPersonalityAndIoprio(t *testing.T) {
	x := newTK(t, Config{})
	require.Zero(t, x.call("personality", 0xffffffff), "PER_LINUX")
	require.Zero(t, x.call("personality", 0x0040000)) // ADDR_NO_RANDOMIZE
	require.Equal(t, int64(0x0040000), x.call("personality", 0xffffffff))
	require.Equal(t, int64(ioprioDefault), x.call("ioprio_get", ioprioWhoProcess, 0))
	require.Zero(t, x.call("ioprio_set", ioprioWhoProcess, 0, 3<<13))
	require.Equal(t, int64(3<<13), x.call("ioprio_get", ioprioWhoProcess, 0))
	require.Equal(t, errno(EINVAL), x.call("ioprio_set", 0, 0, 0))
	require.Equal(t, errno(EINVAL), x.call("ioprio_set", ioprioWhoProcess, 0, 2<<13|8))
}

func TestPreadv2AndHints(t *testing.T) {
	x := workdir(t, "f=abcdef")
	f := x.open("f", oRdwr, 0)
	buf := x.alloc(8)
	iov := x.u64s(buf, 2)
	require.Equal(t, int64(2), x.call("preadv2", f, iov, 1, 3, 0, rwfHipri))
	require.Equal(t, "de", string(x.peek(buf, 2)), "at the offset")
	require.Equal(t, int64(2), x.call("preadv2", f, iov, 1, neg(-1), 0, rwfNowait))
	require.Equal(t, "ab", string(x.peek(buf, 2)), "at the position")
	require.Equal(t, int64(2), x.call("preadv2", f, iov, 1, neg(-1), 0, 0))
	require.Equal(t, "cd", string(x.peek(buf, 2)), "the position moved")
	require.Equal(t, int64(2), x.call("pwritev2", f, x.u64s(x.str("XY"), 2), 1, 0, 0, rwfDsync))
	require.Equal(t, "XYcdef", x.readAll(x.open("f", oRdonly, 0)))
	fds := x.alloc(8)
	require.Zero(t, x.call("pipe2", fds, 0))
	r, _ := x.fds2(fds)
	for _, tc := range []struct {
		desc string
		got  int64
		want Errno
	}{
		{"RWF_APPEND", x.call("pwritev2", f, iov, 1, 0, 0, 16), EOPNOTSUPP},
		{"RWF_NOWAIT on a pipe", x.call("preadv2", r, iov, 1, neg(-1), 0, rwfNowait), EOPNOTSUPP},
		{"offset below -1", x.call("preadv2", f, iov, 1, neg(-2), 0, 0), EINVAL},
		{"sync_file_range flags", x.call("sync_file_range", f, 0, 0, 8), EINVAL},
		{"sync_file_range on a pipe", x.call("sync_file_range", r, 0, 0, 0), ESPIPE},
		{"sync_file_range bad fd", x.call("sync_file_range", 99, 0, 0, 0), EBADF},
		{"readahead on a pipe", x.call("readahead", r, 0, 10), EINVAL},
		{"syncfs bad fd", x.call("syncfs", 99), EBADF},
	} {
		require.Equal(t, errno(tc.want), tc.got, tc.desc)
	}
	require.Zero(t, x.call("sync_file_range", f, 0, 0, 7))
	require.Zero(t, x.call("readahead", f, 0, 10))
	require.Zero(t, x.call("syncfs", f))
}

// TestSchedDeadlineAdmission: SCHED_DEADLINE threads are admitted while
// the run's deadline bandwidth stays within 95% of its one CPU
// (sched_dl_overflow, to_ratio's fixed point: 95% exactly fits); a
// thread's own old share does not count against its new one, and a
// thread leaving the policy frees its share.
func TestSchedDeadlineAdmission(t *testing.T) {
	x := newTK(t, Config{})
	if !x.k.cred.capable(capSysNice) {
		t.Skip("SCHED_DEADLINE needs root")
	}
	attr := func(policy uint32, runtime, period uint64) uint64 {
		s := schedAttr{policy: policy}
		if policy == schedDeadline {
			s.dl = schedDL{runtime: runtime, deadline: period, period: period}
		}
		return x.data(s.encode(schedAttrVer1))
	}
	const ms = 1_000_000
	r := UserRegs{PC: 0x1004}
	tid := uint64(x.spawn(&r, 0x9000, 0, x.alloc(4), 0))
	require.Zero(t, x.call("sched_setattr", 0, attr(schedDeadline, 60*ms, 100*ms), 0))
	require.Equal(t, errno(EBUSY), x.call("sched_setattr", tid, attr(schedDeadline, 40*ms, 100*ms), 0), "60% + 40%")
	require.Zero(t, x.call("sched_setattr", tid, attr(schedDeadline, 35*ms, 100*ms), 0), "60% + 35%: exactly 95%")
	require.Zero(t, x.call("sched_setattr", tid, attr(schedDeadline, 30*ms, 100*ms), 0), "its own share replaced")
	require.Equal(t, errno(EBUSY), x.call("sched_setattr", 0, attr(schedDeadline, 66*ms, 100*ms), 0), "66% + 30%")
	require.Zero(t, x.call("sched_setattr", 0, attr(schedDeadline, 65*ms, 100*ms), 0), "65% + 30%")
	require.Zero(t, x.call("sched_setattr", tid, attr(schedOther, 0, 0), 0), "the thread leaves")
	require.Zero(t, x.call("sched_setattr", 0, attr(schedDeadline, 95*ms, 100*ms), 0), "95% alone")
	require.Equal(t, int64(schedDeadline), x.call("sched_getscheduler", 0))
	r2 := UserRegs{PC: 0x1004}
	require.Equal(t, errno(EAGAIN), x.spawn(&r2, 0x9000, 0, x.alloc(4), 0), "a deadline thread cannot make threads")
}
