package syscalls

import (
	"fmt"
	"os"

	"github.com/rvsim/rvsim/mem"
)

// Process creation: fork, vfork and posix_spawn (clone and clone3
// without CLONE_THREAD). The child is a process of its own, with its own
// kernel (this package's state, copied as copy_process copies it) and
// its own copy of the parent's memory, on a core of its own that the
// glue (Forker) builds. rvsim runs the child to its end before its parent
// goes on: the clone call returns the child's pid once the child has
// exited, and the child waits as a zombie for its parent's wait4 or
// waitid. That is one schedule Linux could choose (the child on another
// CPU, finishing before its parent is scheduled again), and it keeps the
// parent's run, its instruction count and cycles, exactly what they were
// without the child, whatever the child does. What it cannot run is a
// child that waits for its parent: a child reading a pipe its parent has
// yet to write (popen(..., "w"), a pipe into `tar -z`'s compressor)
// blocks forever, and ends, killed, with a one-line warning. A pipe a
// child writes grows past its usual 64 KiB for a reader that is not
// running yet (up to childPipeMax).
//
// vfork and CLONE_VM (posix_spawn) get a copy of the memory too, as
// POSIX allows: a vfork child may only exec or _exit, and glibc's
// posix_spawn reports a failed exec through memory it shares with the
// child, so under rvsim posix_spawn succeeds and the child exits with
// 127, as a shell reports a command it could not run.

// ChildEnd is how a child process ended.
type ChildEnd struct {
	Code   int // its exit status (0..255), when Signal is 0
	Signal int // the signal that killed it
}

// Forker runs a child process to its end; the glue sets it
// (SetForker). child is the child's kernel: the forker gives it a copy of
// the parent's memory (Attach), starts a core at regs on it, runs it, and
// closes the kernel.
type Forker func(child *Kernel, regs UserRegs) ChildEnd

// SetForker enables fork, vfork and posix_spawn with forker f (nil:
// clone without CLONE_THREAD answers ENOSYS with a warning).
func (k *Kernel) SetForker(f Forker) { k.forker = f }

// Pid returns the process's id.
func (k *Kernel) Pid() int32 { return k.pid }

// Warnf writes one warning line (the glue's, about this process).
func (k *Kernel) Warnf(format string, args ...any) {
	if k.cfg.Warn != nil {
		fmt.Fprintf(k.cfg.Warn, format+"\n", args...)
	}
}

// childPipeMax bounds a pipe a child writes while its reader waits to
// run: past it the child blocks, and so ends.
const childPipeMax = 64 << 20

const (
	cloneVfork        = 0x00004000
	cloneClearSighand = 0x100000000 // CLONE_CLEAR_SIGHAND (clone3): the child's handlers return to SIG_DFL
	cloneForkOK       = cloneVM | cloneVfork | cloneParentSettid | cloneChildSettid | cloneChildCleartid | cloneSettls | cloneClearSighand | 0xff
	cldExited         = 1 // CLD_EXITED
	cldKilled         = 2 // CLD_KILLED
	saNocldwait       = 0x2
)

// zombie is a child that has ended and not been waited for.
type zombie struct {
	pid int32
	end ChildEnd
}

// status is the wait status of the child's end (WIFEXITED, WIFSIGNALED).
func (z zombie) status() uint32 {
	if z.end.Signal != 0 {
		return uint32(z.end.Signal)
	}
	return uint32(z.end.Code&0xff) << 8
}

// fork creates a child process and runs it to its end (see above).
func (k *Kernel) fork(num, flags, sp, ptid, tls, ctid uint64) (uint64, Errno) {
	if k.forker == nil || flags&^cloneForkOK != 0 {
		why := noProcessCreation
		if k.forker == nil {
			why = "no process runner is attached to this kernel"
		}
		k.warnOnce(fmt.Sprintf("syscall %d", num), "rvsim: warning: syscall %d (%s) returns ENOSYS: %s", num, Name(num), why)
		return 0, ENOSYS
	}
	if k.cur == nil {
		return 0, ENOSYS // no register context (Syscall)
	}
	pid := *k.nextTID
	*k.nextTID++
	if flags&cloneParentSettid != 0 {
		if e := k.writeU32(ptid, uint32(pid)); e != 0 {
			return 0, e
		}
	}
	child := k.forkKernel(pid)
	regs := *k.cur
	regs.X[10] = 0
	if sp != 0 {
		regs.X[2] = sp
	}
	if flags&cloneSettls != 0 {
		regs.X[4] = tls
	}
	if flags&cloneChildSettid != 0 {
		child.setTID = ctid
	}
	if flags&cloneChildCleartid != 0 {
		child.clearTID = ctid
	}
	if flags&cloneClearSighand != 0 {
		for i := range child.sig {
			if child.sig[i].handler != sigIGN {
				child.sig[i] = sigAction{}
			}
		}
	}
	end := k.forker(child, regs)
	exitSig := int(flags & 0xff)
	if exitSig == sigCHLD && (k.sig[sigCHLD].handler == sigIGN || k.sig[sigCHLD].flags&saNocldwait != 0) {
		return uint64(pid), 0 // reaped at once, as Linux does when SIGCHLD is ignored
	}
	z := zombie{pid: pid, end: end}
	k.children = append(k.children, z)
	if exitSig > 0 && exitSig <= nsig {
		k.raise(exitSig, k.childInfo(z, int32(exitSig)))
	}
	return uint64(pid), 0
}

// childInfo is the siginfo of a child's end (SIGCHLD, waitid).
func (k *Kernel) childInfo(z zombie, sig int32) sigInfo {
	code, st := int32(cldExited), uint32(z.end.Code&0xff)
	if z.end.Signal != 0 {
		code, st = cldKilled, uint32(z.end.Signal)
	}
	si := makeInfo(sig, code)
	put32(si[:], siPidOff, uint32(z.pid))
	put32(si[:], siUIDOff, uint32(os.Getuid()))
	put32(si[:], 24, st) // si_status
	return si
}

