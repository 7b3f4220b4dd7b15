package syscalls

// Memory calls that change nothing the guest can observe beyond their
// checks: msync (there are no shared file mappings to write back), the
// mlock family (guest memory is never paged out; locked pages count
// against RLIMIT_MEMLOCK as in Linux), and mincore (every mapped page is
// reported resident).

// msync flags
const (
	msAsync      = 1
	msInvalidate = 2
	msSync       = 4
)

// mappedRange checks that [addr, addr+n) is page aligned at addr and
// entirely mapped (ENOMEM otherwise, as for the mm calls).
func (k *Kernel) mappedRange(addr, n uint64) (end uint64, e Errno) {
	if addr&pageMask != 0 {
		return 0, EINVAL
	}
	end = pageUp(addr + n)
	if end < addr || addr+n < addr {
		return 0, ENOMEM
	}
	for a := addr; a < end; {
		r, ok := k.mem.RegionAt(a)
		if !ok {
			return 0, ENOMEM
		}
		a = r.End
	}
	return end, 0
}

func sysMsync(k *Kernel, a sysArgs) (uint64, Errno) {
	addr, n, flags := a.Ptr(0), a.Ptr(1), a.Int(2)
	if flags&^(msAsync|msInvalidate|msSync) != 0 || flags&(msAsync|msSync) == msAsync|msSync {
		return 0, EINVAL
	}
	if _, e := k.mappedRange(addr, n); e != 0 {
		return 0, e
	}
	return 0, k.syncShared(addr, pageUp(n+addr&pageMask))
}

// maxLockedPages bounds the bookkeeping of locked pages (16 GiB), even
// for root, whom RLIMIT_MEMLOCK does not bound.
const maxLockedPages = 1 << 22

// memlockLimit is the RLIMIT_MEMLOCK soft limit in pages; root
// (CAP_IPC_LOCK) has none.
func (k *Kernel) memlockLimit() uint64 {
	if k.cred.capable(capIpcLock) || k.rlim[rlimitMemlock].cur == rlimInfinity {
		return ^uint64(0)
	}
	return k.rlim[rlimitMemlock].cur / PageSize
}

// lockPages locks the pages of [addr, addr+n) (mlock, mlock2).
func (k *Kernel) lockPages(addr, n uint64) Errno {
	start := addr &^ pageMask
	end, e := k.mappedRange(start, n+(addr-start))
	if e != 0 {
		return e
	}
	if k.memlocked == nil {
		k.memlocked = map[uint64]bool{}
	}
	added := uint64(0)
	for p := start; p < end; p += PageSize {
		if !k.memlocked[p] {
			added++
		}
	}
	if uint64(len(k.memlocked))+added > min(k.memlockLimit(), maxLockedPages) {
		return ENOMEM
	}
	for p := start; p < end; p += PageSize {
		k.memlocked[p] = true
	}
	return 0
}

func sysMlock(k *Kernel, a sysArgs) (uint64, Errno) {
	return 0, k.lockPages(a.Ptr(0), a.Ptr(1))
}

func sysMlock2(k *Kernel, a sysArgs) (uint64, Errno) {
	if a.Uint(2)&^1 != 0 { // MLOCK_ONFAULT
		return 0, EINVAL
	}
	return 0, k.lockPages(a.Ptr(0), a.Ptr(1))
}

func sysMunlock(k *Kernel, a sysArgs) (uint64, Errno) {
	addr, n := a.Ptr(0), a.Ptr(1)
	start := addr &^ pageMask
	end, e := k.mappedRange(start, n+(addr-start))
	if e != 0 {
		return 0, e
	}
	for p := start; p < end; p += PageSize {
		delete(k.memlocked, p)
	}
	return 0, 0
}

// mlockall flags
const (
	mclCurrent = 1
	mclFuture  = 2
	mclOnfault = 4
)

// sysMlockall accepts valid flags. Linux compares the whole address
// space with RLIMIT_MEMLOCK for MCL_CURRENT; rvsim maps the full 8 MiB
// stack up front where Linux grows it on demand, so the comparison would
// fail where Linux's succeeds, and is not made.
func sysMlockall(k *Kernel, a sysArgs) (uint64, Errno) {
	flags := a.Int(0)
	if flags == 0 || flags&^(mclCurrent|mclFuture|mclOnfault) != 0 || flags == mclOnfault {
		return 0, EINVAL
	}
	return 0, 0
}

func sysMunlockall(k *Kernel, a sysArgs) (uint64, Errno) {
	k.memlocked = nil
	return 0, 0
}

// sysMincore reports one byte per page of [addr, addr+len): 1 for a page
// in memory. Guest pages are never swapped out; every mapped page is
// reported resident (Linux reports 0 for anonymous pages never touched).
func sysMincore(k *Kernel, a sysArgs) (uint64, Errno) {
	addr, n, vec := a.Ptr(0), a.Ptr(1), a.Ptr(2)
	if addr&pageMask != 0 {
		return 0, EINVAL
	}
	end, e := k.mappedRange(addr, n)
	if e != 0 {
		return 0, e
	}
	pages := (end - addr) / PageSize
	for done := uint64(0); done < pages; {
		m := min(pages-done, uint64(len(k.buf)))
		b := k.buf[:m]
		for i := range b {
			b[i] = 1
		}
		if e := k.writeMem(vec+done, b); e != 0 {
			return 0, e
		}
		done += m
	}
	return 0, 0
}
