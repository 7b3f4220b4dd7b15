// Package profhw is the framework of the retire-stage profiling hardware:
// the units of stratified-sampling.md, hardware-path-profiling.md and
// multi-hash-profiling.md (one package per mechanism below this one) see
// the program-order stream of retired instructions, in both modes, and
// this package gives them what they share: the unit contract, the
// configuration language and its presets, the exact reference profiles'
// bookkeeping, the analytic cost of delivering messages to software, and
// the output files.
//
// A unit sees two streams:
//   - Retire: the functional core's retired instructions of the classes the
//     unit watches, in program order, in batches, in both modes. Decisions
//     that change what executes (a message buffer that fills and
//     interrupts the core) are made here, at a precise instruction.
//   - Commit (timing mode only): every instruction as the timing model
//     commits it, with its commit cycle and the events (cache misses,
//     mispredicts) the model charged to it. A unit may return stall cycles
//     that the commit stage honours (a full queue between commit and the
//     unit). Timing never changes what executes.
package profhw

import (
	"bufio"
	"bytes"
	"errors"
	"io"

	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/internal/tomlfile"
	"github.com/rvsim/rvsim/isa"
	"github.com/rvsim/rvsim/pipeline"
)

// ClassMask is a set of instruction classes (bit i is isa.Class(i)): the
// core's tap takes the same mask.
type ClassMask = cpu.ClassMask

// Classes returns the mask of the given classes.
func Classes(cs ...isa.Class) ClassMask { return cpu.ClassesOf(cs...) }

// AllClasses watches every instruction.
const AllClasses = cpu.AllClasses

// Control is every control-transfer class: conditional branches, jumps,
// calls and returns.
var Control = Classes(isa.Branch, isa.Jal, isa.Jalr, isa.Call, isa.Return)

// Watch says which instructions a unit sees.
type Watch struct {
	Retired   ClassMask // functional stream (both modes)
	Committed bool      // timing mode: every committed instruction, with events
	// CommitClasses narrows Committed to the instructions of these
	// classes (0: every one): a unit that only queues its own tuples
	// costs nothing at the commit of the others.
	CommitClasses ClassMask
	// Lean: of a load's or store's retired record the unit reads only
	// what a tuple selector does (PC, NextPC, Addr, Size, Result,
	// Injected, Handler, Inst.Class): the core may leave out its
	// retirement number and the rest of its instruction
	// (cpu.SetTapLean), about a third of the record's cost.
	Lean bool
}

// Mode is the simulation mode a unit runs in.
type Mode int

// The modes.
const (
	Functional Mode = iota
	Timing
)

func (m Mode) String() string {
	if m == Timing {
		return "timing"
	}
	return "functional"
}

// Unit is one profiling unit. Units are independent: several run in one
// simulation, each with its own configuration, exact reference, error and
// cost. The per-instruction work is inside the unit's own loops: the
// framework calls Retire once per batch.
type Unit interface {
	// Name is the unit's name from its configuration: its output files'
	// prefix and its key in --stats.
	Name() string
	Watch() Watch
	// Retire receives the retired instructions of the watched classes, in
	// program order; the records are valid only during the call.
	Retire(recs []cpu.DynInst)
	// Commit receives, in timing mode, each committed instruction (if
	// Watch().Committed); it returns the cycles commit must stall, and
	// adds them to its summary's StallReq (the hub fills StallCyc with
	// what they really cost).
	Commit(r *pipeline.Commit) (stall uint64)
	// Finish ends the run: the unit drains what it holds (as the
	// hardware would at exit, or not, as its paper says) and computes its
	// error against its exact profile.
	Finish(end End) error
	// Summary is the unit's NAME.summary.json (and its --stats entry).
	Summary() *Summary
	// Outputs are the unit's files besides the summary, by file name
	// suffix ("profile.json", "exact.json", "convergence.csv"...).
	Outputs(sym Symbolizer) ([]Output, error)
}

// Pacer is a unit that must see its records within a bound, so that what
// it decides happens at an exact instruction (a message buffer that fills
// interrupts the core right after the instruction that filled it): Pace
// is the most records of its classes it may be given before it must see
// them again; 0 means no bound.
type Pacer interface {
	Pace() int
}

