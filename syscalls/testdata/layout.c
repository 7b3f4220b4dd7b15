// Prints the sizes and offsets of the kernel structures and the values of
// the constants that package syscalls encodes by hand. layout_test.go
// compares them with the Go constants; regenerate the golden file with
//   riscv64-linux-gnu-gcc -static -O1 -o /tmp/layout layout.c && qemu-riscv64 /tmp/layout > layout.golden
// (layout_test.go does this itself when both tools are installed).
#define _GNU_SOURCE
#include <stdio.h>
#include <stddef.h>
#include <asm/stat.h>
#include <linux/stat.h>
#include <linux/time_types.h>
#include <linux/uio.h>
#include <linux/utsname.h>
#include <linux/resource.h>
#include <asm/termbits.h>
#include <asm/ioctls.h>
#include <asm/termios.h>
#include <linux/signal.h>
#include <linux/sysinfo.h>
#include <linux/times.h>
#include <linux/time.h>
#include <linux/fcntl.h>
#include <linux/mman.h>
#include <linux/futex.h>
#include <linux/random.h>
#include <linux/auxvec.h>
#include <linux/fs.h>
#include <linux/prctl.h>
#include <asm/hwcap.h>
struct linux_dirent64 { unsigned long long d_ino; long long d_off; unsigned short d_reclen; unsigned char d_type; char d_name[]; };
#define S(t) printf("sizeof %s %zu\n", #t, sizeof(struct t))
#define O(t,f) printf("offsetof %s.%s %zu\n", #t, #f, offsetof(struct t, f))
int main(void){
 S(stat); O(stat,st_dev);O(stat,st_ino);O(stat,st_mode);O(stat,st_nlink);O(stat,st_uid);O(stat,st_gid);O(stat,st_rdev);O(stat,st_size);O(stat,st_blksize);O(stat,st_blocks);O(stat,st_atime);O(stat,st_atime_nsec);O(stat,st_mtime);O(stat,st_mtime_nsec);O(stat,st_ctime);O(stat,st_ctime_nsec);
 S(statx); O(statx,stx_mask);O(statx,stx_blksize);O(statx,stx_attributes);O(statx,stx_nlink);O(statx,stx_uid);O(statx,stx_gid);O(statx,stx_mode);O(statx,stx_ino);O(statx,stx_size);O(statx,stx_blocks);O(statx,stx_attributes_mask);O(statx,stx_atime);O(statx,stx_btime);O(statx,stx_ctime);O(statx,stx_mtime);O(statx,stx_rdev_major);O(statx,stx_rdev_minor);O(statx,stx_dev_major);O(statx,stx_dev_minor);O(statx,stx_mnt_id);
 S(statx_timestamp); O(statx_timestamp,tv_nsec);
 S(__kernel_timespec); S(iovec); O(iovec,iov_len);
 S(new_utsname); O(new_utsname,nodename); O(new_utsname,release); O(new_utsname,version); O(new_utsname,machine); O(new_utsname,domainname);
 S(rlimit); S(rlimit64); S(rusage); O(rusage,ru_stime); O(rusage,ru_maxrss); O(rusage,ru_nivcsw);
 S(termios); O(termios,c_line); O(termios,c_cc); S(winsize);
 S(sigaction); O(sigaction,sa_flags); O(sigaction,sa_mask);
 printf("sizeof stack_t %zu\n", sizeof(stack_t)); printf("offsetof stack_t.ss_flags %zu\n", offsetof(stack_t, ss_flags)); printf("offsetof stack_t.ss_size %zu\n", offsetof(stack_t, ss_size));
 S(sysinfo); O(sysinfo,loads); O(sysinfo,totalram); O(sysinfo,procs); O(sysinfo,totalhigh); O(sysinfo,mem_unit);
 S(tms); S(timeval); S(timezone); S(flock); O(flock,l_start); O(flock,l_len); O(flock,l_pid);
 S(linux_dirent64); O(linux_dirent64,d_off); O(linux_dirent64,d_reclen); O(linux_dirent64,d_type); O(linux_dirent64,d_name);
 printf("const SA_RESTORER_defined %d\n",
#ifdef SA_RESTORER
 1
#else
 0
#endif
 );
 printf("const NCCS %d\n", NCCS);
 printf("const O_CREAT %ld\n", (long)(O_CREAT));
 printf("const O_EXCL %ld\n", (long)(O_EXCL));
 printf("const O_NOCTTY %ld\n", (long)(O_NOCTTY));
 printf("const O_TRUNC %ld\n", (long)(O_TRUNC));
 printf("const O_APPEND %ld\n", (long)(O_APPEND));
 printf("const O_NONBLOCK %ld\n", (long)(O_NONBLOCK));
 printf("const O_DIRECTORY %ld\n", (long)(O_DIRECTORY));
 printf("const O_NOFOLLOW %ld\n", (long)(O_NOFOLLOW));
 printf("const O_CLOEXEC %ld\n", (long)(O_CLOEXEC));
 printf("const O_LARGEFILE %ld\n", (long)(O_LARGEFILE));
 printf("const O_PATH %ld\n", (long)(O_PATH));
 printf("const O_TMPFILE %ld\n", (long)(O_TMPFILE));
 printf("const O_SYNC %ld\n", (long)(O_SYNC));
 printf("const O_DSYNC %ld\n", (long)(O_DSYNC));
 printf("const O_DIRECT %ld\n", (long)(O_DIRECT));
 printf("const O_NOATIME %ld\n", (long)(O_NOATIME));
 printf("const AT_FDCWD %ld\n", (long)(AT_FDCWD));
 printf("const AT_SYMLINK_NOFOLLOW %ld\n", (long)(AT_SYMLINK_NOFOLLOW));
 printf("const AT_REMOVEDIR %ld\n", (long)(AT_REMOVEDIR));
 printf("const AT_EACCESS %ld\n", (long)(AT_EACCESS));
 printf("const AT_EMPTY_PATH %ld\n", (long)(AT_EMPTY_PATH));
 printf("const AT_NO_AUTOMOUNT %ld\n", (long)(AT_NO_AUTOMOUNT));
 printf("const AT_STATX_SYNC_TYPE %ld\n", (long)(AT_STATX_SYNC_TYPE));
 printf("const F_DUPFD_CLOEXEC %ld\n", (long)(F_DUPFD_CLOEXEC));
 printf("const F_GETLK %ld\n", (long)(F_GETLK));
 printf("const F_SETLK %ld\n", (long)(F_SETLK));
 printf("const F_SETLKW %ld\n", (long)(F_SETLKW));
 printf("const F_SETOWN %ld\n", (long)(F_SETOWN));
 printf("const F_GETOWN %ld\n", (long)(F_GETOWN));
 printf("const TCGETS %ld\n", (long)(TCGETS));
 printf("const TCSETS %ld\n", (long)(TCSETS));
 printf("const TCSETSW %ld\n", (long)(TCSETSW));
 printf("const TCSETSF %ld\n", (long)(TCSETSF));
 printf("const TIOCGWINSZ %ld\n", (long)(TIOCGWINSZ));
 printf("const TIOCSWINSZ %ld\n", (long)(TIOCSWINSZ));
 printf("const FIONBIO %ld\n", (long)(FIONBIO));
 printf("const FIOCLEX %ld\n", (long)(FIOCLEX));
 printf("const FIONCLEX %ld\n", (long)(FIONCLEX));
 printf("const TIOCGPGRP %ld\n", (long)(TIOCGPGRP));
 printf("const FIONREAD %ld\n", (long)(FIONREAD));
 printf("const STATX_BASIC_STATS %ld\n", (long)(STATX_BASIC_STATS));
 printf("const STATX__RESERVED %ld\n", (long)(STATX__RESERVED));
 printf("const PROT_READ %ld\n", (long)(PROT_READ));
 printf("const PROT_WRITE %ld\n", (long)(PROT_WRITE));
 printf("const PROT_EXEC %ld\n", (long)(PROT_EXEC));
 printf("const MAP_SHARED %ld\n", (long)(MAP_SHARED));
 printf("const MAP_PRIVATE %ld\n", (long)(MAP_PRIVATE));
 printf("const MAP_SHARED_VALIDATE %ld\n", (long)(MAP_SHARED_VALIDATE));
 printf("const MAP_FIXED %ld\n", (long)(MAP_FIXED));
 printf("const MAP_ANONYMOUS %ld\n", (long)(MAP_ANONYMOUS));
 printf("const MAP_FIXED_NOREPLACE %ld\n", (long)(MAP_FIXED_NOREPLACE));
 printf("const MREMAP_MAYMOVE %ld\n", (long)(MREMAP_MAYMOVE));
 printf("const MREMAP_FIXED %ld\n", (long)(MREMAP_FIXED));
 printf("const MREMAP_DONTUNMAP %ld\n", (long)(MREMAP_DONTUNMAP));
 printf("const MADV_DONTNEED %ld\n", (long)(MADV_DONTNEED));
 printf("const MADV_FREE %ld\n", (long)(MADV_FREE));
 printf("const MADV_REMOVE %ld\n", (long)(MADV_REMOVE));
 printf("const MADV_DONTNEED_LOCKED %ld\n", (long)(MADV_DONTNEED_LOCKED));
 printf("const CLOCK_REALTIME %ld\n", (long)(CLOCK_REALTIME));
 printf("const CLOCK_MONOTONIC %ld\n", (long)(CLOCK_MONOTONIC));
 printf("const CLOCK_PROCESS_CPUTIME_ID %ld\n", (long)(CLOCK_PROCESS_CPUTIME_ID));
 printf("const CLOCK_THREAD_CPUTIME_ID %ld\n", (long)(CLOCK_THREAD_CPUTIME_ID));
 printf("const CLOCK_MONOTONIC_RAW %ld\n", (long)(CLOCK_MONOTONIC_RAW));
 printf("const CLOCK_REALTIME_COARSE %ld\n", (long)(CLOCK_REALTIME_COARSE));
 printf("const CLOCK_MONOTONIC_COARSE %ld\n", (long)(CLOCK_MONOTONIC_COARSE));
 printf("const CLOCK_BOOTTIME %ld\n", (long)(CLOCK_BOOTTIME));
 printf("const CLOCK_TAI %ld\n", (long)(CLOCK_TAI));
 printf("const TIMER_ABSTIME %ld\n", (long)(TIMER_ABSTIME));
 printf("const FUTEX_WAIT %ld\n", (long)(FUTEX_WAIT));
 printf("const FUTEX_WAKE %ld\n", (long)(FUTEX_WAKE));
 printf("const FUTEX_CMP_REQUEUE %ld\n", (long)(FUTEX_CMP_REQUEUE));
 printf("const FUTEX_WAKE_OP %ld\n", (long)(FUTEX_WAKE_OP));
 printf("const FUTEX_WAIT_BITSET %ld\n", (long)(FUTEX_WAIT_BITSET));
 printf("const FUTEX_WAKE_BITSET %ld\n", (long)(FUTEX_WAKE_BITSET));
 printf("const FUTEX_PRIVATE_FLAG %ld\n", (long)(FUTEX_PRIVATE_FLAG));
 printf("const FUTEX_CLOCK_REALTIME %ld\n", (long)(FUTEX_CLOCK_REALTIME));
 printf("const GRND_NONBLOCK %ld\n", (long)(GRND_NONBLOCK));
 printf("const GRND_RANDOM %ld\n", (long)(GRND_RANDOM));
 printf("const GRND_INSECURE %ld\n", (long)(GRND_INSECURE));
 printf("const SIGABRT %ld\n", (long)(SIGABRT));
 printf("const SIGPIPE %ld\n", (long)(SIGPIPE));
 printf("const SIGKILL %ld\n", (long)(SIGKILL));
 printf("const SIGSTOP %ld\n", (long)(SIGSTOP));
 printf("const SIG_BLOCK %ld\n", (long)(SIG_BLOCK));
 printf("const SIG_UNBLOCK %ld\n", (long)(SIG_UNBLOCK));
 printf("const SIG_SETMASK %ld\n", (long)(SIG_SETMASK));
 printf("const SS_DISABLE %ld\n", (long)(SS_DISABLE));
 printf("const MINSIGSTKSZ %ld\n", (long)(MINSIGSTKSZ));
 printf("const AT_PHDR %ld\n", (long)(AT_PHDR));
 printf("const AT_PHENT %ld\n", (long)(AT_PHENT));
 printf("const AT_PHNUM %ld\n", (long)(AT_PHNUM));
 printf("const AT_PAGESZ %ld\n", (long)(AT_PAGESZ));
 printf("const AT_BASE %ld\n", (long)(AT_BASE));
 printf("const AT_FLAGS %ld\n", (long)(AT_FLAGS));
 printf("const AT_ENTRY %ld\n", (long)(AT_ENTRY));
 printf("const AT_UID %ld\n", (long)(AT_UID));
 printf("const AT_EUID %ld\n", (long)(AT_EUID));
 printf("const AT_GID %ld\n", (long)(AT_GID));
 printf("const AT_EGID %ld\n", (long)(AT_EGID));
 printf("const AT_HWCAP %ld\n", (long)(AT_HWCAP));
 printf("const AT_CLKTCK %ld\n", (long)(AT_CLKTCK));
 printf("const AT_SECURE %ld\n", (long)(AT_SECURE));
 printf("const AT_RANDOM %ld\n", (long)(AT_RANDOM));
 printf("const AT_EXECFN %ld\n", (long)(AT_EXECFN));
 printf("const RLIMIT_STACK %ld\n", (long)(RLIMIT_STACK));
 printf("const RLIMIT_NOFILE %ld\n", (long)(RLIMIT_NOFILE));
 printf("const RLIM_NLIMITS %ld\n", (long)(RLIM_NLIMITS));
 printf("const RENAME_NOREPLACE %ld\n", (long)(RENAME_NOREPLACE));
 printf("const RENAME_EXCHANGE %ld\n", (long)(RENAME_EXCHANGE));
 printf("const RENAME_WHITEOUT %ld\n", (long)(RENAME_WHITEOUT));
 printf("const PR_SET_NAME %ld\n", (long)(PR_SET_NAME));
 printf("const PR_GET_NAME %ld\n", (long)(PR_GET_NAME));
 printf("const COMPAT_HWCAP_ISA_I %ld\n", (long)(COMPAT_HWCAP_ISA_I));
 return 0;
}
