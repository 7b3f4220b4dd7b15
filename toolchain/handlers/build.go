// Package handlers carries the sources of rvsim's DISE profiling-handler
// runtime (src/: handlers.c, handlers.h, trampoline.S, link.ld and the
// build flags in cflags and ldflags) and builds runtimes with the RISC-V cross
// compiler: the default one, or the default one with a user's handlers
// linked beside it (`rvsim handlers build`, docs/HANDLERS.md).
package handlers

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
)

//go:embed src
var sources embed.FS

// Header returns handlers.h, the API a user's handler is written against.
func Header() []byte {
	b, _ := sources.ReadFile("src/handlers.h")
	return b
}

// Options says what to build.
type Options struct {
	Sources []string // the user's C (or assembly) files; none: the default runtime alone
	Out     string   // the ELF to write
	Prefix  string   // the cross compiler's prefix ("": $RISCV_PREFIX, else riscv64-linux-gnu-)
	// Extra are more compiler flags (-I, -D, -O…), after the runtime's.
	Extra []string
}

// BuildError is a failed compile or link. Error is one line; Output is
// what the compiler printed (its own file:line:col messages).
type BuildError struct {
	What   string // "compiling FILE" or "linking"
	Cmd    string
	Output string
	Err    error
}

func (e *BuildError) Error() string { return fmt.Sprintf("%s failed (%s: %v)", e.What, e.Cmd, e.Err) }

// Compiler returns the C compiler Build uses.
func Compiler(prefix string) string {
	if prefix == "" {
		prefix = os.Getenv("RISCV_PREFIX")
	}
	if prefix == "" {
		prefix = "riscv64-linux-gnu-"
	}
	return prefix + "gcc"
}

func flags(name string) []string {
	b, _ := sources.ReadFile("src/" + name)
	return strings.Fields(string(b))
}

// Build compiles the runtime's sources and the user's and links them at
// the runtime's address into o.Out. The user's files see handlers.h on the
// include path.
func Build(o Options) error {
	if o.Out == "" {
		return errors.New("handlers: no output file")
	}
	b, err := Link(o)
	if err != nil {
		return err
	}
	if err := os.WriteFile(o.Out, b, 0o755); err != nil {
		return fmt.Errorf("%s: %v", o.Out, unwrap(err))
	}
	return nil
}

// Link is Build without writing o.Out: it returns the linked runtime.
func Link(o Options) ([]byte, error) {
	for _, s := range o.Sources {
		st, err := os.Stat(s)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", s, unwrap(err))
		}
		if st.IsDir() {
			return nil, fmt.Errorf("%s: is a directory", s)
		}
		switch filepath.Ext(s) {
		case ".c", ".S", ".s":
		default:
			return nil, fmt.Errorf("%s: want a C (.c) or assembly (.S, .s) file", s)
		}
	}
	cc := Compiler(o.Prefix)
	if _, err := exec.LookPath(cc); err != nil {
		return nil, fmt.Errorf("the cross compiler %s is not installed (run 'make setup', or set RISCV_PREFIX)", cc)
	}
	dir, err := os.MkdirTemp("", "rvsim-handlers-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	if err := fs.WalkDir(sources, "src", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := sources.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, path.Base(p)), b, 0o644)
	}); err != nil {
		return nil, err
	}
	cflags := append(flags("cflags"), "-I", dir)
	cflags = append(cflags, o.Extra...)
	var objs []string
	compile := func(src, obj string) error {
		args := append(append([]string(nil), cflags...), "-c", "-o", obj, src)
		objs = append(objs, obj)
		return runTool("compiling "+src, cc, args)
	}
	if err := compile(filepath.Join(dir, "handlers.c"), filepath.Join(dir, "handlers.o")); err != nil {
		return nil, err
	}
	if err := compile(filepath.Join(dir, "trampoline.S"), filepath.Join(dir, "trampoline.o")); err != nil {
		return nil, err
	}
	// The stratified-sampling profiler's real interrupt handler (profhw).
	if err := compile(filepath.Join(dir, "stratified.c"), filepath.Join(dir, "stratified.o")); err != nil {
		return nil, err
	}
	for i, s := range o.Sources {
		if err := compile(s, filepath.Join(dir, fmt.Sprintf("user%d.o", i))); err != nil {
			return nil, err
		}
	}
	tmpOut := filepath.Join(dir, "out.elf")
	args := append(append(append([]string(nil), cflags...), flags("ldflags")...), "-Wl,-T,"+filepath.Join(dir, "link.ld"), "-o", tmpOut)
	if err := runTool("linking", cc, append(args, objs...)); err != nil {
		return nil, err
	}
	return os.ReadFile(tmpOut)
}

func runTool(what, name string, args []string) error {
	cmd := exec.Command(name, args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return &BuildError{What: what, Cmd: name, Output: out.String(), Err: err}
	}
	return nil
}

func unwrap(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
