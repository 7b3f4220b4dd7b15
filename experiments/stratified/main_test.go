package main

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// The cells against hand computations: the mean and range over seeds,
// the median of events with "never" above every count.
func TestCells(t *testing.T) {
	nan := math.NaN()
	for _, tc := range []struct {
		desc string
		got  string
		want string
	}{
		{"mean and range", cell([]float64{1, 2, 4.5}, 2), "2.50 [1.00–4.50]"},
		{"seeds agree", cell([]float64{3, 3, 3}, 1), "3.0"},
		{"a seed without an answer", cell([]float64{1, nan}, 2), "–"},
		{"median of five", eventsCell([]float64{50e3, 150e3, 100e3, 1.2e6, 200e3}), "150K [50K–1.20M]"},
		{"never counts above", eventsCell([]float64{nan, 50e3, nan}), "never [50K–never]"},
		{"median of four", eventsCell([]float64{100e3, 200e3, 300e3, 400e3}), "250K [100K–400K]"},
		{"all never", eventsCell([]float64{nan, nan}), "never"},
	} {
		t.Run(tc.desc, func(t *testing.T) { require.Equal(t, tc.want, tc.got) })
	}
	require.InDelta(t, 1.0, correlation([]float64{1, 2, 3}, []float64{2, 4, 6}), 1e-12)
	require.InDelta(t, -1.0, correlation([]float64{1, 2, 3}, []float64{3, 2, 1}), 1e-12)
}
