package syscalls

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path"
	"strconv"
	"strings"
	"syscall"

	"github.com/rvsim/rvsim/mem"
)

// execve and execveat replace the process's program, as Linux's
// fs/exec.c does: the file is found and checked (a "#!" script names
// its interpreter, binfmt_script), the loader parses the ELF file and
// its dynamic linker, and only then, past the point of no return
// (begin_new_exec), does the old image go: the other threads end, file
// descriptors marked close-on-exec close, caught signals return to
// their default action, shared mappings are written back and every
// mapping is removed. The loader maps the new image and builds its
// stack; the calling thread starts at its entry with every register
// zero but sp. The pid, the working directory, the other descriptors,
// the signal mask, pending signals, ignored signals, interval timers
// and limits stay. rvsim still runs one process: fork and vfork are
// unsupported, so a program execs in place (a wrapper such as env or
// nice, `sh -c` running its last command, a script's interpreter).

// ExecRequest is what execve asks the loader (ExecLoader) to run.
type ExecRequest struct {
	Host     string   // host path of the program file (the interpreter of a #! script)
	Guest    string   // its guest path (/proc/self/exe)
	Filename string   // the path execve was given (AT_EXECFN; comm is its last element)
	Argv     []string // the new argv (a script's interpreter, its argument and the script first)
	Envp     []string
}

// ExecLoader is the loader's half of execve, set by the glue that loaded
// the first program (SetExecLoader). It parses req's program and
// whatever it needs (its dynamic linker); an error there fails execve
// with that errno and leaves the process as it was. Otherwise it returns
// load, which the kernel calls past the point of no return, with the old
// image's mappings still in place: load removes them, maps the new image,
// builds its stack (SetupProcess with Image.ExecFn) and returns the entry
// point and stack pointer. An error from load kills the process
// (SIGSEGV, as Linux's exec does once the old image is gone).
type ExecLoader func(req ExecRequest) (load func() (pc, sp uint64, err error), e Errno)

// SetExecLoader enables execve and execveat with loader f (nil: they
// answer ENOSYS with a warning).
func (k *Kernel) SetExecLoader(f ExecLoader) { k.execLoader = f }

const (
	maxArgStrlen  = 32 * PageSize // MAX_ARG_STRLEN: the longest argument or environment string
	binprmBufSize = 256           // BINPRM_BUF_SIZE: how much of a #! line counts
	maxExecDepth  = 5             // script interpreters nested deeper answer ELOOP (exec_binprm)
)

func sysExecve(k *Kernel, a sysArgs) (uint64, Errno) {
	return k.execve(221, atFDCWD, a.Ptr(0), a.Ptr(1), a.Ptr(2), 0)
}

func sysExecveat(k *Kernel, a sysArgs) (uint64, Errno) {
	return k.execve(281, a.Int(0), a.Ptr(1), a.Ptr(2), a.Ptr(3), a.Int(4))
}

func (k *Kernel) execve(num uint64, dirfd int32, pathAddr, argvAddr, envpAddr uint64, flags int32) (uint64, Errno) {
	if k.execLoader == nil {
		return k.unsupported(num, "no program loader is attached to this kernel")
	}
	if flags&^(atEmptyPath|atSymlinkNofollow) != 0 {
		return 0, EINVAL
	}
	name, e := k.readPath(pathAddr)
	if e != 0 {
		return 0, e
	}
	argv, e := k.readStrings(argvAddr)
	if e != 0 {
		return 0, e
	}
	envp, e := k.readStrings(envpAddr)
	if e != 0 {
		return 0, e
	}
	if e := checkArgSize(argv, envp); e != 0 {
		return 0, e
	}
	req, e := k.execTarget(dirfd, name, flags, argv, envp)
	if e != 0 {
		return 0, e
	}
	load, e := k.execLoader(req)
	if e != 0 {
		return 0, e
	}
	k.beginExec(req)
	pc, sp, err := load()
	if err != nil { // the old image is gone: the process dies (Linux: force_fatal_sig(SIGSEGV))
		k.warnOnce("exec "+req.Filename, "rvsim: execve %s: %v", req.Filename, err)
		k.die(sigSEGV)
		return 0, 0
	}
	if k.cur != nil {
		*k.cur = UserRegs{PC: pc}
		k.cur.X[2] = sp
	}
	k.releaseVfork()
	return 0, 0
}

