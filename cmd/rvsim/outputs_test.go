package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// No command writes over one of its inputs or lets two outputs share a
// file: each is refused before any work, in one line naming both flags
// and the path, exit status 2, and every input keeps its contents (the
// inputs here are not even programs: the check comes before anything is
// read). Empty paths are refused too.
func TestOutputsNeverClobberInputs(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	t.Chdir(dir)
	inputs := map[string]string{
		"prog":        "the program",
		"a.acf":       "an ACF",
		"h.elf":       "a handler runtime",
		"m.toml":      "a machine",
		"u.toml":      "[[unit]]\nname = \"u\"\nkind = \"exact\"\n",
		"h.c":         "a handler source",
		"x.simpoints": "a program named like simpoint's output",
	}
	for name, data := range inputs {
		require.NoError(t, os.WriteFile(name, []byte(data), 0o755))
	}
	require.NoError(t, os.Link("prog", "hardlink"))
	require.NoError(t, os.Symlink("prog", "symlink"))
	cases := []struct {
		desc string
		args []string
		err  string
	}{
		{"--trace the program", []string{"run", "--trace", "prog", "prog"},
			"--trace prog: the same file as the program prog (an output cannot overwrite an input)"},
		{"--stats the program", []string{"run", "--stats", "./prog", "prog"},
			"--stats ./prog: the same file as the program prog (an output cannot overwrite an input)"},
		{"--stats a hard link of the program", []string{"run", "--stats", "hardlink", "prog"},
			"--stats hardlink: the same file as the program prog (an output cannot overwrite an input)"},
		{"--trace a symbolic link to the program", []string{"run", "--trace", "symlink", "./prog"},
			"--trace symlink: the same file as the program ./prog (an output cannot overwrite an input)"},
		{"--profile-out the ACF", []string{"run", "--profile-out", "a.acf", "--acf", "a.acf", "prog"},
			"--profile-out a.acf: the same file as --acf a.acf (an output cannot overwrite an input)"},
		{"--stats the handler runtime", []string{"run", "--stats", "h.elf", "--acf", "a.acf", "--handlers", "h.elf", "prog"},
			"--stats h.elf: the same file as --handlers h.elf (an output cannot overwrite an input)"},
		{"--interval-out the machine", []string{"run", "--mode", "timing", "--config", "m.toml", "--interval", "1000", "--interval-out", "m.toml", "prog"},
			"--interval-out m.toml: the same file as --config m.toml (an output cannot overwrite an input)"},
		{"--cpuprofile the program", []string{"run", "--cpuprofile", dir + "/prog", "prog"},
			"--cpuprofile " + dir + "/prog: the same file as the program prog (an output cannot overwrite an input)"},
		{"--profhw-out where the unit's files would overwrite its configuration", []string{"run", "--profhw", "u.toml", "--profhw-out", ".", "prog"},
			"--profhw-out .: the same file as --profhw u.toml (an output cannot overwrite an input)"},
		{"--stats and --trace one file", []string{"run", "--stats", "s", "--trace", "s", "prog"},
			"--stats s: the same file as --trace s (two outputs cannot share a file)"},
		{"--trace empty", []string{"run", "--trace", "", "prog"}, "--trace: empty path"},
		{"--stats empty", []string{"run", "--stats=", "prog"}, "--stats: empty path"},
		{"--acf empty", []string{"run", "--acf", "", "prog"}, "--acf: empty path"},
		{"handlers build -o its source", []string{"handlers", "build", "h.c", "-o", "h.c"},
			"-o h.c: the same file as the source h.c (an output cannot overwrite an input)"},
		{"handlers build -o empty", []string{"handlers", "build", "h.c", "-o", ""}, "-o: empty path"},
		{"simpoint's files over the program", []string{"simpoint", "--out", "x", "x.simpoints"},
			"--out x.simpoints: the same file as the program x.simpoints (an output cannot overwrite an input)"},
		{"montecarlo --csv empty", []string{"montecarlo", "--csv", ""}, "--csv: empty path"},
		{"--profhw-out empty", []string{"run", "--profhw-preset", "exact-value", "--profhw-out", "", "prog"}, "--profhw-out: empty path"},
		{"--sysroot empty", []string{"run", "--sysroot", "", "prog"}, "--sysroot: empty path"},
		{"simpoint --out empty", []string{"simpoint", "--out", "", "prog"}, "--out: empty path"},
		{"--interval-out empty", []string{"run", "--mode", "timing", "--interval", "1000", "--interval-out", "", "prog"}, "--interval-out: empty path"},
	}
	for _, tc := range cases {
		t.Run(tc.desc, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			status := run(tc.args, strings.NewReader(""), &stdout, &stderr)
			assert.Equal(t, 2, status)
			assert.Equal(t, "rvsim: "+tc.err+"\n", stderr.String())
			assert.Empty(t, stdout.String())
			for name, data := range inputs {
				got, err := os.ReadFile(name)
				require.NoError(t, err)
				assert.Equal(t, data, string(got), "%s is intact", name)
			}
			ents, err := os.ReadDir(".")
			require.NoError(t, err)
			assert.Len(t, ents, len(inputs)+2, "no output left behind")
		})
	}
}
