package syscalls

// Job control's stop and continue, as Linux has them (kernel/signal.c:
// prepare_signal, do_signal_stop, do_notify_parent_cldstop; kernel/exit.c:
// wait_task_stopped, wait_task_continued). A stop signal (SIGSTOP,
// SIGTSTP, SIGTTIN, SIGTTOU) whose action is the default stops the whole
// process when a thread takes it: no thread runs until a SIGCONT or a
// SIGKILL arrives (pick skips a stopped process's threads; its parent's
// turns go on). SIGTSTP, SIGTTIN and SIGTTOU are discarded in an orphaned
// process group; SIGSTOP always stops. Sending SIGCONT continues the
// process and discards its pending stop signals; sending a stop signal
// discards a pending SIGCONT. The parent hears of a stop and of a
// continuation through SIGCHLD (CLD_STOPPED, CLD_CONTINUED; none with
// SA_NOCLDSTOP) and wait4's WUNTRACED and WCONTINUED, waitid's WSTOPPED
// and WCONTINUED: each report is taken once (WNOWAIT leaves it).

const (
	cldStopped   = 5      // CLD_STOPPED
	cldContinued = 6      // CLD_CONTINUED
	saNocldstop  = 0x1    // SA_NOCLDSTOP
	stopStatus   = 0x7f   // wait's status of a stopped child, with the signal << 8
	contStatus   = 0xffff // wait's status of a continued child
	stopSignals  = 1<<(sigSTOP-1) | 1<<(sigTSTP-1) | 1<<(sigTTIN-1) | 1<<(sigTTOU-1)
)

// stopSignal reports whether sig's default action is to stop.
func stopSignal(sig int) bool { return sig > 0 && sig <= 64 && stopSignals&sigBit(sig) != 0 }

// prepareSignal applies what sending sig does before it is queued
// (prepare_signal): a stop signal discards a pending SIGCONT; SIGCONT
// discards pending stop signals and continues a stopped process, whose
// parent hears of it; SIGKILL lets a stopped process run, to die.
func (k *Kernel) prepareSignal(sig int) {
	switch {
	case stopSignal(sig):
		k.dropPending(sigBit(sigCONT))
	case sig == sigCONT:
		k.dropPending(stopSignals)
		if k.stopped != 0 {
			k.stopped = 0
			k.notifyParent(cldContinued, sigCONT)
		}
	case sig == sigKILL:
		k.stopped = 0
	}
}

// dropPending removes the signals of mask from every thread's pending set.
func (k *Kernel) dropPending(mask uint64) {
	for _, t := range k.threads {
		st := k.stateOf(t)
		st.sigPending &^= mask
		st.sigShared &^= mask
	}
}

// stopProcess stops the process with stop signal sig (do_signal_stop);
// the thread that took it waits in reschedule with the others.
func (k *Kernel) stopProcess(sig int) {
	k.stopped = sig
	k.notifyParent(cldStopped, sig)
}

// notifyParent reports a stop or a continuation (code, with signal sig)
// to the parent: a report for wait, and SIGCHLD unless the parent asked
// for none with SA_NOCLDSTOP (do_notify_parent_cldstop). The first
// process's parent is outside the run.
func (k *Kernel) notifyParent(code int32, sig int) {
	c := k.parentLink
	if c == nil || c.orphan { // (init ignores it)
		return
	}
	c.report, c.reportSig = code, sig
	k.all.stirs++ // what a waiting parent waits for (fork.go's progress)
	p := c.parent
	if p.sig[sigCHLD].flags&saNocldstop == 0 {
		p.raiseProcess(sigCHLD, k.stopInfo(sigCHLD, code, sig))
	}
	p.wakeIO() // a thread of the parent blocked in wait4 asks again
}

// stopInfo is the siginfo of a stop or continuation report.
func (k *Kernel) stopInfo(signo, code int32, sig int) sigInfo {
	si := makeInfo(signo, code)
	put32(si[:], siPidOff, uint32(k.pid))
	put32(si[:], siUIDOff, k.cred.ruid)
	put32(si[:], 24, uint32(sig)) // si_status
	return si
}

// orphanedPgrp reports whether the process's group is orphaned
// (will_become_orphaned_pgrp): no member has a parent in another group
// of the same session. The first process's parent, outside the run,
// counts as one in another group of its session until it calls setsid
// (a shell that started rvsim as a job).
func (k *Kernel) orphanedPgrp() bool {
	pgrp := k.pgid()
	for _, p := range k.all.kernels { // (the caller among them)
		if p.pgid() != pgrp || p.exited {
			continue
		}
		c := p.parentLink
		if c == nil {
			if p.session() == fixedSID {
				return false
			}
			continue
		}
		if !c.orphan && c.parent.pgid() != pgrp && c.parent.session() == p.session() {
			return false
		}
	}
	return true
}

// childReport finds a live child that wait's pid argument selects whose
// stop or continuation report opts asks for (WUNTRACED, WCONTINUED).
func (k *Kernel) childReport(pid int32, opts uint32) *liveChild {
	for _, c := range k.live {
		if c.orphan || pid > 0 && c.pid != pid {
			continue
		}
		if c.report == cldStopped && opts&wUntraced != 0 || c.report == cldContinued && opts&wContinued != 0 {
			return c
		}
	}
	return nil
}

// reportStatus is wait4's status of report c.
func reportStatus(c *liveChild) uint32 {
	if c.report == cldContinued {
		return contStatus
	}
	return stopStatus | uint32(c.reportSig)<<8
}
