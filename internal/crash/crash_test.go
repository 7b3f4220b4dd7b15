package crash

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReport: one line on the writer, naming the file that holds the
// panic and the stack.
func TestReport(t *testing.T) {
	var w bytes.Buffer
	dir := t.TempDir()
	path := Report(&w, "nil map write", []byte("goroutine 1 [running]:\nmain.main()\n"), dir)
	require.NotEmpty(t, path)
	line := w.String()
	assert.Equal(t, 1, strings.Count(line, "\n"), "one line")
	assert.True(t, strings.HasPrefix(line, "rvsim: internal error: nil map write (stack in "+path), line)
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Contains(t, string(b), "panic: nil map write")
	assert.Contains(t, string(b), "goroutine 1 [running]:")

	w.Reset()
	assert.Empty(t, Report(&w, "boom", nil, dir+"/missing"))
	assert.Equal(t, "rvsim: internal error: boom (the stack could not be saved; please report it with the command line)\n", w.String())
}
