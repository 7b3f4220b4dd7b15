package test

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rvsim/rvsim/internal/fsrace"
	"github.com/stretchr/testify/require"
)

// TestSandboxRace runs two guests at once under --root J --allow-write
// J/w (issue 19): swapper swaps the directory J/w/d with symbolic links
// to a directory outside the root and to a read-only one inside it (by
// absolute and relative targets), at least 100,000 times; writer
// meanwhile writes, appends, truncates, chmods, chowns, sets times,
// creates, links and renames through /w/d. The sentinel trees (outside
// the root, and J/ro) must be exactly as before: mode, owner, size, mtime
// and content hash of every file, the entries of every directory.
//
// RVSIM_SOAK=DURATION (make soak: 10m) runs the swapper for that long
// instead, and reports the swaps tried.
func TestSandboxRace(t *testing.T) {
	swapper := filepath.Join(testprogs, "race", "swapper")
	writer := filepath.Join(testprogs, "race", "writer")
	needFile(t, swapper, "make testprogs")
	needFile(t, writer, "make testprogs")
	rvsim := rvsimBinary(t)
	var soak time.Duration
	if v := os.Getenv("RVSIM_SOAK"); v != "" {
		d, err := time.ParseDuration(v)
		require.NoError(t, err, "RVSIM_SOAK=%q", v)
		soak = d
	} else if testing.Short() {
		t.Skip("races for about half a minute")
	}

	tmp, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	tr, err := fsrace.Make(tmp)
	require.NoError(t, err)
	before, err := tr.Snapshot()
	require.NoError(t, err)
	hostCwd := filepath.Join(tmp, "cwd") // writable too: outside the root and the sentinels
	require.NoError(t, os.Mkdir(hostCwd, 0o755))

	const minSwaps = 100000
	count := strconv.Itoa(minSwaps)
	if soak > 0 {
		count = "0" // until /w/stop
	}
	sandbox := []string{"run", "--root", tr.Root, "--allow-write", tr.W}
	type done struct {
		r   procResult
		err error
	}
	run := func(args ...string) chan done {
		c := make(chan done, 1)
		go func() {
			r, err := startProcess(hostCwd, nil, rvsim, append(sandbox, args...)...)
			c <- done{r, err}
		}()
		return c
	}
	start := time.Now()
	w := run(writer, "/w/d")
	s := run(swapper, "/w", count)
	if soak > 0 {
		time.Sleep(soak)
		require.NoError(t, os.WriteFile(filepath.Join(tr.W, "stop"), nil, 0o644))
	}
	sd := <-s
	require.NoError(t, os.WriteFile(filepath.Join(tr.W, "stop"), nil, 0o644))
	wd := <-w
	elapsed := time.Since(start)
	require.NoError(t, sd.err)
	require.NoError(t, wd.err)
	require.Equal(t, 0, sd.r.Status, "swapper: %s%s", sd.r.Stdout, sd.r.Stderr)
	require.Equal(t, 0, wd.r.Status, "writer: %s%s", wd.r.Stdout, wd.r.Stderr)

	m := regexp.MustCompile(`swaps (\d+) failed (\d+)`).FindStringSubmatch(sd.r.Stdout)
	require.NotNil(t, m, "swapper's output: %q", sd.r.Stdout)
	swaps, _ := strconv.Atoi(m[1])
	t.Logf("%d swaps tried in %v; writer: %s", swaps, elapsed.Round(time.Second), strings.TrimSpace(wd.r.Stdout))
	require.GreaterOrEqual(t, swaps, minSwaps)
	require.Regexp(t, `calls \d+ succeeded \d+`, wd.r.Stdout)
	require.Contains(t, wd.r.Stderr, "rvsim: sandbox: refused write access to /ro/", "the writer reached the read-only directory through the links")

	after, err := tr.Snapshot()
	require.NoError(t, err)
	diffs := fsrace.Diff(before, after)
	require.Empty(t, diffs, "files outside --allow-write changed:\n%s", strings.Join(diffs, "\n"))
}
