package syscalls

import "math"

// epoll (fs/eventpoll.c): epoll_create1, epoll_ctl, epoll_pwait and
// epoll_pwait2. An epoll instance is an open file holding an interest
// list of (descriptor, open file description) items. Readiness is the
// same as ppoll's (pollMask, or the host's poll for a host pipe or
// terminal), asked at each wait rather than delivered by wake-up
// callbacks, so the instance keeps no ready list; what a callback would
// have told it, an edge-triggered item learns from its file's wake
// generations (wakeGens), counted where Linux wakes the file's wait queue.
//
// A wait with nothing ready blocks the thread when other threads can make
// an item ready (a pipe or eventfd written, read or closed wakes it, as
// ioWake does for a blocked read); in a single-threaded process, or with
// host descriptors among the items, it waits as ppoll does.

// epoll_ctl operations and event bits (uapi/linux/eventpoll.h).
const (
	epollCtlAdd = 1
	epollCtlDel = 2
	epollCtlMod = 3

	epollRdhup     = 0x2000
	epollExclusive = 1 << 28
	epollWakeup    = 1 << 29
	epollOneshot   = 1 << 30
	epollET        = 1 << 31

	// epPrivateBits survive a one-shot item's report (the rest is cleared).
	epPrivateBits = epollWakeup | epollOneshot | epollET | epollExclusive
	// epExclusiveOK are the events an EPOLLEXCLUSIVE item may ask for.
	epExclusiveOK = pollIn | pollOut | pollRdnorm | pollRdband | pollWrnorm | pollWrband |
		pollErr | pollHup | epollWakeup | epollET | epollExclusive

	// epollEventSize is struct epoll_event on riscv64: events, 4 bytes of
	// padding, data (the structure is packed only on x86-64).
	epollEventSize = 16
	epMaxEvents    = math.MaxInt32 / epollEventSize
	// epMaxNests is how deep epoll instances may watch each other.
	epMaxNests = 4
)

// Wake generations: a pipe's or eventfd's wake-ups, by the events Linux
// passes its wait queue (EPOLLIN for a write, EPOLLOUT for a read; a
// close wakes without a key, which every item accepts).
const (
	wakeIn = iota
	wakeOut
	wakeAny
)

type wakeGens [3]uint64

// epollKey names an item as Linux does: the descriptor and the open file
// description it referred to when added.
type epollKey struct {
	fd int32
	of *openFile
}

type epollItem struct {
	key     epollKey
	events  uint32 // asked for, with EPOLLERR|EPOLLHUP and the flag bits
	data    uint64
	pending bool     // edge-triggered: ready when added or modified, not yet reported
	seen    wakeGens // edge-triggered: the file's generations at the last report
}

// epollInst is an epoll instance's interest list, in report order (an
// item reported moves to the end, as Linux requeues a level-triggered
// item at the ready list's tail, so a small maxevents rotates).
type epollInst struct {
	items    []*epollItem
	self     *openFile    // the instance's own file (its refs say whether it is alive)
	watchers []*epollInst // the instances with an item for this one
}

func (ep *epollInst) find(key epollKey) int {
	for i, it := range ep.items {
		if it.key == key {
			return i
		}
	}
	return -1
}

// wakeGens returns of's wake generations; false for a file whose
// wake-ups rvsim does not count (a host descriptor, an epoll instance):
// its edge-triggered items then report whenever they are ready.
func (of *openFile) wakeGens() (wakeGens, bool) {
	switch of.kind {
	case kindPipe:
		return of.pipe.gens, true
	case kindPtyMaster, kindPtySlave:
		return ptyWakeGens(of), true
	case kindEventfd:
		return of.efd.gens, true
	case kindTimerfd:
		of.tfd.settle()
		return of.tfd.gens, true
	case kindSignalfd:
		return wakeGens{wakeIn: of.sfd.k.sigGens}, true
	case kindInotify:
		return of.ino.gens, true
	case kindMqueue:
		return of.mq.q.gens, true
	case kindSocket:
		if of.inet != nil {
			return inetWakeGens(of), true
		}
		if of.nl != nil {
			return of.nl.inbox.gens, true
		}
		if of.ul != nil {
			return of.ul.gens, true
		}
		if of.uin != nil && of.rx == nil {
			return of.uin.gens, true
		}
		if of.rx != nil { // received data wakes readers, sent data's reader wakes writers
			return wakeGens{of.rx.gens[wakeIn], of.tx.gens[wakeOut], of.rx.gens[wakeAny] + of.tx.gens[wakeAny]}, true
		}
	}
	return wakeGens{}, false
}

