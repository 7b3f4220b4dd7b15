package phase_test

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rvsim/rvsim/config"
	"github.com/rvsim/rvsim/profhw"
	"github.com/rvsim/rvsim/profhw/phase"
	"github.com/rvsim/rvsim/sim"
	"github.com/rvsim/rvsim/syscalls"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestConfigErrors: every key is bounded, with a one-line error naming
// the unit and the key.
func TestConfigErrors(t *testing.T) {
	summary := filepath.Join(t.TempDir(), "first.summary.json")
	require.NoError(t, os.WriteFile(summary, []byte(`{"kind":"multihash"}`), 0o644))
	for _, tc := range []struct {
		vals map[string]any
		want string
	}{
		{map[string]any{"interval": int64(10)}, "unit t: interval: 10 is out of range [1000, 1099511627776]"},
		{map[string]any{"interval": int64(1000)}, "unit t: interval: 1000 instructions for 32 accumulators: at least 64 per accumulator (2048)"},
		{map[string]any{"accumulators": int64(24)}, "unit t: accumulators: 24 is not a power of two"},
		{map[string]any{"accumulators": int64(1 << 20)}, "unit t: accumulators: 1048576 is out of range [2, 65536]"},
		{map[string]any{"signature_bits": int64(33)}, "unit t: signature_bits: 33 is out of range [1, 32]"},
		{map[string]any{"threshold": -1.0}, "unit t: threshold: -1 is out of range [0, 200]"},
		{map[string]any{"threshold": "x"}, "unit t: threshold: want a number"},
		{map[string]any{"table.entries": int64(0)}, "unit t: table.entries: 0 is out of range [1, 4096]"},
		{map[string]any{"table.seed": int64(-1)}, "unit t: table.seed: -1 is out of range"},
		{map[string]any{"predictor.kind": "markov"}, `unit t: predictor.kind: "markov" is not one of last, runlength, oracle`},
		{map[string]any{"predictor.kind": "runlength", "predictor.entries": int64(48)}, "unit t: predictor.entries: 48 is not a power of two"},
		{map[string]any{"predictor.entries": int64(64)}, `unit t: predictor.entries: only the runlength predictor has a table (predictor.kind = "last")`},
		{map[string]any{"predictor.kind": "oracle"}, "unit t: predictor.kind: the oracle is two-pass: it needs predictor.oracle_summary"},
		{map[string]any{"predictor.oracle_summary": summary}, `unit t: predictor.oracle_summary: only the oracle predictor reads a first run (predictor.kind = "last")`},
		{map[string]any{"predictor.kind": "oracle", "predictor.oracle_summary": summary}, "not a phase unit's summary (no phase_sequence)"},
		{map[string]any{"predictor.kind": "oracle", "predictor.oracle_summary": summary + ".none"}, "unit t: predictor.oracle_summary: stat " + summary + ".none: no such file or directory"},
		{map[string]any{"energy.pj_per_branch": 1e9}, "unit t: energy.pj_per_branch: 1e+09 is out of range [0, 1e+06]"},
		{map[string]any{"intervall": int64(100000)}, `unit t: intervall: unknown key for kind "phase"`},
	} {
		_, err := phase.ReadConfig(profhw.NewUnitConfig("t", "phase", tc.vals))
		require.Error(t, err, "%v", tc.vals)
		assert.Contains(t, err.Error(), tc.want)
		assert.NotContains(t, err.Error(), "\n")
	}
	cfg, err := phase.ReadConfig(profhw.NewUnitConfig("t", "phase", nil))
	require.NoError(t, err)
	assert.Equal(t, phase.DefaultConfig(), cfg.Tracker)
	assert.Equal(t, 4.0, cfg.PJPerBranch)
}

// TestPreset: the phase-tracker preset builds, with the defaults.
func TestPreset(t *testing.T) {
	cfgs, err := profhw.LoadPreset("phase-tracker")
	require.NoError(t, err)
	require.Len(t, cfgs, 1)
	cfg, err := phase.ReadConfig(cfgs[0])
	require.NoError(t, err)
	assert.Equal(t, phase.DefaultConfig(), cfg.Tracker)
}

// runPhases runs the test program phases (A B A C B A) with a phase unit.
func runPhases(t *testing.T, vals map[string]any) (*phase.Unit, sim.Result) {
	t.Helper()
	return runPhasesOn(t, vals, nil, 0)
}

func runPhasesOn(t *testing.T, vals map[string]any, timing *config.Machine, maxInsts uint64) (*phase.Unit, sim.Result) {
	t.Helper()
	bin := "../../build/testprogs/phase/phases"
	if _, err := os.Stat(bin); err != nil {
		if os.Getenv("RVSIM_REQUIRE_ARTIFACTS") == "1" {
			t.Fatalf("%s is not built (make testprogs)", bin)
		}
		t.Skipf("%s is not built (make testprogs)", bin)
	}
	mc, err := sim.Load(sim.Config{Program: bin, Timing: timing, MaxInsts: maxInsts, ProfHW: []*profhw.UnitConfig{profhw.NewUnitConfig("pt", "phase", vals)},
		// A fixed guest path: AT_EXECFN is on the initial stack, and a
		// checkout-dependent one would move the instruction counts.
		Kernel: syscalls.Config{Stdout: io.Discard, Stderr: io.Discard, Warn: io.Discard, ExePath: "/bench/phases"}})
	require.NoError(t, err)
	res := mc.Run()
	if maxInsts == 0 {
		require.Equal(t, sim.StopExit, res.Stop, res.Message)
	}
	return mc.ProfHW().Units()[0].(*phase.Unit), res
}

