// Package plotstest loads a report in headless Chromium for the tests of
// compare/plots and compare (docs/REPORT.md, "Tests").
package plotstest

import (
	"context"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// Chromium finds Debian's chromium (make setup installs it); missing, the
// test is skipped, or fails under make test (RVSIM_REQUIRE_ARTIFACTS=1).
func Chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	msg := "no chromium to load the report in (make setup installs Debian's chromium package)"
	if os.Getenv("RVSIM_REQUIRE_ARTIFACTS") == "1" {
		t.Fatal(msg + " (RVSIM_REQUIRE_ARTIFACTS=1)")
	}
	t.Skip(msg)
	return ""
}

// LoadPage loads a file in headless Chromium and returns the DOM after
// the page's load event (and its scripts) have run.
func LoadPage(t *testing.T, bin, page string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu",
		"--disable-dev-shm-usage", "--no-first-run", "--user-data-dir="+t.TempDir(),
		"--virtual-time-budget=10000", "--dump-dom", "file://"+page)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "chromium: %s", stderr.String())
	return string(out)
}

var imagesMark = regexp.MustCompile(`<body[^>]* data-images="(\d+)/(\d+) loaded"`)

// ImagesLoaded returns the page's own count of loaded images and images.
func ImagesLoaded(t *testing.T, dom string) (loaded, total string) {
	t.Helper()
	m := imagesMark.FindStringSubmatch(dom)
	require.NotNil(t, m, "the page's script did not mark the images:\n%s", dom)
	return m[1], m[2]
}
