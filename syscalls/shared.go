package syscalls

import (
	"math"
	"os"
	"sort"

	"github.com/rvsim/rvsim/mem"
)

// Shared file mappings. A MAP_SHARED mapping of a file is, like a private
// one, a copy of the file in the simulated memory, but one mem.Object
// that every shared mapping of the file in the run shows (fileObject), as
// Linux's page cache is one. The object stands for the page cache before
// read() and write() too: a read or write of a file that a process maps
// shared first writes back the stores made through every mapping of it
// (flushObject), and what write(), a truncation or fallocate changed in
// the file is read again into the pages of the object that exist
// (reloadObject), so the mappings see it at once, as on Linux. Stores are
// also written back when a mapping is synced (msync), unmapped (munmap, a
// MAP_FIXED mapping or mremap over it) and when the process exits. Only
// the bytes the processes changed are written back (compared with what
// was last read from or written to the file), so what write() put in the
// file meanwhile in other bytes stays; nothing is written past the end of
// the file, as Linux drops stores beyond it. A mapping of a file not open
// for writing writes nothing back (its process cannot store to it).

// sharedMap is one shared file mapping: [start, end) maps the file at off.
type sharedMap struct {
	start, end uint64
	file       *sharedFile
	off        int64
	snap       []byte // the mapping's bytes as last loaded from or written to the file (nil: read-only file)
}

// sharedFile is the host file of shared mappings, held open (a duplicate
// descriptor) while any maps it, as the kernel holds a mapped file.
type sharedFile struct {
	f        *os.File
	refs     int
	obj      *mem.Object // the file's object (fileObject)
	readOnly bool        // not open for writing: nothing to write back
}

// addShared registers [addr, addr+size) as a shared mapping of f at off,
// its current memory as the file's contents.
func (k *Kernel) addShared(addr, size uint64, file *sharedFile, off int64) {
	var snap []byte
	if !file.readOnly {
		snap = make([]byte, size)
		k.mem.Peek(addr, snap)
	}
	file.refs++
	k.shared = append(k.shared, &sharedMap{start: addr, end: addr + size, file: file, off: off, snap: snap})
	sort.Slice(k.shared, func(i, j int) bool { return k.shared[i].start < k.shared[j].start })
}

// writeBack writes the bytes of m in [lo, hi) that the process changed
// to the file.
func (k *Kernel) writeBack(m *sharedMap, lo, hi uint64) Errno {
	lo, hi = max(lo, m.start), min(hi, m.end)
	if lo >= hi || m.file.readOnly {
		return 0
	}
	fi, err := m.file.f.Stat()
	if err != nil {
		return errnoOf(err)
	}
	size := fi.Size()
	cur := make([]byte, hi-lo)
	k.mem.Peek(lo, cur)
	snap := m.snap[lo-m.start : hi-m.start]
	for i := 0; i < len(cur); {
		if cur[i] == snap[i] {
			i++
			continue
		}
		j := i
		for j < len(cur) && cur[j] != snap[j] {
			j++
		}
		at := m.off + int64(lo-m.start) + int64(i)
		end := min(at+int64(j-i), size)
		if at < end {
			if _, err := m.file.f.WriteAt(cur[i:i+int(end-at)], at); err != nil {
				return errnoOf(err)
			}
		}
		i = j
	}
	copy(snap, cur)
	return 0
}

// syncShared writes back the shared mappings in [addr, addr+size) (msync).
func (k *Kernel) syncShared(addr, size uint64) Errno {
	for _, m := range k.shared {
		if e := k.writeBack(m, addr, addr+size); e != 0 {
			return e
		}
	}
	return 0
}

// unmapShared writes back and forgets the shared mappings in [addr,
// addr+size), before that range is unmapped or replaced. It returns the
// mapping that held addr (its file and the offset of addr), if one did.
func (k *Kernel) unmapShared(addr, size uint64) (held *sharedFile, off int64) {
	end := addr + size
	var out []*sharedMap
	for _, m := range k.shared {
		if m.end <= addr || m.start >= end {
			out = append(out, m)
			continue
		}
		k.writeBack(m, addr, end) // an error here has no caller to go to, as in Linux's writeback
		if m.start <= addr && addr < m.end {
			held, off = m.file, m.off+int64(addr-m.start)
			held.refs++ // kept for the caller (mremap), which releases it
		}
		if m.start < addr {
			out = append(out, &sharedMap{start: m.start, end: addr, file: m.file, off: m.off, snap: cut(m.snap, 0, addr-m.start)})
			m.file.refs++
		}
		if m.end > end {
			out = append(out, &sharedMap{start: end, end: m.end, file: m.file, off: m.off + int64(end-m.start), snap: cut(m.snap, end-m.start, m.end-m.start)})
			m.file.refs++
		}
		k.releaseShared(m.file)
	}
	k.shared = out
	return held, off
}

// releaseShared drops one reference to a mapped file.
func (k *Kernel) releaseShared(file *sharedFile) {
	if file.refs--; file.refs == 0 {
		file.f.Close()
	}
}

// flushShared writes back every shared mapping (at exit).
func (k *Kernel) flushShared() {
	for _, m := range k.shared {
		k.writeBack(m, m.start, m.end)
	}
}

