package outfile

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/outfile/outfiletest"
)

// fixture is a directory with an input file "prog" and a subdirectory.
func fixture(t *testing.T) (dir, prog string) {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	prog = filepath.Join(dir, "prog")
	require.NoError(t, os.WriteFile(prog, []byte("the program"), 0o755))
	require.NoError(t, os.Mkdir(filepath.Join(dir, "sub"), 0o755))
	return dir, prog
}

// Registration refuses a file named twice, in one line naming both flags,
// whichever way the two names reach it.
func TestConflicts(t *testing.T) {
	dir, prog := fixture(t)
	require.NoError(t, os.Link(prog, filepath.Join(dir, "hardlink")))
	require.NoError(t, os.Symlink(prog, filepath.Join(dir, "symlink")))
	require.NoError(t, os.Symlink("sub", filepath.Join(dir, "sublink")))
	require.NoError(t, os.Symlink("../prog", filepath.Join(dir, "sub", "u.exact.json")))
	t.Chdir(dir)
	type reg struct{ kind, name, path string }
	for _, tc := range []struct {
		desc string
		regs []reg
		err  string // "" for none
	}{
		{"output is the input", []reg{{"in", "the program", prog}, {"out", "--trace", prog}},
			"--trace " + prog + ": the same file as the program " + prog + " (an output cannot overwrite an input)"},
		{"input registered after the output", []reg{{"out", "--stats", "./prog"}, {"in", "the program", "prog"}},
			"--stats ./prog: the same file as the program prog (an output cannot overwrite an input)"},
		{"a hard link of the input", []reg{{"in", "--acf", prog}, {"out", "--stats", "hardlink"}},
			"--stats hardlink: the same file as --acf " + prog},
		{"a symbolic link to the input", []reg{{"in", "--handlers", "prog"}, {"out", "--profile-out", "symlink"}},
			"--profile-out symlink: the same file as --handlers prog"},
		{"two outputs, one new file", []reg{{"out", "--stats", "s"}, {"out", "--trace", "./sub/../s"}},
			"--trace ./sub/../s: the same file as --stats s (two outputs cannot share a file)"},
		{"two outputs through a linked directory", []reg{{"out", "--stats", "sub/s"}, {"out", "--trace", "sublink/s"}},
			"--trace sublink/s: the same file as --stats sub/s (two outputs cannot share a file)"},
		{"an input in an output directory", []reg{{"in", "--acf", "sub/u.profile.json"}, {"dir", "--profhw-out", "sub"}},
			"--profhw-out sub: the same file as --acf sub/u.profile.json"},
		{"an output in a new output directory", []reg{{"dir", "--profhw-out", "new"}, {"out", "--stats", "new/u.summary.json"}},
			"--stats new/u.summary.json: the same file as --profhw-out new (two outputs cannot share a file)"},
		{"an output in an output directory through a link", []reg{{"dir", "--profhw-out", "sub"}, {"out", "--stats", "sublink/u.summary.json"}},
			"--stats sublink/u.summary.json: the same file as --profhw-out sub"},
		{"a link in an output directory to the input", []reg{{"in", "the program", prog}, {"dir", "--profhw-out", "sub"}},
			"--profhw-out sub: the same file as the program " + prog},
		{"outside the directory's prefixes", []reg{{"in", "--acf", "sub/other.acf"}, {"dir", "--profhw-out", "sub"}}, ""},
		{"two inputs may be one file", []reg{{"in", "--acf", prog}, {"in", "the program", prog}}, ""},
		{"character devices store nothing", []reg{{"in", "--acf", "/dev/null"}, {"out", "--trace", "/dev/null"}, {"out", "--stats", "/dev/null"}}, ""},
		{"different files", []reg{{"in", "the program", prog}, {"out", "--trace", "t"}, {"out", "--stats", "s"}}, ""},
		{"an empty output path", []reg{{"out", "--trace", ""}}, "--trace: empty path"},
		{"an empty input path", []reg{{"in", "--acf", ""}}, "--acf: empty path"},
		{"an output directory that is a file", []reg{{"dir", "--profhw-out", "prog"}}, "--profhw-out prog: not a directory"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			var s Set
			var err error
			for _, r := range tc.regs {
				switch r.kind {
				case "in":
					err = s.Input(r.name, r.path)
				case "out":
					err = s.Output(r.name, r.path)
				case "dir":
					err = s.OutputDir(r.name, r.path, []string{"u."})
				}
				if err != nil {
					break
				}
			}
			if tc.err == "" {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.err)
		})
	}
	// A link inside an output directory to the input: the input is intact.
	data, err := os.ReadFile(prog)
	require.NoError(t, err)
	assert.Equal(t, "the program", string(data))
}

// The standard streams count when they are regular files: stdin is an
// input, stdout and stderr are outputs that may share one file.
func TestStdio(t *testing.T) {
	dir, _ := fixture(t)
	log, err := os.Create(filepath.Join(dir, "log"))
	require.NoError(t, err)
	defer log.Close()
	var s Set
	require.NoError(t, s.Stdio(nil, log, log), "> log 2>&1")
	err = s.Output("--trace", log.Name())
	require.Error(t, err)
	assert.Equal(t, "--trace "+log.Name()+": the same file as standard output (two outputs cannot share a file)", err.Error())

	in, err := os.Open(filepath.Join(dir, "prog"))
	require.NoError(t, err)
	defer in.Close()
	var s2 Set
	require.NoError(t, s2.Stdio(in, os.Stdout, os.Stderr))
	err = s2.Output("--stats", in.Name())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "the same file as standard input (an output cannot overwrite an input)")
}

