package syscalls

import (
	"io/fs"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Host-specific pieces for a Linux host: struct stat, terminal ioctls,
// access(2). The terminal structures of the host kernel are copied as
// bytes: x86-64, arm64 and riscv64 all use asm-generic termbits.

// hostFileClock is the host clock Linux stamps file times with: the coarse
// real-time clock, which lags time.Now by up to a scheduler tick, so a file
// written just after time.Now can carry an earlier mtime.
func hostFileClock() int64 {
	var ts unix.Timespec
	if unix.ClockGettime(unix.CLOCK_REALTIME_COARSE, &ts) != nil {
		return time.Now().UnixNano()
	}
	return ts.Nano()
}

// hostStat converts host file metadata (from Lstat/Stat/fstat) to statInfo.
func hostStat(fi fs.FileInfo) statInfo {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fallbackStat(fi)
	}
	return statOf(st)
}

// statOf converts a host struct stat.
func statOf(st *syscall.Stat_t) statInfo {
	return statInfo{
		dev: uint64(st.Dev), ino: uint64(st.Ino), mode: uint32(st.Mode), nlink: uint32(st.Nlink),
		uid: st.Uid, gid: st.Gid, rdev: uint64(st.Rdev), size: st.Size,
		blksize: int64(st.Blksize), blocks: st.Blocks,
		atime: timespec{int64(st.Atim.Sec), int64(st.Atim.Nsec)},
		mtime: timespec{int64(st.Mtim.Sec), int64(st.Mtim.Nsec)},
		ctime: timespec{int64(st.Ctim.Sec), int64(st.Ctim.Nsec)},
	}
}

func ioctl(f *os.File, req uintptr, arg unsafe.Pointer) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var errno syscall.Errno
	if err := rc.Control(func(fd uintptr) {
		_, _, errno = syscall.Syscall(syscall.SYS_IOCTL, fd, req, uintptr(arg))
	}); err != nil {
		return err
	}
	if errno != 0 {
		return errno
	}
	return nil
}

func hostTermios(f *os.File) ([]byte, error) {
	b := make([]byte, 64)
	return b, ioctl(f, tcgets, unsafe.Pointer(&b[0]))
}

func hostWinsize(f *os.File) ([]byte, error) {
	b := make([]byte, 16)
	return b, ioctl(f, tiocgwinsz, unsafe.Pointer(&b[0]))
}

func hostIsTerminal(f *os.File) bool {
	_, err := hostTermios(f)
	return err == nil
}

func hostSetAppend(f *os.File, on bool) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var errno syscall.Errno
	if err := rc.Control(func(fd uintptr) {
		var fl uintptr
		fl, _, errno = syscall.Syscall(syscall.SYS_FCNTL, fd, syscall.F_GETFL, 0)
		if errno != 0 {
			return
		}
		if on {
			fl |= syscall.O_APPEND
		} else {
			fl &^= syscall.O_APPEND
		}
		_, _, errno = syscall.Syscall(syscall.SYS_FCNTL, fd, syscall.F_SETFL, fl)
	}); err != nil {
		return err
	}
	if errno != 0 {
		return errno
	}
	return nil
}

// withFd runs f on the host descriptor of an open file.
func withFd(f *os.File, fn func(fd uintptr) syscall.Errno) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var errno syscall.Errno
	if err := rc.Control(func(fd uintptr) { errno = fn(fd) }); err != nil {
		return err
	}
	if errno != 0 {
		return errno
	}
	return nil
}

// hostUtimens sets the access and modification times of the open file
// f; a time of utimeOmit is left alone.
func hostUtimens(f *os.File, times [2]timespec) error {
	ts := [2]syscall.Timespec{{Sec: times[0].sec, Nsec: times[0].nsec}, {Sec: times[1].sec, Nsec: times[1].nsec}}
	return withFd(f, func(fd uintptr) syscall.Errno {
		_, _, e := syscall.Syscall6(syscall.SYS_UTIMENSAT, fd, 0, uintptr(unsafe.Pointer(&ts[0])), 0, 0, 0)
		return e
	})
}

// hostStatfs describes the file system holding the open file f.
func hostStatfs(f *os.File) (statfsInfo, error) {
	var s statfsInfo
	err := withFd(f, func(fd uintptr) syscall.Errno {
		var err error
		s, err = statfsFd(int(fd))
		if err != nil {
			return err.(syscall.Errno)
		}
		return 0
	})
	return s, err
}

