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
	out, _, secs, err := QemuRun(b, in)
	if err != nil {
		return 0, err
	}
	if in.AnyStdout {
		return secs, nil
	}
	if d := FirstDifference(in.Stdout, out); d != "" {
		return secs, fmt.Errorf("qemu-riscv64 output differs from the expected output: %s", d)
	}
	return secs, nil
}

// QemuRun runs the benchmark input under qemu-riscv64 (in a fresh run
// directory when it has files, with the workload's environment and
// standard input) and returns its standard output, exit status and wall
// time. A run that could not start is an error; a non-zero exit is not.
func QemuRun(b Benchmark, in Input) (stdout []byte, status int, secs float64, err error) {
	p, err := Prepare(b, in)
	if err != nil {
		return nil, 0, 0, err
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
	secs = time.Since(start).Seconds()
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			return nil, 0, secs, fmt.Errorf("qemu-riscv64: %v", err)
		}
		status = ee.ExitCode()
	}
	return out.Bytes(), status, secs, nil
}
