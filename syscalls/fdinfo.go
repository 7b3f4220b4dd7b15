package syscalls

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// /proc/PID/fdinfo/N (fs/proc/fd.c seq_show): the descriptor's position,
// flags (O_CLOEXEC added when the descriptor has it, in octal), mount id
// and inode, then what the file's kind adds: an eventfd's count, id and
// semaphore mode, a signalfd's mask, an AF_UNIX socket's descriptors in
// flight to it, a pidfd's pid (-1 once reaped). The
// mount ids are those of rvsim's one mount (mountinfo's 21) and of
// Linux's internal pipe, socket and anonymous-inode file systems.
// Not shown: a timerfd's and an epoll instance's own lines.

// Mount ids of the files no path reaches.
const (
	mntRoot   = 21 // procMountinfo's
	mntSockfs = 8
	mntPipefs = 12
	mntAnon   = 13
)

// fdInfoFile is the generator of fdinfo/N when rest names one of the
// process's open descriptors.
func (k *Kernel) fdInfoFile(rest string) (func(*Kernel) []byte, bool) {
	n, ok := strings.CutPrefix(rest, "fdinfo/")
	if !ok || k.exited {
		return nil, false
	}
	fd, err := strconv.Atoi(n)
	if err != nil || strconv.Itoa(fd) != n || fd >= len(k.fds) || k.fds[fd] == nil {
		return nil, false
	}
	return func(pk *Kernel) []byte { return pk.fdInfo(int32(fd)) }, true
}

// fdInfo is fdinfo/fd's text (empty once the descriptor is closed).
func (k *Kernel) fdInfo(fd int32) []byte {
	if int(fd) >= len(k.fds) || k.fds[fd] == nil {
		return nil
	}
	ent := k.fds[fd]
	of := ent.of
	var pos int64
	if of.kind == kindHost && of.f != nil && !of.isDir {
		pos, _ = of.f.Seek(0, io.SeekCurrent)
	}
	flags := of.flags
	if ent.cloexec {
		flags |= oCloexec
	}
	mnt := mntRoot
	switch of.kind {
	case kindPipe:
		if of.f == nil { // (a FIFO of the file system is on the root)
			mnt = mntPipefs
		}
	case kindSocket:
		mnt = mntSockfs
	case kindEventfd, kindEpoll, kindTimerfd, kindSignalfd, kindPidfd, kindInotify:
		mnt = mntAnon
	}
	var ino uint64
	if st, e := k.statFile(of); e == 0 {
		ino = st.ino
	}
	var b strings.Builder
	fmt.Fprintf(&b, "pos:\t%d\nflags:\t0%o\nmnt_id:\t%d\nino:\t%d\n", pos, flags, mnt, ino)
	switch of.kind {
	case kindEventfd:
		fmt.Fprintf(&b, "eventfd-count: %16x\neventfd-id: %d\neventfd-semaphore: %d\n",
			of.efd.count, of.efd.id, b2u(of.efd.semaphore))
	case kindSignalfd:
		fmt.Fprintf(&b, "sigmask:\t%016x\n", of.sfd.mask)
	case kindSocket:
		if of.inet == nil && of.nl == nil { // unix_show_fdinfo: descriptors in flight to it
			p := of.rx
			if p == nil {
				p = of.uin
			}
			n := 0
			if p != nil {
				for _, r := range p.rights {
					n += len(r.files)
				}
			}
			fmt.Fprintf(&b, "scm_fds: %d\n", n)
		}
	case kindPidfd:
		pid := int64(-1)
		if p := of.process; p != nil && !p.reaped {
			pid = int64(p.pid)
		}
		fmt.Fprintf(&b, "Pid:\t%d\nNSpid:\t%d\n", pid, pid)
	}
	return []byte(b.String())
}

// nextEventfdID numbers the run's eventfds from 0, as Linux's IDA does
// from boot.
func (l *procList) nextEventfdID() int {
	l.eventfds++
	return l.eventfds - 1
}
