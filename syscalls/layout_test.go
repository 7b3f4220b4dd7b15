package syscalls

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// goLayout maps the lines of testdata/layout.golden (printed by
// testdata/layout.c, compiled with riscv64-linux-gnu-gcc against the Linux
// uapi headers and run under qemu-riscv64) to the Go constants that must
// agree with them.
var goLayout = map[string]int64{
	"sizeof stat":                        statSize,
	"offsetof stat.st_dev":               statDevOff,
	"offsetof stat.st_ino":               statInoOff,
	"offsetof stat.st_mode":              statModeOff,
	"offsetof stat.st_nlink":             statNlinkOff,
	"offsetof stat.st_uid":               statUIDOff,
	"offsetof stat.st_gid":               statGIDOff,
	"offsetof stat.st_rdev":              statRdevOff,
	"offsetof stat.st_size":              statSizeOff,
	"offsetof stat.st_blksize":           statBlksizeOff,
	"offsetof stat.st_blocks":            statBlocksOff,
	"offsetof stat.st_atime":             statAtimeOff,
	"offsetof stat.st_atime_nsec":        statAtimeNsecOff,
	"offsetof stat.st_mtime":             statMtimeOff,
	"offsetof stat.st_mtime_nsec":        statMtimeNsecOff,
	"offsetof stat.st_ctime":             statCtimeOff,
	"offsetof stat.st_ctime_nsec":        statCtimeNsecOff,
	"sizeof statx":                       statxSize,
	"offsetof statx.stx_mask":            statxMaskOff,
	"offsetof statx.stx_blksize":         statxBlksizeOff,
	"offsetof statx.stx_attributes":      statxAttributesOff,
	"offsetof statx.stx_nlink":           statxNlinkOff,
	"offsetof statx.stx_uid":             statxUIDOff,
	"offsetof statx.stx_gid":             statxGIDOff,
	"offsetof statx.stx_mode":            statxModeOff,
	"offsetof statx.stx_ino":             statxInoOff,
	"offsetof statx.stx_size":            statxSizeOff,
	"offsetof statx.stx_blocks":          statxBlocksOff,
	"offsetof statx.stx_attributes_mask": statxAttrMaskOff,
	"offsetof statx.stx_atime":           statxAtimeOff,
	"offsetof statx.stx_btime":           statxBtimeOff,
	"offsetof statx.stx_ctime":           statxCtimeOff,
	"offsetof statx.stx_mtime":           statxMtimeOff,
	"offsetof statx.stx_rdev_major":      statxRdevMajorOff,
	"offsetof statx.stx_rdev_minor":      statxRdevMinorOff,
	"offsetof statx.stx_dev_major":       statxDevMajorOff,
	"offsetof statx.stx_dev_minor":       statxDevMinorOff,
	"sizeof statx_timestamp":             16,
	"offsetof statx_timestamp.tv_nsec":   statxTsNsecOff,
	"sizeof __kernel_timespec":           timespecSize,
	"sizeof iovec":                       iovecSize,
	"offsetof iovec.iov_len":             8,
	"sizeof new_utsname":                 utsnameSize,
	"offsetof new_utsname.nodename":      utsFieldLen,
	"offsetof new_utsname.release":       2 * utsFieldLen,
	"offsetof new_utsname.version":       3 * utsFieldLen,
	"offsetof new_utsname.machine":       4 * utsFieldLen,
	"offsetof new_utsname.domainname":    5 * utsFieldLen,
	"sizeof rlimit":                      rlimitSize,
	"sizeof rlimit64":                    rlimitSize,
	"sizeof rusage":                      rusageSize,
	"offsetof rusage.ru_stime":           timevalSize,
	"offsetof rusage.ru_maxrss":          rusageMaxRSS,
	"sizeof termios":                     termiosLen,
	"sizeof winsize":                     winsizeLen,
	"sizeof sigaction":                   sigactionSize,
	"offsetof sigaction.sa_flags":        8,
	"offsetof sigaction.sa_mask":         16,
	"sizeof stack_t":                     stackTSize,
	"offsetof stack_t.ss_flags":          8,
	"offsetof stack_t.ss_size":           16,
	"sizeof sysinfo":                     sysinfoSize,
	"offsetof sysinfo.loads":             sysinfoLoadsOff,
	"offsetof sysinfo.totalram":          sysinfoTotalramOff,
	"offsetof sysinfo.procs":             sysinfoProcsOff,
	"offsetof sysinfo.mem_unit":          sysinfoMemUnitOff,
	"sizeof tms":                         tmsSize,
	"sizeof timeval":                     timevalSize,
	"sizeof flock":                       flockSize,
	"offsetof linux_dirent64.d_off":      direntOffOff,
	"offsetof linux_dirent64.d_reclen":   direntReclenOff,
	"offsetof linux_dirent64.d_type":     direntTypeOff,
	"offsetof linux_dirent64.d_name":     direntNameOff,
	"const SA_RESTORER_defined":          0,
	"const NCCS":                         termiosLen - 17,
	"const O_CREAT":                      oCreat,
	"const O_EXCL":                       oExcl,
	"const O_NOCTTY":                     oNoctty,
	"const O_TRUNC":                      oTrunc,
	"const O_APPEND":                     oAppend,
	"const O_NONBLOCK":                   oNonblock,
	"const O_DIRECTORY":                  oDirectory,
	"const O_NOFOLLOW":                   oNofollow,
	"const O_CLOEXEC":                    oCloexec,
	"const O_LARGEFILE":                  oLargefile,
	"const O_PATH":                       oPath,
	"const O_TMPFILE":                    oTmpfile,
	"const O_SYNC":                       oSync,
	"const O_DSYNC":                      oDsync,
	"const O_DIRECT":                     oDirect,
	"const O_NOATIME":                    oNoatime,
	"const AT_FDCWD":                     atFDCWD,
	"const AT_SYMLINK_NOFOLLOW":          atSymlinkNofollow,
	"const AT_REMOVEDIR":                 atRemovedir,
	"const AT_EACCESS":                   atEaccess,
	"const AT_EMPTY_PATH":                atEmptyPath,
	"const AT_NO_AUTOMOUNT":              atNoAutomount,
	"const AT_STATX_SYNC_TYPE":           atStatxSyncType,
	"const F_DUPFD_CLOEXEC":              fDupfdCloexec,
	"const F_GETLK":                      fGetlk,
	"const F_SETLK":                      fSetlk,
	"const F_SETLKW":                     fSetlkw,
	"const F_SETOWN":                     fSetown,
	"const F_GETOWN":                     fGetown,
	"const TCGETS":                       tcgets,
	"const TCSETS":                       tcsets,
	"const TCSETSW":                      tcsetsw,
	"const TCSETSF":                      tcsetsf,
	"const TIOCGWINSZ":                   tiocgwinsz,
	"const TIOCSWINSZ":                   tiocswinsz,
	"const FIONBIO":                      fionbio,
	"const FIOCLEX":                      fioclex,
	"const FIONCLEX":                     fionclex,
	"const TIOCGPGRP":                    tiocgpgrp,
	"const FIONREAD":                     fionread,
	"const STATX_BASIC_STATS":            statxBasicStats,
	"const STATX__RESERVED":              statxReserved,
	"const PROT_READ":                    protRead,
	"const PROT_WRITE":                   protWrite,
	"const PROT_EXEC":                    protExec,
	"const MAP_SHARED":                   mapShared,
	"const MAP_PRIVATE":                  mapPrivate,
	"const MAP_SHARED_VALIDATE":          mapSharedValidate,
	"const MAP_FIXED":                    mapFixed,
	"const MAP_ANONYMOUS":                mapAnonymous,
	"const MAP_FIXED_NOREPLACE":          mapFixedNoreplace,
	"const MREMAP_MAYMOVE":               mremapMaymove,
	"const MREMAP_FIXED":                 mremapFixed,
	"const MREMAP_DONTUNMAP":             mremapDontunmap,
	"const MADV_DONTNEED":                madvDontneed,
	"const MADV_FREE":                    madvFree,
	"const MADV_REMOVE":                  madvRemove,
	"const MADV_DONTNEED_LOCKED":         madvDontneedLocked,
	"const CLOCK_REALTIME":               clockRealtime,
	"const CLOCK_MONOTONIC":              clockMonotonic,
	"const CLOCK_PROCESS_CPUTIME_ID":     clockProcessCputimeID,
	"const CLOCK_THREAD_CPUTIME_ID":      clockThreadCputimeID,
	"const CLOCK_MONOTONIC_RAW":          clockMonotonicRaw,
	"const CLOCK_REALTIME_COARSE":        clockRealtimeCoarse,
	"const CLOCK_MONOTONIC_COARSE":       clockMonotonicCoarse,
	"const CLOCK_BOOTTIME":               clockBoottime,
	"const CLOCK_TAI":                    clockTAI,
	"const TIMER_ABSTIME":                timerAbstime,
	"const FUTEX_WAIT":                   futexWait,
	"const FUTEX_WAKE":                   futexWake,
	"const FUTEX_CMP_REQUEUE":            futexCmpRequeue,
	"const FUTEX_WAKE_OP":                futexWakeOp,
	"const FUTEX_WAIT_BITSET":            futexWaitBitset,
	"const FUTEX_WAKE_BITSET":            futexWakeBitset,
	"const FUTEX_PRIVATE_FLAG":           futexPrivate,
	"const FUTEX_CLOCK_REALTIME":         futexClockRealtm,
	"const GRND_NONBLOCK":                grndNonblock,
	"const GRND_RANDOM":                  grndRandom,
	"const GRND_INSECURE":                grndInsecure,
	"const SIGABRT":                      6,
	"const SIGPIPE":                      sigPIPE,
	"const SIGKILL":                      sigKILL,
	"const SIGSTOP":                      sigSTOP,
	"const SIG_BLOCK":                    sigBlock,
	"const SIG_UNBLOCK":                  sigUnblk,
	"const SIG_SETMASK":                  sigSet,
	"const SS_DISABLE":                   ssDisable,
	"const MINSIGSTKSZ":                  minSigStkSize,
	"const AT_PHDR":                      atPhdr,
	"const AT_PHENT":                     atPhent,
	"const AT_PHNUM":                     atPhnum,
	"const AT_PAGESZ":                    atPagesz,
	"const AT_BASE":                      atBase,
	"const AT_FLAGS":                     atFlags,
	"const AT_ENTRY":                     atEntry,
	"const AT_UID":                       atUID,
	"const AT_EUID":                      atEUID,
	"const AT_GID":                       atGID,
	"const AT_EGID":                      atEGID,
	"const AT_HWCAP":                     atHwcap,
	"const AT_CLKTCK":                    atClktck,
	"const AT_SECURE":                    atSecure,
	"const AT_RANDOM":                    atRandom,
	"const AT_EXECFN":                    atExecfn,
	"const RLIMIT_STACK":                 rlimitStack,
	"const RLIMIT_NOFILE":                rlimitNofile,
	"const RLIM_NLIMITS":                 rlimitCount,
	"const RENAME_NOREPLACE":             renameNoreplace,
	"const RENAME_EXCHANGE":              renameExchange,
	"const RENAME_WHITEOUT":              renameWhiteout,
	"const PR_SET_NAME":                  prSetName,
	"const PR_GET_NAME":                  prGetName,
	"const COMPAT_HWCAP_ISA_I":           1 << ('I' - 'A'),
}

