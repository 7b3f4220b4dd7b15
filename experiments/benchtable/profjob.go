package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/rvsim/rvsim/config"
	"github.com/rvsim/rvsim/profhw"
	"github.com/rvsim/rvsim/suite"
)

// profJob is one timed run of the profhw rows: a program's input with a
// preset (or none) in one mode.
type profJob struct {
	Program       string
	Input         string
	Mode          string // functional or timing
	Preset        string // "": plain
	HardwareAlone bool   // the units' references off (error.exact = false; timing mode: the stalls' cost unmeasured)
	JIT           bool   // functional mode: translate hot code (-jit, unless the plain interpreted run)
}

// jobResult is what a job's child process prints.
type jobResult struct {
	Times Times
	Why   string
}

// run times the job in this process; progs holds its program.
func (j profJob) run(progs []suite.Benchmark) (Times, string) {
	var b suite.Benchmark
	for _, p := range progs {
		if p.Name == j.Program {
			b = p
		}
	}
	if b.Name == "" {
		return Times{}, fmt.Sprintf("no program %q", j.Program)
	}
	in, err := b.Input(j.Input)
	if err != nil {
		return Times{}, err.Error()
	}
	opt := suite.Options{JIT: j.JIT}
	if j.Mode == "timing" {
		opt.Timing = config.Default()
	}
	if j.Preset != "" {
		if opt.ProfHW, err = profhw.LoadPreset(j.Preset); err != nil {
			return Times{}, err.Error()
		}
		if j.HardwareAlone {
			for _, u := range opt.ProfHW {
				u.Set("error.exact", false)
			}
			opt.UnmeasuredStalls = true // (the overhead's reference: no twin core)
		}
	}
	o, t := suite.TimedRun(b, in, opt)
	if !o.Pass {
		return t, b.Name + ": " + oneLine(o.Why)
	}
	return t, ""
}

// runIsolated times the job in a child process of this program (-job):
// a run in-process inherits the heap and goroutines the runs before it
// left, and the profhw rows moved by up to a sixth between tables
// measured that way (docs/SPEED.md).
func (j profJob) runIsolated() (Times, string) {
	exe, err := os.Executable()
	if err != nil {
		return Times{}, err.Error()
	}
	arg, _ := json.Marshal(j) // (plain fields: cannot fail)
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(exe, "-job", string(arg))
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return Times{}, fmt.Sprintf("%s: the job's process: %v: %s", j.Program, err, oneLine(strings.TrimSpace(stderr.String())))
	}
	var res jobResult
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
		return Times{}, fmt.Sprintf("%s: the job's process printed no result: %v", j.Program, err)
	}
	return res.Times, res.Why
}

// runJob is a child's whole work (-job): it runs the job and prints its
// result.
func runJob(arg string) error {
	var j profJob
	dec := json.NewDecoder(strings.NewReader(arg))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		return fmt.Errorf("-job: %v", err)
	}
	all, err := suite.Named("", "benchmarks", filepath.Join("build", "benchmarks"), ".")
	if err != nil {
		return err
	}
	progs, err := suite.Select(all, []string{j.Program})
	if err != nil {
		return fmt.Errorf("-job: %v", err)
	}
	var res jobResult
	res.Times, res.Why = j.run(progs)
	return json.NewEncoder(os.Stdout).Encode(res)
}
