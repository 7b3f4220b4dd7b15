package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/profile"
)

var repoRoot = func() string {
	wd, _ := os.Getwd()
	return filepath.Join(wd, "..", "..")
}()

// needBuilt skips (or fails under RVSIM_REQUIRE_ARTIFACTS=1) without the
// benchmarks and the handler runtime.
func needBuilt(t *testing.T, rels ...string) {
	t.Helper()
	for _, rel := range rels {
		if _, err := os.Stat(filepath.Join(repoRoot, rel)); err != nil {
			msg := rel + " is not built: run 'make benchmarks' and 'make -C toolchain/handlers'"
			if os.Getenv("RVSIM_REQUIRE_ARTIFACTS") == "1" {
				t.Fatal(msg)
			}
			t.Skip(msg)
		}
	}
}

func rel(p string) string { return filepath.Join(repoRoot, p) }

// run --acf with --profile-out and --stats.
func TestRunACF(t *testing.T) {
	needBuilt(t, "build/benchmarks/netflow", "build/handlers/rvsim-handlers.elf")
	dir := t.TempDir()
	out, stats := filepath.Join(dir, "p.json"), filepath.Join(dir, "s.json")
	args, err := os.ReadFile(rel("benchmarks/netflow/test.args"))
	require.NoError(t, err)
	want, err := os.ReadFile(rel("benchmarks/netflow/test.stdout"))
	require.NoError(t, err)
	wd, _ := os.Getwd()
	require.NoError(t, os.Chdir(rel("benchmarks/netflow")))
	defer os.Chdir(wd)
	var stdout, stderr bytes.Buffer
	status := run(append([]string{"run", "--acf", rel("acf/call-pair-hps.acf"), "--handlers", rel("build/handlers/rvsim-handlers.elf"),
		"--trigger", "periodic:50000:5000", "--profile-out", out, "--stats", stats, rel("build/benchmarks/netflow")},
		strings.Fields(string(args))...), strings.NewReader(""), &stdout, &stderr)
	require.Equal(t, 0, status, stderr.String())
	assert.Equal(t, string(want), stdout.String(), "profiling leaves the output alone")

	data, err := os.ReadFile(out)
	require.NoError(t, err)
	var raw map[string]any
	require.NoError(t, json.Unmarshal(data, &raw))
	assert.Equal(t, "call-pair", raw["type"])
	ps, err := profile.Read(data)
	require.NoError(t, err)
	require.Len(t, ps, 1)
	require.NotEmpty(t, ps[0].Entries)
	for _, e := range ps[0].Entries {
		assert.Greater(t, e.Count, uint64(0))
		assert.NotEmpty(t, e.Caller)
		assert.NotEmpty(t, e.Callee)
		assert.True(t, strings.HasPrefix(e.PC, "0x"))
		assert.True(t, strings.HasPrefix(e.Target, "0x"))
	}

	data, err = os.ReadFile(stats)
	require.NoError(t, err)
	var st map[string]any
	require.NoError(t, json.Unmarshal(data, &st))
	d, ok := st["dise"].(map[string]any)
	require.True(t, ok, "stats has a dise object")
	for _, k := range []string{"replacements", "injected_instructions", "handler_instructions"} {
		assert.Greater(t, d[k], 0.0, k)
	}
}

func TestRunACFUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		desc string
		args []string
		err  string
	}{
		{"trigger without acf", []string{"run", "--trigger", "periodic:10:1", "prog"}, "--trigger needs --acf FILE"},
		{"profile-out without acf", []string{"run", "--profile-out", "x", "prog"}, "--profile-out needs --acf FILE"},
		{"bad trigger", []string{"run", "--acf", "a.acf", "--trigger", "sometimes", "prog"}, `unknown kind "sometimes" (want periodic:PERIOD:LENGTH, random:P:LENGTH[:SEED] or phase:POLICY`},
		{"bad dise key", []string{"run", "--acf", "a.acf", "--dise", "pt=3", "prog"}, "want KEY=VALUE with KEY one of"},
		{"bad dise value", []string{"run", "--acf", "a.acf", "--dise", "counter_bits=65", "prog"}, "--dise counter_bits = 65 out of range 1..64"},
		{"compare needs lists", []string{"compare", "--profilers", ""}, "need --profilers LIST and --benchmarks"},
		{"compare bad mode", []string{"compare", "--profilers", "x", "--benchmarks", "all", "--mode", "fast"}, `--mode "fast"`},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			status := run(tc.args, strings.NewReader(""), &stdout, &stderr)
			assert.Equal(t, 2, status)
			assert.Contains(t, stderr.String(), tc.err)
		})
	}
}

