package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/rvsim/rvsim/profhw/pathprof"
	"github.com/rvsim/rvsim/profhw/simpoint"
	"github.com/rvsim/rvsim/sim"
)

const pathsUsage = `rvsim paths PROFILE.json [--top N]`

const pathsAbout = `Print the hot paths of a path profiler's NAME.profile.json (the Hot Path
Table) or NAME.exact.json (the exact profile), heaviest first, with each
listed path's basic blocks disassembled (docs/PROFHW.md).`

// pathsCmd implements `rvsim paths PROFILE.json [--top N]`: the hot-path
// listing of a path profiler's HPT or exact profile.
func pathsCmd(args []string, stdout io.Writer) (int, error) {
	c := newFlags("paths", pathsUsage, pathsAbout, stdout)
	var top int
	c.Int(&top, "top", "N", 10, "paths to list (default 10)")
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		args = append(args[1:], args[0]) // PROFILE.json first, flags after it
	}
	if err := c.parse(args); err != nil {
		return 2, err
	}
	if len(c.Args()) != 1 {
		return 2, c.usagef("paths: want one PROFILE.json (a path unit's NAME.profile.json or NAME.exact.json)")
	}
	if top < 0 {
		return 2, c.usagef("paths: --top must be >= 0")
	}
	file := c.Args()[0]
	data, err := os.ReadFile(file)
	if err != nil {
		return 1, fmt.Errorf("%s: %v", file, errors.Unwrap(err))
	}
	p, err := pathprof.ReadProfile(data)
	if err != nil {
		return 1, fmt.Errorf("%s: %v", file, err)
	}
	pathprof.WriteListing(stdout, p, top)
	return 0, nil
}

// simpointCmd implements `rvsim simpoint [flags] PROGRAM [ARGS...]`: the
// program's basic block vectors per interval, clustered SimPoint-style;
// writes PREFIX.simpoints and PREFIX.weights.
const simpointUsage = `rvsim simpoint [flags] PROGRAM [ARGS...]`

const simpointAbout = `Run PROGRAM in functional mode, collect a basic block vector per interval,
cluster them SimPoint-style (random projection to 15 dimensions, k-means,
BIC) and write SimPoint's files: PREFIX.simpoints ("interval cluster" per
line) and PREFIX.weights ("weight cluster"), for 'rvsim run --simpoints'.
The guest's flags (--root, --env, --clear-env, ...) are run's, with run's
defaults (the host's environment), and so are its streams (its output is
on stdout, this command's line on stderr): give both commands the same
flags and redirections, so that the sampled run retires the instruction
stream the plan was made of.`

func simpointCmd(args []string, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	c := newFlags("simpoint", simpointUsage, simpointAbout, stdout)
	var interval uint64
	var maxK, seedFlag int
	var out, jit, pickName string
	c.Uint64(&interval, "interval", "N", 10_000_000, "instructions per interval (default 10000000)")
	c.String(&jit, "jit", "on|off", "on", "translate hot code to host code (amd64 hosts: the control\ntransfers that end blocks are recorded by translated code\ntoo); off: interpret everything. The files are the same")
	c.Int(&maxK, "max-k", "K", 10, "largest number of clusters tried (default 10)")
	c.Int(&seedFlag, "seed", "S", 1, "projection and k-means seed (default 1)")
	c.String(&pickName, "pick", "typical|centre", "typical", "each cluster's simulation point: typical (default), the member nearest\nthe centre among those whose count of distinct blocks lies between\nthe cluster's quartiles; centre, SimPoint's, the member nearest the\ncentre (docs/SPEED.md, \"the representative's breadth\")")
	c.PathFlag(&out, "out", "PREFIX", "output prefix (default: the program's path)")
	var warnings warningsFlag
	warnings.register(c)
	// The guest's flags, as run's: the sampled run must see the stream
	// the plan was made of.
	var gf guestFlags
	gf.register(c)
	if err := c.parse(args); err != nil {
		return 2, err
	}
	fargs := c.Args()
	if len(fargs) == 0 {
		return 2, c.usagef("simpoint: missing PROGRAM")
	}
	if interval < 1000 {
		return 2, c.usagef("simpoint: --interval must be at least 1000 instructions")
	}
	if maxK < 1 || maxK > 100 {
		return 2, c.usagef("simpoint: --max-k must be in 1..100")
	}
	jitOn, err := jitFlag(jit)
	if err != nil {
		return 2, err
	}
	pick, err := simpoint.ParsePick(pickName)
	if err != nil {
		return 2, &usageError{"--pick " + err.Error()}
	}
	g, err := gf.guest()
	if err != nil {
		return 2, err
	}
	seed := int64(seedFlag)
	prefix := out
	if prefix == "" {
		prefix = fargs[0]
	}
	// The program is an input, the two files outputs (outfile).
	var files cmdFiles
	if err := c.files(&files.Set); err != nil {
		return 2, err
	}
	simpoints, weights := prefix+".simpoints", prefix+".weights"
	for _, err := range []error{files.input("the program", fargs[0]), files.output("--out", simpoints), files.output("--out", weights),
		warnings.files(&files), asUsage(files.Stdio(stdin, stdout, stderr)), warnings.create(&files)} {
		if err != nil {
			return 2, err
		}
	}
	defer files.Abandon()
	col := simpoint.NewCollector(interval)
	cfg := sim.Config{Program: fargs[0], Args: fargs[1:], Env: g.env, MemLimit: g.memLimit, Controls: col, JIT: jitOn, Kernel: g.kernel}
	// The guest's streams are run's too: a program's I/O follows what its
	// standard output is (a file's block size, a terminal), and so does
	// the count of its instructions.
	cfg.Kernel.Stdin, cfg.Kernel.Stdout, cfg.Kernel.Stderr, cfg.Kernel.Warn = stdin, stdout, stderr, warnings.writer(stderr)
	mc, err := sim.Load(cfg)
	if err != nil {
		return loadStatus(err), err
	}
	res := mc.Run()
	if res.Stop != sim.StopExit {
		return 1, fmt.Errorf("simpoint: %s: the run did not exit: %s", fargs[0], res.Message)
	}
	col.Finish()
	if len(col.BBVs) == 0 {
		return 1, fmt.Errorf("simpoint: %s ran %d instructions, less than half an interval (--interval %d)", fargs[0], res.Instructions, interval)
	}
	x := simpoint.Project(col.BBVs, seed)
	r := simpoint.Cluster(x, maxK, 5, seed)
	pts := simpoint.Points(x, simpoint.Breadths(col.BBVs), r, pick)
	sf, err := files.create("--out", simpoints)
	if err != nil {
		return 1, err
	}
	wf, err := files.create("--out", weights)
	if err != nil {
		return 1, err
	}
	simpoint.WriteFiles(sf, wf, pts) // an error is Close's
	if errs := files.Close(); len(errs) > 0 {
		return 1, errs[0]
	}
	fmt.Fprintf(stderr, "%d intervals of %d instructions (%d retired), k = %d: %s.simpoints, %s.weights\n", len(col.BBVs), interval, res.Instructions, r.K, prefix, prefix)
	return 0, nil
}
