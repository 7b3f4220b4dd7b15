package sim

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/rvsim/rvsim/collector"
	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/dise"
	"github.com/rvsim/rvsim/isa"
	"github.com/rvsim/rvsim/profhw/phase"
	"github.com/rvsim/rvsim/profile"
)

// The phase trigger: phase-aware sampling through HPS
// (hps-phase-aware-remote-profiling.md §4, Fig. 7). A Phase Tracker
// (profhw/phase) watches the application's retired branches in intervals
// of application instructions; at each interval's end the profiling
// daemon (phase.Daemon) reads its prediction and, by its policy, turns HPS
// sampling on for the next interval (an injected hps.on, as the external
// triggers inject theirs) or off at the end of a sampled one. The ACF's
// productions collect the profile while sampling is on. sim is where the
// tracker (profhw) meets the engine (dise): neither imports the other.
//
//	phase:POLICY[:key=value,...]
//
// POLICY is first, third (online), centroid or random (oracles: sim runs
// a first pass of the program to plan them). The keys are in
// phaseTriggerKeys.

// PhaseTrigger is a parsed phase trigger.
type PhaseTrigger struct {
	Policy  phase.Policy
	Tracker phase.Config
	Seed    int64 // the random policy's plan
	Cost    int   // daemon instructions per decision
}

func (p PhaseTrigger) String() string {
	return fmt.Sprintf("phase:%s:interval=%d,threshold=%g,predictor=%s,seed=%d,cost=%d",
		p.Policy, p.Tracker.Interval, p.Tracker.Threshold, p.Tracker.Predictor, p.Seed, p.Cost)
}

// twoPass reports whether the trigger needs a first run: an oracle policy
// or the oracle predictor.
func (p PhaseTrigger) twoPass() bool {
	return !p.Policy.Online() || p.Tracker.Predictor == phase.Oracle
}

// phaseTriggerKeys are the phase trigger's keys and what each takes.
var phaseTriggerKeys = []struct{ key, want string }{
	{"interval", "application instructions per interval (default 100000)"},
	{"threshold", "similarity threshold, percent of the interval (default 25)"},
	{"predictor", "last, runlength or oracle (default last)"},
	{"seed", "the random policy's seed (default 1)"},
	{"cost", "daemon instructions per decision (default 80)"},
	{"accumulators", "accumulator table entries, a power of two (default 32)"},
	{"entries", "phase-ID table entries (default 20)"},
}

// ParseTrigger checks a --trigger value: the DISE timers
// (dise.ParseTrigger) or a phase trigger.
func ParseTrigger(s string) error {
	if isPhaseTrigger(s) {
		_, err := ParsePhaseTrigger(s)
		return err
	}
	_, err := dise.ParseTrigger(s)
	if kind, _, _ := strings.Cut(s, ":"); err != nil && kind != "periodic" && kind != "random" {
		// dise knows only its timers; name every kind a run takes.
		return fmt.Errorf("trigger %q: unknown kind %q (want periodic:PERIOD:LENGTH, random:P:LENGTH[:SEED] or phase:POLICY[:key=value,...])", s, kind)
	}
	return err
}

func isPhaseTrigger(s string) bool { return s == "phase" || strings.HasPrefix(s, "phase:") }

