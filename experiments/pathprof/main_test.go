package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSpliceOne: the body replaces what is between the markers, the rest
// is kept; a missing marker is an error.
func TestSpliceOne(t *testing.T) {
	doc := "intro\n<!-- pathexp:t1 -->\nold table\n<!-- /pathexp:t1 -->\nprose\n"
	got, err := spliceOne(doc, "t1", "| a |\n|---|\n")
	require.NoError(t, err)
	assert.Equal(t, "intro\n<!-- pathexp:t1 -->\n| a |\n|---|\n<!-- /pathexp:t1 -->\nprose\n", got)
	again, err := spliceOne(got, "t1", "| a |\n|---|\n")
	require.NoError(t, err)
	assert.Equal(t, got, again, "idempotent")
	_, err = spliceOne(doc, "t2", "x")
	assert.ErrorContains(t, err, "pathexp:t2")
}

// TestInterpAtFP: the BBV curve (sensitivity against false positives) at
// a false-positive rate between two thresholds' points, by hand.
func TestInterpAtFP(t *testing.T) {
	ms := [][4]float64{{0, 0, 90, 20}, {0, 0, 80, 10}, {0, 0, 60, 2}}
	x, ok := interpAtFP(ms, 15)
	require.True(t, ok)
	assert.InDelta(t, 85, x, 1e-9)
	x, ok = interpAtFP(ms, 4)
	require.True(t, ok)
	assert.InDelta(t, 65, x, 1e-9) // 60 + (4-2)/(10-2)*20
	_, ok = interpAtFP(ms, 30)
	assert.False(t, ok)
	_, ok = interpAtFP(ms, 1)
	assert.False(t, ok)
}
