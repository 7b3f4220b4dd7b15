package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMontecarloCmd(t *testing.T) {
	dir := t.TempDir()
	csvFile := filepath.Join(dir, "fig4.csv")
	runCmdCases(t, montecarloCmd, false, []cmdCase{
		{desc: "a small grid with CSV", args: []string{"--n-min", "1000", "--n-max", "3000", "--n-step", "2000", "--trials", "50", "--csv", csvFile},
			out: "first N with mean error below 4%"},
		{desc: "tagged samplers", args: []string{"--samplers", "T[2,8,3]16,P10", "--trials", "1"}, status: 2, err: "no tagged or A_k"},
		{desc: "bad sampler", args: []string{"--samplers", "Q10"}, status: 2, err: `compressor "Q10": at offset 0`},
		{desc: "bad substreams", args: []string{"--substreams", "3"}, status: 2, err: "power of two"},
		{desc: "bad estimator", args: []string{"--estimator", "mean"}, status: 2, err: `--estimator "mean": want ratio or sum`},
		{desc: "bad grid", args: []string{"--n-min", "5", "--n-max", "1"}, status: 2, err: "--n-min <= --n-max"},
		{desc: "unwritable CSV", args: []string{"--trials", "1", "--csv", filepath.Join(dir, "no", "x.csv")}, status: 1, err: "no such file or directory"},
		{desc: "help", args: []string{"--help"}, status: 2, err: errHelp.Error(), out: "Fig. 4"},
	})
	data, err := os.ReadFile(csvFile)
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	require.Equal(t, "sampler,n,mean_err_percent", lines[0])
	require.Len(t, lines, 1+6*2, "six samplers at two lengths")
	assert.True(t, strings.HasPrefix(lines[1], "R10,1000,"))
	assert.True(t, strings.HasPrefix(lines[len(lines)-1], "H[CR10]16,3000,"))
}

// --stats gains, per stratified unit, the summary's fields.
func TestRunStratifiedStats(t *testing.T) {
	needBuilt(t, "build/benchmarks/lz")
	argText, err := os.ReadFile(rel("benchmarks/lz/test.args"))
	require.NoError(t, err)
	dir := t.TempDir()
	stats := filepath.Join(dir, "stats.json")
	var stdout, stderr bytes.Buffer
	args := append([]string{"--profhw-preset", "stratified-value", "--profhw-out", dir, "--stats", stats, rel("build/benchmarks/lz")}, strings.Fields(string(argText))...)
	status, err := runCmd(args, strings.NewReader(""), &stdout, &stderr)
	require.NoError(t, err)
	require.Equal(t, 0, status, stderr.String())
	var st map[string]any
	data, err := os.ReadFile(stats)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &st))
	hw := st["profhw"].(map[string]any)["stratified-value"].(map[string]any)
	for _, k := range []string{"events", "messages", "interrupts", "overhead_cycles_analytic", "handler_cycles", "stall_cycles", "stall_cycles_requested", "storage_bits", "error_percent", "compressor"} {
		assert.Contains(t, hw, k)
	}
	assert.Equal(t, "H[P256]2048", hw["compressor"])
	assert.Equal(t, 16384.0, hw["storage_bits"])
	for _, f := range []string{"profile.json", "exact.json", "summary.json", "convergence.csv"} {
		_, err := os.Stat(filepath.Join(dir, "stratified-value."+f))
		assert.NoError(t, err, f)
	}
}
