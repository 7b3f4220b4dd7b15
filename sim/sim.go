// Package sim wires the simulator together: it loads a program into a
// fresh address space, builds the process (Linux user mode) or the
// bare-metal machine (HTIF), runs the core and services what stops it
// (system calls, host mailbox writes, faults), and reports the outcome.
package sim

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/rvsim/rvsim/config"
	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/elf"
	"github.com/rvsim/rvsim/isa"
	"github.com/rvsim/rvsim/mem"
	"github.com/rvsim/rvsim/pipeline"
	"github.com/rvsim/rvsim/profhw"
	"github.com/rvsim/rvsim/profile"
	"github.com/rvsim/rvsim/syscalls"
)

// ControlTap is Config.Controls' sink: the control tap's records
// (TappedControls), or full records (Tapped) where the core cannot give
// those.
type ControlTap interface {
	cpu.TapSink
	cpu.ControlSink
}

// Config describes one run.
type Config struct {
	Program  string   // host path of the ELF file
	Args     []string // argv[1:]
	Env      []string // the guest's environment, KEY=VALUE
	MaxInsts uint64   // 0: no limit
	// MemLimit bounds the guest's memory in bytes (mem.Memory.SetLimit):
	// 0 takes the host's default (mem.HostLimit), NoMemLimit none.
	MemLimit uint64
	Kernel   syscalls.Config
	Trace    io.Writer // commit log, nil for none
	CountMix bool      // count retired instructions by class
	// JIT translates hot code to host code (cpu.SetJIT; amd64 hosts only).
	// Runs that observe every instruction (Trace, Observers, Timing, DISE,
	// ProfHW taps, CountMix) use the interpreter regardless.
	JIT bool
	// Observers receive every retired instruction (timing model, profilers).
	Observers []cpu.Observer
	// DISE attaches the DISE/HPS instruction-stream editor (see dise.go).
	DISE *DISEOptions
	// Timing, if set, runs the out-of-order timing model of this machine
	// on the retired-instruction stream (timing mode); nil is functional
	// mode. The cycle CSR then reads the model's cycle count.
	Timing *config.Machine
	// TimingThreads (timing mode): 2 runs the model on a goroutine of its
	// own (pipeline.Async), overlapping it with the functional core on a
	// host with two cores; 1 runs it inline, on the functional core's
	// thread. 0 is 2 when GOMAXPROCS is 2 or more, else 1. The results
	// are the same either way. A sampled run's windows follow it too,
	// but for units that watch commits, whose windows run the model
	// inline.
	TimingThreads int
	// ProfHW are the retire-stage profiling units to attach (profhw.go).
	ProfHW []*profhw.UnitConfig
	// Controls, if set, takes a control tap's records (cpu.SetTapControls):
	// every control transfer of the application, recorded by translated
	// code too, so that a run that needs only those (a BBV pass) can run
	// translated. Not with ProfHW, whose units have the tap.
	Controls ControlTap
	// DropProfHWStalls (timing mode, a debugging setting): the units ask
	// for commit stalls as usual but the core ignores them, so the run has
	// the cycles it would have without them
	// (pipeline.Core.SetDropHookStalls).
	DropProfHWStalls bool
	// UnmeasuredProfHWStalls (timing mode): the units' commit stalls are
	// honoured but what they really cost is not measured, so no twin core
	// runs beside the model (pipeline.Core.SetMeasureHookStalls): the
	// units' stall_cycles are null.
	UnmeasuredProfHWStalls bool
	// FastForward (timing mode) runs the first FastForward instructions
	// functionally, without the timing model; the model then warms up over
	// Warmup instructions whose cycles are not counted, and times the rest
	// (sampled.go).
	FastForward, Warmup uint64
	// CycleProfile (timing mode) records where the simulated cycles go,
	// per instruction and call stack (Machine.CycleProfile).
	CycleProfile bool
	// Windows (timing mode, instead of FastForward) times only these
	// windows of the run, each after a warm-up, and runs the rest
	// functionally (sampled.go): SimPoint's sampled simulation.
	Windows []Window
	// FunctionalWarming (with FastForward or Windows) keeps the caches and
	// the branch predictor warm between windows: each window's timing
	// model sees every instruction before it functionally
	// (pipeline.Core.Warm), at some cost in functional speed.
	FunctionalWarming bool
	// WarmingLast (with FunctionalWarming) bounds the warming: each
	// window's model is warmed over only the last WarmingLast instructions
	// before its warm-up, the rest of the gap running at plain functional
	// speed (SMARTS' bounded warming; sampled.go). 0: the whole gap.
	WarmingLast uint64
	// Argv0 is the program's argv[0] ("": Program, as a shell passes the
	// path it was given, or for a program inside a --root given by an
	// absolute host path its path there, loadProcess). A suite gives a root's program its path inside the
	// root too, so counts do not depend on where the checkout is.
	Argv0 string

	// stdinCopy is the standard input a two-pass phase trigger read ahead
	// for its first pass (replayableStdin).
	stdinCopy []byte
	// execName names the process (comm) when Program is a #! script's
	// interpreter: the script's path (scriptProgram), or the path inside
	// the root a program was given by (programInRoot).
	execName string
	// givenPath is that path when programInRoot found the program
	// through links inside the root ("" otherwise).
	givenPath string
}

