package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	pprof "github.com/google/pprof/profile"
	"github.com/klauspost/compress/gzip"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/internal/guestcc"
	"github.com/rvsim/rvsim/profhw/pathprof"
	"github.com/rvsim/rvsim/profhw/tuple"
	"github.com/rvsim/rvsim/profile"
)

// hotGuest compiles profile/testdata/hot.c with -g (by its absolute path,
// as a build system would).
func hotGuest(t *testing.T) string {
	t.Helper()
	return guestcc.Build(t, rel("profile/testdata/hot.c"), "-g", "-O1")
}

// runOK runs rvsim run (its flags and program) in-process, requires it to succeed, and
// returns its standard output.
func runOK(t *testing.T, args ...string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	status, err := runCmd(args, strings.NewReader(""), &stdout, &stderr)
	require.NoError(t, err)
	require.Equal(t, 0, status, stderr.String())
	return stdout.String()
}

func readPprof(t *testing.T, file string) *pprof.Profile {
	t.Helper()
	f, err := os.Open(file)
	require.NoError(t, err)
	defer f.Close()
	p, err := pprof.Parse(f)
	require.NoError(t, err)
	return p
}

func column(t *testing.T, p *pprof.Profile, typ string) int {
	t.Helper()
	for i, st := range p.SampleType {
		if st.Type == typ {
			return i
		}
	}
	t.Fatalf("no sample type %s", typ)
	return -1
}

func goTool(t *testing.T, args ...string) string {
	t.Helper()
	out, err := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), append([]string{"tool", "pprof"}, args...)...).CombinedOutput()
	require.NoError(t, err, "%s", out)
	return string(out)
}

// run --profile-format pprof writes the DISE profile the JSON has, frame
// by frame; go tool pprof names its top function and lists its lines.
func TestRunProfileFormatPprofDISE(t *testing.T) {
	needBuilt(t, "build/handlers/rvsim-handlers.elf")
	bin := hotGuest(t)
	dir := t.TempDir()
	js, pb := filepath.Join(dir, "p.json"), filepath.Join(dir, "p.pb.gz")
	h := rel("build/handlers/rvsim-handlers.elf")
	runOK(t, "--acf", rel("acf/hot-code-region.acf"), "--handlers", h, "--profile-out", js, bin)
	runOK(t, "--acf", rel("acf/hot-code-region.acf"), "--handlers", h, "--profile-out", pb, "--profile-format", "pprof", bin)
	data, err := os.ReadFile(js)
	require.NoError(t, err)
	ps, err := profile.Read(data)
	require.NoError(t, err)
	require.Len(t, ps, 1)
	p := readPprof(t, pb)
	ex, in := column(t, p, "hot_code_region_executions"), column(t, p, "hot_code_region_instructions")
	got := map[string][2]int64{}
	fn := map[string]string{}
	for _, s := range p.Sample {
		require.Len(t, s.Location, 1)
		pc := profile.Hex(s.Location[0].Address)
		got[pc] = [2]int64{s.Value[ex], s.Value[in]}
		fn[pc] = s.Location[0].Line[0].Function.Name
	}
	require.Len(t, got, len(ps[0].Entries))
	for _, e := range ps[0].Entries {
		assert.Equal(t, [2]int64{int64(e.Count), int64(*e.Instructions)}, got[e.PC], e.PC)
		if e.Function != e.PC {
			assert.Equal(t, e.Function, fn[e.PC], e.PC)
		}
	}

	top := goTool(t, "-top", "-sample_index=hot_code_region_instructions", pb)
	rows := strings.Split(top, "flat  flat%")
	require.Len(t, rows, 2, top)
	first := strings.Fields(strings.Split(strings.TrimSpace(rows[1]), "\n")[1])
	assert.Equal(t, "hot_loop", first[len(first)-1], top)
	list := goTool(t, "-list", "hot_loop", "-sample_index=hot_code_region_instructions", pb)
	assert.Contains(t, list, "ROUTINE ======================== hot_loop in "+rel("profile/testdata/hot.c"))
	var loopLine string
	for _, l := range strings.Split(list, "\n") {
		if strings.Contains(l, "for (unsigned long i = 0; i < n; i++)") {
			loopLine = l
		}
	}
	require.NotEmpty(t, loopLine, list)
	n, err := strconv.Atoi(strings.Fields(loopLine)[0])
	require.NoError(t, err, loopLine)
	assert.Greater(t, n, 100000, "the loop's branch holds the regions' instructions")
}

