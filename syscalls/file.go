package syscalls

import (
	"errors"
	"io"
	"io/fs"
	"math"
	"os"
	"strconv"
	"strings"
	"syscall"

	"github.com/rvsim/rvsim/mem"
)

// open(2) flags (asm-generic fcntl.h; checked by layout_test.go).
const (
	oAccMode   = 0o3
	oRdonly    = 0o0
	oWronly    = 0o1
	oRdwr      = 0o2
	oCreat     = 0o100
	oExcl      = 0o200
	oNoctty    = 0o400
	oTrunc     = 0o1000
	oAppend    = 0o2000
	oNonblock  = 0o4000
	oDsync     = 0o10000
	oAsync     = 0o20000
	oDirect    = 0o40000
	oLargefile = 0o100000
	oDirectory = 0o200000
	oNofollow  = 0o400000
	oNoatime   = 0o1000000
	oCloexec   = 0o2000000
	oSync      = 0o4010000
	oPath      = 0o10000000
	oTmpfile   = 0o20200000

	// status flags F_GETFL reports and F_SETFL may change
	oStatusKept = oAppend | oNonblock | oDsync | oAsync | oDirect | oLargefile | oNoatime | oSync | oPath
	oSettable   = oAppend | oNonblock | oAsync | oDirect | oNoatime
)

// *at(2) flags.
const (
	atSymlinkNofollow = 0x100
	atRemovedir       = 0x200
	atEaccess         = 0x200
	atNoAutomount     = 0x800
	atEmptyPath       = 0x1000
	atStatxSyncType   = 0x6000
)

// fileKind says what an open file is backed by.
type fileKind uint8

const (
	kindHost      fileKind = iota // a host file or directory
	kindStdin                     // Config.Stdin
	kindStdout                    // Config.Stdout or Config.Stderr
	kindNull                      // /dev/null
	kindZero                      // /dev/zero
	kindRandom                    // /dev/urandom, /dev/random: deterministic bytes
	kindFull                      // /dev/full
	kindPipe                      // one end of a pipe (pipe2)
	kindEventfd                   // an eventfd counter
	kindSocket                    // a socket: AF_UNIX (socket.go, sockpair.go), AF_INET, AF_INET6 (inet.go)
	kindEpoll                     // an epoll instance (epoll.go)
	kindTimerfd                   // a timerfd (timerfd.go)
	kindSignalfd                  // a signalfd (signalfd.go)
	kindPtyMaster                 // a pseudo-terminal's master, /dev/ptmx (pty.go)
	kindPtySlave                  // a pseudo-terminal's slave, /dev/pts/N
	kindPidfd                     // a process's descriptor (pidfd.go)
	kindInotify                   // an inotify instance (inotify.go)
	kindMqueue                    // a POSIX message queue (mqueue.go)
)

// anonInode reports whether of is a file of the anonymous inode (an
// eventfd, epoll instance, timerfd, signalfd or pidfd): no file type
// bits, no position, no read or write of its own kind.
func (of *openFile) anonInode() bool {
	switch of.kind {
	case kindEventfd, kindEpoll, kindTimerfd, kindSignalfd, kindPidfd, kindInotify:
		return true
	}
	return false
}

// openFile is an open file description, shared by dup'd descriptors.
type openFile struct {
	kind    fileKind
	f       *os.File  // host file; for stdio the *os.File behind Config's reader/writer, if any
	r       io.Reader // kindStdin
	w       io.Writer // kindStdout
	guest   string    // guest path when opened (a directory's lookups start from f, not from this name)
	change  bool      // kindHost: the sandbox allows changing the file's metadata (fchmod, fchown, futimens)
	flags   uint32    // access mode and status flags as F_GETFL reports them
	isDir   bool
	regular bool
	stdfd   int      // which of 0, 1, 2 (stdio)
	dir     []dirent // directory snapshot, taken at the first getdents64
	dirPos  int      // index of the next entry to return
	refs    int
	pipe    *pipe        // kindPipe
	pty     *pty         // kindPtyMaster, kindPtySlave
	efd     *eventfd     // kindEventfd
	epoll   *epollInst   // kindEpoll
	tfd     *timerfd     // kindTimerfd
	sfd     *signalfd    // kindSignalfd
	process *Kernel      // kindPidfd: the process it names
	ino     *inotifyInst // kindInotify
	mq      *mqOpen      // kindMqueue
	// note: a host file's object and the name it was opened by, for
	// inotify's events (nil for other files)
	note     *notifyName
	memfd    bool         // an anonymous file (memfd_create): writable, not in the guest's file system
	proc     bool         // a generated /proc/self file (procfs.go): f holds a snapshot
	commTID  int32        // a /proc comm opened for writing: the thread its writes rename
	sockType uint32       // kindSocket: SOCK_STREAM, SOCK_DGRAM or SOCK_SEQPACKET
	sockIno  uint64       // kindSocket: its inode number
	rx, tx   *pipe        // kindSocket of a socketpair: what it receives, what it sends
	shut     uint8        // kindSocket: shutdown(2) of this end (shutRcv, shutSnd)
	inet     *inetSock    // kindSocket of AF_INET or AF_INET6 (inet.go)
	nl       *netlinkSock // kindSocket of AF_NETLINK (netlink.go)
	rcvTimeo sockTimeo    // kindSocket: SO_RCVTIMEO (socktimeo.go)
	sndTimeo sockTimeo    // kindSocket: SO_SNDTIMEO
	sockOpts sockOpts     // kindSocket: the generic SOL_SOCKET options it keeps (sockopt.go)
	owner    int32        // F_SETOWN's process (> 0) or process group (< 0): SIGURG's (tcpurg.go)
	// ofdLocked: it holds OFD record locks (posixlock.go), which its
	// last close drops.
	ofdLocked bool
	// kindSocket, a connected AF_UNIX stream or seqpacket end: the other
	// end (nil once it is released) and the error its release left
	// here (sk_err: ECONNRESET), reported once (unix_release_sock)
	upair *openFile
	uerr  Errno
	// kindSocket of AF_UNIX (unixsock.go): its address and its peer's
	// (sockaddr_un bytes; nil: unnamed), where its name is registered,
	// and its accept queue when it listens
	uaddr, upeer []byte
	ukey         string
	ul           *unixListener
	// a socket bound to a path holds its socket file's inode (O_PATH), as
	// the kernel's socket does: a file made at the path after an unlink
	// is another (asyncio compares the inode before it unlinks)
	uhold *os.File
	// a bound AF_UNIX datagram socket's received messages, their
	// senders' addresses, the last one taken's, and the socket connect
	// made its destination
	uin     *pipe
	ufrom   [][]byte
	ugot    []byte
	udpeer  *openFile
	seals   uint32 // memfd seals (F_ADD_SEALS)
	locked  fileID // the file of its flock lock, if hasLock
	hasLock bool
}

