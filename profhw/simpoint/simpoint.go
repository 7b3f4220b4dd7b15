// Package simpoint is an offline SimPoint-style phase classification
// (Sherwood et al., ASPLOS 2002, the baseline of hardware-path-profiling.md
// §8.3): per-interval basic block vectors, a random projection to 15
// dimensions, k-means for k = 1..MaxK with the Bayesian Information
// Criterion choosing k, and the SimPoint files (.simpoints, .weights).
package simpoint

import (
	"fmt"
	"io"
	"math"
	"math/rand"
	"sort"

	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/isa"
)

// BBV is one interval's basic block vector: block id (the address of the
// branch that ends the block) -> instructions executed in the block.
type BBV map[uint64]uint64

// Collector builds per-interval BBVs from the retired stream of control
// transfers (a block is the instructions since the previous one, up to
// and including the branch).
type Collector struct {
	Interval uint64
	BBVs     []BBV
	cur      BBV
	nextSeq  uint64
	end      uint64
}

// NewCollector collects BBVs of interval instructions.
func NewCollector(interval uint64) *Collector {
	return &Collector{Interval: interval, cur: BBV{}, end: interval}
}

// Branch adds a block of n instructions ended by the branch at pc whose
// sequence number is seq (0-based).
func (c *Collector) Branch(pc, n, seq uint64) {
	c.cur[pc] += n
	if seq+1 >= c.end {
		c.BBVs = append(c.BBVs, c.cur)
		c.cur = BBV{}
		c.end = seq + 1 - (seq+1)%c.Interval + c.Interval
	}
}

// Retire is the cpu.Observer method (the `rvsim simpoint` command).
func (c *Collector) Retire(batch []cpu.DynInst) {
	for i := range batch {
		d := &batch[i]
		switch d.Inst.Class {
		case isa.Branch, isa.Jal, isa.Jalr, isa.Call, isa.Return:
		default:
			continue
		}
		n := d.Seq + 1 - c.nextSeq
		c.nextSeq = d.Seq + 1
		c.Branch(d.PC, n, d.Seq)
	}
}

// Finish closes the last, partial interval if it holds at least half an
// interval (SimPoint drops a short tail).
func (c *Collector) Finish() {
	var n uint64
	for _, v := range c.cur {
		n += v
	}
	if n >= c.Interval/2 && n > 0 {
		c.BBVs = append(c.BBVs, c.cur)
	}
	c.cur = BBV{}
}

// Dims is SimPoint's projected dimension.
const Dims = 15

// Project normalises each BBV to sum 1 and projects it onto Dims random
// dimensions: block id b's row is uniform in [-1, 1] from a generator
// seeded by (seed, b), so the projection needs no table.
func Project(bbvs []BBV, seed int64) [][]float64 {
	out := make([][]float64, len(bbvs))
	for i, v := range bbvs {
		var tot uint64
		ids := make([]uint64, 0, len(v))
		for b, n := range v {
			tot += n
			ids = append(ids, b)
		}
		sort.Slice(ids, func(a, b int) bool { return ids[a] < ids[b] })
		x := make([]float64, Dims)
		for _, b := range ids {
			w := float64(v[b]) / float64(tot)
			r := rand.New(rand.NewSource(seed ^ int64(b*0x9e3779b97f4a7c15)))
			for d := range x {
				x[d] += w * (2*r.Float64() - 1)
			}
		}
		out[i] = x
	}
	return out
}

// Result is a clustering.
type Result struct {
	K       int
	Labels  []int       // per interval
	Centers [][]float64 // per cluster
	BIC     []float64   // per k tried (index k-1)
}

// Cluster runs k-means for k = 1..maxK (each the best of tries random
// initialisations) and picks, as SimPoint does, the smallest k whose BIC
// reaches 90% of the range between the worst and the best BIC.
func Cluster(x [][]float64, maxK, tries int, seed int64) Result {
	n := len(x)
	if n == 0 {
		return Result{}
	}
	maxK = min(maxK, n)
	var runs []Result
	var bics []float64
	rng := rand.New(rand.NewSource(seed))
	floor := 0.0
	for k := 1; k <= maxK; k++ {
		var best Result
		bestD := math.Inf(1)
		for t := 0; t < tries; t++ {
			r, d := kmeans(x, k, rng)
			if d < bestD {
				best, bestD = r, d
			}
		}
		best.K = k
		if k == 1 {
			// A variance floor of 1% of the one-cluster variance keeps
			// clusters of identical points from an unbounded likelihood.
			floor = 0.01 * pooledVariance(x, best)
		}
		runs = append(runs, best)
		bics = append(bics, bic(x, best, floor))
	}
	lo, hi := bics[0], bics[0]
	for _, b := range bics {
		lo, hi = math.Min(lo, b), math.Max(hi, b)
	}
	pick := len(runs) - 1
	for i, b := range bics {
		if hi == lo || b >= lo+0.9*(hi-lo) {
			pick = i
			break
		}
	}
	r := runs[pick]
	r.BIC = bics
	return r
}

