package syscalls

import "os"

// Credentials (credentials(7)). A process's user and group ids start as
// rvsim's own (the host's) and the set*id calls change them by Linux's
// rules (kernel/sys.c): a process with CAP_SETUID (CAP_SETGID) may set
// any id, any other only among its real, effective and saved ids; the
// file-system id follows the effective one. The uid calls move the
// capability sets as Linux does (capability.go). A forked child inherits
// them; exec keeps them but for the saved ids, which become the effective
// ones (set-user-ID programs are not honoured: the bits are not set on
// host files). They are what the get*id calls, /proc/self/status, the
// auxiliary vector and a signal's si_uid report; the host file system
// still checks rvsim's own rights, so a guest that gave up root reads
// what rvsim can.
type creds struct {
	ruid, euid, suid, fsuid uint32
	rgid, egid, sgid, fsgid uint32
	groups                  []uint32 // supplementary groups (setgroups)
	caps                    capSets  // capability.go
	secure                  uint32   // securebits (SECBIT_*)
}

// ownNew gives the entry l just made the owner Linux gives a new inode
// (inode_init_owner): the creating process's file-system user and group
// ids, or the directory's group when it is set-group-ID. The host made
// it rvsim's own; only rvsim running as root can change that, and only
// then can a guest's ids differ from rvsim's (a root guest that set
// other ids, as PostgreSQL's initdb must run: it checks that its data
// directory is its own).
func (k *Kernel) ownNew(l *lookup) {
	hu, hg := uint32(os.Geteuid()), uint32(os.Getegid())
	uid, gid := int(k.cred.fsuid), int(k.cred.fsgid)
	if uint32(uid) == hu {
		uid = -1
	}
	if uint32(gid) == hg || setgidDir(l) {
		gid = -1
	}
	if hu == 0 && l.parent != nil && (uid >= 0 || gid >= 0) {
		ownIn(l, uid, gid)
	}
}

// ngroupsMax is NGROUPS_MAX.
const ngroupsMax = 65536

// hostCreds are rvsim's own ids and capability sets, a process's at the
// start.
func hostCreds() creds {
	u, eu, g, eg := uint32(os.Getuid()), uint32(os.Geteuid()), uint32(os.Getgid()), uint32(os.Getegid())
	return creds{ruid: u, euid: eu, suid: eu, fsuid: eu, rgid: g, egid: eg, sgid: eg, fsgid: eg, caps: hostCapSets()}
}

// clone is a copy for a forked child.
func (c creds) clone() creds {
	c.groups = append([]uint32(nil), c.groups...)
	return c
}

// unset is the -1 of the set*id calls: leave that id as it is.
const unset = ^uint32(0)

// among reports whether id is one of the process's ids (or unset).
func among(id uint32, ids ...uint32) bool {
	if id == unset {
		return true
	}
	for _, v := range ids {
		if v == id {
			return true
		}
	}
	return false
}

// setres sets the real, effective and saved ids r, e, s (unset: kept),
// as setresuid and setresgid do; fs follows the effective one.
func setres(r, e, s uint32, real, eff, saved, fs *uint32, privileged bool) Errno {
	if !privileged && !(among(r, *real, *eff, *saved) && among(e, *real, *eff, *saved) && among(s, *real, *eff, *saved)) {
		return EPERM
	}
	if r != unset {
		*real = r
	}
	if e != unset {
		*eff = e
	}
	if s != unset {
		*saved = s
	}
	*fs = *eff
	return 0
}

// setre is setreuid and setregid: the saved id becomes the new effective
// one when the real id is set, or the effective one set to other than the
// old real id.
func setre(r, e uint32, real, eff, saved, fs *uint32, privileged bool) Errno {
	if !privileged && !(among(r, *real, *eff) && among(e, *real, *eff, *saved)) {
		return EPERM
	}
	oldReal := *real
	if r != unset {
		*real = r
	}
	if e != unset {
		*eff = e
	}
	if r != unset || (e != unset && e != oldReal) {
		*saved = *eff
	}
	*fs = *eff
	return 0
}

// set is setuid and setgid: a privileged process sets all three ids,
// another only its effective id, to its real or saved one.
func set(id uint32, real, eff, saved, fs *uint32, privileged bool) Errno {
	switch {
	case id == unset:
		return EINVAL
	case privileged:
		*real, *saved = id, id
	case id != *real && id != *saved:
		return EPERM
	}
	*eff, *fs = id, id
	return 0
}

// setfs is setfsuid and setfsgid: the old id is returned, whether or not
// the change is allowed (the caller sees no error).
func setfs(id uint32, real, eff, saved, fs *uint32, privileged bool) uint64 {
	old := *fs
	if id != unset && (privileged || among(id, *real, *eff, *saved, *fs)) {
		*fs = id
	}
	return uint64(old)
}

func sysGetuid(k *Kernel, a sysArgs) (uint64, Errno)  { return uint64(k.cred.ruid), 0 }
func sysGeteuid(k *Kernel, a sysArgs) (uint64, Errno) { return uint64(k.cred.euid), 0 }
func sysGetgid(k *Kernel, a sysArgs) (uint64, Errno)  { return uint64(k.cred.rgid), 0 }
func sysGetegid(k *Kernel, a sysArgs) (uint64, Errno) { return uint64(k.cred.egid), 0 }

