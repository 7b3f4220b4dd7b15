package mem

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestScalarAccess(t *testing.T) {
	m := New()
	require.NoError(t, m.Map(0x10000, 2*PageSize, RW, "data"))
	tests := []struct {
		desc string
		addr uint64
		size int
		val  uint64
	}{
		{"aligned byte", 0x10000, 1, 0xab},
		{"aligned half", 0x10010, 2, 0xbeef},
		{"aligned word", 0x10020, 4, 0xdeadbeef},
		{"aligned double", 0x10028, 8, 0x0123456789abcdef},
		{"misaligned word", 0x10031, 4, 0xcafef00d},
		{"misaligned double", 0x10043, 8, 0xfedcba9876543210},
		{"double crossing page", 0x10ffd, 8, 0x1122334455667788},
		{"word crossing page", 0x10ffe, 4, 0x99aabbcc},
		{"half crossing page", 0x10fff, 2, 0xddee},
		{"last double", 0x11ff8, 8, 0xffffffffffffffff},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			var ok bool
			switch tc.size {
			case 1:
				ok = m.Write8(tc.addr, uint8(tc.val))
			case 2:
				ok = m.Write16(tc.addr, uint16(tc.val))
			case 4:
				ok = m.Write32(tc.addr, uint32(tc.val))
			case 8:
				ok = m.Write64(tc.addr, tc.val)
			}
			require.True(t, ok)
			var got uint64
			switch tc.size {
			case 1:
				v, o := m.Read8(tc.addr)
				got, ok = uint64(v), o
			case 2:
				v, o := m.Read16(tc.addr)
				got, ok = uint64(v), o
			case 4:
				v, o := m.Read32(tc.addr)
				got, ok = uint64(v), o
			case 8:
				got, ok = m.Read64(tc.addr)
			}
			require.True(t, ok)
			assert.Equal(t, tc.val, got)
			// Byte order is little-endian.
			b, _ := m.Read8(tc.addr)
			assert.Equal(t, uint8(tc.val), b)
		})
	}
}

func TestPermissionsAndFaults(t *testing.T) {
	m := New()
	require.NoError(t, m.Map(0x10000, PageSize, R, "ro"))
	require.NoError(t, m.Map(0x11000, PageSize, RW, "rw"))
	require.NoError(t, m.Poke(0x10000, []byte{1, 2, 3, 4}))

	v, ok := m.Read32(0x10000)
	assert.True(t, ok)
	assert.Equal(t, uint32(0x04030201), v)
	assert.False(t, m.Write32(0x10000, 5), "store to read-only page")
	_, ok = m.Read64(0x20000)
	assert.False(t, ok, "load from unmapped page")
	assert.False(t, m.Write64(0x11ffc, 1), "store crossing into unmapped page")
	// A refused crossing store changes nothing.
	w, _ := m.Read32(0x11ffc)
	assert.Equal(t, uint32(0), w)
	assert.False(t, m.Write64(0x10ffc, 1), "store crossing from read-only page")
	assert.Nil(t, m.PageFor(0x10000, Fetch), "no execute permission")

	err := m.WriteBytes(0x10ffe, []byte{9, 9, 9, 9})
	var f *Fault
	require.ErrorAs(t, err, &f)
	assert.Equal(t, uint64(0x10ffe), f.Addr)
	assert.Equal(t, Store, f.Access)
	b, _ := m.Read8(0x11000)
	assert.Equal(t, uint8(0), b, "failed bulk write is all-or-nothing")
}

func TestRegions(t *testing.T) {
	m := New()
	require.NoError(t, m.Map(0x10000, 4*PageSize, RW, "a"))
	require.True(t, m.Write64(0x11000, 42))
	m.Unmap(0x11000, PageSize)
	assert.False(t, m.IsMapped(0x10000, 4*PageSize))
	assert.True(t, m.IsMapped(0x10000, PageSize))
	assert.True(t, m.IsMapped(0x12000, 2*PageSize))
	assert.True(t, m.IsFree(0x11000, PageSize))
	require.NoError(t, m.Map(0x11000, PageSize, RW, "a"))
	v, _ := m.Read64(0x11000)
	assert.Equal(t, uint64(0), v, "remapped page reads as zero")

	require.NoError(t, m.Protect(0x12000, PageSize, R))
	assert.False(t, m.Write8(0x12000, 1))
	assert.True(t, m.Write8(0x13000, 1))
	assert.Error(t, m.Protect(0x20000, PageSize, R), "protect of unmapped range")

	a, ok := m.FindFree(2*PageSize, 0x10000, 0x20000)
	require.True(t, ok)
	assert.Equal(t, uint64(0x1e000), a, "top-down placement")
	a, ok = m.FindFree(PageSize, 0x0, 0x14000)
	require.True(t, ok)
	assert.Equal(t, uint64(0xf000), a, "gap below the mapping")
	_, ok = m.FindFree(5*PageSize, 0x10000, 0x14000)
	assert.False(t, ok)
}

