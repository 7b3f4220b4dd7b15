package plots

import (
	"bytes"
	"encoding/xml"
	"flag"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/plot/plotter"
)

var update = flag.Bool("update", false, "rewrite testdata/index.html")

var wantFiles = []string{
	"plots/overhead-error-formula-1-error.svg", "plots/overhead-error-formula-1-error.png",
	"plots/overhead-error-invariance-error-5_3_1.svg", "plots/overhead-error-invariance-error-5_3_1.png",
	"plots/convergence-lisp-invariance-error-5_3_1.svg", "plots/convergence-lisp-invariance-error-5_3_1.png",
	"plots/convergence-lz-invariance-error-5_3_1.svg", "plots/convergence-lz-invariance-error-5_3_1.png",
	"plots/overhead-per-program.svg", "plots/overhead-per-program.png",
	"index.html",
}

// TestWriteDeterministic: the same report gives the same files, byte for
// byte, and the files index.html names.
func TestWriteDeterministic(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	fa, err := Write(a, testReport())
	require.NoError(t, err)
	fb, err := Write(b, testReport())
	require.NoError(t, err)
	assert.Equal(t, wantFiles, fa)
	assert.Equal(t, fa, fb)
	for _, f := range fa {
		da, err := os.ReadFile(filepath.Join(a, f))
		require.NoError(t, err)
		db, err := os.ReadFile(filepath.Join(b, f))
		require.NoError(t, err)
		assert.True(t, bytes.Equal(da, db), "%s differs between two writes", f)
	}
}

// svgTexts parses an SVG (failing on malformed XML) and returns its text
// elements' contents.
func svgTexts(t *testing.T, data []byte) []string {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(data))
	var texts []string
	inText := false
	root := ""
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		switch x := tok.(type) {
		case xml.StartElement:
			if root == "" {
				root = x.Name.Local
			}
			inText = x.Name.Local == "text"
		case xml.CharData:
			if inText {
				texts = append(texts, strings.TrimSpace(string(x)))
			}
		case xml.EndElement:
			inText = false
		}
	}
	require.Equal(t, "svg", root)
	return texts
}

// TestFigures: each figure shows what it should and nothing else: the
// scatter of a metric has the profilers scored by it (the DISE profiler,
// unscored, only in the bars), the bars every program, the mean group
// and every profiler, the convergence figure its two profilers; every PNG
// decodes.
func TestFigures(t *testing.T) {
	dir := t.TempDir()
	_, err := Write(dir, testReport())
	require.NoError(t, err)
	read := func(name string) []string {
		data, err := os.ReadFile(filepath.Join(dir, PlotDir, name))
		require.NoError(t, err)
		return svgTexts(t, data)
	}
	formula := read("overhead-error-formula-1-error.svg")
	assert.Contains(t, formula, "stratified-value")
	assert.Contains(t, formula, "multihash-value")
	assert.Contains(t, formula, "mean of a profiler")
	assert.Contains(t, formula, "formula (1) error (%)")
	assert.NotContains(t, formula, "hot-code-region-dise-event")

	inv := read("overhead-error-invariance-error-5_3_1.svg")
	assert.Contains(t, inv, "stratified-value")
	assert.NotContains(t, inv, "multihash-value", "multihash has no invariance score")

	bars := read("overhead-per-program.svg")
	for _, s := range []string{"lisp", "lz", "gametree", "mean", "hot-code-region-dise-event", "stratified-value", "multihash-value", "program"} {
		assert.Contains(t, bars, s)
	}
	conv := read("convergence-lisp-invariance-error-5_3_1.svg")
	assert.Contains(t, conv, "stratified-value")
	assert.Contains(t, conv, "multihash-value")
	assert.Contains(t, conv, "events")

	for _, f := range wantFiles {
		if !strings.HasSuffix(f, ".png") {
			continue
		}
		fh, err := os.Open(filepath.Join(dir, f))
		require.NoError(t, err)
		img, err := png.Decode(fh)
		fh.Close()
		require.NoError(t, err, f)
		assert.Greater(t, img.Bounds().Dx(), 300, f)
		assert.Greater(t, img.Bounds().Dy(), 200, f)
	}
}

// TestCellPoints: the scatter's points and mean marker, by hand.
func TestCellPoints(t *testing.T) {
	pts, mean := cellPoints(testReport(), "stratified-value", "formula (1) error")
	assert.Equal(t, plotter.XYs{{X: 0, Y: 5}, {X: 0.5, Y: 4}, {X: 1, Y: 3}}, pts)
	wantX := (math.Cbrt(1*1.005*1.01) - 1) * 100
	assert.InDelta(t, wantX, mean.X, 1e-12)
	assert.InDelta(t, 4, mean.Y, 1e-12)
	pts, _ = cellPoints(testReport(), "hot-code-region-dise-event", "formula (1) error")
	assert.Empty(t, pts, "a profiler without the metric has no points")
}

