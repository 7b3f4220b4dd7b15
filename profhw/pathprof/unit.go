package pathprof

import (
	"fmt"
	"runtime"

	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/isa"
	"github.com/rvsim/rvsim/pipeline"
	"github.com/rvsim/rvsim/profhw"
)

func init() {
	profhw.Register(profhw.KindInfo{Name: "path", Doc: "hardware path profiler: branch queue, path stack, PPCR, metrics along paths, Hot Path Table, path-based phase detection (hardware-path-profiling.md §3-6, §8)", Build: build})
}

// Config is a path profiler's configuration.
type Config struct {
	Paths       string // bl | wpp | custom (the PPCR preset)
	PPCR        PPCR
	Metric      Metric
	Depth       int
	Overflow    Overflow
	CounterBits uint
	SpillCycles uint64
	Queue       int // branch queue entries (0, 2, 4, 8)
	HPTEntries  int
	HPTWays     int
	HPTIndex    Index
	// Latencies (§8.2), cycles.
	LatUpdate, LatUpdateCount, LatPush, LatPop, LatHPTHit uint64
	Window                                                uint64 // dynamic overlap window, instructions (0: off)
	Top                                                   int    // paths in the hot-path listing
	Power                                                 PowerModel
	Phase                                                 PhaseConfig
	Grammar                                               bool // wpp.grammar: compress the WPP subpaths (SEQUITUR)
	GrammarMax                                            int  // wpp.max_symbols: the grammar stops growing here
}

// DefaultConfig is a BL path profiler with §8's HPT (512 entries, 4
// ways, plb) and a 4-entry branch queue.
func DefaultConfig() Config {
	return Config{Paths: "bl", PPCR: BL, Metric: Frequency, Depth: 32, Overflow: DropBottom, CounterBits: 32,
		SpillCycles: 2, Queue: 4, HPTEntries: 512, HPTWays: 4, HPTIndex: IndexPLB,
		LatUpdate: 1, LatUpdateCount: 1, LatPush: 1, LatPop: 1, LatHPTHit: 2,
		Window: 1_000_000, Top: 20, Power: PaperPower, Phase: DefaultPhaseConfig(), GrammarMax: 10_000_000}
}

func build(c *profhw.UnitConfig, env profhw.Env) (profhw.Unit, error) {
	cfg, err := ReadConfig(c, env.Mode)
	if err != nil {
		return nil, err
	}
	return New(c.Name, cfg, env)
}

