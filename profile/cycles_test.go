package profile

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
	"testing"

	pprof "github.com/google/pprof/profile"
	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/isa"
	"github.com/rvsim/rvsim/pipeline"
)

// rec is a committed instruction for the cycle profile's tests: pc, its
// successor, class, and dcache-miss cycles (plus one commit cycle).
func rec(pc, next uint64, class isa.Class, dmiss uint64, ev pipeline.Events) pipeline.CycleCommit {
	r := pipeline.CycleCommit{PC: pc, Next: next, Len: 4, Class: class, Ev: ev}
	r.Cycles[0] = 1 // commit
	r.Cycles[2] = dmiss
	return r
}

// stacks reads a written cycle profile back: per sample, its frames
// (function@address, leaf first) and its cycles, instructions and L1D
// misses, sorted.
func stacks(t *testing.T, cp *CycleProfile) []string {
	t.Helper()
	b := NewPprof("prog", 0x1000, 0x4000, fakeResolver)
	cp.AddTo(b)
	var buf bytes.Buffer
	require.NoError(t, b.Write(&buf))
	p, err := pprof.Parse(&buf)
	require.NoError(t, err)
	require.Equal(t, "cycles", p.DefaultSampleType)
	col := map[string]int{}
	for i, st := range p.SampleType {
		col[st.Type] = i
	}
	require.Equal(t, CycleSampleTypes(), func() (out []string) {
		for _, st := range p.SampleType {
			out = append(out, st.Type)
		}
		return out
	}())
	var out []string
	for _, s := range p.Sample {
		var fr []string
		for _, l := range s.Location {
			fr = append(fr, fmt.Sprintf("%s@%#x", l.Line[0].Function.Name, l.Address))
		}
		out = append(out, fmt.Sprintf("%s cycles=%d dcache=%d insts=%d l1d=%d", strings.Join(fr, " "),
			s.Value[col["cycles"]], s.Value[col["cycles_dcache_miss"]], s.Value[col["instructions"]], s.Value[col["l1d_misses"]]))
	}
	sort.Strings(out)
	return out
}

// Call stacks from the call/return stream: a call and its return; a
// longjmp (a return to a frame two calls up pops both); a return that
// matches no frame (stack unchanged, counted); the same pc under two
// stacks is two samples, and a pc seen twice under one stack one.
func TestCycleProfileStacks(t *testing.T) {
	cp := NewCycleProfile()
	cp.Record([]pipeline.CycleCommit{
		rec(0x1000, 0x1004, isa.IntALU, 0, 0),
		rec(0x1004, 0x2000, isa.Call, 0, 0), // main calls f
		rec(0x2000, 0x2004, isa.Load, 7, pipeline.EvL1DAccess|pipeline.EvL1DMiss),
		rec(0x2004, 0x1008, isa.Return, 0, 0), // f returns
		rec(0x1008, 0x2100, isa.Call, 0, 0),   // main calls g (returning to 0x100c)
		rec(0x2100, 0x2200, isa.Call, 0, 0),   // g calls h (returning to 0x2104)
	})
	cp.Record([]pipeline.CycleCommit{
		rec(0x2200, 0x2204, isa.Load, 3, 0),
		rec(0x2204, 0x9990, isa.Return, 0, 0), // matches no frame: unpaired
		rec(0x2200, 0x2204, isa.Load, 3, 0),   // same stack, same pc: one sample
		rec(0x2208, 0x100c, isa.Return, 0, 0), // longjmp-like: back to main, two frames up
		rec(0x100c, 0x1010, isa.IntALU, 0, 0),
	})
	require.Equal(t, uint64(1), cp.Unpaired)
	require.Empty(t, cp.stack)
	require.Equal(t, []string{
		"f@0x1000 cycles=1 dcache=0 insts=1 l1d=0",
		"f@0x1004 cycles=1 dcache=0 insts=1 l1d=0",
		"f@0x1008 cycles=1 dcache=0 insts=1 l1d=0",
		"f@0x100c cycles=1 dcache=0 insts=1 l1d=0",
		"g@0x2000 f@0x1004 cycles=8 dcache=7 insts=1 l1d=1",
		"g@0x2004 f@0x1004 cycles=1 dcache=0 insts=1 l1d=0",
		"g@0x2100 f@0x1008 cycles=1 dcache=0 insts=1 l1d=0",
		"g@0x2200 g@0x2100 f@0x1008 cycles=8 dcache=6 insts=2 l1d=0",
		"g@0x2204 g@0x2100 f@0x1008 cycles=1 dcache=0 insts=1 l1d=0",
		"g@0x2208 g@0x2100 f@0x1008 cycles=1 dcache=0 insts=1 l1d=0",
	}, stacks(t, cp))
	cycles, insts := cp.Totals()
	require.Equal(t, uint64(11), insts)
	require.Equal(t, uint64(11), cycles[0])
	require.Equal(t, uint64(13), cycles[2])
}

