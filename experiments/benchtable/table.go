package main

// The table's assembly: pure functions from the measured runs (Report) to
// the Markdown `make bench` prints. Nothing here runs or times anything,
// so table_test.go checks it against hand-computed figures and a golden file.

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"github.com/rvsim/rvsim/suite"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Times is one run's host time on both clocks.
type Times = suite.Times

// Geomean is the geometric mean of xs, NaN when xs is empty or holds a
// value that is not positive (a failed run must not pass as a figure).
func Geomean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := 0.0
	for _, x := range xs {
		if !(x > 0) || math.IsInf(x, 0) {
			return math.NaN()
		}
		s += math.Log(x)
	}
	return math.Exp(s / float64(len(xs)))
}

// MIPS is millions of instructions per second; NaN without a time.
func MIPS(insts uint64, secs float64) float64 {
	if !(secs > 0) {
		return math.NaN()
	}
	return float64(insts) / secs / 1e6
}

// Ratio is a/b; NaN when either is missing.
func Ratio(a, b float64) float64 {
	if !(a > 0) || !(b > 0) {
		return math.NaN()
	}
	return a / b
}

// Goal is a target a figure meets or not: at most (AtMost) or at least Value.
type Goal struct {
	AtMost bool
	Value  float64
}

// Met is "yes", "no", or "—" when the figure is missing (NaN).
func (g Goal) Met(x float64) string {
	switch {
	case math.IsNaN(x):
		return "—"
	case g.AtMost && x <= g.Value, !g.AtMost && x >= g.Value:
		return "yes"
	}
	return "no"
}

// Issue 25's goals (and issue 20's for sampled simulation).
var (
	goalQemuRatio       = Goal{AtMost: true, Value: 2} // rvsim time / qemu-riscv64 time, geomean
	goalTimingMIPS      = Goal{Value: 20}              // timing MIPS, geomean, default preset
	goalHardwareAlone   = Goal{Value: 0.8}             // a unit's hardware alone, share of plain speed
	goalWithReference   = Goal{Value: 0.5}             // a unit with its exact reference
	goalSampledError    = Goal{AtMost: true, Value: 3} // |sampled CPI error| in percent, every ref input
	goalSampledSpeedup  = Goal{Value: 20}              // speed-up over the full timing run, every real-suite ref input
	peerTimingPublished = "ZSim, Sniper about 10 MIPS (published); gem5 O3 about 0.1"
)

// Machine is what the caption says about the host.
type Machine struct {
	CPU                string
	Cores              int
	LoadStart, LoadEnd string // /proc/loadavg's first three fields
	Start, End         time.Time
}

// Bench is one benchmark input's functional, qemu-riscv64 and timing runs.
type Bench struct {
	Name        string
	Insts       uint64  // functional run's instructions
	Rvsim, Qemu []Times // one per round, in the order run (alternating)
	TimingInsts uint64
	Timing      []Times // timing mode (default preset), one per timing round
	Why         string  // why a functional or qemu-riscv64 run failed ("": none did)
	TimingWhy   string  // why a timing run failed
}

// ProfConfig is one profhw configuration measured against plain runs: a
// preset as shipped (with its exact reference where it has one) or its
// hardware alone (error.exact = false).
type ProfConfig struct {
	Preset        string
	HardwareAlone bool
	NoReference   bool   // the preset's units keep no reference (the phase tracker): the hardware alone as shipped
	Mode          string // functional or timing
	// Interpreted marks the plain functional run that interprets every
	// instruction (--jit off): the basis of the interpreter's share. The
	// other functional runs translate, as rvsim runs by default.
	Interpreted bool
	// Runs holds, per round, each program's times, in Programs order.
	Runs [][]Times
	Why  string // why a run failed
}

// Label names the configuration in the table.
func (c ProfConfig) Label() string {
	switch {
	case c.HardwareAlone:
		return "`" + c.Preset + "`, hardware alone"
	case c.NoReference:
		return "`" + c.Preset + "` (no reference)"
	}
	return "`" + c.Preset + "`"
}

