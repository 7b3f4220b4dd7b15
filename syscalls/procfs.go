package syscalls

import (
	"cmp"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/rvsim/rvsim/mem"
)

// The files of /proc/self that describe the process (maps, status, stat,
// cmdline, auxv) are generated from the simulated process's own state, in
// the formats of Linux's fs/proc (task_mmu.c show_map_vma, array.c
// proc_pid_status and do_task_stat, base.c proc_pid_cmdline_read and
// proc_pid_auxv). Linux generates them as they are read; rvsim takes the
// snapshot when the file is opened, which a reader that reads from the
// start to the end of file cannot tell apart.

// procFile returns the generator of /proc/self/<rest>, if it is one.
func procFile(rest string) (func(k *Kernel) []byte, bool) {
	switch rest {
	case "maps":
		return (*Kernel).procMaps, true
	case "status":
		return (*Kernel).procStatus, true
	case "stat":
		return (*Kernel).procStat, true
	case "cmdline":
		return (*Kernel).procCmdline, true
	case "auxv":
		return (*Kernel).procAuxv, true
	case "mounts":
		return (*Kernel).procMounts, true
	case "mountinfo":
		return (*Kernel).procMountinfo, true
	case "environ":
		return (*Kernel).procEnviron, true
	case "comm": // (the process's first thread's: openComm opens a thread's)
		return func(k *Kernel) []byte { return []byte(k.comm + "\n") }, true
	}
	return nil, false
}

// procGen is the generator of the process's file rest: procFile's, or
// an fdinfo file's (fdinfo.go).
func (k *Kernel) procGen(rest string) (func(*Kernel) []byte, bool) {
	if gen, ok := procFile(rest); ok {
		return gen, true
	}
	return k.fdInfoFile(rest)
}

// procWritable reports whether the generated file rest takes writes:
// comm (mode 0644), which names its thread.
func procWritable(rest string) bool { return rest == "comm" }

// procTask is the thread whose files a /proc path g names: TID for
// .../task/TID/..., the calling thread for /proc/thread-self/..., else
// the process's first thread.
func (k *Kernel) procTask(g string) int32 {
	first, tail, _ := strings.Cut(strings.TrimPrefix(g, "/proc/"), "/")
	if first == "thread-self" {
		return k.currentTID()
	}
	if tid, _, ok := splitTask(tail); ok {
		return tid
	}
	return k.pid
}

// openComm opens a thread's comm: a snapshot of its name to read, and a
// write (at most 15 bytes kept, as comm_write) renames the thread.
func (k *Kernel) openComm(pk *Kernel, g string, flags uint32, cloexec bool) (uint64, Errno) {
	tid := pk.procTask(g)
	gen := func(*Kernel) []byte { return []byte(pk.taskComm(tid) + "\n") }
	if flags&oAccMode == oRdonly {
		return k.openProc(g, gen, flags, cloexec)
	}
	if pk != k {
		return 0, EACCES // another process's thread is not renamed here
	}
	if flags&oDirectory != 0 {
		return 0, ENOTDIR
	}
	return k.openSnapshot(g, gen, flags, cloexec, tid)
}

// openProc opens a snapshot of a generated /proc/self file: an unlinked
// host temporary file holding its bytes, read-only to the guest.
func (k *Kernel) openProc(g string, gen func(k *Kernel) []byte, flags uint32, cloexec bool) (uint64, Errno) {
	if flags&oAccMode != oRdonly || flags&(oCreat|oTrunc) != 0 {
		return 0, EACCES
	}
	if flags&oDirectory != 0 {
		return 0, ENOTDIR
	}
	return k.openSnapshot(g, gen, flags, cloexec, 0)
}

// openSnapshot installs the unlinked host temporary file holding gen's
// bytes as g; commTID != 0 makes writes rename that thread (openComm).
func (k *Kernel) openSnapshot(g string, gen func(k *Kernel) []byte, flags uint32, cloexec bool, commTID int32) (uint64, Errno) {
	f, err := os.CreateTemp("", "rvsim-proc-*")
	if err != nil {
		return 0, errnoOf(err)
	}
	os.Remove(f.Name())
	if _, err := f.WriteAt(gen(k), 0); err != nil {
		f.Close()
		return 0, errnoOf(err)
	}
	of := &openFile{kind: kindHost, f: f, guest: g, flags: flags&(oAccMode|oStatusKept) | oLargefile, regular: true, proc: true, commTID: commTID}
	fd, e := k.install(of, cloexec, 0)
	if e != 0 {
		f.Close()
	}
	return fd, e
}