// StopKind says how a run ended.
type StopKind string

// Ways a run ends.
const (
	StopExit   StopKind = "exit"      // the program exited (or a bare-metal test wrote tohost)
	StopSignal StopKind = "signal"    // a fatal signal (a fault, or abort())
	StopLimit  StopKind = "max-insts" // --max-insts was reached
	StopHalted StopKind = "halted"    // an observer (e.g. difftest) stopped the run
	StopMemory StopKind = "mem-limit" // the guest touched more memory than --mem-limit allows
	// StopDeadlock: every thread of the process was blocked with nothing
	// left to wake any of them (Linux would hang).
	StopDeadlock StopKind = "deadlock"
)

// ExitDeadlock is the exit status of a run that ended in a deadlock.
const ExitDeadlock = 1

// NoMemLimit as Config.MemLimit runs without a guest memory limit.
const NoMemLimit = ^uint64(0)

// ExitMemLimit is the exit status of a run that reached the guest memory
// limit: 128+SIGKILL, what Linux's OOM killer leaves.
const ExitMemLimit = 128 + 9

// Result is the outcome of a run.
type Result struct {
	Stop         StopKind
	ExitCode     int    // the process's exit status as a shell sees it (128+sig for signals)
	Message      string // one line for the user when the run did not simply exit ("illegal instruction …", "Aborted")
	Instructions uint64
	// Translated is how many of them ran in translated code (--jit).
	Translated  uint64
	HostSeconds float64
	Mix         [isa.NumClasses]uint64
	BareMetal   bool
	DISE        *DISEResult // nil without DISE
	// Cycles is the run's length in cycles: the timing model's count in
	// timing mode, the instruction count (CPI 1) in functional mode.
	Cycles    uint64
	TimingErr error // the timing model failed (a deadlock: a model bug)
	ProfHWErr error // a profiling unit failed to finish
	// Sampled divides a sampled run's instructions (nil without a
	// fast-forward or windows); Cycles are then the timed parts'.
	Sampled *SampledCounts
}

// TranslatedShare is the share of the run's instructions that ran in
// translated code.
func (r *Result) TranslatedShare() float64 {
	if r.Instructions == 0 {
		return 0
	}
	return float64(r.Translated) / float64(r.Instructions)
}

// MIPS is the simulation speed of the run.
func (r *Result) MIPS() float64 {
	if r.HostSeconds == 0 {
		return 0
	}
	return float64(r.Instructions) / r.HostSeconds / 1e6
}

