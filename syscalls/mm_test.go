package syscalls

import (
	"os"
	"strings"
	"testing"

	"github.com/rvsim/rvsim/mem"
	"github.com/stretchr/testify/require"
)

const (
	anonRW = mapPrivate | mapAnonymous
	rw     = protRead | protWrite
)

func TestBrk(t *testing.T) {
	x := newTK(t, Config{})
	_, err := x.k.SetupProcess(Image{BrkStart: 0x12345}, []string{"p"}, nil)
	require.NoError(t, err)
	start := int64(0x13000)
	tests := []struct {
		desc string
		arg  uint64
		want int64
	}{
		{"query", 0, start},
		{"below start is refused", 0x1000, start},
		{"grow unaligned", 0x13100, 0x13100},
		{"grow more", 0x20000, 0x20000},
		{"shrink", 0x14000, 0x14000},
		{"above the stack is refused", StackTop, 0x14000},
	}
	for _, tc := range tests {
		require.Equal(t, tc.want, x.call("brk", tc.arg), tc.desc)
	}
	r, ok := x.m.RegionAt(0x13000)
	require.True(t, ok)
	require.Equal(t, mem.RW, r.Perm)
	require.True(t, x.m.IsFree(0x14000, 0x1000), "shrunk pages are unmapped")
	require.NoError(t, x.m.WriteBytes(0x13ff0, []byte{1}))

	// growing into another mapping fails and keeps the break
	require.NoError(t, x.m.Map(0x30000, 0x1000, mem.R, "blocker"))
	require.Equal(t, int64(0x14000), x.call("brk", 0x40000))
	// regrown pages are zero
	require.Equal(t, int64(0x12000+0x10000), x.call("brk", 0x22000))
	require.Equal(t, []byte{1}, x.peek(0x13ff0, 1), "kept page keeps its data")
	require.Equal(t, make([]byte, 8), x.peek(0x14000, 8))
}

func TestMmapAnonymous(t *testing.T) {
	x := newTK(t, Config{})
	a := x.call("mmap", 0, 10000, rw, anonRW, neg(-1), 0)
	require.Equal(t, int64(MmapTop-0x3000), a, "top-down below MmapTop, length rounded to pages")
	r, ok := x.m.RegionAt(uint64(a))
	require.True(t, ok)
	require.Equal(t, mem.RW, r.Perm)
	require.Equal(t, uint64(a)+0x3000, r.End)
	x.requireWrites()
	b := x.call("mmap", 0, 4096, protRead, anonRW, neg(-1), 0)
	require.Equal(t, a-4096, b, "next one below")
	r, _ = x.m.RegionAt(uint64(b))
	require.Equal(t, mem.R, r.Perm)
	c := x.call("mmap", 0, 4096, protWrite, anonRW, neg(-1), 0)
	r, _ = x.m.RegionAt(uint64(c))
	require.Equal(t, mem.RW, r.Perm, "write implies read")
	n := x.call("mmap", 0, 4096, 0, anonRW, neg(-1), 0)
	r, _ = x.m.RegionAt(uint64(n))
	require.Equal(t, mem.Perm(0), r.Perm, "PROT_NONE")

	// a free hint is used
	h := x.call("mmap", 0x50000000, 4096, rw, anonRW, neg(-1), 0)
	require.Equal(t, int64(0x50000000), h)
	// an occupied hint is not
	h2 := x.call("mmap", 0x50000000, 4096, rw, anonRW, neg(-1), 0)
	require.NotEqual(t, int64(0x50000000), h2)

	tests := []struct {
		desc                string
		addr, len, prot, fl uint64
		fd, off             uint64
		want                int64
	}{
		{"zero length", 0, 0, rw, anonRW, neg(-1), 0, errno(EINVAL)},
		{"no type", 0, 4096, rw, mapAnonymous, neg(-1), 0, errno(EINVAL)},
		{"unaligned offset", 0, 4096, rw, anonRW, neg(-1), 1, errno(EINVAL)},
		{"huge", 0, 1 << 62, rw, anonRW, neg(-1), 0, errno(ENOMEM)},
		{"fixed unaligned", 0x60000001, 4096, rw, anonRW | mapFixed, neg(-1), 0, errno(EINVAL)},
		{"fixed too low", 0x1000, 4096, rw, anonRW | mapFixed, neg(-1), 0, errno(EPERM)},
		{"fixed above TASK_SIZE", StackTop, 4096, rw, anonRW | mapFixed, neg(-1), 0, errno(ENOMEM)},
		{"noreplace on mapping", 0x50000000, 4096, rw, anonRW | mapFixedNoreplace, neg(-1), 0, errno(EEXIST)},
		{"noreplace free", 0x60000000, 4096, rw, anonRW | mapFixedNoreplace, neg(-1), 0, 0x60000000},
		{"bad fd", 0, 4096, rw, mapPrivate, 99, 0, errno(EBADF)},
		{"stdout is not mappable", 0, 4096, rw, mapPrivate, 1, 0, errno(ENODEV)},
	}
	for _, tc := range tests {
		require.Equal(t, tc.want, x.call("mmap", tc.addr, tc.len, tc.prot, tc.fl, tc.fd, tc.off), tc.desc)
	}
}

