package sampling

import (
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/config"
	"github.com/rvsim/rvsim/profhw/simpoint"
	"github.com/rvsim/rvsim/sim"
	"github.com/rvsim/rvsim/syscalls"
)

// TestParse: SimPoint's files parse into points sorted by interval, and
// every malformed or mismatched file is one line naming the file and line.
func TestParse(t *testing.T) {
	p, err := Parse("a.simpoints", strings.NewReader("7 1\n2 0\n\n"), "a.weights", strings.NewReader("0.25 0\n0.75 1\n"), 1000, 100)
	require.NoError(t, err)
	assert.Equal(t, []Point{{Interval: 2, Cluster: 0, Weight: 0.25, Line: 2}, {Interval: 7, Cluster: 1, Weight: 0.75, Line: 1}}, p.Points)
	assert.Equal(t, []sim.Window{{Start: 2000, Warmup: 100, Length: 1000, Parts: Parts}, {Start: 7000, Warmup: 100, Length: 1000, Parts: Parts}}, p.Windows())
	for _, tc := range []struct{ s, w, want string }{
		{"", "", "a.simpoints:1: no simulation points"},
		{"1 0 3\n", "1 0\n", `a.simpoints:1: want "interval cluster", got 3 fields`},
		{"x 0\n", "1 0\n", `a.simpoints:1: interval "x": want a non-negative integer`},
		{"-1 0\n", "1 0\n", `a.simpoints:1: interval "-1": want a non-negative integer`},
		{"1 c\n", "1 0\n", `a.simpoints:1: cluster "c": want a non-negative integer`},
		{"1 0\n2 0\n", "1 0\n", "a.simpoints:2: cluster 0 again (line 1)"},
		{"1 0\n1 1\n", "0.5 0\n0.5 1\n", "a.simpoints:2: interval 1 again (line 1)"},
		{"1 0\n2 1\n", "1 0\n", "a.simpoints:2: cluster 1 has no weight in a.weights"},
		{"1 0\n", "0.5 0\n0.5 1\n", "a.weights:2: cluster 1 has no simulation point in a.simpoints"},
		{"1 0\n", "x 0\n", `a.weights:1: weight "x": want a number in (0, 1]`},
		{"1 0\n", "1.5 0\n", `a.weights:1: weight "1.5": want a number in (0, 1]`},
		{"1 0\n", "NaN 0\n", `a.weights:1: weight "NaN": want a number in (0, 1]`},
		{"1 0\n2 1\n", "0.5 0\n0.2 1\n", "a.weights:2: the weights sum to 0.7, not 1 (within 0.01)"},
		{"18446744073709551615 0\n", "1 0\n", "a.simpoints:1: interval 18446744073709551615: past any program's end at 1000 instructions per interval"},
	} {
		_, err := Parse("a.simpoints", strings.NewReader(tc.s), "a.weights", strings.NewReader(tc.w), 1000, 0)
		assert.EqualError(t, err, tc.want, "%q / %q", tc.s, tc.w)
	}
}

// FuzzParse: any input parses or fails with one line naming a file and
// line, never a panic; a parsed plan's weights sum to about 1 and its
// windows are in order, without overlap.
func FuzzParse(f *testing.F) {
	f.Add("7 1\n2 0\n", "0.25 0\n0.75 1\n", uint64(1000))
	f.Add("0 0\n", "1 0\n", uint64(1))
	f.Fuzz(func(t *testing.T, s, w string, interval uint64) {
		p, err := Parse("s", strings.NewReader(s), "w", strings.NewReader(w), interval, 10)
		if err != nil {
			msg := err.Error()
			if strings.Contains(msg, "\n") || !(strings.HasPrefix(msg, "s:") || strings.HasPrefix(msg, "w:") || strings.HasPrefix(msg, "sampling:")) {
				t.Fatalf("error %q: want one line naming a file", msg)
			}
			return
		}
		var sum float64
		for _, pt := range p.Points {
			sum += pt.Weight
		}
		if math.Abs(sum-1) > WeightTolerance {
			t.Fatalf("weights sum to %v", sum)
		}
		var end uint64
		for i, w := range p.Windows() {
			if w.Warmup > w.Start || (i > 0 && w.Start < end) || w.Length != interval {
				t.Fatalf("window %d %+v after %d: out of order or overlapping", i, w, end)
			}
			end = w.Start + w.Length
		}
	})
}

