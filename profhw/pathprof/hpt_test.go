package pathprof

import (
	"strings"
	"testing"

	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/isa"
	"github.com/rvsim/rvsim/pipeline"
	"github.com/rvsim/rvsim/profhw"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func d(start uint64) Desc { return Desc{Start: start, Len: 1, Dirs: 1} }

// TestHPTLFU: a scripted stream into one set of two ways (§5: LFU, the
// accumulators are the frequencies).
func TestHPTLFU(t *testing.T) {
	h, err := NewHPT(2, 2, IndexPLB)
	require.NoError(t, err)
	steps := []struct {
		desc  string
		path  Desc
		count uint64
		hit   bool
		want  map[Desc]uint64
	}{
		{"A fills an invalid way", d(0xa), 5, false, map[Desc]uint64{d(0xa): 5}},
		{"B fills the other", d(0xb), 1, false, map[Desc]uint64{d(0xa): 5, d(0xb): 1}},
		{"C replaces B, the least frequently used", d(0xc), 1, false, map[Desc]uint64{d(0xa): 5, d(0xc): 1}},
		{"C hits and accumulates", d(0xc), 3, true, map[Desc]uint64{d(0xa): 5, d(0xc): 4}},
		{"B again replaces C (4 < 5)", d(0xb), 2, false, map[Desc]uint64{d(0xa): 5, d(0xb): 2}},
		{"the same start with another direction is another path", Desc{Start: 0xa, Len: 1}, 7, false, map[Desc]uint64{d(0xa): 5, {Start: 0xa, Len: 1}: 7}},
	}
	for _, s := range steps {
		assert.Equal(t, s.hit, h.Update(s.path, s.count), s.desc)
		assert.Equal(t, s.want, h.Weights(), s.desc)
	}
	assert.Equal(t, uint64(1), h.Hits)
	assert.Equal(t, uint64(5), h.Misses)
	assert.Equal(t, uint64(3), h.Replacements)
	h.Update(d(0xa), 1<<40)
	assert.Equal(t, uint64(1<<32-1), h.Weights()[d(0xa)], "the accumulator saturates at 32 bits")
	assert.Equal(t, uint64(1), h.MissCycles(), "log2(2 ways)")
}

// TestHPTIndex: pb folds the direction bits into the set, plb the length
// too; addr only the address.
func TestHPTIndex(t *testing.T) {
	a := Desc{Start: 0x1000, Len: 1, Dirs: 1}
	b := Desc{Start: 0x1000, Len: 2, Dirs: 1}
	c := Desc{Start: 0x1000, Len: 2, Dirs: 3}
	addr, _ := NewHPT(64, 1, IndexAddr)
	pb, _ := NewHPT(64, 1, IndexPB)
	plb, _ := NewHPT(64, 1, IndexPLB)
	assert.Equal(t, addr.Set(a), addr.Set(c), "addr: one set per start")
	assert.Equal(t, pb.Set(a), pb.Set(b), "pb: the length is not in the index")
	assert.NotEqual(t, pb.Set(b), pb.Set(c), "pb: directions are")
	assert.NotEqual(t, plb.Set(a), plb.Set(b), "plb: the length is")
	assert.Equal(t, (0x803^0x803>>6)&63, plb.Set(b), "plb: 64 sets (6 bits): v = (start>>1) ^ dirs ^ len<<0 = 0x803, folded by XOR of its 6-bit chunks")
	big, _ := NewHPT(1024, 1, IndexPLB)
	assert.Equal(t, (0x821^0x821>>10)&1023, big.Set(b), "1024 sets: v = 0x800 ^ 1 ^ 2<<4 (the length in the top 6 of the 10 index bits), folded")
	_, err := NewHPT(24, 4, IndexPLB)
	assert.ErrorContains(t, err, "powers of two")
}

// TestOverlapWorkedExample is the worked example of docs/PROFHW.md: the
// exact profile A 50, B 30, C 20; the HPT kept A 45 and C 15 and lost B.
// Normalised: exact A .5 B .3 C .2; HPT A .75 C .25. Overlap =
// min(.5,.75) + min(.2,.25) = .7, i.e. 70%.
func TestOverlapWorkedExample(t *testing.T) {
	ex := map[Desc]uint64{d(0xa): 50, d(0xb): 30, d(0xc): 20}
	hw := map[Desc]uint64{d(0xa): 45, d(0xc): 15}
	assert.InDelta(t, 70, Overlap(hw, ex), 1e-9)
	assert.InDelta(t, 70, Overlap(ex, hw), 1e-9, "symmetric")
	assert.InDelta(t, 100, Overlap(ex, ex), 1e-9)
	assert.Equal(t, 0.0, Overlap(map[Desc]uint64{}, ex))
	assert.Equal(t, 0.0, Overlap(map[Desc]uint64{d(1): 3}, ex), "disjoint")
}

// commitUnit builds a timing-mode BL unit with a queue of q entries.
func commitUnit(t *testing.T, q int) *Unit {
	cfg := DefaultConfig()
	cfg.Queue = q
	cfg.Window = 0
	u, err := New("q", cfg, profhw.Env{Mode: profhw.Timing, Entry: 0x100})
	require.NoError(t, err)
	return u
}

// back is a committed backward branch (BL: update + pop (1 + HPT) + push
// = 1 + 1 + 2 + 1 = 5 cycles at 4 ways, §8.2's five cycles).
func back() *cpu.DynInst {
	return &cpu.DynInst{PC: 0x110, NextPC: 0x100, Taken: true, Inst: isa.Inst{Class: isa.Branch, Len: 4}}
}

// TestBranchQueue drives Commit with scripted cycles: a retiring branch
// that finds the queue full stalls commit until the oldest queued branch
// goes to the profiler (§8.2).
func TestBranchQueue(t *testing.T) {
	add := &cpu.DynInst{PC: 0x10c, NextPC: 0x110, Inst: isa.Inst{Class: isa.IntALU, Len: 4}}
	for _, tc := range []struct {
		desc   string
		q      int
		cycles []uint64 // commit cycles of the branches (as the pipeline presents them after earlier stalls)
		stalls []uint64
	}{
		{"no queue: each branch waits for the profiler to finish the previous one", 0,
			[]uint64{10, 10, 15, 16}, []uint64{0, 5, 5, 9}},
		{"two entries: the third branch in a cycle still fits (the first is being processed), the fourth waits", 2,
			[]uint64{10, 10, 10, 10, 15}, []uint64{0, 0, 0, 5, 5}},
		{"four entries absorb a burst of five", 4,
			[]uint64{10, 10, 10, 10, 10, 10}, []uint64{0, 0, 0, 0, 0, 5}},
		{"spaced branches never stall", 2,
			[]uint64{10, 15, 20, 25, 30}, []uint64{0, 0, 0, 0, 0}},
	} {
		u := commitUnit(t, tc.q)
		var got []uint64
		for _, c := range tc.cycles {
			assert.Equal(t, uint64(0), u.Commit(&pipeline.Commit{D: add, Cycle: c}), "non-branches never stall")
			got = append(got, u.Commit(&pipeline.Commit{D: back(), Cycle: c}))
		}
		assert.Equal(t, tc.stalls, got, tc.desc)
		var sum uint64
		for _, s := range got {
			sum += s
		}
		assert.Equal(t, sum, u.Summary().StallReq, tc.desc)
	}
}

// TestMetrics: the block event counter (§4) for each metric on a
// scripted commit stream, including Fig. 6's apportioning.
func TestMetrics(t *testing.T) {
	ld := func(seq uint64) *cpu.DynInst {
		return &cpu.DynInst{Seq: seq, PC: 0x100 + 4*seq, NextPC: 0x104 + 4*seq, Inst: isa.Inst{Class: isa.Load, Len: 4}}
	}
	br := back()
	br.Seq = 4
	stream := []pipeline.Commit{
		{D: ld(0), Cycle: 3, Ev: pipeline.EvL1IAccess | pipeline.EvL1DAccess | pipeline.EvL1DMiss | pipeline.EvL2Access | pipeline.EvL2Miss},
		{D: ld(1), Cycle: 7, Ev: pipeline.EvL1DAccess},
		{D: ld(2), Cycle: 7, Ev: pipeline.EvL1DAccess},
		{D: ld(3), Cycle: 7, Ev: pipeline.EvL1DAccess | pipeline.EvL1DMiss | pipeline.EvL2Access},
		{D: br, Cycle: 9, Ev: pipeline.EvMispredict},
	}
	costs := PaperPower.Costs()
	for _, tc := range []struct {
		m    Metric
		want uint64
	}{
		{Frequency, 1},
		{Instructions, 5},
		{Cycles, 9}, // commit-to-commit gaps from cycle 0
		{L1DMisses, 2},
		{L2Misses, 1},
		{Mispredicts, 1},
		// cycle 3: I hit + D miss + L2 miss; cycle 7: three accesses share two ports: hit, +0, (miss)/2 + L2 hit
		{Power, costs.L1IHit + costs.L1DMiss + costs.L2Miss + costs.L1DHit + 0 + costs.L1DMiss/2 + costs.L2Hit},
	} {
		cfg := DefaultConfig()
		cfg.Metric, cfg.Window = tc.m, 0
		u, err := New("m", cfg, profhw.Env{Mode: profhw.Timing, Entry: 0x100})
		require.NoError(t, err)
		for i := range stream {
			u.Commit(&stream[i])
		}
		assert.Equal(t, map[Desc]uint64{{Start: 0x100, Len: 1, Dirs: 1}: tc.want}, u.HPT().Weights(), tc.m.String())
		assert.Equal(t, tc.want, u.Exact().Total, tc.m.String())
	}
}

// TestPowerCosts pins the relative costs the Fig. 16 model gives Table 4's
// caches (in half I-cache accesses): an L1 hit is the unit, a miss adds
// the pads, the larger L2 costs more per access, its miss adds memory.
func TestPowerCosts(t *testing.T) {
	c := PaperPower.Costs()
	assert.Equal(t, Costs{L1IHit: 2, L1IMiss: 5, L1DHit: 2, L1DMiss: 5, L2Hit: 30, L2Miss: 35}, c, "docs/PROFHW.md quotes these")
	assert.Equal(t, uint64(2), c.L1IHit)
	assert.Equal(t, c.L1IHit, c.L1DHit, "same geometry")
	assert.Greater(t, c.L1DMiss, c.L1DHit)
	assert.Greater(t, c.L2Hit, c.L1DMiss)
	assert.Greater(t, c.L2Miss, c.L2Hit)
}

// TestConfigErrors: each bad value is one line naming the key.
func TestConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		desc string
		mode profhw.Mode
		vals map[string]any
		want string
	}{
		{"timed metric in functional mode", profhw.Functional, map[string]any{"metric": "l2-misses"}, `metric: "l2-misses" needs timing mode`},
		{"unknown metric", profhw.Timing, map[string]any{"metric": "heat"}, `metric: "heat" is not one of frequency`},
		{"queue size", profhw.Timing, map[string]any{"queue.entries": int64(3)}, "queue.entries: 3 is not one of 0, 2, 4, 8"},
		{"ways", profhw.Timing, map[string]any{"hpt.ways": int64(3)}, "hpt.ways: 3 is not a power of two"},
		{"entries", profhw.Timing, map[string]any{"hpt.entries": int64(3)}, "hpt.entries: 3 is not a power of two"},
		{"ways above entries", profhw.Timing, map[string]any{"hpt.entries": int64(4), "hpt.ways": int64(8)}, "hpt.ways: 8 ways exceed hpt.entries = 4"},
		{"ways scanned linearly", profhw.Timing, map[string]any{"hpt.entries": int64(1 << 20), "hpt.ways": int64(1 << 20)}, "hpt.ways: 1048576 is out of range"},
		{"entries bound", profhw.Timing, map[string]any{"hpt.entries": int64(1 << 21)}, "hpt.entries: 2097152 is out of range"},
		{"phase signatures", profhw.Timing, map[string]any{"phase.interval": int64(1000), "phase.accumulators": int64(1 << 16)}, "phase.interval: 1000 instructions for 65536 accumulators: at least 64 per accumulator (4194304)"},
		{"window", profhw.Timing, map[string]any{"accuracy.window": int64(10)}, "accuracy.window: 10 instructions: 0 (off) or at least 1000"},
		{"illegal custom PPCR", profhw.Timing, map[string]any{"paths": "custom", "ppcr.call": []any{"update", "update-count"},
			"ppcr.return": []any{"pop"}, "ppcr.forward": []any{"update"}, "ppcr.backward": []any{"pop"}, "ppcr.indirect": []any{"pop"}}, "ppcr.call: update and update-count are exclusive"},
		{"custom PPCR missing a type", profhw.Timing, map[string]any{"paths": "custom", "ppcr.call": []any{"push"}}, "custom paths need ppcr.return"},
		{"unknown operation", profhw.Timing, map[string]any{"paths": "custom", "ppcr.call": []any{"jump"},
			"ppcr.return": []any{"pop"}, "ppcr.forward": []any{"update"}, "ppcr.backward": []any{"pop"}, "ppcr.indirect": []any{"pop"}}, `ppcr.call: "jump" is not an operation`},
		{"PPCR keys without custom", profhw.Timing, map[string]any{"ppcr.call": []any{"push"}}, `only with paths = "custom"`},
		{"max_extension without extend", profhw.Timing, map[string]any{"max_extension": int64(2)}, "max_extension: needs extend"},
		{"unknown key", profhw.Timing, map[string]any{"hpt.size": int64(2)}, "hpt.size: unknown key"},
	} {
		_, err := ReadConfig(profhw.NewUnitConfig("u", "path", tc.vals), tc.mode)
		if assert.Error(t, err, tc.desc) {
			assert.Contains(t, err.Error(), tc.want, tc.desc)
			assert.NotContains(t, err.Error(), "\n", tc.desc)
		}
	}
	cfg, err := ReadConfig(profhw.NewUnitConfig("u", "path", map[string]any{"paths": "custom",
		"ppcr.call": []any{"update-count", "push"}, "ppcr.return": []any{"update-count", "pop"}, "ppcr.forward": []any{"update"},
		"ppcr.backward": []any{"update", "pop", "push"}, "ppcr.indirect": []any{"update", "pop", "push"}}), profhw.Functional)
	require.NoError(t, err)
	assert.Equal(t, BL.Ops, cfg.PPCR.Ops, "a custom mapping can spell Table 1")
}

