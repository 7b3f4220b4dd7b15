package main

import (
	"bytes"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// benchmarks --qemu alternates rvsim and qemu-riscv64 --rounds times and
// prints each program's best CPU time under both and the ratio.
func TestBenchmarksQemuRounds(t *testing.T) {
	runCmdCases(t, benchmarksCmd, true, []cmdCase{
		{desc: "no rounds", args: []string{"--qemu", "--rounds", "0"}, status: 2, err: "--rounds 0: want at least 1", usageError: true},
	})
	needBuilt(t, "build/benchmarks/lz", "build/benchmarks/exprc")
	if _, err := exec.LookPath("qemu-riscv64"); err != nil {
		t.Fatal("qemu-riscv64 is not installed: make setup installs it")
	}
	var stdout, stderr bytes.Buffer
	status, err := benchmarksCmd([]string{"--qemu", "--rounds", "2", "--src", rel("benchmarks"), "--bin", rel("build/benchmarks"), "lz", "exprc"}, &stdout, &stderr)
	require.NoError(t, err, stderr.String())
	require.Equal(t, 0, status)
	// Two rounds of each, alternating: lz, exprc, lz, exprc.
	require.Equal(t, []string{"round 1/2: lz", "round 1/2: exprc", "round 2/2: lz", "round 2/2: exprc"},
		regexp.MustCompile(`round \d/\d: \w+`).FindAllString(stderr.String(), -1))
	out := stdout.String()
	for _, name := range []string{"lz", "exprc"} {
		require.Regexp(t, `(?m)^\s*`+name+`\s+\d+\.\d{3}\s+\d+\.\d{3}\s+\d+\.\d{2}\s*$`, out)
	}
	require.Contains(t, out, "rvsim time / qemu-riscv64 time (CPU, best of 2 alternating rounds): geometric mean ")
	require.Equal(t, 2, strings.Count(out, " pass\n"), "the usual table, from the last round")
}