// rvsim compare on two small benchmarks, functional and timing.
func TestCompare(t *testing.T) {
	needBuilt(t, "build/benchmarks/netflow", "build/benchmarks/hashjoin", "build/handlers/rvsim-handlers.elf")
	for _, mode := range []string{"functional", "timing"} {
		t.Run(mode, func(t *testing.T) {
			out := t.TempDir()
			var stdout, stderr bytes.Buffer
			args := []string{"compare", "--profilers", "call-pair-hps,call-pair-dise,hot-method", "--benchmarks", "netflow,hashjoin",
				"--mode", mode, "--jobs", "2", "--out", out, "--acf-dir", rel("acf"), "--src", rel("benchmarks"),
				"--bin", rel("build/benchmarks"), "--handlers", rel("build/handlers/rvsim-handlers.elf"),
				"--trigger", "periodic:20000:200"}
			if mode == "timing" {
				args = append(args, "--max-insts", "400000")
			}
			status := run(args, strings.NewReader(""), &stdout, &stderr)
			require.Equal(t, 0, status, stderr.String())
			text := stdout.String()
			for _, s := range []string{"netflow", "hashjoin", "call-pair-hps", "call-pair-dise", "hot-method", "none", "summary over 2 programs"} {
				assert.Contains(t, text, s)
			}
			assert.Contains(t, stderr.String(), "[8/8]", "progress")
			f, err := os.Open(filepath.Join(out, "compare.csv"))
			require.NoError(t, err)
			rows, err := csv.NewReader(f).ReadAll()
			f.Close()
			require.NoError(t, err)
			require.Len(t, rows, 1+2*4)
			col := map[string]int{}
			for i, h := range rows[0] {
				col[h] = i
			}
			cost := map[string]map[string]uint64{}
			for _, r := range rows[1:] {
				assert.Equal(t, "true", r[col["pass"]], "%v", r)
				assert.Equal(t, mode, r[col["mode"]])
				unit := map[string]string{"functional": "instructions", "timing": "cycles"}[mode]
				v, err := strconv.ParseUint(r[col[unit]], 10, 64)
				require.NoError(t, err)
				if cost[r[col["benchmark"]]] == nil {
					cost[r[col["benchmark"]]] = map[string]uint64{}
				}
				cost[r[col["benchmark"]]][r[col["profiler"]]] = v
				if r[col["profiler"]] != "none" {
					o, err := strconv.ParseFloat(r[col["overhead_pct"]], 64)
					require.NoError(t, err)
					assert.Greater(t, o, 0.0, "profiling costs something: %v", r)
					rep, _ := strconv.ParseUint(r[col["replacements"]], 10, 64)
					assert.Greater(t, rep, uint64(0))
				}
			}
			for b, c := range cost {
				assert.Less(t, c["call-pair-hps"], c["call-pair-dise"], "%s: HPS is cheaper than DISE-only sampling", b)
				assert.Less(t, c["call-pair-dise"], c["hot-method"], "%s: sampling is cheaper than exhaustive", b)
			}
			md, err := os.ReadFile(filepath.Join(out, "compare.md"))
			require.NoError(t, err)
			assert.Contains(t, string(md), "| profiler | ")
			assert.Contains(t, string(md), "## netflow")
		})
	}
}

func TestACFCmd(t *testing.T) {
	var stdout, stderr bytes.Buffer
	status := run([]string{"acf", rel("acf/call-pair-hps.acf")}, strings.NewReader(""), &stdout, &stderr)
	require.Equal(t, 0, status, stderr.String())
	assert.Contains(t, stdout.String(), "ok: 3 productions (P0, P1, P3)")
	assert.Contains(t, stdout.String(), "pattern table 3/32, conditionals table 3/16, replacement table 4/2048")
	assert.Contains(t, stdout.String(), "handlers: CallPair_handler")
	assert.Contains(t, stdout.String(), "run it with --trigger")
	assert.NotContains(t, stdout.String(), "authorizes")

	// authorize hps is reported; a bad grant is a file:line:col error.
	dir := t.TempDir()
	grant, bad := filepath.Join(dir, "grant.acf"), filepath.Join(dir, "bad.acf")
	require.NoError(t, os.WriteFile(grant, []byte("authorize hps\nP0: T.OP == hps.on -> null\n"), 0o644))
	require.NoError(t, os.WriteFile(bad, []byte("# x\nauthorize hpss\n"), 0o644))
	stdout.Reset()
	status = run([]string{"acf", grant}, strings.NewReader(""), &stdout, &stderr)
	require.Equal(t, 0, status, stderr.String())
	assert.Contains(t, stdout.String(), "authorizes the application's own hps.on/hps.off (authorize hps)")
	stderr.Reset()
	status = run([]string{"acf", bad}, strings.NewReader(""), &stdout, &stderr)
	assert.Equal(t, 1, status)
	assert.Contains(t, stderr.String(), bad+":2:11: expected 'hps' after authorize")

	// --hps-authorize needs an ACF.
	stderr.Reset()
	status = run([]string{"run", "--hps-authorize", "prog"}, strings.NewReader(""), &stdout, &stderr)
	assert.Equal(t, 2, status)
	assert.Contains(t, stderr.String(), "--hps-authorize needs --acf FILE")

	stdout.Reset()
	status = run([]string{"acf", "--dise", "rt_entries=2", rel("acf/call-pair-hps.acf")}, strings.NewReader(""), &stdout, &stderr)
	assert.Equal(t, 1, status)
	assert.Contains(t, stderr.String(), "call-pair-hps.acf:12:1: replacement table overflow: production P3 needs 4 entries for R3 but only 2 of 2 are free")
}
