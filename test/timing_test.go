package test

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/config"
	"github.com/rvsim/rvsim/suite"
)

// TestTimingModeChangesNothing runs every benchmark's test input on the
// out-of-order timing model (default preset) and checks that the
// architectural results are those of functional mode: the same output,
// exit status and instruction count (functional mode's runs are shared
// with the qemu comparison). It also checks the model committed every
// instruction and took at least one cycle per instruction it could not
// have overlapped.
func TestTimingModeChangesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("timing mode on every benchmark takes about a minute (-short)")
	}
	bs, _, funcOuts := benchmarks(t)
	ins := make([]suite.Input, len(bs))
	for i, b := range bs {
		in, err := b.Input("test")
		require.NoError(t, err)
		ins[i] = in
	}
	timed, err := suite.RunAll(bs, "test", suite.Options{Timing: config.Default(), CountMix: true}, benchJobs, nil)
	require.NoError(t, err)
	for i, o := range timed {
		f := funcOuts[i]
		t.Run(o.Benchmark, func(t *testing.T) {
			require.Nil(t, o.Result.TimingErr)
			assert.True(t, o.Pass, "timing run: %s", o.Why)
			assert.Equal(t, f.Result.Instructions, o.Result.Instructions, "instruction count")
			// Functional mode counts the mix per block, timing mode (an
			// observer) per instruction.
			assert.Equal(t, f.Result.Mix, o.Result.Mix, "class mix")
			var sum uint64
			for _, n := range f.Result.Mix {
				sum += n
			}
			assert.Equal(t, f.Result.Instructions, sum, "every instruction has a class")
			assert.Equal(t, f.Result.ExitCode, o.Result.ExitCode, "exit status")
			assert.True(t, bytes.Equal(f.Stdout, o.Stdout), "stdout differs between modes")
			assert.True(t, bytes.Equal(f.Stderr, o.Stderr), "stderr differs between modes")
			assert.Greater(t, o.Result.Cycles, o.Result.Instructions/8, "an 8-wide machine at most")
			assert.NotEqual(t, o.Result.Instructions, o.Result.Cycles, "cycles come from the model, not CPI 1")
		})
	}
}
