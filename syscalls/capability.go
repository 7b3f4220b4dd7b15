package syscalls

// Capabilities (capabilities(7); security/commoncap.c, kernel/capability.c).
// Each process keeps the five sets; they start as rvsim's own process's
// (the host's: a root rvsim gives a root guest every capability, another
// none) and change as Linux changes them:
//   - the set*id calls (cap_emulate_setxuid): leaving uid 0 in all of
//     the real, effective and saved ids clears the permitted and effective
//     sets unless PR_SET_KEEPCAPS, and the ambient one; an effective uid
//     leaving 0 clears the effective set, one returning to 0 raises it to
//     the permitted one; the file-system uid moves the file-system
//     capabilities in the effective set;
//   - execve without file capabilities (set-user-ID bits are not honoured):
//     a root process gets the bounding and inheritable sets as permitted
//     (and effective if its effective uid is 0), any other its ambient set;
//   - capset, with cap_capset's rules, and prctl's PR_CAPBSET_DROP and
//     PR_CAP_AMBIENT.
// The privilege checks ask for the capability Linux asks for
// (creds.capable); capget and /proc/PID/status report the sets.

// Capability numbers (uapi/linux/capability.h).
const (
	capDacOverride    = 1
	capDacReadSearch  = 2
	capFowner         = 3
	capKill           = 5
	capSetgid         = 6
	capSetuid         = 7
	capSetpcap        = 8
	capNetAdmin       = 12
	capIpcLock        = 14
	capIpcOwner       = 15
	capSysChroot      = 18
	capSysPtrace      = 19
	capSysAdmin       = 21
	capSysNice        = 23
	capSysResource    = 24
	capSysTime        = 25
	capMknod          = 27
	capLinuxImmutable = 9
	capSyslog         = 34
	capLastCap        = 40 // CAP_CHECKPOINT_RESTORE
	capAll            = 1<<(capLastCap+1) - 1

	// capFSMask are the capabilities the file-system uid carries
	// (CAP_FS_MASK): chown, dac_override, dac_read_search, fowner,
	// fsetid, linux_immutable, mknod and mac_override.
	capFSMask = 1<<0 | 1<<capDacOverride | 1<<capDacReadSearch | 1<<capFowner | 1<<4 | 1<<capLinuxImmutable | 1<<capMknod | 1<<32
)

// capSets are a process's capability sets.
type capSets struct {
	eff, prm, inh, bnd, amb uint64
}

// capable reports whether the effective set holds cap.
func (c *creds) capable(cap int) bool { return c.caps.eff>>cap&1 != 0 }

// fixSetuid is cap_task_fix_setuid after a set*uid call changed old's
// ids to c's; fs says setfsuid (LSM_SETID_FS). SECBIT_NO_SETUID_FIXUP
// turns it off.
func (c *creds) fixSetuid(old creds, fs bool) {
	if old.secure&secNoSetuidFixup != 0 {
		return
	}
	if fs {
		switch {
		case old.fsuid == 0 && c.fsuid != 0:
			c.caps.eff &^= capFSMask
		case old.fsuid != 0 && c.fsuid == 0:
			c.caps.eff |= c.caps.prm & capFSMask
		}
		return
	}
	wasRoot := old.ruid == 0 || old.euid == 0 || old.suid == 0
	if wasRoot && c.ruid != 0 && c.euid != 0 && c.suid != 0 {
		if old.secure&secKeepCaps == 0 {
			c.caps.prm, c.caps.eff = 0, 0
		}
		c.caps.amb = 0
	}
	if old.euid == 0 && c.euid != 0 {
		c.caps.eff = 0
	}
	if old.euid != 0 && c.euid == 0 {
		c.caps.eff = c.caps.prm
	}
	// (the fsuid follows the euid in these calls: cap_emulate_setxuid
	// leaves the file-system bits to the effective set's change above)
}

