package collector

import (
	"bytes"
	"encoding/binary"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rvsim/rvsim/profile"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A run of six intervals, phases 1 1 2 1 2 3; intervals 1 and 2 sampled.
func sixIntervals() []interval {
	return []interval{
		{phase: 1},
		{phase: 1, profiles: []profile.Profile{regions(region(0x100, 10, 50), region(0x200, 4, 8))}},
		{phase: 2, profiles: []profile.Profile{regions(region(0x200, 7, 14), region(0x300, 1, 3))}},
		{phase: 1},
		{phase: 2},
		{phase: 3},
	}
}

func TestBufferProtocols(t *testing.T) {
	for _, tc := range []struct {
		desc     string
		proto    Protocol
		frames   int
		firstEnd [][2]uint64 // each frame's [first, end)
		traces   [][]uint32
	}{
		{desc: "at end: one frame at exit with everything", proto: AtEnd, frames: 1,
			firstEnd: [][2]uint64{{0, 6}}, traces: [][]uint32{{1, 1, 2, 3}}},
		{desc: "interleaved: a frame per sampled interval, then the trailing trace", proto: Interleaved, frames: 3,
			firstEnd: [][2]uint64{{0, 2}, {2, 3}, {3, 6}}, traces: [][]uint32{{1}, nil, {1, 2, 3}}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			sink := &memSink{}
			st := record(t, Run{Program: testProgram, Input: "ref", Protocol: tc.proto}, sink, sixIntervals())
			require.Len(t, sink.frames, tc.frames)
			assert.True(t, sink.closed)
			assert.Equal(t, uint64(6), st.Intervals)
			assert.Equal(t, uint64(2), st.Samples)
			assert.Equal(t, uint64(tc.frames), st.Frames)
			var phases []uint32
			var wire, comp uint64
			var run RunID
			for i, raw := range sink.frames {
				f, err := DecodeFrame(raw)
				require.NoError(t, err)
				if i == 0 {
					run = f.Run
				}
				assert.Equal(t, run, f.Run, "one run ID for the run's frames")
				assert.Equal(t, uint32(i), f.Seq)
				assert.Equal(t, tc.firstEnd[i], [2]uint64{f.Payload.First, f.Payload.End})
				assert.Equal(t, tc.traces[i], f.Payload.Trace)
				assert.Equal(t, "ref", f.Payload.Input)
				phases = append(phases, f.Payload.Phases()...)
				wire += uint64(len(raw))
				comp += uint64(f.Compressed)
				assert.Equal(t, int(binary.BigEndian.Uint32(raw[28:])), f.Compressed)
			}
			assert.Equal(t, []uint32{1, 1, 2, 1, 2, 3}, phases, "the time-varying phase sequence rebuilds")
			assert.Equal(t, wire, st.Wire)
			assert.Equal(t, comp, st.Compressed)
			assert.Equal(t, st.Compressed+HeaderSize*st.Frames, st.Wire)
			assert.Greater(t, st.Raw, uint64(0))
		})
	}
}

// failingSink refuses its first n frames.
type failingSink struct {
	memSink
	n int
}

func (f *failingSink) Send(b []byte) error {
	if f.n > 0 {
		f.n--
		return fmt.Errorf("link down")
	}
	return f.memSink.Send(b)
}

// Frames the sink refused wait in the buffer and go, unchanged and in
// order, at the next flush.
func TestBufferKeepsRefusedFrames(t *testing.T) {
	sink := &failingSink{n: 2}
	b, err := NewBuffer(Run{Program: testProgram, Input: "ref", Protocol: Interleaved}, sink)
	require.NoError(t, err)
	var errs []error
	for i, iv := range sixIntervals() {
		errs = append(errs, b.Interval(uint64(i), iv.phase, iv.profiles))
	}
	assert.EqualError(t, errs[1], "link down (1 frames wait in the buffer)")
	assert.EqualError(t, errs[2], "link down (2 frames wait in the buffer)")
	assert.Equal(t, uint64(0), b.Stats().Frames)
	st, err := b.Finish()
	require.NoError(t, err)
	require.Len(t, sink.frames, 3)
	var phases []uint32
	for i, raw := range sink.frames {
		f, err := DecodeFrame(raw)
		require.NoError(t, err)
		assert.Equal(t, uint32(i), f.Seq)
		phases = append(phases, f.Payload.Phases()...)
	}
	assert.Equal(t, []uint32{1, 1, 2, 1, 2, 3}, phases)
	assert.Equal(t, uint64(3), st.Frames)
	assert.Equal(t, st.Compressed+HeaderSize*st.Frames, st.Wire)

	// A link that stays down: Finish says so.
	b, err = NewBuffer(Run{Program: testProgram, Protocol: AtEnd}, &failingSink{n: 5})
	require.NoError(t, err)
	require.NoError(t, b.Interval(0, 1, nil))
	_, err = b.Finish()
	assert.EqualError(t, err, "link down (1 frames wait in the buffer)")
}

