package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/profhw/pathprof"
	"github.com/rvsim/rvsim/profhw/simpoint"
	"github.com/rvsim/rvsim/sim"
	"github.com/rvsim/rvsim/syscalls"
)

// pathsCmd implements `rvsim paths PROFILE.json [--top N]`: the hot-path
// listing of a path profiler's HPT or exact profile.
func pathsCmd(args []string, stdout io.Writer) (int, error) {
	fs := flag.NewFlagSet("paths", flag.ContinueOnError)
	top := fs.Int("top", 10, "")
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		args = append(args[1:], args[0]) // PROFILE.json first, flags after it
	}
	if err := parseFlags(fs, args); err != nil {
		return 2, err
	}
	if fs.NArg() != 1 {
		return 2, &usageError{"paths: want one PROFILE.json (a path unit's NAME.profile.json or NAME.exact.json)"}
	}
	if *top < 0 {
		return 2, &usageError{"paths: --top must be >= 0"}
	}
	file := fs.Arg(0)
	data, err := os.ReadFile(file)
	if err != nil {
		return 1, fmt.Errorf("%s: %v", file, errors.Unwrap(err))
	}
	p, err := pathprof.ReadProfile(data)
	if err != nil {
		return 1, fmt.Errorf("%s: %v", file, err)
	}
	pathprof.WriteListing(stdout, p, *top)
	return 0, nil
}

// simpointCmd implements `rvsim simpoint [flags] PROGRAM [ARGS...]`: the
// program's basic block vectors per interval, clustered SimPoint-style;
// writes PREFIX.simpoints and PREFIX.weights.
func simpointCmd(args []string, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	fs := flag.NewFlagSet("simpoint", flag.ContinueOnError)
	interval := fs.Uint64("interval", 10_000_000, "")
	maxK := fs.Int("max-k", 10, "")
	seed := fs.Int64("seed", 1, "")
	out := fs.String("out", "", "")
	if err := parseFlags(fs, args); err != nil {
		return 2, err
	}
	if fs.NArg() == 0 {
		return 2, &usageError{"simpoint: missing PROGRAM (rvsim simpoint [--interval N] [--max-k K] [--seed S] [--out PREFIX] PROGRAM [ARGS...])"}
	}
	if *interval < 1000 {
		return 2, &usageError{"simpoint: --interval must be at least 1000 instructions"}
	}
	if *maxK < 1 || *maxK > 100 {
		return 2, &usageError{"simpoint: --max-k must be in 1..100"}
	}
	prefix := *out
	if prefix == "" {
		prefix = fs.Arg(0)
	}
	col := simpoint.NewCollector(*interval)
	mc, err := sim.Load(sim.Config{Program: fs.Arg(0), Args: fs.Args()[1:], Observers: []cpu.Observer{col},
		Kernel: syscalls.Config{Stdin: stdin, Stdout: io.Discard, Stderr: stderr, Warn: stderr}})
	if err != nil {
		return 2, err
	}
	res := mc.Run()
	if res.Stop != sim.StopExit {
		return 1, fmt.Errorf("simpoint: %s: the run did not exit: %s", fs.Arg(0), res.Message)
	}
	col.Finish()
	if len(col.BBVs) == 0 {
		return 1, fmt.Errorf("simpoint: %s ran %d instructions, less than half an interval (--interval %d)", fs.Arg(0), res.Instructions, *interval)
	}
	x := simpoint.Project(col.BBVs, *seed)
	r := simpoint.Cluster(x, *maxK, 5, *seed)
	pts := simpoint.Points(x, r)
	sf, err := os.Create(prefix + ".simpoints")
	if err != nil {
		return 1, errors.Unwrap(err)
	}
	defer sf.Close()
	wf, err := os.Create(prefix + ".weights")
	if err != nil {
		return 1, errors.Unwrap(err)
	}
	defer wf.Close()
	if err := simpoint.WriteFiles(sf, wf, pts); err != nil {
		return 1, err
	}
	fmt.Fprintf(stdout, "%d intervals of %d instructions, k = %d: %s.simpoints, %s.weights\n", len(col.BBVs), *interval, r.K, prefix, prefix)
	return 0, nil
}
