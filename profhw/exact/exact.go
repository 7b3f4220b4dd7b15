// Package exact is the ideal tuple profiler: it counts every tuple its
// selectors make (stratified-sampling.md §5.3.1, "the ideal profile
// accumulates all generated events"). It is the reference the sampling
// units are judged against, offered as a unit of its own so that a run
// can write the exact profile of any selector set.
package exact

import (
	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/pipeline"
	"github.com/rvsim/rvsim/profhw"
	"github.com/rvsim/rvsim/profhw/tuple"
)

func init() {
	profhw.Register(profhw.KindInfo{Name: "exact", Doc: "ideal tuple profile of the selectors (the reference of stratified-sampling.md §5.3.1)", Build: build})
}

// Unit counts every selected tuple. The counting (a table of millions of
// tuples, no hardware) runs on its own goroutine: the unit selects the
// tuples into batches that it hands over.
type Unit struct {
	name   string
	set    tuple.Set
	counts *tuple.PCTable
	pipe   *profhw.Pipe[*[]tuple.Tuple]
	batch  *[]tuple.Tuple
	sum    profhw.Summary
}

// batchTuples is a batch's size when the unit hands it over.
const batchTuples = 8192

func build(c *profhw.UnitConfig, env profhw.Env) (profhw.Unit, error) {
	set := tuple.ReadSet(c, "value")
	if err := c.Err(); err != nil {
		return nil, err
	}
	return New(c.Name, set, env.Mode), nil
}

// New builds an exact profiler of set.
func New(name string, set tuple.Set, mode profhw.Mode) *Unit {
	u := &Unit{name: name, set: set, counts: tuple.NewPCTable(0)}
	spares := make([]*[]tuple.Tuple, 8)
	for i := range spares {
		b := make([]tuple.Tuple, 0, 2*batchTuples)
		spares[i] = &b
	}
	b := make([]tuple.Tuple, 0, 2*batchTuples)
	u.batch = &b
	u.pipe = profhw.NewPipe(spares, func(b *[]tuple.Tuple) { u.counts.AddAll(*b) })
	u.sum = profhw.Summary{Unit: name, Kind: "exact", Mode: mode.String(), ErrorMetric: "none (the reference)"}
	return u
}

func (u *Unit) Name() string { return u.name }

func (u *Unit) Watch() profhw.Watch { return profhw.Watch{Retired: u.set.Classes(), Lean: true} }

func (u *Unit) Retire(recs []cpu.DynInst) {
	n := len(*u.batch)
	*u.batch = u.set.AppendAll(*u.batch, recs)
	u.sum.Events += uint64(len(*u.batch) - n)
	if len(*u.batch) >= batchTuples {
		u.handOver()
	}
}

func (u *Unit) handOver() {
	u.batch = u.pipe.Send(u.batch)
	*u.batch = (*u.batch)[:0]
}

func (u *Unit) Commit(*pipeline.Commit) uint64 { return 0 }

func (u *Unit) Finish(end profhw.End) error {
	u.handOver()
	u.pipe.Close()
	u.sum.AppCycles = end.Cycles
	u.sum.Set("distinct_tuples", u.counts.Len())
	u.sum.Set("tuples", u.set.String())
	return nil
}

func (u *Unit) Summary() *profhw.Summary { return &u.sum }

// Counts is the exact profile.
func (u *Unit) Counts() tuple.Counts { return u.counts.Counts() }

func (u *Unit) Outputs(sym profhw.Symbolizer) ([]profhw.Output, error) {
	return []profhw.Output{u.counts.Profile(u.name, "exact", u.set, sym).Output("exact.json")}, nil
}
