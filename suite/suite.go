// Package suite finds the project's benchmark programs and their inputs,
// runs them under the simulator, and checks their output against the
// expected output committed beside them (taken from qemu-riscv64).
//
// Layout, per benchmark NAME under the source directory:
//
//	NAME/INPUT.args     one line: the program's arguments for INPUT (test, ref)
//	NAME/INPUT.stdout   the expected standard output
//	NAME/INPUT.status   the expected exit status, if not 0 (optional)
//
// and the built program at BINDIR/NAME. Programs run with NAME/ as their
// working directory, so they can open input files by relative path.
package suite

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Benchmark is one program of the suite.
type Benchmark struct {
	Name   string
	Dir    string // source directory (working directory of runs)
	Binary string // the built ELF
}

// Input is one named input of a benchmark.
type Input struct {
	Name   string
	Args   []string
	Stdout []byte // expected standard output
	Status int    // expected exit status
}

// Discover lists the benchmarks under srcDir (directories with a
// test.args file), with binaries expected in binDir.
func Discover(srcDir, binDir string) ([]Benchmark, error) {
	entries, err := os.ReadDir(srcDir)
	if err != nil {
		return nil, err
	}
	var out []Benchmark
	for _, e := range entries {
		dir := filepath.Join(srcDir, e.Name())
		if !e.IsDir() {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, "test.args")); err != nil {
			continue
		}
		abs, err := filepath.Abs(dir)
		if err != nil {
			return nil, err
		}
		bin, err := filepath.Abs(filepath.Join(binDir, e.Name()))
		if err != nil {
			return nil, err
		}
		out = append(out, Benchmark{Name: e.Name(), Dir: abs, Binary: bin})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	if len(out) == 0 {
		return nil, fmt.Errorf("no benchmarks under %s", srcDir)
	}
	return out, nil
}

// Select returns the benchmarks named in names ("all" or empty: every one).
func Select(all []Benchmark, names []string) ([]Benchmark, error) {
	if len(names) == 0 || (len(names) == 1 && names[0] == "all") {
		return all, nil
	}
	var out []Benchmark
	for _, n := range names {
		found := false
		for _, b := range all {
			if b.Name == n {
				out, found = append(out, b), true
			}
		}
		if !found {
			var known []string
			for _, b := range all {
				known = append(known, b.Name)
			}
			return nil, fmt.Errorf("unknown benchmark %q (have: %s)", n, strings.Join(known, ", "))
		}
	}
	return out, nil
}

// Input reads the named input's arguments and expected results.
func (b Benchmark) Input(name string) (Input, error) {
	in := Input{Name: name}
	args, err := os.ReadFile(filepath.Join(b.Dir, name+".args"))
	if err != nil {
		return in, fmt.Errorf("benchmark %s: no %q input: %v", b.Name, name, err)
	}
	in.Args = strings.Fields(string(args))
	if in.Stdout, err = os.ReadFile(filepath.Join(b.Dir, name+".stdout")); err != nil {
		return in, fmt.Errorf("benchmark %s: no expected output for %q: %v", b.Name, name, err)
	}
	if s, err := os.ReadFile(filepath.Join(b.Dir, name+".status")); err == nil {
		if in.Status, err = strconv.Atoi(strings.TrimSpace(string(s))); err != nil {
			return in, fmt.Errorf("benchmark %s: bad %s.status: %v", b.Name, name, err)
		}
	}
	return in, nil
}

// Built reports whether the benchmark's binary exists.
func (b Benchmark) Built() bool {
	_, err := os.Stat(b.Binary)
	return err == nil
}

// FirstDifference describes where got departs from want, or "" if equal.
func FirstDifference(want, got []byte) string {
	if bytes.Equal(want, got) {
		return ""
	}
	line := 1
	for i := 0; i < len(want) && i < len(got); i++ {
		if want[i] != got[i] {
			return fmt.Sprintf("line %d: want %q, got %q", line, lineAt(want, i), lineAt(got, i))
		}
		if want[i] == '\n' {
			line++
		}
	}
	if len(got) < len(want) {
		return fmt.Sprintf("output ends early at line %d (%d of %d bytes)", line, len(got), len(want))
	}
	return fmt.Sprintf("extra output from line %d: %q", line, lineAt(got, len(want)))
}

func lineAt(b []byte, i int) string {
	start := bytes.LastIndexByte(b[:i], '\n') + 1
	end := bytes.IndexByte(b[i:], '\n')
	if end < 0 {
		end = len(b) - i
	}
	s := string(b[start : i+end])
	if len(s) > 80 {
		s = s[:80] + "…"
	}
	return s
}
