package syscalls

import (
	"os"
	"strconv"
)

// Named pipes. A FIFO in the file system (mkfifo, mknodat) that the
// guest opens is a pipe of the run, one per FIFO (keyed by the host
// file's identity), which every process of the run that opens the FIFO
// shares: its bytes move between the guest's processes in the
// simulation, deterministically, through the pipe code every pipe uses,
// and never block the simulator in the host kernel. The opens follow
// Linux's fifo_open (fs/pipe.c): a reader waits for a writer, and a
// writer for a reader, unless O_NONBLOCK (a reader then opens at once,
// a writer fails with ENXIO); O_RDWR opens at once; a waiting opener
// counts as an end already, so the other end's open and writes see it.
// The pipe's bytes go when the last end closes. When nothing in the run
// can open the other end (no other thread or process is left to), the
// open goes to the host's FIFO instead, as before, for a program outside
// the run that may.

// fifoOpen is an opened FIFO's run-wide pipe and how many opens of each
// end it has seen (a reader waiting for a writer goes on when one has
// opened, even if it has closed again: Linux's r_counter and w_counter).
type fifoOpen struct {
	p              *pipe
	ropens, wopens uint64
}

// openFIFO opens the FIFO whose O_PATH host handle is f (at guest path
// guest) with the guest's flags. host is true when the caller is to open
// the host's FIFO instead (nothing in the run can open the other end).
func (k *Kernel) openFIFO(f *os.File, guest string, flags uint32) (of *openFile, host bool, e Errno) {
	id, ok := hostID(f)
	if !ok {
		return nil, true, 0
	}
	of = &openFile{kind: kindPipe, f: f, guest: guest, flags: flags&(oAccMode|oStatusKept) | oLargefile}
	read, write := of.canRead(), of.canWrite()
	fo, held := k.run.fifoHeld, k.run.fifoHeld != nil
	k.run.fifoHeld = nil
	if !held {
		fo = k.fifo(id)
	}
	end, what, others := &fo.p.readers, "fifo read open", &fo.wopens
	if write && !read {
		end, what, others = &fo.p.writers, "fifo write open", &fo.ropens
	}
	since := *others
	if held { // counted while this thread waited: counted again below
		*end--
		since = k.run.fifoSince
	}
	// opened: the other end is open, or opened (and closed) since this
	// open began to wait.
	opened := func() bool {
		if read {
			return fo.p.writers > 0 || *others != since
		}
		return fo.p.readers > 0 || *others != since
	}
	nonblock := flags&oNonblock != 0
	switch {
	case write && !read && fo.p.readers == 0 && nonblock:
		return nil, false, ENXIO
	case read && write, read && nonblock, opened():
	default:
		// Wait for the other end, counted as this end meanwhile.
		*end++
		k.ioWake()
		host, e := k.awaitFIFO(what, fo, end, since, opened)
		if e == errBlocked { // the thread waits, its end counted (fifoHeld)
			return nil, false, e
		}
		*end--
		if e != 0 || host {
			return nil, host, e
		}
	}
	of.pipe = fo.p
	if read {
		fo.p.readers++
		fo.ropens++
	}
	if write {
		fo.p.writers++
		fo.wopens++
	}
	fo.p.gens[wakeAny]++
	k.ioWake()
	return of, false, 0
}

// fifo returns the run's pipe of the FIFO id, a fresh one when no end of
// it is open or waited for (the bytes of the last go with it, as in
// Linux).
func (k *Kernel) fifo(id fileID) *fifoOpen {
	if k.all.fifos == nil {
		k.all.fifos = map[fileID]*fifoOpen{}
	}
	fo := k.all.fifos[id]
	if fo == nil || fo.p.readers+fo.p.writers == 0 {
		fo = &fifoOpen{p: &pipe{ino: k.nextIno()}}
		k.all.fifos[id] = fo
	}
	return fo
}

// awaitFIFO waits until ready says the other end of fo's FIFO has
// opened, with this end counted in *end: another thread of the process,
// or another process of the run, may open it. In a process with other
// threads the thread blocks (errBlocked) and the open starts again when
// an end opens, taking over the counted end (fifoHeld); a signal drops
// it. With no other thread or process left, host is true.
func (k *Kernel) awaitFIFO(what string, fo *fifoOpen, end *int, since uint64, ready func() bool) (host bool, e Errno) {
	for !ready() {
		if k.multi() && !k.deliverable(0) {
			t := k.run
			t.fifoHeld, t.fifoSince = fo, since
			_, e := k.block("in "+what, 0, 0, -1, func(why waitResult) uint64 {
				if why == waitReady {
					return errnoRet(errRestartNoIntr)
				}
				*end--
				t.fifoHeld = nil
				return errnoRet(errRestartSys)
			})
			t.io = true
			return false, e
		}
		switch k.waitHost(-1, 0, nil, true) {
		case waitSignal:
			return false, errRestartSys
		case waitOthers: // (a timer of its own let the others run)
			if k.exited {
				return false, EINTR
			}
			continue
		}
		served := k.othersServe(-1)
		if k.exited {
			return false, EINTR
		}
		if !served {
			return true, 0
		}
	}
	return false, 0
}

// reopenHost opens the FIFO behind the O_PATH handle f on the host with
// the guest's flags (the host kernel waits for the other end, as Linux
// would).
func reopenHost(f *os.File, flags uint32) (*os.File, error) {
	return os.OpenFile("/proc/self/fd/"+strconv.Itoa(int(f.Fd())), hostOpenFlags(flags&^(oCreat|oExcl|oTrunc)), 0)
}