// Machine is a loaded program ready to run.
type Machine struct {
	CPU    *cpu.CPU
	Mem    *mem.Memory
	Kernel *syscalls.Kernel
	Prog   *elf.Program
	Bias   uint64 // load bias (PIE and static-pie)
	// Interp is a dynamic program's interpreter (ld.so), loaded at
	// InterpBias; nil for a static program.
	Interp     *elf.Program
	InterpBias uint64
	cfg        Config
	htif       *htif
	clint      *clint     // bare metal: the timer and software interrupts
	dise       *diseState // nil without DISE
	timing     *pipeline.Core
	async      *pipeline.Async       // the model on its own goroutine, or nil (inline)
	cycles     *profile.CycleProfile // Config.CycleProfile's
	profhw     *profhw.Hub           // nil without profiling units
	sampled    *sampledState         // nil without a fast-forward or windows
	sampledErr error                 // a window's timing model failed

	redirects uint64 // see Redirects
}

// Load reads the program and builds the machine.
func Load(cfg Config) (*Machine, error) {
	programInRoot(&cfg)
	script, interp, err := scriptProgram(&cfg)
	if err != nil {
		return nil, err
	}
	prog, err := elf.LoadExec(cfg.Program)
	if err != nil && script != "" {
		return nil, fmt.Errorf("%s: the interpreter %s of its #! line cannot run (%w); it comes from the guest's root (--root)", script, interp, err)
	}
	if err != nil {
		return nil, err
	}
	return LoadProgram(prog, cfg)
}

// LoadProgram builds the machine for an already parsed program.
func LoadProgram(prog *elf.Program, cfg Config) (*Machine, error) {
	if err := checkSampled(&cfg); err != nil {
		return nil, err
	}
	if err := checkTimingThreads(cfg.TimingThreads); err != nil {
		return nil, err
	}
	if cfg.CycleProfile && cfg.Timing == nil {
		return nil, fmt.Errorf("a cycle profile needs the timing model (timing mode)")
	}
	if cfg.Controls != nil && len(cfg.ProfHW) > 0 {
		return nil, fmt.Errorf("a control tap's sink and profiling units cannot share the tap")
	}
	if err := replayableStdin(&cfg); err != nil {
		return nil, err
	}
	m := mem.New()
	switch cfg.MemLimit {
	case 0:
		m.SetLimit(mem.HostLimit().Default())
	case NoMemLimit:
	default:
		m.SetLimit(cfg.MemLimit)
	}
	c := cpu.New(m)
	mc := &Machine{CPU: c, Mem: m, Prog: prog, cfg: cfg}
	kcfg := cfg.Kernel
	if kcfg.Sysroot == "" && prog.IsDynamic() && !prog.HasToHost {
		kcfg.Sysroot = defaultSysroot(kcfg.Root)
	}
	k, err := syscalls.New(m, kcfg)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", prog.Path, err)
	}
	mc.Kernel = k
	if prog.HasToHost {
		err = mc.loadBareMetal()
	} else {
		err = mc.loadProcess()
	}
	if _, ok := m.Exhausted(); ok {
		return nil, fmt.Errorf("%s: loading the program needs more than the guest memory limit of %s (--mem-limit)", prog.Path, mem.FormatSize(m.Limit()))
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", prog.Path, err)
	}
	if cfg.DISE != nil {
		if err := mc.loadDISE(cfg.DISE); err != nil {
			return nil, err
		}
	}
	c.CountMix = cfg.CountMix
	c.SetJIT(cfg.JIT)
	var obs []cpu.Observer
	if cfg.Trace != nil {
		obs = append(obs, newTracer(cfg.Trace))
	}
	obs = append(obs, cfg.Observers...)
	if mc.dise != nil && mc.dise.phase != nil {
		obs = append(obs, mc.dise.phase) // the phase tracker's branches (phasetrigger.go)
	}
	if cfg.Timing != nil {
		core, err := newTimingCore(cfg.Timing, cfg.DISE)
		if err != nil {
			return nil, err
		}
		mc.timing = core
		core.SetStopFunc(c.RequestStop)
		if cfg.CycleProfile {
			mc.cycles = profile.NewCycleProfile()
			core.SetCycleSink(mc.cycles.Record)
		}
		if wins := cfg.windows(); len(wins) > 0 { // attached at each window (sampled.go)
			mc.sampled = &sampledState{wins: wins, base: obs, pending: core, warming: cfg.FunctionalWarming, warmLast: cfg.WarmingLast}
			if cfg.FunctionalWarming && cfg.WarmingLast == 0 {
				mc.sampled.warmOn = true
				obs = append(obs, core.Warmer())
			}
		} else {
			c.CycleFunc = core.CycleAt
			obs = append(obs, core)
		}
	}
	coreAt := len(obs) - 1 // the timing model's place in obs, if it is there
	if len(cfg.ProfHW) > 0 {
		if err := mc.loadProfHW(cfg.ProfHW); err != nil {
			return nil, err
		}
		if mc.timing != nil && mc.sampled == nil && mc.profhw.WatchesCommits() { // (sampled: at each window)
			mc.timing.SetRetireHook(mc.profhw.Commit, mc.profhw.CommitClasses())
			mc.timing.SetDropHookStalls(cfg.DropProfHWStalls)
			mc.timing.SetMeasureHookStalls(!cfg.UnmeasuredProfHWStalls)
		}
	}
	if cfg.Controls != nil {
		c.SetTapControls(true)
		c.SetTap(cpu.BranchClasses, cfg.Controls)
	}
	if mc.timingAsync() {
		mc.async = pipeline.NewAsync(mc.timing)
		mc.async.SetStopFunc(c.RequestStop)
		c.CycleFunc = mc.async.CycleAt
		obs[coreAt] = mc.async
	}
	switch len(obs) {
	case 0:
	case 1:
		c.SetObserver(obs[0])
	default:
		c.SetObserver(fanout(obs))
	}
	return mc, nil
}