// stable collapses a phase sequence into its runs of two or more
// intervals: an interval that straddles two loops is a mixture, a phase
// of its own for one interval (the tracker has no notion of a
// transition).
func stable(seq []int) []int {
	var out []int
	for i := 0; i < len(seq); {
		j := i
		for j < len(seq) && seq[j] == seq[i] {
			j++
		}
		if j-i >= 2 && (len(out) == 0 || out[len(out)-1] != seq[i]) {
			out = append(out, seq[i])
		}
		i = j
	}
	return out
}

// TestKnownPhases: on a program whose loops run in the order A B A C B A
// (about 1M instructions each, 50k-instruction intervals) the tracker
// finds that sequence: three phases, A's ID each time A runs.
func TestKnownPhases(t *testing.T) {
	u, res := runPhases(t, map[string]any{"interval": int64(50000)})
	require.NoError(t, res.ProfHWErr)
	s := u.Summary()
	seq := s.Extra["phase_sequence"].([]int)
	require.Greater(t, len(seq), 80)
	st := stable(seq)
	require.Len(t, st, 6, "runs %v of %v", st, seq)
	a, b, c := st[0], st[1], st[3]
	assert.Equal(t, []int{a, b, a, c, b, a}, st)
	assert.True(t, a != b && b != c && a != c)
	for _, id := range []int{a, b, c} {
		e := u.Tracker().Lookup(id)
		require.NotNil(t, e)
		assert.GreaterOrEqual(t, e.Count, uint64(20), "phase %d", id)
	}
	assert.Equal(t, u.Tracker().Distinct(), s.Extra["phases_distinct"])
	assert.Equal(t, len(seq), s.Extra["intervals"])
	// The last-phase predictor is wrong at each change only.
	changes := 0
	for i := 1; i < len(seq); i++ {
		if seq[i] != seq[i-1] {
			changes++
		}
	}
	assert.Equal(t, 100*float64(len(seq)-1-changes)/float64(len(seq)-1), s.Extra["prediction_accuracy_percent"])
	assert.Equal(t, 4*float64(s.Events), s.Extra["energy_pj"], "4 pJ per dynamic branch")
	assert.Equal(t, res.Instructions, s.Extra["instructions"])
	// The last interval closed at the first branch at or past its end.
	closed := u.Tracker().Closed
	assert.GreaterOrEqual(t, closed, uint64(len(seq))*50000)
	assert.Less(t, closed, uint64(len(seq))*50000+100)
	assert.Equal(t, res.Instructions-closed, s.Extra["instructions_unclassified"])
	data, err := json.Marshal(s)
	require.NoError(t, err)
	assert.Contains(t, string(data), `"error_percent":null`)
}

// TestOracleTwoPass: the oracle reads the first run's summary and is
// right at every interval; a first run that is not this one (another
// interval length) is an error naming the key.
func TestOracleTwoPass(t *testing.T) {
	first, _ := runPhases(t, map[string]any{"interval": int64(50000)})
	data, err := json.Marshal(first.Summary())
	require.NoError(t, err)
	file := filepath.Join(t.TempDir(), "pt.summary.json")
	require.NoError(t, os.WriteFile(file, data, 0o644))
	second, res := runPhases(t, map[string]any{"interval": int64(50000), "predictor.kind": "oracle", "predictor.oracle_summary": file})
	require.NoError(t, res.ProfHWErr)
	s := second.Summary().Extra
	assert.Equal(t, first.Summary().Extra["phase_sequence"], s["phase_sequence"])
	assert.Equal(t, 100.0, s["prediction_accuracy_percent"])
	_, res = runPhases(t, map[string]any{"interval": int64(40000), "predictor.kind": "oracle", "predictor.oracle_summary": file})
	require.Error(t, res.ProfHWErr)
	assert.Contains(t, res.ProfHWErr.Error(), "predictor.oracle_summary: "+file+" differs from this run")
}

// TestNoInterval: a run shorter than an interval has no prediction to
// check: prediction_accuracy_percent is null with its reason.
func TestNoInterval(t *testing.T) {
	u, res := runPhases(t, map[string]any{"interval": int64(1 << 30)})
	require.NoError(t, res.ProfHWErr)
	s := u.Summary()
	assert.False(t, s.Answered("prediction_accuracy_percent"))
	assert.True(t, strings.HasPrefix(s.NoAnswer["prediction_accuracy_percent"], "fewer than two intervals (0 of 1073741824 instructions)"))
	assert.Equal(t, []int{}, s.Extra["phase_sequence"])
	assert.Equal(t, 0, s.Extra["phases_distinct"])
}

// TestTimingMode: the tracker sees the same retired branches in timing
// mode: the same phases, interval by interval, on the first 1.5M
// instructions (A, then B).
func TestTimingMode(t *testing.T) {
	vals := map[string]any{"interval": int64(50000)}
	// Stop half an interval past 1.5M: the 30th interval has closed (at
	// the first branch at or past 1.5M), the 31st has not.
	f, res := runPhasesOn(t, vals, nil, 1_525_000)
	require.NoError(t, res.ProfHWErr)
	tm, res := runPhasesOn(t, vals, config.Default(), 1_525_000)
	require.NoError(t, res.ProfHWErr)
	seq := f.Summary().Extra["phase_sequence"].([]int)
	require.Len(t, seq, 30)
	assert.Equal(t, seq, tm.Summary().Extra["phase_sequence"])
	assert.Equal(t, "timing", tm.Summary().Mode)
	assert.Equal(t, f.Summary().Events, tm.Summary().Events)
}
