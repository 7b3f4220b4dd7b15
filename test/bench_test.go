package test

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/suite"
)

// The benchmark suite's test inputs run once under rvsim per test binary;
// TestBenchmarksMatchQemu and TestBenchmarkDeterminism share the runs.
var (
	benchOnce sync.Once
	benchList []suite.Benchmark
	benchArgs [][]string
	benchOuts []suite.Outcome
	benchErr  error
)

const benchJobs = 2 // the CI machine has two cores

// testArgs returns the arguments of the benchmark's test input. The
// expected-output file is not needed here (qemu gives the reference), so
// only test.args is read if the suite cannot load the whole input.
func testArgs(b suite.Benchmark) ([]string, error) {
	if in, err := b.Input("test"); err == nil {
		return in.Args, nil
	}
	data, err := os.ReadFile(filepath.Join(b.Dir, "test.args"))
	if err != nil {
		return nil, err
	}
	return strings.Fields(string(data)), nil
}

// benchmarks discovers the built benchmarks and runs their test inputs
// under rvsim, in parallel.
func benchmarks(t *testing.T) ([]suite.Benchmark, [][]string, []suite.Outcome) {
	t.Helper()
	all, err := suite.Discover(filepath.Join(repoRoot, "benchmarks"), filepath.Join(repoRoot, "build", "benchmarks"))
	if err != nil {
		missing(t, "no benchmark sources: %v", err)
	}
	for _, b := range all {
		if !b.Built() {
			missing(t, "benchmark %s is not built (%s): run 'make benchmarks'", b.Name, relPath(b.Binary))
		}
	}
	benchOnce.Do(func() {
		benchList = all
		inputs := make([]suite.Input, len(all))
		for i, b := range all {
			args, err := testArgs(b)
			if err != nil {
				benchErr = err
				return
			}
			benchArgs = append(benchArgs, args)
			inputs[i] = suite.Input{Name: "test", Args: args}
		}
		benchOuts = runBenchmarks(all, inputs)
	})
	require.NoError(t, benchErr)
	return benchList, benchArgs, benchOuts
}

// runBenchmarks runs each benchmark's input in-process, benchJobs at a
// time. (suite.RunAll reads the expected output too; here qemu is the
// reference, so the runs go through suite.Run directly.)
func runBenchmarks(bs []suite.Benchmark, ins []suite.Input) []suite.Outcome {
	out := make([]suite.Outcome, len(bs))
	sem := make(chan struct{}, benchJobs)
	var wg sync.WaitGroup
	for i := range bs {
		wg.Add(1)
		sem <- struct{}{}
		go func(i int) {
			defer func() { <-sem; wg.Done() }()
			out[i] = suite.Run(bs[i], ins[i], suite.Options{CountMix: true})
		}(i)
	}
	wg.Wait()
	return out
}

// TestBenchmarksMatchQemu runs every benchmark's test input under rvsim
// and under qemu-riscv64 (live, with the same arguments, working directory,
// argv[0] and an empty environment) and requires the same standard output,
// standard error and exit status.
func TestBenchmarksMatchQemu(t *testing.T) {
	bs, args, outs := benchmarks(t)
	qemu := needQemu(t)

	// qemu runs concurrently with each other, benchJobs at a time.
	qs := make([]procResult, len(bs))
	qerrs := make([]error, len(bs))
	sem := make(chan struct{}, benchJobs)
	var wg sync.WaitGroup
	for i, b := range bs {
		wg.Add(1)
		sem <- struct{}{}
		go func(i int, b suite.Benchmark) {
			defer func() { <-sem; wg.Done() }()
			qs[i], qerrs[i] = startProcess(b.Dir, []string{}, qemu, append([]string{"-0", "/" + b.Name, b.Binary}, args[i]...)...)
		}(i, b)
	}
	wg.Wait()

	for i, b := range bs {
		t.Run(b.Name, func(t *testing.T) {
			o, q := outs[i], qs[i]
			require.NoError(t, qerrs[i])
			require.NotZero(t, o.Result.Instructions, "did not run: %s", o.Why)
			assert.Equal(t, q.Status, o.Result.ExitCode, "exit status (rvsim: %s)", o.Result.Message)
			if d := suite.FirstDifference([]byte(q.Stdout), o.Stdout); d != "" {
				t.Errorf("stdout differs from qemu-riscv64's: %s", d)
			}
			assert.Equal(t, q.Stderr, string(o.Stderr), "stderr")
			assert.NotEmpty(t, q.Stdout, "the benchmark printed nothing under qemu")
			// The expected output committed beside the benchmark, if any,
			// must agree with qemu too.
			if in, err := b.Input("test"); err == nil {
				if d := suite.FirstDifference(in.Stdout, []byte(q.Stdout)); d != "" {
					t.Errorf("%s/test.stdout is stale: qemu-riscv64 now prints something else: %s", b.Name, d)
				}
			}
			t.Logf("%d instructions, %.1f MIPS", o.Result.Instructions, o.Result.MIPS())
		})
	}
}

// TestBenchmarkDeterminism runs the two shortest benchmarks a second time:
// the instruction count and all output must repeat exactly.
func TestBenchmarkDeterminism(t *testing.T) {
	bs, args, outs := benchmarks(t)
	idx := make([]int, len(bs))
	for i := range idx {
		idx[i] = i
	}
	// the two with the fewest instructions
	for i := 0; i < len(idx); i++ {
		for j := i + 1; j < len(idx); j++ {
			if outs[idx[j]].Result.Instructions < outs[idx[i]].Result.Instructions {
				idx[i], idx[j] = idx[j], idx[i]
			}
		}
	}
	idx = idx[:min(2, len(idx))]
	var sel []suite.Benchmark
	var ins []suite.Input
	for _, i := range idx {
		sel = append(sel, bs[i])
		ins = append(ins, suite.Input{Name: "test", Args: args[i]})
	}
	again := runBenchmarks(sel, ins)
	for k, i := range idx {
		t.Run(bs[i].Name, func(t *testing.T) {
			a, b := outs[i], again[k]
			require.NotZero(t, a.Result.Instructions)
			assert.Equal(t, a.Result.Instructions, b.Result.Instructions, "instruction count")
			assert.Equal(t, a.Result.Mix, b.Result.Mix, "instruction mix")
			assert.Equal(t, a.Result.ExitCode, b.Result.ExitCode)
			assert.Equal(t, string(a.Stdout), string(b.Stdout))
			assert.Equal(t, string(a.Stderr), string(b.Stderr))
		})
	}
}
