package sim

import (
	"fmt"

	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/pipeline"
)

// Sampled simulation (issue 20): a timing-mode run that times only some
// windows of the instruction stream and runs the rest functionally, at the
// functional core's speed. A window is a warm-up and a timed part: a fresh
// timing model is attached Warmup instructions before Start, runs over the
// warm-up without counting it (caches, predictors and queues fill), times
// the Length instructions from Start, is drained and detached. The
// windows are run in one pass, in order. The --fast-forward N --warmup M
// form is the one window {Start: N+M, Warmup: M, Length: to the end}; the
// SimPoint form (package sampling) is one window per simulation point.
//
// A warm-up that would reach back into the previous window is cut at that
// window's end (WindowResult.Warmup is the warm-up that ran).
//
// Functional warming (Config.FunctionalWarming) updates the next window's
// model's caches and predictor with the functional part's instructions
// (pipeline.Core.Warmer), from the previous window's end, or with
// Config.WarmingLast > 0 only over the last WarmingLast instructions
// before the warm-up (the functional core stops there to attach the
// warmer, as at a window boundary).
//
// The timed counters (cycles and the model's statistics: stalls, CPI
// stack, predictors, caches, units) exclude the warm-up: the model's
// counters are read at the cycle the warm-up's last instruction commits
// (pipeline.Core.SetMarks) and subtracted.
//
// What the guest sees: the cycle CSR reads one cycle per instruction
// outside the windows (as in functional mode) and, in a window, its value
// at the window's attach plus the timing model's cycles, so it never goes
// backwards.
//
// DISE runs over the whole run (its replacement sequences and handlers
// execute in the functional parts too, so its profile is the full run's);
// the timing model charges its decode cost in the windows. Profiling units
// see the whole retired stream through the functional core's tap, as in a
// full run; a unit that also watches commits (its timing-mode queue and
// the stalls it asks of commit) sees the windows' commits only, with
// commit cycles numbered on the guest's cycle CSR's scale (so they keep
// increasing across windows, the functional gaps counting one cycle per
// instruction). Its stalls count in the timed cycles; its stall cost
// (stall_cycles) is the windows' models', warm-ups included
// (SampledCounts.HookStallCycles).

// Window is one timed stretch of a sampled run.
type Window struct {
	Start  uint64 // instructions retired before the first timed one
	Warmup uint64 // instructions before Start run on the timing model, not counted
	Length uint64 // timed instructions; 0: to the end of the run
	// Parts > 0 (with Length) also records the cycles of Parts equal parts
	// of the timed instructions (the last takes the remainder): the spread
	// within a window, for an error estimate.
	Parts int
}

// WindowResult is what a window measured.
type WindowResult struct {
	Window
	WarmupRun uint64 // the warm-up instructions that ran (Warmup, less any overlap with the previous window)
	Timed     uint64 // timed instructions (Length, or fewer if the program ended)
	Cycles    uint64 // the timed instructions' cycles
	// PartInsts and PartCycles are the parts' instructions and cycles
	// (Window.Parts; the parts reached).
	PartInsts, PartCycles []uint64
	// Counters are the timing model's statistics over the timed part
	// (pipeline.Core.Stats less the warm-up's counts).
	Counters map[string]any
}

// CPI is the window's timed cycles per timed instruction.
func (w *WindowResult) CPI() float64 { return ratio(w.Cycles, w.Timed) }

// SampledCounts is how a sampled run's instructions divide: functional
// (fast-forwarded), warm-up (timed, not counted) and timed; Cycles are the
// timed instructions'. Windows holds each window reached.
type SampledCounts struct {
	FastForward, Warmup, Timed, Cycles uint64
	Windows                            []WindowResult
	// HookStallCycles are the profiling units' commit stalls' cost, per
	// unit (pipeline.Core.HookStallCycles), summed over the timing models
	// the windows ran on, warm-ups included: that cost is measured by a
	// twin model whose account runs behind the core, so it is taken when
	// each model has drained, not at a warm-up's end.
	HookStallCycles []uint64
}

