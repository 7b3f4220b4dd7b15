package sim

import (
	"bytes"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/config"
	"github.com/rvsim/rvsim/profhw"
	"github.com/rvsim/rvsim/syscalls"
)

// asyncOut is what a timing run produces that must not depend on where
// the model runs (Config.TimingThreads).
type asyncOut struct {
	async     bool
	stop      StopKind
	insts     uint64
	cycles    uint64
	stdout    string
	stats     map[string]any // without the host's time
	intervals string
	profile   any // the cycle profile
	err       string
}

// asyncRun runs cfg (a timing run) with the model on threads threads,
// with an interval writer every 100000 instructions and a cycle profile.
func asyncRun(t *testing.T, cfg Config, threads int) asyncOut {
	t.Helper()
	var out strings.Builder
	cfg.Kernel.Stdin, cfg.Kernel.Stdout, cfg.Kernel.Stderr, cfg.Kernel.Warn = strings.NewReader(""), &out, &out, &out
	cfg.TimingThreads, cfg.CycleProfile, cfg.CountMix = threads, true, true
	mc, err := Load(cfg)
	require.NoError(t, err)
	var iv bytes.Buffer
	mc.Timing().SetIntervalWriter(&iv, 100000)
	res := mc.Run()
	o := asyncOut{async: mc.TimingAsync(), stop: res.Stop, insts: res.Instructions, cycles: res.Cycles,
		stdout: out.String(), intervals: iv.String(), profile: mc.CycleProfile()}
	if res.TimingErr != nil {
		o.err = res.TimingErr.Error()
	}
	o.stats = mc.Stats(&res)
	delete(o.stats, "host_seconds")
	delete(o.stats, "mips")
	return o
}

// requireSameRun checks the inline run against the async one.
func requireSameRun(t *testing.T, inline, async asyncOut) {
	t.Helper()
	require.False(t, inline.async, "TimingThreads 1 runs the model inline")
	require.True(t, async.async, "TimingThreads 2 runs the model on its own goroutine")
	require.Empty(t, inline.err)
	assert.Equal(t, inline.stop, async.stop)
	assert.Equal(t, inline.insts, async.insts)
	assert.Equal(t, inline.cycles, async.cycles)
	assert.Equal(t, inline.stdout, async.stdout, "the program's output")
	assert.Equal(t, inline.stats, async.stats, "--stats")
	assert.Equal(t, inline.intervals, async.intervals, "the interval lines")
	assert.NotEmpty(t, inline.intervals)
	assert.Equal(t, inline.profile, async.profile, "the cycle profile")
}

// TestTimingAsyncCycleCSR: a program that reads the cycle CSR in a loop,
// its work and output depending on the values read, prints the same with
// the model on its own goroutine as inline: CycleFunc waits for the model
// to consume every delivery so far.
func TestTimingAsyncCycleCSR(t *testing.T) {
	prog := artifact(t, "build/testprogs/linux/cycles", "make testprogs")
	for _, preset := range []string{"default", "hps"} {
		t.Run(preset, func(t *testing.T) {
			m, err := config.Preset(preset)
			require.NoError(t, err)
			cfg := Config{Program: prog, Args: []string{"400"}, Timing: m}
			inline := asyncRun(t, cfg, 1)
			require.Contains(t, inline.stdout, "sum ")
			requireSameRun(t, inline, asyncRun(t, cfg, 2))
		})
	}
}

// TestTimingAsyncSameResults: every benchmark's test input (cut at 3M
// instructions: --max-insts stops both alike), every preset on one of
// them, and the DISE stream on the hps machine give the same statistics,
// interval lines, cycle profile and output inline and async.
func TestTimingAsyncSameResults(t *testing.T) {
	type tc struct {
		name, bench, preset string
		dise                bool
	}
	var cases []tc
	dirs, err := filepath.Glob(filepath.Join(repo, "benchmarks", "*", "test.args"))
	require.NoError(t, err)
	require.NotEmpty(t, dirs)
	for _, d := range dirs {
		b := filepath.Base(filepath.Dir(d))
		cases = append(cases, tc{name: b, bench: b, preset: "default"})
	}
	for _, p := range config.Presets() {
		cases = append(cases, tc{name: "lz/" + p, bench: "lz", preset: p})
	}
	cases = append(cases, tc{name: "lz/hps/dise", bench: "lz", preset: "hps", dise: true})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := benchmark(t, c.bench)
			m, err := config.Preset(c.preset)
			require.NoError(t, err)
			cfg := Config{Program: b.bin, Args: b.args, Timing: m, MaxInsts: 3_000_000,
				Kernel: syscalls.Config{Cwd: b.dir, ExePath: "/" + b.name}}
			if c.dise {
				cfg.DISE = &DISEOptions{ACF: []string{acf("call-pair-hps")}, Handlers: handlersELF(t)}
			}
			requireSameRun(t, asyncRun(t, cfg, 1), asyncRun(t, cfg, 2))
		})
	}
}

// TestTimingAsyncWhen: the model runs on its own goroutine by default
// when GOMAXPROCS is 2 or more, not with GOMAXPROCS 1 (TimingThreads 2
// still forces it, with the same results), never when profiling units
// watch commits (their interrupts feed back into the CPU) or the run is
// sampled; a bad TimingThreads is an error.
func TestTimingAsyncWhen(t *testing.T) {
	b := benchmark(t, "lz")
	base := Config{Program: b.bin, Args: b.args, Timing: config.Default(), MaxInsts: 500_000,
		Kernel: syscalls.Config{Cwd: b.dir, ExePath: "/" + b.name}}
	load := func(cfg Config) *Machine {
		t.Helper()
		var out strings.Builder
		cfg.Kernel.Stdin, cfg.Kernel.Stdout, cfg.Kernel.Stderr, cfg.Kernel.Warn = strings.NewReader(""), &out, &out, &out
		mc, err := Load(cfg)
		require.NoError(t, err)
		return mc
	}
	procs := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(procs)
	runtime.GOMAXPROCS(2)
	assert.True(t, load(base).TimingAsync(), "the default with 2 procs")
	runtime.GOMAXPROCS(1)
	assert.False(t, load(base).TimingAsync(), "the default with 1 proc")
	requireSameRun(t, asyncRun(t, base, 0), asyncRun(t, base, 2))
	runtime.GOMAXPROCS(2)

	units, err := profhw.LoadPreset("multihash-value")
	require.NoError(t, err)
	hooked := base
	hooked.ProfHW, hooked.TimingThreads = units, 2
	assert.False(t, load(hooked).TimingAsync(), "a unit watching commits")
	sampled := base
	sampled.FastForward, sampled.TimingThreads = 100_000, 2
	assert.False(t, load(sampled).TimingAsync(), "sampled")

	for _, n := range []int{-1, 3} {
		bad := base
		bad.TimingThreads = n
		_, err := Load(bad)
		require.Error(t, err)
		assert.Equal(t, fmt.Sprintf("timing threads %d: want 1 (the model inline) or 2 (on a goroutine of its own)", n), err.Error())
	}
}