// ParsePhaseTrigger parses phase:POLICY[:key=value,...].
func ParsePhaseTrigger(s string) (PhaseTrigger, error) {
	bad := func(format string, a ...any) (PhaseTrigger, error) {
		return PhaseTrigger{}, fmt.Errorf("trigger %q: %s (want phase:POLICY[:key=value,...], POLICY first, third, centroid or random)",
			s, fmt.Sprintf(format, a...))
	}
	f := strings.SplitN(s, ":", 3)
	if len(f) < 2 || f[1] == "" {
		return bad("no policy")
	}
	pol, err := phase.ParsePolicy(f[1])
	if err != nil {
		return bad("%v", err)
	}
	t := PhaseTrigger{Policy: pol, Tracker: phase.DefaultConfig(), Seed: 1, Cost: phase.DaemonInstructions}
	seen := map[string]bool{}
	if len(f) == 3 {
		for _, kv := range strings.Split(f[2], ",") {
			k, v, ok := strings.Cut(kv, "=")
			if !ok {
				return bad("%q is not key=value", kv)
			}
			if seen[k] {
				return bad("key %s given twice", k)
			}
			seen[k] = true
			num := func(lo, hi uint64) (uint64, bool) {
				n, err := strconv.ParseUint(strings.ReplaceAll(v, "_", ""), 10, 64)
				return n, err == nil && n >= lo && n <= hi
			}
			var want string
			switch k {
			case "interval":
				n, ok := num(1000, 1<<40)
				t.Tracker.Interval, want = n, map[bool]string{false: "an integer from 1000 to 2^40"}[ok]
			case "threshold":
				x, err := strconv.ParseFloat(v, 64)
				if err != nil || !(x >= 0 && x <= 200) {
					want = "a percentage from 0 to 200"
				}
				t.Tracker.Threshold = x
			case "predictor":
				want = "last, runlength or oracle"
				for i, n := range phase.PredictorNames {
					if v == n {
						t.Tracker.Predictor, want = phase.Predictor(i), ""
					}
				}
			case "seed":
				n, ok := num(0, 1<<62)
				t.Seed, want = int64(n), map[bool]string{false: "a non-negative integer"}[ok]
			case "cost":
				n, ok := num(0, 1<<20)
				t.Cost, want = int(n), map[bool]string{false: "an instruction count from 0 to 2^20"}[ok]
			case "accumulators":
				n, ok := num(2, 1<<16)
				t.Tracker.Accumulators, want = int(n), map[bool]string{false: "a power of two from 2 to 65536"}[ok && n&(n-1) == 0]
			case "entries":
				n, ok := num(1, 4096)
				t.Tracker.Entries, want = int(n), map[bool]string{false: "an integer from 1 to 4096"}[ok]
			default:
				names := make([]string, len(phaseTriggerKeys))
				for i, x := range phaseTriggerKeys {
					names[i] = x.key
				}
				return bad("unknown key %q (keys: %s)", k, strings.Join(names, ", "))
			}
			if want != "" {
				return bad("%s=%s: want %s", k, v, want)
			}
		}
	}
	if err := t.Tracker.Check(); err != nil {
		return bad("%v", err)
	}
	return t, nil
}

// PhaseInterval is the end of one interval of a phase-triggered run, as
// OnInterval receives it.
type PhaseInterval struct {
	Index    int
	Phase    int
	Sampled  bool
	Profiles []profile.Profile // the interval's profiles if Sampled (what HPS collected during it)
}

// PhaseResult is what the phase trigger did over a run.
type PhaseResult struct {
	Trigger            string
	Intervals          int
	Sequence           []int // the phase of each complete interval
	Phases             int   // distinct phases
	Samples            []phase.Sample
	Decisions          uint64
	DaemonInstructions uint64 // the daemon's cost, injected into the stream (Cost per decision)
	Triggers           uint64 // hps.on and hps.off the daemon executed
	PredictionChecked  int
	PredictionCorrect  int
	// FirstPass is the first run's instruction count (two-pass policies),
	// Plan an oracle policy's intervals.
	FirstPass uint64
	Plan      []int
	// Remote is what the profile buffer sent (set by the caller that
	// drove OnInterval; nil if none).
	Remote *RemoteStats
	err    error
}

// RemoteStats counts what a run's profile buffer compressed and sent
// (collector.Stats).
type RemoteStats struct {
	Samples, Frames, Raw, Compressed, Wire uint64
}