// A recursion deeper than maxDepth keeps its depth bounded and still
// unwinds to the root.
func TestCycleProfileDeepRecursion(t *testing.T) {
	cp := NewCycleProfile()
	const depth = maxDepth + 100
	var recs []pipeline.CycleCommit
	for i := 0; i < depth; i++ {
		recs = append(recs, rec(0x2000, 0x2000, isa.Call, 0, 0))
	}
	for i := 0; i < depth; i++ {
		recs = append(recs, rec(0x2100, 0x2004, isa.Return, 0, 0))
	}
	recs = append(recs, rec(0x1000, 0x1004, isa.IntALU, 0, 0))
	cp.Record(recs)
	require.Empty(t, cp.stack)
	require.Zero(t, cp.lost)
	require.Zero(t, cp.Unpaired)
	require.LessOrEqual(t, len(cp.parent), maxDepth+1)
	require.Equal(t, int32(0), cp.keys[len(cp.keys)-1].node, "the last instruction is at the root")
}

// The sample table finds what a Go map finds, through growth, with keys
// that differ only in the node or only in the pc.
func TestSampleTable(t *testing.T) {
	var tab sampleTable
	want := map[cycleKey]int32{}
	for i := 0; i < 20000; i++ {
		k := cycleKey{node: int32(i % 7), pc: 0x10000 + uint64(i/7)*2}
		if _, ok := want[k]; ok {
			continue
		}
		_, ok := tab.get(k)
		require.False(t, ok, "%v before it was put", k)
		want[k] = int32(len(want))
		tab.put(k, want[k])
	}
	for k, v := range want {
		got, ok := tab.get(k)
		require.True(t, ok, "%v", k)
		require.Equal(t, v, got, "%v", k)
	}
	_, ok := tab.get(cycleKey{node: 99, pc: 0x10000})
	require.False(t, ok)
}

// In callgrind's terms: each address's own costs, and per call arc its
// calls and the costs inside it (a recursive arc's once per sample).
func TestCycleProfileCallgrind(t *testing.T) {
	cp := NewCycleProfile()
	cp.Record([]pipeline.CycleCommit{
		rec(0x1000, 0x2000, isa.Call, 0, 0), // main calls f
		rec(0x2000, 0x2000, isa.Call, 4, 0), // f calls itself
		rec(0x2000, 0x2004, isa.Load, 2, 0), // (the recursive f: no call now)
		rec(0x2004, 0x2004, isa.Return, 0, 0),
		rec(0x2004, 0x1004, isa.Return, 0, 0),
		rec(0x1000, 0x2000, isa.Call, 0, 0), // main calls f again
		rec(0x2000, 0x2004, isa.Load, 0, 0),
		rec(0x2004, 0x1004, isa.Return, 0, 0),
	})
	require.Empty(t, cp.stack)
	cg := cp.Callgrind()
	require.Equal(t, "Cycles", cg.Events[0].Name)
	require.Equal(t, "CyDcacheMiss", cg.Events[3].Name)
	ir := len(cg.Events) - 5
	require.Equal(t, "Ir", cg.Events[ir].Name)
	require.Equal(t, []uint64{2, 0}, []uint64{cg.Self[0x1000][ir], cg.Self[0x1000][3]})
	require.Equal(t, []uint64{3, 6}, []uint64{cg.Self[0x2000][ir], cg.Self[0x2000][3]})
	require.Equal(t, []uint64{3, 0}, []uint64{cg.Self[0x2004][ir], cg.Self[0x2004][3]})
	calls := map[[2]uint64][2]uint64{} // arc -> calls, Ir inside
	for _, c := range cg.Calls {
		calls[[2]uint64{c.Site, c.Target}] = [2]uint64{c.Calls, c.Costs[ir]}
	}
	require.Equal(t, map[[2]uint64][2]uint64{
		{0x1000, 0x2000}: {2, 6}, // everything after the two calls
		{0x2000, 0x2000}: {1, 2}, // the recursive f's load and return
	}, calls)
	var b bytes.Buffer
	require.NoError(t, cg.Write(&b, "/bin/prog", fakeResolver))
	require.Contains(t, b.String(), "fn=f\n0x1000 0 2 2 0 0 0 0 0 0 2 0 0 0 0\ncfl=/src/src.c\ncfn=g\ncalls=2 0x2000 0\n0x1000 0 12 6 0 6 0 0 0 0 6 0 0 0 0\n")
}

// BenchmarkCycleProfile: the cycle profile's cost per committed
// instruction (one op), on a stream of loops in calls three deep.
func BenchmarkCycleProfile(b *testing.B) {
	var recs []pipeline.CycleCommit
	for f := uint64(0); f < 3; f++ {
		recs = append(recs, rec(0x1000+8*f, 0x2000+0x100*f, isa.Call, 0, 0))
	}
	for i := uint64(0); i < 200; i++ {
		recs = append(recs, rec(0x2200+4*(i%16), 0x2204+4*(i%16), isa.IntALU, i%3, 0))
	}
	for f := uint64(0); f < 3; f++ {
		recs = append(recs, rec(0x2300, 0x1004+8*(2-f), isa.Return, 0, 0))
	}
	cp := NewCycleProfile()
	b.ResetTimer()
	for i := 0; i < b.N; i += len(recs) {
		cp.Record(recs[:min(len(recs), b.N-i)])
	}
}