func TestBufferMisuse(t *testing.T) {
	b, err := NewBuffer(Run{Program: testProgram, Protocol: AtEnd}, &memSink{})
	require.NoError(t, err)
	require.NoError(t, b.Interval(0, 1, nil))
	assert.ErrorContains(t, b.Interval(2, 1, nil), "interval 2, want interval 1")
	assert.ErrorContains(t, b.Interval(0, 1, nil), "interval 0, want interval 1")
	_, err = b.Finish()
	require.NoError(t, err)
	assert.ErrorContains(t, b.Interval(1, 1, nil), "after the end")
	_, err = NewBuffer(Run{Program: testProgram, Protocol: "sometimes"}, &memSink{})
	assert.ErrorContains(t, err, `protocol "sometimes": want at-end or interleaved`)
	_, err = NewBuffer(Run{Program: Identity{Name: "x"}, Protocol: AtEnd}, &memSink{})
	assert.ErrorContains(t, err, "no build_id and no sha256")
}

// The compressed payloads of a run are the same bytes every time the run
// is recorded (whatever its run ID), and the same with a fresh encoder.
func TestCompressedSizeDeterministic(t *testing.T) {
	for _, proto := range []Protocol{AtEnd, Interleaved} {
		var first [][]byte
		var firstStats Stats
		for rep := 0; rep < 3; rep++ {
			sink := &memSink{}
			st := record(t, Run{Program: testProgram, Input: "ref", Protocol: proto}, sink, sixIntervals())
			var comp [][]byte
			for _, f := range sink.frames {
				comp = append(comp, f[HeaderSize:])
			}
			if rep == 0 {
				first, firstStats = comp, st
				continue
			}
			assert.Equal(t, first, comp, "%s: compressed bytes, recording %d", proto, rep)
			assert.Equal(t, firstStats, st, "%s: stats, recording %d", proto, rep)
		}
		// A fresh encoder with the same settings compresses the same way.
		p := Payload{Program: testProgram, Input: "ref", Protocol: proto, End: 6, Trace: []uint32{1, 1, 2, 1, 2, 3}}
		js, err := p.encodeJSON()
		require.NoError(t, err)
		a := newEncoder().EncodeAll(js, nil)
		b := zstdEncoder().EncodeAll(js, nil)
		assert.Equal(t, a, b)
	}
}

var update = flag.Bool("update", false, "rewrite testdata/frame-sizes.golden")

// The compressed sizes of the scripted run, pinned: a new version of the
// compressor that compresses otherwise changes the byte counts that
// experiments report, and must be taken on purpose (go test -update).
func TestCompressedSizeGolden(t *testing.T) {
	var b strings.Builder
	for _, proto := range []Protocol{AtEnd, Interleaved} {
		sink := &memSink{}
		st := record(t, Run{Program: testProgram, Input: "ref", Protocol: proto}, sink, sixIntervals())
		fmt.Fprintf(&b, "%s: frames %d raw %d compressed %d wire %d\n", proto, st.Frames, st.Raw, st.Compressed, st.Wire)
	}
	golden := filepath.Join("testdata", "frame-sizes.golden")
	if *update {
		require.NoError(t, os.WriteFile(golden, []byte(b.String()), 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err)
	assert.Equal(t, string(want), b.String(), "the compressed sizes changed (a new zstd?); if that is meant: go test ./collector -run Golden -update")
}

func TestFrameErrors(t *testing.T) {
	sink := &memSink{}
	record(t, Run{Program: testProgram, Input: "ref", Protocol: AtEnd}, sink, sixIntervals())
	good := sink.frames[0]
	mod := func(f func(b []byte) []byte) []byte { return f(append([]byte(nil), good...)) }
	for _, tc := range []struct {
		desc  string
		data  []byte
		err   string
		trunc bool
	}{
		{desc: "empty", data: nil, err: "offset 0: truncated frame: 0 bytes, the header alone is 36", trunc: true},
		{desc: "short header", data: good[:20], err: "truncated frame: 20 bytes", trunc: true},
		{desc: "short body", data: good[:len(good)-5], err: "truncated frame: the header says", trunc: true},
		{desc: "bad magic", data: mod(func(b []byte) []byte { b[0] = 'X'; return b }), err: `not a profile frame (magic "XVPB", want "RVPB")`},
		{desc: "version", data: mod(func(b []byte) []byte { b[4] = 9; return b }), err: "offset 4: frame version 9, want 1"},
		{desc: "reserved", data: mod(func(b []byte) []byte { b[6] = 1; return b }), err: "reserved header bytes"},
		{desc: "trailing bytes", data: append(append([]byte(nil), good...), 0), err: "1 bytes after the frame's"},
		{desc: "flipped payload bit", data: mod(func(b []byte) []byte { b[HeaderSize+3] ^= 1; return b }), err: "CRC-32C of the payload is"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			_, err := DecodeFrame(tc.data)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.err)
			fe, ok := err.(*FormatError)
			require.True(t, ok, "%T", err)
			assert.Equal(t, tc.trunc, fe.Truncated)
		})
	}
}