func TestMmapFixedReplaces(t *testing.T) {
	x := newTK(t, Config{})
	a := uint64(x.call("mmap", 0, 3*4096, rw, anonRW, neg(-1), 0))
	require.NoError(t, x.m.WriteBytes(a+4096, []byte("data")))
	got := x.call("mmap", a+4096, 4096, protRead, anonRW|mapFixed, neg(-1), 0)
	require.Equal(t, int64(a+4096), got)
	require.Equal(t, make([]byte, 4), x.peek(a+4096, 4), "replaced pages read as zero")
	x.requireWrites(Range{a + 4096, 4096})
	r, _ := x.m.RegionAt(a + 4096)
	require.Equal(t, mem.R, r.Perm)
	r, _ = x.m.RegionAt(a)
	require.Equal(t, mem.RW, r.Perm, "neighbours keep their mapping")
}

func TestMmapFile(t *testing.T) {
	content := strings.Repeat("0123456789abcdef", 300) // 4800 bytes
	x := workdir(t, "f="+content)
	fd := x.open("f", oRdonly, 0)
	a := x.call("mmap", 0, 3*4096, protRead, mapPrivate, fd, 0)
	require.Greater(t, a, int64(0))
	require.Equal(t, []byte(content), x.peek(uint64(a), uint64(len(content))))
	require.Equal(t, make([]byte, 3*4096-len(content)), x.peek(uint64(a)+uint64(len(content)), uint64(3*4096-len(content))), "zero beyond end of file")
	x.requireWrites(Range{uint64(a), uint64(len(content))})
	r, _ := x.m.RegionAt(uint64(a))
	require.Equal(t, mem.R, r.Perm)
	require.Equal(t, "/f", r.Name)

	b := x.call("mmap", 0, 4096, rw, mapPrivate, fd, 4096)
	require.Equal(t, []byte(content[4096:]), x.peek(uint64(b), uint64(len(content)-4096)), "offset")

	s := x.call("mmap", 0, 4096, protRead, mapShared, fd, 0)
	require.Greater(t, s, int64(0), "shared read-only mapping is a copy")
	require.Equal(t, errno(EACCES), x.call("mmap", 0, 4096, rw, mapShared, fd, 0), "writable shared mapping of a read-only descriptor")
	w := x.open("f", oWronly, 0)
	require.Equal(t, errno(EACCES), x.call("mmap", 0, 4096, protRead, mapPrivate, w, 0))
	d := x.open("/", oRdonly, 0)
	require.Equal(t, errno(ENODEV), x.call("mmap", 0, 4096, protRead, mapPrivate, d, 0))
	z := x.open("/dev/zero", oRdwr, 0)
	za := x.call("mmap", 0, 4096, rw, mapShared, z, 0)
	require.Greater(t, za, int64(0), "/dev/zero maps anonymous memory")

	// the file is not changed by writes to a private mapping
	require.NoError(t, x.m.WriteBytes(uint64(b), []byte("XX")))
	data, _ := os.ReadFile("f")
	require.Equal(t, content, string(data))
	require.Zero(t, x.call("mprotect", uint64(b), 4096, protRead))
	require.Error(t, x.m.WriteBytes(uint64(b), []byte("XX")), "read-only after mprotect")
}

