package tomlfile

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDecode(t *testing.T) {
	for _, tc := range []struct {
		desc, text, err string
	}{
		{desc: "ok", text: "a = 1\n[t]\nb = \"x\"\n"},
		{desc: "unterminated string on line 2", text: "a = 1\nb = \"x\n", err: "f.toml:2: "},
		{desc: "missing value at end of line 3", text: "a = 1\n\nb =\nc = 2\n", err: "f.toml:3: "},
		{desc: "duplicate key", text: "a = 1\na = 2\n", err: "f.toml:2: "},
	} {
		doc, _, err := Decode("f.toml", []byte(tc.text))
		if tc.err == "" {
			require.NoError(t, err, tc.desc)
			require.EqualValues(t, 1, doc["a"], tc.desc)
			continue
		}
		require.ErrorContains(t, err, tc.err, tc.desc)
		var e *Error
		require.ErrorAs(t, err, &e, tc.desc)
	}
	require.Equal(t, "f:3: k: bad", (&Error{File: "f", Line: 3, Key: "k", Msg: "bad"}).Error())
	require.Equal(t, "f: bad", (&Error{File: "f", Msg: "bad"}).Error())
}

// TestOneLine: an error whose key or message holds a line break (the
// decoder quotes the text it stopped at) still renders as one line.
func TestOneLine(t *testing.T) {
	e := &Error{File: "f.toml", Line: 6, Key: "a\nb", Msg: "not a binary number: '0b\n'"}
	assert.Equal(t, `f.toml:6: a\nb: not a binary number: '0b\n'`, e.Error())
	_, _, err := Decode("f.toml", []byte("x = 0b\n"))
	require.Error(t, err)
	assert.NotContains(t, err.Error(), "\n")
}
