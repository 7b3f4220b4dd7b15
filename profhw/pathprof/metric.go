package pathprof

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/rvsim/rvsim/pipeline"
)

// Metric is what a path's event counter accumulates (§4), selected in
// the PPCR.
type Metric uint8

// The metrics.
const (
	Frequency    Metric = iota // each path counts once
	Instructions               // instructions along the path
	Cycles                     // commit-to-commit cycles along the path
	L1DMisses                  // L1 data cache misses
	L2Misses                   // L2 misses (instruction and data)
	Mispredicts                // branch mispredictions
	Power                      // the cache hierarchy's energy (Fig. 16), in half I-cache accesses
	NumMetrics
)

var metricNames = []string{"frequency", "instructions", "cycles", "l1d-misses", "l2-misses", "mispredicts", "power"}

func (m Metric) String() string { return metricNames[m] }

// ParseMetric reads a metric's name.
func ParseMetric(s string) (Metric, bool) {
	for i, n := range metricNames {
		if n == s {
			return Metric(i), true
		}
	}
	return 0, false
}

// Timed reports whether the metric needs the timing model's events.
func (m Metric) Timed() bool { return m >= Cycles }

// CacheGeom is one cache of the power model.
type CacheGeom struct {
	Size, Line, Assoc int
}

// PowerModel is the analytical cache energy model of Fig. 16 (Kadayif et
// al. after Kamble and Ghose), turned into relative costs (§4: each
// event's energy relative to the cheapest, an I-cache access).
type PowerModel struct {
	L1I, L1D, L2 CacheGeom
	AddrBits     int     // W_add
	StatusBits   int     // St
	Gamma        float64 // γ, J (technology parameter)
	Em           float64 // E_m, J per bit transferred off chip
	Vdd          float64 // V
	Activity     float64 // pr1..pr4 (Fig. 16: 0.25)
	DirtyRatio   float64 // dirty_r
}

// PaperPower is Fig. 16 with the caches of Table 4. The paper prints only
// the activity factors (0.25); γ, E_m, V and the bus width are the values
// docs/PROFHW.md names (assumptions, not the paper's).
var PaperPower = PowerModel{
	L1I: CacheGeom{32 << 10, 32, 1}, L1D: CacheGeom{32 << 10, 32, 1}, L2: CacheGeom{512 << 10, 64, 4},
	AddrBits: 32, StatusBits: 2, Gamma: 1.44e-14, Em: 4.95e-9 / (8 * 64), Vdd: 3.3, Activity: 0.25, DirtyRatio: 0,
}

// energy is Fig. 16's energy of hits and misses of one cache (offChip:
// its misses go to main memory).
func (p PowerModel) energy(c CacheGeom, hits, misses float64, offChip bool) float64 {
	v2 := p.Vdd * p.Vdd
	sets := c.Size / (c.Line * c.Assoc)
	tag := p.AddrBits - bits.TrailingZeros(uint(sets)) - bits.TrailingZeros(uint(c.Line))
	wordLine := float64(c.Assoc * (8*c.Line + tag + p.StatusBits))
	bitLine := float64(c.Size) / float64(c.Assoc*c.Line)
	eCell := p.Gamma * wordLine * (bitLine + 4.8) * (hits + misses)
	eBus := 0.5e-12*p.Activity*v2*(hits+misses)*float64(p.AddrBits) + 0.5e-12*p.Activity*v2*(hits+misses)*32
	ePad := 20e-12*p.Activity*v2*misses*float64(p.AddrBits) + 20e-12*p.Activity*v2*(1+p.DirtyRatio)*misses*64
	e := eCell + eBus + ePad
	if offChip {
		e += p.Em * float64(8*c.Line) * misses * (1 + p.DirtyRatio)
	}
	return e
}

// Costs are the relative costs of the cache events, in half I-cache
// accesses (so that Fig. 6's halving stays an integer).
type Costs struct {
	L1IHit, L1IMiss, L1DHit, L1DMiss, L2Hit, L2Miss uint64
}

// Costs turns the model's energies into relative costs.
func (p PowerModel) Costs() Costs {
	ref := p.energy(p.L1I, 1, 0, false)
	rel := func(e float64) uint64 { return uint64(math.Round(2 * e / ref)) }
	return Costs{
		L1IHit: rel(ref), L1IMiss: rel(p.energy(p.L1I, 0, 1, false)),
		L1DHit: rel(p.energy(p.L1D, 1, 0, false)), L1DMiss: rel(p.energy(p.L1D, 0, 1, false)),
		L2Hit: rel(p.energy(p.L2, 1, 0, true)), L2Miss: rel(p.energy(p.L2, 0, 1, true)),
	}
}

func (c Costs) String() string {
	return fmt.Sprintf("L1I hit %d, miss %d; L1D hit %d, miss %d; L2 hit %d, miss %d (half I-cache accesses)",
		c.L1IHit, c.L1IMiss, c.L1DHit, c.L1DMiss, c.L2Hit, c.L2Miss)
}

// eventCounter turns the timing model's per-instruction events into the
// metric's increments (§4, the per-instruction event counter that feeds
// the block event counter at commit).
type eventCounter struct {
	metric    Metric
	costs     Costs
	lastCycle uint64
	// Fig. 6: D-cache accesses in the same cycle share the ports; the
	// commit cycle stands for the access cycle.
	dCycle uint64
	dN     int
}

// count is the metric's increment for one committed instruction.
func (ec *eventCounter) count(r *pipeline.Commit) uint64 {
	switch ec.metric {
	case Instructions:
		return 1
	case Cycles:
		gap := r.Cycle - ec.lastCycle
		ec.lastCycle = r.Cycle
		return gap
	case L1DMisses:
		if r.Ev&pipeline.EvL1DMiss != 0 {
			return 1
		}
		return 0
	case L2Misses:
		if r.Ev&pipeline.EvL2Miss != 0 {
			return 1
		}
		return 0
	case Mispredicts:
		if r.Ev&pipeline.EvMispredict != 0 {
			return 1
		}
		return 0
	case Power:
		return ec.power(r)
	}
	return 0
}

// power is the instruction's apportioned cache energy (§4, Fig. 6(b)): a
// D-cache access alone in its cycle costs the full access; with two or
// more, each costs half. The second access of a cycle adds nothing and
// the first keeps its full cost, which gives each cycle Fig. 6's total
// (the first access's half of the second's share may land on the
// previous block when a branch commits between them).
func (ec *eventCounter) power(r *pipeline.Commit) uint64 {
	ev, c := r.Ev, &ec.costs
	var e uint64
	if ev&pipeline.EvL1IAccess != 0 {
		if ev&pipeline.EvL1IMiss != 0 {
			e += c.L1IMiss
		} else {
			e += c.L1IHit
		}
	}
	if ev&pipeline.EvL1DAccess != 0 {
		cost := c.L1DHit
		if ev&pipeline.EvL1DMiss != 0 {
			cost = c.L1DMiss
		}
		if r.Cycle != ec.dCycle || ec.dN == 0 {
			ec.dCycle, ec.dN = r.Cycle, 0
		}
		ec.dN++
		switch ec.dN {
		case 1:
			e += cost
		case 2:
		default:
			e += cost / 2
		}
	}
	if ev&pipeline.EvL2Access != 0 {
		if ev&pipeline.EvL2Miss != 0 {
			e += c.L2Miss
		} else {
			e += c.L2Hit
		}
	}
	return e
}