func sysGetresuid(k *Kernel, a sysArgs) (uint64, Errno) {
	return 0, k.putIDs(a, k.cred.ruid, k.cred.euid, k.cred.suid)
}

func sysGetresgid(k *Kernel, a sysArgs) (uint64, Errno) {
	return 0, k.putIDs(a, k.cred.rgid, k.cred.egid, k.cred.sgid)
}

func (k *Kernel) putIDs(a sysArgs, ids ...uint32) Errno {
	for i, v := range ids {
		if e := k.writeU32(a.Ptr(i), v); e != 0 {
			return e
		}
	}
	return 0
}

// setUIDs runs a set*uid call (change, given CAP_SETUID) and then
// cap_task_fix_setuid on its result; fs says setfsuid.
func (k *Kernel) setUIDs(fs bool, change func(c *creds, privileged bool) Errno) Errno {
	old := k.cred
	if e := change(&k.cred, k.cred.capable(capSetuid)); e != 0 {
		return e
	}
	k.cred.fixSetuid(old, fs)
	return 0
}

func sysSetuid(k *Kernel, a sysArgs) (uint64, Errno) {
	return 0, k.setUIDs(false, func(c *creds, p bool) Errno { return set(a.Uint(0), &c.ruid, &c.euid, &c.suid, &c.fsuid, p) })
}

func sysSetgid(k *Kernel, a sysArgs) (uint64, Errno) {
	c := &k.cred
	return 0, set(a.Uint(0), &c.rgid, &c.egid, &c.sgid, &c.fsgid, c.capable(capSetgid))
}

func sysSetreuid(k *Kernel, a sysArgs) (uint64, Errno) {
	return 0, k.setUIDs(false, func(c *creds, p bool) Errno {
		return setre(a.Uint(0), a.Uint(1), &c.ruid, &c.euid, &c.suid, &c.fsuid, p)
	})
}

func sysSetregid(k *Kernel, a sysArgs) (uint64, Errno) {
	c := &k.cred
	return 0, setre(a.Uint(0), a.Uint(1), &c.rgid, &c.egid, &c.sgid, &c.fsgid, c.capable(capSetgid))
}

func sysSetresuid(k *Kernel, a sysArgs) (uint64, Errno) {
	return 0, k.setUIDs(false, func(c *creds, p bool) Errno {
		return setres(a.Uint(0), a.Uint(1), a.Uint(2), &c.ruid, &c.euid, &c.suid, &c.fsuid, p)
	})
}

func sysSetresgid(k *Kernel, a sysArgs) (uint64, Errno) {
	c := &k.cred
	return 0, setres(a.Uint(0), a.Uint(1), a.Uint(2), &c.rgid, &c.egid, &c.sgid, &c.fsgid, c.capable(capSetgid))
}

func sysSetfsuid(k *Kernel, a sysArgs) (uint64, Errno) {
	var old uint64
	k.setUIDs(true, func(c *creds, p bool) Errno {
		old = setfs(a.Uint(0), &c.ruid, &c.euid, &c.suid, &c.fsuid, p)
		return 0
	})
	return old, 0
}

func sysSetfsgid(k *Kernel, a sysArgs) (uint64, Errno) {
	c := &k.cred
	return setfs(a.Uint(0), &c.rgid, &c.egid, &c.sgid, &c.fsgid, c.capable(capSetgid)), 0
}

// sysGetgroups returns the supplementary groups: their number for a size
// of 0, EINVAL for a smaller array.
func sysGetgroups(k *Kernel, a sysArgs) (uint64, Errno) {
	size, list := a.Int(0), a.Ptr(1)
	n := len(k.cred.groups)
	switch {
	case size < 0:
		return 0, EINVAL
	case size == 0:
		return uint64(n), 0
	case int(size) < n:
		return 0, EINVAL
	}
	for i, g := range k.cred.groups {
		if e := k.writeU32(list+uint64(4*i), g); e != 0 {
			return 0, e
		}
	}
	return uint64(n), 0
}

// sysSetgroups sets the supplementary groups (CAP_SETGID only).
func sysSetgroups(k *Kernel, a sysArgs) (uint64, Errno) {
	size, list := a.Int(0), a.Ptr(1)
	if size < 0 || size > ngroupsMax {
		return 0, EINVAL
	}
	if !k.cred.capable(capSetgid) {
		return 0, EPERM
	}
	b, e := k.readMem(list, uint64(size)*4)
	if e != 0 {
		return 0, e
	}
	groups := make([]uint32, size)
	for i := range groups {
		groups[i] = u32(b, 4*i)
	}
	k.cred.groups = groups
	return 0, 0
}

// sameOwner reports whether the caller's effective uid is process p's
// real or effective one (check_same_owner, set_one_prio_perm): who may
// change p's scheduling and nice value without CAP_SYS_NICE.
func (k *Kernel) sameOwner(p *Kernel) bool {
	return k.cred.euid == p.cred.ruid || k.cred.euid == p.cred.euid
}
