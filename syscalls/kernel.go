package syscalls

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/rvsim/rvsim/mem"
)

// Address-space layout of a user process (riscv64 sv39).
const (
	StackTop  = 0x4000000000         // TASK_SIZE for sv39: the stack's upper end
	StackSize = 8 << 20              // the stack is mapped [StackTop-StackSize, StackTop)
	MmapTop   = StackTop - 128<<20   // mmap allocates top-down below this
	MmapMin   = 0x10000              // lowest address mmap hands out (mmap_min_addr)
	PIEBase   = 0x2aaaaaa000         // ELF_ET_DYN_BASE: load bias of a static PIE
	StackBase = StackTop - StackSize // lowest stack address
	PageSize  = mem.PageSize         // the guest page size
)

const (
	pageMask  = uint64(mem.PageMask)
	maxRW     = 0x7ffff000             // MAX_RW_COUNT: the most one read/write moves
	chunk     = 64 << 10               // host I/O is done in chunks of this size
	pathMax   = 4096                   // PATH_MAX, including the NUL
	nameMax   = 255                    // NAME_MAX
	maxLinks  = 40                     // symlinks followed per lookup (MAXSYMLINKS)
	fixedPID  = 1000                   // the guest's pid and tid (see package doc)
	fixedPPID = 1                      // the guest's parent
	epochSec  = 1704067200             // 2024-01-01T00:00:00Z: deterministic CLOCK_REALTIME at instret 0
	nodeName  = "rvsim"                // uname nodename
	release   = "6.1.0"                // uname release
	version   = "#1 SMP PREEMPT rvsim" // uname version
)

// Config describes the process's environment.
type Config struct {
	Root       string   // host dir that is the guest's "/" ("" or "/" = host root)
	Cwd        string   // guest working directory at start ("" = host cwd mapped into the root, or "/" if outside it)
	AllowWrite []string // extra host dirs where writes are allowed (besides the host cwd)
	HostTime   bool     // use host clocks instead of deterministic time
	// Epoch is the deterministic CLOCK_REALTIME at instruction 0, in
	// seconds since 1970 (0: 2024-01-01T00:00:00Z). A build that
	// compares file times (make) wants it after its files' times.
	Epoch   int64
	Stdin   io.Reader
	Stdout  io.Writer
	Stderr  io.Writer
	Warn    io.Writer // where one-line warnings go (unknown syscalls, refused writes)
	ExePath string    // guest path of the program (AT_EXECFN, /proc/self/exe)
	// Sysroot is a host directory inside Root searched first for absolute
	// guest paths, as qemu-user's -L prefix is: a dynamic program's
	// interpreter and shared libraries come from it ("" for none).
	Sysroot string
	// Quantum is the scheduling quantum of a threaded process in retired
	// instructions (0: DefaultQuantum; thread.go).
	Quantum uint64
}

// Range is a span of guest memory a system call wrote.
type Range struct{ Addr, Len uint64 }

// sysArgs are the argument registers a0..a5 of a system call, with typed
// views in the style of the kernel's SYSCALL_DEFINE wrappers (an int
// argument is the low 32 bits of its register).
type sysArgs [6]uint64

// Int returns argument i as a C int.
func (a sysArgs) Int(i int) int32 { return int32(a[i]) }

// Uint returns argument i as a C unsigned int.
func (a sysArgs) Uint(i int) uint32 { return uint32(a[i]) }

// Long returns argument i as a C long.
func (a sysArgs) Long(i int) int64 { return int64(a[i]) }

// Ptr returns argument i as a guest address (also size_t).
func (a sysArgs) Ptr(i int) uint64 { return a[i] }

