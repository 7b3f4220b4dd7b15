package test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The thread programs of test/programs/threads (static and dynamically
// linked): their output does not depend on the schedule, so rvsim's must
// be qemu-riscv64's (which runs guest threads on host threads), with the
// same exit status. Each program runs twice with the same instruction
// count, in timing mode with the same output and count, under another
// quantum with the same output, and (static builds) under --difftest.

var threadPrograms = []struct {
	name   string
	status int
	// stderr is a line rvsim's stderr must hold ("" for none: stderr empty).
	stderr string
}{
	{"basic", 0, ""},
	{"futex", 0, ""},
	{"cancel", 0, ""},
	{"segv", 139, "rvsim: segmentation fault: store to address 0x10 at pc "},
	{"exitgroup", 7, ""},
	{"pipe", 0, ""},
	{"epoll", 0, ""},
	{"poll", 0, ""},
	{"sigwait", 0, ""},
	{"timerfd", 0, ""},
	{"loopback", 0, ""},
	{"names", 0, ""},
	{"ptimer", 0, ""},
	{"bigwrite", 0, ""},
	{"forkwait", 0, ""},
	{"sysvipc", 0, ""},
	{"locks", 0, ""},
	{"mqueue", 0, ""},
}

func threadProgram(t *testing.T, variant, name string) string {
	t.Helper()
	p := filepath.Join(testprogs, variant, name)
	needFile(t, p, "make testprogs")
	return p
}

// runCounted runs rvsim with --stats and returns the result and the
// retired instruction count.
func runCounted(t *testing.T, rvsim string, args ...string) (procResult, uint64) {
	t.Helper()
	dir := t.TempDir()
	stats := filepath.Join(dir, "stats.json")
	r := runProcess(t, dir, []string{}, rvsim, append([]string{"run", "--stats", stats}, args...)...)
	b, err := os.ReadFile(stats)
	require.NoError(t, err, r.Stderr)
	var s struct{ Instructions uint64 }
	require.NoError(t, json.Unmarshal(b, &s), r.Stderr)
	require.NotZero(t, s.Instructions)
	return r, s.Instructions
}

func checkThreadRun(t *testing.T, r procResult, status int, stderr string) {
	t.Helper()
	require.Equal(t, status, r.Status, r.Stderr)
	if stderr == "" {
		assert.Empty(t, r.Stderr)
	} else {
		assert.Contains(t, r.Stderr, stderr)
		assert.Equal(t, 1, strings.Count(r.Stderr, "\n"), "one line: %q", r.Stderr)
	}
	assert.Empty(t, failLines(r.Stdout))
}

func TestThreadProgramsAgainstQemu(t *testing.T) {
	rvsim := rvsimBinary(t)
	qemu := needQemu(t)
	sysroot := needSysroot(t)
	for _, variant := range []string{"threads", "threads-dyn"} {
		for _, p := range threadPrograms {
			t.Run(variant+"/"+p.name, func(t *testing.T) {
				prog := threadProgram(t, variant, p.name)
				q := runProcess(t, "", []string{}, qemu, "-L", sysroot, prog)
				require.Equal(t, p.status, q.Status, "qemu: %s", q.Stderr)
				r, n := runCounted(t, rvsim, prog)
				checkThreadRun(t, r, p.status, p.stderr)
				assert.Equal(t, q.Stdout, r.Stdout)

				// The same run again: the same count.
				r2, n2 := runCounted(t, rvsim, prog)
				assert.Equal(t, r.Stdout, r2.Stdout)
				assert.Equal(t, n, n2, "instruction count of a second run")

				// Timing mode: the same output and count.
				rt, nt := runCounted(t, rvsim, "--mode", "timing", prog)
				checkThreadRun(t, rt, p.status, p.stderr)
				assert.Equal(t, r.Stdout, rt.Stdout)
				assert.Equal(t, n, nt, "instruction count in timing mode")

				// Another quantum: another interleaving, the same output.
				rq := runProcess(t, "", []string{}, rvsim, "run", "--quantum", "337", prog)
				checkThreadRun(t, rq, p.status, p.stderr)
				assert.Equal(t, r.Stdout, rq.Stdout)
			})
		}
	}
}

// TestThreadProgramsUnderDifftest runs the static thread programs in
// lock-step with Unicorn: each context switch loads the next thread's
// registers into the oracle.
func TestThreadProgramsUnderDifftest(t *testing.T) {
	rvsim := rvsimBinary(t)
	needOracleLib(t)
	for _, p := range threadPrograms {
		t.Run(p.name, func(t *testing.T) {
			prog := threadProgram(t, "threads", p.name)
			plain := runProcess(t, "", []string{}, rvsim, "run", prog)
			d := runProcess(t, "", []string{}, rvsim, "run", "--difftest", prog)
			assert.Contains(t, d.Stderr, "no divergence", "difftest's report")
			assert.Equal(t, plain.Status, d.Status)
			assert.Equal(t, plain.Stdout, d.Stdout)
		})
	}
}

// TestThreadDeadlock: two threads that wait for each other end the run
// with a one-line error naming what each waits for (Linux would hang).
func TestThreadDeadlock(t *testing.T) {
	rvsim := rvsimBinary(t)
	for _, variant := range []string{"threads", "threads-dyn"} {
		prog := threadProgram(t, variant, "deadlock")
		r := runProcess(t, "", []string{}, rvsim, "run", prog)
		assert.Equal(t, 1, r.Status)
		assert.Equal(t, "both hold a lock\n", r.Stdout)
		assert.Regexp(t, `^rvsim: deadlock: every thread is blocked forever \(thread 1000 in futex wait on 0x[0-9a-f]+, thread 1001 in futex wait on 0x[0-9a-f]+\)\n$`, r.Stderr)
	}
}

// TestQuantumFlag: a quantum below the minimum is a one-line usage error.
func TestQuantumFlag(t *testing.T) {
	rvsim := rvsimBinary(t)
	prog := threadProgram(t, "threads", "basic")
	r := runProcess(t, "", []string{}, rvsim, "run", "--quantum", "5", prog)
	assert.Equal(t, 2, r.Status)
	assert.Equal(t, "rvsim: --quantum 5: want at least 100 (a switch breaks an LR/SC pair, so a shorter quantum may never let one complete)\n", r.Stderr)
}

// debianRoot returns build/rootfs and the host path of a program in it,
// or skips (fails under RVSIM_REQUIRE_ARTIFACTS=1) without them.
func debianRoot(t *testing.T, prog string) (root, host string) {
	t.Helper()
	root = filepath.Join(repoRoot, "build", "rootfs")
	host = filepath.Join(root, prog)
	if _, err := os.Stat(host); err != nil {
		missing(t, "%s is missing: run 'make setup' (build/rootfs)", host)
	}
	return root, host
}

// runDir makes a fresh directory inside the root's /tmp (writable for
// the guest, as the working directory) and removes it after the test.
func runDir(t *testing.T, root string) string {
	t.Helper()
	dir, err := os.MkdirTemp(filepath.Join(root, "tmp"), "rvsim-threads-")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

const pythonThreads = `import threading, queue
lock = threading.Lock()
total = 0
def work(n, out):
    global total
    s = sum(range(n))
    with lock:
        total += s
    out.put((n, s))
q = queue.Queue()
ts = [threading.Thread(target=work, args=(1000 * (i + 1), q)) for i in range(4)]
for t in ts: t.start()
for t in ts: t.join()
print(sorted(q.get() for _ in ts))
print("total", total)
ev = threading.Event()
threading.Timer(0.01, ev.set).start()
print("event", ev.wait(5))
b = threading.Barrier(3)
ids = []
def bw(i):
    b.wait()
    with lock: ids.append(i)
ws = [threading.Thread(target=bw, args=(i,)) for i in range(3)]
for w in ws: w.start()
for w in ws: w.join()
print("barrier", sorted(ids), threading.active_count())
`

// TestPythonThreading runs Debian's python3 with the threading module
// (threads, a lock, a queue, a Timer and an Event, a Barrier): the
// output is qemu-riscv64's.
func TestPythonThreading(t *testing.T) {
	rvsim := rvsimBinary(t)
	root, python := debianRoot(t, "usr/bin/python3")
	dir := runDir(t, root)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "thr.py"), []byte(pythonThreads), 0o644))
	want := "[(1000, 499500), (2000, 1999000), (3000, 4498500), (4000, 7998000)]\ntotal 14995000\nevent True\nbarrier [0, 1, 2] 1\n"
	if qemu, err := exec.LookPath("qemu-riscv64"); err == nil {
		q := runProcess(t, dir, []string{"PYTHONDONTWRITEBYTECODE=1"}, qemu, "-L", root, python, "thr.py")
		require.Equal(t, 0, q.Status, q.Stderr)
		require.Equal(t, want, q.Stdout, "qemu-riscv64")
	}
	// One run (python compiles its modules afresh each time: 340 million
	// instructions); the C programs above check repeated counts.
	r := runProcess(t, dir, []string{"PYTHONDONTWRITEBYTECODE=1"}, rvsim, "run", "--root", root, python, "thr.py")
	require.Equal(t, 0, r.Status, r.Stderr)
	assert.Empty(t, r.Stderr)
	assert.Equal(t, want, r.Stdout)
}