// A frame whose compressed JSON is a bad payload: refused with what is
// wrong, though its CRC is right.
func TestPayloadErrors(t *testing.T) {
	frame := func(js string) []byte {
		out := newEncoder().EncodeAll([]byte(js), make([]byte, HeaderSize))
		copy(out, frameMagic)
		out[4] = frameVersion
		binary.BigEndian.PutUint32(out[28:], uint32(len(out)-HeaderSize))
		binary.BigEndian.PutUint32(out[32:], crcOf(out[HeaderSize:]))
		return out
	}
	prog := `"program":{"name":"a","build_id":"ab"},"protocol":"at-end"`
	for _, tc := range []struct{ desc, js, err string }{
		{"not JSON", `{"program":`, "payload JSON: unexpected EOF"},
		{"unknown field", `{` + prog + `,"extra":1}`, `unknown field "extra"`},
		{"trailing JSON", `{` + prog + `} {}`, "data after the payload"},
		{"trailing brace", `{` + prog + `}}`, "data after the payload"},
		{"no identity", `{"program":{"name":"a"},"protocol":"at-end"}`, "no build_id and no sha256"},
		{"both identities", `{"program":{"name":"a","build_id":"ab","sha256":"cd"},"protocol":"at-end"}`, "not both"},
		{"bad build id", `{"program":{"name":"a","build_id":"xyz"},"protocol":"at-end"}`, "program.build_id"},
		{"short sha256", `{"program":{"name":"a","sha256":"abcd"},"protocol":"at-end"}`, "want 64 lower-case hex digits"},
		{"no name", `{"program":{"build_id":"ab"},"protocol":"at-end"}`, "program.name"},
		{"protocol", `{"program":{"name":"a","build_id":"ab"},"protocol":"never"}`, `protocol "never"`},
		{"count mismatch", `{` + prog + `,"first":0,"end":3,"trace":[1]}`, "intervals [0, 3) are 3, but the payload holds 0 samples and 1 trace entries"},
		{"end before first", `{` + prog + `,"first":4,"end":3}`, "want first <= end"},
		{"sample outside", `{` + prog + `,"first":0,"end":1,"samples":[{"interval":5,"phase":1,"profiles":[]}]}`, "samples[0]: interval 5"},
		{"samples out of order", `{` + prog + `,"first":0,"end":2,"samples":[{"interval":1,"phase":1,"profiles":[]},{"interval":0,"phase":1,"profiles":[]}]}`, "samples[1]: interval 0"},
		{"profile without type", `{` + prog + `,"first":0,"end":1,"samples":[{"interval":0,"phase":1,"profiles":[{"entries":[]}]}]}`, "samples[0].profiles[0]: no type"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			_, err := DecodeFrame(frame(tc.js))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.err)
			assert.Contains(t, err.Error(), "offset 36: ")
		})
	}
	_, err := DecodeFrame(frame(`{` + prog + `,"first":0,"end":1,"trace":[7]}`))
	assert.NoError(t, err, "the frame builder itself is right")
}

