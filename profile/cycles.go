package profile

import (
	"math/bits"
	"strings"

	pprof "github.com/google/pprof/profile"

	"github.com/rvsim/rvsim/isa"
	"github.com/rvsim/rvsim/pipeline"
)

// CycleProfile is where a timing-mode run's simulated cycles go (rvsim
// run --cycle-profile): per instruction address and call stack, the
// cycles charged to the instruction while it was at the head of the ROB,
// by CPI-stack bucket (pipeline.SetCycleSink), its commits, and the L1I,
// L1D and L2 misses and mispredicts the timing model charged to it.
//
// Call stacks come from the committed call/return stream: a call (jal or
// jalr writing a link register, isa.Call) pushes a frame whose return
// address is the call's pc + length; a return (isa.Return) pops to the
// youngest frame whose return address is its target. Matching the target
// rather than popping one frame keeps the stack right across longjmp (a
// return to a frame several levels up pops them all), tail calls (a jump
// that is no call: the callee returns to its caller's caller) and returns
// to a frame the stream never called (a signal handler's return to the
// trampoline; the stack stays). Past maxDepth frames calls are counted,
// not pushed, and as many returns are taken as theirs.
type CycleProfile struct {
	nodes    map[nodeKey]int32 // call-tree nodes: the root is 0
	parent   []int32
	site     []uint64 // the node's call site (the call instruction's pc)
	target   []uint64 // the node's callee (the call's target)
	calls    []uint64 // the calls that entered the node
	stack    []callFrame
	cur      int32  // the current node
	lost     uint64 // calls not pushed (past maxDepth) and not yet returned
	samples  sampleTable
	keys     []cycleKey // in order of first sight (a deterministic order)
	counts   [][numCycleCols]uint64
	last     cycleKey // the last sample and its index: a one-entry cache
	lastIdx  int32
	Unpaired uint64 // returns that matched no frame
}

type nodeKey struct {
	parent       int32
	site, target uint64
}

type cycleKey struct {
	node int32
	pc   uint64
}

type callFrame struct {
	ret  uint64 // the return address
	node int32  // the caller's node (current again after the return)
}

// maxDepth bounds the reconstructed stack (a runaway recursion would
// otherwise grow it, and the call tree, without limit).
const maxDepth = 4096

// The columns after the CPI-stack buckets.
const (
	colInsts = pipeline.NumCPI + iota
	colL1IMiss
	colL1DMiss
	colL2Miss
	colMispredict
	numCycleCols
)

// NewCycleProfile starts an empty cycle profile.
func NewCycleProfile() *CycleProfile {
	return &CycleProfile{nodes: map[nodeKey]int32{}, parent: []int32{-1}, site: []uint64{0}, target: []uint64{0}, calls: []uint64{0},
		lastIdx: -1}
}

