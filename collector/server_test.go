package collector

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/big"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/rvsim/rvsim/profile"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func merged(t *testing.T, base, key, query string) *Merged {
	t.Helper()
	status, body := get(t, base+"/v1/programs/"+key+"/profile"+query)
	require.Equal(t, http.StatusOK, status, string(body))
	var m Merged
	require.NoError(t, json.Unmarshal(body, &m))
	return &m
}

// summary is an entry's identity and sums, for comparisons.
type summary struct {
	PC           string
	Count, Instr uint64
}

func summarize(p profile.Profile) []summary {
	var out []summary
	for _, e := range p.Entries {
		s := summary{PC: e.PC, Count: e.Count}
		if e.Instructions != nil {
			s.Instr = *e.Instructions
		}
		out = append(out, s)
	}
	return out
}

// One run sent over HTTP comes back merged: each phase's sample times
// the intervals of its phase.
func TestRoundTrip(t *testing.T) {
	for _, proto := range []Protocol{AtEnd, Interleaved} {
		t.Run(string(proto), func(t *testing.T) {
			srv := startServer(t, "", ServerConfig{Token: "s3cret"})
			cl, err := NewClient(srv.URL, "s3cret")
			require.NoError(t, err)
			st := record(t, Run{Program: testProgram, Input: "ref", Protocol: proto}, cl, sixIntervals())

			// Phases 1 1 2 1 2 3; phase 1 (3 intervals) sampled at interval 1,
			// phase 2 (2 intervals) at interval 2, phase 3 never:
			//   0x100: 3·10 = 30, instructions 3·50 = 150
			//   0x200: 3·4 + 2·7 = 26, instructions 3·8 + 2·14 = 52
			//   0x300: 2·1 = 2, instructions 2·3 = 6
			req, _ := http.NewRequest("GET", srv.URL+"/v1/programs/"+testProgram.Key()+"/profile?input=ref", nil)
			req.Header.Set("Authorization", "Bearer s3cret")
			resp, err := http.DefaultClient.Do(req)
			require.NoError(t, err)
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			require.Equal(t, http.StatusOK, resp.StatusCode, string(body))
			var m Merged
			require.NoError(t, json.Unmarshal(body, &m))
			require.Len(t, m.Profiles, 1)
			assert.Equal(t, []summary{{"0x100", 30, 150}, {"0x200", 26, 52}, {"0x300", 2, 6}}, summarize(m.Profiles[0]))
			assert.Equal(t, profile.CodeRegion, m.Profiles[0].Type)
			assert.Equal(t, "anneal", m.Profiles[0].Program)
			assert.Equal(t, "f0x100", m.Profiles[0].Entries[0].Function)
			assert.Equal(t, 1, m.Runs)
			assert.Equal(t, int(st.Frames), m.Uploads)
			assert.Equal(t, 2, m.Samples)
			assert.Equal(t, uint64(6), m.Interval)
			assert.Equal(t, uint64(1), m.Unprofiled, "phase 3's interval")
			assert.Equal(t, []string{"ref"}, m.Inputs)

			// The merged profile reads back as an rvsim profile.
			var raw struct{ Profiles json.RawMessage }
			require.NoError(t, json.Unmarshal(body, &raw))
			ps, err := profile.Read(raw.Profiles)
			require.NoError(t, err)
			assert.Equal(t, m.Profiles, ps)
		})
	}
}

