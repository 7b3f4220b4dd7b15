package main

import (
	"fmt"
	"strings"
	"sync"

	"github.com/rvsim/rvsim/config"
	"github.com/rvsim/rvsim/profhw"
	"github.com/rvsim/rvsim/suite"
)

// The commit stalls of the multihash-value unit in timing mode
// (multi-hash-profiling.md §7: the profiler sits off the critical path
// behind a queue), with the queue's size and the unit's throughput
// varied. Each cell is a run on the `default` machine; "requested" is the
// stall cycles the unit asked of commit (stall_cycles_requested), "real"
// what they cost the run (stall_cycles: the run's cycles minus those of
// the same instructions without the stalls, docs/PROFHW.md).

// stallSetting is one row: the queue's size (tuples) and throughput
// (tuples a cycle).
type stallSetting struct {
	Size       int
	Throughput float64
}

var stallSettings = []stallSetting{{16, 1}, {4, 1}, {16, 0.5}, {4, 0.25}, {1, 0.25}}

// stallBenchmarks: a branchy program, an interpreter and the load-heavy
// nbody (25% loads at IPC 2).
var stallBenchmarks = []string{"lz", "exprc", "nbody"}

// StallCell is one benchmark at one setting (Setting nil: no unit).
type StallCell struct {
	Benchmark    string        `json:"benchmark"`
	Setting      *stallSetting `json:"setting,omitempty"`
	Cycles       uint64        `json:"cycles"`
	Instructions uint64        `json:"instructions"`
	Requested    uint64        `json:"stall_cycles_requested"`
	Real         uint64        `json:"stall_cycles"`
}

// runStalls runs every benchmark without the unit and at every setting.
func runStalls(all []suite.Benchmark, input string, jobs int) ([]StallCell, error) {
	bs, err := suite.Select(all, stallBenchmarks)
	if err != nil {
		return nil, err
	}
	machine, err := config.Preset("default")
	if err != nil {
		return nil, err
	}
	type job struct {
		b suite.Benchmark
		s *stallSetting
	}
	var jobsList []job
	for _, b := range bs {
		jobsList = append(jobsList, job{b, nil})
		for i := range stallSettings {
			jobsList = append(jobsList, job{b, &stallSettings[i]})
		}
	}
	cells := make([]StallCell, len(jobsList))
	errs := make([]error, len(jobsList))
	var wg sync.WaitGroup
	sem := make(chan struct{}, max(jobs, 1))
	for i, j := range jobsList {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			cells[i], errs[i] = stallRun(j.b, input, machine, j.s)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return cells, nil
}

func stallRun(b suite.Benchmark, input string, machine *config.Machine, s *stallSetting) (StallCell, error) {
	in, err := b.Input(input)
	if err != nil {
		return StallCell{}, err
	}
	opt := suite.Options{Timing: machine}
	if s != nil {
		cfgs, err := profhw.LoadPreset("multihash-value")
		if err != nil {
			return StallCell{}, err
		}
		for _, c := range cfgs {
			c.Set("queue.size", int64(s.Size))
			c.Set("queue.throughput", s.Throughput)
			c.Set("error.exact", false) // the stalls do not depend on the reference
		}
		opt.ProfHW = cfgs
	}
	out := suite.Run(b, in, opt)
	if !out.Pass {
		return StallCell{}, fmt.Errorf("%s: %s", b.Name, out.Why)
	}
	c := StallCell{Benchmark: b.Name, Setting: s, Cycles: out.Result.Cycles, Instructions: out.Result.Instructions}
	for _, sum := range out.Summaries {
		c.Requested += sum.StallReq
		c.Real += sum.StallCyc
	}
	return c, nil
}

// stallTable renders the cells: per benchmark the requested stalls, the
// real ones and the cycle increase over the run without the unit.
func stallTable(cells []StallCell, input string) string {
	base := map[string]StallCell{}
	at := map[string]map[stallSetting]StallCell{}
	for _, c := range cells {
		if c.Setting == nil {
			base[c.Benchmark] = c
			continue
		}
		if at[c.Benchmark] == nil {
			at[c.Benchmark] = map[stallSetting]StallCell{}
		}
		at[c.Benchmark][*c.Setting] = c
	}
	var b strings.Builder
	fmt.Fprintf(&b, "`multihash-value` in timing mode (`default` machine, %s inputs), the queue's size and the unit's throughput varied. "+
		"*requested*: the stall cycles the unit asked of commit (`stall_cycles_requested`); *real*: what they cost (`stall_cycles`); "+
		"*cycles*: the run's increase over the same program without the unit.\n\n", input)
	head := []string{"queue, tuples/cycle"}
	for _, n := range stallBenchmarks {
		head = append(head, n+" requested", n+" real", n+" cycles")
	}
	b.WriteString("| " + strings.Join(head, " | ") + " |\n|---|" + strings.Repeat("---:|", len(head)-1) + "\n")
	row := []string{"none"}
	for _, n := range stallBenchmarks {
		row = append(row, "–", "–", fmt.Sprintf("%d", base[n].Cycles))
	}
	b.WriteString("| " + strings.Join(row, " | ") + " |\n")
	for _, s := range stallSettings {
		row := []string{fmt.Sprintf("%d, %g", s.Size, s.Throughput)}
		for _, n := range stallBenchmarks {
			c, ok := at[n][s]
			if !ok {
				row = append(row, "–", "–", "–")
				continue
			}
			inc := 100 * (float64(c.Cycles) - float64(base[n].Cycles)) / float64(base[n].Cycles)
			row = append(row, fmt.Sprintf("%d", c.Requested), fmt.Sprintf("%d", c.Real), fmt.Sprintf("%+.2f%%", inc))
		}
		b.WriteString("| " + strings.Join(row, " | ") + " |\n")
	}
	return b.String()
}
