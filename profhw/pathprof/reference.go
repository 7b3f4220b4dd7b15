package pathprof

import "github.com/rvsim/rvsim/profhw"

// The reference side of the unit: what exists only to measure the
// hardware's accuracy (§8.1) and no hardware has: the exact path profile,
// the unbounded stack that produces it once the hardware stack has
// dropped an entry, and the dynamic-overlap windows (the window's HPT
// against the window's exact profile). It runs on profhw.Offload: the
// unit Puts its records in program order and the consumer replays them,
// so what it computes is what it computed inline.
//
// The records are packed into 64-bit words (the hand-over's cost is its
// memory traffic): a branch is usually one word, a path two. The low two
// bits of a record's first word are its kind.

// refKind is what a record carries.
type refKind uint64

const (
	// refBranch is a retiring branch for the unbounded stack.
	refBranch refKind = iota
	// refPath is a complete path the hardware stack popped: the window's
	// HPT takes it, and the exact profile while the hardware stack is
	// exact.
	refPath
	// refTakeover: the unbounded stack (reference.next) takes over the
	// exact profile from the hardware stack, before the branch that
	// follows.
	refTakeover
	// refWindow closes a dynamic-overlap window.
	refWindow
)

// A branch's first word: kind (2 bits), type (3), taken (1), a 4-byte
// instruction (1) and the packed flag (bit 7). Packed, the rest of the
// word holds the events' form (2 bits: none, as many as instructions, in
// the next word), the block's instructions (16 bits), the branch's
// distance from the previous branch's target (16 bits) and its target's
// distance from it (22 bits, biased). Unpacked, bits 8-15 are the
// instruction's length and four words follow: pc, target, instructions,
// events.
const (
	brPacked   = 1 << 7
	brInstsSh  = 10
	brPCSh     = 26
	brTgtSh    = 42
	brTgtBias  = 1 << 21
	evNone     = 0
	evInsts    = 1
	evWord     = 2
	pathFull   = 1 << 8
	pathStart  = 32
	pathBias   = 1 << 31
	maxRecLen  = 5
	carryExtra = 8
)

// refEncoder packs the unit's records.
type refEncoder struct {
	off        *profhw.Offload[uint64]
	lastTarget uint64     // the previous branch's target (where the next block starts)
	direct     *reference // the hardware model runs on the reference's goroutine: no records, calls
}

// takeover records the unbounded stack's takeover.
func (e *refEncoder) takeover() {
	if e.direct != nil {
		e.direct.ref = e.direct.next
		return
	}
	e.off.Put(uint64(refTakeover))
}

// window records the end of an overlap window.
func (e *refEncoder) window() {
	if e.direct != nil {
		e.direct.closeWindow()
		return
	}
	e.off.Put(uint64(refWindow))
}

// sync waits for the reference to catch up; close also ends its goroutine.
func (e *refEncoder) sync() {
	if e.off != nil {
		e.off.Sync()
	}
}

func (e *refEncoder) close() {
	if e.off != nil {
		e.off.Close()
	}
}

// branch records a retiring branch.
func (e *refEncoder) branch(t BranchType, pc, target uint64, taken bool, ilen uint8, insts, events uint64) {
	if e.direct != nil {
		e.direct.branch(t, pc, target, taken, ilen, insts, events)
		return
	}
	h := uint64(refBranch) | uint64(t)<<2
	h |= uint64(b2u(taken)) << 5
	pd, td := pc-e.lastTarget, target-pc+brTgtBias
	e.lastTarget = target
	if (ilen == 2 || ilen == 4) && pd < 1<<16 && td < 1<<22 && insts < 1<<16 {
		ev := uint64(evWord)
		switch events {
		case 0:
			ev = evNone
		case insts:
			ev = evInsts
		}
		h |= uint64(ilen&4)<<4 | brPacked | ev<<8 | insts<<brInstsSh | pd<<brPCSh | td<<brTgtSh
		e.off.Put(h)
		if ev == evWord {
			e.off.Put(events)
		}
		return
	}
	e.off.Put(h | uint64(ilen)<<8)
	e.off.Put(pc)
	e.off.Put(target)
	e.off.Put(insts)
	e.off.Put(events)
}

