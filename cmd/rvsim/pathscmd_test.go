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
	assert.Contains(t, stdout.String(), "6 intervals of 1000000 instructions")
	sp, err := os.ReadFile(prefix + ".simpoints")
	require.NoError(t, err)
	w, err := os.ReadFile(prefix + ".weights")
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(sp)), "\n")
	wl := strings.Split(strings.TrimSpace(string(w)), "\n")
	assert.Equal(t, len(lines), len(wl), "one weight per simulation point")
	for _, tc := range []struct {
		desc string
		args []string
		err  string
	}{
		{"no program", []string{"--interval", "5000"}, "missing PROGRAM"},
		{"interval too small", []string{"--interval", "10", bin}, "at least 1000"},
		{"max-k", []string{"--max-k", "0", bin}, "--max-k must be in 1..100"},
		{"shorter than half an interval", []string{"--interval", "100000000", "--out", prefix, bin, "12", "1", "16"}, "less than half an interval"},
	} {
		_, err := simpointCmd(tc.args, strings.NewReader(""), &stdout, &stderr)
		if assert.Error(t, err, tc.desc) {
			assert.Contains(t, err.Error(), tc.err, tc.desc)
		}
	}
}
