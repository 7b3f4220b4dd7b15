package suite

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/sim"
)

// The table gives each run's share of translated instructions, and a dash
// for a run the translator did not serve.
func TestWriteTableTranslated(t *testing.T) {
	var b bytes.Buffer
	WriteTable(&b, []Outcome{
		{Benchmark: "a", Input: "test", Pass: true, Result: sim.Result{Instructions: 1000, Translated: 989, Cycles: 1000, HostSeconds: 1}},
		{Benchmark: "b", Input: "test", Result: sim.Result{Instructions: 1000, Cycles: 500, HostSeconds: 1}, Why: "wrong output"},
	})
	lines := strings.Split(b.String(), "\n")
	require.Equal(t, []string{"benchmark", "input", "instructions", "cycles", "IPC", "seconds", "MIPS", "translated", "exit", "result"}, strings.Fields(lines[0]))
	require.Equal(t, []string{"a", "test", "1000", "1000", "1.000", "1.00", "0.00", "98.9%", "0", "pass"}, strings.Fields(lines[1]))
	require.Equal(t, []string{"b", "test", "1000", "500", "2.000", "1.00", "0.00", "—", "0", "FAIL"}, strings.Fields(lines[2]))
	require.Equal(t, "b (test): wrong output", lines[3])
}
