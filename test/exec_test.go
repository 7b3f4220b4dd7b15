package test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// execWant is test/programs/exec's output: the failed calls and their
// errnos, then each stage of a chain of four execs (itself, a #! script,
// fexecve, another program), with what survives an exec and what does
// not (Linux's fs/exec.c). qemu-riscv64 cannot be the reference here:
// its execve hands the path to the host's execve, which cannot run
// riscv64 code without binfmt_misc (and runs the host's own program when
// the path names one), so the expectations are written by hand.
const execWant = `missing file: ENOENT
no execute permission: EACCES
not an executable format: ENOEXEC
a directory: EACCES
a script's missing interpreter: ENOENT
an interpreter name past 256 bytes: ENOEXEC
a script that names itself: ELOOP
AT_SYMLINK_NOFOLLOW on a link: ELOOP
a bad argv: EFAULT
a bad path: EFAULT
an argument past 128 KiB: E2BIG
bad execveat flags: EINVAL
still running after the failed calls
threads before: 2
kept: argv[0] = exec, STAGE = kept
same pid: yes
tid = pid: yes
threads after: 1
the old image's mapping gone: yes
fd 10 open: yes
fd 11 closed: yes
written through fd 10
SIGUSR1 ignored, SIGUSR2 default
SIGTERM blocked: yes
comm = exec
/proc/self/exe is the program: yes
AT_EXECFN is the path given: yes
script: argc = 6
argv[0] is the interpreter: yes
argv[1] = script
argv[2] = ./run-me
argv[3] = one
argv[4] = two words
fexec: AT_EXECFN = /dev/fd/3
target argv[1] = a
target argv[2] = b
target STAGE = fexec
target sum = 17500350000
`

// runExec runs the exec program of variant (exec or exec-dyn) under
// rvsim with extra flags, in a fresh working directory (the program
// writes its scripts there), and returns the result and the instruction
// count.
func runExec(t *testing.T, rvsim, variant string, flags ...string) (procResult, uint64) {
	t.Helper()
	prog := filepath.Join(testprogs, variant, "exec")
	target := filepath.Join(testprogs, variant, "target")
	needFile(t, prog, "make testprogs")
	needFile(t, target, "make testprogs")
	dir := t.TempDir()
	stats := filepath.Join(t.TempDir(), "stats.json")
	args := append([]string{"run", "--stats", stats}, flags...)
	r := runProcess(t, dir, []string{"EXEC_SELF=" + prog}, rvsim, append(args, prog, "start", target)...)
	var s struct{ Instructions uint64 }
	if b, err := os.ReadFile(stats); err == nil {
		require.NoError(t, json.Unmarshal(b, &s))
	}
	return r, s.Instructions
}

// TestExecve runs the chain static and dynamically linked: the expected
// output and exit status (the last program's 42), the same instruction
// count on a second run, interpreted and in timing mode.
func TestExecve(t *testing.T) {
	rvsim := rvsimBinary(t)
	for _, variant := range []string{"exec", "exec-dyn"} {
		t.Run(variant, func(t *testing.T) {
			r, n := runExec(t, rvsim, variant)
			require.Equal(t, 42, r.Status, r.Stderr)
			assert.Equal(t, execWant, r.Stdout)
			assert.Empty(t, r.Stderr)
			require.NotZero(t, n)

			r2, n2 := runExec(t, rvsim, variant)
			assert.Equal(t, r.Stdout, r2.Stdout)
			assert.Equal(t, n, n2, "instruction count of a second run")

			for _, flags := range [][]string{{"--jit", "off"}, {"--mode", "timing"}} {
				rf, nf := runExec(t, rvsim, variant, flags...)
				assert.Equal(t, 42, rf.Status, "%v: %s", flags, rf.Stderr)
				assert.Equal(t, execWant, rf.Stdout, "%v", flags)
				assert.Equal(t, n, nf, "instruction count with %v", flags)
			}
		})
	}
}

// TestExecveUnderDifftest: the new image reaches the oracle as the
// system call's writes and address-map change, and its registers as a
// redirect, so the chain runs in lock-step without a divergence.
func TestExecveUnderDifftest(t *testing.T) {
	rvsim := rvsimBinary(t)
	needOracleLib(t)
	for _, variant := range []string{"exec", "exec-dyn"} {
		t.Run(variant, func(t *testing.T) {
			prog := filepath.Join(testprogs, variant, "exec")
			target := filepath.Join(testprogs, variant, "target")
			needFile(t, prog, "make testprogs")
			r := runProcess(t, t.TempDir(), []string{"EXEC_SELF=" + prog}, rvsim, "run", "--difftest", prog, "start", target)
			assert.Equal(t, 42, r.Status, r.Stderr)
			assert.Equal(t, execWant, r.Stdout)
			assert.Contains(t, r.Stderr, "no divergence")
		})
	}
}

