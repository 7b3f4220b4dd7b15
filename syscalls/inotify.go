package syscalls

import "slices"

// inotify (fs/notify/inotify, fsnotify.h): inotify_init1,
// inotify_add_watch, inotify_rm_watch, and the events the run's own file
// operations make. A watch is kept on a host object (device and inode),
// as Linux keeps it on an inode; the file operations of every process of
// the run tell the watches what they did (notifyChild, notifyEntry,
// notifySelf), in the order fsnotify reports it. What processes outside
// the run do to the files is not seen: the events are a function of the
// run alone, so a run is deterministic.
//
// Where each event comes from:
//   - open (IN_OPEN; IN_CREATE first when it made the file, IN_MODIFY
//     after it when O_TRUNC emptied one), read, readv, getdents64,
//     sendfile's and copy_file_range's input (IN_ACCESS), write, writev,
//     truncate, fallocate and their outputs (IN_MODIFY), the last close
//     of an open file (IN_CLOSE_WRITE, IN_CLOSE_NOWRITE); chmod, chown
//     and utimensat (IN_ATTRIB, or IN_ACCESS or IN_MODIFY for one time
//     alone): to the object's watch, and with the name to its directory's
//     watch first. O_PATH opens make none.
//   - mkdir, mknod, symlink, link, a bound socket's file (IN_CREATE),
//     unlink, rmdir (IN_DELETE), rename (IN_MOVED_FROM, IN_MOVED_TO, with
//     one cookie): to the directory's watch only.
//   - a link count's change (IN_ATTRIB: link, unlink, a rename's replaced
//     target), a rename (IN_MOVE_SELF), the object's end (IN_DELETE_SELF,
//     then IN_IGNORED, and the watch goes): to the object's watch only. An
//     object ends when its last name goes and no open file of the run
//     holds it; else at the last such file's close.
//
// The queue merges an event identical to the last one queued
// (inotify_merge) and holds at most inotifyMaxQueued, then one
// IN_Q_OVERFLOW (fsnotify_insert_event).

// inotify's event bits and watch flags (uapi/linux/inotify.h).
const (
	inAccess       = 0x1
	inModify       = 0x2
	inAttrib       = 0x4
	inCloseWrite   = 0x8
	inCloseNowrite = 0x10
	inOpen         = 0x20
	inMovedFrom    = 0x40
	inMovedTo      = 0x80
	inCreate       = 0x100
	inDelete       = 0x200
	inDeleteSelf   = 0x400
	inMoveSelf     = 0x800
	inAllEvents    = 0xfff
	inUnmount      = 0x2000
	inQOverflow    = 0x4000
	inIgnored      = 0x8000
	inOnlydir      = 0x01000000
	inDontFollow   = 0x02000000
	inExclUnlink   = 0x04000000
	inMaskCreate   = 0x10000000
	inMaskAdd      = 0x20000000
	inIsdir        = 0x40000000
	inOneshot      = 0x80000000

	// inAllBits are the bits inotify_add_watch knows (ALL_INOTIFY_BITS).
	inAllBits = inAllEvents | inUnmount | inQOverflow | inIgnored | inOnlydir | inDontFollow |
		inExclUnlink | inMaskCreate | inMaskAdd | inIsdir | inOneshot
	// inKept are the bits a watch keeps (inotify_arg_to_mask).
	inKept = inAllEvents | inOneshot | inExclUnlink

	inotifyEventSize = 16 // struct inotify_event without its name

	// The limits /proc/sys/fs/inotify shows: Linux's defaults, and (watches)
	// its figure for a machine of a few gigabytes.
	inotifyMaxQueued    = 16384
	inotifyMaxInstances = 128
	inotifyMaxWatches   = 65536
)

// inotifyHub is the run's inotify state: every instance's watches by the
// object they watch.
type inotifyHub struct {
	watches   map[fileID][]*inotifyWatch // in the order they were added
	instances int
	nwatches  int
	cookie    uint32 // the last rename's cookie
	// doomed: watched objects whose last name went while a file of the
	// run held them open; they end at its last close.
	doomed map[fileID]bool
}

