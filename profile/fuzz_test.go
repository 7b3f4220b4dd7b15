package profile

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// FuzzRead: Read never panics; a refused file's error is one line, and
// one encoding/json gave names where (line:column); what Read accepts
// writes and reads back to the same profiles.
func FuzzRead(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.json")
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"type":"call-pair","entries":[{"count":3,"caller":"main","callee":"f","pc":"0x10c","target":"0x140"}]}`))
	f.Add([]byte(`[{"type":"hot-method","entries":[{"count":7,"function":"f","pc":"0x140","calls":3,"backward_branches":4}]},{"type":"hot-code-region","entries":[]}]`))
	f.Add([]byte(`{"type":"u","fields":[{"name":"k","format":"code"},{"name":"v","format":"dec"},{"name":"n","format":"sum"}],"entries":[{"count":1,"k":"0x10","k_function":"main","v":-3,"n":4}]}`))
	f.Add([]byte("{\"type\":\"x\",\n\"entries\":[1,2"))
	f.Add([]byte(`{"type":"x","entries":[{"count":"a"}]}`))
	pos := regexp.MustCompile(`^\d+:\d+: `)
	f.Fuzz(func(t *testing.T, data []byte) {
		ps, err := Read(data)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error spans lines: %q", err)
			}
			var se *SyntaxError
			if errors.As(err, &se) {
				lines := bytes.Split(data, []byte("\n"))
				if !pos.MatchString(err.Error()) || se.Line < 1 || se.Line > len(lines) || se.Col < 1 || se.Col > len(lines[se.Line-1])+1 {
					t.Fatalf("syntax error at %d:%d, outside the file: %q", se.Line, se.Col, err)
				}
			}
			var je *json.SyntaxError
			var te *json.UnmarshalTypeError
			if errors.As(err, &je) || errors.As(err, &te) {
				t.Fatalf("encoding/json's error without a position: %q", err)
			}
			return
		}
		var b bytes.Buffer
		if err := Write(&b, ps); err != nil {
			if len(ps) == 0 {
				return // an empty array: nothing to write
			}
			t.Fatalf("accepted profiles do not write: %v", err)
		}
		back, err := Read(b.Bytes())
		if err != nil {
			t.Fatalf("written profiles do not read: %v\n%s", err, b.Bytes())
		}
		var b2 bytes.Buffer
		if err := Write(&b2, back); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b.Bytes(), b2.Bytes()) {
			t.Fatalf("round trip changed the profiles:\n%s\n%s", b.Bytes(), b2.Bytes())
		}
	})
}
