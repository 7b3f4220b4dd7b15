// Package mem is the simulated guest memory: a sparse, paged 64-bit address
// space with read/write/execute permissions, plus (in cache.go) the cache
// timing models used by the out-of-order core.
//
// Address space is described by regions (like Linux VMAs); pages are
// materialised, zero-filled, on first touch. A small direct-mapped software
// TLB per access kind sits in front of the page map, in the style of
// TinyEMU's {tag, page} TLB, so that the common access is a compare and a
// load. Misaligned accesses are allowed; those that cross a page boundary
// take the slow path.
package mem

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"slices"
	"sort"
	"unsafe"
)

// Page geometry.
const (
	PageBits = 12
	PageSize = 1 << PageBits
	PageMask = PageSize - 1
)

// Perm is a set of access permissions.
type Perm uint8

// Permission bits.
const (
	R Perm = 1 << iota
	W
	X
	RW  = R | W
	RX  = R | X
	RWX = R | W | X
)

func (p Perm) String() string {
	b := []byte("---")
	if p&R != 0 {
		b[0] = 'r'
	}
	if p&W != 0 {
		b[1] = 'w'
	}
	if p&X != 0 {
		b[2] = 'x'
	}
	return string(b)
}

// Access names the kind of a memory access, for faults.
type Access uint8

// Access kinds.
const (
	Load Access = iota
	Store
	Fetch
)

func (a Access) String() string {
	return [...]string{"load", "store", "fetch"}[a]
}

// Fault describes an access the permissions or the address map refused.
type Fault struct {
	Addr   uint64
	Access Access
}

func (f *Fault) Error() string {
	return fmt.Sprintf("%s fault at address %#x", f.Access, f.Addr)
}

// Page is one materialised page of guest memory: this address space's
// view (permissions, watchers) of its bytes, which are its own or, in a
// shared mapping, an Object's.
type Page struct {
	Data *[PageSize]byte
	Perm Perm
	// shared: Data is an Object's, so the page is not recycled with it.
	shared bool
	// watched pages (holding predecoded code or an HTIF mailbox) are never
	// entered in the write TLB, so every store to them takes the slow path
	// and reaches OnWatchedWrite. Each bit is one watcher.
	watched Watcher
}

// Region is a mapped range of the address space (a VMA).
type Region struct {
	Start, End uint64 // [Start, End), page aligned
	Perm       Perm
	Name       string // "[heap]", "[stack]", a file name, … for diagnostics
	// Off is the file offset of Start for a file mapping (MapFile), or
	// its offset in Obj; a region split from another keeps its offset,
	// as a VMA's vm_pgoff does. Map starts it at 0; for private
	// anonymous memory it means nothing.
	Off uint64
	// Obj holds the bytes of a shared mapping (MapObject), nil for
	// private memory.
	Obj *Object
}

// Object is memory that mappings in several address spaces share, as a
// MAP_SHARED mapping is shared with the children forked after it was
// made: its pages are found by their offset in the object, and every
// address space that maps it sees (and makes) the same bytes. Each
// address space keeps its own Page around them, so permissions and
// watchers stay per process.
type Object struct {
	pages map[uint64]*[PageSize]byte // offset / PageSize -> bytes
	end   uint64                     // the pages from this offset on do not exist (0: no end)
}

// BeyondObject reports whether addr is mapped but past the end of its
// shared mapping's object: an access there faults (SIGBUS on Linux).
func (m *Memory) BeyondObject(addr uint64) bool {
	r, ok := m.RegionAt(addr)
	return ok && r.Obj != nil && r.Obj.end != 0 && r.Off+pageDown(addr)-r.Start >= r.Obj.end
}

// SharedPages returns the addresses of the pages of shared mappings whose
// bytes exist (some address space touched them), in order: what another
// process may have changed. It materialises them in m, so that observers
// that copy only touched pages (Backed) see them.
func (m *Memory) SharedPages() []uint64 {
	var out []uint64
	for _, r := range m.regions {
		if r.Obj == nil {
			continue
		}
		lo, hi := r.Off>>PageBits, (r.Off+r.End-r.Start)>>PageBits
		for idx := range r.Obj.pages {
			if idx >= lo && idx < hi {
				out = append(out, r.Start+(idx-lo)<<PageBits)
			}
		}
	}
	slices.Sort(out)
	for _, a := range out {
		m.page(a)
	}
	return out
}