// ReadConfig reads a [[unit]] table of kind "path".
func ReadConfig(c *profhw.UnitConfig, mode profhw.Mode) (Config, error) {
	cfg := DefaultConfig()
	cfg.Paths = c.String("paths", "bl", "bl", "wpp", "custom")
	switch cfg.Paths {
	case "bl":
		cfg.PPCR = BL
	case "wpp":
		cfg.PPCR = WPP
	case "custom":
		for t := Call; t < NumBranchTypes; t++ {
			key := "ppcr." + t.String()
			if !c.Has(key) {
				c.Errorf("paths", "custom paths need ppcr.%s (a list of update, update-count, pop, push)", t)
				continue
			}
			o, err := ParseOps(c.Strings(key, nil))
			if err != nil {
				c.Errorf(key, "%v", err)
			} else if o&OpUpdate != 0 && o&OpUpdateCount != 0 {
				c.Errorf(key, "update and update-count are exclusive (§3: a branch performs one of them)")
			}
			cfg.PPCR.Ops[t] = o
		}
	}
	if cfg.Paths != "custom" {
		for t := Call; t < NumBranchTypes; t++ {
			if c.Has("ppcr." + t.String()) {
				c.Errorf("ppcr."+t.String(), "the PPCR's operations are set only with paths = \"custom\"")
			}
		}
	}
	switch c.String("extend", "none", "none", "loops", "procedures") {
	case "loops":
		cfg.PPCR.Extend = ExtendLoops
	case "procedures":
		cfg.PPCR.Extend = ExtendProcedures
	}
	cfg.PPCR.MaxExt = uint8(c.Int("max_extension", 1, 1, 7)) // a 3-bit extension counter
	if cfg.PPCR.Extend == ExtendNone && c.Has("max_extension") {
		c.Errorf("max_extension", "needs extend = \"loops\" or \"procedures\"")
	}
	if cfg.PPCR.Extend == ExtendNone {
		cfg.PPCR.MaxExt = 0
	}
	if err := cfg.PPCR.Check(); err != nil {
		c.Errorf("ppcr", "%v", err)
	}
	m, _ := ParseMetric(c.String("metric", "frequency", metricNames...))
	cfg.Metric = m
	cfg.Depth = int(c.Int("stack.depth", 32, 1, 1<<16))
	switch c.String("stack.overflow", "drop", "drop", "spill") {
	case "spill":
		cfg.Overflow = Spill
	}
	cfg.CounterBits = uint(c.Int("stack.counter_bits", 32, 8, 64))
	cfg.SpillCycles = uint64(c.Int("stack.spill_cycles", 2, 0, 1000))
	q := c.Int("queue.entries", 4, 0, 8)
	if q != 0 && q != 2 && q != 4 && q != 8 {
		c.Errorf("queue.entries", "%d is not one of 0, 2, 4, 8", q)
	}
	cfg.Queue = int(q)
	// The HPT's size: entries up to 2^20 (24 MiB of model, twice with the
	// overlap windows' table); ways up to MaxHPTWays, since a lookup and
	// the LFU victim search scan the set (§8.2 costs log2(ways) cycles;
	// the paper's largest is 32).
	cfg.HPTEntries = int(c.Int("hpt.entries", 512, 1, 1<<20))
	cfg.HPTWays = int(c.Int("hpt.ways", 4, 1, MaxHPTWays))
	switch e, w := cfg.HPTEntries, cfg.HPTWays; {
	case e&(e-1) != 0:
		c.Errorf("hpt.entries", "%d is not a power of two", e)
	case w&(w-1) != 0:
		c.Errorf("hpt.ways", "%d is not a power of two", w)
	case w > e:
		c.Errorf("hpt.ways", "%d ways exceed hpt.entries = %d", w, e)
	}
	switch c.String("hpt.index", "plb", "addr", "pb", "plb") {
	case "addr":
		cfg.HPTIndex = IndexAddr
	case "pb":
		cfg.HPTIndex = IndexPB
	}
	cfg.LatUpdate = uint64(c.Int("latency.update", 1, 0, 100))
	cfg.LatUpdateCount = uint64(c.Int("latency.update_count", 1, 0, 100))
	cfg.LatPush = uint64(c.Int("latency.push", 1, 0, 100))
	cfg.LatPop = uint64(c.Int("latency.pop", 1, 0, 100))
	cfg.LatHPTHit = uint64(c.Int("latency.hpt_hit", 2, 0, 100))
	// A window closes at a branch and keeps one figure: at least 1000
	// instructions, so that their number stays a thousandth of the run's.
	cfg.Window = uint64(c.Int("accuracy.window", 1_000_000, 0, 1<<40))
	if cfg.Window > 0 && cfg.Window < 1000 {
		c.Errorf("accuracy.window", "%d instructions: 0 (off) or at least 1000", cfg.Window)
	}
	cfg.Top = int(c.Int("output.top", 20, 0, 10000))
	p := &cfg.Power
	p.L1I.Size = int(c.Int("power.l1i_size", int64(p.L1I.Size), 64, 1<<30))
	p.L1I.Line = int(c.Int("power.l1i_line", int64(p.L1I.Line), 4, 4096))
	p.L1I.Assoc = int(c.Int("power.l1i_assoc", int64(p.L1I.Assoc), 1, 1024))
	p.L1D.Size = int(c.Int("power.l1d_size", int64(p.L1D.Size), 64, 1<<30))
	p.L1D.Line = int(c.Int("power.l1d_line", int64(p.L1D.Line), 4, 4096))
	p.L1D.Assoc = int(c.Int("power.l1d_assoc", int64(p.L1D.Assoc), 1, 1024))
	p.L2.Size = int(c.Int("power.l2_size", int64(p.L2.Size), 64, 1<<34))
	p.L2.Line = int(c.Int("power.l2_line", int64(p.L2.Line), 4, 4096))
	p.L2.Assoc = int(c.Int("power.l2_assoc", int64(p.L2.Assoc), 1, 1024))
	readPhase(c, &cfg.Phase)
	cfg.Grammar = c.Bool("wpp.grammar", false)
	// About 100 bytes of model per grammar symbol (the symbol and its
	// digram's index entry): the default bounds the grammar at 1 GB.
	cfg.GrammarMax = int(c.Int("wpp.max_symbols", 10_000_000, 1000, 100_000_000))
	if cfg.Grammar && cfg.Paths != "wpp" {
		c.Errorf("wpp.grammar", "needs paths = \"wpp\" (the grammar is of the whole program path's subpaths, §3)")
	}
	if err := c.Err(); err != nil {
		return cfg, err
	}
	if m.Timed() && mode == profhw.Functional {
		// Not recorded in c: the same configuration builds in timing mode.
		return cfg, &profhw.Error{File: c.File, Line: c.Line, Key: "unit " + c.Name + ": metric",
			Msg: fmt.Sprintf("%q needs timing mode (--mode timing); functional mode has frequency and instructions", m)}
	}
	return cfg, nil
}

