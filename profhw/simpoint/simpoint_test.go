package simpoint_test

import (
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/rvsim/rvsim/profhw/simpoint"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSimPointClusters: three kinds of interval, ten of each, are three
// clusters; the simulation points belong to their clusters and the
// weights add up to one.
func TestSimPointClusters(t *testing.T) {
	var bbvs []simpoint.BBV
	for i := 0; i < 30; i++ {
		switch {
		case i < 10:
			bbvs = append(bbvs, simpoint.BBV{0x10: 900, 0x20: 100})
		case i < 20:
			bbvs = append(bbvs, simpoint.BBV{0x30: 500, 0x40: 500})
		default:
			bbvs = append(bbvs, simpoint.BBV{0x10: 100, 0x50: 900})
		}
	}
	x := simpoint.Project(bbvs, 7)
	r := simpoint.Cluster(x, 6, 5, 7)
	assert.Equal(t, 3, r.K)
	for i := range bbvs {
		assert.Equal(t, r.Labels[i/10*10], r.Labels[i], "interval %d", i)
	}
	for _, pick := range []simpoint.Pick{simpoint.Typical, simpoint.Centre} {
		pts := simpoint.Points(x, simpoint.Breadths(bbvs), r, pick)
		require.Len(t, pts, 3)
		var w float64
		for _, p := range pts {
			w += p.Weight
			assert.Equal(t, p.Cluster, r.Labels[p.Interval])
		}
		assert.InDelta(t, 1, w, 1e-9)
	}
}

// TestPointsPick: one cluster whose centre lies nearest its broadest
// member. Its members run blocks 1..8 in the proportions that put them
// near one another; member 0 runs all of them evenly, the others only
// some. The centre (SimPoint's) picks member 0; typical picks the member
// nearest the centre among those of the middle breadths, whatever the
// projection and clustering. Hand-made vectors and distances: no
// projection.
func TestPointsPick(t *testing.T) {
	x := [][]float64{
		{0.25, 0.25, 0.25, 0.25}, // breadth 8: at the centre
		{0.40, 0.10, 0.25, 0.25}, // breadth 4, distance² 0.045
		{0.10, 0.40, 0.25, 0.25}, // breadth 4, 0.045
		{0.25, 0.25, 0.45, 0.05}, // breadth 5, 0.08
		{0.30, 0.20, 0.20, 0.30}, // breadth 6, 0.01
		{0.25, 0.25, 0.05, 0.45}, // breadth 2, 0.08
	}
	breadth := []int{8, 4, 4, 5, 6, 2}
	r := simpoint.Result{K: 1, Labels: make([]int, len(x)), Centers: [][]float64{{0.25, 0.25, 0.25, 0.25}}}
	centre := simpoint.Points(x, breadth, r, simpoint.Centre)
	require.Len(t, centre, 1)
	assert.Equal(t, 0, centre[0].Interval, "SimPoint's: the member nearest the centre")
	// Sorted breadths 2 4 4 5 6 8: quartiles 4 (index 6/4 = 1) and 6
	// (index 18/4 = 4). Members 1, 2, 3 and 4 are inside; 4 is nearest.
	typical := simpoint.Points(x, breadth, r, simpoint.Typical)
	require.Len(t, typical, 1)
	assert.Equal(t, 4, typical[0].Interval)
	assert.Equal(t, 1.0, typical[0].Weight)
	// A single member is its own quartiles.
	one := simpoint.Result{K: 2, Labels: []int{0, 0, 0, 0, 0, 1}, Centers: [][]float64{{0.25, 0.25, 0.25, 0.25}, {0, 0, 0, 1}}}
	pts := simpoint.Points(x, breadth, one, simpoint.Typical)
	require.Len(t, pts, 2)
	assert.Equal(t, 5, pts[1].Interval)
	assert.InDelta(t, 1.0/6, pts[1].Weight, 1e-12)
}

// TestPointsTypicalProperty: on random clusterings, typical's point is in
// its cluster, its breadth lies between the cluster's quartiles (computed
// here by sorting), and no member in that band is nearer the centre;
// centre's point is nearest the centre of all members.
func TestPointsTypicalProperty(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	for trial := 0; trial < 50; trial++ {
		n, k := 1+rng.Intn(60), 1+rng.Intn(5)
		x := make([][]float64, n)
		breadth := make([]int, n)
		r := simpoint.Result{K: k, Labels: make([]int, n), Centers: make([][]float64, k)}
		for c := range r.Centers {
			r.Centers[c] = []float64{rng.Float64(), rng.Float64(), rng.Float64()}
		}
		for i := range x {
			x[i] = []float64{rng.Float64(), rng.Float64(), rng.Float64()}
			breadth[i] = rng.Intn(20)
			r.Labels[i] = rng.Intn(k)
		}
		d2 := func(i, c int) float64 {
			var s float64
			for j := range x[i] {
				s += (x[i][j] - r.Centers[c][j]) * (x[i][j] - r.Centers[c][j])
			}
			return s
		}
		for _, pick := range []simpoint.Pick{simpoint.Typical, simpoint.Centre} {
			for _, p := range simpoint.Points(x, breadth, r, pick) {
				require.Equal(t, p.Cluster, r.Labels[p.Interval])
				var bs []int
				for i := range x {
					if r.Labels[i] == p.Cluster {
						bs = append(bs, breadth[i])
					}
				}
				slices.Sort(bs)
				lo, hi := bs[len(bs)/4], bs[3*len(bs)/4]
				if pick == simpoint.Typical {
					assert.True(t, breadth[p.Interval] >= lo && breadth[p.Interval] <= hi, "trial %d: breadth %d outside [%d, %d]", trial, breadth[p.Interval], lo, hi)
				}
				for i := range x {
					inBand := breadth[i] >= lo && breadth[i] <= hi
					if r.Labels[i] == p.Cluster && (pick == simpoint.Centre || inBand) {
						assert.GreaterOrEqual(t, d2(i, p.Cluster), d2(p.Interval, p.Cluster), "trial %d %v: member %d is nearer", trial, pick, i)
					}
				}
			}
		}
	}
}

func TestParsePick(t *testing.T) {
	for _, c := range []struct {
		in, name string // name: the pick's String ("": an error)
		want     simpoint.Pick
	}{{"typical", "typical", simpoint.Typical}, {"centre", "centre", simpoint.Centre}, {"center", "centre", simpoint.Centre}, {"", "", 0}, {"nearest", "", 0}} {
		got, err := simpoint.ParsePick(c.in)
		if c.name == "" {
			assert.EqualError(t, err, fmt.Sprintf("%q: want typical or centre", c.in))
			continue
		}
		require.NoError(t, err)
		assert.Equal(t, c.want, got)
		assert.Equal(t, c.name, got.String())
	}
}

// TestCollector: blocks are named by their ending branch and sized by
// sequence numbers; an interval closes at the first branch past its end;
// a tail shorter than half an interval is dropped.
func TestCollector(t *testing.T) {
	c := simpoint.NewCollector(10)
	c.Branch(0x100, 4, 3)  // instructions 0-3
	c.Branch(0x200, 7, 10) // 4-10: crosses 10, closes the first interval
	c.Branch(0x100, 4, 14)
	c.Finish() // 4 instructions < half of 10: dropped
	require.Len(t, c.BBVs, 1)
	assert.Equal(t, simpoint.BBV{0x100: 4, 0x200: 7}, c.BBVs[0])
	c = simpoint.NewCollector(10)
	c.Branch(0x100, 6, 5)
	c.Finish()
	assert.Equal(t, []simpoint.BBV{{0x100: 6}}, c.BBVs, "a tail of at least half an interval is kept")
}

func TestWriteFiles(t *testing.T) {
	var sp, w strings.Builder
	require.NoError(t, simpoint.WriteFiles(&sp, &w, []simpoint.Point{{Cluster: 0, Interval: 7, Weight: 0.25}, {Cluster: 1, Interval: 2, Weight: 0.75}}))
	assert.Equal(t, "7 0\n2 1\n", sp.String())
	assert.Equal(t, "0.250000 0\n0.750000 1\n", w.String())
}

// TestProjectRows: Project's rows, made once per block, give exactly the
// vectors of the formula made afresh for every block of every interval
// (a source seeded from the block's id, Dims draws in [-1, 1), weighted by
// the block's share of its interval).
func TestProjectRows(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	var bbvs []simpoint.BBV
	for i := 0; i < 40; i++ {
		v := simpoint.BBV{}
		for j := rng.Intn(30) + 1; j > 0; j-- {
			v[uint64(rng.Intn(50))*4+0x1000] += uint64(rng.Intn(1000) + 1)
		}
		bbvs = append(bbvs, v)
	}
	const seed = 11
	got := simpoint.Project(bbvs, seed)
	for i, v := range bbvs {
		var tot uint64
		ids := make([]uint64, 0, len(v))
		for b, n := range v {
			tot += n
			ids = append(ids, b)
		}
		slices.Sort(ids)
		want := make([]float64, simpoint.Dims)
		for _, b := range ids {
			w := float64(v[b]) / float64(tot)
			r := rand.New(rand.NewSource(seed ^ int64(b*0x9e3779b97f4a7c15)))
			for d := range want {
				want[d] += w * (2*r.Float64() - 1)
			}
		}
		require.Equal(t, want, got[i], "interval %d", i)
	}
}

// TestCollectorAgainstMaps: the collector's dense table gives the BBVs of
// a map per interval (the definition) on a random stream of blocks: many
// PCs (the table grows), blocks of 0 instructions (a key with 0, as a map
// update makes it), intervals that close mid-stream and a kept tail.
func TestCollectorAgainstMaps(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	const interval = 1000
	c := simpoint.NewCollector(interval)
	var want []simpoint.BBV
	cur, end, seq := simpoint.BBV{}, uint64(interval), uint64(0)
	for i := 0; i < 200_000; i++ {
		pc := uint64(rng.Intn(5000))*2 + 0x10000
		if rng.Intn(4) == 0 {
			pc += 1 << 40
		}
		n := uint64(rng.Intn(12))
		seq += n
		c.Branch(pc, n, seq)
		cur[pc] += n
		if seq+1 >= end {
			want, cur = append(want, cur), simpoint.BBV{}
			end = seq + 1 - (seq+1)%interval + interval
		}
	}
	var tail uint64
	for _, n := range cur {
		tail += n
	}
	if tail >= interval/2 {
		want = append(want, cur)
	}
	c.Finish()
	require.Equal(t, len(want), len(c.BBVs))
	for i := range want {
		require.Equal(t, want[i], c.BBVs[i], "interval %d", i)
	}
}