type fdEntry struct {
	of      *openFile
	cloexec bool
}

func (of *openFile) canRead() bool {
	return of.flags&oPath == 0 && of.flags&oAccMode != oWronly
}

func (of *openFile) canWrite() bool {
	acc := of.flags & oAccMode
	return of.flags&oPath == 0 && (acc == oWronly || acc == oRdwr)
}

func (k *Kernel) initStdio() {
	in := &openFile{kind: kindStdin, r: k.cfg.Stdin, guest: "/dev/stdin", flags: oRdonly | oLargefile, stdfd: 0}
	out := &openFile{kind: kindStdout, w: k.cfg.Stdout, guest: "/dev/stdout", flags: oWronly | oLargefile, stdfd: 1}
	errf := &openFile{kind: kindStdout, w: k.cfg.Stderr, guest: "/dev/stderr", flags: oWronly | oLargefile, stdfd: 2}
	if f, ok := k.cfg.Stdin.(*os.File); ok {
		in.f = f
	}
	if f, ok := k.cfg.Stdout.(*os.File); ok {
		out.f = f
	}
	if f, ok := k.cfg.Stderr.(*os.File); ok {
		errf.f = f
	}
	for _, of := range []*openFile{in, out, errf} {
		of.refs = 1
		k.fds = append(k.fds, &fdEntry{of: of})
	}
}

// file returns the open file of descriptor fd.
func (k *Kernel) file(fd int32) (*openFile, Errno) {
	if fd < 0 || int(fd) >= len(k.fds) || k.fds[fd] == nil {
		return nil, EBADF
	}
	return k.fds[fd].of, 0
}

// install gives of the lowest free descriptor >= min.
func (k *Kernel) install(of *openFile, cloexec bool, min int32) (uint64, Errno) {
	limit := int32(k.rlim[rlimitNofile].cur)
	for fd := min; fd < limit; fd++ {
		if int(fd) >= len(k.fds) {
			k.fds = append(k.fds, make([]*fdEntry, int(fd)+1-len(k.fds))...)
		}
		if k.fds[fd] == nil {
			of.refs++
			k.fds[fd] = &fdEntry{of: of, cloexec: cloexec}
			return uint64(fd), 0
		}
	}
	return 0, EMFILE
}

func (k *Kernel) closeFD(fd int32) Errno {
	of, e := k.file(fd)
	if e != 0 {
		return e
	}
	k.fds[fd] = nil
	k.releaseLocksOnClose(of, of.refs == 1)
	if of.kind == kindMqueue {
		k.mqFlush(of)
	}
	return k.unref(of)
}

// unref drops one reference to an open file (a descriptor's, or a
// message's in flight: scm.go) and releases the file with the last.
func (k *Kernel) unref(of *openFile) Errno {
	of.refs--
	if of.refs > 0 {
		return 0
	}
	k.releaseFlock(of)
	switch {
	case of.kind == kindPipe:
		of.closePipeEnd()
		k.ioWake()
	case of.kind == kindSocket && of.inet != nil:
		k.inetClose(of)
	case of.kind == kindSocket && of.nl != nil:
		k.netlinkClose(of)
	case of.kind == kindSocket:
		if of.ukey != "" || of.ul != nil {
			k.unixClose(of)
		}
		if of.rx != nil {
			of.releasePair(false)
			of.shutdown(shutRcv | shutSnd)
			k.dropQueuedRights(of.rx)
			k.ioWake()
		}
		if of.uin != nil {
			k.dropQueuedRights(of.uin)
		}
	case of.kind == kindPtyMaster, of.kind == kindPtySlave:
		k.closePty(of)
	case of.kind == kindInotify:
		k.closeInotify(of.ino)
	case of.kind == kindMqueue:
		k.mqClose(of)
	case of.kind == kindHost && of.f != nil:
		k.closedNotified(of)
		if err := of.f.Close(); err != nil {
			return errnoOf(err)
		}
	}
	return 0
}

// fdWritable reports whether the sandbox lets the guest change the file
// open as of (its metadata, through the descriptor).
func (k *Kernel) fdWritable(of *openFile) bool {
	return of.memfd || of.change
}

// --- open, close ------------------------------------------------------------

func sysOpenat(k *Kernel, a sysArgs) (uint64, Errno) {
	p, e := k.readPath(a.Ptr(1))
	if e != 0 {
		return 0, e
	}
	return k.open(a.Int(0), p, a.Uint(2), a.Uint(3))
}

