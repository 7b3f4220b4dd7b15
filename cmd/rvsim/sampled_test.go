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

// run --fast-forward and --warmup: bad values are one-line usage errors.
func TestRunFastForwardUsage(t *testing.T) {
	for _, tc := range []struct{ args, err string }{
		{"--mode timing --fast-forward -1", `invalid value "-1" for flag -fast-forward`},
		{"--mode timing --fast-forward many", `invalid value "many" for flag -fast-forward`},
		{"--mode timing --fast-forward 10 --warmup -5", `invalid value "-5" for flag -warmup`},
		{"--mode timing --fast-forward 0", "--fast-forward 0: want at least 1"},
		{"--mode timing --warmup 100", "--warmup needs --fast-forward N"},
		{"--fast-forward 100", "--fast-forward needs --mode timing"},
		{"--mode timing --fast-forward 100 --profhw-preset exact-value", "--fast-forward cannot be combined with DISE or profhw flags"},
	} {
		t.Run(tc.args, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			args := append(append([]string{"run"}, strings.Fields(tc.args)...), "prog")
			status := run(args, strings.NewReader(""), &stdout, &stderr)
			assert.Equal(t, exitUsage, status)
			assert.Contains(t, stderr.String(), tc.err)
			assert.Equal(t, 1, strings.Count(stderr.String(), "\n"), "one line: %q", stderr.String())
		})
	}
}

// run --mode timing --fast-forward N --warmup M --stats: the same output
// as a full run, the instructions divided into the three parts, cycles
// and IPC of the timed part.
func TestRunFastForwardStats(t *testing.T) {
	needBuilt(t, "build/benchmarks/lz")
	dir := t.TempDir()
	args, err := os.ReadFile(rel("benchmarks/lz/test.args"))
	require.NoError(t, err)
	want, err := os.ReadFile(rel("benchmarks/lz/test.stdout"))
	require.NoError(t, err)
	stats := filepath.Join(dir, "s.json")
	var stdout, stderr bytes.Buffer
	status := run(append([]string{"run", "--mode", "timing", "--fast-forward", "2000000", "--warmup", "500000",
		"--stats", stats, "--clear-env", rel("build/benchmarks/lz")}, strings.Fields(string(args))...),
		strings.NewReader(""), &stdout, &stderr)
	require.Equal(t, 0, status, stderr.String())
	assert.Equal(t, string(want), stdout.String())
	data, err := os.ReadFile(stats)
	require.NoError(t, err)
	var s map[string]any
	require.NoError(t, json.Unmarshal(data, &s))
	insts, timed := s["instructions"].(float64), s["timed_instructions"].(float64)
	assert.Equal(t, 2000000.0, s["fast_forward_instructions"])
	assert.Equal(t, 500000.0, s["warmup_instructions"])
	assert.Equal(t, insts-2500000, timed)
	assert.InDelta(t, timed/s["cycles"].(float64), s["ipc"], 1e-9)
}
