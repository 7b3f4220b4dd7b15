package syscalls

import (
	"os"
	"sort"

	"github.com/rvsim/rvsim/mem"
)

// Shared file mappings. A MAP_SHARED mapping of a file is, like a private
// one, a copy of the file in the simulated memory, but one mem.Object
// that every shared mapping of the file in the run shows (fileObject), as
// Linux's page cache is one. What a process stores through a mapping of
// a file open for writing is written back to the file when the mapping
// is synced (msync), unmapped (munmap, a MAP_FIXED mapping or mremap
// over it) and when the process exits. Then read() sees the stores; until
// then it sees the file as it was (Linux would show them at once). Only the bytes the
// process changed are written back (compared with what was last read from
// or written to the file), so what write() put in the file meanwhile in
// other bytes stays; nothing is written past the end of the file, as
// Linux drops stores beyond it.

// sharedMap is one shared file mapping: [start, end) maps the file at off.
type sharedMap struct {
	start, end uint64
	file       *sharedFile
	off        int64
	snap       []byte // the mapping's bytes as last loaded from or written to the file
}

// sharedFile is the host file of shared mappings, held open (a duplicate
// descriptor) while any maps it, as the kernel holds a mapped file.
type sharedFile struct {
	f    *os.File
	refs int
}

// addShared registers [addr, addr+size) as a shared mapping of f at off,
// its current memory as the file's contents.
func (k *Kernel) addShared(addr, size uint64, file *sharedFile, off int64) {
	snap := make([]byte, size)
	k.mem.Peek(addr, snap)
	file.refs++
	k.shared = append(k.shared, &sharedMap{start: addr, end: addr + size, file: file, off: off, snap: snap})
	sort.Slice(k.shared, func(i, j int) bool { return k.shared[i].start < k.shared[j].start })
}

// writeBack writes the bytes of m in [lo, hi) that the process changed
// to the file.
func (k *Kernel) writeBack(m *sharedMap, lo, hi uint64) Errno {
	lo, hi = max(lo, m.start), min(hi, m.end)
	if lo >= hi {
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
			out = append(out, &sharedMap{start: m.start, end: addr, file: m.file, off: m.off, snap: m.snap[:addr-m.start]})
			m.file.refs++
		}
		if m.end > end {
			out = append(out, &sharedMap{start: end, end: m.end, file: m.file, off: m.off + int64(end-m.start), snap: m.snap[end-m.start:]})
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

// readFile copies size bytes of f at off into memory at addr; beyond the
// end of file the memory stays zero.
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

// fileObject returns the object for a shared mapping of of's file: the
// one a mapping in some process of the run shows already (fresh false:
// its bytes are the file's, with what was stored since), or a new one
// (fresh: its bytes are to be read from the file). Objects no process
// maps any more are forgotten, so their bytes go.
func (k *Kernel) fileObject(of *openFile) (obj *mem.Object, fresh bool) {
	st, e := k.statFile(of)
	if e != 0 {
		return mem.NewObject(0), true
	}
	id := fileID{st.dev, st.ino}
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