// pollable reports whether of has a poll method (file_can_poll): epoll
// refuses the others with EPERM.
func (of *openFile) pollable() bool {
	switch of.kind {
	case kindPipe, kindEventfd, kindSocket, kindEpoll, kindRandom, kindStdin, kindStdout, kindTimerfd, kindSignalfd, kindPtyMaster, kindPtySlave, kindPidfd, kindInotify, kindMqueue:
		return of.f == nil || of.hostWaitable() != nil
	case kindHost:
		return of.hostWaitable() != nil
	}
	return false
}

func sysEpollCreate1(k *Kernel, a sysArgs) (uint64, Errno) {
	flags := a.Uint(0)
	if flags&^oCloexec != 0 {
		return 0, EINVAL
	}
	of := &openFile{kind: kindEpoll, epoll: &epollInst{}, guest: "anon_inode:[eventpoll]", flags: oRdwr}
	of.epoll.self = of
	return k.install(of, flags&oCloexec != 0, 0)
}

// epollFile returns the epoll instance open as epfd.
func (k *Kernel) epollFile(epfd int32) (*epollInst, Errno) {
	of, e := k.file(epfd)
	if e != 0 {
		return nil, e
	}
	if of.kind != kindEpoll {
		return nil, EINVAL
	}
	return of.epoll, 0
}

func sysEpollCtl(k *Kernel, a sysArgs) (uint64, Errno) {
	epfd, op, fd, evAddr := a.Int(0), a.Int(1), a.Int(2), a.Ptr(3)
	var events uint32
	var data uint64
	if op != epollCtlDel {
		b, e := k.readMem(evAddr, epollEventSize)
		if e != 0 {
			return 0, e
		}
		events, data = u32(b, 0), le64(b[8:])
	}
	epOF, e := k.file(epfd)
	if e != 0 {
		return 0, e
	}
	tf, e := k.file(fd)
	if e != 0 {
		return 0, e
	}
	if !tf.pollable() {
		return 0, EPERM
	}
	events &^= epollWakeup // needs CAP_BLOCK_SUSPEND: silently dropped, as Linux does without it
	if epOF == tf || epOF.kind != kindEpoll {
		return 0, EINVAL
	}
	if op != epollCtlDel && events&epollExclusive != 0 {
		if op == epollCtlMod || op == epollCtlAdd && (tf.kind == kindEpoll || events&^epExclusiveOK != 0) {
			return 0, EINVAL
		}
	}
	ep := epOF.epoll
	key := epollKey{fd, tf}
	i := ep.find(key)
	switch op {
	case epollCtlAdd:
		if i >= 0 {
			return 0, EEXIST
		}
		if tf.kind == kindEpoll {
			// ep_loop_check: no loop, and no path of more than
			// EP_MAX_NESTS instances through the new link.
			if tf.epoll.reaches(ep) || ep.height()+1+tf.epoll.depth() > epMaxNests {
				return 0, ELOOP
			}
			tf.epoll.watchers = append(tf.epoll.watchers, ep)
		}
		it := &epollItem{key: key, data: data, events: events | pollErr | pollHup}
		k.arm(it)
		ep.items = append(ep.items, it)
	case epollCtlDel:
		if i < 0 {
			return 0, ENOENT
		}
		ep.drop(ep.items[i])
		ep.items = append(ep.items[:i], ep.items[i+1:]...)
	case epollCtlMod:
		if i < 0 {
			return 0, ENOENT
		}
		it := ep.items[i]
		if it.events&epollExclusive != 0 {
			return 0, EINVAL
		}
		it.events, it.data = events|pollErr|pollHup, data
		k.arm(it)
	default:
		return 0, EINVAL
	}
	return 0, 0
}

// arm notes an item's state at epoll_ctl: an edge-triggered item that is
// ready now reports once (ep_insert and ep_modify queue it).
func (k *Kernel) arm(it *epollItem) {
	it.seen, _ = it.key.of.wakeGens()
	it.pending = k.readyMask(it, nil) != 0
}