func (mc *Machine) loadProcess() error {
	p := mc.Prog
	var interp *elf.Program
	if p.IsDynamic() {
		var err error
		if interp, err = mc.findInterp(p); err != nil {
			return err
		}
	}
	// argv[0] is the path as the user gave it (as a shell passes it), or
	// for a program inside a --root other than the host's / given by an
	// absolute host path, its path there, as a shell in the guest would
	// pass it: a program that runs argv[0] again (Python's
	// sys.executable) finds itself, as the suites' programs in a root do
	// (suite/run.go). A relative path names the same file in the guest
	// (its working directory is the host's, in the root). /proc/self/exe and AT_EXECFN
	// name the program inside the guest's root. comm is the name the
	// program was started by, before links.
	guest, inRoot := mc.Kernel.GuestPath(p.Path)
	if mc.cfg.Kernel.ExePath == "" && inRoot {
		mc.Kernel.SetExePath(guest)
		mc.Kernel.SetExecName(p.Path)
	}
	if mc.cfg.execName != "" {
		mc.Kernel.SetExecName(mc.cfg.execName)
	}
	argv0 := p.Path
	switch {
	case mc.cfg.Argv0 != "":
		argv0 = mc.cfg.Argv0
	case inRoot && filepath.IsAbs(p.Path) && mc.Kernel.RootDir() != "/":
		argv0 = guest
	}
	argv := append([]string{argv0}, mc.cfg.Args...)
	pc, sp, err := mc.loadImage(p, interp, argv, mc.cfg.Env, "")
	if err != nil {
		return err
	}
	mc.CPU.PC = pc
	mc.CPU.SetReg(2, sp)
	mc.CPU.Tid = uint32(mc.Kernel.Tid())
	mc.Kernel.SetExecLoader(mc.prepareExec)
	mc.Kernel.SetForker(mc.forkChild)
	return nil
}

