package syscalls

// Scheduling policies (sched_setscheduler and friends): each thread
// keeps the policy and priority it was given, which the round-robin
// scheduler of thread.go does not consult (one hart, deterministic
// quanta), as a guest can observe only through these calls. Also
// personality and the I/O priority, which rvsim records the same way.

// Policies (uapi/linux/sched.h).
const (
	schedOther        = 0
	schedFIFO         = 1
	schedRR           = 2
	schedBatch        = 3
	schedIdle         = 5
	schedDeadline     = 6
	schedResetOnFork  = 0x40000000
	schedRRIntervalNS = 100_000_000 // RR_TIMESLICE: 100 ms
)

// task returns the thread a scheduling call names: 0 is the caller, the
// pid names the main thread, a tid one of this process's threads, and
// another process of the run's pid its main thread. The parent outside
// the run (pid 1) is a thread of its own with the default policy, which
// a change does not outlive.
func (k *Kernel) task(pid int32) (*thread, Errno) {
	switch {
	case pid < 0:
		return nil, EINVAL
	case pid == 0:
		return k.run, 0
	case pid == fixedPPID:
		return &thread{tid: pid}, 0
	}
	if t := k.find(pid); t != nil {
		return t, 0
	}
	if p := k.process(pid); p != nil {
		if t := p.find(pid); t != nil {
			return t, 0
		}
	}
	return nil, ESRCH
}

// priorityRange is sched_get_priority_min and _max of a policy.
func priorityRange(policy int32) (lo, hi int32, ok bool) {
	switch policy {
	case schedFIFO, schedRR:
		return 1, 99, true
	case schedOther, schedBatch, schedIdle, schedDeadline:
		return 0, 0, true
	}
	return 0, 0, false
}

func sysSchedGetPriorityMax(k *Kernel, a sysArgs) (uint64, Errno) {
	_, hi, ok := priorityRange(a.Int(0))
	if !ok {
		return 0, EINVAL
	}
	return uint64(hi), 0
}

func sysSchedGetPriorityMin(k *Kernel, a sysArgs) (uint64, Errno) {
	lo, _, ok := priorityRange(a.Int(0))
	if !ok {
		return 0, EINVAL
	}
	return uint64(lo), 0
}

// setSched is sched_setscheduler and sched_setparam (policy < 0) as
// _sched_setscheduler calls __sched_setscheduler: the priority from the
// caller's sched_param, the thread's nice value and own slice kept, the
// reset-on-fork bit of the policy as the flag (schedattr.go).
func (k *Kernel) setSched(pidArg int32, policy int32, paramAddr uint64) (uint64, Errno) {
	if paramAddr == 0 || pidArg < 0 {
		return 0, EINVAL
	}
	prio, e := k.readU32(paramAddr)
	if e != 0 {
		return 0, e
	}
	t, e := k.task(pidArg)
	if e != 0 {
		return 0, e
	}
	s := schedAttr{policy: uint32(policy &^ schedResetOnFork), priority: prio, nice: k.taskNice(t)}
	s.dl.runtime = t.slice
	if policy >= 0 && policy&schedResetOnFork != 0 {
		s.flags |= schedFlagResetOnFork
	}
	return 0, k.setSchedAttr(t, &s, policy < 0)
}

func sysSchedSetscheduler(k *Kernel, a sysArgs) (uint64, Errno) {
	policy := a.Int(1)
	if policy < 0 {
		return 0, EINVAL
	}
	return k.setSched(a.Int(0), policy, a.Ptr(2))
}

func sysSchedSetparam(k *Kernel, a sysArgs) (uint64, Errno) {
	return k.setSched(a.Int(0), -1, a.Ptr(1))
}

func sysSchedGetscheduler(k *Kernel, a sysArgs) (uint64, Errno) {
	t, e := k.task(a.Int(0))
	if e != 0 {
		return 0, e
	}
	return uint64(uint32(t.policy)), 0
}

func sysSchedGetparam(k *Kernel, a sysArgs) (uint64, Errno) {
	if a.Ptr(1) == 0 {
		return 0, EINVAL
	}
	t, e := k.task(a.Int(0))
	if e != 0 {
		return 0, e
	}
	return 0, k.writeU32(a.Ptr(1), uint32(t.priority))
}

func sysSchedRRGetInterval(k *Kernel, a sysArgs) (uint64, Errno) {
	t, e := k.task(a.Int(0))
	if e != 0 {
		return 0, e
	}
	var ns int64
	if t.policy&^schedResetOnFork == schedRR {
		ns = schedRRIntervalNS
	}
	return 0, k.writeMem(a.Ptr(1), encodeTimespec(nsToTimespec(ns)))
}

// personality: PER_LINUX (0) until the guest sets another; 0xffffffff
// asks without setting.
func sysPersonality(k *Kernel, a sysArgs) (uint64, Errno) {
	old := k.persona
	if p := a.Uint(0); p != 0xffffffff {
		k.persona = p
	}
	return uint64(old), 0
}

// I/O priorities (uapi/linux/ioprio.h): ioprio_get answers the default,
// best-effort level 4 (IOPRIO_DEFAULT), until ioprio_set changes it.
const (
	ioprioWhoProcess = 1
	ioprioWhoUser    = 3
	ioprioDefault    = 2<<13 | 4
)

func sysIoprioGet(k *Kernel, a sysArgs) (uint64, Errno) {
	if w := a.Int(0); w < ioprioWhoProcess || w > ioprioWhoUser {
		return 0, EINVAL
	}
	if k.ioprio == 0 {
		return ioprioDefault, 0
	}
	return uint64(k.ioprio), 0
}

func sysIoprioSet(k *Kernel, a sysArgs) (uint64, Errno) {
	if w := a.Int(0); w < ioprioWhoProcess || w > ioprioWhoUser {
		return 0, EINVAL
	}
	class, level := a.Uint(2)>>13, a.Uint(2)&0x1fff
	if class > 3 || class != 0 && level > 7 {
		return 0, EINVAL
	}
	k.ioprio = a.Uint(2)
	return 0, 0
}