// sampledState is a sampled run's progress.
type sampledState struct {
	wins []Window
	next int            // the next window to attach
	core *pipeline.Core // the attached timing model (nil: functional)
	cur  *coreWindow    // the window being run (nil: between windows)
	// The attached model's windows, and per mark the window it is of;
	// the counters read at marks.
	wins2 []*coreWindow
	marks []int
	snaps map[int]map[string]any
	hook  []uint64       // the drained models' HookStallCycles
	base  []cpu.Observer // the other observers (trace, ...), attached throughout
	// The cycle CSR: cycleBase + the model's cycles while attached, else
	// cycleBase + (instret - instBase).
	cycleBase, instBase uint64
	prevEnd             uint64 // where the previous window ended
	done                []WindowResult
	// pending is the timing model the next window attaches (nil: a fresh
	// one then); with functional warming it is warmed in the meantime.
	pending *pipeline.Core
	warming bool
	// warmLast > 0 bounds the warming to the last warmLast instructions
	// before a window's warm-up; warmOn: pending's Warmer is attached.
	warmLast uint64
	warmOn   bool
	// The attached window: the boundaries passed, and the instruction
	// counts when it was attached.
	boundary              int
	attachInst, attachApp uint64
	// async runs the attached model on a goroutine of its own
	// (Machine.timingAsync's rules), or is nil: inline; asyncModels
	// counts the models that ran so (tests).
	async       *pipeline.Async
	asyncModels int
}

// windows returns cfg's windows: Config.Windows, or the one of
// FastForward and Warmup.
func (cfg *Config) windows() []Window {
	if cfg.FastForward > 0 {
		return []Window{{Start: cfg.FastForward + cfg.Warmup, Warmup: cfg.Warmup}}
	}
	return cfg.Windows
}

// checkSampled rejects sampled settings that do not make sense.
func checkSampled(cfg *Config) error {
	if cfg.FastForward == 0 && len(cfg.Windows) == 0 {
		if cfg.Warmup != 0 {
			return fmt.Errorf("a warm-up needs a fast-forward")
		}
		return nil
	}
	if cfg.FastForward > 0 && len(cfg.Windows) > 0 {
		return fmt.Errorf("a fast-forward cannot be combined with sampling windows")
	}
	if cfg.Timing == nil {
		return fmt.Errorf("a fast-forward needs the timing model (timing mode)")
	}
	if cfg.CycleProfile && len(cfg.Windows) > 0 {
		// Each window may get a timing model of its own; the cycle
		// profile follows one model (a fast-forward's single window).
		return fmt.Errorf("a cycle profile covers one timed part: use it with --fast-forward, not with sampling windows (--simpoints)")
	}
	var end uint64
	for i, w := range cfg.Windows {
		switch {
		case w.Warmup > w.Start:
			return fmt.Errorf("sampling window %d: its warm-up of %d instructions starts before the run (it starts at instruction %d)", i, w.Warmup, w.Start)
		case i > 0 && w.Start < end:
			return fmt.Errorf("sampling window %d: starts at instruction %d, before window %d ends (%d): windows must be in order and not overlap", i, w.Start, i-1, end)
		case w.Length == 0 && i < len(cfg.Windows)-1:
			return fmt.Errorf("sampling window %d: only the last window may run to the end", i)
		case w.Parts < 0 || (w.Parts > 0 && uint64(w.Parts) > w.Length):
			return fmt.Errorf("sampling window %d: %d parts for %d instructions", i, w.Parts, w.Length)
		}
		end = w.Start + w.Length
	}
	return nil
}