// loadImage maps program p (and its dynamic linker interp, nil for a
// static program) into the empty address space as Linux's
// load_elf_binary does: a PIE at PIEBase, the interpreter top-down in
// the mmap area like an mmap without a hint. It builds the initial stack
// and returns where the process starts (the interpreter's entry, if there
// is one) and its stack pointer. execfn is AT_EXECFN ("": the program's
// guest path).
func (mc *Machine) loadImage(p, interp *elf.Program, argv, envp []string, execfn string) (pc, sp uint64, err error) {
	var bias, interpBias uint64
	if p.IsPIE() {
		bias = syscalls.PIEBase
	}
	end, err := p.Load(mc.Mem, bias)
	if err != nil {
		return 0, 0, err
	}
	pc = p.Entry + bias
	if interp != nil {
		lo, hi := interp.Span()
		if interp.IsPIE() {
			base, ok := mc.Mem.FindFree(hi-lo, syscalls.MmapMin, syscalls.MmapTop)
			if !ok {
				return 0, 0, fmt.Errorf("dynamic linker %s: no room for %#x bytes", p.Interp, hi-lo)
			}
			interpBias = base - lo
		} else if !mc.Mem.IsFree(lo, hi-lo) {
			return 0, 0, fmt.Errorf("dynamic linker %s: its segments [%#x, %#x) overlap the program's", p.Interp, lo, hi)
		}
		if _, err := interp.Load(mc.Mem, interpBias); err != nil {
			return 0, 0, fmt.Errorf("dynamic linker %s: %v", p.Interp, err)
		}
		pc = interp.Entry + interpBias
	}
	mc.Prog, mc.Interp, mc.Bias, mc.InterpBias = p, interp, bias, interpBias
	sp, err = mc.Kernel.SetupProcess(syscalls.Image{
		Entry: p.Entry + bias, Phdr: p.PhdrVaddr + bias, Phent: p.Phent, Phnum: p.Phnum,
		Base: interpBias, BrkStart: end, ExecFn: execfn,
	}, argv, envp)
	return pc, sp, err
}

// DefaultSysroot is where Debian's libc6-riscv64-cross installs the
// riscv64 dynamic linker and C library.
const DefaultSysroot = "/usr/riscv64-linux-gnu"

// defaultSysroot returns DefaultSysroot if it exists inside the guest
// root (a guest root of its own is expected to hold its own libraries).
func defaultSysroot(root string) string {
	if fi, err := os.Stat(DefaultSysroot); err != nil || !fi.IsDir() {
		return ""
	}
	if root != "" {
		r, err1 := filepath.EvalSymlinks(root)
		d, err2 := filepath.EvalSymlinks(DefaultSysroot)
		if err1 != nil || err2 != nil {
			return ""
		}
		if rel, err := filepath.Rel(r, d); err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
			return ""
		}
	}
	return DefaultSysroot
}

// findInterp finds and parses a dynamic program's interpreter, as
// Linux's load_elf_binary opens it: in the guest's file system, the
// sysroot first. Its error is an *interpError: the message for the user
// at start, the errno for an execve.
func (mc *Machine) findInterp(p *elf.Program) (*elf.Program, error) {
	host, err := mc.Kernel.ExecFile(p.Interp)
	if err != nil {
		where := "the guest root"
		if sr := mc.Kernel.Sysroot(); sr != "" {
			where = fmt.Sprintf("the sysroot %s or the guest root", sr)
		}
		hint := "give --sysroot DIR (or set QEMU_LD_PREFIX)"
		if _, statErr := os.Stat(DefaultSysroot); statErr != nil {
			hint += " or install libc6-riscv64-cross"
		}
		return nil, &interpError{fmt.Errorf("dynamic linker %s: %s in %s; %s", p.Interp, errnoText(err), where, hint), execErrno(err, syscalls.ENOENT)}
	}
	interp, err := elf.LoadExec(host)
	if err != nil {
		return nil, &interpError{fmt.Errorf("dynamic linker %s: %w", p.Interp, err), execErrno(err, syscalls.ELIBBAD)}
	}
	if interp.HasToHost {
		return nil, &interpError{fmt.Errorf("dynamic linker %s (%s) is a bare-metal program", p.Interp, host), syscalls.ELIBBAD}
	}
	return interp, nil
}

// interpError is findInterp's error.
type interpError struct {
	err   error
	errno syscalls.Errno // what execve returns for it
}

func (e *interpError) Error() string { return e.err.Error() }
func (e *interpError) Unwrap() error { return e.err }