// Kernel is the Linux personality of one single-threaded guest process:
// its file descriptors, memory map bookkeeping (brk), signal state, limits
// and clocks. It is not safe for concurrent use.
type Kernel struct {
	mem *mem.Memory
	cfg Config

	// file system
	sandboxFS           // held descriptors of the root, the cwd and the writable directories
	rootDir    string   // real host path of the guest's "/"
	writeDirs  []string // real host dirs where writes are allowed
	cwd        string   // guest path of the working directory (cwdN) when last known: absolute, clean
	umask      uint32
	fds        []*fdEntry
	exePath    string // absolute guest path, for /proc/self/exe
	sysroot    string // guest path of Config.Sysroot from the process's root, "" for none (or outside it)
	sysrootDir string // Config.Sysroot's host path (symlink-free), "" for none
	comm       string // prctl PR_GET_NAME
	cred       creds  // user and group ids (creds.go)

	// the initial stack, for /proc/self (procfs.go)
	argv                               []string
	auxv                               []uint64
	stackStart                         uint64 // sp at entry (argc)
	argStart, argEnd, envStart, envEnd uint64

	// memory
	brkStart, brk uint64

	// threads (thread.go): the running thread's own state is embedded here
	tstate
	sched

	// process
	pid, ppid int32 // fixedPID and fixedPPID for the first process; a child's own (fork.go)
	exited    bool
	reaped    bool // ended and waited for (or reaped at once): its pidfds hang up
	stopped   int  // the signal that stopped the process (jobctl.go); 0: it runs
	exitCode  int
	fatalSig  int
	rlim      [rlimitCount]rlimit
	nice      int32    // setpriority: -20..19
	mnt       *mountNS // the mount namespace (mount.go; nil: the run's first)
	// prctl's settings (proc.go): the parent-death signal (not
	// inherited), the timer slack (0: the default) and
	// no_new_privs (inherited)
	pdeathsig  int
	subreaper  bool // PR_SET_CHILD_SUBREAPER (adopt)
	timerSlack uint64
	noNewPrivs bool
	persona    uint32 // personality(2) (sched.go)
	ioprio     uint32 // ioprio_set's value, 0 until set (sched.go)
	pgrp       int32  // process group (0: the pid)
	sid        int32  // session (0: the parent's, fixedSID)
	membarrier uint32
	memlocked  map[uint64]bool // pages locked by mlock (RLIMIT_MEMLOCK accounting)
	shared     []*sharedMap    // writable shared file mappings, by address (shared.go)

	// signals (signal.go)
	sig        [nsig + 1]sigAction
	cur        *UserRegs // the register context of the system call in progress (Ecall)
	trampoline bool      // the sigreturn trampoline page is mapped
	sigGens    uint64    // signals queued (and signalfd masks changed): signalfds' epoll edges

	// flock(2) locks, by file
	// posixLocks: the process has taken fcntl record locks, which a
	// close of any descriptor of their file drops (posixlock.go);
	// lockWait is the process whose lock an F_SETLKW waits for (its
	// deadlock check).
	posixLocks bool
	lockWait   *Kernel
	lockSeen   lockSeen   // the file where a lock was last in its way (posixlock.go)
	semUndos   []*semUndo // SEM_UNDO adjustments, oldest first (sysvsem.go)
	inoSeq     uint64     // inode numbers of pipes
	ids        guestIDs   // the guest's identities of host files (ident.go)

	// time
	instret uint64
	sleptNS int64 // virtual time spent in sleeps and timed waits
	realSet int64 // what clock_settime and settimeofday added to CLOCK_REALTIME
	start   time.Time
	// fileEpoch is the host's file-stamping clock at start (ns): a host
	// mtime from then on was made during the run.
	fileEpoch int64
	timers    [3]itimer     // ITIMER_REAL, ITIMER_VIRTUAL, ITIMER_PROF
	ptimers   []*posixTimer // timer_create's, by id (nil: deleted; ptimer.go)

	rand splitMix // getrandom, /dev/urandom

	// execve (exec.go)
	execLoader ExecLoader

	// child processes (fork.go)
	forker     Forker
	live       []*liveChild // children that have not ended, in the order they were made
	children   []zombie     // ended children not yet waited for, in the order they ended
	setTID     uint64       // CLONE_CHILD_SETTID's address, written at Attach
	parentLink *liveChild   // a child's link to its parent (nil for the first process)
	turnBound  turnBound    // where a child's current turn ends (fork.go)
	catchUpAt  uint64       // the instruction count at which the live children next catch up (fork.go)
	lastRound  roundMark    // how the children's last round went (runChildren)
	turnBusy   bool         // a child's: its own children computed in its current turn (runChildren)
	vforkHold  bool         // a vfork child that has not yet exec'd: its parent waits (fork.go)

	writes []Range
	// listShared: LastWrites lists shared pages a child may have written
	// (ListSharedWrites).
	listShared bool
	warned     map[string]bool
	buf        []byte // scratch for host I/O
}

