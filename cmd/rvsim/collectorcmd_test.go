package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/rvsim/rvsim/collector"
	"github.com/rvsim/rvsim/profile"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var cmdTestProgram = collector.Identity{Name: "prog", SHA256: strings.Repeat("0f", 32)}

// writeFrames records a run of three intervals (phases 4 4 9, the first
// sampled) into file with protocol proto.
func writeFrames(t *testing.T, file string, proto collector.Protocol) {
	t.Helper()
	sink, err := collector.CreateFileSink(file)
	require.NoError(t, err)
	b, err := collector.NewBuffer(collector.Run{Program: cmdTestProgram, Input: "in", Protocol: proto}, sink)
	require.NoError(t, err)
	p := profile.Profile{Type: profile.CodeRegion, Entries: []profile.Entry{{Count: 5, PC: "0x10"}}}
	require.NoError(t, b.Interval(0, 4, []profile.Profile{p}))
	require.NoError(t, b.Interval(1, 4, nil))
	require.NoError(t, b.Interval(2, 9, nil))
	_, err = b.Finish()
	require.NoError(t, err)
}

func TestCollectorImportAndDump(t *testing.T) {
	dir := t.TempDir()
	file, db := filepath.Join(dir, "p.rvpb"), filepath.Join(dir, "c.db")
	writeFrames(t, file, collector.Interleaved) // two frames
	runCmd := func(args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		status := run(args, strings.NewReader(""), &stdout, &stderr)
		return status, stdout.String(), stderr.String()
	}
	status, out, errs := runCmd("collector", "import", "--db", db, file)
	require.Equal(t, 0, status, errs)
	assert.Equal(t, file+": 2 frames stored, 0 already stored\n", out)
	status, out, _ = runCmd("collector", "import", "--db", db, file)
	require.Equal(t, 0, status)
	assert.Equal(t, file+": 0 frames stored, 2 already stored\n", out, "importing again stores nothing twice")

	status, out, _ = runCmd("collector", "dump", file)
	require.Equal(t, 0, status)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 2)
	var d struct {
		Seq     uint32
		Payload collector.Payload
	}
	require.NoError(t, json.Unmarshal([]byte(lines[1]), &d))
	assert.Equal(t, uint32(1), d.Seq)
	assert.Equal(t, []uint32{4, 9}, d.Payload.Trace)

	// A file cut inside its second frame: the first is imported, the
	// error names the file and the offset.
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	cut := filepath.Join(dir, "cut.rvpb")
	require.NoError(t, os.WriteFile(cut, data[:len(data)-4], 0o644))
	status, out, errs = runCmd("collector", "import", "--db", filepath.Join(dir, "d.db"), cut)
	assert.Equal(t, 1, status)
	assert.Equal(t, cut+": 1 frames stored, 0 already stored\n", out)
	assert.Regexp(t, `^rvsim: .*cut.rvpb: offset \d+: truncated frame: the header says \d+ compressed bytes, the file holds \d+\n$`, errs)

	for _, tc := range []struct {
		args []string
		err  string
	}{
		{[]string{"collector", "frob"}, `collector: unknown subcommand "frob"`},
		{[]string{"collector", "serve"}, "collector serve: want --db FILE"},
		{[]string{"collector", "serve", "--db", db, "--max-upload", "12"}, `--max-upload "12": want a size from 36 bytes`},
		{[]string{"collector", "import", file}, "collector import: want --db FILE or --remote URL"},
		{[]string{"collector", "import", "--db", db}, "collector import: want FILE..."},
		{[]string{"collector", "import", "--remote", "localhost:1", file}, `want http://HOST:PORT`},
		{[]string{"collector", "serve", "--db", db, "--token", "a", "--token-file", file}, "give --token or --token-file, not both"},
		{[]string{"collector", "dump", filepath.Join(dir, "none")}, "none: no such file or directory"},
		{[]string{"collector", "dump", dir}, "rvsim: " + dir + ": is a directory"},
		{[]string{"collector", "import", "--db", db, dir}, "rvsim: " + dir + ": is a directory"},
	} {
		status, _, errs := runCmd(tc.args...)
		assert.NotEqual(t, 0, status, tc.args)
		assert.Contains(t, errs, tc.err, tc.args)
		assert.Equal(t, 1, strings.Count(errs, "\n"), "one line: %q", errs)
	}
}

