// Package rootfs builds a riscv64 root file system from Debian's packages,
// for programs rvsim runs with --root (a guest "/" of their own): Debian's
// riscv64 python3, sqlite3, lua5.4, cc1 and their libraries.
//
// The work is done by mmdebstrap, Debian's own tool for it, in its
// extract variant: apt resolves the dependencies of the packages asked for
// and downloads them for riscv64, verifying the archive's signatures with
// Debian's keyring (debian-archive-keyring; never trusted=yes), and the
// packages are unpacked into the directory. No maintainer script runs (the
// riscv64 ones could not run on the host anyway), and the host's own apt
// sources and keyrings are read, never changed: mmdebstrap keeps its apt
// configuration inside the new root.
//
// Debian's riscv64 packages assume a merged /usr: their programs name
// /lib/ld-linux-riscv64-lp64d.so.1 as their interpreter while the file lies
// in /usr/lib. Create makes /bin, /sbin and /lib links to their /usr
// directories before anything is unpacked (debootstrap's merged-/usr
// layout), and checks afterwards that the dynamic linker resolves. As no
// maintainer script runs, Create does what programs rely on from them
// and Debian's installer: the /etc files (accounts, nsswitch.conf, hosts:
// etc.go), the alternatives' links (alternatives.go, reading the scripts'
// shell: script.go), /etc/ssl/certs (certs.go), and, with the root's own
// programs run by the simulator through Options.Run, ld.so.cache and
// Python's byte code (programs.go).
//
// A root Create made carries a stamp (StampFile) recording the release,
// the architecture and the package list; asked again for the same, Create
// reuses it, and asked for another list it rebuilds it beside the old one
// and swaps them.
package rootfs

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Arch is the Debian architecture of the roots this package builds.
const Arch = "riscv64"

// DefaultRelease is the Debian release roots come from by default: the
// first with riscv64 as an official architecture.
const DefaultRelease = "trixie"

// DefaultPackages are the default root's packages: the programs of the
// real workload suite (issue 20) — interpreters, a database, compressors
// and the C compiler proper (cpp holds cc1) with the C library's and GCC's
// headers it needs to compile real C files — and dash, the /bin/sh that
// system(), popen() and Python's shell=True run.
var DefaultPackages = []string{
	"python3", "sqlite3", "lua5.4",
	"xz-utils", "bzip2", "zstd", "gzip",
	"cpp", "libc6-dev", "libgcc-14-dev",
	"dash",
}

// DefaultKeyring is Debian's archive keyring (package
// debian-archive-keyring); apt checks the archive's signatures with it.
const DefaultKeyring = "/usr/share/keyrings/debian-archive-keyring.gpg"

// DefaultMirror is used when the host's apt sources name no Debian mirror.
const DefaultMirror = "http://deb.debian.org/debian"

// Interp is the dynamic linker Debian's riscv64 programs name (PT_INTERP).
const Interp = "/lib/ld-linux-riscv64-lp64d.so.1"

// StampFile, in a root Create made, records what the root holds.
const StampFile = ".rvsim-rootfs"

// Error is a failure to build a root: one line for the user.
type Error struct{ Msg string }

func (e *Error) Error() string { return "rootfs: " + e.Msg }

func errorf(format string, args ...any) error { return &Error{fmt.Sprintf(format, args...)} }

// Options say what root to build.
type Options struct {
	Release  string   // Debian release ("" = DefaultRelease)
	Packages []string // Debian package names (nil = DefaultPackages)
	Mirror   string   // archive URL ("" = the host's Debian mirror, see HostMirror)
	Keyring  string   // keyring the archive is verified with ("" = DefaultKeyring)
	// Log receives mmdebstrap's own output as it runs (nil: it is kept
	// only to explain a failure).
	Log io.Writer
	// Run runs a program of the root (argv[0] a path inside it) with the
	// root as its "/", allowed to write in it, and returns its exit
	// status and what it printed. The simulator runs it: the command that
	// makes roots gives this (nil: what needs the root's own programs is
	// not done; afterRun).
	Run func(root string, argv []string) (status int, output string, err error)
}

// Stamp is what a root holds, as Create recorded it.
type Stamp struct {
	Release  string
	Arch     string
	Mirror   string
	Packages []string // sorted
	// Setup is the version of what Create does beside unpacking (0:
	// before the alternatives' links and alwaysPackages; 1: before the
	// alternatives of scripts' variables, loops and functions (OpenJDK's
	// java, xz-utils' lzcat); 2: before ca-certificates' /etc/ssl/certs,
	// ld.so.cache and Python's byte code; 3: before the Essential set;
	// setupVersion now): an older root is rebuilt.
	Setup int
}

