//go:build !unix

package test

import "os/exec"

func exitStatus(ee *exec.ExitError) int { return ee.ExitCode() }