// readStrings reads a NULL-terminated array of string pointers (argv,
// envp); a NULL array is empty, as Linux takes it.
func (k *Kernel) readStrings(addr uint64) ([]string, Errno) {
	var out []string
	if addr == 0 {
		return nil, 0
	}
	for i := uint64(0); ; i++ {
		p, e := k.readU64(addr + 8*i)
		if e != 0 {
			return nil, e
		}
		if p == 0 {
			return out, 0
		}
		s, err := k.mem.ReadCString(p, maxArgStrlen)
		if err != nil {
			var f *mem.Fault
			if errors.As(err, &f) {
				return nil, EFAULT
			}
			return nil, E2BIG
		}
		out = append(out, s)
		if len(out) > StackSize/4/8 { // every pointer alone would pass the limit checkArgSize applies
			return nil, E2BIG
		}
	}
}

// checkArgSize applies the kernel's limit on the new stack's strings and
// pointers: a quarter of the stack limit (SetupProcess's rule).
func checkArgSize(argv, envp []string) Errno {
	if argSize(argv, envp) > StackSize/4 {
		return E2BIG
	}
	return 0
}

// argSize is the stack space argv and envp take: their strings and the
// pointer arrays (with the auxiliary vector's pairs).
func argSize(argv, envp []string) int {
	total := (len(argv) + len(envp) + 3 + 2*20) * 8
	for _, ss := range [][]string{argv, envp} {
		for _, s := range ss {
			total += len(s) + 1
		}
	}
	return total
}

// execTarget finds the program execve runs: name relative to dirfd (or
// dirfd's file itself with AT_EMPTY_PATH), a regular file with execute
// permission, followed through #! lines to an interpreter that is not a
// script (binfmt_script: argv becomes the interpreter, its optional
// argument, the script's path, then argv[1:]).
func (k *Kernel) execTarget(dirfd int32, name string, flags int32, argv, envp []string) (ExecRequest, Errno) {
	filename := name
	if name == "" {
		if flags&atEmptyPath == 0 {
			return ExecRequest{}, ENOENT
		}
		filename = "/dev/fd/" + strconv.Itoa(int(dirfd))
	} else if dirfd != atFDCWD && !strings.HasPrefix(name, "/") {
		filename = "/dev/fd/" + strconv.Itoa(int(dirfd)) + "/" + name
	}
	req := ExecRequest{Filename: filename, Argv: argv, Envp: envp}
	if rest, ok := procSelf(name, k.pid); ok && rest == "exe" && dirfd == atFDCWD { // a virtual link: the program itself
		name = k.exePath
	}
	for depth := 0; ; depth++ {
		if depth > maxExecDepth {
			return ExecRequest{}, ELOOP
		}
		follow := depth > 0 || flags&atSymlinkNofollow == 0 // (the flag is about the file execve names)
		host, guest, e := k.execFile(dirfd, name, follow)
		if e != 0 {
			return ExecRequest{}, e
		}
		interp, arg, isScript, e := ScriptLine(host)
		if e != 0 {
			return ExecRequest{}, e
		}
		if !isScript {
			req.Host, req.Guest = host, guest
			return req, 0
		}
		script := name
		if depth == 0 {
			script = filename
		}
		args := []string{interp}
		if arg != "" {
			args = append(args, arg)
		}
		args = append(args, script)
		if len(req.Argv) > 1 {
			args = append(args, req.Argv[1:]...)
		}
		req.Argv = args
		if e := checkArgSize(req.Argv, envp); e != 0 {
			return ExecRequest{}, e
		}
		dirfd, name = atFDCWD, interp
	}
}

// execFile resolves name (relative to dirfd; "" is dirfd's own file) to
// an executable regular file and returns its host and guest paths.
func (k *Kernel) execFile(dirfd int32, name string, follow bool) (host, guest string, e Errno) {
	if name == "" {
		of, e := k.file(dirfd)
		if e != 0 {
			return "", "", e
		}
		if of.kind != kindHost || of.guest == "" {
			return "", "", EACCES
		}
		name, dirfd = of.guest, atFDCWD
	}
	l, e := k.resolveExisting(dirfd, name, follow)
	if e != 0 {
		return "", "", e
	}
	defer l.close()
	if l.obj.isLink() { // AT_SYMLINK_NOFOLLOW on a link
		return "", "", ELOOP
	}
	if l.obj.isDir() || !l.obj.isReg() {
		return "", "", EACCES
	}
	host = k.hostPath(l)
	if err := syscall.Access(host, 1); err != nil { // X_OK, with execve's rules
		return "", "", EACCES
	}
	return host, path.Clean(l.guest), 0
}

