package compare

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// A Slurm sweep (docs/COMPARISON.md, "On a Slurm cluster") is a
// directory DIR holding
//
//	DIR/manifest.json   the comparison's Spec and its cells
//	DIR/job.sbatch      a job array, one task per cell: task N runs
//	                    rvsim compare --cell N DIR
//	DIR/cells/N.json    cell N's Run, written by its task
//	DIR/logs/           the tasks' output
//
// and `rvsim compare --merge DIR` builds the tables from the cells. The
// contract: `rvsim compare ARGS --emit slurm DIR`, then `sbatch --wait
// DIR/job.sbatch`, then `rvsim compare --merge DIR`.

// Manifest is DIR/manifest.json.
type Manifest struct {
	Spec  Spec   `json:"spec"`
	Cells []Cell `json:"cells"`
	// Rvsim and Workdir are the simulator the tasks run and the
	// directory they run in (the spec's relative paths start there).
	Rvsim   string `json:"rvsim"`
	Workdir string `json:"workdir"`
}

// EmitSlurm writes DIR/manifest.json and DIR/job.sbatch for the spec's
// cells; rvsim is the executable the tasks run.
func EmitSlurm(s *Spec, dir, rvsim string) (*Manifest, error) {
	if s.Input == "" {
		s.Input = "test"
	}
	if _, err := s.benchmarks(); err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	wd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	if rvsim, err = filepath.Abs(rvsim); err != nil {
		return nil, err
	}
	m := &Manifest{Spec: *s, Cells: s.Cells(), Rvsim: rvsim, Workdir: wd}
	for _, sub := range []string{"cells", "logs"} {
		if err := os.MkdirAll(filepath.Join(abs, sub), 0o755); err != nil {
			return nil, err
		}
	}
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(abs, "manifest.json"), append(data, '\n'), 0o644); err != nil {
		return nil, err
	}
	return m, os.WriteFile(filepath.Join(abs, "job.sbatch"), []byte(sbatch(m, abs)), 0o755)
}

// sbatch is the job-array script. Its header is what a university
// cluster changes (partition, time, memory).
func sbatch(m *Manifest, dir string) string {
	q := func(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
	return fmt.Sprintf(`#!/bin/bash
# rvsim compare: one array task per cell (%d cells). Made by:
#   %s
# On a shared cluster set the partition, and the time and memory one cell
# needs (a test-input timing run takes seconds and well under 1 GB; ref
# inputs minutes). Clusters cap array sizes (MaxArraySize, often 1001).
#SBATCH --job-name=rvsim-compare
#SBATCH --array=0-%d
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
#SBATCH --time=01:00:00
#SBATCH --mem=2G
#SBATCH --output=%s/logs/cell-%%a.out
##SBATCH --partition=NAME
set -e
cd %s
exec %s compare --cell "$SLURM_ARRAY_TASK_ID" %s
`, len(m.Cells), strings.ReplaceAll(m.Spec.Command, "\n", " "), len(m.Cells)-1, dir, q(m.Workdir), q(m.Rvsim), q(dir))
}

// ReadManifest reads DIR/manifest.json.
func ReadManifest(dir string) (*Manifest, error) {
	data, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		return nil, fmt.Errorf("%s: not a directory made by rvsim compare --emit slurm: %v", dir, err)
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("%s: %v", filepath.Join(dir, "manifest.json"), err)
	}
	for i := range m.Cells {
		if m.Cells[i].Index != i {
			return nil, fmt.Errorf("%s: cell %d has index %d", filepath.Join(dir, "manifest.json"), i, m.Cells[i].Index)
		}
	}
	return &m, nil
}

// RunCell runs cell n of DIR's manifest and writes DIR/cells/N.json.
func RunCell(dir string, n int) (*Run, error) {
	m, err := ReadManifest(dir)
	if err != nil {
		return nil, err
	}
	if n < 0 || n >= len(m.Cells) {
		return nil, fmt.Errorf("--cell %d: %s has cells 0 to %d", n, dir, len(m.Cells)-1)
	}
	c := &m.Cells[n]
	bs, err := m.Spec.benchmarks()
	if err != nil {
		return nil, err
	}
	run := runCell(&m.Spec, c, bs[c.Benchmark], 0)
	data, err := json.Marshal(run)
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, "cells", strconv.Itoa(n)+".json")
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(data, '\n'), 0o644); err != nil {
		return nil, err
	}
	return run, os.Rename(tmp, path)
}

// Merge builds the results from DIR's cells; command is the merging
// command, recorded in the provenance line beside the one that emitted
// the cells.
func Merge(dir, command string) (*Results, error) {
	m, err := ReadManifest(dir)
	if err != nil {
		return nil, err
	}
	runs := make([]*Run, len(m.Cells))
	var missing []string
	for i := range m.Cells {
		data, err := os.ReadFile(filepath.Join(dir, "cells", strconv.Itoa(i)+".json"))
		if err != nil {
			missing = append(missing, strconv.Itoa(i))
			continue
		}
		var r Run
		if err := json.Unmarshal(data, &r); err != nil {
			return nil, fmt.Errorf("%s: %v", filepath.Join(dir, "cells", strconv.Itoa(i)+".json"), err)
		}
		runs[i] = &r
	}
	if len(missing) > 0 {
		if len(missing) > 10 {
			missing = append(missing[:10], "…")
		}
		return nil, fmt.Errorf("%s: cells %s have no result (DIR/cells/N.json): run them with rvsim compare --cell N %s",
			dir, strings.Join(missing, ", "), dir)
	}
	spec := m.Spec
	spec.Command = spec.Command + " (merged by: " + command + ")"
	return build(&spec, m.Cells, runs), nil
}
