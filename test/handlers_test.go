package test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/isa"
	"github.com/rvsim/rvsim/profile"
	"github.com/rvsim/rvsim/sim"
	"github.com/rvsim/rvsim/syscalls"
	"github.com/rvsim/rvsim/toolchain/handlers"
)

// pageKey is the data-pages profile's key: a page and whether the access
// was a store.
type pageKey struct{ page, store uint64 }

type pageUse struct{ count, bytes uint64 }

// dataPages is the exact data-pages profile of an instruction stream: the
// application's loads and stores by page, with the bytes they moved, as
// the DynInst records say (Addr, Size), independently of the handler's
// own decoding.
type dataPages map[pageKey]pageUse

func (p dataPages) Retire(batch []cpu.DynInst) {
	for i := range batch {
		d := &batch[i]
		if d.Injected || d.Handler || (d.Inst.Class != isa.Load && d.Inst.Class != isa.Store) {
			continue
		}
		k := pageKey{d.Addr &^ 0xfff, 0}
		if d.Inst.Class == isa.Store {
			k.store = 1
		}
		u := p[k]
		u.count++
		u.bytes += uint64(d.Size)
		p[k] = u
	}
}

// The shipped example of a user-written handler
// (toolchain/handlers/examples/data-pages.c): `rvsim handlers build`
// builds it, `rvsim run --handlers` runs it on a benchmark, and its profile
// equals the exact one of the same program's instruction stream.
func TestUserHandlerExample(t *testing.T) {
	if _, err := exec.LookPath(handlers.Compiler("")); err != nil {
		missing(t, "%s is not installed: run 'make setup'", handlers.Compiler(""))
	}
	const name = "hashjoin"
	bin := filepath.Join(repoRoot, "build", "benchmarks", name)
	needFile(t, bin, "make benchmarks")
	dir := filepath.Join(repoRoot, "benchmarks", name)
	argText, err := os.ReadFile(filepath.Join(dir, "test.args"))
	require.NoError(t, err)
	args := strings.Fields(string(argText))
	wantOut, err := os.ReadFile(filepath.Join(dir, "test.stdout"))
	require.NoError(t, err)

	rvsim := rvsimBinary(t)
	tmp := t.TempDir()
	elf := filepath.Join(tmp, "data-pages.elf")
	example := filepath.Join(repoRoot, "toolchain", "handlers", "examples")
	r := runProcess(t, "", nil, rvsim, "handlers", "build", filepath.Join(example, "data-pages.c"), "-o", elf)
	require.Equal(t, 0, r.Status, r.Stderr)
	assert.Contains(t, r.Stdout, "wrote "+elf+": handlers Access_handler (4 arguments), Branch_handler")
	assert.Contains(t, r.Stdout, ", Clobber_handler (arguments not declared), ")
	// build lists the handlers 'rvsim acf' knows of in the same runtime.
	built := regexp.MustCompile(`(\w+) \(`).FindAllStringSubmatch(strings.SplitN(r.Stdout, ": handlers ", 2)[1], -1)
	var builtNames []string
	for _, m := range built {
		builtNames = append(builtNames, m[1])
	}
	unknown := filepath.Join(tmp, "unknown.acf")
	require.NoError(t, os.WriteFile(unknown, []byte("P: T.OPCLASS == call -> R\nR: call(No_handler); T.INSN\n"), 0o644))
	r = runProcess(t, "", nil, rvsim, "acf", "--handlers", elf, unknown)
	require.Equal(t, 1, r.Status)
	has := regexp.MustCompile(`\(it has: (.*)\)`).FindStringSubmatch(r.Stderr)
	require.NotNil(t, has, r.Stderr)
	assert.Equal(t, strings.Join(builtNames, ", "), has[1])

	acf := filepath.Join(example, "data-pages.acf")
	r = runProcess(t, "", nil, rvsim, "acf", "--handlers", elf, acf)
	require.Equal(t, 0, r.Status, r.Stderr)
	assert.Empty(t, r.Stderr, "no warnings")

	out := filepath.Join(tmp, "pages.json")
	// The same process as the exact run below (environment, argv, working
	// directory), so that the stack and heap are at the same addresses.
	r = runProcess(t, dir, nil, rvsim, append([]string{"run", "--clear-env", "--handlers", elf, "--acf", acf, "--profile-out", out, bin}, args...)...)
	require.Equal(t, 0, r.Status, r.Stderr)
	assert.Equal(t, string(wantOut), r.Stdout, "profiling leaves the output alone")
	data, err := os.ReadFile(out)
	require.NoError(t, err)
	ps, err := profile.Read(data)
	require.NoError(t, err)
	require.Len(t, ps, 1)
	p := ps[0]
	assert.Equal(t, profile.Kind("data-pages"), p.Type)
	assert.Zero(t, p.Dropped)
	assert.Equal(t, []profile.Field{{Name: "page", Format: profile.FormatHex}, {Name: "store", Format: profile.FormatDec},
		{Name: "bytes", Format: profile.FormatSum}}, p.Fields)
	got := dataPages{}
	for _, e := range p.Entries {
		require.Len(t, e.Fields, 3)
		got[pageKey{e.Fields[0].Value, e.Fields[1].Value}] = pageUse{e.Count, e.Fields[2].Value}
	}

	// The exact profile: the same program, no DISE, the DynInst stream.
	want := dataPages{}
	var stdout, stderr bytes.Buffer
	mc, err := sim.Load(sim.Config{Program: bin, Args: args, Observers: []cpu.Observer{want},
		Kernel: syscalls.Config{Cwd: dir, Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr, Warn: &stderr}})
	require.NoError(t, err)
	res := mc.Run()
	require.Equal(t, 0, res.ExitCode, res.Message)
	require.Equal(t, string(wantOut), stdout.String())
	require.Greater(t, len(want), 10)
	assert.Equal(t, want, got)
}
