package pipeline

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rvsim/rvsim/config"
	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/sim"
	"github.com/rvsim/rvsim/syscalls"
)

// BenchmarkCore measures the timing model alone on recorded streams
// replayed through a default-preset core; one op is one instruction.
//
//   - mixed: the mixed test program (loads, stores, forwarding, branches,
//     calls, mul/div, FP), 13K instructions replayed in a loop.
//   - lisp: the first million instructions of the lisp benchmark's test
//     input (skipped when the binary is not built; RVSIM_TIMING_BIN).
func BenchmarkCore(b *testing.B) {
	code, setup := mixedProgram(b)
	streams := map[string][]cpu.DynInst{"mixed": record(b, code, setup)}
	if s := recordBenchmark(b, "lisp", 1_000_000); s != nil {
		streams["lisp"] = s
	}
	for _, name := range []string{"mixed", "lisp"} {
		insts := streams[name]
		b.Run(name, func(b *testing.B) {
			if insts == nil {
				b.Skip("benchmark binary not built")
			}
			c, err := New(config.Default())
			if err != nil {
				b.Fatal(err)
			}
			batch := make([]cpu.DynInst, 256)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; {
				n := min(256, b.N-i)
				for k := 0; k < n; k++ {
					batch[k] = insts[(i+k)%len(insts)]
				}
				c.Retire(batch[:n])
				i += n
			}
			if err := c.Finish(); err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(c.Cycles())/float64(b.N), "cycles/inst")
		})
	}
}

// recordBenchmark returns the first n instructions of a benchmark
// program's test input, or nil if it is not built.
func recordBenchmark(tb testing.TB, name string, n uint64) []cpu.DynInst {
	exe := filepath.Join(envOr("RVSIM_TIMING_BIN", "../build/benchmarks"), name)
	raw, err := os.ReadFile(filepath.Join("../benchmarks", name, "test.args"))
	if err != nil {
		return nil
	}
	if _, err := os.Stat(exe); err != nil {
		return nil
	}
	dir, _ := filepath.Abs(filepath.Join("../benchmarks", name))
	var out bytes.Buffer
	r := &recorder{}
	mc, err := sim.Load(sim.Config{Program: exe, Args: strings.Fields(string(raw)), MaxInsts: n,
		Observers: []cpu.Observer{r}, Kernel: syscalls.Config{Cwd: dir, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &out}})
	if err != nil {
		tb.Logf("%s: %v", name, err)
		return nil
	}
	mc.Run()
	return r.insts
}

// BenchmarkEndToEnd measures functional core plus timing model: the lisp
// benchmark's test input for b.N instructions with a default-preset core
// attached (skipped when the binary is not built). Compare with
// BenchmarkEndToEnd/functional, the same run without the core.
func BenchmarkEndToEnd(b *testing.B) {
	exe := filepath.Join(envOr("RVSIM_TIMING_BIN", "../build/benchmarks"), "lisp")
	raw, err := os.ReadFile("../benchmarks/lisp/test.args")
	if _, serr := os.Stat(exe); err != nil || serr != nil {
		b.Skip("lisp not built")
	}
	dir, _ := filepath.Abs("../benchmarks/lisp")
	for _, timing := range []bool{true, false} {
		name := "functional"
		if timing {
			name = "timing"
		}
		b.Run(name, func(b *testing.B) {
			var out bytes.Buffer
			cfg := sim.Config{Program: exe, Args: strings.Fields(string(raw)), MaxInsts: uint64(b.N),
				Kernel: syscalls.Config{Cwd: dir, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &out}}
			var core *Core
			if timing {
				core, _ = New(config.Default())
				cfg.Observers = []cpu.Observer{core}
			}
			mc, err := sim.Load(cfg)
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			mc.Run()
			if core != nil {
				if err := core.Finish(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
