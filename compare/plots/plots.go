package plots

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Figure is one drawn figure: its files (relative to the output folder)
// and what the page says about it.
type Figure struct {
	Title   string
	Caption string
	SVG     string // plots/NAME.svg
	PNG     string // plots/NAME.png
}

// PlotDir is the folder, inside the output folder, that holds the figures.
const PlotDir = "plots"

// Write draws every figure of r into dir/plots/ (SVG and PNG) and writes
// dir/index.html, which shows every table and figure. It returns the files
// written, relative to dir, in order.
func Write(dir string, r *Report) ([]string, error) {
	figs, files, err := Draw(r)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Join(dir, PlotDir), 0o755); err != nil {
		return nil, err
	}
	var written []string
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(dir, f.name), f.data, 0o644); err != nil {
			return written, err
		}
		written = append(written, f.name)
	}
	if err := os.WriteFile(filepath.Join(dir, "index.html"), []byte(Page(r, figs)), 0o644); err != nil {
		return written, err
	}
	return append(written, "index.html"), nil
}

// file is one figure file's name (relative to the output folder) and bytes.
type file struct {
	name string
	data []byte
}

// Draw renders r's figures in memory: the figures in page order, and
// their files.
func Draw(r *Report) ([]Figure, []file, error) {
	var figs []Figure
	var files []file
	add := func(name, title, caption string, p *plot.Plot, leg *legend, w, h vg.Length) error {
		p.Title.Text = title
		f := Figure{Title: title, Caption: caption,
			SVG: PlotDir + "/" + name + ".svg", PNG: PlotDir + "/" + name + ".png"}
		for _, format := range []string{"svg", "png"} {
			data, err := render(p, leg, w, h, format)
			if err != nil {
				return fmt.Errorf("plots: %s.%s: %v", name, format, err)
			}
			files = append(files, file{PlotDir + "/" + name + "." + format, data})
		}
		figs = append(figs, f)
		return nil
	}
	profs := profilerOrder(r)
	ovLabel := r.OverheadLabel
	if ovLabel == "" {
		ovLabel = "overhead (% of the unprofiled run's cycles)"
	}
	names := map[string]bool{}
	unique := func(base string) string {
		n := slug(base)
		for i := 2; names[n]; i++ {
			n = fmt.Sprintf("%s-%d", slug(base), i)
		}
		names[n] = true
		return n
	}

	for _, metric := range metrics(r) {
		p, leg, err := overheadError(r, profs, metric, ovLabel)
		if err != nil {
			return nil, nil, err
		}
		caption := "One point per program and profiler; the larger hollow marker is the profiler's mean " +
			"(overhead: the geometric mean of the ratios, profiled over unprofiled, minus 1; error: the arithmetic mean)."
		if err := add(unique("overhead-error-"+metric), "Overhead against error: "+metric, caption, p, leg, 5*vg.Inch, 3.5*vg.Inch); err != nil {
			return nil, nil, err
		}
	}
	for _, key := range seriesKeys(r) {
		p, leg, err := convergence(r, profs, key)
		if err != nil {
			return nil, nil, err
		}
		title := "Error against events: " + key.program
		if len(metricsOf(r, key.program)) > 1 {
			title += " (" + key.metric + ")"
		}
		if err := add(unique("convergence-"+key.program+"-"+key.metric), title,
			"The profile's error after each number of events, a line per profiler.", p, leg, 5*vg.Inch, 3.5*vg.Inch); err != nil {
			return nil, nil, err
		}
	}
	if len(r.Cells) > 0 {
		p, leg, w, err := overheadBars(r, profs, ovLabel)
		if err != nil {
			return nil, nil, err
		}
		if err := add(unique("overhead-per-program"), "Overhead per program",
			"A bar per profiler; the last group is the mean over the programs (the geometric mean of the ratios, profiled over unprofiled, minus 1).",
			p, leg, w, 3.5*vg.Inch); err != nil {
			return nil, nil, err
		}
	}
	return figs, files, nil
}