// ValueTaker is a unit that can take the core's value tap
// (cpu.SetTapValues): a load's PC and value, the application's loads
// only, instead of full records. TakesValues reports whether it can now
// (a single value selector of loads over every PC, and no Pace bound:
// the hub uses the value tap only when every unit watching the stream
// can). RetireValues is then called instead of Retire.
type ValueTaker interface {
	TakesValues() bool
	RetireValues(vals []cpu.TapValue)
}

// ControlTaker is a unit that can take the core's control tap
// (cpu.SetTapControls): a control transfer's PC, target, retirement
// number, class and length, the application's transfers only, instead of
// full records. TakesControls reports whether it can now (the hub uses
// the control tap only when every unit watching the stream can, and they
// watch the control transfers only). RetireControls is then called
// instead of Retire.
type ControlTaker interface {
	TakesControls() bool
	RetireControls(recs []cpu.TapControl)
}

// Interrupter is a unit that can interrupt the core to hand its messages
// to software (stratified-sampling.md §2.2). Env.Interrupt asks for it;
// the run then stops at the current instruction boundary and calls
// TakeInterrupt, which makes the core run the handler.
type Interrupter interface {
	TakeInterrupt(h HandlerHost) error
}

// HandlerHost is what an interrupting unit may do to the stopped core:
// run a handler routine of the handler runtime (the DISE call gate), and
// read and write guest memory.
type HandlerHost interface {
	// CallHandler makes the core enter the handler routine named sym of
	// the loaded handler runtime with the given mailbox arguments, before
	// the next application instruction; it returns when the call is set
	// up (the handler runs as the core continues).
	CallHandler(sym string, args ...uint64) error
	Lookup(sym string) (uint64, bool)
	ReadMem(addr uint64, buf []byte) error
	WriteMem(addr uint64, buf []byte) error
}

// ErrHandlerBusy is CallHandler's answer when the core is inside a
// replacement sequence or a handler: the unit asks again later.
var ErrHandlerBusy = errors.New("profhw: the core is inside a replacement sequence or handler")

// Env is what a unit is given when it is built.
type Env struct {
	Mode Mode
	// Interrupt asks for the core to stop after the current instruction
	// and call the unit's TakeInterrupt (units that implement Interrupter).
	Interrupt func(u Unit)
	// Handlers reports whether a handler runtime is loaded (real handlers).
	Handlers bool
	// Entry is the address of the first instruction the core runs (where
	// a path profiler's first path starts).
	Entry uint64
}

// End is what a unit learns when the run ends.
type End struct {
	Instructions uint64 // retired instructions (all of them)
	AppInsts     uint64 // application instructions (without DISE/handler instructions)
	Cycles       uint64 // the run's cycles (functional mode: instructions)
	// StallCycles (timing mode) is, by unit in configuration order, the
	// cycles its commit stalls really cost the run
	// (pipeline.Core.HookStallCycles): the hub puts them in the units'
	// summaries (Summary.StallCyc).
	StallCycles []uint64
	// StallsUnmeasured (timing mode): the stalls' cost was not measured
	// (sim.Config.UnmeasuredProfHWStalls): the summaries' stall_cycles
	// are null.
	StallsUnmeasured bool
	Host             HandlerHost
}

// Symbolizer names a code address "symbol+0xoff" (or hex).
type Symbolizer func(addr uint64) string

// Output is one output file of a unit: its bytes, or for a large file
// (an exact profile runs to hundreds of megabytes) the function that
// streams them, so that no whole file is held in memory.
type Output struct {
	Suffix string // NAME.<Suffix>
	Data   []byte // the file (when Write is nil)
	// Write writes the file to w, returning w's first error; it may be
	// called more than once, and writes the same bytes each time.
	Write func(w io.Writer) error
	// Source is what the file renders, for other formats (a tuple
	// profile's *tuple.Profile: --profile-format pprof), or nil.
	Source any
}

// WriteBuffered writes the file to w, a streamed one through a buffer,
// and returns the first error.
func (o *Output) WriteBuffered(w io.Writer) error {
	if o.Write == nil {
		_, err := w.Write(o.Data)
		return err
	}
	bw := bufio.NewWriterSize(w, 256<<10)
	if err := o.Write(bw); err != nil {
		return err
	}
	return bw.Flush()
}

// Bytes is the whole file (tests, small files).
func (o *Output) Bytes() []byte {
	if o.Write == nil {
		return o.Data
	}
	var b bytes.Buffer
	o.Write(&b) // a bytes.Buffer does not fail
	return b.Bytes()
}

// Error is a configuration error: file:line: key: message.
type Error = tomlfile.Error
