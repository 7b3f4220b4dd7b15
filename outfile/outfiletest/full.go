// Package outfiletest helps tests of write errors.
package outfiletest

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// FullDevice returns the path of a full device, where every write fails
// with ENOSPC: /dev/full if it is one (the character device 1:7), else one
// made with mknod in a temporary directory. It skips the test if there is
// none and none can be made. It never creates /dev/full.
func FullDevice(t testing.TB) string {
	t.Helper()
	if isFull("/dev/full") {
		return "/dev/full"
	}
	p := filepath.Join(t.TempDir(), "full")
	if err := syscall.Mknod(p, syscall.S_IFCHR|0o666, 1<<8|7); err != nil || !isFull(p) {
		t.Skipf("no /dev/full and cannot make one (%v)", err)
	}
	return p
}

func isFull(p string) bool {
	fi, err := os.Stat(p)
	if err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && st.Rdev == 1<<8|7
}