// Unit is the hardware path profiler as a profhw unit.
type Unit struct {
	name string
	cfg  Config
	mode profhw.Mode

	hw    *Stack // the profiler's path stack
	hpt   *HPT   // the Hot Path Table
	lossy bool   // hw drops entries on overflow: an unbounded reference takes over before the first

	// The reference (exact profile, unbounded stack, overlap windows) runs
	// on its own goroutine; refOn: the unbounded stack has taken over.
	ref   *reference
	enc   *refEncoder
	refOn bool
	winOn bool

	// async: the hardware model runs on pipe's goroutine, fed the control
	// tap's records (async.go).
	async   bool
	pipe    *profhw.Pipe[[]cpu.TapControl]
	pipeBuf []cpu.TapControl // the batch being filled
	hwSeq   uint64           // the consumer's sequence number after the last branch
	scratch []cpu.DynInst    // RetireControls' records for the inline model

	fastForward bool // forward branches only update the top path: Retire does it inline
	fastBL      bool // the common configuration's fast path (fast.go)

	nextSeq uint64 // the sequence number after the last branch
	insts   uint64 // instructions seen: set by Finish (until then nextSeq: every branch adds its block)

	// Timing mode: the block event counter (§4) and the branch queue.
	ec        eventCounter
	timedEv   bool // the metric needs each instruction's events
	blockEv   uint64
	qStarts   []uint64 // service starts of the last Queue branches
	qN        uint64
	busyUntil uint64
	busy      uint64 // cycles the profiler worked
	stalls    uint64 // branches that found the queue full
	lastCycle uint64

	winEnd uint64

	phase *phaseState
	host  profhw.HandlerHost
	sum   profhw.Summary
	ended bool
}

// New builds a path profiler.
func New(name string, cfg Config, env profhw.Env) (*Unit, error) {
	if cfg.Metric.Timed() && env.Mode == profhw.Functional {
		return nil, fmt.Errorf("metric %q needs timing mode", cfg.Metric)
	}
	hpt, err := NewHPT(cfg.HPTEntries, cfg.HPTWays, cfg.HPTIndex)
	if err != nil {
		return nil, err
	}
	u := &Unit{name: name, cfg: cfg, mode: env.Mode, hpt: hpt}
	u.hw = NewStack(cfg.PPCR, cfg.Overflow, cfg.Depth, cfg.CounterBits, env.Entry)
	u.lossy = cfg.Overflow == DropBottom
	if cfg.Window > 0 {
		u.winOn = true
		u.winEnd = cfg.Window
	}
	// Functional mode with a second core: the hardware model runs on the
	// reference's goroutine too (nothing in the simulation waits for it);
	// the simulation's goroutine only hands the branches over (async.go).
	u.async = env.Mode == profhw.Functional && runtime.GOMAXPROCS(0) >= 2
	u.ref, u.enc = newReference(&u.cfg, u.async)
	if u.async {
		spares := make([][]cpu.TapControl, pipeDepth)
		for i := range spares {
			spares[i] = make([]cpu.TapControl, 0, pipeBatch)
		}
		u.pipe = profhw.NewPipe(spares, u.consumeHW)
		u.pipeBuf = make([]cpu.TapControl, 0, pipeBatch)
	}
	u.ec = eventCounter{metric: cfg.Metric, costs: cfg.Power.Costs()}
	u.timedEv = cfg.Metric.Timed()
	if cfg.Queue > 0 {
		u.qStarts = make([]uint64, cfg.Queue)
	}
	if cfg.Phase.Enabled {
		u.phase = newPhaseState(cfg.Phase, env.Mode == profhw.Timing)
	}
	u.fastForward = cfg.PPCR.Ops[Forward] == OpUpdate && cfg.PPCR.Extend == ExtendNone && u.phase == nil
	u.fastBL = fastBL(&u.cfg, u.phase != nil)
	u.sum = profhw.Summary{Unit: name, Kind: "path", Mode: env.Mode.String(), NoAnalytic: true,
		ErrorMetric: "100 - complete overlap percentage of the HPT against the exact path profile (§8.1)"}
	return u, nil
}

