package simpoint

import (
	"math"
	"math/rand"
	"testing"

	"github.com/stretchr/testify/require"
)

// kmeansPlain is Lloyd's algorithm written plainly (a slice per vector
// and centre, every distance summed in full): the oracle of kmeansState.
func kmeansPlain(x [][]float64, k int, rng *rand.Rand) (Result, float64) {
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

// blobs is n vectors of Dims dimensions around c random centres, some
// repeated exactly (clusters of identical points, empty clusters in
// k-means).
func blobs(rng *rand.Rand, n, c int, spread float64) [][]float64 {
	centres := make([][]float64, c)
	for i := range centres {
		centres[i] = make([]float64, Dims)
		for d := range centres[i] {
			centres[i][d] = 2*rng.Float64() - 1
		}
	}
	x := make([][]float64, n)
	for i := range x {
		if i > 0 && rng.Intn(5) == 0 {
			x[i] = append([]float64(nil), x[rng.Intn(i)]...)
			continue
		}
		x[i] = make([]float64, Dims)
		for d := range x[i] {
			x[i][d] = centres[rng.Intn(c)][d] + spread*rng.NormFloat64()
		}
	}
	return x
}

// TestKmeansIsPlain: Cluster's k-means (flat arrays, distances left
// early) gives the plain algorithm's clustering to the bit: the same
// labels, centres, BICs and choice of k, on data with few and many
// clusters, repeated points and every k up to the bound.
func TestKmeansIsPlain(t *testing.T) {
	rng := rand.New(rand.NewSource(9))
	for _, tc := range []struct {
		n, c, maxK, tries int
		spread            float64
		seed              int64
	}{{40, 3, 10, 5, 0.01, 1}, {300, 12, 30, 5, 0.05, 2}, {500, 40, 60, 3, 0.2, 3}, {200, 5, 100, 2, 0.5, 4}, {25, 25, 25, 5, 0, 5}} {
		x := blobs(rng, tc.n, tc.c, tc.spread)
		want := cluster(x, tc.maxK, tc.tries, tc.seed, kmeansPlain)
		got := Cluster(x, tc.maxK, tc.tries, tc.seed)
		require.Equal(t, want, got, "n=%d c=%d maxK=%d", tc.n, tc.c, tc.maxK)
	}
}

// BenchmarkCluster: k ≤ 30 over 2,500 vectors of 40 blobs, the plain
// k-means and Cluster's (make bench; docs/SPEED.md, "the BBV pass
// translated").
func BenchmarkCluster(b *testing.B) {
	x := blobs(rand.New(rand.NewSource(1)), 2500, 40, 0.05)
	for _, v := range []struct {
		name string
		km   func(x [][]float64, k int, rng *rand.Rand) (Result, float64)
	}{{"plain", kmeansPlain}, {"flat", newKmeans(x).run}} {
		b.Run(v.name, func(b *testing.B) {
			for b.Loop() {
				cluster(x, 30, 5, 1, v.km)
			}
		})
	}
}
