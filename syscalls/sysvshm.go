package syscalls

import (
	"fmt"

	"github.com/rvsim/rvsim/mem"
)

// System V shared memory (ipc/shm.c): shmget, shmat, shmdt, shmctl. A
// segment is a shared memory object of the run (mem.Object), so every
// process that attaches it, and every child forked after an attach, sees
// the same bytes, as the run's shared anonymous mappings do. The run has
// one IPC namespace: the segments are the run's (procList.shm), found by
// key or id from any of its processes. A segment's attach count is its
// mappings in the run's processes (a split mapping counts twice, as
// Linux's vm_ops->open counts a split VMA); one marked for removal
// (IPC_RMID) goes when the last goes.
//
// PostgreSQL's postmaster makes a small segment as an interlock between
// servers on one data directory, and its backends check its attach
// count.

// System V shared memory's flags and commands (uapi/linux/shm.h).
const (
	shmRdonly    = 0o10000
	shmRnd       = 0o20000
	shmRemap     = 0o40000
	shmExec      = 0o100000
	shmLock      = 11
	shmUnlock    = 12
	shmStat      = 13
	shmInfo      = 14
	shmStatAny   = 15
	shmDest      = 0o1000 // a segment's mode: marked for removal
	shmLocked    = 0o2000
	shmHugetlb   = 0o4000
	shmNoreserve = 0o10000

	// Linux's defaults (SHMMIN, SHMMAX, SHMALL, SHMMNI).
	shmMin = 1
	shmMax = ^uint64(0) - 1<<24
	shmAll = ^uint64(0) - 1<<24
	shmMni = 4096

	shmidDsSize = 112 // struct shmid64_ds (asm-generic, 64-bit)
)

// shmSegment is one segment.
type shmSegment struct {
	ipcPerm
	size                uint64
	atime, dtime, ctime int64
	cpid, lpid          int32
	obj                 *mem.Object
}

// attached counts seg's mappings in the run's processes (shm_nattch).
func (l *procList) attached(seg *shmSegment) uint64 {
	n := uint64(0)
	for _, k := range l.kernels {
		if k.mem == nil {
			continue
		}
		for _, r := range k.mem.Regions() {
			if r.Obj == seg.obj {
				n++
			}
		}
	}
	return n
}

// resident counts the segment's pages that exist (shm_rss).
func (s *shmSegment) resident() uint64 {
	n := uint64(0)
	s.obj.EachPage(func(uint64, *[PageSize]byte) { n++ })
	return n
}

// reap removes the segments marked for removal that nothing attaches.
func (l *procList) reap() {
	if l.ipc == nil {
		return
	}
	ids := &l.ipc.shm
	ids.each(func(s *shmSegment) {
		if s.mode&shmDest != 0 && l.attached(s) == 0 {
			ids.remove(s)
		}
	})
}

func sysShmget(k *Kernel, a sysArgs) (uint64, Errno) {
	key, size, flags := a.Int(0), a.Ptr(1), a.Uint(2)
	k.all.reap()
	return ipcGet(k, &k.all.sysv().shm, key, flags, func(s *shmSegment) Errno {
		if size > s.size {
			return EINVAL
		}
		return 0
	}, func(p ipcPerm) (*shmSegment, Errno) {
		if size < shmMin || size > shmMax {
			return nil, EINVAL
		}
		if pageUp(size) == 0 || pageUp(size) > StackTop {
			return nil, ENOMEM
		}
		return &shmSegment{ipcPerm: p, size: size, ctime: k.realSeconds(), cpid: k.pid, obj: mem.NewObject(pageUp(size))}, 0
	})
}

func sysShmat(k *Kernel, a sysArgs) (uint64, Errno) {
	id, addr, flags := a.Int(0), a.Ptr(1), a.Uint(2)
	k.all.reap()
	s, e := k.all.sysv().shm.byID(id)
	if e != 0 {
		return 0, e
	}
	perm, want := mem.R, uint32(rOK)
	if flags&shmRdonly == 0 {
		perm, want = mem.R|mem.W, rOK|wOK
	}
	if flags&shmExec != 0 {
		perm, want = perm|mem.X, want|xOK
	}
	if !k.ipcAllowed(&s.ipcPerm, want) {
		return 0, EACCES
	}
	size := pageUp(s.size)
	switch {
	case addr != 0 && flags&shmRnd != 0:
		addr &^= pageMask
		if addr == 0 {
			return 0, EINVAL
		}
	case addr&pageMask != 0:
		return 0, EINVAL
	}
	if addr == 0 {
		var ok bool
		if addr, ok = k.mem.FindFree(size, MmapMin, MmapTop); !ok {
			return 0, ENOMEM
		}
	} else {
		switch {
		case addr+size < addr || addr+size > StackTop:
			return 0, EINVAL
		case addr < MmapMin:
			return 0, EPERM
		case flags&shmRemap == 0 && !k.mem.IsFree(addr, size):
			return 0, EINVAL
		}
	}
	if !k.commitOK(addr, size, perm) {
		return 0, ENOMEM
	}
	k.unmapShared(addr, size)
	replaced := k.overlaps(addr, size)
	if k.mem.MapObject(addr, size, perm, fmt.Sprintf("/SYSV%08x (deleted)", uint32(s.key)), 0, s.obj) != nil {
		return 0, ENOMEM
	}
	for _, r := range replaced {
		k.record(r.Addr, r.Len)
	}
	k.record(addr, size) // the segment's bytes
	s.atime, s.lpid = k.realSeconds(), k.pid
	return addr, 0
}