// readFile copies size bytes of f at off into memory at addr; beyond
// the end of file the memory stays zero.
func (k *Kernel) readFile(f *os.File, addr, size uint64, off int64) Errno {
	for done := uint64(0); done < size; {
		n, err := f.ReadAt(k.buf[:min(size-done, chunk)], off+int64(done))
		if n > 0 {
			if e := k.pokeMem(addr+done, k.buf[:n]); e != 0 {
				return e
			}
			done += uint64(n)
		}
		if err != nil || n == 0 {
			break
		}
	}
	return 0
}

// fillMapping reads the file into the pages of a new shared mapping of
// it, [addr, addr+size) at off, that its object does not hold yet: the
// pages the object holds are the file as the run's mappings see it,
// stores included (a second mapping of another part of a mapped file,
// or one grown by mremap, gets the file's bytes for the rest).
func (k *Kernel) fillMapping(f *os.File, obj *mem.Object, addr, size uint64, off int64) Errno {
	for a := addr; a < addr+size; {
		if obj.Existing(uint64(off)+a-addr) != nil {
			a += PageSize
			continue
		}
		b := a + PageSize
		for b < addr+size && obj.Existing(uint64(off)+b-addr) == nil {
			b += PageSize
		}
		if e := k.readFile(f, a, b-a, off+int64(a-addr)); e != 0 {
			return e
		}
		a = b
	}
	return 0
}

// hostID is the host's identity of f, which keys the run's objects of
// shared file mappings (the guest's inode numbers are given out as the
// guest sees files, so asking for them would be seen).
func hostID(f *os.File) (fileID, bool) {
	fi, err := f.Stat()
	if err != nil {
		return fileID{}, false
	}
	st := hostStat(fi)
	return fileID{st.dev, st.ino}, true
}

// liveObject returns the object of the file f when a process of the run
// maps it shared, else nil: read() and write() of the file go through it.
func (k *Kernel) liveObject(f *os.File) *mem.Object {
	if len(k.all.files) == 0 || f == nil {
		return nil
	}
	id, ok := hostID(f)
	if !ok {
		return nil
	}
	o := k.all.files[id]
	if o != nil && !k.all.mapped(o) {
		delete(k.all.files, id) // so that the next read or write asks nothing
		o = nil
	}
	return o
}

// flushObject writes back what every process stored through its shared
// mappings of obj's file, before a read or write of the file.
func (k *Kernel) flushObject(obj *mem.Object) {
	for _, kk := range k.all.kernels {
		for _, m := range kk.shared {
			if m.file.obj == obj {
				kk.writeBack(m, m.start, m.end) // an error has no caller to go to, as in msync's absence
			}
		}
	}
}

// syncForIO writes back the stores made through shared mappings of the
// host file f before the kernel reads or changes it, and returns the
// file's object (nil when no process maps it shared).
func (k *Kernel) syncForIO(f *os.File) *mem.Object {
	o := k.liveObject(f)
	if o != nil {
		k.flushObject(o)
	}
	return o
}

// reloadObject reads the bytes of f in [lo, hi) again into the pages of
// obj that exist (zero past the end of the file), after write(), a
// truncation or fallocate changed them, and makes them every mapping's
// written-back state. flushObject ran first, so no store is lost.
func (k *Kernel) reloadObject(obj *mem.Object, f *os.File, lo, hi int64) {
	if lo >= hi {
		return
	}
	reload := func(off uint64, p *[PageSize]byte) {
		a, b := max(int64(off), lo), min(int64(off)+PageSize, hi)
		if a >= b {
			return
		}
		buf := p[a-int64(off) : b-int64(off)]
		n, _ := f.ReadAt(buf, a)
		clear(buf[n:])
	}
	if hi == math.MaxInt64 { // a truncation: every page the object holds
		obj.EachPage(reload)
	} else { // a write: its own pages only, not every page of a large mapping
		for off := uint64(lo) &^ (PageSize - 1); off < uint64(hi); off += PageSize {
			if p := obj.Existing(off); p != nil {
				reload(off, p)
			}
		}
	}
	for _, kk := range k.all.kernels {
		for _, m := range kk.shared {
			if m.file.obj != obj {
				continue
			}
			a, b := max(lo, m.off), min(hi, m.off+int64(m.end-m.start))
			if a >= b {
				continue
			}
			addr := m.start + uint64(a-m.off)
			if m.snap != nil {
				kk.mem.Peek(addr, m.snap[a-m.off:b-m.off])
			}
			kk.record(addr, uint64(b-a))
		}
	}
}

// cut is s[lo:hi], nil for a nil s (a read-only file's mapping).
func cut(s []byte, lo, hi uint64) []byte {
	if s == nil {
		return nil
	}
	return s[lo:hi]
}

// fileObject returns the object for a shared mapping of of's file: the
// one a mapping in some process of the run shows already (fresh false:
// its bytes are the file's, with what was stored since), or a new one
// (fresh: its bytes are to be read from the file). Objects no process
// maps any more are forgotten, so their bytes go.
func (k *Kernel) fileObject(of *openFile) (obj *mem.Object, fresh bool) {
	id, ok := hostID(of.f)
	if !ok {
		return mem.NewObject(0), true
	}
	if o := k.all.files[id]; o != nil && k.all.mapped(o) {
		return o, false
	}
	for f, o := range k.all.files {
		if !k.all.mapped(o) {
			delete(k.all.files, f)
		}
	}
	if k.all.files == nil {
		k.all.files = map[fileID]*mem.Object{}
	}
	obj = mem.NewObject(0)
	k.all.files[id] = obj
	return obj, true
}
