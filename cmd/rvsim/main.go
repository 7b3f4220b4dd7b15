// Command rvsim is the simulator's command line. It parses flags and calls
// the packages that do the work; see `rvsim help`.
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/rvsim/rvsim/internal/crash"
	"github.com/rvsim/rvsim/toolchain/handlers"
)

// version is set by the Makefile (-ldflags "-X main.version=...").
var version = "dev"

// usageError is a bad command line: one line, exit status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func main() {
	defer crash.Exit(os.Stderr)
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
		status, err = acfCmd(rest, stdout, stderr)
	case "handlers":
		status, err = handlersCmd(rest, stdout, stderr)
	case "benchmarks":
		status, err = benchmarksCmd(rest, stdout, stderr)
	case "config":
		status, err = configCmd(rest, stdout, stderr)
	case "profhw":
		status, err = profhwCmd(rest, stdout, stderr)
	case "paths":
		status, err = pathsCmd(rest, stdout)
	case "simpoint":
		status, err = simpointCmd(rest, stdin, stdout, stderr)
	case "fuzz":
		status, err = fuzzCmd(rest, stdout, stderr)
	case "collector":
		status, err = collectorCmd(rest, stdout, stderr)
	case "montecarlo":
		status, err = montecarloCmd(rest, stdout, stderr)
	case "rootfs":
		status, err = rootfsCmd(rest, stdout, stderr)
	case "help", "-h", "-help", "--help":
		if len(rest) == 1 && rest[0] != "help" {
			return run([]string{rest[0], "--help"}, stdin, stdout, stderr)
		}
		fmt.Fprint(stdout, helpText)
	case "version", "--version":
		fmt.Fprintf(stdout, "rvsim %s\n", version)
	default:
		err = &usageError{fmt.Sprintf("unknown command %q (try 'rvsim help')", cmd)}
	}
	if err == errHelp {
		return 0
	}
	if err != nil {
		if be, ok := err.(*handlers.BuildError); ok && be.Output != "" {
			fmt.Fprint(stderr, be.Output) // the compiler's own messages first
		}
		fmt.Fprintf(stderr, "rvsim: %v\n", err)
		if status == 0 {
			status = 2
		}
	}
	return status
}

const helpText = `rvsim — a RISC-V RV64GC simulator with simulated profiling hardware

Usage:
  rvsim run [flags] PROGRAM [ARGS...]   run a riscv64 Linux ELF, static or dynamic (--sysroot), a #!
                                        script, or a bare-metal ELF with a tohost symbol; the exit
                                        status is the guest's
  rvsim benchmarks [flags] [NAMES...]   run the benchmark suite and check each program's output
  rvsim compare [--profilers LIST] [--benchmarks LIST|all] [flags]
                                        profiling overhead of DISE/HPS profilers per benchmark
  rvsim acf [flags] FILE...             check ACF files against the DISE tables and the handler
                                        runtime; show what they use
  rvsim handlers build FILE.c... [-o OUT.elf]
                                        build a handler runtime with your own handlers
  rvsim fuzz [flags]                    random RV64GC programs in lock-step with Unicorn
  rvsim config list | show [PRESET] | check FILE
                                        the timing model's machine presets and files
  rvsim profhw list | show PRESET | check FILE...
                                        the retire-stage profiling hardware's presets and files
  rvsim montecarlo [flags]              stratified-sampling.md Fig. 4: sampler error on random
                                        streams
  rvsim collector serve|import|dump     the remote profile collector: HTTP service, SQLite store,
                                        merge (docs/COLLECTOR.md)
  rvsim paths PROFILE.json [--top N]    the hot paths of a path profiler's profile, disassembled
  rvsim simpoint [flags] PROGRAM [ARGS...]
                                        SimPoint phases of a run: PREFIX.simpoints, PREFIX.weights
  rvsim rootfs create DIR [--packages LIST] [--release NAME]
                                        a riscv64 root of Debian packages, for run --root
  rvsim help [COMMAND]                  this text, or a command's usage and flags
  rvsim version                         print the version

'rvsim COMMAND --help' prints a command's usage and flags.
`
