package suite

import (
	"bytes"
	"fmt"
	"os/exec"
	"path/filepath"
	"time"
)

// QemuSeconds runs the benchmark input under qemu-riscv64 and returns the
// wall time, checking that qemu produced the expected output too. A
// workload with a root runs with qemu's -L ROOT, as rvsim's --root and
// --sysroot together would.
func QemuSeconds(b Benchmark, in Input) (float64, error) {
	p, err := Prepare(b, in)
	if err != nil {
		return 0, err
	}
	defer p.Close()
	var args []string
	switch {
	case b.Root != "":
		args = append(args, "-L", b.Root)
	case b.Sysroot != "":
		args = append(args, "-L", b.Sysroot)
	}
	cmd := exec.Command("qemu-riscv64", append(append(args, p.prog), in.Args...)...)
	cmd.Dir = p.runDir
	switch {
	case cmd.Dir != "":
	case b.Dir != "":
		cmd.Dir = b.Dir
	default:
		cmd.Dir = filepath.Join(b.Root, p.cwd)
	}
	if b.Env != nil {
		cmd.Env = b.Env
	}
	cmd.Stdin = bytes.NewReader(in.Stdin)
	var out bytes.Buffer
	cmd.Stdout = &out
	start := time.Now()
	err = cmd.Run()
	secs := time.Since(start).Seconds()
	if err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			return 0, fmt.Errorf("qemu-riscv64: %v", err)
		}
	}
	if in.AnyStdout {
		return secs, nil
	}
	if d := FirstDifference(in.Stdout, out.Bytes()); d != "" {
		return secs, fmt.Errorf("qemu-riscv64 output differs from the expected output: %s", d)
	}
	return secs, nil
}