// inotifyInst is an inotify instance (an fsnotify group).
type inotifyInst struct {
	hub    *inotifyHub
	byWD   map[int32]*inotifyWatch
	lastWD int32 // watch numbers go up, not reused (idr_alloc_cyclic)
	queue  []inotifyEvent
	bytes  int // the queue's size as read returns it (FIONREAD)
	over   bool
	gens   wakeGens
}

type inotifyWatch struct {
	inst *inotifyInst
	wd   int32
	obj  fileID
	mask uint32
}

type inotifyEvent struct {
	wd           int32
	mask, cookie uint32
	name         string
}

// size is the event's size as read returns it: the name padded with
// NULs to a multiple of the header's size.
func (ev *inotifyEvent) size() int {
	if ev.name == "" {
		return inotifyEventSize
	}
	return inotifyEventSize + (len(ev.name)+inotifyEventSize)&^(inotifyEventSize-1)
}

// notifyName is where an open file was opened from, for the events its
// I/O makes: the object, and its directory and name (dir is zero when
// the path named a directory itself: "/", "." or ".."). unlinked: the
// name has gone since (IN_EXCL_UNLINK).
type notifyName struct {
	obj, dir fileID
	name     string
	unlinked bool
}

func sysInotifyInit1(k *Kernel, a sysArgs) (uint64, Errno) {
	flags := a.Uint(0)
	if flags&^(oCloexec|oNonblock) != 0 {
		return 0, EINVAL
	}
	h := k.all.inotifyHub()
	if h.instances >= inotifyMaxInstances {
		return 0, EMFILE
	}
	of := &openFile{kind: kindInotify, ino: &inotifyInst{hub: h, byWD: map[int32]*inotifyWatch{}},
		guest: "anon_inode:inotify", flags: oRdonly | flags&oNonblock}
	fd, e := k.install(of, flags&oCloexec != 0, 0)
	if e == 0 {
		h.instances++
	}
	return fd, e
}

// inotifyHub returns the run's hub, made at the first inotify_init1.
func (l *procList) inotifyHub() *inotifyHub {
	if l.inotify == nil {
		l.inotify = &inotifyHub{watches: map[fileID][]*inotifyWatch{}, doomed: map[fileID]bool{}}
	}
	return l.inotify
}

// inotifyFile returns the instance open as fd (EINVAL for another file).
func (k *Kernel) inotifyFile(fd int32) (*inotifyInst, Errno) {
	of, e := k.file(fd)
	if e != 0 {
		return nil, e
	}
	if of.kind != kindInotify {
		return nil, EINVAL
	}
	return of.ino, 0
}

func sysInotifyAddWatch(k *Kernel, a sysArgs) (uint64, Errno) {
	fd, mask := a.Int(0), a.Uint(2)
	if mask&inMaskAdd != 0 && mask&inMaskCreate != 0 {
		return 0, EINVAL
	}
	if mask&inAllBits == 0 {
		return 0, EINVAL
	}
	in, e := k.inotifyFile(fd)
	if e != 0 {
		return 0, e
	}
	p, e := k.readPath(a.Ptr(1))
	if e != 0 {
		return 0, e
	}
	l, e := k.resolveExisting(atFDCWD, p, mask&inDontFollow == 0)
	if e != 0 {
		return 0, e
	}
	defer l.close()
	if mask&inOnlydir != 0 && !l.obj.isDir() {
		return 0, ENOTDIR
	}
	if !l.obj.isLink() {
		if err := accessNode(l.obj, rOK, 0); err != nil {
			return 0, errnoOf(err)
		}
	}
	obj := l.obj.id()
	for _, w := range in.hub.watches[obj] {
		if w.inst != in {
			continue
		}
		if mask&inMaskCreate != 0 {
			return 0, EEXIST
		}
		if mask&inMaskAdd != 0 {
			w.mask |= mask & inKept
		} else {
			w.mask = mask & inKept
		}
		return uint64(w.wd), 0
	}
	if in.hub.nwatches >= inotifyMaxWatches {
		return 0, ENOSPC
	}
	in.lastWD++
	for in.byWD[in.lastWD] != nil || in.lastWD <= 0 {
		in.lastWD++
	}
	w := &inotifyWatch{inst: in, wd: in.lastWD, obj: obj, mask: mask & inKept}
	in.byWD[w.wd] = w
	in.hub.watches[obj] = append(in.hub.watches[obj], w)
	in.hub.nwatches++
	return uint64(w.wd), 0
}

