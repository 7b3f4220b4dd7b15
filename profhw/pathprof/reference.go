package pathprof

import "github.com/rvsim/rvsim/profhw"

// The reference side of the unit: what exists only to measure the
// hardware's accuracy (§8.1) and no hardware has: the exact path profile,
// the unbounded stack that produces it once the hardware stack has
// dropped an entry, and the dynamic-overlap windows (the window's HPT
// against the window's exact profile). It runs on profhw.Offload: the
// unit Puts one refRec per event in program order and the consumer
// replays them, so what it computes is what it computed inline.

// refKind is what a refRec carries.
type refKind uint8

const (
	// refPath is a complete path the hardware stack popped (a, c: start,
	// direction bits | length<<32; b: weight; d: instructions): the window's
	// HPT takes it, and the exact profile while the hardware stack is exact.
	refPath refKind = iota
	// refBranch is a retiring branch for the unbounded stack (a: pc, b:
	// target, c: instructions, d: events; t, taken, ilen).
	refBranch
	// refTakeover: the unbounded stack (reference.next) takes over the
	// exact profile from the hardware stack, before the branch that
	// follows.
	refTakeover
	// refWindow closes a dynamic-overlap window.
	refWindow
)

// refRec is one record of the reference stream (40 bytes).
type refRec struct {
	a, b, c, d uint64
	kind       refKind
	t          BranchType
	taken      bool
	ilen       uint8
}

// reference is the consumer's state. The unit reads it only after
// Sync (or Close).
type reference struct {
	metric  Metric
	ref     *Stack // the unbounded stack (nil while the hardware's paths are exact)
	next    *Stack // the stack refTakeover installs (written once, before its record)
	exact   *Exact
	winH    *HPT // the HPT of the current window (nil: no windows)
	winOver []float64
}

// consume replays a batch of records.
func (r *reference) consume(recs []refRec) {
	for i := range recs {
		x := &recs[i]
		switch x.kind {
		case refPath:
			d := Desc{Start: x.a, Dirs: uint32(x.c), Len: uint8(x.c >> 32)}
			if r.winH != nil {
				r.winH.Update(d, x.b)
			}
			if r.ref == nil {
				r.exact.Add(d, x.b, x.d)
			}
		case refBranch:
			s := r.ref
			s.Branch(x.t, x.a, x.b, x.a+uint64(x.ilen), x.taken, x.c, x.d)
			for j := 0; j < s.nOut; j++ {
				if p := &s.out[j]; !p.Incomplete {
					w := p.Events
					if r.metric == Frequency {
						w = 1
					}
					r.exact.Add(p.Desc, w, p.Insts)
				}
			}
		case refTakeover:
			r.ref = r.next
		case refWindow:
			r.closeWindow()
		}
	}
}

// closeWindow ends a dynamic-overlap window (§8.1): the window's HPT
// against the window's exact profile; both start empty again.
func (r *reference) closeWindow() {
	ex := r.exact.Window()
	if len(ex) > 0 {
		r.winOver = append(r.winOver, Overlap(r.winH.Weights(), ex))
	}
	r.winH.Reset()
}

// newReference builds the reference model and its offload.
func newReference(cfg *Config) (*reference, *profhw.Offload[refRec]) {
	r := &reference{metric: cfg.Metric, exact: NewExact()}
	if cfg.Window > 0 {
		r.winH, _ = NewHPT(cfg.HPTEntries, cfg.HPTWays, cfg.HPTIndex)
	}
	return r, profhw.NewOffload(r.consume)
}
