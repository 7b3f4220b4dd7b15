package syscalls

import (
	"errors"
	"io/fs"
	"strconv"
	"syscall"
)

// Errno is a Linux error number as the guest sees it (asm-generic
// errno-base.h and errno.h, which riscv64 uses unchanged). A handler
// returns a non-zero Errno to fail; Syscall hands the guest -errno.
type Errno uint16

// Error numbers.
const (
	EPERM           Errno = 1
	ENOENT          Errno = 2
	ESRCH           Errno = 3
	EINTR           Errno = 4
	EIO             Errno = 5
	ENXIO           Errno = 6
	E2BIG           Errno = 7
	ENOEXEC         Errno = 8
	EBADF           Errno = 9
	ECHILD          Errno = 10
	EAGAIN          Errno = 11
	ENOMEM          Errno = 12
	EACCES          Errno = 13
	EFAULT          Errno = 14
	EBUSY           Errno = 16
	EEXIST          Errno = 17
	EXDEV           Errno = 18
	ENODEV          Errno = 19
	ENOTDIR         Errno = 20
	EISDIR          Errno = 21
	EINVAL          Errno = 22
	ENFILE          Errno = 23
	EMFILE          Errno = 24
	ENOTTY          Errno = 25
	ETXTBSY         Errno = 26
	EFBIG           Errno = 27
	ENOSPC          Errno = 28
	ESPIPE          Errno = 29
	EROFS           Errno = 30
	EMLINK          Errno = 31
	EPIPE           Errno = 32
	EDOM            Errno = 33
	ERANGE          Errno = 34
	EDEADLK         Errno = 35
	ENAMETOOLONG    Errno = 36
	ENOLCK          Errno = 37
	ENOSYS          Errno = 38
	ENOTEMPTY       Errno = 39
	ELOOP           Errno = 40
	ENOMSG          Errno = 42
	EIDRM           Errno = 43
	ENODATA         Errno = 61
	EOVERFLOW       Errno = 75
	ELIBBAD         Errno = 80
	ENOTSOCK        Errno = 88
	EDESTADDRREQ    Errno = 89
	EMSGSIZE        Errno = 90
	ENOPROTOOPT     Errno = 92
	EPROTOTYPE      Errno = 91
	EPROTONOSUPPORT Errno = 93
	ESOCKTNOSUPPORT Errno = 94
	EOPNOTSUPP      Errno = 95
	EAFNOSUPPORT    Errno = 97
	EADDRINUSE      Errno = 98
	EADDRNOTAVAIL   Errno = 99
	ENETUNREACH     Errno = 101
	ECONNABORTED    Errno = 103
	ECONNRESET      Errno = 104
	ENOBUFS         Errno = 105
	EISCONN         Errno = 106
	ENOTCONN        Errno = 107
	ECONNREFUSED    Errno = 111
	ETIMEDOUT       Errno = 110
	EALREADY        Errno = 114
	EINPROGRESS     Errno = 115
	ECANCELED       Errno = 125
	ESTALE          Errno = 116
	EDQUOT          Errno = 122
)

