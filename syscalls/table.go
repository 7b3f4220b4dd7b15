package syscalls

import "sort"

// Support says how completely a system call is implemented.
type Support uint8

// Support levels.
const (
	Full        Support = iota // Linux semantics for what a single-threaded process can observe
	Partial                    // the common cases; Note says what is missing
	Stub                       // accepted, answers without effect (no other process, no real hardware)
	NoSys                      // deliberately answers ENOSYS, without a warning
	Unsupported                // answers ENOSYS with a warning that gives the reason (Note)
)

func (s Support) String() string {
	return [...]string{"full", "partial", "stub", "enosys", "unsupported"}[s]
}

// handler performs one system call: it unpacks its typed arguments and
// returns the result or an errno.
type handler func(k *Kernel, a sysArgs) (uint64, Errno)

// entry is one row of the system call table.
type entry struct {
	num     uint64
	handler handler
	support Support
	note    string
}

// table is the system call table, as data (in the style of gVisor's
// linux64.go). Names come from names.go. Numbers absent here answer
// ENOSYS with a one-time warning naming the call.
var table = []entry{
	{5, sysSetxattr, Full, "no extended attributes are kept: EOPNOTSUPP (xattr.go)"},
	{6, sysLsetxattr, Full, "as setxattr"},
	{7, sysFsetxattr, Full, "as setxattr"},
	{8, sysGetxattr, Full, "every file has none: ENODATA"},
	{9, sysLgetxattr, Full, "as getxattr"},
	{10, sysFgetxattr, Full, "as getxattr"},
	{11, sysListxattr, Full, "an empty list"},
	{12, sysLlistxattr, Full, "as listxattr"},
	{13, sysFlistxattr, Full, "as listxattr"},
	{14, sysRemovexattr, Full, "nothing to remove: ENODATA"},
	{15, sysLremovexattr, Full, "as removexattr"},
	{16, sysFremovexattr, Full, "as removexattr"},
	{17, sysGetcwd, Full, ""},
	{23, sysDup, Full, ""},
	{24, sysDup3, Full, ""},
	{25, sysFcntl, Partial, "F_DUPFD(_CLOEXEC), F_GETFD/F_SETFD, F_GETFL/F_SETFL, F_GETPIPE_SZ/F_SETPIPE_SZ, seals, F_SETOWN/F_GETOWN; record and OFD locks between the run's processes (posixlock.go)"},
	{194, sysShmget, Full, "System V shared memory of the run's processes (sysvshm.go)"},
	{195, sysShmctl, Full, "IPC_STAT, IPC_SET, IPC_RMID, IPC_INFO, SHM_INFO, SHM_STAT(_ANY), SHM_LOCK/UNLOCK (recorded)"},
	{196, sysShmat, Full, ""},
	{197, sysShmdt, Full, ""},
	{180, sysMqOpen, Full, "POSIX message queues of the run's processes (mqueue.go); the descriptor is close-on-exec"},
	{181, sysMqUnlink, Full, ""},
	{182, sysMqTimedsend, Full, "by priority; a waiting receiver is handed the message"},
	{183, sysMqTimedreceive, Full, ""},
	{184, sysMqNotify, Full, "SIGEV_NONE, SIGEV_SIGNAL (SI_MESGQ), SIGEV_THREAD (glibc's netlink cookie)"},
	{185, sysMqGetsetattr, Full, ""},
	{186, sysMsgget, Full, "System V message queues of the run's processes (sysvmsg.go)"},
	{187, sysMsgctl, Full, "IPC_STAT, IPC_SET, IPC_RMID, IPC_INFO, MSG_INFO, MSG_STAT(_ANY)"},
	{188, sysMsgrcv, Full, "by type, MSG_EXCEPT, MSG_NOERROR, MSG_COPY; a waiting receiver is handed what is sent"},
	{189, sysMsgsnd, Full, ""},
	{190, sysSemget, Full, "System V semaphore sets of the run's processes (sysvsem.go)"},
	{191, sysSemctl, Full, "IPC_STAT, IPC_SET, IPC_RMID, IPC_INFO, SEM_INFO, SEM_STAT(_ANY), GETALL, GETVAL, GETPID, GETNCNT, GETZCNT, SETALL, SETVAL"},
	{192, sysSemtimedop, Full, "waiters served in the order they came; SEM_UNDO applied when a process ends"},
	{193, sysSemop, Full, ""},
	{26, sysInotifyInit1, Full, "events of the run's own file operations, not of other host processes (inotify.go)"},
	{27, sysInotifyAddWatch, Full, ""},
	{28, sysInotifyRmWatch, Full, ""},
	{29, sysIoctl, Partial, "TCGETS/TIOCGWINSZ from the host terminal (TCSETS* accepted but not applied); a pseudo-terminal's termios, window size, flow, flush, process group and controlling terminal (pty.go); FIONBIO, FIOCLEX, FIONCLEX, FIONREAD; on sockets the interface requests about lo (SIOCGIFCONF, SIOCGIFNAME, SIOCGIFINDEX, SIOCGIFFLAGS, SIOCGIFMTU, SIOCGIFTXQLEN, SIOCGIFHWADDR, SIOCGIFMAP, SIOCGIFMETRIC, and on AF_INET sockets its addresses; SIOCSIF* EPERM: netif.go); ENOTTY otherwise"},
	{33, sysMknodat, Partial, "sandboxed; regular files, FIFOs and sockets; device nodes are EPERM"},
	{34, sysMkdirat, Full, "sandboxed"},
	{35, sysUnlinkat, Full, "sandboxed"},
	{36, sysSymlinkat, Full, "sandboxed; targets are confined to the root when followed"},
	{45, sysTruncate, Full, "sandboxed"},
	{46, sysFtruncate, Full, ""},
	{48, sysFaccessat, Full, "W_OK outside the writable directories is EACCES"},
	{49, sysChdir, Full, ""},
	{50, sysFchdir, Full, ""},
	{268, sysSetns, Full, "a pidfd's mount and cgroup namespaces (unshare.go); no /proc/PID/ns files"},
	{51, sysChroot, Full, "CAP_SYS_CHROOT; the run's /proc and virtual /dev files stay visible, as if mounted in the new root"},
	{52, sysFchmod, Full, "sandboxed"},
	{53, sysFchmodat, Full, "sandboxed"},
	{56, sysOpenat, Partial, "sandboxed; virtual /dev/null, zero, full, random, urandom, stdin/out/err, /proc/self/exe; no O_TMPFILE; O_PATH opens for reading"},
	{57, sysClose, Full, ""},
	{61, sysGetdents64, Full, "entries sorted by name after . and .."},
	{62, sysLseek, Full, ""},
	{63, moved(sysRead, 0, -1), Full, ""},
	{64, moved(sysWrite, -1, 0), Full, "EPIPE raises SIGPIPE"},
	{65, moved(sysReadv, 0, -1), Full, ""},
	{66, moved(sysWritev, -1, 0), Full, ""},
	{67, moved(sysPread64, 0, -1), Full, ""},
	{68, moved(sysPwrite64, -1, 0), Full, ""},
	{69, moved(sysPreadv, 0, -1), Full, ""},
	{70, moved(sysPwritev, -1, 0), Full, ""},
	{286, moved(sysPreadv2, 0, -1), Partial, "RWF_HIPRI, RWF_DSYNC, RWF_SYNC; RWF_NOWAIT on regular files; other flags EOPNOTSUPP"},
	{287, moved(sysPwritev2, -1, 0), Partial, "as preadv2"},
	{84, sysSyncFileRange, Stub, "the host writes back"},
	{267, sysFsync, Stub, "syncfs: the host writes back"},
	{213, sysReadahead, Stub, "a hint"},
	{78, sysReadlinkat, Full, "/proc/self/exe, /proc/self/cwd, /proc/self/fd/N"},
	{79, sysNewfstatat, Full, ""},
	{80, sysFstat, Full, ""},
	{81, sysSync, Stub, ""},
	{82, sysFsync, Stub, ""},
	{83, sysFsync, Stub, ""},
	{93, sysExit, Full, "ends the calling thread (the last one ends the process); clear_child_tid is zeroed and woken"},
	{94, sysExitGroup, Full, ""},
	{96, sysSetTidAddress, Full, "zeroed and futex-woken at thread exit"},
	{98, sysFutex, Partial, "WAIT, WAKE, REQUEUE, CMP_REQUEUE, WAKE_OP, WAIT_BITSET, WAKE_BITSET (private or not: one process), timeouts on the deterministic clock; no PI futexes; a lone thread's endless WAIT returns EINTR"},
	{99, sysSetRobustList, Partial, "per thread; recorded, never walked at thread exit"},
	{100, sysGetRobustList, Full, ""},
	{101, sysNanosleep, Full, "advances the deterministic clock instead of sleeping"},
	{112, sysClockSettime, Full, "CLOCK_REALTIME of the guest (root, as the ids are the host's); the host's clock is untouched"},
	{170, sysSettimeofday, Full, "as clock_settime"},
	{113, sysClockGettime, Full, "deterministic unless HostTime"},
	{114, sysClockGetres, Full, ""},
	{115, sysClockNanosleep, Full, "advances the deterministic clock instead of sleeping"},
	{122, sysSchedSetaffinity, Stub, ""},
	{118, sysSchedSetparam, Full, "recorded per thread; the round-robin schedule does not consult it"},
	{119, sysSchedSetscheduler, Full, "recorded per thread; real-time policies need root; SCHED_DEADLINE needs sched_setattr (EINVAL)"},
	{120, sysSchedGetscheduler, Full, ""},
	{40, sysMount, Partial, "mount.go: the root mount's propagation type (MS_SHARED, MS_PRIVATE, MS_SLAVE, MS_UNBINDABLE) per mount namespace, shown in mountinfo; other mounts answer ENOSYS with a warning"},
	{97, sysUnshare, Partial, "unshare.go: a kernel without namespaces but mount and cgroup ones (root's new ones are copies nothing tells apart); one thread's own descriptor table, working directory or SEM_UNDO list answers ENOSYS with a warning"},
	{116, sysSyslog, Full, "syslog.go: the kernel log, empty (rvsim's kernel prints nothing), 128 KiB; dmesg_restrict 1: root only"},
	{274, sysSchedSetattr, Full, "schedattr.go: policy, nice, real-time priority and SCHED_DEADLINE's parameters (checked as __checkparam_dl, admitted up to 95% of the one CPU), reset-on-fork; no utilization clamps (EOPNOTSUPP, a kernel without CONFIG_UCLAMP_TASK)"},
	{275, sysSchedGetattr, Full, "schedattr.go"},
	{121, sysSchedGetparam, Full, ""},
	{125, sysSchedGetPriorityMax, Full, ""},
	{126, sysSchedGetPriorityMin, Full, ""},
	{127, sysSchedRRGetInterval, Full, "100 ms for SCHED_RR, else 0"},
	{92, sysPersonality, Full, "recorded; PER_LINUX by default"},
	{30, sysIoprioSet, Full, "recorded, without effect"},
	{31, sysIoprioGet, Full, "IOPRIO_DEFAULT until set"},
	{123, sysSchedGetaffinity, Full, "one CPU"},
	{124, sysSchedYieldThreads, Full, "ends the thread's quantum"},
	{102, sysGetitimer, Full, ""},
	{103, sysSetitimer, Full, "deterministic: expires at an exact retired-instruction count"},
	{129, sysKill, Full, "the run's processes and groups (fork.go); stop signals and SIGCONT as job control has them (jobctl.go)"},
	{130, sysTkill, Full, ""},
	{131, sysTgkill, Full, ""},
	{132, sysSigaltstack, Full, ""},
	{133, sysRtSigsuspend, Full, ""},
	{134, sysRtSigaction, Full, "no SA_RESTORER on riscv: handlers return through the sigreturn trampoline"},
	{135, sysRtSigprocmask, Full, "pending signals are delivered when unblocked"},
	{136, sysRtSigpending, Full, ""},
	{137, sysRtSigtimedwait, Full, ""},
	{138, sysRtSigqueueinfo, Partial, "only this process; real-time signals are not queued twice"},
	{139, sysRtSigreturn, Full, ""},
	{153, sysTimes, Full, ""},
	{155, sysGetpgid, Full, ""},
	{156, sysGetsid, Full, "any process of the run; the parent's session (1) at first"},
	{158, sysGetgroups, Full, "none until setgroups"},
	{160, sysUname, Full, "Linux 6.1.0 riscv64, nodename rvsim and domainname (none) until sethostname and setdomainname change them"},
	{163, sysGetrlimit, Full, ""},
	{164, sysSetrlimit, Partial, "limits are recorded; only RLIMIT_NOFILE is enforced"},
	{165, sysGetrusage, Partial, "CPU time and maxrss"},
	{166, sysUmask, Full, ""},
	{167, sysPrctl, Partial, "PR_SET_NAME/PR_GET_NAME, PR_GET/SET_DUMPABLE, PR_SET/GET_PDEATHSIG, PR_SET/GET_CHILD_SUBREAPER, PR_SET/GET_NO_NEW_PRIVS, PR_SET/GET_TIMERSLACK, PR_SET/GET_KEEPCAPS, PR_SET/GET_SECUREBITS, PR_CAPBSET_READ/DROP and PR_CAP_AMBIENT (capability.go), PR_SET/GET_SECCOMP (seccomp.go); others EINVAL"},
	{168, sysGetcpu, Full, "CPU 0, node 0"},
	{169, sysGettimeofday, Full, ""},
	{172, sysGetpid, Full, "fixed pid 1000"},
	{173, sysGetppid, Full, "fixed ppid 1"},
	{174, sysGetuid, Full, "host ids"},
	{175, sysGeteuid, Full, ""},
	{176, sysGetgid, Full, ""},
	{177, sysGetegid, Full, ""},
	{178, sysGettid, Full, "the main thread's tid is the pid"},
	{179, sysSysinfo, Partial, "fixed 4 GiB of RAM, one process"},
	{148, sysGetresuid, Full, ""},
	{143, sysSetregid, Full, "creds.go: the ids rvsim reports; the host checks rvsim's own rights"},
	{144, sysSetgid, Full, "as setregid"},
	{145, sysSetreuid, Full, "as setregid"},
	{146, sysSetuid, Full, "as setregid"},
	{147, sysSetresuid, Full, "as setregid"},
	{149, sysSetresgid, Full, "as setregid"},
	{151, sysSetfsuid, Full, "as setregid"},
	{152, sysSetfsgid, Full, "as setregid"},
	{159, sysSetgroups, Full, "as setregid"},
	{150, sysGetresgid, Full, ""},
	{214, sysBrk, Full, ""},
	{223, sysFadvise64, Stub, "validated, no effect"},
	{215, sysMunmap, Full, ""},
	{216, sysMremap, Partial, "no MREMAP_DONTUNMAP"},
	{222, sysMmap, Partial, "anonymous and private file mappings (file bytes copied in); shared read-only file mappings are private copies; shared writable file mappings are ENODEV"},
	{226, sysMprotect, Full, ""},
	{233, sysMadvise, Partial, "MADV_DONTNEED/REMOVE zero the pages (file-backed private pages too, where Linux would re-read the file); other advice is accepted"},
	{259, sysRiscvFlushIcache, Stub, "stores to code are already tracked by the core"},
	{258, sysRiscvHwprobe, Full, "IMA base; FD, C, Zba, Zbb, Zbs, Zbc, Zicond"},
	{240, sysRtTgsigqueueinfo, Partial, "as rt_sigqueueinfo"},
	{261, sysPrlimit64, Full, "this process only"},
	{270, sysProcessVMReadv, Full, "processvm.go: any process or thread of the run, under ptrace's real-ids check; the remote pages' own permissions"},
	{271, sysProcessVMWritev, Full, "processvm.go: as process_vm_readv"},
	{277, sysSeccompCall, Partial, "seccomp.go: strict mode, classic BPF filters per thread (TSYNC, inherited, kept through execve), every action but user notification (no listeners) and tracing (ENOSYS, as without a tracer); the vDSO's calls pass"},
	{276, sysRenameat2, Partial, "sandboxed; RENAME_NOREPLACE; no RENAME_EXCHANGE/WHITEOUT"},
	{278, sysGetrandom, Full, "deterministic bytes (SplitMix64, fixed seed)"},
	{291, sysStatx, Full, "basic stats, no birth time"},
	{293, sysNoSys, NoSys, "rseq: glibc continues without it"},
	{424, sysPidfdSendSignal, Full, "pidfd.go: kill's signal or the caller's siginfo (to another process only a code below 0, not SI_TKILL); a zombie takes it, a reaped process is ESRCH; flags must be 0 (Linux 6.1)"},
	{425, sysNoSys, NoSys, "io_uring_setup: callers (libuv, liburing) fall back to ordinary system calls"},
	{426, sysNoSys, NoSys, "io_uring_enter: no ring can exist"},
	{427, sysNoSys, NoSys, "io_uring_register: no ring can exist"},
	{434, sysPidfdOpen, Full, "pidfd.go: a descriptor for a process of the run, live or a zombie (PIDFD_NONBLOCK); readable in poll and epoll once it has ended, hung up once reaped"},
	{438, sysPidfdGetfd, Full, "pidfd.go: a copy of a live process's descriptor, close-on-exec, under ptrace's real-ids check"},
	{444, sysNoSys, NoSys, "landlock_create_ruleset: as a kernel built without Landlock; callers (xz, ...) run unsandboxed"},
	{445, sysNoSys, NoSys, "landlock_add_rule: no ruleset can exist"},
	{446, sysNoSys, NoSys, "landlock_restrict_self: no ruleset can exist"},
	{161, sysSethostname, Full, "the run's one UTS namespace: every process sees the name (uname, /proc/sys/kernel/hostname); EPERM unless the effective uid is 0"},
	{162, sysSetdomainname, Full, "as sethostname (/proc/sys/kernel/domainname)"},
	{90, sysCapget, Full, "capability.go: the process's sets (the host's at the start, moved by the set*uid calls, capset, prctl and execve as Linux moves them)"},
	{91, sysCapset, Full, "capability.go: cap_capset's rules; the caller only"},
	{439, sysFaccessat2, Full, ""},
	{452, sysFchmodat2, Full, "sandboxed"},
	{19, sysEventfd2, Full, "a counter inside the process"},
	{20, sysEpollCreate1, Full, ""},
	{21, sysEpollCtl, Full, "edge-triggered items of host pipes and terminals report whenever ready"},
	{22, sysEpollPwait, Full, "blocks the thread while other threads can make an item ready; with host descriptors, as ppoll"},
	{441, sysEpollPwait2, Full, "as epoll_pwait"},
	{85, sysTimerfdCreate, Full, "monotonic, boottime and realtime clocks (the _ALARM ones need CAP_WAKE_ALARM); expiries counted on the deterministic clock"},
	{86, sysTimerfdSettime, Full, "TFD_TIMER_CANCEL_ON_SET: setting the guest's realtime clock cancels"},
	{87, sysTimerfdGettime, Full, ""},
	{74, sysSignalfd4, Full, "a process-directed signal every thread blocks stays pending on the sender, where any thread's signalfd finds it"},
	{32, sysFlock, Full, "conflicts between open file descriptions of this process"},
	{37, sysLinkat, Full, "sandboxed: both names must be writable"},
	{43, sysStatfs, Full, "the host file system's figures; devtmpfs for /dev"},
	{44, sysFstatfs, Full, ""},
	{47, sysFallocate, Full, ""},
	{54, sysFchownat, Full, "sandboxed"},
	{55, sysFchown, Full, "sandboxed"},
	{59, sysPipe2, Full, "a pipe inside the process: what is written can be read back"},
	{71, moved(sysSendfile, 1, 0), Full, "from regular files and /dev/zero"},
	{75, sysVmsplice, Full, "copies, as writev or readv on the pipe"},
	{76, moved(sysSplice, 0, 2), Partial, "copies; from a pipe to any file or pipe, into a pipe from regular files, /dev/zero, /dev/random and standard input"},
	{77, sysTee, Full, "copies"},
	{72, sysPselect6, Full, "files and devices are always ready; pipes and eventfds report their state"},
	{73, sysPpoll, Full, "as pselect6"},
	{88, sysUtimensat, Full, "sandboxed; UTIME_NOW is the guest's (deterministic) CLOCK_REALTIME"},
	{95, sysWaitid, Full, "a child's end (fork.go): its siginfo and WNOWAIT; P_PIDFD waits for the pidfd's process, EAGAIN for a nonblocking pidfd"},
	{140, sysSetpriority, Full, ""},
	{141, sysGetpriority, Full, ""},
	{154, sysSetpgid, Full, "the caller or a child of it, into a group of its session"},
	{157, sysSetsid, Full, "a process-group leader: EPERM"},
	{227, sysMsync, Full, "no shared file mappings to write back"},
	{228, sysMlock, Full, "counted against RLIMIT_MEMLOCK"},
	{229, sysMunlock, Full, ""},
	{230, sysMlockall, Partial, "the RLIMIT_MEMLOCK check of MCL_CURRENT is not made (rvsim maps the whole stack up front)"},
	{231, sysMunlockall, Full, ""},
	{232, sysMincore, Partial, "every mapped page is reported resident"},
	{260, sysWait4, Full, "a child's end (fork.go), or with WUNTRACED and WCONTINUED its stop or continuation (jobctl.go); a zeroed rusage"},
	{279, sysMemfdCreate, Partial, "backed by an unlinked host temporary file; seals; MAP_SHARED mappings are ENODEV"},
	{283, sysMembarrier, Full, "one hart: every barrier is already complete"},
	{284, sysMlock2, Full, ""},
	{285, moved(sysCopyFileRange, 0, 2), Full, "regular files"},
	{436, sysCloseRange, Full, ""},
	{107, sysTimerCreate, Full, "SIGEV_SIGNAL, SIGEV_NONE, SIGEV_THREAD_ID on the real-time, monotonic, boot-time and CPU clocks (ptimer.go)"},
	{108, sysTimerGettime, Full, ""},
	{109, sysTimerGetoverrun, Full, ""},
	{110, sysTimerSettime, Full, "relative and TIMER_ABSTIME"},
	{111, sysTimerDelete, Full, ""},
	{220, sysClone, Partial, "threads (CLONE_THREAD, deterministic scheduling: thread.go) and child processes (fork, vfork, posix_spawn, CLONE_PIDFD: fork.go, taking turns with their parent); other sharing answers ENOSYS with a warning"},
	{221, sysExecve, Full, "the program, a #! script's interpreter, replaces the process's image (exec.go)"},
	{281, sysExecveat, Full, "as execve; AT_EMPTY_PATH, AT_SYMLINK_NOFOLLOW"},
	{435, sysClone3, Partial, "as clone"},
	{198, sysSocket, Partial, "AF_INET, AF_INET6 (TCP, UDP, UDP-Lite) on the loopback inside the process (inet.go); AF_UNIX (socket.go, unixsock.go); AF_NETLINK NETLINK_ROUTE, answering link, address and route dumps about lo (netlink.go; other protocols EPROTONOSUPPORT); other domains ENOSYS: no network"},
	{199, sysSocketpair, Full, "AF_UNIX: a connected pair inside the process (sockpair.go)"},
	{200, sysBind, Partial, "AF_INET, AF_INET6: loopback and wildcard addresses, ephemeral ports from 32768 in order; AF_UNIX: a path (a socket file, sandboxed) or an abstract name; AF_NETLINK: a port id (0: the pid, then -4097 down) and groups"},
	{201, sysListen, Full, "TCP, AF_UNIX stream and seqpacket"},
	{202, sysAccept, Full, "connections from the process itself"},
	{203, sysConnect, Partial, "AF_INET, AF_INET6: to a listener in the process, at once; other addresses ENETUNREACH; AF_UNIX: to a listener of the process by path or abstract name, else ENOENT or ECONNREFUSED as with nothing listening"},
	{204, sysGetsockname, Full, "sockaddr_in, sockaddr_in6, sockaddr_un, sockaddr_nl"},
	{205, sysGetpeername, Full, "sockaddr_in, sockaddr_in6, sockaddr_un; a socketpair's peer is unbound"},
	{206, sysSendto, Full, "UDP and AF_UNIX datagrams to the process's own sockets; on a socketpair"},
	{207, sysRecvfrom, Partial, "on a socketpair; MSG_WAITALL returns what has arrived once anything has"},
	{208, sysSetsockopt, Partial, "SOL_SOCKET buffer sizes, timeouts, SO_PASSCRED, SO_LINGER accepted without effect; AF_INET, AF_INET6: SO_REUSEADDR, SO_REUSEPORT (bind conflicts), TCP_NODELAY, TCP_KEEP*, IPV6_V6ONLY, IP_TOS, IP_TTL; AF_NETLINK: SO_RCVBUF (the overrun limit), the SOL_NETLINK flags and memberships (NETLINK_LISTEN_ALL_NSID EPERM); others ENOPROTOOPT"},
	{209, sysGetsockopt, Partial, "SOL_SOCKET: SO_TYPE, SO_ERROR, SO_DOMAIN, SO_PROTOCOL, SO_ACCEPTCONN, buffer sizes, SO_PEERCRED and the flags; the AF_INET, AF_INET6 and SOL_NETLINK options setsockopt takes"},
	{210, sysShutdown, Full, ""},
	{211, sysSendmsg, Partial, "SCM_RIGHTS on AF_UNIX sockets (scm.go); SCM_CREDENTIALS checked, not delivered; IP_TTL, IP_TOS, IPV6_HOPLIMIT, IPV6_TCLASS on UDP (inetcmsg.go); rtnetlink requests to the kernel, answered at once (netlink.go)"},
	{212, sysRecvmsg, Partial, "SCM_RIGHTS (scm.go); IP_PKTINFO, IP_TTL, IP_TOS, IPV6_PKTINFO, IPV6_HOPLIMIT, IPV6_TCLASS on UDP when asked for (inetcmsg.go); NETLINK_PKTINFO; no SCM_CREDENTIALS"},
	{242, sysAccept4, Full, "as accept, with SOCK_NONBLOCK and SOCK_CLOEXEC"},
	{243, sysRecvmmsg, Partial, "receives after the first do not wait (as MSG_WAITFORONE); the timeout is not applied"},
	{269, sysSendmmsg, Partial, "sends after the first do not wait"},
}

// dispatch indexes table by number.
var dispatch = func() []*entry {
	d := make([]*entry, 512)
	for i := range table {
		e := &table[i]
		if d[e.num] != nil {
			panic("syscalls: duplicate table entry " + Name(e.num))
		}
		d[e.num] = e
	}
	return d
}()

func sysNoSys(k *Kernel, a sysArgs) (uint64, Errno) { return 0, ENOSYS }

func sysSync(k *Kernel, a sysArgs) (uint64, Errno) { return 0, 0 }

func sysRiscvFlushIcache(k *Kernel, a sysArgs) (uint64, Errno) {
	if a.Ptr(2)&^1 != 0 { // SYS_RISCV_FLUSH_ICACHE_LOCAL is the only flag
		return 0, EINVAL
	}
	return 0, 0
}

// Info describes one implemented system call, for documentation.
type Info struct {
	Num     uint64
	Name    string
	Support Support
	Note    string
}

// Supported lists the implemented system calls in number order.
func Supported() []Info {
	out := make([]Info, 0, len(table))
	for _, e := range table {
		out = append(out, Info{e.num, Name(e.num), e.support, e.note})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Num < out[j].Num })
	return out
}