// Name is the unit's name.
func (u *Unit) Name() string { return u.name }

// Watch: functional mode reads the control transfers; timing mode reads
// every commit (the block event counter and the branch queue).
func (u *Unit) Watch() profhw.Watch {
	if u.mode == profhw.Timing {
		w := profhw.Watch{Committed: true}
		if !u.timedEv {
			// Only a timed metric needs the other instructions' events: the
			// block's size comes from the sequence numbers.
			w.CommitClasses = profhw.Control
		}
		return w
	}
	return profhw.Watch{Retired: profhw.Control}
}

// Retire is the functional stream: the instructions of a branch's block
// are the sequence numbers since the previous branch.
func (u *Unit) Retire(recs []cpu.DynInst) {
	if u.async {
		u.retireAsync(recs)
		return
	}
	if u.fastBL && u.cfg.Metric == Frequency {
		u.retireBL(recs)
		return
	}
	s := u.hw
	instsMetric := u.cfg.Metric == Instructions
	for i := range recs {
		d := &recs[i]
		if d.Injected || d.Handler {
			continue
		}
		t, ok := Classify(d)
		if !ok {
			continue
		}
		n := d.Seq + 1 - u.nextSeq
		u.nextSeq = d.Seq + 1
		var ev uint64
		if instsMetric {
			ev = n
		}
		if t == Forward && u.fastForward && s.n > 0 {
			// The common case, a forward branch that only extends the top
			// path (Stack.Branch's first case, without the calls).
			if e := &s.buf[s.lo+s.n-1]; e.d.Len+1 < s.maxLen {
				u.sum.Events++
				s.nOut = 0
				s.LastOps = OpUpdate
				s.Stats.Updates++
				e.insts += n
				e.events = min(e.events+ev, s.countMax)
				if d.Taken {
					e.d.Dirs |= 1 << e.d.Len
				}
				e.d.Len++
				if u.refOn {
					u.enc.branch(t, d.PC, d.NextPC, d.Taken, d.Inst.Len, n, ev)
				}
				if u.winOn && d.Seq+1 >= u.winEnd {
					u.endWindow(d.Seq + 1)
				}
				continue
			}
		}
		if u.fastBL && t != Forward {
			if _, ok := u.fast(t, d.PC, d.NextPC, d.Taken, d.Inst.Len, d.Seq+1, n, ev); ok {
				continue
			}
		}
		u.branch(t, d, n, ev)
	}
}

// Commit is the timing stream: every committed instruction feeds the
// block event counter (§4); a branch goes through the branch queue to the
// profiler and may stall commit when the queue is full (§8.2).
func (u *Unit) Commit(r *pipeline.Commit) uint64 {
	d := r.D
	if d.Inst.Class-isa.Branch > isa.Return-isa.Branch { // not in profhw.Control (a range: no load)
		if u.timedEv && !d.Injected && !d.Handler {
			u.blockEv += u.ec.count(r)
		}
		return 0
	}
	if d.Injected || d.Handler {
		return 0
	}
	if u.timedEv {
		u.blockEv += u.ec.count(r)
	}
	// The block's size is the sequence-number difference, as in
	// functional mode (the same paths, the same instruction counts).
	n := d.Seq + 1 - u.nextSeq
	u.nextSeq = d.Seq + 1
	u.lastCycle = r.Cycle
	t, _ := Classify(d)
	ev := u.blockEv
	if u.cfg.Metric == Instructions {
		ev = n
	}
	u.blockEv = 0
	if u.fastBL {
		if lat, ok := u.fast(t, d.PC, d.NextPC, d.Taken, d.Inst.Len, d.Seq+1, n, ev); ok {
			return u.enqueue(r.Cycle, lat)
		}
	}
	return u.enqueue(r.Cycle, u.branch(t, d, n, ev))
}

// enqueue puts a branch that retires at cycle t and keeps the profiler
// busy lat cycles into the branch queue, and returns the cycles commit
// stalls until it fits (§8.2). A branch leaves the queue when the
// profiler starts on it; without a queue the profiler itself must be free.
func (u *Unit) enqueue(t, lat uint64) uint64 {
	enter := t
	if u.cfg.Queue == 0 {
		enter = max(t, u.busyUntil)
	} else {
		slot := &u.qStarts[u.qN%uint64(u.cfg.Queue)]
		enter = max(t, *slot)
		start := max(enter, u.busyUntil)
		*slot = start
		u.busyUntil = start + lat
	}
	if u.cfg.Queue == 0 {
		u.busyUntil = enter + lat
	}
	u.qN++
	u.busy += lat
	stall := enter - t
	u.sum.StallReq += stall
	if stall > 0 {
		u.stalls++
	}
	return stall
}