// Two runs merged by the collector equal the merge by hand.
func TestMergeTwoRuns(t *testing.T) {
	srv := startServer(t, "", ServerConfig{})
	cl, err := NewClient(srv.URL, "")
	require.NoError(t, err)
	user := func(pc, count, bytes uint64) profile.Profile {
		code, sum := profile.Field{Name: "site", Format: profile.FormatCode}, profile.Field{Name: "bytes", Format: profile.FormatSum}
		return profile.Profile{Type: "allocs", Source: "handlers", Fields: []profile.Field{code, sum}, Entries: []profile.Entry{
			{Count: count, Fields: []profile.FieldValue{{Field: code, Value: pc, Function: "malloc"}, {Field: sum, Value: bytes}}}}}
	}
	a := sixIntervals()
	a[1].profiles = append(a[1].profiles, user(0x10, 2, 7))
	record(t, Run{Program: testProgram, Input: "ref", Protocol: Interleaved}, cl, a)
	// Run B: five intervals of phase 5, sampled at 0 and 2: each sample
	// stands for 5/2 intervals.
	b := []interval{
		{phase: 5, profiles: []profile.Profile{regions(region(0x100, 3, 9))}},
		{phase: 5},
		{phase: 5, profiles: []profile.Profile{regions(region(0x100, 4, 11), region(0x300, 1, 1))}},
		{phase: 5},
		{phase: 5},
	}
	record(t, Run{Program: testProgram, Input: "ref", Protocol: AtEnd}, cl, b)
	// Another input of the same program, and another program: not merged
	// into ref.
	record(t, Run{Program: testProgram, Input: "test", Protocol: AtEnd}, cl, []interval{{phase: 1, profiles: []profile.Profile{regions(region(0x100, 1000, 1))}}})
	other := Identity{Name: "other", SHA256: strings.Repeat("ab", 32)}
	record(t, Run{Program: other, Input: "ref", Protocol: AtEnd}, cl, []interval{{phase: 1, profiles: []profile.Profile{regions(region(0x100, 500, 1))}}})

	// By hand. Run A (phases 1 1 2 1 2 3): 0x100 30/150, 0x200 26/52,
	// 0x300 2/6; allocs 0x10: count 3·2 = 6, bytes 3·7 = 21.
	// Run B: 0x100 5/2·(3+4) = 17.5, instructions 5/2·(9+11) = 50;
	// 0x300 5/2·1 = 2.5, instructions 2.5.
	// Sum: 0x100 47.5 → 48, 200; 0x200 26, 52; 0x300 4.5 → 5, 8.5 → 9.
	m := merged(t, srv.URL, testProgram.Key(), "?input=ref")
	require.Len(t, m.Profiles, 2)
	assert.Equal(t, []summary{{"0x100", 48, 200}, {"0x200", 26, 52}, {"0x300", 5, 9}}, summarize(m.Profiles[0]))
	al := m.Profiles[1]
	assert.Equal(t, profile.Kind("allocs"), al.Type)
	require.Len(t, al.Entries, 1)
	assert.Equal(t, uint64(6), al.Entries[0].Count)
	assert.Equal(t, []profile.FieldValue{{Field: profile.Field{Name: "site", Format: profile.FormatCode}, Value: 0x10, Function: "malloc"},
		{Field: profile.Field{Name: "bytes", Format: profile.FormatSum}, Value: 21}}, al.Entries[0].Fields)
	assert.Equal(t, 2, m.Runs)
	assert.Equal(t, 4, m.Samples)
	assert.Equal(t, 3, m.Phases, "(A,1), (A,2), (B,5)")
	assert.Equal(t, uint64(11), m.Interval)
	assert.Equal(t, uint64(1), m.Unprofiled)

	// Every input of the program: ref's estimate plus test's 1000.
	all := merged(t, srv.URL, testProgram.Key(), "")
	assert.Equal(t, []string{"ref", "test"}, all.Inputs)
	assert.Equal(t, summary{"0x100", 1048, 201}, summarize(all.Profiles[0])[0])

	// The list of programs.
	status, body := get(t, srv.URL+"/v1/programs")
	require.Equal(t, http.StatusOK, status)
	var ps []ProgramInfo
	require.NoError(t, json.Unmarshal(body, &ps))
	require.Len(t, ps, 3)
	assert.Equal(t, ProgramInfo{Key: testProgram.Key(), Program: testProgram, Input: "ref", Runs: 2, Uploads: 4, Samples: 4, Intervals: 11, Wire: ps[0].Wire}, ps[0])
	assert.Equal(t, "test", ps[1].Input)
	assert.Equal(t, other.Key(), ps[2].Key)

	status, body = get(t, srv.URL+"/v1/programs/sha256:"+strings.Repeat("00", 32)+"/profile")
	assert.Equal(t, http.StatusNotFound, status)
	assert.Contains(t, string(body), "no uploads of program sha256:00")
}

