package syscalls

import (
	"io/fs"
	"path"
	"path/filepath"
	"strconv"
	"strings"
)

// The guest's file system is the host directory Config.Root seen as "/",
// with chroot semantics implemented here rather than by the host: every
// path is walked component by component, ".." stops at the root, and
// symbolic links are read and re-walked inside the root (an absolute
// target starts again at the guest root). The result is a path of real
// (non-symlink) directories below the root, which is then opened through
// an os.Root: if the host tree changes under us, os.Root still refuses to
// leave the root.

const atFDCWD = -100 // AT_FDCWD

// resolved is the outcome of a path lookup.
type resolved struct {
	guest  string      // absolute, clean guest path of the object
	rel    string      // host path relative to the root ("." for the root)
	exists bool        // the final component exists (fi is its Lstat)
	fi     fs.FileInfo // Lstat of the object when exists
	dirReq bool        // the path ended in "/": the object must be a directory
}

// host returns the absolute host path of r.
func (k *Kernel) host(r resolved) string { return filepath.Join(k.rootDir, filepath.FromSlash(r.rel)) }

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

// resolveExisting is resolve for a path that must exist (ENOENT).
func (k *Kernel) resolveExisting(dirfd int32, p string, follow bool) (resolved, Errno) {
	r, e := k.resolve(dirfd, p, follow)
	if e == 0 && !r.exists {
		e = ENOENT
	}
	return r, e
}

// resolve looks up guest path p relative to dirfd. follow says whether a
// symlink in the final position is followed (a trailing "/" always
// follows). A missing final component is not an error (exists=false, so
// that creating calls can use the result); a missing or non-directory
// intermediate one is (ENOENT, ENOTDIR). An empty path is ENOENT.
// With a sysroot, an absolute path that exists below it is taken from
// there (see sysroot.go).
func (k *Kernel) resolve(dirfd int32, p string, follow bool) (resolved, Errno) {
	if r, ok := k.inSysroot(p, follow); ok {
		return r, 0
	}
	return k.walk(dirfd, p, follow)
}

// walk is resolve without the sysroot.
func (k *Kernel) walk(dirfd int32, p string, follow bool) (resolved, Errno) {
	if p == "" {
		return resolved{}, ENOENT
	}
	if len(p) >= pathMax {
		return resolved{}, ENAMETOOLONG
	}
	var stack []string // real directories below the root
	if !strings.HasPrefix(p, "/") {
		base, e := k.baseDir(dirfd)
		if e != 0 {
			return resolved{}, e
		}
		stack = splitPath(base)
	}
	todo := splitPath(p)
	dirReq := strings.HasSuffix(p, "/")
	links := 0
	var fi fs.FileInfo
	exists := true
	for len(todo) > 0 {
		name := todo[0]
		todo = todo[1:]
		last := len(todo) == 0
		if name == ".." {
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			fi = nil
			continue
		}
		if len(name) > nameMax {
			return resolved{}, ENAMETOOLONG
		}
		cand := append(stack[:len(stack):len(stack)], name)
		info, err := k.root.Lstat(relOf(cand))
		if err != nil {
			if e := errnoOf(err); e == ENOENT && last {
				stack, fi, exists = cand, nil, false
				break
			} else {
				return resolved{}, e
			}
		}
		if info.Mode()&fs.ModeSymlink != 0 && (!last || follow || dirReq) {
			links++
			if links > maxLinks {
				return resolved{}, ELOOP
			}
			target, err := k.root.Readlink(relOf(cand))
			if err != nil {
				return resolved{}, errnoOf(err)
			}
			if target == "" {
				return resolved{}, ENOENT
			}
			if strings.HasPrefix(target, "/") {
				stack = nil
			}
			if last && strings.HasSuffix(target, "/") {
				dirReq = true
			}
			todo = append(splitPath(target), todo...)
			fi = nil
			continue
		}
		if !last && !info.IsDir() {
			return resolved{}, ENOTDIR
		}
		stack, fi = cand, info
	}
	r := resolved{guest: "/" + strings.Join(stack, "/"), rel: relOf(stack), exists: exists, fi: fi, dirReq: dirReq}
	if exists && fi == nil { // ended on "..", "." or the root
		info, err := k.root.Lstat(r.rel)
		if err != nil {
			return resolved{}, errnoOf(err)
		}
		r.fi = info
	}
	if r.exists && r.dirReq && !r.fi.IsDir() {
		return resolved{}, ENOTDIR
	}
	return r, 0
}

func relOf(stack []string) string {
	if len(stack) == 0 {
		return "."
	}
	return strings.Join(stack, "/")
}

// writable reports whether writes to host path h are allowed.
func (k *Kernel) writable(h string) bool {
	for _, d := range k.writeDirs {
		if within(h, d) {
			return true
		}
	}
	return false
}

// checkWrite allows a modification of every r or refuses it with EACCES
// and a warning (once per path).
func (k *Kernel) checkWrite(rs ...resolved) Errno {
	for _, r := range rs {
		if !k.writable(k.host(r)) {
			k.warnOnce("write "+r.guest, "rvsim: sandbox: refused write access to %s", r.guest)
			return EACCES
		}
	}
	return 0
}

// procSelf recognises /proc/self/..., /proc/thread-self/... and
// /proc/<pid>/... (our pid) and returns the remainder.
func procSelf(g string) (string, bool) {
	rest, ok := strings.CutPrefix(g, "/proc/")
	if !ok {
		return "", false
	}
	first, tail, _ := strings.Cut(rest, "/")
	switch first {
	case "self", "thread-self", strconv.Itoa(fixedPID):
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