func TestMunmapMprotect(t *testing.T) {
	x := newTK(t, Config{})
	a := uint64(x.call("mmap", 0, 4*4096, rw, anonRW, neg(-1), 0))
	require.Zero(t, x.call("munmap", a+4096, 4096))
	require.True(t, x.m.IsFree(a+4096, 4096))
	require.False(t, x.m.IsFree(a, 4096))
	require.Equal(t, errno(EINVAL), x.call("munmap", a+1, 4096))
	require.Equal(t, errno(EINVAL), x.call("munmap", a, 0))
	require.Zero(t, x.call("munmap", 0x70000000, 4096), "unmapping nothing is fine")

	require.Zero(t, x.call("mprotect", a, 4096, protRead))
	r, _ := x.m.RegionAt(a)
	require.Equal(t, mem.R, r.Perm)
	require.Equal(t, errno(ENOMEM), x.call("mprotect", a, 3*4096, protRead), "hole in the range")
	require.Equal(t, errno(EINVAL), x.call("mprotect", a+8, 4096, protRead))
	require.Equal(t, errno(EINVAL), x.call("mprotect", a, 4096, 0x10))
	require.Zero(t, x.call("mprotect", a, 0, protRead))
	require.Zero(t, x.call("mprotect", a+2*4096, 4096, protRead|protExec))
	r, _ = x.m.RegionAt(a + 2*4096)
	require.Equal(t, mem.RX, r.Perm)
}

func TestMadvise(t *testing.T) {
	x := newTK(t, Config{})
	a := uint64(x.call("mmap", 0, 3*4096, rw, anonRW, neg(-1), 0))
	require.NoError(t, x.m.WriteBytes(a, []byte(strings.Repeat("z", 3*4096))))
	require.Zero(t, x.call("madvise", a+4096, 4096, madvDontneed))
	require.Equal(t, make([]byte, 4096), x.peek(a+4096, 4096))
	require.Equal(t, []byte("zz"), x.peek(a+4096-2, 2), "neighbours keep their data")
	require.Equal(t, []byte("zz"), x.peek(a+2*4096, 2))
	x.requireWrites(Range{a + 4096, 4096})
	r, _ := x.m.RegionAt(a + 4096)
	require.Equal(t, mem.RW, r.Perm)

	require.Zero(t, x.call("madvise", a, 4096, madvFree), "MADV_FREE keeps the data")
	require.Equal(t, []byte("zz"), x.peek(a, 2))
	require.Zero(t, x.call("madvise", a, 4096, 14), "MADV_HUGEPAGE is a hint")
	require.Equal(t, errno(EINVAL), x.call("madvise", a, 4096, 99))
	require.Equal(t, errno(EINVAL), x.call("madvise", a+1, 4096, madvDontneed))
	require.Equal(t, errno(ENOMEM), x.call("madvise", 0x70000000, 4096, madvDontneed))
}

func TestMremap(t *testing.T) {
	x := newTK(t, Config{})
	a := uint64(x.call("mmap", 0, 2*4096, rw, anonRW, neg(-1), 0))
	require.NoError(t, x.m.WriteBytes(a, []byte("first")))
	require.NoError(t, x.m.WriteBytes(a+4096, []byte("second")))

	// shrink in place
	require.Equal(t, int64(a), x.call("mremap", a, 2*4096, 4096, 0, 0))
	require.True(t, x.m.IsFree(a+4096, 4096))
	// grow in place (the page above is free now)
	require.Equal(t, int64(a), x.call("mremap", a, 4096, 2*4096, 0, 0))
	require.Equal(t, make([]byte, 6), x.peek(a+4096, 6), "grown part is zero")
	// block the page above and grow: ENOMEM without MAYMOVE, a move with it
	require.Equal(t, int64(a-4096), x.call("mmap", 0, 4096, protRead, anonRW, neg(-1), 0))
	require.NoError(t, x.m.Map(a+2*4096, 4096, mem.R, "blocker"))
	require.Equal(t, errno(ENOMEM), x.call("mremap", a, 2*4096, 3*4096, 0, 0))
	n := x.call("mremap", a, 2*4096, 3*4096, mremapMaymove, 0)
	require.Greater(t, n, int64(0))
	require.NotEqual(t, int64(a), n)
	require.Equal(t, []byte("first"), x.peek(uint64(n), 5))
	require.True(t, x.m.IsFree(a, 2*4096), "old range unmapped")
	x.requireWrites(Range{uint64(n), 4096}) // only the non-zero page was copied
	r, _ := x.m.RegionAt(uint64(n))
	require.Equal(t, mem.RW, r.Perm)

	// MREMAP_FIXED
	f := x.call("mremap", uint64(n), 3*4096, 4096, mremapMaymove|mremapFixed, 0x60000000)
	require.Equal(t, int64(0x60000000), f)
	require.Equal(t, []byte("first"), x.peek(0x60000000, 5))

	tests := []struct {
		desc                    string
		old, oldLen, newLen, fl uint64
		newAddr                 uint64
		want                    int64
	}{
		{"unaligned", 0x60000001, 4096, 4096, 0, 0, errno(EINVAL)},
		{"fixed without maymove", 0x60000000, 4096, 4096, mremapFixed, 0x61000000, errno(EINVAL)},
		{"bad flags", 0x60000000, 4096, 4096, 8, 0, errno(EINVAL)},
		{"zero new size", 0x60000000, 4096, 0, 0, 0, errno(EINVAL)},
		{"unmapped", 0x70000000, 4096, 8192, mremapMaymove, 0, errno(EFAULT)},
		{"fixed overlapping", 0x60000000, 4096, 8192, mremapMaymove | mremapFixed, 0x60000000, errno(EINVAL)},
	}
	for _, tc := range tests {
		require.Equal(t, tc.want, x.call("mremap", tc.old, tc.oldLen, tc.newLen, tc.fl, tc.newAddr), tc.desc)
	}
}

