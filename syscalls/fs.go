package syscalls

import (
	"path"
	"strconv"
	"strings"
)

// The guest's file system is the host directory Config.Root seen as "/",
// with chroot semantics implemented here rather than by the host: every
// path is walked component by component on held directory descriptors,
// ".." stops at the root, and symbolic links are read and re-walked
// inside the root (an absolute target starts again at the guest root).
// See sandbox_linux.go: the sandbox decides on opened objects, never on
// names.

const atFDCWD = -100 // AT_FDCWD

// baseDir returns the guest directory relative paths start from: the cwd
// for AT_FDCWD, else the directory open as dirfd.
func (k *Kernel) baseDir(dirfd int32) (string, Errno) {
	if dirfd == atFDCWD {
		return k.cwd, 0
	}
	of, e := k.file(dirfd)
	if e != 0 {
		return "", e
	}
	if !of.isDir {
		return "", ENOTDIR
	}
	return of.guest, 0
}

// lexical returns the clean absolute guest path of p relative to dirfd
// without touching the file system (for virtual files such as /dev/null).
func (k *Kernel) lexical(dirfd int32, p string) (string, Errno) {
	if strings.HasPrefix(p, "/") {
		return path.Clean(p), 0
	}
	base, e := k.baseDir(dirfd)
	if e != 0 {
		return "", e
	}
	return path.Join(base, p), 0
}

func splitPath(p string) []string {
	var out []string
	for _, c := range strings.Split(p, "/") {
		if c != "" && c != "." {
			out = append(out, c)
		}
	}
	return out
}

// procSelf recognises /proc/self/..., /proc/thread-self/... and
// /proc/<pid>/... (our pid) and returns the remainder; /proc/mounts,
// a link to self/mounts, is "mounts".
func procSelf(g string, pid int32) (string, bool) {
	if g == "/proc/mounts" { // a link to self/mounts
		return "mounts", true
	}
	rest, ok := strings.CutPrefix(g, "/proc/")
	if !ok {
		return "", false
	}
	first, tail, _ := strings.Cut(rest, "/")
	switch first {
	case "self", "thread-self", strconv.Itoa(int(pid)):
		return tail, true
	}
	return "", false
}

// devFiles are the virtual files under /dev.
var devFiles = map[string]fileKind{
	"/dev/null":    kindNull,
	"/dev/zero":    kindZero,
	"/dev/urandom": kindRandom,
	"/dev/random":  kindRandom,
	"/dev/full":    kindFull,
}