func (k *Kernel) open(dirfd int32, p string, flags, mode uint32) (uint64, Errno) {
	acc := flags & oAccMode
	if acc == 3 {
		return 0, EINVAL
	}
	if flags&oTmpfile == oTmpfile {
		return 0, EOPNOTSUPP
	}
	if p == "" {
		return 0, ENOENT
	}
	cloexec := flags&oCloexec != 0
	dirfd, p = k.procThrough(dirfd, p)
	g, e := k.lexical(dirfd, p)
	if e != 0 {
		return 0, e
	}
	switch {
	case g == "/dev/tty":
		if p := k.ctty(); p != nil {
			return k.openSlave(p, g, flags|oNoctty, cloexec)
		}
		return 0, ENXIO // no controlling terminal
	case g == "/dev/ptmx" || g == "/dev/pts/ptmx":
		return k.openPtmx(flags, cloexec)
	case strings.HasPrefix(g, "/dev/pts/"):
		p := k.ptyByPath(g)
		if p == nil {
			return 0, ENOENT
		}
		return k.openSlave(p, g, flags, cloexec)
	}
	if kind, ok := devFiles[g]; ok {
		return k.install(&openFile{kind: kind, guest: g, flags: flags&(oAccMode|oStatusKept) | oLargefile}, cloexec, 0)
	}
	if std := stdioPath(g, k.pid); std >= 0 {
		of, e := k.file(int32(std))
		if e != 0 {
			return 0, ENOENT
		}
		return k.install(of, cloexec, 0)
	}
	if gen, ok, gone := systemFile(g, k); ok || gone {
		if gone {
			return 0, ENOENT
		}
		return k.openProc(g, gen, flags, cloexec)
	}
	pk := k.procView(g) // the process whose /proc directory g is in
	if d := pk.procDirOf(g); d != procNoDir {
		if _, link := k.procSelfLink(g); link && flags&(oNofollow|oPath) == oNofollow {
			return 0, ELOOP
		}
		return k.openProcDir(g, flags, cloexec)
	}
	if rest, ok := pk.procRest(g); ok {
		if k.procPrivate(pk, rest) {
			return 0, EACCES
		}
		if rest == "comm" {
			return k.openComm(pk, g, flags, cloexec)
		}
		if gen, ok := pk.procGen(rest); ok {
			return k.openProc(g, func(*Kernel) []byte { return gen(pk) }, flags, cloexec)
		}
		t, e := pk.procFollow(k, rest)
		if e != 0 {
			return 0, e
		}
		if flags&(oNofollow|oPath) == oNofollow {
			return 0, ELOOP // the final component is a link
		}
		dirfd, p = atFDCWD, t
	}
	f, opened, e := k.openHost(dirfd, p, flags, mode)
	if e != 0 {
		return 0, e
	}
	guest, change := opened.guest, opened.change
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return 0, errnoOf(err)
	}
	if fi.Mode()&fs.ModeNamedPipe != 0 && flags&oPath == 0 {
		of, host, e := k.openFIFO(f, guest, flags)
		if e != 0 {
			f.Close()
			return 0, e
		}
		if !host {
			fd, e := k.install(of, cloexec, 0)
			if e != 0 {
				f.Close()
			}
			return fd, e
		}
		hf, err := reopenHost(f, flags)
		f.Close()
		if err != nil {
			return 0, errnoOf(err)
		}
		f = hf
	}
	of := &openFile{
		kind: kindHost, f: f, guest: guest, change: change,
		flags: flags&(oAccMode|oStatusKept) | oLargefile, isDir: fi.IsDir(), regular: fi.Mode().IsRegular(),
		note: opened.note,
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		of.note.obj = fileID{uint64(st.Dev), uint64(st.Ino)}
	}
	fd, e := k.install(of, cloexec, 0)
	if e != 0 {
		f.Close()
		return fd, e
	}
	k.openNotified(of, opened.created, flags)
	return fd, e
}

// hostOpen is what openHost tells of the file it opened: its guest path,
// whether the sandbox allows changing it, where it was opened from, and
// whether the open made it.
type hostOpen struct {
	guest   string
	change  bool
	note    *notifyName
	created bool
}

// hostOpenFlags translates the guest's open flags for the host.
func hostOpenFlags(flags uint32) int {
	if flags&oPath != 0 {
		if flags&oDirectory != 0 {
			return hostOPath | hostODirectory
		}
		return hostOPath
	}
	hf := os.O_RDONLY
	switch flags & oAccMode {
	case oWronly:
		hf = os.O_WRONLY
	case oRdwr:
		hf = os.O_RDWR
	}
	for _, t := range [...]struct {
		g uint32
		h int
	}{{oCreat, os.O_CREATE}, {oExcl, os.O_EXCL}, {oTrunc, os.O_TRUNC}, {oAppend, os.O_APPEND}, {oSync, os.O_SYNC}, {oDirectory, hostODirectory}} {
		if flags&t.g == t.g {
			hf |= t.h
		}
	}
	return hf
}

// openHost opens guest path p relative to dirfd in the sandbox. It
// returns the file and what hostOpen says of it. The lookup is done
// again when a racing writer swaps the final entry for a symbolic link
// between the lookup and the open.
func (k *Kernel) openHost(dirfd int32, p string, flags, mode uint32) (*os.File, hostOpen, Errno) {
	follow := flags&oNofollow == 0 && flags&(oCreat|oExcl) != oCreat|oExcl
	for try := 0; ; try++ {
		l, e := k.resolve(dirfd, p, follow)
		if e != 0 {
			return nil, hostOpen{}, e
		}
		f, change, err, e := k.openLookup(l, flags, mode)
		l.close()
		if err != nil && raced(err) && follow && try < maxRetries {
			continue
		}
		if err != nil {
			e = errnoOf(err)
		}
		opened := hostOpen{guest: l.guest, change: change, note: &notifyName{name: l.name}, created: l.obj == nil}
		if l.parent != nil {
			opened.note.dir = l.parent.id()
		}
		return f, opened, e
	}
}

