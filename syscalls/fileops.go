package syscalls

import (
	"cmp"
	"io"
	"os"
)

// File system calls real tools use beyond reading and writing: times and
// owners (bzip2, cp -p, tar, gzip), file-system statistics, hard links,
// preallocation, in-kernel copies, and closing descriptor ranges. Every
// change is subject to the sandbox (--allow-write), as in fs.go.

// --- utimensat, futimens -----------------------------------------------------------

// Special tv_nsec values of utimensat.
const (
	utimeNow  = 1<<30 - 1
	utimeOmit = 1<<30 - 2
)

// sysUtimensat sets a file's access and modification times. A NULL path
// means the file open as dirfd (futimens). UTIME_NOW is the guest's
// CLOCK_REALTIME (deterministic unless --host-time).
func sysUtimensat(k *Kernel, a sysArgs) (uint64, Errno) {
	dirfd, pathAddr, timesAddr, flags := a.Int(0), a.Ptr(1), a.Ptr(2), a.Uint(3)
	if flags&^(atSymlinkNofollow|atEmptyPath) != 0 {
		return 0, EINVAL
	}
	times := [2]timespec{{0, utimeNow}, {0, utimeNow}}
	if timesAddr != 0 {
		b, e := k.readMem(timesAddr, 2*timespecSize)
		if e != 0 {
			return 0, e
		}
		for i := range times {
			t := timespec{int64(le64(b[16*i:])), int64(le64(b[16*i+8:]))}
			if t.nsec != utimeNow && t.nsec != utimeOmit && (t.nsec < 0 || t.nsec >= 1e9) {
				return 0, EINVAL
			}
			times[i] = t
		}
	}
	if times[0].nsec == utimeOmit && times[1].nsec == utimeOmit {
		if pathAddr == 0 {
			_, e := k.file(dirfd)
			return 0, e
		}
		p, e := k.readPath(pathAddr)
		if e != 0 {
			return 0, e
		}
		if _, e := k.statAt(dirfd, p, flags); e != 0 {
			return 0, e
		}
		return 0, 0
	}
	mask := utimeMask(times)
	if !k.cfg.HostTime {
		now, _ := k.now(clockRealtime)
		for i := range times {
			if times[i].nsec == utimeNow {
				times[i] = nsToTimespec(now)
			}
		}
	}
	var p string
	if pathAddr != 0 {
		var e Errno
		if p, e = k.pathOrEmpty(pathAddr, flags); e != 0 {
			return 0, e
		}
	} else if flags&atSymlinkNofollow != 0 {
		return 0, EINVAL
	}
	if p == "" {
		if pathAddr != 0 && flags&atEmptyPath == 0 {
			return 0, ENOENT
		}
		if dirfd == atFDCWD {
			p = "."
		} else {
			of, e := k.file(dirfd)
			if e != 0 {
				return 0, e
			}
			if of.kind != kindHost {
				return 0, 0 // a device or pipe: its times are not kept
			}
			if !k.fdWritable(of) {
				k.refused(of.guest)
				return 0, EACCES
			}
			if err := hostUtimens(of.f, times); err != nil {
				return 0, errnoOf(err)
			}
			if fi, err := of.f.Stat(); err == nil {
				k.setAtime(hostStat(fi), times[0])
			}
			k.notifyFileAttr(of, mask)
			return 0, 0
		}
	}
	if g, e := k.lexical(dirfd, p); e == 0 {
		if _, ok := devFiles[g]; ok {
			return 0, 0
		}
	}
	l, e := k.resolveExisting(dirfd, p, flags&atSymlinkNofollow == 0)
	if e != 0 {
		return 0, e
	}
	defer l.close()
	if e := k.checkWrite(l); e != 0 {
		return 0, e
	}
	if err := utimensNode(l.obj, times); err != nil {
		return 0, errnoOf(err)
	}
	k.setAtime(l.obj.stat(), times[0])
	k.notifyAttrib(l, mask)
	return 0, 0
}

// --- fchown, fchownat -----------------------------------------------------------------

// owner converts a uid or gid argument (-1: unchanged).
func owner(v uint32) int { return int(int32(v)) }

func sysFchown(k *Kernel, a sysArgs) (uint64, Errno) {
	of, e := k.file(a.Int(0))
	if e != 0 {
		return 0, e
	}
	if of.flags&oPath != 0 {
		return 0, EBADF
	}
	return 0, k.chownFile(of, a.Uint(1), a.Uint(2))
}

