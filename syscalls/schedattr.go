package syscalls

import (
	"cmp"
	"encoding/binary"
)

// sched_setattr and sched_getattr (kernel/sched/syscalls.c): the policy,
// nice value, real-time priority and SCHED_DEADLINE's parameters in one
// struct sched_attr. The kernel modelled is built without
// CONFIG_UCLAMP_TASK (the utilization clamps answer EOPNOTSUPP and read
// as zero) on one CPU, whose SCHED_DEADLINE bandwidth is the default 95%
// (sched_rt_runtime_us 950000 of sched_rt_period_us 1000000).

// struct sched_attr's sizes (SCHED_ATTR_SIZE_VER0, VER1): the kernel's
// is VER1.
const (
	schedAttrVer0 = 48
	schedAttrVer1 = 56
)

// sched_attr.sched_flags (uapi/linux/sched.h).
const (
	schedFlagResetOnFork  = 0x01
	schedFlagKeepPolicy   = 0x08
	schedFlagKeepParams   = 0x10
	schedFlagUtilClampMin = 0x20
	schedFlagUtilClampMax = 0x40
	schedFlagAll          = 0x7f
	schedFlagSugov        = 0x10000000
	schedFlagDLKept       = 0x02 | 0x04 // RECLAIM, DL_OVERRUN: a deadline task keeps them
)

// schedBaseSlice is sysctl_sched_base_slice on one CPU (0.7 ms times
// 1 + log2 of the CPUs): a fair thread's slice unless it set its own,
// which sched_getattr reads as sched_runtime.
const schedBaseSlice = 700_000

// A fair thread's own slice is clamped to 0.1..100 ms.
const (
	sliceMin = 100_000
	sliceMax = 100_000_000
)

// SCHED_DEADLINE's limits: DL_SCALE, sysctl_sched_dl_period_min and _max
// (100 us, 2^22 us), and the default bandwidth, 0.95 in BW_SHIFT fixed
// point.
const (
	dlMinRuntime = 1 << 10
	dlPeriodMin  = 100 * 1000
	dlPeriodMax  = (1 << 22) * 1000
	dlBWShift    = 20
	dlBandwidth  = 950000 << dlBWShift / 1000000
)

// schedState is a thread's scheduling state: its policy (with
// SCHED_RESET_ON_FORK) and real-time priority, SCHED_DEADLINE's
// parameters, and a fair policy's own slice (ns; 0: the base slice).
type schedState struct {
	policy, priority int32
	dl               schedDL
	slice            uint64
}

// schedDL is a SCHED_DEADLINE thread's parameters (ns) and kept flags.
type schedDL struct {
	runtime, deadline, period uint64
	flags                     uint64
}

// periodOrDeadline is the period, the deadline when the period is 0.
func (d schedDL) periodOrDeadline() uint64 { return cmp.Or(d.period, d.deadline) }

// bw is to_ratio(period, runtime): the share of a CPU in BW_SHIFT fixed
// point.
func (d schedDL) bw() uint64 {
	if p := d.periodOrDeadline(); p != 0 {
		return d.runtime << dlBWShift / p
	}
	return 0
}

// schedAttr is struct sched_attr.
type schedAttr struct {
	policy           uint32
	flags            uint64
	nice             int32
	priority         uint32
	dl               schedDL
	utilMin, utilMax uint32
}

func (s *schedAttr) decode(b []byte) {
	le := binary.LittleEndian
	s.policy, s.flags = le.Uint32(b[4:]), le.Uint64(b[8:])
	s.nice, s.priority = int32(le.Uint32(b[16:])), le.Uint32(b[20:])
	s.dl.runtime, s.dl.deadline, s.dl.period = le.Uint64(b[24:]), le.Uint64(b[32:]), le.Uint64(b[40:])
	if len(b) >= schedAttrVer1 {
		s.utilMin, s.utilMax = le.Uint32(b[48:]), le.Uint32(b[52:])
	}
}

func (s *schedAttr) encode(size uint32) []byte {
	le := binary.LittleEndian
	b := make([]byte, schedAttrVer1)
	le.PutUint32(b[0:], size)
	le.PutUint32(b[4:], s.policy)
	le.PutUint64(b[8:], s.flags)
	le.PutUint32(b[16:], uint32(s.nice))
	le.PutUint32(b[20:], s.priority)
	le.PutUint64(b[24:], s.dl.runtime)
	le.PutUint64(b[32:], s.dl.deadline)
	le.PutUint64(b[40:], s.dl.period)
	le.PutUint32(b[48:], s.utilMin)
	le.PutUint32(b[52:], s.utilMax)
	return b[:size]
}

