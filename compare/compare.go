// Package compare runs the profiler comparison (docs/COMPARISON.md): each
// program once with profiling off and once per profiler — DISE/HPS
// productions (ACF files) and retire-stage hardware (profhw presets and
// files) mixed in one table — and scores each profiler by its cost in
// simulated cycles relative to the unprofiled run on the same machine
// (hps-phase-aware-remote-profiling.md §5.2), by every accuracy metric
// defined for the profile it produces against the exact profile of the
// same run (compare/metrics), and by its storage.
//
// A comparison is a list of cells, one run each (program, input,
// profiler, machine, sweep point). Cells are independent: they run in
// parallel, are cached on disk by everything that decides their result
// (cache.go), and can run as the tasks of a Slurm job array (slurm.go).
package compare

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/rvsim/rvsim/dise"
	"github.com/rvsim/rvsim/profhw"
)

// Profiler is one profiling configuration. It is named by ACF files (the
// DISE/HPS engine, with the external trigger it runs with if its
// productions act on triggers), by a profhw preset, or by a profhw file.
type Profiler struct {
	Name    string   `json:"name"`
	Source  string   `json:"source"` // "acf", "profhw preset" or "profhw file"
	Type    string   `json:"type"`   // the profile it produces (Types)
	ACF     []string `json:"acf,omitempty"`
	Trigger string   `json:"trigger,omitempty"` // "" if the ACF has no trigger productions
	ProfHW  string   `json:"profhw,omitempty"`  // a profhw preset name, or a profhw file's path
	// Settings override keys of every unit of a profhw profiler (a
	// sweep point: KEY=VALUE, as --profhw-set takes them).
	Settings []string `json:"settings,omitempty"`
}

// The sources of profilers.
const (
	SourceACF    = "acf"
	SourcePreset = "profhw preset"
	SourceFile   = "profhw file"
)

// Types are the profile types in table order: the profilers are grouped
// by the profile they produce.
var Types = []string{"value", "edge", "address", "path", "code region", "method", "call pair", "phase", "other"}

// Baseline is the name of the unprofiled run.
const Baseline = "none"

// Sets are named lists of profilers. events and windows are the HPS
// paper's comparison (hps-phase-aware-remote-profiling.md §5.2, Fig. 9),
// each profile type sampled by DISE alone and by HPS, at 1/100 events as
// the paper does (events: the default) or in time windows of 1/100 of the
// application's instructions (windows: with an external trigger). all is
// every profiler family: DISE/HPS, stratified sampling, path profiling,
// multi-hash and the phase tracker.
var Sets = map[string][]string{
	"events": {"hot-code-region-dise-event", "hot-code-region-hps-event", "hot-method-dise-event",
		"hot-method-hps-event", "call-pair-dise-event", "call-pair-hps-event"},
	"windows": {"hot-code-region-dise", "hot-code-region-hps", "hot-method-dise", "hot-method-hps",
		"call-pair-dise", "call-pair-hps"},
	"families": {"hot-code-region-hps-event", "hot-method-hps-event", "call-pair-dise-event", "call-pair-hps-event",
		"stratified-value", "multihash-value", "multihash-edge", "path-bl", "phase-tracker"},
}

// DefaultSet is the set rvsim compare runs when no profilers are given.
const DefaultSet = "events"

// ResolveProfilers turns names into profilers. A name is a shipped ACF
// (acfDir/NAME.acf), a path to an .acf file, several of those joined
// with '+' (loaded in that order), a profhw preset, a path to a profhw
// .toml file, or the name of a set (Sets). trigger is given to the
// profilers whose productions match hps.on or hps.off.
func ResolveProfilers(names []string, acfDir, trigger string, cfg dise.Config) ([]Profiler, error) {
	var out []Profiler
	seen := map[string]bool{}
	var expanded []string
	for _, n := range names {
		if set, ok := Sets[strings.TrimSpace(n)]; ok {
			expanded = append(expanded, set...)
		} else {
			expanded = append(expanded, n)
		}
	}
	for _, n := range expanded {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		if n == Baseline {
			return nil, fmt.Errorf("profiler %q: the unprofiled run is always included", n)
		}
		if seen[n] {
			return nil, fmt.Errorf("profiler %q listed twice", n)
		}
		seen[n] = true
		if strings.HasSuffix(n, ".toml") {
			p := Profiler{Name: strings.TrimSuffix(filepath.Base(n), ".toml"), Source: SourceFile, ProfHW: n}
			if err := p.typeFromUnits(); err != nil {
				return nil, err
			}
			out = append(out, p)
			continue
		}
		if !strings.ContainsAny(n, "+/") && !strings.HasSuffix(n, ".acf") {
			if _, err := os.Stat(filepath.Join(acfDir, n+".acf")); err != nil {
				if _, err := profhw.PresetText(n); err == nil {
					p := Profiler{Name: n, Source: SourcePreset, ProfHW: n}
					if err := p.typeFromUnits(); err != nil {
						return nil, err
					}
					out = append(out, p)
					continue
				}
			}
		}
		p := Profiler{Name: n, Source: SourceACF}
		for _, part := range strings.Split(n, "+") {
			path := part
			if !strings.HasSuffix(part, ".acf") {
				path = filepath.Join(acfDir, part+".acf")
			}
			if _, err := os.Stat(path); err != nil {
				return nil, fmt.Errorf("profiler %q: no ACF %s (shipped profilers: %s; profhw presets: %s; or a profhw .toml file)", n, path,
					strings.Join(Shipped(acfDir), ", "), strings.Join(profhw.Presets(), ", "))
			}
			p.ACF = append(p.ACF, path)
		}
		prog, err := dise.LoadFiles(cfg, p.ACF...)
		if err != nil {
			return nil, fmt.Errorf("profiler %q:\n%v", n, err)
		}
		if prog.UsesTriggers() {
			if trigger == "" {
				return nil, fmt.Errorf("profiler %q samples with external triggers: give --trigger", n)
			}
			p.Trigger = trigger
		}
		p.Type = acfType(p.ACF)
		out = append(out, p)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no profilers given")
	}
	return out, nil
}