// NewObject returns an empty (all zero) shared object of size bytes (0:
// unbounded). A mapping that reaches past its size (mremap can grow one)
// faults there: Linux sends SIGBUS (BeyondObject).
func NewObject(size uint64) *Object {
	return &Object{pages: map[uint64]*[PageSize]byte{}, end: pageUp(size)}
}

// Existing is the object's page at offset off (page aligned) if an
// address space has touched it (or the kernel filled it), nil if it is
// still to be made: the page a file's bytes go to when write() changes
// the file under a shared mapping.
func (o *Object) Existing(off uint64) *[PageSize]byte { return o.pages[off>>PageBits] }

// EachPage calls fn with the offset and bytes of every existing page.
func (o *Object) EachPage(fn func(off uint64, p *[PageSize]byte)) {
	for idx, p := range o.pages {
		fn(idx<<PageBits, p)
	}
}

// page is the object's page at offset off (page aligned), made zero on
// first use; nil past its end.
func (o *Object) page(off uint64) *[PageSize]byte {
	if o.end != 0 && off >= o.end {
		return nil
	}
	d := o.pages[off>>PageBits]
	if d == nil {
		d = new([PageSize]byte)
		o.pages[off>>PageBits] = d
	}
	return d
}

const (
	tlbBits = 11
	tlbSize = 1 << tlbBits
	tlbMask = tlbSize - 1
)

// ReadEntry is the read TLB entry addr maps to; with Hits and At it is the
// interpreter's inlined load fast path, written so that a hit costs one
// compare and branch. On a miss the caller uses Read64 and friends.
func (m *Memory) ReadEntry(addr uint64) *TLBEntry { return &m.rtlb[(addr>>PageBits)&tlbMask] }

// WriteEntry is ReadEntry for stores.
func (m *Memory) WriteEntry(addr uint64) *TLBEntry { return &m.wtlb[(addr>>PageBits)&tlbMask] }

// Hits says whether the entry maps an aligned size-byte access at addr.
func (e *TLBEntry) Hits(addr, size uint64) bool { return e.tag == addr&tagMask(size) }

// At is the host address of addr in the entry's page.
func (e *TLBEntry) At(addr uint64) unsafe.Pointer {
	return unsafe.Add(unsafe.Pointer(e.data), addr&PageMask)
}

// TLBs returns the read and write TLBs for the functional core's
// translator (cpu/jit_amd64.go), whose generated code inlines the probe
// Hits and At make: entries are {tag, data} pairs of 16 bytes, TLBSize of
// them, indexed by (addr >> PageBits) & (TLBSize-1). The arrays live as
// long as m.
func (m *Memory) TLBs() (r, w *[TLBSize]TLBEntry) { return &m.rtlb, &m.wtlb }

// TLBSize is the number of entries of each TLB (see TLBs).
const TLBSize = tlbSize

// TLBEntry is one entry of the read or write TLB.
type TLBEntry struct {
	tag  uint64 // page address; emptyTag never matches
	data *[PageSize]byte
}

// emptyTag has bits set inside the page offset, which no tag compare keeps.
const emptyTag = ^uint64(0)

var emptyTLB = func() (t [tlbSize]TLBEntry) {
	for i := range t {
		t[i].tag = emptyTag
	}
	return t
}()

// Memory is a guest address space.
type Memory struct {
	pages   pageTable
	slab    []Page           // unused pages of the current allocation slab
	data    [][PageSize]byte // their bytes
	free    []*Page          // pages dropped by unmapping, for reuse
	regions []Region         // sorted by Start, non-overlapping

	// limitPages bounds the materialised pages (0: no limit); a touch
	// beyond it fails and is recorded in exhausted (see SetLimit).
	limitPages  uint64
	exhausted   bool
	exhaustedAt uint64

	rtlb [tlbSize]TLBEntry
	wtlb [tlbSize]TLBEntry

	// OnWatchedWrite is called after a store modified a watched page, or
	// after a watched page was unmapped or re-protected (size is then
	// PageSize). The core uses it to drop predecoded instructions
	// (self-modifying code) and the bare-metal runner to notice HTIF
	// tohost writes. It runs on slow paths only.
	OnWatchedWrite func(addr uint64, size int)
}

