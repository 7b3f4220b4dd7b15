package tuple

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/isa"
	"github.com/rvsim/rvsim/profhw"
)

func TestFlipAndXorFold(t *testing.T) {
	assert.Equal(t, uint64(0x0807060504030201), Flip(0x0102030405060708))
	assert.Equal(t, uint64(0), Flip(0))
	tests := []struct {
		desc string
		w    uint64
		n    uint
		want uint64
	}{
		{"one chunk", 0x5, 4, 0x5},
		{"two chunks", 0x35, 4, 0x3 ^ 0x5},
		{"11-bit index", 0xffff_ffff_ffff_ffff, 11, 0x7ff ^ 0x7ff ^ 0x7ff ^ 0x7ff ^ 0x7ff ^ 0x1ff},
		{"64 bits", 0x1234, 64, 0x1234},
		{"zero width", 0x1234, 0, 0},
		{"2-bit tag", 0b11_01_10_00, 2, 0b11 ^ 0b01 ^ 0b10 ^ 0b00},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, XorFold(tc.w, tc.n), tc.desc)
	}
}

// The §3.5 hash on a hand-made table: each position's table maps byte b
// to b+pos+1 (mod 256).
func TestHashHandComputed(t *testing.T) {
	var tab [8][256]uint8
	for i := range tab {
		for b := range tab[i] {
			tab[i][b] = uint8(b + i + 1)
		}
	}
	h := NewHashTables(tab, 8)
	// randomize(0x0000000000000102) = bytes (02+1, 01+2, 00+3, …, 00+8)
	assert.Equal(t, uint64(0x0807060504030303), h.Randomize(0x0102))
	pc, w := uint64(0x0102), uint64(0)
	npc := uint64(0x0303030405060708) // flip(0x0807060504030303)
	nw := uint64(0x0807060504030201)  // randomize(0)
	assert.Equal(t, npc^nw, h.Signature(pc, w))
	// xor-fold(npc^nw, 8): the xor of the bytes of 0x0b04050100050f09.
	sig := npc ^ nw
	var want uint64
	for i := 0; i < 8; i++ {
		want ^= sig >> (8 * i) & 0xff
	}
	assert.Equal(t, want, h.Index(Tuple{PC: pc, W: w}))
	assert.Equal(t, XorFold(pc^w, 2), Tag(Tuple{PC: pc, W: w}, 2))
}

func TestHashSeeded(t *testing.T) {
	a, b, c := NewHash(1, 11), NewHash(1, 11), NewHash(2, 11)
	same, diff := 0, 0
	for i := uint64(0); i < 1000; i++ {
		tp := Tuple{PC: 0x10000 + 4*i, W: i * 7}
		require.Equal(t, a.Index(tp), b.Index(tp), "same seed, same index")
		require.Less(t, a.Index(tp), uint64(2048))
		if a.Index(tp) == c.Index(tp) {
			same++
		} else {
			diff++
		}
	}
	assert.Greater(t, diff, 900, "another seed is another hash function")
}