// Rounding happens once, on the exact sum: three halves make 1.5 → 2,
// whatever the order.
func TestExactRounding(t *testing.T) {
	var e exact
	for i := 0; i < 3; i++ {
		e.add(1, 1, 2)
	}
	v, err := e.value()
	require.NoError(t, err)
	assert.Equal(t, uint64(2), v)
	e = exact{}
	e.add(1<<63, 4, 1) // overflows 64 bits on the way, fits at the end? no: 2^65
	_, err = e.value()
	assert.ErrorContains(t, err, "does not fit in 64 bits")
	e = exact{}
	e.add(5, 3, 1)
	e.add(1, 1, 3)
	v, _ = e.value()
	assert.Equal(t, uint64(15), v, "15 + 1/3")
}

// Refused uploads: the right status, a one-line message, nothing stored.
func TestRefusedUploads(t *testing.T) {
	srv := startServer(t, "", ServerConfig{Token: "tok", MaxUpload: 4096})
	sink := &memSink{}
	record(t, Run{Program: testProgram, Input: "ref", Protocol: AtEnd}, sink, sixIntervals())
	good := sink.frames[0]
	big := &memSink{}
	var bigIvs []interval
	for i := 0; i < 64; i++ {
		var es []profile.Entry
		for j := 0; j < 64; j++ {
			es = append(es, region(uint64(0x1000+i*64+j)*2654435761%(1<<40), uint64(i*j+1), uint64(i+j)))
		}
		bigIvs = append(bigIvs, interval{phase: uint32(i), profiles: []profile.Profile{regions(es...)}})
	}
	record(t, Run{Program: testProgram, Input: "ref", Protocol: AtEnd}, big, bigIvs)
	require.Greater(t, len(big.frames[0]), 4096)

	post := func(body []byte, token string, hdr map[string]string) (int, string) {
		req, err := http.NewRequest("POST", srv.URL+"/v1/uploads", strings.NewReader(string(body)))
		require.NoError(t, err)
		if token != "" {
			req.Header.Set("Authorization", token)
		}
		for k, v := range hdr {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	flipped := append([]byte(nil), good...)
	flipped[len(flipped)-1] ^= 0x55
	for _, tc := range []struct {
		desc   string
		body   []byte
		token  string
		status int
		msg    string
	}{
		{"no token", good, "", 401, "collector: missing or wrong bearer token"},
		{"wrong token", good, "Bearer toK", 401, "collector: missing or wrong bearer token"},
		{"wrong scheme", good, "Basic tok", 401, "collector: missing or wrong bearer token"},
		{"garbage", []byte("hello, collector, this is not a frame at all"), "Bearer tok", 400, `collector: malformed upload: offset 0: not a profile frame (magic "hell", want "RVPB")`},
		{"empty", nil, "Bearer tok", 400, "collector: truncated upload: offset 0: truncated frame: 0 bytes"},
		{"truncated frame", good[:len(good)-10], "Bearer tok", 400, "collector: truncated upload: offset "},
		{"corrupt", flipped, "Bearer tok", 400, "collector: malformed upload: offset 32: CRC-32C"},
		{"oversized", big.frames[0], "Bearer tok", 413, fmt.Sprintf("collector: upload of %d bytes is larger than the limit of 4096 (--max-upload)", len(big.frames[0]))},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			status, msg := post(tc.body, tc.token, nil)
			assert.Equal(t, tc.status, status)
			assert.True(t, strings.HasPrefix(msg, tc.msg), "%q", msg)
			assert.Equal(t, 1, strings.Count(msg, "\n"), "one line: %q", msg)
			assert.Equal(t, Counts{}, srv.counts(t), "nothing stored")
		})
	}

	// Oversized without a Content-Length (chunked): MaxBytesReader stops it.
	t.Run("oversized chunked", func(t *testing.T) {
		pr, pw := io.Pipe()
		go func() { pw.Write(big.frames[0]); pw.Close() }()
		req, _ := http.NewRequest("POST", srv.URL+"/v1/uploads", pr)
		req.Header.Set("Authorization", "Bearer tok")
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		assert.Equal(t, 413, resp.StatusCode)
		assert.Equal(t, "collector: upload is larger than the limit of 4096 bytes (--max-upload)\n", string(b))
		assert.Equal(t, Counts{}, srv.counts(t))
	})

	// A body that ends before its Content-Length: the client goes away.
	t.Run("truncated body", func(t *testing.T) {
		status, line := rawPost(t, srv.URL, good, len(good)/2, "tok", true)
		assert.Equal(t, 400, status, line)
		assert.Equal(t, Counts{}, srv.counts(t))
	})

	// GETs need the token too.
	status, _ := get(t, srv.URL+"/v1/uploads/count")
	assert.Equal(t, 401, status)

	// The good frame is stored once: a retry is acknowledged, not stored.
	status, msg := post(good, "Bearer tok", nil)
	require.Equal(t, 201, status, msg)
	status, msg = post(good, "Bearer tok", nil)
	require.Equal(t, 200, status, msg)
	assert.Contains(t, msg, `"duplicate": true`)
	c := srv.counts(t)
	assert.Equal(t, 1, c.Uploads)
	assert.Equal(t, 2, c.Samples)

	// The same run and sequence number with other contents: 409.
	f, err := DecodeFrame(good)
	require.NoError(t, err)
	f.Payload.Input = "other"
	other, _, err := EncodeFrame(f.Run, f.Seq, f.Payload)
	require.NoError(t, err)
	status, msg = post(other, "Bearer tok", nil)
	assert.Equal(t, 409, status)
	assert.Contains(t, msg, "frame 0 is already stored with other contents")
	// Overlapping intervals of the same run: 409.
	over, _, err := EncodeFrame(f.Run, 1, &Payload{Program: testProgram, Input: "ref", Protocol: AtEnd, First: 5, End: 7, Trace: []uint32{1, 1}})
	require.NoError(t, err)
	status, msg = post(over, "Bearer tok", nil)
	assert.Equal(t, 409, status)
	assert.Contains(t, msg, "intervals [5, 7) overlap those of its frame 0, [0, 6)")
	assert.Equal(t, c, srv.counts(t))
}