// phaseTrigger is a run's tracker and daemon. It observes the retired
// stream (Retire) for the application's branches and acts at interval
// boundaries (fire).
type phaseTrigger struct {
	spec    PhaseTrigger
	tr      *phase.Tracker
	det     *phase.Detector
	d       *phase.Daemon
	next    uint64 // application instructions at the next boundary
	started bool
	feed    phase.AppFeed // the application's branches into det
	on      bool
	nop     isa.Inst
	res     PhaseResult
	sigs    [][]uint32 // recorded (first pass)
	record  bool
	lag     error // the observer was behind the core at a boundary (an internal error)
	// onInterval, if set, is told of every interval's end.
	onInterval func(PhaseInterval) error
	cbErr      error
	firstSeq   []int // a two-pass policy's first run
}

func newPhaseTrigger(spec PhaseTrigger) (*phaseTrigger, error) {
	tr, err := phase.NewTracker(spec.Tracker)
	if err != nil {
		return nil, err
	}
	nop, _ := isa.Decode(0x00000013) // addi x0, x0, 0
	return &phaseTrigger{spec: spec, tr: tr, det: tr.Detector(), feed: phase.AppFeed{Det: tr.Detector()}, nop: nop,
		res: PhaseResult{Trigger: spec.String()}}, nil
}

// Retire feeds the application's branches (not injected, not handler
// code) to the accumulator table, each with the application instructions
// since the previous one (Sherwood et al. 2003 §3).
func (p *phaseTrigger) Retire(batch []cpu.DynInst) {
	for i := range batch {
		if !p.feed.Inst(&batch[i]) {
			continue
		}
		if p.record && p.feed.App == p.next {
			// The first pass has no boundaries of its own: close the
			// interval here, where fire would.
			sig := p.det.Close()
			p.sigs = append(p.sigs, sig)
			p.tr.EndInterval(sig)
			p.next += p.spec.Tracker.Interval
		}
	}
}

// nextBoundary is the application-instruction count of the next decision.
func (p *phaseTrigger) nextBoundary() uint64 { return p.next }

// fire takes the decision at the boundary: it classifies the interval that
// ended, tells onInterval, asks the daemon about the next one, and returns
// what to inject: the hps.on/hps.off if sampling changes, then the
// daemon's own instructions (nil if neither).
func (p *phaseTrigger) fire(eng *dise.Engine, pc uint64, appNow uint64) *cpu.Expansion {
	var want bool
	if !p.started {
		p.started = true
		want = p.d.Start()
	} else {
		if p.feed.App != appNow && p.lag == nil {
			p.lag = fmt.Errorf("phase trigger: the branch observer saw %d application instructions at the boundary, the core retired %d", p.feed.App, appNow)
		}
		iv := p.tr.EndInterval(p.det.Close())
		if p.onInterval != nil && p.cbErr == nil {
			p.cbErr = p.onInterval(PhaseInterval{Index: iv.Index, Phase: iv.Phase, Sampled: p.on})
		}
		want = p.d.End(iv)
	}
	p.next += p.spec.Tracker.Interval
	p.res.DaemonInstructions += uint64(p.spec.Cost)
	x := &cpu.Expansion{}
	if want != p.on {
		x.Seq = append(x.Seq, eng.Trigger(want, pc).Seq...)
		p.on = want
		p.res.Triggers++
	}
	for range p.spec.Cost {
		x.Seq = append(x.Seq, cpu.SeqOp{Kind: cpu.SeqInst, Inst: p.nop})
	}
	if len(x.Seq) == 0 {
		return nil
	}
	return x
}