// reaches reports whether ep watches target, directly or through other
// instances (adding target to ep's watchers would close a loop).
func (ep *epollInst) reaches(target *epollInst) bool {
	if ep == target {
		return true
	}
	for _, it := range ep.items {
		if it.key.of.kind == kindEpoll && it.key.of.epoll.reaches(target) {
			return true
		}
	}
	return false
}

// depth is the longest chain of instances ep watches below itself.
func (ep *epollInst) depth() int {
	d := 0
	for _, it := range ep.items {
		if it.key.of.kind == kindEpoll {
			d = max(d, 1+it.key.of.epoll.depth())
		}
	}
	return d
}

// height is the longest chain of live instances watching ep, above it.
func (ep *epollInst) height() int {
	h := 0
	for _, w := range ep.watchers {
		if w.self.refs > 0 {
			h = max(h, 1+w.height())
		}
	}
	return h
}

// drop unlinks an item leaving ep: a watched instance forgets ep as
// one of its watchers.
func (ep *epollInst) drop(it *epollItem) {
	if of := it.key.of; of.kind == kindEpoll {
		ws := of.epoll.watchers
		for i, w := range ws {
			if w == ep {
				of.epoll.watchers = append(ws[:i], ws[i+1:]...)
				break
			}
		}
	}
}

// readyMask is the events of an item its file is ready for now. host
// holds the host descriptors' answers (nil: poll the host now).
func (k *Kernel) readyMask(it *epollItem, host map[*openFile]uint32) uint32 {
	of := it.key.of
	if f := of.hostWaitable(); f != nil {
		if r, ok := host[of]; ok {
			return r & it.events
		}
		fds := []hostFD{{f: f, events: it.events & 0xffff}}
		hostPoll(fds, 0)
		return fds[0].revents & it.events
	}
	return k.pollMask(of) & it.events
}

// itemMask is what an item would report now (0: nothing), without
// consuming an edge: its readiness, and for an edge-triggered item only
// after a wake-up that concerns it (or when it was added or modified
// ready).
func (k *Kernel) itemMask(it *epollItem, host map[*openFile]uint32) uint32 {
	m := k.readyMask(it, host)
	if m == 0 || it.events&epollET == 0 || it.pending {
		return m
	}
	gens, counted := it.key.of.wakeGens()
	if !counted {
		return m
	}
	if gens[wakeAny] != it.seen[wakeAny] ||
		gens[wakeIn] != it.seen[wakeIn] && it.events&(pollIn|pollRdnorm) != 0 ||
		gens[wakeOut] != it.seen[wakeOut] && it.events&(pollOut|pollWrnorm) != 0 {
		return m
	}
	return 0
}

// live drops the items whose open file description has been released
// (eventpoll_release at its last close).
func (ep *epollInst) live() {
	n := 0
	for _, it := range ep.items {
		if it.key.of.refs > 0 {
			ep.items[n] = it
			n++
		} else {
			ep.drop(it)
		}
	}
	clear(ep.items[n:])
	ep.items = ep.items[:n]
}

// anyReady reports whether a wait on ep would return an event now.
func (k *Kernel) anyReady(ep *epollInst) bool {
	ep.live()
	for _, it := range ep.items {
		if k.itemMask(it, nil) != 0 {
			return true
		}
	}
	return false
}

// epollEvent is one reported event.
type epollEvent struct {
	events uint32
	data   uint64
}

// harvest reports up to max ready items (ep_send_events): each reported
// edge-triggered item consumes its edge, a one-shot item is disabled, and
// the reported items move to the end of the list.
func (k *Kernel) harvest(ep *epollInst, max int) []epollEvent {
	ep.live()
	host := map[*openFile]uint32{}
	if fds, ofs := ep.hostFDs(); len(fds) > 0 {
		hostPoll(fds, 0)
		for i, of := range ofs {
			host[of] |= fds[i].revents
		}
	}
	var out []epollEvent
	var reported, rest []*epollItem
	for _, it := range ep.items {
		if len(out) == max {
			rest = append(rest, it)
			continue
		}
		m := k.itemMask(it, host)
		if it.events&epollET != 0 {
			// The edge is consumed whether or not the item is ready now
			// (ep_send_events drops a queued item that polls empty).
			it.seen, _ = it.key.of.wakeGens()
			it.pending = false
		}
		if m == 0 {
			rest = append(rest, it)
			continue
		}
		out = append(out, epollEvent{m, it.data})
		if it.events&epollOneshot != 0 {
			it.events &= epPrivateBits
		}
		reported = append(reported, it)
	}
	ep.items = append(rest, reported...)
	return out
}

