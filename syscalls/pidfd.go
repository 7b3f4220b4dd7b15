package syscalls

import (
	"strconv"
	"strings"
)

// Process descriptors (pidfds), as Linux 6.1 has them (kernel/pid.c,
// kernel/signal.c, kernel/fork.c): pidfd_open, CLONE_PIDFD of clone and
// clone3, pidfd_send_signal, pidfd_getfd, waitid's P_PIDFD, and a
// pidfd's readiness, which poll, select and epoll see (pidfd_poll):
// readable once the process has ended, and hung up as well once it has
// been reaped. A pidfd names one process of the run (a Kernel) for as
// long as it is open, whichever process holds it: descriptors pass on
// through fork and SCM_RIGHTS as any other.

const (
	pidfdNonblock = oNonblock // PIDFD_NONBLOCK
	clonePidfd    = 0x1000    // CLONE_PIDFD
	pPidfd        = 3         // waitid's P_PIDFD
)

// pidfdPollMask is pidfd_poll's answer for process p.
func pidfdPollMask(p *Kernel) uint32 {
	switch {
	case p.reaped:
		return pollIn | pollRdnorm | pollHup
	case p.exited:
		return pollIn | pollRdnorm
	}
	return 0
}

// newPidfd installs a descriptor for process p (close-on-exec, as every
// pidfd; flags may hold O_NONBLOCK).
func (k *Kernel) newPidfd(p *Kernel, flags uint32) (uint64, Errno) {
	of := &openFile{kind: kindPidfd, process: p, guest: "anon_inode:[pidfd]", flags: oRdwr | flags&oNonblock}
	return k.install(of, true, 0)
}

// pidfdProcess is the process that descriptor fd names: EBADF when fd
// is not open or not a pidfd.
func (k *Kernel) pidfdProcess(fd int32) (*Kernel, *openFile, Errno) {
	of, e := k.file(fd)
	if e != 0 {
		return nil, nil, e
	}
	if of.kind != kindPidfd {
		return nil, nil, EBADF
	}
	return of.process, of, 0
}

// runPIDs are the pids of the run's processes, live and zombies.
func (k *Kernel) runPIDs() []int32 {
	var pids []int32
	for _, o := range k.all.kernels { // (the caller among them)
		pids = append(pids, o.pid)
		for _, z := range o.children {
			pids = append(pids, z.pid)
		}
	}
	return pids
}

// signalTarget is the process pidfd_send_signal's descriptor fd names:
// a pidfd's, or a /proc/PID directory's (pidfd_to_pid takes both; a
// process that has been reaped since is ESRCH).
func (k *Kernel) signalTarget(fd int32) (*Kernel, Errno) {
	of, e := k.file(fd)
	if e != 0 {
		return nil, e
	}
	if of.kind == kindPidfd {
		return of.process, 0
	}
	if !of.proc || !of.isDir {
		return nil, EBADF
	}
	rest, ok := strings.CutPrefix(of.guest, "/proc/")
	pid, err := strconv.Atoi(rest)
	if !ok || err != nil || strconv.Itoa(pid) != rest {
		return nil, EBADF // /proc itself, or a directory below a process's
	}
	p := k.processOrZombie(int32(pid))
	if p == nil {
		return nil, ESRCH
	}
	return p, 0
}

// processOrZombie finds process pid of the run, live or ended and not
// yet reaped (a zombie still has its task, so pidfd_open succeeds).
func (k *Kernel) processOrZombie(pid int32) *Kernel {
	if pid == k.pid {
		return k
	}
	for _, o := range k.all.kernels {
		if o.pid == pid {
			return o
		}
		for _, z := range o.children {
			if z.pid == pid {
				return z.kernel
			}
		}
	}
	return nil
}

func sysPidfdOpen(k *Kernel, a sysArgs) (uint64, Errno) {
	pid, flags := a.Int(0), a.Uint(1)
	if flags&^pidfdNonblock != 0 || pid <= 0 {
		return 0, EINVAL
	}
	p := k.processOrZombie(pid)
	if p == nil {
		if k.ownThread(pid) {
			return 0, EINVAL // not a thread group's leader
		}
		return 0, ESRCH
	}
	return k.newPidfd(p, flags)
}

// ownThread reports whether tid is a thread of a process of the run
// other than its leader.
func (k *Kernel) ownThread(tid int32) bool {
	for _, o := range k.all.kernels { // (the caller among them)
		if o.pid != tid && o.find(tid) != nil {
			return true
		}
	}
	return false
}

func sysPidfdSendSignal(k *Kernel, a sysArgs) (uint64, Errno) {
	sig, info, flags := a.Int(1), a.Ptr(2), a.Uint(3)
	if flags != 0 {
		return 0, EINVAL
	}
	p, e := k.signalTarget(a.Int(0))
	if e != 0 {
		return 0, e
	}
	si := k.senderInfo(sig, siUser)
	if info != 0 {
		b, e := k.readMem(info, siginfoSize)
		if e != 0 {
			return 0, e
		}
		copy(si[:], b)
		if int32(u32(si[:], 0)) != sig {
			return 0, EINVAL
		}
		// Only to oneself may a caller send what looks like the
		// kernel's or kill's (a code of 0 or more) or tgkill's.
		if code := int32(u32(si[:], 8)); p != k && (code >= 0 || code == siTkill) {
			return 0, EPERM
		}
	}
	if p.reaped {
		return 0, ESRCH
	}
	if sig < 0 || sig > nsig {
		return 0, EINVAL
	}
	if e := k.mayKill(p, sig); e != 0 {
		return 0, e
	}
	if sig == 0 || p.exited { // a zombie takes any signal, to no effect
		return 0, 0
	}
	p.raiseProcess(int(sig), si)
	return 0, 0
}

func sysPidfdGetfd(k *Kernel, a sysArgs) (uint64, Errno) {
	p, _, e := k.pidfdProcess(a.Int(0))
	if e != 0 {
		return 0, e
	}
	if a.Uint(2) != 0 {
		return 0, EINVAL
	}
	if p.exited {
		return 0, ESRCH
	}
	if !k.mayAttach(p) {
		return 0, EPERM
	}
	of, e := p.file(a.Int(1))
	if e != 0 {
		return 0, e
	}
	return k.install(of, true, 0)
}

// mayAttach is ptrace's PTRACE_MODE_ATTACH_REALCREDS check, which
// pidfd_getfd makes: the caller's real ids are all of the target's, or
// the caller is root (CAP_SYS_PTRACE).
func (k *Kernel) mayAttach(p *Kernel) bool {
	c, t := k.cred, p.cred
	if p == k || c.capable(capSysPtrace) {
		return true
	}
	return c.ruid == t.ruid && c.ruid == t.euid && c.ruid == t.suid &&
		c.rgid == t.rgid && c.rgid == t.egid && c.rgid == t.sgid
}
