package suite

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func requireArtifacts() bool { return os.Getenv("RVSIM_REQUIRE_ARTIFACTS") == "1" }

func missing(t *testing.T, format string, args ...any) {
	t.Helper()
	if requireArtifacts() {
		t.Fatalf(format+" (RVSIM_REQUIRE_ARTIFACTS=1)", args...)
	}
	t.Skipf(format, args...)
}

// builtin.toml restates the benchmark sources' layout exactly: the same
// programs in the same order, the same directories and binaries, and the
// same arguments, expected outputs and statuses for every input.
func TestBuiltinMatchesSources(t *testing.T) {
	src, bin := filepath.Join("..", "benchmarks"), filepath.Join("..", "build", "benchmarks")
	want, err := Discover(src, bin)
	require.NoError(t, err)
	got, err := Builtin(src, bin)
	require.NoError(t, err)
	require.Equal(t, len(want), len(got))
	for i, w := range want {
		g := got[i]
		assert.Equal(t, w.Name, g.Name)
		assert.Equal(t, w.Dir, g.Dir, w.Name)
		assert.Equal(t, w.Binary, g.Binary, w.Name)
		assert.Equal(t, "", g.Root+g.Sysroot+g.GuestCwd+g.ExePath, w.Name)
		assert.Nil(t, g.Env, w.Name)
		assert.NotEmpty(t, g.Description, w.Name)
		assert.Equal(t, w.Inputs(), g.Inputs(), w.Name)
		for _, name := range w.Inputs() {
			wi, err := w.Input(name)
			require.NoError(t, err)
			gi, err := g.Input(name)
			require.NoError(t, err)
			assert.Equal(t, wi.Args, gi.Args, "%s %s", w.Name, name)
			assert.Equal(t, wi.Stdout, gi.Stdout, "%s %s", w.Name, name)
			assert.Equal(t, wi.Status, gi.Status, "%s %s", w.Name, name)
			assert.False(t, gi.AnyStdout)
			assert.Nil(t, gi.Stdin)
			assert.Nil(t, gi.Stderr)
			assert.Empty(t, gi.Files)
			assert.Empty(t, gi.Check)
		}
	}
	assert.Equal(t, []string{"ref", "test"}, got[0].Inputs())
}

// A SPEC-style file resolves its paths against its own directory.
func TestParseSpecFile(t *testing.T) {
	s, err := Load(filepath.Join("testdata", "spec.toml"))
	require.NoError(t, err)
	assert.Equal(t, "spec-like", s.Name)
	require.Len(t, s.Benchmarks, 1)
	b := s.Benchmarks[0]
	abs := func(p string) string { a, _ := filepath.Abs(p); return a }
	assert.Equal(t, "999.lisp_r", b.Name)
	assert.Equal(t, abs("../build/benchmarks/lisp"), b.Binary)
	assert.Equal(t, abs("testdata"), b.Dir)
	assert.Nil(t, b.Env, "no env: an empty environment")
	assert.Equal(t, 8, b.Line)
	assert.Equal(t, []string{"checked", "test", "wrong"}, b.Inputs())
	in, err := b.Input("test")
	require.NoError(t, err)
	assert.Equal(t, []string{"bench.lisp", "1"}, in.Args)
	assert.Equal(t, []string{abs("../benchmarks/lisp/bench.lisp")}, in.Files)
	want, err := os.ReadFile("../benchmarks/lisp/test.stdout")
	require.NoError(t, err)
	assert.Equal(t, want, in.Stdout)
	ck, err := b.Input("checked")
	require.NoError(t, err)
	assert.True(t, ck.AnyStdout)
	assert.Contains(t, ck.Check, "grep -q")
	_, err = b.Input("ref")
	assert.EqualError(t, err, `testdata/spec.toml:8: workload 999.lisp_r: no "ref" input (have: checked, test, wrong)`)

	r, err := Load(filepath.Join("testdata", "rootfs.toml"))
	require.NoError(t, err)
	p := r.Benchmarks[0]
	assert.Equal(t, abs("../build/rootfs"), p.Root)
	assert.Equal(t, "", p.Binary, "resolved in the root when it runs")
	assert.Equal(t, "/usr/bin/python3", p.ExePath)
	assert.Equal(t, "/", p.GuestCwd)
	assert.Equal(t, []string{"LC_ALL=C", "PYTHONDONTWRITEBYTECODE=1"}, p.Env)

	// A host cwd inside the root is the guest's path of it.
	u, err := Parse("r.toml", []byte("root = \"root\"\n[[workload]]\nname = \"a\"\nprogram = \"/bin/a\"\ncwd = \"root/home/u\"\ninputs.test.args = []\n"), ParseOptions{Base: "/x"})
	require.NoError(t, err)
	assert.Equal(t, "/home/u", u.Benchmarks[0].GuestCwd)
	assert.Equal(t, "", u.Benchmarks[0].Dir)
}

// Runs of a suite file: the input file is copied into a fresh run
// directory where the program reads it; the expected file and the check
// command both judge the output, and a failing check says why.
func TestRunSuiteFile(t *testing.T) {
	s, err := Load(filepath.Join("testdata", "spec.toml"))
	require.NoError(t, err)
	b := s.Benchmarks[0]
	if !b.Built() {
		missing(t, "%s is not built: run 'make benchmarks'", b.Binary)
	}
	for _, tc := range []struct{ input, why string }{
		{"test", ""},
		{"checked", ""},
		{"wrong", "check failed: recursion checksum is not 0"},
	} {
		in, err := b.Input(tc.input)
		require.NoError(t, err)
		o := Run(b, in, Options{})
		assert.Equal(t, tc.why, o.Why, tc.input)
		assert.Equal(t, tc.why == "", o.Pass, tc.input)
		// The built-in suite's count for lisp's test input, but for the
		// program's name on the stack (/999.lisp_r, not /lisp).
		assert.InDelta(t, 6714582, o.Result.Instructions, 100, tc.input)
	}
}

// Debian's python3 in the default root reads its script and standard
// input from the run directory inside the root, writes a file there, and
// the check command finds it.
func TestRunRootSuiteFile(t *testing.T) {
	s, err := Load(filepath.Join("testdata", "rootfs.toml"))
	require.NoError(t, err)
	b := s.Benchmarks[0]
	if !b.Built() {
		missing(t, "%s holds no python3: run 'make setup'", b.Root)
	}
	in, err := b.Input("test")
	require.NoError(t, err)
	o := Run(b, in, Options{})
	require.True(t, o.Pass, "%s (stderr %s)", o.Why, o.Stderr)
	ents, err := filepath.Glob(filepath.Join(b.Root, "tmp", "rvsim-run-"+b.Name+"-test-*"))
	require.NoError(t, err)
	assert.Empty(t, ents, "the run directory is removed")
}
