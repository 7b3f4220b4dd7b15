package test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// forkWant is test/programs/fork's output. rvsim runs a child process to
// its end before its parent goes on (syscalls/fork.go), so the order of
// the lines is fixed; the values are what Linux gives whatever the
// order, except where rvsim's model says otherwise: a posix_spawn of a
// missing program succeeds and its child exits with 127 (glibc reports
// the failed exec through memory a vfork child shares, and rvsim's
// child has a copy), and every child's SIGCHLD is delivered before the
// next child starts (Linux may merge them). Written by hand:
// qemu-riscv64's exec runs the host's programs, so it cannot be the
// reference for the exec lines.
const forkWant = `no children: wait -1 (ECHILD)
child: own pid yes, ppid is the parent yes
parent: fork returned the child's pid yes, global still 1
kill(child, 0) before the wait: 0
fork: exited with 7
kill(child, 0) after the wait: -1 (ESRCH)
SIGCHLD handled: 1
abort: killed by signal 6
read 200000 bytes from the child, then end of file
writer: exited with 0
grandchild's status plus one: exited with 12
spawned: argv[2] = vfork, ppid is the spawner: yes
vfork and exec: exited with 3
spawned: argv[2] = posix_spawn, ppid is the spawner: yes
posix_spawn: 0, waitid: 0, si_pid is the child yes, code CLD_EXITED, status 3
posix_spawn of a missing program: exited with 127
SIGCHLD handled: 7
all reaped: wait -1 (ECHILD)
`

// TestFork runs the program static and dynamically linked: the expected
// output, the same instruction count twice (the children's instructions
// are not the parent's), interpreted, in timing mode and under
// --difftest, and a child that waits for its parent killed with one
// warning line.
func TestFork(t *testing.T) {
	rvsim := rvsimBinary(t)
	for _, variant := range []string{"fork", "fork-dyn"} {
		t.Run(variant, func(t *testing.T) {
			prog := filepath.Join(testprogs, variant, "fork")
			needFile(t, prog, "make testprogs")
			r, n := runCounted(t, rvsim, prog)
			require.Equal(t, 0, r.Status, r.Stderr)
			assert.Equal(t, forkWant, r.Stdout)
			assert.Empty(t, r.Stderr)
			_, n2 := runCounted(t, rvsim, prog)
			assert.Equal(t, n, n2, "instruction count of a second run")
			for _, flags := range [][]string{{"--jit", "off"}, {"--mode", "timing"}} {
				rf, nf := runCounted(t, rvsim, append(flags, prog)...)
				assert.Equal(t, 0, rf.Status, "%v: %s", flags, rf.Stderr)
				assert.Equal(t, forkWant, rf.Stdout, "%v", flags)
				assert.Equal(t, n, nf, "instruction count with %v", flags)
			}
			t.Run("difftest", func(t *testing.T) {
				needOracleLib(t)
				d := runProcess(t, t.TempDir(), []string{}, rvsim, "run", "--difftest", prog)
				assert.Equal(t, 0, d.Status, d.Stderr)
				assert.Equal(t, forkWant, d.Stdout)
				assert.Contains(t, d.Stderr, "no divergence")
			})

			w := runProcess(t, t.TempDir(), []string{}, rvsim, "run", prog, "waiter")
			assert.Equal(t, 0, w.Status, w.Stderr)
			assert.Equal(t, "a child waiting for its parent: killed by signal 9\n", w.Stdout)
			assert.Equal(t, "rvsim: warning: child process 1001 killed: its pipe read would wait for its parent, which runs once the child has ended\n", w.Stderr)
		})
	}
}

// TestPythonSubprocess runs Debian's python3 starting processes:
// subprocess.run capturing a child python's output, os.fork and
// os.waitpid, and os.system without a shell in the root (127, as a
// shell that cannot be found gives).
func TestPythonSubprocess(t *testing.T) {
	rvsim := rvsimBinary(t)
	root, python := debianRoot(t, "usr/bin/python3")
	dir := runDir(t, root)
	r := runProcess(t, dir, []string{"PYTHONDONTWRITEBYTECODE=1"}, rvsim, "run", "--root", root, python, "-S", "-c", `
import os, subprocess
r = subprocess.run(["/usr/bin/python3", "-S", "-c", "print(6*7)"], capture_output=True, text=True)
print("captured", r.stdout.strip(), r.returncode)
p = os.fork()
if p == 0:
    os._exit(5)
print("fork", os.waitpid(p, 0)[1] >> 8)
print("system", os.system("true") >> 8)
`)
	require.Equal(t, 0, r.Status, r.Stderr)
	assert.Empty(t, r.Stderr)
	assert.Equal(t, "captured 42 0\nfork 5\nsystem 127\n", r.Stdout)
}
