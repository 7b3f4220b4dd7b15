package main

import (
	"bytes"
	"io"

	"github.com/rvsim/rvsim/outfile"
)

// warningsFlag is --warnings=stderr|FILE|off: where the simulator's
// warnings about the guest go (an unsupported system call, a refused
// write, a wait that can never end), so that they need not mix with the
// guest's own standard error.
type warningsFlag struct {
	to   string
	late lateWarnings
}

func (w *warningsFlag) register(c *cmdFlags) {
	c.String(&w.to, "warnings", "stderr|FILE|off", "stderr", "where warnings about the guest go (unsupported system calls,\nrefused writes): stderr (default), FILE, or off; ./off for a\nfile named off")
}

// files registers FILE as an output (so it cannot be an input or another
// output).
func (w *warningsFlag) files(files *cmdFiles) error {
	switch w.to {
	case "stderr", "off":
		return nil
	case "":
		return asUsage(&outfile.PathError{Name: "--warnings"})
	}
	return files.output("--warnings", w.to)
}

// writer is the kernel's warning writer, set before the run's outputs
// are created: what it is given before create is kept and passed on.
func (w *warningsFlag) writer(stderr io.Writer) io.Writer {
	switch w.to {
	case "stderr":
		w.late.w = stderr
	case "off":
		w.late.w = io.Discard
	}
	return &w.late
}

// create creates FILE (with the run's other outputs).
func (w *warningsFlag) create(files *cmdFiles) error {
	if w.to == "stderr" || w.to == "off" {
		return nil
	}
	f, err := files.create("--warnings", w.to)
	if err != nil {
		return err
	}
	w.late.set(f)
	return nil
}

// lateWarnings holds warnings until their file exists.
type lateWarnings struct {
	w   io.Writer
	buf bytes.Buffer
}

func (l *lateWarnings) Write(p []byte) (int, error) {
	if l.w == nil {
		return l.buf.Write(p)
	}
	return l.w.Write(p)
}

func (l *lateWarnings) set(w io.Writer) {
	l.w = w
	w.Write(l.buf.Bytes()) // an error is the file's, reported at Close
	l.buf.Reset()
}