func sysInotifyRmWatch(k *Kernel, a sysArgs) (uint64, Errno) {
	in, e := k.inotifyFile(a.Int(0))
	if e != 0 {
		return 0, e
	}
	w := in.byWD[a.Int(1)]
	if w == nil {
		return 0, EINVAL
	}
	k.dropWatch(w, true)
	return 0, 0
}

// dropWatch removes w; ignored queues its IN_IGNORED.
func (k *Kernel) dropWatch(w *inotifyWatch, ignored bool) {
	in, h := w.inst, w.inst.hub
	delete(in.byWD, w.wd)
	ws := slices.DeleteFunc(h.watches[w.obj], func(x *inotifyWatch) bool { return x == w })
	if len(ws) == 0 {
		delete(h.watches, w.obj)
	} else {
		h.watches[w.obj] = ws
	}
	h.nwatches--
	if ignored {
		k.queueEvent(in, inotifyEvent{wd: w.wd, mask: inIgnored})
	}
}

// closeInotify releases an instance's watches at its last close.
func (k *Kernel) closeInotify(in *inotifyInst) {
	for _, w := range in.byWD {
		k.dropWatch(w, false)
	}
	in.queue, in.bytes = nil, 0
	in.hub.instances--
}

// queueEvent adds ev to in's queue: merged with an identical last event,
// or the overflow event when the queue is full.
func (k *Kernel) queueEvent(in *inotifyInst, ev inotifyEvent) {
	if len(in.queue) >= inotifyMaxQueued {
		if in.over {
			return
		}
		in.over = true
		ev = inotifyEvent{wd: -1, mask: inQOverflow}
	} else if n := len(in.queue); n > 0 {
		if last := in.queue[n-1]; last.mask&inIgnored == 0 && last == ev {
			return
		}
	}
	in.queue = append(in.queue, ev)
	in.bytes += ev.size()
	in.gens[wakeIn]++
	k.ioWake()
}

// deliverEvent gives w the event if it watches for it (an IN_ONESHOT watch
// then goes).
func (k *Kernel) deliverEvent(w *inotifyWatch, mask, cookie uint32, name string) {
	if w.mask&mask&inAllEvents == 0 {
		return
	}
	k.queueEvent(w.inst, inotifyEvent{wd: w.wd, mask: mask, cookie: cookie, name: name})
	if w.mask&inOneshot != 0 {
		k.dropWatch(w, true)
	}
}

// watchers returns the watches of obj (a copy: delivering may drop one).
func (k *Kernel) watchers(obj fileID) []*inotifyWatch {
	h := k.all.inotify
	if h == nil || h.nwatches == 0 || obj == (fileID{}) {
		return nil
	}
	return slices.Clone(h.watches[obj])
}

