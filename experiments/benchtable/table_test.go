package main

import (
	"bytes"
	"errors"
	"flag"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rvsim/rvsim/suite"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite testdata/table.golden")

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

func TestBest(t *testing.T) {
	for _, c := range []struct {
		desc string
		runs []Times
		want Times
	}{
		{"each clock's own minimum", []Times{tm(2.0, 1.5), tm(1.0, 1.8), tm(3.0, 1.2)}, tm(1.0, 1.2)},
		{"a failed run (no time) is skipped", []Times{tm(0, 0), tm(1.4, 1.3)}, tm(1.4, 1.3)},
		{"no runs", nil, Times{}},
	} {
		if got := suite.Best(c.runs); got != c.want {
			t.Errorf("%s: Best = %+v, want %+v", c.desc, got, c.want)
		}
	}
}

func TestGeomean(t *testing.T) {
	for _, c := range []struct {
		desc string
		xs   []float64
		want float64
	}{
		{"two", []float64{2, 8}, 4},
		{"three", []float64{1, 10, 100}, 10},
		{"one", []float64{285.5}, 285.5},
		{"empty", nil, math.NaN()},
		{"a zero (failed run)", []float64{2, 0}, math.NaN()},
		{"a NaN", []float64{2, math.NaN()}, math.NaN()},
	} {
		got := Geomean(c.xs)
		if math.IsNaN(c.want) != math.IsNaN(got) || !math.IsNaN(c.want) && !near(got, c.want) {
			t.Errorf("%s: Geomean(%v) = %v, want %v", c.desc, c.xs, got, c.want)
		}
	}
}

func TestMIPSAndRatio(t *testing.T) {
	// lisp's ref input in docs/SPEED.md: 414,333,364 instructions in 1.34 s.
	if got := MIPS(414333364, 1.34); !near(got, 414.333364/1.34) || math.Abs(got-309.204) > 0.001 {
		t.Errorf("MIPS = %v, want 309.204", got)
	}
	if got := MIPS(5, 0); !math.IsNaN(got) {
		t.Errorf("MIPS without a time = %v, want NaN", got)
	}
	if got := Ratio(1.34, 0.33); math.Abs(got-4.0606) > 0.0001 {
		t.Errorf("Ratio = %v, want 4.0606", got)
	}
	if got := Ratio(1.34, 0); !math.IsNaN(got) {
		t.Errorf("Ratio over no time = %v, want NaN", got)
	}
}

func TestGoalMet(t *testing.T) {
	for _, c := range []struct {
		goal Goal
		x    float64
		want string
	}{
		{goalQemuRatio, 1.99, "yes"},
		{goalQemuRatio, 2, "yes"},
		{goalQemuRatio, 2.01, "no"},
		{goalTimingMIPS, 19.99, "no"},
		{goalTimingMIPS, 20, "yes"},
		{goalHardwareAlone, 0.79, "no"},
		{goalWithReference, 0.5, "yes"},
		{goalSampledError, 3.01, "no"},
		{goalSampledSpeedup, math.NaN(), "—"},
	} {
		if got := c.goal.Met(c.x); got != c.want {
			t.Errorf("%+v.Met(%v) = %q, want %q", c.goal, c.x, got, c.want)
		}
	}
}

// shareReport: two programs; the plain runs' best seconds are 0.9 and 2.0,
// the preset's 1.5 and 2.5, so its share is sqrt(0.9*2.0)/sqrt(1.5*2.5) =
// sqrt(0.48) = 0.69282.
func shareReport() Report {
	return Report{
		Programs: []string{"a", "b"},
		Plain:    []ProfConfig{{Mode: "functional", Runs: [][]Times{{tm(1.0, 1.0), tm(2.0, 2.0)}, {tm(0.9, 1.1), tm(2.2, 2.2)}}}},
		Prof: []ProfConfig{
			{Preset: "p", Mode: "functional", Runs: [][]Times{{tm(1.8, 2.0), tm(2.5, 4.0)}, {tm(1.5, 2.0), tm(5.0, 4.0)}}},
			{Preset: "q", Mode: "functional", Why: "a: broke", Runs: [][]Times{{tm(1, 1), tm(0, 0)}}},
			{Preset: "p", Mode: "timing", Runs: [][]Times{{tm(1, 1), tm(1, 1)}}}, // no plain timing runs
		},
	}
}