func TestSelectors(t *testing.T) {
	load := cpu.DynInst{PC: 0x100, NextPC: 0x104, Inst: isa.Inst{Op: isa.LD, Class: isa.Load}, Addr: 0x8000, Size: 8, Result: 42}
	branch := cpu.DynInst{PC: 0x200, NextPC: 0x180, Taken: true, Inst: isa.Inst{Op: isa.BNE, Class: isa.Branch}}
	call := cpu.DynInst{PC: 0x300, NextPC: 0x1000, Taken: true, Inst: isa.Inst{Op: isa.JAL, Class: isa.Call}}
	store := cpu.DynInst{PC: 0x400, NextPC: 0x404, Inst: isa.Inst{Op: isa.SD, Class: isa.Store}, Addr: 0x9000, Size: 8}
	handler := load
	handler.Handler = true
	mk := func(k Kind) *Selector { return &Selector{Kind: k, Classes: k.DefaultClasses()} }
	tests := []struct {
		desc string
		sel  *Selector
		d    cpu.DynInst
		want Tuple
		ok   bool
	}{
		{"value of a load", mk(Value), load, Tuple{PC: 0x100, W: 42}, true},
		{"value skips branches", mk(Value), branch, Tuple{}, false},
		{"edge of a taken branch", mk(Edge), branch, Tuple{PC: 0x200, W: 0x180}, true},
		{"edge skips calls", mk(Edge), call, Tuple{}, false},
		{"call target", mk(CallTarget), call, Tuple{PC: 0x300, W: 0x1000}, true},
		{"address of a store", mk(Address), store, Tuple{PC: 0x400, W: 0x9000}, true},
		{"address of a load", mk(Address), load, Tuple{PC: 0x100, W: 0x8000}, true},
		{"handler instructions skipped", mk(Value), handler, Tuple{}, false},
		{"handler instructions when asked", &Selector{Kind: Value, Classes: profhw.Classes(isa.Load), Handlers: true, Tag: 3}, handler, Tuple{PC: 0x100, W: 42, Tag: 3}, true},
		{"pc range in", &Selector{Kind: Value, Classes: profhw.Classes(isa.Load), Lo: 0x100, Hi: 0x101}, load, Tuple{PC: 0x100, W: 42}, true},
		{"pc range out", &Selector{Kind: Value, Classes: profhw.Classes(isa.Load), Lo: 0x101, Hi: 0x200}, load, Tuple{}, false},
	}
	for _, tc := range tests {
		got, ok := tc.sel.Select(&tc.d)
		assert.Equal(t, tc.ok, ok, tc.desc)
		assert.Equal(t, tc.want, got, tc.desc)
		// A one-selector set's batch loop selects the same.
		var want []Tuple
		if ok {
			want = []Tuple{got, got}
		}
		assert.Equal(t, want, Set{*tc.sel}.AppendAll(nil, []cpu.DynInst{tc.d, tc.d}), tc.desc)
	}
	set := Set{*mk(Value), *mk(Address)}
	set[1].Tag = 1
	assert.Equal(t, []Tuple{{PC: 0x100, W: 42}, {PC: 0x100, W: 0x8000, Tag: 1}}, set.Append(nil, &load))
	assert.Equal(t, profhw.Classes(isa.Load, isa.Store, isa.AMO), set.Classes())
}

// The batch loop (appendAll) selects what Select does on every record,
// appended after what the buffer held, whatever the mix of classes,
// handler and injected records, and the buffer's spare room.
func TestAppendAllMatchesSelect(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 9))
	classes := []isa.Class{isa.Load, isa.Store, isa.Branch, isa.Call, isa.Jalr, isa.AMO, isa.IntALU}
	for _, k := range []Kind{Value, Edge, CallTarget, Address} {
		sel := Selector{Kind: k, Classes: k.DefaultClasses(), Tag: uint8(k) + 1}
		for trial := range 50 {
			recs := make([]cpu.DynInst, rng.IntN(300))
			for i := range recs {
				d := &recs[i]
				d.PC, d.NextPC, d.Addr, d.Result = rng.Uint64(), rng.Uint64(), rng.Uint64(), rng.Uint64()
				d.Inst.Class = classes[rng.IntN(len(classes))]
				d.Injected, d.Handler = rng.IntN(10) == 0, rng.IntN(10) == 0
			}
			pre := []Tuple{{PC: 1, W: 2}, {PC: 3, W: 4, Tag: 5}}[:rng.IntN(3)]
			buf := make([]Tuple, len(pre), len(pre)+rng.IntN(400))
			copy(buf, pre)
			want := append([]Tuple(nil), pre...)
			for i := range recs {
				if tu, ok := sel.Select(&recs[i]); ok {
					want = append(want, tu)
				}
			}
			got := sel.appendAll(buf, recs)
			if len(want) == 0 {
				assert.Empty(t, got, "%v trial %d", k, trial)
				continue
			}
			assert.Equal(t, want, got, "%v trial %d", k, trial)
		}
	}
}

func TestCountsJSON(t *testing.T) {
	c := Counts{{PC: 0x10, W: 0x20}: 3, {PC: 0x30, W: 0x40, Tag: 1}: 5}
	set := Set{{Kind: Edge, Tag: 0}, {Kind: CallTarget, Tag: 1}}
	data, err := c.JSON("u", "exact", set, func(a uint64) string { return "f+" + hex(a) })
	require.NoError(t, err)
	assert.JSONEq(t, `{"unit":"u","profile":"exact","tuples":"edge+call-target","total":8,"entries":[
		{"pc":"f+0x30","pc_hex":"0x30","word":"0x40","word_at":"f+0x40","tag":1,"kind":"call-target","count":5},
		{"pc":"f+0x10","pc_hex":"0x10","word":"0x20","word_at":"f+0x20","tag":0,"kind":"edge","count":3}]}`, string(data))
}