// TestMemoryLimitCommit: with a guest memory limit, writable mappings
// (brk, mmap, mremap growth, mprotect adding write) are charged against it
// and one that would take the charge past it fails with ENOMEM, as Linux
// does under strict overcommit. Read-only and PROT_NONE mappings and the
// stack are not charged, but a new writable mapping must also fit beside
// the memory already backed.
func TestMemoryLimitCommit(t *testing.T) {
	x := newTK(t, Config{})
	_, err := x.k.SetupProcess(Image{BrkStart: 0x100000}, []string{"p"}, nil)
	require.NoError(t, err)
	const page = PageSize
	base := x.m.Committed(stackName)
	require.Equal(t, uint64(scratchSize), base, "the scratch region is the only writable mapping besides the stack")
	x.m.SetLimit(base + 64*page)
	enomem := -int64(ENOMEM)

	a := x.call("mmap", 0, 48*page, rw, anonRW, neg(-1), 0)
	require.Positive(t, a)
	require.Equal(t, enomem, x.call("mmap", 0, 17*page, rw, anonRW, neg(-1), 0), "48+17 pages > 64")
	b := x.call("mmap", 0, 16*page, rw, anonRW, neg(-1), 0)
	require.Positive(t, b, "48+16 pages fit exactly")
	require.Equal(t, enomem, x.call("mmap", 0, page, rw, anonRW, neg(-1), 0))

	ro := x.call("mmap", 0, 1<<30, protRead, anonRW, neg(-1), 0)
	require.Positive(t, ro, "a read-only mapping is not charged")
	none := x.call("mmap", 0, 1<<30, 0, anonRW, neg(-1), 0)
	require.Positive(t, none, "nor is PROT_NONE")
	require.Equal(t, enomem, x.call("mprotect", uint64(none), page, rw), "making it writable is")
	require.Equal(t, int64(0), x.call("mprotect", uint64(a), page, protRead), "dropping write frees a page")
	require.Equal(t, int64(0), x.call("mprotect", uint64(none), page, rw), "which can be charged again")

	require.Equal(t, b, x.call("mmap", uint64(b), 16*page, rw, anonRW|mapFixed, neg(-1), 0), "replacing a writable mapping costs nothing net")
	require.Equal(t, enomem, x.call("mremap", uint64(b), 16*page, 17*page, mremapMaymove), "growth is charged")

	brk := x.call("brk", 0)
	require.Equal(t, brk, x.call("brk", uint64(brk)+page), "brk cannot grow past the limit: it keeps the old break")
	require.Equal(t, int64(0), x.call("munmap", uint64(b), 16*page))
	require.Equal(t, brk+16*page, x.call("brk", uint64(brk)+16*page), "after munmap it can")

	// The second rule: a new writable mapping must fit beside what is
	// already backed. Reading 512 pages of the read-only mapping backs
	// them (uncharged); then 8 writable pages are within the charge but
	// not beside them.
	x.m.SetLimit(0)
	for i := uint64(0); i < 512; i++ {
		_, ok := x.m.Read8(uint64(ro) + i*page)
		require.True(t, ok)
	}
	c := x.m.Committed(stackName)
	x.m.SetLimit(c + 16*page)
	require.Greater(t, uint64(x.m.Footprint())*page, c, "more is backed than charged")
	require.Equal(t, enomem, x.call("mmap", 0, 8*page, rw, anonRW, neg(-1), 0))
	require.Equal(t, int64(0), x.call("munmap", uint64(ro), 1<<30), "dropping the backed pages")
	require.Positive(t, x.call("mmap", 0, 8*page, rw, anonRW, neg(-1), 0), "makes room")

	x.m.SetLimit(0)
	require.Positive(t, x.call("mmap", 0, 1<<30, rw, anonRW, neg(-1), 0), "no limit, no charge")
}