// openLookup opens the object of l (see openHost): the checks Linux makes
// on the looked-up object, then the sandbox's, then the open of that
// entry by name in its held directory, never following a symbolic link.
func (k *Kernel) openLookup(l *lookup, flags, mode uint32) (*os.File, bool, error, Errno) {
	writing := flags&oAccMode != oRdonly || flags&oTrunc != 0
	creat := flags&oCreat != 0
	hf := hostOpenFlags(flags)
	var change bool
	if l.obj == nil {
		if !creat {
			return nil, false, nil, ENOENT
		}
		if l.dirReq {
			return nil, false, nil, EISDIR
		}
		if e := k.checkWrite(l); e != 0 {
			return nil, false, nil, e
		}
		change = true
	} else {
		switch {
		case flags&(oCreat|oExcl) == oCreat|oExcl:
			return nil, false, nil, EEXIST
		case l.obj.isLink() && flags&oPath == 0:
			return nil, false, nil, ELOOP
		case flags&oDirectory != 0 && !l.obj.isDir():
			return nil, false, nil, ENOTDIR
		case l.obj.isDir() && (writing || creat):
			return nil, false, nil, EISDIR
		}
		change = k.objWritable(l)
		if writing && !change {
			k.refused(l.guest)
			return nil, false, nil, EACCES
		}
		if !change {
			hf &^= os.O_CREATE | os.O_EXCL // never create where writing is refused
		}
		if l.obj.isFIFO() {
			hf = hostOPath // the run's pipe (fifo.go): the host's open would wait for a writer
		}
	}
	perm := mode &^ k.umask & 0o777
	f, err := l.open(hf, perm)
	if err == nil && l.obj == nil && perm&hostUmask() != 0 {
		f.Chmod(os.FileMode(perm)) // made now: the host applied rvsim's umask too
	}
	if err == nil && l.obj == nil {
		k.ownNew(l)
	}
	if err == nil && flags&oTrunc != 0 {
		if obj := k.liveObject(f); obj != nil { // its shared mappings see the truncation
			k.reloadObject(obj, f, 0, math.MaxInt64)
		}
	}
	return f, change, err, 0
}

// openWrite opens the existing object at p relative to dirfd with host
// flags hf, which modify it: the sandbox must allow that.
func (k *Kernel) openWrite(dirfd int32, p string, follow bool, hf int, mode uint32) (*os.File, Errno) {
	for try := 0; ; try++ {
		l, e := k.resolveExisting(dirfd, p, follow)
		if e != 0 {
			return nil, e
		}
		if l.obj.isDir() {
			l.close()
			return nil, EISDIR
		}
		if e := k.checkWrite(l); e != 0 {
			l.close()
			return nil, e
		}
		f, err := l.open(hf, mode)
		l.close()
		if err != nil && raced(err) && follow && try < maxRetries {
			continue
		}
		return f, errnoOf(err)
	}
}

// stdioPath recognises /dev/stdin, /dev/stdout, /dev/stderr and
// /proc/self/fd/{0,1,2}; it returns the descriptor or -1.
func stdioPath(g string, pid int32) int {
	switch g {
	case "/dev/stdin":
		return 0
	case "/dev/stdout":
		return 1
	case "/dev/stderr":
		return 2
	}
	if rest, ok := procSelf(g, pid); ok {
		if n, ok := strings.CutPrefix(rest, "fd/"); ok {
			if v, err := strconv.Atoi(n); err == nil && v >= 0 && v <= 2 {
				return v
			}
		}
	}
	return -1
}

func sysClose(k *Kernel, a sysArgs) (uint64, Errno) {
	return 0, k.closeFD(a.Int(0))
}

// --- read, write --------------------------------------------------------------

func sysRead(k *Kernel, a sysArgs) (uint64, Errno) {
	return k.readFD(a.Int(0), a.Ptr(1), a.Ptr(2), -1)
}

func sysPread64(k *Kernel, a sysArgs) (uint64, Errno) {
	if a.Long(3) < 0 {
		return 0, EINVAL
	}
	return k.readFD(a.Int(0), a.Ptr(1), a.Ptr(2), a.Long(3))
}

func sysWrite(k *Kernel, a sysArgs) (uint64, Errno) {
	return k.writeFD(a.Int(0), a.Ptr(1), a.Ptr(2), -1)
}

func sysPwrite64(k *Kernel, a sysArgs) (uint64, Errno) {
	if a.Long(3) < 0 {
		return 0, EINVAL
	}
	return k.writeFD(a.Int(0), a.Ptr(1), a.Ptr(2), a.Long(3))
}

// seekable reports whether positioned I/O (pread, lseek) works on of.
func (of *openFile) seekable() bool {
	switch of.kind {
	case kindHost, kindNull, kindZero, kindRandom, kindFull:
		return true
	}
	return of.f != nil && of.regularStdio()
}

func (of *openFile) regularStdio() bool {
	fi, err := of.f.Stat()
	return err == nil && fi.Mode().IsRegular()
}

// readFD reads up to count bytes from fd into guest memory at buf, at
// offset off (pread) or the file position (off < 0).
func (k *Kernel) readFD(fd int32, buf, count uint64, off int64) (uint64, Errno) {
	of, e := k.file(fd)
	if e != 0 {
		return 0, e
	}
	if !of.canRead() {
		return 0, EBADF
	}
	if of.isDir {
		return 0, EISDIR
	}
	if off >= 0 && !of.seekable() {
		return 0, ESPIPE
	}
	count = min(count, maxRW)
	switch of.kind {
	case kindEventfd:
		return k.readEventfd(of, buf, count)
	case kindTimerfd:
		return k.readTimerfd(of, buf, count)
	case kindSignalfd:
		return k.readSignalfd(of, buf, count)
	case kindInotify:
		return k.readInotify(of, buf, count)
	case kindPidfd: // no read method, whatever the count
		return 0, EINVAL
	case kindMqueue:
		return k.readMqueue(of, buf, count)
	}
	if count == 0 {
		return 0, 0
	}
	switch of.kind {
	case kindSocket:
		return k.recvFD(of, buf, count, 0)
	case kindEpoll:
		return 0, EINVAL
	case kindPipe:
		return k.readPipe(of, buf, count)
	case kindPtyMaster, kindPtySlave:
		return k.ptyRead(of, buf, count)
	case kindNull:
		return 0, 0
	case kindZero, kindFull:
		clear(k.buf)
		return k.fill(buf, count, func(p []byte) (int, error) { return len(p), nil }, true, nil)
	case kindRandom:
		return k.fill(buf, count, func(p []byte) (int, error) { k.rand.fill(p); return len(p), nil }, true, nil)
	case kindStdin:
		if of.r == nil {
			return 0, 0
		}
		if off >= 0 {
			return k.fill(buf, count, readerAt(of.f, off), true, nil)
		}
		if e := k.awaitHost(of, pollIn); e != 0 {
			return 0, e
		}
		return k.fill(buf, count, of.r.Read, false, nil)
	}
	k.syncForIO(of.f) // stores through shared mappings first (shared.go)
	if off >= 0 {
		return k.fill(buf, count, readerAt(of.f, off), true, nil)
	}
	if e := k.awaitHost(of, pollIn); e != 0 {
		return 0, e
	}
	unread := func(n int) { of.f.Seek(-int64(n), io.SeekCurrent) }
	return k.fill(buf, count, of.f.Read, of.regular, unread)
}