// procStatInfo is what stat reports for a generated /proc file: a regular
// file of size 0, mode 0444, on the proc file system (device 0:22), made
// when the process started (Linux: when the inode was first looked up).
func (k *Kernel) procStatInfo(name string) statInfo {
	ino := uint64(4096)
	for _, c := range name {
		ino = ino*31 + uint64(c)
	}
	t := timespec{sec: k.epoch()}
	if k.cfg.HostTime {
		t = nsToTimespec(k.start.UnixNano())
	}
	perm := uint32(0o444)
	if strings.HasSuffix(name, "/comm") {
		perm = 0o644
	}
	return statInfo{dev: makedev(0, 22), ino: ino & 0xffffff, mode: sIFREG | perm, nlink: 1,
		uid: uint32(os.Getuid()), gid: uint32(os.Getgid()), blksize: 1024, atime: t, mtime: t, ctime: t}
}

// procLink resolves the link rest (exe, cwd, root or fd/N) of process k's
// /proc directory for reader r: its target, the descriptor behind fd/N,
// and ok when rest names a link at all (e is ENOENT for an exe the kernel
// does not know or a closed descriptor). A directory's target is its path
// from r's root, as Linux's d_path takes it from the reader's (or from
// the run's root when it lies outside r's: a chroot's reader).
func (k *Kernel) procLink(r *Kernel, rest string) (target string, of *openFile, e Errno, ok bool) {
	switch {
	case k.exited && (rest == "exe" || rest == "cwd" || rest == "root" || strings.HasPrefix(rest, "fd/")):
		return "", nil, ENOENT, true // a zombie has no files left
	case rest == "exe":
		if k.exePath == "" {
			return "", nil, ENOENT, true
		}
		return k.exePath, nil, 0, true
	case rest == "cwd":
		return r.guestPathOf(k.cwdN, k.cwd), nil, 0, true
	case rest == "root": // proc_root_link: the process's root directory (chroot)
		return r.guestPathOf(k.rootN, "/"), nil, 0, true
	case strings.HasPrefix(rest, "fd/"):
		n, err := strconv.Atoi(rest[3:])
		if err != nil || n < 0 || strconv.Itoa(n) != rest[3:] {
			return "", nil, ENOENT, true
		}
		of, e := k.file(int32(n))
		if e != 0 {
			return "", nil, ENOENT, true
		}
		if of.kind == kindStdin || of.kind == kindStdout {
			return k.stdioTarget(of), of, 0, true
		}
		if of.kind == kindHost && !of.memfd && !of.proc && of.f != nil {
			if n, e := borrow(of.f); e == 0 {
				return k.guestPathOf(n, of.guest), of, 0, true // where the file is now
			}
		}
		return of.guest, of, 0, true
	}
	return "", nil, 0, false
}

// procThrough rewrites a path that goes through a /proc/self directory
// link, /proc/self/cwd/REST, /proc/self/root/REST or /proc/self/fd/N/REST
// with N a directory, to REST from that directory (the cwd, the root, or
// descriptor N): where Linux's walk goes on after following the link.
// Other paths come back as they were.
func (k *Kernel) procThrough(dirfd int32, p string) (int32, string) {
	if !strings.Contains(p, "proc/") { // most paths, at no cost
		return dirfd, p
	}
	g, e := k.lexical(dirfd, p)
	if e != 0 {
		return dirfd, p
	}
	rest, ok := k.procRest(g)
	if !ok {
		return dirfd, p
	}
	if tail, ok := strings.CutPrefix(rest, "cwd/"); ok {
		return atFDCWD, tail
	}
	if tail, ok := strings.CutPrefix(rest, "root/"); ok {
		return atFDCWD, "/" + tail // the caller's own root
	}
	if fdTail, ok := strings.CutPrefix(rest, "fd/"); ok {
		n, tail, ok := strings.Cut(fdTail, "/")
		if v, err := strconv.Atoi(n); ok && err == nil && strconv.Itoa(v) == n {
			if of, e := k.file(int32(v)); e == 0 && of.isDir {
				return int32(v), tail
			}
		}
	}
	return dirfd, p
}

