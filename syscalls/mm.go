package syscalls

import (
	"github.com/rvsim/rvsim/mem"
)

// mmap/mprotect constants (asm-generic mman-common.h, mman.h, linux/mman.h).
const (
	protRead      = 0x1
	protWrite     = 0x2
	protExec      = 0x4
	protSem       = 0x8
	protGrowsdown = 0x01000000
	protGrowsup   = 0x02000000

	mapShared         = 0x01
	mapPrivate        = 0x02
	mapSharedValidate = 0x03
	mapType           = 0x0f
	mapFixed          = 0x10
	mapAnonymous      = 0x20
	mapFixedNoreplace = 0x100000

	mremapMaymove   = 1
	mremapFixed     = 2
	mremapDontunmap = 4

	madvDontneed       = 4
	madvFree           = 8
	madvRemove         = 9
	madvDontneedLocked = 24
)

// permOf maps PROT_* bits to page permissions. RISC-V has no write-only
// pages, so PROT_WRITE implies read, as in Linux's protection_map.
func permOf(prot uint32) mem.Perm {
	var p mem.Perm
	if prot&protRead != 0 {
		p |= mem.R
	}
	if prot&protWrite != 0 {
		p |= mem.R | mem.W
	}
	if prot&protExec != 0 {
		p |= mem.X
	}
	return p
}

// --- the memory limit --------------------------------------------------------

// commitOK reports whether mapping [addr, addr+size) with perm fits the
// guest memory limit (mem.Memory.Limit). Two rules, and only writable
// mappings are charged:
//   - the commit charge of Linux's strict overcommit accounting
//     (vm.overcommit_memory=2), the bytes of writable mappings, stays
//     within the limit. The stack is left out: it is mapped whole (8 MiB)
//     at exec where Linux grows it;
//   - the new mapping fits beside the memory already backed (read-only
//     file pages, which are copied in at mmap, and the stack included),
//     so that a program that allocates and touches memory gets ENOMEM
//     from malloc rather than running into the limit when it touches.
//
// A touch that still cannot be backed ends the run (sim).
func (k *Kernel) commitOK(addr, size uint64, perm mem.Perm) bool {
	limit := k.mem.Limit()
	if limit == 0 || perm&mem.W == 0 {
		return true
	}
	fresh := size - k.mem.CommittedIn(addr, size, stackName)
	if k.mem.Committed(stackName)+fresh > limit {
		return false
	}
	return uint64(k.mem.Footprint())*PageSize+fresh <= limit
}

const stackName = "[stack]"

// --- brk --------------------------------------------------------------------

func sysBrk(k *Kernel, a sysArgs) (uint64, Errno) {
	want := a.Ptr(0)
	if want < k.brkStart || want > StackBase {
		return k.brk, 0
	}
	oldTop, newTop := pageUp(k.brk), pageUp(want)
	switch {
	case newTop > oldTop:
		if !k.mem.IsFree(oldTop, newTop-oldTop) || !k.commitOK(oldTop, newTop-oldTop, mem.RW) {
			return k.brk, 0
		}
		if k.mem.Map(oldTop, newTop-oldTop, mem.RW, "[heap]") != nil {
			return k.brk, 0
		}
	case newTop < oldTop:
		k.mem.Unmap(newTop, oldTop-newTop)
	}
	k.brk = want
	return want, 0
}

// --- mmap, munmap -----------------------------------------------------------