func TestWatchedPages(t *testing.T) {
	m := New()
	require.NoError(t, m.Map(0x10000, 2*PageSize, RWX, "code"))
	var hits []uint64
	m.OnWatchedWrite = func(addr uint64, size int) { hits = append(hits, addr) }
	require.True(t, m.Write32(0x10010, 1)) // fills the write TLB
	require.True(t, m.Watch(0x10000, WatchCode))
	require.True(t, m.Write32(0x10010, 2))
	require.True(t, m.Write32(0x11000, 3))
	require.NoError(t, m.WriteBytes(0x10020, []byte{1}))
	assert.Equal(t, []uint64{0x10010, 0x10020}, hits, "only stores to the watched page are reported, even after a TLB fill")
	hits = nil
	require.NoError(t, m.Protect(0x10000, PageSize, RX))
	assert.Equal(t, []uint64{0x10000}, hits, "re-protecting a watched page is reported")
	hits = nil
	m.Unmap(0x10000, PageSize)
	assert.Equal(t, []uint64{0x10000}, hits, "unmapping a watched page is reported")
}

// A device page (WatchDevice) keeps its loads out of the read TLB, so
// each one reaches the slow path, where the core lets the device refresh
// the bytes; DeviceSet changes them without telling the watchers.
func TestDevicePages(t *testing.T) {
	m := New()
	require.NoError(t, m.Map(0x20000, 2*PageSize, RW, "dev"))
	var hits []uint64
	m.OnWatchedWrite = func(addr uint64, size int) { hits = append(hits, addr) }
	_, ok := m.Read64(0x20008) // fills the read TLB
	require.True(t, ok)
	require.True(t, m.Watch(0x20000, WatchHost|WatchDevice))
	assert.True(t, m.DeviceAt(0x20ff8))
	assert.False(t, m.DeviceAt(0x21000), "the next page is plain memory")
	for i := range 2 {
		require.NoError(t, m.DeviceSet(0x20008, []byte{byte(7 + i)}))
		assert.False(t, m.ReadEntry(0x20008).Hits(0x20008, 8), "load %d: not in the read TLB", i)
		v, ok := m.Read64(0x20008)
		require.True(t, ok)
		assert.Equal(t, uint64(7+i), v, "load %d sees the device's bytes", i)
	}
	assert.Empty(t, hits, "DeviceSet is not a store")
	require.True(t, m.Write32(0x20000, 1))
	assert.Equal(t, []uint64{0x20000}, hits, "a store to a device page is reported")
	assert.Error(t, m.DeviceSet(0x30000, []byte{1}), "unmapped")
}

func TestCString(t *testing.T) {
	m := New()
	require.NoError(t, m.Map(0x10000, PageSize, RW, "s"))
	require.NoError(t, m.Poke(0x10ffa, []byte("hello\x00")))
	s, err := m.ReadCString(0x10ffa, 100)
	require.NoError(t, err)
	assert.Equal(t, "hello", s)
	_, err = m.ReadCString(0x10ffa, 3)
	assert.Error(t, err)
	require.NoError(t, m.Poke(0x10ffa, []byte("hello!")))
	_, err = m.ReadCString(0x10ffa, 100)
	assert.Error(t, err, "unterminated string running off the mapping")
}

func BenchmarkRead64Hit(b *testing.B) {
	m := New()
	_ = m.Map(0x10000, PageSize, RW, "d")
	m.Read64(0x10000)
	var s uint64
	for i := 0; i < b.N; i++ {
		v, _ := m.Read64(0x10000 + uint64(i&0x1f0))
		s += v
	}
	_ = s
}

func TestMapMergesNeighbours(t *testing.T) {
	m := New()
	require.NoError(t, m.Map(0x10000, PageSize, RW, "[heap]"))
	require.NoError(t, m.Map(0x11000, PageSize, RW, "[heap]"))
	require.NoError(t, m.Map(0x12000, PageSize, R, "[heap]"))
	require.NoError(t, m.Map(0x13000, PageSize, R, "other"))
	assert.Equal(t, []Region{
		{0x10000, 0x12000, RW, "[heap]", 0, nil},
		{0x12000, 0x13000, R, "[heap]", 0, nil},
		{0x13000, 0x14000, R, "other", 0, nil},
	}, m.Regions())
}

