package syscalls

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rvsim/rvsim/mem"
	"github.com/stretchr/testify/require"
)

// Test scaffolding: a kernel over a fresh memory with one scratch region
// where arguments are placed.

const (
	scratch     = 0x10000000
	scratchSize = 1 << 20
)

var numbers = func() map[string]uint64 {
	m := map[string]uint64{}
	for n, s := range names {
		m[s] = n
	}
	return m
}()

// nr returns the number of the named system call.
func nr(t testing.TB, name string) uint64 {
	t.Helper()
	n, ok := numbers[name]
	require.True(t, ok, "no system call %q", name)
	return n
}

type tk struct {
	t        *testing.T
	k        *Kernel
	m        *mem.Memory
	out, err *bytes.Buffer
	warn     *bytes.Buffer
	root     string
	next     uint64
}

// newTK builds a kernel. An empty cfg.Root becomes a fresh temporary
// directory; stdout, stderr and warnings go to buffers unless set.
func newTK(t *testing.T, cfg Config) *tk {
	t.Helper()
	x := &tk{t: t, m: mem.New(), out: &bytes.Buffer{}, err: &bytes.Buffer{}, warn: &bytes.Buffer{}}
	if cfg.Root == "" {
		cfg.Root = t.TempDir()
	}
	if cfg.Stdout == nil {
		cfg.Stdout = x.out
	}
	if cfg.Stderr == nil {
		cfg.Stderr = x.err
	}
	if cfg.Warn == nil {
		cfg.Warn = x.warn
	}
	x.root = cfg.Root
	require.NoError(t, x.m.Map(scratch, scratchSize, mem.RW, "scratch"))
	k, err := New(x.m, cfg)
	require.NoError(t, err)
	t.Cleanup(func() { k.Close() })
	x.k = k
	x.next = scratch
	return x
}

// alloc reserves n bytes of scratch memory (16-byte aligned).
func (x *tk) alloc(n uint64) uint64 {
	a := x.next
	x.next = (x.next + n + 15) &^ 15
	require.LessOrEqual(x.t, x.next, uint64(scratch+scratchSize), "scratch exhausted")
	return a
}

// str places a NUL-terminated string in scratch memory.
func (x *tk) str(s string) uint64 {
	a := x.alloc(uint64(len(s) + 1))
	require.NoError(x.t, x.m.WriteBytes(a, append([]byte(s), 0)))
	return a
}

// data places bytes in scratch memory.
func (x *tk) data(b []byte) uint64 {
	a := x.alloc(uint64(len(b)))
	require.NoError(x.t, x.m.WriteBytes(a, b))
	return a
}

func (x *tk) u64s(vs ...uint64) uint64 {
	b := make([]byte, 8*len(vs))
	for i, v := range vs {
		put64(b, 8*i, v)
	}
	return x.data(b)
}

// call performs the named system call and returns a0 as a signed value.
func (x *tk) call(name string, args ...uint64) int64 {
	x.t.Helper()
	var a [6]uint64
	copy(a[:], args)
	return int64(x.k.Syscall(nr(x.t, name), a))
}

// errno is the value a failing call returns.
func errno(e Errno) int64 { return -int64(e) }

func (x *tk) peek(addr, n uint64) []byte {
	b := make([]byte, n)
	require.NoError(x.t, x.m.Peek(addr, b))
	return b
}

func (x *tk) u64(addr uint64) uint64 { return le64(x.peek(addr, 8)) }

func (x *tk) u32(addr uint64) uint32 { return uint32(leN(x.peek(addr, 4), 4)) }

func leN(b []byte, n int) uint64 {
	var v uint64
	for i := n - 1; i >= 0; i-- {
		v = v<<8 | uint64(b[i])
	}
	return v
}

// fdcwd is AT_FDCWD as a register value.
const fdcwd = uint64(1<<64 - 100)

// neg is a negative int as a register value.
func neg(v int64) uint64 { return uint64(v) }

// open opens a guest path relative to the cwd and requires success.
func (x *tk) open(path string, flags uint64, mode uint64) uint64 {
	x.t.Helper()
	fd := x.call("openat", fdcwd, x.str(path), flags, mode)
	require.GreaterOrEqual(x.t, fd, int64(3), "openat(%q) = %d", path, fd)
	return uint64(fd)
}

// readAll reads fd to the end through read(2).
func (x *tk) readAll(fd uint64) string {
	x.t.Helper()
	buf := x.alloc(4096)
	var sb strings.Builder
	for {
		n := x.call("read", fd, buf, 4096)
		require.GreaterOrEqual(x.t, n, int64(0))
		if n == 0 {
			return sb.String()
		}
		sb.Write(x.peek(buf, uint64(n)))
	}
}

// tree creates files (content) and directories (names ending in /) and
// symlinks ("name -> target") under dir.
func tree(t *testing.T, dir string, entries ...string) {
	t.Helper()
	for _, e := range entries {
		if name, target, ok := strings.Cut(e, " -> "); ok {
			p := filepath.Join(dir, name)
			require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
			require.NoError(t, os.Symlink(target, p))
			continue
		}
		if strings.HasSuffix(e, "/") {
			require.NoError(t, os.MkdirAll(filepath.Join(dir, e), 0o755))
			continue
		}
		name, content, _ := strings.Cut(e, "=")
		p := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
}

// requireWrites checks that LastWrites covers exactly [addr, addr+n).
func (x *tk) requireWrites(want ...Range) {
	x.t.Helper()
	got := x.k.LastWrites()
	if len(want) == 0 {
		require.Empty(x.t, got)
		return
	}
	require.Equal(x.t, want, append([]Range(nil), got...))
}

// setRoot makes the process root (uid 0 and every capability) or an
// unprivileged user (uid 1000, none), whoever runs the tests.
func (x *tk) setRoot(root bool) {
	c := &x.k.cred
	if root {
		c.ruid, c.euid, c.suid, c.fsuid = 0, 0, 0, 0
		c.caps = capSets{eff: capAll, prm: capAll, bnd: capAll}
		return
	}
	c.ruid, c.euid, c.suid, c.fsuid = 1000, 1000, 1000, 1000
	c.caps = capSets{bnd: capAll}
}