// New returns an empty address space.
func New() *Memory {
	return &Memory{rtlb: emptyTLB, wtlb: emptyTLB}
}

// --- regions -----------------------------------------------------------

func pageDown(a uint64) uint64 { return a &^ PageMask }
func pageUp(a uint64) uint64   { return (a + PageMask) &^ PageMask }

// Map maps [addr, addr+size) with perm, replacing whatever was mapped there.
// Pages of the replaced range are discarded (they read as zero again).
func (m *Memory) Map(addr, size uint64, perm Perm, name string) error {
	return m.MapFile(addr, size, perm, name, 0)
}

// MapFile is Map for a mapping of the file name at offset off (shown in
// /proc/self/maps).
func (m *Memory) MapFile(addr, size uint64, perm Perm, name string, off uint64) error {
	return m.MapObject(addr, size, perm, name, off, nil)
}

// MapObject is MapFile for a shared mapping: the range shows obj's bytes
// from offset off (obj nil: private memory, as MapFile).
func (m *Memory) MapObject(addr, size uint64, perm Perm, name string, off uint64, obj *Object) error {
	start, end := pageDown(addr), pageUp(addr+size)
	if size == 0 || end <= start {
		return fmt.Errorf("mem: bad mapping [%#x, +%#x)", addr, size)
	}
	m.Unmap(start, end-start)
	i := sort.Search(len(m.regions), func(i int) bool { return m.regions[i].Start >= start })
	m.regions = append(m.regions, Region{})
	copy(m.regions[i+1:], m.regions[i:])
	m.regions[i] = Region{Start: start, End: end, Perm: perm, Name: name, Off: off, Obj: obj}
	m.regions = mergeRegions(m.regions) // e.g. brk growing [heap] page by page
	m.flushRange(start, end)
	return nil
}

// Unmap removes [addr, addr+size) from the address space.
func (m *Memory) Unmap(addr, size uint64) {
	start, end := pageDown(addr), pageUp(addr+size)
	var out []Region
	for _, r := range m.regions {
		if r.End <= start || r.Start >= end {
			out = append(out, r)
			continue
		}
		if r.Start < start {
			out = append(out, Region{r.Start, start, r.Perm, r.Name, r.Off, r.Obj})
		}
		if r.End > end {
			out = append(out, Region{end, r.End, r.Perm, r.Name, r.Off + end - r.Start, r.Obj})
		}
	}
	m.regions = out
	m.dropPages(start, end)
	m.flushRange(start, end)
}

// dropPages discards materialised pages in [start, end).
func (m *Memory) dropPages(start, end uint64) {
	var gone []uint64
	m.pages.each(start>>PageBits, end>>PageBits, func(pn uint64, p *Page) {
		m.pages.del(pn)
		if !p.shared { // an Object's bytes stay its own
			m.free = append(m.free, p)
		}
		if p.watched != 0 {
			gone = append(gone, pn<<PageBits)
		}
	})
	m.notifyWatched(gone)
}

// notifyWatched tells the watcher that the pages at addrs changed wholesale.
func (m *Memory) notifyWatched(addrs []uint64) {
	if m.OnWatchedWrite == nil {
		return
	}
	sort.Slice(addrs, func(i, j int) bool { return addrs[i] < addrs[j] })
	for _, a := range addrs {
		m.OnWatchedWrite(a, PageSize)
	}
}

// Protect changes the permissions of [addr, addr+size). Every page in the
// range must be mapped.
func (m *Memory) Protect(addr, size uint64, perm Perm) error {
	start, end := pageDown(addr), pageUp(addr+size)
	if !m.IsMapped(start, end-start) {
		return &Fault{Addr: addr, Access: Store}
	}
	var out []Region
	for _, r := range m.regions {
		if r.End <= start || r.Start >= end {
			out = append(out, r)
			continue
		}
		if r.Start < start {
			out = append(out, Region{r.Start, start, r.Perm, r.Name, r.Off, r.Obj})
		}
		lo, hi := max(r.Start, start), min(r.End, end)
		out = append(out, Region{lo, hi, perm, r.Name, r.Off + lo - r.Start, r.Obj})
		if r.End > end {
			out = append(out, Region{end, r.End, r.Perm, r.Name, r.Off + end - r.Start, r.Obj})
		}
	}
	m.regions = mergeRegions(out)
	var changed []uint64
	m.pages.each(start>>PageBits, end>>PageBits, func(pn uint64, p *Page) {
		if p.watched != 0 && p.Perm != perm {
			changed = append(changed, pn<<PageBits)
		}
		p.Perm = perm
	})
	m.flushRange(start, end)
	m.notifyWatched(changed)
	return nil
}

