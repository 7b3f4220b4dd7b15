// Package tomlfile is what rvsim's TOML files (profhw units, suite files)
// share: decoding a file's text into a generic document, and the one error
// type that renders as file:line: key: message.
package tomlfile

import (
	"errors"
	"fmt"
	"strings"

	"github.com/BurntSushi/toml"
)

// Error is a problem in a file: it renders as file:line: key: message
// (the line and key when known).
type Error struct {
	File string
	Line int
	Key  string
	Msg  string
}

func (e *Error) Error() string {
	s := e.File
	if e.Line > 0 {
		s += fmt.Sprintf(":%d", e.Line)
	}
	if e.Key != "" {
		s += ": " + OneLine(e.Key)
	}
	return s + ": " + OneLine(e.Msg)
}

// lineBreaks writes the characters that would break an error's one line
// as their escapes.
var lineBreaks = strings.NewReplacer("\n", `\n`, "\r", `\r`, "\v", `\v`, "\f", `\f`, "\u0085", `\u0085`, "\u2028", `\u2028`, "\u2029", `\u2029`)

// OneLine is s with its line breaks escaped (the TOML decoder quotes the
// text it stopped at, a newline included: "not a binary number: '0b\n'"),
// so that an error stays one line.
func OneLine(s string) string { return lineBreaks.Replace(s) }

// Decode parses a file's text into a generic document; a syntax error is
// an *Error at the line where it is.
func Decode(file string, data []byte) (map[string]any, toml.MetaData, error) {
	var doc map[string]any
	md, err := toml.Decode(string(data), &doc)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			line := pe.Position.Line
			if strings.Contains(pe.Message, `got '\n'`) && line > 1 {
				line-- // the decoder reports an unexpected end of line on the next one
			}
			return nil, md, &Error{File: file, Line: line, Msg: pe.Message}
		}
		return nil, md, &Error{File: file, Msg: err.Error()}
	}
	return doc, md, nil
}