// statfsFd is fstatfs(2).
func statfsFd(fd int) (statfsInfo, error) {
	var st syscall.Statfs_t
	if err := syscall.Fstatfs(fd, &st); err != nil {
		return statfsInfo{}, err
	}
	return statfsInfo{
		typ: uint64(st.Type), bsize: uint64(st.Bsize), blocks: st.Blocks, bfree: st.Bfree, bavail: st.Bavail,
		files: st.Files, ffree: st.Ffree, fsid: [2]uint32{uint32(st.Fsid.X__val[0]), uint32(st.Fsid.X__val[1])},
		namelen: uint64(st.Namelen), frsize: uint64(st.Frsize), flags: uint64(st.Flags),
	}, nil
}

// hostFallocate is fallocate(2) on the open file f.
func hostFallocate(f *os.File, mode uint32, off, n int64) error {
	return withFd(f, func(fd uintptr) syscall.Errno {
		if e := syscall.Fallocate(int(fd), mode, off, n); e != nil {
			return e.(syscall.Errno)
		}
		return 0
	})
}

// hostFD is a host descriptor a ppoll or pselect6 waits on.
type hostFD struct {
	f               *os.File
	events, revents uint32 // poll bits: the host's are the guest's (asm-generic/poll.h)
}

// hostPoll polls fds on the host for up to ns nanoseconds of wall-clock
// time (< 0: without a limit; 0: just look), sets each revents and
// reports whether any is ready. A host signal (the Go runtime's own)
// interrupting the wait resumes it for the time left.
func hostPoll(fds []hostFD, ns int64) bool {
	if len(fds) == 0 {
		return false
	}
	pfds := make([]unix.PollFd, len(fds))
	for i, h := range fds {
		pfds[i] = unix.PollFd{Fd: int32(h.f.Fd()), Events: int16(h.events)}
	}
	end := time.Now().Add(time.Duration(ns))
	for {
		var ts *unix.Timespec
		if ns >= 0 {
			left := max(time.Until(end), 0)
			t := unix.NsecToTimespec(int64(left))
			ts = &t
		}
		n, err := unix.Ppoll(pfds, ts, nil)
		if err == unix.EINTR {
			continue
		}
		for i := range fds {
			fds[i].revents = uint32(uint16(pfds[i].Revents))
		}
		return err == nil && n > 0
	}
}

// hostDup duplicates f's descriptor (close-on-exec), for a mapping that
// outlives the guest's descriptor.
func hostDup(f *os.File) (*os.File, error) {
	var nfd int
	err := withFd(f, func(fd uintptr) syscall.Errno {
		n, err := unix.FcntlInt(fd, unix.F_DUPFD_CLOEXEC, 0)
		if err != nil {
			return err.(syscall.Errno)
		}
		nfd = n
		return 0
	})
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(nfd), f.Name()), nil
}

// hostStatus returns the value of rvsim's own /proc/self/status field
// name, parsed in base (ok false: no such field, or no such file).
func hostStatus(name string, base int) (uint64, bool) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, name+":"); ok {
			x, err := strconv.ParseUint(strings.TrimSpace(v), base, 64)
			return x, err == nil
		}
	}
	return 0, false
}

// hostCapSets returns rvsim's own process's capability sets, a guest's at
// the start; without them, none but a full bounding set.
func hostCapSets() capSets {
	s := capSets{bnd: capAll}
	for _, f := range []struct {
		name string
		set  *uint64
	}{{"CapInh", &s.inh}, {"CapPrm", &s.prm}, {"CapEff", &s.eff}, {"CapBnd", &s.bnd}, {"CapAmb", &s.amb}} {
		if x, ok := hostStatus(f.name, 16); ok {
			*f.set = x & capAll
		}
	}
	return s
}

// hostUmask is rvsim's own file-mode creation mask, which the host
// kernel applies to what the guest creates on top of the guest's own
// (read once from /proc/self/status: umask(2) would change it).
var hostUmask = sync.OnceValue(func() uint32 {
	if m, ok := hostStatus("Umask", 8); ok {
		return uint32(m)
	}
	return 0o022
})
