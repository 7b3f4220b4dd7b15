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

func TestProfhwCmd(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.toml")
	require.NoError(t, os.WriteFile(good, []byte("[[unit]]\nname = \"v\"\nkind = \"exact\"\n"), 0o644))
	bad := filepath.Join(dir, "bad.toml")
	require.NoError(t, os.WriteFile(bad, []byte("[[unit]]\nname = \"v\"\nkind = \"exact\"\n[unit.select]\ntuples = [\"valu\"]\n"), 0o644))
	runCmdCases(t, profhwCmd, true, []cmdCase{
		{desc: "list presets and kinds", args: []string{"list"}, out: "exact-value"},
		{desc: "show a preset", args: []string{"show", "exact-value"}, out: `kind = "exact"`},
		{desc: "show an unknown preset", args: []string{"show", "nope"}, status: 2, err: `unknown profhw preset "nope"`, usageError: true},
		{desc: "show needs a preset", args: []string{"show"}, status: 2, err: "want one PRESET", usageError: true},
		{desc: "check a good file", args: []string{"check", good}, out: "good.toml: ok (1 units)"},
		{desc: "check a bad file", args: []string{"check", bad}, status: 1, err: `bad.toml:5: unit v: select.tuples: unknown tuple kind "valu"`},
		{desc: "check a missing file", args: []string{"check", filepath.Join(dir, "none.toml")}, status: 1, err: "none.toml: no such file or directory"},
		{desc: "check needs a file", args: []string{"check"}, status: 2, err: "want FILE", usageError: true},
		{desc: "unknown subcommand", args: []string{"edit"}, status: 2, err: `unknown subcommand "edit"`, usageError: true},
		{desc: "help", args: []string{"help"}, out: "rvsim profhw show PRESET"},
	})
}

// Every shipped preset, printed by show, is a file that check accepts.
func TestProfhwShowIsAFile(t *testing.T) {
	var out bytes.Buffer
	_, err := profhwCmd([]string{"list"}, &out, &out)
	require.NoError(t, err)
	presets := strings.Split(strings.Split(out.String(), "\nKIND")[0], "\n")[1:]
	require.NotEmpty(t, presets)
	for _, line := range presets {
		name := strings.Fields(line + " x")[0]
		if strings.TrimSpace(line) == "" {
			continue
		}
		var text bytes.Buffer
		_, err := profhwCmd([]string{"show", name}, &text, &text)
		require.NoError(t, err, name)
		p := filepath.Join(t.TempDir(), name+".toml")
		require.NoError(t, os.WriteFile(p, text.Bytes(), 0o644))
		var chk bytes.Buffer
		status, err := profhwCmd([]string{"check", p}, &chk, &chk)
		require.NoError(t, err, name)
		assert.Equal(t, 0, status)
	}
}

// run --profhw-out checks its directory before the run and writes the
// units' files after it.
func TestRunProfhwOut(t *testing.T) {
	needBuilt(t, "build/benchmarks/lz")
	argText, err := os.ReadFile(rel("benchmarks/lz/test.args"))
	require.NoError(t, err)
	prog := struct {
		bin  string
		args []string
	}{rel("build/benchmarks/lz"), strings.Fields(string(argText))}
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	stats := filepath.Join(dir, "stats.json")
	var stdout, stderr bytes.Buffer
	args := append([]string{"--profhw-preset", "exact-value", "--profhw-out", out, "--stats", stats, prog.bin}, prog.args...)
	status, err := runCmd(args, strings.NewReader(""), &stdout, &stderr)
	require.NoError(t, err)
	require.Equal(t, 0, status, stderr.String())
	for _, f := range []string{"exact-value.summary.json", "exact-value.exact.json"} {
		_, err := os.Stat(filepath.Join(out, f))
		assert.NoError(t, err, f)
	}
	var st map[string]any
	data, err := os.ReadFile(stats)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &st))
	hw := st["profhw"].(map[string]any)["exact-value"].(map[string]any)
	assert.Equal(t, "exact", hw["kind"])
	assert.Greater(t, hw["events"].(float64), 100000.0)

	// A directory that cannot be made fails at once, before the guest runs.
	file := filepath.Join(dir, "plain")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	stdout.Reset()
	status, err = runCmd([]string{"--profhw-preset", "exact-value", "--profhw-out", filepath.Join(file, "sub"), prog.bin}, strings.NewReader(""), &stdout, &stderr)
	require.Error(t, err)
	assert.Equal(t, 2, status)
	assert.Contains(t, err.Error(), "--profhw-out "+filepath.Join(file, "sub")+": not a directory")
	assert.Empty(t, stdout.String(), "the guest did not run")

	status, err = runCmd([]string{"--profhw-out", out, prog.bin}, strings.NewReader(""), &stdout, &stderr)
	assert.Equal(t, 2, status)
	assert.ErrorContains(t, err, "--profhw-out needs --profhw FILE or --profhw-preset NAME")
	status, err = runCmd([]string{"--profhw-preset", "nope", prog.bin}, strings.NewReader(""), &stdout, &stderr)
	assert.Equal(t, 2, status)
	assert.ErrorContains(t, err, `--profhw-preset: unknown profhw preset "nope"`)
}

