package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPathsCmd(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "p.profile.json")
	require.NoError(t, os.WriteFile(good, []byte(`{"unit": "u", "profile": "hpt", "paths": "bl", "metric": "frequency", "total": 3,
  "entries": [{"start": "main+0x4", "start_hex": "0x104", "length": 2, "directions": "TN", "count": 2, "percent": 66.7,
    "blocks": [{"start": "main+0x4", "insts": ["0x104  beq a0,a1,8"]}]},
  {"start": "f", "start_hex": "0x200", "length": 1, "directions": "T", "count": 1, "percent": 33.3}]}`), 0o644))
	notPaths := filepath.Join(dir, "x.json")
	require.NoError(t, os.WriteFile(notPaths, []byte(`{"unit": "x", "profile": "estimated"}`), 0o644))
	broken := filepath.Join(dir, "b.json")
	require.NoError(t, os.WriteFile(broken, []byte(`{"unit": `), 0o644))
	for _, tc := range []struct {
		desc   string
		args   []string
		status int
		out    []string
		notOut string
		err    string
	}{
		{desc: "the listing, flags after the file", args: []string{good, "--top", "1"}, out: []string{"#1  main+0x4 (0x104)  length 2  TN  count 2", "block main+0x4", "0x104  beq a0,a1,8"}, notOut: "#2"},
		{desc: "both paths by default", args: []string{good}, out: []string{"#1", "#2  f (0x200)  length 1  T  count 1"}},
		{desc: "flags first", args: []string{"--top", "0", good}, notOut: "#1"},
		{desc: "no file", args: nil, status: 2, err: "want one PROFILE.json"},
		{desc: "missing file", args: []string{filepath.Join(dir, "nope.json")}, status: 1, err: "nope.json: no such file"},
		{desc: "another unit's profile", args: []string{notPaths}, status: 1, err: `x.json: not a path profile`},
		{desc: "broken JSON", args: []string{broken}, status: 1, err: "b.json: unexpected end of JSON input"},
		{desc: "bad --top", args: []string{good, "--top", "-1"}, status: 2, err: "--top must be >= 0"},
	} {
		var stdout bytes.Buffer
		status, err := pathsCmd(tc.args, &stdout)
		assert.Equal(t, tc.status, status, tc.desc)
		if tc.err != "" {
			if assert.Error(t, err, tc.desc) {
				assert.Contains(t, err.Error(), tc.err, tc.desc)
				assert.NotContains(t, err.Error(), "\n", tc.desc)
			}
		} else {
			assert.NoError(t, err, tc.desc)
		}
		for _, o := range tc.out {
			assert.Contains(t, stdout.String(), o, tc.desc)
		}
		if tc.notOut != "" {
			assert.NotContains(t, stdout.String(), tc.notOut, tc.desc)
		}
	}
}