// mergeRegions joins adjacent regions with the same permissions, name and
// object whose offsets continue (or are both 0, as two private anonymous
// mappings).
func mergeRegions(rs []Region) []Region {
	var out []Region
	for _, r := range rs {
		if n := len(out); n > 0 && out[n-1].End == r.Start && out[n-1].Perm == r.Perm && out[n-1].Name == r.Name && out[n-1].Obj == r.Obj &&
			(r.Off == out[n-1].Off+r.Start-out[n-1].Start || r.Obj == nil && r.Off == 0 && out[n-1].Off == 0) {
			out[n-1].End = r.End
			continue
		}
		out = append(out, r)
	}
	return out
}

// Regions returns a copy of the region list, sorted by address.
func (m *Memory) Regions() []Region { return append([]Region(nil), m.regions...) }

// RegionAt returns the region containing addr.
func (m *Memory) RegionAt(addr uint64) (Region, bool) {
	i := sort.Search(len(m.regions), func(i int) bool { return m.regions[i].End > addr })
	if i < len(m.regions) && m.regions[i].Start <= addr {
		return m.regions[i], true
	}
	return Region{}, false
}

// IsMapped reports whether every page of [addr, addr+size) is mapped.
func (m *Memory) IsMapped(addr, size uint64) bool {
	a, end := pageDown(addr), pageUp(addr+size)
	for a < end {
		r, ok := m.RegionAt(a)
		if !ok {
			return false
		}
		a = r.End
	}
	return true
}

// IsFree reports whether no page of [addr, addr+size) is mapped.
func (m *Memory) IsFree(addr, size uint64) bool {
	start, end := pageDown(addr), pageUp(addr+size)
	if end <= start {
		return false
	}
	for _, r := range m.regions {
		if r.Start < end && r.End > start {
			return false
		}
	}
	return true
}

// FindFree returns the highest page-aligned address a with
// [a, a+size) unmapped and lo <= a, a+size <= hi (top-down, like Linux's
// mmap). ok is false when no such gap exists.
func (m *Memory) FindFree(size, lo, hi uint64) (uint64, bool) {
	size = pageUp(size)
	top := pageDown(hi)
	for i := len(m.regions) - 1; i >= -1; i-- {
		gapLo := lo
		if i >= 0 {
			gapLo = max(lo, m.regions[i].End)
		}
		if top >= gapLo+size && top-size >= gapLo {
			return top - size, true
		}
		if i >= 0 {
			top = min(top, m.regions[i].Start)
		}
		if top < lo {
			break
		}
	}
	return 0, false
}

// page returns the page holding addr, materialising it if its region is
// mapped. It returns nil for an unmapped address.
func (m *Memory) page(addr uint64) *Page {
	pn := addr >> PageBits
	if p := m.pages.get(pn); p != nil {
		return p
	}
	r, ok := m.RegionAt(addr)
	if !ok {
		return nil
	}
	if m.limitPages != 0 && uint64(m.pages.n) >= m.limitPages {
		if !m.exhausted {
			m.exhausted, m.exhaustedAt = true, addr
		}
		return nil
	}
	var p *Page
	if r.Obj != nil {
		d := r.Obj.page(r.Off + pageDown(addr) - r.Start)
		if d == nil {
			return nil // past the object's end
		}
		p = &Page{Data: d, shared: true}
	} else {
		p = m.newPage()
	}
	p.Perm = r.Perm
	m.pages.set(pn, p)
	return p
}