// rawPost sends an upload by hand: the headers announce the whole frame,
// only the first n bytes follow. With closeWrite the client then shuts its
// side; it returns the status line the server sent, if any.
func rawPost(t *testing.T, base string, frame []byte, n int, token string, closeWrite bool) (int, string) {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	require.NoError(t, err)
	defer conn.Close()
	fmt.Fprintf(conn, "POST /v1/uploads HTTP/1.1\r\nHost: x\r\nContent-Type: %s\r\nContent-Length: %d\r\n", ContentType, len(frame))
	if token != "" {
		fmt.Fprintf(conn, "Authorization: Bearer %s\r\n", token)
	}
	fmt.Fprintf(conn, "\r\n")
	conn.Write(frame[:n])
	if !closeWrite {
		return 0, ""
	}
	conn.(*net.TCPConn).CloseWrite()
	conn.SetReadDeadline(time.Now().Add(20 * time.Second))
	line, _ := bufio.NewReader(conn).ReadString('\n')
	var status int
	fmt.Sscanf(line, "HTTP/1.1 %d", &status)
	return status, line
}

// What the collector acknowledged survives a graceful restart.
func TestRestartKeepsAcknowledged(t *testing.T) {
	db := filepath.Join(t.TempDir(), "c.db")
	srv := startServer(t, db, ServerConfig{})
	cl, _ := NewClient(srv.URL, "")
	record(t, Run{Program: testProgram, Input: "ref", Protocol: Interleaved}, cl, sixIntervals())
	before := merged(t, srv.URL, testProgram.Key(), "?input=ref")
	c := srv.counts(t)
	srv.stop()
	srv = startServer(t, db, ServerConfig{})
	assert.Equal(t, c, srv.counts(t))
	assert.Equal(t, before, merged(t, srv.URL, testProgram.Key(), "?input=ref"))
}

