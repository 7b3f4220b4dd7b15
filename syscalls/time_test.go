package syscalls

import (
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
	require.Equal(t, errno(EINVAL), x.call("clock_gettime", neg(-6), ts))
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
