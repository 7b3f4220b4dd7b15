package suite

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A workload every error case below starts from (lines 1-5).
const okWorkload = `[[workload]]
name = "a"
program = "a.elf"
[workload.inputs.test]
args = ["1"]
`

// Every error names the file, the line and the key, and says what was
// expected, in one line.
func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ desc, src, want string }{
		{"TOML syntax", "name = \"x\"\nbindir = \n",
			`s.toml:2: expected value but found '\n' instead`},
		{"no workloads", "name = \"x\"\n",
			"s.toml: no [[workload]] table: a suite file lists its workloads as [[workload]] tables"},
		{"unknown top-level key", "name = \"x\"\nworkloads = 3\n" + okWorkload,
			"s.toml:2: workloads: unknown key (want one of: name, description, bindir, root, sysroot, env, workload)"},
		{"workload not an array of tables", "workload = 3\n",
			"s.toml:1: workload: want [[workload]] tables (an array of tables)"},
		{"unknown workload key", okWorkload + "[[workload]]\nname = \"b\"\nprogam = \"b.elf\"\n",
			"s.toml:8: workload.progam: unknown key (want one of: name, description, program, args, stdin, cwd, files, env, root, sysroot, stdout, stderr, status, check, inputs)"},
		{"unknown input key, in the second workload", okWorkload + "[[workload]]\nname = \"b\"\nprogram = \"b\"\n[workload.inputs.ref]\nargs = []\nstdot = \"x\"\n",
			"s.toml:11: workload.inputs.ref.stdot: unknown key (want one of: args, stdin, files, stdout, stderr, status, check)"},
		{"missing name", "[[workload]]\nprogram = \"a\"\n",
			`s.toml:1: workload: missing name = "..."`},
		{"bad name", "[[workload]]\nname = \"a b\"\n",
			`s.toml:2: workload.name: "a b": want letters, digits, '.', '_', '+' and '-'`},
		{"missing program", "[[workload]]\nname = \"a\"\n[workload.inputs.test]\n",
			`s.toml:1: workload: workload "a": missing program = "..."`},
		{"no inputs", "[[workload]]\nname = \"a\"\nprogram = \"a\"\n",
			`s.toml:1: workload: workload "a" has no inputs: add [workload.inputs.test] (and ref, or any name)`},
		{"repeated name", okWorkload + "\n[[workload]]\nname = \"a\"\nprogram = \"b\"\ninputs.test.args = []\n",
			`s.toml:8: workload.name: workload "a" repeated (first at line 2)`},
		{"args not an array", "[[workload]]\nname = \"a\"\nprogram = \"a\"\nargs = \"-v\"\n[workload.inputs.test]\n",
			"s.toml:4: workload.args: want an array of strings, got a string"},
		{"an argument not a string", okWorkload + "[workload.inputs.ref]\nargs = [\"x\", 2]\n",
			"s.toml:7: workload.inputs.ref.args: element 2: want a string, got an integer"},
		{"status out of range", okWorkload + "status = 256\n",
			"s.toml:6: workload.inputs.test.status: want an exit status, an integer from 0 to 255"},
		{"status a string", "[[workload]]\nname = \"a\"\nprogram = \"a\"\nstatus = \"0\"\n[workload.inputs.test]\n",
			"s.toml:4: workload.status: want an exit status, an integer from 0 to 255"},
		{"env not a table", "env = [\"A=1\"]\n" + okWorkload,
			"s.toml:1: env: want a table, got an array"},
		{"env value not a string", okWorkload + "[workload.env]\nA = 1\n",
			"s.toml:7: workload.env.A: want a string, got an integer"},
		{"env name", "[[workload]]\nname = \"a\"\nprogram = \"a\"\nenv = { \"A-B\" = \"1\" }\n[workload.inputs.test]\n",
			`s.toml:4: workload.env.A-B: "A-B" is not an environment variable name`},
		{"inputs not a table", "[[workload]]\nname = \"a\"\nprogram = \"a\"\ninputs = 3\n",
			"s.toml:4: workload.inputs: want a table, got an integer"},
		{"an input not a table", "[[workload]]\nname = \"a\"\nprogram = \"a\"\ninputs = { test = 1 }\n",
			"s.toml:4: workload.inputs.test: want a table, got an integer"},
		{"bad input name", "[[workload]]\nname = \"a\"\nprogram = \"a\"\n[workload.inputs.\"a b\"]\n",
			`s.toml:4: workload.inputs.a b: input name "a b": want letters, digits, '.', '_', '+' and '-'`},
		{"root not a string", "root = true\n" + okWorkload,
			"s.toml:1: root: want a string, got a boolean"},
		{"a host cwd outside the root", "root = \"r\"\n[[workload]]\nname = \"a\"\nprogram = \"/bin/a\"\ncwd = \"data\"\n[workload.inputs.test]\n",
			"s.toml:5: workload.cwd: data is outside the workload's root BASE/r (an absolute cwd is a path inside the root)"},
		{"an empty file name", okWorkload + "files = [\"\"]\n",
			"s.toml:6: workload.inputs.test.files: an empty file name"},
		{"dotted keys", okWorkload + "inputs.ref.argz = []\n",
			"s.toml:6: workload.inputs.test.inputs: unknown key (want one of: args, stdin, files, stdout, stderr, status, check)"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			base := t.TempDir()
			_, err := Parse("s.toml", []byte(tc.src), ParseOptions{Base: base})
			require.Error(t, err)
			assert.Equal(t, strings.ReplaceAll(tc.want, "BASE", base), err.Error())
			assert.NotContains(t, err.Error(), "\n")
		})
	}
}