// TestExecveKeepsHandlers: under DISE the handler runtime is the
// simulator's, not the program's: it stays mapped across the exec and
// its profile covers the whole chain, symbolized with the last program.
func TestExecveKeepsHandlers(t *testing.T) {
	rvsim := rvsimBinary(t)
	rt := filepath.Join(repoRoot, "build", "handlers", "rvsim-handlers.elf")
	needFile(t, rt, "make handlers")
	out := filepath.Join(t.TempDir(), "profile.json")
	r, _ := runExec(t, rvsim, "exec", "--handlers", rt, "--acf", filepath.Join(repoRoot, "acf", "hot-method-dise.acf"),
		"--trigger", "periodic:1000:500", "--profile-out", out)
	require.Equal(t, 42, r.Status, r.Stderr)
	assert.Equal(t, execWant, r.Stdout)
	b, err := os.ReadFile(out)
	require.NoError(t, err)
	var p struct {
		Program string
		Entries []struct {
			Count    uint64
			Function string
		}
	}
	require.NoError(t, json.Unmarshal(b, &p))
	assert.Equal(t, filepath.Join(testprogs, "exec", "target"), p.Program)
	require.NotEmpty(t, p.Entries)
	assert.Equal(t, "main", p.Entries[0].Function, "the target's loop is the hottest method")
	assert.Greater(t, p.Entries[0].Count, uint64(40000))
}

// TestPythonExec runs Debian's python3, which replaces itself with a
// python3 script through os.execve: the #! line's interpreter and its
// argument, the new argv and environment.
func TestPythonExec(t *testing.T) {
	rvsim := rvsimBinary(t)
	root, python := debianRoot(t, "usr/bin/python3")
	dir := runDir(t, root)
	script := "#!/usr/bin/python3 -S\nimport os, sys\nprint('script', sys.argv[1:], os.environ.get('X'), os.getpid())\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "s.py"), []byte(script), 0o755))
	r := runProcess(t, dir, []string{"PYTHONDONTWRITEBYTECODE=1"}, rvsim, "run", "--root", root, python, "-S", "-c",
		`import os; print("before", os.getpid(), flush=True); os.execve("./s.py", ["s.py", "a", "b c"], {"X": "1", "PYTHONDONTWRITEBYTECODE": "1"})`)
	require.Equal(t, 0, r.Status, r.Stderr)
	assert.Empty(t, r.Stderr)
	assert.Equal(t, "before 1000\nscript ['a', 'b c'] 1 1000\n", r.Stdout)

	// The script as the program: rvsim runs its interpreter from the root,
	// and the process is named after the script, as Linux names it.
	named := "#!/usr/bin/python3 -S\nimport sys\nprint(sys.argv[1:], open('/proc/self/comm').read().strip())\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "named.py"), []byte(named), 0o755))
	r = runProcess(t, dir, []string{"PYTHONDONTWRITEBYTECODE=1"}, rvsim, "run", "--root", root, filepath.Join(dir, "named.py"), "x")
	require.Equal(t, 0, r.Status, r.Stderr)
	assert.Empty(t, r.Stderr)
	assert.Equal(t, "['x'] named.py\n", r.Stdout)
}

// TestScriptProgram runs a #! script as the program, as a shell would
// execve it: its interpreter (the exec program's "script" stage) gets
// the line's argument, the script's path and the script's arguments,
// and goes on through the rest of the chain. A script rvsim cannot run
// is a one-line error before the run.
func TestScriptProgram(t *testing.T) {
	rvsim := rvsimBinary(t)
	prog := filepath.Join(testprogs, "exec", "exec")
	target := filepath.Join(testprogs, "exec", "target")
	needFile(t, prog, "make testprogs")
	dir := t.TempDir()
	script := filepath.Join(dir, "run-me")
	require.NoError(t, os.WriteFile(script, []byte("#!"+prog+" script\n"), 0o755))
	r := runProcess(t, dir, []string{"EXEC_SELF=" + prog}, rvsim, "run", script, "one", "two words", target)
	require.Equal(t, 42, r.Status, r.Stderr)
	assert.Empty(t, r.Stderr)
	want := "script: argc = 6\nargv[0] is the interpreter: yes\nargv[1] = script\nargv[2] = " + script +
		"\nargv[3] = one\nargv[4] = two words\n"
	assert.Equal(t, want, r.Stdout[:min(len(want), len(r.Stdout))])
	assert.Contains(t, r.Stdout, "target sum = 17500350000\n")

	for _, c := range []struct{ name, text, err string }{
		{"missing", "#!/no/such/interpreter -x\n", "the interpreter /no/such/interpreter of its #! line: not found in the guest root"},
		{"blank", "#!  \n", "its #! line names no interpreter, or one longer than 256 bytes"},
		{"loop", "#!" + filepath.Join(dir, "loop") + "\n", "#! interpreters nest more than five deep"},
		{"plain", "#!" + prog + "\n", "permission denied (a #! script needs execute permission, as execve does)"},
	} {
		p := filepath.Join(dir, c.name)
		mode := os.FileMode(0o755)
		if c.name == "plain" {
			mode = 0o644
		}
		require.NoError(t, os.WriteFile(p, []byte(c.text), mode))
		r := runProcess(t, dir, []string{}, rvsim, "run", p)
		assert.Equal(t, 2, r.Status, c.name)
		assert.Equal(t, "rvsim: "+p+": "+c.err+"\n", r.Stderr, c.name)
	}
}