// execCreds is cap_bprm_creds_from_file for a file without capabilities
// (set-user-ID bits are not honoured): root (a real or effective uid of
// 0) gets the bounding and inheritable sets, and its ambient set is kept;
// the effective set is the permitted one for an effective uid of 0, else
// the ambient set. The saved and file-system ids become the effective
// ones.
func (c *creds) execCreds() {
	c.suid, c.fsuid, c.sgid, c.fsgid = c.euid, c.euid, c.egid, c.egid
	c.secure &^= secKeepCaps
	s := &c.caps
	root := c.secure&secNoroot == 0 // (SECBIT_NOROOT: uid 0 is no one special)
	if root && (c.ruid == 0 || c.euid == 0) {
		s.prm = (s.bnd | s.inh | s.amb) & capAll
	} else {
		s.prm = s.amb
	}
	if root && c.euid == 0 {
		s.eff = s.prm
	} else {
		s.eff = s.amb
	}
}

// capHeader reads a capget/capset header: the version's number of 32-bit
// words and the pid. An unknown version is answered as
// cap_validate_magic answers it: the preferred version written back, and
// EINVAL.
func (k *Kernel) capHeader(hdr uint64) (words int, pid int32, e Errno) {
	b, e := k.readMem(hdr, 8)
	if e != 0 {
		return 0, 0, e
	}
	switch u32(b, 0) {
	case capVersion1:
		words = 1
	case capVersion2, capVersion3:
		words = 2
	default:
		var v [4]byte
		put32(v[:], 0, capVersion3)
		if e := k.writeMem(hdr, v[:]); e != 0 {
			return 0, 0, e
		}
		return 0, 0, EINVAL
	}
	return words, int32(u32(b, 4)), 0
}

// sysCapget reports a process's effective, permitted and inheritable
// sets: the caller's, another process of the run's, or one of its
// threads' (its process's).
func sysCapget(k *Kernel, a sysArgs) (uint64, Errno) {
	hdr, data := a.Ptr(0), a.Ptr(1)
	words, pid, e := k.capHeader(hdr)
	if data == 0 && (e == 0 || e == EINVAL) { // the version's probe: nothing else is checked
		return 0, 0
	}
	if e != 0 {
		return 0, e
	}
	if pid < 0 {
		return 0, EINVAL
	}
	p := k
	if pid != 0 {
		if p = k.taskProcess(pid); p == nil {
			return 0, ESRCH
		}
	}
	s := p.cred.caps
	out := make([]byte, 12*words)
	for w := range words {
		put32(out, 12*w, uint32(s.eff>>(32*w)))
		put32(out, 12*w+4, uint32(s.prm>>(32*w)))
		put32(out, 12*w+8, uint32(s.inh>>(32*w)))
	}
	return 0, k.writeMem(data, out)
}

// sysCapset sets the caller's sets (another process's: EPERM), by
// cap_capset's rules: the inheritable set within the old inheritable and
// permitted sets unless CAP_SETPCAP, and within the old inheritable and
// bounding sets; the permitted set within the old one; the effective
// within the new permitted one. The ambient set keeps what is both
// permitted and inheritable.
func sysCapset(k *Kernel, a sysArgs) (uint64, Errno) {
	hdr, data := a.Ptr(0), a.Ptr(1)
	words, pid, e := k.capHeader(hdr)
	if e != 0 {
		return 0, e
	}
	if pid != 0 && pid != k.currentTID() { // may only affect the caller
		return 0, EPERM
	}
	b, e := k.readMem(data, uint64(12*words))
	if e != 0 {
		return 0, e
	}
	var eff, prm, inh uint64
	for w := range words {
		eff |= uint64(u32(b, 12*w)) << (32 * w)
		prm |= uint64(u32(b, 12*w+4)) << (32 * w)
		inh |= uint64(u32(b, 12*w+8)) << (32 * w)
	}
	eff, prm, inh = eff&capAll, prm&capAll, inh&capAll
	old := k.cred.caps
	switch {
	case !k.cred.capable(capSetpcap) && inh&^(old.inh|old.prm) != 0,
		inh&^(old.inh|old.bnd) != 0,
		prm&^old.prm != 0,
		eff&^prm != 0:
		return 0, EPERM
	}
	k.cred.caps = capSets{eff: eff, prm: prm, inh: inh, bnd: old.bnd, amb: old.amb & prm & inh}
	return 0, 0
}

