package syscalls

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"
)

// The sysroot follows qemu-user's -L prefix (QEMU_LD_PREFIX): an absolute
// guest path that exists below the sysroot is looked up there, any other
// in the guest root. That is how a dynamic program built by the cross
// toolchain finds its interpreter (/lib/ld-linux-riscv64-lp64d.so.1 is
// /usr/riscv64-linux-gnu/lib/ld-linux-riscv64-lp64d.so.1 on a Debian host
// with libc6-riscv64-cross) and its libraries (ld.so tries
// /lib/libc.so.6 among its default directories), while the program still
// sees the host's other files. "/" itself is never redirected.

// setSysroot records host directory dir, which must lie inside the guest
// root, as the sysroot.
func (k *Kernel) setSysroot(dir string) error {
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return fmt.Errorf("sysroot %s: not a directory", dir)
	}
	real, err := realDir(dir)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("sysroot %s: %v", dir, err)
	}
	g, ok := k.GuestPath(real)
	if !ok {
		return fmt.Errorf("sysroot %s is outside the guest root %s: the guest could not read its libraries", dir, k.rootDir)
	}
	if g != "/" {
		k.sysroot, k.sysrootDir = g, real
	}
	return nil
}

// Sysroot returns the guest path of the sysroot, "" if there is none.
func (k *Kernel) Sysroot() string { return k.sysroot }

// inSysroot resolves absolute path p below the sysroot, if it exists there.
func (k *Kernel) inSysroot(p string, follow bool) (*lookup, bool) {
	if k.sysroot == "" || !strings.HasPrefix(p, "/") || path.Clean(p) == "/" {
		return nil, false
	}
	l, e := k.walk(atFDCWD, k.sysroot+p, follow)
	if e != 0 {
		return nil, false
	}
	if l.obj == nil {
		l.close()
		return nil, false
	}
	return l, true
}

// ExecFile returns the host path of the executable file at guest path p
// (absolute, or relative to the working directory), looked up as the
// guest's open would (sysroot first, symlinks followed inside the root).
// The loader reads a dynamic program's interpreter through it.
func (k *Kernel) ExecFile(p string) (string, error) {
	l, e := k.resolveExisting(atFDCWD, p, true)
	if e != 0 {
		return "", e
	}
	defer l.close()
	switch {
	case l.obj.isDir():
		return "", EISDIR
	case !l.obj.isReg():
		return "", EACCES // execve: not a regular file
	}
	return k.hostPath(l), nil
}
