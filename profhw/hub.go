package profhw

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/pipeline"
)

// Hub connects the units of one run to the core: it is the functional
// stream's sink (the core's tap, cpu.TapSink: the core records only the
// classes some unit watches, and each unit gets one call per batch with
// only its own classes) and the timing model's retire hook (units that watch commits
// get each committed instruction; the stall commit sees is the longest any
// unit asks for, since the units are parallel hardware, and it is charged
// to that unit, the first in configuration order on a tie: see
// pipeline/hookcost.go for how the real cost is split).
type Hub struct {
	units  []Unit
	masks  []ClassMask
	bufs   [][]cpu.DynInst
	commit []Unit // units that watch commits
	// commitIdx[i] is h.commit[i]'s index in units (the cause of its
	// stalls in the core's accounting).
	commitIdx []int
	pacers    []Pacer
	union     ClassMask
	lean      bool // every unit that watches the stream is Lean
	values    bool // every unit that watches the stream takes the value tap
	controls  bool // every unit that watches the stream takes the control tap
	// commitMasks[i] is the classes h.commit[i] sees at commit.
	commitMasks []ClassMask

	pending []Interrupter // interrupts requested, in order
	stop    func()        // stops the core after the current instruction
}

// NewHub builds the hub of units.
func NewHub(units []Unit) *Hub {
	h := &Hub{units: units, lean: true, values: true, controls: true}
	for i, u := range units {
		w := u.Watch()
		h.masks = append(h.masks, w.Retired)
		h.bufs = append(h.bufs, nil)
		h.union |= w.Retired
		if w.Retired != 0 && !w.Lean {
			h.lean = false
		}
		if vt, ok := u.(ValueTaker); w.Retired != 0 && (!ok || !vt.TakesValues()) {
			h.values = false
		}
		if ct, ok := u.(ControlTaker); w.Retired != 0 && (!ok || !ct.TakesControls()) {
			h.controls = false
		}
		if w.Committed {
			h.commit = append(h.commit, u)
			h.commitIdx = append(h.commitIdx, i)
			m := w.CommitClasses
			if m == 0 {
				m = AllClasses
			}
			h.commitMasks = append(h.commitMasks, m)
		}
		if p, ok := u.(Pacer); ok {
			h.pacers = append(h.pacers, p)
		}
	}
	return h
}

// Units returns the hub's units.
func (h *Hub) Units() []Unit { return h.units }

// Classes is the union of the classes the units watch in the functional
// stream.
func (h *Hub) Classes() ClassMask { return h.union }

// Lean reports whether every unit that watches the functional stream
// reads only a lean record of a load or store (Watch.Lean).
func (h *Hub) Lean() bool { return h.lean }

// Values reports whether the units can take the core's value tap
// (cpu.SetTapValues, ValueTaker): every unit that watches the stream
// takes it, and they watch the loads only.
func (h *Hub) Values() bool { return h.values && h.union == cpu.LoadClasses }

// TappedValues is the value tap's sink (cpu.ValueSink): each unit that
// watches the stream gets the batch. Unless a unit bounds it (Pacer:
// the units that take these taps do not), the core may buffer all it can
// (unpacedBatch).
func (h *Hub) TappedValues(vals []cpu.TapValue) int {
	if len(vals) > 0 {
		h.eachWatching(func(u Unit) { u.(ValueTaker).RetireValues(vals) })
	}
	return h.pace(unpacedBatch)
}

// unpacedBatch is the records a value or control tap's core buffers
// between deliveries: its most. Each delivery leaves translated code
// (cpu's translator records these taps), so fewer deliveries are less
// time in the interpreter and in the hand-over (docs/SPEED.md, "tenth
// round"); what the units compute does not depend on where a batch ends.
const unpacedBatch = cpu.TapBatchMax

// Controls reports whether the units can take the core's control tap
// (cpu.SetTapControls, ControlTaker): every unit that watches the stream
// takes it, and they watch the control transfers only.
func (h *Hub) Controls() bool { return h.controls && h.union == cpu.BranchClasses }

// TappedControls is the control tap's sink (cpu.ControlSink): each unit
// that watches the stream gets the batch.
func (h *Hub) TappedControls(recs []cpu.TapControl) int {
	if len(recs) > 0 {
		h.eachWatching(func(u Unit) { u.(ControlTaker).RetireControls(recs) })
	}
	return h.pace(unpacedBatch)
}

// eachWatching calls f with each unit that watches the functional stream
// (a tap's batch goes to every one of them).
func (h *Hub) eachWatching(f func(Unit)) {
	for i, u := range h.units {
		if h.masks[i] != 0 {
			f(u)
		}
	}
}

// CommitClasses is the union of the classes the units see at commit.
func (h *Hub) CommitClasses() ClassMask {
	var m ClassMask
	for _, c := range h.commitMasks {
		m |= c
	}
	return m
}

// WatchesCommits reports whether any unit needs the retire hook.
func (h *Hub) WatchesCommits() bool { return len(h.commit) > 0 }

// SetStop installs the function that stops the core after the current
// instruction (cpu.RequestStop), used when a unit interrupts.
func (h *Hub) SetStop(f func()) { h.stop = f }

