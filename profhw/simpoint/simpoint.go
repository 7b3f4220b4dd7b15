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
	nextSeq  uint64
	end      uint64
	// The interval's counts, per block, in a dense table: a block's index
	// (slot) is found by its PC in an open-addressed table, and the
	// interval's BBV is built from the blocks it touched when it closes (a
	// map update per transfer was half of a translated BBV pass).
	slots   []int32  // PC hash -> block index + 1; 0 free
	pcs     []uint64 // block index -> PC
	counts  []uint64 // block index -> instructions this interval
	seen    []uint32 // block index -> the interval (gen) that last touched it
	touched []int32  // the blocks this interval touched, in first-touch order
	gen     uint32
}

// NewCollector collects BBVs of interval instructions.
func NewCollector(interval uint64) *Collector {
	return &Collector{Interval: interval, end: interval, slots: make([]int32, 1024), gen: 1}
}

// Branch adds a block of n instructions ended by the branch at pc whose
// sequence number is seq (0-based).
func (c *Collector) Branch(pc, n, seq uint64) {
	b := c.block(pc)
	if c.seen[b] != c.gen {
		c.seen[b] = c.gen
		c.touched = append(c.touched, b)
	}
	c.counts[b] += n
	if seq+1 >= c.end {
		c.BBVs = append(c.BBVs, c.take())
		c.end = seq + 1 - (seq+1)%c.Interval + c.Interval
	}
}

// block returns pc's block index, adding the block the first time.
func (c *Collector) block(pc uint64) int32 {
	mask := uint64(len(c.slots) - 1)
	for i := c.home(pc); c.slots[i] != 0; i = (i + 1) & mask {
		if b := c.slots[i] - 1; c.pcs[b] == pc {
			return b
		}
	}
	b := int32(len(c.pcs))
	c.pcs = append(c.pcs, pc)
	c.counts = append(c.counts, 0)
	c.seen = append(c.seen, 0)
	if 2*len(c.pcs) > len(c.slots) { // at most half full: grow, and place the others again
		c.slots = make([]int32, 2*len(c.slots))
		for i := range b {
			c.place(i)
		}
	}
	c.place(b)
	return b
}

// home is pc's first slot.
func (c *Collector) home(pc uint64) uint64 {
	return (pc * 0x9e3779b97f4a7c15) >> 32 & uint64(len(c.slots)-1)
}

// place puts block b in the first free slot from its home.
func (c *Collector) place(b int32) {
	mask := uint64(len(c.slots) - 1)
	i := c.home(c.pcs[b])
	for c.slots[i] != 0 {
		i = (i + 1) & mask
	}
	c.slots[i] = b + 1
}

// take returns the interval's BBV and starts the next interval.
func (c *Collector) take() BBV {
	v := make(BBV, len(c.touched))
	for _, b := range c.touched {
		v[c.pcs[b]] = c.counts[b]
		c.counts[b] = 0
	}
	c.touched = c.touched[:0]
	c.gen++
	return v
}

// Retire is the cpu.Observer method: every retired instruction, of which
// the control transfers end blocks (TappedControls is the same from the
// control tap's records).
func (c *Collector) Retire(batch []cpu.DynInst) {
	for i := range batch {
		d := &batch[i]
		switch d.Inst.Class {
		case isa.Branch, isa.Jal, isa.Jalr, isa.Call, isa.Return:
		default:
			continue
		}
		c.transfer(d.PC, d.Seq)
	}
}

// transfer ends the block at the control transfer at pc, retired as
// instruction seq.
func (c *Collector) transfer(pc, seq uint64) {
	n := seq + 1 - c.nextSeq
	c.nextSeq = seq + 1
	c.Branch(pc, n, seq)
}

// The Collector is a control tap's sink (cpu.SetTapControls; sim.Config's
// Controls): the core records only the control transfers, the translator's
// code too, so a BBV pass need not interpret every instruction as an
// observer makes it (`rvsim simpoint`, sampling.Profile).
var _ cpu.ControlSink = (*Collector)(nil)

// TappedControls is the cpu.ControlSink method: the control tap's records.
func (c *Collector) TappedControls(recs []cpu.TapControl) int {
	for i := range recs {
		c.transfer(recs[i].PC, recs[i].Seq())
	}
	return cpu.TapBatchMax
}