func TestMeans(t *testing.T) {
	// +10% and -10%: sqrt(1.1 x 0.9) - 1 = -0.501256...%, not 0.
	assert.InDelta(t, (math.Sqrt(0.99)-1)*100, GeoMeanOverhead([]float64{10, -10}), 1e-12)
	assert.InDelta(t, 0, GeoMeanOverhead([]float64{0, 0}), 1e-15)
	assert.InDelta(t, 100, GeoMeanOverhead([]float64{300, 0}), 1e-12, "ratios 4 and 1: mean 2")
	assert.True(t, math.IsNaN(GeoMeanOverhead(nil)))
	assert.Equal(t, 2.5, Mean([]float64{1, 4}))
	assert.True(t, math.IsNaN(Mean(nil)))
}

// TestPageGolden: index.html of the test report, against
// testdata/index.html (go test -run PageGolden -update rewrites it).
func TestPageGolden(t *testing.T) {
	figs, _, err := Draw(testReport())
	require.NoError(t, err)
	got := Page(testReport(), figs)
	golden := filepath.Join("testdata", "index.html")
	if *update {
		require.NoError(t, os.WriteFile(golden, []byte(got), 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err)
	assert.Equal(t, string(want), got)
	// Every figure's image and both files are referenced.
	for _, f := range figs {
		assert.Contains(t, got, `<img src="`+f.SVG+`"`)
		assert.Contains(t, got, `href="`+f.PNG+`"`)
	}
	assert.NotContains(t, got, "<b>raw</b>", "Markdown cells are escaped")
	assert.Contains(t, got, "<table><tr><td>given</td></tr></table>", "HTML tables are shown as given")
}

func TestTables(t *testing.T) {
	for _, tc := range []struct{ desc, got, want string }{
		{"markdown table with header and escaped pipe",
			markdownHTML("| a | b |\n|---|--:|\n| x \\| y | 1.5% |\n"),
			"<table>\n<tr><th>a</th><th>b</th></tr>\n<tr><td>x | y</td><td class=\"num\">1.5%</td></tr>\n</table>\n"},
		{"markdown text around a table",
			markdownHTML("intro <i>\n| a |\n| 1 |\nafter"),
			"<p>intro &lt;i&gt;</p>\n<table>\n<tr><td>a</td></tr>\n<tr><td class=\"num\">1</td></tr>\n</table>\n<p>after</p>\n"},
		{"csv with a quoted comma",
			csvHTML("p,v\n\"a,b\",-3\n"),
			"<table>\n<tr><th>p</th><th>v</th></tr>\n<tr><td>a,b</td><td class=\"num\">-3</td></tr>\n</table>\n"},
		{"malformed csv is shown as text",
			csvHTML("a,\"b\nc"),
			"<pre>a,&#34;b\nc</pre>\n"},
	} {
		assert.Equal(t, tc.want, tc.got, tc.desc)
	}
	for _, c := range []string{"12", "-0.5%", "1,234", "3x", "1e6"} {
		assert.True(t, numeric(c), c)
	}
	for _, c := range []string{"", "-", "ok", "lisp", "1.2.3a", "%"} {
		assert.False(t, numeric(c), c)
	}
}

// TestOddReports: empty reports, missing values and odd names draw without
// error; NaN values are left out.
func TestOddReports(t *testing.T) {
	files, err := Write(t.TempDir(), &Report{})
	require.NoError(t, err)
	assert.Equal(t, []string{"index.html"}, files)

	r := &Report{
		Cells: []Cell{
			{Program: "a/b c", Profiler: "p", Overhead: math.NaN(), Errors: []Score{{"m", math.Inf(1)}}},
			{Program: "x", Profiler: "q", Overhead: -100, Errors: []Score{{"m", 3}}},
		},
		Convergence: []Series{
			{Program: "a/b c", Profiler: "only-in-series", Metric: "m", Events: []float64{0, 10}, Error: []float64{5, math.NaN()}},
			{Program: "a/b c", Profiler: "p", Metric: "m", Events: nil, Error: nil},
		},
	}
	files, err = Write(t.TempDir(), r)
	require.NoError(t, err)
	assert.Contains(t, files, "plots/convergence-a-b-c-m.svg")
	assert.Contains(t, files, "plots/overhead-error-m.svg")
}

func TestSlug(t *testing.T) {
	assert.Equal(t, "invariance-error-5_3_1", slug("invariance error (§5.3.1)"))
	assert.Equal(t, "figure", slug("§§"))
	assert.Len(t, slug(strings.Repeat("a", 200)), 80)
}