func (k *Kernel) chownFile(of *openFile, uid, gid uint32) Errno {
	if of.kind != kindHost {
		return 0
	}
	if !k.fdWritable(of) {
		k.refused(of.guest)
		return EACCES
	}
	if err := of.f.Chown(owner(uid), owner(gid)); err != nil {
		return errnoOf(err)
	}
	k.notifyFileAttr(of, chownMask(uid, gid))
	return 0
}

func sysFchownat(k *Kernel, a sysArgs) (uint64, Errno) {
	dirfd, uid, gid, flags := a.Int(0), a.Uint(2), a.Uint(3), a.Uint(4)
	if flags&^(atSymlinkNofollow|atEmptyPath) != 0 {
		return 0, EINVAL
	}
	p, e := k.pathOrEmpty(a.Ptr(1), flags)
	if e != 0 {
		return 0, e
	}
	if p == "" {
		if flags&atEmptyPath == 0 {
			return 0, ENOENT
		}
		if dirfd != atFDCWD {
			of, e := k.file(dirfd)
			if e != 0 {
				return 0, e
			}
			return 0, k.chownFile(of, uid, gid)
		}
		p = "."
	}
	l, e := k.resolveExisting(dirfd, p, flags&atSymlinkNofollow == 0)
	if e != 0 {
		return 0, e
	}
	defer l.close()
	if e := k.checkWrite(l); e != 0 {
		return 0, e
	}
	if err := chownNode(l.obj, owner(uid), owner(gid)); err != nil {
		return 0, errnoOf(err)
	}
	k.notifyAttrib(l, chownMask(uid, gid))
	return 0, 0
}

// --- statfs, fstatfs ------------------------------------------------------------------

// statfsInfo is struct statfs (asm-generic/statfs.h, 64-bit words).
type statfsInfo struct {
	typ, bsize, blocks, bfree, bavail, files, ffree uint64
	fsid                                            [2]uint32
	namelen, frsize, flags                          uint64
}

// File-system magic numbers of the pseudo file systems.
const (
	tmpfsMagic     = 0x01021994
	pipefsMagic    = 0x50495045
	sockfsMagic    = 0x534f434b
	anonInodeMagic = 0x09041934
	stRdonly       = 0x1
	stNosuid       = 0x2
	stNodev        = 0x4
	stNoexec       = 0x8
	stNoatime      = 0x400
	stNodiratime   = 0x800
	stRelatime     = 0x1000
)

func encodeStatfs(s statfsInfo) []byte {
	b := make([]byte, statfsSize)
	for i, v := range [...]uint64{s.typ, s.bsize, s.blocks, s.bfree, s.bavail, s.files, s.ffree} {
		put64(b, 8*i, v)
	}
	put32(b, statfsFsidOff, s.fsid[0])
	put32(b, statfsFsidOff+4, s.fsid[1])
	put64(b, statfsNamelenOff, s.namelen)
	put64(b, statfsFrsizeOff, s.frsize)
	put64(b, statfsFlagsOff, s.flags)
	return b
}

// pseudoStatfs describes the file system of a virtual file.
func pseudoStatfs(magic uint64) statfsInfo {
	return statfsInfo{typ: magic, bsize: PageSize, namelen: nameMax, frsize: PageSize, flags: stRelatime}
}

func sysStatfs(k *Kernel, a sysArgs) (uint64, Errno) {
	p, e := k.readPath(a.Ptr(0))
	if e != 0 {
		return 0, e
	}
	var s statfsInfo
	g, e := k.lexical(atFDCWD, p)
	if e != 0 {
		return 0, e
	}
	if _, ok := devFiles[g]; ok || stdioPath(g, k.pid) >= 0 || g == "/dev/tty" {
		s = pseudoStatfs(tmpfsMagic) // devtmpfs
		s.flags |= stNosuid
	} else {
		l, e := k.resolveExisting(atFDCWD, p, true)
		if e != 0 {
			return 0, e
		}
		var err error
		s, err = statfsNode(l.obj)
		l.close()
		if err != nil {
			return 0, errnoOf(err)
		}
		s = guestStatfs(s)
	}
	return 0, k.writeMem(a.Ptr(1), encodeStatfs(s))
}