// A kill -9 of the server, with an upload half sent: after a restart every
// acknowledged upload is there, and nothing of the half-sent one.
func TestKill9MidUpload(t *testing.T) {
	db := filepath.Join(t.TempDir(), "c.db")
	start := func() (*exec.Cmd, string) {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "RVSIM_COLLECTOR_TEST_SERVE="+db)
		out, err := cmd.StdoutPipe()
		require.NoError(t, err)
		cmd.Stderr = os.Stderr
		require.NoError(t, cmd.Start())
		line, err := bufio.NewReader(out).ReadString('\n')
		require.NoError(t, err, "the server prints its address")
		return cmd, "http://" + strings.TrimSpace(line)
	}
	cmd, base := start()
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })

	// Uploads go on while the server is killed; each one acknowledged is
	// remembered.
	type key struct {
		run RunID
		seq uint32
	}
	var mu sync.Mutex
	acked := map[key]bool{}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var n atomic.Int64
	for g := 0; g < 2; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cl := &Client{URL: base, Attempts: 1}
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				sink := &memSink{}
				record(t, Run{Program: testProgram, Input: "ref", Protocol: AtEnd}, sink, sixIntervals())
				f, _ := DecodeFrame(sink.frames[0])
				if _, err := cl.Upload(context.Background(), sink.frames[0]); err != nil {
					return // the server is gone
				}
				mu.Lock()
				acked[key{f.Run, f.Seq}] = true
				mu.Unlock()
				n.Add(1)
			}
		}()
	}
	for deadline := time.Now().Add(60 * time.Second); n.Load() < 20; {
		require.True(t, time.Now().Before(deadline), "20 uploads acknowledged within a minute (%d were)", n.Load())
		time.Sleep(5 * time.Millisecond)
	}
	partial := &memSink{}
	record(t, Run{Program: testProgram, Input: "partial", Protocol: AtEnd}, partial, sixIntervals())
	pf, _ := DecodeFrame(partial.frames[0])
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	require.NoError(t, err)
	defer conn.Close()
	fmt.Fprintf(conn, "POST /v1/uploads HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n", len(partial.frames[0]))
	conn.Write(partial.frames[0][:len(partial.frames[0])/2])
	time.Sleep(50 * time.Millisecond)
	require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
	cmd.Wait()
	close(stop)
	wg.Wait()

	cmd, base = start()
	status, body := get(t, base+"/v1/uploads/count")
	require.Equal(t, 200, status)
	var c Counts
	require.NoError(t, json.Unmarshal(body, &c))
	mu.Lock()
	defer mu.Unlock()
	require.GreaterOrEqual(t, len(acked), 20)
	assert.GreaterOrEqual(t, c.Uploads, len(acked), "every acknowledged upload is stored")
	assert.LessOrEqual(t, c.Uploads, len(acked)+2, "at most the two in flight besides")
	assert.Equal(t, 2*c.Uploads, c.Samples, "each stored upload whole (two samples)")

	// Read the database itself: each acknowledged frame by run and
	// sequence number, and the partial one's run absent.
	cmd.Process.Signal(syscall.SIGTERM)
	require.NoError(t, cmd.Wait(), "graceful stop on SIGTERM")
	st, err := OpenStore(db)
	require.NoError(t, err)
	defer st.Close()
	for k := range acked {
		var found int
		require.NoError(t, st.r.QueryRow(`SELECT COUNT(*) FROM uploads WHERE run = ? AND seq = ?`, k.run[:], k.seq).Scan(&found))
		assert.Equal(t, 1, found, "acknowledged run %s frame %d", k.run, k.seq)
	}
	var found int
	require.NoError(t, st.r.QueryRow(`SELECT COUNT(*) FROM uploads WHERE run = ?`, pf.Run[:]).Scan(&found))
	assert.Zero(t, found, "nothing of the half-sent upload")
	var ok string
	require.NoError(t, st.r.QueryRow(`PRAGMA integrity_check`).Scan(&ok))
	assert.Equal(t, "ok", ok)
}

