package syscalls

import (
	"io/fs"
	"os"
	"strings"
)

// fallbackStat derives statInfo from portable FileInfo fields.
func fallbackStat(fi fs.FileInfo) statInfo {
	m := fi.Mode()
	mode := uint32(m.Perm())
	switch {
	case m.IsDir():
		mode |= sIFDIR
	case m&fs.ModeSymlink != 0:
		mode |= sIFLNK
	case m&fs.ModeNamedPipe != 0:
		mode |= sIFIFO
	case m&fs.ModeSocket != 0:
		mode |= sIFSOCK
	case m&fs.ModeCharDevice != 0:
		mode |= sIFCHR
	case m&fs.ModeDevice != 0:
		mode |= sIFBLK
	default:
		mode |= sIFREG
	}
	t := nsToTimespec(fi.ModTime().UnixNano())
	return statInfo{
		mode: mode, nlink: 1, uid: uint32(os.Getuid()), gid: uint32(os.Getgid()),
		size: fi.Size(), blksize: PageSize, blocks: (fi.Size() + 511) / 512,
		atime: t, mtime: t, ctime: t,
	}
}

// Virtual device numbers (devtmpfs on a typical system).
var devRdev = map[fileKind]uint64{
	kindNull:   makedev(1, 3),
	kindZero:   makedev(1, 5),
	kindFull:   makedev(1, 7),
	kindRandom: makedev(1, 9),
}

// virtualStat describes a file rvsim emulates: the /dev devices, and
// standard streams that are not host files (a pipe, as when output is
// captured). Values are fixed so that runs are reproducible.
func (k *Kernel) virtualStat(kind fileKind, stdfd int) statInfo {
	s := statInfo{
		dev: makedev(0, 5), nlink: 1, uid: uint32(os.Getuid()), gid: uint32(os.Getgid()),
		blksize: PageSize,
	}
	if rdev, ok := devRdev[kind]; ok {
		s.mode = sIFCHR | 0o666
		s.rdev = rdev
		s.ino = rdev & 0xff
		return s
	}
	s.dev = makedev(0, 12) // pipefs
	s.mode = sIFIFO | 0o600
	s.ino = uint64(100 + stdfd)
	return s
}

// statFile returns the metadata of an open file.
func (k *Kernel) statFile(of *openFile) (statInfo, Errno) {
	switch {
	case of.kind == kindPipe && of.f != nil: // a FIFO of the file system (fifo.go): its own inode
	case of.kind == kindPipe:
		return statInfo{dev: pipefsDev, ino: of.pipe.ino, mode: sIFIFO | 0o600, nlink: 1,
			uid: uint32(os.Getuid()), gid: uint32(os.Getgid()), blksize: PageSize}, 0
	case of.kind == kindPtyMaster, of.kind == kindPtySlave:
		return k.ptyStat(of.pty, of.kind == kindPtyMaster), 0
	case of.kind == kindSocket:
		return statInfo{dev: sockfsDev, ino: of.sockIno, mode: sIFSOCK | 0o777, nlink: 1,
			uid: uint32(os.Getuid()), gid: uint32(os.Getgid()), blksize: PageSize}, 0
	case of.kind == kindMqueue:
		return of.mq.q.stat(), 0
	case of.anonInode(): // no file type bits
		return statInfo{dev: anonInodeDev, ino: 1, mode: 0o600, nlink: 1,
			uid: uint32(os.Getuid()), gid: uint32(os.Getgid()), blksize: PageSize}, 0
	}
	switch {
	case of.proc && of.isDir:
		pk := k.procView(of.guest)
		return pk.procDirStat(of.guest, pk.procDirOf(of.guest)), 0
	case of.proc:
		return k.procStatInfo(of.guest), 0
	case of.f != nil:
		fi, err := of.f.Stat()
		if err != nil {
			return statInfo{}, errnoOf(err)
		}
		return k.guestStat(hostStat(fi)), 0
	}
	return k.virtualStat(of.kind, of.stdfd), 0
}