// acfType names the profile an ACF profiler produces, from the shipped
// ACFs' names (hot-code-region*, hot-method*, call-pair*); the run's
// profile kinds correct it (runCell).
func acfType(files []string) string {
	for _, f := range files {
		b := filepath.Base(f)
		switch {
		case strings.HasPrefix(b, "hot-code-region"):
			return "code region"
		case strings.HasPrefix(b, "hot-method"):
			return "method"
		case strings.HasPrefix(b, "call-pair"):
			return "call pair"
		}
	}
	return "other"
}

// units loads a profhw profiler's unit configurations with its settings.
func (p *Profiler) units() ([]*profhw.UnitConfig, error) {
	var cfgs []*profhw.UnitConfig
	var err error
	if p.Source == SourceFile {
		cfgs, err = profhw.Load(p.ProfHW)
	} else {
		cfgs, err = profhw.LoadPreset(p.ProfHW)
	}
	if err != nil {
		return nil, err
	}
	for _, s := range p.Settings {
		key, val, err := profhw.ParseSetting(s)
		if err != nil {
			return nil, fmt.Errorf("profiler %s: %v", p.Name, err)
		}
		for _, c := range cfgs {
			if key != SamplerRate {
				c.Set(key, val)
				continue
			}
			r, ok := val.(int64)
			if !ok || r < 1 {
				return nil, fmt.Errorf("profiler %s: %s: want a sampling rate, a positive integer", p.Name, s)
			}
			if c.Has("compressor") {
				comp := c.String("compressor", "")
				c.Set("compressor", samplerRE.ReplaceAllString(comp, "${1}"+strconv.FormatInt(r, 10)))
			}
		}
	}
	return cfgs, nil
}

// SamplerRate is a profiler key of compare's own: the sampling rate r of
// a stratified unit's compressor, the number after R, P, D, CR, CP or CD
// in its notation (stratified-sampling.md §3.1, §3.3): sampler.rate=64
// makes H[P256]2048 H[P64]2048.
const SamplerRate = "sampler.rate"

var samplerRE = regexp.MustCompile(`(C?[RPD])[0-9]+`)

// typeFromUnits sets a profhw profiler's profile type from its first
// unit: a path or phase unit's own, or a tuple unit's first selector
// (value, edge, address; call-target tuples are call pairs).
func (p *Profiler) typeFromUnits() error {
	cfgs, err := p.units()
	if err != nil {
		return fmt.Errorf("profiler %q: %v", p.Name, err)
	}
	p.Type = "other"
	if len(cfgs) == 0 {
		return nil
	}
	switch c := cfgs[0]; c.Kind {
	case "path", "phase":
		p.Type = c.Kind
	default:
		ts := c.Strings("select.tuples", []string{"value"})
		if len(ts) > 0 {
			p.Type = map[string]string{"value": "value", "edge": "edge", "address": "address", "call-target": "call pair"}[ts[0]]
		}
		if p.Type == "" {
			p.Type = "other"
		}
	}
	return nil
}

// Shipped lists the ACF names in acfDir.
func Shipped(acfDir string) []string {
	m, _ := filepath.Glob(filepath.Join(acfDir, "*.acf"))
	var out []string
	for _, f := range m {
		out = append(out, strings.TrimSuffix(filepath.Base(f), ".acf"))
	}
	sort.Strings(out)
	return out
}

// typeRank orders profile types as Types lists them.
func typeRank(t string) int {
	for i, x := range Types {
		if x == t {
			return i
		}
	}
	return len(Types)
}