// runNbodyPprof runs nbody's test input with the presets and
// --profile-format pprof; it returns the --profhw-out folder.
func runNbodyPprof(t *testing.T, presets ...string) string {
	t.Helper()
	needBuilt(t, "build/benchmarks/nbody")
	args, err := os.ReadFile(rel("benchmarks/nbody/test.args"))
	require.NoError(t, err)
	out := filepath.Join(t.TempDir(), "out")
	var flags []string
	for _, p := range presets {
		flags = append(flags, "--profhw-preset", p)
	}
	runOK(t, append(append(flags, "--profhw-out", out, "--profile-format", "pprof", rel("build/benchmarks/nbody")), strings.Fields(string(args))...)...)
	return out
}

// profhw's exact and sampled tuple profiles and its path profiles: a
// pprof file beside each JSON profile, with its counts.
func TestRunProfileFormatPprofProfHW(t *testing.T) {
	out := runNbodyPprof(t, "multihash-value", "path-bl")

	for _, name := range []string{"multihash-value.profile", "multihash-value.exact"} {
		data, err := os.ReadFile(filepath.Join(out, name+".json"))
		require.NoError(t, err)
		var f tuple.File
		require.NoError(t, json.Unmarshal(data, &f))
		require.Positive(t, f.Total, name)
		p := readPprof(t, filepath.Join(out, name+".pb.gz"))
		col := column(t, p, "multihash_value_"+f.Profile+"_tuples")
		want, got := map[string]uint64{}, map[string]uint64{}
		for _, e := range f.Entries {
			want[e.PCHex+" "+e.Word] += e.Count
		}
		var total uint64
		for _, s := range p.Sample {
			got[profile.Hex(s.Location[0].Address)+" "+strings.Join(s.Label["word"], "")] += uint64(s.Value[col])
			total += uint64(s.Value[col])
		}
		assert.Equal(t, f.Total, total, name)
		assert.Equal(t, want, got, name)
	}

	data, err := os.ReadFile(filepath.Join(out, "path-bl.exact.json"))
	require.NoError(t, err)
	var f pathprof.ProfileJSON
	require.NoError(t, json.Unmarshal(data, &f))
	p := readPprof(t, filepath.Join(out, "path-bl.exact.pb.gz"))
	col := column(t, p, "path_bl_exact_"+f.Metric)
	require.Len(t, p.Sample, len(f.Entries))
	byKey := map[string]*pprof.Sample{}
	for _, s := range p.Sample {
		root := s.Location[len(s.Location)-1]
		byKey[profile.Hex(root.Address)+" "+strings.Join(s.Label["directions"], "")] = s // ("" is no label)
	}
	withBlocks := 0
	for _, e := range f.Entries {
		s := byKey[e.StartHex+" "+e.Directions]
		require.NotNil(t, s, "%s %s", e.StartHex, e.Directions)
		assert.Equal(t, int64(e.Count), s.Value[col])
		if len(e.Blocks) > 0 {
			withBlocks++
			assert.Len(t, s.Location, len(e.Blocks), "a frame per block")
		}
	}
	assert.Positive(t, withBlocks)
	top := goTool(t, "-top", filepath.Join(out, "path-bl.exact.pb.gz"))
	assert.Contains(t, top, "tree_walk")
	// The benchmarks are built with -g: -list finds their source.
	list := goTool(t, "-list", "direct_forces", filepath.Join(out, "path-bl.exact.pb.gz"))
	assert.Contains(t, list, "ROUTINE ======================== direct_forces in "+rel("benchmarks/nbody/nbody.c"))
	assert.Contains(t, list, "static NOINLINE void direct_forces(System *s, Kernel k)")

	var stdout, stderr bytes.Buffer
	status, err := runCmd([]string{"--profile-format", "pprof", rel("build/benchmarks/nbody")}, strings.NewReader(""), &stdout, &stderr)
	assert.Equal(t, exitUsage, status)
	assert.EqualError(t, err, "--profile-format pprof needs --profile-out FILE or --profhw-out DIR")
	status, err = runCmd([]string{"--profile-format", "dot", rel("build/benchmarks/nbody")}, strings.NewReader(""), &stdout, &stderr)
	assert.Equal(t, exitUsage, status)
	assert.EqualError(t, err, `--profile-format "dot": want json or pprof`)
}

// callgrindAnnotate returns the path of callgrind_annotate (valgrind's),
// or skips the test without it (fails under RVSIM_REQUIRE_ARTIFACTS).
func callgrindAnnotate(t *testing.T) string {
	t.Helper()
	ann, err := exec.LookPath("callgrind_annotate")
	if err != nil {
		if os.Getenv("RVSIM_REQUIRE_ARTIFACTS") != "" {
			t.Fatal("callgrind_annotate is needed (make setup installs valgrind)")
		}
		t.Skip("callgrind_annotate not installed (valgrind)")
	}
	return ann
}

