package profhw_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/isa"
	"github.com/rvsim/rvsim/profhw"
)

// ctlUnit is a recUnit that takes the control tap when takes is set.
type ctlUnit struct {
	recUnit
	takes bool
	recs  []cpu.TapControl
}

func (u *ctlUnit) TakesControls() bool                  { return u.takes }
func (u *ctlUnit) RetireControls(recs []cpu.TapControl) { u.recs = append(u.recs, recs...) }

// The control tap is used only when every unit that watches the stream
// takes it and they watch the control transfers only; each such unit
// gets the batch.
func TestHubControls(t *testing.T) {
	a := &ctlUnit{recUnit: recUnit{name: "a", mask: profhw.Control}, takes: true}
	b := &ctlUnit{recUnit: recUnit{name: "b", mask: profhw.Control}, takes: true}
	no := &ctlUnit{recUnit: recUnit{name: "n", mask: profhw.Control}}
	branches := &ctlUnit{recUnit: recUnit{name: "br", mask: profhw.Classes(isa.Branch)}, takes: true}
	loads := &ctlUnit{recUnit: recUnit{name: "l", mask: profhw.Classes(isa.Load)}, takes: true}
	plain := &recUnit{name: "p", mask: profhw.Control}
	commitOnly := &recUnit{name: "c", stalls: 1}
	h := profhw.NewHub([]profhw.Unit{a, commitOnly, b})
	assert.True(t, h.Controls())
	assert.False(t, h.Values())
	recs := []cpu.TapControl{{PC: 0x10, NextPC: 0x40, SeqInfo: 3<<8 | uint64(isa.Branch)}, {PC: 0x44, NextPC: 0x10, SeqInfo: 9<<8 | uint64(isa.Jal)}}
	assert.Equal(t, 0, h.TappedControls(recs))
	assert.Equal(t, recs, a.recs)
	assert.Equal(t, recs, b.recs)
	assert.False(t, profhw.NewHub([]profhw.Unit{a, no}).Controls(), "a unit that cannot")
	assert.False(t, profhw.NewHub([]profhw.Unit{a, plain}).Controls(), "a unit without the interface")
	assert.False(t, profhw.NewHub([]profhw.Unit{branches}).Controls(), "not every control transfer")
	assert.False(t, profhw.NewHub([]profhw.Unit{a, loads}).Controls(), "transfers and loads")
}

// swapCtlUnit is a ctlUnit that takes the control tap's records in place.
type swapCtlUnit struct {
	ctlUnit
	inPlace[cpu.TapControl]
}

func (u *swapCtlUnit) SwapControls(recs []cpu.TapControl) []cpu.TapControl { return u.swap(recs) }

// The control tap's records go in place as the value tap's do
// (TestHubSwapValues).
func TestHubSwapControls(t *testing.T) {
	s := &swapCtlUnit{ctlUnit: ctlUnit{recUnit: recUnit{name: "s", mask: profhw.Control}, takes: true}}
	commitOnly := &recUnit{name: "c", stalls: 1}
	h := profhw.NewHub([]profhw.Unit{s, commitOnly})
	buf := h.SwapControls(nil)
	assert.Len(t, buf, 3)
	r := cpu.TapControl{PC: 0x10, NextPC: 0x40, SeqInfo: 3<<8 | uint64(isa.Branch)}
	buf[0] = r
	next := h.SwapControls(buf[:1])
	assert.Equal(t, []cpu.TapControl{r}, s.buf)
	assert.Equal(t, &s.buf[:2][1], &next[0], "the next records go right after")
	assert.Empty(t, s.recs, "not through RetireControls")

	a := &ctlUnit{recUnit: recUnit{name: "a", mask: profhw.Control}, takes: true}
	for _, units := range [][]profhw.Unit{{a, s}, {a}} {
		a.recs, s.recs, s.buf = nil, nil, nil
		h := profhw.NewHub(units)
		assert.True(t, h.Controls())
		assert.Nil(t, h.SwapControls(nil), "another unit watches, or none takes them in place")
		assert.Nil(t, h.SwapControls([]cpu.TapControl{r}))
		assert.Equal(t, []cpu.TapControl{r}, a.recs)
		if len(units) > 1 {
			assert.Equal(t, []cpu.TapControl{r}, s.recs, "as RetireControls")
			assert.Empty(t, s.buf)
		}
	}
}
