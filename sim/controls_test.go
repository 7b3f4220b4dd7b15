package sim

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/internal/guestcc"
	"github.com/rvsim/rvsim/profhw"
	"github.com/rvsim/rvsim/profhw/simpoint"
	"github.com/rvsim/rvsim/syscalls"
)

// TestControlsBBVs: a BBV pass through Config.Controls (the control tap,
// translated or interpreted) collects the same basic block vectors as one
// that observes every retired instruction (the general path, the
// collector's Retire), on builtin benchmarks (static and dynamic: a
// dynamic program's code lies above 2^31) and on two threads switched at
// quantum ends; and the translator ran most of it.
func TestControlsBBVs(t *testing.T) {
	type prog struct {
		name, bin, dir string
		args           []string
		quantum        uint64
		interval       uint64
	}
	var progs []prog
	for _, name := range []string{"lisp", "lz", "lisp-dyn"} {
		b := benchmark(t, strings.TrimSuffix(name, "-dyn"))
		if name != b.name {
			b.bin = artifact(t, "build/benchmarks-dyn/"+b.name, "make benchmarks")
		}
		progs = append(progs, prog{name, b.bin, b.dir, b.args, 0, 100_000})
	}
	progs = append(progs, prog{name: "threads", bin: guestcc.Build(t, "testdata/spin2.c", "-O2", "-pthread"), quantum: 1000, interval: 10_000})
	for _, p := range progs {
		t.Run(p.name, func(t *testing.T) {
			collect := func(how string) ([]simpoint.BBV, Result) {
				var out bytes.Buffer
				col := simpoint.NewCollector(p.interval)
				cfg := Config{Program: p.bin, Args: p.args, Kernel: syscalls.Config{Cwd: p.dir, ExePath: "/" + p.name,
					Stdin: strings.NewReader(""), Stdout: &out, Stderr: &out, Quantum: p.quantum}}
				switch how {
				case "observer":
					cfg.Observers = []cpu.Observer{col}
				case "interpreted":
					cfg.Controls = col
				case "translated":
					cfg.Controls, cfg.JIT = col, true
				}
				mc, err := Load(cfg)
				require.NoError(t, err)
				res := mc.Run()
				require.Equal(t, StopExit, res.Stop, res.Message)
				col.Finish()
				require.Greater(t, len(col.BBVs), 10)
				return col.BBVs, res
			}
			want, _ := collect("observer")
			for _, how := range []string{"interpreted", "translated"} {
				got, res := collect(how)
				require.Equal(t, len(want), len(got), "%s: intervals", how)
				for i := range want {
					require.Equal(t, want[i], got[i], "%s: interval %d", how, i)
				}
				if how == "translated" && res.Translated > 0 { // (none on a host without the translator)
					require.Greater(t, float64(res.Translated)/float64(res.Instructions), 0.5, "share translated")
				}
			}
		})
	}
}

// TestControlsWithProfHW: the control tap has one sink; profiling units
// with Controls are one error, not a silent choice.
func TestControlsWithProfHW(t *testing.T) {
	b := benchmark(t, "lz")
	_, err := Load(Config{Program: b.bin, Controls: simpoint.NewCollector(1000), ProfHW: []*profhw.UnitConfig{{Name: "u"}}})
	require.EqualError(t, err, "a control tap's sink and profiling units cannot share the tap")
}