// path records a complete path the hardware stack popped, with its
// weight (its start relative to the last recorded branch's target).
func (e *refEncoder) path(d Desc, insts, w uint64) {
	if e.direct != nil {
		e.direct.hwPath(d, insts, w)
		return
	}
	h := uint64(refPath) | uint64(d.Len)<<2
	if sd := d.Start - e.lastTarget + pathBias; sd < 1<<32 && w == 1 && insts < 1<<32 {
		e.off.Put(h | sd<<pathStart)
		e.off.Put(uint64(d.Dirs) | insts<<32)
		return
	}
	e.off.Put(h | pathFull)
	e.off.Put(d.Start)
	e.off.Put(uint64(d.Dirs))
	e.off.Put(insts)
	e.off.Put(w)
}

// recLen is the words of the record whose first word is h.
func recLen(h uint64) int {
	switch refKind(h & 3) {
	case refBranch:
		if h&brPacked == 0 {
			return 5
		}
		if h>>8&3 == evWord {
			return 2
		}
		return 1
	case refPath:
		if h&pathFull != 0 {
			return 5
		}
		return 2
	}
	return 1
}

// reference is the consumer's state. The unit reads it only after
// Sync (or Close).
type reference struct {
	metric     Metric
	ref        *Stack // the unbounded stack (nil while the hardware's paths are exact)
	next       *Stack // the stack refTakeover installs (written once, before its record)
	exact      *Exact
	winH       *HPT // the HPT of the current window (nil: no windows)
	winOver    []float64
	lastTarget uint64
	carry      []uint64 // a record split across batches
	fwdUpdate  bool     // forward branches only update (no extension): decode's fast case
	// gram is the WPP grammar (wpp.grammar): the software WPP profiler
	// of §3, fed the complete subpaths in order; ids numbers them.
	gram        *Grammar
	ids         map[Desc]uint32
	gramMax     int    // wpp.max_symbols: the grammar's bound (about 100 bytes a symbol)
	gramDropped uint64 // subpaths after the grammar reached it
}

// consume replays a batch of words; a record the batch ends inside waits
// in carry for the rest.
func (r *reference) consume(ws []uint64) {
	if n := len(r.carry); n > 0 {
		k := min(len(ws), carryExtra)
		r.carry = append(r.carry, ws[:k]...)
		done := r.decode(r.carry)
		if done < n {
			return // still inside the record (ws was shorter than its rest)
		}
		ws = ws[done-n:]
		r.carry = r.carry[:0]
	}
	done := r.decode(ws)
	r.carry = append(r.carry, ws[done:]...)
}