// Goal is the configuration's goal and its words: the hardware alone at
// least 80% of plain speed, with its exact reference at least 50%.
func (c ProfConfig) Goal() (Goal, string) {
	if c.HardwareAlone || c.NoReference {
		return goalHardwareAlone, "goal ≥ 80% (hardware alone)"
	}
	return goalWithReference, "goal ≥ 50% (with its reference)"
}

// Report is everything measured in one `make bench` run.
type Report struct {
	Machine     Machine
	Suite       string
	Input       string // functional, qemu and timing runs
	Rounds      int    // alternating rvsim/qemu rounds
	Clock       string // cpu or wall: the clock the figures use
	Benches     []Bench
	ProfInputs  map[string]string // mode -> input of the profhw runs
	ProfRounds  int
	Programs    []string     // the profhw runs' programs
	Plain       []ProfConfig // the plain runs, one per mode (Preset "")
	Prof        []ProfConfig
	SamplingDir string
	Sampling    []SamplingTable
	// CarriedSampling are the sampled rows of the table this one replaces,
	// kept when SamplingDir holds no table (the sampling runs take hours
	// and their folder is not in the repository); their source says so.
	CarriedSampling []Row
	Command         string // how to re-run
}

// SamplingTable is one table experiments/sampling wrote (NAME.md in its -out).
type SamplingTable struct {
	Name     string // the file's base name without .md (builtin-ref, real-ref)
	Suite    string // from its caption
	Input    string
	Modified time.Time // the file's modification time: when it was measured
	Version  string    // the rvsim version of its provenance line
	Rows     []SamplingRow
	Failed   []string // benchmarks whose row says failed
}

// SamplingRow is one benchmark's sampled CPI error (percent) and speed-ups.
type SamplingRow struct {
	Name                        string
	ErrorPct, Speedup, WithPlan float64
}

// ParseSampling reads a table experiments/sampling wrote: its caption
// (Suite S, I inputs; …), the rows' error, speed-up and "with plan"
// columns, and its provenance line (at rvsim VERSION). A file without
// such a table is an error naming the file and line.
// ErrNoSampledRuns is ParseSampling's error for a table of
// experiments/sampling without sampled runs (-k-sweep's), which has no
// speed-up to read.
var ErrNoSampledRuns = errors.New("a table without sampled runs (-k-sweep's \"k ≤ N\" columns)")

func ParseSampling(name string, text []byte) (SamplingTable, error) {
	t := SamplingTable{Name: name}
	var cols map[string]int
	sc := bufio.NewScanner(bytes.NewReader(text))
	sc.Buffer(nil, 1<<20)
	line := 0
	for sc.Scan() {
		line++
		s := strings.TrimSpace(sc.Text())
		switch {
		case strings.HasPrefix(s, "Suite "):
			head, _, _ := strings.Cut(strings.TrimPrefix(s, "Suite "), ";")
			suite, input, ok := strings.Cut(head, ", ")
			if !ok || !strings.HasSuffix(input, " inputs") {
				return t, fmt.Errorf("%s.md:%d: caption: want \"Suite NAME, INPUT inputs;\", found %q", name, line, head)
			}
			t.Suite, t.Input = suite, strings.TrimSuffix(input, " inputs")
		case strings.HasPrefix(s, "<sub>Generated by"):
			if _, v, ok := strings.Cut(s, " at rvsim "); ok {
				t.Version, _, _ = strings.Cut(v, ";")
				t.Version = strings.TrimSuffix(t.Version, ".</sub>")
			}
		case strings.HasPrefix(s, "| benchmark |"):
			cols = map[string]int{}
			for i, c := range splitRow(s) {
				if _, dup := cols[c]; !dup {
					cols[c] = i
				}
			}
			for c := range cols {
				if strings.HasPrefix(c, "k ≤ ") {
					// -k-sweep's clustering errors: no sampled run to time.
					return t, fmt.Errorf("%s.md:%d: %w", name, line, ErrNoSampledRuns)
				}
			}
			for _, want := range []string{"error", "speed-up", "with plan"} {
				if _, ok := cols[want]; !ok {
					return t, fmt.Errorf("%s.md:%d: table header has no %q column", name, line, want)
				}
			}
		case cols != nil && strings.HasPrefix(s, "|---"):
		case cols != nil && strings.HasPrefix(s, "|"):
			cells := splitRow(s)
			if len(cells) > 1 && strings.HasPrefix(cells[1], "failed") {
				t.Failed = append(t.Failed, cells[0])
				continue
			}
			r := SamplingRow{Name: cells[0]}
			var err error
			for _, f := range []struct {
				col string
				dst *float64
				cut string
			}{{"error", &r.ErrorPct, "%"}, {"speed-up", &r.Speedup, "×"}, {"with plan", &r.WithPlan, "×"}} {
				i := cols[f.col]
				if i >= len(cells) {
					return t, fmt.Errorf("%s.md:%d: %s: no %q cell", name, line, cells[0], f.col)
				}
				if *f.dst, err = strconv.ParseFloat(strings.TrimSuffix(cells[i], f.cut), 64); err != nil {
					return t, fmt.Errorf("%s.md:%d: %s: %q cell %q: want a number followed by %s", name, line, cells[0], f.col, cells[i], f.cut)
				}
			}
			t.Rows = append(t.Rows, r)
		case cols != nil:
			cols = nil // the table ended
		}
	}
	if t.Suite == "" {
		return t, fmt.Errorf("%s.md: no caption (\"Suite NAME, INPUT inputs; …\"): not a table of experiments/sampling", name)
	}
	if len(t.Rows) == 0 && len(t.Failed) == 0 {
		return t, fmt.Errorf("%s.md: no table rows", name)
	}
	return t, nil
}

