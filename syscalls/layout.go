package syscalls

// Structure layouts of the riscv64 Linux user ABI. Every size and offset
// here is checked by layout_test.go against testdata/layout.golden, the
// output of testdata/layout.c compiled with riscv64-linux-gnu-gcc against
// the kernel's uapi headers and run under qemu-riscv64.

// struct stat (asm-generic/stat.h)
const (
	statSize         = 128
	statDevOff       = 0
	statInoOff       = 8
	statModeOff      = 16
	statNlinkOff     = 20
	statUIDOff       = 24
	statGIDOff       = 28
	statRdevOff      = 32
	statSizeOff      = 48
	statBlksizeOff   = 56
	statBlocksOff    = 64
	statAtimeOff     = 72
	statAtimeNsecOff = 80
	statMtimeOff     = 88
	statMtimeNsecOff = 96
	statCtimeOff     = 104
	statCtimeNsecOff = 112
)

// struct statx (linux/stat.h)
const (
	statxSize          = 256
	statxMaskOff       = 0
	statxBlksizeOff    = 4
	statxAttributesOff = 8
	statxNlinkOff      = 16
	statxUIDOff        = 20
	statxGIDOff        = 24
	statxModeOff       = 28
	statxInoOff        = 32
	statxSizeOff       = 40
	statxBlocksOff     = 48
	statxAttrMaskOff   = 56
	statxAtimeOff      = 64
	statxBtimeOff      = 80
	statxCtimeOff      = 96
	statxMtimeOff      = 112
	statxRdevMajorOff  = 128
	statxRdevMinorOff  = 132
	statxDevMajorOff   = 136
	statxDevMinorOff   = 140
	statxTsNsecOff     = 8 // struct statx_timestamp: tv_sec, tv_nsec, __reserved (16 bytes)

	statxBasicStats = 0x7ff // STATX_BASIC_STATS
	statxReserved   = 0x80000000
)

// struct linux_dirent64
const (
	direntInoOff    = 0
	direntOffOff    = 8
	direntReclenOff = 16
	direntTypeOff   = 18
	direntNameOff   = 19
)

// Other structures.
const (
	timespecSize  = 16  // struct __kernel_timespec
	timevalSize   = 16  // struct timeval
	iovecSize     = 16  // struct iovec
	utsFieldLen   = 65  // struct new_utsname: six char[65]
	utsnameSize   = 390 // six fields
	rlimitSize    = 16  // struct rlimit / rlimit64
	rusageSize    = 144 // struct rusage: two timevals, 14 longs
	rusageMaxRSS  = 32  // offsetof(struct rusage, ru_maxrss)
	sigactionSize = 24  // struct sigaction, no SA_RESTORER on riscv: handler, flags, mask
	stackTSize    = 24  // stack_t: ss_sp, ss_flags (int, padded), ss_size
	sysinfoSize   = 112 // struct sysinfo
	tmsSize       = 32  // struct tms: four clock_t
	flockSize     = 32  // struct flock
	hwprobePair   = 16  // struct riscv_hwprobe: s64 key, u64 value
)

// struct sysinfo offsets
const (
	sysinfoLoadsOff    = 8
	sysinfoTotalramOff = 32
	sysinfoFreeramOff  = 40
	sysinfoProcsOff    = 80
	sysinfoMemUnitOff  = 104
)

// File type bits of st_mode.
const (
	sIFMT   = 0o170000
	sIFSOCK = 0o140000
	sIFLNK  = 0o120000
	sIFREG  = 0o100000
	sIFBLK  = 0o060000
	sIFDIR  = 0o040000
	sIFCHR  = 0o020000
	sIFIFO  = 0o010000
)

// timespec is a point in time or a duration.
type timespec struct{ sec, nsec int64 }

func nsToTimespec(ns int64) timespec { return timespec{ns / 1e9, ns % 1e9} }

// statInfo is the file metadata the stat calls report, independent of the
// host's struct stat.
type statInfo struct {
	dev, ino            uint64
	mode, nlink         uint32
	uid, gid            uint32
	rdev                uint64
	size                int64
	blksize             int64
	blocks              int64
	atime, mtime, ctime timespec
}

// encodeStat lays s out as riscv64's struct stat.
func encodeStat(s statInfo) []byte {
	b := make([]byte, statSize)
	put64(b, statDevOff, s.dev)
	put64(b, statInoOff, s.ino)
	put32(b, statModeOff, s.mode)
	put32(b, statNlinkOff, s.nlink)
	put32(b, statUIDOff, s.uid)
	put32(b, statGIDOff, s.gid)
	put64(b, statRdevOff, s.rdev)
	put64(b, statSizeOff, uint64(s.size))
	put32(b, statBlksizeOff, uint32(s.blksize))
	put64(b, statBlocksOff, uint64(s.blocks))
	for _, t := range [...]struct {
		off, noff int
		ts        timespec
	}{{statAtimeOff, statAtimeNsecOff, s.atime}, {statMtimeOff, statMtimeNsecOff, s.mtime}, {statCtimeOff, statCtimeNsecOff, s.ctime}} {
		put64(b, t.off, uint64(t.ts.sec))
		put64(b, t.noff, uint64(t.ts.nsec))
	}
	return b
}

// devMajor and devMinor split a Linux dev_t (new_encode_dev / glibc's
// gnu_dev_makedev encoding).
func devMajor(d uint64) uint32 { return uint32((d>>8)&0xfff | (d>>32)&^0xfff) }
func devMinor(d uint64) uint32 { return uint32(d&0xff | (d>>12)&^0xff) }

// makedev builds a dev_t from major and minor numbers.
func makedev(major, minor uint64) uint64 {
	return minor&0xff | (major&0xfff)<<8 | (minor&^0xff)<<12 | (major&^0xfff)<<32
}

// encodeStatx lays s out as struct statx (basic stats; no birth time).
func encodeStatx(s statInfo) []byte {
	b := make([]byte, statxSize)
	put32(b, statxMaskOff, statxBasicStats)
	put32(b, statxBlksizeOff, uint32(s.blksize))
	put32(b, statxNlinkOff, s.nlink)
	put32(b, statxUIDOff, s.uid)
	put32(b, statxGIDOff, s.gid)
	put16(b, statxModeOff, uint16(s.mode))
	put64(b, statxInoOff, s.ino)
	put64(b, statxSizeOff, uint64(s.size))
	put64(b, statxBlocksOff, uint64(s.blocks))
	for _, t := range [...]struct {
		off int
		ts  timespec
	}{{statxAtimeOff, s.atime}, {statxCtimeOff, s.ctime}, {statxMtimeOff, s.mtime}} {
		put64(b, t.off, uint64(t.ts.sec))
		put32(b, t.off+statxTsNsecOff, uint32(t.ts.nsec))
	}
	put32(b, statxRdevMajorOff, devMajor(s.rdev))
	put32(b, statxRdevMinorOff, devMinor(s.rdev))
	put32(b, statxDevMajorOff, devMajor(s.dev))
	put32(b, statxDevMinorOff, devMinor(s.dev))
	return b
}

func encodeTimespec(t timespec) []byte {
	b := make([]byte, timespecSize)
	put64(b, 0, uint64(t.sec))
	put64(b, 8, uint64(t.nsec))
	return b
}
