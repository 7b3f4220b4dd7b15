package sim

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/isa"
	"github.com/rvsim/rvsim/profile"
)

// keyCounts counts application instructions by a key of the caller's
// choice: the exact profile a Count_handler profile must equal.
type keyCounts struct {
	key    func(d *cpu.DynInst) (k [2]uint64, ok bool)
	counts map[[2]uint64]uint64
}

func (k *keyCounts) Retire(batch []cpu.DynInst) {
	for i := range batch {
		d := &batch[i]
		if d.Injected || d.Handler {
			continue
		}
		if key, ok := k.key(d); ok {
			k.counts[key]++
		}
	}
}

// profileCounts turns a user-defined profile back into counts by key.
func profileCounts(t *testing.T, p profile.Profile, nkeys int) map[[2]uint64]uint64 {
	t.Helper()
	out := map[[2]uint64]uint64{}
	for _, e := range p.Entries {
		require.Len(t, e.Fields, nkeys)
		var k [2]uint64
		for i := range e.Fields {
			k[i] = e.Fields[i].Value
		}
		out[k] += e.Count
	}
	return out
}

// Count_handler counts any one- or two-word key, in as many profiles as
// the ACF names, each labelled and with key fields as the ACF says: they
// equal exact counts of the same run's instruction stream.
func TestCountHandlerEqualsExact(t *testing.T) {
	b := benchmark(t, "lisp")
	path := filepath.Join(t.TempDir(), "count.acf")
	require.NoError(t, os.WriteFile(path, []byte(`
P1: T.OPCLASS == call && T.OP == jalr -> R1
R1: call(Count_handler, T.PC, T.TARGET) as "indirect-call-target"(site, callee); T.INSN
P2: T.OPCLASS == load -> R2
R2: call(Count_handler, T.PC) as "hot-load-pc"; T.INSN
`), 0o644))
	indirect := &keyCounts{counts: map[[2]uint64]uint64{}, key: func(d *cpu.DynInst) ([2]uint64, bool) {
		return [2]uint64{d.PC, d.NextPC}, d.Inst.Class == isa.Call && d.Inst.Op == isa.JALR
	}}
	loads := &keyCounts{counts: map[[2]uint64]uint64{}, key: func(d *cpu.DynInst) ([2]uint64, bool) {
		return [2]uint64{d.PC, 0}, d.Inst.Class == isa.Load
	}}
	r := runDISE(t, b, []string{path}, "", indirect, loads)
	assert.Equal(t, string(b.stdout), string(r.stdout), "output unchanged")
	ps, err := r.mc.Profiles()
	require.NoError(t, err)
	require.Len(t, ps, 2)

	hot, ind := ps[0], ps[1]
	assert.Equal(t, profile.Kind("hot-load-pc"), hot.Type, "labelled as the ACF says, not hot-code-region")
	assert.Equal(t, []profile.Field{{Name: "pc", Format: profile.FormatCode}}, hot.Fields)
	assert.Zero(t, hot.Dropped)
	require.Greater(t, len(loads.counts), 100)
	assert.Equal(t, loads.counts, profileCounts(t, hot, 1))

	assert.Equal(t, profile.Kind("indirect-call-target"), ind.Type)
	assert.Equal(t, []profile.Field{{Name: "site", Format: profile.FormatCode}, {Name: "callee", Format: profile.FormatCode}}, ind.Fields)
	require.NotEmpty(t, indirect.counts, "lisp makes indirect calls")
	assert.Equal(t, indirect.counts, profileCounts(t, ind, 2))
	// Named from the program's symbols (crt1's load_gp has no function
	// symbol, so not every callee is named).
	named := 0
	for _, e := range ind.Entries {
		assert.NotEmpty(t, e.Fields[0].Function, "the call site's function")
		if e.Fields[1].Function != "" {
			named++
		}
	}
	assert.Greater(t, named, 0)
	assert.Equal(t, sumCounts(loads.counts)+sumCounts(indirect.counts), r.res.DISE.HandlerCalls)
}

func sumCounts(m map[[2]uint64]uint64) uint64 {
	var n uint64
	for _, v := range m {
		n += v
	}
	return n
}

// An external trigger's injected hps.on/hps.off are counted in triggers,
// not replacements: replacements are the application's instructions that
// were replaced (here, the sampled calls, or with DISE alone every call).
func TestTriggersAreNotReplacements(t *testing.T) {
	b := benchmark(t, "netflow")
	for _, tc := range []struct {
		acf           string
		everyCallRepl bool
	}{{"call-pair-hps", false}, {"call-pair-dise", true}} {
		t.Run(tc.acf, func(t *testing.T) {
			r := runDISE(t, b, []string{acf(tc.acf)}, "periodic:20000:2000")
			d := r.res.DISE
			require.NotNil(t, d)
			want := d.HandlerCalls // one handler call per sampled call
			if tc.everyCallRepl {
				want = r.exact.Counts.Events(profile.CallPair)
			}
			assert.Greater(t, d.Triggers, uint64(100))
			assert.Equal(t, want, d.Replacements)
			assert.Equal(t, want, Stats(&r.res, "functional")["dise"].(map[string]any)["replacements"])
			assert.Equal(t, d.Triggers, Stats(&r.res, "functional")["dise"].(map[string]any)["triggers"])
		})
	}
}

// A profile that no handler can write, and handlers called wrongly, are
// load-time errors naming the ACF's line.
func TestProfileLoadErrors(t *testing.T) {
	b := benchmark(t, "netflow")
	for _, tc := range []struct{ desc, src, err string }{
		{"tagged handler without a name", "P: T.OPCLASS == call -> R\nR: call(Count_handler, T.PC); T.INSN\n",
			`x.acf:2:4: Count_handler is tagged: name the profile it collects, as in call(Count_handler, …) as "NAME"`},
		{"too many keys", "P: T.OPCLASS == call -> R\nR: call(Count_handler, T.PC, T.TARGET, 1) as \"n\"; T.INSN\n",
			"x.acf:2:4: Count_handler takes 1 or 2 arguments, found 3"},
		{"name of a runtime type", "P: T.OPCLASS == call -> R\nR: call(Count_handler, T.PC) as \"call-pair\"; T.INSN\n",
			`profile "call-pair": the handler runtime has a profile type of that name`},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "x.acf")
			require.NoError(t, os.WriteFile(path, []byte(tc.src), 0o644))
			_, err := Load(Config{Program: b.bin, DISE: &DISEOptions{ACF: []string{path}, Handlers: handlersELF(t)}})
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.err)
		})
	}
}