func parseGolden(t *testing.T, data []byte) map[string]int64 {
	t.Helper()
	out := map[string]int64{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		require.Len(t, f, 3, "golden line %q", sc.Text())
		v, err := strconv.ParseInt(f[2], 10, 64)
		require.NoError(t, err, "golden line %q", sc.Text())
		out[f[0]+" "+f[1]] = v
	}
	return out
}

func TestLayoutMatchesRiscv64Headers(t *testing.T) {
	data, err := os.ReadFile("testdata/layout.golden")
	require.NoError(t, err)
	golden := parseGolden(t, data)
	for key, want := range goLayout {
		got, ok := golden[key]
		if !ok {
			t.Errorf("%s: missing from layout.golden", key)
			continue
		}
		if got != want {
			t.Errorf("%s: riscv64 says %d, Go constant is %d", key, got, want)
		}
	}
}

// TestLayoutGoldenIsCurrent rebuilds layout.golden with the cross compiler
// and qemu when both are installed.
func TestLayoutGoldenIsCurrent(t *testing.T) {
	gcc, err1 := exec.LookPath("riscv64-linux-gnu-gcc")
	qemu, err2 := exec.LookPath("qemu-riscv64")
	if err1 != nil || err2 != nil || testing.Short() {
		t.Skip("riscv64-linux-gnu-gcc or qemu-riscv64 not installed")
	}
	bin := filepath.Join(t.TempDir(), "layout")
	out, err := exec.Command(gcc, "-static", "-O1", "-o", bin, "testdata/layout.c").CombinedOutput()
	require.NoError(t, err, "%s", out)
	got, err := exec.Command(qemu, bin).Output()
	require.NoError(t, err)
	want, err := os.ReadFile("testdata/layout.golden")
	require.NoError(t, err)
	require.Equal(t, string(want), string(got))
}

