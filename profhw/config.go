package profhw

import (
	"embed"
	"errors"
	"fmt"
	"math"
	"os"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/rvsim/rvsim/internal/tomlfile"
)

// A configuration file (--profhw FILE) is TOML: one [[unit]] table per
// unit, with `name` and `kind` and the kind's own keys, grouped in
// sub-tables ([unit.select], [unit.delivery]…). docs/PROFHW.md lists every
// kind's keys; `rvsim profhw show PRESET` prints a commented example.

// Builder makes a unit of one kind from its configuration.
type Builder func(c *UnitConfig, env Env) (Unit, error)

// KindInfo describes a registered kind of unit.
type KindInfo struct {
	Name  string
	Doc   string // one line: the mechanism and its paper section
	Build Builder
}

var kinds = map[string]KindInfo{}

// Register adds a kind of unit; the unit packages call it from init.
func Register(k KindInfo) {
	if _, dup := kinds[k.Name]; dup {
		panic("profhw: kind registered twice: " + k.Name)
	}
	kinds[k.Name] = k
}

// Kinds lists the registered kinds, sorted by name.
func Kinds() []KindInfo {
	out := make([]KindInfo, 0, len(kinds))
	for _, n := range sortedKeys(kinds) {
		out = append(out, kinds[n])
	}
	return out
}

// UnitConfig is one [[unit]] table. Its getters read a key (dotted for
// sub-tables: "select.classes") with a default and a valid range; the
// first bad value is kept as the error Err returns, which also names keys
// no getter read (a misspelled key is an error, not a silent default).
type UnitConfig struct {
	File string
	Name string
	Kind string
	Line int // the [[unit]] header's line

	vals  map[string]any // dotted key -> value
	lines map[string]int // dotted key -> line
	used  map[string]bool
	set   map[string]bool // keys Set overrode
	err   error
}

// NewUnitConfig builds a configuration from values (tests, and units
// built by code rather than files).
func NewUnitConfig(name, kind string, vals map[string]any) *UnitConfig {
	c := &UnitConfig{File: "<config>", Name: name, Kind: kind, vals: map[string]any{}, lines: map[string]int{}, used: map[string]bool{}}
	for k, v := range vals {
		c.vals[k] = v
	}
	return c
}

// Set overrides a key (dotted, as Has takes it) with a value as the
// TOML decoder gives it (--profhw-set).
func (c *UnitConfig) Set(key string, v any) {
	c.vals[key] = v
	delete(c.lines, key) // errors about it name the unit's header line
	if c.set == nil {
		c.set = map[string]bool{}
	}
	c.set[key] = true
}

// Overridden reports whether Set gave the key its value: a preset's keys
// that contradict it yield to it.
func (c *UnitConfig) Overridden(key string) bool { return c.set[key] }

// ParseSetting reads a --profhw-set KEY=VALUE: KEY is a unit key, dotted
// for sub-tables (error.exact); VALUE is a TOML value (true, 100, 0.5,
// "x", ["edge"]), or else taken as a string (H[P256]2048).
func ParseSetting(s string) (key string, val any, err error) {
	key, text, ok := strings.Cut(s, "=")
	key, text = strings.TrimSpace(key), strings.TrimSpace(text)
	if !ok || key == "" || text == "" {
		return "", nil, fmt.Errorf("%q: want KEY=VALUE, e.g. error.exact=false", s)
	}
	for _, part := range strings.Split(key, ".") {
		if part == "" || !validName(part) {
			return "", nil, fmt.Errorf("%q: %q is not a key (letters, digits, - and _, dotted for sub-tables)", s, key)
		}
	}
	if key == "name" || key == "kind" {
		return "", nil, fmt.Errorf("%q: a unit's %s is set in its file", s, key)
	}
	var doc map[string]any
	if _, err := toml.Decode("v = "+text, &doc); err == nil {
		return key, doc["v"], nil
	}
	return key, text, nil
}

// Has reports whether the key is set.
func (c *UnitConfig) Has(key string) bool { _, ok := c.vals[key]; return ok }

