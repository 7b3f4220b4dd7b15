package simpoint_test

import (
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
	pts := simpoint.Points(x, r)
	require.Len(t, pts, 3)
	var w float64
	for _, p := range pts {
		w += p.Weight
		assert.Equal(t, p.Cluster, r.Labels[p.Interval])
	}
	assert.InDelta(t, 1, w, 1e-9)
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
