package syscalls

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestParseScriptLine checks #! lines against load_script's rules (Linux
// 5.1 on), worked by hand from fs/binfmt_script.c.
func TestParseScriptLine(t *testing.T) {
	long := func(n int) string { return "#!/" + strings.Repeat("a", n) }
	for _, c := range []struct {
		name, in    string
		interp, arg string
		script      bool
		errno       Errno
	}{
		{"an ELF file", "\x7fELF\x02\x01", "", "", false, 0},
		{"empty", "", "", "", false, 0},
		{"one #", "#", "", "", false, 0},
		{"interpreter", "#!/bin/sh\necho hi\n", "/bin/sh", "", true, 0},
		{"blanks before", "#! \t/bin/sh\n", "/bin/sh", "", true, 0},
		{"an argument", "#!/usr/bin/env python3\n", "/usr/bin/env", "python3", true, 0},
		{"one argument with spaces", "#!/bin/prog -a  -b c \t\n", "/bin/prog", "-a  -b c", true, 0},
		{"no newline, short file", "#!/bin/sh", "/bin/sh", "", true, 0},
		{"a NUL ends the line", "#!/bin/sh -x\x00junk\n", "/bin/sh", "-x", true, 0},
		{"carriage return is part of the name", "#!/bin/sh\r\n", "/bin/sh\r", "", true, 0},
		{"nothing after #!", "#!\n", "", "", false, ENOEXEC},
		{"only blanks", "#!   \t \n", "", "", false, ENOEXEC},
		{"only blanks, no newline, whole buffer", "#!" + strings.Repeat(" ", 300), "", "", false, ENOEXEC},
		{"name cut at 256 bytes", long(300), "", "", false, ENOEXEC},
		{"a name of 251 bytes and its newline fit", long(250) + "\n", "/" + strings.Repeat("a", 250), "", true, 0},
		{"name ends before the buffer's end, argument cut", "#!/bin/x " + strings.Repeat("b", 300), "/bin/x", strings.Repeat("b", 255-9), true, 0},
		{"newline past the buffer", "#!/bin/x y" + strings.Repeat(" ", 250) + "\n", "/bin/x", "y", true, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			interp, arg, script, e := ParseScriptLine([]byte(c.in))
			assert.Equal(t, c.errno, e)
			assert.Equal(t, c.script, script)
			assert.Equal(t, c.interp, interp)
			assert.Equal(t, c.arg, arg)
		})
	}
}

// FuzzParseScriptLine: any file start parses without a panic, and a
// script's interpreter is a non-empty word without blanks, NULs or
// newlines.
func FuzzParseScriptLine(f *testing.F) {
	for _, s := range []string{"#!/bin/sh\n", "#! /usr/bin/env python3 -u\n", "#!", "\x7fELF", "#!/x\x00y"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		interp, arg, script, e := ParseScriptLine(b)
		if !script {
			if interp != "" || arg != "" {
				t.Fatalf("not a script, but interp %q arg %q", interp, arg)
			}
			return
		}
		if e != 0 || interp == "" || strings.ContainsAny(interp, " \t\x00\n") {
			t.Fatalf("interp %q (errno %v)", interp, e)
		}
		if strings.ContainsAny(arg, "\x00\n") || strings.TrimSpace(arg) != arg && strings.Trim(arg, " \t") != arg {
			t.Fatalf("arg %q", arg)
		}
	})
}
