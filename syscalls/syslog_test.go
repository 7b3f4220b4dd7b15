package syscalls

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSyslog: do_syslog's answers for an empty log (kernel/printk/printk.c):
// the argument checks, the sizes, a blocking read that nothing can end
// (EINTR with a warning), and dmesg_restrict's rule without root.
func TestSyslog(t *testing.T) {
	x := newTK(t, Config{})
	x.setRoot(true)
	buf := x.alloc(64)
	for _, tc := range []struct {
		typ, buf, n uint64
		want        int64
	}{
		{syslogClose, 0, 0, 0},
		{syslogOpen, 0, 0, 0},
		{syslogReadAll, buf, 64, 0},
		{syslogReadClear, buf, 64, 0},
		{syslogReadAll, 0, 64, errno(EINVAL)},
		{syslogReadAll, buf, neg(-1), errno(EINVAL)},
		{syslogReadAll, buf, 0, 0},
		{syslogRead, 0, 64, errno(EINVAL)},
		{syslogRead, buf, 0, 0},
		{syslogClear, 0, 0, 0},
		{syslogConsoleOff, 0, 0, 0},
		{syslogConsoleOn, 0, 0, 0},
		{syslogConsoleLevel, 0, 0, errno(EINVAL)},
		{syslogConsoleLevel, 0, 9, errno(EINVAL)},
		{syslogConsoleLevel, 0, 7, 0},
		{syslogSizeUnread, 0, 0, 0},
		{syslogSizeBuffer, 0, 0, 1 << 17},
		{11, 0, 0, errno(EINVAL)},
		{neg(-1), 0, 0, errno(EINVAL)},
	} {
		require.Equal(t, tc.want, x.call("syslog", tc.typ, tc.buf, tc.n), "action %d (%#x, %d)", int32(tc.typ), tc.buf, int32(tc.n))
	}
	require.Empty(t, x.warn.String())
	require.Equal(t, errno(EINTR), x.call("syslog", syslogRead, buf, 64), "nothing is logged, no signal can come")
	require.Contains(t, x.warn.String(), "syslog's read waits for kernel messages")

	x.setRoot(false)
	for typ := uint64(0); typ <= 11; typ++ {
		require.Equal(t, errno(EPERM), x.call("syslog", typ, buf, 64), "action %d without CAP_SYSLOG", typ)
	}
}
