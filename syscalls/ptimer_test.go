package syscalls

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPosixTimers: timer_create and its calls against hand-computed
// expiries (1 ns per instruction): a periodic SIGEV_SIGNAL timer fires
// at its instruction count with SI_TIMER, its id and sigev_value; a
// missed period counts as overrun; TIMER_ABSTIME on the real-time clock;
// SIGEV_NONE only counts down; exec deletes them all.
func TestPosixTimers(t *testing.T) {
	x := newSigTK(t)
	x.handle(sigUSR1, handlerA, saSiginfo|saNodefer, 0)
	x.k.SetInstret(5000)
	ev := x.alloc(sigeventSize)
	put64b := func(addr, v uint64) { require.NoError(t, x.m.Poke(addr, le(v))) }
	put64b(ev, 0x77)                    // sigev_value
	put64b(ev+8, uint64(sigUSR1)|0<<32) // sigev_signo, sigev_notify = SIGEV_SIGNAL
	id := x.alloc(4)
	require.Zero(t, x.ecall("timer_create", clockMonotonic, ev, id))
	require.Equal(t, uint32(0), x.u32(id), "the first timer is 0")
	spec := x.u64s(0, 250000, 0, 1000000) // every 250 µs after 1 ms
	require.Zero(t, x.ecall("timer_settime", 0, 0, spec, 0))
	at, ok := x.k.NextTimer()
	require.True(t, ok)
	require.Equal(t, uint64(5000+1000000), at)
	cur := x.alloc(itimerspecLen)
	require.Zero(t, x.call("timer_gettime", 0, cur))
	assert.Equal(t, []uint64{0, 250000, 0, 1000000}, []uint64{x.u64(cur), x.u64(cur + 8), x.u64(cur + 16), x.u64(cur + 24)})
	require.False(t, x.k.Interrupt(&x.r, at-1), "not yet")
	require.True(t, x.k.Interrupt(&x.r, at))
	require.Equal(t, uint64(handlerA), x.r.PC)
	info := x.peek(x.r.X[11], siginfoSize)
	assert.Equal(t, uint32(sigUSR1), u32(info, 0))
	assert.Equal(t, uint32(0xfffffffe), u32(info, 8), "SI_TIMER")
	assert.Equal(t, uint32(0), u32(info, 16), "the timer's id")
	assert.Equal(t, uint32(0), u32(info, 20), "no overrun")
	assert.Equal(t, uint64(0x77), le64(info[24:]), "sigev_value")
	at2, _ := x.k.NextTimer()
	assert.Equal(t, at+250000, at2, "reloaded")

	// Three periods missed: they count as the overrun of the next signal.
	x.r.PC = 0x1000
	require.True(t, x.k.Interrupt(&x.r, at+4*250000+10))
	assert.Equal(t, int64(3), x.call("timer_getoverrun", 0))
	require.Equal(t, errno(EINVAL), x.call("timer_getoverrun", 5))

	// TIMER_ABSTIME on CLOCK_REALTIME, without a sigevent (SIGALRM, value = id).
	x.handle(sigALRM, handlerB, saSiginfo|saNodefer, 0)
	require.Zero(t, x.ecall("timer_create", clockRealtime, 0, id))
	require.Equal(t, uint32(1), x.u32(id))
	now := x.k.instret + uint64(x.k.sleptNS)
	real := uint64(epochSec*1e9) + now
	abs := real + 5000
	require.Zero(t, x.ecall("timer_settime", 1, timerAbstime, x.u64s(0, 0, abs/1e9, abs%1e9), 0))
	require.Zero(t, x.ecall("timer_delete", 0))
	at3, ok := x.k.NextTimer()
	require.True(t, ok)
	assert.Equal(t, x.k.instret+5000, at3, "5 µs ahead on the real-time clock")
	x.r.PC = 0x1000
	require.True(t, x.k.Interrupt(&x.r, at3))
	assert.Equal(t, uint64(handlerB), x.r.PC)
	info = x.peek(x.r.X[11], siginfoSize)
	assert.Equal(t, uint32(sigALRM), u32(info, 0))
	assert.Equal(t, uint64(1), le64(info[24:]), "sigev_value is the id")
	_, ok = x.k.NextTimer()
	assert.False(t, ok, "a one-shot timer is disarmed after it fired")

	// SIGEV_NONE counts down without a signal.
	put64b(ev+8, uint64(sigUSR1)|uint64(sigevNone)<<32)
	require.Zero(t, x.ecall("timer_create", clockMonotonic, ev, id))
	require.Equal(t, uint32(0), x.u32(id), "the deleted id is reused")
	require.Zero(t, x.ecall("timer_settime", 0, 0, x.u64s(0, 0, 0, 700), 0))
	_, ok = x.k.NextTimer()
	assert.False(t, ok, "nothing to stop the core for")
	require.Zero(t, x.call("timer_gettime", 0, cur))
	assert.Equal(t, uint64(700), x.u64(cur+24))

	// Bad arguments.
	assert.Equal(t, errno(EINVAL), x.call("timer_create", 99, 0, id))
	put64b(ev+8, uint64(99)|0<<32)
	assert.Equal(t, errno(EINVAL), x.call("timer_create", clockMonotonic, ev, id), "signal 99")
	assert.Equal(t, errno(EINVAL), x.call("timer_settime", 0, 4, spec, 0), "flags")
	assert.Equal(t, errno(EINVAL), x.call("timer_settime", 0, 0, x.u64s(0, 1e9, 0, 0), 0), "nsec past a second")
	assert.Equal(t, errno(EINVAL), x.call("timer_delete", 42))

	// exec deletes every timer.
	x.k.beginExec(ExecRequest{Guest: "/x", Filename: "/x"})
	assert.Equal(t, errno(EINVAL), x.call("timer_gettime", 0, cur))
}
