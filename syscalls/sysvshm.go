package syscalls

import (
	"encoding/binary"
	"fmt"
	"slices"

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

// System V IPC flags and commands (uapi/linux/ipc.h, uapi/linux/shm.h).
const (
	ipcPrivate = 0
	ipcCreat   = 0o1000
	ipcExcl    = 0o2000
	ipcRmid    = 0
	ipcSet     = 1
	ipcStat    = 2
	ipcInfo    = 3

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

	// Linux's defaults (SHMMIN, SHMMAX, SHMALL, SHMMNI) and
	// ipc_mni's sequence multiplier.
	shmMin     = 1
	shmMax     = ^uint64(0) - 1<<24
	shmAll     = ^uint64(0) - 1<<24
	shmMni     = 4096
	ipcSeqMult = 32768

	shmidDsSize = 112 // struct shmid64_ds (asm-generic, 64-bit)
)

// ipcPerm is an IPC object's key, owner, creator and mode
// (kern_ipc_perm).
type ipcPerm struct {
	key                  int32
	uid, gid, cuid, cgid uint32
	mode                 uint32 // permissions, and for a segment SHM_DEST, SHM_LOCKED
	seq                  uint16
}

// shmSegment is one segment.
type shmSegment struct {
	ipcPerm
	id                  int32
	size                uint64
	atime, dtime, ctime int64
	cpid, lpid          int32
	obj                 *mem.Object
}

// shmTable is the run's segments by index (ipc_ids).
type shmTable struct {
	segs []*shmSegment // nil: a free index
	seqs []uint16      // each index's next sequence number
}

// shmTab returns the run's table.
func (l *procList) shmTab() *shmTable {
	if l.shm == nil {
		l.shm = &shmTable{}
	}
	return l.shm
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

// reap removes the segments marked for removal that nothing attaches.
func (l *procList) reap() {
	t := l.shm
	if t == nil {
		return
	}
	for i, s := range t.segs {
		if s != nil && s.mode&shmDest != 0 && l.attached(s) == 0 {
			t.segs[i] = nil
		}
	}
}

// byID returns the segment of id (EINVAL: none, or its index reused).
func (t *shmTable) byID(id int32) (*shmSegment, Errno) {
	if id < 0 {
		return nil, EINVAL
	}
	i := int(id % ipcSeqMult)
	if i >= len(t.segs) || t.segs[i] == nil || t.segs[i].id != id {
		return nil, EINVAL
	}
	return t.segs[i], 0
}

// ipcAllowed is ipcperms: the owner's, group's or others' bits of p's
// mode for the process's effective ids, or any for root (CAP_IPC_OWNER).
func (k *Kernel) ipcAllowed(p *ipcPerm, want uint32) bool {
	c := &k.cred
	if c.privileged() {
		return true
	}
	bits := p.mode & 7
	switch {
	case c.euid == p.uid || c.euid == p.cuid:
		bits = p.mode >> 6 & 7
	case c.egid == p.gid || c.egid == p.cgid || slices.Contains(c.groups, p.gid) || slices.Contains(c.groups, p.cgid):
		bits = p.mode >> 3 & 7
	}
	return bits&want == want
}

// ipcOwner reports whether the process may change or remove the object
// of p (ipcctl_obtain_check: its owner, its creator or root).
func (k *Kernel) ipcOwner(p *ipcPerm) bool {
	return k.cred.privileged() || k.cred.euid == p.uid || k.cred.euid == p.cuid
}

func (k *Kernel) realSeconds() int64 {
	now, _ := k.now(clockRealtime)
	return now / 1e9
}

func sysShmget(k *Kernel, a sysArgs) (uint64, Errno) {
	key, size, flags := a.Int(0), a.Ptr(1), a.Uint(2)
	k.all.reap()
	t := k.all.shmTab()
	if key != ipcPrivate {
		for _, s := range t.segs {
			if s == nil || s.key != key {
				continue
			}
			switch {
			case flags&(ipcCreat|ipcExcl) == ipcCreat|ipcExcl:
				return 0, EEXIST
			case size > s.size:
				return 0, EINVAL
			case !k.ipcAllowed(&s.ipcPerm, flags>>6&7):
				return 0, EACCES
			}
			return uint64(s.id), 0
		}
		if flags&ipcCreat == 0 {
			return 0, ENOENT
		}
	}
	if size < shmMin || size > shmMax {
		return 0, EINVAL
	}
	if pageUp(size) == 0 || pageUp(size) > StackTop {
		return 0, ENOMEM
	}
	i := 0
	for i < len(t.segs) && t.segs[i] != nil {
		i++
	}
	if i == shmMni {
		return 0, ENOSPC
	}
	if i == len(t.segs) {
		t.segs, t.seqs = append(t.segs, nil), append(t.seqs, 0)
	}
	seq := t.seqs[i]
	t.seqs[i] = seq + 1 // (wraps at 65536: ids stay below 2^31)
	c := &k.cred
	s := &shmSegment{
		id:      int32(int(seq)*ipcSeqMult + i),
		ipcPerm: ipcPerm{key: key, seq: seq, uid: c.euid, gid: c.egid, cuid: c.euid, cgid: c.egid, mode: flags & 0o777},
		size:    size, ctime: k.realSeconds(), cpid: k.pid, obj: mem.NewObject(pageUp(size)),
	}
	t.segs[i] = s
	return uint64(s.id), 0
}

func sysShmat(k *Kernel, a sysArgs) (uint64, Errno) {
	id, addr, flags := a.Int(0), a.Ptr(1), a.Uint(2)
	k.all.reap()
	s, e := k.all.shmTab().byID(id)
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
	t := k.all.shmTab()
	for _, r := range k.mem.Regions() {
		if r.Start != addr || r.Obj == nil || r.Off != 0 {
			continue
		}
		for _, s := range t.segs {
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
	k.all.reap()
	t := k.all.shmTab()
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
		return uint64(t.highest()), 0
	case shmInfo:
		b := make([]byte, 48) // struct shm_info
		used, pages := 0, uint64(0)
		for _, s := range t.segs {
			if s != nil {
				used++
				pages += pageUp(s.size) / PageSize
			}
		}
		put32(b, 0, uint32(used))
		put64(b, 8, pages)  // shm_tot
		put64(b, 16, pages) // shm_rss: every page resident
		if e := k.writeMem(buf, b); e != 0 {
			return 0, e
		}
		return uint64(t.highest()), 0
	case shmStat, shmStatAny:
		if id < 0 || int(id) >= len(t.segs) || t.segs[id] == nil {
			return 0, EINVAL
		}
		s := t.segs[id]
		if cmd == shmStat && !k.ipcAllowed(&s.ipcPerm, rOK) {
			return 0, EACCES
		}
		return uint64(s.id), k.writeMem(buf, k.all.shmidDs(s))
	}
	s, e := t.byID(id)
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
		s.uid, s.gid = binary.LittleEndian.Uint32(b[4:]), binary.LittleEndian.Uint32(b[8:])
		s.mode = s.mode&^0o777 | binary.LittleEndian.Uint32(b[20:])&0o777
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
		if !k.cred.privileged() && !k.ipcOwner(&s.ipcPerm) {
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

// highest is the highest index in use (ipc_get_maxidx), 0 for none, as
// IPC_INFO and SHM_INFO return it.
func (t *shmTable) highest() int32 {
	for i := len(t.segs) - 1; i >= 0; i-- {
		if t.segs[i] != nil {
			return int32(i)
		}
	}
	return 0
}

// shmidDs encodes struct shmid64_ds for s.
func (l *procList) shmidDs(s *shmSegment) []byte {
	b := make([]byte, shmidDsSize)
	put32(b, 0, uint32(s.key))
	put32(b, 4, s.uid)
	put32(b, 8, s.gid)
	put32(b, 12, s.cuid)
	put32(b, 16, s.cgid)
	put32(b, 20, s.mode)
	put16(b, 24, s.seq)
	put64(b, 48, s.size)
	put64(b, 56, uint64(s.atime))
	put64(b, 64, uint64(s.dtime))
	put64(b, 72, uint64(s.ctime))
	put32(b, 80, uint32(s.cpid))
	put32(b, 84, uint32(s.lpid))
	put64(b, 88, l.attached(s))
	return b
}
