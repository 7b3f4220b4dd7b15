// Package bpred holds the branch predictors of the timing model: bimodal,
// gshare and tournament (bimodal + gshare with a meta chooser) direction
// predictors of 2-bit saturating counters, a set-associative LRU branch
// target buffer, a return address stack, and a perfect predictor for
// validation.
//
// The timing model is functional-first and never fetches down a wrong
// path, so Predict both predicts and trains: it is given the actual outcome
// and reports whether the fetch-time prediction matched. Global history and
// the RAS are therefore always the correct-path ones (equivalent to
// speculative update with perfect repair), and the counters are trained at
// fetch rather than at commit.
package bpred

import (
	"fmt"
	"math/bits"

	"github.com/rvsim/rvsim/config"
	"github.com/rvsim/rvsim/isa"
)

// Kind is a direction predictor kind.
type Kind uint8

// The direction predictors.
const (
	Perfect Kind = iota
	Bimodal
	Gshare
	Tournament
)

var kindNames = map[string]Kind{"perfect": Perfect, "bimodal": Bimodal, "gshare": Gshare, "tournament": Tournament}

// Group is the class of a control instruction for prediction statistics.
type Group uint8

// The groups.
const (
	Cond     Group = iota // conditional branches
	Jump                  // direct jumps (jal, not a call)
	Indirect              // indirect jumps (jalr, not a call or return)
	Call                  // calls, direct or indirect
	Return                // returns
	NumGroups
)

var groupNames = [NumGroups]string{"conditional", "jump", "indirect", "call", "return"}

func (g Group) String() string {
	if g < NumGroups {
		return groupNames[g]
	}
	return fmt.Sprintf("group(%d)", uint8(g))
}

// GroupOf returns the prediction group of an instruction class and whether
// the class is a control instruction at all.
func GroupOf(c isa.Class) (Group, bool) {
	switch c {
	case isa.Branch:
		return Cond, true
	case isa.Jal:
		return Jump, true
	case isa.Jalr:
		return Indirect, true
	case isa.Call:
		return Call, true
	case isa.Return:
		return Return, true
	}
	return 0, false
}

// Stats counts predictions of one group.
type Stats struct {
	Lookups     uint64
	Mispredicts uint64 // the predicted next PC was wrong (direction, target or BTB miss)
	DirWrong    uint64 // conditional branches: the direction was wrong
	BTBMisses   uint64 // taken, predicted taken (or unconditional), but no BTB entry
	RASWrong    uint64 // returns: the RAS was empty or held another address
}

// Accuracy returns 1 - Mispredicts/Lookups (1 with no lookups).
func (s *Stats) Accuracy() float64 {
	if s.Lookups == 0 {
		return 1
	}
	return 1 - float64(s.Mispredicts)/float64(s.Lookups)
}

// Predictor is a direction predictor with its BTB and RAS.
type Predictor struct {
	kind     Kind
	bim      []uint8 // 2-bit counters
	gsh      []uint8
	meta     []uint8 // >= 2 chooses gshare
	hist     uint64
	histMask uint64
	btb      BTB
	ras      RAS
	stats    [NumGroups]Stats
}

// New builds a predictor from its configuration.
func New(cfg config.BPred) (*Predictor, error) {
	k, ok := kindNames[cfg.Kind]
	if !ok {
		return nil, fmt.Errorf("bpred: unknown predictor kind %q", cfg.Kind)
	}
	p := &Predictor{kind: k}
	table := func(name string, n int, init uint8) ([]uint8, error) {
		if n <= 0 || bits.OnesCount(uint(n)) != 1 {
			return nil, fmt.Errorf("bpred: %s %d is not a power of two", name, n)
		}
		t := make([]uint8, n)
		for i := range t {
			t[i] = init
		}
		return t, nil
	}
	var err error
	if k == Bimodal || k == Tournament {
		if p.bim, err = table("bimodal_entries", cfg.BimodalEntries, 1); err != nil {
			return nil, err
		}
	}
	if k == Gshare || k == Tournament {
		if p.gsh, err = table("gshare_entries", cfg.GshareEntries, 1); err != nil {
			return nil, err
		}
		if cfg.HistoryBits < 1 || cfg.HistoryBits > 63 {
			return nil, fmt.Errorf("bpred: history_bits %d out of range", cfg.HistoryBits)
		}
		p.histMask = 1<<cfg.HistoryBits - 1
	}
	if k == Tournament {
		if p.meta, err = table("meta_entries", cfg.MetaEntries, 1); err != nil {
			return nil, err
		}
	}
	if k != Perfect {
		if err := p.btb.init(cfg.BTBEntries, cfg.BTBAssoc); err != nil {
			return nil, err
		}
		p.ras.init(cfg.RASDepth)
	}
	return p, nil
}

