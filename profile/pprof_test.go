package profile

import (
	"bytes"
	"fmt"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	pprof "github.com/google/pprof/profile"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/elf"
	"github.com/rvsim/rvsim/internal/guestcc"
)

// hotProgram compiles testdata/hot.c with -g.
func hotProgram(t *testing.T) string {
	t.Helper()
	return guestcc.Build(t, "testdata/hot.c", "-g", "-O1")
}

// The DWARF line table gives the file and line binutils' addr2line gives,
// at every halfword of the program's own functions.
func TestLineTableMatchesAddr2line(t *testing.T) {
	bin := hotProgram(t)
	a2l, err := exec.LookPath("riscv64-linux-gnu-addr2line")
	if err != nil {
		t.Skip("riscv64-linux-gnu-addr2line not installed")
	}
	lt, err := elf.ReadLineTable(bin)
	require.NoError(t, err)
	require.Positive(t, lt.Len())
	prog, err := elf.LoadFile(bin)
	require.NoError(t, err)
	var addrs []uint64
	for _, name := range []string{"hot_loop", "warm", "main"} {
		s, ok := prog.Lookup(name)
		require.True(t, ok, name)
		require.Positive(t, s.Size, name)
		for a := s.Value; a < s.Value+s.Size; a += 2 {
			addrs = append(addrs, a)
		}
	}
	args := []string{"-e", bin}
	for _, a := range addrs {
		args = append(args, fmt.Sprintf("%#x", a))
	}
	out, err := exec.Command(a2l, args...).Output()
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	require.Len(t, lines, len(addrs))
	for i, a := range addrs {
		want := strings.Fields(lines[i])[0] // "file:line" (then "(discriminator N)")
		k := strings.LastIndexByte(want, ':')
		wantLine, err := strconv.Atoi(want[k+1:])
		require.NoError(t, err, want)
		file, line, ok := lt.Lookup(a)
		require.True(t, ok, "%#x", a)
		assert.Equal(t, want[:k], file, "%#x", a)
		assert.Equal(t, wantLine, line, "%#x", a)
	}
	_, _, ok := lt.Lookup(0x10)
	assert.False(t, ok, "below the code")
}

// A program without debug information has an empty table, not an error;
// a missing file is an error naming it.
func TestLineTableWithoutDWARF(t *testing.T) {
	bin := hotProgram(t)
	strip, err := exec.LookPath("riscv64-linux-gnu-strip")
	if err != nil {
		t.Skip("riscv64-linux-gnu-strip not installed")
	}
	stripped := bin + ".stripped"
	out, err := exec.Command(strip, "-g", "-o", stripped, bin).CombinedOutput()
	require.NoError(t, err, "%s", out)
	lt, err := elf.ReadLineTable(stripped)
	require.NoError(t, err)
	assert.Zero(t, lt.Len())
	_, err = elf.ReadLineTable(filepath.Join(t.TempDir(), "none"))
	assert.ErrorContains(t, err, "none")
}

// fakeResolver names addresses 0x1000-0x1fff f, 0x2000-0x2fff g, with
// line pc&0xff in src.c.
func fakeResolver(pc uint64) (string, string, int) {
	switch pc >> 12 {
	case 1:
		return "f", "/src/src.c", int(pc & 0xff)
	case 2:
		return "g", "/src/src.c", int(pc & 0xff)
	}
	return "", "", 0
}

// sampleKey describes a read-back sample: its frames (leaf first) as
// function@address:line and its nonzero values by column.
func sampleKey(p *pprof.Profile, s *pprof.Sample) string {
	var b strings.Builder
	for _, l := range s.Location {
		fmt.Fprintf(&b, "%s@%#x:%d ", l.Line[0].Function.Name, l.Address, l.Line[0].Line)
	}
	for i, v := range s.Value {
		if v != 0 {
			fmt.Fprintf(&b, "%s=%d ", p.SampleType[i].Type, v)
		}
	}
	var ls []string
	for k, v := range s.Label {
		ls = append(ls, k+"="+strings.Join(v, ","))
	}
	for k, v := range s.NumLabel {
		ls = append(ls, fmt.Sprintf("%s=%v", k, v))
	}
	sort.Strings(ls)
	b.WriteString(strings.Join(ls, " "))
	return strings.TrimSpace(b.String())
}

func readBack(t *testing.T, b *Pprof) (*pprof.Profile, []string) {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, b.Write(&buf))
	p, err := pprof.Parse(&buf)
	require.NoError(t, err)
	var keys []string
	for _, s := range p.Sample {
		keys = append(keys, sampleKey(p, s))
	}
	sort.Strings(keys)
	return p, keys
}