// New creates the kernel for a process whose memory is m. It opens the
// guest root and resolves the working directory; the process image is set
// up later by SetupProcess.
func New(m *mem.Memory, cfg Config) (*Kernel, error) {
	if m == nil {
		return nil, errors.New("syscalls: nil memory")
	}
	if cfg.Stdout == nil {
		cfg.Stdout = io.Discard
	}
	if cfg.Stderr == nil {
		cfg.Stderr = io.Discard
	}
	k := &Kernel{
		mem:       m,
		cfg:       cfg,
		umask:     0o022,
		start:     time.Now(),
		fileEpoch: hostFileClock(),
		rand:      splitMix{state: 0x5256_5349_4d5f_5244}, // "RVSIM_RD"
		warned:    make(map[string]bool),
		buf:       make([]byte, chunk),
	}
	k.alt = altStack{flags: ssDisable}
	k.pid, k.ppid = fixedPID, fixedPPID
	k.cred = hostCreds()
	k.initThreads()
	rootDir := cfg.Root
	if rootDir == "" {
		rootDir = "/"
	}
	rootDir, err := realDir(rootDir)
	if err != nil {
		return nil, fmt.Errorf("syscalls: root: %w", err)
	}
	k.rootDir = rootDir
	hostCwd, err := os.Getwd()
	if err != nil {
		return nil, fmt.Errorf("syscalls: host working directory: %w", err)
	}
	if hostCwd, err = realDir(hostCwd); err != nil {
		return nil, fmt.Errorf("syscalls: host working directory: %w", err)
	}
	k.writeDirs = append(k.writeDirs, hostCwd)
	for _, d := range cfg.AllowWrite {
		rd, err := realDir(d)
		if err != nil {
			return nil, fmt.Errorf("syscalls: allow-write: %w", err)
		}
		k.writeDirs = append(k.writeDirs, rd)
	}
	if err := k.openSandbox(); err != nil {
		k.closeSandbox()
		return nil, fmt.Errorf("syscalls: root: %w", err)
	}
	guestCwd := "/"
	switch {
	case cfg.Cwd != "":
		if !strings.HasPrefix(cfg.Cwd, "/") {
			return nil, fmt.Errorf("syscalls: working directory %q is not an absolute guest path", cfg.Cwd)
		}
		guestCwd = cfg.Cwd
	default:
		if g, ok := below(rootDir, hostCwd); ok {
			guestCwd = g
		}
	}
	k.cwd = "/"
	l, e := k.resolveExisting(atFDCWD, guestCwd, true)
	if e == 0 && !l.obj.isDir() {
		l.close()
		e = ENOTDIR
	}
	if e != 0 {
		k.closeSandbox()
		return nil, fmt.Errorf("syscalls: working directory %s: %v", guestCwd, e)
	}
	k.setCwd(l.take(l.obj), l.guest)
	l.close()
	if cfg.Sysroot != "" {
		if err := k.setSysroot(cfg.Sysroot); err != nil {
			k.closeSandbox()
			return nil, err
		}
	}
	k.setExe(cfg.ExePath)
	k.initStdio()
	k.initRlimits()
	return k, nil
}

// setExe records the program's guest path for /proc/self/exe (made
// absolute against the working directory) and its name for PR_GET_NAME.
func (k *Kernel) setExe(p string) {
	if p == "" {
		return
	}
	if !strings.HasPrefix(p, "/") {
		p = path.Join(k.cwd, p)
	}
	k.exePath = path.Clean(p)
	k.SetExecName(k.exePath)
}