var repo = func() string {
	_, f, _, _ := runtime.Caller(0)
	return filepath.Dir(filepath.Dir(f))
}()

// lz is the lz benchmark's test input as a timing-mode configuration.
func lz(t *testing.T, out *strings.Builder) sim.Config {
	t.Helper()
	bin := filepath.Join(repo, "build/benchmarks/lz")
	if _, err := os.Stat(bin); err != nil {
		if os.Getenv("RVSIM_REQUIRE_ARTIFACTS") == "1" {
			t.Fatal("build/benchmarks/lz is not built: run 'make benchmarks' (RVSIM_REQUIRE_ARTIFACTS=1)")
		}
		t.Skip("build/benchmarks/lz is not built: run 'make benchmarks'")
	}
	dir := filepath.Join(repo, "benchmarks/lz")
	args, err := os.ReadFile(filepath.Join(dir, "test.args"))
	require.NoError(t, err)
	return sim.Config{Program: bin, Args: strings.Fields(string(args)), Timing: config.Default(),
		Kernel: syscalls.Config{Cwd: dir, ExePath: "/lz", Stdin: strings.NewReader(""), Stdout: out, Stderr: out, Warn: out}}
}

func run(t *testing.T, cfg sim.Config) sim.Result {
	t.Helper()
	mc, err := sim.Load(cfg)
	require.NoError(t, err)
	res := mc.Run()
	require.Equal(t, sim.StopExit, res.Stop, res.Message)
	require.NoError(t, res.TimingErr)
	return res
}

// TestWholeRun: one interval covering the whole run, with no warm-up,
// gives the full timing run's CPI exactly (the part marks and the
// boundaries' step splits change nothing).
func TestWholeRun(t *testing.T) {
	var out1, out2 strings.Builder
	full := run(t, lz(t, &out1))
	plan := &Plan{Interval: full.Instructions + 1000, Points: []Point{{Interval: 0, Weight: 1}}, Simpoints: "whole"}
	cfg := lz(t, &out2)
	cfg.Windows = plan.Windows()
	res := run(t, cfg)
	assert.Equal(t, out1.String(), out2.String())
	est, err := plan.Combine(&res)
	require.NoError(t, err)
	assert.Equal(t, full.Cycles, res.Cycles)
	assert.Equal(t, float64(full.Cycles)/float64(full.Instructions), est.CPI)
	assert.Equal(t, full.Instructions, est.Timed)
}

// TestSampledCPI: a computed plan over lz's 1M-instruction intervals is
// timed in one run; the sampled CPI is the hand combination of the
// windows' CPIs; the windows are where the plan puts them, with the
// warm-up before each not counted; the run's output is the full run's;
// the error estimate is the formula's; a second run is identical.
func TestSampledCPI(t *testing.T) {
	var out1, out2 strings.Builder
	full := run(t, lz(t, &out1))
	plan, err := Compute(lz(t, &strings.Builder{}), 1_000_000, 200_000, DefaultMaxK, DefaultSeed, simpoint.Typical)
	require.NoError(t, err)
	require.NotEmpty(t, plan.Points)
	cfg := lz(t, &out2)
	cfg.Windows = plan.Windows()
	res := run(t, cfg)
	assert.Equal(t, out1.String(), out2.String())
	assert.Equal(t, full.Instructions, res.Instructions)
	est, err := plan.Combine(&res)
	require.NoError(t, err)
	var num, wsum, v float64
	var timed, prevEnd uint64
	for i, pt := range plan.Points {
		w := res.Sampled.Windows[i]
		assert.Equal(t, pt.Interval*1_000_000, w.Start)
		// A warm-up reaching back into the previous window is that
		// window's model running on: the gap is the warm-up.
		assert.Equal(t, min(200_000, w.Start-prevEnd), w.WarmupRun, "window %d", i)
		prevEnd = w.Start + w.Timed
		assert.Equal(t, uint64(1_000_000), w.Timed)
		cpi := float64(w.Cycles) / float64(w.Timed)
		num += pt.Weight * cpi
		wsum += pt.Weight
		timed += w.Timed
		var sum uint64
		var parts []float64
		for j, c := range w.PartCycles {
			sum += c
			parts = append(parts, float64(c)/float64(w.PartInsts[j]))
		}
		assert.Equal(t, w.Cycles, sum, "the parts' cycles add up to the window's")
		require.Len(t, parts, Parts)
		var m, ss float64
		for _, x := range parts {
			m += x / Parts
		}
		for _, x := range parts {
			ss += (x - m) * (x - m) / (Parts - 1)
		}
		v += pt.Weight * pt.Weight * ss / Parts
		// The timed counters exclude the warm-up (read at the end of the
		// cycles the marks fall in: a few instructions commit together).
		assert.Equal(t, w.Cycles, w.Counters["cycles"])
		assert.InDelta(t, w.Timed, w.Counters["instructions"], 8)
	}
	assert.InDelta(t, num/wsum, est.CPI, 1e-12)
	assert.InDelta(t, 1.96*math.Sqrt(v/(wsum*wsum))/est.CPI, est.ErrorEstimate, 1e-12)
	assert.Equal(t, timed, res.Sampled.Timed)
	fullCPI := float64(full.Cycles) / float64(full.Instructions)
	t.Logf("lz test: %d points of %d intervals; sampled CPI %.4f ± %.2f%%, full %.4f (error %+.2f%%)",
		len(plan.Points), (full.Instructions+500_000)/1_000_000, est.CPI, 100*est.ErrorEstimate, fullCPI, 100*(est.CPI-fullCPI)/fullCPI)
	assert.Less(t, math.Abs(est.CPI-fullCPI)/fullCPI, 0.05)

	again := run(t, cfg)
	assert.Equal(t, res.Sampled, again.Sampled, "determinism")
}