func TestSimpointCmd(t *testing.T) {
	bin := "../../build/benchmarks/lz"
	if _, err := os.Stat(bin); err != nil {
		if os.Getenv("RVSIM_REQUIRE_ARTIFACTS") == "1" {
			t.Fatal("lz is not built")
		}
		t.Skip("lz is not built (make benchmarks)")
	}
	prefix := filepath.Join(t.TempDir(), "lz")
	var stdout, stderr bytes.Buffer
	status, err := simpointCmd([]string{"--interval", "1000000", "--out", prefix, bin, "12", "1", "16"}, strings.NewReader(""), &stdout, &stderr)
	require.NoError(t, err)
	assert.Equal(t, 0, status)
	assert.Contains(t, stderr.String(), "6 intervals of 1000000 instructions")
	want, err := os.ReadFile("../../benchmarks/lz/test.stdout")
	require.NoError(t, err)
	assert.Equal(t, string(want), stdout.String(), "the guest's output, as under run")
	sp, err := os.ReadFile(prefix + ".simpoints")
	require.NoError(t, err)
	w, err := os.ReadFile(prefix + ".weights")
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(sp)), "\n")
	wl := strings.Split(strings.TrimSpace(string(w)), "\n")
	assert.Equal(t, len(lines), len(wl), "one weight per simulation point")
	// --pick: the same clustering (clusters and weights), each cluster's
	// point chosen two ways; typical is the default.
	for _, pick := range []string{"typical", "centre"} {
		p := prefix + "-" + pick
		_, err := simpointCmd([]string{"--interval", "1000000", "--pick", pick, "--out", p, bin, "12", "1", "16"}, strings.NewReader(""), io.Discard, io.Discard)
		require.NoError(t, err, pick)
		pw, err := os.ReadFile(p + ".weights")
		require.NoError(t, err)
		assert.Equal(t, string(w), string(pw), "--pick %s: the weights", pick)
		ps, err := os.ReadFile(p + ".simpoints")
		require.NoError(t, err)
		if pick == "typical" {
			assert.Equal(t, string(sp), string(ps), "typical is the default")
		}
		pl := strings.Split(strings.TrimSpace(string(ps)), "\n")
		require.Len(t, pl, len(lines))
		for i := range pl {
			assert.Equal(t, strings.Fields(lines[i])[1], strings.Fields(pl[i])[1], "--pick %s: line %d's cluster", pick, i+1)
		}
	}
	for _, tc := range []struct {
		desc string
		args []string
		err  string
	}{
		{"no program", []string{"--interval", "5000"}, "missing PROGRAM"},
		{"interval too small", []string{"--interval", "10", bin}, "at least 1000"},
		{"max-k", []string{"--max-k", "0", bin}, "--max-k must be in 1..100"},
		{"shorter than half an interval", []string{"--interval", "100000000", "--out", prefix, bin, "12", "1", "16"}, "less than half an interval"},
		{"bad --jit", []string{"--jit", "maybe", bin}, `--jit: want on or off, got "maybe"`},
		{"bad --env", []string{"--env", "=x", bin}, `--env "=x": want KEY=VALUE`},
		{"bad --quantum", []string{"--quantum", "5", bin}, "--quantum 5: want at least 100"},
		{"bad --mem-limit", []string{"--mem-limit", "lots", bin}, "--mem-limit"},
		{"bad --pick", []string{"--pick", "median", bin}, `--pick "median": want typical or centre`},
	} {
		_, err := simpointCmd(tc.args, strings.NewReader(""), &stdout, &stderr)
		if assert.Error(t, err, tc.desc) {
			assert.Contains(t, err.Error(), tc.err, tc.desc)
		}
	}
}

// TestSimpointSeesRunsStream: simpoint runs the guest as run does, with
// run's guest flags and defaults (the host's environment), so the plan's
// intervals are those of the sampled run: the instructions retired agree
// with run's under the default environment, an empty one and an added
// variable, translated or not.
func TestSimpointSeesRunsStream(t *testing.T) {
	needBuilt(t, "build/benchmarks/lz")
	args, err := os.ReadFile(rel("benchmarks/lz/test.args"))
	require.NoError(t, err)
	dir := t.TempDir()
	counts := map[string]bool{}
	for _, flags := range [][]string{nil, {"--clear-env"}, {"--env", "RVSIM_TEST_PADDING=" + strings.Repeat("x", 3000)}, {"--jit", "off", "--clear-env"}} {
		var stdout, stderr bytes.Buffer
		prog := append([]string{rel("build/benchmarks/lz")}, strings.Fields(string(args))...)
		status, err := simpointCmd(append(append([]string{"--interval", "1000000", "--out", filepath.Join(dir, "lz")}, flags...), prog...), strings.NewReader(""), &stdout, &stderr)
		require.NoError(t, err, "%v", flags)
		require.Equal(t, 0, status)
		m := regexp.MustCompile(`\((\d+) retired\)`).FindStringSubmatch(stderr.String())
		require.NotNil(t, m, stderr.String())
		stats := filepath.Join(dir, "s.json")
		runFlags := slices.DeleteFunc(slices.Clone(flags), func(s string) bool { return s == "--jit" || s == "off" })
		stdout.Reset()
		stderr.Reset()
		require.Equal(t, 0, run(append(append([]string{"run", "--stats", stats}, runFlags...), prog...), strings.NewReader(""), &stdout, &stderr), stderr.String())
		data, err := os.ReadFile(stats)
		require.NoError(t, err)
		var s struct{ Instructions uint64 }
		require.NoError(t, json.Unmarshal(data, &s))
		assert.Equal(t, strconv.FormatUint(s.Instructions, 10), m[1], "%v", flags)
		counts[m[1]] = true
	}
	assert.Len(t, counts, 3, "the environments differ, and so do the streams")
}
