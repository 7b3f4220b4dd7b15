// Package splice writes an experiment's generated Markdown into a
// document between its markers (docs/EXPERIMENTS.md).
package splice

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
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

// Publish writes an experiment's tables to file (making its folder) and,
// when doc is not "", splices them into doc between the markers; under
// the tables, both record how they were made (prov: Stamp).
func Publish(file, doc, beginMark, endMark string, text []byte, prov Provenance) error {
	text = Stamp(text, prov)
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(file, text, 0o644); err != nil {
		return err
	}
	if doc == "" {
		return nil
	}
	return Splice(doc, beginMark, endMark, text)
}

// Stamp is text with prov's line under it, a blank line between.
func Stamp(text []byte, prov Provenance) []byte {
	out := append([]byte(nil), text...)
	if len(out) > 0 && !bytes.HasSuffix(out, []byte("\n")) {
		out = append(out, '\n')
	}
	if len(out) > 0 {
		out = append(out, '\n')
	}
	return append(out, prov.Markdown()...)
}
