package syscalls

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// goLayoutExt maps the lines of testdata/layout_ext.golden (printed by
// testdata/layout_ext.c against the riscv64 uapi headers, run under
// qemu-riscv64) to the Go constants of the signal frame and the calls
// added with signal delivery.
var goLayoutExt = map[string]int64{
	"sizeof siginfo_t":                                siginfoSize,
	"offsetof siginfo_t.si_code":                      8,
	"offsetof siginfo_t.si_addr":                      siAddrOff,
	"offsetof siginfo_t.si_pid":                       siPidOff,
	"offsetof siginfo_t.si_uid":                       siUIDOff,
	"offsetof siginfo_t.si_value":                     24,
	"sizeof ucontext":                                 ucontextSize,
	"offsetof ucontext.uc_link":                       ucLinkOff,
	"offsetof ucontext.uc_stack":                      ucStackOff,
	"offsetof ucontext.uc_sigmask":                    ucSigmaskOff,
	"offsetof ucontext.uc_mcontext":                   ucMcontextOff,
	"sizeof sigcontext":                               sigcontextSize,
	"offsetof sigcontext.sc_fpregs":                   scFPOff,
	"sizeof user_regs_struct":                         32 * 8,
	"offsetof user_regs_struct.ra":                    8,
	"offsetof user_regs_struct.sp":                    16,
	"offsetof user_regs_struct.a0":                    80,
	"offsetof user_regs_struct.t6":                    248,
	"sizeof __riscv_fp_state":                         fpStateSize,
	"offsetof __riscv_d_ext_state.fcsr":               fpFcsrOff,
	"sizeof __riscv_d_ext_state":                      fpFcsrOff + 8,
	"offsetof __riscv_q_ext_state.fcsr":               512,
	"offsetof __riscv_q_ext_state.reserved":           fpReservedOff,
	"sizeof rt_sigframe":                              rtSigframeSize,
	"offsetof rt_sigframe.uc":                         rtSigframeUCOff,
	"offsetof stack_t.ss_flags":                       8,
	"sizeof statfs":                                   statfsSize,
	"offsetof statfs.f_fsid":                          statfsFsidOff,
	"offsetof statfs.f_namelen":                       statfsNamelenOff,
	"offsetof statfs.f_frsize":                        statfsFrsizeOff,
	"offsetof statfs.f_flags":                         statfsFlagsOff,
	"sizeof pollfd":                                   pollfdSize,
	"offsetof pollfd.revents":                         6,
	"sizeof itimerval":                                itimervalSize,
	"offsetof itimerval.it_value":                     16,
	"const SA_SIGINFO":                                saSiginfo,
	"const SA_ONSTACK":                                saOnstack,
	"const SA_RESTART":                                saRestart,
	"const SA_NODEFER":                                saNodefer,
	"const SA_RESETHAND":                              saResethand,
	"const SI_USER":                                   siUser,
	"const SI_KERNEL":                                 siKernel,
	"const SI_QUEUE":                                  siQueue,
	"const SI_TKILL":                                  siTkill,
	"const ILL_ILLOPC":                                illIllopc,
	"const SEGV_MAPERR":                               segvMaperr,
	"const SEGV_ACCERR":                               segvAccerr,
	"const BUS_ADRALN":                                busAdraln,
	"const TRAP_BRKPT":                                trapBrkpt,
	"const SS_ONSTACK":                                ssOnstack,
	"const SS_DISABLE":                                ssDisable,
	"const SS_AUTODISARM":                             ssAutodisarm,
	"const SIGILL":                                    sigILL,
	"const SIGTRAP":                                   sigTRAP,
	"const SIGBUS":                                    sigBUS,
	"const SIGFPE":                                    sigFPE,
	"const SIGSEGV":                                   sigSEGV,
	"const SIGALRM":                                   sigALRM,
	"const SIGVTALRM":                                 sigVTALRM,
	"const SIGPROF":                                   sigPROF,
	"const SIGSYS":                                    sigSYS,
	"const ITIMER_REAL":                               itimerReal,
	"const ITIMER_VIRTUAL":                            itimerVirtual,
	"const ITIMER_PROF":                               itimerProf,
	"const POLLIN":                                    pollIn,
	"const POLLPRI":                                   pollPri,
	"const POLLOUT":                                   pollOut,
	"const POLLERR":                                   pollErr,
	"const POLLHUP":                                   pollHup,
	"const POLLNVAL":                                  pollNval,
	"const POLLRDNORM":                                pollRdnorm,
	"const POLLRDBAND":                                pollRdband,
	"const POLLWRNORM":                                pollWrnorm,
	"const POLLWRBAND":                                pollWrband,
	"const AT_SYMLINK_FOLLOW":                         atSymlinkFollow,
	"const LOCK_SH":                                   lockSh,
	"const LOCK_EX":                                   lockEx,
	"const LOCK_NB":                                   lockNb,
	"const LOCK_UN":                                   lockUn,
	"const MFD_CLOEXEC":                               mfdCloexec,
	"const MFD_ALLOW_SEALING":                         mfdAllowSealing,
	"const F_ADD_SEALS":                               fAddSeals,
	"const F_GET_SEALS":                               fGetSeals,
	"const F_SETPIPE_SZ":                              fSetPipeSz,
	"const F_GETPIPE_SZ":                              fGetPipeSz,
	"const F_SEAL_SEAL":                               fSealSeal,
	"const F_SEAL_SHRINK":                             fSealShrink,
	"const F_SEAL_GROW":                               fSealGrow,
	"const F_SEAL_WRITE":                              fSealWrite,
	"const F_SEAL_FUTURE_WRITE":                       fSealFutureW,
	"const FALLOC_FL_KEEP_SIZE":                       1,
	"const MEMBARRIER_CMD_QUERY":                      mbQuery,
	"const MEMBARRIER_CMD_GLOBAL":                     mbGlobal,
	"const MEMBARRIER_CMD_GLOBAL_EXPEDITED":           mbGlobalExpedited,
	"const MEMBARRIER_CMD_REGISTER_GLOBAL_EXPEDITED":  mbRegisterGlobalExpedited,
	"const MEMBARRIER_CMD_PRIVATE_EXPEDITED":          mbPrivateExpedited,
	"const MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED": mbRegisterPrivateExpedited,
	"const CLOSE_RANGE_UNSHARE":                       closeRangeUnshare,
	"const CLOSE_RANGE_CLOEXEC":                       closeRangeCloexec,
	"const WNOHANG":                                   wNohang,
	"const WUNTRACED":                                 wUntraced,
	"const WEXITED":                                   wExited,
	"const WCONTINUED":                                wContinued,
	"const WNOWAIT":                                   wNowait,
	"const __WNOTHREAD":                               wNothread,
	"const __WALL":                                    wAll,
	"const __WCLONE":                                  wClone,
	"const PRIO_PROCESS":                              prioProcess,
	"const PRIO_PGRP":                                 prioPgrp,
	"const PRIO_USER":                                 prioUser,
	"const RLIMIT_MEMLOCK":                            rlimitMemlock,
	"const MCL_CURRENT":                               mclCurrent,
	"const MCL_FUTURE":                                mclFuture,
	"const MCL_ONFAULT":                               mclOnfault,
	"const MS_ASYNC":                                  msAsync,
	"const MS_INVALIDATE":                             msInvalidate,
	"const MS_SYNC":                                   msSync,
	"const TMPFS_MAGIC":                               tmpfsMagic,
	"const PIPEFS_MAGIC":                              pipefsMagic,
	"const ANON_INODE_FS_MAGIC":                       anonInodeMagic,
}