// notifyChild reports an event on an object (open, access, modify,
// attributes, close): to its directory's watches with its name, then to
// its own (fsnotify_parent, fsnotify_handle_event). A directory's
// watch with IN_EXCL_UNLINK hears nothing of a name gone (n.unlinked).
func (k *Kernel) notifyChild(n *notifyName, isDir bool, mask uint32) {
	if k.all.inotify == nil || k.all.inotify.nwatches == 0 {
		return
	}
	if isDir {
		mask |= inIsdir
	}
	if n.name != "" {
		for _, w := range k.watchers(n.dir) {
			if !(n.unlinked && w.mask&inExclUnlink != 0) {
				k.deliverEvent(w, mask, 0, n.name)
			}
		}
	}
	for _, w := range k.watchers(n.obj) {
		k.deliverEvent(w, mask, 0, "")
	}
}

// notifyEntry reports a change of directory dir's entry name (create,
// delete, a move's two halves) to dir's watches.
func (k *Kernel) notifyEntry(dir fileID, name string, isDir bool, mask, cookie uint32) {
	if isDir {
		mask |= inIsdir
	}
	for _, w := range k.watchers(dir) {
		k.deliverEvent(w, mask, cookie, name)
	}
}

// notifySelf reports an event that only the object's own watches hear:
// a link count's change (IN_ATTRIB), a move (IN_MOVE_SELF).
func (k *Kernel) notifySelf(obj fileID, mask uint32) {
	for _, w := range k.watchers(obj) {
		k.deliverEvent(w, mask, 0, "")
	}
}

// lastLinkGone reports that obj lost its last name: it ends now
// (IN_DELETE_SELF, then each watch's IN_IGNORED) unless a file of the run
// holds it open, and then at that file's last close (closedNotified).
func (k *Kernel) lastLinkGone(obj fileID) {
	if len(k.watchers(obj)) == 0 {
		return
	}
	if k.all.holdsOpen(obj) {
		k.all.inotify.doomed[obj] = true
		return
	}
	k.objectEnded(obj)
}

func (k *Kernel) objectEnded(obj fileID) {
	for _, w := range k.watchers(obj) {
		k.deliverEvent(w, inDeleteSelf, 0, "")
		if w.inst.byWD[w.wd] == w { // (not an IN_ONESHOT watch that just went)
			k.dropWatch(w, true)
		}
	}
}

// holdsOpen reports whether an open file of a process of the run is obj.
func (l *procList) holdsOpen(obj fileID) bool {
	found := false
	l.eachOpenName(func(of *openFile) {
		found = found || of.refs > 0 && of.note.obj == obj
	})
	return found
}

// eachOpenName calls fn with each open file of the run that knows where it
// was opened from (once for each descriptor).
func (l *procList) eachOpenName(fn func(of *openFile)) {
	for _, p := range l.kernels {
		for _, fe := range p.fds {
			if fe != nil && fe.of.note != nil {
				fn(fe.of)
			}
		}
	}
}

// --- the file operations' reports ---------------------------------------------

// notifyFile reports an event of the open file of (its I/O, its close).
func (k *Kernel) notifyFile(of *openFile, mask uint32) {
	if of.note != nil && of.flags&oPath == 0 {
		k.notifyChild(of.note, of.isDir, mask)
	}
}

// notifyFD reports IN_ACCESS or IN_MODIFY for a transfer of n bytes on
// descriptor fd (none for nothing moved).
func (k *Kernel) notifyFD(fd int32, n uint64, mask uint32) {
	if n == 0 || k.all.inotify == nil {
		return
	}
	if of, e := k.file(fd); e == 0 {
		k.notifyFile(of, mask)
	}
}

// closedNotified reports the last close of of: IN_CLOSE_WRITE or
// IN_CLOSE_NOWRITE, and the end of an object whose last name went while
// it was open.
func (k *Kernel) closedNotified(of *openFile) {
	if of.note == nil || k.all.inotify == nil {
		return
	}
	if of.canWrite() {
		k.notifyFile(of, inCloseWrite)
	} else {
		k.notifyFile(of, inCloseNowrite)
	}
	h := k.all.inotify
	if h.doomed[of.note.obj] && !k.all.holdsOpen(of.note.obj) {
		delete(h.doomed, of.note.obj)
		k.objectEnded(of.note.obj)
	}
}

