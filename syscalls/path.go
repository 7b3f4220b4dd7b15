package syscalls

import (
	"io"
	"io/fs"
	"math"
	"os"
	"sort"
	"strings"
)

// Directory and path system calls: getdents64, getcwd, chdir, readlinkat,
// faccessat, and the sandboxed modifications (mkdirat, symlinkat, unlinkat,
// renameat2, truncate, chmod).

// --- directories --------------------------------------------------------------

// dirent is one directory entry of a getdents64 snapshot.
type dirent struct {
	ino  uint64
	typ  uint8
	name string
}

// d_type values.
const (
	dtUnknown = 0
	dtFifo    = 1
	dtChr     = 2
	dtDir     = 4
	dtBlk     = 6
	dtReg     = 8
	dtLnk     = 10
	dtSock    = 12
)

func direntType(m fs.FileMode) uint8 {
	switch {
	case m.IsDir():
		return dtDir
	case m&fs.ModeSymlink != 0:
		return dtLnk
	case m&fs.ModeNamedPipe != 0:
		return dtFifo
	case m&fs.ModeSocket != 0:
		return dtSock
	case m&fs.ModeCharDevice != 0:
		return dtChr
	case m&fs.ModeDevice != 0:
		return dtBlk
	case m.IsRegular():
		return dtReg
	}
	return dtUnknown
}

// snapshot lists directory of: ".", "..", then the entries sorted by name
// (sorted so that runs are reproducible across hosts and file systems).
func (k *Kernel) snapshot(of *openFile) Errno {
	if of.proc {
		of.dir = k.procView(of.guest).procDirListing(of.guest)
		return 0
	}
	if _, err := of.f.Seek(0, io.SeekStart); err != nil {
		return errnoOf(err)
	}
	ents, err := of.f.ReadDir(-1)
	if err != nil {
		return errnoOf(err)
	}
	sort.Slice(ents, func(i, j int) bool { return ents[i].Name() < ents[j].Name() })
	self, e := borrow(of.f)
	if e != 0 {
		return e
	}
	of.dir = []dirent{{k.guestIno(self.id()), dtDir, "."}, {k.guestIno(k.parentID(self)), dtDir, ".."}}
	for _, d := range ents {
		id := idAt(self, d.Name()) // by name in the held directory (0 if it went away)
		of.dir = append(of.dir, dirent{k.guestIno(id), direntType(d.Type()), d.Name()})
	}
	if of.guest == "/proc" {
		of.dir = k.procListing(of.dir)
	}
	return 0
}

func sysGetdents64(k *Kernel, a sysArgs) (uint64, Errno) {
	of, e := k.file(a.Int(0))
	if e != 0 {
		return 0, e
	}
	if of.kind != kindHost || !of.isDir {
		return 0, ENOTDIR
	}
	if of.dir == nil {
		if e := k.snapshot(of); e != 0 {
			return 0, e
		}
	}
	addr, count := a.Ptr(1), a.Ptr(2)
	var out []byte
	for of.dirPos < len(of.dir) {
		d := of.dir[of.dirPos]
		reclen := (direntNameOff + len(d.name) + 1 + 7) &^ 7
		if uint64(len(out)+reclen) > count {
			if len(out) == 0 {
				return 0, EINVAL
			}
			break
		}
		rec := make([]byte, reclen)
		put64(rec, direntInoOff, d.ino)
		put64(rec, direntOffOff, uint64(of.dirPos+1))
		put16(rec, direntReclenOff, uint16(reclen))
		rec[direntTypeOff] = d.typ
		copy(rec[direntNameOff:], d.name)
		out = append(out, rec...)
		of.dirPos++
	}
	if e := k.writeMem(addr, out); e != 0 {
		return 0, e
	}
	k.notifyFile(of, inAccess)
	return uint64(len(out)), 0
}

// --- paths ----------------------------------------------------------------------