// Errors found when an input is read name the key that gave the file.
func TestInputFileErrors(t *testing.T) {
	dir := t.TempDir()
	src := okWorkload + "stdout = \"missing.out\"\n[workload.inputs.ref]\nfiles = [\"gone.in\"]\n"
	s, err := Parse(filepath.Join(dir, "s.toml"), []byte(src), ParseOptions{Base: dir})
	require.NoError(t, err)
	_, err = s.Benchmarks[0].Input("test")
	assert.EqualError(t, err, filepath.Join(dir, "s.toml")+":6: workload.inputs.test.stdout: workload a, input test: open "+filepath.Join(dir, "missing.out")+": no such file or directory")
	_, err = s.Benchmarks[0].Input("ref")
	assert.EqualError(t, err, filepath.Join(dir, "s.toml")+":8: workload.inputs.ref.files: workload a, input ref: "+filepath.Join(dir, "gone.in")+": no such file or directory")
	assert.EqualError(t, s.Benchmarks[0].CheckBuilt(), filepath.Join(dir, "s.toml")+":1: workload a: program "+filepath.Join(dir, "a.elf")+": no such file")
	_, err = Load(filepath.Join(dir, "none.toml"))
	assert.EqualError(t, err, filepath.Join(dir, "none.toml")+": no such file or directory")
}

// FuzzParse: no input makes the parser panic, and every error is one line.
func FuzzParse(f *testing.F) {
	f.Add(string(builtinFile))
	files, _ := filepath.Glob(filepath.Join("testdata", "*.toml"))
	for _, file := range files {
		data, err := os.ReadFile(file)
		require.NoError(f, err)
		f.Add(string(data))
	}
	f.Add(okWorkload + "[workload.env]\nA = \"1\"\n")
	f.Add("workload = [{name = \"a\", program = \"b\", inputs = {test = {}}}]\n")
	f.Fuzz(func(t *testing.T, src string) {
		s, err := Parse("f.toml", []byte(src), ParseOptions{Base: "/nonexistent"})
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("a multi-line error: %q", err.Error())
			}
			return
		}
		for _, b := range s.Benchmarks {
			for _, n := range b.Inputs() {
				b.Input(n) // reads files that do not exist: errors, no panic
			}
		}
	})
}
