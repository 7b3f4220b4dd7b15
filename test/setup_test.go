package test

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSetupInstallsWhatTheBuildUses guards the fresh-machine rule: CI runs
// on a machine where earlier work may have installed packages by hand, so
// a green build proves nothing about a new one. It finds the files the
// build really uses (the cross compiler, the C library headers and crt
// files it links, qemu-riscv64, libunicorn.so.2, mmdebstrap, Debian's
// archive keyring and valgrind's callgrind_annotate), asks dpkg which package
// owns each, and checks that toolchain/setup.sh installs that package or
// one that hard-depends on it (Depends/Pre-Depends, transitively).
func TestSetupInstallsWhatTheBuildUses(t *testing.T) {
	if _, err := exec.LookPath("dpkg"); err != nil {
		missing(t, "dpkg is not available: not a Debian machine")
		return
	}
	prefix := os.Getenv("RISCV_PREFIX")
	if prefix == "" {
		prefix = "riscv64-linux-gnu-"
	}
	if prefix != "riscv64-linux-gnu-" {
		t.Skipf("RISCV_PREFIX=%s is the user's own toolchain; setup.sh does not install it", prefix)
	}
	installs := setupPackages(t)
	closure := hardDependencyClosure(t, installs)

	used := buildFiles(t, prefix)
	require.NotEmpty(t, used)
	for what, path := range used {
		owners := dpkgOwners(t, path)
		require.NotEmpty(t, owners, "%s (%s) belongs to no Debian package", what, path)
		covered := false
		for _, o := range owners {
			if closure[o] {
				covered = true
			}
		}
		require.True(t, covered, "%s (%s) comes from %v, which toolchain/setup.sh neither installs nor pulls in as a hard dependency of %v",
			what, path, owners, installs)
	}
}

var setupPkgLine = regexp.MustCompile(`^PKG_[A-Z]+=([a-z0-9.+-]+)\s*$`)

// setupPackages reads the PKG_*= lines of toolchain/setup.sh: the packages
// it installs.
func setupPackages(t *testing.T) []string {
	f, err := os.Open(filepath.Join(repoRoot, "toolchain", "setup.sh"))
	require.NoError(t, err)
	defer f.Close()
	var pkgs []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if m := setupPkgLine.FindStringSubmatch(sc.Text()); m != nil {
			pkgs = append(pkgs, m[1])
		}
	}
	require.NotEmpty(t, pkgs, "toolchain/setup.sh names no PKG_*= packages")
	return pkgs
}

// hardDependencyClosure returns the packages roots pull in through
// Depends and Pre-Depends (any installed alternative of an "a | b" counts).
func hardDependencyClosure(t *testing.T, roots []string) map[string]bool {
	seen := map[string]bool{}
	queue := append([]string(nil), roots...)
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if seen[p] {
			continue
		}
		seen[p] = true
		out, err := exec.Command("dpkg-query", "-W", "-f", "${Depends}, ${Pre-Depends}", p).Output()
		if err != nil {
			continue // not installed: its dependencies are unknown here
		}
		for _, dep := range strings.Split(string(out), ",") {
			for _, alt := range strings.Split(dep, "|") {
				name := strings.TrimSpace(alt)
				if i := strings.IndexAny(name, " (:"); i >= 0 {
					name = name[:i]
				}
				if name != "" && !seen[name] {
					queue = append(queue, name)
				}
			}
		}
	}
	return seen
}

