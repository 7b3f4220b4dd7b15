// Prints the sizes, offsets and constants behind rvsim's signal frames and
// the system calls added with them, from the riscv64 kernel uapi headers
// (the Linux 6.1 ones Debian ships: its struct sigcontext ends in the D/Q
// union whose q.reserved words later kernels name __riscv_extra_ext_header
// .reserved and .hdr). layout_ext_test.go compares them with the Go
// constants; regenerate with
//   riscv64-linux-gnu-gcc -static -O1 -o /tmp/layout_ext layout_ext.c && qemu-riscv64 /tmp/layout_ext > layout_ext.golden
#include <stdio.h>
#include <stddef.h>
#include <linux/signal.h>
#include <asm/sigcontext.h>
#include <asm/ucontext.h>
#include <asm/siginfo.h>
#include <asm/statfs.h>
#include <linux/poll.h>
#include <linux/time.h>
#include <linux/magic.h>
#include <linux/fcntl.h>
#include <linux/falloc.h>
#include <linux/memfd.h>
#include <linux/membarrier.h>
#include <linux/close_range.h>
#include <linux/wait.h>
#include <linux/resource.h>
#include <linux/mman.h>
#include <linux/stat.h>
#include <asm-generic/fcntl.h>
#define S(t) printf("sizeof %s %zu\n", #t, sizeof(struct t))
#define O(t,f) printf("offsetof %s.%s %zu\n", #t, #f, offsetof(struct t, f))
#define U(t,f) printf("offsetof %s.%s %zu\n", #t, #f, offsetof(union t, f))
#define C(c) printf("const %s %ld\n", #c, (long)(c))
struct rt_sigframe { siginfo_t info; struct ucontext uc; };
int main(void) {
 printf("sizeof siginfo_t %zu\n", sizeof(siginfo_t));
 printf("offsetof siginfo_t.si_code %zu\n", offsetof(siginfo_t, si_code));
 printf("offsetof siginfo_t.si_addr %zu\n", offsetof(siginfo_t, si_addr));
 printf("offsetof siginfo_t.si_pid %zu\n", offsetof(siginfo_t, si_pid));
 printf("offsetof siginfo_t.si_uid %zu\n", offsetof(siginfo_t, si_uid));
 printf("offsetof siginfo_t.si_value %zu\n", offsetof(siginfo_t, si_value));
 S(ucontext); O(ucontext,uc_link); O(ucontext,uc_stack); O(ucontext,uc_sigmask); O(ucontext,uc_mcontext);
 S(sigcontext); O(sigcontext,sc_fpregs);
 S(user_regs_struct); O(user_regs_struct,ra); O(user_regs_struct,sp); O(user_regs_struct,a0); O(user_regs_struct,t6);
 printf("sizeof __riscv_fp_state %zu\n", sizeof(union __riscv_fp_state));
 O(__riscv_d_ext_state,fcsr); S(__riscv_d_ext_state);
 O(__riscv_q_ext_state,fcsr); O(__riscv_q_ext_state,reserved);
 S(rt_sigframe); O(rt_sigframe,uc);
 printf("offsetof stack_t.ss_flags %zu\n", offsetof(stack_t, ss_flags));
 S(statfs); O(statfs,f_fsid); O(statfs,f_namelen); O(statfs,f_frsize); O(statfs,f_flags);
 S(pollfd); O(pollfd,revents);
 S(itimerval); O(itimerval,it_value);
 C(SA_SIGINFO); C(SA_ONSTACK); C(SA_RESTART); C(SA_NODEFER); C(SA_RESETHAND);
 C(SI_USER); C(SI_KERNEL); C(SI_QUEUE); C(SI_TKILL);
 C(ILL_ILLOPC); C(SEGV_MAPERR); C(SEGV_ACCERR); C(BUS_ADRALN); C(TRAP_BRKPT);
 C(SS_ONSTACK); C(SS_DISABLE); C(SS_AUTODISARM);
 C(SIGILL); C(SIGTRAP); C(SIGBUS); C(SIGFPE); C(SIGSEGV); C(SIGALRM); C(SIGVTALRM); C(SIGPROF); C(SIGSYS);
 C(ITIMER_REAL); C(ITIMER_VIRTUAL); C(ITIMER_PROF);
 C(POLLIN); C(POLLPRI); C(POLLOUT); C(POLLERR); C(POLLHUP); C(POLLNVAL); C(POLLRDNORM); C(POLLRDBAND); C(POLLWRNORM); C(POLLWRBAND);
 C(AT_SYMLINK_FOLLOW);
 C(LOCK_SH); C(LOCK_EX); C(LOCK_NB); C(LOCK_UN);
 C(MFD_CLOEXEC); C(MFD_ALLOW_SEALING);
 C(F_ADD_SEALS); C(F_GET_SEALS); C(F_SETPIPE_SZ); C(F_GETPIPE_SZ);
 C(F_SEAL_SEAL); C(F_SEAL_SHRINK); C(F_SEAL_GROW); C(F_SEAL_WRITE); C(F_SEAL_FUTURE_WRITE);
 C(FALLOC_FL_KEEP_SIZE);
 C(MEMBARRIER_CMD_QUERY); C(MEMBARRIER_CMD_GLOBAL); C(MEMBARRIER_CMD_GLOBAL_EXPEDITED);
 C(MEMBARRIER_CMD_REGISTER_GLOBAL_EXPEDITED); C(MEMBARRIER_CMD_PRIVATE_EXPEDITED);
 C(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED);
 C(CLOSE_RANGE_UNSHARE); C(CLOSE_RANGE_CLOEXEC);
 C(WNOHANG); C(WUNTRACED); C(WEXITED); C(WCONTINUED); C(WNOWAIT); C(__WNOTHREAD); C(__WALL); C(__WCLONE);
 C(PRIO_PROCESS); C(PRIO_PGRP); C(PRIO_USER); C(RLIMIT_MEMLOCK);
 C(MCL_CURRENT); C(MCL_FUTURE); C(MCL_ONFAULT); C(MS_ASYNC); C(MS_INVALIDATE); C(MS_SYNC);
 C(TMPFS_MAGIC); C(PIPEFS_MAGIC); C(ANON_INODE_FS_MAGIC);
 return 0;
}