// Backed reports whether the page holding addr has bytes: materialised
// here (touched since it was mapped), or, in a shared mapping, a page its
// object holds (another mapping of the object wrote it: a System V
// segment attached again, a file mapped a second time). An unbacked
// mapped page reads as zero; observers that copy memory (difftest) check
// this first so that they do not back pages the guest never touched.
func (m *Memory) Backed(addr uint64) bool {
	if m.pages.get(addr>>PageBits) != nil {
		return true
	}
	r, ok := m.RegionAt(addr)
	return ok && r.Obj != nil && r.Obj.pages[(r.Off+pageDown(addr)-r.Start)>>PageBits] != nil
}

// SetLimit bounds the guest memory that can be backed to limit bytes
// (rounded down to pages; 0 removes the bound). A load, store or fetch
// that would materialise a page beyond it fails as if the address were
// unmapped, and Exhausted reports it: the caller ends the run.
func (m *Memory) SetLimit(limit uint64) { m.limitPages = limit / PageSize }

// Limit returns the bound SetLimit set, in bytes (0: none).
func (m *Memory) Limit() uint64 { return m.limitPages * PageSize }

// Exhausted reports whether an access failed because the memory limit
// was reached, and the first such address.
func (m *Memory) Exhausted() (addr uint64, ok bool) { return m.exhaustedAt, m.exhausted }

// Committed returns the bytes of writable mappings except those named
// except (the commit charge of Linux's strict overcommit accounting, which
// the syscall layer compares with Limit).
func (m *Memory) Committed(except string) uint64 {
	var n uint64
	for _, r := range m.regions {
		if r.Perm&W != 0 && r.Name != except {
			n += r.End - r.Start
		}
	}
	return n
}

// CommittedIn returns the bytes of writable mappings within [addr,
// addr+size), except those named except.
func (m *Memory) CommittedIn(addr, size uint64, except string) uint64 {
	start, end := pageDown(addr), pageUp(addr+size)
	var n uint64
	for _, r := range m.regions {
		if lo, hi := max(r.Start, start), min(r.End, end); lo < hi && r.Perm&W != 0 && r.Name != except {
			n += hi - lo
		}
	}
	return n
}

// slabPages is how many pages are allocated at once. Guest memory touched
// together then sits together in host memory (2 MiB at a time), which
// keeps the host's own TLB misses down and lets it use huge pages; a
// page-at-a-time Go allocation scatters guest memory and made the same run
// up to 40% slower depending on where the heap happened to land.
const slabPages = 512

// newPage returns a zeroed page, reusing one a mapping change dropped.
func (m *Memory) newPage() *Page {
	if n := len(m.free); n > 0 {
		p := m.free[n-1]
		m.free = m.free[:n-1]
		*p = Page{Data: p.Data}
		clear(p.Data[:])
		return p
	}
	if len(m.slab) == 0 {
		m.slab, m.data = make([]Page, slabPages), make([][PageSize]byte, slabPages)
	}
	p := &m.slab[0]
	p.Data = &m.data[0]
	m.slab, m.data = m.slab[1:], m.data[1:]
	return p
}

// PageFor returns the page holding addr for an access of kind a, or nil if
// the address is unmapped or the permission is missing.
func (m *Memory) PageFor(addr uint64, a Access) *Page {
	p := m.page(addr)
	if p == nil || p.Perm&accessPerm[a] == 0 {
		return nil
	}
	return p
}

var accessPerm = [...]Perm{Load: R, Store: W, Fetch: X}

// --- watching ------------------------------------------------------------

// Watcher names who watches a page.
type Watcher uint8

// Watchers.
const (
	WatchCode Watcher = 1 << iota // the core's predecode cache
	WatchHost                     // a host mailbox (HTIF tohost)
	// WatchDevice: a device's registers (the bare-metal CLINT): loads
	// too take the slow path, where the core lets the device refresh
	// the bytes first (DeviceAt), and never enter the read TLB.
	WatchDevice
)

// Watch marks the page holding addr for w so that stores to it reach
// OnWatchedWrite. It returns false if the page is not mapped.
func (m *Memory) Watch(addr uint64, w Watcher) bool {
	p := m.page(addr)
	if p == nil {
		return false
	}
	p.watched |= w
	m.wtlb[(addr>>PageBits)&tlbMask] = TLBEntry{tag: emptyTag}
	if w&WatchDevice != 0 {
		m.rtlb[(addr>>PageBits)&tlbMask] = TLBEntry{tag: emptyTag}
	}
	return true
}