// awaitHost makes a thread of a multi-threaded process that would wait
// in the host's read (events pollIn) or write (pollOut) of a host pipe,
// FIFO or terminal wait as a thread (thread.host) while the others run:
// pick polls the descriptor at each switch, and the call starts again
// once the host says it is ready. A process with one thread, or a call
// the descriptor can take now, goes to the host as before. (A write
// longer than the room POLLOUT promises still waits on the host for the
// rest.)
func (k *Kernel) awaitHost(of *openFile, events uint32) Errno {
	f := of.hostWaitable()
	if f == nil || !k.multi() || of.flags&oNonblock != 0 || k.deliverable(0) {
		return 0
	}
	fds := []hostFD{{f: f, events: events}}
	if hostPoll(fds, 0) {
		return 0
	}
	what := "in host read"
	if events == pollOut {
		what = "in host write"
	}
	_, e := k.block(what, 0, 0, -1, func(why waitResult) uint64 {
		if why == waitReady {
			return errnoRet(errRestartNoIntr)
		}
		return errnoRet(errRestartSys)
	})
	k.run.host = fds
	k.run.ready = func() bool { return true } // (the host's poll has said so)
	return e
}

func readerAt(f *os.File, off int64) func([]byte) (int, error) {
	return func(p []byte) (int, error) {
		n, err := f.ReadAt(p, off)
		off += int64(n)
		return n, err
	}
}

// fill moves up to count bytes from src into guest memory at addr, in
// chunks. With more, it keeps reading until count or end of file (regular
// files); otherwise one read (pipes, terminals). When the guest buffer ends
// early, the bytes read but not delivered are handed to unread (if any) and
// the count so far is returned (EFAULT if none).
func (k *Kernel) fill(addr, count uint64, src func([]byte) (int, error), more bool, unread func(int)) (uint64, Errno) {
	var total uint64
	for total < count {
		n := min(count-total, chunk)
		got, err := src(k.buf[:n])
		if got > 0 {
			w := k.copyOut(addr+total, k.buf[:got])
			total += uint64(w)
			if w < got {
				if unread != nil {
					unread(got - w)
				}
				if total == 0 {
					return 0, EFAULT
				}
				return total, 0
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) || total > 0 {
				break
			}
			return 0, errnoOf(err)
		}
		if !more || got == 0 {
			break
		}
	}
	return total, 0
}

// writeFD writes count bytes from guest memory at buf to fd.
func (k *Kernel) writeFD(fd int32, buf, count uint64, off int64) (uint64, Errno) {
	of, e := k.file(fd)
	if e != 0 {
		return 0, e
	}
	if !of.canWrite() {
		return 0, EBADF
	}
	if off >= 0 && !of.seekable() {
		return 0, ESPIPE
	}
	count = min(count, maxRW)
	if of.commTID != 0 { // a thread's /proc comm (comm_write)
		b, e := k.readMem(buf, min(count, 15))
		if e != 0 {
			return 0, e
		}
		k.setTaskComm(of.commTID, string(b))
		return count, 0
	}
	switch of.kind {
	case kindNull, kindZero, kindRandom:
		return count, 0
	case kindFull:
		return 0, ENOSPC
	case kindEventfd:
		return k.writeEventfd(of, buf, count)
	case kindEpoll, kindTimerfd, kindSignalfd, kindPidfd, kindInotify, kindMqueue:
		return 0, EINVAL
	case kindSocket:
		return k.sendFrom(of, buf, count, 0, 0, 0)
	case kindPipe:
		return k.writeFrom(buf, count, uint64(of.pipe.capacity())+pipeBuf, pipeBuf, func(b []byte) (int, Errno) { return k.writePipe(of, b) })
	case kindPtyMaster, kindPtySlave:
		return k.ptyWrite(of, buf, count)
	}
	if of.sealed(true, -1) {
		return 0, EPERM
	}
	var sink func([]byte) (int, error)
	switch {
	case of.kind == kindStdout && off >= 0:
		sink = writerAt(of.f, off)
	case of.kind == kindStdout:
		sink = of.w.Write
	case off >= 0:
		sink = writerAt(of.f, off)
	default:
		sink = of.f.Write
	}
	var obj *mem.Object // the file's shared mappings' object (shared.go)
	if of.kind == kindHost {
		obj = k.syncForIO(of.f)
	}
	if off < 0 && count > 0 {
		if e := k.awaitHost(of, pollOut); e != 0 {
			return 0, e
		}
	}
	total, e := k.drain(buf, count, sink)
	if obj != nil && total > 0 {
		at := off
		if at < 0 { // the write ended at the file position
			pos, _ := of.f.Seek(0, io.SeekCurrent)
			at = pos - int64(total)
		}
		k.reloadObject(obj, of.f, at, at+int64(total))
	}
	return total, e
}