func TestEncodeStatPlacesFields(t *testing.T) {
	s := statInfo{
		dev: 0x801, ino: 0x1122334455, mode: sIFREG | 0o644, nlink: 3, uid: 1001, gid: 1002,
		rdev: makedev(1, 3), size: 123456, blksize: 4096, blocks: 248,
		atime: timespec{100, 1}, mtime: timespec{200, 2}, ctime: timespec{300, 3},
	}
	b := encodeStat(s)
	require.Len(t, b, 128)
	tests := []struct {
		desc string
		off  int
		size int
		want uint64
	}{
		{"st_dev", 0, 8, 0x801},
		{"st_ino", 8, 8, 0x1122334455},
		{"st_mode", 16, 4, 0o100644},
		{"st_nlink", 20, 4, 3},
		{"st_uid", 24, 4, 1001},
		{"st_gid", 28, 4, 1002},
		{"st_rdev", 32, 8, 0x103},
		{"__pad1", 40, 8, 0},
		{"st_size", 48, 8, 123456},
		{"st_blksize", 56, 4, 4096},
		{"__pad2", 60, 4, 0},
		{"st_blocks", 64, 8, 248},
		{"st_atime", 72, 8, 100},
		{"st_atime_nsec", 80, 8, 1},
		{"st_mtime", 88, 8, 200},
		{"st_mtime_nsec", 96, 8, 2},
		{"st_ctime", 104, 8, 300},
		{"st_ctime_nsec", 112, 8, 3},
		{"__unused", 120, 8, 0},
	}
	for _, tc := range tests {
		require.Equal(t, tc.want, leN(b[tc.off:], tc.size), tc.desc)
	}
}

