package syscalls

import (
	"os"
	"strconv"
	"strings"
)

// The directories of /proc that rvsim generates: the process's own
// (/proc/PID, which the links /proc/self and /proc/thread-self name), its
// fd directory (a link per open descriptor), its task directory (a
// directory per thread, each listing what the process's lists), and /proc
// itself when the guest's root has none (a Debian root made by `rvsim
// rootfs create` has no /proc). A listing names what the guest can open
// in the directory. Without them `ls /proc/self/fd` failed, and a program
// that closes its descriptors by listing /proc/self/fd saw none; the
// host's /proc/self would be rvsim's own process, never the guest's.

// procDir is a generated directory's kind.
type procDir uint8

const (
	procNoDir   procDir = iota
	procTop             // /proc
	procPID             // /proc/PID, /proc/PID/task/TID
	procFDs             // /proc/PID/fd
	procFDInfos         // /proc/PID/fdinfo
	procTasks           // /proc/PID/task
	procThread          // /proc/PID/task/TID
)

// procRest is procSelf's remainder of g, with a live thread's
// task/TID/ prefix taken off (a thread's files are the process's here);
// dir is procThread when g names the thread's directory itself.
func (k *Kernel) procRest(g string) (rest string, ok bool) {
	rest, ok = procSelf(g, k.pid)
	if !ok {
		return "", false
	}
	if tid, tail, ok := splitTask(rest); ok {
		if !k.liveTID(tid) {
			return "", false
		}
		if tail == "task" || strings.HasPrefix(tail, "task/") {
			return "", false // a thread's directory has no task directory
		}
		return tail, true
	}
	return rest, true
}

// procView is the process whose /proc/PID directory guest path g lies
// in: another process of the run (a zombie too) for /proc/PID/... with
// its pid, else the caller, whose own paths procRest recognises. What a
// path of another's directory shows is generated from that process's
// kernel, which waits for its turn while the caller runs.
func (k *Kernel) procView(g string) *Kernel {
	rest, ok := strings.CutPrefix(g, "/proc/")
	if !ok {
		return k
	}
	first, _, _ := strings.Cut(rest, "/")
	n, err := strconv.Atoi(first)
	if err != nil || strconv.Itoa(n) != first || int32(n) == k.pid {
		return k
	}
	if p := k.processOrZombie(int32(n)); p != nil {
		return p
	}
	return k
}

// procPrivate reports whether rest, in process p's directory, is one
// that only a process with ptrace's access to p may read (environ, auxv,
// maps, and the exe, cwd and fd links: proc_pid_environ's and
// proc_fd_access_allowed's checks). The caller always may read its own.
func (k *Kernel) procPrivate(p *Kernel, rest string) bool {
	if p == k || k.mayAttach(p) {
		return false
	}
	switch rest {
	case "environ", "auxv", "maps", "exe", "cwd", "root", "fd", "fdinfo":
		return true
	}
	return strings.HasPrefix(rest, "fd/") || strings.HasPrefix(rest, "fdinfo/")
}

// procState is the state of process k as /proc/PID/stat's letter and
// status's State line give it: the caller runs; another process is a
// zombie once ended, stopped by job control (jobctl.go), running when its last turn ended while it computed,
// else asleep (blocked, sleeping, or waiting for its children's turns).
func (k *Kernel) procState() (letter byte, name string) {
	switch {
	case k.exited && k.all.running != k:
		return 'Z', "Z (zombie)"
	case k.stopped != 0:
		return 'T', "T (stopped)"
	case k.all.running == k || k.all.running == nil && k.parentLink == nil,
		k.parentLink != nil && k.parentLink.wakeAt == yieldComputing && !k.parentOf(k.all.running):
		return 'R', "R (running)"
	}
	return 'S', "S (sleeping)"
}

// parentOf reports whether k is an ancestor of process p (it waits in
// its children's turns while p runs).
func (k *Kernel) parentOf(p *Kernel) bool {
	for p != nil && p.parentLink != nil {
		if p.parentLink.parent == k {
			return true
		}
		p = p.parentLink.parent
	}
	return false
}

// splitTask splits a /proc/PID remainder task/TID/tail (TID in canonical
// decimal) into TID and tail.
func splitTask(rest string) (tid int32, tail string, ok bool) {
	t, ok := strings.CutPrefix(rest, "task/")
	if !ok {
		return 0, "", false
	}
	id, tail, _ := strings.Cut(t, "/")
	n, err := strconv.Atoi(id)
	if err != nil || strconv.Itoa(n) != id {
		return 0, "", false
	}
	return int32(n), tail, true
}

// liveTID reports whether tid is one of the process's threads.
func (k *Kernel) liveTID(tid int32) bool {
	if len(k.threads) == 0 {
		return tid == k.pid
	}
	for _, t := range k.threads {
		if t.tid == tid && !t.dead {
			return true
		}
	}
	return false
}

// procDirOf says which generated directory guest path g names, if any
// (/proc only when the guest's file system has no /proc of its own).
func (k *Kernel) procDirOf(g string) procDir {
	if g == "/proc" {
		if l, e := k.resolveExisting(atFDCWD, "/proc", true); e == 0 {
			l.close()
			return procNoDir
		}
		return procTop
	}
	rest, ok := k.procRest(g)
	if !ok {
		return procNoDir
	}
	switch rest {
	case "":
		if strings.Contains(g, "/task/") {
			return procThread
		}
		return procPID
	case "fd":
		return procFDs
	case "fdinfo":
		return procFDInfos
	case "task":
		return procTasks
	}
	return procNoDir
}