// setupVersion is Create's Stamp.Setup.
const setupVersion = 4

// Same reports whether two stamps describe the same root (the mirror is
// where it came from, not what it holds).
func (s *Stamp) Same(o *Stamp) bool {
	return s.Release == o.Release && s.Arch == o.Arch && slices.Equal(s.Packages, o.Packages) && s.Setup == o.Setup
}

func (s *Stamp) String() string {
	return fmt.Sprintf("release %s\narch %s\nmirror %s\npackages %s\nsetup %d\n", s.Release, s.Arch, s.Mirror, strings.Join(s.Packages, ","), s.Setup)
}

// ReadStamp reads a root's stamp; os.ErrNotExist if it has none.
func ReadStamp(dir string) (*Stamp, error) {
	data, err := os.ReadFile(filepath.Join(dir, StampFile))
	if err != nil {
		return nil, err
	}
	s := &Stamp{}
	for _, line := range strings.Split(string(data), "\n") {
		k, v, _ := strings.Cut(line, " ")
		switch k {
		case "release":
			s.Release = v
		case "arch":
			s.Arch = v
		case "mirror":
			s.Mirror = v
		case "packages":
			if v != "" {
				s.Packages = strings.Split(v, ",")
			}
		case "setup":
			s.Setup, _ = strconv.Atoi(v)
		}
	}
	return s, nil
}

// Result describes a root Create made or reused.
type Result struct {
	Stamp    *Stamp
	Reused   bool          // the directory already held this root
	Elapsed  time.Duration // time taken
	Bytes    int64         // size of the files in the root
	Packages int           // packages unpacked, dependencies included
}

var packageRE = regexp.MustCompile(`^[a-z0-9][a-z0-9+.-]+$`)

// ValidPackageName reports whether s is a well-formed Debian package name
// (Debian Policy §5.6.1: lower-case letters, digits, + - and ., at least
// two characters, starting with a letter or digit).
func ValidPackageName(s string) bool { return packageRE.MatchString(s) }

// ParsePackages splits a comma-separated package list, refusing malformed
// and repeated names.
func ParsePackages(list string) ([]string, error) {
	var out []string
	for _, p := range strings.Split(list, ",") {
		p = strings.TrimSpace(p)
		switch {
		case p == "":
			return nil, errorf("empty package name in %q", list)
		case !ValidPackageName(p):
			return nil, errorf("%q is not a Debian package name (lower-case letters, digits, '+', '-', '.')", p)
		case slices.Contains(out, p):
			return nil, errorf("package %q listed twice", p)
		}
		out = append(out, p)
	}
	return out, nil
}

// Create builds the root described by opt in dir, or reuses dir if a
// root Create made for the same release and packages is already there.
// dir must not exist, be empty, or hold a root Create made.
func Create(dir string, opt Options) (*Result, error) {
	start := time.Now()
	want, err := opt.stamp()
	if err != nil {
		return nil, err
	}
	old, err := ReadStamp(dir)
	switch {
	case err == nil:
		if old.Same(want) && Check(dir) == nil {
			// A root made before addSystemFiles gets its files now.
			if _, err := addSystemFiles(dir); err != nil {
				return nil, err
			}
			res := &Result{Stamp: old, Reused: true, Elapsed: time.Since(start)}
			res.Bytes, res.Packages = usage(dir)
			return res, nil
		}
	case errors.Is(err, fs.ErrNotExist):
		old = nil
		if ents, err := os.ReadDir(dir); err == nil && len(ents) > 0 {
			return nil, errorf("%s is not empty and holds no root rvsim made (no %s): remove it or choose another directory", dir, StampFile)
		} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, errorf("%s: %v", dir, unwrap(err))
		}
	default:
		return nil, errorf("%s: %v", dir, unwrap(err))
	}
	tool, err := exec.LookPath("mmdebstrap")
	if err != nil {
		return nil, errorf("mmdebstrap is not installed: run 'make setup' (or apt-get install mmdebstrap)")
	}
	if _, err := os.Stat(want.keyring(opt)); err != nil {
		return nil, errorf("keyring %s: %v (install debian-archive-keyring)", want.keyring(opt), unwrap(err))
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, errorf("%s: %v", dir, err)
	}
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		return nil, errorf("%s: %v", dir, unwrap(err))
	}
	// Built beside dir and renamed into place: an interrupted build
	// leaves no half root behind dir's name.
	tmp := filepath.Join(filepath.Dir(abs), "."+filepath.Base(abs)+".partial")
	if err := os.RemoveAll(tmp); err != nil {
		return nil, errorf("%s: %v", tmp, unwrap(err))
	}
	if err := mmdebstrap(tool, tmp, want, opt); err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	// Architectures whose ABI uses /lib64 get that link too, if the
	// packages brought a /usr/lib64 (riscv64's lp64d ABI uses /lib).
	if fi, err := os.Stat(filepath.Join(tmp, "usr", "lib64")); err == nil && fi.IsDir() {
		if _, err := os.Lstat(filepath.Join(tmp, "lib64")); errors.Is(err, fs.ErrNotExist) {
			if err := os.Symlink("usr/lib64", filepath.Join(tmp, "lib64")); err != nil {
				return nil, errorf("%v", err)
			}
		}
	}
	if err := check(tmp, dir); err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	if _, err := addSystemFiles(tmp); err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	if err := applyAlternatives(tmp); err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	if err := caCertificates(tmp); err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	if opt.Run != nil {
		if err := runMaintainerPrograms(tmp, opt.Run); err != nil {
			os.RemoveAll(tmp)
			return nil, err
		}
	}
	if err := os.WriteFile(filepath.Join(tmp, StampFile), []byte(want.String()), 0o644); err != nil {
		os.RemoveAll(tmp)
		return nil, errorf("%v", err)
	}
	if old != nil {
		if err := os.RemoveAll(abs); err != nil {
			return nil, errorf("replacing %s: %v", dir, unwrap(err))
		}
	} else {
		os.Remove(abs) // an empty directory
	}
	if err := os.Rename(tmp, abs); err != nil {
		return nil, errorf("%v", err)
	}
	res := &Result{Stamp: want, Elapsed: time.Since(start)}
	res.Bytes, res.Packages = usage(abs)
	return res, nil
}