var errnoNames = map[Errno]string{
	EPERM: "EPERM", ENOENT: "ENOENT", ESRCH: "ESRCH", EINTR: "EINTR", EIO: "EIO",
	ENXIO: "ENXIO", E2BIG: "E2BIG", ENOEXEC: "ENOEXEC", EBADF: "EBADF", ECHILD: "ECHILD",
	EAGAIN: "EAGAIN", ENOMEM: "ENOMEM", EACCES: "EACCES", EFAULT: "EFAULT", EBUSY: "EBUSY",
	EEXIST: "EEXIST", EXDEV: "EXDEV", ENODEV: "ENODEV", ENOTDIR: "ENOTDIR", EISDIR: "EISDIR",
	EINVAL: "EINVAL", ENFILE: "ENFILE", EMFILE: "EMFILE", ENOTTY: "ENOTTY", ETXTBSY: "ETXTBSY",
	EFBIG: "EFBIG", ENOSPC: "ENOSPC", ESPIPE: "ESPIPE", EROFS: "EROFS", EMLINK: "EMLINK",
	EPIPE: "EPIPE", EDOM: "EDOM", ERANGE: "ERANGE", EDEADLK: "EDEADLK",
	ENAMETOOLONG: "ENAMETOOLONG", ENOLCK: "ENOLCK", ENOSYS: "ENOSYS", ENOTEMPTY: "ENOTEMPTY",
	ELOOP: "ELOOP", ENOMSG: "ENOMSG", EIDRM: "EIDRM", ENODATA: "ENODATA", EOVERFLOW: "EOVERFLOW", ELIBBAD: "ELIBBAD", ENOTSOCK: "ENOTSOCK",
	EPROTONOSUPPORT: "EPROTONOSUPPORT", ESOCKTNOSUPPORT: "ESOCKTNOSUPPORT", ENOTCONN: "ENOTCONN",
	ECONNREFUSED: "ECONNREFUSED", EDESTADDRREQ: "EDESTADDRREQ", EMSGSIZE: "EMSGSIZE",
	ENOPROTOOPT: "ENOPROTOOPT", EAFNOSUPPORT: "EAFNOSUPPORT", EISCONN: "EISCONN", ENOBUFS: "ENOBUFS",
	EPROTOTYPE: "EPROTOTYPE", EADDRINUSE: "EADDRINUSE", EADDRNOTAVAIL: "EADDRNOTAVAIL", ENETUNREACH: "ENETUNREACH",
	ECONNABORTED: "ECONNABORTED", ECONNRESET: "ECONNRESET", EALREADY: "EALREADY", EINPROGRESS: "EINPROGRESS",
	EOPNOTSUPP: "EOPNOTSUPP", ECANCELED: "ECANCELED", ETIMEDOUT: "ETIMEDOUT", ESTALE: "ESTALE", EDQUOT: "EDQUOT",
}

func (e Errno) String() string {
	if s, ok := errnoNames[e]; ok {
		return s
	}
	return "errno " + strconv.Itoa(int(e))
}

func (e Errno) Error() string { return e.String() }

// hostErrnos translates the host's error numbers (which differ between
// host kernels) to the guest's.
var hostErrnos = map[syscall.Errno]Errno{
	syscall.EPERM: EPERM, syscall.ENOENT: ENOENT, syscall.ESRCH: ESRCH, syscall.EINTR: EINTR,
	syscall.EIO: EIO, syscall.ENXIO: ENXIO, syscall.E2BIG: E2BIG, syscall.ENOEXEC: ENOEXEC,
	syscall.EBADF: EBADF, syscall.ECHILD: ECHILD, syscall.EAGAIN: EAGAIN, syscall.ENOMEM: ENOMEM,
	syscall.EACCES: EACCES, syscall.EFAULT: EFAULT, syscall.EBUSY: EBUSY, syscall.EEXIST: EEXIST,
	syscall.EXDEV: EXDEV, syscall.ENODEV: ENODEV, syscall.ENOTDIR: ENOTDIR, syscall.EISDIR: EISDIR,
	syscall.EINVAL: EINVAL, syscall.ENFILE: ENFILE, syscall.EMFILE: EMFILE, syscall.ENOTTY: ENOTTY,
	syscall.ETXTBSY: ETXTBSY, syscall.EFBIG: EFBIG, syscall.ENOSPC: ENOSPC, syscall.ESPIPE: ESPIPE,
	syscall.EROFS: EROFS, syscall.EMLINK: EMLINK, syscall.EPIPE: EPIPE, syscall.ERANGE: ERANGE,
	syscall.ENAMETOOLONG: ENAMETOOLONG, syscall.ENOSYS: ENOSYS, syscall.ENOTEMPTY: ENOTEMPTY,
	syscall.ELOOP: ELOOP, syscall.EOVERFLOW: EOVERFLOW, syscall.ENOTSOCK: ENOTSOCK,
	syscall.EOPNOTSUPP: EOPNOTSUPP, syscall.ETIMEDOUT: ETIMEDOUT, syscall.ESTALE: ESTALE,
	syscall.EDQUOT: EDQUOT,
}

// errnoOf maps an error from a host file operation to the guest errno.
// Errors without a host errno become EIO (ENOENT/EEXIST/EACCES when the
// os package classifies them).
func errnoOf(err error) Errno {
	if err == nil {
		return 0
	}
	var e Errno
	if errors.As(err, &e) {
		return e
	}
	var he syscall.Errno
	if errors.As(err, &he) {
		if g, ok := hostErrnos[he]; ok {
			return g
		}
		return EIO
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return ENOENT
	case errors.Is(err, fs.ErrExist):
		return EEXIST
	case errors.Is(err, fs.ErrPermission):
		return EACCES
	}
	return EIO
}
