package syscalls

import "fmt"

// mount(2) for the run's one mount, the root (fs/namespace.c). What can
// be asked of it is its propagation type, MS_SHARED, MS_PRIVATE,
// MS_SLAVE or MS_UNBINDABLE (with MS_REC: it has no submounts), which
// /proc/PID/mountinfo shows as its optional fields; new mounts, bind
// mounts, moves and remounts answer ENOSYS with a warning. Each mount
// namespace (the run's first, and one per unshare(CLONE_NEWNS) or clone
// with it: unshare.go) holds its own copy of the root mount, in its
// creator's peer group, as copy_tree makes it; so `unshare -m` (which
// makes its copy private) leaves the other processes' mount shared.

// mount flags (uapi/linux/mount.h).
const (
	msRemount    = 1 << 5
	msBind       = 1 << 12
	msMove       = 1 << 13
	msRec        = 1 << 14
	msSilent     = 1 << 15
	msUnbindable = 1 << 17
	msPrivate    = 1 << 18
	msSlave      = 1 << 19
	msShared     = 1 << 20
	msNouser     = 1 << 31
	msMgcMsk     = 0xffff0000
	msMgcVal     = 0xc0ed0000
)

// mountNS is a mount namespace's copy of the root mount.
type mountNS struct {
	id             int // the mount's id in mountinfo
	shared, master int // its peer group and its master's (0: none)
	unbindable     bool
}

// mounts is the run's mount namespaces and their numbering.
type mounts struct {
	all       []*mountNS // [0] is the run's first
	nextGroup int
	nextID    int
}

// mountNS returns the process's mount namespace (the run's first until
// it makes one of its own).
func (k *Kernel) mountNS() *mountNS {
	if k.mnt == nil {
		if k.all.mounts == nil {
			k.all.mounts = &mounts{all: []*mountNS{{id: 21, shared: 1}}, nextGroup: 2, nextID: 22}
		}
		k.mnt = k.all.mounts.all[0]
	}
	return k.mnt
}

// newMountNS gives the process a copy of its mount namespace
// (copy_mnt_ns): a new mount in the same peer group, a slave of the same
// master.
func (k *Kernel) newMountNS() {
	old := *k.mountNS()
	m := k.all.mounts
	old.id, m.nextID = m.nextID, m.nextID+1
	k.mnt = &old
	m.all = append(m.all, k.mnt)
}

// peers reports whether another namespace's mount is in n's peer group.
func (m *mounts) peers(n *mountNS) bool {
	for _, o := range m.all {
		if o != n && o.shared != 0 && o.shared == n.shared {
			return true
		}
	}
	return false
}

// optional is mountinfo's optional fields for the mount.
func (n *mountNS) optional() string {
	s := ""
	if n.shared != 0 {
		s += fmt.Sprintf(" shared:%d", n.shared)
	}
	if n.master != 0 {
		s += fmt.Sprintf(" master:%d", n.master)
	}
	if n.unbindable {
		s += " unbindable"
	}
	return s
}

func sysMount(k *Kernel, a sysArgs) (uint64, Errno) {
	flags := a.Ptr(3)
	for _, s := range []uint64{a.Ptr(0), a.Ptr(2)} { // copy_mount_string: the source and the type
		if s != 0 {
			if _, e := k.readPath(s); e != 0 && e != ENAMETOOLONG {
				return 0, e
			}
		}
	}
	p, e := k.readPath(a.Ptr(1))
	if e != 0 {
		return 0, e
	}
	l, e := k.resolveExisting(atFDCWD, p, true)
	if e != 0 {
		return 0, e
	}
	root := k.isRootDir(l)
	l.close()
	if flags&msMgcMsk == msMgcVal {
		flags &^= msMgcMsk
	}
	switch {
	case flags&msNouser != 0:
		return 0, EINVAL
	case !k.cred.capable(capSysAdmin): // may_mount
		return 0, EPERM
	case flags&(msRemount|msBind|msMove) != 0 || flags&(msShared|msPrivate|msSlave|msUnbindable) == 0:
		return k.unsupported(40, "the run has one mount, the root: only its propagation type (MS_SHARED, MS_PRIVATE, MS_SLAVE, MS_UNBINDABLE) can change")
	}
	// do_change_type: the mount's root, one propagation type.
	typ := flags &^ (msRec | msSilent)
	if !root || typ&^(msShared|msPrivate|msSlave|msUnbindable) != 0 || typ&(typ-1) != 0 {
		return 0, EINVAL
	}
	n, m := k.mountNS(), k.all.mounts
	switch typ {
	case msShared: // a new peer group, unless it is in one
		if n.shared == 0 {
			n.shared, m.nextGroup = m.nextGroup, m.nextGroup+1
		}
		n.unbindable = false
	case msSlave: // a slave of its peers (do_make_slave); without peers, of its master
		if n.shared != 0 && m.peers(n) {
			n.master = n.shared
		}
		n.shared, n.unbindable = 0, false
	case msPrivate:
		n.shared, n.master, n.unbindable = 0, 0, false
	case msUnbindable:
		n.shared, n.master, n.unbindable = 0, 0, true
	}
	return 0, 0
}
