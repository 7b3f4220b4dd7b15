package main

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/profhw"
)

// TestSpliceFiles: each file's body replaces what is between its name's
// markers, the rest is kept; a missing marker pair is an error.
func TestSpliceFiles(t *testing.T) {
	dir := t.TempDir()
	doc := filepath.Join(dir, "doc.md")
	require.NoError(t, os.WriteFile(doc, []byte("intro\n<!-- pathexp:t1 -->\nold table\n<!-- /pathexp:t1 -->\nprose\n"), 0o644))
	t1 := filepath.Join(dir, "t1.md")
	require.NoError(t, os.WriteFile(t1, []byte("| a |\n|---|\n"), 0o644))
	require.NoError(t, spliceFiles(doc, []string{t1}))
	got, err := os.ReadFile(doc)
	require.NoError(t, err)
	assert.Equal(t, "intro\n<!-- pathexp:t1 -->\n\n| a |\n|---|\n\n<!-- /pathexp:t1 -->\nprose\n", string(got))
	require.NoError(t, spliceFiles(doc, []string{t1}))
	again, err := os.ReadFile(doc)
	require.NoError(t, err)
	assert.Equal(t, string(got), string(again), "idempotent")
	t2 := filepath.Join(dir, "t2.md")
	require.NoError(t, os.WriteFile(t2, []byte("x"), 0o644))
	assert.ErrorContains(t, spliceFiles(doc, []string{t2}), "pathexp:t2")
}

// The provenance names every distinct configuration the runs used, the
// same whatever order the runs recorded them in.
func TestProvenanceOrder(t *testing.T) {
	a := profhw.NewUnitConfig("a", "path", map[string]any{"hpt.entries": int64(512)})
	b := profhw.NewUnitConfig("b", "path", map[string]any{"hpt.entries": int64(128)})
	record(nil, []*profhw.UnitConfig{a, b})
	p1 := provenance(nil).Markdown()
	used.machines, used.units = nil, nil
	record(nil, []*profhw.UnitConfig{b})
	record(nil, []*profhw.UnitConfig{a, b})
	require.Equal(t, p1, provenance(nil).Markdown())
	record(nil, []*profhw.UnitConfig{profhw.NewUnitConfig("c", "path", nil)})
	require.NotEqual(t, p1, provenance(nil).Markdown())
	used.machines, used.units = nil, nil
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

// Experiment 1's figure: a line per associativity and index through the
// mean complete overlaps, linked relative to the figures' parent folder;
// -figures "" draws nothing.
func TestOverlapFigure(t *testing.T) {
	dir := t.TempDir()
	old := *figDir
	defer func() { *figDir = old }()
	*figDir = filepath.Join(dir, "figures")
	hc := []hptCfg{{128, 4}, {512, 4}, {512, 2}}
	cols := map[string][]float64{"128x4-plb c": {50, 70}, "512x4-plb c": {88, 90}, "512x2-plb c": {80}, "512x4-pb c": {70}}
	out := captureStdout(t, func() { require.NoError(t, overlapFigure(hc, cols)) })
	require.Equal(t, "\n![Experiment 1: mean complete overlap by HPT size, test inputs](figures/pathprof-exp1-hpt-test.svg)\n", out)
	svg, err := os.ReadFile(filepath.Join(dir, "figures", "pathprof-exp1-hpt-test.svg"))
	require.NoError(t, err)
	require.Contains(t, string(svg), "4-way plb")
	require.Contains(t, string(svg), "4-way pb")
	require.NotContains(t, string(svg), "2-way pb", "no 512x2 pb overlaps: no line")
	*figDir = ""
	require.Empty(t, captureStdout(t, func() { require.NoError(t, overlapFigure(hc, cols)) }))
}

// captureStdout is what f prints.
func captureStdout(t *testing.T, f func()) string {
	r, w, err := os.Pipe()
	require.NoError(t, err)
	old := os.Stdout
	os.Stdout = w
	f()
	os.Stdout = old
	require.NoError(t, w.Close())
	data, err := io.ReadAll(r)
	require.NoError(t, err)
	return string(data)
}