func TestLayoutExtMatchesRiscv64Headers(t *testing.T) {
	data, err := os.ReadFile("testdata/layout_ext.golden")
	require.NoError(t, err)
	golden := parseGolden(t, data)
	require.Len(t, golden, len(goLayoutExt), "every golden line has a Go constant")
	for key, want := range goLayoutExt {
		got, ok := golden[key]
		if !ok {
			t.Errorf("%s: missing from layout_ext.golden", key)
			continue
		}
		if got != want {
			t.Errorf("%s: riscv64 says %d, Go constant is %d", key, got, want)
		}
	}
}

// TestLayoutExtGoldenIsCurrent rebuilds layout_ext.golden with the cross
// compiler and qemu when both are installed.
func TestLayoutExtGoldenIsCurrent(t *testing.T) {
	gcc, err1 := exec.LookPath("riscv64-linux-gnu-gcc")
	qemu, err2 := exec.LookPath("qemu-riscv64")
	if err1 != nil || err2 != nil || testing.Short() {
		t.Skip("riscv64-linux-gnu-gcc or qemu-riscv64 not installed")
	}
	bin := filepath.Join(t.TempDir(), "layout_ext")
	out, err := exec.Command(gcc, "-static", "-O1", "-o", bin, "testdata/layout_ext.c").CombinedOutput()
	require.NoError(t, err, "%s", out)
	got, err := exec.Command(qemu, bin).Output()
	require.NoError(t, err)
	want, err := os.ReadFile("testdata/layout_ext.golden")
	require.NoError(t, err)
	require.Equal(t, string(want), string(got))
}
