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

// Publish writes the file (its folder made) and splices the document;
// without a document it only writes the file.
func TestPublish(t *testing.T) {
	dir := t.TempDir()
	doc := filepath.Join(dir, "doc.md")
	require.NoError(t, os.WriteFile(doc, []byte("a\n<!-- B -->\nold\n<!-- E -->\nz\n"), 0o644))
	out := filepath.Join(dir, "sub", "tables.md")
	require.NoError(t, Publish(out, doc, "<!-- B -->", "<!-- E -->", []byte("new\n")))
	got, err := os.ReadFile(out)
	require.NoError(t, err)
	require.Equal(t, "new\n", string(got))
	got, err = os.ReadFile(doc)
	require.NoError(t, err)
	require.Equal(t, "a\n<!-- B -->\n\nnew\n\n<!-- E -->\nz\n", string(got))
	require.NoError(t, Publish(filepath.Join(dir, "only.md"), "", "<!-- B -->", "<!-- E -->", []byte("x")))
	require.Error(t, Publish(filepath.Join(dir, "t.md"), doc, "<!-- none -->", "<!-- E -->", []byte("x")))
}
