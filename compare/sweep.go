package compare

import (
	"errors"
	"fmt"
	"strings"

	"github.com/rvsim/rvsim/config"
	"github.com/rvsim/rvsim/profhw"
)

// Sweep varies one parameter over a list of values (--sweep
// KEY=V1,V2,...): a machine key (config: "l2.size", "core.rob") changes
// the machine of every run, the baseline's too; any other key is a profhw
// unit key ("hpt.entries", "compressor") and changes the units of the
// profhw profilers whose configuration has it.
type Sweep struct {
	Key     string   `json:"key"`
	Values  []string `json:"values"`
	Machine bool     `json:"machine"`
}

// ParseSweep reads --sweep KEY=V1,V2,... against the profilers.
func ParseSweep(s string, profilers []Profiler, timing bool) (*Sweep, error) {
	key, list, ok := strings.Cut(s, "=")
	key = strings.TrimSpace(key)
	if !ok || key == "" || strings.TrimSpace(list) == "" {
		return nil, fmt.Errorf("--sweep %q: want KEY=V1,V2,... (e.g. hpt.entries=128,512,2048)", s)
	}
	sw := &Sweep{Key: key}
	seen := map[string]bool{}
	for _, v := range strings.Split(list, ",") {
		v = strings.TrimSpace(v)
		if v == "" || seen[v] {
			return nil, fmt.Errorf("--sweep %q: empty or repeated value %q", s, v)
		}
		seen[v] = true
		sw.Values = append(sw.Values, v)
	}
	for _, k := range config.Keys() {
		if k == key {
			sw.Machine = true
		}
	}
	if sw.Machine {
		if !timing {
			return nil, fmt.Errorf("--sweep %s: a machine key needs --mode timing", key)
		}
		for _, v := range sw.Values {
			if _, err := setMachineKey(config.Format(config.Default()), key+"="+v); err != nil {
				return nil, fmt.Errorf("--sweep %s", err)
			}
		}
		return sw, nil
	}
	n := 0
	for i := range profilers {
		if sw.applies(&profilers[i]) {
			n++
		}
	}
	if n == 0 {
		return nil, fmt.Errorf("--sweep %s: not a machine key ('rvsim config show') and no profhw profiler's configuration has it", key)
	}
	for _, v := range sw.Values {
		if _, _, err := profhw.ParseSetting(key + "=" + v); err != nil {
			return nil, fmt.Errorf("--sweep %v", err)
		}
	}
	return sw, nil
}

// applies reports whether a profiler sweep changes p: a profhw profiler
// one of whose units has the key.
func (sw *Sweep) applies(p *Profiler) bool {
	if sw.Machine || p.Source == SourceACF {
		return false
	}
	cfgs, err := (&Profiler{Source: p.Source, ProfHW: p.ProfHW}).units()
	if err != nil {
		return false
	}
	for _, c := range cfgs {
		if c.Has(sw.Key) || sw.Key == SamplerRate && c.Has("compressor") {
			return true
		}
	}
	return false
}

// setMachineKey sets "section.key=value" in a machine configuration's
// text (config.Format's layout: "[section]" headers, "key = value" lines)
// and checks the result parses.
func setMachineKey(text, point string) (string, error) {
	name, val, _ := strings.Cut(point, "=")
	i := strings.LastIndex(name, ".")
	if i < 0 {
		return "", fmt.Errorf("%s: want section.key", name)
	}
	sect, key := name[:i], name[i+1:]
	lines := strings.Split(text, "\n")
	cur, done := "", false
	for j, l := range lines {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "[") && strings.HasSuffix(t, "]") {
			cur = strings.Trim(t, "[]")
			continue
		}
		if cur == sect && (strings.HasPrefix(t, key+" =") || strings.HasPrefix(t, key+"=")) {
			lines[j] = key + " = " + val
			done = true
		}
	}
	if !done {
		return "", fmt.Errorf("%s: no such key in the machine configuration", name)
	}
	out := strings.Join(lines, "\n")
	if _, err := config.Parse("--sweep", []byte(out)); err != nil {
		// The line is of a generated file: name the point, not the line.
		var ce *config.Error
		if errors.As(err, &ce) && ce.Key != "" {
			return "", fmt.Errorf("%s: %s", point, ce.Msg)
		}
		return "", fmt.Errorf("%s: %v", point, err)
	}
	return out, nil
}
