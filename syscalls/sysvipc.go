package syscalls

import (
	"fmt"
	"slices"
	"strings"
)

// System V IPC (ipc/util.c): the run has one IPC namespace, whose shared
// memory segments (sysvshm.go), semaphore sets (sysvsem.go) and message
// queues (sysvmsg.go) any of its processes finds by key or id. Each kind
// numbers its objects as ipc_ids does: an id is the object's index (the
// lowest free one) plus ipcSeqMult times the index's sequence number,
// which grows each time the index is used, so that a removed object's id
// is not found again. /proc/sysvipc lists them.

// System V IPC flags and commands (uapi/linux/ipc.h).
const (
	ipcPrivate = 0
	ipcCreat   = 0o1000
	ipcExcl    = 0o2000
	ipcNowait  = 0o4000
	ipcRmid    = 0
	ipcSet     = 1
	ipcStat    = 2
	ipcInfo    = 3

	ipcSeqMult   = 32768 // ipc_mni's sequence multiplier
	ipcPermSize  = 48    // struct ipc64_perm (asm-generic, 64-bit)
	ipcPermsMask = 0o777
)

// ipcPerm is an IPC object's key, id, owner, creator and mode
// (kern_ipc_perm).
type ipcPerm struct {
	key                  int32
	id                   int32
	uid, gid, cuid, cgid uint32
	mode                 uint32 // permissions, and for a segment SHM_DEST, SHM_LOCKED
	seq                  uint16
}

func (p *ipcPerm) perm() *ipcPerm { return p }

// ipcObject is a segment, a semaphore set or a message queue.
type ipcObject interface {
	comparable
	perm() *ipcPerm
}

// ipcIDs are one kind's objects by index (ipc_ids).
type ipcIDs[T ipcObject] struct {
	objs []T      // the zero T: a free index
	seqs []uint16 // each index's next sequence number
	max  int      // how many it holds at most (SHMMNI, SEMMNI, MSGMNI)
}

// byKey returns the object of key (not IPC_PRIVATE), if any.
func (ids *ipcIDs[T]) byKey(key int32) (T, bool) {
	var none T
	for _, o := range ids.objs {
		if o != none && o.perm().key == key {
			return o, true
		}
	}
	return none, false
}

// byID returns the object of id (EINVAL: none, or its index reused).
func (ids *ipcIDs[T]) byID(id int32) (T, Errno) {
	var none T
	if id < 0 {
		return none, EINVAL
	}
	i := int(id % ipcSeqMult)
	if i >= len(ids.objs) || ids.objs[i] == none || ids.objs[i].perm().id != id {
		return none, EINVAL
	}
	return ids.objs[i], 0
}

// byIndex returns the object at index i (SHM_STAT, SEM_STAT, MSG_STAT).
func (ids *ipcIDs[T]) byIndex(i int32) (T, Errno) {
	var none T
	if i < 0 || int(i) >= len(ids.objs) || ids.objs[i] == none {
		return none, EINVAL
	}
	return ids.objs[i], 0
}

// add gives o the lowest free index and its id (ipc_addid), ENOSPC when
// every index is taken.
func (ids *ipcIDs[T]) add(o T) Errno {
	var none T
	i := slices.Index(ids.objs, none)
	if i < 0 {
		if len(ids.objs) == ids.max {
			return ENOSPC
		}
		i = len(ids.objs)
		ids.objs, ids.seqs = append(ids.objs, none), append(ids.seqs, 0)
	}
	p := o.perm()
	p.seq = ids.seqs[i]
	ids.seqs[i]++ // (wraps at 65536: ids stay below 2^31)
	p.id = int32(int(p.seq)*ipcSeqMult + i)
	ids.objs[i] = o
	return 0
}

// remove frees o's index.
func (ids *ipcIDs[T]) remove(o T) {
	var none T
	if i := int(o.perm().id % ipcSeqMult); i < len(ids.objs) && ids.objs[i] == o {
		ids.objs[i] = none
	}
}

// each calls fn with every object, by index.
func (ids *ipcIDs[T]) each(fn func(T)) {
	var none T
	for _, o := range ids.objs {
		if o != none {
			fn(o)
		}
	}
}

// inUse counts the objects.
func (ids *ipcIDs[T]) inUse() int {
	n := 0
	ids.each(func(T) { n++ })
	return n
}

// highest is the highest index in use (ipc_get_maxidx), 0 for none, as
// the IPC_INFO commands return it.
func (ids *ipcIDs[T]) highest() int32 {
	var none T
	for i := len(ids.objs) - 1; i >= 0; i-- {
		if ids.objs[i] != none {
			return int32(i)
		}
	}
	return 0
}

// sysvIPC is the run's IPC namespace.
type sysvIPC struct {
	shm ipcIDs[*shmSegment]
	sem ipcIDs[*semSet]
	msg ipcIDs[*msgQueue]
	mq  mqSpace // POSIX message queues (mqueue.go)
}

// sysv returns the run's namespace.
func (l *procList) sysv() *sysvIPC {
	if l.ipc == nil {
		l.ipc = &sysvIPC{shm: ipcIDs[*shmSegment]{max: shmMni}, sem: ipcIDs[*semSet]{max: semMni}, msg: ipcIDs[*msgQueue]{max: msgMni}}
	}
	return l.ipc
}

