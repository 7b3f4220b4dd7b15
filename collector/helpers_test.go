package collector

import (
	"context"
	"fmt"
	"hash/crc32"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/rvsim/rvsim/profile"
	"github.com/stretchr/testify/require"
)

// TestMain doubles as the collector server of the kill -9 test: with
// RVSIM_COLLECTOR_TEST_SERVE=DB the test binary serves DB on a free
// loopback port, prints the address on stdout, and runs until killed.
func TestMain(m *testing.M) {
	if db := os.Getenv("RVSIM_COLLECTOR_TEST_SERVE"); db != "" {
		if err := serveForTest(db); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func serveForTest(db string) error {
	s, err := OpenStore(db)
	if err != nil {
		return err
	}
	defer s.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	fmt.Printf("%s\n", ln.Addr())
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return Serve(ctx, ln, NewHandler(s, ServerConfig{Token: os.Getenv("RVSIM_COLLECTOR_TEST_TOKEN")}), 5*time.Second)
}

// server is a collector running inside the test on a free loopback port.
type server struct {
	URL   string
	store *Store
	stop  func()
}

func startServer(t *testing.T, db string, cfg ServerConfig) *server {
	t.Helper()
	if db == "" {
		db = filepath.Join(t.TempDir(), "collector.db")
	}
	s, err := OpenStore(db)
	require.NoError(t, err)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, ln, NewHandler(s, cfg), 5*time.Second) }()
	var once sync.Once
	srv := &server{URL: "http://" + ln.Addr().String(), store: s}
	srv.stop = func() {
		once.Do(func() {
			cancel()
			require.NoError(t, <-done)
			require.NoError(t, s.Close())
		})
	}
	t.Cleanup(srv.stop)
	return srv
}

func (s *server) counts(t *testing.T) Counts {
	t.Helper()
	c, err := s.store.Counts(context.Background())
	require.NoError(t, err)
	return c
}

// memSink keeps the frames a Buffer sends.
type memSink struct {
	frames [][]byte
	closed bool
}

func (m *memSink) Send(f []byte) error {
	m.frames = append(m.frames, append([]byte(nil), f...))
	return nil
}
func (m *memSink) Close() error { m.closed = true; return nil }

func u64(v uint64) *uint64 { return &v }

// region is one code-region entry.
func region(pc, count, instr uint64) profile.Entry {
	return profile.Entry{Count: count, PC: profile.Hex(pc), Function: "f" + profile.Hex(pc), Instructions: u64(instr), Unattributed: u64(0)}
}

func regions(es ...profile.Entry) profile.Profile {
	return profile.Profile{Type: profile.CodeRegion, Source: "handlers", Entries: es}
}

var testProgram = Identity{Name: "anneal", BuildID: "bc882ec3b1a14eae6804a99f4597290a026add91"}

// interval is one interval of a scripted run: its phase and, if sampled,
// its profiles.
type interval struct {
	phase    uint32
	profiles []profile.Profile
}

// record runs a scripted run through a Buffer into sink.
func record(t *testing.T, run Run, sink Sink, ivs []interval) Stats {
	t.Helper()
	b, err := NewBuffer(run, sink)
	require.NoError(t, err)
	for i, iv := range ivs {
		require.NoError(t, b.Interval(uint64(i), iv.phase, iv.profiles))
	}
	st, err := b.Finish()
	require.NoError(t, err)
	return st
}

func get(t *testing.T, url string) (int, []byte) {
	t.Helper()
	resp, err := http.Get(url)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, b
}

func crcOf(b []byte) uint32 { return crc32.Checksum(b, castagnoli) }