// TestPastTheEnd: a point past the program's end names its line.
func TestPastTheEnd(t *testing.T) {
	plan, err := Parse("x.simpoints", strings.NewReader("1 0\n900 1\n"), "x.weights", strings.NewReader("0.5 0\n0.5 1\n"), 1_000_000, 0)
	require.NoError(t, err)
	cfg := lz(t, &strings.Builder{})
	cfg.Windows = plan.Windows()
	res := run(t, cfg)
	_, err = plan.Combine(&res)
	assert.EqualError(t, err, "x.simpoints:2: interval 900 starts at instruction 900000000, past the program's end ("+
		strconv.FormatUint(res.Instructions, 10)+" instructions)")
}

func TestParseWarming(t *testing.T) {
	for _, c := range []struct {
		in   string
		on   bool
		last uint64
	}{{"on", true, 0}, {"off", false, 0}, {"0", false, 0}, {"20M", true, 20_000_000}, {"1500k", true, 1_500_000}, {"123", true, 123}, {"2G", true, 2_000_000_000}} {
		on, last, err := ParseWarming(c.in)
		require.NoError(t, err, c.in)
		assert.Equal(t, c.on, on, c.in)
		assert.Equal(t, c.last, last, c.in)
	}
	for _, bad := range []string{"", "yes", "M", "-5", "1.5M", "99999999999G"} {
		_, _, err := ParseWarming(bad)
		assert.ErrorContains(t, err, "want on, off or an instruction count", bad)
	}
	// Apply carries the bound to the configuration only with warming.
	var cfg sim.Config
	(&Plan{Interval: 100, Warming: true, WarmingLast: 500, Points: []Point{{Interval: 3, Weight: 1}}}).Apply(&cfg)
	assert.True(t, cfg.FunctionalWarming)
	assert.Equal(t, uint64(500), cfg.WarmingLast)
	cfg = sim.Config{}
	(&Plan{Interval: 100, WarmingLast: 500, Points: []Point{{Interval: 3, Weight: 1}}}).Apply(&cfg)
	assert.False(t, cfg.FunctionalWarming)
	assert.Zero(t, cfg.WarmingLast)
}

// A file that cannot be read (a directory) is named without a line.
func TestReadFilesDirectory(t *testing.T) {
	dir := t.TempDir()
	w := filepath.Join(dir, "w")
	require.NoError(t, os.WriteFile(w, []byte("1.0 0\n"), 0o644))
	_, err := ReadFiles(dir, w, 100, 0)
	require.Error(t, err)
	assert.Equal(t, dir+": is a directory", err.Error())
}