// render draws p with its legend in a strip to the right of the plot.
func render(p *plot.Plot, leg *legend, w, h vg.Length, format string) ([]byte, error) {
	lw := vg.Length(0)
	if leg != nil {
		lw = leg.width()
	}
	c, err := draw.NewFormattedCanvas(w+lw, h, format)
	if err != nil {
		return nil, err
	}
	dc := draw.New(c)
	p.Draw(draw.Crop(dc, 0, -lw, 0, 0))
	if leg != nil {
		leg.Draw(draw.Crop(dc, w+vg.Points(4), 0, 0, -vg.Points(6)))
	}
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// legend is a plot legend that remembers its entries' texts (for its
// width: plot.Legend keeps them private).
type legend struct {
	plot.Legend
	names []string
}

func newLegend() *legend {
	l := &legend{Legend: plot.NewLegend()}
	l.Top, l.Left = true, true
	return l
}

func (l *legend) add(name string, thumbs ...plot.Thumbnailer) {
	l.Add(name, thumbs...)
	l.names = append(l.names, name)
}

func (l *legend) width() vg.Length {
	var max vg.Length
	for _, n := range l.names {
		if w := l.TextStyle.Width(n); w > max {
			max = w
		}
	}
	return max + l.ThumbnailWidth + vg.Points(16)
}

// style is profiler i's color and glyph, the same in every figure.
func style(i int) (color.Color, draw.GlyphDrawer) {
	return plotutil.Color(i), plotutil.Shape(i)
}

// overheadError is the overhead-against-error scatter for one metric.
func overheadError(r *Report, profs []string, metric, ovLabel string) (*plot.Plot, *legend, error) {
	p := plot.New()
	p.X.Label.Text = ovLabel
	p.Y.Label.Text = metric + " (%)"
	p.Add(plotter.NewGrid())
	leg := newLegend()
	for i, prof := range profs {
		pts, mean := cellPoints(r, prof, metric)
		if len(pts) == 0 {
			continue
		}
		col, shape := style(i)
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return nil, nil, err
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: col, Shape: shape, Radius: vg.Points(3.5)}
		p.Add(sc)
		if finite(mean.X) && finite(mean.Y) {
			ms, err := plotter.NewScatter(plotter.XYs{mean})
			if err != nil {
				return nil, nil, err
			}
			ms.GlyphStyle = draw.GlyphStyle{Color: col, Shape: draw.RingGlyph{}, Radius: vg.Points(7)}
			p.Add(ms)
		}
		leg.add(prof, sc)
	}
	if len(leg.names) > 0 {
		leg.add("mean of a profiler", glyphThumb{draw.GlyphStyle{Color: color.Gray{Y: 96}, Shape: draw.RingGlyph{}, Radius: vg.Points(5)}})
	}
	Pad(&p.X, false)
	Pad(&p.Y, false)
	return p, leg, nil
}

// Pad widens an axis by 8% of its range on each side (on a log axis, by a
// factor), so that no point sits on the frame; a bar axis keeps its zero.
func Pad(a *plot.Axis, keepZero bool) {
	if _, log := a.Scale.(plot.LogScale); log {
		a.Min, a.Max = a.Min/1.25, a.Max*1.25
		return
	}
	d := (a.Max - a.Min) * 0.08
	if d == 0 {
		d = math.Max(math.Abs(a.Max)*0.05, 1)
	}
	if !(keepZero && a.Min == 0) {
		a.Min -= d
	}
	if !(keepZero && a.Max == 0) {
		a.Max += d
	}
}

// glyphThumb is a legend thumbnail of one glyph.
type glyphThumb struct{ draw.GlyphStyle }

func (g glyphThumb) Thumbnail(c *draw.Canvas) { c.DrawGlyph(g.GlyphStyle, c.Center()) }

// cellPoints returns profiler prof's (overhead, error) points for metric,
// one per program, and their mean: the geometric-mean overhead and the
// arithmetic-mean error.
func cellPoints(r *Report, prof, metric string) (pts plotter.XYs, mean plotter.XY) {
	var ovs, errs []float64
	for _, c := range r.Cells {
		if c.Profiler != prof {
			continue
		}
		for _, s := range c.Errors {
			if s.Metric == metric && finite(s.Value) && finite(c.Overhead) {
				pts = append(pts, plotter.XY{X: c.Overhead, Y: s.Value})
				ovs = append(ovs, c.Overhead)
				errs = append(errs, s.Value)
			}
		}
	}
	return pts, plotter.XY{X: GeoMeanOverhead(ovs), Y: Mean(errs)}
}

type seriesKey struct{ program, metric string }