// sysGetcwd reports the working directory's path now: it is a directory,
// not a name, and may have been renamed since chdir.
func sysGetcwd(k *Kernel, a sysArgs) (uint64, Errno) {
	b := append([]byte(k.cwdPath()), 0)
	if uint64(len(b)) > a.Ptr(1) {
		return 0, ERANGE
	}
	if e := k.writeMem(a.Ptr(0), b); e != 0 {
		return 0, e
	}
	return uint64(len(b)), 0
}

func sysChdir(k *Kernel, a sysArgs) (uint64, Errno) {
	l, e := k.dirToEnter(a.Ptr(0))
	if e != 0 {
		return 0, e
	}
	defer l.close()
	k.setCwd(l.take(l.obj), l.guest)
	return 0, 0
}

// sysChroot changes the process's root directory (ksys_chroot in
// fs/open.c): the path is taken as chdir takes it, and the caller needs
// CAP_SYS_CHROOT (EPERM). The working directory stays where it is, also
// outside the new root, as on Linux. Threads share the root (CLONE_FS);
// fork copies it. The run's /proc, /dev files and sandbox stay as they
// were, as if the new root had them mounted.
func sysChroot(k *Kernel, a sysArgs) (uint64, Errno) {
	l, e := k.dirToEnter(a.Ptr(0))
	if e != 0 {
		return 0, e
	}
	defer l.close()
	if !k.cred.capable(capSysChroot) {
		return 0, EPERM
	}
	return 0, k.setRoot(l.take(l.obj))
}

// dirToEnter looks up the path at ptr for chdir or chroot: an existing
// directory (ENOTDIR), followed, that the caller may search (EACCES:
// MAY_EXEC|MAY_CHDIR). The caller closes the result.
func (k *Kernel) dirToEnter(ptr uint64) (*lookup, Errno) {
	p, e := k.readPath(ptr)
	if e != 0 {
		return nil, e
	}
	l, e := k.resolveExisting(atFDCWD, p, true)
	switch {
	case e != 0:
		return nil, e
	case !l.obj.isDir():
		e = ENOTDIR
	case accessNode(l.obj, xOK, atEaccess) != nil:
		e = EACCES
	}
	if e != 0 {
		l.close()
		return nil, e
	}
	return l, 0
}

// setCwd makes directory n (owned by the kernel from now on) the working
// directory.
func (k *Kernel) setCwd(n *node, guest string) {
	k.cwdN.close()
	k.cwdN, k.cwd = n, guest
}

func sysFchdir(k *Kernel, a sysArgs) (uint64, Errno) {
	of, e := k.file(a.Int(0))
	if e != 0 {
		return 0, e
	}
	if of.kind != kindHost || !of.isDir || of.f == nil {
		return 0, ENOTDIR
	}
	if of.proc {
		return 0, EACCES // (a generated /proc directory: no host directory behind it)
	}
	b, e := borrow(of.f)
	if e != 0 {
		return 0, e
	}
	n, err := dupNode(b)
	if err != nil {
		return 0, errnoOf(err)
	}
	k.setCwd(n, k.guestPathOf(n, of.guest))
	return 0, 0
}

func sysReadlinkat(k *Kernel, a sysArgs) (uint64, Errno) {
	p, e := k.readPath(a.Ptr(1))
	if e != 0 {
		return 0, e
	}
	buf, size := a.Ptr(2), a.Int(3)
	if size <= 0 {
		return 0, EINVAL
	}
	target, e := k.readlink(a.Int(0), p)
	if e != 0 {
		return 0, e
	}
	b := []byte(target)
	if len(b) > int(size) {
		b = b[:size]
	}
	if e := k.writeMem(buf, b); e != 0 {
		return 0, e
	}
	return uint64(len(b)), 0
}