// nameOf is the notifyName of lookup l's object.
func nameOf(l *lookup) *notifyName {
	n := &notifyName{obj: l.obj.id(), name: l.name}
	if l.parent != nil {
		n.dir = l.parent.id()
	}
	return n
}

// notifyAttrib reports a change of l's object's attributes (mask:
// IN_ATTRIB, or fsnotify_change's IN_ACCESS or IN_MODIFY for one time).
func (k *Kernel) notifyAttrib(l *lookup, mask uint32) {
	if k.all.inotify != nil {
		k.notifyChild(nameOf(l), l.obj.isDir(), mask)
	}
}

// notifyUnlinked reports the removal of l's object's name (unlink,
// rmdir): its link count (a file's), its end if that was its last name,
// then the directory's IN_DELETE. Open files of that name are marked
// unlinked.
func (k *Kernel) notifyUnlinked(l *lookup, nlink uint64) {
	h := k.all.inotify
	if h == nil {
		return
	}
	dir, obj, isDir := l.parent.id(), l.obj.id(), l.obj.isDir()
	k.all.eachOpenName(func(of *openFile) {
		if of.note.dir == dir && of.note.name == l.name {
			of.note.unlinked = true
		}
	})
	if !isDir {
		k.notifySelf(obj, inAttrib)
	}
	if isDir || nlink <= 1 {
		k.lastLinkGone(obj)
	}
	k.notifyEntry(dir, l.name, isDir, inDelete, 0)
}

// notifyRenamed reports the move of lo's object to ln's entry, whose
// object (if any) it replaced (fsnotify_move): the two halves with one
// cookie, the replaced object's link count, the moved object's
// IN_MOVE_SELF, then the replaced object's end. Open files opened by the
// old name now have the new one.
func (k *Kernel) notifyRenamed(lo, ln *lookup) {
	h := k.all.inotify
	if h == nil || ln.obj != nil && ln.obj.id() == lo.obj.id() { // two names of one file: nothing moved
		return
	}
	odir, ndir := lo.parent.id(), ln.parent.id()
	k.all.eachOpenName(func(of *openFile) {
		switch {
		case of.note.dir == ndir && of.note.name == ln.name:
			of.note.unlinked = true
		case of.note.dir == odir && of.note.name == lo.name:
			of.note.dir, of.note.name = ndir, ln.name
		}
	})
	h.cookie++
	isDir := lo.obj.isDir()
	k.notifyEntry(odir, lo.name, isDir, inMovedFrom, h.cookie)
	k.notifyEntry(ndir, ln.name, isDir, inMovedTo, h.cookie)
	if ln.obj != nil {
		k.notifySelf(ln.obj.id(), inAttrib)
	}
	k.notifySelf(lo.obj.id(), inMoveSelf)
	if ln.obj != nil && (ln.obj.isDir() || ln.obj.nlink() <= 1) {
		k.lastLinkGone(ln.obj.id())
	}
}

// notifyCreated reports a new entry of l's directory (IN_CREATE).
func (k *Kernel) notifyCreated(l *lookup, isDir bool) {
	if k.all.inotify != nil && l.parent != nil {
		k.notifyEntry(l.parent.id(), l.name, isDir, inCreate, 0)
	}
}

// --- reading an instance -------------------------------------------------------