// splitRow is a Markdown table row's cells, trimmed, without the outer bars.
func splitRow(s string) []string {
	s = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(s), "|"), "|")
	cells := strings.Split(s, "|")
	for i := range cells {
		cells[i] = strings.TrimSpace(cells[i])
	}
	return cells
}

// MaxAbsError is the largest |error| of the table's rows, in percent, and
// the benchmark it belongs to; NaN without rows.
func (t SamplingTable) MaxAbsError() (float64, string) {
	m, who := math.NaN(), ""
	for _, r := range t.Rows {
		if math.IsNaN(m) || math.Abs(r.ErrorPct) > m {
			m, who = math.Abs(r.ErrorPct), r.Name
		}
	}
	return m, who
}

// MinSpeedup is the smallest speed-up of the table's rows and its
// benchmark, and the geometric mean; NaN without rows.
func (t SamplingTable) MinSpeedup() (min float64, who string, geo float64) {
	min = math.NaN()
	xs := make([]float64, 0, len(t.Rows))
	for _, r := range t.Rows {
		if math.IsNaN(min) || r.Speedup < min {
			min, who = r.Speedup, r.Name
		}
		xs = append(xs, r.Speedup)
	}
	return min, who, Geomean(xs)
}

// Row is one line of the summary table.
type Row struct {
	Figure, Value, Peer, Met, Source string
}

// CarriedSamplingRows reads the sampled rows (figure "sampled …") of the
// summary table in a document's generated block, each row's source marked
// as carried over (it still names the sampling table's file, when it was
// written and by which rvsim).
const carriedMark = "carried over from the previous table (no sampling table in this run's -sampling folder): "

func CarriedSamplingRows(doc []byte, begin, end string) []Row {
	text := string(doc)
	i, j := strings.Index(text, begin), strings.Index(text, end)
	if i < 0 || j < i {
		return nil
	}
	var rows []Row
	for _, l := range strings.Split(text[i:j], "\n") {
		if !strings.HasPrefix(l, "| sampled ") || !strings.HasSuffix(l, " |") {
			continue
		}
		cells := strings.Split(strings.TrimSuffix(strings.TrimPrefix(l, "| "), " |"), " | ")
		if len(cells) != 5 {
			continue
		}
		rows = append(rows, Row{cells[0], cells[1], cells[2], cells[3], carriedMark + strings.TrimPrefix(cells[4], carriedMark)})
	}
	return rows
}

func num(format string, x float64) string {
	if math.IsNaN(x) {
		return "not measured"
	}
	return fmt.Sprintf(format, x)
}