func (k *Kernel) readlink(dirfd int32, p string) (string, Errno) {
	if p == "" {
		return "", ENOENT
	}
	dirfd, p = k.procThrough(dirfd, p)
	g, e := k.lexical(dirfd, p)
	if e != 0 {
		return "", e
	}
	if _, ok, gone := systemFile(g, k); ok || gone {
		if gone {
			return "", ENOENT
		}
		return "", EINVAL
	}
	if t, ok := k.procSelfLink(g); ok {
		return t, 0
	}
	pk := k.procView(g)
	if pk.procDirOf(g) != procNoDir {
		return "", EINVAL
	}
	if rest, ok := pk.procRest(g); ok {
		if g == "/proc/mounts" {
			return "self/mounts", 0
		}
		if k.procPrivate(pk, rest) {
			return "", EACCES
		}
		if t, _, e, ok := pk.procLink(k, rest); ok {
			return t, e
		}
		if _, ok := pk.procGen(rest); ok {
			return "", EINVAL
		}
		return "", ENOENT
	}
	if _, ok := devFiles[g]; ok {
		return "", EINVAL
	}
	l, e := k.resolveExisting(dirfd, p, false)
	if e != 0 {
		return "", e
	}
	defer l.close()
	if !l.obj.isLink() {
		return "", EINVAL
	}
	t, err := readlinkNode(l.obj)
	if err != nil {
		return "", errnoOf(err)
	}
	return t, 0
}

func sysFaccessat(k *Kernel, a sysArgs) (uint64, Errno) {
	return k.access(a, 0)
}

func sysFaccessat2(k *Kernel, a sysArgs) (uint64, Errno) {
	return k.access(a, a.Uint(3))
}

// access modes
const (
	xOK = 1
	wOK = 2
	rOK = 4
)

func (k *Kernel) access(a sysArgs, flags uint32) (uint64, Errno) {
	mode := a.Uint(2)
	if mode&^7 != 0 || flags&^(atEaccess|atSymlinkNofollow|atEmptyPath) != 0 {
		return 0, EINVAL
	}
	p, e := k.readPath(a.Ptr(1))
	if e != 0 {
		return 0, e
	}
	dirfd := a.Int(0)
	if p == "" {
		if flags&atEmptyPath == 0 {
			return 0, ENOENT
		}
		g, e := k.baseDir(dirfd)
		if e != 0 {
			return 0, e
		}
		p = g
	}
	dirfd, p = k.procThrough(dirfd, p)
	g, e := k.lexical(dirfd, p)
	if e != 0 {
		return 0, e
	}
	if _, ok := devFiles[g]; ok {
		if mode&xOK != 0 {
			return 0, EACCES
		}
		return 0, 0
	}
	if _, ok, gone := systemFile(g, k); ok || gone {
		switch {
		case gone:
			return 0, ENOENT
		case mode&(wOK|xOK) != 0:
			return 0, EACCES
		}
		return 0, 0
	}
	pk := k.procView(g)
	if pk.procDirOf(g) != procNoDir {
		if mode&wOK != 0 {
			return 0, EACCES
		}
		return 0, 0
	}
	if rest, ok := pk.procRest(g); ok {
		if _, ok := pk.procGen(rest); ok {
			if mode&xOK != 0 || mode&wOK != 0 && (!procWritable(rest) || pk != k) || k.procPrivate(pk, rest) {
				return 0, EACCES
			}
			return 0, 0
		}
		if k.procPrivate(pk, rest) {
			return 0, EACCES
		}
		t, e := pk.procFollow(k, rest)
		if e != 0 {
			return 0, e
		}
		if flags&atSymlinkNofollow != 0 {
			return 0, 0 // a link's own permissions are rwxrwxrwx
		}
		dirfd, p = atFDCWD, t
	}
	l, e := k.resolveExisting(dirfd, p, flags&atSymlinkNofollow == 0)
	if e != 0 {
		return 0, e
	}
	defer l.close()
	if mode&wOK != 0 && !k.objWritable(l) {
		return 0, EACCES
	}
	if l.obj.isLink() {
		return 0, 0 // AT_SYMLINK_NOFOLLOW: a link's own permissions are rwxrwxrwx
	}
	return 0, errnoOf(accessNode(l.obj, mode, flags))
}

