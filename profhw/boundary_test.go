package profhw

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/rvsim/rvsim"

// forbidden are the packages profhw/ must never depend on (docs/ARCHITECTURE.md):
// the hardware models and their framework sit below the simulator, the
// suite runner, the comparison and the experiment programs, which use
// them (issue 23).
var forbidden = []string{"sim", "suite", "compare", "experiments", "dise", "cmd"}

// No package under profhw/ depends, directly or through other packages
// of this module, on a forbidden one. The imports are read with
// go/parser from every non-test .go file (all build tags: stricter than
// one build), so the test needs neither the go command nor a build.
func TestBoundary(t *testing.T) {
	var roots []string
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "testdata" {
			return filepath.SkipDir
		}
		if d.IsDir() {
			roots = append(roots, filepath.ToSlash(filepath.Join("profhw", path)))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range boundaryViolations(t, "..", roots) {
		t.Error(bad)
	}
}

// boundaryViolations follows the module-local imports of the packages in
// dirs (relative to the module root) and returns one line per forbidden
// package reached: the import chain from a root to it.
func boundaryViolations(t *testing.T, root string, dirs []string) []string {
	t.Helper()
	from := map[string]string{} // package dir -> the dir that first imported it ("" for roots)
	queue := append([]string(nil), dirs...)
	for _, d := range dirs {
		from[d] = ""
	}
	var bad []string
	for len(queue) > 0 {
		dir := queue[0]
		queue = queue[1:]
		for _, imp := range dirImports(t, filepath.Join(root, dir)) {
			rel, ok := strings.CutPrefix(imp, module+"/")
			if !ok {
				continue
			}
			if _, seen := from[rel]; seen {
				continue
			}
			from[rel] = dir
			if isForbidden(rel) {
				chain := []string{rel}
				for p := dir; p != ""; p = from[p] {
					chain = append([]string{p}, chain...)
				}
				bad = append(bad, "profhw/ reaches a forbidden package: "+strings.Join(chain, " -> "))
				continue
			}
			queue = append(queue, rel)
		}
	}
	sort.Strings(bad)
	return bad
}

func isForbidden(rel string) bool {
	for _, f := range forbidden {
		if rel == f || strings.HasPrefix(rel, f+"/") {
			return true
		}
	}
	return false
}

// dirImports lists the imports of the non-test .go files in dir.
func dirImports(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	fset := token.NewFileSet()
	for _, e := range ents {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, n), nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range f.Imports {
			p, err := strconv.Unquote(s.Path.Value)
			if err != nil {
				t.Fatalf("%s: import %s: %v", fset.Position(s.Pos()), s.Path.Value, err)
			}
			out = append(out, p)
		}
	}
	return out
}

// The walk finds a forbidden package two imports away and names the
// chain, and passes a clean tree (a made-up module tree, so the check
// itself is tested, not only today's profhw/).
func TestBoundaryViolations(t *testing.T) {
	root := t.TempDir()
	write := func(path, src string) {
		t.Helper()
		p := filepath.Join(root, path)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("profhw/u/u.go", "package u\nimport (\n\t\"fmt\"\n\t\""+module+"/cpu\"\n)\nvar _ = fmt.Sprint\n")
	write("profhw/u/u_test.go", "package u\nimport _ \""+module+"/sim\"\n") // tests may use sim
	write("cpu/cpu.go", "package cpu\n")
	write("sim/sim.go", "package sim\n")
	if bad := boundaryViolations(t, root, []string{"profhw/u"}); len(bad) != 0 {
		t.Fatalf("clean tree: %v", bad)
	}
	write("cpu/cpu.go", "package cpu\nimport _ \""+module+"/suite/x\"\n")
	write("suite/x/x.go", "package x\n")
	bad := boundaryViolations(t, root, []string{"profhw/u"})
	if len(bad) != 1 || !strings.HasSuffix(bad[0], "profhw/u -> cpu -> suite/x") {
		t.Fatalf("got %q, want the chain profhw/u -> cpu -> suite/x", bad)
	}
}
