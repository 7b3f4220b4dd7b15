package syscalls

import (
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestClockGettimeDeterministic(t *testing.T) {
	x := newTK(t, Config{})
	ts := x.alloc(16)
	x.k.SetInstret(1_234_567_891)
	tests := []struct {
		desc      string
		clock     uint64
		sec, nsec uint64
	}{
		{"realtime: 2024-01-01 + instret ns", clockRealtime, 1704067200 + 1, 234567891},
		{"realtime coarse", clockRealtimeCoarse, 1704067200 + 1, 234567891},
		{"tai", clockTAI, 1704067200 + 1 + 37, 234567891},
		{"monotonic", clockMonotonic, 1, 234567891},
		{"monotonic raw", clockMonotonicRaw, 1, 234567891},
		{"boottime", clockBoottime, 1, 234567891},
		{"process cputime", clockProcessCputimeID, 1, 234567891},
		{"thread cputime", clockThreadCputimeID, 1, 234567891},
	}
	for _, tc := range tests {
		require.Zero(t, x.call("clock_gettime", tc.clock, ts), tc.desc)
		require.Equal(t, []uint64{tc.sec, tc.nsec}, []uint64{x.u64(ts), x.u64(ts + 8)}, tc.desc)
		x.requireWrites(Range{ts, 16})
	}
	require.Equal(t, errno(EINVAL), x.call("clock_gettime", 10, ts))
	require.Equal(t, errno(EINVAL), x.call("clock_gettime", neg(-5), ts), "CPUCLOCK_MAX")
	require.Equal(t, errno(EINVAL), x.call("clock_gettime", neg(^77<<3|2), ts), "another process's CPU clock")
	require.Equal(t, errno(EINVAL), x.call("clock_gettime", neg(^1001<<3|4|2), ts), "a thread that does not exist")
	for _, clk := range []int64{-6, ^fixedPID<<3 | 2, ^fixedPID<<3 | 4 | 1, -2} { // self, pid, tid, self thread
		require.Zero(t, x.call("clock_gettime", neg(clk), ts), "clock_getcpuclockid's id %d", clk)
	}
	require.Equal(t, errno(EFAULT), x.call("clock_gettime", clockRealtime, 0x1000))

	// 2024-01-01T00:00:00Z really is 1704067200
	require.Equal(t, int64(epochSec), time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).Unix())
}

func TestSleepAdvancesClock(t *testing.T) {
	x := newTK(t, Config{})
	ts := x.alloc(16)
	x.k.SetInstret(1000)
	start := time.Now()
	require.Zero(t, x.call("nanosleep", x.u64s(5, 0), 0))
	require.Less(t, time.Since(start), time.Second, "no real sleep")
	x.call("clock_gettime", clockMonotonic, ts)
	require.Equal(t, []uint64{5, 1000}, []uint64{x.u64(ts), x.u64(ts + 8)})
	x.call("clock_gettime", clockProcessCputimeID, ts)
	require.Equal(t, []uint64{0, 1000}, []uint64{x.u64(ts), x.u64(ts + 8)}, "sleeping uses no CPU time")

	// absolute sleep to monotonic 7 s, then a relative one of 0.5 s
	require.Zero(t, x.call("clock_nanosleep", clockMonotonic, timerAbstime, x.u64s(7, 0), 0))
	require.Zero(t, x.call("clock_nanosleep", clockRealtime, 0, x.u64s(0, 5e8), 0))
	x.call("clock_gettime", clockMonotonic, ts)
	require.Equal(t, []uint64{7, 5e8}, []uint64{x.u64(ts), x.u64(ts + 8)})
	// an absolute time in the past does not go back
	require.Zero(t, x.call("clock_nanosleep", clockMonotonic, timerAbstime, x.u64s(1, 0), 0))
	x.call("clock_gettime", clockMonotonic, ts)
	require.Equal(t, uint64(7), x.u64(ts))

	require.Equal(t, errno(EINVAL), x.call("nanosleep", x.u64s(0, 1e9), 0))
	require.Equal(t, errno(EINVAL), x.call("nanosleep", x.u64s(neg(-1), 0), 0))
	require.Equal(t, errno(EFAULT), x.call("nanosleep", 0x1000, 0))
	require.Equal(t, errno(EINVAL), x.call("clock_nanosleep", clockThreadCputimeID, 0, x.u64s(0, 1), 0))
}

func TestGettimeofdayGetres(t *testing.T) {
	x := newTK(t, Config{})
	x.k.SetInstret(3_000_500_000)
	tv, tz := x.alloc(16), x.data([]byte{9, 9, 9, 9, 9, 9, 9, 9})
	require.Zero(t, x.call("gettimeofday", tv, tz))
	require.Equal(t, []uint64{1704067203, 500}, []uint64{x.u64(tv), x.u64(tv + 8)})
	require.Zero(t, x.u64(tz), "UTC")
	require.Zero(t, x.call("gettimeofday", 0, 0))

	res := x.alloc(16)
	require.Zero(t, x.call("clock_getres", clockMonotonic, res))
	require.Equal(t, []uint64{0, 1}, []uint64{x.u64(res), x.u64(res + 8)})
	require.Zero(t, x.call("clock_getres", clockMonotonicCoarse, res))
	require.Equal(t, uint64(4e6), x.u64(res+8))
	require.Zero(t, x.call("clock_getres", clockRealtime, 0))
	require.Equal(t, errno(EINVAL), x.call("clock_getres", 42, res))
}

