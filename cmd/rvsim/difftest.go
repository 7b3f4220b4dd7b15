package main

import (
	"fmt"
	"io"
	"sort"

	"github.com/rvsim/rvsim/difftest"
	"github.com/rvsim/rvsim/sim"
)

// runDifftest runs a loaded program in lock-step with the Unicorn oracle
// (`rvsim run --difftest`). It returns the guest's exit status (124 at
// --max-insts); 3 at a divergence, after printing the report to stderr; 2
// if the oracle cannot be loaded or the run cannot be made.
func runDifftest(mc *sim.Machine, maxInsts uint64, stdout, stderr io.Writer) int {
	rep, err := difftest.Run(mc, difftest.Options{MaxInsts: maxInsts})
	if err != nil {
		// A missing library is one line that names `make setup`.
		fmt.Fprintf(stderr, "rvsim: %v\n", err)
		return exitUsage
	}
	if rep.Divergence != nil {
		rep.Divergence.Write(stderr)
		return exitDivergence
	}
	if rep.Result.Message != "" {
		fmt.Fprintf(stderr, "rvsim: %s\n", rep.Result.Message)
	}
	fmt.Fprintf(stderr, "difftest: %d instructions in lock-step, no divergence (%.0f inst/s; %d system calls mirrored; %d counter reads copied)\n",
		rep.Instructions, rep.Rate(), rep.Syscalls, rep.CopiedCSRReads)
	writeUnchecked(stderr, rep.Unchecked)
	return runStatus(&rep.Result)
}

// writeUnchecked lists the instructions the oracle could not check.
func writeUnchecked(w io.Writer, un map[string]uint64) {
	var keys []string
	for k := range un {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(w, "difftest: unchecked (result copied from rvsim): %d × %s\n", un[k], k)
	}
}