// Retire hands a batch of retired instructions to the units (also the
// cpu.Observer method). Instructions of classes no unit watches are
// skipped; a unit that watches every class the hub does (the tap has
// filtered the batch already) or every class gets the batch as it is.
func (h *Hub) Retire(batch []cpu.DynInst) {
	for i, u := range h.units {
		m := h.masks[i]
		switch m {
		case 0:
			continue
		case AllClasses, h.union:
			u.Retire(batch)
			continue
		}
		buf := h.bufs[i][:0]
		for j := range batch {
			if m>>batch[j].Inst.Class&1 != 0 {
				buf = append(buf, batch[j])
			}
		}
		h.bufs[i] = buf
		if len(buf) > 0 {
			u.Retire(buf)
		}
	}
}

// Tapped is the core's tap sink: it hands the records to the units and
// returns how many more the core may buffer before delivering again (the
// tightest bound a Pacer asks for; 0: the core's default batch).
func (h *Hub) Tapped(recs []cpu.DynInst) int {
	if len(recs) > 0 {
		h.Retire(recs)
	}
	return h.pace(0)
}

// pace is the tightest bound a Pacer asks for, or unbounded when none
// does.
func (h *Hub) pace(unbounded int) int {
	next := 0
	for _, p := range h.pacers {
		if n := p.Pace(); n > 0 && (next == 0 || n < next) {
			next = n
		}
	}
	if next == 0 {
		return unbounded
	}
	return next
}

// Commit is the timing model's retire hook: the stall is the longest any
// unit asks for, charged to that unit (r.Cause).
func (h *Hub) Commit(r *pipeline.Commit) uint64 {
	var stall uint64
	for i, u := range h.commit {
		if h.commitMasks[i]>>r.D.Inst.Class&1 != 0 {
			if st := u.Commit(r); st > stall {
				stall, r.Cause = st, h.commitIdx[i]
			}
		}
	}
	return stall
}

// Interrupt is Env.Interrupt: the unit's interrupt is taken once the core
// stops after the current instruction.
func (h *Hub) Interrupt(u Unit) {
	in, ok := u.(Interrupter)
	if !ok {
		return
	}
	for _, p := range h.pending {
		if p == in {
			return
		}
	}
	h.pending = append(h.pending, in)
	if h.stop != nil {
		h.stop()
	}
}

// Pending reports whether interrupts wait to be taken.
func (h *Hub) Pending() bool { return len(h.pending) > 0 }

// TakeInterrupts lets each unit that asked run its handler.
func (h *Hub) TakeInterrupts(host HandlerHost) error {
	p := h.pending
	h.pending = nil
	for _, in := range p {
		if err := in.TakeInterrupt(host); err != nil {
			return err
		}
	}
	return nil
}

// Finish ends every unit, and gives each its real stall cycles
// (Summary.StallCyc) from end.StallCycles, or none when they were not
// measured.
func (h *Hub) Finish(end End) error {
	for i, u := range h.units {
		if err := u.Finish(end); err != nil {
			return fmt.Errorf("profhw unit %s: %v", u.Name(), err)
		}
		switch {
		case end.StallsUnmeasured:
			u.Summary().Null("stall_cycles", "not measured (--profhw-stall-cost off)")
		case i < len(end.StallCycles):
			u.Summary().StallCyc = end.StallCycles[i]
		}
	}
	return nil
}

// Summaries returns every unit's summary, in configuration order.
func (h *Hub) Summaries() []*Summary {
	out := make([]*Summary, len(h.units))
	for i, u := range h.units {
		out[i] = u.Summary()
	}
	return out
}

// Stats is the --stats entry: unit name -> summary.
func (h *Hub) Stats() map[string]any {
	m := make(map[string]any, len(h.units))
	for _, s := range h.Summaries() {
		m[s.Unit] = s
	}
	return m
}

// CheckOutDir makes sure dir exists (creating it) and is writable, before
// the run starts.
func CheckOutDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("--profhw-out %s: %v", dir, unwrap(err))
	}
	f, err := os.CreateTemp(dir, ".rvsim-probe-*")
	if err != nil {
		return fmt.Errorf("--profhw-out %s: %v", dir, unwrap(err))
	}
	f.Close()
	return os.Remove(f.Name())
}

// File is one output file of a unit, named NAME.SUFFIX: its bytes (Data)
// or the function that streams them (Write).
type File struct {
	Name string
	Output
}

// Files returns every unit's files: NAME.summary.json and the unit's own
// outputs (NAME.profile.json, NAME.exact.json, …). Every name begins with
// its unit's name and a dot.
func (h *Hub) Files(sym Symbolizer) ([]File, error) {
	var files []File
	for _, u := range h.units {
		outs, err := u.Outputs(sym)
		if err != nil {
			return nil, fmt.Errorf("profhw unit %s: %v", u.Name(), err)
		}
		sum, err := json.MarshalIndent(u.Summary(), "", "  ")
		if err != nil {
			return nil, err
		}
		outs = append(outs, Output{Suffix: "summary.json", Data: append(sum, '\n')})
		for _, o := range outs {
			files = append(files, File{Name: u.Name() + "." + o.Suffix, Output: o})
		}
	}
	return files, nil
}

func unwrap(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}