// procFollow is where open and access go for process k's link rest, read
// by r: the path of its target. A descriptor's file is reopened by the
// name it has now, which a host file that still has one supports (Linux
// reopens the object itself, unlinked or not: a pipe, a memfd or a
// deleted file).
func (k *Kernel) procFollow(r *Kernel, rest string) (string, Errno) {
	t, of, e, ok := k.procLink(r, rest)
	switch {
	case !ok:
		return "", ENOENT
	case e != 0:
		return "", e
	case of != nil && (of.kind != kindHost || of.memfd || of.proc || of.f == nil):
		return "", ENOENT
	}
	return t, 0
}

// stdioTarget is what /proc/self/fd/N names for a standard stream: a
// pipe or socket as Linux names one (by the inode fstat reports), else
// the stream's own name (/dev/stdin, /dev/stdout, /dev/stderr), which
// opens the same file (the host's path is not the guest's to see).
func (k *Kernel) stdioTarget(of *openFile) string {
	s, e := k.statFile(of)
	switch {
	case e != 0:
	case s.mode&sIFMT == sIFIFO:
		return "pipe:[" + strconv.FormatUint(s.ino, 10) + "]"
	case s.mode&sIFMT == sIFSOCK:
		return "socket:[" + strconv.FormatUint(s.ino, 10) + "]"
	}
	return of.guest
}

// procLinkDir is the directory behind process k's link rest (cwd or
// root), nil for another link.
func (k *Kernel) procLinkDir(rest string) *node {
	switch {
	case k.exited:
		return nil
	case rest == "cwd":
		return k.cwdN
	case rest == "root":
		return k.rootN
	}
	return nil
}

// procLinkStat is what lstat reports for a /proc/self link (proc_pid_make_inode
// and proc_fd_link): a symbolic link on the proc file system, lrwxrwxrwx
// with size 0 for exe, cwd and root; for fd/N the owner's r-x when the descriptor
// reads and -wx when it writes, and size 64.
func (k *Kernel) procLinkStat(g string, of *openFile) statInfo {
	s := k.procStatInfo(g)
	s.mode = sIFLNK | 0o777
	if of != nil {
		s.mode = sIFLNK
		if of.canRead() {
			s.mode |= 0o500
		}
		if of.canWrite() {
			s.mode |= 0o300
		}
		s.size = 64
	}
	return s
}

// mapName is the name /proc/self/maps shows for region name n, and
// whether it is a file: the guest path of a file (an ELF image is named
// by its host path), the kernel's names for the stack, heap and the
// signal trampoline page (a vdso on Linux), nothing for anonymous memory.
//
// Region names are guest paths (files the guest mapped) or host paths
// (the program and its interpreter, loaded by the simulator); a path in
// the guest's root shows as the guest sees it.
func (k *Kernel) mapName(n string) (string, bool) {
	switch n {
	case "[anon]", "":
		return "", false
	case "[sigreturn]":
		return "[vdso]", false
	}
	if strings.HasPrefix(n, "[") {
		return n, false
	}
	if g, ok := k.GuestPath(n); ok {
		return g, true
	}
	return n, true
}