// DeviceSet is a device changing its own registers: data lands at addr,
// in a mapped page, without a permission check and without telling the
// page's watchers (the write is not a store of the program's).
func (m *Memory) DeviceSet(addr uint64, data []byte) error {
	for off := 0; off < len(data); {
		cur := addr + uint64(off)
		p := m.page(cur)
		if p == nil {
			return &Fault{Addr: cur, Access: Store}
		}
		off += copyPage(p, cur&PageMask, data[off:], true)
	}
	return nil
}

// DeviceAt reports whether addr lies in a page watched with WatchDevice.
func (m *Memory) DeviceAt(addr uint64) bool {
	p := m.pages.get(addr >> PageBits)
	return p != nil && p.watched&WatchDevice != 0
}

// Unwatch clears w's mark on the page holding addr.
func (m *Memory) Unwatch(addr uint64, w Watcher) {
	if p := m.pages.get(addr >> PageBits); p != nil {
		p.watched &^= w
	}
}

// Fetch16 reads an instruction halfword; ok is false if addr is not
// executable.
func (m *Memory) Fetch16(addr uint64) (uint16, bool) {
	p := m.PageFor(addr, Fetch)
	if p == nil {
		return 0, false
	}
	off := addr & PageMask
	return uint16(p.Data[off]) | uint16(p.Data[off+1])<<8, off < PageMask
}

// flushRange drops the TLB entries of [start, end) (page aligned): a
// mapping change must not cost a whole-TLB flush, since malloc moves brk
// all the time.
func (m *Memory) flushRange(start, end uint64) {
	if (end-start)>>PageBits >= tlbSize {
		m.flushTLB()
		return
	}
	for a := start; a < end; a += PageSize {
		i := (a >> PageBits) & tlbMask
		if m.rtlb[i].tag == a {
			m.rtlb[i] = TLBEntry{tag: emptyTag}
		}
		if m.wtlb[i].tag == a {
			m.wtlb[i] = TLBEntry{tag: emptyTag}
		}
	}
}

func (m *Memory) flushTLB() {
	m.rtlb = emptyTLB
	m.wtlb = emptyTLB
}

// --- fast scalar access -------------------------------------------------
//
// ReadEntry/WriteEntry with Hits and At are small enough to inline into
// the core's loop, which writes the hit path out itself so that a hit costs
// one compare and branch (returning (v, ok) from an inlined helper made the
// compiler test the tag twice); Read/Write add the slow path.
// As in TinyEMU, the TLB tag is the page address and the compare keeps the
// access's low alignment bits, so one compare checks the page, that the
// access is naturally aligned, and hence that it does not cross a page.
// Misaligned, missing or watched accesses take the out-of-line slow path.
// The guest is little-endian and so is every host Go supports for us
// (checked in init), so a hit is a plain unaligned-safe host load.

func tagMask(size uint64) uint64 { return ^uint64(PageMask &^ (size - 1)) }

// scalar is the type of a guest load or store of 1, 2, 4 or 8 bytes.
type scalar interface {
	uint8 | uint16 | uint32 | uint64
}

// read is Read8...Read64 (each size is its own instantiation).
func read[T scalar](m *Memory, addr uint64) (T, bool) {
	size := uint64(unsafe.Sizeof(T(0)))
	if e := m.ReadEntry(addr); e.Hits(addr, size) {
		return *(*T)(e.At(addr)), true
	}
	v, ok := m.ReadSlow(addr, int(size))
	return T(v), ok
}

// write is Write8...Write64.
func write[T scalar](m *Memory, addr uint64, v T) bool {
	size := uint64(unsafe.Sizeof(v))
	if e := m.WriteEntry(addr); e.Hits(addr, size) {
		*(*T)(e.At(addr)) = v
		return true
	}
	return m.WriteSlow(addr, uint64(v), int(size))
}

// Read8 reads a uint8; ok is false if the access faults.
func (m *Memory) Read8(addr uint64) (uint8, bool) { return read[uint8](m, addr) }

// Read16 reads a little-endian uint16; ok is false if the access faults.
func (m *Memory) Read16(addr uint64) (uint16, bool) { return read[uint16](m, addr) }

// Read32 reads a little-endian uint32; ok is false if the access faults.
func (m *Memory) Read32(addr uint64) (uint32, bool) { return read[uint32](m, addr) }

