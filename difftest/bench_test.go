package difftest_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rvsim/rvsim/difftest"
	"github.com/rvsim/rvsim/sim"
	"github.com/rvsim/rvsim/suite"
	"github.com/rvsim/rvsim/syscalls"
)

// fullLimit bounds each benchmark's lock-step run under `make test`: the
// issue allows the first 20M instructions where a whole run is too slow
// for CI. Every test input is shorter (5-7M instructions), so they run in
// full and their output is checked too. A plain `go test` (without
// RVSIM_REQUIRE_ARTIFACTS=1 or -difftest.full) checks the first
// quickLimit instructions of each, to stay fast.
const (
	fullLimit  = 20_000_000
	quickLimit = 200_000
)

var flagFull = flag.Bool("difftest.full", false, "run the benchmarks' test inputs to the end (up to 20M instructions) under difftest")

// requireArtifacts is set by `make test`: missing programs are failures.
func requireArtifacts() bool { return os.Getenv("RVSIM_REQUIRE_ARTIFACTS") == "1" }

// TestBenchmarksDifftest runs every benchmark's test input under difftest:
// no divergence in the whole run, or in its first 20M instructions.
func TestBenchmarksDifftest(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the benchmark difftest takes minutes")
	}
	limit := uint64(quickLimit)
	if *flagFull || requireArtifacts() {
		limit = fullLimit
	}
	difftest.NeedOracle(t)
	bs, err := suite.Discover(filepath.Join("..", "benchmarks"), filepath.Join("..", "build", "benchmarks"))
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range bs {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			if !b.Built() {
				if requireArtifacts() {
					t.Fatalf("%s is not built: run 'make benchmarks'", b.Binary)
				}
				t.Skipf("%s is not built (run 'make benchmarks'; RVSIM_REQUIRE_ARTIFACTS=1 makes this a failure)", b.Binary)
			}
			in, err := b.Input("test")
			checkOutput := err == nil
			if err != nil {
				// No expected output committed yet: check the run only.
				args, aerr := os.ReadFile(filepath.Join(b.Dir, "test.args"))
				if aerr != nil {
					t.Fatal(err)
				}
				in = suite.Input{Name: "test", Args: strings.Fields(string(args))}
			}
			var stdout, stderr bytes.Buffer
			mc, err := sim.Load(sim.Config{
				Program: b.Binary, Args: in.Args,
				Kernel: syscalls.Config{Cwd: b.Dir, ExePath: "/" + b.Name,
					Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr, Warn: &stderr},
			})
			if err != nil {
				t.Fatal(err)
			}
			rep, err := difftest.Run(mc, difftest.Options{MaxInsts: limit})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Divergence != nil {
				t.Fatalf("%s %s:\n%s", b.Name, strings.Join(in.Args, " "), rep.Divergence)
			}
			t.Logf("%d instructions in lock-step (%.0f inst/s), %d syscalls, unchecked %v", rep.Instructions, rep.Rate(), rep.Syscalls, rep.Unchecked)
			if rep.Done {
				if rep.Result.ExitCode != in.Status {
					t.Errorf("exit status %d, want %d (%s)", rep.Result.ExitCode, in.Status, rep.Result.Message)
				}
				if d := suite.FirstDifference(in.Stdout, stdout.Bytes()); checkOutput && d != "" {
					t.Errorf("output differs: %s", d)
				}
			} else {
				if limit == fullLimit {
					t.Errorf("not finished after %d instructions: the test input is too long for CI", limit)
				}
				t.Logf("checked the first %d instructions (-difftest.full or RVSIM_REQUIRE_ARTIFACTS=1 runs to the end)", rep.Instructions)
			}
		})
	}
}
