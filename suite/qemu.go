package suite

import (
	"bytes"
	"fmt"
	"os/exec"
	"time"
)

// QemuSeconds runs the benchmark input under qemu-riscv64 and returns the
// wall time, checking that qemu produced the expected output too.
func QemuSeconds(b Benchmark, in Input) (float64, error) {
	cmd := exec.Command("qemu-riscv64", append([]string{b.Binary}, in.Args...)...)
	cmd.Dir = b.Dir
	var out bytes.Buffer
	cmd.Stdout = &out
	start := time.Now()
	err := cmd.Run()
	secs := time.Since(start).Seconds()
	if err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			return 0, fmt.Errorf("qemu-riscv64: %v", err)
		}
	}
	if d := FirstDifference(in.Stdout, out.Bytes()); d != "" {
		return secs, fmt.Errorf("qemu-riscv64 output differs from the expected output: %s", d)
	}
	return secs, nil
}
