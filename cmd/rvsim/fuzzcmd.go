package main

import (
	"fmt"
	"io"
	"runtime"
	"sync"
	"time"

	"github.com/rvsim/rvsim/difftest"
	"github.com/rvsim/rvsim/difftest/gen"
)

const fuzzUsage = `rvsim fuzz [--seed N] [--count K] [--length L] [--jobs J]`

const fuzzAbout = `Generates constrained-random RV64GC programs and runs each in lock-step
with Unicorn (docs/DIFFTEST.md). Exit status 0 if every program agrees,
3 at the first divergence (with the command that reproduces it), 1 if a
program could not be generated or run, 2 for a bad command line or a
missing oracle.`

// fuzzCmd runs constrained-random programs in lock-step with the oracle:
// `rvsim fuzz --seed N --count K [--length L] [--jobs J]` checks seeds
// N..N+K-1. It returns 0 when every program agrees, 3 at the first
// divergence (printing the report and the command that reproduces it),
// 1 if a program could not be generated or run, 2 for a bad command line
// or a missing oracle.
func fuzzCmd(args []string, stdout, stderr io.Writer) (int, error) {
	var seed, count uint64
	var length, jobs int
	c := newFlags("fuzz", fuzzUsage, fuzzAbout, stdout)
	c.Uint64(&seed, "seed", "N", 1, "the first seed (default 1)")
	c.Uint64(&count, "count", "K", 100, "how many programs: seeds N..N+K-1 (default 100)")
	c.Int(&length, "length", "L", 500, "instructions per program (default 500)")
	c.Int(&jobs, "jobs", "J", runtime.GOMAXPROCS(0), "programs checked at once (default: the number of cores)")
	if err := c.parse(args); err != nil {
		return 2, err
	}
	if len(c.Args()) != 0 {
		return 2, c.usagef("fuzz: unexpected argument %q", c.Args()[0])
	}
	if length < 1 || count == 0 {
		return 2, &usageError{"fuzz: --length and --count must be at least 1"}
	}
	if err := difftest.Available(); err != nil {
		return 2, err
	}
	start := time.Now()
	res := fuzzRange(seed, count, length, max(jobs, 1))
	if res.err != nil {
		fmt.Fprintf(stderr, "rvsim: seed %d: %v\nreproduce with: %s\n", res.seed, res.err, gen.ReproCommand(res.seed, length))
		return 1, nil
	}
	if res.div != nil {
		fmt.Fprintf(stderr, "seed %d:\n", res.seed)
		res.div.Write(stderr)
		fmt.Fprintf(stderr, "reproduce with: %s\n", gen.ReproCommand(res.seed, length))
		return 3, nil
	}
	secs := time.Since(start).Seconds()
	fmt.Fprintf(stdout, "fuzz: %d programs (seeds %d..%d, %d instructions each), %d instructions in lock-step, no divergence (%.1f s, %.0f inst/s)\n",
		count, seed, seed+count-1, length, res.insts, secs, float64(res.insts)/secs)
	writeUnchecked(stdout, res.unchecked)
	return 0, nil
}

// fuzzResult is the outcome of a range of seeds: the lowest failing seed,
// if any, with its divergence or error.
type fuzzResult struct {
	seed      uint64
	div       *difftest.Divergence
	err       error
	insts     uint64
	unchecked map[string]uint64
}

func fuzzRange(first, count uint64, length, jobs int) fuzzResult {
	var (
		mu   sync.Mutex
		next = first
		out  = fuzzResult{unchecked: map[string]uint64{}}
		bad  = false
		wg   sync.WaitGroup
	)
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			u, err := difftest.NewUnicorn()
			if err != nil {
				mu.Lock()
				if !bad {
					out.seed, out.err, bad = next, err, true
				}
				mu.Unlock()
				return
			}
			defer u.Close()
			for {
				mu.Lock()
				if bad || next >= first+count {
					mu.Unlock()
					return
				}
				s := next
				next++
				mu.Unlock()
				rep, err := gen.Check(s, length, difftest.Options{Oracle: u})
				mu.Lock()
				out.insts += rep.Instructions
				for k, v := range rep.Unchecked {
					out.unchecked[k] += v
				}
				if (err != nil || rep.Divergence != nil) && (!bad || s < out.seed) {
					out.seed, out.err, out.div, bad = s, err, rep.Divergence, true
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return out
}