// TestSQLiteWAL runs Debian's sqlite3 on a database in WAL mode (its
// shared-memory index is a writable MAP_SHARED mapping of t.db-shm):
// inserts, a transaction, a read-back, and a second process that finds
// the rows and the database still in WAL mode.
func TestSQLiteWAL(t *testing.T) {
	rvsim := rvsimBinary(t)
	root, sqlite := debianRoot(t, "usr/bin/sqlite3")
	dir := runDir(t, root)
	script := "PRAGMA journal_mode=WAL;\nCREATE TABLE t(a INTEGER, b TEXT);\nINSERT INTO t VALUES(1,'one');\n" +
		"INSERT INTO t VALUES(2,'two');\nBEGIN; INSERT INTO t SELECT a+2, b||'x' FROM t; COMMIT;\n" +
		"SELECT count(*), sum(a) FROM t;\nSELECT * FROM t ORDER BY a;\n"
	cmd := exec.Command(rvsim, "run", "--root", root, sqlite, "t.db")
	cmd.Dir, cmd.Env, cmd.Stdin = dir, []string{"HOME=/tmp"}, strings.NewReader(script)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	require.NoError(t, cmd.Run(), errb.String())
	assert.Empty(t, errb.String())
	assert.Equal(t, "wal\n4|10\n1|one\n2|two\n3|onex\n4|twox\n", out.String())
	r := runProcess(t, dir, []string{}, rvsim, "run", "--root", root, sqlite, "t.db", "PRAGMA journal_mode; SELECT group_concat(b) FROM t;")
	require.Equal(t, 0, r.Status, r.Stderr)
	assert.Equal(t, "wal\none,two,onex,twox\n", r.Stdout)
}

