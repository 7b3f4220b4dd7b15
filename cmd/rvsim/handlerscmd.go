package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/rvsim/rvsim/sim"
	"github.com/rvsim/rvsim/toolchain/handlers"
)

const handlersUsage = `rvsim handlers build [flags] FILE.c... [-o OUT.elf]
rvsim handlers header`

const handlersAbout = `build compiles your handlers (C or assembly files written against
handlers.h: docs/HANDLERS.md) with the RISC-V cross compiler
($RISCV_PREFIX, default riscv64-linux-gnu-, then gcc), links them beside
rvsim's own handlers into a handler runtime, and checks that rvsim can
load it. Run it with 'rvsim run --handlers OUT.elf --acf ...'.

header prints handlers.h, the API your handlers #include (build puts it on
the include path).`

// handlersCmd implements `rvsim handlers build|header`.
func handlersCmd(args []string, stdout, stderr io.Writer) (int, error) {
	var out string
	var extra listFlag
	c := newFlags("handlers", handlersUsage, handlersAbout, stdout)
	c.OutFile(&out, "o", "OUT.elf", "the runtime to write (default: the first file's name with .elf)")
	c.Var(&extra, "cflag", "FLAG", "another compiler flag for your files, as -I DIR or -DNAME (repeatable)")
	if len(args) == 0 {
		return 2, c.usagef("handlers: want a subcommand, build or header")
	}
	sub := args[0]
	switch sub {
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, c.Help())
		return 0, nil
	case "header":
		if len(args) != 1 {
			return 2, c.usagef("handlers header: takes no arguments")
		}
		_, err := stdout.Write(handlers.Header())
		return 0, err
	case "build":
	default:
		return 2, c.usagef("handlers: unknown subcommand %q (build, header)", sub)
	}
	// Flags may come before or after the files, as with a compiler.
	var files []string
	rest := args[1:]
	for len(rest) > 0 {
		if err := c.parse(rest); err != nil {
			return 2, err
		}
		rest = c.Args()
		if len(rest) > 0 {
			files = append(files, rest[0])
			rest = rest[1:]
		}
	}
	if len(files) == 0 {
		return 2, c.usagef("handlers build: want your handlers' source FILE.c")
	}
	// The sources are inputs, the runtime the output (outfile).
	var io cmdFiles
	if err := c.files(&io.Set); err != nil {
		return 2, err
	}
	for _, f := range files {
		if err := io.input("the source", f); err != nil {
			return 2, err
		}
	}
	if out == "" {
		out = strings.TrimSuffix(files[0], ".c") + ".elf"
		if out == files[0] {
			out += ".elf"
		}
		if err := io.output("-o", out); err != nil {
			return 2, err
		}
	}
	elf, err := handlers.Link(handlers.Options{Sources: files, Extra: extra})
	if err != nil {
		if _, ok := err.(*handlers.BuildError); ok {
			return 1, err // the compiler's messages say what is wrong
		}
		return 2, err
	}
	w, err := io.create("-o", out)
	if err != nil {
		return 2, err
	}
	w.Write(elf)
	if err := w.Close(); err != nil {
		return 1, err
	}
	rt, err := sim.ReadHandlerRuntime(out)
	if err != nil {
		return 1, err
	}
	var names []string
	for _, n := range rt.HandlerNames() {
		names = append(names, rt.Describe(n))
	}
	fmt.Fprintf(stdout, "wrote %s: handlers %s\n", out, strings.Join(names, ", "))
	return 0, nil
}