// Errorf records an error about key (the first one wins) and returns it.
func (c *UnitConfig) Errorf(key, format string, args ...any) error {
	e := &Error{File: c.File, Line: c.lines[key], Key: c.qualified(key), Msg: fmt.Sprintf(format, args...)}
	if e.Line == 0 {
		e.Line = c.Line
	}
	if c.err == nil {
		c.err = e
	}
	return e
}

func (c *UnitConfig) qualified(key string) string {
	if c.Name != "" {
		return "unit " + c.Name + ": " + key
	}
	return key
}

func (c *UnitConfig) get(key string) (any, bool) {
	v, ok := c.vals[key]
	if ok {
		c.used[key] = true
	}
	return v, ok
}

// Int reads an integer in [lo, hi]. Strings such as "0x1000" or "64K" are
// accepted too.
func (c *UnitConfig) Int(key string, def, lo, hi int64) int64 {
	v, ok := c.get(key)
	if !ok {
		return def
	}
	var n int64
	switch x := v.(type) {
	case int64:
		n = x
	case string:
		p, err := ParseSize(x)
		if err != nil {
			c.Errorf(key, "%v", err)
			return def
		}
		n = p
	default:
		c.Errorf(key, "want an integer, found %s", describe(v))
		return def
	}
	if n < lo || n > hi {
		c.Errorf(key, "%d is out of range [%d, %d]", n, lo, hi)
		return def
	}
	return n
}

// Float reads a number in [lo, hi].
func (c *UnitConfig) Float(key string, def, lo, hi float64) float64 {
	v, ok := c.get(key)
	if !ok {
		return def
	}
	var f float64
	switch x := v.(type) {
	case int64:
		f = float64(x)
	case float64:
		f = x
	default:
		c.Errorf(key, "want a number, found %s", describe(v))
		return def
	}
	if math.IsNaN(f) || f < lo || f > hi {
		c.Errorf(key, "%g is out of range [%g, %g]", f, lo, hi)
		return def
	}
	return f
}

// Bool reads a boolean.
func (c *UnitConfig) Bool(key string, def bool) bool {
	v, ok := c.get(key)
	if !ok {
		return def
	}
	b, isBool := v.(bool)
	if !isBool {
		c.Errorf(key, "want true or false, found %s", describe(v))
		return def
	}
	return b
}

// String reads a string; if choices are given it must be one of them.
func (c *UnitConfig) String(key, def string, choices ...string) string {
	v, ok := c.get(key)
	if !ok {
		return def
	}
	s, isStr := v.(string)
	if !isStr {
		c.Errorf(key, "want a string, found %s", describe(v))
		return def
	}
	if len(choices) > 0 && !contains(choices, s) {
		c.Errorf(key, "%q is not one of %s", s, strings.Join(choices, ", "))
		return def
	}
	return s
}

// Strings reads a list of strings (a single string is a list of one).
func (c *UnitConfig) Strings(key string, def []string) []string {
	v, ok := c.get(key)
	if !ok {
		return def
	}
	switch x := v.(type) {
	case string:
		return []string{x}
	case []any:
		out := make([]string, 0, len(x))
		for _, e := range x {
			s, isStr := e.(string)
			if !isStr {
				c.Errorf(key, "want a list of strings, found an element %s", describe(e))
				return def
			}
			out = append(out, s)
		}
		return out
	}
	c.Errorf(key, "want a list of strings, found %s", describe(v))
	return def
}

// Ints reads a list of integers.
func (c *UnitConfig) Ints(key string, def []int64) []int64 {
	v, ok := c.get(key)
	if !ok {
		return def
	}
	list, isList := v.([]any)
	if !isList {
		list = []any{v}
	}
	out := make([]int64, 0, len(list))
	for _, e := range list {
		switch x := e.(type) {
		case int64:
			out = append(out, x)
		case string:
			n, err := ParseSize(x)
			if err != nil {
				c.Errorf(key, "%v", err)
				return def
			}
			out = append(out, n)
		default:
			c.Errorf(key, "want a list of integers, found an element %s", describe(e))
			return def
		}
	}
	return out
}

// Err returns the first error, or one naming a key no getter read.
func (c *UnitConfig) Err() error {
	if c.err != nil {
		return c.err
	}
	for _, k := range sortedKeys(c.vals) {
		if !c.used[k] {
			return c.Errorf(k, "unknown key for kind %q (docs/PROFHW.md lists its keys)", c.Kind)
		}
	}
	return nil
}