// buildGoGuest builds test/testdata's Go program name for riscv64 Linux
// and returns its path.
func buildGoGuest(t *testing.T, name string) string {
	t.Helper()
	prog := filepath.Join(t.TempDir(), name)
	build := exec.Command("go", "build", "-o", prog, "./testdata/"+name)
	build.Env = append(os.Environ(), "GOOS=linux", "GOARCH=riscv64", "CGO_ENABLED=0")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "%s", out)
	return prog
}

// TestGoNetLoopback builds a riscv64 Go program that uses Go's net
// package over the loopback (an HTTP server and client, a dual-stack
// listener, UDP) and runs it under rvsim as under qemu-riscv64, whose
// sockets are the host's: the same output, and twice the same count.
func TestGoNetLoopback(t *testing.T) {
	rvsim := rvsimBinary(t)
	qemu := needQemu(t)
	prog := buildGoGuest(t, "gonet")
	want := "200 OK hello /one\n200 OK hello /two\nlistening on ::\ndual stack\ndatagram from 127.0.0.1 true\nrefused: true\n"
	q := runProcess(t, "", []string{}, qemu, prog)
	require.Equal(t, want, q.Stdout, "qemu: %s", q.Stderr)
	r, n := runCounted(t, rvsim, prog)
	checkThreadRun(t, r, 0, "")
	assert.Equal(t, want, r.Stdout)
	_, n2 := runCounted(t, rvsim, prog)
	assert.Equal(t, n, n2, "instruction count of a second run")
}