// result fills the run's PhaseResult.
func (p *phaseTrigger) result() *PhaseResult {
	r := p.res
	r.Sequence = append([]int{}, p.tr.Sequence...)
	r.Intervals = len(r.Sequence)
	r.Phases = p.tr.Distinct()
	r.Samples = append([]phase.Sample{}, p.d.Samples...)
	r.Decisions = p.d.Decisions
	r.PredictionChecked, r.PredictionCorrect = p.tr.Checked, p.tr.Correct
	r.err = p.lag
	if r.err == nil {
		r.err = p.cbErr
	}
	if r.err == nil && p.spec.twoPass() {
		for i, id := range r.Sequence {
			if i >= len(p.firstSeq) || p.firstSeq[i] != id {
				r.err = fmt.Errorf("phase trigger: the run's interval %d is in phase %d, the first pass's in %d: the program's run is not deterministic, so the two-pass %s cannot be trusted",
					i, id, at(p.firstSeq, i), p.spec)
				break
			}
		}
	}
	return &r
}

func at(s []int, i int) int {
	if i < len(s) {
		return s[i]
	}
	return 0
}

// firstPass runs the program once without DISE, timing or profiling units,
// recording each interval's signature and phase: the oracle predictor's
// sequence and the oracle policies' plan (§5.3: "use future knowledge").
// The first run's guest gets an empty stdin and its output is dropped.
func firstPass(prog string, cfg Config, spec PhaseTrigger) (seq []int, sigs [][]uint32, insts uint64, err error) {
	cfg.DISE, cfg.Timing, cfg.ProfHW, cfg.Trace, cfg.CountMix = nil, nil, nil, nil, false
	cfg.FastForward, cfg.Warmup = 0, 0
	cfg.Kernel.Stdin, cfg.Kernel.Stdout, cfg.Kernel.Stderr, cfg.Kernel.Warn = bytes.NewReader(cfg.stdinCopy), io.Discard, io.Discard, io.Discard
	spec.Tracker.Predictor, spec.Tracker.Oracle = phase.LastPhase, nil
	pt, err := newPhaseTrigger(spec)
	if err != nil {
		return nil, nil, 0, err
	}
	pt.record, pt.next = true, spec.Tracker.Interval
	cfg.Observers = []cpu.Observer{pt} // the caller's observers see the run, not the first pass
	cfg.Program = prog
	mc, err := Load(cfg)
	if err != nil {
		return nil, nil, 0, fmt.Errorf("phase trigger, first pass: %v", err)
	}
	res := mc.Run()
	return pt.tr.Sequence, pt.sigs, res.Instructions, nil
}

// next is the application-instruction count of the trigger's next
// boundary.
func (st *diseState) next() uint64 {
	if st.phase != nil {
		return st.phase.nextBoundary()
	}
	return st.sched.Next()
}

// fire acts at the boundary; c is at an application-instruction boundary
// with app application instructions retired.
func (st *diseState) fire(c *cpu.CPU, app uint64) *cpu.Expansion {
	if st.phase != nil {
		c.Flush() // the tracker must have seen every instruction up to here
		return st.phase.fire(st.eng, c.PC, app)
	}
	if ch := st.sched.Fire(); ch != 0 {
		return st.eng.Trigger(ch > 0, c.PC)
	}
	return nil
}

