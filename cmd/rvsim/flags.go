package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"

	"github.com/rvsim/rvsim/outfile"
)

// cmdFlags is a command's flag set whose every flag is defined with the
// text `--help` prints for it, so that a flag is one line of code and its
// documentation cannot drift from it.
type cmdFlags struct {
	fs    *flag.FlagSet
	name  string // the command, for messages: "run", "compare"
	usage string // the usage lines, as `--help` prints them
	about string // what the command does (may be empty)
	docs  []flagDoc
	paths []pathFlag
	out   io.Writer // where --help goes
}

type flagDoc struct {
	names, help string // names: "--trace FILE"
}

// pathFlag is a flag that names a file the command reads or writes: files
// registers it with the command's outfile.Set.
type pathFlag struct {
	name   string
	p      *string   // a single path
	list   *listFlag // a repeatable one
	output bool
	other  bool // a directory or prefix its command registers itself: only checked not to be empty
}

func newFlags(name, usage, about string, out io.Writer) *cmdFlags {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return &cmdFlags{fs: fs, name: name, usage: usage, about: about, out: out}
}

// flagName is how a flag is written: --trace, -o.
func flagName(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

func (f *cmdFlags) doc(name, arg, help string) {
	n := flagName(name)
	if arg != "" {
		n += " " + arg
	}
	f.docs = append(f.docs, flagDoc{n, help})
}

// String defines --name ARG.
func (f *cmdFlags) String(p *string, name, arg, def, help string) {
	f.fs.StringVar(p, name, def, "")
	f.doc(name, arg, help)
}

// NonEmpty defines --name ARG whose default is its absence: an empty
// value is refused rather than taken silently as the default.
func (f *cmdFlags) NonEmpty(p *string, name, arg, help string) {
	f.fs.Func(name, "", func(s string) error {
		if s == "" {
			return errors.New("want a value")
		}
		*p = s
		return nil
	})
	f.doc(name, arg, help)
}

// Uint64 defines --name ARG.
func (f *cmdFlags) Uint64(p *uint64, name, arg string, def uint64, help string) {
	f.fs.Uint64Var(p, name, def, "")
	f.doc(name, arg, help)
}

// Int defines --name ARG.
func (f *cmdFlags) Int(p *int, name, arg string, def int, help string) {
	f.fs.IntVar(p, name, def, "")
	f.doc(name, arg, help)
}

// Bool defines --name.
func (f *cmdFlags) Bool(p *bool, name, help string) {
	f.fs.BoolVar(p, name, false, "")
	f.doc(name, "", help)
}

// Var defines --name ARG with a flag.Value (a repeatable list, say).
func (f *cmdFlags) Var(v flag.Value, name, arg, help string) {
	f.fs.Var(v, name, "")
	f.doc(name, arg, help)
}

// InFile defines --name FILE, a file the command reads.
func (f *cmdFlags) InFile(p *string, name, arg, help string) {
	f.String(p, name, arg, "", help)
	f.paths = append(f.paths, pathFlag{name: name, p: p})
}

// InFiles defines a repeatable --name FILE of files the command reads.
func (f *cmdFlags) InFiles(l *listFlag, name, arg, help string) {
	f.Var(l, name, arg, help)
	f.paths = append(f.paths, pathFlag{name: name, list: l})
}

// OutFile defines --name FILE, a file the command writes (see outfile).
func (f *cmdFlags) OutFile(p *string, name, arg, help string) {
	f.String(p, name, arg, "", help)
	f.paths = append(f.paths, pathFlag{name: name, p: p, output: true})
}

// PathFlag defines --name ARG, a directory or path prefix: files refuses
// it empty, and the command registers what it names itself.
func (f *cmdFlags) PathFlag(p *string, name, arg, help string) {
	f.String(p, name, arg, "", help)
	f.paths = append(f.paths, pathFlag{name: name, p: p, other: true})
}

// files registers with set every InFile, InFiles and OutFile flag given on
// the command line (an empty path is an error), under its flag's name:
// an output that is an input or another output is refused before the
// command starts its work.
func (f *cmdFlags) files(set *outfile.Set) error {
	for _, pf := range f.paths {
		if !f.set(pf.name) {
			continue
		}
		paths := []string{}
		if pf.p != nil {
			paths = append(paths, *pf.p)
		} else {
			paths = append(paths, *pf.list...)
		}
		for _, p := range paths {
			var err error
			if pf.other {
				if p == "" {
					err = &outfile.PathError{Name: flagName(pf.name)}
				}
			} else if pf.output {
				err = set.Output(flagName(pf.name), p)
			} else {
				err = set.Input(flagName(pf.name), p)
			}
			if err != nil {
				return &usageError{err.Error()}
			}
		}
	}
	return nil
}

// Alias makes --alias another name of the flag --name, undocumented.
func (f *cmdFlags) Alias(alias, name string) {
	f.fs.Var(f.fs.Lookup(name).Value, alias, "")
}

// Help is the text `--help` prints: usage, description and flags.
func (f *cmdFlags) Help() string {
	var b strings.Builder
	b.WriteString("Usage:\n")
	for _, l := range strings.Split(strings.TrimRight(f.usage, "\n"), "\n") {
		b.WriteString("  " + l + "\n")
	}
	if f.about != "" {
		b.WriteString("\n" + strings.TrimRight(f.about, "\n") + "\n")
	}
	if len(f.docs) > 0 {
		b.WriteString("\nFlags:\n")
		width := 0
		for _, d := range f.docs {
			width = max(width, len(d.names))
		}
		width = min(width, 22)
		for _, d := range f.docs {
			help := strings.Split(d.help, "\n")
			if len(d.names) > width {
				fmt.Fprintf(&b, "  %s\n  %-*s  %s\n", d.names, width, "", help[0])
			} else {
				fmt.Fprintf(&b, "  %-*s  %s\n", width, d.names, help[0])
			}
			for _, l := range help[1:] {
				fmt.Fprintf(&b, "  %-*s  %s\n", width, "", l)
			}
		}
	}
	return b.String()
}

// errHelp means the command printed its help: exit status 0.
var errHelp = errors.New("help printed")

// parse parses args (flags up to the first non-flag argument). -h,
// -help and --help print the command's help and return errHelp; a bad
// flag is one line of usage error.
func (f *cmdFlags) parse(args []string) error {
	err := f.fs.Parse(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		fmt.Fprint(f.out, f.Help())
		return errHelp
	case err != nil:
		msg := goFlagName.ReplaceAllString(err.Error(), "${1}--${2}")
		return &usageError{fmt.Sprintf("%s (try 'rvsim %s --help')", msg, f.name)}
	}
	return nil
}

// goFlagName finds a flag's name in the flag package's messages, which
// write every flag with one dash: rvsim's long flags are written with two.
var goFlagName = regexp.MustCompile(`(flag |for |defined: |argument: )-([^\s:-][^\s:]+)`)

// Args are the arguments after the flags.
func (f *cmdFlags) Args() []string { return f.fs.Args() }

// set reports whether --name was given.
func (f *cmdFlags) set(name string) bool {
	given := false
	f.fs.Visit(func(fl *flag.Flag) { given = given || fl.Name == name })
	return given
}

// positive rejects --name 0 given explicitly, where 0 would mean "none".
func (f *cmdFlags) positive(name string, what string) error {
	if f.set(name) && f.fs.Lookup(name).Value.String() == "0" {
		return &usageError{fmt.Sprintf("--%s 0: want at least 1 (%s)", name, what)}
	}
	return nil
}

// usagef is a usage error that points at the command's help.
func (f *cmdFlags) usagef(format string, args ...any) error {
	return &usageError{fmt.Sprintf(format, args...) + fmt.Sprintf(" (try 'rvsim %s --help')", f.name)}
}

// listFlag collects a repeatable string flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

// cmdFiles is the outfile.Set of a command's files, with a usage error for
// each problem (a bad output path is exit status 2).
type cmdFiles struct{ outfile.Set }

func (s *cmdFiles) input(name, path string) error  { return asUsage(s.Input(name, path)) }
func (s *cmdFiles) output(name, path string) error { return asUsage(s.Output(name, path)) }
func (s *cmdFiles) create(name, path string) (*outfile.File, error) {
	f, err := s.Create(name, path)
	return f, asUsage(err)
}

func asUsage(err error) error {
	if err == nil {
		return nil
	}
	return &usageError{err.Error()}
}

func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
