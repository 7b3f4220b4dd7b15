package suite

import (
	"bytes"
	"fmt"
	"os/exec"
	"path/filepath"
	"time"
)

// QemuTimes runs the benchmark input under qemu-riscv64 and returns its
// wall time and CPU time (user and system of its process), checking that
// qemu produced the expected output too. A workload with a root runs with
// qemu's -L ROOT, as rvsim's --root and --sysroot together would.
func QemuTimes(b Benchmark, in Input) (Times, error) {
	out, _, t, err := qemuRun(b, in)
	if err != nil {
		return t, err
	}
	if in.AnyStdout {
		return t, nil
	}
	if d := FirstDifference(in.Stdout, out); d != "" {
		return t, fmt.Errorf("qemu-riscv64 output differs from the expected output: %s", d)
	}
	return t, nil
}

// QemuRun runs the benchmark input under qemu-riscv64 (in a fresh run
// directory when it has files, with the workload's environment and
// standard input) and returns its standard output, exit status and wall
// time. A run that could not start is an error; a non-zero exit is not.
func QemuRun(b Benchmark, in Input) (stdout []byte, status int, secs float64, err error) {
	stdout, status, t, err := qemuRun(b, in)
	return stdout, status, t.Wall, err
}

func qemuRun(b Benchmark, in Input) (stdout []byte, status int, t Times, err error) {
	p, err := Prepare(b, in)
	if err != nil {
		return nil, 0, t, err
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
	t.Wall = time.Since(start).Seconds()
	if ps := cmd.ProcessState; ps != nil {
		t.CPU = (ps.UserTime() + ps.SystemTime()).Seconds()
	}
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			return nil, 0, t, fmt.Errorf("qemu-riscv64: %v", err)
		}
		status = ee.ExitCode()
	}
	return out.Bytes(), status, t, nil
}