// sampledBudget limits the next step so that it ends at the next window
// boundary, and attaches the timing model, marks a boundary or detaches
// it there. Positions count application instructions (cpu.AppInstret:
// with DISE, the instructions it adds do not move the windows); a step's
// budget counts every instruction, so a boundary may take several steps.
// A window whose warm-up would start before the previous window ends
// keeps that window's timing model: the instructions between them are its
// warm-up.
func (mc *Machine) sampledBudget(budget uint64) uint64 {
	s := mc.sampled
	if s == nil {
		return budget
	}
	c := mc.CPU
	for {
		app := c.AppInstret()
		if s.core != nil && s.cur != nil {
			next := s.nextBoundary()
			if next == ^uint64(0) {
				return budget
			}
			if app < next {
				return min(budget, next-app)
			}
			if s.async != nil {
				s.async.AddMark(c.Instret - s.attachInst)
			} else {
				s.core.AddMark(c.Instret - s.attachInst)
			}
			s.boundary++
			if w := &s.cur.r.Window; w.Length > 0 && next == w.Start+w.Length {
				s.cur.complete = true
				s.cur = nil
				s.prevEnd = app
				if s.next >= len(s.wins) || s.wins[s.next].Start-min(s.wins[s.next].Warmup, s.wins[s.next].Start) > app {
					mc.detach()
				}
			}
			continue
		}
		if s.next >= len(s.wins) {
			return budget
		}
		w := s.wins[s.next]
		warm := min(w.Warmup, w.Start)
		if s.core != nil { // the previous window's model runs on
			if app < w.Start-warm {
				panic("sim: sampling window kept too early")
			}
			warm = w.Start - s.prevEnd
		} else if at := w.Start - warm; app < at {
			// Bounded warming: plain functional up to warmLast
			// instructions before the warm-up, warming from there.
			if s.warming && !s.warmOn && s.pending != nil {
				if from := at - min(at, s.warmLast); app < from {
					return min(budget, from-app)
				}
				s.warmOn = true
				c.SetObserver(observers(append(append([]cpu.Observer(nil), s.base...), s.pending.Warmer())))
			}
			return min(budget, at-app)
		}
		mc.attach(w, warm)
	}
}

// nextBoundary is the attached window's next boundary (the warm-up's end,
// a part's end, the window's end), or ^0 for none.
func (s *sampledState) nextBoundary() uint64 {
	w := &s.cur.r.Window
	switch {
	case s.boundary == 0:
		return w.Start
	case w.Length == 0:
		return ^uint64(0)
	}
	parts := uint64(max(w.Parts, 1))
	if uint64(s.boundary) >= parts {
		return w.Start + w.Length
	}
	return w.Start + uint64(s.boundary)*(w.Length/parts)
}

// coreWindow is a window on the attached timing model: its marks are
// first.. (the warm-up's end, the parts' ends, the window's end).
type coreWindow struct {
	r        WindowResult
	first    int
	complete bool // the window's end was reached
}

// attach starts window w, warm instructions before its start: on a fresh
// timing model, or on the attached one.
func (mc *Machine) attach(w Window, warm uint64) {
	s, c := mc.sampled, mc.CPU
	s.next++
	if s.core == nil {
		mc.attachCore()
	} else if s.async != nil {
		s.async.Sync() // the mark callback reads marks and wins2
	}
	cw := &coreWindow{r: WindowResult{Window: w, WarmupRun: warm}, first: len(s.marks)}
	s.wins2 = append(s.wins2, cw)
	s.cur, s.boundary = cw, 0
	// The marks this window adds: warm-up end, parts, end.
	n := 1
	if w.Length > 0 {
		n += max(w.Parts, 1)
	}
	for i := 0; i < n; i++ {
		s.marks = append(s.marks, len(s.wins2)-1)
	}
	_ = c
}

// attachCore attaches a fresh timing model.
func (mc *Machine) attachCore() {
	s, c := mc.sampled, mc.CPU
	core := s.pending
	if core == nil {
		core = mc.newSampledCore()
	}
	s.pending, mc.timing = nil, core
	s.core, s.attachInst, s.attachApp = core, c.Instret, c.AppInstret()
	s.wins2, s.marks, s.snaps = nil, nil, map[int]map[string]any{}
	s.cycleBase += c.Instret - s.instBase
	base := s.cycleBase
	c.CycleFunc = func(uint64) uint64 { return base + core.CycleAt(0) }
	if h := mc.profhw; h != nil && h.WatchesCommits() {
		core.SetRetireHook(func(r *pipeline.Commit) uint64 {
			r.Cycle += base
			st := h.Commit(r)
			r.Cycle -= base
			return st
		}, h.CommitClasses())
		core.SetDropHookStalls(mc.cfg.DropProfHWStalls)
		core.SetMeasureHookStalls(!mc.cfg.UnmeasuredProfHWStalls)
	}
	// The counters are read at each window's first and last mark.
	core.SetMarks(nil, func(i int) {
		cw := s.wins2[s.marks[i]]
		if i == cw.first || i+1 == len(s.marks) || s.marks[i+1] != s.marks[i] {
			s.snaps[i] = core.Stats()
		}
	})
	var model cpu.Observer = core
	if mc.threadsAllow() && (mc.profhw == nil || !mc.profhw.WatchesCommits()) {
		s.async = pipeline.NewAsync(core)
		s.async.SetStopFunc(c.RequestStop)
		s.asyncModels++
		a := s.async
		c.CycleFunc = func(uint64) uint64 { return base + a.CycleAt(0) }
		model = a
	}
	c.SetObserver(observers(append(append([]cpu.Observer(nil), s.base...), model)))
}

