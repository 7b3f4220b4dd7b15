package main

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The HyperLogLog sketch estimates distinct counts within a few standard
// errors (0.8%) from tens to millions, and repeats ignore duplicates.
func TestHLL(t *testing.T) {
	for _, n := range []int{10, 1000, 50_000, 2_000_000} {
		var h hll
		for rep := 0; rep < 3; rep++ {
			for i := 0; i < n; i++ {
				h.add(mix(uint64(i)))
			}
		}
		got := h.estimate()
		assert.InDelta(t, 1, got/float64(n), 0.03, "n=%d: estimate %.0f", n, got)
	}
	var empty hll
	assert.Equal(t, 0.0, empty.estimate())
	assert.False(t, math.IsNaN(empty.estimate()))
}

func TestCommas(t *testing.T) {
	assert.Equal(t, "0", commas(0))
	assert.Equal(t, "999", commas(999))
	assert.Equal(t, "1,000", commas(1000))
	assert.Equal(t, "2,280,389,890", commas(2280389890))
}