// taskNice is the nice value of the process t belongs to (rvsim keeps one
// per process); the parent outside the run's is 0.
func (k *Kernel) taskNice(t *thread) int32 {
	if p := k.taskProcess(t.tid); p != nil {
		return p.nice
	}
	return 0
}

// getParams is get_params: the parameters of t's own policy.
func (k *Kernel) getParams(t *thread, s *schedAttr) {
	switch t.policy &^ schedResetOnFork {
	case schedDeadline:
		s.dl.runtime, s.dl.deadline, s.dl.period = t.dl.runtime, t.dl.deadline, t.dl.period
		s.flags |= t.dl.flags
	case schedFIFO, schedRR:
		s.priority = uint32(t.priority)
	default:
		s.nice, s.dl.runtime = k.taskNice(t), cmp.Or(t.slice, schedBaseSlice)
	}
}

func sysSchedGetattr(k *Kernel, a sysArgs) (uint64, Errno) {
	addr, usize := a.Ptr(1), a.Uint(2)
	if addr == 0 || a.Int(0) < 0 || usize > PageSize || usize < schedAttrVer0 || a.Uint(3) != 0 {
		return 0, EINVAL
	}
	t, e := k.task(a.Int(0))
	if e != 0 {
		return 0, e
	}
	s := schedAttr{policy: uint32(t.policy &^ schedResetOnFork)}
	if t.policy&schedResetOnFork != 0 {
		s.flags |= schedFlagResetOnFork
	}
	k.getParams(t, &s)
	s.flags &= schedFlagAll
	// copy_struct_to_user: the kernel's struct, and zeros for the rest of
	// a larger one.
	b := append(s.encode(min(usize, schedAttrVer1)), make([]byte, usize-min(usize, schedAttrVer1))...)
	return 0, k.writeMem(addr, b)
}

// readSchedAttr is sched_copy_attr: a size of 0 is VER0's; a size
// outside VER0..PAGE_SIZE, or bytes past the kernel's struct that are not
// zero, answer E2BIG with the kernel's size written back.
func (k *Kernel) readSchedAttr(addr uint64) (schedAttr, Errno) {
	var s schedAttr
	size, e := k.readU32(addr)
	if e != 0 {
		return s, e
	}
	if size == 0 {
		size = schedAttrVer0
	}
	tooBig := func() (schedAttr, Errno) {
		k.writeU32(addr, schedAttrVer1) // (put_user's failure is ignored)
		return s, E2BIG
	}
	if size < schedAttrVer0 || size > PageSize {
		return tooBig()
	}
	b, e := k.readMem(addr, uint64(size))
	if e != 0 {
		return s, e
	}
	for _, x := range b[min(size, schedAttrVer1):] {
		if x != 0 {
			return tooBig()
		}
	}
	s.decode(b[:min(size, schedAttrVer1)])
	if s.flags&(schedFlagUtilClampMin|schedFlagUtilClampMax) != 0 && size < schedAttrVer1 {
		return s, EINVAL
	}
	s.nice = min(max(s.nice, -20), 19)
	return s, 0
}

// checkparamDL is __checkparam_dl.
func checkparamDL(s *schedAttr) bool {
	d := s.dl
	if s.flags&schedFlagSugov != 0 {
		return true
	}
	if d.deadline == 0 || d.runtime < dlMinRuntime || d.deadline&(1<<63) != 0 || d.period&(1<<63) != 0 {
		return false
	}
	period := d.periodOrDeadline()
	return period >= d.deadline && d.deadline >= d.runtime && period >= dlPeriodMin && period <= dlPeriodMax
}

func sysSchedSetattr(k *Kernel, a sysArgs) (uint64, Errno) {
	addr := a.Ptr(1)
	if addr == 0 || a.Int(0) < 0 || a.Uint(2) != 0 {
		return 0, EINVAL
	}
	s, e := k.readSchedAttr(addr)
	if e != 0 {
		return 0, e
	}
	if int32(s.policy) < 0 {
		return 0, EINVAL
	}
	keepPolicy := s.flags&schedFlagKeepPolicy != 0
	t, e := k.task(a.Int(0))
	if e != 0 {
		return 0, e
	}
	if s.flags&schedFlagKeepParams != 0 {
		k.getParams(t, &s)
	}
	return 0, k.setSchedAttr(t, &s, keepPolicy)
}

