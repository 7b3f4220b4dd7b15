// Package crash turns a panic of rvsim itself, which is a bug and never
// the answer to bad input, into one line on stderr that names a report
// file holding the stack, and exit status 70 (EX_SOFTWARE): the user sees
// what happened and what to send, not a Go stack trace.
package crash

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"time"
)

// Status is the exit status of a run that crashed (sysexits.h's
// EX_SOFTWARE).
const Status = 70

// Exit, deferred at the top of a goroutine, reports a panic that reached
// it to w and ends the program with Status; without a panic it does
// nothing.
func Exit(w io.Writer) {
	if r := recover(); r != nil {
		Report(w, r, debug.Stack(), os.TempDir())
		os.Exit(Status)
	}
}

// Report writes the panic value and stack to a file in dir and one line
// naming it to w; it returns the file's path ("" when it could not be
// written: the line then says so).
func Report(w io.Writer, r any, stack []byte, dir string) string {
	f, err := os.CreateTemp(dir, "rvsim-crash-*.txt")
	path := ""
	if err == nil {
		path = f.Name()
		fmt.Fprintf(f, "rvsim internal error at %s\nargs: %q\npanic: %v\n\n%s", time.Now().UTC().Format(time.RFC3339), os.Args, r, stack)
		if f.Close() != nil {
			path = ""
		}
	}
	where := "the stack could not be saved"
	if path != "" {
		where = "stack in " + filepath.Clean(path)
	}
	fmt.Fprintf(w, "rvsim: internal error: %v (%s; please report it with the command line)\n", r, where)
	return path
}