// --- modifications -------------------------------------------------------------

// newEntry resolves the path at ptr, relative to dirfd, for a new
// directory entry: it must not exist, and the sandbox must allow writing
// its directory. The caller closes the result.
func (k *Kernel) newEntry(dirfd int32, ptr uint64) (*lookup, Errno) {
	p, e := k.readPath(ptr)
	if e != 0 {
		return nil, e
	}
	return k.newEntryAt(dirfd, p)
}

// newEntryAt is newEntry for the path p.
func (k *Kernel) newEntryAt(dirfd int32, p string) (*lookup, Errno) {
	l, e := k.resolve(dirfd, p, false)
	if e != 0 {
		return nil, e
	}
	if l.obj != nil {
		l.close()
		return nil, EEXIST
	}
	if e := k.checkWrite(l); e != 0 {
		l.close()
		return nil, e
	}
	return l, 0
}

func sysMkdirat(k *Kernel, a sysArgs) (uint64, Errno) {
	l, e := k.newEntry(a.Int(0), a.Ptr(1))
	if e != 0 {
		return 0, e
	}
	defer l.close()
	if err := mkdirIn(l, a.Uint(2)&^k.umask&(0o777|sISVTX)); err != nil {
		return 0, errnoOf(err)
	}
	k.ownNew(l)
	k.notifyCreated(l, true)
	return 0, 0
}

// sysMknodat makes a regular file, a FIFO or a socket inode (may_mknod,
// vfs_mknod). Device nodes are EPERM, as for a process without
// CAP_MKNOD, whoever runs rvsim: a device node in the root would open a
// host device.
func sysMknodat(k *Kernel, a sysArgs) (uint64, Errno) {
	mode := a.Uint(2)
	switch mode & sIFMT {
	case 0, sIFREG, sIFIFO, sIFSOCK, sIFCHR, sIFBLK:
	case sIFDIR:
		return 0, EPERM
	default:
		return 0, EINVAL
	}
	l, e := k.newEntry(a.Int(0), a.Ptr(1))
	if e != 0 {
		return 0, e
	}
	defer l.close()
	if t := mode & sIFMT; t == sIFCHR || t == sIFBLK {
		return 0, EPERM
	}
	if mode&sIFMT == 0 {
		mode |= sIFREG
	}
	if err := mknodIn(l, mode&sIFMT|mode&^k.umask&0o777); err != nil {
		return 0, errnoOf(err)
	}
	k.ownNew(l)
	k.notifyCreated(l, false)
	return 0, 0
}

// sysSymlinkat creates a symbolic link. The target is stored as given: the
// resolver confines it to the root when the guest follows it.
func sysSymlinkat(k *Kernel, a sysArgs) (uint64, Errno) {
	target, e := k.readPath(a.Ptr(0))
	if e != 0 {
		return 0, e
	}
	if target == "" {
		return 0, ENOENT
	}
	l, e := k.newEntry(a.Int(1), a.Ptr(2))
	if e != 0 {
		return 0, e
	}
	defer l.close()
	if err := symlinkIn(target, l); err != nil {
		return 0, errnoOf(err)
	}
	k.ownNew(l)
	k.notifyCreated(l, false)
	return 0, 0
}

func sysUnlinkat(k *Kernel, a sysArgs) (uint64, Errno) {
	flags := a.Uint(2)
	if flags&^atRemovedir != 0 {
		return 0, EINVAL
	}
	p, e := k.readPath(a.Ptr(1))
	if e != 0 {
		return 0, e
	}
	last := p[strings.LastIndexByte(strings.TrimRight(p, "/"), '/')+1:]
	last = strings.TrimRight(last, "/")
	if flags&atRemovedir != 0 {
		switch last {
		case ".":
			return 0, EINVAL
		case "..":
			return 0, ENOTEMPTY
		}
	}
	l, e := k.resolveExisting(a.Int(0), p, false)
	if e != 0 {
		return 0, e
	}
	defer l.close()
	isDir := l.obj.isDir()
	switch {
	case flags&atRemovedir != 0 && !isDir:
		return 0, ENOTDIR
	case flags&atRemovedir == 0 && isDir:
		return 0, EISDIR
	case l.parent == nil:
		return 0, EBUSY
	}
	if e := k.checkWrite(l); e != 0 {
		return 0, e
	}
	if err := unlinkIn(l, flags&atRemovedir != 0); err != nil {
		return 0, errnoOf(err)
	}
	k.notifyUnlinked(l, l.obj.nlink())
	return 0, 0
}

