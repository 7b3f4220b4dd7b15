package tuple

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// IndexWHi and IndexWLo are IndexW's two shares.
func TestIndexWSplit(t *testing.T) {
	h := NewHash(3, 11)
	r := rand.New(rand.NewPCG(1, 2))
	for range 10000 {
		w := r.Uint64() >> (r.Uint64N(8) * 8)
		require.Equal(t, h.IndexW(w), h.IndexWHi(w)^h.IndexWLo(w), "%#x", w)
	}
}
