package plots

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// chromium finds Debian's chromium (make setup installs it); missing, the
// test is skipped, or fails under make test (RVSIM_REQUIRE_ARTIFACTS=1).
func chromium(t *testing.T) string {
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

// loadPage loads a file in headless Chromium and returns the DOM after
// the page's load event (and its scripts) have run.
func loadPage(t *testing.T, bin, page string) string {
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

// imagesLoaded returns the page's own count of loaded images and images.
func imagesLoaded(t *testing.T, dom string) (loaded, total string) {
	t.Helper()
	m := imagesMark.FindStringSubmatch(dom)
	require.NotNil(t, m, "the page's script did not mark the images:\n%s", dom)
	return m[1], m[2]
}

// TestReportInChromium: index.html loads in a real browser with every
// figure present; the PNGs load too; and a missing or malformed figure is
// caught, and named on the page.
func TestReportInChromium(t *testing.T) {
	bin := chromium(t)
	dir := t.TempDir()
	_, err := Write(dir, testReport())
	require.NoError(t, err)
	index := filepath.Join(dir, "index.html")

	dom := loadPage(t, bin, index)
	loaded, total := imagesLoaded(t, dom)
	assert.Equal(t, "5", total, "five figures")
	assert.Equal(t, total, loaded, "every image loads")
	assert.Equal(t, 5, strings.Count(dom, `data-loaded="yes"`))
	assert.NotContains(t, dom, `class="missing"`)
	assert.Contains(t, dom, "<td>stratified-value</td>", "the tables are on the page")

	// The PNGs, shown by the same page code.
	figs, _, err := Draw(testReport())
	require.NoError(t, err)
	for i := range figs {
		figs[i].SVG = figs[i].PNG
	}
	pngPage := filepath.Join(dir, "png.html")
	require.NoError(t, os.WriteFile(pngPage, []byte(Page(&Report{Title: "PNG"}, figs)), 0o644))
	loaded, total = imagesLoaded(t, loadPage(t, bin, pngPage))
	assert.Equal(t, "5", total)
	assert.Equal(t, total, loaded, "every PNG loads")

	// Break two figures: the page says so.
	require.NoError(t, os.Remove(filepath.Join(dir, "plots", "overhead-per-program.svg")))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "plots", "convergence-lz-invariance-error-5_3_1.svg"),
		[]byte(`<svg xmlns="http://www.w3.org/2000/svg"><g`), 0o644))
	dom = loadPage(t, bin, index)
	loaded, total = imagesLoaded(t, dom)
	assert.Equal(t, "3", loaded)
	assert.Equal(t, "5", total)
	assert.Contains(t, dom, "missing image: plots/overhead-per-program.svg")
	assert.Contains(t, dom, "missing image: plots/convergence-lz-invariance-error-5_3_1.svg")
}
