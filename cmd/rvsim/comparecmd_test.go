package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The Slurm contract through the command line: --emit slurm DIR, then
// each task's --cell N DIR (sbatch runs them; here they run in turn),
// then --merge DIR; its files equal a local run's apart from the
// provenance line. A rerun of the local comparison comes from the cache.
func TestCompareSlurmCLI(t *testing.T) {
	needBuilt(t, "build/benchmarks/lz", "build/handlers/rvsim-handlers.elf")
	tmp := t.TempDir()
	common := []string{"compare", "--profilers", "stratified-value,call-pair-hps-event", "--benchmarks", "lz",
		"--max-insts", "100000", "--acf-dir", rel("acf"), "--src", rel("benchmarks"), "--bin", rel("build/benchmarks"),
		"--handlers", rel("build/handlers/rvsim-handlers.elf"), "--sweep", "compressor=P64,P256"}
	cmd := func(args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		status := run(args, strings.NewReader(""), &stdout, &stderr)
		return status, stdout.String(), stderr.String()
	}
	dir := filepath.Join(tmp, "slurm")
	status, out, errs := cmd(append(common, "--emit", "slurm", dir)...)
	require.Equal(t, 0, status, errs)
	assert.Contains(t, out, "(4 cells)")
	script, err := os.ReadFile(filepath.Join(dir, "job.sbatch"))
	require.NoError(t, err)
	assert.Contains(t, string(script), "#SBATCH --array=0-3")
	for _, n := range []string{"0", "1", "2", "3"} {
		status, _, errs = cmd("compare", "--cell", n, dir)
		require.Equal(t, 0, status, errs)
	}
	merged := filepath.Join(tmp, "merged")
	status, out, errs = cmd("compare", "--merge", dir, "--out", merged)
	require.Equal(t, 0, status, errs)
	assert.Contains(t, out, "report: "+filepath.Join(merged, "index.html"))

	local := filepath.Join(tmp, "local")
	status, _, errs = cmd(append(common, "--out", local, "--jobs", "2")...)
	require.Equal(t, 0, status, errs)
	for _, f := range []string{"compare.csv", "compare.md", "compare.json"} {
		a, err := os.ReadFile(filepath.Join(local, f))
		require.NoError(t, err)
		b, err := os.ReadFile(filepath.Join(merged, f))
		require.NoError(t, err)
		la, lb := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
		require.Equal(t, len(la), len(lb), f)
		for i := range la {
			if la[i] != lb[i] {
				assert.Contains(t, la[i], "command: rvsim compare", "%s: only the provenance line differs", f)
			}
		}
	}
	// The report: its figures are the same; index.html differs only in
	// the command that defined the cells (--emit's against the local one).
	figs, err := filepath.Glob(filepath.Join(local, "plots", "*"))
	require.NoError(t, err)
	assert.NotEmpty(t, figs)
	for _, f := range append(figs, filepath.Join(local, "index.html")) {
		a, err := os.ReadFile(f)
		require.NoError(t, err)
		b, err := os.ReadFile(filepath.Join(merged, strings.TrimPrefix(f, local)))
		require.NoError(t, err, "the merge wrote %s too", f)
		la, lb := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
		require.Equal(t, len(la), len(lb), f)
		for i := range la {
			if la[i] != lb[i] {
				assert.Contains(t, la[i], "command: rvsim compare", "%s: only the command differs", f)
			}
		}
	}
	md, _ := os.ReadFile(filepath.Join(local, "compare.md"))
	assert.Contains(t, string(md), "stratified-value [compressor=P64]")

	status, _, errs = cmd(append(common, "--out", local, "--jobs", "2")...)
	require.Equal(t, 0, status, errs)
	assert.Contains(t, errs, "4 of 4 runs from the cache")
	status, _, errs = cmd(append(common, "--out", local, "--jobs", "2", "--no-cache")...)
	require.Equal(t, 0, status, errs)
	assert.NotContains(t, errs, "from the cache")
}

func TestCompareCLIErrors(t *testing.T) {
	for _, tc := range []struct {
		desc string
		args []string
		err  string
	}{
		{"sweep syntax", []string{"compare", "--profilers", "path-bl", "--sweep", "hpt.entries"}, "want KEY=V1,V2"},
		{"sweep key", []string{"compare", "--profilers", "path-bl", "--sweep", "nope=1,2"}, "no profhw profiler's configuration has it"},
		{"machine sweep needs timing", []string{"compare", "--profilers", "path-bl", "--sweep", "l2.size=1024,2048"}, "needs --mode timing"},
		{"emit target", []string{"compare", "--profilers", "path-bl", "--emit", "pbs", "d"}, `--emit "pbs"`},
		{"emit dir", []string{"compare", "--profilers", "path-bl", "--emit", "slurm"}, "needs the directory"},
		{"cell dir", []string{"compare", "--cell", "1"}, "--cell N needs the directory"},
		{"cell number", []string{"compare", "--cell", "x", "d"}, `--cell "x"`},
		{"merge no dir", []string{"compare", "--merge", "/nonexistent"}, "not a directory made by rvsim compare --emit slurm"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			status := run(tc.args, strings.NewReader(""), &stdout, &stderr)
			assert.Equal(t, 2, status)
			assert.Contains(t, stderr.String(), tc.err)
		})
	}
}
