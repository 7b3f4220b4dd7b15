// Package outfile is how rvsim writes the files a command produces, by
// two rules every output follows, present and future:
//
//   - An output never destroys an input, and two outputs never share a
//     file. Each command registers, before its work starts, every file it
//     reads and every file it will write, each under the flag that names
//     it; a file registered twice is refused in one line naming both
//     flags. Two names are the same file when they have the same device
//     and inode (os.SameFile, for files that exist) or the same absolute
//     path once the parent directory's symbolic links are resolved. When
//     an output is created, the check runs again on the opened file
//     (fstat), before it is truncated, so a link swapped in meanwhile
//     cannot turn it onto an input.
//   - No write error is lost. A File keeps the first error of any write,
//     and Close returns it (or Close's own), naming the flag and the path.
//
// A character device (/dev/null, /dev/tty, /dev/full) stores nothing, so
// it may be named by several outputs and inputs at once.
package outfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// Set is the files one command reads and writes.
type Set struct {
	files   []*entry
	created []*File
}

type role uint8

const (
	input role = iota
	output
	outputDir // the files dir/PREFIX… for each prefix
	stream    // standard input, output or error
)

type entry struct {
	name, path string
	key        string      // the absolute path, the parent's links resolved
	fi         fs.FileInfo // the file (links followed), nil if it does not exist
	role       role
	prefixes   []string      // outputDir
	members    []fs.FileInfo // outputDir: existing files dir/PREFIX…
	streamOut  bool          // stream: written (stdout, stderr), not read
}

// ConflictError is a file named twice: an output that is an input or
// another output.
type ConflictError struct {
	Name, Path           string // the later registration
	OtherName, OtherPath string // the one it collides with
	Input                bool   // Other is an input
}

func (e *ConflictError) Error() string {
	why := "two outputs cannot share a file"
	if e.Input {
		why = "an output cannot overwrite an input"
	}
	return fmt.Sprintf("%s: the same file as %s (%s)", named(e.Name, e.Path), named(e.OtherName, e.OtherPath), why)
}

// named renders a flag and its path: "--trace t.log", "the program ./p".
func named(name, path string) string {
	if path == "" {
		return name
	}
	return name + " " + path
}

// WriteError is an output that could not be written in full.
type WriteError struct {
	Name, Path string
	Op         string // "write", "close"
	Err        error
}

func (e *WriteError) Error() string {
	return fmt.Sprintf("%s: %s: %v", named(e.Name, e.Path), e.Op, e.Err)
}

func (e *WriteError) Unwrap() error { return e.Err }

// PathError is a path that cannot be used: empty, or not creatable.
type PathError struct {
	Name, Path string
	Err        error
}

func (e *PathError) Error() string {
	if e.Path == "" {
		return e.Name + ": empty path"
	}
	return fmt.Sprintf("%s: %v", named(e.Name, e.Path), e.Err)
}

func (e *PathError) Unwrap() error { return e.Err }

// Input registers a file the command reads. An empty path is an error.
func (s *Set) Input(name, path string) error { return s.add(name, path, input, nil) }

// Output registers a file the command will write (see Create).
func (s *Set) Output(name, path string) error { return s.add(name, path, output, nil) }

// OutputDir registers a directory the command will write files into,
// named dir/PREFIX… for each prefix (see CreateIn).
func (s *Set) OutputDir(name, dir string, prefixes []string) error {
	return s.add(name, dir, outputDir, prefixes)
}

// Stdio registers the command's standard streams if they are regular
// files: standard input as an input, output and error as outputs (which
// may share a file with each other, as "> log 2>&1" does).
func (s *Set) Stdio(stdin, stdout, stderr any) error {
	for _, x := range []struct {
		name string
		f    any
		out  bool
	}{{"standard input", stdin, false}, {"standard output", stdout, true}, {"standard error", stderr, true}} {
		f, ok := x.f.(*os.File)
		if !ok || f == nil {
			continue
		}
		fi, err := f.Stat()
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		e := &entry{name: x.name, fi: fi, role: stream, streamOut: x.out}
		if err := s.check(e); err != nil {
			return err
		}
		s.files = append(s.files, e)
	}
	return nil
}

