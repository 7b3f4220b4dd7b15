package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/difftest"
	"github.com/rvsim/rvsim/sim"
	"github.com/rvsim/rvsim/syscalls"
)

// needOracle skips without libunicorn, except under `make test`.
func needOracle(t *testing.T) {
	t.Helper()
	if err := difftest.Available(); err != nil {
		if os.Getenv("RVSIM_REQUIRE_ARTIFACTS") == "1" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
}

func TestFuzzCmd(t *testing.T) {
	needOracle(t)
	for _, tt := range []struct {
		desc       string
		args       []string
		wantStatus int
		wantOut    string
		wantErr    string
	}{
		{"four programs agree", []string{"--seed", "5", "--count", "4", "--length", "500", "--jobs", "2"}, 0,
			"fuzz: 4 programs (seeds 5..8, 500 instructions each)", ""},
		{"zero count is a usage error", []string{"--count", "0"}, 2, "", "--length and --count must be at least 1"},
		{"stray argument", []string{"--seed", "1", "extra"}, 2, "", `unexpected argument "extra"`},
		{"unknown flag", []string{"--bogus"}, 2, "", "bogus"},
	} {
		t.Run(tt.desc, func(t *testing.T) {
			var out, errb bytes.Buffer
			status, err := fuzzCmd(tt.args, &out, &errb)
			assert.Equal(t, tt.wantStatus, status, "stderr: %s", errb.String())
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Contains(t, out.String(), tt.wantOut)
			assert.Contains(t, out.String(), "no divergence")
		})
	}
}

// TestRunDifftest runs the first instructions of a benchmark program
// under --difftest (skipped when the benchmarks are not built).
func TestRunDifftest(t *testing.T) {
	needOracle(t)
	bin := filepath.Join("..", "..", "build", "benchmarks", "exprc")
	if _, err := os.Stat(bin); err != nil {
		if os.Getenv("RVSIM_REQUIRE_ARTIFACTS") == "1" {
			t.Fatalf("%s is not built: run 'make benchmarks'", bin)
		}
		t.Skipf("%s is not built (run 'make benchmarks')", bin)
	}
	var gout, out, errb bytes.Buffer
	mc, err := sim.Load(sim.Config{Program: bin, Args: []string{"2", "5", "16", "16"},
		Kernel: syscalls.Config{Stdin: strings.NewReader(""), Stdout: &gout, Stderr: &errb, Warn: &errb}})
	require.NoError(t, err)
	status := runDifftest(mc, 100_000, &out, &errb)
	assert.Equal(t, exitLimit, status, "stopped by --max-insts: "+errb.String())
	assert.Contains(t, errb.String(), "instruction limit reached (100000 instructions)")
	assert.Contains(t, errb.String(), "difftest: 100000 instructions in lock-step, no divergence")
}