// TestGoRuntime builds a riscv64 Go program that exercises Go's runtime
// (goroutines, a ticker, net/http, the GC, an os/exec of itself) and runs
// it under rvsim: its output, the same count twice and with the
// translator off, and a bounded translation. Its long functions, entered
// at many points, once made the translator translate 40M instructions
// (each entry to its block's end) and flush its code buffer 54 times:
// 23 s for a run of 269M instructions; now under 300K, no flush.
func TestGoRuntime(t *testing.T) {
	rvsim := rvsimBinary(t)
	prog := buildGoGuest(t, "goruntime")
	want := `cpus 1
sums [1999999 3000000 4000000 4999996 5999995 7000000 7999993 9000000]
ticks 5 true
200 hello /p0
200 hello /p1
200 hello /p2
kept 200, hash 77de1f1c1a754e0a
exec: "child x\n" <nil>
[a b c]
`
	run := func(args ...string) (uint64, map[string]float64) {
		dir := t.TempDir()
		stats := filepath.Join(dir, "stats.json")
		r := runProcess(t, dir, []string{}, rvsim, append(append([]string{"run", "--stats", stats}, args...), prog)...)
		checkThreadRun(t, r, 0, "")
		assert.Equal(t, want, r.Stdout)
		b, err := os.ReadFile(stats)
		require.NoError(t, err)
		var s struct {
			Instructions uint64
			JIT          map[string]float64 `json:"jit"`
		}
		require.NoError(t, json.Unmarshal(b, &s))
		return s.Instructions, s.JIT
	}
	n, jit := run()
	assert.Zero(t, jit["flushes"], "code buffer flushes")
	assert.Less(t, jit["instructions"], 1e6, "instructions translated")
	assert.Greater(t, jit["share"], 0.9, "share of instructions run translated")
	n2, _ := run()
	assert.Equal(t, n, n2, "instruction count of a second run")
	n3, _ := run("--jit", "off")
	assert.Equal(t, n, n3, "instruction count with --jit off")
}

// TestThreadHostRead runs test/programs/threads/hostread.c with its
// standard input a host pipe that the test writes only after the main
// thread has printed its line, so the reader thread's read must wait as
// a thread: before, it held the whole process in the host's read and the
// run hung. Then a readv loop reads to end of file. qemu-riscv64 prints
// the same.
func TestThreadHostRead(t *testing.T) {
	rvsim := rvsimBinary(t)
	want := "main: worked 1\nread: 6 hello\nreadv: 29 bytes, then 0\nmain: joined\n"
	for _, variant := range []string{"threads", "threads-dyn"} {
		t.Run(variant, func(t *testing.T) {
			prog := threadProgram(t, variant, "hostread")
			for _, flags := range [][]string{nil, {"--mode", "timing"}, {"--jit", "off"}} {
				got, err := converse(rvsim, append(append([]string{"run"}, flags...), prog), map[string]string{
					"main: worked": "hello\n", "read: ": "world, more than three bytes\n"}, "read: ")
				require.NoError(t, err, "%v", flags)
				assert.Equal(t, want, got, "%v", flags)
			}
		})
	}
}

