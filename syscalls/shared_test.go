package syscalls

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMmapSharedWritesBack: stores through a writable MAP_SHARED file
// mapping reach the file on msync, munmap (also of part of it), mremap,
// exit, and not past its end; bytes write() changed meanwhile stay.
func TestMmapSharedWritesBack(t *testing.T) {
	content := strings.Repeat("0123456789abcdef", 320) // 5120 bytes
	x := workdir(t, "f="+content)
	file := func() string {
		b, err := os.ReadFile("f")
		require.NoError(t, err)
		return string(b)
	}
	want := []byte(content)
	store := func(addr uint64, s string, at int) {
		require.NoError(t, x.m.WriteBytes(addr, []byte(s)))
		if at >= 0 {
			copy(want[at:], s)
		}
	}

	fd := x.open("f", oRdwr, 0)
	a := uint64(x.call("mmap", 0, 2*PageSize, rw, mapShared, fd, 0))
	require.Less(t, a, uint64(1<<63))
	require.Zero(t, x.call("close", fd), "the mapping keeps the file")
	store(a+10, "HELLO", 10)
	store(a+5119, "Z", 5119)
	store(a+5120, "beyond the end", -1)
	assert.Equal(t, content, file(), "not yet written back")
	require.Zero(t, x.call("msync", a, 2*PageSize, 4)) // MS_SYNC
	assert.Equal(t, string(want), file(), "msync writes back, not past the end of file")

	// write() meanwhile: its bytes stay when the mapping is written back.
	wfd := x.open("f", oRdwr, 0)
	require.Equal(t, int64(4), x.call("pwrite64", wfd, x.str("wxyz"), 4, 100))
	copy(want[100:], "wxyz")
	store(a+200, "mapped", 200)
	store(a+PageSize+8, "second page", PageSize+8)
	require.Zero(t, x.call("munmap", a, PageSize))
	got := file()
	assert.Equal(t, "mapped", got[200:206], "munmap writes back")
	assert.Equal(t, "wxyz", got[100:104], "write()'s bytes stay")
	assert.Equal(t, content[PageSize+8:PageSize+19], got[PageSize+8:PageSize+19], "the page still mapped is not written yet")
	require.Zero(t, x.call("msync", a+PageSize, PageSize, 4))
	assert.Equal(t, string(want), file())
	require.Zero(t, x.call("munmap", a+PageSize, PageSize))

	// mremap: the mapping grows with the file's bytes and stays shared.
	b := uint64(x.call("mmap", 0, PageSize, rw, mapShared, wfd, 0))
	c := uint64(x.call("mremap", b, PageSize, 2*PageSize, mremapMaymove))
	require.Less(t, c, uint64(1<<63))
	assert.Equal(t, want[PageSize:], x.peek(c+PageSize, uint64(len(want)-PageSize)), "grown part read from the file")
	store(c+PageSize+100, "moved", PageSize+100)
	store(c+1, "M", 1)

	// A second mapping sees what the first wrote back; exit writes both.
	require.Zero(t, x.call("msync", c, 2*PageSize, 4))
	d := uint64(x.call("mmap", 0, PageSize, rw, mapShared, wfd, 0))
	assert.Equal(t, want[:PageSize], x.peek(d, PageSize))
	store(d+3000, "at exit", 3000)
	store(c+PageSize+500, "also", PageSize+500)
	x.call("exit_group", 0)
	assert.Equal(t, string(want), file())
	assert.Equal(t, len(content), len(file()), "the file keeps its size")
}
