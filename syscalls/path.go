package syscalls

import (
	"io"
	"io/fs"
	"os"
	"sort"
	"strconv"
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
	if _, err := of.f.Seek(0, io.SeekStart); err != nil {
		return errnoOf(err)
	}
	ents, err := of.f.ReadDir(-1)
	if err != nil {
		return errnoOf(err)
	}
	sort.Slice(ents, func(i, j int) bool { return ents[i].Name() < ents[j].Name() })
	self, _ := of.f.Stat()
	parent := self
	if of.guest != "/" {
		if r, e := k.resolve(atFDCWD, of.guest+"/..", false); e == 0 {
			parent = r.fi
		}
	}
	of.dir = []dirent{{hostIno(self), dtDir, "."}, {hostIno(parent), dtDir, ".."}}
	for _, d := range ents {
		var ino uint64
		if fi, err := d.Info(); err == nil {
			ino = hostIno(fi)
		}
		of.dir = append(of.dir, dirent{ino, direntType(d.Type()), d.Name()})
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
	return uint64(len(out)), 0
}

// --- paths ----------------------------------------------------------------------

func sysGetcwd(k *Kernel, a sysArgs) (uint64, Errno) {
	b := append([]byte(k.cwd), 0)
	if uint64(len(b)) > a.Ptr(1) {
		return 0, ERANGE
	}
	if e := k.writeMem(a.Ptr(0), b); e != 0 {
		return 0, e
	}
	return uint64(len(b)), 0
}

func sysChdir(k *Kernel, a sysArgs) (uint64, Errno) {
	p, e := k.readPath(a.Ptr(0))
	if e != 0 {
		return 0, e
	}
	r, e := k.resolveExisting(atFDCWD, p, true)
	if e != 0 {
		return 0, e
	}
	if !r.fi.IsDir() {
		return 0, ENOTDIR
	}
	k.cwd = r.guest
	return 0, 0
}

func sysFchdir(k *Kernel, a sysArgs) (uint64, Errno) {
	of, e := k.file(a.Int(0))
	if e != 0 {
		return 0, e
	}
	if !of.isDir {
		return 0, ENOTDIR
	}
	k.cwd = of.guest
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
	g, e := k.lexical(dirfd, p)
	if e != 0 {
		return "", e
	}
	if rest, ok := procSelf(g); ok {
		switch {
		case rest == "exe" && k.exePath != "":
			return k.exePath, 0
		case rest == "cwd":
			return k.cwd, 0
		case strings.HasPrefix(rest, "fd/"):
			n, err := strconv.Atoi(rest[3:])
			if err != nil {
				return "", ENOENT
			}
			of, e := k.file(int32(n))
			if e != 0 || of.kind == kindStdin || of.kind == kindStdout {
				return "", ENOENT
			}
			return of.guest, 0
		}
		return "", ENOENT
	}
	if _, ok := devFiles[g]; ok {
		return "", EINVAL
	}
	r, e := k.resolveExisting(dirfd, p, false)
	if e != 0 {
		return "", e
	}
	if r.fi.Mode()&fs.ModeSymlink == 0 {
		return "", EINVAL
	}
	t, err := k.root.Readlink(r.rel)
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
	if rest, ok := procSelf(g); ok {
		if rest != "exe" || k.exePath == "" {
			return 0, ENOENT
		}
		dirfd, p = atFDCWD, k.exePath
	}
	r, e := k.resolveExisting(dirfd, p, flags&atSymlinkNofollow == 0)
	if e != 0 {
		return 0, e
	}
	if mode&wOK != 0 && !k.writable(k.host(r)) {
		return 0, EACCES
	}
	if r.fi.Mode()&fs.ModeSymlink != 0 {
		return 0, 0 // AT_SYMLINK_NOFOLLOW: a link's own permissions are rwxrwxrwx
	}
	return 0, errnoOf(hostAccess(k.host(r), mode))
}

// --- modifications -------------------------------------------------------------

// newEntry resolves the path at ptr, relative to dirfd, for a new
// directory entry: it must not exist, and the sandbox must allow writing it.
func (k *Kernel) newEntry(dirfd int32, ptr uint64) (resolved, Errno) {
	p, e := k.readPath(ptr)
	if e != 0 {
		return resolved{}, e
	}
	r, e := k.resolve(dirfd, p, false)
	if e != 0 {
		return resolved{}, e
	}
	if r.exists {
		return resolved{}, EEXIST
	}
	return r, k.checkWrite(r)
}

func sysMkdirat(k *Kernel, a sysArgs) (uint64, Errno) {
	r, e := k.newEntry(a.Int(0), a.Ptr(1))
	if e != 0 {
		return 0, e
	}
	return 0, errnoOf(k.root.Mkdir(r.rel, fs.FileMode(a.Uint(2)&^k.umask&0o777)))
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
	r, e := k.newEntry(a.Int(1), a.Ptr(2))
	if e != 0 {
		return 0, e
	}
	return 0, errnoOf(k.root.Symlink(target, r.rel))
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
	r, e := k.resolveExisting(a.Int(0), p, false)
	if e != 0 {
		return 0, e
	}
	isDir := r.fi.IsDir()
	switch {
	case flags&atRemovedir != 0 && !isDir:
		return 0, ENOTDIR
	case flags&atRemovedir == 0 && isDir:
		return 0, EISDIR
	case r.guest == "/":
		return 0, EBUSY
	}
	if e := k.checkWrite(r); e != 0 {
		return 0, e
	}
	return 0, errnoOf(k.root.Remove(r.rel))
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
	ro, e := k.resolveExisting(a.Int(0), oldp, false)
	if e != 0 {
		return 0, e
	}
	rn, e := k.resolve(a.Int(2), newp, false)
	if e != 0 {
		return 0, e
	}
	if rn.exists && flags&renameNoreplace != 0 {
		return 0, EEXIST
	}
	if ro.guest == "/" || rn.guest == "/" {
		return 0, EBUSY
	}
	if rn.exists {
		switch {
		case ro.fi.IsDir() && !rn.fi.IsDir():
			return 0, ENOTDIR
		case !ro.fi.IsDir() && rn.fi.IsDir():
			return 0, EISDIR
		}
	}
	if e := k.checkWrite(ro, rn); e != 0 {
		return 0, e
	}
	return 0, errnoOf(k.root.Rename(ro.rel, rn.rel))
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
	return 0, errnoOf(of.f.Truncate(a.Long(1)))
}

func sysTruncate(k *Kernel, a sysArgs) (uint64, Errno) {
	p, e := k.readPath(a.Ptr(0))
	if e != 0 {
		return 0, e
	}
	if a.Long(1) < 0 {
		return 0, EINVAL
	}
	r, e := k.resolveExisting(atFDCWD, p, true)
	if e != 0 {
		return 0, e
	}
	if r.fi.IsDir() {
		return 0, EISDIR
	}
	if e := k.checkWrite(r); e != 0 {
		return 0, e
	}
	f, err := k.root.OpenFile(r.rel, os.O_WRONLY, 0)
	if err != nil {
		return 0, errnoOf(err)
	}
	defer f.Close()
	return 0, errnoOf(f.Truncate(a.Long(1)))
}

func sysFchmodat(k *Kernel, a sysArgs) (uint64, Errno) {
	p, e := k.readPath(a.Ptr(1))
	if e != 0 {
		return 0, e
	}
	r, e := k.resolveExisting(a.Int(0), p, true)
	if e != 0 {
		return 0, e
	}
	if e := k.checkWrite(r); e != 0 {
		return 0, e
	}
	return 0, errnoOf(k.root.Chmod(r.rel, fs.FileMode(a.Uint(2)&0o777)))
}

func sysFchmod(k *Kernel, a sysArgs) (uint64, Errno) {
	of, e := k.file(a.Int(0))
	if e != 0 {
		return 0, e
	}
	if of.kind != kindHost {
		return 0, 0
	}
	if !k.fdWritable(of) {
		k.warnOnce("write "+of.guest, "rvsim: sandbox: refused write access to %s", of.guest)
		return 0, EACCES
	}
	return 0, errnoOf(of.f.Chmod(fs.FileMode(a.Uint(1) & 0o777)))
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
