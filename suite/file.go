package suite

import (
	_ "embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/rvsim/rvsim/internal/tomlfile"
)

// A suite file (TOML) lists workloads: a program, its arguments, standard
// input, working directory, the files it needs, its environment, a guest
// root, and named inputs (test, ref, or any name), each with its expected
// output (a file, or a command that checks it). docs/SUITES.md describes
// the format; builtin.toml is the project's own suite written in it.
//
// Paths are the host's, relative to the suite file's directory, except a
// program or working directory given as an absolute path in a workload
// with a root: that is a path inside the root.

//go:embed builtin.toml
var builtinFile []byte

// BuiltinFile is the name errors in the embedded built-in suite carry.
const BuiltinFile = "suite/builtin.toml"

//go:embed real.toml
var realFile []byte

// RealFile is the name errors in the embedded real suite carry.
const RealFile = "suite/real.toml"

// Suite is a parsed suite file.
type Suite struct {
	File        string
	Name        string
	Description string
	Benchmarks  []Benchmark
}

// Error is a problem in a suite file: it renders as file:line: key: message.
type Error = tomlfile.Error

// ParseOptions say where a suite file's relative paths start.
type ParseOptions struct {
	Base   string // the directory relative paths are taken from (Load: the file's)
	BinDir string // overrides the file's bindir (rvsim benchmarks --bin)
}

// Load reads and parses a suite file.
func Load(file string) (*Suite, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, &Error{File: file, Msg: err.Error()}
	}
	return Parse(file, data, ParseOptions{Base: filepath.Dir(file)})
}

// Builtin returns the project's benchmark suite (builtin.toml), with the
// sources and expected outputs in srcDir and the binaries in binDir.
func Builtin(srcDir, binDir string) ([]Benchmark, error) {
	s, err := Parse(BuiltinFile, builtinFile, ParseOptions{Base: srcDir, BinDir: binDir})
	if err != nil {
		return nil, err
	}
	return s.Benchmarks, nil
}

// Real returns the real suite (real.toml: Debian's programs in the root
// make setup builds, on the project's inputs), its relative paths taken
// from the suite/ directory of the checkout at repo, as if loaded from
// there.
func Real(repo string) (*Suite, error) {
	return Parse(RealFile, realFile, ParseOptions{Base: filepath.Join(repo, "suite")})
}

// Named returns the workloads of a suite: "" or "builtin" the built-in
// suite (its sources in src, binaries in bin), "real" the real suite of
// the checkout at repo, anything else a suite file's path.
func Named(name, src, bin, repo string) ([]Benchmark, error) {
	switch name {
	case "", "builtin":
		return Builtin(src, bin)
	case "real":
		s, err := Real(repo)
		if err != nil {
			return nil, err
		}
		return s.Benchmarks, nil
	}
	s, err := Load(name)
	if err != nil {
		return nil, err
	}
	return s.Benchmarks, nil
}

// inputSpec is a workload's input as the file gives it, its paths resolved.
type inputSpec struct {
	name                   string
	line                   int
	key                    string // its TOML key, for errors
	args                   []string
	stdin, stdout, stderr  string // host paths ("" none)
	stdoutKey, stderrKey   string
	stdoutLine, stderrLine int
	stdinKey               string
	stdinLine              int
	files                  []string
	filesKey               string
	filesLine              int
	status                 int
	check                  string
}

var nameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._+-]*$`)

// Keys each table may hold.
var (
	topKeys      = []string{"name", "description", "bindir", "root", "sysroot", "env", "workload"}
	workloadKeys = []string{"name", "description", "program", "args", "stdin", "cwd", "files", "env", "root", "sysroot",
		"stdout", "stderr", "status", "check", "inputs"}
	inputKeys = []string{"args", "stdin", "files", "stdout", "stderr", "status", "check"}
)

// Parse reads a suite file's text.
func Parse(file string, data []byte, opt ParseOptions) (*Suite, error) {
	doc, md, err := tomlfile.Decode(file, data)
	if err != nil {
		return nil, err
	}
	p := &parser{file: file, lines: keyLines(data, md.Keys())}
	base := opt.Base
	if base == "" {
		base = "."
	}
	top := table{p: p, m: doc}
	if err := top.only(topKeys); err != nil {
		return nil, err
	}
	s := &Suite{File: file}
	var defRoot, defSysroot, bindir string
	var defEnv []string
	for _, f := range []func() error{
		func() (err error) { s.Name, err = top.str("name"); return },
		func() (err error) { s.Description, err = top.str("description"); return },
		func() (err error) { bindir, err = top.str("bindir"); return },
		func() (err error) { defRoot, err = top.str("root"); return },
		func() (err error) { defSysroot, err = top.str("sysroot"); return },
		func() (err error) { defEnv, err = top.env("env"); return },
	} {
		if err := f(); err != nil {
			return nil, err
		}
	}
	if s.Name == "" {
		s.Name = strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
	}
	bindir = hostPath(base, bindir)
	if bindir == "" {
		bindir = absPath(base)
	}
	if opt.BinDir != "" {
		bindir = opt.BinDir
	}
	raw, ok := doc["workload"]
	if !ok {
		return nil, &Error{File: file, Msg: "no [[workload]] table: a suite file lists its workloads as [[workload]] tables"}
	}
	wls, ok := raw.([]map[string]any)
	if !ok {
		return nil, p.errorf("workload", "want [[workload]] tables (an array of tables)")
	}
	seen := map[string]int{}
	for i, m := range wls {
		w := table{p: p, m: m, path: fmt.Sprintf("workload[%d]", i)}
		b, err := w.workload(base, bindir, defRoot, defSysroot, defEnv)
		if err != nil {
			return nil, err
		}
		if first, dup := seen[b.Name]; dup {
			return nil, w.errorf("name", "workload %q repeated (first at line %d)", b.Name, first)
		}
		seen[b.Name] = p.line(w.path + ".name")
		s.Benchmarks = append(s.Benchmarks, b)
	}
	return s, nil
}

// workload reads one [[workload]] table.
func (w table) workload(base, bindir, defRoot, defSysroot string, defEnv []string) (Benchmark, error) {
	var b Benchmark
	if err := w.only(workloadKeys); err != nil {
		return b, err
	}
	name, err := w.str("name")
	if err != nil {
		return b, err
	}
	if name == "" {
		return b, w.errorf("", "missing name = \"...\"")
	}
	if !nameRE.MatchString(name) {
		return b, w.errorf("name", "%q: want letters, digits, '.', '_', '+' and '-'", name)
	}
	b.Name, b.File, b.Line, b.SuiteDir = name, w.p.file, w.p.line(w.path), absPath(base)
	if b.Description, err = w.str("description"); err != nil {
		return b, err
	}
	root, err := w.str("root")
	if err != nil {
		return b, err
	}
	if root == "" {
		root = defRoot
	}
	if root != "" {
		b.Root = hostPath(base, root)
	}
	sysroot, err := w.str("sysroot")
	if err != nil {
		return b, err
	}
	if sysroot == "" {
		sysroot = defSysroot
	}
	if sysroot != "" {
		b.Sysroot = hostPath(base, sysroot)
	}
	env, err := w.env("env")
	if err != nil {
		return b, err
	}
	b.Env = mergeEnv(defEnv, env)
	prog, err := w.str("program")
	if err != nil {
		return b, err
	}
	switch {
	case prog == "":
		return b, w.errorf("", "workload %q: missing program = \"...\"", name)
	case b.Root != "" && filepath.IsAbs(prog):
		b.Binary, b.ExePath = "", filepath.ToSlash(filepath.Clean(prog)) // resolved in the root at run time
	default:
		b.Binary = hostPath(bindir, prog)
	}
	cwd, err := w.str("cwd")
	if err != nil {
		return b, err
	}
	switch {
	case cwd == "" && b.Root != "":
		b.GuestCwd = "/"
	case cwd == "":
		b.Dir = absPath(base)
	case b.Root != "" && filepath.IsAbs(cwd):
		b.GuestCwd = filepath.ToSlash(filepath.Clean(cwd))
	case b.Root != "":
		// A host directory, which the guest sees by its path in the root.
		rel, err := filepath.Rel(b.Root, hostPath(base, cwd))
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return b, w.errorf("cwd", "%s is outside the workload's root %s (an absolute cwd is a path inside the root)", cwd, b.Root)
		}
		b.GuestCwd = "/" + filepath.ToSlash(rel)
		if rel == "." {
			b.GuestCwd = "/"
		}
	default:
		b.Dir = hostPath(base, cwd)
	}
	// The workload's own values are every input's defaults.
	def, err := w.input(base, inputSpec{key: "workload"})
	if err != nil {
		return b, err
	}
	ins, err := w.table("inputs")
	if err != nil {
		return b, err
	}
	if ins.m == nil || len(ins.m) == 0 {
		return b, w.errorf("", "workload %q has no inputs: add [workload.inputs.test] (and ref, or any name)", name)
	}
	b.inputs = map[string]*inputSpec{}
	for _, n := range ins.sortedKeys() {
		it, err := ins.table(n)
		if err != nil {
			return b, err
		}
		if !nameRE.MatchString(n) {
			return b, it.errorf("", "input name %q: want letters, digits, '.', '_', '+' and '-'", n)
		}
		if err := it.only(inputKeys); err != nil {
			return b, err
		}
		spec, err := it.input(base, def)
		if err != nil {
			return b, err
		}
		spec.name, spec.line, spec.key = n, w.p.line(it.path), "workload.inputs."+n
		b.inputs[n] = &spec
	}
	return b, nil
}

// input reads an input's keys (or the workload's defaults for them) over def.
func (t table) input(base string, def inputSpec) (inputSpec, error) {
	in := def
	in.files = append([]string(nil), def.files...)
	if _, ok := t.m["args"]; ok {
		args, err := t.strList("args")
		if err != nil {
			return in, err
		}
		in.args = args
	}
	for _, f := range []struct {
		key             string
		dst, dstKey     *string
		dstLine         *int
		relativeToSuite bool
	}{
		{"stdin", &in.stdin, &in.stdinKey, &in.stdinLine, true},
		{"stdout", &in.stdout, &in.stdoutKey, &in.stdoutLine, true},
		{"stderr", &in.stderr, &in.stderrKey, &in.stderrLine, true},
	} {
		v, err := t.str(f.key)
		if err != nil {
			return in, err
		}
		if v != "" {
			*f.dst, *f.dstKey, *f.dstLine = hostPath(base, v), t.keyOf(f.key), t.p.line(t.path+"."+f.key)
		}
	}
	if _, ok := t.m["files"]; ok {
		files, err := t.strList("files")
		if err != nil {
			return in, err
		}
		for _, f := range files {
			if f == "" {
				return in, t.errorf("files", "an empty file name")
			}
			in.files = append(in.files, hostPath(base, f))
		}
		in.filesKey, in.filesLine = t.keyOf("files"), t.p.line(t.path+".files")
	}
	if v, ok := t.m["status"]; ok {
		n, isInt := v.(int64)
		if !isInt || n < 0 || n > 255 {
			return in, t.errorf("status", "want an exit status, an integer from 0 to 255")
		}
		in.status = int(n)
	}
	check, err := t.str("check")
	if err != nil {
		return in, err
	}
	if check != "" {
		in.check = check
	}
	return in, nil
}

// parser holds what errors need: the file and the line of every key.
type parser struct {
	file  string
	lines map[string]int // indexed key path ("workload[2].inputs.test.args") -> line
}

// line returns the line of a key path, or of its nearest ancestor known.
func (p *parser) line(path string) int {
	for path != "" {
		if l, ok := p.lines[path]; ok && l > 0 {
			return l
		}
		i := strings.LastIndexAny(path, ".[")
		if i < 0 {
			break
		}
		path = path[:i]
	}
	return 0
}

func (p *parser) errorf(path, format string, args ...any) error {
	return &Error{File: p.file, Line: p.line(path), Key: displayKey(path), Msg: fmt.Sprintf(format, args...)}
}

// displayKey drops array indices: workload[2].inputs.test -> workload.inputs.test.
func displayKey(path string) string {
	return indexRE.ReplaceAllString(path, "")
}

var indexRE = regexp.MustCompile(`\[\d+\]`)

// table is one TOML table of the file and where it is.
type table struct {
	p    *parser
	m    map[string]any
	path string // indexed key path ("" for the top level)
}

func (t table) sub(k string) string {
	if t.path == "" {
		return k
	}
	return t.path + "." + k
}

func (t table) keyOf(k string) string { return displayKey(t.sub(k)) }

func (t table) errorf(k, format string, args ...any) error {
	path := t.path
	if k != "" {
		path = t.sub(k)
	}
	return t.p.errorf(path, format, args...)
}

func (t table) sortedKeys() []string {
	ks := make([]string, 0, len(t.m))
	for k := range t.m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// only refuses keys outside allowed, the first in the file first.
func (t table) only(allowed []string) error {
	var bad []string
	for k := range t.m {
		if !contains(allowed, k) {
			bad = append(bad, k)
		}
	}
	if len(bad) == 0 {
		return nil
	}
	sort.Slice(bad, func(i, j int) bool {
		li, lj := t.p.line(t.sub(bad[i])), t.p.line(t.sub(bad[j]))
		if li != lj {
			return li < lj
		}
		return bad[i] < bad[j]
	})
	return t.errorf(bad[0], "unknown key (want one of: %s)", strings.Join(allowed, ", "))
}

func (t table) str(k string) (string, error) {
	v, ok := t.m[k]
	if !ok {
		return "", nil
	}
	s, ok := v.(string)
	if !ok {
		return "", t.errorf(k, "want a string, got %s", tomlType(v))
	}
	return s, nil
}

func (t table) strList(k string) ([]string, error) {
	v := t.m[k]
	list, ok := v.([]any)
	if !ok {
		return nil, t.errorf(k, "want an array of strings, got %s", tomlType(v))
	}
	out := make([]string, 0, len(list))
	for i, e := range list {
		s, ok := e.(string)
		if !ok {
			return nil, t.errorf(k, "element %d: want a string, got %s", i+1, tomlType(e))
		}
		out = append(out, s)
	}
	return out, nil
}

func (t table) table(k string) (table, error) {
	v, ok := t.m[k]
	if !ok {
		return table{p: t.p, path: t.sub(k)}, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return table{}, t.errorf(k, "want a table, got %s", tomlType(v))
	}
	return table{p: t.p, m: m, path: t.sub(k)}, nil
}

var envNameRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// env reads a table of environment variables as sorted KEY=VALUE strings.
func (t table) env(k string) ([]string, error) {
	if _, ok := t.m[k]; !ok {
		return nil, nil
	}
	e, err := t.table(k)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, name := range e.sortedKeys() {
		if !envNameRE.MatchString(name) {
			return nil, e.errorf(name, "%q is not an environment variable name", name)
		}
		v, err := e.str(name)
		if err != nil {
			return nil, err
		}
		out = append(out, name+"="+v)
	}
	return out, nil
}

// mergeEnv returns base with over's variables added or replaced, sorted.
func mergeEnv(base, over []string) []string {
	if base == nil && over == nil {
		return nil
	}
	m := map[string]string{}
	for _, kv := range append(append([]string(nil), base...), over...) {
		k, v, _ := strings.Cut(kv, "=")
		m[k] = v
	}
	out := make([]string, 0, len(m))
	for k, v := range m {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}

func tomlType(v any) string {
	switch v.(type) {
	case nil:
		return "nothing"
	case string:
		return "a string"
	case int64:
		return "an integer"
	case float64:
		return "a float"
	case bool:
		return "a boolean"
	case []any:
		return "an array"
	case map[string]any:
		return "a table"
	case []map[string]any:
		return "an array of tables"
	default:
		return "a date or time"
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

// hostPath resolves p against base, absolute.
func hostPath(base, p string) string {
	if p == "" {
		return ""
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(base, p)
	}
	return absPath(p)
}

// keyLines finds the line of every key of the file. The TOML decoder
// lists the keys in the order they appear (a [[workload]] header once per
// table) but not where; each is found by its last component, searching
// forward from the previous key's line, so that a key repeated in every
// workload is found in its own. A key not found gets no line; errors
// then name its table's.
func keyLines(data []byte, keys []toml.Key) map[string]int {
	text := strings.Split(string(data), "\n")
	out := map[string]int{}
	cur, wl := 0, -1
	for _, k := range keys {
		if len(k) == 0 {
			continue
		}
		if k[0] == "workload" && len(k) == 1 {
			wl++
		}
		parts := append([]string(nil), k...)
		if k[0] == "workload" && wl >= 0 {
			parts[0] = fmt.Sprintf("workload[%d]", wl)
		}
		last := regexp.QuoteMeta(k[len(k)-1])
		re := regexp.MustCompile(`(^|[\s.{,\[])("` + last + `"|'` + last + `'|` + last + `)\s*(=|\]|\.)`)
		for i := cur; i < len(text); i++ {
			if re.MatchString(text[i]) {
				cur = i
				// The key, and the tables a dotted key opens, start here
				// unless they started before.
				for j := 1; j <= len(parts); j++ {
					if p := strings.Join(parts[:j], "."); out[p] == 0 {
						out[p] = i + 1
					}
				}
				if len(k) == 1 && out[k[0]] == 0 {
					out[k[0]] = i + 1
				}
				break
			}
		}
	}
	return out
}