// branch runs one branch through the path stack, the HPT, the exact
// reference and the phase detectors; it returns the profiler's latency.
func (u *Unit) branch(t BranchType, d *cpu.DynInst, insts, events uint64) uint64 {
	u.sum.Events++
	fall := d.PC + uint64(d.Inst.Len)
	s := u.hw
	if s.n >= s.depth && u.lossy && !u.refOn && s.mayOverflow(t) {
		// Until the hardware stack first overflows its paths are the
		// exact ones; from here on an unbounded copy is the reference.
		u.ref.next = s.unbounded()
		u.refOn = true
		u.enc.takeover()
	}
	splits, spills := s.Stats.Splits, s.Stats.SpillReads+s.Stats.SpillWrites
	s.Branch(t, d.PC, d.NextPC, fall, d.Taken, insts, events)
	c := &u.cfg
	timing := u.mode == profhw.Timing
	var lat uint64
	if timing {
		o := s.LastOps
		if o&OpUpdate != 0 {
			lat += c.LatUpdate
		} else if o&OpUpdateCount != 0 {
			lat += c.LatUpdateCount
		}
		if o&OpPush != 0 {
			lat += c.LatPush
		}
		lat += (s.Stats.Splits - splits) * c.LatPush
		lat += (s.Stats.SpillReads + s.Stats.SpillWrites - spills) * c.SpillCycles
		lat += uint64(s.nOut) * c.LatPop
	}
	for i := 0; i < s.nOut; i++ {
		p := &s.out[i]
		if p.Incomplete {
			continue
		}
		w := p.Events
		if u.cfg.Metric == Frequency {
			w = 1
		}
		if u.hpt.Update(p.Desc, w) {
			lat += c.LatHPTHit
		} else {
			lat += max(c.LatHPTHit, u.hpt.MissCycles())
		}
		if u.winOn || !u.refOn {
			u.enc.path(p.Desc, p.Insts, w)
		}
		if u.phase != nil {
			u.phase.addPath(p)
		}
	}
	if u.refOn {
		u.enc.branch(t, d.PC, d.NextPC, d.Taken, d.Inst.Len, insts, events)
	}
	if u.phase != nil {
		u.phase.branch(d.PC, insts, d.Seq+1, u.lastCycle)
	}
	if u.winOn && d.Seq+1 >= u.winEnd {
		u.endWindow(d.Seq + 1)
	}
	return lat
}

// endWindow closes the dynamic-overlap window at instruction seq.
func (u *Unit) endWindow(seq uint64) {
	u.enc.window()
	u.winEnd = seq - seq%u.cfg.Window + u.cfg.Window
}

