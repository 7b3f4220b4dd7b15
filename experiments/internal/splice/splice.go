// Package splice writes an experiment's generated Markdown into a
// document between its markers (docs/EXPERIMENTS.md).
package splice

import (
	"bytes"
	"fmt"
	"os"
)

// Splice replaces what lies between the markers of file with text. A
// marker missing, out of order or there more than once is an error (a
// doubled section would leave a stale copy of the table behind).
func Splice(file, beginMark, endMark string, text []byte) error {
	old, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	b := bytes.Index(old, []byte(beginMark))
	e := bytes.Index(old, []byte(endMark))
	if b < 0 || e < b {
		return fmt.Errorf("%s: no %q … %q section to replace", file, beginMark, endMark)
	}
	if bytes.Count(old, []byte(beginMark)) != 1 || bytes.Count(old, []byte(endMark)) != 1 {
		return fmt.Errorf("%s: the markers %q … %q appear more than once", file, beginMark, endMark)
	}
	var nw bytes.Buffer
	nw.Write(old[:b+len(beginMark)])
	nw.WriteString("\n\n")
	nw.Write(text)
	nw.WriteString("\n")
	nw.Write(old[e:])
	return os.WriteFile(file, nw.Bytes(), 0o644)
}