// forkKernel copies the kernel state a child inherits (copy_process):
// the file descriptors (sharing their open files), the working
// directory and root, the signal actions and the caller's mask, limits,
// the process group, the clock (the child's starts where its parent's
// stands) and the file identities. Not inherited: pending signals,
// interval timers, memory locks, other threads, children.
func (k *Kernel) forkKernel(pid int32) *Kernel {
	c := &Kernel{
		cfg: k.cfg, rootDir: k.rootDir, writeDirs: k.writeDirs, cwd: k.cwd, umask: k.umask,
		exePath: k.exePath, sysroot: k.sysroot, comm: k.comm,
		argv: k.argv, auxv: k.auxv, stackStart: k.stackStart,
		argStart: k.argStart, argEnd: k.argEnd, envStart: k.envStart, envEnd: k.envEnd,
		brkStart: k.brkStart, brk: k.brk,
		pid: pid, ppid: k.pid, rlim: k.rlim, nice: k.nice, persona: k.persona, ioprio: k.ioprio,
		pgrp: k.pgid(), sig: k.sig, trampoline: k.trampoline,
		flocks: k.flocks, inoSeq: k.inoSeq, net: k.net, unixNames: k.unixNames, unixAuto: k.unixAuto, ids: k.ids,
		sleptNS: k.monoNS(), realSet: k.realSet, start: k.start, fileEpoch: k.fileEpoch,
		rand: k.rand, warned: make(map[string]bool), buf: make([]byte, chunk),
		childOfParent: true,
	}
	for key, v := range k.warned {
		c.warned[key] = v
	}
	c.tstate = tstate{sigMask: k.sigMask, alt: k.alt}
	c.run = &thread{tid: pid, deadline: -1, policy: k.run.policy, priority: k.run.priority, comm: k.taskComm(k.currentTID())}
	c.threads = []*thread{c.run}
	c.nextTID = k.nextTID
	c.quantum = k.quantum
	c.fds = make([]*fdEntry, len(k.fds))
	for i, f := range k.fds {
		if f != nil {
			f.of.refs++
			c.fds[i] = &fdEntry{of: f.of, cloexec: f.cloexec}
		}
	}
	c.sandboxFS = k.forkSandbox()
	return c
}

// Attach gives a forked child its memory (a copy of its parent's) and
// writes what CLONE_CHILD_SETTID asks into it.
func (k *Kernel) Attach(m *mem.Memory) {
	k.mem = m
	if k.setTID != 0 {
		k.writeU32(k.setTID, uint32(k.pid)) // a fault here is the child's to meet, as in Linux
		k.setTID = 0
	}
}

// reapable returns the index of the zombie wait's pid argument selects
// (-1: any child; 0 or -pgid: a child in that group, which every child
// is, since none leaves its parent's group before it has ended), or -1.
func (k *Kernel) reapable(pid int32) int {
	for i, z := range k.children {
		if pid <= 0 || z.pid == pid {
			return i
		}
	}
	return -1
}

// reap removes zombie i.
func (k *Kernel) reapZombie(i int) {
	k.children = append(k.children[:i], k.children[i+1:]...)
}

// childPid reports whether pid is a child that has not been waited for
// (kill may still signal it: a zombie accepts and ignores signals).
func (k *Kernel) childPid(pid int32) bool {
	for _, z := range k.children {
		if z.pid == pid {
			return true
		}
	}
	return false
}

func sysWait4(k *Kernel, a sysArgs) (uint64, Errno) {
	if a.Uint(2)&^(wNohang|wUntraced|wContinued|wNothread|wAll|wClone) != 0 {
		return 0, EINVAL
	}
	i := k.reapable(a.Int(0))
	if i < 0 {
		return 0, ECHILD // every child has ended (see above): none to wait for
	}
	z := k.children[i]
	if st := a.Ptr(1); st != 0 {
		if e := k.writeU32(st, z.status()); e != 0 {
			return 0, e
		}
	}
	if ru := a.Ptr(3); ru != 0 {
		if e := k.writeMem(ru, make([]byte, rusageSize)); e != 0 {
			return 0, e
		}
	}
	k.reapZombie(i)
	return uint64(z.pid), 0
}

func sysWaitid(k *Kernel, a sysArgs) (uint64, Errno) {
	idtype, id := a.Int(0), a.Int(1)
	if idtype < 0 || idtype > 3 { // P_ALL, P_PID, P_PGID, P_PIDFD
		return 0, EINVAL
	}
	opts := a.Uint(3)
	if opts&^(wNohang|wUntraced|wExited|wContinued|wNowait|wNothread|wAll|wClone) != 0 ||
		opts&(wExited|wUntraced|wContinued) == 0 {
		return 0, EINVAL
	}
	if idtype == 3 {
		return 0, EBADF // no pidfds
	}
	pid := int32(-1)
	if idtype == 1 {
		pid = id
	}
	i := -1
	if opts&wExited != 0 {
		i = k.reapable(pid)
	}
	if i < 0 {
		return 0, ECHILD
	}
	z := k.children[i]
	if info := a.Ptr(2); info != 0 {
		si := k.childInfo(z, sigCHLD)
		if e := k.writeMem(info, si[:]); e != 0 {
			return 0, e
		}
	}
	if ru := a.Ptr(4); ru != 0 {
		if e := k.writeMem(ru, make([]byte, rusageSize)); e != 0 {
			return 0, e
		}
	}
	if opts&wNowait == 0 {
		k.reapZombie(i)
	}
	return 0, 0
}