func TestHostTime(t *testing.T) {
	x := newTK(t, Config{HostTime: true})
	ts := x.alloc(16)
	x.k.SetInstret(5) // ignored
	before := time.Now().Unix()
	require.Zero(t, x.call("clock_gettime", clockRealtime, ts))
	after := time.Now().Unix()
	require.GreaterOrEqual(t, int64(x.u64(ts)), before)
	require.LessOrEqual(t, int64(x.u64(ts)), after)
	start := time.Now()
	require.Zero(t, x.call("nanosleep", x.u64s(0, 20e6), 0))
	require.GreaterOrEqual(t, time.Since(start), 20*time.Millisecond, "host time really sleeps")
}

func TestHugeSleepsSaturate(t *testing.T) {
	x := newTK(t, Config{})
	ts := x.alloc(16)
	for i := 0; i < 5; i++ {
		require.Zero(t, x.call("nanosleep", x.u64s(1<<62, 0), 0))
		require.Zero(t, x.call("clock_gettime", clockRealtime, ts))
		require.Greater(t, int64(x.u64(ts)), int64(epochSec), "the clock never wraps")
	}
	require.Zero(t, x.call("clock_gettime", clockMonotonic, ts))
	require.GreaterOrEqual(t, int64(x.u64(ts)), int64(100*365*24*3600), "one sleep moves at most ~100 years at a time")
}

// TestClockSettime: the guest's realtime clock can be set (by root, as
// the ids are the host's); the monotonic clock does not move.
func TestClockSettime(t *testing.T) {
	x := newTK(t, Config{})
	ts := x.alloc(16)
	mono0, _ := x.k.now(clockMonotonic)
	r := x.call("clock_settime", clockRealtime, x.u64s(1_900_000_000, 5))
	if os.Geteuid() != 0 {
		require.Equal(t, errno(EPERM), r)
		return
	}
	require.Zero(t, r)
	require.Zero(t, x.call("clock_gettime", clockRealtime, ts))
	require.Equal(t, []uint64{1_900_000_000, 5}, []uint64{x.u64(ts), x.u64(ts + 8)})
	mono1, _ := x.k.now(clockMonotonic)
	require.Equal(t, mono0, mono1)
	x.k.instret += 2e9
	require.Zero(t, x.call("clock_gettime", clockRealtime, ts))
	require.Equal(t, uint64(1_900_000_002), x.u64(ts), "it goes on from there")
	require.Zero(t, x.call("settimeofday", x.u64s(1_000_000_000, 250_000), 0))
	require.Zero(t, x.call("clock_gettime", clockRealtime, ts))
	require.Equal(t, []uint64{1_000_000_000, 250_000_000}, []uint64{x.u64(ts), x.u64(ts + 8)})
	for _, tc := range []struct {
		desc string
		got  int64
		want Errno
	}{
		{"monotonic", x.call("clock_settime", clockMonotonic, x.u64s(1, 0)), EINVAL},
		{"bad nsec", x.call("clock_settime", clockRealtime, x.u64s(1, 1e9)), EINVAL},
		{"CPU clock", x.call("clock_settime", neg(-6), x.u64s(1, 0)), EPERM},
		{"bad usec", x.call("settimeofday", x.u64s(1, 1e6), 0), EINVAL},
		{"fault", x.call("clock_settime", clockRealtime, 8), EFAULT},
	} {
		require.Equal(t, errno(tc.want), tc.got, tc.desc)
	}
	require.Zero(t, x.call("settimeofday", 0, x.u64s(0)), "a time zone alone")

	// Setting the clock cancels the absolute realtime timerfds that asked
	// for it: readable, and reads fail with ECANCELED until the next
	// timerfd_settime; others go on.
	cancel := uint64(x.call("timerfd_create", clockRealtime, oNonblock))
	keep := uint64(x.call("timerfd_create", clockRealtime, oNonblock))
	far := int64(2_000_000_000) * 1e9
	require.Zero(t, x.call("timerfd_settime", cancel, tfdTimerAbstime|tfdTimerCancelOnSet, x.its(0, far), 0))
	require.Zero(t, x.call("timerfd_settime", keep, tfdTimerAbstime, x.its(0, far), 0))
	require.Zero(t, x.call("clock_settime", clockRealtime, x.u64s(1_500_000_000, 0)))
	buf := x.alloc(8)
	require.Equal(t, errno(ECANCELED), x.call("read", cancel, buf, 8))
	require.Equal(t, errno(ECANCELED), x.call("read", cancel, buf, 8), "until it is set again")
	require.Equal(t, errno(EAGAIN), x.call("read", keep, buf, 8))
	require.Zero(t, x.call("timerfd_settime", cancel, tfdTimerAbstime|tfdTimerCancelOnSet, x.its(0, far), 0))
	require.Equal(t, errno(EAGAIN), x.call("read", cancel, buf, 8))
}