// statAt implements the lookup of newfstatat and statx.
func (k *Kernel) statAt(dirfd int32, p string, flags uint32) (statInfo, Errno) {
	if p == "" {
		if flags&atEmptyPath == 0 {
			return statInfo{}, ENOENT
		}
		if dirfd == atFDCWD {
			p = "."
		} else {
			of, e := k.file(dirfd)
			if e != 0 {
				return statInfo{}, e
			}
			return k.statFile(of)
		}
	}
	dirfd, p = k.procThrough(dirfd, p)
	g, e := k.lexical(dirfd, p)
	if e != 0 {
		return statInfo{}, e
	}
	if kind, ok := devFiles[g]; ok {
		return k.virtualStat(kind, 0), 0
	}
	if g == "/dev/ptmx" || g == "/dev/pts/ptmx" {
		return k.ptyStat(nil, true), 0
	}
	if p := k.ptyByPath(g); p != nil {
		return k.ptyStat(p, false), 0
	}
	// /proc/self/fd/0..2 are links (to lstat); /dev/std* the streams.
	if std := stdioPath(g, k.pid); std >= 0 && (flags&atSymlinkNofollow == 0 || !strings.HasPrefix(g, "/proc/")) {
		of, e := k.file(int32(std))
		if e != 0 {
			return statInfo{}, ENOENT
		}
		return k.statFile(of)
	}
	if _, ok, gone := systemFile(g, k); ok || gone {
		if gone {
			return statInfo{}, ENOENT
		}
		return k.procStatInfo(g), 0
	}
	pk := k.procView(g)
	if d := pk.procDirOf(g); d != procNoDir {
		if t, link := k.procSelfLink(g); link && flags&atSymlinkNofollow != 0 && !strings.HasSuffix(p, "/") {
			s := k.procLinkStat(g, nil)
			s.size = int64(len(t))
			return s, 0
		}
		return pk.procDirStat(g, d), 0
	}
	if rest, ok := pk.procRest(g); ok {
		if g == "/proc/mounts" && flags&atSymlinkNofollow != 0 {
			s := k.procLinkStat(g, nil)
			s.size = int64(len("self/mounts"))
			return s, 0
		}
		if _, ok := pk.procGen(rest); ok {
			return k.procStatInfo(g), 0
		}
		t, of, e, ok := pk.procLink(k, rest)
		switch {
		case !ok:
			return statInfo{}, ENOENT
		case e != 0:
			return statInfo{}, e
		case flags&atSymlinkNofollow != 0 && !strings.HasSuffix(p, "/"): // a trailing slash follows
			return pk.procLinkStat(g, of), 0
		case k.procPrivate(pk, rest):
			return statInfo{}, EACCES
		case of != nil:
			return pk.statFile(of) // the open file itself, wherever it is now
		}
		if n := pk.procLinkDir(rest); n != nil {
			if _, reachable, ok := k.pathOf(n); ok && !reachable {
				// Outside the caller's root (a chroot's caller): the
				// directory itself, which no path from here names
				// (proc_root_link hands the walk the object, not a name).
				return k.guestStat(n.stat()), 0
			}
		}
		dirfd, p = atFDCWD, t
	}
	l, e := k.resolveExisting(dirfd, p, flags&atSymlinkNofollow == 0)
	if e != 0 {
		return statInfo{}, e
	}
	defer l.close()
	return k.guestStat(l.obj.stat()), 0
}

func sysFstat(k *Kernel, a sysArgs) (uint64, Errno) {
	of, e := k.file(a.Int(0))
	if e != 0 {
		return 0, e
	}
	s, e := k.statFile(of)
	if e != 0 {
		return 0, e
	}
	return 0, k.writeMem(a.Ptr(1), encodeStat(s))
}

func sysNewfstatat(k *Kernel, a sysArgs) (uint64, Errno) {
	flags := a.Uint(3)
	if flags&^(atSymlinkNofollow|atEmptyPath|atNoAutomount) != 0 {
		return 0, EINVAL
	}
	p, e := k.pathOrEmpty(a.Ptr(1), flags)
	if e != 0 {
		return 0, e
	}
	s, e := k.statAt(a.Int(0), p, flags)
	if e != 0 {
		return 0, e
	}
	return 0, k.writeMem(a.Ptr(2), encodeStat(s))
}

func sysStatx(k *Kernel, a sysArgs) (uint64, Errno) {
	flags, mask := a.Uint(2), a.Uint(3)
	if flags&^(atSymlinkNofollow|atEmptyPath|atNoAutomount|atStatxSyncType) != 0 ||
		flags&atStatxSyncType == atStatxSyncType || mask&statxReserved != 0 {
		return 0, EINVAL
	}
	p, e := k.pathOrEmpty(a.Ptr(1), flags)
	if e != 0 {
		return 0, e
	}
	s, e := k.statAt(a.Int(0), p, flags)
	if e != 0 {
		return 0, e
	}
	return 0, k.writeMem(a.Ptr(4), encodeStatx(s))
}

// pathOrEmpty reads a path argument; with AT_EMPTY_PATH a NULL pointer
// means the empty path (Linux 6.11).
func (k *Kernel) pathOrEmpty(addr uint64, flags uint32) (string, Errno) {
	if addr == 0 && flags&atEmptyPath != 0 {
		return "", 0
	}
	return k.readPath(addr)
}