// seriesKeys lists the (program, metric) pairs of the convergence series
// in the order they first appear.
func seriesKeys(r *Report) []seriesKey {
	var keys []seriesKey
	seen := map[seriesKey]bool{}
	for _, s := range r.Convergence {
		k := seriesKey{s.Program, s.Metric}
		if !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	return keys
}

func metricsOf(r *Report, program string) []string {
	var ms []string
	for _, k := range seriesKeys(r) {
		if k.program == program {
			ms = append(ms, k.metric)
		}
	}
	return ms
}

// convergence is one program's error-against-events figure for one metric.
func convergence(r *Report, profs []string, key seriesKey) (*plot.Plot, *legend, error) {
	p := plot.New()
	p.X.Label.Text = "events"
	p.Y.Label.Text = key.metric + " (%)"
	p.Add(plotter.NewGrid())
	leg := newLegend()
	logX := true
	for _, s := range r.Convergence {
		if s.Program == key.program && s.Metric == key.metric {
			for _, e := range s.Events {
				if !(e > 0) {
					logX = false
				}
			}
		}
	}
	for i, prof := range profs {
		for _, s := range r.Convergence {
			if s.Program != key.program || s.Metric != key.metric || s.Profiler != prof {
				continue
			}
			var pts plotter.XYs
			for j := range s.Events {
				if j < len(s.Error) && finite(s.Events[j]) && finite(s.Error[j]) {
					pts = append(pts, plotter.XY{X: s.Events[j], Y: s.Error[j]})
				}
			}
			if len(pts) == 0 {
				continue
			}
			col, shape := style(i)
			l, sc, err := plotter.NewLinePoints(pts)
			if err != nil {
				return nil, nil, err
			}
			l.Color = col
			l.Width = vg.Points(1.2)
			sc.GlyphStyle = draw.GlyphStyle{Color: col, Shape: shape, Radius: vg.Points(2)}
			p.Add(l, sc)
			leg.add(prof, l, sc)
		}
	}
	if logX {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	}
	Pad(&p.X, false)
	Pad(&p.Y, false)
	return p, leg, nil
}

// overheadBars is the grouped bar chart: a group per program (and a last
// one for the mean), a bar per profiler. It returns the plot width too.
func overheadBars(r *Report, profs []string, ovLabel string) (*plot.Plot, *legend, vg.Length, error) {
	programs := programOrder(r)
	groups := append(append([]string(nil), programs...), "mean")
	p := plot.New()
	p.Y.Label.Text = ovLabel
	p.Add(plotter.NewGrid())
	leg := newLegend()
	barW := vg.Points(math.Max(3, math.Min(14, 60/float64(len(profs)))))

	var barProfs []int // the profilers with cells, by index in profs
	for i, prof := range profs {
		for _, c := range r.Cells {
			if c.Profiler == prof {
				barProfs = append(barProfs, i)
				break
			}
		}
	}
	for k, i := range barProfs {
		prof := profs[i]
		vals := make(plotter.Values, len(groups))
		var ratios []float64
		for j, prog := range programs {
			for _, c := range r.Cells {
				if c.Program == prog && c.Profiler == prof && finite(c.Overhead) {
					vals[j] = c.Overhead
					ratios = append(ratios, c.Overhead)
				}
			}
		}
		if m := GeoMeanOverhead(ratios); finite(m) {
			vals[len(programs)] = m
		}
		col, _ := style(i)
		b, err := plotter.NewBarChart(vals, barW)
		if err != nil {
			return nil, nil, 0, err
		}
		b.Color = col
		b.LineStyle.Width = 0
		b.Offset = vg.Length(float64(k)-float64(len(barProfs)-1)/2) * barW
		p.Add(b)
		leg.add(prof, b)
	}
	p.NominalX(groups...)
	p.X.Label.Text = "program"
	Pad(&p.Y, true)
	w := vg.Length(len(groups))*(vg.Length(len(barProfs))*barW+vg.Points(14)) + vg.Inch
	if w < 5*vg.Inch {
		w = 5 * vg.Inch
	}
	return p, leg, w, nil
}

// GeoMeanOverhead is the mean of overheads in percent as the geometric
// mean of the cycle ratios minus 1 (issue 23: overheads can be zero or
// negative, so the ratios are averaged, not the percentages). NaN for none.
func GeoMeanOverhead(percents []float64) float64 {
	if len(percents) == 0 {
		return math.NaN()
	}
	s := 0.0
	for _, o := range percents {
		s += math.Log(1 + o/100)
	}
	return (math.Exp(s/float64(len(percents))) - 1) * 100
}

// Mean is the arithmetic mean; NaN for none.
func Mean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// profilerOrder lists the profilers in the order they first appear in the
// cells, then in the series: each keeps its color in every figure.
func profilerOrder(r *Report) []string {
	var out []string
	seen := map[string]bool{}
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, c := range r.Cells {
		add(c.Profiler)
	}
	for _, s := range r.Convergence {
		add(s.Profiler)
	}
	return out
}

func programOrder(r *Report) []string {
	var out []string
	seen := map[string]bool{}
	for _, c := range r.Cells {
		if !seen[c.Program] {
			seen[c.Program] = true
			out = append(out, c.Program)
		}
	}
	return out
}

// metrics lists the error metrics of the cells, sorted.
func metrics(r *Report) []string {
	seen := map[string]bool{}
	var out []string
	for _, c := range r.Cells {
		for _, s := range c.Errors {
			if !seen[s.Metric] {
				seen[s.Metric] = true
				out = append(out, s.Metric)
			}
		}
	}
	sort.Strings(out)
	return out
}

// slug makes a file name from a title: lower-case letters, digits and '-'.
func slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '.' || r == '_':
			if r == '.' {
				r = '_'
			}
			b.WriteRune(r)
			dash = false
		case !dash && b.Len() > 0:
			b.WriteByte('-')
			dash = true
		}
	}
	out := strings.TrimRight(b.String(), "-")
	if out == "" {
		out = "figure"
	}
	if len(out) > 80 {
		out = out[:80]
	}
	return out
}
