// Command record writes the real suite's expected outputs
// (workloads/real/expected) from runs under qemu-riscv64 -L build/rootfs,
// the reference the suite's runs under rvsim are checked against:
// an input's standard output goes to the file its stdout key names, or,
// for an input without one, its SHA-256 to expected/NAME.INPUT.sha256
// (which check.sh compares). `make real-expected` runs it; it needs the
// root (make setup) and the generated inputs (make real-inputs).
//
//	go run ./workloads/real/record [-inputs test,ref] [NAMES...]
package main

import (
	"crypto/sha256"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/rvsim/rvsim/suite"
)

func main() {
	inputs := flag.String("inputs", "test,ref", "the inputs to record, comma-separated")
	repo := flag.String("repo", ".", "the checkout")
	flag.Parse()
	if err := record(*repo, strings.Split(*inputs, ","), flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "record:", err)
		os.Exit(1)
	}
}

func record(repo string, inputs, names []string) error {
	s, err := suite.Real(repo)
	if err != nil {
		return err
	}
	bs, err := suite.Select(s.Benchmarks, names)
	if err != nil {
		return err
	}
	expected := filepath.Join(repo, "workloads", "real", "expected")
	for _, b := range bs {
		for _, name := range inputs {
			in, stdoutFile, err := b.Unchecked(name)
			if err != nil {
				return err
			}
			out, status, secs, err := suite.QemuRun(b, in)
			if err != nil {
				return fmt.Errorf("%s (%s): %v", b.Name, name, err)
			}
			if status != in.Status {
				return fmt.Errorf("%s (%s): qemu-riscv64 exit status %d, want %d", b.Name, name, status, in.Status)
			}
			file, data := stdoutFile, out
			if file == "" {
				file = filepath.Join(expected, b.Name+"."+name+".sha256")
				data = fmt.Appendf(nil, "%x\n", sha256.Sum256(out))
			}
			if err := os.WriteFile(file, data, 0o644); err != nil {
				return err
			}
			fmt.Printf("%-14s %-5s %6.1f s  %9d bytes of output -> %s\n", b.Name, name, secs, len(out), file)
		}
	}
	return nil
}