// readInotify returns as many whole events as fit in count bytes (EINVAL
// if the first does not); with none queued it waits.
func (k *Kernel) readInotify(of *openFile, buf, count uint64) (uint64, Errno) {
	in := of.ino
	for len(in.queue) == 0 {
		if of.flags&oNonblock != 0 {
			return 0, EAGAIN
		}
		if e := k.blockedIO("inotify read"); e != 0 {
			return 0, e
		}
	}
	var out []byte
	n := 0
	for ; n < len(in.queue); n++ {
		ev := &in.queue[n]
		size := ev.size()
		if uint64(len(out)+size) > count {
			break
		}
		rec := make([]byte, size)
		put32(rec, 0, uint32(ev.wd))
		put32(rec, 4, ev.mask)
		put32(rec, 8, ev.cookie)
		put32(rec, 12, uint32(size-inotifyEventSize))
		copy(rec[inotifyEventSize:], ev.name)
		out = append(out, rec...)
	}
	if n == 0 {
		return 0, EINVAL
	}
	if e := k.writeMem(buf, out); e != 0 {
		return 0, e
	}
	for _, ev := range in.queue[:n] {
		in.bytes -= ev.size()
		if ev.mask&inQOverflow != 0 {
			in.over = false
		}
	}
	in.queue = slices.Delete(in.queue, 0, n)
	return uint64(len(out)), 0
}

// moved wraps a call that moves bytes from the descriptor in its
// argument in (IN_ACCESS) and to the one in argument out (IN_MODIFY);
// -1: none. The events come once a call, as vfs_read, vfs_write and
// their kin report them, however many buffers or chunks it took.
func moved(h handler, in, out int) handler {
	return func(k *Kernel, a sysArgs) (uint64, Errno) {
		n, e := h(k, a)
		if e == 0 && n > 0 && k.all.inotify != nil {
			if in >= 0 {
				k.notifyFD(a.Int(in), n, inAccess)
			}
			if out >= 0 {
				k.notifyFD(a.Int(out), n, inModify)
			}
		}
		return n, e
	}
}

// openNotified reports an open of a host file: IN_CREATE when it made the
// file, IN_OPEN, then IN_MODIFY when O_TRUNC emptied an existing regular
// file (handle_truncate after vfs_open, as this host's Linux 6.18
// orders them).
func (k *Kernel) openNotified(of *openFile, created bool, flags uint32) {
	if k.all.inotify == nil || of.flags&oPath != 0 {
		return
	}
	if created {
		k.notifyEntry(of.note.dir, of.note.name, false, inCreate, 0)
	}
	k.notifyFile(of, inOpen)
	if flags&oTrunc != 0 && !created && of.regular {
		k.notifyFile(of, inModify)
	}
}

// notifyFileAttr reports a change of the attributes of the file open as
// of (fchmod, fchown, futimens): through any descriptor, O_PATH's too,
// as notify_change reports it on the object.
func (k *Kernel) notifyFileAttr(of *openFile, mask uint32) {
	if of.note != nil && mask != 0 {
		k.notifyChild(of.note, of.isDir, mask)
	}
}

// notifyPath reports an event on the object at guest path p (truncate).
func (k *Kernel) notifyPath(dirfd int32, p string, mask uint32) {
	if k.all.inotify == nil || k.all.inotify.nwatches == 0 {
		return
	}
	if l, e := k.resolveExisting(dirfd, p, true); e == 0 {
		k.notifyAttrib(l, mask)
		l.close()
	}
}

// notifyLinked reports a new name ln of obj: its link count, then the
// directory's IN_CREATE (fsnotify_link).
func (k *Kernel) notifyLinked(obj fileID, ln *lookup) {
	if k.all.inotify == nil {
		return
	}
	k.notifySelf(obj, inAttrib)
	k.notifyCreated(ln, false)
}

// chownMask is fsnotify_change's event for a chown: none when it changes
// neither owner nor group (-1, -1).
func chownMask(uid, gid uint32) uint32 {
	if int32(uid) == -1 && int32(gid) == -1 {
		return 0
	}
	return inAttrib
}

// utimeMask is fsnotify_change's event for utimensat's times: IN_ATTRIB
// for both, IN_ACCESS or IN_MODIFY for the access or modification time
// alone.
func utimeMask(t [2]timespec) uint32 {
	a, m := t[0].nsec != utimeOmit, t[1].nsec != utimeOmit
	switch {
	case a && m:
		return inAttrib
	case a:
		return inAccess
	case m:
		return inModify
	}
	return 0
}
