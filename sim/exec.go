package sim

import (
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/rvsim/rvsim/elf"
	"github.com/rvsim/rvsim/mem"
	"github.com/rvsim/rvsim/syscalls"
)

// prepareExec is the loader's half of execve (syscalls.ExecLoader): it
// parses the new program and its dynamic linker while the old image
// still runs, so that a bad file fails the call (ENOEXEC, EACCES,
// ELIBBAD) and the caller goes on. The load it returns runs past the
// point of no return: it removes every mapping of the old image but the
// simulator's own (a DISE handler runtime, which keeps its profiles
// across the exec), maps the new program as the first one was mapped
// (loadImage), and lists the new image's bytes as the system call's
// writes, so that a lock-step oracle copies them.
func (mc *Machine) prepareExec(req syscalls.ExecRequest) (func() (uint64, uint64, error), syscalls.Errno) {
	prog, err := elf.LoadExec(req.Host)
	if err != nil {
		return nil, execErrno(err, syscalls.ENOEXEC)
	}
	if prog.HasToHost {
		return nil, syscalls.ENOEXEC // a bare-metal program
	}
	var interp *elf.Program
	if prog.IsDynamic() {
		if interp, err = mc.findInterp(prog); err != nil {
			var ie *interpError
			if errors.As(err, &ie) {
				return nil, ie.errno
			}
			return nil, syscalls.ELIBBAD
		}
	}
	keep := mc.simulatorRegions()
	if !prog.IsPIE() {
		lo, hi := prog.Span()
		for _, r := range keep {
			if lo < r.End && r.Start < hi {
				return nil, syscalls.ENOMEM // the program would overlap the handler runtime
			}
		}
	}
	load := func() (uint64, uint64, error) {
		for _, r := range mc.Mem.Regions() {
			if !contains(keep, r) {
				mc.Mem.Unmap(r.Start, r.End-r.Start)
			}
		}
		mc.CPU.FlushCode()
		pc, sp, err := mc.loadImage(prog, interp, req.Argv, req.Envp, req.Filename)
		if err != nil {
			return 0, 0, err
		}
		for _, r := range mc.Mem.Regions() {
			if !contains(keep, r) {
				mc.Kernel.NoteWrite(r.Start, r.End-r.Start)
			}
		}
		return pc, sp, nil
	}
	return load, 0
}

// simulatorRegions lists the mappings that belong to the simulator, not
// the program: the DISE handler runtime's segments.
func (mc *Machine) simulatorRegions() []mem.Region {
	if mc.dise == nil || mc.dise.handlers == nil {
		return nil
	}
	var out []mem.Region
	for _, s := range mc.dise.handlers.Segments {
		out = append(out, mem.Region{Start: s.Vaddr &^ mem.PageMask, End: (s.Vaddr + s.Memsz + mem.PageMask) &^ mem.PageMask})
	}
	return out
}

// contains reports whether r lies inside one of rs.
func contains(rs []mem.Region, r mem.Region) bool {
	for _, k := range rs {
		if k.Start <= r.Start && r.End <= k.End {
			return true
		}
	}
	return false
}

// execErrno is the errno execve returns for a loader error: a file
// without execute permission or not a regular file is EACCES, an errno
// from the guest's file system is itself, anything else (a malformed
// ELF file, another machine's) is dflt.
func execErrno(err error, dflt syscalls.Errno) syscalls.Errno {
	var e syscalls.Errno
	switch {
	case errors.As(err, &e):
		return e
	case errors.Is(err, elf.ErrNotExecutable):
		return syscalls.EACCES
	}
	return dflt
}