// prctl's capability options.
const (
	prGetKeepcaps   = 7
	prSetKeepcaps   = 8
	prCapbsetRead   = 23
	prCapbsetDrop   = 24
	prGetSecurebits = 27
	prSetSecurebits = 28
	prCapAmbient    = 47

	prCapAmbientIsSet    = 1
	prCapAmbientRaise    = 2
	prCapAmbientLower    = 3
	prCapAmbientClearAll = 4
)

// The securebits (uapi/linux/securebits.h): each bit has a lock bit
// above it.
const (
	secNoroot            = 1 << 0
	secNoSetuidFixup     = 1 << 2
	secKeepCaps          = 1 << 4
	secKeepCapsLocked    = 1 << 5
	secNoCapAmbientRaise = 1 << 6
	secAllBits           = 0x555 // the six bits up to SECBIT_EXEC_DENY_INTERACTIVE
	secAllLocks          = secAllBits << 1
)

// capPrctl answers prctl's capability options (ok false: not one), as
// cap_task_prctl does.
func (k *Kernel) capPrctl(a sysArgs) (r uint64, e Errno, ok bool) {
	c := &k.cred
	valid := func(cap uint64) bool { return cap <= capLastCap }
	switch a.Int(0) {
	case prGetSecurebits:
		return uint64(c.secure), 0, true
	case prSetSecurebits:
		old, bits := uint64(c.secure), a.Ptr(1)
		if (old&secAllLocks)>>1&(old^bits) != 0 || old&secAllLocks&^bits != 0 ||
			bits&^(secAllLocks|secAllBits) != 0 || !c.capable(capSetpcap) {
			return 0, EPERM, true // a locked bit, an unlock, an unknown bit, or no CAP_SETPCAP
		}
		c.secure = uint32(bits)
		return 0, 0, true
	case prGetKeepcaps:
		return uint64(b2u(c.secure&secKeepCaps != 0)), 0, true
	case prSetKeepcaps:
		if a.Ptr(1) > 1 {
			return 0, EINVAL, true
		}
		if c.secure&secKeepCapsLocked != 0 {
			return 0, EPERM, true
		}
		c.secure &^= secKeepCaps
		if a.Ptr(1) == 1 {
			c.secure |= secKeepCaps
		}
		return 0, 0, true
	case prCapbsetRead:
		if !valid(a.Ptr(1)) {
			return 0, EINVAL, true
		}
		return c.caps.bnd >> a.Ptr(1) & 1, 0, true
	case prCapbsetDrop:
		if !c.capable(capSetpcap) {
			return 0, EPERM, true
		}
		if !valid(a.Ptr(1)) {
			return 0, EINVAL, true
		}
		c.caps.bnd &^= 1 << a.Ptr(1)
		return 0, 0, true
	case prCapAmbient:
		if a.Ptr(1) == prCapAmbientClearAll {
			if a.Ptr(2)|a.Ptr(3)|a.Ptr(4) != 0 {
				return 0, EINVAL, true
			}
			c.caps.amb = 0
			return 0, 0, true
		}
		if !valid(a.Ptr(2)) || a.Ptr(3)|a.Ptr(4) != 0 {
			return 0, EINVAL, true
		}
		bit := uint64(1) << a.Ptr(2)
		switch a.Ptr(1) {
		case prCapAmbientIsSet:
			return uint64(b2u(c.caps.amb&bit != 0)), 0, true
		case prCapAmbientRaise:
			if c.caps.prm&bit == 0 || c.caps.inh&bit == 0 || c.secure&secNoCapAmbientRaise != 0 {
				return 0, EPERM, true
			}
			c.caps.amb |= bit
			return 0, 0, true
		case prCapAmbientLower:
			c.caps.amb &^= bit
			return 0, 0, true
		}
		return 0, EINVAL, true
	}
	return 0, 0, false
}