func TestFileRegionsKeepTheirOffset(t *testing.T) {
	m := New()
	require.NoError(t, m.MapFile(0x10000, 4*PageSize, R, "f", 0x3000))
	require.NoError(t, m.Protect(0x11000, PageSize, RW))
	m.Unmap(0x13000, PageSize)
	assert.Equal(t, []Region{
		{0x10000, 0x11000, R, "f", 0x3000, nil},
		{0x11000, 0x12000, RW, "f", 0x4000, nil},
		{0x12000, 0x13000, R, "f", 0x5000, nil},
	}, m.Regions())
	require.NoError(t, m.Protect(0x11000, PageSize, R))
	assert.Equal(t, []Region{{0x10000, 0x13000, R, "f", 0x3000, nil}}, m.Regions())
	require.NoError(t, m.MapFile(0x13000, PageSize, R, "f", 0x3000)) // not the next page of f
	assert.Len(t, m.Regions(), 2)
}

func TestHighAndLowPages(t *testing.T) {
	m := New()
	for _, base := range []uint64{0x1000, 0x7f_ffff_f000, 0x80_0000_0000, 0xffff_ffff_0000_0000} {
		require.NoError(t, m.Map(base, PageSize, RW, "x"))
		require.True(t, m.Write64(base+8, base))
		v, ok := m.Read64(base + 8)
		require.True(t, ok)
		assert.Equal(t, base, v, "page at %#x", base)
	}
	assert.Equal(t, 4, m.Footprint())
	m.Unmap(0xffff_ffff_0000_0000, PageSize)
	m.Unmap(0x1000, PageSize)
	assert.Equal(t, 2, m.Footprint())
	_, ok := m.Read64(0x1008)
	assert.False(t, ok, "unmapping drops the TLB entry")
}

// TestClone: a clone has the same map and bytes, and the two change
// independently afterwards.
func TestClone(t *testing.T) {
	m := New()
	require.NoError(t, m.Map(0x10000, 3*PageSize, RW, "data"))
	require.NoError(t, m.Map(0x40000, PageSize, R|X, "code"))
	require.True(t, m.Write64(0x10008, 0x1122334455667788))
	require.True(t, m.Write8(0x12fff, 7))
	m.SetLimit(64 * PageSize)
	c := m.Clone()
	assert.Equal(t, m.Regions(), c.Regions())
	assert.Equal(t, m.Limit(), c.Limit())
	v, ok := c.Read64(0x10008)
	assert.True(t, ok)
	assert.Equal(t, uint64(0x1122334455667788), v)
	b, _ := c.Read8(0x12fff)
	assert.Equal(t, uint8(7), b)
	assert.False(t, c.Write64(0x40000, 1), "permissions copied")
	require.True(t, c.Write64(0x10008, 5))
	v, _ = m.Read64(0x10008)
	assert.Equal(t, uint64(0x1122334455667788), v, "the original is not the copy")
	c.Unmap(0x10000, PageSize)
	assert.True(t, m.IsMapped(0x10000, PageSize))
}

// TestTakeStores: the pages a clone changed come back to the original,
// and only those, pages the original had not touched included; shared
// pages (one set of bytes) and what the original does not map are left
// alone.
func TestTakeStores(t *testing.T) {
	m := New()
	obj := NewObject(0)
	require.NoError(t, m.MapObject(0x10000, PageSize, RW, "[shm]", 0, obj))
	require.NoError(t, m.Map(0x20000, 4*PageSize, RW, "priv"))
	require.True(t, m.Write64(0x20000, 1))
	require.True(t, m.Write64(0x21000, 2))
	require.True(t, m.Write64(0x10000, 3))
	c := m.Clone()
	require.True(t, c.Write64(0x21008, 9))  // a page both have: taken
	require.True(t, c.Write64(0x23000, 10)) // one only the clone touched: taken
	require.True(t, c.Write64(0x10000, 11)) // shared: already the same bytes
	_, _ = c.Read64(0x22000)                // touched, still zero: nothing to take
	require.NoError(t, c.Map(0x30000, PageSize, RW, "its own"))
	require.True(t, c.Write64(0x30000, 12)) // where m maps nothing: left alone
	assert.Equal(t, []uint64{0x21000, 0x23000}, m.TakeStores(c))
	v, _ := m.Read64(0x21008)
	assert.Equal(t, uint64(9), v)
	v, _ = m.Read64(0x21000)
	assert.Equal(t, uint64(2), v, "the rest of the page is the clone's, the same")
	v, _ = m.Read64(0x10000)
	assert.Equal(t, uint64(11), v)
	v, _ = m.Read64(0x23000)
	assert.Equal(t, uint64(10), v)
	assert.False(t, m.Backed(0x22000))
	assert.False(t, m.IsMapped(0x30000, PageSize))
	assert.Empty(t, m.TakeStores(c), "nothing differs any more")
}