// SetExecName names the process after the path it was started by (comm:
// /proc/self/comm, stat, status and PR_GET_NAME): its last element, at
// most 15 bytes, as Linux takes it from the name exec was given, not
// from the file a symbolic link leads to (python3, not python3.13).
// Call it after SetExePath, before SetupProcess.
func (k *Kernel) SetExecName(p string) {
	k.comm = path.Base(filepath.ToSlash(p))
	if len(k.comm) > 15 {
		k.comm = k.comm[:15]
	}
}

// GuestPath returns the guest path of host path p (relative paths are
// taken from the host working directory), if p lies inside the guest root.
// The glue uses it to turn the program's host path into Config.ExePath.
func (k *Kernel) GuestPath(p string) (string, bool) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", false
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	return below(k.rootDir, abs)
}

// below returns host path h as a guest path from host directory dir (both
// absolute and clean), if h lies inside dir.
func below(dir, h string) (string, bool) {
	if !within(h, dir) {
		return "", false
	}
	rel, err := filepath.Rel(dir, h)
	if err != nil {
		return "", false
	}
	return path.Clean("/" + filepath.ToSlash(rel)), true
}

// RootDir is the host directory that is the guest's "/" (symlink-free).
func (k *Kernel) RootDir() string { return k.rootDir }

// SetExePath sets the guest path of the program (as Config.ExePath does);
// call it before SetupProcess.
func (k *Kernel) SetExePath(p string) {
	k.cfg.ExePath = p
	k.setExe(p)
}

// realDir returns the absolute, symlink-free form of host directory d.
func realDir(d string) (string, error) {
	abs, err := filepath.Abs(d)
	if err != nil {
		return "", err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", err
	}
	fi, err := os.Stat(real)
	if err != nil {
		return "", err
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("%s is not a directory", d)
	}
	return real, nil
}

// within reports whether host path p is dir or lies below it.
func within(p, dir string) bool {
	if dir == "/" {
		return strings.HasPrefix(p, "/")
	}
	return p == dir || strings.HasPrefix(p, dir+"/")
}

// Close releases the host files the process holds open.
func (k *Kernel) Close() error {
	k.unmapShared(0, ^uint64(0)) // written back, their files closed
	for fd := range k.fds {
		k.closeFD(int32(fd))
	}
	k.closeSandbox()
	k.sandboxFS = sandboxFS{}
	return nil
}

// SetInstret tells the kernel how many instructions the core has retired;
// deterministic clocks are derived from it (1 ns per instruction).
func (k *Kernel) SetInstret(n uint64) { k.instret = n }

// Syscall performs system call num with arguments a0..a5 and returns the
// value for a0 (a negative errno is returned as uint64(-errno)). Without
// the register context (see Ecall), signals with handlers stay pending;
// those whose default action ends the process end it, and a call a
// signal interrupts returns EINTR.
func (k *Kernel) Syscall(num uint64, regs [6]uint64) uint64 {
	k.writes = k.writes[:0]
	if k.exited {
		return 0
	}
	v := k.dispatch(num, regs)
	k.fireTimers()
	k.settle()
	if k.restoreMask { // no handler can run here: the mask a wait replaced comes back
		k.sigMask, k.restoreMask = k.savedMask, false
	}
	if v == errnoRet(errRestartSys) || v == errnoRet(errRestartNoIntr) {
		v = errnoRet(EINTR)
	}
	return v
}

// dispatch runs the handler of system call num.
func (k *Kernel) dispatch(num uint64, regs [6]uint64) uint64 {
	var e *entry
	if num < uint64(len(dispatch)) {
		e = dispatch[num]
	}
	if e == nil {
		name := Name(num)
		if name == "" {
			name = "unknown"
		}
		k.warnOnce(fmt.Sprintf("syscall %d", num),
			"rvsim: warning: unimplemented syscall %d (%s) returns ENOSYS", num, name)
		return errnoRet(ENOSYS)
	}
	if e.support == Unsupported {
		_, errno := k.unsupported(num, e.note)
		return errnoRet(errno)
	}
	v, errno := e.handler(k, sysArgs(regs))
	if errno != 0 {
		return errnoRet(errno)
	}
	return v
}