func describe(v any) string {
	switch x := v.(type) {
	case string:
		return strconv.Quote(x)
	case int64:
		return "the integer " + strconv.FormatInt(x, 10)
	case float64:
		return "the number " + strconv.FormatFloat(x, 'g', -1, 64)
	case bool:
		return "the boolean " + strconv.FormatBool(x)
	case []any:
		return "a list"
	case map[string]any:
		return "a table"
	}
	return fmt.Sprintf("%T", v)
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

// ParseSize reads an integer: decimal, 0x hex, or with a K/M/G suffix
// (powers of 1024), e.g. "64K".
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	mul := int64(1)
	if n := len(t); n > 0 && !strings.HasPrefix(t, "0x") {
		switch t[n-1] {
		case 'K', 'k':
			mul, t = 1<<10, t[:n-1]
		case 'M', 'm':
			mul, t = 1<<20, t[:n-1]
		case 'G', 'g':
			mul, t = 1<<30, t[:n-1]
		}
	}
	n, err := strconv.ParseInt(t, 0, 64)
	if err != nil || n > math.MaxInt64/mul {
		return 0, fmt.Errorf("%q is not an integer (decimal, 0x hex, or with a K/M/G suffix)", s)
	}
	return n * mul, nil
}

// Load reads a configuration file.
func Load(file string) ([]*UnitConfig, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, &Error{File: file, Msg: err.Error()}
	}
	return Parse(file, data)
}

var (
	headerRE = regexp.MustCompile(`^\s*\[\[?\s*([A-Za-z0-9_.\-]+)\s*\]\]?`)
	keyRE    = regexp.MustCompile(`^\s*([A-Za-z0-9_\-]+)\s*=`)
)

// Parse reads a configuration file's text: every [[unit]] table.
func Parse(file string, data []byte) ([]*UnitConfig, error) {
	doc, _, err := tomlfile.Decode(file, data)
	if err != nil {
		return nil, err
	}
	for _, k := range sortedKeys(doc) {
		if k != "unit" {
			return nil, &Error{File: file, Line: lineOfTop(data, k), Key: k, Msg: "unknown top-level key: a file holds [[unit]] tables"}
		}
	}
	raw, ok := doc["unit"]
	if !ok {
		return nil, &Error{File: file, Msg: "no [[unit]] table: nothing to simulate"}
	}
	tables, ok := raw.([]map[string]any)
	if !ok {
		return nil, &Error{File: file, Line: lineOfTop(data, "unit"), Key: "unit", Msg: "want [[unit]] tables (an array of tables)"}
	}
	lines, headers := keyLines(data)
	var out []*UnitConfig
	names := map[string]int{}
	for i, t := range tables {
		c := &UnitConfig{File: file, vals: map[string]any{}, lines: map[string]int{}, used: map[string]bool{}}
		if i < len(headers) {
			c.Line = headers[i]
		}
		flatten("", t, c.vals)
		if i < len(lines) {
			c.lines = lines[i]
		}
		c.Name = c.String("name", "")
		c.Kind = c.String("kind", "")
		switch {
		case c.err != nil:
			return nil, c.err
		case c.Name == "":
			return nil, &Error{File: file, Line: c.Line, Key: "unit", Msg: "missing name = \"...\" (the unit's output file prefix)"}
		case !validName(c.Name):
			return nil, &Error{File: file, Line: c.lines["name"], Key: "name", Msg: fmt.Sprintf("%q: want letters, digits, - and _", c.Name)}
		case c.Kind == "":
			return nil, &Error{File: file, Line: c.Line, Key: "unit " + c.Name, Msg: "missing kind = \"...\" (" + kindList() + ")"}
		}
		if _, known := kinds[c.Kind]; !known {
			return nil, &Error{File: file, Line: c.lines["kind"], Key: "unit " + c.Name + ": kind", Msg: fmt.Sprintf("unknown kind %q (kinds: %s)", c.Kind, kindList())}
		}
		if prev, dup := names[c.Name]; dup {
			return nil, &Error{File: file, Line: c.lines["name"], Key: "name", Msg: fmt.Sprintf("unit name %q repeated (first at line %d)", c.Name, prev)}
		}
		names[c.Name] = c.lines["name"]
		out = append(out, c)
	}
	return out, nil
}

