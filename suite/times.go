package suite

import (
	"math"
	"syscall"
)

// Times is one run's host time on both clocks.
type Times struct {
	Wall float64 // wall-clock seconds
	CPU  float64 // user and system CPU seconds of the process (rvsim) or the child (qemu-riscv64)
}

// On is the seconds of t on clock ("cpu" or "wall").
func (t Times) On(clock string) float64 {
	if clock == "wall" {
		return t.Wall
	}
	return t.CPU
}

// Best is the fastest of runs on each clock: the host's noise is
// one-sided (nothing makes a run faster than it is), so the minimum is the
// least disturbed measurement. Runs with no time (failed) are skipped; with
// none left, the zero Times.
func Best(runs []Times) Times {
	var b Times
	for _, r := range runs {
		if r.Wall > 0 && (b.Wall == 0 || r.Wall < b.Wall) {
			b.Wall = r.Wall
		}
		if r.CPU > 0 && (b.CPU == 0 || r.CPU < b.CPU) {
			b.CPU = r.CPU
		}
	}
	return b
}

// TimedRun runs one input in-process (Run checks its output) and times it
// on both clocks: the process's CPU time covers every goroutine of the run
// (a unit's reference on its own, the Go runtime's), so nothing else may
// run in the process meanwhile.
func TimedRun(b Benchmark, in Input, opt Options) (Outcome, Times) {
	before := SelfCPU()
	o := Run(b, in, opt)
	return o, Times{Wall: o.Result.HostSeconds, CPU: SelfCPU() - before}
}

// SelfCPU is this process's user and system time, every thread.
func SelfCPU() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return math.NaN()
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

// Versus is one benchmark timed under rvsim and qemu-riscv64 in
// alternating rounds (AgainstQemu).
type Versus struct {
	Name        string
	Insts       uint64
	Rvsim, Qemu []Times // one per round, in the order run
	Why         string  // why it failed ("" if it did not); its times then stop
	Outcome     Outcome // rvsim's last run
}

// AgainstQemu times each benchmark's input in-process under rvsim (output
// checked) and then under qemu-riscv64 (output checked too), alternating,
// rounds times: a slow period of a shared host then hits both. A failed
// benchmark is named in its Why and not run again. progress, if not nil,
// is told each step.
func AgainstQemu(bs []Benchmark, input string, rounds int, opt Options, progress func(round int, b Benchmark)) []Versus {
	out := make([]Versus, len(bs))
	for i, b := range bs {
		out[i].Name = b.Name
	}
	for round := 1; round <= rounds; round++ {
		for i, b := range bs {
			x := &out[i]
			if x.Why != "" {
				continue
			}
			in, err := b.Input(input)
			if err != nil {
				x.Why = err.Error()
				continue
			}
			if progress != nil {
				progress(round, b)
			}
			o, t := TimedRun(b, in, opt)
			x.Outcome = o
			if !o.Pass {
				x.Why = "rvsim: " + firstLine([]byte(o.Why))
				continue
			}
			x.Insts = o.Result.Instructions
			x.Rvsim = append(x.Rvsim, t)
			q, err := QemuTimes(b, in)
			if err != nil {
				x.Why = "qemu-riscv64: " + firstLine([]byte(err.Error()))
				continue
			}
			x.Qemu = append(x.Qemu, q)
		}
	}
	return out
}