// hostFDs lists the items that are host descriptors, to poll on the
// host, with their open files.
func (ep *epollInst) hostFDs() ([]hostFD, []*openFile) {
	var fds []hostFD
	var ofs []*openFile
	for _, it := range ep.items {
		if f := it.key.of.hostWaitable(); f != nil {
			fds = append(fds, hostFD{f: f, events: it.events & 0xffff})
			ofs = append(ofs, it.key.of)
		}
	}
	return fds, ofs
}

// hasHost reports whether any item is a host descriptor.
func (ep *epollInst) hasHost() bool {
	fds, _ := ep.hostFDs()
	return len(fds) > 0
}

func sysEpollPwait(k *Kernel, a sysArgs) (uint64, Errno) {
	deadline, zero := int64(-1), false
	if ms := a.Int(3); ms >= 0 {
		deadline, zero = k.monoNS()+int64(ms)*1_000_000, ms == 0
	}
	return k.epollWait(a, deadline, zero)
}

func sysEpollPwait2(k *Kernel, a sysArgs) (uint64, Errno) {
	deadline, zero, e := k.pollTimeout(a.Ptr(3))
	if e != 0 {
		return 0, e
	}
	return k.epollWait(a, deadline, zero)
}

// epollWait is epoll_pwait and epoll_pwait2 once the timeout is known.
func (k *Kernel) epollWait(a sysArgs, deadline int64, zero bool) (uint64, Errno) {
	epfd, evAddr, maxEvents, maskAddr := a.Int(0), a.Ptr(1), a.Int(2), a.Ptr(4)
	if maxEvents <= 0 || maxEvents > epMaxEvents {
		return 0, EINVAL
	}
	ep, e := k.epollFile(epfd)
	if e != 0 {
		return 0, e
	}
	if e := k.waitMask(maskAddr, a.Ptr(5)); e != 0 {
		return 0, e
	}
	deliver := func(evs []epollEvent) Errno {
		b := make([]byte, epollEventSize*len(evs))
		for i, ev := range evs {
			put32(b, i*epollEventSize, ev.events)
			put64(b, i*epollEventSize+8, ev.data)
		}
		return k.writeMem(evAddr, b)
	}
	evs := k.harvest(ep, int(maxEvents))
	if len(evs) == 0 && !zero && k.multi() && !k.deliverable(0) {
		// Another thread may make an item ready: this one blocks until
		// then (ioWake asks ready), its timeout, or a signal; a host
		// descriptor among its items is watched as the others run
		// (thread.host).
		k.block("in epoll_wait", 0, 0, deadline, func(why waitResult) uint64 {
			if why == waitSignal {
				return errnoRet(EINTR)
			}
			evs := k.harvest(ep, int(maxEvents))
			if e := deliver(evs); e != 0 {
				return errnoRet(e)
			}
			return uint64(len(evs))
		})
		k.run.io, k.run.ready = true, func() bool { return k.anyReady(ep) }
		k.run.host, _ = ep.hostFDs()
		k.watchTimers([]*openFile{ep.self})
		return 0, errBlocked
	}
	interrupted := false
	if len(evs) == 0 && !zero {
		var wait func(ns int64) bool
		if ep.hasHost() {
			wait = func(ns int64) bool { return k.epollHostWait(ep, ns) }
		}
		ready := func() bool { return k.anyReady(ep) }
		if interrupted = k.pollWait("epoll_wait", deadline, wait, []*openFile{ep.self}, ready); !interrupted {
			evs = k.harvest(ep, int(maxEvents))
		}
	}
	k.pollFinish(0, deadline, zero, interrupted) // the mask the wait replaced
	if interrupted {
		return 0, EINTR
	}
	return uint64(len(evs)), deliver(evs)
}

// epollHostWait waits up to ns on the host for one of ep's host
// descriptors, and reports whether any item is ready then.
func (k *Kernel) epollHostWait(ep *epollInst, ns int64) bool {
	fds, _ := ep.hostFDs()
	hostPoll(fds, ns)
	return k.anyReady(ep)
}