// TestThreadHostWrite runs test/programs/threads/hostwrite.c with its
// standard output a host pipe that the test reads only after the main
// thread has printed its line on standard error: the writer thread,
// which fills the pipe, must wait as a thread. Before, its write held
// the whole process on the host and the run hung.
func TestThreadHostWrite(t *testing.T) {
	rvsim := rvsimBinary(t)
	for _, variant := range []string{"threads", "threads-dyn"} {
		t.Run(variant, func(t *testing.T) {
			prog := threadProgram(t, variant, "hostwrite")
			for _, flags := range [][]string{nil, {"--mode", "timing"}, {"--jit", "off"}} {
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				cmd := exec.CommandContext(ctx, rvsim, append(append([]string{"run"}, flags...), prog)...)
				cmd.Env = []string{}
				stdout, err := cmd.StdoutPipe()
				require.NoError(t, err)
				stderr, err := cmd.StderrPipe()
				require.NoError(t, err)
				require.NoError(t, cmd.Start())
				lines := bufio.NewScanner(stderr)
				require.True(t, lines.Scan(), "%v: no line on stderr", flags)
				first := lines.Text()
				out, err := io.ReadAll(stdout) // (only now: the writer waited for room)
				require.NoError(t, err)
				var rest []string
				for lines.Scan() {
					rest = append(rest, lines.Text())
				}
				require.NoError(t, cmd.Wait(), "%v", flags)
				cancel()
				assert.Equal(t, "main: worked 1", first, "%v", flags)
				assert.Equal(t, []string{"writer: 262144 bytes", "main: joined"}, rest, "%v", flags)
				assert.Equal(t, strings.Repeat("x", 262144), string(out), "%v", flags)
			}
		})
	}
}

// converse runs name with args, its standard input a host pipe, and
// answers each line of its output that starts with a key of replies with
// that reply; after the line starting with last it closes the pipe. It
// returns the whole output.
func converse(name string, args []string, replies map[string]string, last string) (string, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return "", err
	}
	defer w.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Stdin, cmd.Env = r, []string{}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return "", err
	}
	if err := cmd.Start(); err != nil {
		return "", err
	}
	r.Close()
	var b strings.Builder
	lines := bufio.NewScanner(out)
	for lines.Scan() {
		line := lines.Text()
		b.WriteString(line + "\n")
		for prefix, reply := range replies {
			if strings.HasPrefix(line, prefix) {
				w.WriteString(reply)
			}
		}
		if strings.HasPrefix(line, last) {
			w.Close()
		}
	}
	return b.String(), cmd.Wait()
}

// TestThreadHostPoll runs test/programs/threads/hostpoll.c with its
// standard input a host pipe that stays open and empty: one thread waits
// in ppoll and another in epoll_wait on it and on a pipe of the process,
// which the main thread writes after computing. The threads must wait,
// not the process: before, a wait that included a host descriptor held
// the whole process on the host, and the run hung (as Erlang's beam.smp
// did). qemu-riscv64 prints the same.
func TestThreadHostPoll(t *testing.T) {
	rvsim := rvsimBinary(t)
	want := "ppoll: 1 ready, stdin 0, pipe 1\nepoll: 1 ready, the pipe 1\nmain: worked 1\n"
	for _, variant := range []string{"threads", "threads-dyn"} {
		t.Run(variant, func(t *testing.T) {
			prog := threadProgram(t, variant, "hostpoll")
			for _, flags := range [][]string{nil, {"--mode", "timing"}, {"--jit", "off"}} {
				r, w, err := os.Pipe()
				require.NoError(t, err)
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				cmd := exec.CommandContext(ctx, rvsim, append(append([]string{"run"}, flags...), prog)...)
				cmd.Stdin, cmd.Env = r, []string{}
				out, err := cmd.Output()
				cancel()
				r.Close()
				w.Close() // (open, and empty, until the run ended)
				require.NoError(t, err, "%v", flags)
				assert.Equal(t, want, string(out), "%v", flags)
			}
		})
	}
}
