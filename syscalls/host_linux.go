package syscalls

import (
	"io/fs"
	"os"
	"syscall"
	"unsafe"
)

// Host-specific pieces for a Linux host: struct stat, terminal ioctls,
// access(2). The terminal structures of the host kernel are copied as
// bytes: x86-64, arm64 and riscv64 all use asm-generic termbits.

// hostStat converts host file metadata (from Lstat/Stat/fstat) to statInfo.
func hostStat(fi fs.FileInfo) statInfo {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fallbackStat(fi)
	}
	return statInfo{
		dev: uint64(st.Dev), ino: uint64(st.Ino), mode: uint32(st.Mode), nlink: uint32(st.Nlink),
		uid: st.Uid, gid: st.Gid, rdev: uint64(st.Rdev), size: st.Size,
		blksize: int64(st.Blksize), blocks: st.Blocks,
		atime: timespec{int64(st.Atim.Sec), int64(st.Atim.Nsec)},
		mtime: timespec{int64(st.Mtim.Sec), int64(st.Mtim.Nsec)},
		ctime: timespec{int64(st.Ctim.Sec), int64(st.Ctim.Nsec)},
	}
}

// hostIno returns the inode number of fi (0 if unknown).
func hostIno(fi fs.FileInfo) uint64 {
	if fi == nil {
		return 0
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Ino)
	}
	return 0
}

func hostAccess(path string, mode uint32) error { return syscall.Access(path, mode) }

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