// functionalGeo is the geometric means over the benches that ran: rvsim
// MIPS, qemu-riscv64's MIPS (the same instructions over its time), the
// ratio of times, and the timing MIPS. A failed bench is left out (the
// rows name it); a mean with none left is NaN.
func (r Report) functionalGeo() (mips, qemuMIPS, ratio, timing float64) {
	var ms, qs, rs []float64
	for _, b := range r.Benches {
		if b.Why != "" {
			continue
		}
		rv, q := suite.Best(b.Rvsim).On(r.Clock), suite.Best(b.Qemu).On(r.Clock)
		ms = append(ms, MIPS(b.Insts, rv))
		qs = append(qs, MIPS(b.Insts, q))
		rs = append(rs, Ratio(rv, q))
	}
	return Geomean(ms), Geomean(qs), Geomean(rs), r.timingGeo(r.Clock)
}

// timingGeo is the timing MIPS geometric mean over the benches whose
// timing runs passed, on clock. The model runs on a goroutine of its own
// (sim.Config.TimingThreads), so the wall clock is what a user waits and
// the CPU time what a host busy with other runs pays: the rows give both.
func (r Report) timingGeo(clock string) float64 {
	var ts []float64
	for _, b := range r.Benches {
		if b.Why == "" && b.TimingWhy == "" && len(b.Timing) > 0 {
			ts = append(ts, MIPS(b.TimingInsts, suite.Best(b.Timing).On(clock)))
		}
	}
	return Geomean(ts)
}

// over is "N INPUT inputs", with the benches that failed (in functional
// mode, or in timing mode when timing) named.
func (r Report) over(timing bool) string {
	n, failed := 0, []string{}
	for _, b := range r.Benches {
		switch {
		case b.Why != "":
			failed = append(failed, b.Name)
		case timing && (b.TimingWhy != "" || len(b.Timing) == 0):
			failed = append(failed, b.Name)
		default:
			n++
		}
	}
	s := fmt.Sprintf("%d %s inputs", n, r.Input)
	if len(failed) > 0 {
		s += " (not run or failed: " + strings.Join(failed, ", ") + ")"
	}
	return s
}

// profGeo is a configuration's geometric mean of MIPS over the programs,
// each program's best round, on clock; NaN if a run failed. insts are the
// programs' instruction counts (from the plain runs: units do not change them).
func profGeo(c ProfConfig, clock string, nprog int) float64 {
	if c.Why != "" || len(c.Runs) == 0 {
		return math.NaN()
	}
	xs := make([]float64, nprog)
	for p := range nprog {
		var runs []Times
		for _, round := range c.Runs {
			if p < len(round) {
				runs = append(runs, round[p])
			}
		}
		xs[p] = suite.Best(runs).On(clock)
	}
	// The same instructions in every configuration: the speed's ratio is
	// the inverse ratio of the seconds' geometric means.
	g := Geomean(xs)
	if math.IsNaN(g) {
		return g
	}
	return 1 / g
}

// Share is a configuration's speed as a share of the plain runs' in the
// same mode, on clock; in functional mode the plain runs translate, as
// rvsim does by default, and so does a unit whose taps translated code
// records (a value or a control tap).
func (r Report) Share(c ProfConfig, clock string) float64 {
	return r.shareOf(c, c.Mode, false, clock)
}

// InterpreterShare is a functional configuration's speed as a share of
// plain runs that interpret every instruction (--jit off): what the unit
// costs against the interpreter, the basis of earlier tables, when every
// run with a unit interpreted. NaN for a timing configuration.
func (r Report) InterpreterShare(c ProfConfig, clock string) float64 {
	if c.Mode != "functional" {
		return math.NaN()
	}
	return r.shareOf(c, c.Mode, true, clock)
}

// shareOf is c's speed over the plain runs of mode that are (or are not)
// interpreted.
func (r Report) shareOf(c ProfConfig, mode string, interpreted bool, clock string) float64 {
	for _, p := range r.Plain {
		if p.Mode == mode && p.Interpreted == interpreted {
			return Ratio(profGeo(c, clock, len(r.Programs)), profGeo(p, clock, len(r.Programs)))
		}
	}
	return math.NaN()
}