// errnoText says what an errno from the file-system sandbox means.
func errnoText(err error) string {
	switch {
	case errors.Is(err, syscalls.ENOENT):
		return "not found"
	case errors.Is(err, syscalls.EACCES):
		return "not a regular file"
	case errors.Is(err, syscalls.EISDIR):
		return "is a directory"
	}
	return err.Error()
}

// fanout delivers each batch to several observers in order.
type fanout []cpu.Observer

func (f fanout) Retire(batch []cpu.DynInst) {
	for _, o := range f {
		o.Retire(batch)
	}
}

// Run runs the machine to completion (exit, fatal signal, or the
// instruction limit).
func (mc *Machine) Run() Result {
	c := mc.CPU
	start := time.Now()
	res := Result{BareMetal: mc.htif != nil}
	for {
		// Taken traps count against the budget so a trap loop ends too.
		budget, used := ^uint64(0), c.Instret+c.Traps
		if mc.cfg.MaxInsts != 0 {
			if used >= mc.cfg.MaxInsts {
				res.Stop = StopLimit
				res.Message = fmt.Sprintf("instruction limit reached (%d instructions)", c.Instret)
				break
			}
			budget = mc.cfg.MaxInsts - used
		}
		if _, done := mc.Interrupt(&res); done {
			break
		}
		exit := mc.step(mc.timerBudget(mc.sampledBudget(budget)))
		if exit.Reason == cpu.StopRequest && mc.profhw != nil && mc.profhw.Pending() {
			if err := mc.takeInterrupts(); err != nil {
				res.Stop, res.ExitCode, res.Message = StopHalted, 1, err.Error()
				res.ProfHWErr = err
				break
			}
			continue
		}
		if done := mc.Service(exit, &res); done {
			break
		}
	}
	if mc.Kernel != nil {
		mc.Kernel.FinishChildren() // orphans run to their ends (syscalls/fork.go)
	}
	res.Instructions = c.Instret
	res.Translated = c.JITStats().Retired
	res.Mix = c.ClassMix()
	res.Cycles = res.Instructions
	mc.finishDISE(&res)
	mc.finishTiming(&res)
	mc.finishSampled(&res)
	mc.finishProfHW(&res)
	// The units' Finish counts: a measurement on another goroutine may
	// still be catching up, and the final error is part of the run.
	res.HostSeconds = time.Since(start).Seconds()
	return res
}

// Service handles why the core stopped (a system call, a host mailbox
// write, a fault) and records the outcome in res; it returns true when the
// run is over. Run uses it; so do drivers that step the core themselves,
// such as lock-step difftest.
func (mc *Machine) Service(exit cpu.Exit, res *Result) bool {
	switch exit.Reason {
	case cpu.StopEcall:
		return mc.ecall(res)
	case cpu.StopFault:
		return mc.fault(exit.Fault, res)
	case cpu.StopHost:
		if mc.clint != nil {
			mc.clint.sync()
		}
		if code, done := mc.htif.service(); done {
			res.Stop, res.ExitCode = StopExit, code
			return true
		}
	case cpu.StopRequest:
		res.Stop = StopHalted
		return true
	case cpu.StopLimit:
		// The loop in Run checks the limit and delivers timer signals.
	}
	return false
}

// memoryExhausted ends the run if the guest touched memory the limit
// could not back (a fault in the core, or a system call's copy); where
// says where the touch happened.
func (mc *Machine) memoryExhausted(res *Result, where string) bool {
	addr, ok := mc.Mem.Exhausted()
	if !ok {
		return false
	}
	res.Stop, res.ExitCode = StopMemory, ExitMemLimit
	res.Message = fmt.Sprintf("out of memory: the guest memory limit of %s (--mem-limit) cannot back address %#x touched %s",
		mem.FormatSize(mc.Mem.Limit()), addr, where)
	return true
}

// syscallName names system call n for messages.
func syscallName(n uint64) string {
	if name := syscalls.Name(n); name != "" {
		return name
	}
	return fmt.Sprint(n)
}