func (o Options) stamp() (*Stamp, error) {
	s := &Stamp{Release: o.Release, Arch: Arch, Mirror: o.Mirror, Setup: setupVersion}
	if s.Release == "" {
		s.Release = DefaultRelease
	}
	if !packageRE.MatchString(s.Release) {
		return nil, errorf("release %q is not a Debian release name (trixie, forky, sid, ...)", s.Release)
	}
	pkgs := o.Packages
	if pkgs == nil {
		pkgs = DefaultPackages
	}
	if len(pkgs) == 0 {
		return nil, errorf("no packages to install")
	}
	for _, p := range pkgs {
		if !ValidPackageName(p) {
			return nil, errorf("%q is not a Debian package name (lower-case letters, digits, '+', '-', '.')", p)
		}
	}
	s.Packages = slices.Clone(pkgs)
	slices.Sort(s.Packages)
	s.Packages = slices.Compact(s.Packages)
	if s.Mirror == "" {
		s.Mirror = HostMirror("/etc/apt")
	}
	s.Mirror = strings.TrimRight(s.Mirror, "/")
	if !strings.HasPrefix(s.Mirror, "http://") && !strings.HasPrefix(s.Mirror, "https://") {
		return nil, errorf("mirror %q: want an http:// or https:// URL", s.Mirror)
	}
	return s, nil
}

func (s *Stamp) keyring(o Options) string {
	if o.Keyring != "" {
		return o.Keyring
	}
	return DefaultKeyring
}

// mergedUsrHook makes the merged-/usr links before anything is unpacked,
// as debootstrap's setup_merged_usr does, so that files a package still
// ships below /lib or /bin land in /usr (mmdebstrap's tar keeps directory
// links).
const mergedUsrHook = `for d in bin sbin lib; do mkdir -p "$1/usr/$d" && ln -s "usr/$d" "$1/$d"; done`

// alwaysPackages go into every root, beside those asked for: Debian's
// Essential set (apt's ?essential pattern), there on every Debian system
// a program was built for. Without it a root had no /bin/sh for system(3),
// popen(3) and subprocess (CPython's test_posix failed on os.popen("id
// -G")), no coreutils for the scripts they run. libc-bin, Essential, holds
// the C.UTF-8 locale (a program started with the host's LANG=C.UTF-8
// finds it: Perl warns without it, Redis exits), ldconfig and getent.
// (Not in the stamp: Stamp.Setup covers it.)
var alwaysPackages = []string{"libc-bin", "?essential"}

// mmdebstrap runs mmdebstrap into dir.
func mmdebstrap(tool, dir string, s *Stamp, opt Options) error {
	keyring := s.keyring(opt)
	source := fmt.Sprintf("deb [signed-by=%s] %s %s main", keyring, s.Mirror, s.Release)
	args := []string{
		"--variant=extract", // unpack only: no maintainer script runs
		"--architectures=" + Arch,
		"--include=" + strings.Join(append(slices.Clone(s.Packages), alwaysPackages...), ","),
		"--keyring=" + keyring,
		"--setup-hook=" + mergedUsrHook,
		"--extract-hook=" + postinstHook,
		s.Release, dir, source,
	}
	cmd := exec.Command(tool, args...)
	var out bytes.Buffer
	w := io.Writer(&out)
	if opt.Log != nil {
		w = io.MultiWriter(&out, opt.Log)
	}
	cmd.Stdout, cmd.Stderr = w, w
	if err := cmd.Run(); err != nil {
		return explain(out.Bytes(), s, err)
	}
	return nil
}