// guestStatfs is what the guest sees of a host file system: the type,
// block sizes, name length and mount flags that describe it, but fixed
// sizes and free counts (a 64 GiB file system with half its blocks free,
// 4Mi inodes with half free) and an fsid made from its type. The host's
// free space changes from run to run and its fsid from host to host,
// and a run must repeat exactly on any machine (docs/SYSCALLS.md), as
// inode and device numbers do (ident.go).
func guestStatfs(s statfsInfo) statfsInfo {
	bs := cmp.Or(s.frsize, s.bsize, PageSize)
	s.blocks = (64 << 30) / bs
	s.bfree, s.bavail = s.blocks/2, s.blocks/2
	s.files = 4 << 20
	s.ffree = s.files / 2
	s.fsid = [2]uint32{uint32(s.typ), uint32(s.typ >> 32)}
	return s
}

func sysFstatfs(k *Kernel, a sysArgs) (uint64, Errno) {
	of, e := k.file(a.Int(0))
	if e != 0 {
		return 0, e
	}
	var s statfsInfo
	switch {
	case of.kind == kindPipe:
		s = pseudoStatfs(pipefsMagic)
	case of.anonInode():
		s = pseudoStatfs(anonInodeMagic)
	case of.kind == kindSocket:
		s = pseudoStatfs(sockfsMagic)
	case of.kind == kindHost, of.f != nil:
		var err error
		if s, err = hostStatfs(of.f); err != nil {
			return 0, errnoOf(err)
		}
		s = guestStatfs(s)
	case of.kind == kindStdin || of.kind == kindStdout:
		s = pseudoStatfs(pipefsMagic)
	default:
		s = pseudoStatfs(tmpfsMagic)
		s.flags |= stNosuid
	}
	return 0, k.writeMem(a.Ptr(1), encodeStatfs(s))
}

// --- linkat ---------------------------------------------------------------------------

const atSymlinkFollow = 0x400

// sysLinkat makes a hard link. Both names must be writable: a link in a
// writable directory to a file outside would let the guest change that
// file through the new name.
func sysLinkat(k *Kernel, a sysArgs) (uint64, Errno) {
	flags := a.Uint(4)
	if flags&^(atSymlinkFollow|atEmptyPath) != 0 {
		return 0, EINVAL
	}
	oldp, e := k.pathOrEmpty(a.Ptr(1), flags)
	if e != 0 {
		return 0, e
	}
	newp, e := k.readPath(a.Ptr(3))
	if e != 0 {
		return 0, e
	}
	var lo *lookup
	if oldp == "" {
		// AT_EMPTY_PATH links the open file itself, which needs
		// CAP_DAC_READ_SEARCH; without it Linux says ENOENT.
		if flags&atEmptyPath == 0 || !k.cred.capable(capDacReadSearch) {
			return 0, ENOENT
		}
	} else {
		if lo, e = k.resolveExisting(a.Int(0), oldp, flags&atSymlinkFollow != 0); e != 0 {
			return 0, e
		}
		defer lo.close()
		if lo.obj.isDir() || lo.parent == nil {
			return 0, EPERM
		}
	}
	ln, e := k.resolve(a.Int(2), newp, false)
	if e != 0 {
		return 0, e
	}
	defer ln.close()
	if ln.obj != nil {
		return 0, EEXIST
	}
	if ln.dirReq {
		return 0, ENOENT
	}
	if lo != nil {
		if e := k.checkWrite(lo, ln); e != 0 {
			return 0, e
		}
		if err := linkNames(lo, ln); err != nil {
			return 0, errnoOf(err)
		}
		k.notifyLinked(lo.obj.id(), ln)
		return 0, 0
	}
	of, e := k.file(a.Int(0))
	if e != 0 {
		return 0, e
	}
	if of.kind != kindHost || of.memfd || of.proc || of.isDir {
		return 0, ENOENT
	}
	if !k.fdWritable(of) {
		k.refused(of.guest)
		return 0, EACCES
	}
	if e := k.checkWrite(ln); e != 0 {
		return 0, e
	}
	if err := linkFile(of.f, ln); err != nil {
		return 0, errnoOf(err)
	}
	if of.note != nil {
		k.notifyLinked(of.note.obj, ln)
	}
	return 0, 0
}

// --- fallocate -------------------------------------------------------------------------

