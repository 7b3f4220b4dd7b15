package figures

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// Write draws both files, the same bytes twice (the docs' figures must not
// change when the data do not), links the SVG relative to the document,
// and refuses a figure with no point to draw.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	figs := filepath.Join(dir, "docs", "figures")
	f := Line{Title: "error by interval", XLabel: "interval", YLabel: "error (%)", Series: []Series{
		{Name: "MH4", X: []float64{1, 2, 3}, Y: []float64{5, math.NaN(), 2}},
		{Name: "empty"},
	}}
	md, err := Write(f, figs, "mh", filepath.Join(dir, "docs"))
	require.NoError(t, err)
	require.Equal(t, "![error by interval](figures/mh.svg)\n", md)
	svg, err := os.ReadFile(filepath.Join(figs, "mh.svg"))
	require.NoError(t, err)
	require.Contains(t, string(svg), "<svg")
	require.Contains(t, string(svg), "MH4")
	png, err := os.ReadFile(filepath.Join(figs, "mh.png"))
	require.NoError(t, err)
	require.True(t, bytes.HasPrefix(png, []byte("\x89PNG")))
	_, err = Write(f, figs, "mh", filepath.Join(dir, "docs"))
	require.NoError(t, err)
	again, _ := os.ReadFile(filepath.Join(figs, "mh.svg"))
	require.Equal(t, svg, again, "deterministic")
	_, err = Write(Line{LogX: true, Series: []Series{{Name: "z", X: []float64{0}, Y: []float64{1}}}}, figs, "none", dir)
	require.ErrorContains(t, err, "no points")
}

// Figures go beside the document, or into the output folder without one.
func TestDirs(t *testing.T) {
	f, d := Dirs("docs/EXPERIMENTS.md", "build/x")
	require.Equal(t, [2]string{"docs/figures", "docs"}, [2]string{f, d})
	f, d = Dirs("", "build/x")
	require.Equal(t, [2]string{"build/x/figures", "build/x"}, [2]string{f, d})
}