// loadPhaseTrigger builds the phase trigger of o (a first pass first, for
// a two-pass policy or the oracle predictor).
func (mc *Machine) loadPhaseTrigger(st *diseState, prog *dise.Program, o *DISEOptions) error {
	spec, err := ParsePhaseTrigger(o.Trigger)
	if err != nil {
		return err
	}
	if !prog.UsesTriggers() {
		return fmt.Errorf("--trigger %s: no production of %s matches hps.on or hps.off, so the trigger would do nothing",
			o.Trigger, strings.Join(o.ACF, ", "))
	}
	var seq []int
	var sigs [][]uint32
	var firstInsts uint64
	if spec.twoPass() {
		cfg := mc.cfg
		if o.MaxAppInstructions != 0 {
			cfg.MaxInsts = o.MaxAppInstructions
		}
		if seq, sigs, firstInsts, err = firstPass(mc.Prog.Path, cfg, spec); err != nil {
			return err
		}
		if spec.Tracker.Predictor == phase.Oracle {
			spec.Tracker.Oracle = seq
		}
	}
	pt, err := newPhaseTrigger(spec)
	if err != nil {
		return err
	}
	pt.res.FirstPass = firstInsts
	if spec.Policy.Online() {
		if pt.d, err = phase.NewDaemon(spec.Policy, pt.tr); err != nil {
			return err
		}
	} else {
		plan, err := phase.Plan(spec.Policy, seq, sigs, spec.Seed)
		if err != nil {
			return err
		}
		pt.d = phase.NewPlanned(spec.Policy, pt.tr, plan)
		pt.res.Plan = plan
	}
	pt.firstSeq = seq
	if o.OnInterval != nil {
		var prev []profile.Profile
		pt.onInterval = func(iv PhaseInterval) error {
			if iv.Sampled {
				cur, err := mc.Profiles()
				if err != nil {
					return err
				}
				iv.Profiles = collector.Subtract(cur, prev)
				prev = cur
			}
			return o.OnInterval(iv)
		}
	}
	st.phase = pt
	return nil
}

// Err is what went wrong in the phase trigger during the run: the
// profile buffer refused an interval, or the second pass of a two-pass
// policy did not repeat the first (a program whose run is not
// deterministic).
func (r *PhaseResult) Err() error { return r.err }

// Stats is the "phase" object in --stats' "dise".
func (r *PhaseResult) Stats() map[string]any {
	var sampled []int
	for _, s := range r.Samples {
		sampled = append(sampled, s.Interval)
	}
	out := map[string]any{
		"trigger":                 r.Trigger,
		"intervals":               r.Intervals,
		"phases_distinct":         r.Phases,
		"phase_sequence":          r.Sequence,
		"sampled_intervals":       sampled,
		"decisions":               r.Decisions,
		"daemon_instructions":     r.DaemonInstructions,
		"hps_triggers":            r.Triggers,
		"predictions_checked":     r.PredictionChecked,
		"predictions_correct":     r.PredictionCorrect,
		"first_pass_instructions": r.FirstPass,
	}
	if r.Plan != nil {
		out["plan"] = r.Plan
	}
	if r.err != nil {
		out["error"] = r.err.Error()
	}
	if m := r.Remote; m != nil {
		out["remote"] = map[string]any{"samples": m.Samples, "frames": m.Frames, "raw_bytes": m.Raw,
			"compressed_bytes": m.Compressed, "wire_bytes": m.Wire}
	}
	return out
}

// maxReplayedStdin bounds the standard input a two-pass policy keeps for
// its first pass.
const maxReplayedStdin = 1 << 30

// replayableStdin reads a two-pass phase trigger's standard input ahead of
// the run, so that its first pass reads the same bytes as the real run
// (the first pass decides which intervals to sample: with other input its
// phases would not be the run's).
func replayableStdin(cfg *Config) error {
	if cfg.DISE == nil || cfg.Kernel.Stdin == nil || !strings.HasPrefix(cfg.DISE.Trigger, "phase:") {
		return nil
	}
	spec, err := ParsePhaseTrigger(cfg.DISE.Trigger)
	if err != nil || !spec.twoPass() {
		return nil // (a bad trigger is reported where it is loaded)
	}
	data, err := io.ReadAll(io.LimitReader(cfg.Kernel.Stdin, maxReplayedStdin+1))
	if err != nil {
		return fmt.Errorf("--trigger %s: reading standard input for the first pass: %v", cfg.DISE.Trigger, err)
	}
	if len(data) > maxReplayedStdin {
		return fmt.Errorf("--trigger %s: standard input is over %d bytes; a two-pass policy keeps it for its first pass", cfg.DISE.Trigger, maxReplayedStdin)
	}
	cfg.stdinCopy, cfg.Kernel.Stdin = data, bytes.NewReader(data)
	return nil
}
