package syscalls

// The guest sees host files through identities and times that do not
// depend on the host's run-to-run state. A fresh run directory and the
// files copied into it get new host inode numbers and change times every
// run, and every read moves a host access time; programs read them
// (python's import system stats its paths), so passing them on would make
// the same run take a different path through the program.
//
//   - st_ino: numbered in the order the guest first observes a host file
//     (stat, fstat, statx, newfstatat, getdents64's d_ino, /proc/self/maps),
//     from a per-run map of the host's (device, inode): the same host file
//     keeps its number within a run, two files never share one, hard
//     links share one.
//   - st_dev: makedev(8, n) for the n-th host device first seen (0-based);
//     the virtual files keep their fixed pseudo-file-system devices.
//   - st_atime: what the guest last set (utimensat, futimens), otherwise
//     st_mtime, as if nothing read the file since it was written.
//   - st_ctime: reported as st_mtime. The modification time
//     is the host's when it is older than the run, i.e. than the host's
//     coarse file clock at start (fixed in the root, set
//     by suite.Prepare on the files it copies, set by the guest's own
//     utimensat, whose UTIME_NOW is the simulated clock). A host mtime
//     from during the run (the guest wrote the file, or created an entry
//     in the directory) is reported as the simulated time at which the
//     guest first observed that host mtime: it changes when the guest
//     writes and then stats, and later than the files it was made from.
//     Residue: two writes to one file between two stats that fall in one
//     host timestamp tick show as one change.

// guestIDs maps host file identities to guest ones.
type guestIDs struct {
	devs map[uint64]uint64 // host st_dev -> guest st_dev
	inos map[fileID]uint64 // host (st_dev, st_ino) -> guest st_ino
	// mtimes holds, per host file modified during the run, the host
	// mtime last observed and the guest time reported for it.
	mtimes map[fileID][2]timespec
	atimes map[fileID]timespec // access times the guest set
}

// firstGuestIno is the guest inode number of the first host file
// observed; pipes and sockets number theirs from 1001 on devices of
// their own, so the ranges may overlap without two files sharing a
// (device, inode).
const firstGuestIno = 2

// guestID returns the guest (device, inode) of the host file id.
func (k *Kernel) guestID(id fileID) fileID {
	if k.ids.inos == nil {
		k.ids.devs = map[uint64]uint64{}
		k.ids.inos = map[fileID]uint64{}
	}
	dev, ok := k.ids.devs[id.dev]
	if !ok {
		dev = makedev(8, uint64(len(k.ids.devs)))
		k.ids.devs[id.dev] = dev
	}
	ino, ok := k.ids.inos[id]
	if !ok {
		ino = firstGuestIno + uint64(len(k.ids.inos))
		k.ids.inos[id] = ino
	}
	return fileID{dev, ino}
}

// guestIno is the guest inode number of host file id, 0 (an entry that
// went away) for the zero id.
func (k *Kernel) guestIno(id fileID) uint64 {
	if id == (fileID{}) {
		return 0
	}
	return k.guestID(id).ino
}

// guestStat converts the stat of a host file to what the guest sees.
func (k *Kernel) guestStat(s statInfo) statInfo {
	host := fileID{s.dev, s.ino}
	g := k.guestID(host)
	s.dev, s.ino = g.dev, g.ino
	s.mtime = k.guestMtime(host, s.mtime)
	s.atime, s.ctime = s.mtime, s.mtime
	if t, ok := k.ids.atimes[host]; ok {
		s.atime = t
	}
	return s
}

// setAtime records the access time t the guest set on host file s, as
// stat'ed after the change (UTIME_OMIT: none).
func (k *Kernel) setAtime(s statInfo, t timespec) {
	switch t.nsec {
	case utimeOmit:
		return
	case utimeNow: // with host time: what the host set
		t = s.atime
	}
	if k.ids.atimes == nil {
		k.ids.atimes = map[fileID]timespec{}
	}
	k.ids.atimes[fileID{s.dev, s.ino}] = t
}

// guestMtime returns the guest's modification time of host file id whose
// host mtime is t.
func (k *Kernel) guestMtime(id fileID, t timespec) timespec {
	if k.cfg.HostTime || t.sec*1e9+t.nsec < k.fileEpoch {
		return t
	}
	if k.ids.mtimes == nil {
		k.ids.mtimes = map[fileID][2]timespec{}
	}
	if m, ok := k.ids.mtimes[id]; ok && m[0] == t {
		return m[1]
	}
	ns, _ := k.now(clockRealtime)
	g := nsToTimespec(ns)
	k.ids.mtimes[id] = [2]timespec{t, g}
	return g
}
