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

// run --timing-threads: bad values are one-line usage errors.
func TestRunTimingThreadsUsage(t *testing.T) {
	for _, tc := range []struct{ args, err string }{
		{"--mode timing --timing-threads 3", `--timing-threads "3": want 1 (the model on the functional core's thread) or 2 (on its own)`},
		{"--mode timing --timing-threads 0", `--timing-threads "0": want 1`},
		{"--mode timing --timing-threads two", `--timing-threads "two": want 1`},
		{"--timing-threads 2", "--timing-threads needs --mode timing"},
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

// run --mode timing --timing-threads 1 and 2, with --max-insts: the same
// output, exit status, --stats (but the host's time), --interval-out and
// --cycle-profile files.
func TestRunTimingThreadsSame(t *testing.T) {
	needBuilt(t, "build/benchmarks/lz")
	args, err := os.ReadFile(rel("benchmarks/lz/test.args"))
	require.NoError(t, err)
	type out struct {
		status         int
		stdout, stderr string
		stats          map[string]any
		intervals      []byte
		profile        []byte
	}
	runWith := func(threads string) out {
		dir := t.TempDir()
		var stdout, stderr bytes.Buffer
		status := run(append([]string{"run", "--mode", "timing", "--timing-threads", threads, "--max-insts", "2000000",
			"--stats", filepath.Join(dir, "s.json"), "--interval", "100000", "--interval-out", filepath.Join(dir, "iv.csv"),
			"--cycle-profile", filepath.Join(dir, "c.pb.gz"), "--clear-env", rel("build/benchmarks/lz")}, strings.Fields(string(args))...),
			strings.NewReader(""), &stdout, &stderr)
		o := out{status: status, stdout: stdout.String(), stderr: stderr.String()}
		data, err := os.ReadFile(filepath.Join(dir, "s.json"))
		require.NoError(t, err)
		require.NoError(t, json.Unmarshal(data, &o.stats))
		delete(o.stats, "host_seconds")
		delete(o.stats, "mips")
		o.intervals, err = os.ReadFile(filepath.Join(dir, "iv.csv"))
		require.NoError(t, err)
		o.profile, err = os.ReadFile(filepath.Join(dir, "c.pb.gz"))
		require.NoError(t, err)
		return o
	}
	one, two := runWith("1"), runWith("2")
	assert.Equal(t, 124, one.status, one.stderr) // --max-insts
	assert.Equal(t, one, two)
	assert.NotEmpty(t, one.intervals)
}
