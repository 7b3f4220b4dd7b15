//go:build unix

package test

import (
	"os/exec"
	"syscall"
)

// exitStatus is the status a shell reports: 128+n when killed by signal n.
func exitStatus(ee *exec.ExitError) int {
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ee.ExitCode()
}
