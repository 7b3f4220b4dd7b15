// Package figures draws the experiments' figures into docs/figures/ (SVG
// and PNG) with gonum plot, in the style of compare/plots: a grid, one
// color and glyph per series (plotutil's), the legend at the top left.
package figures

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"

	"github.com/rvsim/rvsim/compare/plots"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Series is one line of a figure: its name and points (NaN and infinite
// points are left out).
type Series struct {
	Name string
	X, Y []float64
}

// Line is a line figure.
type Line struct {
	Title, XLabel, YLabel string
	LogX                  bool
	Series                []Series
}

// Write draws f into dir/name.svg and dir/name.png (making dir) and
// returns the Markdown that shows it, linking the SVG by its path relative
// to the document docDir. A figure without a point is an error.
func Write(f Line, dir, name, docDir string) (string, error) {
	p := plot.New()
	p.Title.Text = f.Title
	p.X.Label.Text, p.Y.Label.Text = f.XLabel, f.YLabel
	p.Add(plotter.NewGrid())
	leg := plot.NewLegend()
	leg.Top, leg.Left = true, true
	var names []string
	n := 0
	for i, s := range f.Series {
		var pts plotter.XYs
		for j := range s.X {
			if j < len(s.Y) && finite(s.X[j]) && finite(s.Y[j]) && (!f.LogX || s.X[j] > 0) {
				pts = append(pts, plotter.XY{X: s.X[j], Y: s.Y[j]})
			}
		}
		if len(pts) == 0 {
			continue
		}
		l, sc, err := plotter.NewLinePoints(pts)
		if err != nil {
			return "", err
		}
		l.Color = plotutil.Color(i)
		l.Width = vg.Points(1.2)
		sc.GlyphStyle = draw.GlyphStyle{Color: plotutil.Color(i), Shape: plotutil.Shape(i), Radius: vg.Points(2)}
		p.Add(l, sc)
		leg.Add(s.Name, l, sc)
		names = append(names, s.Name)
		n += len(pts)
	}
	if n == 0 {
		return "", fmt.Errorf("figure %s: no points", name)
	}
	if f.LogX {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	}
	plots.Pad(&p.X, false)
	plots.Pad(&p.Y, false)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	for _, format := range []string{"svg", "png"} {
		data, err := render(p, leg, names, format)
		if err != nil {
			return "", err
		}
		if err := os.WriteFile(filepath.Join(dir, name+"."+format), data, 0o644); err != nil {
			return "", err
		}
	}
	rel, err := filepath.Rel(docDir, filepath.Join(dir, name+".svg"))
	if err != nil {
		rel = filepath.Join(dir, name+".svg")
	}
	return fmt.Sprintf("![%s](%s)\n", f.Title, filepath.ToSlash(rel)), nil
}

// render draws p, 16 by 9 cm, in format, with its legend in a strip to
// the right of it (as compare/plots does: inside, it would hide lines).
func render(p *plot.Plot, leg plot.Legend, names []string, format string) ([]byte, error) {
	var lw vg.Length
	for _, n := range names {
		lw = max(lw, leg.TextStyle.Width(n))
	}
	lw += leg.ThumbnailWidth + vg.Points(16)
	w, h := 16*vg.Centimeter, 9*vg.Centimeter
	c, err := draw.NewFormattedCanvas(w+lw, h, format)
	if err != nil {
		return nil, err
	}
	dc := draw.New(c)
	p.Draw(draw.Crop(dc, 0, -lw, 0, 0))
	leg.Draw(draw.Crop(dc, w+vg.Points(4), 0, 0, -vg.Points(6)))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// Dirs is where an experiment's figures go and the folder their links are
// relative to: figures/ beside the document doc (docs/figures/), or, with
// no document, figures/ in the experiment's output folder out.
func Dirs(doc, out string) (figDir, docDir string) {
	docDir = out
	if doc != "" {
		docDir = filepath.Dir(doc)
	}
	return filepath.Join(docDir, "figures"), docDir
}