// Eight clients uploading at once lose nothing.
func TestConcurrentClients(t *testing.T) {
	srv := startServer(t, "", ServerConfig{Token: "t"})
	const clients, runs = 8, 6
	var wg sync.WaitGroup
	errs := make(chan error, clients*runs)
	for c := 0; c < clients; c++ {
		wg.Add(1)
		go func(c int) {
			defer wg.Done()
			cl, _ := NewClient(srv.URL, "t")
			for r := 0; r < runs; r++ {
				b, err := NewBuffer(Run{Program: testProgram, Input: "ref", Protocol: Interleaved}, cl)
				if err != nil {
					errs <- err
					return
				}
				for i, iv := range sixIntervals() {
					if err := b.Interval(uint64(i), iv.phase, iv.profiles); err != nil {
						errs <- err
						return
					}
				}
				if _, err := b.Finish(); err != nil {
					errs <- err
				}
			}
		}(c)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	c := srv.counts(t)
	assert.Equal(t, Counts{Programs: 1, Runs: clients * runs, Uploads: 3 * clients * runs, Samples: 2 * clients * runs, Wire: c.Wire}, c)
	req, _ := http.NewRequest("GET", srv.URL+"/v1/programs/"+testProgram.Key()+"/profile?input=ref", nil)
	req.Header.Set("Authorization", "Bearer t")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	var m Merged
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&m))
	resp.Body.Close()
	const k = clients * runs
	assert.Equal(t, []summary{{"0x100", 30 * k, 150 * k}, {"0x200", 26 * k, 52 * k}, {"0x300", 2 * k, 6 * k}}, summarize(m.Profiles[0]))
}

// The client retries what may pass, a bounded number of times, and not
// what will not.
func TestClientRetries(t *testing.T) {
	var calls atomic.Int64
	failures := int64(2)
	status := http.StatusServiceUnavailable
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) <= failures {
			http.Error(w, "busy", status)
			return
		}
		w.WriteHeader(http.StatusCreated)
		fmt.Fprint(w, `{"upload": 7, "samples": 2}`)
	}))
	defer ts.Close()
	cl := &Client{URL: ts.URL, Backoff: time.Millisecond}
	ack, err := cl.Upload(context.Background(), []byte("frame"))
	require.NoError(t, err)
	assert.Equal(t, int64(7), ack.Upload)
	assert.Equal(t, int64(3), calls.Load(), "two failures, then the upload")

	calls.Store(0)
	failures = 100
	cl.Attempts = 4
	_, err = cl.Upload(context.Background(), []byte("frame"))
	assert.ErrorContains(t, err, "collector: 503 Service Unavailable: busy (gave up after 4 attempts)")
	assert.Equal(t, int64(4), calls.Load())

	calls.Store(0)
	cl.Attempts, cl.Budget, cl.Backoff = 100, 50*time.Millisecond, 20*time.Millisecond
	t0 := time.Now()
	_, err = cl.Upload(context.Background(), []byte("frame"))
	assert.ErrorContains(t, err, "budget 50ms")
	assert.Less(t, time.Since(t0), time.Second)
	assert.Less(t, calls.Load(), int64(5))

	calls.Store(0)
	status = http.StatusBadRequest
	cl.Budget = 0
	_, err = cl.Upload(context.Background(), []byte("frame"))
	var se *StatusError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, 400, se.Status)
	assert.Equal(t, int64(1), calls.Load(), "a 400 is not retried")

	_, err = NewClient("127.0.0.1:80", "")
	assert.ErrorContains(t, err, `collector address "127.0.0.1:80": want http://HOST:PORT`)
}