func (s *Set) add(name, path string, r role, prefixes []string) error {
	if path == "" {
		return &PathError{Name: name}
	}
	e := &entry{name: name, path: path, key: canonical(path), role: r, prefixes: prefixes}
	if fi, err := os.Stat(path); err == nil {
		e.fi = fi
	}
	if r == outputDir {
		if e.fi != nil && !e.fi.IsDir() {
			return &PathError{Name: name, Path: path, Err: syscall.ENOTDIR}
		}
		e.members = dirMembers(path, prefixes)
	}
	if err := s.check(e); err != nil {
		return err
	}
	s.files = append(s.files, e)
	return nil
}

// canonical is path made absolute, with its parent directory's symbolic
// links resolved where the parent exists.
func canonical(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return filepath.Clean(path)
	}
	dir, base := filepath.Split(abs)
	if d, err := filepath.EvalSymlinks(dir); err == nil {
		return filepath.Join(d, base)
	}
	return abs
}

// dirMembers are the existing files in dir a prefix names (links followed).
func dirMembers(dir string, prefixes []string) []fs.FileInfo {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []fs.FileInfo
	for _, de := range ents {
		if hasPrefix(de.Name(), prefixes) {
			if fi, err := os.Stat(filepath.Join(dir, de.Name())); err == nil {
				out = append(out, fi)
			}
		}
	}
	return out
}

func hasPrefix(name string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// check refuses e if it is the same file as a registered file it may not
// share one with.
func (s *Set) check(e *entry) error {
	for _, o := range s.files {
		if !e.writes() && !o.writes() {
			continue // two inputs
		}
		if e.role == stream && o.role == stream {
			continue // "> log 2>&1"; and a file read on stdin is not rewritten by its own stream
		}
		if same(e, o) {
			// Name the output refused first: the file flag, rather than an
			// input or a standard stream.
			out, other := e, o
			if !e.writes() || (e.role == stream && o.role != stream) {
				out, other = o, e
			}
			return &ConflictError{Name: out.name, Path: out.path, OtherName: other.name, OtherPath: other.path, Input: !other.writes()}
		}
	}
	return nil
}

func (e *entry) writes() bool {
	return e.role == output || e.role == outputDir || (e.role == stream && e.streamOut)
}

// same reports whether a and b name one file (or, for an output
// directory, whether the other is one of its files).
func same(a, b *entry) bool {
	if a.role == outputDir && b.role == outputDir {
		return a.key == b.key || sameFile(a.fi, b.fi)
	}
	if b.role == outputDir {
		a, b = b, a
	}
	if a.role == outputDir {
		for _, m := range a.members {
			if sameFile(m, b.fi) {
				return true
			}
		}
		if b.key == "" {
			return false
		}
		dir, base := filepath.Split(b.key)
		if !hasPrefix(base, a.prefixes) {
			return false
		}
		if filepath.Clean(dir) == a.key {
			return true
		}
		fi, err := os.Stat(dir)
		return err == nil && sameFile(fi, a.fi)
	}
	if sameFile(a.fi, b.fi) {
		return true
	}
	return a.key != "" && a.key == b.key && !charDevice(a.fi)
}

func sameFile(a, b fs.FileInfo) bool {
	return a != nil && b != nil && os.SameFile(a, b) && !charDevice(a)
}

func charDevice(fi fs.FileInfo) bool {
	return fi != nil && fi.Mode()&fs.ModeCharDevice != 0
}

// Create creates (or truncates) the output registered as name and path,
// after checking on the opened file that it is none of the inputs and no
// other output created so far.
func (s *Set) Create(name, path string) (*File, error) {
	for _, e := range s.files {
		if e.name == name && e.path == path && e.role == output {
			return s.create(e, e.path)
		}
	}
	panic("outfile: Create of an unregistered output " + named(name, path))
}

// CreateIn creates the file base in the output directory registered under
// name; base must begin with one of its prefixes.
func (s *Set) CreateIn(name, base string) (*File, error) {
	for _, e := range s.files {
		if e.name == name && e.role == outputDir {
			if !hasPrefix(base, e.prefixes) || strings.ContainsRune(base, filepath.Separator) {
				panic("outfile: " + base + " is not a registered file of " + name)
			}
			return s.create(e, filepath.Join(e.path, base))
		}
	}
	panic("outfile: CreateIn of an unregistered output directory " + name)
}

// WriteFile is CreateIn, Write and Close.
func (s *Set) WriteFile(name, base string, data []byte) error {
	f, err := s.CreateIn(name, base)
	if err != nil {
		return err
	}
	f.Write(data)
	return f.Close()
}

func (s *Set) create(e *entry, path string) (*File, error) {
	_, statErr := os.Stat(path)
	made := errors.Is(statErr, fs.ErrNotExist) // for Abandon and the conflict below
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE, 0o666)
	if err != nil {
		return nil, &PathError{Name: e.name, Path: path, Err: unwrap(err)}
	}
	fi, err := f.Stat()
	if err == nil {
		err = s.checkOpened(e, path, fi)
	}
	if err == nil && fi.Mode().IsRegular() {
		err = f.Truncate(0)
	}
	if err != nil {
		f.Close()
		if made {
			os.Remove(path)
		}
		if _, ok := err.(*ConflictError); ok {
			return nil, err
		}
		return nil, &PathError{Name: e.name, Path: path, Err: unwrap(err)}
	}
	out := &File{Name: e.name, Path: path, f: f, fi: fi, made: made}
	s.created = append(s.created, out)
	return out, nil
}