func errnoRet(e Errno) uint64 { return uint64(-int64(e)) }

// Exited reports whether the process has ended (exit, exit_group or a
// fatal signal) and its exit status (128+signal for a signal).
func (k *Kernel) Exited() (code int, ok bool) { return k.exitCode, k.exited }

// FatalSignal reports the signal that ended the process, if one did, with
// its strsignal name (SIGABRT: 6, "Aborted").
func (k *Kernel) FatalSignal() (sig int, name string, ok bool) {
	if k.fatalSig == 0 {
		return 0, "", false
	}
	return k.fatalSig, SignalName(k.fatalSig), true
}

// LastWrites returns the guest memory ranges the most recent Syscall (or
// SetupProcess) stored into, in order. The slice is reused by the next
// call. Fresh mappings (mmap, brk, mremap growth) read as zero and are not
// listed: a reference model learns of them from the memory's region list.
func (k *Kernel) LastWrites() []Range { return k.writes }

// ListSharedWrites makes LastWrites also list the pages of shared
// mappings after a system call during which a child process ran (it may
// have stored there): for a reference model that follows this process's
// memory (--difftest). Without it they are not listed, which saves a
// walk over the shared pages at every turn of the processes.
func (k *Kernel) ListSharedWrites() { k.listShared = true }

// NoteWrite adds [addr, addr+n) to LastWrites: the glue's loader wrote
// it during a system call (execve's new image).
func (k *Kernel) NoteWrite(addr, n uint64) { k.record(addr, n) }

// Brk returns the current program break.
func (k *Kernel) Brk() uint64 { return k.brk }

// warnOnce writes one warning line to Config.Warn the first time key is seen.
func (k *Kernel) warnOnce(key, format string, args ...any) {
	if k.warned[key] {
		return
	}
	k.warned[key] = true
	if k.cfg.Warn != nil {
		fmt.Fprintf(k.cfg.Warn, format+"\n", args...)
	}
}

// --- guest memory (copy_from_user / copy_to_user) ---------------------------

// record notes that [addr, addr+n) was written, merging with the previous
// range when contiguous.
func (k *Kernel) record(addr, n uint64) {
	if n == 0 {
		return
	}
	if l := len(k.writes); l > 0 && k.writes[l-1].Addr+k.writes[l-1].Len == addr {
		k.writes[l-1].Len += n
		return
	}
	k.writes = append(k.writes, Range{addr, n})
}

// writeMem copies b to guest memory as a user-mode store: every byte must be
// writable, else nothing is written and the result is EFAULT. Every guest
// store a handler makes goes through writeMem, copyOut, pokeMem or
// zeroMem, which record the range for LastWrites.
func (k *Kernel) writeMem(addr uint64, b []byte) Errno {
	if len(b) == 0 {
		return 0
	}
	if addr+uint64(len(b)) < addr || k.mem.WriteBytes(addr, b) != nil {
		return EFAULT
	}
	k.record(addr, uint64(len(b)))
	return 0
}

// pokeMem stores b ignoring page permissions (file data of a read-only
// mapping).
func (k *Kernel) pokeMem(addr uint64, b []byte) Errno {
	if len(b) == 0 {
		return 0
	}
	if k.mem.Poke(addr, b) != nil {
		return EFAULT
	}
	k.record(addr, uint64(len(b)))
	return 0
}

// userOK reports how many bytes from addr (up to n) are accessible with
// permission p, page by page.
func (k *Kernel) userOK(addr, n uint64, p mem.Perm) uint64 {
	var ok uint64
	for ok < n {
		a := addr + ok
		if a < addr {
			break
		}
		r, found := k.mem.RegionAt(a)
		if !found || r.Perm&p == 0 {
			break
		}
		ok += min(n-ok, r.End-a)
	}
	return ok
}

