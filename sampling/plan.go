package sampling

import (
	"fmt"
	"sync"

	"github.com/rvsim/rvsim/profhw/simpoint"
	"github.com/rvsim/rvsim/sim"
)

// Settings of a computed plan: `rvsim simpoint`'s defaults.
const (
	DefaultMaxK = 10
	DefaultSeed = 1
)

// Compute makes the plan of cfg's run as `rvsim simpoint` does: a
// functional run collecting a basic block vector per interval, random
// projection, k-means with the BIC choosing k (profhw/simpoint). cfg's
// timing, windows, DISE and profiling units are dropped: the plan is the
// program's own; its output goes where cfg sends it.
func Compute(cfg sim.Config, interval, warmup uint64, maxK int, seed int64, pick simpoint.Pick) (*Plan, error) {
	bbv, err := Profile(cfg, interval, seed)
	if err != nil {
		return nil, err
	}
	return bbv.Plan(warmup, maxK, seed, pick), nil
}

// BBVs is a run's projected basic block vectors, one per interval, and
// their breadths (simpoint.Breadths): what plans of any k are clustered
// from.
type BBVs struct {
	Interval uint64
	Program  string
	X        [][]float64
	Breadth  []int
}

// Profile is Compute's functional run and projection.
func Profile(cfg sim.Config, interval uint64, seed int64) (*BBVs, error) {
	cfg.Timing, cfg.Windows, cfg.FastForward, cfg.Warmup, cfg.DISE, cfg.ProfHW = nil, nil, 0, 0, nil, nil
	cfg.Trace, cfg.CountMix, cfg.Observers = nil, false, nil
	col := simpoint.NewCollector(interval)
	cfg.Controls = col // the control transfers only: translated, with cfg.JIT
	mc, err := sim.Load(cfg)
	if err != nil {
		return nil, err
	}
	res := mc.Run()
	if res.Stop != sim.StopExit {
		return nil, fmt.Errorf("sampling: %s: the BBV run did not exit: %s", cfg.Program, res.Message)
	}
	col.Finish()
	if len(col.BBVs) == 0 {
		return nil, fmt.Errorf("sampling: %s ran %d instructions, less than half an interval (%d)", cfg.Program, res.Instructions, interval)
	}
	return &BBVs{Interval: interval, Program: cfg.Program, X: simpoint.Project(col.BBVs, seed), Breadth: simpoint.Breadths(col.BBVs)}, nil
}

// Plan clusters the vectors (k ≤ maxK, the BIC choosing) and takes each
// cluster's representative as pick says, as Compute does.
func (b *BBVs) Plan(warmup uint64, maxK int, seed int64, pick simpoint.Pick) *Plan {
	return b.PlanOf(b.Cluster(maxK, seed), warmup, pick)
}

// Cluster is Plan's clustering: k-means for k ≤ maxK, each k the best of
// five initialisations, the BIC choosing k.
func (b *BBVs) Cluster(maxK int, seed int64) simpoint.Result {
	return simpoint.Cluster(b.X, maxK, 5, seed)
}

// PlanOf takes the representatives of clustering r (of b's vectors) as
// pick says.
func (b *BBVs) PlanOf(r simpoint.Result, warmup uint64, pick simpoint.Pick) *Plan {
	plan := &Plan{Interval: b.Interval, Warmup: warmup, Simpoints: b.Program}
	for _, pt := range simpoint.Points(b.X, b.Breadth, r, pick) {
		plan.Points = append(plan.Points, Point{Interval: uint64(pt.Interval), Cluster: pt.Cluster, Weight: pt.Weight})
	}
	sortPoints(plan.Points)
	return plan
}

// DefaultWarming is the functional warming of a sampled run unless told
// otherwise (ParseWarming; docs/SPEED.md "Sampled simulation").
const DefaultWarming = "10M"

// Cache computes each key's plan once (`rvsim compare --sampled`: one per
// program and input, shared by every profiler's run), safe for concurrent
// use.
type Cache struct {
	Interval, Warmup uint64
	Warming          bool   // the plans' Warming
	WarmingLast      uint64 `json:",omitempty"` // the plans' WarmingLast (omitted when 0: compare cache keys stay as they were)
	MaxK             int
	Seed             int64
	Pick             simpoint.Pick // each cluster's representative (0: typical)
	mu               sync.Mutex
	plans            map[string]*cached
}

type cached struct {
	once sync.Once
	plan *Plan
	err  error
}

// Plan returns key's plan, computing it the first time from the
// configuration build returns (and calling its cleanup after).
func (c *Cache) Plan(key string, build func() (sim.Config, func(), error)) (*Plan, error) {
	c.mu.Lock()
	if c.plans == nil {
		c.plans = map[string]*cached{}
	}
	e := c.plans[key]
	if e == nil {
		e = &cached{}
		c.plans[key] = e
	}
	c.mu.Unlock()
	e.once.Do(func() {
		cfg, cleanup, err := build()
		if err != nil {
			e.err = err
			return
		}
		defer cleanup()
		interval := c.Interval
		if interval == 0 {
			interval = DefaultInterval
		}
		maxK, seed := c.MaxK, c.Seed
		if maxK == 0 {
			maxK, seed = DefaultMaxK, DefaultSeed
		}
		e.plan, e.err = Compute(cfg, interval, c.Warmup, maxK, seed, c.Pick)
		if e.plan != nil {
			e.plan.Warming, e.plan.WarmingLast = c.Warming, c.WarmingLast
		}
	})
	return e.plan, e.err
}
