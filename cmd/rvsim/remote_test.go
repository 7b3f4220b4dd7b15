package main

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/collector"
	"github.com/rvsim/rvsim/profile"
)

// phaseRun runs the phases test program under the code-region ACF and a
// phase trigger, with extra flags; it returns the exit status and the
// --stats "phase" object.
func phaseRun(t *testing.T, dir string, extra ...string) (int, map[string]any, string) {
	t.Helper()
	stats := filepath.Join(dir, "stats.json")
	args := append([]string{"run", "--acf", rel("acf/hot-code-region-hps.acf"), "--handlers", rel("build/handlers/rvsim-handlers.elf"),
		"--trigger", "phase:third:interval=50000", "--stats", stats}, extra...)
	args = append(args, rel("build/testprogs/phase/phases"))
	var stdout, stderr bytes.Buffer
	status := run(args, strings.NewReader(""), &stdout, &stderr)
	if status != 0 {
		return status, nil, stderr.String()
	}
	data, err := os.ReadFile(stats)
	require.NoError(t, err)
	var s struct {
		DISE struct {
			Phase map[string]any `json:"phase"`
		} `json:"dise"`
	}
	require.NoError(t, json.Unmarshal(data, &s))
	return status, s.DISE.Phase, stderr.String()
}

// readPayloads reads a --remote-file's payloads.
func readPayloads(t *testing.T, file string) []*collector.Payload {
	t.Helper()
	f, err := os.Open(file)
	require.NoError(t, err)
	defer f.Close()
	var out []*collector.Payload
	require.NoError(t, collector.ReadFrames(f, 1<<30, func(_ int64, _ []byte, fr *collector.Frame) error {
		out = append(out, fr.Payload)
		return nil
	}))
	return out
}

// TestRunRemoteFile: without --remote the frames go to a local file; the
// same run gives the same compressed bytes; the file holds every interval.
func TestRunRemoteFile(t *testing.T) {
	needBuilt(t, "build/testprogs/phase/phases", "build/handlers/rvsim-handlers.elf")
	dir := t.TempDir()
	var sizes []any
	for i := 0; i < 2; i++ {
		file := filepath.Join(dir, "out.rvprof")
		status, ph, errs := phaseRun(t, dir, "--remote-file", file, "--protocol", "interleaved")
		require.Equal(t, 0, status, errs)
		remote := ph["remote"].(map[string]any)
		sizes = append(sizes, remote["compressed_bytes"])
		st, err := os.Stat(file)
		require.NoError(t, err)
		assert.Equal(t, remote["wire_bytes"], float64(st.Size()))
		ps := readPayloads(t, file)
		samples := len(ph["sampled_intervals"].([]any))
		require.Greater(t, samples, 2)
		assert.Len(t, ps, samples+1, "interleaved: a frame per sample and one for the trailing trace")
		n := uint64(0)
		for _, p := range ps {
			assert.Equal(t, n, p.First)
			n = p.End
			assert.Equal(t, "phases", p.Program.Name)
			assert.NotEmpty(t, p.Program.BuildID)
		}
		assert.Equal(t, ph["intervals"], float64(n))
	}
	assert.Equal(t, sizes[0], sizes[1], "the compressed payload sizes are deterministic")
	// The default file: PROGRAM.rvprof in the working directory.
	wd, _ := os.Getwd()
	require.NoError(t, os.Chdir(dir))
	defer os.Chdir(wd)
	status, _, errs := phaseRun(t, dir)
	require.Equal(t, 0, status, errs)
	assert.FileExists(t, filepath.Join(dir, "phases.rvprof"))
}

