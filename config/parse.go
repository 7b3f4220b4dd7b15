package config

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
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

// Parse parses a configuration file's contents (TOML, read by
// github.com/BurntSushi/toml like rvsim's other files); filename is used
// in errors and as the machine's Name. The file starts from the preset
// named by its top-level `preset` key ("default" if absent) and overrides
// the keys it sets.
func Parse(filename string, data []byte) (*Machine, error) {
	fail := func(line int, key, format string, args ...any) error {
		return &Error{File: filename, Line: line, Key: key, Msg: fmt.Sprintf(format, args...)}
	}
	var doc map[string]any
	if _, err := toml.Decode(string(data), &doc); err != nil {
		var pe toml.ParseError
		if !errors.As(err, &pe) {
			return nil, fail(0, "", "%s", err.Error())
		}
		line, key, msg := pe.Position.Line, pe.LastKey, pe.Message
		if strings.Contains(pe.Message, `got '\n'`) && line > 1 {
			line-- // the decoder reports an unexpected end of line on the next one
		}
		if key != "" && keyLines(data)[key] != line {
			key = "" // the last key read, not the one in error
		}
		if m := redefined.FindStringSubmatch(msg); m != nil {
			// Name the line of the first definition, as for every other key.
			key, msg = m[1], "set twice"
			if first := keyLines(data)[key]; first > 0 && first < line {
				msg = fmt.Sprintf("set twice (first at line %d)", first)
			}
			if isSectionPrefix(key) {
				key = "[" + key + "]"
			}
		}
		return nil, fail(line, key, "%s", msg)
	}
	lines := keyLines(data)

	// The top level holds only `preset` and the sections.
	base := "default"
	if v, ok := doc["preset"]; ok {
		s, ok := v.(string)
		if !ok {
			return nil, fail(lines["preset"], "preset", "want a string, found %s", describe(v))
		}
		if _, ok := presets[s]; !ok {
			return nil, fail(lines["preset"], "preset", "unknown preset %q (presets: %s)", s, strings.Join(Presets(), ", "))
		}
		base = s
	}
	m, _ := Preset(base)
	m.Name = filename
	byName := map[string]*field{}
	fs := m.fields()
	for i := range fs {
		byName[fs[i].name()] = &fs[i]
	}
	pos := map[string]Error{}
	var walk func(sect string, t map[string]any) error
	walk = func(sect string, t map[string]any) error {
		for _, k := range sortedKeys(sect, t, lines) {
			v := t[k]
			name := qualify(sect, k)
			if sub, ok := v.(map[string]any); ok {
				if !isSectionPrefix(name) && knownSection(sect) {
					return fail(lines[name], name, "unknown key (keys of [%s]: %s)", sect, keysOf(fs, sect))
				}
				if !isSectionPrefix(name) {
					return fail(lines[name], "["+name+"]", "unknown section (sections: %s)", sectionList())
				}
				if err := walk(name, sub); err != nil {
					return err
				}
				continue
			}
			switch {
			case sect == "" && name == "preset":
				continue
			case sect == "" && isSectionPrefix(name):
				return fail(lines[name], "["+name+"]", "want a [%s] table, found %s", name, describe(v))
			case sect == "":
				return fail(lines[name], name, "unknown top-level key (only preset = \"NAME\" goes before the first [section])")
			case !knownSection(sect):
				return fail(lines[name], name, "unknown key: [%s] is not a section (sections: %s)", sect, sectionList())
			}
			f := byName[name]
			if f == nil {
				return fail(lines[name], name, "unknown key (keys of [%s]: %s)", sect, keysOf(fs, sect))
			}
			pos[name] = Error{File: filename, Line: lines[name]}
			switch f.kind {
			case kindInt:
				n, ok := v.(int64)
				if !ok {
					return fail(lines[name], name, "want an integer, found %s", describe(v))
				}
				if int64(int(n)) != n || n > 1<<40 || n < -(1<<40) {
					return fail(lines[name], name, "%d is out of range", n)
				}
				*f.ip = int(n)
			case kindBool:
				b, ok := v.(bool)
				if !ok {
					return fail(lines[name], name, "want true or false, found %s", describe(v))
				}
				*f.bp = b
			case kindString:
				s, ok := v.(string)
				if !ok {
					return fail(lines[name], name, "want a double-quoted string, found %s", describe(v))
				}
				*f.sp = s
			}
		}
		return nil
	}
	if err := walk("", doc); err != nil {
		return nil, err
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

// redefined is the decoder's message for a key or table defined twice.
var redefined = regexp.MustCompile(`^Key '(.*)' has already been defined\.$`)

// sortedKeys returns the keys of table sect in file order (then by name),
// so that the error reported in a file with several is the first one.
func sortedKeys(sect string, t map[string]any, lines map[string]int) []string {
	ks := make([]string, 0, len(t))
	for k := range t {
		ks = append(ks, k)
	}
	sort.Slice(ks, func(i, j int) bool {
		li, lj := lines[qualify(sect, ks[i])], lines[qualify(sect, ks[j])]
		if li != lj {
			return li < lj
		}
		return ks[i] < ks[j]
	})
	return ks
}

// isSectionPrefix reports whether name is a section or the first part of
// a dotted one ("fu" of [fu.int_alu]).
func isSectionPrefix(name string) bool {
	for _, s := range sections {
		if s.name == name || strings.HasPrefix(s.name, name+".") {
			return true
		}
	}
	return false
}

// keyLines maps each "section.key" and "section" of a file that TOML
// accepted to the line that defines it (the first, when a name is on
// several lines). It reads the forms rvsim's files use: [section]
// headers and key = value lines, with bare, quoted or dotted keys; a key
// in an inline table or after a multi-line string may map to 0 (its error
// then names the file and key without a line).
func keyLines(data []byte) map[string]int {
	out := map[string]int{}
	set := func(name string, line int) {
		if _, ok := out[name]; !ok {
			out[name] = line
		}
	}
	sect := ""
	inMulti := ""
	for i, raw := range strings.Split(string(data), "\n") {
		ln := i + 1
		s := strings.TrimSpace(raw)
		if inMulti != "" {
			if strings.Count(s, inMulti)%2 == 1 {
				inMulti = ""
			}
			continue
		}
		switch {
		case s == "" || s[0] == '#':
		case s[0] == '[':
			end := strings.IndexByte(s, ']')
			if end < 0 {
				continue
			}
			sect = normKey(strings.Trim(s[:end], "[ \t"))
			set(sect, ln)
		default:
			k, v, ok := strings.Cut(s, "=")
			if !ok {
				continue
			}
			name := qualify(sect, normKey(k))
			set(name, ln)
			for p := name; strings.Contains(p, "."); {
				p = p[:strings.LastIndexByte(p, '.')]
				set(p, ln)
			}
			for _, q := range []string{`"""`, `'''`} {
				if strings.Count(v, q)%2 == 1 {
					inMulti = q
				}
			}
		}
	}
	return out
}

// normKey turns a TOML key as written (` a . "b" `) into a dotted name.
func normKey(k string) string {
	parts := strings.Split(k, ".")
	for i, p := range parts {
		p = strings.TrimSpace(p)
		if len(p) >= 2 && (p[0] == '"' || p[0] == '\'') && p[len(p)-1] == p[0] {
			p = p[1 : len(p)-1]
		}
		parts[i] = p
	}
	return strings.Join(parts, ".")
}

// describe names a decoded TOML value in an error.
func describe(v any) string {
	switch x := v.(type) {
	case string:
		return "the string " + strconv.Quote(x)
	case int64:
		return "the integer " + strconv.FormatInt(x, 10)
	case float64:
		return "the number " + strconv.FormatFloat(x, 'g', -1, 64)
	case bool:
		return "the boolean " + strconv.FormatBool(x)
	case []any, []map[string]any:
		return "an array"
	case map[string]any:
		return "a table"
	case time.Time:
		return "a date-time"
	}
	return fmt.Sprintf("%T", v)
}

func qualify(sect, key string) string {
	if sect == "" {
		return key
	}
	return sect + "." + key
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
