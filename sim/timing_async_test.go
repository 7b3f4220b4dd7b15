package sim

import (
	"bytes"
	"encoding/json"
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
	o, _ := asyncRunMachine(t, cfg, threads)
	return o
}

// asyncRunMachine is asyncRun, with the machine after the run.
func asyncRunMachine(t *testing.T, cfg Config, threads int) (asyncOut, *Machine) {
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
	return o, mc
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
// still forces it, with the same results), also when profiling units
// watch commits, never when the run is sampled; a bad TimingThreads is an
// error.
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
	hooked.ProfHW = units
	assert.True(t, load(hooked).TimingAsync(), "a unit watching commits")
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

// TestTimingAsyncProfHW: every shipped profhw preset that runs in timing
// mode gives the same run, summaries and output files with the model on
// its own goroutine (the units' commit work on the model's goroutine,
// their functional work on the CPU's) as inline: the stalls they ask
// for, their real cost (the twin), a real handler's interrupts.
func TestTimingAsyncProfHW(t *testing.T) {
	b := benchmark(t, "lz")
	t.Setenv("RVSIM_HANDLERS", handlersELF(t)) // (delivery.handler = "real")
	for _, name := range profhw.Presets() {
		t.Run(name, func(t *testing.T) {
			units, err := profhw.LoadPreset(name)
			require.NoError(t, err)
			cfg := Config{Program: b.bin, Args: b.args, Timing: config.Default(), MaxInsts: 400_000, ProfHW: units,
				Kernel: syscalls.Config{Cwd: b.dir, ExePath: "/" + b.name}}
			inline, async := profhwAsyncRun(t, cfg, 1), profhwAsyncRun(t, cfg, 2)
			requireSameRun(t, inline.asyncOut, async.asyncOut)
			assert.Equal(t, inline.files, async.files, "the units' files")
		})
	}
}

// profhwRun is asyncRun's output with the units' files.
type profhwRun struct {
	asyncOut
	files map[string]string
}

func profhwAsyncRun(t *testing.T, cfg Config, threads int) profhwRun {
	t.Helper()
	var r profhwRun
	var mc *Machine
	r.asyncOut, mc = asyncRunMachine(t, cfg, threads)
	files, err := mc.ProfHW().Files(mc.CodeSymbolizer())
	require.NoError(t, err)
	r.files = map[string]string{}
	for _, f := range files {
		var buf bytes.Buffer
		require.NoError(t, f.WriteBuffered(&buf))
		r.files[f.Name] = buf.String()
	}
	require.NotEmpty(t, r.files)
	return r
}

// TestProfHWUnmeasuredStalls: with UnmeasuredProfHWStalls a timing run
// with units has the same cycles, statistics and unit outputs, but for
// the summaries' stall_cycles: null, with the reason, rather than 0.
func TestProfHWUnmeasuredStalls(t *testing.T) {
	b := benchmark(t, "lisp")
	units, err := profhw.LoadPreset("stratified-value")
	require.NoError(t, err)
	cfg := Config{Program: b.bin, Args: b.args, Timing: config.Default(), MaxInsts: 2_000_000, ProfHW: units,
		Kernel: syscalls.Config{Cwd: b.dir, ExePath: "/" + b.name}}
	measured := profhwAsyncRun(t, cfg, 2)
	cfg.UnmeasuredProfHWStalls = true
	unmeasured := profhwAsyncRun(t, cfg, 2)
	require.Equal(t, measured.cycles, unmeasured.cycles)
	const sum = "stratified-value.summary.json"
	var want, got map[string]any
	require.NoError(t, json.Unmarshal([]byte(measured.files[sum]), &want))
	require.NoError(t, json.Unmarshal([]byte(unmeasured.files[sum]), &got))
	require.NotZero(t, want["stall_cycles"], "the stalls cost something")
	require.Contains(t, got, "stall_cycles")
	assert.Nil(t, got["stall_cycles"])
	why := got["no_answer"].(map[string]any)
	assert.Equal(t, "not measured (--profhw-stall-cost off)", why["stall_cycles"])
	delete(why, "stall_cycles")
	if len(why) == 0 {
		delete(got, "no_answer")
	}
	delete(want, "stall_cycles")
	delete(got, "stall_cycles")
	assert.Equal(t, want, got, "the rest of the summary")
	for name, data := range measured.files {
		if name != sum {
			assert.Equal(t, data, unmeasured.files[name], name)
		}
	}
}
