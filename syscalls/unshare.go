package syscalls

// unshare(2) (kernel/fork.c, ksys_unshare) and the namespace flags of
// clone. rvsim's kernel is one built without namespaces
// (CONFIG_NAMESPACES off): a new user namespace is EINVAL for anyone;
// new UTS, IPC, PID, network and time namespaces are EPERM without
// CAP_SYS_ADMIN and EINVAL with it (create_new_namespaces' stubs). Mount
// and cgroup namespaces exist in such a kernel, and root may make them:
// a new mount namespace is a copy of the run's one mount (mount.go), and
// /proc/self/cgroup names the root cgroup, so a new cgroup namespace is
// a copy that nothing can tell apart, granted as a no-op. What unsharing the rest means (a descriptor table, a working
// directory, signal handlers or an address space of the caller's own)
// is nothing in a process of one thread, which shares none of them; in
// a process of several threads, whose threads share them in rvsim,
// CLONE_THREAD, CLONE_SIGHAND and CLONE_VM are EINVAL as in Linux, and
// CLONE_FS, CLONE_FILES and CLONE_SYSVSEM answer ENOSYS with a warning:
// one thread's own table, directory or undo list is not modelled.
// setns joins a pidfd's mount or cgroup namespace (sysSetns).

// The namespace flags (uapi/linux/sched.h).
const (
	cloneNewtime   = 0x00000080
	cloneNewns     = 0x00020000
	cloneNewcgroup = 0x02000000
	cloneNewuts    = 0x04000000
	cloneNewipc    = 0x08000000
	cloneNewuser   = 0x10000000
	cloneNewpid    = 0x20000000
	cloneNewnet    = 0x40000000

	cloneNewAll = cloneNewtime | cloneNewns | cloneNewcgroup | cloneNewuts | cloneNewipc | cloneNewuser | cloneNewpid | cloneNewnet
	// cloneNewGranted are the namespaces root gets, as copies.
	cloneNewGranted = cloneNewns | cloneNewcgroup
)

// newNamespaces checks a request for new namespaces (clone's or
// unshare's) as the kernel above answers it.
func (k *Kernel) newNamespaces(flags uint64) Errno {
	switch {
	case flags&cloneNewAll == 0:
		return 0
	case flags&cloneNewuser != 0:
		return EINVAL // create_user_ns without CONFIG_USER_NS
	case !k.cred.capable(capSysAdmin):
		return EPERM // ns_capable(CAP_SYS_ADMIN)
	case flags&cloneNewAll&^cloneNewGranted != 0:
		return EINVAL
	}
	return 0
}

func sysUnshare(k *Kernel, a sysArgs) (uint64, Errno) {
	flags := a.Ptr(0)
	const known = cloneThread | cloneFS | cloneSighand | cloneVM | cloneFiles | cloneSysvsem | cloneNewAll
	if flags&^known != 0 || flags>>32 != 0 {
		return 0, EINVAL
	}
	// The implied flags (a new user namespace unshares the thread group
	// and fs; vm implies sighand, sighand thread; a mount namespace fs).
	if flags&cloneNewuser != 0 {
		flags |= cloneThread | cloneFS
	}
	if flags&cloneVM != 0 {
		flags |= cloneSighand
	}
	if flags&cloneSighand != 0 {
		flags |= cloneThread
	}
	if flags&cloneNewns != 0 {
		flags |= cloneFS
	}
	if flags&(cloneThread|cloneSighand|cloneVM) != 0 && k.multi() {
		return 0, EINVAL // check_unshare_flags: the thread group is not empty
	}
	if e := k.newNamespaces(flags); e != 0 {
		return 0, e
	}
	if flags&(cloneFS|cloneFiles|cloneSysvsem) != 0 && k.multi() {
		return k.unsupported(97, "a thread's own descriptor table, working directory or SEM_UNDO list is not modelled; threads share them")
	}
	if flags&cloneNewns != 0 {
		k.newMountNS()
	}
	if flags&cloneSysvsem != 0 { // the undo list is the process's own: applied and dropped
		k.exitSem()
	}
	return 0, 0
}

// sysSetns moves the caller into another process's namespaces (setns in
// kernel/nsproxy.c). fd must be a pidfd: rvsim has no /proc/PID/ns files,
// so any other open descriptor is EINVAL. flags names the namespaces, at
// least one, and only those this kernel has (check_setns_flags: mount and
// cgroup; the others are EINVAL without their CONFIG_*_NS). The target
// must be alive (ESRCH) and the caller allowed to read it as ptrace
// allows (EPERM). Joining its mount namespace (mntns_install) needs
// CAP_SYS_ADMIN and CAP_SYS_CHROOT (EPERM); asked alone, it is EINVAL
// while other threads share the caller's root (fs->users); it moves the
// root and the working directory to the namespace's root (the run's
// root). Joining its cgroup namespace (cgroupns_install) needs
// CAP_SYS_ADMIN, and changes nothing rvsim shows.
func sysSetns(k *Kernel, a sysArgs) (uint64, Errno) {
	of, e := k.file(a.Int(0))
	if e != 0 {
		return 0, e
	}
	flags := uint64(a.Uint(1))
	switch {
	case of.kind != kindPidfd:
		return 0, EINVAL
	case flags == 0 || flags&^cloneNewGranted != 0: // (unknown flags, and namespaces this kernel lacks)
		return 0, EINVAL
	case of.process.reaped:
		return 0, ESRCH
	case !k.mayAttach(of.process): // (PTRACE_MODE_READ_REALCREDS: the same ids)
		return 0, EPERM
	case of.process.exited: // a zombie has no namespaces left (nsproxy)
		return 0, ESRCH
	case !k.cred.capable(capSysAdmin):
		return 0, EPERM
	case flags&cloneNewns == 0:
		return 0, 0 // the cgroup namespace alone
	case !k.cred.capable(capSysChroot):
		return 0, EPERM
	case flags == cloneNewns && k.multi():
		return 0, EINVAL
	}
	k.mnt = of.process.mountNS()
	return 0, k.enterRunRoot()
}
