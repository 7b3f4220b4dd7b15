package splice

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// The text replaces what lies between the markers, and nothing else; a
// file without them is an error.
func TestSplice(t *testing.T) {
	const beginMark, endMark = "<!-- BEGIN x -->", "<!-- END x -->"
	f := filepath.Join(t.TempDir(), "E.md")
	require.NoError(t, os.WriteFile(f, []byte("head\n"+beginMark+"\nold\n"+endMark+"\ntail\n"), 0o644))
	require.NoError(t, Splice(f, beginMark, endMark, []byte("new table\n")))
	got, err := os.ReadFile(f)
	require.NoError(t, err)
	require.Equal(t, "head\n"+beginMark+"\n\nnew table\n\n"+endMark+"\ntail\n", string(got))
	require.NoError(t, Splice(f, beginMark, endMark, []byte("newer\n")))
	got, _ = os.ReadFile(f)
	require.Equal(t, "head\n"+beginMark+"\n\nnewer\n\n"+endMark+"\ntail\n", string(got), "idempotent")
	twice := "head\n" + beginMark + "\nold\n" + endMark + "\n"
	require.NoError(t, os.WriteFile(f, []byte(twice+twice), 0o644))
	require.ErrorContains(t, Splice(f, beginMark, endMark, nil), "more than once")
	got, _ = os.ReadFile(f)
	require.Equal(t, twice+twice, string(got), "left alone")
	require.NoError(t, os.WriteFile(f, []byte("no markers\n"), 0o644))
	require.ErrorContains(t, Splice(f, beginMark, endMark, nil), "section to replace")
}
