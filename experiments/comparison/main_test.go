package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rvsim/rvsim/experiments/internal/splice"
)

// A shortened compare Markdown (compare.Results.WriteMarkdown's layout).
const sample = `# Profiler comparison

command: rvsim compare

timing mode, machine hps, test inputs: cost = cycles.

## Summary

Mean overhead = the geometric mean.

| profiler | profile | programs | mean overhead |
| --- | --- | ---: | ---: |
| a | value | 2 | 1.00% |

## Where the extra cycles go

The mean over the programs.

| profiler | commit |
| --- | ---: |
| a | 0.5 |

## anneal

| profiler | profile |
| --- | --- |
| a | value |
`

func TestSections(t *testing.T) {
	got, err := sections(sample, []string{"Where the extra cycles go", "Summary"})
	if err != nil {
		t.Fatal(err)
	}
	want := "The mean over the programs.\n\n| profiler | commit |\n| --- | ---: |\n| a | 0.5 |\n\n" +
		"Mean overhead = the geometric mean.\n\n| profiler | profile | programs | mean overhead |\n| --- | --- | ---: | ---: |\n| a | value | 2 | 1.00% |\n"
	if got != want {
		t.Errorf("sections:\n%s\nwant:\n%s", got, want)
	}
	if _, err := sections(sample, []string{"Summary", "Failures"}); err == nil || !strings.Contains(err.Error(), `"Failures"`) {
		t.Errorf("a missing section: err %v, want one naming it", err)
	}
	// The title and the command line are not in any section.
	got, _ = sections(sample, []string{"Summary"})
	if strings.Contains(got, "command:") || strings.Contains(got, "#") {
		t.Errorf("Summary carries the header: %q", got)
	}
}

func TestSelectBlocks(t *testing.T) {
	all, err := selectBlocks("")
	if err != nil || len(all) != len(blocks) {
		t.Fatalf("all: %d blocks, %v", len(all), err)
	}
	sel, err := selectBlocks("events,families")
	if err != nil || len(sel) != 2 || sel[0].name != "families" || sel[1].name != "events" {
		t.Fatalf("events,families: %v, %v (want families then events)", sel, err)
	}
	if _, err := selectBlocks("families,nope"); err == nil || !strings.Contains(err.Error(), `"nope"`) {
		t.Errorf("an unknown block: err %v", err)
	}
}

// Every block's markers are in docs/COMPARISON.md once, so make
// experiments can splice it; splicing replaces only the block.
func TestMarkers(t *testing.T) {
	data, err := os.ReadFile("../../docs/COMPARISON.md")
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, b := range blocks {
		ids = append(ids, b.name)
	}
	for _, b := range []string{"events", "windows"} { // the real suite's, in make experiments
		id, _ := where{suite: "real"}.id(b)
		ids = append(ids, id)
	}
	for _, id := range ids {
		for _, m := range []string{beginMark(id), endMark(id)} {
			if n := strings.Count(string(data), m); n != 1 {
				t.Errorf("docs/COMPARISON.md has %q %d times, want once", m, n)
			}
		}
	}
	// The real suite's events summary, in docs/EXPERIMENTS.md (-summary).
	exp, err := os.ReadFile("../../docs/EXPERIMENTS.md")
	if err != nil {
		t.Fatal(err)
	}
	id, _ := where{suite: "real"}.id("events")
	for _, m := range []string{beginMark(id + " summary"), endMark(id + " summary")} {
		if n := strings.Count(string(exp), m); n != 1 {
			t.Errorf("docs/EXPERIMENTS.md has %q %d times, want once", m, n)
		}
	}
	doc := filepath.Join(t.TempDir(), "doc.md")
	os.WriteFile(doc, []byte("before\n"+beginMark("events")+"\nold\n"+endMark("events")+"\nafter\n"), 0o644)
	if err := splice.Splice(doc, beginMark("events"), endMark("events"), []byte("new\n")); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(doc)
	if want := "before\n" + beginMark("events") + "\n\nnew\n\n" + endMark("events") + "\nafter\n"; string(got) != want {
		t.Errorf("spliced:\n%s\nwant:\n%s", got, want)
	}
}