func sysMmap(k *Kernel, a sysArgs) (uint64, Errno) {
	addr, length, prot, flags, fd, off := a.Ptr(0), a.Ptr(1), a.Uint(2), a.Uint(3), a.Int(4), a.Ptr(5)
	if length == 0 || off&pageMask != 0 {
		return 0, EINVAL
	}
	if t := flags & mapType; t != mapShared && t != mapPrivate && t != mapSharedValidate {
		return 0, EINVAL
	}
	size := pageUp(length)
	if size == 0 || size > StackTop {
		return 0, ENOMEM
	}
	var of *openFile
	if flags&mapAnonymous == 0 {
		var e Errno
		if of, e = k.file(fd); e != 0 {
			return 0, e
		}
		switch {
		case of.kind == kindZero:
			of = nil // a mapping of /dev/zero is anonymous memory
		case of.kind != kindHost || !of.regular || of.proc:
			return 0, ENODEV
		case !of.canRead():
			return 0, EACCES
		case flags&mapType != mapPrivate && prot&protWrite != 0 && !of.canWrite():
			return 0, EACCES
		case off+size < off || int64(off+size) < 0:
			return 0, EOVERFLOW
		}
	}
	if flags&(mapFixed|mapFixedNoreplace) != 0 {
		switch {
		case addr&pageMask != 0:
			return 0, EINVAL
		case addr+size < addr || addr+size > StackTop:
			return 0, ENOMEM
		case addr < MmapMin:
			return 0, EPERM
		case flags&mapFixedNoreplace != 0 && !k.mem.IsFree(addr, size):
			return 0, EEXIST
		}
	} else {
		hint := pageUp(addr)
		if hint < MmapMin || hint+size < hint || hint+size > StackTop || !k.mem.IsFree(hint, size) {
			var ok bool
			if hint, ok = k.mem.FindFree(size, MmapMin, MmapTop); !ok {
				return 0, ENOMEM
			}
		}
		addr = hint
	}
	if !k.commitOK(addr, size, permOf(prot)) {
		return 0, ENOMEM
	}
	k.unmapShared(addr, size)
	replaced := k.overlaps(addr, size)
	name, foff := "[anon]", uint64(0)
	if of != nil {
		name, foff = of.guest, off
	}
	// A shared mapping's bytes are an object that the children forked
	// from now on map too (mem.Object): for anonymous memory one of the
	// mapping's size (past it, mremap's growth faults with SIGBUS, as a
	// shmem file's end does); for a file the one its other shared
	// mappings in the run show, if it has any (read from the file when
	// fresh), as Linux's page cache is one.
	var obj *mem.Object
	fresh := true
	switch {
	case flags&mapType == mapPrivate:
	case of == nil:
		obj = mem.NewObject(size)
	default:
		obj, fresh = k.fileObject(of)
	}
	if k.mem.MapObject(addr, size, permOf(prot), name, foff, obj) != nil {
		return 0, ENOMEM
	}
	var shared *sharedFile
	if of != nil && obj != nil {
		f, err := hostDup(of.f)
		if err != nil {
			k.mem.Unmap(addr, size)
			return 0, errnoOf(err)
		}
		shared = &sharedFile{f: f, obj: obj, readOnly: !of.canWrite()}
	}
	for _, r := range replaced { // contents there changed (to zero)
		k.record(r.Addr, r.Len)
	}
	if !fresh {
		k.record(addr, size) // the object's bytes
	}
	if of != nil {
		var e Errno
		if obj != nil {
			e = k.fillMapping(of.f, obj, addr, size, int64(off))
		} else {
			e = k.mapFile(of, addr, size, int64(off))
		}
		if e != 0 {
			k.mem.Unmap(addr, size)
			if shared != nil {
				shared.f.Close()
			}
			return 0, e
		}
	}
	if shared != nil {
		k.addShared(addr, size, shared, int64(off))
	}
	return addr, 0
}

// offAt is the file offset region r maps at address a.
func offAt(r mem.Region, a uint64) uint64 { return r.Off + a - r.Start }

// overlaps returns the mapped parts of [addr, addr+size).
func (k *Kernel) overlaps(addr, size uint64) []Range {
	var out []Range
	end := addr + size
	for _, r := range k.mem.Regions() {
		lo, hi := max(r.Start, addr), min(r.End, end)
		if lo < hi {
			out = append(out, Range{lo, hi - lo})
		}
	}
	return out
}

