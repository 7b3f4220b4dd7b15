package syscalls

import "github.com/rvsim/rvsim/mem"

// process_vm_readv and process_vm_writev copy between the caller's memory
// and a process's of the run (itself included), as
// mm/process_vm_access.c does: the checks in its order, the remote
// vector taken page by page with the remote pages' own permissions (no
// FOLL_FORCE: a read needs a readable page, a write a writable one), the
// local vector as readv and writev take theirs, and a fault on either side
// ending the copy, whose result is then the bytes moved so far, or
// EFAULT when there were none. CPython's test_external_inspection reads
// another interpreter's stack this way, as debuggers and profilers do.

func sysProcessVMReadv(k *Kernel, a sysArgs) (uint64, Errno) { return k.processVM(a, false) }

func sysProcessVMWritev(k *Kernel, a sysArgs) (uint64, Errno) { return k.processVM(a, true) }

func (k *Kernel) processVM(a sysArgs, write bool) (uint64, Errno) {
	pid := a.Int(0)
	if a.Ptr(5) != 0 { // flags: none are defined
		return 0, EINVAL
	}
	local, e := k.vmIovecs(a.Ptr(1), uint64(a.Uint(2))) // import_iovec's unsigned: 32 bits
	if e != 0 {
		return 0, e
	}
	if iovTotal(local) == 0 {
		return 0, 0
	}
	remote, e := k.vmIovecs(a.Ptr(3), a.Ptr(4))
	if e != 0 {
		return 0, e
	}
	if iovTotal(remote) == 0 {
		return 0, 0
	}
	p := k.taskProcess(pid)
	if p == nil {
		return 0, ESRCH
	}
	if !k.mayAttach(p) {
		return 0, EPERM
	}
	var done uint64
	li, loff := 0, uint64(0) // the local vector's position
	for _, r := range remote {
		for off := uint64(0); off < r[1]; {
			for li < len(local) && loff == local[li][1] {
				li, loff = li+1, 0
			}
			if li == len(local) {
				return done, 0
			}
			raddr, laddr := r[0]+off, local[li][0]+loff
			// One page of the remote side at most, as the kernel pins them.
			n := min(r[1]-off, mem.PageSize-raddr&mem.PageMask, local[li][1]-loff)
			moved, e := k.vmCopy(p, laddr, raddr, n, write)
			done += moved
			if e != 0 {
				if done > 0 {
					return done, 0
				}
				return 0, e
			}
			off, loff = off+n, loff+n
		}
	}
	return done, 0
}

// vmIovecs reads one of the calls' iovec arrays. The remote count is
// taken whole (iovec_from_user's unsigned long: 2^32+1 is EINVAL), the
// local one as 32 bits (import_iovec's unsigned: 2^32+1 is one).
func (k *Kernel) vmIovecs(addr, cnt uint64) ([][2]uint64, Errno) {
	if cnt > 1024 { // UIO_MAXIOV
		return nil, EINVAL
	}
	return k.iovecs(addr, int32(cnt))
}

func iovTotal(iov [][2]uint64) uint64 {
	var t uint64
	for _, v := range iov {
		t += v[1]
	}
	return t
}

// vmCopy moves n bytes (within one remote page) between the caller's laddr
// and p's raddr, and returns how many moved: fewer, with EFAULT, when the
// remote page lacks the permission or the local memory ends.
func (k *Kernel) vmCopy(p *Kernel, laddr, raddr, n uint64, write bool) (uint64, Errno) {
	if write {
		m := k.userOK(laddr, n, mem.R)
		if m == 0 {
			return 0, EFAULT
		}
		b, e := k.readMem(laddr, m)
		if e != 0 {
			return 0, e
		}
		if p == k {
			e = k.writeMem(raddr, b) // recorded: the caller's own store
		} else if p.mem.WriteBytes(raddr, b) != nil { // a user-mode store: the page's permission
			e = EFAULT
		}
		if e != 0 {
			return 0, e
		}
		if m < n {
			return m, EFAULT
		}
		return n, 0
	}
	b, e := p.readMem(raddr, n) // a user-mode read: the page's permission
	if e != 0 {
		return 0, e
	}
	if m := uint64(k.copyOut(laddr, b)); m < n {
		return m, EFAULT
	}
	return n, 0
}

// taskProcess is the live process that has a task (a process or one of
// its threads) of id tid, as find_get_task_by_vpid finds it; nil if none
// (a zombie has no memory left: ESRCH, as mm_access answers).
func (k *Kernel) taskProcess(tid int32) *Kernel {
	if tid <= 0 {
		return nil
	}
	if p := k.process(tid); p != nil {
		return p
	}
	for _, o := range k.all.kernels {
		if !o.exited && o.find(tid) != nil {
			return o
		}
	}
	return nil
}