// rvsim collector serve on a free port: an upload from a file, the
// merged profile, and a graceful stop on SIGTERM.
func TestCollectorServe(t *testing.T) {
	dir := t.TempDir()
	file, db, tokFile := filepath.Join(dir, "p.rvpb"), filepath.Join(dir, "c.db"), filepath.Join(dir, "token")
	writeFrames(t, file, collector.AtEnd)
	require.NoError(t, os.WriteFile(tokFile, []byte("tok\n"), 0o600))
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	var stderr bytes.Buffer
	go func() {
		done <- run([]string{"collector", "serve", "--addr", "127.0.0.1:0", "--db", db, "--token-file", tokFile}, strings.NewReader(""), pw, &stderr)
		pw.Close()
	}()
	br := bufio.NewReader(pr)
	line, err := br.ReadString('\n')
	require.NoError(t, err, stderr.String())
	require.True(t, strings.HasPrefix(line, "collector: listening on 127.0.0.1:"), line)
	addr := strings.Fields(line)[3]
	go io.Copy(io.Discard, br)

	var out bytes.Buffer
	status := run([]string{"collector", "import", "--remote", "http://" + addr, "--token-file", tokFile, file}, strings.NewReader(""), &out, &out)
	require.Equal(t, 0, status, out.String())
	req, _ := http.NewRequest("GET", "http://"+addr+"/v1/programs/"+cmdTestProgram.Key()+"/profile?input=in", nil)
	req.Header.Set("Authorization", "Bearer tok")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	var m collector.Merged
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&m))
	resp.Body.Close()
	require.Len(t, m.Profiles, 1)
	assert.Equal(t, uint64(10), m.Profiles[0].Entries[0].Count, "phase 4: 2 intervals × 5")
	assert.Equal(t, uint64(1), m.Unprofiled, "phase 9 was not sampled")

	require.NoError(t, syscall.Kill(os.Getpid(), syscall.SIGTERM))
	assert.Equal(t, 0, <-done, stderr.String())
}

// rvsim collector send: profile files as one run's samples, to a file;
// the same profiles give the same compressed bytes every time.
func TestCollectorSend(t *testing.T) {
	dir := t.TempDir()
	prog, prof := filepath.Join(dir, "prog"), filepath.Join(dir, "p.json")
	require.NoError(t, os.WriteFile(prog, []byte("abc"), 0o755))
	var pj bytes.Buffer
	require.NoError(t, profile.Write(&pj, []profile.Profile{{Type: profile.CodeRegion, Entries: []profile.Entry{{Count: 5, PC: "0x10"}}}}))
	require.NoError(t, os.WriteFile(prof, pj.Bytes(), 0o644))
	var outs []string
	for i := 0; i < 2; i++ {
		var stdout, stderr bytes.Buffer
		status := run([]string{"collector", "send", "--program", prog, "--input", "x", "--protocol", "interleaved", "-o", filepath.Join(dir, "f.rvpb"), prof, prof},
			strings.NewReader(""), &stdout, &stderr)
		require.Equal(t, 0, status, stderr.String())
		outs = append(outs, stdout.String())
	}
	assert.Equal(t, outs[0], outs[1])
	assert.Regexp(t, `^prog \(sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad\): 2 samples in 2 frames, \d+ bytes of JSON, \d+ compressed, \d+ on the wire \(0\.\d+ J, 0\.\d+ s on the 11 Mb/s card\)\n$`, outs[0])
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, run([]string{"collector", "dump", filepath.Join(dir, "f.rvpb")}, strings.NewReader(""), &stdout, &stderr), stderr.String())
	assert.Equal(t, 4, strings.Count(stdout.String(), "\n"), "two runs of two frames")
	status := run([]string{"collector", "send", "--program", prog, "-o", filepath.Join(dir, "g"), "--protocol", "sometimes", prof}, strings.NewReader(""), &stdout, &stderr)
	assert.Equal(t, 2, status)
	assert.Contains(t, stderr.String(), `--protocol: protocol "sometimes": want at-end or interleaved`)
}

// rvsim collector send with a malformed profile file: one line naming
// the file and where in it (line:column for JSON that does not parse, the
// profile and entry for the wrong shape), status 1, nothing written.
func TestCollectorSendBadProfile(t *testing.T) {
	dir := t.TempDir()
	prog := filepath.Join(dir, "prog")
	require.NoError(t, os.WriteFile(prog, []byte("abc"), 0o755))
	for _, tc := range []struct{ desc, json, err string }{
		{"truncated", "{\"type\":\"x\",\n\"entries\":[1,2", "p.json:2:15: unexpected end of JSON input"},
		{"empty", "", "p.json:1:1: unexpected end of JSON input"},
		{"after the value", "{\"type\":\"x\",\"entries\":[]}\n  }", "p.json:2:3: invalid character '}' after top-level value"},
		{"count of the wrong type", `{"type":"x","entries":[{"count":"a"}]}`, "p.json: profile: profile x: entry 0: json: cannot unmarshal string"},
		{"one of several without a type", `[{"type":"a","entries":[]}, {"entries":[]}]`, "p.json: profile: [1]: no type"},
		{"a string", `"x"`, `p.json: profile: want a profile (an object) or an array of them, found "x"`},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			prof, out := filepath.Join(dir, "p.json"), filepath.Join(dir, "out.rvpb")
			require.NoError(t, os.WriteFile(prof, []byte(tc.json), 0o644))
			var stdout, stderr bytes.Buffer
			status := run([]string{"collector", "send", "--program", prog, "-o", out, prof}, strings.NewReader(""), &stdout, &stderr)
			assert.Equal(t, 1, status)
			assert.Equal(t, "rvsim: "+dir+"/"+tc.err, strings.SplitN(stderr.String(), "\n", 2)[0][:len("rvsim: "+dir+"/"+tc.err)])
			assert.Equal(t, 1, strings.Count(stderr.String(), "\n"), stderr.String())
			assert.NoFileExists(t, out)
		})
	}
}
