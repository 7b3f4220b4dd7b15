package pathprof

import (
	"math/rand"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// checkGrammar: the grammar generates the sequence; every rule but the
// start is used at least twice (rule utility); no digram occurs twice
// except overlapping in a run (digram uniqueness); the size counters
// match the rules.
func checkGrammar(t *testing.T, g *Grammar, seq []uint32, desc string) {
	t.Helper()
	require.Equal(t, seq, g.Expand(), "%s: the grammar generates the sequence", desc)
	bodies := g.RuleBodies()
	uses := map[uint64]int{}
	size := 0
	type at struct{ rule, i int }
	seen := map[[2]uint64]at{}
	dups := 0
	for id, b := range bodies {
		size += len(b)
		for i, v := range b {
			if v&1 != 0 {
				uses[v]++
			}
			if i+1 < len(b) {
				k := [2]uint64{v, b[i+1]}
				if p, ok := seen[k]; ok && !(p.rule == id && (p.i == i-1 || p.i == i+1)) {
					dups++
				}
				seen[k] = at{id, i}
			}
		}
	}
	assert.Equal(t, 0, dups, "%s: digram uniqueness", desc)
	for id := range bodies {
		if id != g.start.id {
			assert.GreaterOrEqual(t, uses[uint64(id)<<1|1], 2, "%s: rule %d is used twice or more", desc, id)
		}
	}
	assert.Equal(t, size, g.Symbols(), "%s: symbols", desc)
	assert.Equal(t, len(bodies)-1, g.Rules(), "%s: rules", desc)
}

// TestSequiturSmall: Nevill-Manning and Witten's examples, by hand.
func TestSequiturSmall(t *testing.T) {
	// abcdbcabcd: S -> C A C... the paper's: S -> BdAB? Check sizes only
	// through the properties, and "abcabc" by hand: S -> A A, A -> a b c.
	g := NewGrammar()
	for _, c := range "abcabc" {
		g.Append(uint32(c))
	}
	checkGrammar(t, g, []uint32{'a', 'b', 'c', 'a', 'b', 'c'}, "abcabc")
	assert.Equal(t, 1, g.Rules())
	assert.Equal(t, 5, g.Symbols()) // S: A A; A: a b c
	g = NewGrammar()
	for _, c := range "aaaa" {
		g.Append(uint32(c))
	}
	checkGrammar(t, g, []uint32{'a', 'a', 'a', 'a'}, "aaaa")
	assert.Equal(t, 1, g.Rules()) // S -> A A, A -> a a
}

// TestSequiturRandom: the properties after every kind of sequence:
// random over small and large alphabets, periodic, runs, nested repeats.
func TestSequiturRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for trial := 0; trial < 300; trial++ {
		n := 1 + rng.Intn(400)
		alpha := 1 + rng.Intn(6)
		var seq []uint32
		switch trial % 3 {
		case 0:
			for len(seq) < n {
				seq = append(seq, uint32(rng.Intn(alpha)))
			}
		case 1: // repeated blocks with noise
			block := make([]uint32, 1+rng.Intn(8))
			for i := range block {
				block[i] = uint32(rng.Intn(alpha))
			}
			for len(seq) < n {
				seq = append(seq, block...)
				if rng.Intn(4) == 0 {
					seq = append(seq, uint32(rng.Intn(alpha+3)))
				}
			}
		case 2: // runs
			for len(seq) < n {
				v := uint32(rng.Intn(alpha))
				for k := rng.Intn(6); k >= 0; k-- {
					seq = append(seq, v)
				}
			}
		}
		g := NewGrammar()
		for _, v := range seq {
			g.Append(v)
		}
		checkGrammar(t, g, seq, "trial")
		if t.Failed() {
			t.Logf("trial %d: %v", trial, seq)
			return
		}
	}
	// A long periodic sequence compresses to a logarithmic grammar.
	g := NewGrammar()
	var seq []uint32
	for i := 0; i < 1<<14; i++ {
		v := uint32(i % 7)
		seq = append(seq, v)
		g.Append(v)
	}
	checkGrammar(t, g, seq, "periodic")
	assert.Less(t, g.Symbols(), 100)
}