// ipcGet is ipcget: the id of key's object, or of a new one made by
// create (always for IPC_PRIVATE, else when there is none and IPC_CREAT
// asks for it). An existing object must pass check (more_checks) and
// allow the process the access flags' permission bits ask for.
func ipcGet[T ipcObject](k *Kernel, ids *ipcIDs[T], key int32, flags uint32, check func(T) Errno, create func(p ipcPerm) (T, Errno)) (uint64, Errno) {
	if key != ipcPrivate {
		if o, ok := ids.byKey(key); ok {
			if flags&(ipcCreat|ipcExcl) == ipcCreat|ipcExcl {
				return 0, EEXIST
			}
			if e := check(o); e != 0 {
				return 0, e
			}
			if !k.ipcAllowed(o.perm(), flags>>6&7) {
				return 0, EACCES
			}
			return uint64(o.perm().id), 0
		}
		if flags&ipcCreat == 0 {
			return 0, ENOENT
		}
	}
	c := &k.cred
	o, e := create(ipcPerm{key: key, uid: c.euid, gid: c.egid, cuid: c.euid, cgid: c.egid, mode: flags & ipcPermsMask})
	if e != 0 {
		return 0, e
	}
	if e := ids.add(o); e != 0 {
		return 0, e
	}
	return uint64(o.perm().id), 0
}

// ipcStatIndex is the *_STAT commands: the object at index i described
// at buf by encode, its id the result; *_STAT_ANY (anyone) needs no read
// permission.
func ipcStatIndex[T ipcObject](k *Kernel, ids *ipcIDs[T], i int32, anyone bool, buf uint64, encode func(T) []byte) (uint64, Errno) {
	o, e := ids.byIndex(i)
	if e != 0 {
		return 0, e
	}
	if !anyone && !k.ipcAllowed(o.perm(), rOK) {
		return 0, EACCES
	}
	return uint64(o.perm().id), k.writeMem(buf, encode(o))
}

// ipcAllowed is ipcperms: the owner's, group's or others' bits of p's
// mode for the process's effective ids, or any with CAP_IPC_OWNER.
func (k *Kernel) ipcAllowed(p *ipcPerm, want uint32) bool {
	c := &k.cred
	if c.capable(capIpcOwner) {
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
// of p (ipcctl_obtain_check: its owner, its creator or CAP_SYS_ADMIN).
func (k *Kernel) ipcOwner(p *ipcPerm) bool {
	return k.cred.capable(capSysAdmin) || k.ipcCreatorOrOwner(p)
}

// ipcCreatorOrOwner reports whether the effective uid is p's owner's or
// creator's.
func (k *Kernel) ipcCreatorOrOwner(p *ipcPerm) bool {
	return k.cred.euid == p.uid || k.cred.euid == p.cuid
}

// setPerm is ipc_update_perm: IPC_SET's owner, group and permission bits
// from the struct ipc64_perm at the start of b.
func (p *ipcPerm) setPerm(b []byte) {
	p.uid, p.gid = u32(b, 4), u32(b, 8)
	p.mode = p.mode&^ipcPermsMask | u32(b, 20)&ipcPermsMask
}

// putPerm encodes p as a struct ipc64_perm at the start of b.
func (p *ipcPerm) putPerm(b []byte) {
	put32(b, 0, uint32(p.key))
	put32(b, 4, p.uid)
	put32(b, 8, p.gid)
	put32(b, 12, p.cuid)
	put32(b, 16, p.cgid)
	put32(b, 20, p.mode)
	put16(b, 24, p.seq)
}

func (k *Kernel) realSeconds() int64 {
	now, _ := k.now(clockRealtime)
	return now / 1e9
}

// /proc/sysvipc's files (ipc/util.c's sysvipc_proc_show, and each
// kind's line).
func procSysvipcShm(k *Kernel) []byte {
	var b strings.Builder
	b.WriteString("       key      shmid perms                  size  cpid  lpid nattch   uid   gid  cuid  cgid      atime      dtime      ctime                   rss                  swap\n")
	k.all.sysv().shm.each(func(s *shmSegment) {
		fmt.Fprintf(&b, "%10d %10d  %4o %21d %5d %5d  %5d %5d %5d %5d %5d %10d %10d %10d %21d %21d\n",
			s.key, s.id, s.mode, s.size, s.cpid, s.lpid, k.all.attached(s), s.uid, s.gid, s.cuid, s.cgid,
			s.atime, s.dtime, s.ctime, s.resident()*PageSize, 0)
	})
	return []byte(b.String())
}

func procSysvipcSem(k *Kernel) []byte {
	var b strings.Builder
	b.WriteString("       key      semid perms      nsems   uid   gid  cuid  cgid      otime      ctime\n")
	k.all.sysv().sem.each(func(s *semSet) {
		fmt.Fprintf(&b, "%10d %10d  %4o %10d %5d %5d %5d %5d %10d %10d\n",
			s.key, s.id, s.mode, len(s.sems), s.uid, s.gid, s.cuid, s.cgid, s.otime, s.ctime)
	})
	return []byte(b.String())
}

func procSysvipcMsg(k *Kernel) []byte {
	var b strings.Builder
	b.WriteString("       key      msqid perms      cbytes       qnum lspid lrpid   uid   gid  cuid  cgid      stime      rtime      ctime\n")
	k.all.sysv().msg.each(func(q *msgQueue) {
		fmt.Fprintf(&b, "%10d %10d  %4o  %10d %10d %5d %5d %5d %5d %5d %5d %10d %10d %10d\n",
			q.key, q.id, q.mode, q.cbytes, len(q.msgs), q.lspid, q.lrpid, q.uid, q.gid, q.cuid, q.cgid,
			q.stime, q.rtime, q.ctime)
	})
	return []byte(b.String())
}
