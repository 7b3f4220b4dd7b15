// Package test holds rvsim's end-to-end tests: the project's bare-metal ISA
// tests (test/programs/isa) run on the simulator, the same tests as Linux
// programs checked on qemu-riscv64, the command line's error paths, and
// the benchmark suite compared live against qemu-riscv64.
//
// The guest programs are built by `make testprogs` (and the benchmarks by
// `make benchmarks`). A test whose programs are missing is skipped with a
// message saying what to build, or fails when RVSIM_REQUIRE_ARTIFACTS=1
// (as `make test` sets).
package test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

var (
	repoRoot  string // the module root (the parent of this directory)
	testprogs string // where test/programs/Makefile puts its programs
	srcDir    string // test/programs

	binOnce sync.Once
	binDir  string // temporary directory holding the rvsim binary
	binPath string
	binErr  error
)

func TestMain(m *testing.M) {
	wd, err := os.Getwd()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	repoRoot = filepath.Dir(wd)
	testprogs = filepath.Join(repoRoot, "build", "testprogs")
	srcDir = filepath.Join(wd, "programs")
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

func requireArtifacts() bool { return os.Getenv("RVSIM_REQUIRE_ARTIFACTS") == "1" }

// missing skips the test, or fails it under RVSIM_REQUIRE_ARTIFACTS=1.
func missing(t testing.TB, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if requireArtifacts() {
		t.Fatal(msg + " (RVSIM_REQUIRE_ARTIFACTS=1)")
	}
	t.Skip(msg)
}

// needFile calls missing unless path exists.
func needFile(t testing.TB, path, how string) {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		missing(t, "%s is not built: run '%s'", relPath(path), how)
	}
}

func relPath(p string) string {
	if r, err := filepath.Rel(repoRoot, p); err == nil {
		return r
	}
	return p
}

// programsIn lists the regular files in dir, sorted; it calls missing if
// there are none.
func programsIn(t testing.TB, dir, how string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if e.Type().IsRegular() {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	if len(names) == 0 {
		missing(t, "no programs in %s: run '%s'", relPath(dir), how)
	}
	return names
}

// needQemu returns the path of qemu-riscv64 or calls missing.
func needQemu(t testing.TB) string {
	t.Helper()
	p, err := exec.LookPath("qemu-riscv64")
	if err != nil {
		missing(t, "qemu-riscv64 is not installed: run 'make setup'")
	}
	return p
}

// rvsimBinary builds cmd/rvsim once per test run into a temporary
// directory and returns its path.
func rvsimBinary(t testing.TB) string {
	t.Helper()
	binOnce.Do(func() {
		binDir, binErr = os.MkdirTemp("", "rvsim-test-")
		if binErr != nil {
			return
		}
		binPath = filepath.Join(binDir, "rvsim")
		cmd := exec.Command("go", "build", "-o", binPath, "./cmd/rvsim")
		cmd.Dir = repoRoot
		if out, err := cmd.CombinedOutput(); err != nil {
			binErr = fmt.Errorf("go build ./cmd/rvsim: %v\n%s", err, out)
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

// procResult is what a finished process left behind.
type procResult struct {
	Stdout, Stderr string
	Status         int // exit status as a shell sees it: 128+n for signal n
}

// runProcess runs name with args in dir (the current directory if empty)
// with the environment env (nil: inherit).
func runProcess(t testing.TB, dir string, env []string, name string, args ...string) procResult {
	t.Helper()
	r, err := startProcess(dir, env, name, args...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// processLimit is how long one run may take before it is killed as hung
// (a scheduling bug that hangs a guest then fails its test, not the whole
// package at go test's timeout). The longest run takes about a minute.
const processLimit = 10 * time.Minute

// startProcess is runProcess for goroutines other than the test's: an
// error means the program could not be run at all.
func startProcess(dir string, env []string, name string, args ...string) (procResult, error) {
	ctx, cancel := context.WithTimeout(context.Background(), processLimit)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = env
	cmd.Stdin = strings.NewReader("")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	r := procResult{Stdout: stdout.String(), Stderr: stderr.String()}
	if ctx.Err() != nil {
		r.Stderr += fmt.Sprintf("\n(killed: %s %s was still running after %v)", name, strings.Join(args, " "), processLimit)
	}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		r.Status = exitStatus(ee)
	default:
		return r, fmt.Errorf("%s: %v", name, err)
	}
	return r, nil
}