func TestShare(t *testing.T) {
	r := shareReport()
	if got := r.Share(r.Prof[0], "wall"); math.Abs(got-0.69282) > 1e-5 {
		t.Errorf("wall share = %v, want 0.69282", got)
	}
	// CPU: plain best 1.0 and 2.0, preset 2.0 and 4.0: exactly half.
	if got := r.Share(r.Prof[0], "cpu"); !near(got, 0.5) {
		t.Errorf("CPU share = %v, want 0.5", got)
	}
	if got := r.Share(r.Prof[1], "wall"); !math.IsNaN(got) {
		t.Errorf("a failed configuration's share = %v, want NaN", got)
	}
	if got := r.Share(r.Prof[2], "wall"); !math.IsNaN(got) {
		t.Errorf("share without plain runs in its mode = %v, want NaN", got)
	}
}

// builtinRef is testdata/sampling/builtin-ref.md parsed: a copy of the
// table experiments/sampling wrote into docs/SPEED.md, with a provenance line.
func builtinRef(t *testing.T) SamplingTable {
	t.Helper()
	text, err := os.ReadFile("testdata/sampling/builtin-ref.md")
	if err != nil {
		t.Fatal(err)
	}
	tb, err := ParseSampling("builtin-ref", text)
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

func TestParseSampling(t *testing.T) {
	tb := builtinRef(t)
	if tb.Suite != "builtin" || tb.Input != "ref" || tb.Version != "b0863de0a1b2" {
		t.Errorf("suite %q input %q version %q, want builtin ref b0863de0a1b2", tb.Suite, tb.Input, tb.Version)
	}
	want := []SamplingRow{{"nbody", 0.89, 3.3, 2.1}, {"lz", -0.04, 2.8, 1.9}, {"imgcodec", -1.99, 2.1, 1.3}, {"hashjoin", -6.62, 2.1, 1.2}}
	if len(tb.Rows) != len(want) {
		t.Fatalf("%d rows, want %d: %+v", len(tb.Rows), len(want), tb.Rows)
	}
	for i, w := range want {
		if tb.Rows[i] != w {
			t.Errorf("row %d = %+v, want %+v", i, tb.Rows[i], w)
		}
	}
	if e, who := tb.MaxAbsError(); e != 6.62 || who != "hashjoin" {
		t.Errorf("MaxAbsError = %v %s, want 6.62 hashjoin", e, who)
	}
	// (3.3 * 2.8 * 2.1 * 2.1)^(1/4) = 40.7484^(1/4) = 2.52655
	if min, who, geo := tb.MinSpeedup(); min != 2.1 || who != "imgcodec" || math.Abs(geo-2.52655) > 1e-5 {
		t.Errorf("MinSpeedup = %v %s %v, want 2.1 imgcodec 2.52655", min, who, geo)
	}
}

func TestParseSamplingFailedRow(t *testing.T) {
	text := "Suite real, ref inputs; intervals of 10\n\n" +
		"| benchmark | instructions | error | speed-up | with plan | warming off: error | speed-up |\n" +
		"|---|---:|---:|---:|---:|---:|---:|\n" +
		"| cc1 | failed: timing: stopped |||||\n" +
		"| xz | 5 | +1.50% | 25.0× | 12.5× | -2.00% | 30.0× |\n"
	tb, err := ParseSampling("real-ref", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if len(tb.Failed) != 1 || tb.Failed[0] != "cc1" || len(tb.Rows) != 1 || tb.Rows[0] != (SamplingRow{"xz", 1.5, 25, 12.5}) {
		t.Errorf("failed %v rows %+v, want [cc1] and xz +1.50%% 25× 12.5× (the first error and speed-up columns)", tb.Failed, tb.Rows)
	}
	r := Report{Sampling: []SamplingTable{tb}, SamplingDir: "d"}
	rows := r.Rows()
	last := rows[len(rows)-2:]
	if last[0].Met != "no (a run failed)" || !strings.Contains(last[0].Value, "failed: cc1") {
		t.Errorf("error row %+v: want unmet, naming cc1", last[0])
	}
	if last[1].Met != "yes" {
		t.Errorf("speed-up row %+v: want met (25× ≥ 20× on the real suite's ref inputs)", last[1])
	}
}

// A -k-sweep table (clustering errors, no sampled runs) is told apart,
// so that the sampling folder's reader skips it.
func TestParseSamplingKSweep(t *testing.T) {
	text := "\nSuite real, ref inputs; intervals of 10000000 instructions.\n\n" +
		"| benchmark | instructions | full CPI | k ≤ 10: points | error | k ≤ 20: points | error |\n" +
		"|---|---:|---:|---:|---:|---:|---:|\n" +
		"| cc1 | 2557221957 | 0.7744 | 8 | +15.89% | 13 | +15.37% |\n"
	_, err := ParseSampling("real-ref-ksweep", []byte(text))
	if !errors.Is(err, ErrNoSampledRuns) {
		t.Fatalf("error %v, want ErrNoSampledRuns", err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "real-ref-ksweep.md"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	tables, err := readSampling(dir, "all")
	if err != nil || len(tables) != 0 {
		t.Errorf("readSampling: %v, %d tables; want the k-sweep table skipped", err, len(tables))
	}
}

func TestParseSamplingErrors(t *testing.T) {
	for _, c := range []struct {
		desc, text, want string
	}{
		{"no caption", "| benchmark | error | speed-up | with plan |\n|---|\n| a | 1% | 2× | 1× |\n", `t.md: no caption`},
		{"bad caption", "Suite builtin; intervals\n", `t.md:1: caption: want "Suite NAME, INPUT inputs;"`},
		{"missing column", "Suite b, ref inputs; x\n\n| benchmark | error | speed-up |\n", `t.md:3: table header has no "with plan" column`},
		{"bad cell", "Suite b, ref inputs; x\n\n| benchmark | error | speed-up | with plan |\n|---|\n| a | 1% | fast | 1× |\n", `t.md:5: a: "speed-up" cell "fast": want a number followed by ×`},
		{"no rows", "Suite b, ref inputs; x\n", `t.md: no table rows`},
	} {
		_, err := ParseSampling("t", []byte(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want it to contain %q", c.desc, err, c.want)
		}
	}
}

func TestReadSampling(t *testing.T) {
	got, err := readSampling(filepath.Join(t.TempDir(), "absent"), "all")
	if err != nil || len(got) != 0 {
		t.Errorf("absent folder: %v %v, want no tables and no error", got, err)
	}
	got, err = readSampling("testdata/sampling", "all")
	if err != nil || len(got) != 2 || got[0].Name != "builtin-ref" || got[1].Name != "builtin-test" || got[1].Input != "test" {
		t.Errorf("testdata/sampling: %d tables, %v; want builtin-ref and builtin-test", len(got), err)
	}
	// Only the tables named: the default names builtin-ref, not builtin-test.
	got, err = readSampling("testdata/sampling", defaultSamplingTables)
	if err != nil || len(got) != 1 || got[0].Name != "builtin-ref" {
		t.Errorf("testdata/sampling, the default tables: %d tables, %v; want builtin-ref", len(got), err)
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "bad.md"), []byte("hello\n"), 0o644)
	if _, err := readSampling(dir, "all"); err == nil || !strings.Contains(err.Error(), "bad.md: no caption") {
		t.Errorf("malformed table: error %v, want it to name bad.md", err)
	}
	if got, err := readSampling(dir, "real-ref"); err != nil || len(got) != 0 {
		t.Errorf("a malformed table not named: %v, %v; want it skipped", got, err)
	}
}

func TestModelName(t *testing.T) {
	info := "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC 7B13\nprocessor\t: 1\nmodel name\t: AMD EPYC 7B13\n"
	if got := modelName(info); got != "AMD EPYC 7B13" {
		t.Errorf("modelName = %q", got)
	}
	if got := modelName("processor: 0\n"); got != "unknown CPU" {
		t.Errorf("modelName without one = %q", got)
	}
}

// goldenReport is a report with hand-chosen runs: lisp at 414,333,364
// instructions, best rvsim CPU time 1.30 s (318.7 MIPS), qemu 0.33 s (ratio
// 3.94); lz 393,029,010 instructions, 1.20 s (327.5 MIPS), qemu 0.24 s
// (ratio 5.00); geomeans 323.1 MIPS, ratio sqrt(3.94*5.00) = 4.44.
func goldenReport(t *testing.T) Report {
	r := shareReport()
	r.Plain = append(r.Plain, ProfConfig{Mode: "functional", Interpreted: true, Runs: [][]Times{{tm(4.5, 4.5), tm(10, 10)}}}) // the preset (1.5, 2.5 s) at sqrt(45/3.75) = 346% of its speed
	start := time.Date(2026, 11, 26, 23, 50, 0, 0, time.UTC)
	r.Machine = Machine{CPU: "AMD EPYC", Cores: 2, LoadStart: "1.00 0.50 0.25", LoadEnd: "2.00 1.50 1.00", Start: start, End: start.Add(95 * time.Minute)}
	r.Suite, r.Input, r.Rounds, r.Clock, r.ProfRounds = "builtin", "ref", 3, "cpu", 2
	r.ProfInputs = map[string]string{"functional": "ref", "timing": "test"}
	r.Benches = []Bench{
		{Name: "lz", Insts: 393029010, Rvsim: []Times{tm(1.3, 1.25), tm(1.2, 1.2), tm(1.4, 1.3)}, Qemu: []Times{tm(0.3, 0.25), tm(0.3, 0.24), tm(0.3, 0.26)},
			TimingInsts: 393029010, Timing: []Times{tm(70, 65)}},
		{Name: "lisp", Insts: 414333364, Rvsim: []Times{tm(1.4, 1.30), tm(1.5, 1.35), tm(1.6, 1.32)}, Qemu: []Times{tm(0.4, 0.33), tm(0.4, 0.34), tm(0.5, 0.35)},
			TimingInsts: 414333364, Timing: []Times{tm(90, 80)}},
	}
	tb := builtinRef(t)
	tb.Modified = time.Date(2026, 11, 26, 20, 0, 0, 0, time.UTC)
	r.SamplingDir, r.Sampling = "build/experiments/sampling", []SamplingTable{tb}
	r.Command = "go run ./experiments/benchtable -doc docs/SPEED.md"
	return r
}

func TestFunctionalFigures(t *testing.T) {
	r := goldenReport(t)
	mips, qmips, ratio, timing := r.functionalGeo()
	// lisp 414.333364/1.30 = 318.718, lz 393.029010/1.20 = 327.524.
	if want := math.Sqrt(414.333364 / 1.30 * 393.029010 / 1.20); !near(mips, want) || math.Abs(mips-323.09) > 0.01 {
		t.Errorf("functional MIPS geomean = %v, want %v (323.09)", mips, want)
	}
	if want := math.Sqrt(414.333364 / 0.33 * 393.029010 / 0.24); !near(qmips, want) {
		t.Errorf("qemu MIPS geomean = %v, want %v", qmips, want)
	}
	if want := math.Sqrt(1.30 / 0.33 * 1.20 / 0.24); !near(ratio, want) || math.Abs(ratio-4.438) > 0.001 {
		t.Errorf("ratio geomean = %v, want %v (4.438)", ratio, want)
	}
	if want := math.Sqrt(414.333364 / 80 * 393.029010 / 65); !near(timing, want) {
		t.Errorf("timing MIPS geomean = %v, want %v", timing, want)
	}
	rows := r.Rows()
	if rows[1].Met != "no" || rows[1].Value != "4.44×" {
		t.Errorf("ratio row %+v, want 4.44× unmet", rows[1])
	}
	// The timing row is wall-clock, CPU in parentheses: sqrt(414.333364/90
	// * 393.029010/70) = 5.08, sqrt(414.333364/80 * 393.029010/65) = 5.60.
	if rows[2].Value != "5.08 (CPU 5.60)" || rows[2].Met != "no" {
		t.Errorf("timing row %+v, want 5.08 (CPU 5.60) unmet", rows[2])
	}
	// A failed benchmark is left out of the geomeans and named in the rows.
	r.Benches = append(r.Benches, Bench{Name: "nbody", Why: "qemu-riscv64: output differs"})
	r.Benches[0].TimingWhy, r.Benches[0].Timing = "stopped", nil // lz
	mips2, _, _, timing2 := r.functionalGeo()
	if rows := r.Rows(); mips2 != mips || !strings.Contains(rows[0].Figure, "2 ref inputs (not run or failed: nbody)") ||
		!near(timing2, 414.333364/80) || !strings.Contains(rows[2].Figure, "1 ref inputs (not run or failed: lz, nbody)") {
		t.Errorf("with failed runs: MIPS %v timing %v, rows %q %q", mips2, timing2, rows[0].Figure, rows[2].Figure)
	}
	r.Benches = []Bench{{Name: "nbody", Why: "broke"}}
	if rows := r.Rows(); rows[0].Value != "not measured" || rows[1].Met != "—" {
		t.Errorf("with every benchmark failed: %+v %+v, want not measured, —", rows[0], rows[1])
	}
}

func TestGolden(t *testing.T) {
	r := goldenReport(t)
	r.Benches = append(r.Benches, Bench{Name: "nbody", Why: "qemu-riscv64: output differs"},
		Bench{Name: "anneal", Insts: 461183673, Rvsim: []Times{tm(1.6, 1.56)}, Qemu: []Times{tm(0.4, 0.39)}, TimingWhy: "timing: deadlock"})
	got := r.Markdown()
	const file = "testdata/table.golden"
	if *update {
		if err := os.WriteFile(file, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("Markdown differs from %s (go test -run TestGolden -update, then review the diff):\n%s", file, got)
	}
}

// Bad flags are one-line errors before anything runs.
func TestRunErrors(t *testing.T) {
	bad := t.TempDir()
	os.WriteFile(filepath.Join(bad, "real-ref.md"), []byte("Suite real, ref inputs; x\n\n| benchmark | error |\n"), 0o644)
	for _, c := range []struct {
		desc                 string
		clock, benches, pres string
		rounds               int
		sampling             string
		want                 string
	}{
		{"clock", "sun", "all", "none", 1, "", `-clock "sun": want cpu or wall`},
		{"rounds", "cpu", "all", "none", 0, "", "-rounds and -profhw-rounds must be at least 1"},
		{"sampling table", "cpu", "all", "none", 1, bad, `real-ref.md:3: table header has no "speed-up" column`},
		{"benchmark", "cpu", "lisp,nosuch", "none", 1, "", "nosuch"},
		{"preset", "cpu", "lisp", "nosuch", 1, "", `-profhw-presets: unknown profhw preset "nosuch"`},
	} {
		sampling := c.sampling
		if sampling == "" {
			sampling = filepath.Join(t.TempDir(), "none")
		}
		err := run("test", c.benches, c.rounds, 0, "lisp", c.pres, 1, "test", sampling, defaultSamplingTables, c.clock, t.TempDir(), "", false)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %v, want one line containing %q", c.desc, err, c.want)
		}
	}
}

// A bad -job argument (the parent and child disagreeing) is a one-line
// error, before anything runs.
func TestRunJobErrors(t *testing.T) {
	for _, c := range []struct{ arg, want string }{
		{`{"Program":`, "-job: unexpected EOF"},
		{`{"Program":"lisp","Seed":1}`, `-job: json: unknown field "Seed"`},
		{`[]`, "-job: json: cannot unmarshal array"},
	} {
		err := runJob(c.arg)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %v, want one line containing %q", c.arg, err, c.want)
		}
	}
}

// A job names a program of the list it is given, or fails with its name.
func TestProfJobUnknownProgram(t *testing.T) {
	_, why := profJob{Program: "nosuch", Input: "test", Mode: "functional"}.run(nil)
	if why != `no program "nosuch"` {
		t.Errorf("why = %q", why)
	}
}

func TestPresetKinds(t *testing.T) {
	for _, c := range []struct {
		preset     string
		off, noRef bool
	}{
		{"stratified-value", true, false},
		{"countmin-value", true, false},
		{"multihash-edge", true, false},
		{"path-bl", false, false},
		{"exact-value", false, false},
		{"phase-tracker", false, true},
		{"nosuch", false, false},
	} {
		if off, noRef := presetKinds(c.preset, referenceOff), presetKinds(c.preset, noReference); off != c.off || noRef != c.noRef {
			t.Errorf("%s: reference can be turned off %v, has none %v; want %v, %v", c.preset, off, noRef, c.off, c.noRef)
		}
	}
}

// A unit without a reference is held to the hardware's goal; a preset that
// needs timing mode says so in functional mode instead of "failed".
// The interpreter's share: the interpreted plain runs take 0.3 and 0.5 s
// (best wall), the preset 1.5 and 2.5, so the share is
// sqrt(0.3*0.5/(1.5*2.5)) = sqrt(0.04) = 0.2, while Share stays against
// the translated plain runs; a timing configuration, or a report without
// interpreted plain runs, gives NaN.
func TestInterpreterShare(t *testing.T) {
	r := shareReport()
	r.Plain = append(r.Plain, ProfConfig{Mode: "functional", Interpreted: true, Runs: [][]Times{{tm(0.6, 0.6), tm(0.5, 0.5)}, {tm(0.3, 0.3), tm(0.7, 0.7)}}})
	if got := r.InterpreterShare(r.Prof[0], "wall"); !near(got, 0.2) {
		t.Errorf("interpreter share = %v, want 0.2", got)
	}
	if got := r.Share(r.Prof[0], "wall"); math.Abs(got-0.69282) > 1e-5 {
		t.Errorf("share = %v, want 0.69282 (against the translated plain runs)", got)
	}
	if rows := r.Rows(); !strings.HasSuffix(rows[3].Value, "; 20% of the interpreter's speed") {
		t.Errorf("functional row value %q, want the interpreter's share", rows[3].Value)
	}
	if got := r.InterpreterShare(r.Prof[2], "wall"); !math.IsNaN(got) {
		t.Errorf("timing configuration's interpreter share = %v, want NaN", got)
	}
	r.Plain = r.Plain[:1]
	if got := r.InterpreterShare(r.Prof[0], "wall"); !math.IsNaN(got) {
		t.Errorf("without interpreted plain runs: %v, want NaN", got)
	}
}

func TestProfRows(t *testing.T) {
	r := shareReport()
	r.Prof = []ProfConfig{
		{Preset: "phase-tracker", NoReference: true, Mode: "functional", Runs: r.Prof[0].Runs},
		{Preset: "path-l2miss", Mode: "functional", Why: `a: metric: "l2-misses" needs timing mode (--mode timing)`},
	}
	rows := r.Rows()[3:]
	if rows[0].Figure != "`phase-tracker` (no reference), functional: speed / plain speed" || rows[0].Peer != "goal ≥ 80% (hardware alone)" ||
		rows[0].Value != "69% (CPU 50%)" || rows[0].Met != "no" {
		t.Errorf("phase-tracker row %+v, want 69%% against the 80%% goal, unmet", rows[0])
	}
	if !strings.HasPrefix(rows[1].Value, "timing mode only: ") || rows[1].Met != "—" {
		t.Errorf("path-l2miss row %+v, want timing mode only, —", rows[1])
	}
}

// tm is a Times of wall and CPU seconds.
func tm(wall, cpu float64) Times { return Times{Wall: wall, CPU: cpu} }

func TestCarriedSamplingRows(t *testing.T) {
	doc := "intro\n| sampled CPI error, outside the block | 1% | g | no | s |\n" + beginMark + "\n\n| figure | rvsim | peer or goal | met | source |\n|---|---|---|---|---|\n" +
		"| functional MIPS | 1 | 2 | — | this run |\n" +
		"| sampled CPI error, builtin suite, ref inputs: largest absolute error of 11 | 5.13% (gametree) | goal < 3% on every ref input | no | build/x/builtin-ref.md, written 2026-11-27 01:24 UTC, rvsim 3f1 |\n" +
		"| sampled speed-up, real suite | 5.6× (cc1) | goal ≥ 20× | no | " + carriedMark + "build/x/real-ref.md |\n" +
		"| sampled broken | 1 | 2 |\n" + endMark + "\n"
	rows := CarriedSamplingRows([]byte(doc), beginMark, endMark)
	require.Len(t, rows, 2, "the block's two well-formed sampled rows")
	assert.Equal(t, Row{"sampled CPI error, builtin suite, ref inputs: largest absolute error of 11", "5.13% (gametree)", "goal < 3% on every ref input", "no",
		carriedMark + "build/x/builtin-ref.md, written 2026-11-27 01:24 UTC, rvsim 3f1"}, rows[0])
	assert.Equal(t, carriedMark+"build/x/real-ref.md", rows[1].Source, "carried twice, marked once")
	assert.Empty(t, CarriedSamplingRows([]byte("no block\n"), beginMark, endMark))

	r := Report{SamplingDir: "none", CarriedSampling: rows}
	var got []string
	for _, row := range r.Rows() {
		if strings.Contains(row.Figure, "sampled") {
			got = append(got, row.Figure)
		}
	}
	assert.Equal(t, []string{rows[0].Figure, rows[1].Figure}, got, "carried rows replace the not-measured row")
}
