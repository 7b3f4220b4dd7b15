package config

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Load reads and parses a configuration file.
func Load(path string) (*Machine, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, &Error{File: path, Msg: errMsg(err)}
	}
	return Parse(path, data)
}

func errMsg(err error) string {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err.Error()
	}
	return err.Error()
}

// entry is one `key = value` line.
type entry struct {
	sect, key string
	val       string // the value's text, comment stripped
	line      int
}

// Parse parses a configuration file's contents; filename is used in errors
// and as the machine's Name. The file starts from the preset named by its
// top-level `preset` key ("default" if absent) and overrides the keys it sets.
func Parse(filename string, data []byte) (*Machine, error) {
	fail := func(line int, key, format string, args ...any) error {
		return &Error{File: filename, Line: line, Key: key, Msg: fmt.Sprintf(format, args...)}
	}
	var entries []entry
	sect := ""
	seenSect := map[string]int{}
	for i, raw := range strings.Split(string(data), "\n") {
		ln := i + 1
		text, err := stripComment(strings.TrimRight(raw, "\r"))
		if err != "" {
			return nil, fail(ln, "", "%s", err)
		}
		text = strings.TrimSpace(text)
		switch {
		case text == "":
			continue
		case strings.HasPrefix(text, "["):
			if !strings.HasSuffix(text, "]") || strings.HasPrefix(text, "[[") {
				return nil, fail(ln, "", "malformed section header %q: want [name]", text)
			}
			name := strings.TrimSpace(text[1 : len(text)-1])
			if !knownSection(name) {
				return nil, fail(ln, "["+name+"]", "unknown section (sections: %s)", sectionList())
			}
			if prev, dup := seenSect[name]; dup {
				return nil, fail(ln, "["+name+"]", "section repeated (first at line %d)", prev)
			}
			seenSect[name] = ln
			sect = name
		default:
			k, v, ok := strings.Cut(text, "=")
			if !ok {
				return nil, fail(ln, "", "expected key = value or [section], found %q", text)
			}
			k, v = strings.TrimSpace(k), strings.TrimSpace(v)
			if !validKey(k) {
				return nil, fail(ln, "", "bad key %q: want letters, digits and _", k)
			}
			if v == "" {
				return nil, fail(ln, qualify(sect, k), "missing value")
			}
			entries = append(entries, entry{sect: sect, key: k, val: v, line: ln})
		}
	}

	// The top level holds only `preset`.
	base := "default"
	for _, e := range entries {
		if e.sect != "" {
			continue
		}
		if e.key != "preset" {
			return nil, fail(e.line, e.key, "unknown top-level key (only preset = \"NAME\" goes before the first [section])")
		}
		s, err := parseString(e.val)
		if err != "" {
			return nil, fail(e.line, "preset", "%s", err)
		}
		base = s
		if _, ok := presets[s]; !ok {
			return nil, fail(e.line, "preset", "unknown preset %q (presets: %s)", s, strings.Join(Presets(), ", "))
		}
	}
	m, _ := Preset(base)
	m.Name = filename
	byName := map[string]*field{}
	fs := m.fields()
	for i := range fs {
		byName[fs[i].name()] = &fs[i]
	}
	pos := map[string]Error{}
	for _, e := range entries {
		if e.sect == "" {
			continue
		}
		name := e.sect + "." + e.key
		f := byName[name]
		if f == nil {
			return nil, fail(e.line, name, "unknown key (keys of [%s]: %s)", e.sect, keysOf(fs, e.sect))
		}
		if p, dup := pos[name]; dup {
			return nil, fail(e.line, name, "set twice (first at line %d)", p.Line)
		}
		pos[name] = Error{File: filename, Line: e.line}
		switch f.kind {
		case kindInt:
			v, err := parseInt(e.val)
			if err != "" {
				return nil, fail(e.line, name, "%s", err)
			}
			*f.ip = v
		case kindBool:
			switch e.val {
			case "true":
				*f.bp = true
			case "false":
				*f.bp = false
			default:
				return nil, fail(e.line, name, "want true or false, found %s", e.val)
			}
		case kindString:
			s, err := parseString(e.val)
			if err != "" {
				return nil, fail(e.line, name, "%s", err)
			}
			*f.sp = s
		}
	}
	if err := m.validate(pos); err != nil {
		if ce, ok := err.(*Error); ok && ce.File == "" {
			// A derived constraint on keys the file did not set.
			ce.File = filename
		}
		return nil, err
	}
	return m, nil
}

func qualify(sect, key string) string {
	if sect == "" {
		return key
	}
	return sect + "." + key
}

// stripComment removes a # comment that is not inside a string.
func stripComment(s string) (string, string) {
	in := false
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			if in {
				i++
			}
		case '"':
			in = !in
		case '#':
			if !in {
				return s[:i], ""
			}
		}
	}
	if in {
		return "", "unterminated string"
	}
	return s, ""
}

func validKey(k string) bool {
	if k == "" {
		return false
	}
	for _, r := range k {
		if !(r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// parseInt accepts decimal (leading zeros are decimal, not octal) or 0x hex,
// with optional _ separators and a sign.
func parseInt(s string) (int, string) {
	t := strings.ReplaceAll(s, "_", "")
	if strings.HasPrefix(s, "_") || strings.HasSuffix(s, "_") || strings.Contains(s, "__") {
		return 0, fmt.Sprintf("want an integer, found %s", s)
	}
	base, digits := 10, t
	neg := strings.HasPrefix(digits, "-")
	digits = strings.TrimPrefix(strings.TrimPrefix(digits, "-"), "+")
	if h, ok := strings.CutPrefix(digits, "0x"); ok {
		base, digits = 16, h
	} else if h, ok := strings.CutPrefix(digits, "0X"); ok {
		base, digits = 16, h
	}
	if digits == "" || digits[0] == '+' || digits[0] == '-' {
		return 0, fmt.Sprintf("want an integer, found %s", s)
	}
	v, err := strconv.ParseInt(digits, base, 64)
	if neg {
		v = -v
	}
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return 0, fmt.Sprintf("%s is out of range", s)
		}
		return 0, fmt.Sprintf("want an integer, found %s", s)
	}
	if v > 1<<40 || v < -(1<<40) {
		return 0, fmt.Sprintf("%s is out of range", s)
	}
	return int(v), ""
}

// parseString accepts a double-quoted string with \" \\ \n \t escapes.
func parseString(s string) (string, string) {
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return "", fmt.Sprintf("want a double-quoted string, found %s", s)
	}
	var b strings.Builder
	body := s[1 : len(s)-1]
	for i := 0; i < len(body); i++ {
		c := body[i]
		switch {
		case c == '\\' && i+1 < len(body):
			i++
			switch body[i] {
			case '"', '\\':
				b.WriteByte(body[i])
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			default:
				return "", fmt.Sprintf("unknown escape \\%c in %s", body[i], s)
			}
		case c == '\\' || c == '"':
			return "", fmt.Sprintf("malformed string %s", s)
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), ""
}

func knownSection(name string) bool {
	for _, s := range sections {
		if s.name == name {
			return true
		}
	}
	return false
}

func sectionList() string {
	names := make([]string, len(sections))
	for i, s := range sections {
		names[i] = s.name
	}
	return strings.Join(names, ", ")
}

func keysOf(fs []field, sect string) string {
	var ks []string
	for _, f := range fs {
		if f.sect == sect {
			ks = append(ks, f.key)
		}
	}
	return strings.Join(ks, ", ")
}