// setSchedAttr is __sched_setscheduler for a user's call: checks in its
// order, then the thread's new policy and parameters. keepPolicy
// (SETPARAM_POLICY: sched_setparam, SCHED_FLAG_KEEP_POLICY) keeps the
// policy and its reset-on-fork flag; SCHED_FLAG_KEEP_PARAMS changes only
// that flag (__setscheduler_params, which sets the policy too, is
// skipped).
func (k *Kernel) setSchedAttr(t *thread, s *schedAttr, keepPolicy bool) Errno {
	policy := int32(s.policy)
	resetOnFork := s.flags&schedFlagResetOnFork != 0
	if keepPolicy {
		policy, resetOnFork = t.policy&^schedResetOnFork, t.policy&schedResetOnFork != 0
	} else if _, _, ok := priorityRange(policy); !ok {
		return EINVAL
	}
	if s.flags&^(schedFlagAll|schedFlagSugov) != 0 {
		return EINVAL
	}
	rt := policy == schedFIFO || policy == schedRR
	if s.priority > 99 || (policy == schedDeadline && !checkparamDL(s)) || rt != (s.priority != 0) {
		return EINVAL
	}
	if !k.cred.capable(capSysNice) && k.needsPrivilege(t, s, policy, resetOnFork) {
		return EPERM
	}
	if s.flags&schedFlagSugov != 0 {
		return EINVAL
	}
	if s.flags&(schedFlagUtilClampMin|schedFlagUtilClampMax) != 0 {
		return EOPNOTSUPP // uclamp_validate without CONFIG_UCLAMP_TASK
	}
	if policy == schedDeadline && k.dlOverflow(t, s.dl) {
		return EBUSY
	}
	flag := int32(0)
	if resetOnFork {
		flag = schedResetOnFork
	}
	if s.flags&schedFlagKeepParams != 0 {
		t.policy = t.policy&^schedResetOnFork | flag
		return 0
	}
	t.policy, t.priority = policy|flag, 0
	switch {
	case rt:
		t.priority = int32(s.priority)
	case policy == schedDeadline:
		t.dl = s.dl
		t.dl.flags = s.flags & schedFlagDLKept
	default: // a fair policy: the nice value, and the slice asked for (0: the base slice)
		if p := k.taskProcess(t.tid); p != nil {
			p.nice = s.nice
		}
		t.slice = 0
		if s.dl.runtime != 0 {
			t.slice = min(max(s.dl.runtime, sliceMin), sliceMax)
		}
	}
	return 0
}

// needsPrivilege is user_check_sched_setscheduler for a caller without
// CAP_SYS_NICE, whose RLIMIT_NICE and RLIMIT_RTPRIO are 0: lowering the
// nice value, any real-time or deadline policy, leaving SCHED_IDLE,
// another user's thread (check_same_owner: the caller's effective uid is
// neither the thread's effective nor its real one), and clearing
// reset-on-fork need it.
func (k *Kernel) needsPrivilege(t *thread, s *schedAttr, policy int32, resetOnFork bool) bool {
	old := t.policy &^ schedResetOnFork
	if p := k.taskProcess(t.tid); p != nil && !k.sameOwner(p) {
		return true
	}
	switch {
	case (policy == schedOther || policy == schedBatch || policy == schedIdle) && s.nice < k.taskNice(t):
		return true
	case policy == schedFIFO || policy == schedRR || policy == schedDeadline:
		return true
	case old == schedIdle && policy != schedIdle:
		return true
	}
	return t.policy&schedResetOnFork != 0 && !resetOnFork
}

// dlOverflow is sched_dl_overflow on one CPU: the run's deadline
// threads' bandwidth, t's old share replaced by d's, past 95%.
func (k *Kernel) dlOverflow(t *thread, d schedDL) bool {
	var total uint64
	for _, o := range k.all.kernels {
		if o.exited {
			continue
		}
		for _, x := range o.threads {
			if x != t && !x.dead && x.policy&^schedResetOnFork == schedDeadline {
				total += x.dl.bw()
			}
		}
	}
	return total+d.bw() > dlBandwidth
}

// inheritSched is sched_fork's part for a new thread or process: the
// creator's state (its slice too), unless it asked to reset on fork
// (real-time and deadline become SCHED_OTHER; resetNice says the new
// process's nice value returns to 0 if it was below). A deadline creator
// that did not ask cannot fork (EAGAIN).
func inheritSched(t *thread) (s schedState, resetNice bool, e Errno) {
	s = t.schedState
	switch {
	case s.policy&schedResetOnFork != 0:
		s.policy &^= schedResetOnFork
		if s.policy == schedFIFO || s.policy == schedRR || s.policy == schedDeadline {
			s.policy, s.priority, s.dl = schedOther, 0, schedDL{}
		}
		return s, true, 0
	case s.policy == schedDeadline:
		return schedState{}, false, EAGAIN
	}
	return s, false, 0
}