// ScriptLine reads the #! line of the file at host path host
// (ParseScriptLine).
func ScriptLine(host string) (interp, arg string, ok bool, e Errno) {
	f, err := os.OpenFile(host, os.O_RDONLY|syscall.O_NONBLOCK, 0) // a FIFO must not wait for a writer
	if err != nil {
		return "", "", false, errnoOf(err)
	}
	defer f.Close()
	buf := make([]byte, binprmBufSize)
	n, err := io.ReadFull(f, buf) // a shorter file ends early
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return "", "", false, errnoOf(err)
	}
	return ParseScriptLine(buf[:n])
}

// ParseScriptLine parses the start of a file as binfmt_script's
// load_script does (Linux 5.1 on): a file that does not start with "#!"
// is not a script. Only the first BINPRM_BUF_SIZE bytes count (a shorter
// file reads as padded with NULs), and the last of them is never part of
// the line. The line ends at a newline or a NUL; the interpreter is its
// first word after "#!" (blanks are spaces and tabs) and the rest,
// trimmed, its one optional argument. Without a newline in the buffer an
// interpreter name that reaches the buffer's end may be cut off, so it
// is ENOEXEC, as is a line with no interpreter.
func ParseScriptLine(start []byte) (interp, arg string, ok bool, e Errno) {
	if !bytes.HasPrefix(start, []byte("#!")) {
		return "", "", false, 0
	}
	var buf [binprmBufSize]byte
	copy(buf[:], start)
	end := bytes.IndexByte(buf[:], '\n')
	if end < 0 {
		last := binprmBufSize - 1
		i := 2
		for i < last && isBlank(buf[i]) {
			i++
		}
		if i == last {
			return "", "", false, ENOEXEC // only blanks
		}
		for i < last && !isBlank(buf[i]) && buf[i] != 0 {
			i++
		}
		if i == last {
			return "", "", false, ENOEXEC // no end to the interpreter's name
		}
		end = last
	}
	line := buf[2:end]
	if z := bytes.IndexByte(line, 0); z >= 0 {
		line = line[:z]
	}
	line = bytes.Trim(line, " \t")
	if len(line) == 0 {
		return "", "", false, ENOEXEC
	}
	name := line
	if i := bytes.IndexAny(line, " \t"); i >= 0 {
		name, arg = line[:i], string(bytes.TrimLeft(line[i:], " \t"))
	}
	return string(name), arg, true, 0
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' }

// beginExec is the point of no return (begin_new_exec): what of the old
// process does not survive goes. The mappings stay for the loader, which
// removes them (some belong to the simulator, not the program).
func (k *Kernel) beginExec(req ExecRequest) {
	// de_thread: the other threads end, and the caller takes the pid.
	for _, t := range k.threads {
		if t != k.run {
			t.dead = true
		}
	}
	k.reap()
	k.run.tid = k.pid
	k.sliceStart = k.instret
	k.clearTID, k.robustList, k.robustLen = 0, 0, 0
	k.alt = altStack{flags: ssDisable}
	// Shared file mappings reach their files before the memory goes.
	k.unmapShared(0, ^uint64(0))
	k.memlocked = nil
	k.trampoline = false
	k.ptimers = nil // exit_itimers
	// The capability sets, securebits' KEEP_CAPS and the saved ids as an
	// exec of a file without capabilities leaves them (capability.go).
	k.cred.execCreds()
	for fd, f := range k.fds {
		if f != nil && f.cloexec {
			k.closeFD(int32(fd))
		}
	}
	// flush_signal_handlers: caught signals return to SIG_DFL, ignored
	// ones stay ignored; flags and handler masks are cleared.
	for i := range k.sig {
		h := k.sig[i].handler
		if h != sigIGN {
			h = sigDFL
		}
		k.sig[i] = sigAction{handler: h}
	}
	k.SetExePath(req.Guest)
	k.SetExecName(req.Filename)
}
