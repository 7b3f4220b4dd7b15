package syscalls

import (
	"errors"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// The file-system sandbox decides on opened objects, never on names.
//
// A lookup walks the guest path one component at a time, each step an
// openat(2) of a single name with O_PATH|O_NOFOLLOW relative to the
// directory descriptor of the step before: the kernel never follows a
// symbolic link for us, so a link swapped in by a racing writer is only
// ever read (readlinkat on the opened link itself) and re-walked here,
// inside the root. ".." pops back to the directory the walk came from,
// and stops at the root (compared by device and inode). The result is a
// held descriptor of the final object and of the directory that holds it.
//
// Every operation then acts on those descriptors: fchmodat2, fchownat and
// utimensat on the object with AT_EMPTY_PATH, fstat, fstatfs, readlinkat
// on it, and openat, mkdirat, unlinkat, renameat2, linkat, symlinkat with
// a single name (no "/") relative to the held parent, with O_NOFOLLOW
// where the call would follow. Whether a modification is allowed is
// decided on the same held objects: a directory is writable when walking
// up from it through ".." reaches one of the --allow-write directories
// (held open since New, compared by device and inode), a non-directory
// when the directory holding it is. No guest call can move an object
// across that boundary (a rename or link needs both sides writable), so
// the answer cannot change between the check and the operation.

// Host open flags the portable code passes on.
const (
	hostOPath      = unix.O_PATH
	hostONonblock  = unix.O_NONBLOCK
	hostODirectory = unix.O_DIRECTORY
)

// node is a host object the sandbox holds: an O_PATH descriptor and its
// fstat at open.
type node struct {
	fd       int
	st       syscall.Stat_t
	borrowed bool // owned elsewhere (the root, the cwd, a guest descriptor): not closed by lookup.close
}

func (n *node) id() fileID { return fileID{uint64(n.st.Dev), uint64(n.st.Ino)} }

func (n *node) isDir() bool  { return n.st.Mode&syscall.S_IFMT == syscall.S_IFDIR }
func (n *node) isLink() bool { return n.st.Mode&syscall.S_IFMT == syscall.S_IFLNK }
func (n *node) isReg() bool  { return n.st.Mode&syscall.S_IFMT == syscall.S_IFREG }
func (n *node) isFIFO() bool { return n.st.Mode&syscall.S_IFMT == syscall.S_IFIFO }

// nlink is the object's link count at its lookup.
func (n *node) nlink() uint64 { return uint64(n.st.Nlink) }

// stat describes the object now: the root and the working directory are
// held for the whole run, and their times change when the guest writes
// in them.
func (n *node) stat() statInfo {
	var st syscall.Stat_t
	if err := syscall.Fstat(n.fd, &st); err != nil {
		return statOf(&n.st)
	}
	return statOf(&st)
}

func (n *node) close() {
	if n != nil && !n.borrowed {
		unix.Close(n.fd)
	}
}

// openNode opens name (one component, or "." / "..") relative to
// directory descriptor dir without following a final symbolic link.
func openNode(dir int, name string) (*node, error) {
	fd, err := unix.Openat(dir, name, unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	n := &node{fd: fd}
	if err := syscall.Fstat(fd, &n.st); err != nil {
		unix.Close(fd)
		return nil, err
	}
	return n, nil
}

// openHostDir opens host directory d (an absolute, symlink-free path).
func openHostDir(d string) (*node, error) {
	n, err := openNode(unix.AT_FDCWD, d)
	if err == nil && !n.isDir() {
		n.close()
		return nil, &os.PathError{Op: "open", Path: d, Err: syscall.ENOTDIR}
	}
	return n, err
}

// borrow wraps a descriptor owned by an open file.
func borrow(f *os.File) (*node, Errno) {
	n := &node{fd: int(f.Fd()), borrowed: true}
	if err := syscall.Fstat(n.fd, &n.st); err != nil {
		return nil, errnoOf(err)
	}
	return n, 0
}

// dupNode returns an owned O_PATH descriptor of the same object.
func dupNode(n *node) (*node, error) {
	fd, err := unix.Openat(n.fd, ".", unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	return &node{fd: fd, st: n.st}, nil
}

// sandboxFS is the Kernel's file-system state on a Linux host.
type sandboxFS struct {
	rootN   *node       // the process's "/" (the run's root until chroot)
	topN    *node       // the run's root: the guest system's real "/", where ".." stops outside a chroot
	topDir  string      // topN's host path (symlink-free)
	cwdN    *node       // the working directory (owned)
	allowed []*node     // the writable directories, held open so their identities stay unique
	shm     *privateShm // the run's /dev/shm, shared by its processes
}

// privateShm is the run's private /dev/shm, as a container runtime gives
// each container one: a walk that reaches the root's /dev/shm directory
// (at) goes on in an empty host directory instead, made on first use,
// where the guest may write (POSIX shared memory and named semaphores:
// shm_open, sem_open, Python's multiprocessing). Nothing written there
// reaches the host's /dev/shm or outlives the run: the first process
// removes it when the run's processes have ended.
type privateShm struct {
	at  fileID // the root's /dev/shm (zero: the root has none)
	dir string // the host directory, "" until made
	n   *node
	err error // why it could not be made
}

// openSandbox opens the root and the writable directories.
func (k *Kernel) openSandbox() error {
	n, err := openHostDir(k.rootDir)
	if err != nil {
		return err
	}
	n.borrowed = true
	k.rootN = n
	if k.topN, err = dupNode(n); err != nil {
		return err
	}
	k.topN.borrowed = true
	k.topDir = k.rootDir
	if k.cwdN, err = dupNode(n); err != nil {
		return err
	}
	for _, d := range k.writeDirs {
		a, err := openHostDir(d)
		if err != nil {
			return err
		}
		k.allowed = append(k.allowed, a)
	}
	k.shm = &privateShm{}
	if dev, err := openNode(k.rootN.fd, "dev"); err == nil {
		if shm, err := openNode(dev.fd, "shm"); err == nil {
			if shm.isDir() {
				k.shm.at = shm.id()
			}
			shm.close()
		}
		dev.close()
	}
	return nil
}

// shmNode returns the private /dev/shm, made on first use.
func (k *Kernel) shmNode() (*node, Errno) {
	s := k.shm
	if s.n == nil && s.err == nil {
		dir, err := os.MkdirTemp("", "rvsim-shm-")
		if err == nil {
			if s.n, err = openHostDir(dir); err != nil {
				os.RemoveAll(dir)
			} else {
				s.dir = dir
			}
		}
		if err != nil {
			s.err = err
			k.warnOnce("private shm", "rvsim: warning: no private /dev/shm: %v", err)
		}
	}
	if s.n == nil {
		return nil, EACCES
	}
	return s.n, 0
}

// privateShm reports whether n is the run's private /dev/shm.
func (k *Kernel) privateShm(n *node) bool {
	return k.shm != nil && k.shm.n != nil && n.id() == k.shm.n.id()
}

// removePrivateShm removes the private /dev/shm (the run's processes have
// ended).
func (k *Kernel) removePrivateShm() {
	if s := k.shm; s != nil && s.n != nil {
		unix.Close(s.n.fd)
		os.RemoveAll(s.dir)
		s.n, s.dir = nil, ""
	}
}

func (k *Kernel) closeSandbox() {
	if k.cwdN != nil {
		k.cwdN.close()
	}
	for _, a := range k.allowed {
		a.close()
	}
	for _, n := range []*node{k.rootN, k.topN} {
		if n != nil {
			unix.Close(n.fd)
		}
	}
}

// lookup is the outcome of a path lookup: held descriptors of the
// final object and of the directory holding it.
type lookup struct {
	guest  string // absolute, clean guest path of the object (for messages and names)
	parent *node  // the directory holding the final entry; nil when the path named a directory by "/", "." or ".."
	name   string // the final entry's name in parent
	obj    *node  // the object; nil if the final entry does not exist
	dirReq bool   // the path ended in "/": the object must be a directory
	held   []*node
}

// close releases the descriptors the lookup opened.
func (l *lookup) close() {
	for _, n := range l.held {
		n.close()
	}
	l.held = nil
}

// take removes n from the descriptors close releases (the caller keeps it).
func (l *lookup) take(n *node) *node {
	for i, h := range l.held {
		if h == n {
			l.held = append(l.held[:i], l.held[i+1:]...)
			return n
		}
	}
	if n.borrowed {
		if d, err := dupNode(n); err == nil {
			return d
		}
	}
	return n
}

// baseNode returns the directory relative paths start from: the cwd for
// AT_FDCWD, else the directory open as dirfd, with its guest path.
func (k *Kernel) baseNode(dirfd int32) (*node, string, Errno) {
	if dirfd == atFDCWD {
		return &node{fd: k.cwdN.fd, st: k.cwdN.st, borrowed: true}, k.cwd, 0
	}
	of, e := k.file(dirfd)
	if e != 0 {
		return nil, "", e
	}
	if of.kind != kindHost || !of.isDir || of.f == nil {
		return nil, "", ENOTDIR
	}
	n, e := borrow(of.f)
	return n, of.guest, e
}

// resolve looks up guest path p relative to dirfd. follow says whether a
// symlink in the final position is followed (a trailing "/" always
// follows). A missing final component is not an error (obj is nil, so
// that creating calls can use the parent); a missing or non-directory
// intermediate one is (ENOENT, ENOTDIR). An empty path is ENOENT. With a
// sysroot, an absolute path that exists below it is taken from there
// (see sysroot.go). The caller closes the result.
func (k *Kernel) resolve(dirfd int32, p string, follow bool) (*lookup, Errno) {
	dirfd, p = k.procThrough(dirfd, p)
	l, ok := k.inSysroot(p, follow)
	e := Errno(0)
	if !ok {
		l, e = k.walk(dirfd, p, follow)
	}
	if e == 0 && testHookResolved != nil {
		testHookResolved()
	}
	return l, e
}

// testHookResolved, when set (by tests), runs after every successful
// lookup: a test swaps a directory there, inside the window a check on
// names would leave open.
var testHookResolved func()

// resolveExisting is resolve for a path that must exist (ENOENT).
func (k *Kernel) resolveExisting(dirfd int32, p string, follow bool) (*lookup, Errno) {
	l, e := k.resolve(dirfd, p, follow)
	if e == 0 && l.obj == nil {
		l.close()
		return nil, ENOENT
	}
	return l, e
}

// walk is resolve without the sysroot.
func (k *Kernel) walk(dirfd int32, p string, follow bool) (*lookup, Errno) {
	if p == "" {
		return nil, ENOENT
	}
	if len(p) >= pathMax {
		return nil, ENAMETOOLONG
	}
	l := &lookup{dirReq: strings.HasSuffix(p, "/")}
	fail := func(e Errno) (*lookup, Errno) { l.close(); return nil, e }
	// stack holds the directories the walk went down through, so that ".."
	// returns to them; g is the guest path of the top.
	var stack []*node
	var g []string
	if strings.HasPrefix(p, "/") {
		stack = []*node{k.rootN}
	} else {
		base, bg, e := k.baseNode(dirfd)
		if e != 0 {
			return fail(e)
		}
		stack, g = []*node{base}, splitPath(bg)
	}
	todo := splitPath(p)
	links := 0
	for len(todo) > 0 {
		name := todo[0]
		todo = todo[1:]
		last := len(todo) == 0
		top := stack[len(stack)-1]
		if name == ".." {
			if len(g) > 0 {
				g = g[:len(g)-1]
			}
			switch {
			case len(stack) > 1:
				stack = stack[:len(stack)-1]
			case top.id() != k.rootN.id() && top.id() != k.topN.id():
				// A base below the root: its real parent. A base outside
				// a chroot climbs as on Linux, up to the run's root.
				dir, name := top.fd, ".."
				if k.privateShm(top) { // which for the private /dev/shm is the root's /dev
					dir, name = k.rootN.fd, "dev"
				}
				up, err := openNode(dir, name)
				if err != nil {
					return fail(errnoOf(err))
				}
				l.held = append(l.held, up)
				stack[0] = up
				if up.id() == top.id() {
					// The host's "/": the base was outside the root (moved
					// there by the host). Its "/" is the guest's.
					stack[0], g = k.rootN, nil
				}
			}
			continue
		}
		if len(name) > nameMax {
			return fail(ENAMETOOLONG)
		}
		n, err := openNode(top.fd, name)
		if err != nil {
			if e := errnoOf(err); e == ENOENT && last {
				l.parent, l.name = top, name
				l.guest = "/" + path.Join(append(g, name)...)
				return l, 0
			} else {
				return fail(e)
			}
		}
		l.held = append(l.held, n)
		mount := k.shm != nil && k.shm.at != (fileID{}) && n.id() == k.shm.at
		if mount { // the run's private /dev/shm in its place
			shm, e := k.shmNode()
			if e != 0 {
				return fail(e)
			}
			if n, err = dupNode(shm); err != nil {
				return fail(errnoOf(err))
			}
			l.held = append(l.held, n)
		}
		if n.isLink() && (!last || follow || l.dirReq) {
			links++
			if links > maxLinks {
				return fail(ELOOP)
			}
			target, err := readlinkNode(n)
			if err != nil {
				return fail(errnoOf(err))
			}
			if target == "" {
				return fail(ENOENT)
			}
			if strings.HasPrefix(target, "/") {
				stack, g = []*node{k.rootN}, nil
			}
			if last && strings.HasSuffix(target, "/") {
				l.dirReq = true
			}
			todo = append(splitPath(target), todo...)
			continue
		}
		if !last {
			if !n.isDir() {
				return fail(ENOTDIR)
			}
			stack, g = append(stack, n), append(g, name)
			continue
		}
		l.parent, l.name, l.obj = top, name, n
		if mount { // reached without a name in top, as a mount point is
			l.parent, l.name = nil, ""
		}
		l.guest = "/" + path.Join(append(g, name)...)
		if l.dirReq && !n.isDir() {
			return fail(ENOTDIR)
		}
		return l, 0
	}
	// The path ended on "/", ".", ".." or a link to one of them: the
	// object is the directory on top, reached without a name.
	l.obj = stack[len(stack)-1]
	l.guest = "/" + path.Join(g...)
	return l, 0
}

// readlinkNode reads the target of the symbolic link open as n.
func readlinkNode(n *node) (string, error) {
	buf := make([]byte, pathMax)
	m, err := unix.Readlinkat(n.fd, "", buf)
	if err != nil {
		return "", err
	}
	return string(buf[:m]), nil
}

// dirWritable reports whether directory n lies in a writable directory:
// walking up from it through ".." reaches one of them (by identity)
// before the host's root.
func (k *Kernel) dirWritable(n *node) bool {
	cur := n
	defer func() {
		if cur != n {
			cur.close()
		}
	}()
	for range 4096 {
		for _, a := range k.allowed {
			if cur.id() == a.id() {
				return true
			}
		}
		if k.privateShm(cur) {
			return true
		}
		up, err := openNode(cur.fd, "..")
		if err != nil {
			return false
		}
		if up.id() == cur.id() { // the host's root
			up.close()
			return false
		}
		if cur != n {
			cur.close()
		}
		cur = up
	}
	return false
}

// objWritable reports whether the sandbox allows modifying the object
// of l (or creating it, when it does not exist).
func (k *Kernel) objWritable(l *lookup) bool {
	if l.obj != nil && (l.obj.isDir() || l.parent == nil) {
		return k.dirWritable(l.obj)
	}
	return k.dirWritable(l.parent)
}

// checkWrite allows a modification of every l or refuses it with EACCES
// and a warning (once per path).
func (k *Kernel) checkWrite(ls ...*lookup) Errno {
	for _, l := range ls {
		if !k.objWritable(l) {
			k.refused(l.guest)
			return EACCES
		}
	}
	return 0
}

func (k *Kernel) refused(guest string) {
	k.warnOnce("write "+guest, "rvsim: sandbox: refused write access to %s", guest)
}

// open opens the object of l with host flags hf: the final entry, by
// name relative to its held parent without following a symbolic link,
// or the directory reached without a name.
func (l *lookup) open(hf int, mode uint32) (*os.File, error) {
	var fd int
	var err error
	if l.parent == nil {
		fd, err = unix.Openat(l.obj.fd, ".", hf|unix.O_CLOEXEC, mode)
	} else {
		fd, err = unix.Openat(l.parent.fd, l.name, hf|unix.O_NOFOLLOW|unix.O_CLOEXEC, mode)
	}
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(fd), l.guest), nil
}

// raced reports whether err says the final entry was swapped for a
// symbolic link between the lookup and an O_NOFOLLOW open: the lookup is
// then done again.
func raced(err error) bool { return errors.Is(err, syscall.ELOOP) }

// maxRetries bounds the lookups redone because of a race.
const maxRetries = 64

// chmodNode sets the mode of the object n (fchmodat2 with AT_EMPTY_PATH;
// on a kernel without it, the /proc/self/fd link of the same descriptor).
func chmodNode(n *node, mode uint32) error {
	if !n.isDir() {
		mode &^= sISGID // (see chmodBits)
	}
	err := unix.Fchmodat(n.fd, "", mode, unix.AT_EMPTY_PATH)
	if err == unix.EOPNOTSUPP && !n.isLink() {
		err = unix.Chmod("/proc/self/fd/"+strconv.Itoa(n.fd), mode)
	}
	return err
}

func chownNode(n *node, uid, gid int) error {
	return unix.Fchownat(n.fd, "", uid, gid, unix.AT_EMPTY_PATH)
}

func utimensNode(n *node, times [2]timespec) error {
	ts := []unix.Timespec{{Sec: times[0].sec, Nsec: times[0].nsec}, {Sec: times[1].sec, Nsec: times[1].nsec}}
	return unix.UtimesNanoAt(n.fd, "", ts, unix.AT_EMPTY_PATH)
}

func accessNode(n *node, mode uint32, flags uint32) error {
	return unix.Faccessat2(n.fd, "", mode, unix.AT_EMPTY_PATH|int(flags&atEaccess))
}

func statfsNode(n *node) (statfsInfo, error) {
	return statfsFd(n.fd)
}

// guestPathOf returns the guest path of directory n now (after renames),
// or fallback when it cannot be told. Outside a chroot's root the path is
// taken from the run's root, as Linux's d_path takes it from the real one.
func (k *Kernel) guestPathOf(n *node, fallback string) string {
	p, _, ok := k.pathOf(n)
	if !ok {
		return fallback
	}
	return p
}

// pathOf returns the guest path of n now: from the process's root when n
// is below it (reachable), else from the run's root.
func (k *Kernel) pathOf(n *node) (p string, reachable, ok bool) {
	h, ok := hostPathOf(n)
	if !ok {
		return "", false, false
	}
	if k.chrooted() { // a chroot's root, renamed since?
		if r, ok := hostPathOf(k.rootN); ok && within(r, k.topDir) {
			k.rootDir = r
		}
	}
	if p, ok := below(k.rootDir, h); ok {
		return p, true, true
	}
	p, ok = below(k.topDir, h)
	return p, false, ok
}

// hostPathOf returns the host path of the object n holds now.
func hostPathOf(n *node) (string, bool) {
	h, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(n.fd))
	return h, err == nil && strings.HasPrefix(h, "/")
}

// hostPath returns the host path of l's object: where the walk found it,
// also from a working directory a chroot left outside the root (where
// l.guest, taken from the working directory's old path, misleads).
func (k *Kernel) hostPath(l *lookup) string {
	if h, ok := hostPathOf(l.obj); ok {
		return h
	}
	return filepath.Join(k.rootDir, filepath.FromSlash(l.guest))
}

// enterRunRoot makes the run's root the process's root and working
// directory, as joining a mount namespace sets both to its root.
func (k *Kernel) enterRunRoot() Errno {
	root, err := dupNode(k.topN)
	if err != nil {
		return errnoOf(err)
	}
	cwd, err := dupNode(k.topN)
	if err != nil {
		root.close()
		return errnoOf(err)
	}
	if e := k.setRoot(root); e != 0 {
		cwd.close()
		return e
	}
	k.setCwd(cwd, "/")
	return 0
}

// chrooted reports whether the process's root is another directory than
// the run's (a chroot below it).
func (k *Kernel) chrooted() bool { return k.rootN.id() != k.topN.id() }

// cwdPath is getcwd's answer: the working directory's path now, prefixed
// "(unreachable)" when it lies outside the process's root (a chroot that
// left it behind), as Linux's getcwd prefixes it.
func (k *Kernel) cwdPath() string {
	p, reachable, ok := k.pathOf(k.cwdN)
	switch {
	case !ok:
		return k.cwd
	case !reachable:
		return "(unreachable)" + p
	}
	k.cwd = p
	return p
}

// setRoot makes directory n (owned by the kernel from now on) the
// process's root (chroot). Guest paths are taken from it from now on: the
// sysroot applies while it lies below it.
func (k *Kernel) setRoot(n *node) Errno {
	h, ok := hostPathOf(n)
	if !ok || !within(h, k.topDir) {
		n.close()
		return ENOENT // (removed, or out of the run's reach: cannot be)
	}
	if k.sysrootDir != "" {
		if g, ok := below(h, k.sysrootDir); ok && g != "/" {
			k.sysroot = g
		} else {
			k.sysroot = ""
		}
	}
	unix.Close(k.rootN.fd)
	n.borrowed = true
	k.rootN, k.rootDir = n, h
	if p, reachable, ok := k.pathOf(k.cwdN); ok && reachable {
		k.cwd = p
	}
	return 0
}

// parentID returns the host identity of the parent of directory n (n
// itself at the run's root), for the ".." entry of getdents64. A chroot's
// root has its real parent there, as on Linux (dir_emit_dots).
func (k *Kernel) parentID(n *node) fileID {
	if n.id() == k.topN.id() {
		return n.id()
	}
	return idAt(n, "..")
}

// idAt returns the host identity of entry name in directory n, the zero
// fileID if it is gone.
func idAt(n *node, name string) fileID {
	var st unix.Stat_t
	if err := unix.Fstatat(n.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return fileID{}
	}
	return fileID{uint64(st.Dev), st.Ino}
}

// linkNames links the final entry of lo (not following it: the lookup
// already followed what the guest asked to) as the new entry of ln.
func linkNames(lo, ln *lookup) error {
	return unix.Linkat(lo.parent.fd, lo.name, ln.parent.fd, ln.name, 0)
}

// linkFile links the open file f as the new entry of ln.
func linkFile(f *os.File, ln *lookup) error {
	return unix.Linkat(int(f.Fd()), "", ln.parent.fd, ln.name, unix.AT_EMPTY_PATH)
}

// mkdirIn, symlinkIn, unlinkIn and renameIn act on the final entries of
// lookups, by name in their held directories.
func mkdirIn(l *lookup, mode uint32) error {
	if err := unix.Mkdirat(l.parent.fd, l.name, mode); err != nil {
		return err
	}
	exactMode(l, mode)
	return nil
}

func mknodIn(l *lookup, mode uint32) error {
	if err := unix.Mknodat(l.parent.fd, l.name, mode, 0); err != nil {
		return err
	}
	exactMode(l, mode)
	return nil
}

// holdIn opens the entry l names without following it (O_PATH), so that
// its inode lives while the descriptor does, whatever its type: a bound
// socket's file, which the kernel's socket holds so.
func holdIn(l *lookup) (*os.File, error) {
	fd, err := unix.Openat(l.parent.fd, l.name, unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(fd), l.name), nil
}

// exactMode gives the entry l just made the permissions the guest asked
// for (its own umask applied): the host kernel applied rvsim's umask
// too. The entry is opened without following (a racing guest may have
// swapped in a link) and changed through that descriptor.
func exactMode(l *lookup, mode uint32) {
	if mode&hostUmask() == 0 {
		return
	}
	fd, err := unix.Openat(l.parent.fd, l.name, unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return
	}
	n := &node{fd: fd}
	defer n.close()
	if syscall.Fstat(fd, &n.st) != nil || n.isLink() {
		return
	}
	// (a directory made in a set-group-ID one keeps the bit the host gave it)
	chmodNode(n, mode&(0o777|sISVTX)|n.st.Mode&sISGID) // an error leaves the host's mode, as before
}

func symlinkIn(target string, l *lookup) error { return unix.Symlinkat(target, l.parent.fd, l.name) }

// ownIn sets the owner and group of the entry l names, without following
// it (-1: unchanged).
func ownIn(l *lookup, uid, gid int) {
	unix.Fchownat(l.parent.fd, l.name, uid, gid, unix.AT_SYMLINK_NOFOLLOW) // an error leaves the host's owner, as before
}

// setgidDir reports whether l's directory is set-group-ID (its new
// entries take its group).
func setgidDir(l *lookup) bool { return l.parent != nil && l.parent.st.Mode&syscall.S_ISGID != 0 }

func unlinkIn(l *lookup, dir bool) error {
	flags := 0
	if dir {
		flags = unix.AT_REMOVEDIR
	}
	return unix.Unlinkat(l.parent.fd, l.name, flags)
}

func renameIn(lo, ln *lookup, noreplace bool) error {
	var flags uint
	if noreplace {
		flags = unix.RENAME_NOREPLACE
	}
	return unix.Renameat2(lo.parent.fd, lo.name, ln.parent.fd, ln.name, flags)
}

// forkSandbox gives a child process descriptors of its own for the root,
// its working directory and the writable directories (each process closes
// its own). Without host descriptors to spare it fails, and so does the
// fork (EAGAIN).
func (k *Kernel) forkSandbox() (sandboxFS, error) {
	var s sandboxFS
	var failed error
	dup := func(n *node) *node {
		if n == nil || failed != nil {
			return nil
		}
		d, err := dupNode(n)
		if err != nil {
			failed = err
			return nil
		}
		return d
	}
	s.rootN, s.topN, s.topDir = dup(k.rootN), dup(k.topN), k.topDir
	for _, n := range []*node{s.rootN, s.topN} {
		if n != nil {
			n.borrowed = true
		}
	}
	s.cwdN = dup(k.cwdN)
	for _, a := range k.allowed {
		s.allowed = append(s.allowed, dup(a))
	}
	s.shm = k.shm
	if failed != nil {
		for _, n := range append([]*node{s.rootN, s.topN, s.cwdN}, s.allowed...) {
			if n != nil {
				unix.Close(n.fd)
			}
		}
		return sandboxFS{}, failed
	}
	return s, nil
}

// isRootDir reports whether l names the root of the run's one mount (the
// run's root; a chroot's root is a directory below it).
func (k *Kernel) isRootDir(l *lookup) bool { return l.obj != nil && l.obj.id() == k.topN.id() }