func dist2(a, b []float64) float64 {
	var s float64
	for i := range a {
		d := a[i] - b[i]
		s += d * d
	}
	return s
}

// kmeans is Lloyd's algorithm from k distinct random points; it returns
// the clustering and its distortion.
func kmeans(x [][]float64, k int, rng *rand.Rand) (Result, float64) {
	n, m := len(x), len(x[0])
	perm := rng.Perm(n)
	centers := make([][]float64, k)
	for c := range centers {
		centers[c] = append([]float64(nil), x[perm[c]]...)
	}
	labels := make([]int, n)
	for iter := 0; iter < 100; iter++ {
		changed := iter == 0
		for i := range x {
			best, bd := 0, math.Inf(1)
			for c := range centers {
				if d := dist2(x[i], centers[c]); d < bd {
					best, bd = c, d
				}
			}
			if labels[i] != best {
				labels[i], changed = best, true
			}
		}
		if !changed {
			break
		}
		counts := make([]int, k)
		for c := range centers {
			centers[c] = make([]float64, m)
		}
		for i := range x {
			counts[labels[i]]++
			for d := range x[i] {
				centers[labels[i]][d] += x[i][d]
			}
		}
		for c := range centers {
			if counts[c] == 0 {
				centers[c] = append([]float64(nil), x[rng.Intn(n)]...)
				continue
			}
			for d := range centers[c] {
				centers[c][d] /= float64(counts[c])
			}
		}
	}
	var dist float64
	for i := range x {
		dist += dist2(x[i], centers[labels[i]])
	}
	return Result{K: k, Labels: labels, Centers: centers}, dist
}

// bic is the Bayesian Information Criterion of a clustering (Pelleg and
// Moore's x-means formula, which SimPoint uses): the log-likelihood of
// spherical Gaussians with a pooled variance, less p/2 log R for p =
// (k-1) + k·M + 1 parameters.
func bic(x [][]float64, r Result, floor float64) float64 {
	R, M, K := float64(len(x)), float64(len(x[0])), float64(r.K)
	sizes := make([]float64, r.K)
	for i := range x {
		sizes[r.Labels[i]]++
	}
	variance := math.Max(pooledVariance(x, r), math.Max(floor, 1e-12))
	var l float64
	for _, rn := range sizes {
		if rn == 0 {
			continue
		}
		l += -rn/2*math.Log(2*math.Pi) - rn*M/2*math.Log(variance) - (rn-K)/2 + rn*math.Log(rn) - rn*math.Log(R)
	}
	p := (K - 1) + K*M + 1
	return l - p/2*math.Log(R)
}

// pooledVariance is the clustering's variance per dimension, pooled over
// the clusters (R - K degrees of freedom).
func pooledVariance(x [][]float64, r Result) float64 {
	R, M, K := float64(len(x)), float64(len(x[0])), float64(r.K)
	if R <= K {
		return 0
	}
	var ss float64
	for i := range x {
		ss += dist2(x[i], r.Centers[r.Labels[i]])
	}
	return ss / (M * (R - K))
}

// Points are the simulation points: per cluster, the interval nearest its
// center, and the cluster's weight (its share of the intervals).
type Point struct {
	Cluster  int
	Interval int
	Weight   float64
}

// Points picks the simulation points of a clustering.
func Points(x [][]float64, r Result) []Point {
	var pts []Point
	for c := 0; c < r.K; c++ {
		best, bd, size := -1, math.Inf(1), 0
		for i := range x {
			if r.Labels[i] != c {
				continue
			}
			size++
			if d := dist2(x[i], r.Centers[c]); d < bd {
				best, bd = i, d
			}
		}
		if size > 0 {
			pts = append(pts, Point{Cluster: c, Interval: best, Weight: float64(size) / float64(len(x))})
		}
	}
	return pts
}

// WriteFiles writes SimPoint's formats: .simpoints lines "interval
// cluster", .weights lines "weight cluster".
func WriteFiles(simpoints, weights io.Writer, pts []Point) error {
	for _, p := range pts {
		if _, err := fmt.Fprintf(simpoints, "%d %d\n", p.Interval, p.Cluster); err != nil {
			return err
		}
		if _, err := fmt.Fprintf(weights, "%.6f %d\n", p.Weight, p.Cluster); err != nil {
			return err
		}
	}
	return nil
}