// drain writes count bytes from guest memory at buf to sink, in chunks,
// up to the first fault or error.
func (k *Kernel) drain(buf, count uint64, sink func([]byte) (int, error)) (uint64, Errno) {
	var total uint64
	for total < count {
		want := min(count-total, chunk)
		n := k.userOK(buf+total, want, mem.R)
		if n == 0 {
			if total == 0 {
				return 0, EFAULT
			}
			break
		}
		if err := k.mem.ReadBytes(buf+total, k.buf[:n]); err != nil {
			return total, 0
		}
		w, err := sink(k.buf[:n])
		total += uint64(w)
		if err != nil {
			e := errnoOf(err)
			if e == EPIPE {
				k.raise(sigPIPE, k.senderInfo(sigPIPE, siUser))
			}
			if total == 0 {
				return 0, e
			}
			break
		}
		if n < want {
			break
		}
	}
	return total, 0
}

func writerAt(f *os.File, off int64) func([]byte) (int, error) {
	return func(p []byte) (int, error) {
		n, err := f.WriteAt(p, off)
		off += int64(n)
		return n, err
	}
}

// iovecs reads an iovec array (struct iovec: base, len; 16 bytes).
func (k *Kernel) iovecs(addr uint64, cnt int32) ([][2]uint64, Errno) {
	if cnt < 0 || cnt > 1024 { // UIO_MAXIOV
		return nil, EINVAL
	}
	b, e := k.readMem(addr, uint64(cnt)*16)
	if e != 0 {
		return nil, e
	}
	iov := make([][2]uint64, cnt)
	var total uint64
	for i := range iov {
		iov[i] = [2]uint64{le64(b[16*i:]), le64(b[16*i+8:])}
		if int64(iov[i][1]) < 0 {
			return nil, EINVAL
		}
		iov[i][1] = min(iov[i][1], maxRW-total)
		total += iov[i][1]
	}
	return iov, 0
}

func sysReadv(k *Kernel, a sysArgs) (uint64, Errno) {
	return k.vector(a.Int(0), a.Ptr(1), a.Int(2), -1, false)
}

func sysWritev(k *Kernel, a sysArgs) (uint64, Errno) {
	return k.vector(a.Int(0), a.Ptr(1), a.Int(2), -1, true)
}

func sysPreadv(k *Kernel, a sysArgs) (uint64, Errno) {
	if a.Long(3) < 0 {
		return 0, EINVAL
	}
	return k.vector(a.Int(0), a.Ptr(1), a.Int(2), a.Long(3), false)
}

func sysPwritev(k *Kernel, a sysArgs) (uint64, Errno) {
	if a.Long(3) < 0 {
		return 0, EINVAL
	}
	return k.vector(a.Int(0), a.Ptr(1), a.Int(2), a.Long(3), true)
}

// vector performs readv and writev (at off, when not negative) as one
// transfer of the buffers' bytes, as Linux's read_iter and write_iter
// take the whole iovec:
//   - on a socket, one message: a datagram of every buffer, or one
//     received and scattered over them (sendIov, recvIov);
//   - to a pipe, one write that takes every byte (writeGather): its
//     atomic PIPE_BUF and its wait count the buffers together;
//   - otherwise consecutive transfers, stopping at the first short one;
//     a read of a pipe or terminal also stops before a buffer when no
//     more is ready, where one read of them all would have returned.
func (k *Kernel) vector(fd int32, iovAddr uint64, cnt int32, off int64, write bool) (uint64, Errno) {
	of, e := k.file(fd)
	if e != 0 {
		return 0, e
	}
	iov, e := k.iovecs(iovAddr, cnt)
	if e != 0 {
		return 0, e
	}
	if off < 0 {
		switch {
		case of.kind == kindSocket && write:
			return k.sendIov(of, iovAddr, iov, 0, 0, 0, nil)
		case of.kind == kindSocket && iovBytes(iov) == 0:
			return 0, 0 // sock_read_iter: nothing to read into, no message taken
		case of.kind == kindSocket:
			return k.recvIov(of, iov)
		case of.kind == kindPipe && write && of.canWrite() && iovBytes(iov) > 0:
			return k.writeGather(iovAddr, iov, uint64(of.pipe.capacity())+pipeBuf, pipeBuf,
				func(b []byte) (int, Errno) { return k.writePipe(of, b) })
		}
	}
	op := k.readFD
	if write {
		op = k.writeFD
	}
	var total uint64
	for _, v := range iov {
		if v[1] == 0 {
			continue
		}
		if total > 0 && !write && !k.readReady(of) {
			break
		}
		n, e := op(fd, v[0], v[1], off)
		if e != 0 {
			if total == 0 {
				return 0, e
			}
			break
		}
		total += n
		if off >= 0 {
			off += int64(n)
		}
		if n < v[1] {
			break
		}
	}
	return total, 0
}

// readReady tells whether a read of of returns at once: with bytes, at
// end of file or with an error (a regular file always does).
func (k *Kernel) readReady(of *openFile) bool {
	if f := of.hostWaitable(); f != nil {
		return hostPoll([]hostFD{{f: f, events: pollIn}}, 0)
	}
	return k.fileMask(of)&(pollIn|pollHup|pollErr) != 0
}

// --- seeking, descriptors -------------------------------------------------------