// procMaps is /proc/self/maps: one line per region,
// "start-end perms offset major:minor inode ", then for a named region
// spaces to column 72 and a space before the name (show_map_vma's
// seq_setwidth(25 + 6*sizeof(void *) - 1) and seq_pad).
func (k *Kernel) procMaps() []byte {
	if k.exited {
		return nil // a zombie's memory is gone
	}
	var b strings.Builder
	ids := map[string]statInfo{}
	for _, r := range k.mem.Regions() {
		name, file := k.mapName(r.Name)
		perms := []byte("---p")
		if r.Perm&mem.R != 0 {
			perms[0] = 'r'
		}
		if r.Perm&mem.W != 0 {
			perms[1] = 'w'
		}
		if r.Perm&mem.X != 0 {
			perms[2] = 'x'
		}
		if r.Obj != nil {
			perms[3] = 's' // MAP_SHARED
		}
		var off, ino, dev uint64
		if file {
			off = r.Off
			s, ok := ids[name]
			if !ok {
				s, _ = k.statAt(atFDCWD, name, 0)
				ids[name] = s
			}
			ino, dev = s.ino, s.dev
		}
		line := fmt.Sprintf("%08x-%08x %s %08x %02x:%02x %d ", r.Start, r.End, perms, off, devMajor(dev), devMinor(dev), ino)
		b.WriteString(line)
		if name != "" {
			if pad := 72 - len(line); pad > 0 {
				b.WriteString(strings.Repeat(" ", pad))
			}
			b.WriteString(" " + name)
		}
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

// vm sums the region sizes and resident bytes: the whole address space,
// the stack, and the writable private non-stack memory (VmData).
func (k *Kernel) vm() (size, rss, stk, data, exe uint64) {
	for _, r := range k.mem.Regions() {
		n := r.End - r.Start
		size += n
		rss += k.mem.Resident(r.Start, r.End)
		_, file := k.mapName(r.Name)
		switch {
		case r.Name == stackName:
			stk += n
		case r.Perm&mem.W != 0:
			data += n
		case r.Perm&mem.X != 0 && file:
			exe += n
		}
	}
	return
}

// sigSets are the ignored and caught signal sets of status and stat.
func (k *Kernel) sigSets() (ign, cgt uint64) {
	for s := 1; s <= nsig; s++ {
		switch h := k.sig[s].handler; {
		case h == sigIGN:
			ign |= 1 << (s - 1)
		case h != sigDFL:
			cgt |= 1 << (s - 1)
		}
	}
	return
}

// procStatus is /proc/self/status (proc_pid_status), the fields a single
// threaded process without capabilities shows.
func (k *Kernel) procStatus() []byte {
	size, rss, stk, data, exe := k.vm()
	_, state := k.procState()
	ign, cgt := k.sigSets()
	c := k.cred
	var groups strings.Builder // each followed by a space, as Linux prints them
	for _, g := range c.groups {
		fmt.Fprintf(&groups, "%d ", g)
	}
	kb := func(n uint64) string { return fmt.Sprintf("%8d kB", n/1024) }
	var b strings.Builder
	for _, l := range [][2]string{
		{"Name", k.comm},
		{"Umask", fmt.Sprintf("%04o", k.umask)},
		{"State", state},
		{"Tgid", fmt.Sprint(k.pid)},
		{"Ngid", "0"},
		{"Pid", fmt.Sprint(k.pid)},
		{"PPid", fmt.Sprint(k.ppid)},
		{"TracerPid", "0"},
		{"Uid", fmt.Sprintf("%d\t%d\t%d\t%d", c.ruid, c.euid, c.suid, c.fsuid)},
		{"Gid", fmt.Sprintf("%d\t%d\t%d\t%d", c.rgid, c.egid, c.sgid, c.fsgid)},
		{"FDSize", fmt.Sprint(max(64, len(k.fds)))},
		{"Groups", groups.String()},
		{"NStgid", fmt.Sprint(k.pid)},
		{"NSpid", fmt.Sprint(k.pid)},
		{"NSpgid", fmt.Sprint(k.pgid())},
		{"NSsid", fmt.Sprint(k.pid)},
		{"VmPeak", kb(size)},
		{"VmSize", kb(size)},
		{"VmLck", kb(uint64(len(k.memlocked)) * PageSize)},
		{"VmPin", kb(0)},
		{"VmHWM", kb(rss)},
		{"VmRSS", kb(rss)},
		{"RssAnon", kb(rss)},
		{"RssFile", kb(0)},
		{"RssShmem", kb(0)},
		{"VmData", kb(data)},
		{"VmStk", kb(stk)},
		{"VmExe", kb(exe)},
		{"VmLib", kb(0)},
		{"VmPTE", kb(0)},
		{"VmSwap", kb(0)},
		{"HugetlbPages", kb(0)},
		{"CoreDumping", "0"},
		{"THP_enabled", "1"},
		{"Threads", fmt.Sprint(len(k.threads))},
		{"SigQ", fmt.Sprintf("%d/%d", popcount(k.sigPending), k.rlim[rlimitSigpending].cur)},
		{"SigPnd", fmt.Sprintf("%016x", k.sigPending)},
		{"ShdPnd", fmt.Sprintf("%016x", uint64(0))},
		{"SigBlk", fmt.Sprintf("%016x", k.sigMask)},
		{"SigIgn", fmt.Sprintf("%016x", ign)},
		{"SigCgt", fmt.Sprintf("%016x", cgt)},
		{"CapInh", fmt.Sprintf("%016x", k.cred.caps.inh)},
		{"CapPrm", fmt.Sprintf("%016x", k.cred.caps.prm)},
		{"CapEff", fmt.Sprintf("%016x", k.cred.caps.eff)},
		{"CapBnd", fmt.Sprintf("%016x", k.cred.caps.bnd)},
		{"CapAmb", fmt.Sprintf("%016x", k.cred.caps.amb)},
		{"NoNewPrivs", strconv.Itoa(int(b2u(k.noNewPrivs)))},
		{"Seccomp", strconv.Itoa(int(k.run.seccompMode))},
		{"Seccomp_filters", strconv.Itoa(k.run.seccompFilters())},
		{"Speculation_Store_Bypass", "unknown"},
		{"SpeculationIndirectBranch", "unsupported"},
		{"Cpus_allowed", "1"},
		{"Cpus_allowed_list", "0"},
		{"Mems_allowed", "00000001"},
		{"Mems_allowed_list", "0"},
		{"voluntary_ctxt_switches", "0"},
		{"nonvoluntary_ctxt_switches", "0"},
	} {
		if k.exited && (strings.HasPrefix(l[0], "Vm") || strings.HasPrefix(l[0], "Rss") ||
			l[0] == "HugetlbPages" || l[0] == "CoreDumping" || l[0] == "THP_enabled") {
			continue // a zombie has no memory (task_mem needs an mm)
		}
		b.WriteString(l[0] + ":\t" + l[1] + "\n")
	}
	return []byte(b.String())
}

func popcount(x uint64) int {
	n := 0
	for ; x != 0; x &= x - 1 {
		n++
	}
	return n
}

// procStat is /proc/self/stat (do_task_stat): 52 fields on one line.
func (k *Kernel) procStat() []byte {
	size, rss, _, _, _ := k.vm()
	ign, cgt := k.sigSets()
	ticks := uint64(k.cpuNS()) / 1e7 // USER_HZ = 100
	var codeLo, codeHi uint64
	for _, r := range k.mem.Regions() {
		if _, file := k.mapName(r.Name); file && r.Perm&mem.X != 0 && codeLo == 0 {
			codeLo, codeHi = r.Start, r.End
		}
	}
	stack, brk, argStart, argEnd, envStart, envEnd := k.stackStart, k.brkStart, k.argStart, k.argEnd, k.envStart, k.envEnd
	if k.exited { // a zombie has no mm: its memory's fields are 0
		size, rss, codeLo, codeHi, stack, brk, argStart, argEnd, envStart, envEnd = 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
	}
	f := []uint64{
		0,          // flags
		0, 0, 0, 0, // minflt cminflt majflt cmajflt
		ticks, 0, 0, 0, // utime stime cutime cstime
		uint64(20 + k.nice), uint64(int64(k.nice)), uint64(len(k.threads)), 0, // priority nice num_threads itrealvalue
		0,                                           // starttime
		size, rss / PageSize, k.rlim[rlimitRSS].cur, // vsize rss rsslim
		codeLo, codeHi, stack, // startcode endcode startstack
		0, 0, // kstkesp kstkeip
		k.sigPending, k.sigMask, ign, cgt, // signal blocked sigignore sigcatch
		0, 0, 0, // wchan nswap cnswap
		17, 0, 0, 0, 0, // exit_signal processor rt_priority policy delayacct_blkio_ticks
		0, 0, // guest_time cguest_time
		0, 0, brk, // start_data end_data start_brk
		argStart, argEnd, envStart, envEnd, // arg_start arg_end env_start env_end
		0, // exit_code
	}
	letter, _ := k.procState()
	var b strings.Builder
	fmt.Fprintf(&b, "%d (%s) %c %d %d %d 0 -1", k.pid, k.comm, letter, k.ppid, k.pgid(), k.session())
	for i, v := range f {
		if i == 9 || i == 10 { // priority and nice are signed
			fmt.Fprintf(&b, " %d", int64(v))
			continue
		}
		fmt.Fprintf(&b, " %d", v)
	}
	b.WriteByte('\n')
	return []byte(b.String())
}

// procCmdline is /proc/self/cmdline: each argument followed by a NUL.
func (k *Kernel) procCmdline() []byte {
	if k.exited {
		return nil // a zombie's memory is gone
	}
	var b []byte
	for _, a := range k.argv {
		b = append(append(b, a...), 0)
	}
	return b
}

// procEnviron is /proc/self/environ: the environment strings where the
// process started with them, as they are in memory now (Linux reads them
// from env_start to env_end at each read).
func (k *Kernel) procEnviron() []byte {
	if k.envEnd <= k.envStart || k.exited {
		return nil
	}
	b, e := k.readMem(k.envStart, k.envEnd-k.envStart)
	if e != 0 {
		return nil
	}
	return b
}

// procAuxv is /proc/self/auxv: the auxiliary vector's pairs as the
// process started with them, AT_NULL included.
func (k *Kernel) procAuxv() []byte {
	if k.exited {
		return nil
	}
	b := make([]byte, 8*len(k.auxv))
	for i, w := range k.auxv {
		put64(b, 8*i, w)
	}
	return b
}

// The guest sees one mounted file system, the root: /proc/self/mounts
// (also /proc/mounts) and /proc/self/mountinfo list it alone, as in a
// container, with what statfs and stat report for "/": its type, mount
// flags and device. So df lists "/" and the figures statfs gives it.

// fsNames names the file-system types by statfs magic, as mounts shows them.
var fsNames = map[uint64]string{
	0xef53:     "ext4",
	0x01021994: "tmpfs",
	0x794c7630: "overlay",
	0x58465342: "xfs",
	0x9123683e: "btrfs",
	0xf2f52010: "f2fs",
	0x2fc12fc1: "zfs",
	0x01021997: "9p",
	0x6969:     "nfs",
	0x65735546: "fuse",
}

// rootMount describes the root file system: its device (the guest's st_dev
// of "/"), type name and mount options (show_mnt_opts's order).
func (k *Kernel) rootMount() (dev uint64, typ, opts string) {
	st, _ := k.statAt(atFDCWD, "/", 0)
	var fs statfsInfo
	if l, e := k.resolveExisting(atFDCWD, "/", true); e == 0 {
		fs, _ = statfsNode(l.obj)
		l.close()
	}
	typ = cmp.Or(fsNames[fs.typ], "rootfs")
	opts = "rw"
	if fs.flags&stRdonly != 0 {
		opts = "ro"
	}
	for _, f := range [...]struct {
		bit  uint64
		name string
	}{{stNosuid, "nosuid"}, {stNodev, "nodev"}, {stNoexec, "noexec"}, {stNoatime, "noatime"}, {stNodiratime, "nodiratime"}, {stRelatime, "relatime"}} {
		if fs.flags&f.bit != 0 {
			opts += "," + f.name
		}
	}
	return st.dev, typ, opts
}

// procMounts is /proc/self/mounts (show_vfsmnt): device, mount point,
// type, options, and two zeros. A chrooted process sees no line: the
// run's mount point lies above its root, and show_vfsmnt skips a mount
// whose mount point the reader's root does not reach (seq_path_root).
func (k *Kernel) procMounts() []byte {
	if k.chrooted() {
		return nil
	}
	_, typ, opts := k.rootMount()
	return []byte("/dev/root / " + typ + " " + opts + " 0 0\n")
}

// procMountinfo is /proc/self/mountinfo (show_mountinfo): mount id, parent
// id, major:minor, root, mount point, options, optional fields, "-", type,
// source and super-block options; nothing in a chroot, as procMounts.
func (k *Kernel) procMountinfo() []byte {
	if k.chrooted() {
		return nil
	}
	dev, typ, opts := k.rootMount()
	super, _, _ := strings.Cut(opts, ",")
	n := k.mountNS()
	return []byte(fmt.Sprintf("%d 1 %d:%d / / %s%s - %s /dev/root %s\n", n.id, devMajor(dev), devMinor(dev), opts, n.optional(), typ, super))
}