// exact.add's 64-bit fast path (den == 1, no overflow) agrees with the
// general rational sum.
func TestExactFastPathMatchesGeneral(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 200; trial++ {
		var e exact
		want := new(big.Rat)
		for i := 0; i < 20; i++ {
			v, num, den := rng.Uint64N(1<<40), rng.Uint64N(1000), 1+rng.Uint64N(3)
			if trial%10 == 0 {
				v = rng.Uint64() // overflows the fast path
			}
			e.add(v, num, den)
			want.Add(want, new(big.Rat).SetFrac(new(big.Int).Mul(new(big.Int).SetUint64(v), new(big.Int).SetUint64(num)), new(big.Int).SetUint64(den)))
		}
		want.Add(want, big.NewRat(1, 2))
		w := new(big.Int).Quo(want.Num(), want.Denom())
		got, err := e.value()
		if !w.IsUint64() {
			assert.Error(t, err)
			continue
		}
		require.NoError(t, err)
		assert.Equal(t, w.Uint64(), got, "trial %d", trial)
	}
}

// A connection that never begins a request does not hold up a graceful
// stop (net/http alone waits up to 5 s for it), while a request in flight
// still finishes and is answered.
func TestShutdownSkipsUnusedConnections(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	release := make(chan struct{})
	started := make(chan struct{})
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(started)
		<-release
		fmt.Fprint(w, "done")
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, ln, h, 10*time.Second) }()
	idle, err := net.Dial("tcp", ln.Addr().String())
	require.NoError(t, err)
	defer idle.Close()
	got := make(chan string, 1)
	go func() {
		resp, err := http.Get("http://" + ln.Addr().String() + "/")
		if err != nil {
			got <- err.Error()
			return
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		got <- string(b)
	}()
	<-started
	start := time.Now()
	cancel()
	time.Sleep(100 * time.Millisecond)
	close(release)
	assert.Equal(t, "done", <-got, "the request in flight is answered")
	require.NoError(t, <-done)
	assert.Less(t, time.Since(start), 3*time.Second, "the unused connection held up the stop")
}

// An upload whose count, times its phase's intervals, does not fit in 64
// bits is stored, and the program's merged profile is still served: that
// value as 2^64-1, counted in saturated, the other entries exact. (Before,
// every later request for the program's profile failed with a 500.)
func TestMergeSaturates(t *testing.T) {
	store, err := OpenStore(filepath.Join(t.TempDir(), "s.db"))
	require.NoError(t, err)
	defer store.Close()
	h := NewHandler(store, ServerConfig{})
	p, err := decodePayload([]byte(`{"program":{"name":"a","build_id":"ab"},"protocol":"at-end","first":0,"end":3,"samples":[{"interval":0,"phase":1,"profiles":[{"type":"hot-code-region","entries":[{"count":9223372036854775808,"pc":"0x10","instructions":1},{"count":5,"pc":"0x20"}]}]}],"trace":[1,1]}`))
	require.NoError(t, err)
	frame, _, err := EncodeFrame(RunID{1}, 0, p)
	require.NoError(t, err)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("POST", "/v1/uploads", bytes.NewReader(frame)))
	require.Equal(t, http.StatusCreated, w.Code, w.Body.String())
	w = httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", "/v1/programs/build-id:ab/profile", nil))
	require.Equal(t, http.StatusOK, w.Code, w.Body.String())
	var m Merged
	require.NoError(t, json.Unmarshal(w.Body.Bytes(), &m))
	assert.Equal(t, 1, m.Saturated)
	require.Len(t, m.Profiles, 1)
	require.Len(t, m.Profiles[0].Entries, 2)
	assert.Equal(t, uint64(math.MaxUint64), m.Profiles[0].Entries[0].Count)
	assert.Equal(t, uint64(3), *m.Profiles[0].Entries[0].Instructions)
	assert.Equal(t, uint64(15), m.Profiles[0].Entries[1].Count)
}