// TestPresets: every path preset builds (the timed metrics in timing
// mode only) and its keys are all known.
func TestPresets(t *testing.T) {
	for _, name := range []string{"path-bl", "path-wpp", "path-ext-loop1", "path-ext-proc1", "path-l2miss", "path-mispredict", "path-power", "path-phase"} {
		cfgs, err := profhw.LoadPreset(name)
		require.NoError(t, err, name)
		_, err = profhw.Build(cfgs, profhw.Env{Mode: profhw.Timing})
		assert.NoError(t, err, name)
		timed := name == "path-l2miss" || name == "path-mispredict" || name == "path-power"
		cfgs, _ = profhw.LoadPreset(name)
		_, err = profhw.Build(cfgs, profhw.Env{Mode: profhw.Functional})
		assert.Equal(t, timed, err != nil, "%s in functional mode: %v", name, err)
	}
}

// FuzzReadProfile: any bytes give a profile or an error, never a panic,
// and a profile's listing prints.
func FuzzReadProfile(f *testing.F) {
	f.Add([]byte(`{"unit":"u","profile":"hpt","entries":[{"start":"main","length":1,"directions":"T","count":1,"blocks":[{"start":"main","insts":["0x0 ret"]}]}]}`))
	f.Add([]byte(`{"profile":"exact"}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ReadProfile(data)
		if err != nil {
			return
		}
		var b strings.Builder
		WriteListing(&b, p, 5)
	})
}

// TestConfigFileLines: errors in a TOML file name the line of the key.
func TestConfigFileLines(t *testing.T) {
	for _, tc := range []struct {
		desc, text, want string
	}{
		{"illegal custom mapping", "[[unit]]\nname = \"c\"\nkind = \"path\"\npaths = \"custom\"\n[unit.ppcr]\ncall = [\"update\", \"update-count\"]\nreturn = [\"pop\"]\nforward = [\"update\"]\nbackward = [\"pop\"]\nindirect = [\"pop\"]\n",
			"f.toml:6: unit c: ppcr.call: update and update-count are exclusive"},
		{"queue size", "[[unit]]\nname = \"q\"\nkind = \"path\"\n[unit.queue]\nentries = 6\n", "f.toml:5: unit q: queue.entries: 6 is not one of 0, 2, 4, 8"},
		{"index", "[[unit]]\nname = \"i\"\nkind = \"path\"\n[unit.hpt]\nindex = \"xor\"\n", `f.toml:5: unit i: hpt.index: "xor" is not one of addr, pb, plb`},
	} {
		cfgs, err := profhw.Parse("f.toml", []byte(tc.text))
		require.NoError(t, err, tc.desc)
		_, err = profhw.Build(cfgs, profhw.Env{Mode: profhw.Timing})
		if assert.Error(t, err, tc.desc) {
			assert.Equal(t, tc.want, strings.SplitN(err.Error(), " (", 2)[0], tc.desc)
		}
	}
}