func BenchmarkHashIndex(b *testing.B) {
	h := NewHash(1, 11)
	var s uint64
	for i := 0; i < b.N; i++ {
		s += h.Index(Tuple{PC: 0x10000 + uint64(i&255)*4, W: uint64(i) * 0x9e3779b97f4a7c15})
	}
	_ = s
}

// The folded index (sixteen table loads) equals the §3.5 definition,
// xor-fold(flip(randomize(pc)) xor randomize(w)), for every width a
// table can have and for words with every byte significant.
func TestFoldedIndex(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for bits := uint(0); bits <= 24; bits++ {
		h := NewHash(uint64(bits)+3, bits)
		for i := 0; i < 2000; i++ {
			tp := Tuple{PC: r.Uint64(), W: r.Uint64() >> (r.Uint64() % 64)}
			want := XorFold(Flip(h.Randomize(tp.PC))^h.Randomize(tp.W), bits)
			require.Equal(t, want, h.Index(tp), "bits %d, tuple %#x/%#x", bits, tp.PC, tp.W)
			require.Equal(t, want, uint64(h.IndexPC(tp.PC)^h.IndexW(tp.W)), "bits %d", bits)
		}
	}
}

// The hand-written JSON is byte for byte what json.MarshalIndent writes
// for the File (names that need escaping, omitted words and kinds, an
// empty profile).
func TestCountsJSONBytes(t *testing.T) {
	names := []string{"main+0x4", `we"ird\name`, "a<b>&c", "ünï", "", "tab\there"}
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 1, 50} {
		c := Counts{}
		for i := 0; i < n; i++ {
			c[Tuple{PC: r.Uint64N(64), W: r.Uint64N(8), Tag: uint8(r.Uint64N(3))}] += 1 + r.Uint64N(4)
		}
		set := Set{{Kind: Value, Tag: 0}, {Kind: Edge, Tag: 1}} // tag 2: no kind
		sym := func(a uint64) string { return names[a%uint64(len(names))] }
		got, err := c.JSON("u<1>", "exact", set, sym)
		require.NoError(t, err)
		want := oracleJSON(t, "u<1>", c, set, sym)
		require.Equal(t, string(want), string(got), "%d tuples", n)
	}
}

// A value tap's records are what a one-value-selector set selects of the
// loads they stand for (ValueOnly says which sets): PC, value, the
// selector's tag, appended after what the buffer held.
func TestAppendValues(t *testing.T) {
	load := func(pc, v uint64) cpu.DynInst {
		return cpu.DynInst{PC: pc, Result: v, Inst: isa.Inst{Class: isa.Load}}
	}
	set := Set{{Kind: Value, Classes: Value.DefaultClasses(), Tag: 3}}
	require.True(t, set.ValueOnly())
	recs := []cpu.DynInst{load(0x100, 7), load(0x104, 1<<63), load(0x100, 7)}
	vals := []cpu.TapValue{{PC: 0x100, Value: 7}, {PC: 0x104, Value: 1 << 63}, {PC: 0x100, Value: 7}}
	pre := []Tuple{{PC: 1, W: 2}}
	want := set.AppendAll(append([]Tuple(nil), pre...), recs)
	require.Len(t, want, 4)
	require.Equal(t, want, set.AppendValues(append([]Tuple(nil), pre...), vals))
	require.Equal(t, want, set.AppendValues(append(make([]Tuple, 0, 64), pre...), vals), "with room to spare")
	for _, s := range []Set{
		{{Kind: Address, Classes: Address.DefaultClasses()}},
		{{Kind: Value, Classes: profhw.Classes(isa.Load, isa.Store)}},
		{{Kind: Value, Classes: Value.DefaultClasses(), Lo: 0x100, Hi: 0x200}},
		{{Kind: Value, Classes: Value.DefaultClasses(), Handlers: true}},
		{{Kind: Value, Classes: Value.DefaultClasses()}, {Kind: Value, Classes: Value.DefaultClasses(), Tag: 1}},
	} {
		require.False(t, s.ValueOnly(), "%v", s)
	}
}