func sysFallocate(k *Kernel, a sysArgs) (uint64, Errno) {
	of, e := k.file(a.Int(0))
	if e != 0 {
		return 0, e
	}
	mode, off, n := a.Uint(1), a.Long(2), a.Long(3)
	if off < 0 || n <= 0 {
		return 0, EINVAL
	}
	if !of.canWrite() {
		return 0, EBADF
	}
	switch {
	case of.kind == kindPipe:
		return 0, ESPIPE
	case of.isDir:
		return 0, EISDIR
	case of.kind != kindHost || !of.regular:
		return 0, ENODEV
	case off+n < 0:
		return 0, EFBIG
	}
	if mode&1 == 0 && of.sealed(false, off+n) { // FALLOC_FL_KEEP_SIZE unset: may grow
		return 0, EPERM
	}
	obj := k.syncForIO(of.f)
	err := hostFallocate(of.f, mode, off, n)
	if obj != nil {
		k.reloadObject(obj, of.f, off, off+n) // a punched hole or zeroed range
	}
	if err != nil {
		return 0, errnoOf(err)
	}
	k.notifyFile(of, inModify)
	return 0, 0
}

// --- copy_file_range, sendfile ----------------------------------------------------------

// readOff reads a loff_t argument (nil pointer: ok=false).
func (k *Kernel) readOff(addr uint64) (off int64, ok bool, e Errno) {
	if addr == 0 {
		return 0, false, 0
	}
	v, e := k.readU64(addr)
	if e != 0 {
		return 0, false, e
	}
	if int64(v) < 0 {
		return 0, false, EINVAL
	}
	return int64(v), true, 0
}

// filePos returns the file position of a host file.
func filePos(of *openFile) int64 {
	pos, err := of.f.Seek(0, io.SeekCurrent)
	if err != nil {
		return 0
	}
	return pos
}

func sysCopyFileRange(k *Kernel, a sysArgs) (uint64, Errno) {
	if a.Uint(5) != 0 {
		return 0, EINVAL
	}
	in, e := k.file(a.Int(0))
	if e != 0 {
		return 0, e
	}
	out, e := k.file(a.Int(2))
	if e != 0 {
		return 0, e
	}
	if !in.canRead() || !out.canWrite() || out.flags&oAppend != 0 {
		return 0, EBADF
	}
	if in.isDir || out.isDir {
		return 0, EISDIR
	}
	if in.kind != kindHost || out.kind != kindHost || !in.regular || !out.regular {
		return 0, EINVAL
	}
	inOff, inSet, e := k.readOff(a.Ptr(1))
	if e != 0 {
		return 0, e
	}
	outOff, outSet, e := k.readOff(a.Ptr(3))
	if e != 0 {
		return 0, e
	}
	if !inSet {
		inOff = filePos(in)
	}
	if !outSet {
		outOff = filePos(out)
	}
	n := min(a.Ptr(4), maxRW)
	si, e1 := k.statFile(in)
	so, e2 := k.statFile(out)
	if e1 == 0 && e2 == 0 && si.dev == so.dev && si.ino == so.ino &&
		inOff < outOff+int64(n) && outOff < inOff+int64(n) {
		return 0, EINVAL // overlapping ranges of one file
	}
	if out.sealed(true, -1) {
		return 0, EPERM
	}
	k.syncForIO(in.f)
	obj := k.syncForIO(out.f)
	done, err := copyRange(out.f, outOff, in.f, inOff, n, k.buf)
	if obj != nil {
		k.reloadObject(obj, out.f, outOff, outOff+int64(done))
	}
	if done == 0 && err != nil {
		return 0, errnoOf(err)
	}
	if inSet {
		if e := k.writeU64(a.Ptr(1), uint64(inOff+int64(done))); e != 0 {
			return 0, e
		}
	} else {
		in.f.Seek(inOff+int64(done), io.SeekStart)
	}
	if outSet {
		if e := k.writeU64(a.Ptr(3), uint64(outOff+int64(done))); e != 0 {
			return 0, e
		}
	} else {
		out.f.Seek(outOff+int64(done), io.SeekStart)
	}
	return done, 0
}