// TestProgramThroughRootLinks runs a program of a root given by a host
// path whose links are absolute, as update-alternatives makes them
// (/usr/bin/java -> /etc/alternatives/java -> ...): rvsim follows them
// inside the root, where the host would follow them out of it, and the
// guest sees the path it was given (argv[0], comm) and the file found
// (/proc/self/exe), as under Linux with the root as /. A #! script
// reached that way gets the path given as its argument.
func TestProgramThroughRootLinks(t *testing.T) {
	rvsim := rvsimBinary(t)
	root, _ := debianRoot(t, "usr/bin/python3")
	dir := runDir(t, root)
	guest := "/" + filepath.Base(filepath.Dir(dir)) + "/" + filepath.Base(dir) // dir inside the root
	require.NoError(t, os.Symlink(guest+"/alt", filepath.Join(dir, "py")))
	require.NoError(t, os.Symlink("/usr/bin/python3", filepath.Join(dir, "alt")))
	_, err := os.Stat(filepath.Join(dir, "py"))
	require.Error(t, err, "the host cannot follow the link: %s is not a host path", guest)

	r := runProcess(t, dir, []string{}, rvsim, "run", "--root", root, filepath.Join(dir, "py"), "-S", "-c",
		`import sys, os; print(sys.orig_argv[0], os.readlink("/proc/self/exe"), open("/proc/self/comm").read().strip())`)
	require.Equal(t, 0, r.Status, r.Stderr)
	assert.Empty(t, r.Stderr)
	exe, err := filepath.EvalSymlinks(filepath.Join(root, "usr/bin/python3")) // python3 -> python3.13
	require.NoError(t, err)
	assert.Equal(t, guest+"/py /usr/bin/"+filepath.Base(exe)+" py\n", r.Stdout)

	script := "#!/usr/bin/python3 -S\nimport sys\nprint(sys.argv, open('/proc/self/comm').read().strip())\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "s.py"), []byte(script), 0o755))
	require.NoError(t, os.Symlink(guest+"/s.py", filepath.Join(dir, "s")))
	r = runProcess(t, dir, []string{"PYTHONDONTWRITEBYTECODE=1"}, rvsim, "run", "--root", root, filepath.Join(dir, "s"), "x")
	require.Equal(t, 0, r.Status, r.Stderr)
	assert.Empty(t, r.Stderr)
	assert.Equal(t, "['"+guest+"/s', 'x'] s\n", r.Stdout)
}

// TestRootByteCode: rvsim rootfs create byte-compiles the root's Python
// standard library, as Debian's postinst scripts do, so a Python start
// compiles nothing: no write to a __pycache__ (which the sandbox would
// refuse, with a warning), and importing json, re, collections and
// sqlite3 takes under 200M instructions (about 560M when every module
// was compiled at each start). And ldconfig's cache is there for ctypes.
func TestRootByteCode(t *testing.T) {
	rvsim := rvsimBinary(t)
	root, python := debianRoot(t, "usr/bin/python3")
	dir := runDir(t, root)
	stats := filepath.Join(dir, "stats.json")
	r := runProcess(t, dir, []string{}, rvsim, "run", "--root", root, "--stats", stats, python, "-c",
		"import json, re, collections, sqlite3, ctypes.util; print(json.__cached__, ctypes.util.find_library('m'))")
	require.Equal(t, 0, r.Status, r.Stderr)
	assert.Empty(t, r.Stderr)
	assert.Equal(t, "/usr/lib/python3.13/json/__pycache__/__init__.cpython-313.pyc libm.so.6\n", r.Stdout)
	b, err := os.ReadFile(stats)
	require.NoError(t, err)
	var s struct{ Instructions uint64 }
	require.NoError(t, json.Unmarshal(b, &s))
	assert.Less(t, s.Instructions, uint64(200e6))
}