// TestCloneShared: a shared mapping's bytes are one in both address
// spaces, whichever touches a page first, while private pages, the
// permissions and a re-mapping stay each address space's own.
func TestCloneShared(t *testing.T) {
	m := New()
	obj := NewObject(0)
	require.NoError(t, m.MapObject(0x10000, 4*PageSize, RW, "[shm]", 0, obj))
	require.NoError(t, m.Map(0x20000, PageSize, RW, "priv"))
	require.True(t, m.Write64(0x10008, 1))
	require.True(t, m.Write64(0x20000, 2))
	c := m.Clone()
	assert.Equal(t, m.Regions(), c.Regions())

	require.True(t, c.Write64(0x10008, 3)) // a page the parent touched
	require.True(t, c.Write64(0x12000, 4)) // one nobody had touched
	require.True(t, m.Write64(0x13ff8, 5)) // the parent first
	require.True(t, c.Write64(0x20000, 6)) // private: a copy
	v, _ := m.Read64(0x10008)
	assert.Equal(t, uint64(3), v)
	v, _ = m.Read64(0x12000)
	assert.Equal(t, uint64(4), v)
	v, _ = c.Read64(0x13ff8)
	assert.Equal(t, uint64(5), v)
	v, _ = m.Read64(0x20000)
	assert.Equal(t, uint64(2), v)

	// Permissions are per address space.
	require.NoError(t, c.Protect(0x10000, PageSize, R))
	assert.False(t, c.Write64(0x10008, 7))
	assert.True(t, m.Write64(0x10008, 7))
	v, _ = c.Read64(0x10008)
	assert.Equal(t, uint64(7), v)

	// Split regions keep their offset in the object; dropping the pages
	// of one address space (munmap) leaves the bytes to the other, and a
	// page recycled after that is private and zero.
	c.Unmap(0x11000, PageSize)
	require.NoError(t, c.Map(0x11000, PageSize, RW, "priv"))
	v, _ = c.Read64(0x11000)
	assert.Zero(t, v)
	require.True(t, m.Write64(0x11000, 8))
	v, _ = c.Read64(0x11000)
	assert.Zero(t, v, "c's page there is private now")
	rs := c.Regions()
	require.Len(t, rs, 4)
	assert.Equal(t, uint64(0x2000), rs[2].Off)
	assert.Same(t, obj, rs[2].Obj)
	c.Unmap(0x10000, 4*PageSize)
	v, _ = m.Read64(0x13ff8)
	assert.Equal(t, uint64(5), v)

	// A mapping of the object at another address and offset shows the
	// same bytes; two objects' regions never merge.
	require.NoError(t, c.MapObject(0x30000, PageSize, RW, "[shm]", 0x3000, obj))
	v, _ = c.Read64(0x30ff8)
	assert.Equal(t, uint64(5), v)
	require.NoError(t, c.MapObject(0x31000, PageSize, RW, "[shm]", 0x4000, NewObject(0)))
	assert.Len(t, c.Regions(), 3)
}

// TestObjectEnd: a mapping grown past its object's end faults there.
func TestObjectEnd(t *testing.T) {
	m := New()
	require.NoError(t, m.MapObject(0x10000, 3*PageSize, RW, "[shm]", PageSize, NewObject(3*PageSize)))
	assert.True(t, m.Write64(0x11ff8, 1))
	assert.False(t, m.BeyondObject(0x11ff8))
	assert.False(t, m.Write64(0x12000, 1), "offset 3 pages: past the end")
	assert.True(t, m.BeyondObject(0x12000))
	assert.False(t, m.BeyondObject(0x30000), "not mapped")
	assert.Equal(t, []uint64{0x11000}, m.SharedPages())
}

// TestBackedObjectPage: a second mapping of a shared object is backed
// where the object holds bytes another mapping wrote, before it touches
// them (difftest copies them then), and not elsewhere.
func TestBackedObjectPage(t *testing.T) {
	m := New()
	obj := NewObject(2 * PageSize)
	require.NoError(t, m.MapObject(0x10000, 2*PageSize, RW, "[shm]", 0, obj))
	require.True(t, m.Write64(0x11008, 7))
	require.NoError(t, m.MapObject(0x40000, 2*PageSize, RW, "[shm]", 0, obj))
	assert.True(t, m.Backed(0x41000), "the page the first mapping wrote")
	assert.False(t, m.Backed(0x40000), "a page nobody wrote")
	var b [8]byte
	require.NoError(t, m.Peek(0x41008, b[:]))
	assert.Equal(t, byte(7), b[0])
}