// TestRunRemote: rvsim run --remote sends the run's profiles to a
// collector on a free loopback port; its merged profile is the hand merge
// of the same run's payloads (each phase's sample times its intervals).
func TestRunRemote(t *testing.T) {
	needBuilt(t, "build/testprogs/phase/phases", "build/handlers/rvsim-handlers.elf")
	dir := t.TempDir()
	store, err := collector.OpenStore(filepath.Join(dir, "c.db"))
	require.NoError(t, err)
	defer store.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- collector.Serve(ctx, ln, collector.NewHandler(store, collector.ServerConfig{Token: "tok"}), time.Second)
	}()
	defer func() { cancel(); <-done }()
	url := "http://" + ln.Addr().String()

	status, _, errs := phaseRun(t, dir, "--remote", url, "--remote-token", "wrong")
	assert.Equal(t, 2, status)
	assert.Contains(t, errs, "--remote:")
	assert.Contains(t, errs, "401")

	status, ph, errs := phaseRun(t, dir, "--remote", url, "--remote-token", "tok", "--protocol", "interleaved")
	require.Equal(t, 0, status, errs)
	file := filepath.Join(dir, "same.rvprof")
	status, _, errs = phaseRun(t, dir, "--remote-file", file)
	require.Equal(t, 0, status, errs)
	ps := readPayloads(t, file)
	require.Len(t, ps, 1, "at-end: one frame")
	p := ps[0]

	// The hand merge: phase → intervals; each sample's counts × intervals / samples of its phase.
	n, k := map[uint32]float64{}, map[uint32]float64{}
	for _, ph := range p.Trace {
		n[ph]++
	}
	for _, s := range p.Samples {
		n[s.Phase]++
		k[s.Phase]++
	}
	want := map[string]float64{}
	for _, s := range p.Samples {
		for _, e := range s.Profiles[0].Entries {
			want[e.PC] += float64(e.Count) * n[s.Phase] / k[s.Phase]
		}
	}
	req, _ := http.NewRequest("GET", url+"/v1/programs/build-id:"+p.Program.BuildID+"/profile", nil)
	req.Header.Set("Authorization", "Bearer tok")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, 200, resp.StatusCode)
	var m collector.Merged
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&m))
	assert.Equal(t, 1, m.Runs, "the refused run stored nothing")
	assert.Equal(t, len(ph["sampled_intervals"].([]any)), m.Samples)
	require.Len(t, m.Profiles, 1)
	assert.Equal(t, profile.CodeRegion, m.Profiles[0].Type)
	require.Len(t, m.Profiles[0].Entries, len(want))
	for _, e := range m.Profiles[0].Entries {
		assert.Equal(t, uint64(math.Floor(want[e.PC]+0.5)), e.Count, "pc %s", e.PC)
	}
}

func TestRunRemoteUsage(t *testing.T) {
	acfFile := rel("acf/hot-code-region-hps.acf")
	for _, tc := range []struct {
		desc string
		args []string
		err  string
	}{
		{"--remote without a phase trigger", []string{"--acf", acfFile, "--remote", "http://127.0.0.1:1"},
			"--remote, --remote-token, --remote-file and --protocol need --trigger phase:POLICY"},
		{"both destinations", []string{"--acf", acfFile, "--trigger", "phase:third", "--remote", "http://127.0.0.1:1", "--remote-file", "x.rvprof"},
			"give --remote URL or --remote-file FILE, not both"},
		{"a token without --remote", []string{"--acf", acfFile, "--trigger", "phase:third", "--remote-token", "t"},
			"--remote-token needs --remote URL"},
		{"a bad protocol", []string{"--acf", acfFile, "--trigger", "phase:third", "--protocol", "sometimes"},
			`--protocol: protocol "sometimes": want at-end or interleaved`},
		{"a bad phase trigger", []string{"--acf", acfFile, "--trigger", "phase:third:interval=5"},
			"interval=5: want an integer from 1000"},
	} {
		var stdout, stderr bytes.Buffer
		status := run(append(append([]string{"run"}, tc.args...), rel("build/testprogs/phase/phases")), strings.NewReader(""), &stdout, &stderr)
		assert.Equal(t, 2, status, tc.desc)
		assert.Contains(t, stderr.String(), tc.err, tc.desc)
		assert.Equal(t, 1, strings.Count(stderr.String(), "\n"), "%s: one line: %s", tc.desc, stderr.String())
	}
}
