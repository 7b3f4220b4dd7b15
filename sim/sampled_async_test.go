package sim

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/config"
	"github.com/rvsim/rvsim/syscalls"
)

// TestSampledAsync: a sampled run's windows give the same results with
// their models on a goroutine of their own as inline (TimingThreads 2 and
// 1): the windows' cycles, parts and counters, the run's output and
// statistics. The cases: windows with parts, one kept by the next
// window's warm-up and a last one to the end, with bounded warming and
// the translator; the guest reading the cycle CSR in and between windows
// (its output prints what it read); a fast-forward; a window the program
// ends in.
func TestSampledAsync(t *testing.T) {
	lisp, lz := benchmark(t, "lisp"), benchmark(t, "lz")
	cycles := artifact(t, "build/testprogs/linux/cycles", "make testprogs")
	cases := []struct {
		name string
		cfg  Config
	}{
		{"lisp/windows", Config{Program: lisp.bin, Args: lisp.args, Kernel: syscalls.Config{Cwd: lisp.dir, ExePath: "/lisp"},
			Windows: []Window{{Start: 1_000_000, Warmup: 200_000, Length: 500_000, Parts: 4},
				{Start: 1_600_000, Warmup: 200_000, Length: 300_000}, // its warm-up reaches into the first: the model is kept
				{Start: 3_000_000, Warmup: 100_000}},
			FunctionalWarming: true, WarmingLast: 300_000, JIT: true}},
		{"cycles", Config{Program: cycles, Args: []string{"400"},
			Windows: []Window{{Start: 150_000, Warmup: 50_000, Length: 150_000, Parts: 3}, {Start: 400_000, Warmup: 20_000, Length: 100_000}}}},
		{"lz/fast-forward", Config{Program: lz.bin, Args: lz.args, Kernel: syscalls.Config{Cwd: lz.dir, ExePath: "/lz"},
			FastForward: 2_000_000, Warmup: 500_000}},
		{"lz/ends-in-window", Config{Program: lz.bin, Args: lz.args, Kernel: syscalls.Config{Cwd: lz.dir, ExePath: "/lz"},
			Windows: []Window{{Start: 5_000_000, Warmup: 100_000, Length: 50_000_000, Parts: 2}}, FunctionalWarming: true}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			type out struct {
				res    Result
				stdout string
				stats  map[string]any
				async  int
			}
			run := func(threads int) out {
				cfg := c.cfg
				var o strings.Builder
				cfg.Timing, cfg.TimingThreads = config.Default(), threads
				cfg.Kernel.Stdin, cfg.Kernel.Stdout, cfg.Kernel.Stderr, cfg.Kernel.Warn = strings.NewReader(""), &o, &o, &o
				res, mc := runConfig(t, cfg)
				st := mc.Stats(&res)
				delete(st, "host_seconds")
				delete(st, "mips")
				return out{res, o.String(), st, mc.sampled.asyncModels}
			}
			inline, async := run(1), run(2)
			require.Zero(t, inline.async, "TimingThreads 1: inline")
			require.Positive(t, async.async, "TimingThreads 2: the windows' models on their own goroutine")
			require.NotNil(t, inline.res.Sampled)
			require.Equal(t, inline.stdout, async.stdout, "the program's output")
			require.Equal(t, inline.res.Instructions, async.res.Instructions)
			require.Equal(t, inline.res.Cycles, async.res.Cycles)
			require.Equal(t, len(inline.res.Sampled.Windows), len(async.res.Sampled.Windows))
			for i := range inline.res.Sampled.Windows {
				require.Equal(t, inline.res.Sampled.Windows[i], async.res.Sampled.Windows[i], "window %d", i)
			}
			require.Equal(t, *inline.res.Sampled, *async.res.Sampled)
			require.Equal(t, inline.stats, async.stats, "--stats")
			t.Logf("%s: %d instructions, %d windows, %d timed cycles; %d models async", c.name, inline.res.Instructions,
				len(inline.res.Sampled.Windows), inline.res.Cycles, async.async)
		})
	}
}