// Every DISE profile type written as pprof and read back by the pprof
// library: frames, values and labels as the JSON profile has them.
func TestPprofProfilesRoundTrip(t *testing.T) {
	ps := []Profile{
		{Type: CodeRegion, Entries: []Entry{
			{Count: 7, PC: "0x1010", Function: "f", Instructions: u(70), Unattributed: u(0)},
			{Count: 3, PC: "0x2020", Function: "g", Instructions: u(12), Unattributed: u(1)}}},
		{Type: Method, Entries: []Entry{
			{Count: 9, Function: "f", PC: "0x1000", Calls: u(4), BackwardBranches: u(5)},
			{Count: 2, Function: "h", Calls: u(0), BackwardBranches: u(2)}}}, // no entry pc: by name
		{Type: CallPair, Entries: []Entry{
			{Count: 4, Caller: "g", Callee: "f", PC: "0x2004", Target: "0x1000"}}},
		{Type: "bytes", Fields: []Field{{Name: "pc", Format: FormatCode}, {Name: "rs1", Format: FormatDec}, {Name: "bytes", Format: FormatSum}},
			Entries: []Entry{{Count: 5, Fields: []FieldValue{
				{Field: Field{Name: "pc", Format: FormatCode}, Value: 0x1030},
				{Field: Field{Name: "rs1", Format: FormatDec}, Value: uint64(1 << 63)},
				{Field: Field{Name: "bytes", Format: FormatSum}, Value: 812}}}}},
		{Type: CallPair, Entries: []Entry{}}, // empty: its column still there
	}
	b := NewPprof("/prog", 0x1000, 0x3000, fakeResolver)
	require.NoError(t, b.AddProfiles(ps))
	p, keys := readBack(t, b)
	assert.Equal(t, []string{
		"f@0x1000:0 g@0x2004:4 call_pair_calls=4",
		"f@0x1000:0 hot_method_count=9 hot_method_calls=4 hot_method_backward_branches=5",
		"f@0x1010:16 hot_code_region_executions=7 hot_code_region_instructions=70",
		"f@0x1030:48 bytes_count=5 bytes_bytes=812 pc=0x1030 rs1=[-9223372036854775808]",
		"g@0x2020:32 hot_code_region_executions=3 hot_code_region_instructions=12",
		"h@0x0:0 hot_method_count=2 hot_method_backward_branches=2",
	}, keys)
	assert.Equal(t, "hot_code_region_executions", p.DefaultSampleType)
	require.Len(t, p.Mapping, 1)
	assert.Equal(t, "/prog", p.Mapping[0].File)
	for _, f := range p.Function {
		if f.Name != "h" {
			assert.Equal(t, "/src/src.c", f.Filename, f.Name)
		}
	}

	// A bad address is an error naming the profile and entry.
	b = NewPprof("/prog", 0x1000, 0x3000, fakeResolver)
	err := b.AddProfiles([]Profile{{Type: CodeRegion, Entries: []Entry{{Count: 1, PC: "main"}}}})
	assert.EqualError(t, err, `profile hot-code-region: entry 0: pc "main" is not a hex address`)
}

// profhw tuple and path profiles as pprof: tuples one frame with their
// words as labels, paths their blocks as frames.
func TestPprofProfHWRoundTrip(t *testing.T) {
	tuples := `{"unit": "ev", "profile": "exact", "tuples": "edge", "total": 9, "entries": [
	  {"pc": "f+0x10", "pc_hex": "0x1010", "word": "0x2000", "word_at": "g", "tag": 1, "kind": "edge", "count": 6},
	  {"pc": "g+0x4", "pc_hex": "0x2004", "word": "0x7", "tag": 0, "count": 3}]}`
	b := NewPprof("/prog", 0x1000, 0x3000, fakeResolver)
	ok, err := b.AddProfHW([]byte(tuples))
	require.NoError(t, err)
	require.True(t, ok)
	_, keys := readBack(t, b)
	assert.Equal(t, []string{
		"f@0x1010:16 ev_exact_tuples=6 kind=edge tag=1 word=0x2000 word_at=g",
		"g@0x2004:4 ev_exact_tuples=3 tag=0 word=0x7",
	}, keys)

	paths := `{"unit": "bl", "profile": "exact", "paths": "bl", "ppcr": "x", "metric": "frequency", "total": 10, "entries": [
	  {"start": "f", "start_hex": "0x1000", "length": 2, "directions": "TN", "count": 8, "frequency": 8, "instructions": 80,
	   "blocks": [{"start": "f", "insts": ["0x1000  addi a0,a0,1", "0x1004  beq a0,a1,.+8"]},
	              {"start": "g", "insts": ["0x2008  ret"]}]},
	  {"start": "g", "start_hex": "0x2000", "length": 1, "directions": "T", "count": 2, "frequency": 2, "instructions": 6}]}`
	b = NewPprof("/prog", 0x1000, 0x3000, fakeResolver)
	ok, err = b.AddProfHW([]byte(paths))
	require.NoError(t, err)
	require.True(t, ok)
	_, keys = readBack(t, b)
	assert.Equal(t, []string{
		"g@0x2000:0 bl_exact_frequency=2 bl_exact_instructions=6 directions=T length=[1]",
		"g@0x2008:8 f@0x1000:0 bl_exact_frequency=8 bl_exact_instructions=80 directions=TN length=[2]",
	}, keys)

	// Anything else is not a profile pprof can hold.
	ok, err = NewPprof("/prog", 0, 0, nil).AddProfHW([]byte(`{"unit": "x", "kind": "exact"}`))
	assert.NoError(t, err)
	assert.False(t, ok)
}