// Record takes the next committed instructions (a pipeline cycle sink).
func (p *CycleProfile) Record(batch []pipeline.CycleCommit) {
	for i := range batch {
		r := &batch[i]
		k := cycleKey{p.cur, r.PC}
		idx := p.lastIdx
		if k != p.last || idx < 0 {
			var ok bool
			if idx, ok = p.samples.get(k); !ok {
				idx = int32(len(p.keys))
				p.samples.put(k, idx)
				p.keys = append(p.keys, k)
				p.counts = append(p.counts, [numCycleCols]uint64{})
			}
			p.last, p.lastIdx = k, idx
		}
		c := &p.counts[idx]
		for b, n := range r.Cycles {
			c[b] += n
		}
		c[colInsts]++
		if r.Ev != 0 {
			c[colL1IMiss] += b2u(r.Ev&pipeline.EvL1IMiss != 0)
			c[colL1DMiss] += b2u(r.Ev&pipeline.EvL1DMiss != 0)
			c[colL2Miss] += b2u(r.Ev&pipeline.EvL2Miss != 0)
			c[colMispredict] += b2u(r.Ev&pipeline.EvMispredict != 0)
		}
		switch r.Class {
		case isa.Call:
			p.call(r.PC, r.Next, r.PC+uint64(r.Len))
		case isa.Return:
			p.ret(r.Next)
		}
	}
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// call pushes a frame for a call at site to target returning to ret.
func (p *CycleProfile) call(site, target, ret uint64) {
	if len(p.stack) >= maxDepth {
		p.lost++
		return
	}
	p.stack = append(p.stack, callFrame{ret: ret, node: p.cur})
	k := nodeKey{p.cur, site, target}
	n, ok := p.nodes[k]
	if !ok {
		n = int32(len(p.parent))
		p.nodes[k] = n
		p.parent = append(p.parent, p.cur)
		p.site = append(p.site, site)
		p.target = append(p.target, target)
		p.calls = append(p.calls, 0)
	}
	p.calls[n]++
	p.cur = n
}

// ret pops to the youngest frame returning to target.
func (p *CycleProfile) ret(target uint64) {
	if p.lost > 0 {
		p.lost--
		return
	}
	for i := len(p.stack) - 1; i >= 0; i-- {
		if p.stack[i].ret == target {
			p.cur = p.stack[i].node
			p.stack = p.stack[:i]
			return
		}
	}
	p.Unpaired++
}

// Totals returns the profile's sums: cycles by CPI-stack bucket, and
// instructions.
func (p *CycleProfile) Totals() (cycles [pipeline.NumCPI]uint64, insts uint64) {
	for i := range p.counts {
		for b := range cycles {
			cycles[b] += p.counts[i][b]
		}
		insts += p.counts[i][colInsts]
	}
	return cycles, insts
}

// CycleSampleTypes are the cycle profile's sample types, in column order:
// cycles (the default), cycles_BUCKET per CPI-stack bucket, instructions,
// l1i_misses, l1d_misses, l2_misses, mispredicts.
func CycleSampleTypes() []string {
	out := []string{"cycles"}
	for _, n := range pipeline.CPINames() {
		out = append(out, "cycles_"+n)
	}
	return append(out, "instructions", "l1i_misses", "l1d_misses", "l2_misses", "mispredicts")
}

// AddTo adds the profile's samples to b: one per instruction address and
// call stack, its frames the address (leaf) and the call sites of the
// stack, innermost first.
func (p *CycleProfile) AddTo(b *Pprof) {
	types := CycleSampleTypes()
	for _, t := range types {
		b.col(t)
	}
	b.p.PeriodType = &pprof.ValueType{Type: "cycles", Unit: "count"}
	b.p.Comments = append(b.p.Comments, "rvsim cycle profile: cycles charged to the ROB-head instruction, by CPI-stack bucket (docs/TIMING.md)")
	vals := make([]value, 0, len(types))
	for i, k := range p.keys {
		frames := []*pprof.Location{b.location(k.pc)}
		for n := k.node; n > 0; n = p.parent[n] {
			frames = append(frames, b.location(p.site[n]))
		}
		vals = vals[:0]
		for j, v := range p.costs(i) {
			if v != 0 || j == 0 {
				vals = append(vals, value{types[j], v})
			}
		}
		b.add(frames, vals, nil, nil)
	}
}

// costs returns sample i's values in CycleSampleTypes' order.
func (p *CycleProfile) costs(i int) []uint64 {
	c := &p.counts[i]
	out := make([]uint64, 1+numCycleCols)
	for b := 0; b < pipeline.NumCPI; b++ {
		out[0] += c[b]
	}
	copy(out[1:], c[:])
	return out
}

// Callgrind returns the profile in callgrind's terms: the events Cycles,
// Cy<Bucket> per CPI-stack bucket, Ir (instructions committed), L1iMiss,
// L1dMiss, L2Miss and Mispredict, each instruction address's own costs,
// and per call arc (call site, callee) its calls and the costs inside it
// (a recursive arc's costs counted once per sample).
func (p *CycleProfile) Callgrind() *Callgrind {
	c := &Callgrind{Self: map[uint64][]uint64{}}
	c.Events = append(c.Events, CallgrindEvent{"Cycles", "Simulated cycles, charged to the instruction at the ROB head"})
	for _, n := range pipeline.CPINames() {
		name := "Cy"
		for _, w := range strings.Split(n, "_") {
			name += strings.ToUpper(w[:1]) + w[1:]
		}
		c.Events = append(c.Events, CallgrindEvent{name, "Cycles in the CPI-stack bucket " + n})
	}
	c.Events = append(c.Events, CallgrindEvent{"Ir", "Instructions committed"}, CallgrindEvent{"L1iMiss", "L1 I-cache misses"},
		CallgrindEvent{"L1dMiss", "L1 D-cache misses"}, CallgrindEvent{"L2Miss", "L2 misses"}, CallgrindEvent{"Mispredict", "Branch mispredicts"})
	type arc struct{ site, target uint64 }
	arcs := map[arc]int{}
	arcOf := func(n int32) int {
		a := arc{p.site[n], p.target[n]}
		i, ok := arcs[a]
		if !ok {
			i = len(c.Calls)
			arcs[a] = i
			c.Calls = append(c.Calls, CallgrindCall{Site: a.site, Target: a.target, Costs: make([]uint64, len(c.Events))})
		}
		return i
	}
	for n := int32(1); n < int32(len(p.parent)); n++ {
		c.Calls[arcOf(n)].Calls += p.calls[n]
	}
	seen := map[int]bool{}
	for i, k := range p.keys {
		costs := p.costs(i)
		self := c.Self[k.pc]
		if self == nil {
			self = make([]uint64, len(costs))
			c.Self[k.pc] = self
		}
		add(self, costs)
		clear(seen)
		for n := k.node; n > 0; n = p.parent[n] {
			if a := arcOf(n); !seen[a] {
				seen[a] = true
				add(c.Calls[a].Costs, costs)
			}
		}
	}
	return c
}

func add(dst, src []uint64) {
	for i, v := range src {
		dst[i] += v
	}
}

// sampleTable maps a sample's key to its index: open addressing with
// linear probing and a multiplicative hash, about five times as fast as
// a Go map with a struct key here (a lookup per committed instruction).
// TestSampleTable checks it against a map.
type sampleTable struct {
	slots []sampleSlot
	n     int
	shift uint
}

type sampleSlot struct {
	key cycleKey
	idx int32 // index+1; 0: empty
}

func (t *sampleTable) hash(k cycleKey) uint64 {
	return (k.pc*0x9e3779b97f4a7c15 ^ uint64(k.node)*0xc2b2ae3d27d4eb4f) >> t.shift
}

func (t *sampleTable) get(k cycleKey) (int32, bool) {
	if t.n == 0 {
		return 0, false
	}
	mask := uint64(len(t.slots) - 1)
	for i := t.hash(k); ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.idx == 0 {
			return 0, false
		}
		if s.key == k {
			return s.idx - 1, true
		}
	}
}

// put adds k (not present) with index idx.
func (t *sampleTable) put(k cycleKey, idx int32) {
	if 2*(t.n+1) > len(t.slots) {
		t.grow()
	}
	mask := uint64(len(t.slots) - 1)
	i := t.hash(k)
	for t.slots[i].idx != 0 {
		i = (i + 1) & mask
	}
	t.slots[i] = sampleSlot{k, idx + 1}
	t.n++
}

func (t *sampleTable) grow() {
	old := t.slots
	size := max(2*len(old), 1024)
	t.slots = make([]sampleSlot, size)
	t.shift = uint(64 - bits.TrailingZeros(uint(size)))
	t.n = 0
	for _, s := range old {
		if s.idx != 0 {
			t.put(s.key, s.idx-1)
		}
	}
}