// Kind returns the direction predictor kind.
func (p *Predictor) Kind() Kind { return p.kind }

// Stats returns the counters of group g.
func (p *Predictor) Stats(g Group) Stats { return p.stats[g] }

// BTB returns the branch target buffer (for statistics).
func (p *Predictor) BTB() *BTB { return &p.btb }

// Predict predicts the control instruction at pc of group g at fetch,
// trains the predictor with the actual outcome (taken, and the actual next
// pc next), and reports whether the prediction was right. seq is pc plus
// the instruction's length (the fall-through, and a call's return address).
func (p *Predictor) Predict(pc uint64, g Group, taken bool, next, seq uint64) bool {
	s := &p.stats[g]
	s.Lookups++
	if p.kind == Perfect {
		return true
	}
	pred := seq
	switch g {
	case Cond:
		dir := p.direction(pc, taken)
		if dir != taken {
			s.DirWrong++
		}
		switch {
		case dir && taken:
			if t, hit := p.btb.LookupUpdate(pc, next); hit {
				pred = t
			} else {
				s.BTBMisses++
			}
		case dir:
			if t, hit := p.btb.Lookup(pc); hit {
				pred = t
			}
		case taken:
			p.btb.Update(pc, next)
		}
	case Return:
		if p.ras.depth() > 0 {
			t, ok := p.ras.Pop()
			if ok {
				pred = t
			}
			if !ok || t != next {
				s.RASWrong++
			}
			break
		}
		fallthrough
	default: // jumps and calls: the BTB gives the target
		if t, hit := p.btb.LookupUpdate(pc, next); hit {
			pred = t
		} else {
			s.BTBMisses++
		}
	}
	if g == Call {
		p.ras.Push(seq)
	}
	if pred != next {
		s.Mispredicts++
		return false
	}
	return true
}

// PushReturn pushes a return address without a lookup: for calls the front
// end does not predict (DISE-injected calls).
func (p *Predictor) PushReturn(addr uint64) {
	if p.kind != Perfect {
		p.ras.Push(addr)
	}
}

// PopReturn pops the return address stack without a lookup or statistics:
// for returns the front end checks itself (DISE's dise.ret, which returns
// to the entry its handler call pushed). A perfect predictor keeps no
// stack: false.
func (p *Predictor) PopReturn() (uint64, bool) {
	if p.kind == Perfect {
		return 0, false
	}
	return p.ras.Pop()
}

// direction predicts a conditional branch and trains the tables with the
// actual direction.
func (p *Predictor) direction(pc uint64, taken bool) bool {
	var pred bool
	switch p.kind {
	case Bimodal:
		i := p.bimIndex(pc)
		pred = p.bim[i] >= 2
		train(&p.bim[i], taken)
	case Gshare:
		i := p.gshIndex(pc)
		pred = p.gsh[i] >= 2
		train(&p.gsh[i], taken)
	case Tournament:
		bi, gi, mi := p.bimIndex(pc), p.gshIndex(pc), (pc>>1)&uint64(len(p.meta)-1)
		bp, gp := p.bim[bi] >= 2, p.gsh[gi] >= 2
		pred = bp
		if p.meta[mi] >= 2 {
			pred = gp
		}
		if bp != gp {
			train(&p.meta[mi], gp == taken)
		}
		train(&p.bim[bi], taken)
		train(&p.gsh[gi], taken)
	}
	if p.histMask != 0 {
		p.hist = (p.hist<<1 | b2u(taken)) & p.histMask
	}
	return pred
}

// Instructions are 2-byte aligned (C extension): the low PC bit is dropped.
func (p *Predictor) bimIndex(pc uint64) uint64 { return (pc >> 1) & uint64(len(p.bim)-1) }
func (p *Predictor) gshIndex(pc uint64) uint64 {
	return ((pc >> 1) ^ p.hist) & uint64(len(p.gsh)-1)
}