// Tapped is the cpu.TapSink method: full records of the tapped classes,
// when the core gives those instead of the control tap's.
func (c *Collector) Tapped(recs []cpu.DynInst) int {
	c.Retire(recs)
	return cpu.TapBatchMax
}

// Finish closes the last, partial interval if it holds at least half an
// interval (SimPoint drops a short tail).
func (c *Collector) Finish() {
	var n uint64
	for _, b := range c.touched {
		n += c.counts[b]
	}
	if v := c.take(); n >= c.Interval/2 && n > 0 {
		c.BBVs = append(c.BBVs, v)
	}
}

// Dims is SimPoint's projected dimension.
const Dims = 15

// Project normalises each BBV to sum 1 and projects it onto Dims random
// dimensions: block id b's row is uniform in [-1, 1] from a generator
// seeded by (seed, b), so the projection needs no table.
func Project(bbvs []BBV, seed int64) [][]float64 {
	out := make([][]float64, len(bbvs))
	// A block's random row is the same in every interval: made once
	// (seeding a source per block and interval was a fifth of a BBV pass).
	rows := map[uint64]*[Dims]float64{}
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
			row := rows[b]
			if row == nil {
				row = new([Dims]float64)
				r := rand.New(rand.NewSource(seed ^ int64(b*0x9e3779b97f4a7c15)))
				for d := range row {
					row[d] = 2*r.Float64() - 1
				}
				rows[b] = row
			}
			for d := range x {
				x[d] += w * row[d]
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
	return cluster(x, maxK, tries, seed, newKmeans(x).run)
}

// cluster is Cluster with its k-means given (tests: the plain one).
func cluster(x [][]float64, maxK, tries int, seed int64, kmeans func(x [][]float64, k int, rng *rand.Rand) (Result, float64)) Result {
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

// kmeansState is Lloyd's algorithm over the vectors in one flat array,
// its centres in another, reused across runs, with the distances to four
// centres summed at once: four independent sums (a single sum is a chain
// of dependent additions, which the host cannot overlap), each in the
// plain version's order, so the clustering is the same to the bit
// (TestKmeansIsPlain), 1.75 times faster (BenchmarkCluster). (Leaving a
// distance once its partial sum passed the best, also exact, was slower:
// a branch per dimension.)
type kmeansState struct {
	n, m    int
	x       []float64 // the vectors, row by row
	centers []float64 // k rows
	counts  []int
}

func newKmeans(x [][]float64) *kmeansState {
	s := &kmeansState{n: len(x)}
	if s.n > 0 {
		s.m = len(x[0])
	}
	s.x = make([]float64, 0, s.n*s.m)
	for _, v := range x {
		s.x = append(s.x, v...)
	}
	return s
}

// run is Lloyd's algorithm from k distinct random points; it returns the
// clustering and its distortion.
func (s *kmeansState) run(_ [][]float64, k int, rng *rand.Rand) (Result, float64) {
	n, m, x := s.n, s.m, s.x
	perm := rng.Perm(n)
	if cap(s.centers) < k*m {
		s.centers, s.counts = make([]float64, k*m), make([]int, k)
	}
	cs, counts := s.centers[:k*m], s.counts[:k]
	for c := 0; c < k; c++ {
		copy(cs[c*m:c*m+m], x[perm[c]*m:perm[c]*m+m])
	}
	labels := make([]int, n)
	for iter := 0; iter < 100; iter++ {
		changed := iter == 0
		for i := 0; i < n; i++ {
			xi := x[i*m : i*m+m]
			best, bd := 0, math.Inf(1)
			c := 0
			for ; c+4 <= k; c += 4 { // four centres at once: four independent sums
				c0, c1, c2, c3 := cs[c*m:c*m+m], cs[(c+1)*m:(c+1)*m+m], cs[(c+2)*m:(c+2)*m+m], cs[(c+3)*m:(c+3)*m+m]
				c0, c1, c2, c3 = c0[:len(xi)], c1[:len(xi)], c2[:len(xi)], c3[:len(xi)] // (no bounds checks below)
				var d0, d1, d2, d3 float64
				for j, v := range xi {
					e0, e1, e2, e3 := v-c0[j], v-c1[j], v-c2[j], v-c3[j]
					d0 += e0 * e0
					d1 += e1 * e1
					d2 += e2 * e2
					d3 += e3 * e3
				}
				if d0 < bd {
					best, bd = c, d0
				}
				if d1 < bd {
					best, bd = c+1, d1
				}
				if d2 < bd {
					best, bd = c+2, d2
				}
				if d3 < bd {
					best, bd = c+3, d3
				}
			}
			for ; c < k; c++ {
				cc := cs[c*m : c*m+m]
				var d float64
				for j, v := range xi {
					e := v - cc[j]
					d += e * e
				}
				if d < bd {
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
		clear(cs)
		clear(counts)
		for i := 0; i < n; i++ {
			c := labels[i]
			counts[c]++
			cc, xi := cs[c*m:c*m+m], x[i*m:i*m+m]
			for d := range xi {
				cc[d] += xi[d]
			}
		}
		for c := 0; c < k; c++ {
			cc := cs[c*m : c*m+m]
			if counts[c] == 0 {
				r := rng.Intn(n)
				copy(cc, x[r*m:r*m+m])
				continue
			}
			for d := range cc {
				cc[d] /= float64(counts[c])
			}
		}
	}
	centers := make([][]float64, k)
	var dist float64
	for c := range centers {
		centers[c] = append([]float64(nil), cs[c*m:c*m+m]...)
	}
	for i := 0; i < n; i++ {
		dist += dist2(x[i*m:i*m+m], centers[labels[i]])
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

// Point is a simulation point: a cluster's representative interval, and
// the cluster's weight (its share of the intervals).
type Point struct {
	Cluster  int
	Interval int
	Weight   float64
}

// Pick is how each cluster's representative is chosen.
type Pick int

const (
	// Typical: the member nearest the cluster's centre among the members
	// whose breadth (distinct blocks, Breadths) lies between the cluster's
	// quartiles. A centre averages its members' normalised vectors, so it
	// spreads its weight over every block any of them runs, and the member
	// nearest it tends to be one that runs the most distinct blocks; where
	// breadth drives CPI (a large code footprint: I-cache, BTB and
	// predictor misses), that member is one of the slowest. On cc1 (GCC)
	// the interval CPI follows breadth with a correlation of 0.85, and the
	// centre's picks sat at the 72nd–84th percentile of their clusters'
	// breadths, weighed by the clusters' weights (docs/SPEED.md, "The
	// representative's breadth", from `experiments/sampling -k-sweep`).
	Typical Pick = iota
	// Centre: SimPoint's choice, the member nearest the centre.
	Centre
)

// ParsePick reads a Pick's name: typical or centre.
func ParsePick(s string) (Pick, error) {
	switch s {
	case "typical":
		return Typical, nil
	case "centre", "center":
		return Centre, nil
	}
	return 0, fmt.Errorf("%q: want typical or centre", s)
}

func (p Pick) String() string {
	if p == Centre {
		return "centre"
	}
	return "typical"
}

// Breadths are the intervals' breadths: the distinct blocks each ran.
func Breadths(bbvs []BBV) []int {
	b := make([]int, len(bbvs))
	for i, v := range bbvs {
		b[i] = len(v)
	}
	return b
}

// Points picks the simulation points of a clustering, one per non-empty
// cluster; breadth is Breadths of the clustered intervals (Typical's; nil
// for Centre).
func Points(x [][]float64, breadth []int, r Result, pick Pick) []Point {
	members := make([][]int, r.K)
	for i := range x {
		members[r.Labels[i]] = append(members[r.Labels[i]], i)
	}
	var pts []Point
	for c, m := range members {
		if len(m) == 0 {
			continue
		}
		typical := pick == Typical
		var lo, hi int
		if typical {
			lo, hi = quartiles(m, breadth)
		}
		best, bd := -1, math.Inf(1)
		for _, i := range m {
			if typical && (breadth[i] < lo || breadth[i] > hi) {
				continue
			}
			if d := dist2(x[i], r.Centers[c]); d < bd {
				best, bd = i, d
			}
		}
		pts = append(pts, Point{Cluster: c, Interval: best, Weight: float64(len(m)) / float64(len(x))})
	}
	return pts
}

// quartiles returns the first and third quartiles of the members'
// breadths (the sorted breadths' elements at n/4 and 3n/4): at least one
// member lies between them.
func quartiles(members []int, breadth []int) (lo, hi int) {
	b := make([]int, len(members))
	for j, i := range members {
		b[j] = breadth[i]
	}
	sort.Ints(b)
	return b[len(b)/4], b[3*len(b)/4]
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