// Finish ends the run: the paths still open stay on the stack (the HPT
// holds only popped paths, as at the end of a profiled run).
func (u *Unit) Finish(end profhw.End) error {
	if u.ended {
		return nil
	}
	u.ended = true
	u.host = end.Host
	if u.async {
		u.sendPipe()
		u.pipe.Close() // the hardware model has seen every branch
	}
	if end.Instructions > u.nextSeq {
		u.hw.AddOpen(end.Instructions - u.nextSeq)
		u.nextSeq = end.Instructions
	}
	u.insts = u.nextSeq
	if u.winOn {
		u.enc.window()
	}
	u.enc.close()
	r := u.ref
	complete := Overlap(u.hpt.Weights(), r.exact.Weights())
	dyn := mean(r.winOver)
	st := &u.hw.Stats
	s := &u.sum
	s.AppCycles = end.Cycles
	s.ErrorPercent = 100 - complete
	s.StorageBits = u.StorageBits()
	s.Set("paths", u.cfg.Paths)
	s.Set("ppcr", u.ppcrString())
	s.Set("metric", u.cfg.Metric.String())
	s.Set("overlap_complete_percent", complete)
	s.Set("overlap_dynamic_percent", dyn)
	s.Set("overlap_windows", len(r.winOver))
	s.Set("window_instructions", u.cfg.Window)
	s.Set("paths_completed", st.CompletePaths)
	s.Set("paths_incomplete", st.IncompletePaths)
	s.Set("instructions_on_paths", st.CompleteInsts+st.IncompleteInsts)
	s.Set("instructions_on_incomplete_paths", st.IncompleteInsts)
	s.Set("instructions_open_at_exit", u.hw.OpenInsts())
	s.Set("instructions_unattributed", st.UnattributedInsts)
	s.Set("instructions", u.insts)
	s.Set("distinct_paths", len(r.exact.Recs))
	s.Set("exact_total", r.exact.Total)
	s.Set("hpt_hits", u.hpt.Hits)
	s.Set("hpt_misses", u.hpt.Misses)
	s.Set("hpt_replacements", u.hpt.Replacements)
	s.Set("stack_overflows", st.Overflows)
	s.Set("stack_underflows", st.Underflows)
	s.Set("stack_max_depth", st.MaxDepth)
	s.Set("stack_splits", st.Splits)
	s.Set("spill_reads", st.SpillReads)
	s.Set("spill_writes", st.SpillWrites)
	s.Set("spill_bytes", (st.SpillReads+st.SpillWrites)*entryBits(u.cfg.CounterBits)/8)
	s.Set("longjmp_repairs", st.Repairs)
	s.Set("returns_unmatched", st.Unmatched)
	s.Set("entries_abandoned", st.Abandoned)
	if u.mode == profhw.Timing {
		s.Set("branch_queue_entries", u.cfg.Queue)
		s.Set("profiler_busy_cycles", u.busy)
		s.Set("commit_stalls", u.stalls)
		if u.cfg.Metric == Power {
			s.Set("power_costs", u.ec.costs.String())
		}
	}
	if g := r.gram; g != nil {
		s.Set("wpp_subpaths", g.Length+r.gramDropped)
		s.Set("wpp_subpaths_compressed", g.Length)
		s.Set("wpp_grammar_full", r.gramDropped > 0)
		s.Set("wpp_grammar_rules", g.Rules())
		s.Set("wpp_grammar_symbols", g.Symbols())
		if g.Symbols() > 0 {
			s.Set("wpp_compression_ratio", float64(g.Length)/float64(g.Symbols())) // of the subpaths compressed
		}
	}
	if u.phase != nil {
		if err := u.phase.finish(s); err != nil {
			return err
		}
	}
	return nil
}

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// entryBits is a path stack entry's size: descriptor (64-bit start, 6-bit
// length, 32 direction bits), event counter, 3-bit extension counter,
// incomplete bit and the 64-bit return address of the longjmp check.
func entryBits(counterBits uint) uint64 { return 64 + 6 + 32 + uint64(counterBits) + 3 + 1 + 64 }

// StorageBits is the profiler's storage: path stack, HPT, branch queue
// entries (a branch's PC, target and direction).
func (u *Unit) StorageBits() uint64 {
	return uint64(u.cfg.Depth)*entryBits(u.cfg.CounterBits) + u.hpt.StorageBits() + uint64(u.cfg.Queue)*(64+64+1)
}

func (u *Unit) ppcrString() string {
	s := ""
	for t := Call; t < NumBranchTypes; t++ {
		if t > 0 {
			s += ", "
		}
		s += t.String() + ": " + u.cfg.PPCR.Ops[t].String()
	}
	if u.cfg.PPCR.Extend != ExtendNone {
		s += fmt.Sprintf("; extend %s up to %d", u.cfg.PPCR.Extend, u.cfg.PPCR.MaxExt)
	}
	return s
}

// Summary is the unit's summary.
func (u *Unit) Summary() *profhw.Summary { return &u.sum }

// HPT is the Hot Path Table (the hardware model catches up first).
func (u *Unit) HPT() *HPT {
	u.syncHW()
	return u.hpt
}

// Exact is the exact path profile (of the records so far: the reference
// catches up first).
func (u *Unit) Exact() *Exact {
	u.syncHW()
	u.enc.sync()
	return u.ref.exact
}

// Grammar is the WPP grammar (wpp.grammar; nil without), after Finish.
func (u *Unit) Grammar() *Grammar {
	if !u.ended {
		return nil
	}
	return u.ref.gram
}

// Stack is the profiler's path stack (the hardware model catches up
// first).
func (u *Unit) Stack() *Stack {
	u.syncHW()
	return u.hw
}

// syncHW waits for an asynchronous hardware model to see every branch.
func (u *Unit) syncHW() {
	if u.async && !u.ended {
		u.sendPipe()
		u.pipe.Sync()
	}
}