// finishCore drains the attached model (on its goroutine, if it has one)
// and returns its error.
func (s *sampledState) finishCore() error {
	if a := s.async; a != nil {
		s.async = nil
		return a.Finish()
	}
	return s.core.Finish()
}

// newSampledCore builds a window's timing model.
func (mc *Machine) newSampledCore() *pipeline.Core {
	core, err := newTimingCore(mc.cfg.Timing, mc.cfg.DISE)
	if err != nil {
		panic(err) // the same machine built the first one
	}
	core.SetStopFunc(mc.CPU.RequestStop)
	return core
}

// observers is one observer for a list (nil for none).
func observers(obs []cpu.Observer) cpu.Observer {
	switch len(obs) {
	case 0:
		return nil
	case 1:
		return obs[0]
	}
	return fanout(obs)
}

// detach ends the attached timing model: it is drained and its windows'
// counts recorded; the run goes on functionally.
func (mc *Machine) detach() {
	s, c := mc.sampled, mc.CPU
	c.SetObserver(observers(s.base))
	core := s.core
	if err := s.finishCore(); err != nil && mc.sampledErr == nil {
		mc.sampledErr = err
		c.RequestStop()
	}
	mc.recordWindows()
	if s.warming && s.next < len(s.wins) { // the next window's model, warmed from here
		s.pending = mc.newSampledCore()
		s.pending.InheritState(core)
		// Unbounded: warmed from here; bounded: from warmLast
		// instructions before the next warm-up (sampledBudget).
		if s.warmOn = s.warmLast == 0; s.warmOn {
			c.SetObserver(observers(append(append([]cpu.Observer(nil), s.base...), s.pending.Warmer())))
		}
	}
	s.cycleBase += core.Cycles()
	s.instBase = c.Instret
	base, ib := s.cycleBase, s.instBase
	c.CycleFunc = func(instret uint64) uint64 { return base + instret - ib }
	s.core, s.cur = nil, nil
}

// recordWindows records the drained timing model's windows.
func (mc *Machine) recordWindows() {
	s, c := mc.sampled, mc.CPU
	core := s.core
	mk := core.MarkCycles()
	for _, cw := range s.wins2 {
		r := &cw.r
		if cw.first >= len(mk) { // the program ended in the warm-up
			r.WarmupRun = min(r.WarmupRun, c.AppInstret()-min(c.AppInstret(), r.Start-r.WarmupRun))
			s.done = append(s.done, *r)
			continue
		}
		end, endStats := core.Cycles(), core.Stats()
		r.Timed = c.AppInstret() - r.Start
		last := cw.first + max(r.Parts, 1)
		if cw.complete {
			r.Timed = r.Length
			end, endStats = mk[last], s.snaps[last]
		}
		r.Cycles = end - mk[cw.first]
		if r.Length > 0 && r.Parts > 0 {
			step := r.Length / uint64(r.Parts)
			for i := 1; i <= r.Parts && cw.first+i < len(mk); i++ {
				insts := step
				if i == r.Parts {
					insts = r.Length - step*uint64(r.Parts-1)
				}
				r.PartInsts = append(r.PartInsts, insts)
				r.PartCycles = append(r.PartCycles, mk[cw.first+i]-mk[cw.first+i-1])
			}
		}
		r.Counters = diffCounters(endStats, s.snaps[cw.first])
		fixRatios(r.Counters, r.Cycles)
		s.done = append(s.done, *r)
	}
	s.wins2 = nil
	s.hook = addSlices(s.hook, core.HookStallCycles())
}

