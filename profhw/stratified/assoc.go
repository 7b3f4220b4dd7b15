package stratified

import "github.com/rvsim/rvsim/profhw/tuple"

// Assoc is A_k, the associative counter table of §3.4: k fully
// associative entries of complete tuples and counters that merge repeated
// messages (a lossless second level). An entry is dispatched to software
// when it is replaced (least recently used, as in a cache: §3.4 calls it
// "cache-like") or when its counter saturates. The counter counts in
// units: one message when the first level's count is implied (r), one
// occurrence when messages carry counts.
type Assoc struct {
	ents  []assocEntry
	unit  uint64 // occurrences per counter step
	max   uint64 // the counter's largest value
	width uint
	clock uint64
}

type assocEntry struct {
	t     tuple.Tuple
	n     uint64 // counter (units)
	used  uint64 // LRU stamp
	valid bool
}

// NewAssoc builds A_k with counters of width bits.
func NewAssoc(k int, width uint, unit uint64) *Assoc {
	return &Assoc{ents: make([]assocEntry, k), unit: unit, max: 1<<width - 1, width: width}
}

// Push merges one message, appending what it dispatches to out.
func (a *Assoc) Push(m Message, out []Message) []Message {
	a.clock++
	u := m.Count / a.unit
	if u > a.max || u*a.unit != m.Count {
		return append(out, m) // too big for a counter (or not a multiple of the unit): pass it on
	}
	var victim *assocEntry
	for i := range a.ents {
		e := &a.ents[i]
		if e.valid && e.t == m.T {
			if e.n+u > a.max { // would overflow: dispatch what it holds, keep the new count
				out = append(out, Message{T: e.t, Count: e.n * a.unit})
				e.n = 0
			}
			e.n += u
			e.used = a.clock
			return a.saturated(e, out)
		}
		switch {
		case victim == nil, victim.valid && !e.valid:
			victim = e // the first entry, or the first free one
		case victim.valid && e.used < victim.used:
			victim = e // less recently used
		}
	}
	if victim.valid { // replacement: the LRU entry goes to software
		out = append(out, Message{T: victim.t, Count: victim.n * a.unit})
	}
	*victim = assocEntry{t: m.T, n: u, used: a.clock, valid: true}
	return a.saturated(victim, out)
}

// saturated dispatches an entry whose counter reached its maximum.
func (a *Assoc) saturated(e *assocEntry, out []Message) []Message {
	if e.n == a.max {
		out = append(out, Message{T: e.t, Count: e.n * a.unit})
		e.valid = false
	}
	return out
}

// Drain dispatches every entry (the end of a run), oldest first.
func (a *Assoc) Drain(out []Message) []Message {
	for {
		var oldest *assocEntry
		for i := range a.ents {
			if e := &a.ents[i]; e.valid && (oldest == nil || e.used < oldest.used) {
				oldest = e
			}
		}
		if oldest == nil {
			return out
		}
		out = append(out, Message{T: oldest.t, Count: oldest.n * a.unit})
		oldest.valid = false
	}
}

// StorageBits: per entry the complete tuple (two 64-bit words and the
// 8-bit selector tag, §3.4's "9 bytes per entry" with 32-bit words), the
// counter, a valid bit and log2(k) bits of LRU age.
func (a *Assoc) StorageBits() uint64 {
	k := uint64(len(a.ents))
	return k * (2*64 + 8 + uint64(a.width) + 1 + uint64(widthOf(k)))
}
