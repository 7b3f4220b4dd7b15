package test

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestLinuxProgramsMatchQemu runs test/programs/linux programs whose
// output is qemu-riscv64's (whose calls are the host kernel's), static
// and dynamic, translated and interpreted:
//   - creds: setgroups, the set*id calls as root and then unprivileged,
//     setfsuid and setfsgid, what getres*id, getgroups, /proc/self/status
//     and a child's SIGCHLD report (the set calls answered ENOSYS before:
//     Python's posix.setresuid, setgroups and POSIX_SPAWN_RESETIDS);
//   - umask: the modes of what mkdir, open and mkfifo create under the
//     guest's umask (rvsim's own umask was applied as well before);
//   - vecsock: readv and writev on datagram, seqpacket, UDP and TCP
//     sockets move one message per call, and a pipe's readv returns what
//     is there (each buffer was a message of its own before, and a
//     pipe's readv waited to fill its later buffers);
//   - linger: a TCP close with SO_LINGER of 0 resets the peer (it was an
//     orderly close before);
//   - tcpurg: TCP urgent data, MSG_OOB (EOPNOTSUPP before);
//   - fpenv: the rounding modes through fesetround, the exception flags
//     fetestexcept reads, conversions at their edges, quad long double,
//     strtod/strtold and libm (checked when written; no difference).
func TestLinuxProgramsMatchQemu(t *testing.T) {
	rvsim := rvsimBinary(t)
	qemu := needQemu(t)
	sysroot := needSysroot(t)
	for _, name := range []string{"creds", "umask", "vecsock", "linger", "tcpurg", "owner", "fpenv"} {
		for _, variant := range []string{"linux", "linux-dyn"} {
			prog := linuxProg(t, variant, name)
			q := runProcess(t, t.TempDir(), []string{}, qemu, "-L", sysroot, prog)
			assert.Equal(t, 0, q.Status, q.Stderr)
			for _, flags := range [][]string{nil, {"--jit", "off"}} {
				r := runProcess(t, t.TempDir(), []string{}, rvsim, append(append([]string{"run"}, flags...), prog)...)
				assert.Equal(t, q, r, "%s %s %v", name, variant, flags)
			}
		}
	}
}