// Create checks the opened file again: a link swapped in after
// registration cannot turn an output onto an input, which keeps its
// contents; the output it did not create is not left behind.
func TestCreateChecksTheOpenedFile(t *testing.T) {
	dir, prog := fixture(t)
	out := filepath.Join(dir, "out")
	var s Set
	require.NoError(t, s.Input("the program", prog))
	require.NoError(t, s.Output("--trace", out))
	require.NoError(t, os.Symlink(prog, out)) // swapped in after the check
	_, err := s.Create("--trace", out)
	require.Error(t, err)
	assert.Equal(t, "--trace "+out+": the same file as the program "+prog+" (an output cannot overwrite an input)", err.Error())
	data, err := os.ReadFile(prog)
	require.NoError(t, err)
	assert.Equal(t, "the program", string(data))

	// Two outputs that end up one file (a dangling link made the paths
	// differ at registration).
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	require.NoError(t, os.Symlink("b", a))
	var s2 Set
	require.NoError(t, s2.Output("--stats", a))
	require.NoError(t, s2.Output("--trace", b))
	f, err := s2.Create("--stats", a)
	require.NoError(t, err)
	_, err = s2.Create("--trace", b)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "--trace "+b+": the same file as --stats "+a)
	require.Empty(t, s2.Close())
	_ = f
}

// Create truncates an existing output; Abandon removes only the files it
// created.
func TestCreateAndAbandon(t *testing.T) {
	dir, _ := fixture(t)
	old, fresh := filepath.Join(dir, "old"), filepath.Join(dir, "new")
	require.NoError(t, os.WriteFile(old, []byte("old contents"), 0o644))
	var s Set
	require.NoError(t, s.Output("--stats", old))
	require.NoError(t, s.Output("--trace", fresh))
	f, err := s.Create("--stats", old)
	require.NoError(t, err)
	_, err = f.Write([]byte("new"))
	require.NoError(t, err)
	_, err = s.Create("--trace", fresh)
	require.NoError(t, err)
	require.Empty(t, s.Close())
	s.Abandon() // deferred by a command that succeeded: keeps its outputs
	assert.FileExists(t, fresh)
	data, err := os.ReadFile(old)
	require.NoError(t, err)
	assert.Equal(t, "new", string(data))

	var s2 Set
	require.NoError(t, s2.Output("--stats", old))
	require.NoError(t, s2.Output("--trace", filepath.Join(dir, "newer")))
	_, err = s2.Create("--stats", old)
	require.NoError(t, err)
	_, err = s2.Create("--trace", filepath.Join(dir, "newer"))
	require.NoError(t, err)
	s2.Abandon()
	assert.FileExists(t, old)
	assert.NoFileExists(t, filepath.Join(dir, "newer"))

	var s3 Set
	require.NoError(t, s3.Output("--stats", filepath.Join(dir, "missing", "s")))
	_, err = s3.Create("--stats", filepath.Join(dir, "missing", "s"))
	require.Error(t, err)
	assert.Equal(t, "--stats "+filepath.Join(dir, "missing", "s")+": no such file or directory", err.Error())
}

// A write error is kept, later writes are dropped, and Close returns it in
// one line naming the flag and the path.
func TestWriteErrors(t *testing.T) {
	full := outfiletest.FullDevice(t)
	var s Set
	require.NoError(t, s.Output("--trace", full))
	f, err := s.Create("--trace", full)
	require.NoError(t, err)
	_, err = f.Write([]byte("one line\n"))
	require.Error(t, err)
	assert.ErrorIs(t, err, syscall.ENOSPC)
	_, err = f.Write([]byte("another\n"))
	assert.Equal(t, f.Err(), err)
	errs := s.Close()
	require.Len(t, errs, 1)
	assert.Equal(t, "--trace "+full+": write: no space left on device", errs[0].Error())
	assert.Equal(t, errs[0], f.Close(), "closing twice")
}

// The files of an output directory: WriteFile checks each on the opened
// file, so a link planted in the directory during the run is refused.
func TestOutputDirFiles(t *testing.T) {
	dir, prog := fixture(t)
	sub := filepath.Join(dir, "sub")
	var s Set
	require.NoError(t, s.Input("the program", prog))
	require.NoError(t, s.OutputDir("--profhw-out", sub, []string{"u."}))
	require.NoError(t, s.WriteFile("--profhw-out", "u.summary.json", []byte("{}\n")))
	data, err := os.ReadFile(filepath.Join(sub, "u.summary.json"))
	require.NoError(t, err)
	assert.Equal(t, "{}\n", string(data))
	require.NoError(t, os.Symlink(prog, filepath.Join(sub, "u.profile.json")))
	err = s.WriteFile("--profhw-out", "u.profile.json", []byte("{}\n"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "the same file as the program")
	data, err = os.ReadFile(prog)
	require.NoError(t, err)
	assert.Equal(t, "the program", string(data))
}