// mapFile copies the file's bytes at off into the new mapping; beyond
// the end of file the mapping stays zero.
func (k *Kernel) mapFile(of *openFile, addr, size uint64, off int64) Errno {
	return k.readFile(of.f, addr, size, off)
}

func sysMunmap(k *Kernel, a sysArgs) (uint64, Errno) {
	addr, length := a.Ptr(0), a.Ptr(1)
	size := pageUp(length)
	if addr&pageMask != 0 || length == 0 || size == 0 || addr+size < addr || addr+size > StackTop {
		return 0, EINVAL
	}
	k.unmapShared(addr, size)
	k.mem.Unmap(addr, size)
	return 0, 0
}

// --- mremap -----------------------------------------------------------------

// sysMremap is mremap; a shared file mapping (shared.go) is written back
// first and goes on as one at its new place, its growth read from the
// file.
func sysMremap(k *Kernel, a sysArgs) (uint64, Errno) {
	old, oldLen, newLen := a.Ptr(0), pageUp(a.Ptr(1)), pageUp(a.Ptr(2))
	if old&pageMask != 0 || oldLen == 0 || old+oldLen < old {
		return mremap(k, a)
	}
	file, off := k.unmapShared(old, oldLen)
	if file == nil {
		return mremap(k, a)
	}
	defer k.releaseShared(file)
	to, e := mremap(k, a)
	if e != 0 {
		if k.mem.IsMapped(old, oldLen) {
			k.addShared(old, oldLen, file, off)
		}
		return 0, e
	}
	if newLen > oldLen {
		k.fillMapping(file.f, file.obj, to+oldLen, newLen-oldLen, off+int64(oldLen))
	}
	k.addShared(to, newLen, file, off)
	return to, 0
}

func mremap(k *Kernel, a sysArgs) (uint64, Errno) {
	old, oldLen, newLen, flags, newAddr := a.Ptr(0), a.Ptr(1), a.Ptr(2), a.Uint(3), a.Ptr(4)
	if flags&^(mremapMaymove|mremapFixed|mremapDontunmap) != 0 || old&pageMask != 0 {
		return 0, EINVAL
	}
	if flags&mremapFixed != 0 && flags&mremapMaymove == 0 {
		return 0, EINVAL
	}
	if flags&mremapDontunmap != 0 {
		return 0, EINVAL // not supported
	}
	oldSize, newSize := pageUp(oldLen), pageUp(newLen)
	if newSize == 0 || oldSize == 0 || old+oldSize < old {
		return 0, EINVAL
	}
	if newSize > StackTop {
		return 0, ENOMEM
	}
	if !k.mem.IsMapped(old, oldSize) {
		return 0, EFAULT
	}
	r, _ := k.mem.RegionAt(old)
	for _, o := range k.overlaps(old, oldSize) {
		if rr, _ := k.mem.RegionAt(o.Addr); rr.Perm != r.Perm {
			return 0, EFAULT // spans mappings of different kinds
		}
	}
	if flags&mremapFixed != 0 {
		if newAddr&pageMask != 0 || newAddr+newSize < newAddr || newAddr+newSize > StackTop {
			return 0, EINVAL
		}
		if newAddr < old+oldSize && old < newAddr+newSize {
			return 0, EINVAL
		}
		if newSize > oldSize && !k.commitOK(newAddr, newSize-oldSize, r.Perm) {
			return 0, ENOMEM
		}
		return k.move(old, oldSize, newAddr, newSize, r)
	}
	if newSize <= oldSize {
		if newSize < oldSize {
			k.mem.Unmap(old+newSize, oldSize-newSize)
		}
		return old, 0
	}
	if !k.commitOK(old+oldSize, newSize-oldSize, r.Perm) {
		return 0, ENOMEM
	}
	if old+newSize > old && old+newSize <= StackTop && k.mem.IsFree(old+oldSize, newSize-oldSize) {
		if k.mem.MapObject(old+oldSize, newSize-oldSize, r.Perm, r.Name, offAt(r, old+oldSize), r.Obj) != nil {
			return 0, ENOMEM
		}
		return old, 0
	}
	if flags&mremapMaymove == 0 {
		return 0, ENOMEM
	}
	to, ok := k.mem.FindFree(newSize, MmapMin, MmapTop)
	if !ok {
		return 0, ENOMEM
	}
	return k.move(old, oldSize, to, newSize, r)
}