// A unit whose interrupt fails (the accumulator window at an unmapped
// address) stops the run with its error said once: not as the stop
// message and again as the command's error.
func TestRunProfhwInterruptErrorOnce(t *testing.T) {
	needBuilt(t, "build/benchmarks/lz")
	argText, err := os.ReadFile(rel("benchmarks/lz/test.args"))
	require.NoError(t, err)
	var stdout, stderr bytes.Buffer
	args := append([]string{"--profhw-preset", "multihash-value", "--profhw-set", "window.base=0x10", rel("build/benchmarks/lz")}, strings.Fields(string(argText))...)
	status, err := runCmd(args, strings.NewReader(""), &stdout, &stderr)
	require.Error(t, err)
	assert.NotZero(t, status)
	said := stderr.String() + "rvsim: " + err.Error() + "\n" // main prints the error so
	assert.Equal(t, 1, strings.Count(said, "accumulator window at 0x10"), said)
}

// A unit's file that cannot be written in full (a full disk: /dev/full
// in its place) is a one-line error naming it; the other files are
// written. So is a pprof file beside it (--profile-format pprof: a tuple
// profile's is streamed, profile.Pprof.WriteTuples).
func TestRunProfhwOutWriteError(t *testing.T) {
	needBuilt(t, "build/benchmarks/lz")
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full")
	}
	argText, err := os.ReadFile(rel("benchmarks/lz/test.args"))
	require.NoError(t, err)
	for _, c := range []struct{ file, written string }{
		{"exact-value.exact.json", "exact-value.summary.json"},
		{"exact-value.exact.pb.gz", "exact-value.exact.json"},
	} {
		out := t.TempDir()
		full := filepath.Join(out, c.file)
		require.NoError(t, os.Symlink("/dev/full", full))
		var stdout, stderr bytes.Buffer
		args := append([]string{"--profhw-preset", "exact-value", "--profhw-out", out, "--profile-format", "pprof", rel("build/benchmarks/lz")},
			strings.Fields(string(argText))...)
		status, err := runCmd(args, strings.NewReader(""), &stdout, &stderr)
		require.Error(t, err, c.file)
		assert.NotEqual(t, 0, status)
		assert.Equal(t, "--profhw-out "+full+": write: no space left on device (the program exited with status 0)", err.Error())
		_, err = os.Stat(filepath.Join(out, c.written))
		assert.NoError(t, err, "%s is written", c.written)
	}
}

// run --profhw-stall-cost and --profhw-drop-stalls: misuse is a one-line
// usage error before the program is read.
func TestRunProfHWStallFlagsUsage(t *testing.T) {
	run := func(args []string, stdout, stderr io.Writer) (int, error) {
		return runCmd(append(args, "prog"), strings.NewReader(""), stdout, stderr)
	}
	runCmdCases(t, run, true, []cmdCase{
		{"bad value", []string{"--mode", "timing", "--profhw-preset", "path-bl", "--profhw-stall-cost", "maybe"}, exitUsage, "", `--profhw-stall-cost: want on or off, got "maybe"`, true},
		{"off without units", []string{"--mode", "timing", "--profhw-stall-cost", "off"}, exitUsage, "", "--profhw-stall-cost off needs --profhw FILE or --profhw-preset NAME", true},
		{"off in functional mode", []string{"--profhw-preset", "path-bl", "--profhw-stall-cost", "off"}, exitUsage, "", "--profhw-stall-cost off needs --mode timing", true},
		{"drop-stalls without units", []string{"--mode", "timing", "--profhw-drop-stalls"}, exitUsage, "", "--profhw-drop-stalls needs --profhw FILE or --profhw-preset NAME", true},
	})
}
