package config

import (
	"fmt"
	"strings"
)

// Show returns the named preset as a commented configuration file that a
// user can edit and pass back with --config.
func Show(name string) (string, error) {
	p, ok := presets[name]
	if !ok {
		_, err := Preset(name)
		return "", err
	}
	m, _ := Preset(name)
	return format(m, name, p), nil
}

// Format returns m as a commented configuration file based on the default
// preset (every key is written, so the base only matters for keys added to
// rvsim later).
func Format(m *Machine) string { return format(m, "default", nil) }

func format(m *Machine, base string, p *preset) string {
	var b strings.Builder
	b.WriteString("# rvsim machine configuration for the out-of-order timing model.\n")
	if p != nil {
		fmt.Fprintf(&b, "# Preset %q: %s.\n#\n", base, p.title)
		for _, l := range p.source {
			fmt.Fprintf(&b, "# %s\n", l)
		}
		b.WriteString("#\n")
	} else {
		fmt.Fprintf(&b, "# Machine %q.\n#\n", m.Name)
	}
	b.WriteString("# Use: rvsim run --mode timing --config FILE PROGRAM. Keys left out keep the value of\n")
	b.WriteString("# the preset named below; `rvsim config list` names the presets. Values are integers,\n")
	b.WriteString("# true/false or \"strings\"; sizes and latencies are in bytes and cycles.\n\n")
	fmt.Fprintf(&b, "preset = %q\n", base)
	fs := m.fields()
	for _, s := range sections {
		fmt.Fprintf(&b, "\n[%s]\n# %s\n", s.name, s.doc)
		for i := range fs {
			f := &fs[i]
			if f.sect != s.name {
				continue
			}
			for _, l := range wrap(f.doc, 92) {
				fmt.Fprintf(&b, "# %s\n", l)
			}
			line := fmt.Sprintf("%s = %s", f.key, f.value())
			if f.kind == kindInt && f.ip != nil && *f.ip >= 1024 && *f.ip%1024 == 0 {
				line += "  # " + sizeName(*f.ip)
				if p != nil && p.notes[f.name()] != "" {
					line += "; " + p.notes[f.name()]
				}
			} else if p != nil && p.notes[f.name()] != "" {
				line += "  # " + p.notes[f.name()]
			}
			b.WriteString(line + "\n")
		}
	}
	return b.String()
}

func sizeName(v int) string {
	switch {
	case v%(1<<20) == 0:
		return fmt.Sprintf("%d Mi", v>>20)
	default:
		return fmt.Sprintf("%d Ki", v>>10)
	}
}

// wrap splits text into lines of at most width bytes at spaces.
func wrap(text string, width int) []string {
	var lines []string
	cur := ""
	for _, w := range strings.Fields(text) {
		if cur != "" && len(cur)+1+len(w) > width {
			lines = append(lines, cur)
			cur = w
			continue
		}
		if cur != "" {
			cur += " "
		}
		cur += w
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	return lines
}