// copyOut writes the longest writable prefix of b to addr and returns its
// length.
func (k *Kernel) copyOut(addr uint64, b []byte) int {
	n := k.userOK(addr, uint64(len(b)), mem.W)
	if n == 0 || k.writeMem(addr, b[:n]) != 0 {
		return 0
	}
	return int(n)
}

// readMem copies n bytes of guest memory (all readable, else EFAULT). n
// must be small (callers chunk large transfers).
func (k *Kernel) readMem(addr, n uint64) ([]byte, Errno) {
	b := make([]byte, n)
	if addr+n < addr || k.mem.ReadBytes(addr, b) != nil {
		return nil, EFAULT
	}
	return b, 0
}

func (k *Kernel) readU64(addr uint64) (uint64, Errno) {
	b, e := k.readMem(addr, 8)
	if e != 0 {
		return 0, e
	}
	return le64(b), 0
}

func (k *Kernel) readU32(addr uint64) (uint32, Errno) {
	b, e := k.readMem(addr, 4)
	if e != 0 {
		return 0, e
	}
	return uint32(le64(append(b, 0, 0, 0, 0))), 0
}

func (k *Kernel) writeU64(addr, v uint64) Errno {
	var b [8]byte
	put64(b[:], 0, v)
	return k.writeMem(addr, b[:])
}

// mayWriteU32 checks that a word may be written (put_user's fault, ahead
// of the write) by writing back what it holds.
func (k *Kernel) mayWriteU32(addr uint64) Errno {
	v, e := k.readU32(addr)
	if e != 0 {
		return e
	}
	return k.writeU32(addr, v)
}

func (k *Kernel) writeU32(addr uint64, v uint32) Errno {
	var b [4]byte
	put32(b[:], 0, v)
	return k.writeMem(addr, b[:])
}

// readPath reads a NUL-terminated path argument.
func (k *Kernel) readPath(addr uint64) (string, Errno) {
	s, err := k.mem.ReadCString(addr, pathMax)
	if err != nil {
		var f *mem.Fault
		if errors.As(err, &f) {
			return "", EFAULT
		}
		return "", ENAMETOOLONG
	}
	return s, 0
}

// little-endian helpers
func le64(b []byte) uint64 {
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
}

func put64(b []byte, off int, v uint64) {
	for i := 0; i < 8; i++ {
		b[off+i] = byte(v >> (8 * i))
	}
}

func put32(b []byte, off int, v uint32) {
	for i := 0; i < 4; i++ {
		b[off+i] = byte(v >> (8 * i))
	}
}

func put16(b []byte, off int, v uint16) {
	b[off] = byte(v)
	b[off+1] = byte(v >> 8)
}

func pageUp(a uint64) uint64 { return (a + pageMask) &^ pageMask }

// splitMix is SplitMix64, the fixed-seed generator behind getrandom,
// /dev/urandom and AT_RANDOM: the same bytes on every run and host.
type splitMix struct{ state uint64 }

func (s *splitMix) next() uint64 {
	s.state += 0x9e3779b97f4a7c15
	z := s.state
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

func (s *splitMix) fill(b []byte) {
	for i := 0; i < len(b); i += 8 {
		v := s.next()
		for j := 0; j < 8 && i+j < len(b); j++ {
			b[i+j] = byte(v >> (8 * j))
		}
	}
}

// unsupported is the answer of a call, or a use of one, that rvsim does
// not support: one warning per call number (why: what is not supported),
// as the dispatcher gives Unsupported calls, and ENOSYS.
func (k *Kernel) unsupported(num uint64, why string) (uint64, Errno) {
	k.warnOnce(fmt.Sprintf("syscall %d", num),
		"rvsim: warning: syscall %d (%s) returns ENOSYS: %s", num, Name(num), why)
	return 0, ENOSYS
}
