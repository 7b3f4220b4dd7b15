package syscalls

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestProcSelfFiles checks the generated /proc/self files against lines
// computed by hand in the kernel's formats, and the file operations on
// them (Linux: read-only, size 0, not mappable, not a link).
func TestProcSelfFiles(t *testing.T) {
	x := newTK(t, Config{})
	tree(t, x.root, "data")
	require.NoError(t, os.WriteFile(filepath.Join(x.root, "data"), make([]byte, 3*PageSize), 0o644))
	var st syscall.Stat_t
	require.NoError(t, syscall.Stat(filepath.Join(x.root, "data"), &st))
	x.k.SetExePath("/bin/prog")
	sp, err := x.k.SetupProcess(Image{Entry: 0x10078, Phnum: 2}, []string{"prog", "a b", ""}, []string{"E=1"})
	require.NoError(t, err)

	fd := x.open("/data", oRdonly, 0)
	addr := x.call("mmap", 0x20000000, 2*PageSize, protRead, mapPrivate|mapFixed, fd, PageSize)
	require.Equal(t, int64(0x20000000), addr)
	require.Equal(t, int64(0), x.call("mprotect", 0x20001000, PageSize, protRead|protWrite))
	anon := x.call("mmap", 0x30000000, PageSize, protRead|protWrite, mapPrivate|mapAnonymous|mapFixed, neg(-1), 0)
	require.Equal(t, int64(0x30000000), anon)

	// named pads the line to 72 columns and adds a space and the name.
	named := func(l, name string) string {
		for len(l) < 72 {
			l += " "
		}
		return l + " " + name + "\n"
	}
	file := func(lo, hi uint64, perms string, off uint64) string {
		// the guest's identity of the file (ident.go): the first it observes
		return named(fmt.Sprintf("%08x-%08x %s %08x 08:00 %d ", lo, hi, perms, off, firstGuestIno), "/data")
	}
	want := named("10000000-10100000 rw-p 00000000 00:00 0 ", "scratch") + // the test's scratch memory: no file in the root
		file(0x20000000, 0x20001000, "r--p", PageSize) +
		file(0x20001000, 0x20002000, "rw-p", 2*PageSize) +
		"30000000-30001000 rw-p 00000000 00:00 0 \n" +
		named(fmt.Sprintf("%08x-%08x rw-p 00000000 00:00 0 ", StackBase, StackTop), "[stack]")
	maps := x.readAll(x.open("/proc/self/maps", oRdonly, 0))
	assert.Equal(t, want, maps)

	assert.Equal(t, "prog\x00a b\x00\x00", x.readAll(x.open("/proc/self/cmdline", oRdonly, 0)))
	assert.Equal(t, "prog\x00a b\x00\x00", x.readAll(x.open("/proc/1000/cmdline", oRdonly, 0)))

	// auxv: the pairs on the initial stack after argc, argv, NULL, envp, NULL.
	auxvAt := sp + 8*(1+3+1+1+1)
	auxv := x.readAll(x.open("/proc/self/auxv", oRdonly, 0))
	require.Zero(t, len(auxv)%16)
	assert.Equal(t, string(x.peek(auxvAt, uint64(len(auxv)))), auxv)
	assert.Equal(t, make([]byte, 16), []byte(auxv[len(auxv)-16:]), "ends with AT_NULL")

	// Operations: read-only, stat size 0, no mmap, not a symbolic link.
	assert.Equal(t, errno(EACCES), x.call("openat", fdcwd, x.str("/proc/self/status"), oWronly, 0))
	assert.Equal(t, errno(EACCES), x.call("faccessat", fdcwd, x.str("/proc/self/maps"), wOK, 0))
	assert.Equal(t, int64(0), x.call("faccessat", fdcwd, x.str("/proc/self/maps"), rOK, 0))
	assert.Equal(t, errno(EINVAL), x.call("readlinkat", fdcwd, x.str("/proc/self/maps"), x.alloc(64), 64))
	assert.Equal(t, errno(ENOENT), x.call("openat", fdcwd, x.str("/proc/self/environ2"), oRdonly, 0))
	sfd := x.open("/proc/self/status", oRdonly, 0)
	assert.Equal(t, errno(ENODEV), x.call("mmap", 0, PageSize, protRead, mapPrivate, sfd, 0))
	buf := x.alloc(256)
	require.Equal(t, int64(0), x.call("fstat", sfd, buf))
	assert.Equal(t, uint32(sIFREG|0o444), x.u32(buf+16)) // st_mode
	assert.Equal(t, uint64(0), x.u64(buf+48))            // st_size
	n := x.call("pread64", sfd, buf, 10, 0)
	assert.Equal(t, "Name:\tprog", string(x.peek(buf, uint64(n))))
	link := x.alloc(64)
	n = x.call("readlinkat", fdcwd, x.str(fmt.Sprintf("/proc/self/fd/%d", sfd)), link, 64)
	assert.Equal(t, "/proc/self/status", string(x.peek(link, uint64(max(n, 0)))))
}