// copyRange copies up to n bytes from src at soff to dst at doff, through
// buf, stopping at the end of src.
func copyRange(dst *os.File, doff int64, src *os.File, soff int64, n uint64, buf []byte) (uint64, error) {
	var done uint64
	for done < n {
		m, err := src.ReadAt(buf[:min(n-done, uint64(len(buf)))], soff+int64(done))
		if m > 0 {
			w, werr := dst.WriteAt(buf[:m], doff+int64(done))
			done += uint64(w)
			if werr != nil {
				return done, werr
			}
		}
		if err != nil {
			if err == io.EOF {
				return done, nil
			}
			return done, err
		}
		if m == 0 {
			break
		}
	}
	return done, nil
}

// sysSendfile copies from a file to any writable descriptor. The source
// must be a regular file (or /dev/zero); with an offset pointer the
// source's position is left alone and the pointer advanced.
func sysSendfile(k *Kernel, a sysArgs) (uint64, Errno) {
	in, out, e := k.ioPair(a.Int(1), a.Int(0))
	if e != 0 {
		return 0, e
	}
	if out.flags&oAppend != 0 {
		return 0, EINVAL
	}
	regular := in.kind == kindHost && in.regular
	if !regular && in.kind != kindZero {
		return 0, EINVAL
	}
	off, offSet, e := k.readOff(a.Ptr(2))
	if e != 0 {
		return 0, e
	}
	if !offSet && regular {
		off = filePos(in)
	}
	if regular {
		k.syncForIO(in.f)
	}
	count := min(a.Ptr(3), maxRW)
	var total uint64
	for total < count {
		b := k.buf[:min(count-total, uint64(len(k.buf)))]
		m := len(b)
		if regular {
			var err error
			m, err = in.f.ReadAt(b, off+int64(total))
			if m == 0 {
				if err != nil && err != io.EOF && total == 0 {
					return 0, errnoOf(err)
				}
				break
			}
		} else {
			clear(b)
		}
		w, e := k.writeBytes(out, b[:m])
		total += uint64(w)
		if e != 0 {
			if total == 0 {
				return 0, e
			}
			break
		}
		if w < m {
			break
		}
	}
	if regular {
		if offSet {
			if e := k.writeU64(a.Ptr(2), uint64(off+int64(total))); e != 0 {
				return 0, e
			}
		} else {
			in.f.Seek(off+int64(total), io.SeekStart)
		}
	}
	return total, 0
}

// writeBytes writes host bytes to an open file at its position (the sink
// side of writeFD, for data that does not come from guest memory).
func (k *Kernel) writeBytes(of *openFile, b []byte) (int, Errno) {
	switch of.kind {
	case kindNull, kindZero, kindRandom:
		return len(b), 0
	case kindFull:
		return 0, ENOSPC
	case kindEventfd, kindEpoll, kindTimerfd, kindSignalfd, kindPidfd, kindInotify:
		return 0, EINVAL
	case kindSocket:
		return k.send(of, b, 0, 0, 0, nil)
	case kindPipe:
		return k.writePipe(of, b)
	case kindStdout:
		n, err := of.w.Write(b)
		if err != nil && n == 0 {
			return 0, errnoOf(err)
		}
		return n, 0
	}
	if of.isDir {
		return 0, EISDIR
	}
	if of.sealed(true, -1) {
		return 0, EPERM
	}
	obj := k.syncForIO(of.f)
	n, err := of.f.Write(b)
	if obj != nil && n > 0 {
		pos := filePos(of)
		k.reloadObject(obj, of.f, pos-int64(n), pos)
	}
	if err != nil && n == 0 {
		e := errnoOf(err)
		if e == EPIPE {
			k.raise(sigPIPE, k.senderInfo(sigPIPE, siUser))
		}
		return 0, e
	}
	return n, 0
}

// --- close_range --------------------------------------------------------------------------

const (
	closeRangeUnshare = 2
	closeRangeCloexec = 4
)

func sysCloseRange(k *Kernel, a sysArgs) (uint64, Errno) {
	first, last, flags := a.Uint(0), a.Uint(1), a.Uint(2)
	if flags&^(closeRangeUnshare|closeRangeCloexec) != 0 || first > last {
		return 0, EINVAL
	}
	for fd := uint64(first); fd <= uint64(last) && fd < uint64(len(k.fds)); fd++ {
		if k.fds[fd] == nil {
			continue
		}
		if flags&closeRangeCloexec != 0 {
			k.fds[fd].cloexec = true
		} else {
			k.closeFD(int32(fd))
		}
	}
	return 0, 0
}