func sysLseek(k *Kernel, a sysArgs) (uint64, Errno) {
	of, e := k.file(a.Int(0))
	if e != 0 {
		return 0, e
	}
	off, whence := a.Long(1), int(a.Uint(2))
	if whence < 0 || whence > 4 { // SEEK_SET..SEEK_HOLE
		return 0, EINVAL
	}
	switch {
	case of.kind == kindHost && of.isDir:
		switch {
		case whence == io.SeekStart && off == 0: // rewind: list afresh
			of.dir, of.dirPos = nil, 0
			return 0, 0
		case whence == io.SeekStart && off > 0: // a d_off cookie: an entry index
			if of.dir == nil {
				if e := k.snapshot(of); e != 0 {
					return 0, e
				}
			}
			of.dirPos = int(min(off, int64(len(of.dir))))
			return uint64(off), 0
		case whence == io.SeekCurrent && off == 0:
			return uint64(of.dirPos), 0
		}
		return 0, EINVAL
	case of.kind == kindHost:
	case of.kind == kindNull || of.kind == kindZero || of.kind == kindRandom || of.kind == kindFull || of.anonInode():
		return 0, 0 // noop_llseek
	case of.kind == kindMqueue:
		return of.mq.seek(off, whence)
	case of.f != nil:
	default:
		return 0, ESPIPE
	}
	pos, err := of.f.Seek(off, whence)
	if err != nil {
		return 0, errnoOf(err)
	}
	return uint64(pos), 0
}

func sysDup(k *Kernel, a sysArgs) (uint64, Errno) {
	of, e := k.file(a.Int(0))
	if e != 0 {
		return 0, e
	}
	return k.install(of, false, 0)
}

func sysDup3(k *Kernel, a sysArgs) (uint64, Errno) {
	oldfd, newfd, flags := a.Int(0), a.Int(1), a.Uint(2)
	if flags&^oCloexec != 0 {
		return 0, EINVAL
	}
	if oldfd == newfd {
		return 0, EINVAL
	}
	of, e := k.file(oldfd)
	if e != 0 {
		return 0, e
	}
	if newfd < 0 || uint64(newfd) >= k.rlim[rlimitNofile].cur {
		return 0, EBADF
	}
	if int(newfd) >= len(k.fds) {
		k.fds = append(k.fds, make([]*fdEntry, int(newfd)+1-len(k.fds))...)
	}
	if k.fds[newfd] != nil {
		k.closeFD(newfd)
	}
	of.refs++
	k.fds[newfd] = &fdEntry{of: of, cloexec: flags&oCloexec != 0}
	return uint64(newfd), 0
}

// fcntl commands.
const (
	fDupfd        = 0
	fGetfd        = 1
	fSetfd        = 2
	fGetfl        = 3
	fSetfl        = 4
	fGetlk        = 5
	fSetlk        = 6
	fSetlkw       = 7
	fSetown       = 8
	fGetown       = 9
	fDupfdCloexec = 1030
	fdCloexec     = 1 // FD_CLOEXEC
	fUnlck        = 2 // F_UNLCK
)

func sysFcntl(k *Kernel, a sysArgs) (uint64, Errno) {
	fd := a.Int(0)
	of, e := k.file(fd)
	if e != 0 {
		return 0, e
	}
	switch a.Uint(1) {
	case fDupfd, fDupfdCloexec:
		min := a.Int(2)
		if min < 0 || uint64(min) >= k.rlim[rlimitNofile].cur {
			return 0, EINVAL
		}
		return k.install(of, a.Uint(1) == fDupfdCloexec, min)
	case fGetfd:
		if k.fds[fd].cloexec {
			return fdCloexec, 0
		}
		return 0, 0
	case fSetfd:
		k.fds[fd].cloexec = a.Uint(2)&fdCloexec != 0
		return 0, 0
	case fGetfl:
		return uint64(of.flags), 0
	case fSetfl:
		nf := of.flags&^oSettable | a.Uint(2)&oSettable
		if of.kind == kindHost && (nf^of.flags)&oAppend != 0 {
			if err := hostSetAppend(of.f, nf&oAppend != 0); err != nil {
				return 0, errnoOf(err)
			}
		}
		of.flags = nf
		return 0, 0
	case fGetlk, fSetlk, fSetlkw, fOfdGetlk, fOfdSetlk, fOfdSetlkw:
		return k.fcntlLock(of, a.Uint(1), a.Ptr(2))
	case fSetown:
		of.owner = a.Int(2)
		return 0, 0
	case fGetown:
		return uint64(int64(of.owner)), 0
	case fGetPipeSz, fSetPipeSz:
		if of.kind != kindPipe {
			return 0, EBADF
		}
		if a.Uint(1) == fSetPipeSz {
			return setPipeSize(of.pipe, int64(a.Int(2)), k.cred.capable(capSysResource))
		}
		return uint64(of.pipe.capacity()), 0
	case fGetSeals:
		if !of.memfd {
			return 0, EINVAL
		}
		return uint64(of.seals), 0
	case fAddSeals:
		if !of.memfd {
			return 0, EINVAL
		}
		add := a.Uint(2)
		switch {
		case add&^(fSealSeal|fSealShrink|fSealGrow|fSealWrite|fSealFutureW) != 0:
			return 0, EINVAL
		case !of.canWrite():
			return 0, EPERM
		case of.seals&fSealSeal != 0:
			return 0, EPERM
		}
		of.seals |= add
		return 0, 0
	}
	return 0, EINVAL
}

// ioctl requests (asm-generic ioctls.h).
const (
	tcgets     = 0x5401
	tcsets     = 0x5402
	tcsetsw    = 0x5403
	tcsetsf    = 0x5404
	tiocgpgrp  = 0x540f
	tiocgwinsz = 0x5413
	tiocswinsz = 0x5414
	fionread   = 0x541b
	fionbio    = 0x5421
	fionclex   = 0x5450
	fioclex    = 0x5451
	termiosLen = 36 // struct termios: 4 flags, c_line, c_cc[19]
	winsizeLen = 8
)