func kindList() string {
	ks := sortedKeys(kinds)
	if len(ks) == 0 {
		return "none registered"
	}
	return strings.Join(ks, ", ")
}

func validName(s string) bool {
	for _, r := range s {
		if !(r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return s != ""
}

func flatten(prefix string, t map[string]any, out map[string]any) {
	for k, v := range t {
		if sub, ok := v.(map[string]any); ok {
			flatten(prefix+k+".", sub, out)
			continue
		}
		out[prefix+k] = v
	}
}

// keyLines finds, per [[unit]] table, the line of each dotted key, and
// the line of each [[unit]] header. It reads the layout this package's
// files use (headers and `key = value` lines); the TOML decoder has
// already checked the syntax.
func keyLines(data []byte) (units []map[string]int, headers []int) {
	prefix := ""
	for i, line := range strings.Split(string(data), "\n") {
		ln := i + 1
		if m := headerRE.FindStringSubmatch(line); m != nil && !strings.Contains(line[:strings.Index(line, m[1])], "=") {
			name := m[1]
			if strings.HasPrefix(strings.TrimSpace(line), "[[") && name == "unit" {
				units = append(units, map[string]int{})
				headers = append(headers, ln)
				prefix = ""
				continue
			}
			prefix = strings.TrimPrefix(name, "unit.")
			if prefix == name {
				prefix = "?" + name // not inside a unit
			}
			prefix += "."
			continue
		}
		if m := keyRE.FindStringSubmatch(line); m != nil && len(units) > 0 {
			units[len(units)-1][prefix+m[1]] = ln
		}
	}
	return units, headers
}

func lineOfTop(data []byte, key string) int {
	for i, line := range strings.Split(string(data), "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, key) || strings.HasPrefix(t, "["+key) || strings.HasPrefix(t, "[["+key) {
			return i + 1
		}
	}
	return 0
}

// Build makes the units of the configurations, in order.
func Build(cfgs []*UnitConfig, env Env) ([]Unit, error) {
	var units []Unit
	seen := map[string]string{}
	for _, c := range cfgs {
		if prev, dup := seen[c.Name]; dup {
			return nil, &Error{File: c.File, Line: c.lines["name"], Key: "name", Msg: fmt.Sprintf("unit name %q is used by %s too", c.Name, prev)}
		}
		seen[c.Name] = c.File
		k, ok := kinds[c.Kind]
		if !ok {
			return nil, &Error{File: c.File, Line: c.Line, Key: "kind", Msg: fmt.Sprintf("unknown kind %q (kinds: %s)", c.Kind, kindList())}
		}
		u, err := k.Build(c, env)
		if err == nil {
			err = c.Err()
		}
		if err != nil {
			return nil, err
		}
		units = append(units, u)
	}
	return units, nil
}

// Presets: the papers' configurations, shipped as files.

//go:embed presets/*.toml
var presetFS embed.FS

// Presets lists the shipped presets' names.
func Presets() []string {
	ents, _ := presetFS.ReadDir("presets")
	var out []string
	for _, e := range ents {
		out = append(out, strings.TrimSuffix(e.Name(), ".toml"))
	}
	sort.Strings(out)
	return out
}

// PresetText returns a preset's file.
func PresetText(name string) ([]byte, error) {
	data, err := presetFS.ReadFile(path.Join("presets", name+".toml"))
	if err != nil {
		return nil, fmt.Errorf("unknown profhw preset %q (presets: %s)", name, strings.Join(Presets(), ", "))
	}
	return data, nil
}

// PresetTitle is a preset's first comment line.
func PresetTitle(name string) string {
	data, err := PresetText(name)
	if err != nil {
		return ""
	}
	first, _, _ := strings.Cut(string(data), "\n")
	return strings.TrimSpace(strings.TrimPrefix(first, "#"))
}

// LoadPreset parses a shipped preset.
func LoadPreset(name string) ([]*UnitConfig, error) {
	data, err := PresetText(name)
	if err != nil {
		return nil, err
	}
	return Parse("preset "+name, data)
}