// move maps [to, to+newSize) like region r, copies the old contents over
// (non-zero pages only: the rest is already zero) and unmaps the old range.
func (k *Kernel) move(old, oldSize, to, newSize uint64, r mem.Region) (uint64, Errno) {
	replaced := k.overlaps(to, newSize)
	if k.mem.MapObject(to, newSize, r.Perm, r.Name, offAt(r, old), r.Obj) != nil {
		return 0, ENOMEM
	}
	for _, o := range replaced {
		k.record(o.Addr, o.Len)
	}
	page := make([]byte, PageSize)
	for off := uint64(0); off < min(oldSize, newSize) && r.Obj == nil; off += PageSize { // an object's bytes are there already
		if k.mem.Peek(old+off, page) != nil {
			break
		}
		if !allZero(page) {
			k.pokeMem(to+off, page)
		}
	}
	k.mem.Unmap(old, oldSize)
	return to, 0
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

// --- mprotect, madvise ------------------------------------------------------

func sysMprotect(k *Kernel, a sysArgs) (uint64, Errno) {
	addr, length, prot := a.Ptr(0), a.Ptr(1), a.Uint(2)
	if addr&pageMask != 0 || prot&^(protRead|protWrite|protExec|protSem|protGrowsdown|protGrowsup) != 0 {
		return 0, EINVAL
	}
	if length == 0 {
		return 0, 0
	}
	size := pageUp(length)
	if size == 0 || addr+size < addr {
		return 0, ENOMEM
	}
	if !k.mem.IsMapped(addr, size) {
		return 0, ENOMEM
	}
	if !k.commitOK(addr, size, permOf(prot)) {
		return 0, ENOMEM
	}
	if k.mem.Protect(addr, size, permOf(prot)) != nil {
		return 0, ENOMEM
	}
	return 0, 0
}

func validAdvice(adv int32) bool {
	switch {
	case adv >= 0 && adv <= 4, adv >= 8 && adv <= 25:
		return true
	}
	return false
}

func sysMadvise(k *Kernel, a sysArgs) (uint64, Errno) {
	addr, length, adv := a.Ptr(0), a.Ptr(1), a.Int(2)
	if addr&pageMask != 0 || !validAdvice(adv) {
		return 0, EINVAL
	}
	if length == 0 {
		return 0, 0
	}
	size := pageUp(length)
	if size == 0 || addr+size < addr {
		return 0, EINVAL
	}
	if !k.mem.IsMapped(addr, size) {
		return 0, ENOMEM
	}
	switch adv {
	case madvDontneed, madvDontneedLocked, madvRemove:
		// Private memory reads back as zero (a private file mapping would
		// read its file again: not modelled): drop the pages by re-mapping
		// each piece with its own permissions and name. A shared
		// mapping's bytes stay in its object, as in the page cache,
		// unless MADV_REMOVE frees them.
		for _, o := range k.overlaps(addr, size) {
			r, _ := k.mem.RegionAt(o.Addr)
			switch {
			case r.Obj != nil && adv != madvRemove:
				continue
			case r.Obj != nil:
				k.mem.Zero(o.Addr, o.Len)
			case k.mem.MapFile(o.Addr, o.Len, r.Perm, r.Name, offAt(r, o.Addr)) != nil:
				return 0, ENOMEM
			}
			k.record(o.Addr, o.Len)
		}
	}
	return 0, 0
}