var (
	unknownRE   = regexp.MustCompile(`E: Unable to locate package (\S+)`)
	candidateRE = regexp.MustCompile(`E: Package '([^']+)' has no installation candidate`)
	notSignedRE = regexp.MustCompile(`E: The repository '([^']+)' is not signed`)
)

// explain turns mmdebstrap's failure into one line: the package apt did
// not find, a signature it could not verify, or apt's last error.
func explain(out []byte, s *Stamp, err error) error {
	text := string(out)
	if m := unknownRE.FindStringSubmatch(text); m != nil {
		return errorf("no package %q in Debian %s for %s (%s)", m[1], s.Release, Arch, s.Mirror)
	}
	if m := candidateRE.FindStringSubmatch(text); m != nil {
		return errorf("package %q has no %s version in Debian %s (a virtual or removed package?)", m[1], Arch, s.Release)
	}
	if m := notSignedRE.FindStringSubmatch(text); m != nil {
		return errorf("cannot verify the signature of %s with the keyring: refusing unsigned packages", m[1])
	}
	var last string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		l := sc.Text()
		if strings.HasPrefix(l, "E: ") && !strings.Contains(l, "mmdebstrap failed") && !strings.Contains(l, "failed: E:") {
			last = strings.TrimPrefix(l, "E: ")
		}
	}
	if last == "" {
		last = err.Error()
	}
	return errorf("mmdebstrap failed: %s", last)
}

// Check verifies that a root runs what it holds: its dynamic linker
// (Interp) resolves inside it to a riscv64 ELF file.
func Check(dir string) error { return check(dir, dir) }

// check checks the root in dir, calling it name in errors.
func check(dir, name string) error {
	host, err := HostPath(dir, Interp)
	if err != nil {
		return errorf("%s: the dynamic linker %s does not resolve: %v", name, Interp, err)
	}
	f, err := os.Open(host)
	if err != nil {
		return errorf("%s: %v", name, unwrap(err))
	}
	defer f.Close()
	var hdr [20]byte
	if _, err := io.ReadFull(f, hdr[:]); err != nil || string(hdr[:4]) != "\x7fELF" {
		return errorf("%s: the dynamic linker %s (%s) is not an ELF file", name, Interp, host)
	}
	const emRISCV = 243
	if m := binary.LittleEndian.Uint16(hdr[18:]); m != emRISCV {
		return errorf("%s: the dynamic linker %s is for e_machine %d, not RISC-V", name, Interp, m)
	}
	return nil
}

// HostPath returns the host path of guest path p in the root dir,
// following symbolic links as the guest would see them: an absolute link
// starts again from dir, and no link or ".." leads out of it.
func HostPath(dir, p string) (string, error) {
	if !strings.HasPrefix(p, "/") {
		return "", fmt.Errorf("%q is not an absolute guest path", p)
	}
	rest := strings.Split(strings.Trim(path.Clean(p), "/"), "/")
	cur := "/" // resolved guest directory
	for links := 0; len(rest) > 0; {
		c := rest[0]
		rest = rest[1:]
		switch c {
		case "", ".":
			continue
		case "..":
			cur = path.Dir(cur)
			continue
		}
		next := path.Join(cur, c)
		fi, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(next)))
		if err != nil {
			return "", unwrap(err)
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			if len(rest) > 0 && !fi.IsDir() {
				return "", fmt.Errorf("%s is not a directory", next)
			}
			cur = next
			continue
		}
		if links++; links > 40 {
			return "", fmt.Errorf("too many levels of symbolic links")
		}
		target, err := os.Readlink(filepath.Join(dir, filepath.FromSlash(next)))
		if err != nil {
			return "", unwrap(err)
		}
		if strings.HasPrefix(target, "/") {
			cur = "/"
		}
		rest = append(strings.Split(strings.Trim(target, "/"), "/"), rest...)
	}
	return filepath.Join(dir, filepath.FromSlash(cur)), nil
}

// usage sums the sizes of the regular files under dir and counts the
// packages unpacked (their /usr/share/doc directories).
func usage(dir string) (bytes int64, packages int) {
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				bytes += fi.Size()
			}
		}
		return nil
	})
	if ents, err := os.ReadDir(filepath.Join(dir, "usr", "share", "doc")); err == nil {
		packages = len(ents)
	}
	return bytes, packages
}

func unwrap(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