func sysIoctl(k *Kernel, a sysArgs) (uint64, Errno) {
	fd := a.Int(0)
	of, e := k.file(fd)
	if e != 0 {
		return 0, e
	}
	arg := a.Ptr(2)
	if of.pty != nil {
		if r, e, ok := k.ptyIoctl(of, uint64(a.Uint(1)), arg); ok {
			return r, e
		}
	}
	if a.Uint(1) == siocatmark && of.kind == kindSocket {
		if of.sockType != sockStream || of.rx == nil {
			return 0, EINVAL
		}
		return 0, k.writeU32(arg, b2u(atMark(of.rx)))
	}
	if a.Uint(1)>>8 == sockIoctlType && of.kind == kindSocket {
		return k.ifIoctl(of, a.Uint(1), arg)
	}
	tty := of.f != nil && hostIsTerminal(of.f)
	switch a.Uint(1) {
	case fioclex, fionclex:
		k.fds[fd].cloexec = a.Uint(1) == fioclex
		return 0, 0
	case fionbio:
		v, e := k.readU32(arg)
		if e != 0 {
			return 0, e
		}
		if v != 0 {
			of.flags |= oNonblock
		} else {
			of.flags &^= oNonblock
		}
		return 0, 0
	case tcgets:
		if !tty {
			return 0, ENOTTY
		}
		b, err := hostTermios(of.f)
		if err != nil {
			return 0, errnoOf(err)
		}
		return 0, k.writeMem(arg, b[:termiosLen])
	case tiocgwinsz:
		if !tty {
			return 0, ENOTTY
		}
		b, err := hostWinsize(of.f)
		if err != nil {
			return 0, errnoOf(err)
		}
		return 0, k.writeMem(arg, b[:winsizeLen])
	case tcsets, tcsetsw, tcsetsf, tiocswinsz:
		// Accepted but not applied: the guest does not change the host terminal.
		if !tty {
			return 0, ENOTTY
		}
		return 0, 0
	case tiocgpgrp:
		if !tty {
			return 0, ENOTTY
		}
		return 0, k.writeU32(arg, uint32(k.pid))
	case tfdIocSetTicks:
		if of.kind != kindTimerfd {
			return 0, ENOTTY
		}
		return 0, k.setTicks(of, arg)
	case fionread:
		if of.kind == kindInotify {
			return 0, k.writeU32(arg, uint32(of.ino.bytes))
		}
		if of.kind == kindPipe {
			return 0, k.writeU32(arg, uint32(len(of.pipe.buf)))
		}
		if of.kind == kindSocket && of.inet != nil && of.sockType == sockDgram {
			return 0, k.writeU32(arg, uint32(of.inet.inbox.inq()))
		}
		if of.kind == kindSocket && of.rx == nil && of.uin != nil {
			return 0, k.writeU32(arg, uint32(of.uin.inq()))
		}
		if of.kind == kindSocket && of.rx != nil { // unix_ioctl SIOCINQ
			return 0, k.writeU32(arg, uint32(of.rx.inq()))
		}
		if of.kind != kindHost || !of.regular {
			return 0, ENOTTY
		}
		fi, err := of.f.Stat()
		if err != nil {
			return 0, errnoOf(err)
		}
		pos, _ := of.f.Seek(0, io.SeekCurrent)
		return 0, k.writeU32(arg, uint32(max(fi.Size()-pos, 0)))
	}
	return 0, ENOTTY
}

// sysFadvise64 accepts advice about file access patterns; there is no page
// cache to tune.
func sysFadvise64(k *Kernel, a sysArgs) (uint64, Errno) {
	of, e := k.file(a.Int(0))
	if e != 0 {
		return 0, e
	}
	if of.kind == kindStdin || of.kind == kindStdout {
		if !of.seekable() {
			return 0, ESPIPE
		}
	}
	if adv := a.Int(3); adv < 0 || adv > 5 { // POSIX_FADV_NORMAL..NOREUSE
		return 0, EINVAL
	}
	return 0, 0
}

// preadv2 and pwritev2 flags (uapi/linux/fs.h): the hints are accepted;
// RWF_NOWAIT only where nothing would wait (a regular file); the rest
// (RWF_APPEND, RWF_NOAPPEND, RWF_ATOMIC, RWF_DONTCACHE) answer
// EOPNOTSUPP, as a kernel without them does.
const (
	rwfHipri  = 1
	rwfDsync  = 2
	rwfSync   = 4
	rwfNowait = 8
)

// vector2 is preadv2 and pwritev2: an offset of -1 uses and advances the
// file position, as readv and writev do (the high half of the offset is
// for 32-bit callers).
func (k *Kernel) vector2(a sysArgs, write bool) (uint64, Errno) {
	flags := a.Uint(5)
	if flags&^(rwfHipri|rwfDsync|rwfSync|rwfNowait) != 0 {
		return 0, EOPNOTSUPP
	}
	off := a.Long(3)
	if off < -1 {
		return 0, EINVAL
	}
	if flags&rwfNowait != 0 {
		of, e := k.file(a.Int(0))
		if e != 0 {
			return 0, e
		}
		if of.kind != kindHost || !of.regular {
			return 0, EOPNOTSUPP
		}
	}
	return k.vector(a.Int(0), a.Ptr(1), a.Int(2), off, write)
}

func sysPreadv2(k *Kernel, a sysArgs) (uint64, Errno)  { return k.vector2(a, false) }
func sysPwritev2(k *Kernel, a sysArgs) (uint64, Errno) { return k.vector2(a, true) }

// sysSyncFileRange checks its arguments; the host writes back on its own.
func sysSyncFileRange(k *Kernel, a sysArgs) (uint64, Errno) {
	if a.Long(1) < 0 || a.Long(2) < 0 || a.Uint(3)&^7 != 0 {
		return 0, EINVAL
	}
	of, e := k.file(a.Int(0))
	if e != 0 {
		return 0, e
	}
	if of.kind == kindPipe || of.kind == kindSocket {
		return 0, ESPIPE
	}
	return 0, 0
}

// sysReadahead: a hint for regular files (EINVAL for others, as Linux).
func sysReadahead(k *Kernel, a sysArgs) (uint64, Errno) {
	of, e := k.file(a.Int(0))
	if e != 0 {
		return 0, e
	}
	if of.kind != kindHost || !of.regular {
		return 0, EINVAL
	}
	return 0, 0
}