func sysShmdt(k *Kernel, a sysArgs) (uint64, Errno) {
	addr := a.Ptr(0)
	if addr&pageMask != 0 {
		return 0, EINVAL
	}
	ids := &k.all.sysv().shm
	for _, r := range k.mem.Regions() {
		if r.Start != addr || r.Obj == nil || r.Off != 0 {
			continue
		}
		for _, s := range ids.objs {
			if s == nil || s.obj != r.Obj {
				continue
			}
			// shmdt: every mapping of the segment from addr to its end.
			end := addr + pageUp(s.size)
			for _, x := range k.mem.Regions() {
				if x.Obj == s.obj && x.Start >= addr && x.End <= end && x.Off == x.Start-addr {
					k.mem.Unmap(x.Start, x.End-x.Start)
				}
			}
			s.dtime, s.lpid = k.realSeconds(), k.pid
			k.all.reap()
			return 0, 0
		}
	}
	return 0, EINVAL
}

func sysShmctl(k *Kernel, a sysArgs) (uint64, Errno) {
	id, cmd, buf := a.Int(0), a.Int(1), a.Ptr(2)
	if id < 0 || cmd < 0 {
		return 0, EINVAL
	}
	k.all.reap()
	ids := &k.all.sysv().shm
	switch cmd {
	case ipcInfo:
		b := make([]byte, 9*8) // struct shminfo64
		put64(b, 0, shmMax)
		put64(b, 8, shmMin)
		put64(b, 16, shmMni)
		put64(b, 24, shmMni) // shmseg
		put64(b, 32, shmAll)
		if e := k.writeMem(buf, b); e != 0 {
			return 0, e
		}
		return uint64(ids.highest()), 0
	case shmInfo:
		b := make([]byte, 48) // struct shm_info
		pages, rss := uint64(0), uint64(0)
		ids.each(func(s *shmSegment) {
			pages += pageUp(s.size) / PageSize
			rss += s.resident()
		})
		put32(b, 0, uint32(ids.inUse()))
		put64(b, 8, pages) // shm_tot
		put64(b, 16, rss)  // shm_rss
		if e := k.writeMem(buf, b); e != 0 {
			return 0, e
		}
		return uint64(ids.highest()), 0
	case shmStat, shmStatAny:
		return ipcStatIndex(k, ids, id, cmd == shmStatAny, buf, k.all.shmidDs)
	}
	s, e := ids.byID(id)
	if e != 0 {
		return 0, e
	}
	switch cmd {
	case ipcStat:
		if !k.ipcAllowed(&s.ipcPerm, rOK) {
			return 0, EACCES
		}
		return 0, k.writeMem(buf, k.all.shmidDs(s))
	case ipcSet:
		b, e := k.readMem(buf, shmidDsSize)
		if e != 0 {
			return 0, e
		}
		if !k.ipcOwner(&s.ipcPerm) {
			return 0, EPERM
		}
		s.setPerm(b)
		s.ctime = k.realSeconds()
		return 0, 0
	case ipcRmid:
		if !k.ipcOwner(&s.ipcPerm) {
			return 0, EPERM
		}
		s.mode |= shmDest
		s.key = ipcPrivate
		s.ctime = k.realSeconds()
		k.all.reap()
		return 0, 0
	case shmLock, shmUnlock:
		if !k.cred.capable(capIpcLock) && !k.ipcCreatorOrOwner(&s.ipcPerm) { // shmctl_do_lock
			return 0, EPERM
		}
		if cmd == shmLock {
			s.mode |= shmLocked
		} else {
			s.mode &^= shmLocked
		}
		return 0, 0
	}
	return 0, EINVAL
}

// shmidDs encodes struct shmid64_ds for s.
func (l *procList) shmidDs(s *shmSegment) []byte {
	b := make([]byte, shmidDsSize)
	s.putPerm(b)
	put64(b, 48, s.size)
	put64(b, 56, uint64(s.atime))
	put64(b, 64, uint64(s.dtime))
	put64(b, 72, uint64(s.ctime))
	put32(b, 80, uint32(s.cpid))
	put32(b, 84, uint32(s.lpid))
	put64(b, 88, l.attached(s))
	return b
}
