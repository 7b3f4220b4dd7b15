package syscalls

// flock(2): advisory whole-file locks held by open file descriptions,
// run-wide (procList.flocks): two descriptions of one file (two opens,
// in one process or two) conflict, as in Linux; a lock goes with the
// last close of its description.

// flock operations.
const (
	lockSh = 1
	lockEx = 2
	lockNb = 4
	lockUn = 8
)

// fileID names a file by device and inode.
type fileID struct{ dev, ino uint64 }

// flockState is who holds flock locks on one file: the lock type
// (lockSh or lockEx) per open file description.
type flockState struct {
	holders map[*openFile]uint32
	freedAt int64 // the monotonic time of the last release (a waiter catches up)
}

// conflicts reports whether of may not take a lock of type op.
func (s *flockState) conflicts(of *openFile, op uint32) bool {
	for h, t := range s.holders {
		if h != of && (op == lockEx || t == lockEx) {
			return true
		}
	}
	return false
}

func sysFlock(k *Kernel, a sysArgs) (uint64, Errno) {
	of, e := k.file(a.Int(0))
	if e != 0 {
		return 0, e
	}
	if of.flags&oPath != 0 {
		return 0, EBADF
	}
	op := a.Uint(1)
	cmd := op &^ lockNb
	if cmd != lockSh && cmd != lockEx && cmd != lockUn {
		return 0, EINVAL
	}
	st, e := k.statFile(of)
	if e != 0 {
		return 0, e
	}
	id := fileID{st.dev, st.ino}
	if k.all.flocks == nil {
		k.all.flocks = map[fileID]*flockState{}
	}
	s := k.all.flocks[id]
	if s == nil {
		s = &flockState{holders: map[*openFile]uint32{}}
		k.all.flocks[id] = s
	}
	if cmd == lockUn {
		k.unflock(s, of)
		return 0, 0
	}
	// Converting a lock drops the old one first (flock(2): not atomic).
	k.unflock(s, of)
	for s.conflicts(of, cmd) {
		k.sawLock(id, false)
		if op&lockNb != 0 {
			return 0, EAGAIN // EWOULDBLOCK
		}
		if e := k.blockedIO("flock"); e != 0 {
			return 0, e
		}
	}
	k.catchUpWithRelease(id, false, s.freedAt)
	s.holders[of] = cmd
	of.locked = id
	of.hasLock = true
	return 0, 0
}

// releaseFlock drops the lock of an open file description (its last
// close).
func (k *Kernel) releaseFlock(of *openFile) {
	if !of.hasLock {
		return
	}
	if s := k.all.flocks[of.locked]; s != nil {
		k.unflock(s, of) // (the table stays, with its release time: posixlock.go's dropLocks)
	}
	of.hasLock = false
}

// unflock drops of's lock on s, if it holds one, at the process's time.
func (k *Kernel) unflock(s *flockState, of *openFile) {
	if _, ok := s.holders[of]; ok {
		delete(s.holders, of)
		s.freedAt = max(s.freedAt, k.monoNS())
		k.ioWake()
	}
}