// renameat2 flags
const (
	renameNoreplace = 1
	renameExchange  = 2
	renameWhiteout  = 4
)

func sysRenameat2(k *Kernel, a sysArgs) (uint64, Errno) {
	flags := a.Uint(4)
	if flags&^(renameNoreplace|renameExchange|renameWhiteout) != 0 ||
		flags&(renameNoreplace|renameExchange) == renameNoreplace|renameExchange {
		return 0, EINVAL
	}
	if flags&(renameExchange|renameWhiteout) != 0 {
		return 0, EINVAL // not supported
	}
	oldp, e := k.readPath(a.Ptr(1))
	if e != 0 {
		return 0, e
	}
	newp, e := k.readPath(a.Ptr(3))
	if e != 0 {
		return 0, e
	}
	lo, e := k.resolveExisting(a.Int(0), oldp, false)
	if e != 0 {
		return 0, e
	}
	defer lo.close()
	ln, e := k.resolve(a.Int(2), newp, false)
	if e != 0 {
		return 0, e
	}
	defer ln.close()
	if ln.obj != nil && flags&renameNoreplace != 0 {
		return 0, EEXIST
	}
	if lo.parent == nil || ln.parent == nil {
		return 0, EBUSY
	}
	if ln.obj != nil {
		switch {
		case lo.obj.isDir() && !ln.obj.isDir():
			return 0, ENOTDIR
		case !lo.obj.isDir() && ln.obj.isDir():
			return 0, EISDIR
		}
	}
	if e := k.checkWrite(lo, ln); e != 0 {
		return 0, e
	}
	if err := renameIn(lo, ln, flags&renameNoreplace != 0); err != nil {
		return 0, errnoOf(err)
	}
	k.notifyRenamed(lo, ln)
	return 0, 0
}

func sysFtruncate(k *Kernel, a sysArgs) (uint64, Errno) {
	of, e := k.file(a.Int(0))
	if e != 0 {
		return 0, e
	}
	if a.Long(1) < 0 || of.kind != kindHost || !of.regular || !of.canWrite() {
		return 0, EINVAL
	}
	if of.sealed(false, a.Long(1)) {
		return 0, EPERM
	}
	if e := k.truncateFile(of.f, a.Long(1)); e != 0 {
		return 0, e
	}
	k.notifyFile(of, inModify)
	return 0, 0
}

func sysTruncate(k *Kernel, a sysArgs) (uint64, Errno) {
	p, e := k.readPath(a.Ptr(0))
	if e != 0 {
		return 0, e
	}
	if a.Long(1) < 0 {
		return 0, EINVAL
	}
	f, e := k.openWrite(atFDCWD, p, true, os.O_WRONLY|hostONonblock, 0)
	if e != 0 {
		return 0, e
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return 0, EINVAL
	}
	if e := k.truncateFile(f, a.Long(1)); e != 0 {
		return 0, e
	}
	k.notifyPath(atFDCWD, p, inModify)
	return 0, 0
}

// truncateFile sets the size of f; the shared mappings of the file see
// the bytes past a shrunk end as zero, and a grown end's new zeros.
func (k *Kernel) truncateFile(f *os.File, size int64) Errno {
	obj := k.syncForIO(f)
	err := f.Truncate(size)
	if obj != nil {
		k.reloadObject(obj, f, 0, math.MaxInt64)
	}
	return errnoOf(err)
}

