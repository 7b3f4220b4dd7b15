package syscalls

// syslog(2), the kernel log's calls (kernel/printk/printk.c, do_syslog).
// rvsim's kernel prints nothing, so the log stays empty: reads return 0
// bytes, a blocking read waits for a signal, and the sizes are the
// empty log's and its buffer's. kernel.dmesg_restrict is 1, as Debian
// sets it, so every action needs CAP_SYSLOG (or CAP_SYS_ADMIN:
// check_syslog_permissions). dmesg falls back to these calls when it
// cannot open /dev/kmsg.

// The actions (SYSLOG_ACTION_*).
const (
	syslogClose        = 0
	syslogOpen         = 1
	syslogRead         = 2
	syslogReadAll      = 3
	syslogReadClear    = 4
	syslogClear        = 5
	syslogConsoleOff   = 6
	syslogConsoleOn    = 7
	syslogConsoleLevel = 8
	syslogSizeUnread   = 9
	syslogSizeBuffer   = 10
)

// logBufLen is the log buffer's size: 1 << CONFIG_LOG_BUF_SHIFT (17, as
// Debian's kernels; one CPU adds nothing).
const logBufLen = 1 << 17

func sysSyslog(k *Kernel, a sysArgs) (uint64, Errno) {
	typ, buf, n := a.Int(0), a.Ptr(1), a.Int(2)
	if !k.cred.capable(capSyslog) && !k.cred.capable(capSysAdmin) {
		return 0, EPERM
	}
	switch typ {
	case syslogClose, syslogOpen, syslogClear, syslogConsoleOff, syslogConsoleOn:
		return 0, 0
	case syslogRead, syslogReadAll, syslogReadClear:
		if buf == 0 || n < 0 {
			return 0, EINVAL
		}
		if n == 0 {
			return 0, 0
		}
		if typ == syslogRead { // waits until something is logged: nothing will be
			return k.waitForSignal("syslog", "syslog's read waits for kernel messages, which rvsim never logs, or a signal that nothing can send; returns EINTR")
		}
		return 0, 0 // the whole log: empty
	case syslogConsoleLevel:
		if n < 1 || n > 8 {
			return 0, EINVAL
		}
		return 0, 0 // (no console: the level has nothing to filter)
	case syslogSizeUnread:
		return 0, 0
	case syslogSizeBuffer:
		return logBufLen, 0
	}
	return 0, EINVAL
}