// finishSampled ends the attached window and fills res's sampled counts.
func (mc *Machine) finishSampled(res *Result) {
	s := mc.sampled
	if s == nil {
		return
	}
	if s.core != nil {
		if err := s.finishCore(); err != nil && mc.sampledErr == nil {
			mc.sampledErr = err
		}
		mc.recordWindows()
		s.core, s.cur = nil, nil
	}
	sc := &SampledCounts{Windows: s.done, HookStallCycles: s.hook}
	for i := range s.done {
		w := &s.done[i]
		sc.Warmup += w.WarmupRun
		sc.Timed += w.Timed
		sc.Cycles += w.Cycles
	}
	sc.FastForward = res.Instructions - sc.Warmup - sc.Timed
	res.Sampled = sc
	res.Cycles = sc.Cycles
	if res.TimingErr == nil {
		res.TimingErr = mc.sampledErr
	}
}

// sampledStats replaces the whole-run cycle figures in a --stats object
// with the timed part's and adds the division of the instructions; the
// timing model's counters are the timed parts' sum.
func sampledStats(out map[string]any, sc *SampledCounts) {
	var sum map[string]any
	for i := range sc.Windows {
		if c := sc.Windows[i].Counters; c != nil {
			sum = addCounters(sum, c)
		}
	}
	if sum != nil {
		delete(sum, "instructions") // the run's, not the timed part's
		fixRatios(sum, sc.Cycles)
		for k, v := range sum {
			out[k] = v
		}
	}
	out["cycles"] = sc.Cycles
	out["ipc"] = ratio(sc.Timed, sc.Cycles)
	out["cpi"] = ratio(sc.Cycles, sc.Timed)
	out["fast_forward_instructions"] = sc.FastForward
	out["warmup_instructions"] = sc.Warmup
	out["timed_instructions"] = sc.Timed
}

func ratio(a, b uint64) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// diffCounters is end less start over a --stats object's counters
// (uint64 leaves, in nested maps); other leaves are end's. A nil start
// subtracts nothing. A counter start lacks was not known then (the
// stalls' real cost, known once the model's twin has finished), so it
// has no difference and is left out.
func diffCounters(end, start map[string]any) map[string]any {
	out := make(map[string]any, len(end))
	for k, v := range end {
		if _, known := start[k]; !known && start != nil {
			continue
		}
		switch v := v.(type) {
		case uint64:
			s, _ := start[k].(uint64)
			out[k] = v - s
		case map[string]uint64:
			s, _ := start[k].(map[string]uint64)
			m := make(map[string]uint64, len(v))
			for kk, vv := range v {
				m[kk] = vv - s[kk]
			}
			out[k] = m
		case map[string]any:
			s, _ := start[k].(map[string]any)
			out[k] = diffCounters(v, s)
		default:
			out[k] = v
		}
	}
	return out
}

// addCounters adds b's counters to a's (a nil a: a copy of b).
func addCounters(a, b map[string]any) map[string]any {
	if a == nil {
		return diffCounters(b, nil)
	}
	for k, v := range b {
		switch v := v.(type) {
		case uint64:
			x, _ := a[k].(uint64)
			a[k] = x + v
		case map[string]uint64:
			x, _ := a[k].(map[string]uint64)
			if x == nil {
				x = map[string]uint64{}
				a[k] = x
			}
			for kk, vv := range v {
				x[kk] += vv
			}
		case map[string]any:
			x, _ := a[k].(map[string]any)
			a[k] = addCounters(x, v)
		}
	}
	return a
}

// fixRatios recomputes the ratios of a counters object (pipeline.Core.Stats)
// from its counts: a predictor's accuracy, a cache's miss rate, a unit's
// utilisation over cycles.
func fixRatios(m map[string]any, cycles uint64) {
	for _, v := range m {
		sub, ok := v.(map[string]any)
		if !ok {
			continue
		}
		if l, ok := sub["lookups"].(uint64); ok {
			mp, _ := sub["mispredicts"].(uint64)
			sub["accuracy"] = 1.0
			if l > 0 {
				sub["accuracy"] = 1 - float64(mp)/float64(l)
			}
		}
		if a, ok := sub["accesses"].(uint64); ok {
			ms, _ := sub["misses"].(uint64)
			sub["miss_rate"] = ratio(ms, a)
		}
		if b, ok := sub["busy_cycles"].(uint64); ok {
			n, _ := sub["count"].(int)
			sub["utilisation"] = ratio(b, cycles*uint64(n))
		}
		fixRatios(sub, cycles)
	}
}

func addSlices(a, b []uint64) []uint64 {
	for len(a) < len(b) {
		a = append(a, 0)
	}
	for i := range b {
		a[i] += b[i]
	}
	return a
}
