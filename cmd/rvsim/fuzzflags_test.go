package main

import (
	"io"
	"strings"
	"testing"
)

// valueFlags are rvsim run's flags whose values are parsed (not paths: a
// fuzzed path could name any file).
var valueFlags = []string{"max-insts", "mode", "jit", "preset", "timing-threads", "interval", "fast-forward",
	"warmup", "functional-warming", "trigger", "dise", "protocol", "profhw-preset", "profhw-set", "env",
	"unset-env", "stats-format", "profile-format", "mem-limit", "quantum", "remote-token", "profhw-stall-cost", "epoch"}

// FuzzRunFlags gives rvsim run two flags from valueFlags with fuzzed
// values (and a program that does not exist, so nothing runs): never a
// panic; always an error of one line; one about a flag names a flag.
func FuzzRunFlags(f *testing.F) {
	for _, s := range []struct {
		i, j   uint8
		vi, vj string
	}{
		{0, 1, "-1", "timing"}, {5, 1, "0x10", "timing"}, {6, 7, "5", "99999999999999999999"}, {8, 1, "junk", "timing"},
		{9, 10, "phase:first:k=v", "pt_entries=0"}, {9, 11, "random:1:1:x", "at-end"}, {12, 13, "stratified-value", "error.exact=["},
		{14, 15, "=x", ""}, {18, 19, "1e3", "99"}, {3, 1, "hpp", "timing"}, {4, 2, "", "maybe"}, {16, 17, "gem5", "pprof"},
	} {
		f.Add(s.i, s.j, s.vi, s.vj)
	}
	f.Fuzz(func(t *testing.T, i, j uint8, vi, vj string) {
		ni, nj := valueFlags[int(i)%len(valueFlags)], valueFlags[int(j)%len(valueFlags)]
		args := []string{"--" + ni, vi, "--" + nj, vj, "/nonexistent/rvsim-fuzz/prog"}
		status, err := runCmd(args, strings.NewReader(""), io.Discard, io.Discard)
		checkFlagError(t, args, status, err, ni, nj)
	})
}

// simpointValueFlags are rvsim simpoint's flags whose values are parsed:
// its own and the guest flags it shares with run.
var simpointValueFlags = []string{"interval", "max-k", "seed", "jit", "pick", "env", "unset-env", "epoch", "mem-limit", "quantum"}

// FuzzSimpointFlags is FuzzRunFlags for rvsim simpoint: two flags with
// fuzzed values and a program that does not exist, never a panic,
// always a one-line error naming a flag or the program.
func FuzzSimpointFlags(f *testing.F) {
	for _, s := range []struct {
		i, j   uint8
		vi, vj string
	}{
		{0, 1, "10", "0"}, {2, 3, "-5", "maybe"}, {4, 5, "=x", "A=B"}, {6, 7, "@x", "0"}, {8, 0, "5", "1000"}, {3, 7, "on", "4G"},
	} {
		f.Add(s.i, s.j, s.vi, s.vj)
	}
	f.Fuzz(func(t *testing.T, i, j uint8, vi, vj string) {
		ni, nj := simpointValueFlags[int(i)%len(simpointValueFlags)], simpointValueFlags[int(j)%len(simpointValueFlags)]
		args := []string{"--" + ni, vi, "--" + nj, vj, "--out", t.TempDir() + "/p", "/nonexistent/rvsim-fuzz/prog"}
		status, err := simpointCmd(args, strings.NewReader(""), io.Discard, io.Discard)
		checkFlagError(t, args, status, err, ni, nj)
	})
}

// checkFlagError is the flag fuzzers' check: an error, of one line, a
// failing status, naming a flag (ni, nj or any --) or the program.
func checkFlagError(t *testing.T, args []string, status int, err error, ni, nj string) {
	t.Helper()
	if err == nil {
		t.Fatalf("%q: no error (status %d)", args, status)
	}
	msg := err.Error()
	if strings.Contains(msg, "\n") {
		t.Fatalf("%q: error spans lines: %q", args, msg)
	}
	if status == 0 {
		t.Fatalf("%q: status 0 with %q", args, msg)
	}
	if !strings.Contains(msg, "/nonexistent/rvsim-fuzz/prog") && !strings.Contains(msg, ni) && !strings.Contains(msg, nj) && !strings.Contains(msg, "--") {
		t.Fatalf("%q: the error names no flag: %q", args, msg)
	}
}