// checkOpened checks the file just opened for e against every input (as
// registered and as it is now) and every output already created.
func (s *Set) checkOpened(e *entry, path string, fi fs.FileInfo) error {
	if charDevice(fi) {
		return nil
	}
	for _, o := range s.files {
		var now fs.FileInfo
		switch {
		case !o.writes() && o.path != "":
			now, _ = os.Stat(o.path) // an input as it is now
		case o.role == stream: // standard output or error
		default:
			continue // outputs: checked below, once created
		}
		if os.SameFile(fi, o.fi) || os.SameFile(fi, now) {
			return &ConflictError{Name: e.name, Path: path, OtherName: o.name, OtherPath: o.path, Input: !o.writes()}
		}
	}
	for _, c := range s.created {
		if os.SameFile(fi, c.fi) {
			return &ConflictError{Name: e.name, Path: path, OtherName: c.Name, OtherPath: c.Path}
		}
	}
	return nil
}

// Abandon closes every file created and removes those that did not exist
// before: for a command that fails before its work starts (a deferred
// Abandon after Close does nothing).
func (s *Set) Abandon() {
	for _, f := range s.created {
		f.f.Close()
		if f.made {
			os.Remove(f.Path)
		}
	}
	s.created = nil
}

// Close closes every file created and returns their errors, one per file
// that failed, in the order they were created. Abandon does nothing after
// it.
func (s *Set) Close() []error {
	var errs []error
	for _, f := range s.created {
		if err := f.Close(); err != nil {
			errs = append(errs, err)
		}
	}
	s.created = nil
	return errs
}

// File is an output being written. It keeps the first write error; later
// writes are dropped and return it.
type File struct {
	Name, Path string
	f          *os.File
	fi         fs.FileInfo
	made       bool // created, not truncated
	err        error
	closed     bool
}

// Write writes p, or returns the file's first error.
func (f *File) Write(p []byte) (int, error) {
	if f.err != nil {
		return 0, f.err
	}
	n, err := f.f.Write(p)
	if err != nil {
		f.err = &WriteError{Name: f.Name, Path: f.Path, Op: "write", Err: unwrap(err)}
		return n, f.err
	}
	return n, nil
}

// Err is the first write error, nil if none.
func (f *File) Err() error { return f.err }

// Close closes the file and returns its first error: a write's, or
// Close's own. Closing twice returns the same.
func (f *File) Close() error {
	if f.closed {
		return f.err
	}
	f.closed = true
	if err := f.f.Close(); err != nil && f.err == nil {
		f.err = &WriteError{Name: f.Name, Path: f.Path, Op: "close", Err: unwrap(err)}
	}
	return f.err
}

func unwrap(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