func sysFchmodat(k *Kernel, a sysArgs) (uint64, Errno) {
	p, e := k.readPath(a.Ptr(1))
	if e != 0 {
		return 0, e
	}
	l, e := k.resolveExisting(a.Int(0), p, true)
	if e != 0 {
		return 0, e
	}
	defer l.close()
	if e := k.checkWrite(l); e != 0 {
		return 0, e
	}
	if err := chmodNode(l.obj, a.Uint(2)&chmodBits); err != nil {
		return 0, errnoOf(err)
	}
	k.notifyAttrib(l, inAttrib)
	return 0, 0
}

// sISVTX is the sticky bit.
const sISVTX = 0o1000

// sISGID is the set-group-ID bit.
const sISGID = 0o2000

// chmodBits are the mode bits a guest may set: the permissions, the
// sticky bit (a shared directory, as /tmp) and, on a directory only
// (chmodNode), the set-group-ID bit, which gives its new entries its
// group. The set-user-ID bit, and set-group-ID on a file, are dropped:
// they would take effect on the host file.
const chmodBits = 0o777 | sISVTX | sISGID

// sysFchmodat2 is fchmodat with flags (Linux 6.6; glibc's fchmodat with
// AT_SYMLINK_NOFOLLOW, as chmod -R calls it): a link's own mode cannot
// change (EOPNOTSUPP); AT_EMPTY_PATH changes the file dirfd is open on.
func sysFchmodat2(k *Kernel, a sysArgs) (uint64, Errno) {
	flags := a.Uint(3)
	if flags&^(atSymlinkNofollow|atEmptyPath) != 0 {
		return 0, EINVAL
	}
	p, e := k.pathOrEmpty(a.Ptr(1), flags)
	if e != 0 {
		return 0, e
	}
	dirfd, mode := a.Int(0), a.Uint(2)&chmodBits
	if p == "" {
		if flags&atEmptyPath == 0 {
			return 0, ENOENT
		}
		if dirfd != atFDCWD {
			return k.fchmod(dirfd, mode)
		}
		p = "."
	}
	l, e := k.resolveExisting(dirfd, p, flags&atSymlinkNofollow == 0)
	if e != 0 {
		return 0, e
	}
	defer l.close()
	if l.obj.isLink() {
		return 0, EOPNOTSUPP
	}
	if e := k.checkWrite(l); e != 0 {
		return 0, e
	}
	if err := chmodNode(l.obj, mode); err != nil {
		return 0, errnoOf(err)
	}
	k.notifyAttrib(l, inAttrib)
	return 0, 0
}

func sysFchmod(k *Kernel, a sysArgs) (uint64, Errno) {
	if of, e := k.file(a.Int(0)); e == 0 && of.flags&oPath != 0 {
		return 0, EBADF // fchmod takes no O_PATH descriptor; fchmodat2 does
	}
	return k.fchmod(a.Int(0), a.Uint(1)&chmodBits)
}

// fchmod changes the mode of the file open as fd.
func (k *Kernel) fchmod(fd int32, mode uint32) (uint64, Errno) {
	of, e := k.file(fd)
	if e != 0 {
		return 0, e
	}
	if of.kind != kindHost {
		return 0, 0
	}
	if !k.fdWritable(of) {
		k.refused(of.guest)
		return 0, EACCES
	}
	n, e := borrow(of.f)
	if e != 0 {
		return 0, e
	}
	if err := chmodNode(n, mode); err != nil {
		return 0, errnoOf(err)
	}
	k.notifyFileAttr(of, inAttrib)
	return 0, 0
}

func sysFsync(k *Kernel, a sysArgs) (uint64, Errno) {
	_, e := k.file(a.Int(0))
	return 0, e
}

func sysUmask(k *Kernel, a sysArgs) (uint64, Errno) {
	old := k.umask
	k.umask = a.Uint(0) & 0o777
	return uint64(old), 0
}