// Read64 reads a little-endian uint64; ok is false if the access faults.
func (m *Memory) Read64(addr uint64) (uint64, bool) { return read[uint64](m, addr) }

// Write8 writes a uint8; false if the access faults.
func (m *Memory) Write8(addr uint64, v uint8) bool { return write(m, addr, v) }

// Write16 writes a little-endian uint16; false if the access faults.
func (m *Memory) Write16(addr uint64, v uint16) bool { return write(m, addr, v) }

// Write32 writes a little-endian uint32; false if the access faults.
func (m *Memory) Write32(addr uint64, v uint32) bool { return write(m, addr, v) }

// Write64 writes a little-endian uint64; false if the access faults.
func (m *Memory) Write64(addr uint64, v uint64) bool { return write(m, addr, v) }

func init() {
	x := uint16(1)
	if *(*byte)(unsafe.Pointer(&x)) != 1 {
		panic("rvsim needs a little-endian host")
	}
}

// ReadSlow is a read of size bytes that misses the TLB (or crosses a
// page): callers that tested ReadEntry themselves call it directly.
func (m *Memory) ReadSlow(addr uint64, size int) (uint64, bool) {
	var v uint64
	for i := 0; i < size; i++ {
		a := addr + uint64(i)
		p := m.PageFor(a, Load)
		if p == nil {
			return 0, false
		}
		v |= uint64(p.Data[a&PageMask]) << (8 * i)
	}
	// Refill the TLB with the first page (the common case is a plain
	// miss), unless a device's registers are there.
	if p := m.PageFor(addr, Load); p != nil && p.watched&WatchDevice == 0 {
		m.rtlb[(addr>>PageBits)&tlbMask] = TLBEntry{tag: addr &^ PageMask, data: p.Data}
	}
	return v, true
}

// WriteSlow is a write of the low size bytes of v that misses the TLB,
// crosses a page or hits a watched page (see ReadSlow).
// The write is all-or-nothing: permissions are checked for every byte first.
func (m *Memory) WriteSlow(addr, v uint64, size int) bool {
	watched := false
	for i := 0; i < size; i++ {
		p := m.PageFor(addr+uint64(i), Store)
		if p == nil {
			return false
		}
		watched = watched || p.watched != 0
	}
	for i := 0; i < size; i++ {
		a := addr + uint64(i)
		m.pages.get(a >> PageBits).Data[a&PageMask] = uint8(v >> (8 * i))
	}
	if p := m.pages.get(addr >> PageBits); p.watched == 0 {
		m.wtlb[(addr>>PageBits)&tlbMask] = TLBEntry{tag: addr &^ PageMask, data: p.Data}
	}
	if watched && m.OnWatchedWrite != nil {
		m.OnWatchedWrite(addr, size)
	}
	return true
}

// --- bulk access (loader, syscalls) -----------------------------------------

// ReadBytes copies len(buf) bytes at addr into buf, as a user-mode read:
// every byte must be readable.
func (m *Memory) ReadBytes(addr uint64, buf []byte) error {
	return m.bulk(addr, buf, Load, false)
}

// WriteBytes copies data to addr as a user-mode write (every byte must be
// writable); watched pages are notified.
func (m *Memory) WriteBytes(addr uint64, data []byte) error {
	return m.bulk(addr, data, Store, false)
}

// Poke copies data to addr ignoring permissions (but not the address map):
// the loader uses it to fill read-only segments.
func (m *Memory) Poke(addr uint64, data []byte) error {
	return m.bulk(addr, data, Store, true)
}

// Peek copies bytes at addr into buf ignoring permissions.
func (m *Memory) Peek(addr uint64, buf []byte) error {
	return m.bulk(addr, buf, Load, true)
}

