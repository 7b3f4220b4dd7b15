package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// run --timing-threads: bad values are one-line usage errors.
func TestRunTimingThreadsUsage(t *testing.T) {
	runTiming := func(args []string, stdout, stderr io.Writer) (int, error) {
		return runCmd(append(args, "prog"), strings.NewReader(""), stdout, stderr)
	}
	want := `want 1 (the model on the functional core's thread) or 2 (on its own)`
	runCmdCases(t, runTiming, true, []cmdCase{
		{"3", []string{"--mode", "timing", "--timing-threads", "3"}, exitUsage, "", `--timing-threads "3": ` + want, true},
		{"0", []string{"--mode", "timing", "--timing-threads", "0"}, exitUsage, "", `--timing-threads "0": ` + want, true},
		{"two", []string{"--mode", "timing", "--timing-threads", "two"}, exitUsage, "", `--timing-threads "two": ` + want, true},
		{"functional", []string{"--timing-threads", "2"}, exitUsage, "", "--timing-threads needs --mode timing", true},
	})
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