// Rows assembles the summary table.
func (r Report) Rows() []Row {
	mips, qmips, ratio, _ := r.functionalGeo()
	timing := r.timingGeo("wall")
	in := r.Input + " inputs"
	src := fmt.Sprintf("this run, %s, best of %d alternating rounds", in, r.Rounds)
	rows := []Row{
		{"functional MIPS, geomean over " + r.over(false), num("%.1f", mips), "qemu-riscv64 " + num("%.1f", qmips) + " MIPS", "—", src},
		{"rvsim time / qemu-riscv64 time, geomean", num("%.2f×", ratio), "goal ≤ 2×", goalQemuRatio.Met(ratio), src},
		{"timing MIPS, `default` preset, geomean over " + r.over(true), num("%.2f", timing) + " (CPU " + num("%.2f", r.timingGeo("cpu")) + ")", "goal 20 MIPS; " + peerTimingPublished, goalTimingMIPS.Met(timing),
			fmt.Sprintf("this run, %s, best of %d; wall-clock, CPU time in parentheses", in, timingRounds(r.Benches))},
	}
	for _, c := range r.Prof {
		share := r.Share(c, "wall")
		goal, goalText := c.Goal()
		value := num("%.0f%%", 100*share)
		switch {
		case strings.Contains(c.Why, "needs timing mode"):
			value = "timing mode only: " + c.Why
		case c.Why != "":
			value = "failed: " + c.Why
		default:
			if cpu := r.Share(c, "cpu"); !math.IsNaN(cpu) {
				value += fmt.Sprintf(" (CPU %.0f%%)", 100*cpu)
			}
			if in := r.InterpreterShare(c, "wall"); !math.IsNaN(in) {
				value += fmt.Sprintf("; %.0f%% of the interpreter's speed", 100*in)
			}
		}
		rows = append(rows, Row{
			fmt.Sprintf("%s, %s: speed / plain speed", c.Label(), c.Mode), value, goalText, goal.Met(share),
			fmt.Sprintf("this run, %s inputs of %s, best of %d interleaved rounds", r.ProfInputs[c.Mode], strings.Join(r.Programs, ", "), r.ProfRounds),
		})
	}
	if len(r.Sampling) == 0 && len(r.CarriedSampling) > 0 {
		rows = append(rows, r.CarriedSampling...)
	}
	if len(r.Sampling) == 0 && len(r.CarriedSampling) == 0 {
		rows = append(rows, Row{"sampled simulation: CPI error and speed-up", "not measured: no experiments/sampling table in " + r.SamplingDir + " (run `make experiments`)", "goal < 3% error on every ref input; ≥ 20× on the real suite's ref inputs", "—", r.SamplingDir})
	}
	for _, t := range r.Sampling {
		version := "rvsim " + t.Version
		if t.Version == "" {
			version = "no rvsim version recorded"
		}
		src := fmt.Sprintf("%s/%s.md, written %s, %s", r.SamplingDir, t.Name, t.Modified.UTC().Format("2006-01-02 15:04 UTC"), version)
		failed := ""
		if len(t.Failed) > 0 {
			failed = fmt.Sprintf("; failed: %s", strings.Join(t.Failed, ", "))
		}
		e, who := t.MaxAbsError()
		errMet := "— (goal is for ref inputs)"
		if t.Input == "ref" {
			errMet = goalSampledError.Met(e)
			if len(t.Failed) > 0 {
				errMet = "no (a run failed)"
			}
		}
		rows = append(rows, Row{fmt.Sprintf("sampled CPI error, %s suite, %s inputs: largest absolute error of %d", t.Suite, t.Input, len(t.Rows)),
			num("%.2f%%", e) + " (" + who + ")" + failed, "goal < 3% on every ref input", errMet, src})
		min, whoMin, geo := t.MinSpeedup()
		spMet := "— (goal is for the real suite's ref inputs)"
		if t.Input == "ref" && t.Suite == "real" {
			spMet = goalSampledSpeedup.Met(min)
		}
		rows = append(rows, Row{fmt.Sprintf("sampled speed-up, %s suite, %s inputs: smallest of %d (geomean)", t.Suite, t.Input, len(t.Rows)),
			num("%.1f×", min) + " (" + whoMin + "; geomean " + num("%.1f×", geo) + ")", "goal ≥ 20× on the real suite's ref inputs", spMet, src})
	}
	return rows
}