func (m *Memory) bulk(addr uint64, buf []byte, a Access, force bool) error {
	// Check first so a failed copy changes nothing.
	for off := 0; off < len(buf); {
		cur := addr + uint64(off)
		p := m.page(cur)
		if p == nil || (!force && p.Perm&accessPerm[a] == 0) {
			return &Fault{Addr: cur, Access: a}
		}
		off += int(PageSize - cur&PageMask)
	}
	watchedFrom, watched := uint64(0), false
	for off := 0; off < len(buf); {
		cur := addr + uint64(off)
		p := m.page(cur)
		n := copyPage(p, cur&PageMask, buf[off:], a == Store)
		if a == Store && p.watched != 0 && !watched {
			watched, watchedFrom = true, cur
		}
		off += n
	}
	if watched && m.OnWatchedWrite != nil {
		m.OnWatchedWrite(watchedFrom, len(buf)-int(watchedFrom-addr))
	}
	return nil
}

func copyPage(p *Page, off uint64, buf []byte, store bool) int {
	if store {
		return copy(p.Data[off:], buf)
	}
	return copy(buf, p.Data[off:])
}

// ReadCString reads a NUL-terminated string of at most max bytes.
func (m *Memory) ReadCString(addr uint64, max int) (string, error) {
	var out []byte
	for len(out) < max {
		b, ok := m.Read8(addr + uint64(len(out)))
		if !ok {
			return "", &Fault{Addr: addr + uint64(len(out)), Access: Load}
		}
		if b == 0 {
			return string(out), nil
		}
		out = append(out, b)
	}
	return "", fmt.Errorf("string at %#x longer than %d bytes", addr, max)
}

// Zero clears [addr, addr+size) ignoring permissions.
func (m *Memory) Zero(addr, size uint64) error {
	var zero [PageSize]byte
	for size > 0 {
		n := min(size, PageSize-addr&PageMask)
		if err := m.Poke(addr, zero[:n]); err != nil {
			return err
		}
		addr += n
		size -= n
	}
	return nil
}

// Footprint returns the number of materialised pages.
func (m *Memory) Footprint() int { return m.pages.n }

// Resident returns the bytes of [start, end) backed by pages (touched
// since mapped): a process's resident set.
func (m *Memory) Resident(start, end uint64) uint64 {
	var n uint64
	m.pages.each(pageDown(start)>>PageBits, pageUp(end)>>PageBits, func(uint64, *Page) { n += PageSize })
	return n
}

// Digest hashes the contents and addresses of every materialised page
// (FNV-1a), for tests that compare two memories.
func (m *Memory) Digest() uint64 {
	h := fnv.New64a()
	var a8 [8]byte
	for _, r := range m.regions {
		for a := r.Start; a < r.End; a += PageSize {
			if p := m.pages.get(a >> PageBits); p != nil {
				binary.LittleEndian.PutUint64(a8[:], a)
				h.Write(a8[:])
				h.Write(p.Data[:])
			}
		}
	}
	return h.Sum64()
}

// TakeStores copies into m the bytes of each private page that child (a
// Clone of m) holds differently, as stores a child that shared m's
// memory would have made there (a vfork child, CLONE_VM: syscalls'
// fork.go): pages m had not touched yet too, where m maps them; shared
// pages (one set of bytes already) are left alone. It returns the
// addresses of the pages it changed; watched pages are notified.
func (m *Memory) TakeStores(child *Memory) []uint64 {
	var changed []uint64
	var zero [PageSize]byte
	child.pages.each(0, ^uint64(0)>>PageBits, func(pn uint64, q *Page) {
		if q.shared {
			return
		}
		p := m.pages.get(pn)
		switch {
		case p == nil && *q.Data == zero, p != nil && (p.shared || *q.Data == *p.Data):
			return
		}
		addr := pn << PageBits
		if m.Poke(addr, q.Data[:]) == nil { // (fails where m maps nothing)
			changed = append(changed, addr)
		}
	})
	return changed
}

// Clone returns a copy of the address space for a forked process: the
// same regions and bytes, the same limit, and nothing watched (the copy's
// core predecodes its own code). Shared mappings are not copied: both
// address spaces show their objects' bytes.
func (m *Memory) Clone() *Memory {
	c := New()
	c.limitPages = m.limitPages
	c.regions = append([]Region(nil), m.regions...)
	m.pages.each(0, ^uint64(0)>>PageBits, func(pn uint64, p *Page) {
		var q *Page
		if p.shared {
			q = &Page{Data: p.Data, shared: true}
		} else {
			q = c.newPage()
			*q.Data = *p.Data
		}
		q.Perm = p.Perm
		c.pages.set(pn, q)
	})
	return c
}