// procSelfLink returns the target of /proc/self or /proc/thread-self (g),
// which are links.
func (k *Kernel) procSelfLink(g string) (string, bool) {
	pid := strconv.Itoa(int(k.pid))
	switch g {
	case "/proc/self":
		return pid, true
	case "/proc/thread-self":
		return pid + "/task/" + strconv.Itoa(int(k.currentTID())), true
	}
	return "", false
}

// currentTID is the running thread's id.
func (k *Kernel) currentTID() int32 {
	if k.run == nil {
		return k.pid
	}
	return k.run.tid
}

// procCanonical is the path of a generated directory with the links
// /proc/self and /proc/thread-self followed, so that paths relative to
// its descriptor resolve.
func (k *Kernel) procCanonical(g string) string {
	for _, l := range [...]string{"/proc/self", "/proc/thread-self"} {
		if g == l || strings.HasPrefix(g, l+"/") {
			t, _ := k.procSelfLink(l)
			return "/proc/" + t + g[len(l):]
		}
	}
	return g
}

// openProcDir opens a generated directory: an empty host directory,
// removed at once, stands behind the descriptor (for fstat's and the
// descriptor table's sake); getdents lists the generated entries.
func (k *Kernel) openProcDir(g string, flags uint32, cloexec bool) (uint64, Errno) {
	if flags&oAccMode != oRdonly || flags&(oCreat|oTrunc) != 0 {
		return 0, EISDIR
	}
	d, err := os.MkdirTemp("", "rvsim-procdir-*")
	if err != nil {
		return 0, errnoOf(err)
	}
	f, err := os.Open(d)
	os.Remove(d)
	if err != nil {
		return 0, errnoOf(err)
	}
	of := &openFile{kind: kindHost, f: f, guest: k.procCanonical(g), flags: flags&(oAccMode|oStatusKept) | oLargefile,
		isDir: true, proc: true}
	fd, e := k.install(of, cloexec, 0)
	if e != 0 {
		f.Close()
	}
	return fd, e
}

// procDirStat is what stat reports for a generated directory: dr-xr-xr-x
// (the fd directory dr-x------), on the proc file system, with a link per
// subdirectory as Linux counts them.
func (k *Kernel) procDirStat(g string, d procDir) statInfo {
	s := k.procStatInfo(k.procCanonical(g))
	s.mode, s.nlink, s.size = sIFDIR|0o555, 2, 0
	switch d {
	case procFDs:
		s.mode = sIFDIR | 0o500
	case procPID:
		s.nlink = 5 // fd, fdinfo, task
	case procThread:
		s.nlink = 4 // fd, fdinfo
	case procTasks:
		s.nlink = uint32(2 + len(k.procTIDs()))
	case procTop:
		s.nlink = 3
	}
	return s
}

// procTIDs are the live threads' ids, in creation order.
func (k *Kernel) procTIDs() []int32 {
	if len(k.threads) == 0 {
		return []int32{k.pid}
	}
	var ids []int32
	for _, t := range k.threads {
		if !t.dead {
			ids = append(ids, t.tid)
		}
	}
	return ids
}

// procPIDEntries are the entries of the process's directory: what
// procFile generates and procLink resolves, and the fd and task
// directories (sorted, as rvsim lists every directory).
var procPIDEntries = []struct {
	name string
	typ  uint8
}{
	{"auxv", dtReg}, {"cmdline", dtReg}, {"comm", dtReg}, {"cwd", dtLnk}, {"environ", dtReg}, {"exe", dtLnk},
	{"fd", dtDir}, {"fdinfo", dtDir}, {"maps", dtReg}, {"mountinfo", dtReg}, {"mounts", dtReg}, {"root", dtLnk}, {"stat", dtReg}, {"status", dtReg},
	{"task", dtDir},
}

// procDirListing is the listing of the generated directory g (canonical):
// ".", "..", then its entries.
func (k *Kernel) procDirListing(g string) []dirent {
	d := k.procDirOf(g)
	parent := g[:strings.LastIndexByte(g, '/')]
	if parent == "" {
		parent = "/"
	}
	ino := func(p string) uint64 { return k.procStatInfo(p).ino }
	out := []dirent{{ino(g), dtDir, "."}, {ino(parent), dtDir, ".."}}
	switch d {
	case procTop:
		return k.procListing(out)
	case procPID, procThread:
		for _, e := range procPIDEntries {
			if e.name == "task" && d == procThread {
				continue
			}
			out = append(out, dirent{ino(g + "/" + e.name), e.typ, e.name})
		}
	case procFDs, procFDInfos:
		typ := uint8(dtLnk)
		if d == procFDInfos {
			typ = dtReg
		}
		for fd, ent := range k.fds {
			if ent != nil && !k.exited {
				n := strconv.Itoa(fd)
				out = append(out, dirent{ino(g + "/" + n), typ, n})
			}
		}
	case procTasks:
		for _, tid := range k.procTIDs() {
			n := strconv.Itoa(int(tid))
			out = append(out, dirent{ino(g + "/" + n), dtDir, n})
		}
	}
	return out
}