// Frames read back from a local file, and a file cut inside its last frame
// gives the frames before it and then an error at the offset of the cut.
func TestReadFrames(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "profiles.rvpb")
	for i := 0; i < 2; i++ { // two runs append to one file
		sink, err := CreateFileSink(path)
		require.NoError(t, err)
		record(t, Run{Program: testProgram, Input: "ref", Protocol: Interleaved}, sink, sixIntervals())
	}
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var offs []int64
	require.NoError(t, ReadFrames(bytes.NewReader(data), 1<<20, func(off int64, raw []byte, f *Frame) error {
		offs = append(offs, off)
		assert.Equal(t, data[off:off+int64(len(raw))], raw)
		return nil
	}))
	require.Len(t, offs, 6)
	cut := data[:len(data)-3]
	n := 0
	err = ReadFrames(bytes.NewReader(cut), 1<<20, func(int64, []byte, *Frame) error { n++; return nil })
	assert.Equal(t, 5, n)
	require.Error(t, err)
	assert.Regexp(t, regexp.MustCompile(`^offset \d+: truncated frame: the header says \d+ compressed bytes, the file holds \d+$`), err.Error())
	assert.True(t, err.(*FormatError).Truncated)
	err = ReadFrames(bytes.NewReader(data), 40, func(int64, []byte, *Frame) error { return nil })
	assert.ErrorContains(t, err, "offset 28: frame of")
}

// IdentifyFile reads the GNU build-id note, as readelf -n does, and
// falls back on the file's SHA-256.
func TestIdentifyFile(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "prog.sh")
	require.NoError(t, os.WriteFile(plain, []byte("abc"), 0o644))
	id, err := IdentifyFile(plain)
	require.NoError(t, err)
	// SHA-256("abc"), FIPS 180-2 appendix B.1.
	assert.Equal(t, Identity{Name: "prog.sh", SHA256: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"}, id)
	assert.Equal(t, "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", id.Key())

	elfFile := filepath.Join("..", "build", "benchmarks", "anneal")
	readelf, lookErr := exec.LookPath("riscv64-linux-gnu-readelf")
	if _, err := os.Stat(elfFile); err != nil || lookErr != nil {
		if os.Getenv("RVSIM_REQUIRE_ARTIFACTS") == "1" {
			t.Fatalf("need %s and riscv64-linux-gnu-readelf (make build)", elfFile)
		}
		t.Skip("no built benchmark or readelf")
	}
	out, err := exec.Command(readelf, "-n", elfFile).Output()
	require.NoError(t, err)
	m := regexp.MustCompile(`Build ID: ([0-9a-f]+)`).FindSubmatch(out)
	require.NotNil(t, m, "readelf finds a build-id in %s", elfFile)
	id, err = IdentifyFile(elfFile)
	require.NoError(t, err)
	assert.Equal(t, Identity{Name: "anneal", BuildID: string(m[1])}, id)
}

// WireCost against a hand computation: 1375 bytes are 11000 bits, 1 ms at
// 11 Mb/s; at 5 V × 0.285 A = 1.425 W that is 1.425 mJ.
func TestWireCost(t *testing.T) {
	j, s := WireCost(1375)
	assert.InDelta(t, 0.001, s, 1e-15)
	assert.InDelta(t, 0.001425, j, 1e-15)
	j, s = WireCost(1_375_000) // one second of transmission
	assert.InDelta(t, 1.0, s, 1e-12)
	assert.InDelta(t, 1.425, j, 1e-12)
	j, s = WireCost(0)
	assert.Zero(t, j)
	assert.Zero(t, s)
	assert.InDelta(t, 1.0363636e-6, j+WireJoulePerBit*8, 1e-12, "about 1.04 µJ per byte")
}

// A small frame that would expand past MaxDecoded is refused before it
// costs the memory.
func TestDecompressionBomb(t *testing.T) {
	out := newEncoder().EncodeAll(bytes.Repeat([]byte(" "), MaxDecoded+1), make([]byte, HeaderSize))
	require.Less(t, len(out), 1<<16, "a bomb is small")
	copy(out, frameMagic)
	out[4] = frameVersion
	binary.BigEndian.PutUint32(out[28:], uint32(len(out)-HeaderSize))
	binary.BigEndian.PutUint32(out[32:], crcOf(out[HeaderSize:]))
	_, err := DecodeFrame(out)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "offset 36: zstd: ")
}
