package compare

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// golden compares got with testdata/name (go test -update rewrites it).
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(path, got, 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "go test ./compare/ -update writes it")
	assert.Equal(t, string(want), string(got), "%s differs (go test ./compare/ -update, then review the diff)", path)
}

// The CSV, Markdown and JSON of a small comparison, each checked byte
// for byte against a reviewed file.
func TestGolden(t *testing.T) {
	r := results()
	var c, md, js bytes.Buffer
	require.NoError(t, r.WriteCSV(&c))
	r.WriteMarkdown(&md)
	require.NoError(t, r.WriteJSON(&js))
	golden(t, "small.csv", c.Bytes())
	golden(t, "small.md", md.Bytes())
	golden(t, "small.json", js.Bytes())

	// The JSON holds what the plots need: per run the overhead, each
	// metric and the convergence; per profiler the means.
	var rep struct {
		Runs []struct {
			Benchmark, Label string
			OverheadPercent  *float64 `json:"overhead_percent"`
			Scores           []Score
			Convergence      []ConvPoint
		}
		Summary []struct {
			Profiler     string
			MeanOverhead *float64            `json:"mean_overhead_percent"`
			MeanScores   map[string]*float64 `json:"mean_scores"`
		}
	}
	require.NoError(t, json.Unmarshal(js.Bytes(), &rep))
	require.Len(t, rep.Runs, 8)
	a := rep.Runs[1]
	assert.Equal(t, "strat", a.Label)
	require.NotNil(t, a.OverheadPercent)
	assert.Zero(t, *a.OverheadPercent)
	assert.Equal(t, []ConvPoint{{100, 9}, {200, 1.5}}, a.Convergence)
	require.Len(t, rep.Summary, 3)
	assert.InDelta(t, 2.0, *rep.Summary[0].MeanScores["invariance error % (strat §5.3.1)"], 1e-12)
	assert.NotContains(t, js.String(), "host_seconds")
}
