package pipeline

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/config"
	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/sim"
	"github.com/rvsim/rvsim/syscalls"
)

// TestBenchmarkPrograms runs the benchmark programs in functional mode and
// in timing mode and checks that timing mode changes nothing architectural
// (output, exit status, instruction count); it prints each program's IPC
// and both modes' speed. It is slow, so it runs only when asked:
//
//	RVSIM_TIMING_PROGRAMS=test|ref  the input to run
//	RVSIM_TIMING_BIN=DIR            the binaries (default ../build/benchmarks)
//	RVSIM_TIMING_ONLY=a,b           a subset
//	RVSIM_TIMING_PRESET=NAME        the machine (default "default")
//	RVSIM_TIMING_SUMMARY=1          print each run's timing summary
//
// Speeds are instructions per CPU second of this process (user + system),
// so that other load on the machine does not distort them.
func TestBenchmarkPrograms(t *testing.T) {
	input := os.Getenv("RVSIM_TIMING_PROGRAMS")
	if input == "" {
		t.Skip("set RVSIM_TIMING_PROGRAMS=test or ref to run the benchmark programs in timing mode")
	}
	bin := envOr("RVSIM_TIMING_BIN", "../build/benchmarks")
	preset := envOr("RVSIM_TIMING_PRESET", "default")
	m, err := config.Preset(preset)
	require.NoError(t, err)
	dirs, err := filepath.Glob("../benchmarks/*/" + input + ".args")
	require.NoError(t, err)
	require.NotEmpty(t, dirs, "no benchmarks with a %s input", input)
	only := os.Getenv("RVSIM_TIMING_ONLY")
	var fMIPS, tMIPS []float64
	fmt.Printf("%-10s %12s %12s %6s %9s %9s %7s\n", "benchmark", "insts", "cycles", "IPC", "func MIPS", "time MIPS", "ratio")
	for _, argsFile := range dirs {
		dir := filepath.Dir(argsFile)
		name := filepath.Base(dir)
		if only != "" && !contains(strings.Split(only, ","), name) {
			continue
		}
		exe := filepath.Join(bin, name)
		if _, err := os.Stat(exe); err != nil {
			t.Logf("%s: not built (%s)", name, exe)
			continue
		}
		raw, err := os.ReadFile(argsFile)
		require.NoError(t, err)
		args := strings.Fields(string(raw))
		absDir, _ := filepath.Abs(dir)

		run := func(obs []cpu.Observer, core *Core) (sim.Result, []byte, float64) {
			var out, errb bytes.Buffer
			cfg := sim.Config{Program: exe, Args: args, Observers: obs, Kernel: syscalls.Config{
				Cwd: absDir, ExePath: "/" + name, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Warn: &errb}}
			mc, err := sim.Load(cfg)
			require.NoError(t, err, name)
			if core != nil {
				mc.CPU.CycleFunc = core.CycleAt
				core.SetStopFunc(mc.CPU.RequestStop)
			}
			t0 := cpuSeconds()
			res := mc.Run()
			if core != nil {
				require.NoError(t, core.Finish(), name)
			}
			return res, append(out.Bytes(), errb.Bytes()...), cpuSeconds() - t0
		}
		fres, fout, fsec := run(nil, nil)
		core, err := New(m)
		require.NoError(t, err)
		tres, tout, tsec := run([]cpu.Observer{core}, core)
		require.Equal(t, fres.ExitCode, tres.ExitCode, "%s: exit status", name)
		require.Equal(t, fres.Instructions, tres.Instructions, "%s: instructions", name)
		require.True(t, bytes.Equal(fout, tout), "%s: output differs", name)
		require.Equal(t, tres.Instructions, core.Instructions(), "%s: committed", name)
		fm, tm := float64(fres.Instructions)/fsec/1e6, float64(tres.Instructions)/tsec/1e6
		fMIPS, tMIPS = append(fMIPS, fm), append(tMIPS, tm)
		fmt.Printf("%-10s %12d %12d %6.3f %9.1f %9.2f %7.1f\n", name, tres.Instructions, core.Cycles(),
			float64(core.Instructions())/float64(core.Cycles()), fm, tm, fm/tm)
		if os.Getenv("RVSIM_TIMING_SUMMARY") != "" {
			core.Summary(os.Stdout)
		}
	}
	if len(tMIPS) > 0 {
		fmt.Printf("geometric mean (%s inputs, preset %s): functional %.1f MIPS, timing %.2f MIPS\n",
			input, preset, geomean(fMIPS), geomean(tMIPS))
	}
}

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return float64(time.Now().UnixNano()) / 1e9
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

func geomean(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += math.Log(x)
	}
	return math.Exp(s / float64(len(xs)))
}