func timingRounds(bs []Bench) int {
	n := 0
	for _, b := range bs {
		n = max(n, len(b.Timing))
	}
	return n
}

// Markdown renders the report: a caption naming the machine and how the
// figures were taken, the summary table, and the per-benchmark table.
func (r Report) Markdown() []byte {
	var b bytes.Buffer
	m := r.Machine
	clockWord := "CPU time (user and system: rvsim's process, qemu-riscv64's child process)"
	if r.Clock == "wall" {
		clockWord = "wall-clock time"
	}
	fmt.Fprintf(&b, "Measured %s to %s on %s, %d cores; load average %s at the start, %s at the end. "+
		"Functional and qemu-riscv64 figures use %s, each benchmark's best run; timing figures wall-clock time (the model runs on a goroutine of its own beside the functional core), CPU time in parentheses; "+
		"profhw shares use wall-clock time (a unit's reference runs on another core), its CPU-time share in parentheses; "+
		"their plain runs are the same mode without units, run as rvsim runs by default: in functional mode translated, as a unit's value or control tap is too (other taps interpret), "+
		"and each functional row also gives its speed as a share of plain runs that interpret every instruction (`--jit off`, wall-clock). Re-run: `%s`.\n\n",
		m.Start.UTC().Format("2006-01-02 15:04"), endTime(m.Start, m.End), m.CPU, m.Cores, m.LoadStart, m.LoadEnd, clockWord, r.Command)
	fmt.Fprintln(&b, "| figure | rvsim | peer or goal | met | source |")
	fmt.Fprintln(&b, "|---|---|---|---|---|")
	for _, row := range r.Rows() {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", row.Figure, row.Value, row.Peer, row.Met, row.Source)
	}
	fmt.Fprintf(&b, "\nPer benchmark (%s inputs, %s; seconds of the best run):\n\n", r.Input, clockWord)
	fmt.Fprintln(&b, "| benchmark | instructions | rvsim s | functional MIPS | qemu-riscv64 s | rvsim / qemu | timing s (wall) | timing MIPS (wall; CPU) |")
	fmt.Fprintln(&b, "|---|---:|---:|---:|---:|---:|---:|---:|")
	benches := append([]Bench(nil), r.Benches...)
	sort.SliceStable(benches, func(i, j int) bool { return benches[i].Name < benches[j].Name })
	for _, x := range benches {
		if x.Why != "" {
			fmt.Fprintf(&b, "| %s | failed: %s |||||||\n", x.Name, x.Why)
			continue
		}
		rv, q := suite.Best(x.Rvsim).On(r.Clock), suite.Best(x.Qemu).On(r.Clock)
		t, tc := suite.Best(x.Timing).On("wall"), suite.Best(x.Timing).On("cpu")
		timing := num("%.1f", nanIfZero(t)) + " | " + num("%.2f", MIPS(x.TimingInsts, t)) + " (CPU " + num("%.2f", MIPS(x.TimingInsts, tc)) + ")"
		if x.TimingWhy != "" {
			timing = "failed: " + x.TimingWhy + " |"
		}
		fmt.Fprintf(&b, "| %s | %d | %s | %s | %s | %s | %s |\n", x.Name, x.Insts, num("%.3f", nanIfZero(rv)), num("%.1f", MIPS(x.Insts, rv)),
			num("%.3f", nanIfZero(q)), num("%.2f", Ratio(rv, q)), timing)
	}
	return b.Bytes()
}

func nanIfZero(x float64) float64 {
	if x == 0 {
		return math.NaN()
	}
	return x
}

// endTime is when the run ended: the time of day, with the date when it
// is not the start's.
func endTime(start, end time.Time) string {
	if end.UTC().Format("2006-01-02") != start.UTC().Format("2006-01-02") {
		return end.UTC().Format("2006-01-02 15:04 UTC")
	}
	return end.UTC().Format("15:04 UTC")
}