// run --callgrind writes the code-region profile of the same run's JSON
// in a form callgrind_annotate (Debian's valgrind) reads: per function
// and, for a -g program, per source line.
func TestRunCallgrind(t *testing.T) {
	needBuilt(t, "build/handlers/rvsim-handlers.elf")
	ann := callgrindAnnotate(t)
	bin := hotGuest(t)
	dir := t.TempDir()
	js, cg := filepath.Join(dir, "p.json"), filepath.Join(dir, "callgrind.out")
	runOK(t, "--acf", rel("acf/hot-code-region.acf"), "--handlers", rel("build/handlers/rvsim-handlers.elf"),
		"--profile-out", js, "--callgrind", cg, bin)
	data, err := os.ReadFile(js)
	require.NoError(t, err)
	ps, err := profile.Read(data)
	require.NoError(t, err)
	var total, hot, hotBranches uint64
	for _, e := range ps[0].Entries {
		total += *e.Instructions
		if e.Function == "hot_loop" {
			hot += *e.Instructions
			hotBranches += e.Count
		}
	}
	require.Positive(t, hot)
	out, err := exec.Command(ann, "--auto=yes", cg).CombinedOutput()
	require.NoError(t, err, "%s", out)
	text := strings.ReplaceAll(string(out), ",", "")
	assert.Contains(t, text, strconv.FormatUint(total, 10)+" (100.0%)", "program totals")
	var fnLine, srcLine string
	for _, l := range strings.Split(text, "\n") {
		if strings.HasSuffix(l, rel("profile/testdata/hot.c")+":hot_loop ["+bin+"]") {
			fnLine = l
		}
		if strings.Contains(l, "for (unsigned long i = 0; i < n; i++)") {
			srcLine = l
		}
	}
	require.NotEmpty(t, fnLine, text)
	assert.Equal(t, strconv.FormatUint(hot, 10), strings.Fields(fnLine)[0])
	assert.Contains(t, fnLine, " "+strconv.FormatUint(hotBranches, 10)+" (")
	require.NotEmpty(t, srcLine, text)
	assert.Equal(t, strconv.FormatUint(hot, 10), strings.Fields(srcLine)[0], "hot_loop's costs are its loop line's")

	var stdout, stderr bytes.Buffer
	status, err := runCmd([]string{"--acf", rel("acf/hot-method.acf"), "--handlers", rel("build/handlers/rvsim-handlers.elf"),
		"--callgrind", cg, bin}, strings.NewReader(""), &stdout, &stderr)
	assert.Equal(t, exitUsage, status)
	assert.EqualError(t, err, "--callgrind: the ACF fills no hot-code-region profile")
	status, err = runCmd([]string{"--callgrind", cg, bin}, strings.NewReader(""), &stdout, &stderr)
	assert.Equal(t, exitUsage, status)
	assert.EqualError(t, err, "--callgrind needs --mode timing (the cycle profile) or --acf FILE (a hot-code-region profile)")
}

// A real run's tuple profiles, streamed to NAME.profile.pb.gz and
// NAME.exact.pb.gz (profile.Pprof.WriteTuples), hold the protobuf the
// pprof package's encoder writes of the same JSON profiles (the general
// path, AddProfHW), byte for byte, gzipped alike: the oracle names
// code addresses as the streamed file does (its locations), and
// everything else (samples, labels, string table, ids, order) is
// rebuilt.
func TestRunProfhwPprofStreamed(t *testing.T) {
	out := runNbodyPprof(t, "multihash-value", "stratified-value")
	for _, name := range []string{"multihash-value.profile", "multihash-value.exact", "stratified-value.profile", "stratified-value.exact"} {
		streamed, err := os.ReadFile(filepath.Join(out, name+".pb.gz"))
		require.NoError(t, err)
		p, err := pprof.Parse(bytes.NewReader(streamed))
		require.NoError(t, err, name)
		require.NoError(t, p.CheckValid(), name)
		require.Positive(t, len(p.Sample), name)
		require.Len(t, p.Mapping, 1)
		lines := map[uint64]pprof.Line{}
		for _, l := range p.Location {
			lines[l.Address] = l.Line[0]
		}
		res := func(pc uint64) (string, string, int) {
			ln := lines[pc]
			return ln.Function.Name, ln.Function.Filename, int(ln.Line)
		}
		m := p.Mapping[0]
		oracle := profile.NewPprof(m.File, m.Start, m.Limit, res)
		data, err := os.ReadFile(filepath.Join(out, name+".json"))
		require.NoError(t, err)
		ok, err := oracle.AddProfHW(data)
		require.NoError(t, err)
		require.True(t, ok)
		pp, err := oracle.Profile()
		require.NoError(t, err)
		var want bytes.Buffer
		zw := gzip.NewWriter(&want) // (WriteTuples' gzip)
		require.NoError(t, pp.WriteUncompressed(zw))
		require.NoError(t, zw.Close())
		assert.True(t, bytes.Equal(want.Bytes(), streamed), "%s: the pprof package's protobuf and the streamed one differ", name)
	}
}
