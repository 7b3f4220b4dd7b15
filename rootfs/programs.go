package rootfs

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Some of what maintainer scripts do is the work of the root's own
// programs, which only the simulator can run: runMaintainerPrograms runs
// them through Options.Run, as the scripts would for a first install.
//
//   - libc-bin's trigger runs ldconfig: /etc/ld.so.cache (ldconfig -p and
//     Python's ctypes.util.find_library read it) and the soname links a
//     library lacks.
//   - python3.N-minimal's and python3.N's postinsts byte-compile the
//     standard library (/usr/bin/python3.N -E -S py_compile.py FILES),
//     and each python3-* package's py3compile its modules in
//     /usr/lib/python3/dist-packages. Without the byte code every Python
//     start compiled what it imported: 559M instructions to import json,
//     re and collections, against 85M with it, and a warning for each
//     __pycache__ the sandbox refused.
func runMaintainerPrograms(root string, run func(string, []string) (int, string, error)) error {
	if exists(root, "/sbin/ldconfig") {
		status, out, err := run(root, []string{"/sbin/ldconfig"})
		if err != nil {
			return errorf("the root's ldconfig: %v", err)
		}
		if status != 0 || out != "" {
			return errorf("the root's ldconfig: exit status %d: %s", status, strings.TrimSpace(out))
		}
	}
	for _, py := range pythons(root) {
		dirs := []string{"/usr/lib/" + py}
		if exists(root, "/usr/lib/python3/dist-packages") {
			dirs = append(dirs, "/usr/lib/python3/dist-packages")
		}
		// compileall's status is 1 when a file does not compile (the test
		// suite's deliberately bad files): the rest is compiled all the same.
		argv := append([]string{"/usr/bin/" + py, "-E", "-S", "-m", "compileall", "-q"}, dirs...)
		status, out, err := run(root, argv)
		if err != nil {
			return errorf("byte-compiling %s: %v", py, err)
		}
		if status > 1 {
			return errorf("byte-compiling %s: exit status %d: %s", py, status, strings.TrimSpace(out))
		}
	}
	return nil
}

// pythons lists the root's Python 3 versions (python3.N with its
// standard library), in order.
func pythons(root string) []string {
	ents, err := os.ReadDir(filepath.Join(root, "usr", "lib"))
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		minor, ok := strings.CutPrefix(e.Name(), "python3.")
		if !ok || !isDigits(minor) {
			continue
		}
		if exists(root, "/usr/bin/"+e.Name()) && exists(root, "/usr/lib/"+e.Name()+"/os.py") {
			out = append(out, e.Name())
		}
	}
	sort.Strings(out)
	return out
}
