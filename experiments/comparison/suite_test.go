package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/rvsim/rvsim/compare"
	"github.com/rvsim/rvsim/experiments/internal/suitetest"
)

// A -suite that is neither builtin, real nor a readable suite file is a
// one-line error naming the file.
func TestBadSuite(t *testing.T) {
	_, err := where{suite: "no-such-suite.toml"}.suiteSpec().Load()
	if err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "no-such-suite.toml") {
		t.Errorf("err %v: want one line naming no-such-suite.toml", err)
	}
}

// The built-in suite's comparisons are the ones they were before -suite
// and -max-insts: the same spec (so the same cells and cache keys), the
// same markers and no extra caption.
func TestBuiltinUnchanged(t *testing.T) {
	t.Chdir("../..") // the shipped ACFs, as make experiments runs it
	for _, s := range []string{"", "builtin"} {
		at := where{suite: s}
		opt, _, err := options(blocks[2].runs[0], at, "test", 1, "")
		if err != nil {
			t.Fatal(err)
		}
		if opt.Suite != (compare.SuiteSpec{Src: "benchmarks", Bin: filepath.Join("build", "benchmarks")}) || opt.MaxInsts != 0 {
			t.Errorf("suite %q: spec suite %+v, max insts %d", s, opt.Suite, opt.MaxInsts)
		}
		if m, f := at.id("events"); m != "events" || f != "events" {
			t.Errorf("suite %q: marker %q, file %q", s, m, f)
		}
		if c := at.caption("test"); c != "" {
			t.Errorf("suite %q: caption %q", s, c)
		}
	}
	m, f := where{suite: "real"}.id("events")
	if m != "events -suite real" || f != "events-real" {
		t.Errorf("real: marker %q, file %q", m, f)
	}
	if c := (where{suite: "real", maxInsts: 20_000_000}).caption("ref"); !strings.HasPrefix(c, "Suite **real**, **ref** inputs, the first 20000000 application instructions") {
		t.Errorf("real caption %q", c)
	}
}

// A suite file's workload reaches the comparison's runs with its root,
// argv[0] and standard input (each run's output is checked against the
// file's expected one, which depends on them), and -max-insts bounds
// every run to the same application work.
func TestSuiteFile(t *testing.T) {
	t.Chdir("../..") // the shipped ACFs and handlers, as make experiments runs it
	file := suitetest.Write(t, ".", t.TempDir())
	r := run{profilers: "hot-code-region-hps-event", sections: []string{"Summary"}}
	for _, max := range []uint64{0, 3000} {
		opt, all, err := options(r, where{suite: file, maxInsts: max}, "test", 1, "")
		if err != nil {
			t.Fatal(err)
		}
		if opt.Suite.File != file || opt.MaxInsts != max || len(all) != 2 || strings.Join(opt.Benchmarks, ",") != "hello,pollin" {
			t.Fatalf("spec: suite %+v, max insts %d, benchmarks %v", opt.Suite, opt.MaxInsts, opt.Benchmarks)
		}
		opt.Progress = nil
		res, err := compare.Compare(opt)
		if err != nil {
			t.Fatal(err)
		}
		if f := res.Failed(); len(f) > 0 {
			t.Fatalf("max %d: %s/%s: %s", max, f[0].Benchmark, f[0].Label, f[0].Why)
		}
		n := 0
		for _, byLabel := range res.Runs {
			for label, run := range byLabel {
				n++
				if max > 0 && (run.AppInstructions != max || run.Output != compare.OutputUnchecked) {
					t.Errorf("max %d: %s/%s ran %d application instructions, output %q", max, run.Benchmark, label, run.AppInstructions, run.Output)
				}
				if max == 0 && run.Output != compare.OutputSame {
					t.Errorf("%s/%s: output %q, want %q", run.Benchmark, label, run.Output, compare.OutputSame)
				}
			}
		}
		if n != 4 { // two programs, unprofiled and profiled
			t.Errorf("max %d: %d runs, want 4", max, n)
		}
	}
}
