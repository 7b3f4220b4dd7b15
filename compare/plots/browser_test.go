package plots

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/compare/plots/plotstest"
)

// TestReportInChromium: index.html loads in a real browser with every
// figure present; the PNGs load too; and a missing or malformed figure is
// caught, and named on the page.
func TestReportInChromium(t *testing.T) {
	bin := plotstest.Chromium(t)
	dir := t.TempDir()
	_, err := Write(dir, testReport())
	require.NoError(t, err)
	index := filepath.Join(dir, "index.html")

	dom := plotstest.LoadPage(t, bin, index)
	loaded, total := plotstest.ImagesLoaded(t, dom)
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
	loaded, total = plotstest.ImagesLoaded(t, plotstest.LoadPage(t, bin, pngPage))
	assert.Equal(t, "5", total)
	assert.Equal(t, total, loaded, "every PNG loads")

	// Break two figures: the page says so.
	require.NoError(t, os.Remove(filepath.Join(dir, "plots", "overhead-per-program.svg")))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "plots", "convergence-lz-invariance-error-5_3_1.svg"),
		[]byte(`<svg xmlns="http://www.w3.org/2000/svg"><g`), 0o644))
	dom = plotstest.LoadPage(t, bin, index)
	loaded, total = plotstest.ImagesLoaded(t, dom)
	assert.Equal(t, "3", loaded)
	assert.Equal(t, "5", total)
	assert.Contains(t, dom, "missing image: plots/overhead-per-program.svg")
	assert.Contains(t, dom, "missing image: plots/convergence-lz-invariance-error-5_3_1.svg")
}