// buildFiles returns, by what they are, the files the build uses.
func buildFiles(t *testing.T, prefix string) map[string]string {
	files := map[string]string{}
	gcc, err := exec.LookPath(prefix + "gcc")
	if err != nil {
		missing(t, "%sgcc is not installed (run 'make setup')", prefix)
		return files
	}
	files["cross compiler"] = gcc
	if real, err := filepath.EvalSymlinks(gcc); err == nil && real != gcc {
		files["cross compiler driver"] = real
	}
	for _, f := range []string{"crt1.o", "crti.o", "libc.a", "libm.a"} {
		out, err := exec.Command(gcc, "-print-file-name="+f).Output()
		require.NoError(t, err)
		p := strings.TrimSpace(string(out))
		require.True(t, filepath.IsAbs(p), "%s does not find %s (it printed %q)", gcc, f, p)
		files["C library "+f] = p
	}
	// The headers a benchmark-style program includes: the compiler's
	// dependency list names each file it read.
	dir := t.TempDir()
	src := filepath.Join(dir, "h.c")
	require.NoError(t, os.WriteFile(src, []byte("#include <stdint.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include <math.h>\nint main(void){return 0;}\n"), 0o644))
	out, err := exec.Command(gcc, "-M", src).CombinedOutput()
	require.NoError(t, err, "%s cannot preprocess a program that includes <stdint.h>: %s", gcc, out)
	var headers []string
	for _, w := range strings.Fields(strings.ReplaceAll(string(out), "\\\n", " ")) {
		if strings.HasSuffix(w, ".h") && filepath.IsAbs(w) {
			headers = append(headers, w)
		}
	}
	sort.Strings(headers)
	for _, h := range headers {
		files["header "+filepath.Base(filepath.Dir(h))+"/"+filepath.Base(h)] = h
	}
	hostFiles(t, files)
	if q, err := exec.LookPath("qemu-riscv64"); err == nil {
		files["qemu-riscv64"] = q
	} else {
		missing(t, "qemu-riscv64 is not installed (run 'make setup')")
	}
	// rvsim rootfs create (make setup's build/rootfs).
	if m, err := exec.LookPath("mmdebstrap"); err == nil {
		files["mmdebstrap"] = m
	} else {
		missing(t, "mmdebstrap is not installed (run 'make setup')")
	}
	files["Debian archive keyring"] = "/usr/share/keyrings/debian-archive-keyring.gpg"
	// test/csmith_test.go's random programs and the header they include.
	if c, err := exec.LookPath("csmith"); err == nil {
		files["csmith"] = c
	} else {
		missing(t, "csmith is not installed (run 'make setup')")
	}
	files["csmith.h"] = "/usr/include/csmith/csmith.h"
	// rvsim run --callgrind's test reads its file with callgrind_annotate.
	if a, err := exec.LookPath("callgrind_annotate"); err == nil {
		files["callgrind_annotate"] = a
	} else {
		missing(t, "callgrind_annotate is not installed (run 'make setup')")
	}
	// make test's cycle-exactness guard (bench/timing-guard.sh) reads JSON with jq.
	if j, err := exec.LookPath("jq"); err == nil {
		files["jq"] = j
	} else {
		missing(t, "jq is not installed (run 'make setup')")
	}
	// rootfs/certs_test.go: the host's openssl and Mozilla's certificates.
	if o, err := exec.LookPath("openssl"); err == nil {
		files["openssl"] = o
	} else {
		missing(t, "openssl is not installed (run 'make setup')")
	}
	if certs, _ := filepath.Glob("/usr/share/ca-certificates/mozilla/*.crt"); len(certs) > 0 {
		files["Mozilla's CA certificates"] = certs[0]
	} else {
		missing(t, "ca-certificates is not installed (run 'make setup')")
	}
	if lib := unicornLibrary(); lib != "" {
		files["libunicorn.so.2"] = lib
	} else {
		missing(t, "libunicorn.so.2 is not installed (run 'make setup')")
	}
	return files
}

// hostFiles adds the host C compiler's files the signal tests use: the
// compiler, the crt file and the headers of a program with signals.
func hostFiles(t *testing.T, files map[string]string) {
	cc, err := exec.LookPath("cc")
	if err != nil {
		missing(t, "no host C compiler cc (run 'make setup')")
		return
	}
	real, err := filepath.EvalSymlinks(cc) // cc is an alternatives link
	require.NoError(t, err)
	files["host compiler"] = real
	out, err := exec.Command(cc, "-print-file-name=crt1.o").Output()
	require.NoError(t, err)
	files["host C library crt1.o"] = filepath.Clean(strings.TrimSpace(string(out)))
	src := filepath.Join(t.TempDir(), "s.c")
	require.NoError(t, os.WriteFile(src, []byte("#include <signal.h>\n#include <stdio.h>\nint main(void){return 0;}\n"), 0o644))
	out, err = exec.Command(cc, "-M", src).CombinedOutput()
	require.NoError(t, err, "cc cannot preprocess a program that includes <signal.h>: %s", out)
	for _, w := range strings.Fields(strings.ReplaceAll(string(out), "\\\n", " ")) {
		if strings.HasSuffix(w, "/signal.h") && filepath.IsAbs(w) {
			files["host header "+w] = filepath.Clean(w)
		}
	}
}

// unicornLibrary finds libunicorn.so.2 where the dynamic linker would.
func unicornLibrary() string {
	if out, err := exec.Command("ldconfig", "-p").Output(); err == nil {
		for _, line := range strings.Split(string(out), "\n") {
			if strings.Contains(line, "libunicorn.so.2 ") {
				if i := strings.LastIndex(line, "=> "); i >= 0 {
					return strings.TrimSpace(line[i+3:])
				}
			}
		}
	}
	m, _ := filepath.Glob("/usr/lib/*/libunicorn.so.2")
	if len(m) > 0 {
		return m[0]
	}
	return ""
}

// dpkgOwners returns the packages that own path (or, under usrmerge, the
// same file by its /lib or /bin name).
func dpkgOwners(t *testing.T, path string) []string {
	try := []string{path}
	if real, err := filepath.EvalSymlinks(path); err == nil && real != path {
		try = append(try, real)
	}
	for _, p := range append([]string(nil), try...) {
		if strings.HasPrefix(p, "/usr/") {
			try = append(try, strings.TrimPrefix(p, "/usr"))
		}
	}
	for _, p := range try {
		out, err := exec.Command("dpkg", "-S", p).Output()
		if err != nil {
			continue
		}
		var owners []string
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			if i := strings.Index(line, ": "); i > 0 {
				for _, o := range strings.Split(line[:i], ",") {
					o = strings.TrimSpace(o)
					if j := strings.IndexByte(o, ':'); j >= 0 {
						o = o[:j] // drop the architecture qualifier
					}
					owners = append(owners, o)
				}
			}
		}
		if len(owners) > 0 {
			return owners
		}
	}
	return nil
}
