// Command rvsim is the simulator's command line. It parses flags and calls
// the packages that do the work; see `rvsim help`.
package main

import (
	"fmt"
	"io"
	"os"
)

// version is set by the Makefile (-ldflags "-X main.version=...").
var version = "dev"

// usageError is a bad command line: one line, exit status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run executes one command and returns the process exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, helpText)
		return 2
	}
	cmd, rest := args[0], args[1:]
	var err error
	status := 0
	switch cmd {
	case "run":
		status, err = runCmd(rest, stdin, stdout, stderr)
	case "compare":
		status, err = compareCmd(rest, stdout, stderr)
	case "acf":
		status, err = acfCmd(rest, stdout)
	case "benchmarks":
		status, err = benchmarksCmd(rest, stdout, stderr)
	case "config":
		status, err = configCmd(rest, stdout, stderr)
	case "profhw":
		status, err = profhwCmd(rest, stdout, stderr)
	case "fuzz":
		status, err = fuzzCmd(rest, stdout, stderr)
	case "montecarlo":
		status, err = montecarloCmd(rest, stdout, stderr)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, helpText)
	case "version", "--version":
		fmt.Fprintf(stdout, "rvsim %s\n", version)
	default:
		err = &usageError{fmt.Sprintf("unknown command %q (try 'rvsim help')", cmd)}
	}
	if err != nil {
		fmt.Fprintf(stderr, "rvsim: %v\n", err)
		if status == 0 {
			status = 2
		}
	}
	return status
}

const helpText = `rvsim — a RISC-V RV64GC simulator with simulated profiling hardware

Usage:
  rvsim run [flags] PROGRAM [ARGS...]   run a static riscv64 Linux ELF (or a bare-metal
                                        ELF with a tohost symbol); the exit status is the guest's
  rvsim benchmarks [flags] [NAMES...]   run the benchmark suite (default: all, test inputs)
                                        and check each program's output
  rvsim compare --profilers LIST --benchmarks LIST|all [flags]
                                        profiling overhead of DISE/HPS profilers per benchmark
                                        (see 'rvsim compare --help')
  rvsim acf [--dise K=V] FILE...         check ACF files; show their use of the DISE tables
  rvsim fuzz [--seed N] [--count K] [--length L] [--jobs J]
                                        random RV64GC programs in lock-step with Unicorn
  rvsim config list | show [PRESET] | check FILE
                                        the timing model's machine presets and files
  rvsim profhw list | show PRESET | check FILE...
                                        the retire-stage profiling hardware's presets and files
  rvsim montecarlo [flags]              stratified-sampling.md Fig. 4: sampler error on random
                                        streams (see 'rvsim montecarlo --help')
  rvsim help                            this text
  rvsim version                         print the version

Flags for run (they come before PROGRAM; everything after PROGRAM goes to the guest):
  --max-insts N        stop after N retired instructions
  --trace FILE         write a commit log: pc, encoding, disassembly, register write
  --stats FILE         write run statistics as JSON (instructions, mips, exit_code, mix, ...)
  --mode MODE          functional (default) or timing: the out-of-order cycle-level model
  --config FILE        timing mode: the machine file (see 'rvsim config show')
  --preset NAME        timing mode: a named machine (default, hpp, hps, stratified)
  --interval N         timing mode: write CPI and event counts every N instructions as CSV
  --interval-out FILE  where --interval writes (default rvsim-intervals.csv)
  --summary            print a human-readable summary (speed, and in timing mode CPI, stalls,
                       predictors and caches) to stderr
  --cpuprofile FILE    write a pprof CPU profile of the simulator itself
  --difftest           run in lock-step with the Unicorn engine, comparing state after every
                       instruction; exit status 3 at the first divergence (docs/DIFFTEST.md)
  --root DIR           the guest's / is DIR (default: the host's /)
  --allow-write DIR    also allow writes under DIR (repeatable; the working directory is always allowed)
  --host-time          use the host clock (default: time derived from the instruction count)
  --env K=V            set a guest environment variable (repeatable)
  --unset-env K        remove a guest environment variable (repeatable)
  --clear-env          start the guest with an empty environment
  --acf FILE           attach the DISE/HPS engine programmed by an ACF file (repeatable; see docs/ACF.md)
  --handlers FILE      the profiling-handler runtime (default: build/handlers/rvsim-handlers.elf)
  --trigger T          external sampling trigger: periodic:PERIOD:LENGTH (on for LENGTH instructions
                       every PERIOD) or random:P:LENGTH[:SEED] (each LENGTH-instruction interval with
                       probability 1/P)
  --profile-out FILE   write the profile the handlers collected as JSON
  --dise KEY=VALUE     DISE hardware setting: pt_entries, ct_entries, rt_entries, counters,
                       counter_bits, ... (repeatable)
  --profhw FILE        attach the retire-stage profiling units of a TOML file (repeatable;
                       see docs/PROFHW.md and 'rvsim profhw list')
  --profhw-preset NAME attach a shipped profhw preset's units (repeatable)
  --profhw-out DIR     write each unit's NAME.summary.json, NAME.profile.json, NAME.exact.json, ...

Flags for benchmarks:
  --input NAME         which input to run: test (default) or ref
  --jobs N             run N programs at once (default 1; use 1 for speed figures)
  --qemu               also time qemu-riscv64 on the same runs
  --mode, --config, --preset
                       as for run: timing mode on a machine file or preset
  --max-insts N        stop each run after N instructions
  --src DIR, --bin DIR benchmark sources (benchmarks) and binaries (build/benchmarks)
`
