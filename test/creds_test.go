package test

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCredsMatchQemu runs test/programs/linux/creds (setgroups, the
// set*id calls as root and then unprivileged, setfsuid and setfsgid,
// what getres*id, getgroups, /proc/self/status and a child's SIGCHLD
// report), static and dynamic: qemu-riscv64's output, whose calls are
// the host kernel's. They answered ENOSYS before (Python's
// posix.setresuid, setgroups and posix_spawn's POSIX_SPAWN_RESETIDS).
func TestCredsMatchQemu(t *testing.T) {
	rvsim := rvsimBinary(t)
	qemu := needQemu(t)
	sysroot := needSysroot(t)
	for _, variant := range []string{"linux", "linux-dyn"} {
		prog := linuxProg(t, variant, "creds")
		q := runProcess(t, t.TempDir(), []string{}, qemu, "-L", sysroot, prog)
		assert.Equal(t, 0, q.Status, q.Stderr)
		for _, flags := range [][]string{nil, {"--jit", "off"}} {
			r := runProcess(t, t.TempDir(), []string{}, rvsim, append(append([]string{"run"}, flags...), prog)...)
			assert.Equal(t, q, r, "%s %v", variant, flags)
		}
	}
}
