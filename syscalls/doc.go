// Package syscalls is rvsim's Linux riscv64 user ABI: the initial process
// stack and auxiliary vector, the system call table, a sandboxed view of
// the host file system, and deterministic time. It plays the kernel for one
// single-threaded glibc program (static or dynamically linked), much as qemu-user does.
//
// The core stops on ecall; the caller passes a7 and a0..a5 to
// Kernel.Syscall and writes the result to a0 (-errno on failure, as Linux
// does). Every store into guest memory goes through one helper that records
// the range (LastWrites), so a reference emulator can be kept in step.
//
// # Supported system calls
//
// Files: openat, close, read, write, readv, writev, pread64, pwrite64,
// preadv, pwritev, preadv2, pwritev2 (RWF_HIPRI, RWF_DSYNC, RWF_SYNC;
// RWF_NOWAIT on regular files), sync_file_range, syncfs, readahead
// (hints), lseek, fstat, newfstatat, statx, readlinkat, getcwd,
// chdir, fchdir, faccessat, faccessat2, ioctl (TCGETS, TIOCGWINSZ from a
// host terminal; a pseudo-terminal's termios, window size, flow, flush,
// process group and controlling-terminal requests (pty.go); else ENOTTY;
// FIONBIO, FIOCLEX, FIONCLEX, FIONREAD), fcntl
// (F_DUPFD[_CLOEXEC], F_GETFD/F_SETFD, F_GETFL/F_SETFL, F_GETPIPE_SZ,
// F_ADD_SEALS/F_GET_SEALS, F_SETOWN/F_GETOWN; record and OFD locks
// between the run's processes, posixlock.go), dup, dup3, getdents64 (sorted), mkdirat, mknodat (files, FIFOs
// and sockets; no device nodes; an opened FIFO is a pipe of the run,
// fifo.go), unlinkat, symlinkat,
// linkat, renameat2 (flags 0 and RENAME_NOREPLACE), truncate, ftruncate,
// fallocate, fchmod, fchmodat, fchmodat2, fchown, fchownat, utimensat (futimens),
// umask, sync, fsync, fdatasync, fadvise64, statfs, fstatfs, flock (locks
// of two open file descriptions conflict, as in Linux), copy_file_range,
// sendfile, splice, tee, vmsplice (copies, splice.go), close_range, ppoll and pselect6 (poll, select and pause in
// glibc: files are always ready, pipes and eventfds report their state,
// the timeout advances the clock), pipe2 (a pipe inside the process:
// what is written can be read back), eventfd2, memfd_create (an unlinked
// host temporary file), epoll_create1, epoll_ctl, epoll_pwait and
// epoll_pwait2 (epoll.go: level- and edge-triggered, one-shot and
// exclusive items, nested instances; readiness as ppoll's);
// timerfd_create, timerfd_settime and timerfd_gettime (timerfd.go:
// expiries counted on the deterministic clock; waits end at the next
// expiry), signalfd4 (signalfd.go: pending signals of a mask read as
// signalfd_siginfo), inotify_init1, inotify_add_watch and
// inotify_rm_watch (inotify.go: the events of the run's own file
// operations, in fsnotify's order), shmget, shmat, shmdt and shmctl
// (sysvshm.go: System V shared memory of the run's processes), semget,
// semop, semtimedop and semctl (sysvsem.go: semaphore sets, waiters
// served in the order they came, SEM_UNDO), msgget, msgsnd, msgrcv and
// msgctl (sysvmsg.go: message queues, a waiting receiver handed what is
// sent; the three kinds in one IPC namespace, sysvipc.go, which
// /proc/sysvipc lists); mq_open, mq_unlink, mq_timedsend,
// mq_timedreceive, mq_notify and mq_getsetattr (mqueue.go: POSIX message
// queues in the same namespace, by priority, notified by signal or
// glibc's SIGEV_THREAD netlink cookie); the
// extended-attribute calls getxattr, lgetxattr, fgetxattr, listxattr, llistxattr, flistxattr, setxattr, lsetxattr,
// fsetxattr, removexattr, lremovexattr and fremovexattr, on a file system
// that keeps none (lists are empty, a get finds nothing, a set is
// EOPNOTSUPP: xattr.go).
//
// Memory: brk, mmap (anonymous; file mappings copy the file in; a shared
// mapping of a file open for writing is written back to the file on
// msync, munmap and exit, and before any read or write of the file,
// which reaches the mappings at once, shared.go; every MAP_SHARED mapping
// is a mem.Object that forked children share, and futexes on it wake
// across processes; MAP_FIXED, MAP_FIXED_NOREPLACE), munmap, mremap (with MREMAP_MAYMOVE and MREMAP_FIXED), mprotect,
// madvise (MADV_DONTNEED zeroes private memory), msync, mlock, mlock2, munlock, mlockall,
// munlockall (RLIMIT_MEMLOCK counted), mincore (every mapped page
// resident), membarrier, riscv_flush_icache.
//
// Process: exit (one thread), exit_group, getpid (fixed 1000), gettid (the
// main thread's is the pid), getppid (1),
// getuid, geteuid, getgid, getegid, getresuid, getresgid (the host's ids
// at the start), setuid, setgid, setreuid, setregid, setresuid,
// setresgid, setfsuid, setfsgid, setgroups (Linux's rules, creds.go),
// getpgid, setpgid, getsid, setsid (groups and sessions among the run's
// processes; the first leads its group in its parent's session, 1),
// getpriority, setpriority, wait4 and waitid
// (ECHILD: there are no children), getgroups, set_tid_address,
// set_robust_list, get_robust_list, uname (Linux 6.1.0 riscv64; node and
// domain names the run's, which sethostname and setdomainname set for
// all its processes when the effective uid is 0), prlimit64, getrlimit,
// setrlimit, prctl (names, dumpable), getrusage, times, sysinfo,
// sched_getaffinity (one CPU), sched_setaffinity, sched_yield, getcpu,
// sched_setscheduler, sched_setparam, sched_getscheduler,
// sched_getparam, sched_get_priority_max, sched_get_priority_min,
// sched_rr_get_interval, sched_setattr, sched_getattr, personality,
// ioprio_get, ioprio_set (recorded per thread or process, sched.go and
// schedattr.go; the round-robin schedule does not consult them),
// futex (see Threads below; in a process with one thread a wait ends at
// its timeout or a signal, and one that nothing can end returns EINTR
// with a warning),
// getrandom (deterministic), riscv_hwprobe (IMA; FD, C, Zba, Zbb, Zbs, Zbc, Zicond).
// capget, capset (capability.go: the sets, rvsim's own at the start, moved
// by the set*uid calls, execve, capset and prctl; privilege checks ask
// for capabilities).
// rseq, io_uring_setup, io_uring_enter, io_uring_register,
// landlock_create_ruleset, landlock_add_rule and landlock_restrict_self
// answer ENOSYS quietly: glibc, libuv, liburing and xz continue without
// them. Process descriptors (pidfd.go): pidfd_open, pidfd_send_signal,
// pidfd_getfd, CLONE_PIDFD and waitid's P_PIDFD, with their readiness in
// poll and epoll. Another process's memory (processvm.go):
// process_vm_readv and process_vm_writev. seccomp (seccomp.go): strict
// mode and classic BPF filters, also through prctl(PR_SET_SECCOMP).
// syslog (syslog.go): the kernel log, empty, root only. unshare
// (unshare.go): a kernel without namespaces but mount and cgroup ones;
// setns joins a pidfd's. chroot (path.go): the process's root a held
// directory below the run's.
// mount (mount.go): the root mount's propagation type, per mount
// namespace.
//
// Signals: rt_sigaction, rt_sigprocmask, rt_sigpending, rt_sigsuspend,
// rt_sigtimedwait, rt_sigqueueinfo, rt_tgsigqueueinfo, rt_sigreturn,
// sigaltstack, kill (the run's processes and groups; stop signals and
// SIGCONT stop and continue a process, jobctl.go), tkill, tgkill (this
// process's threads), setitimer and
// getitimer (alarm in glibc), and the POSIX timers timer_create,
// timer_settime, timer_gettime, timer_getoverrun and timer_delete
// (ptimer.go). Signals are delivered to handlers as Linux
// riscv64 does (signal.go): the rt_sigframe on the user or alternate
// stack, the handler's mask, SA_SIGINFO, SA_NODEFER, SA_RESETHAND,
// SA_ONSTACK, SA_RESTART, and a sigreturn trampoline in place of the
// vDSO. Faults of the core become SIGSEGV, SIGBUS, SIGILL and SIGTRAP
// (Trap); SIGFPE is only ever sent (RISC-V arithmetic does not trap).
// Interval timers expire at an exact retired-instruction count
// (NextTimer, Interrupt). A signal whose default action ends the process
// ends it with status 128+signal; FatalSignal names it ("Aborted").
//
// Time: clock_gettime (also the CPU-time clocks of
// clock_getcpuclockid and pthread_getcpuclockid), clock_getres,
// gettimeofday, nanosleep, clock_nanosleep, clock_settime and
// settimeofday (CLOCK_REALTIME of the guest; the host's clock is
// untouched). By default time is deterministic: the core counts as a
// 1 GHz machine with one instruction per cycle, so CLOCK_MONOTONIC is the
// retired-instruction count in ns, CLOCK_REALTIME adds 2024-01-01T00:00:00Z,
// and sleeping advances the clock instead of waiting (a sleep a signal
// interrupts returns EINTR with the time left). Config.HostTime uses the
// host's clocks and really sleeps.
//
// Threads (thread.go): clone and clone3 with CLONE_THREAD (what
// pthread_create passes) create a thread of this process on the one hart;
// the kernel schedules them round-robin with a quantum of retired
// instructions (Config.Quantum), switching at blocking calls (futex
// wait, sleeps, sigsuspend, pipe and eventfd reads and writes, timerfd
// and signalfd reads, ppoll, pselect6 and epoll waits another thread, a
// timerfd's expiry or a signal for a signalfd can end) and sched_yield; exit ends one thread (its
// clear_child_tid is zeroed and woken), exit_group the process. Signal
// masks and pending signals are per thread; tgkill signals one thread and
// a process-directed signal goes to a thread that does not block it.
// Every thread blocked forever ends the run (Deadlock).
//
// Sockets inside the process (sockpair.go): socketpair(AF_UNIX, stream,
// datagram or seqpacket) with read, write, sendto, recvfrom, sendmsg,
// recvmsg (descriptors passed with SCM_RIGHTS: scm.go), shutdown,
// getsockname, getpeername, getsockopt, setsockopt, sendmmsg, recvmmsg,
// FIONREAD, poll and epoll readiness.
//
// Loopback networking inside the process (inet.go): socket(AF_INET or
// AF_INET6, TCP, UDP or UDP-Lite), bind (loopback and wildcard addresses; port 0
// picks the next free port from 32768, deterministically), listen,
// accept, accept4, connect (to a listener of the process, at once; any
// other address is unreachable), and the calls above on them, with
// sockaddr_in and sockaddr_in6 addresses, UDP source addresses, resets
// and SO_ERROR as Linux's loopback gives them. Nothing reaches the host's
// network.
//
// The network interfaces (netif.go): the loopback, lo, alone (index 1,
// 127.0.0.1/8 and ::1/128), as socket(AF_NETLINK, SOCK_RAW or
// SOCK_DGRAM, NETLINK_ROUTE) shows it (netlink.go, rtnetlink.go:
// RTM_GETLINK, RTM_GETADDR, RTM_GETROUTE and RTM_GETNEIGH dumps and
// RTM_GETLINK gets answered with Linux's messages, acknowledgements and
// errors; bind, getsockname, sendmsg, recvmsg with MSG_PEEK and
// MSG_TRUNC, poll, the SOL_NETLINK options) and the interface ioctls on
// any socket answer (SIOCGIFCONF, SIOCGIFINDEX, SIOCGIFNAME,
// SIOCGIFFLAGS, SIOCGIFMTU, SIOCGIFHWADDR, SIOCGIFTXQLEN, and on AF_INET
// sockets SIOCGIFADDR, SIOCGIFNETMASK, SIOCGIFBRDADDR). What would
// change the network is EPERM, as for root without CAP_NET_ADMIN.
//
// Named AF_UNIX sockets inside the process (unixsock.go): bind to a path
// (its socket file made through the sandbox) or an abstract name,
// listen, accept and connect, stream or seqpacket, and datagrams sent to
// a bound name with the sender's; connect to a path no
// socket of the process is bound to fails as when nothing listens
// (ENOENT, ECONNREFUSED), quietly, as glibc's nscd probe expects
// (socket.go).
//
// execve and execveat replace the process's program in place (exec.go):
// ELF programs, static or dynamic, and #! scripts, with what survives an
// exec and what does not as in Linux's fs/exec.c.
//
// fork, vfork and posix_spawn (clone and clone3 without CLONE_THREAD)
// create child processes, each with a copy of its parent's memory and
// kernel state, that run beside their parent in slices of one
// deterministic clock, a waiting parent getting the turn back at its
// deadline (fork.go); wait4 and waitid report their ends.
//
// Unsupported, with a warning that gives the reason: processes that
// share a descriptor table, signal handlers or namespaces with their
// parent, and socket domains other than AF_UNIX, AF_INET, AF_INET6 and
// AF_NETLINK:
//
//	rvsim: warning: syscall 220 (clone) returns ENOSYS: rvsim creates threads (CLONE_THREAD) and processes as fork, vfork and posix_spawn do, not processes that share descriptor tables, signal handlers or namespaces
//
// Any other call answers ENOSYS and prints one warning per call number:
//
//	rvsim: warning: unimplemented syscall 262 (fanotify_init) returns ENOSYS
//
// Supported returns the table with notes.
//
// # File-system sandbox
//
// The guest's "/" is Config.Root. Paths are resolved here component by
// component with chroot semantics: ".." stops at the root, symbolic links
// are followed inside the root (absolute targets start at the guest root),
// at most 40 per lookup (ELOOP). The sandbox decides on opened objects,
// never on names (sandbox_linux.go): each step opens one name with
// O_PATH|O_NOFOLLOW relative to the directory descriptor the step before
// opened, so the host never follows a link, and the call then acts on the
// held object (fchmodat2, fchownat, utimensat with AT_EMPTY_PATH) or on one
// name in its held directory (openat, mkdirat, unlinkat, renameat2,
// linkat, symlinkat, without following). A guest's chroot(2) moves its
// "/" to a held directory below (sysChroot); ".." from a working
// directory left outside still stops at Config.Root. A guest directory descriptor and
// the working directory are host directory descriptors: lookups through
// them follow the directory, not its old name. Reads are allowed anywhere
// inside the root; anything that modifies the file system (opening for
// writing or truncation, creating, unlinking, mkdir, symlink, rename,
// truncate, chmod, chown, utimensat) is allowed only below the host
// working directory or a Config.AllowWrite directory, decided on the held
// object: a directory when walking up from it reaches one of those
// (held open, compared by device and inode), another file when its
// directory does. Otherwise the call fails with EACCES and one line goes
// to Config.Warn per path:
//
//	rvsim: sandbox: refused write access to /etc/passwd
//
// /dev/null, /dev/zero, /dev/full, /dev/random and /dev/urandom
// (deterministic bytes), /dev/std{in,out,err}, /dev/tty (the controlling
// terminal, a pseudo-terminal of the run; else ENXIO), /dev/ptmx and
// /dev/pts/N (pseudo-terminals, pty.go) and /proc/self/exe (which names Config.ExePath, or
// argv[0] made absolute) are virtual; so are the cwd and fd/N links
// (symbolic links to lstat), and maps, status, stat, cmdline, environ,
// comm, auxv, mounts and mountinfo (the root alone; /proc/mounts is a link
// to self/mounts), generated in the kernel's formats from the process's own
// state when opened (procfs.go); the rest of /proc/self does not exist
// (ENOENT). The directories /proc/PID, its fd and task directories, and
// /proc when the root has none, list what can be opened in them
// (procdir.go).
// The machine-wide /proc and /sys files programs size themselves by
// (cpuinfo, meminfo, stat, uptime, loadavg, version, the CPU lists) describe
// the simulated machine (sysfiles.go). Another process of the run has
// its /proc/PID as the caller has its own, generated from that process
// (procView; a zombie's state Z, without memory); the host's processes
// do not exist. Descriptors 0, 1 and 2 are Config.Stdin, Stdout
// and Stderr; when those are not host files, fstat reports a pipe.
//
// # Sysroot
//
// Config.Sysroot (a host directory inside the root) works as qemu-user's
// -L prefix: an absolute path that exists below it is looked up there
// first, any other in the root ("/" itself is never redirected). A dynamic
// program's interpreter (Kernel.ExecFile) and the libraries ld.so opens
// come from it.
//
// # Memory limit
//
// With a limit on guest memory (mem.Memory.SetLimit), writable mappings
// are charged as Linux's strict overcommit accounting charges them (the
// stack excepted: it is mapped whole at exec): brk, mmap, mremap growth and
// an mprotect adding write fail with ENOMEM (brk keeps the old break) when
// the charge, or the memory already backed plus the new mapping, would
// exceed the limit. A touch the limit cannot back is the caller's to end
// the run (sim).
//
// # Process layout
//
// The stack occupies the 8 MiB below StackTop (0x40_0000_0000, the sv39
// TASK_SIZE); mmap allocates top-down below MmapTop = StackTop-128 MiB;
// brk grows up from the end of the program's bss; a dynamic program's
// interpreter is mapped by the loader at the top of the mmap area, as an
// mmap without a hint would be (Image.Base, AT_BASE). SetupProcess builds argc,
// argv, envp and auxv as Linux's create_elf_tables does (AT_HWCAP,
// AT_PAGESZ, AT_CLKTCK, AT_PHDR, AT_PHENT, AT_PHNUM, AT_BASE, AT_FLAGS,
// AT_ENTRY, AT_UID, AT_EUID, AT_GID, AT_EGID, AT_SECURE, AT_RANDOM with 16
// fixed bytes, AT_EXECFN; no vDSO), so a run is reproducible bit for bit.
package syscalls