func TestEncodeStatxPlacesFields(t *testing.T) {
	s := statInfo{
		dev: makedev(259, 0x12345), ino: 77, mode: sIFDIR | 0o755, nlink: 2, uid: 5, gid: 6,
		rdev: makedev(4, 64), size: 4096, blksize: 512, blocks: 8,
		atime: timespec{10, 11}, mtime: timespec{20, 21}, ctime: timespec{30, 31},
	}
	b := encodeStatx(s)
	require.Len(t, b, 256)
	tests := []struct {
		desc string
		off  int
		size int
		want uint64
	}{
		{"stx_mask", 0, 4, 0x7ff},
		{"stx_blksize", 4, 4, 512},
		{"stx_nlink", 16, 4, 2},
		{"stx_uid", 20, 4, 5},
		{"stx_gid", 24, 4, 6},
		{"stx_mode", 28, 2, 0o40755},
		{"stx_ino", 32, 8, 77},
		{"stx_size", 40, 8, 4096},
		{"stx_blocks", 48, 8, 8},
		{"stx_atime.tv_sec", 64, 8, 10},
		{"stx_atime.tv_nsec", 72, 4, 11},
		{"stx_btime.tv_sec (absent)", 80, 8, 0},
		{"stx_ctime.tv_sec", 96, 8, 30},
		{"stx_ctime.tv_nsec", 104, 4, 31},
		{"stx_mtime.tv_sec", 112, 8, 20},
		{"stx_mtime.tv_nsec", 120, 4, 21},
		{"stx_rdev_major", 128, 4, 4},
		{"stx_rdev_minor", 132, 4, 64},
		{"stx_dev_major", 136, 4, 259},
		{"stx_dev_minor", 140, 4, 0x12345},
	}
	for _, tc := range tests {
		require.Equal(t, tc.want, leN(b[tc.off:], tc.size), tc.desc)
	}
}

func TestMakedevRoundTrip(t *testing.T) {
	tests := []struct {
		desc         string
		major, minor uint64
		want         uint64
	}{
		{"small", 8, 1, 0x801},
		{"/dev/null", 1, 3, 0x103},
		{"big minor", 0, 0x12345, 0x12300045},
		// gnu_dev_makedev: minor&0xff | (major&0xfff)<<8 | (minor&~0xff)<<12 | (major&~0xfff)<<32
		{"big both", 0x1234, 0x56789, 0x100056723489},
	}
	for _, tc := range tests {
		d := makedev(tc.major, tc.minor)
		require.Equal(t, tc.want, d, tc.desc)
		require.Equal(t, uint32(tc.major), devMajor(d), tc.desc)
		require.Equal(t, uint32(tc.minor), devMinor(d), tc.desc)
	}
}
