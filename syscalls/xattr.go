package syscalls

import (
	"errors"
	"strings"

	"github.com/rvsim/rvsim/mem"
)

// Extended attributes (fs/xattr.c). The guest's file system keeps none:
// every file's list is empty, a get or remove of a name in a namespace
// Linux knows finds nothing (ENODATA, as on ext4 for a file without
// attributes, so ls, cp -a and python's shutil.copystat carry on quietly),
// other names fail as there (xattrAbsent), and a set is
// EOPNOTSUPP: the sandbox stores nothing beside the file, and EOPNOTSUPP
// is what setfattr, cp --preserve=xattr and rsync -X know as "this file
// system has no extended attributes". The path or descriptor is checked
// first exactly as stat checks it.

const (
	xattrNameMax = 255   // XATTR_NAME_MAX
	xattrSizeMax = 65536 // XATTR_SIZE_MAX
	xattrCreate  = 1     // XATTR_CREATE
	xattrReplace = 2     // XATTR_REPLACE
)

// xattrAbsent is what a get of name finds on a file without attributes,
// as ext4 answers (xattr_resolve_name): ENODATA in the user, trusted and
// security namespaces and for system's two ACLs, EINVAL for a bare
// namespace prefix, EOPNOTSUPP for any other name.
func xattrAbsent(name string) Errno {
	for _, p := range [...]string{"user.", "trusted.", "security."} {
		if rest, ok := strings.CutPrefix(name, p); ok {
			if rest == "" {
				return EINVAL
			}
			return ENODATA
		}
	}
	if xattrACL(name) {
		return ENODATA
	}
	return EOPNOTSUPP
}

// xattrACL reports whether name is one of the POSIX ACLs.
func xattrACL(name string) bool {
	return name == "system.posix_acl_access" || name == "system.posix_acl_default"
}

// xattrName reads an attribute name: EFAULT, or ERANGE when it is empty
// or longer than XATTR_NAME_MAX (strncpy_from_user into a 256-byte buffer).
func (k *Kernel) xattrName(addr uint64) (string, Errno) {
	s, err := k.mem.ReadCString(addr, xattrNameMax+1)
	if err != nil {
		var f *mem.Fault
		if errors.As(err, &f) {
			return "", EFAULT
		}
		return "", ERANGE
	}
	if s == "" {
		return "", ERANGE
	}
	return s, 0
}

// xattrTarget checks the file a call names as stat would: by path from the
// cwd (following a final symbolic link unless nofollow), or by descriptor.
// Linux's f*xattr calls take no O_PATH descriptor.
func (k *Kernel) xattrTarget(a sysArgs, byFD, nofollow bool) Errno {
	if byFD {
		of, e := k.file(a.Int(0))
		if e == 0 && of.flags&oPath != 0 {
			e = EBADF
		}
		return e
	}
	p, e := k.readPath(a.Ptr(0))
	if e != 0 {
		return e
	}
	var flags uint32
	if nofollow {
		flags = atSymlinkNofollow
	}
	_, e = k.statAt(atFDCWD, p, flags)
	return e
}

func (k *Kernel) getxattr(a sysArgs, byFD, nofollow bool) (uint64, Errno) {
	if e := k.xattrTarget(a, byFD, nofollow); e != 0 {
		return 0, e
	}
	name, e := k.xattrName(a.Ptr(1))
	if e != 0 {
		return 0, e
	}
	return 0, xattrAbsent(name)
}

func (k *Kernel) listxattr(a sysArgs, byFD, nofollow bool) (uint64, Errno) {
	return 0, k.xattrTarget(a, byFD, nofollow) // an empty list
}

func (k *Kernel) setxattr(a sysArgs, byFD, nofollow bool) (uint64, Errno) {
	// setxattr_copy checks the arguments before the lookup.
	if a.Uint(4)&^(xattrCreate|xattrReplace) != 0 {
		return 0, EINVAL
	}
	if _, e := k.xattrName(a.Ptr(1)); e != 0 {
		return 0, e
	}
	size := a.Ptr(3)
	if size > xattrSizeMax {
		return 0, E2BIG
	}
	if size > 0 {
		if _, e := k.readMem(a.Ptr(2), size); e != 0 {
			return 0, e
		}
	}
	if e := k.xattrTarget(a, byFD, nofollow); e != 0 {
		return 0, e
	}
	return 0, EOPNOTSUPP
}

// removexattr finds nothing to remove; removing an ACL the file does not
// have succeeds, as on ext4 (set_posix_acl with none).
func (k *Kernel) removexattr(a sysArgs, byFD, nofollow bool) (uint64, Errno) {
	name, e := k.xattrName(a.Ptr(1)) // read before the lookup, as Linux does
	if e != 0 {
		return 0, e
	}
	if e := k.xattrTarget(a, byFD, nofollow); e != 0 {
		return 0, e
	}
	if xattrACL(name) {
		return 0, 0
	}
	return 0, xattrAbsent(name)
}

func sysSetxattr(k *Kernel, a sysArgs) (uint64, Errno)     { return k.setxattr(a, false, false) }
func sysLsetxattr(k *Kernel, a sysArgs) (uint64, Errno)    { return k.setxattr(a, false, true) }
func sysFsetxattr(k *Kernel, a sysArgs) (uint64, Errno)    { return k.setxattr(a, true, false) }
func sysGetxattr(k *Kernel, a sysArgs) (uint64, Errno)     { return k.getxattr(a, false, false) }
func sysLgetxattr(k *Kernel, a sysArgs) (uint64, Errno)    { return k.getxattr(a, false, true) }
func sysFgetxattr(k *Kernel, a sysArgs) (uint64, Errno)    { return k.getxattr(a, true, false) }
func sysListxattr(k *Kernel, a sysArgs) (uint64, Errno)    { return k.listxattr(a, false, false) }
func sysLlistxattr(k *Kernel, a sysArgs) (uint64, Errno)   { return k.listxattr(a, false, true) }
func sysFlistxattr(k *Kernel, a sysArgs) (uint64, Errno)   { return k.listxattr(a, true, false) }
func sysRemovexattr(k *Kernel, a sysArgs) (uint64, Errno)  { return k.removexattr(a, false, false) }
func sysLremovexattr(k *Kernel, a sysArgs) (uint64, Errno) { return k.removexattr(a, false, true) }
func sysFremovexattr(k *Kernel, a sysArgs) (uint64, Errno) { return k.removexattr(a, true, false) }
