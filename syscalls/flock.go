package syscalls

// flock(2): advisory whole-file locks held by open file descriptions.
// There is no other process, but two descriptions of one file (two
// opens) still conflict, as in Linux; a lock goes with the last close of
// its description.

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
	if k.flocks == nil {
		k.flocks = map[fileID]*flockState{}
	}
	s := k.flocks[id]
	if s == nil {
		s = &flockState{holders: map[*openFile]uint32{}}
		k.flocks[id] = s
	}
	if cmd == lockUn {
		delete(s.holders, of)
		return 0, 0
	}
	// Converting a lock drops the old one first (flock(2): not atomic).
	delete(s.holders, of)
	for s.conflicts(of, cmd) {
		if op&lockNb != 0 {
			return 0, EAGAIN // EWOULDBLOCK
		}
		if e := k.blockedIO("flock"); e != 0 {
			return 0, e
		}
	}
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
	if s := k.flocks[of.locked]; s != nil {
		delete(s.holders, of)
		if len(s.holders) == 0 {
			delete(k.flocks, of.locked)
		}
	}
	of.hasLock = false
}
