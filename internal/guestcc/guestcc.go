// Package guestcc compiles small C guests for tests with the RISC-V cross
// compiler.
package guestcc

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Build compiles src into a static riscv64 program in a test's temporary
// directory, with flags (e.g. -g, -O1), and returns its path. Without the
// cross compiler the test is skipped, or fails under
// RVSIM_REQUIRE_ARTIFACTS.
func Build(t testing.TB, src string, flags ...string) string {
	t.Helper()
	gcc, err := exec.LookPath("riscv64-linux-gnu-gcc")
	if err != nil {
		if os.Getenv("RVSIM_REQUIRE_ARTIFACTS") != "" {
			t.Fatal("riscv64-linux-gnu-gcc is needed (make setup)")
		}
		t.Skip("riscv64-linux-gnu-gcc not installed")
	}
	base := filepath.Base(src)
	bin := filepath.Join(t.TempDir(), base[:len(base)-len(filepath.Ext(base))])
	args := append(append([]string{"-static"}, flags...), "-o", bin, src)
	if out, err := exec.Command(gcc, args...).CombinedOutput(); err != nil {
		t.Fatalf("%s %v: %v\n%s", gcc, args, err, out)
	}
	return bin
}