// programInRoot finds a program given by a host path inside the guest's
// root (--root) as the guest would find it: a symbolic link on the way
// is followed inside the root, where the host would follow an absolute
// one out of it (update-alternatives' /usr/bin/java links to
// /etc/alternatives/java, which on the host is the host's own). When the
// two differ, the program becomes the file the guest finds, and its
// argv[0] and name the path inside the root as given, as a shell in the
// guest passes them. A path the guest cannot open is left to the loader.
func programInRoot(cfg *Config) {
	root := cfg.Kernel.Root
	abs, err := filepath.Abs(cfg.Program)
	if root == "" || root == "/" || err != nil {
		return
	}
	rootAbs, err := filepath.Abs(root)
	if err != nil {
		return
	}
	rel := ""
	for _, r := range []string{rootAbs, evalSymlinks(rootAbs)} {
		if abs == r || strings.HasPrefix(abs, r+"/") {
			rel, _ = filepath.Rel(r, abs)
			break
		}
	}
	if rel == "" {
		return
	}
	kc := cfg.Kernel
	kc.Sysroot = "" // the path names a file of the root itself
	k, err := syscalls.New(mem.New(), kc)
	if err != nil {
		return
	}
	guest := path.Clean("/" + filepath.ToSlash(rel))
	host, err := k.ExecFile(guest)
	k.Close()
	if err != nil || host == evalSymlinks(abs) {
		return
	}
	cfg.Program, cfg.givenPath = host, guest
	if cfg.Argv0 == "" {
		cfg.Argv0 = guest
	}
	cfg.execName = guest
}

// evalSymlinks is p with the host's links followed, or p if it cannot be.
func evalSymlinks(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

// scriptProgram turns a run of a #! script into the run of its
// interpreter, as execve would (binfmt_script): the interpreter, found in
// the guest's file system (the sysroot first), becomes the program; its
// argv is the interpreter's path, the line's argument if any, the
// script's guest path, then the script's arguments. Interpreters nest
// five deep at most. It returns the script and the interpreter its line
// names ("" for a program that is not a script, which is left to the
// ELF loader).
func scriptProgram(cfg *Config) (script, interp string, err error) {
	for depth := 0; ; depth++ {
		name, arg, ok, e := syscalls.ScriptLine(cfg.Program)
		switch {
		case e == syscalls.ENOEXEC:
			return "", "", fmt.Errorf("%s: its #! line names no interpreter, or one longer than 256 bytes", cfg.Program)
		case e != 0 && depth == 0:
			return "", "", nil // unreadable: the ELF loader says why, as for any program
		case e != 0:
			return "", "", fmt.Errorf("%s: %v", cfg.Program, e)
		case !ok:
			return script, interp, nil
		case depth == 0:
			script, interp = cfg.Program, name
		case depth == 5:
			return "", "", fmt.Errorf("%s: #! interpreters nest more than five deep", script)
		}
		if err := syscall.Access(cfg.Program, 1); err != nil {
			return "", "", fmt.Errorf("%s: permission denied (a #! script needs execute permission, as execve does)", cfg.Program)
		}
		k, err := syscalls.New(mem.New(), cfg.Kernel)
		if err != nil {
			return "", "", fmt.Errorf("%s: %v", cfg.Program, err)
		}
		host, err := k.ExecFile(name)
		guest, inRoot := k.GuestPath(cfg.Program)
		if depth == 0 && cfg.givenPath != "" {
			guest, inRoot = cfg.givenPath, true // the script by the path given (programInRoot)
		}
		k.Close()
		if err != nil {
			return "", "", fmt.Errorf("%s: the interpreter %s of its #! line: %s in the guest root", cfg.Program, name, errnoText(err))
		}
		if !inRoot {
			return "", "", fmt.Errorf("%s: a #! script must lie inside the guest root, where its interpreter can open it", cfg.Program)
		}
		args := []string{}
		if arg != "" {
			args = append(args, arg)
		}
		cfg.Args = append(append(args, guest), cfg.Args...)
		cfg.Program, cfg.Argv0 = host, name
		if depth == 0 && cfg.givenPath == "" {
			cfg.execName = script
		}
	}
}