// decode replays the complete records at the start of ws and returns
// the words they take.
func (r *reference) decode(ws []uint64) int {
	i := 0
	for i < len(ws) {
		h := ws[i]
		if h&(brPacked|3<<8|1<<4|1<<3|1<<2|3) == brPacked|uint64(Forward)<<2|evNone<<8 && r.fwdUpdate {
			// A packed forward branch without events that extends the
			// unbounded stack's top path (Stack.Branch's first case).
			if s := r.ref; s != nil && s.n > 0 {
				if e := &s.buf[s.lo+s.n-1]; e.d.Len+1 < s.maxLen {
					pc := r.lastTarget + h>>brPCSh&(1<<16-1)
					r.lastTarget = pc + h>>brTgtSh - brTgtBias
					s.Stats.Updates++
					e.insts += h >> brInstsSh & (1<<16 - 1)
					e.d.Dirs |= uint32(h>>5&1) << e.d.Len
					e.d.Len++
					i++
					continue
				}
			}
		}
		n := recLen(h)
		if i+n > len(ws) {
			break
		}
		switch refKind(h & 3) {
		case refBranch:
			var pc, target, insts, events uint64
			var ilen uint8
			if h&brPacked != 0 {
				insts = h >> brInstsSh & (1<<16 - 1)
				pc = r.lastTarget + h>>brPCSh&(1<<16-1)
				target = pc + h>>brTgtSh - brTgtBias
				ilen = 2
				if h&(1<<6) != 0 {
					ilen = 4
				}
				switch h >> 8 & 3 {
				case evInsts:
					events = insts
				case evWord:
					events = ws[i+1]
				}
			} else {
				ilen = uint8(h >> 8)
				pc, target, insts, events = ws[i+1], ws[i+2], ws[i+3], ws[i+4]
			}
			r.lastTarget = target
			r.branch(BranchType(h>>2&7), pc, target, h&(1<<5) != 0, ilen, insts, events)
		case refPath:
			var d Desc
			var w, insts uint64
			d.Len = uint8(h >> 2 & 63)
			if h&pathFull != 0 {
				d.Start, d.Dirs, insts, w = ws[i+1], uint32(ws[i+2]), ws[i+3], ws[i+4]
			} else {
				d.Start = r.lastTarget + h>>pathStart - pathBias
				d.Dirs, insts, w = uint32(ws[i+1]), ws[i+1]>>32, 1
			}
			r.hwPath(d, insts, w)
		case refTakeover:
			r.ref = r.next
		case refWindow:
			r.closeWindow()
		}
		i += n
	}
	return i
}

// hwPath takes a complete path of the hardware stack: into the window's
// HPT, and into the exact profile while the hardware stack is exact.
func (r *reference) hwPath(d Desc, insts, w uint64) {
	if r.winH != nil {
		r.winH.Update(d, w)
	}
	if r.ref == nil {
		r.exact.Add(d, w, insts)
	}
	if r.gram != nil {
		if r.gram.Symbols() >= r.gramMax {
			r.gramDropped++ // the grammar is full: the rest is counted, not compressed
			return
		}
		id, ok := r.ids[d]
		if !ok {
			id = uint32(len(r.ids))
			r.ids[d] = id
		}
		r.gram.Append(id)
	}
}

// branch runs a branch through the unbounded stack into the exact profile.
func (r *reference) branch(t BranchType, pc, target uint64, taken bool, ilen uint8, insts, events uint64) {
	s := r.ref
	if s == nil {
		return
	}
	s.Branch(t, pc, target, pc+uint64(ilen), taken, insts, events)
	for j := 0; j < s.nOut; j++ {
		if p := &s.out[j]; !p.Incomplete {
			w := p.Events
			if r.metric == Frequency {
				w = 1
			}
			r.exact.Add(p.Desc, w, p.Insts)
		}
	}
}

// closeWindow ends a dynamic-overlap window (§8.1): the window's HPT
// against the window's exact profile; both start empty again.
func (r *reference) closeWindow() {
	ex := r.exact.Window()
	if len(ex) > 0 {
		r.winOver = append(r.winOver, Overlap(r.winH.Weights(), ex))
	}
	r.winH.Reset()
}

// newReference builds the reference model and its offload (direct: no
// offload, the caller runs on a goroutine of its own already).
func newReference(cfg *Config, direct bool) (*reference, *refEncoder) {
	r := &reference{metric: cfg.Metric, exact: NewExact(),
		fwdUpdate: cfg.PPCR.Ops[Forward] == OpUpdate && cfg.PPCR.Extend == ExtendNone}
	if cfg.Window > 0 {
		r.winH, _ = NewHPT(cfg.HPTEntries, cfg.HPTWays, cfg.HPTIndex)
	}
	if cfg.Grammar {
		r.gram, r.ids, r.gramMax = NewGrammar(), map[Desc]uint32{}, cfg.GrammarMax
	}
	if direct {
		return r, &refEncoder{direct: r}
	}
	return r, &refEncoder{off: profhw.NewOffload(r.consume)}
}
