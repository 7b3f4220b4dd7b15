// Package suite finds the benchmark programs and their inputs, runs them
// under the simulator, and checks their output against the expected
// output (taken from qemu-riscv64, or checked by a command).
//
// Workloads come from a suite file (file.go, docs/SUITES.md): the
// project's own suite is builtin.toml (Builtin), a user's is any such
// file (Load). Discover reads the source directory's layout directly,
// which builtin.toml restates:
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
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/rvsim/rvsim/rootfs"
)

// Benchmark is one program of the suite (a suite file's workload).
type Benchmark struct {
	Name   string
	Dir    string // host working directory of runs ("" with GuestCwd)
	Binary string // the ELF's host path ("" until resolved in Root: see Program)
	// From a suite file (zero for Discover's benchmarks):
	Description string
	File        string   // the suite file, and the workload's line in it
	Line        int      //
	SuiteDir    string   // the directory the file's relative paths start from
	Root        string   // the guest's "/" (host directory; "" the host's)
	Sysroot     string   // where a dynamic program's libraries come from ("" the default)
	GuestCwd    string   // working directory inside Root (when Dir is "")
	ExePath     string   // the program's guest path ("" = "/"+Name)
	Env         []string // the guest's environment, KEY=VALUE (nil: empty)
	inputs      map[string]*inputSpec
}

// Input is one named input of a benchmark.
type Input struct {
	Name      string
	Args      []string
	Stdin     []byte   // standard input (nil: empty)
	Stdout    []byte   // expected standard output
	AnyStdout bool     // standard output is not compared (no expected file)
	Stderr    []byte   // expected standard error (nil: none allowed)
	Status    int      // expected exit status
	Files     []string // host files copied into a fresh run directory
	Check     string   // a shell command that checks the run (see Prepared.Verify)
	where     string   // "file:line: key" of the input, for errors
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
	if b.inputs != nil {
		return b.fileInput(name, true)
	}
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

// Unchecked returns the named input of a suite file's workload without
// its expected outputs (standard output and error are not compared), and
// the host path of the file the expected standard output is kept in (""
// if none): what recording the expected outputs needs.
func (b Benchmark) Unchecked(name string) (in Input, stdoutFile string, err error) {
	if b.inputs == nil {
		return in, "", fmt.Errorf("benchmark %s: not from a suite file", b.Name)
	}
	in, err = b.fileInput(name, false)
	if err == nil {
		stdoutFile = b.inputs[name].stdout
	}
	return in, stdoutFile, err
}

// fileInput reads a suite file's input: its files' contents (the
// expected outputs' only if expect).
func (b Benchmark) fileInput(name string, expect bool) (Input, error) {
	spec, ok := b.inputs[name]
	if !ok {
		var have []string
		for n := range b.inputs {
			have = append(have, n)
		}
		sort.Strings(have)
		return Input{}, &Error{File: b.File, Line: b.Line, Key: "workload " + b.Name,
			Msg: fmt.Sprintf("no %q input (have: %s)", name, strings.Join(have, ", "))}
	}
	in := Input{Name: name, Args: spec.args, Status: spec.status, Check: spec.check,
		where: fmt.Sprintf("%s:%d: %s", b.File, spec.line, spec.key)}
	read := func(path, key string, line int) ([]byte, error) {
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, &Error{File: b.File, Line: line, Key: key, Msg: fmt.Sprintf("workload %s, input %s: %v", b.Name, name, err)}
		}
		return data, nil
	}
	var err error
	if spec.stdin != "" {
		if in.Stdin, err = read(spec.stdin, spec.stdinKey, spec.stdinLine); err != nil {
			return in, err
		}
	}
	if spec.stdout != "" && expect {
		if in.Stdout, err = read(spec.stdout, spec.stdoutKey, spec.stdoutLine); err != nil {
			return in, err
		}
	} else {
		in.AnyStdout = true
	}
	if spec.stderr != "" && expect {
		if in.Stderr, err = read(spec.stderr, spec.stderrKey, spec.stderrLine); err != nil {
			return in, err
		}
	}
	for _, f := range spec.files {
		if fi, err := os.Stat(f); err != nil || !fi.Mode().IsRegular() {
			msg := "not a regular file"
			if err != nil {
				msg = unwrapPath(err).Error()
			}
			return in, &Error{File: b.File, Line: spec.filesLine, Key: spec.filesKey,
				Msg: fmt.Sprintf("workload %s, input %s: %s: %s", b.Name, name, f, msg)}
		}
		in.Files = append(in.Files, f)
	}
	return in, nil
}

// Inputs lists the benchmark's input names, sorted ("test" and "ref"
// for Discover's benchmarks that have them).
func (b Benchmark) Inputs() []string {
	var out []string
	if b.inputs != nil {
		for n := range b.inputs {
			out = append(out, n)
		}
	} else {
		m, _ := filepath.Glob(filepath.Join(b.Dir, "*.args"))
		for _, f := range m {
			out = append(out, strings.TrimSuffix(filepath.Base(f), ".args"))
		}
	}
	sort.Strings(out)
	return out
}

// Program returns the host path of the program: Binary, or the
// workload's program resolved inside its root.
func (b Benchmark) Program() (string, error) {
	if b.Binary != "" {
		return b.Binary, nil
	}
	p, err := rootfs.HostPath(b.Root, b.ExePath)
	if err != nil {
		return "", fmt.Errorf("workload %s: program %s in the root %s: %v", b.Name, b.ExePath, b.Root, err)
	}
	return p, nil
}

// Built reports whether the benchmark's binary exists.
func (b Benchmark) Built() bool {
	p, err := b.Program()
	if err != nil {
		return false
	}
	_, err = os.Stat(p)
	return err == nil
}

// CheckBuilt says, in one line, why the benchmark's program is missing
// (nil if it is there).
func (b Benchmark) CheckBuilt() error {
	p, err := b.Program()
	if err != nil {
		return err
	}
	if _, err := os.Stat(p); err == nil {
		return nil
	}
	if b.File == "" || b.File == BuiltinFile {
		return fmt.Errorf("benchmark %s is not built (%s missing): run 'make benchmarks'", b.Name, b.Binary)
	}
	return &Error{File: b.File, Line: b.Line, Key: "workload " + b.Name, Msg: fmt.Sprintf("program %s: no such file", p)}
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
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