func train(c *uint8, up bool) {
	if up {
		if *c < 3 {
			*c++
		}
	} else if *c > 0 {
		*c--
	}
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// BTB is a set-associative branch target buffer with LRU replacement.
type BTB struct {
	tag    []uint64 // pc + 1, 0: invalid
	target []uint64
	stamp  []uint64
	assoc  int
	mask   uint64
	clock  uint64
	// Statistics.
	Lookups, Hits, Evictions uint64
}

func (b *BTB) init(entries, assoc int) error {
	if entries <= 0 || assoc <= 0 || entries%assoc != 0 || bits.OnesCount(uint(entries/assoc)) != 1 {
		return fmt.Errorf("bpred: BTB of %d entries, %d ways: want a power-of-two number of sets", entries, assoc)
	}
	b.tag = make([]uint64, entries)
	b.target = make([]uint64, entries)
	b.stamp = make([]uint64, entries)
	b.assoc, b.mask = assoc, uint64(entries/assoc-1)
	return nil
}

// Lookup returns the target stored for pc.
func (b *BTB) Lookup(pc uint64) (uint64, bool) {
	b.Lookups++
	base := int((pc>>1)&b.mask) * b.assoc
	for w := base; w < base+b.assoc; w++ {
		if b.tag[w] == pc+1 {
			b.clock++
			b.stamp[w] = b.clock
			b.Hits++
			return b.target[w], true
		}
	}
	return 0, false
}

// LookupUpdate is Lookup(pc) then Update(pc, target) with one scan of the
// set (the front end updates every taken branch it looked up): it returns
// what Lookup would, and leaves the BTB as the two calls would.
func (b *BTB) LookupUpdate(pc, target uint64) (uint64, bool) {
	b.Lookups++
	base := int((pc>>1)&b.mask) * b.assoc
	for w := base; w < base+b.assoc; w++ {
		if b.tag[w] == pc+1 {
			b.clock += 2 // Lookup's tick and Update's
			b.stamp[w] = b.clock
			b.Hits++
			old := b.target[w]
			b.target[w] = target
			return old, true
		}
	}
	b.Update(pc, target)
	return 0, false
}

// Update records target for pc, replacing the set's LRU entry if pc is new.
func (b *BTB) Update(pc, target uint64) {
	base := int((pc>>1)&b.mask) * b.assoc
	b.clock++
	v := base
	for w := base; w < base+b.assoc; w++ {
		if b.tag[w] == pc+1 {
			b.target[w], b.stamp[w] = target, b.clock
			return
		}
		if b.tag[v] != 0 && (b.tag[w] == 0 || b.stamp[w] < b.stamp[v]) {
			v = w
		}
	}
	if b.tag[v] != 0 {
		b.Evictions++
	}
	b.tag[v], b.target[v], b.stamp[v] = pc+1, target, b.clock
}

// RAS is a circular return address stack: pushing onto a full stack
// overwrites the oldest entry.
type RAS struct {
	a     []uint64
	top   int // index of the top entry
	count int
}

func (r *RAS) init(depth int) { r.a = make([]uint64, depth) }

func (r *RAS) depth() int { return len(r.a) }

// Push pushes a return address.
func (r *RAS) Push(v uint64) {
	if len(r.a) == 0 {
		return
	}
	r.top = (r.top + 1) % len(r.a)
	r.a[r.top] = v
	if r.count < len(r.a) {
		r.count++
	}
}

// Pop pops the top return address; false if the stack is empty.
func (r *RAS) Pop() (uint64, bool) {
	if r.count == 0 {
		return 0, false
	}
	v := r.a[r.top]
	r.top = (r.top - 1 + len(r.a)) % len(r.a)
	r.count--
	return v, true
}

// Len returns the number of entries held.
func (r *RAS) Len() int { return r.count }

// CopyState makes p's tables, history, BTB and RAS those of o, a
// predictor of the same configuration, without its statistics (sampled
// simulation: pipeline.Core.InheritState).
func (p *Predictor) CopyState(o *Predictor) {
	copy(p.bim, o.bim)
	copy(p.gsh, o.gsh)
	copy(p.meta, o.meta)
	p.hist = o.hist
	b, ob := &p.btb, &o.btb
	copy(b.tag, ob.tag)
	copy(b.target, ob.target)
	copy(b.stamp, ob.stamp)
	b.clock = ob.clock
	copy(p.ras.a, o.ras.a)
	p.ras.top, p.ras.count = o.ras.top, o.ras.count
}
