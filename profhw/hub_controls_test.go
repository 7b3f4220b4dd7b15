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
	assert.Equal(t, cpu.TapBatchMax, h.TappedControls(recs), "no unit paces the tap: the core's largest batch")
	paced := &ctlUnit{recUnit: recUnit{name: "q", mask: profhw.Control, pace: 5}, takes: true}
	assert.Equal(t, 5, profhw.NewHub([]profhw.Unit{a, paced}).TappedControls(nil), "a Pacer's bound")
	assert.Equal(t, recs, a.recs)
	assert.Equal(t, recs, b.recs)
	assert.False(t, profhw.NewHub([]profhw.Unit{a, no}).Controls(), "a unit that cannot")
	assert.False(t, profhw.NewHub([]profhw.Unit{a, plain}).Controls(), "a unit without the interface")
	assert.False(t, profhw.NewHub([]profhw.Unit{branches}).Controls(), "not every control transfer")
	assert.False(t, profhw.NewHub([]profhw.Unit{a, loads}).Controls(), "transfers and loads")
}
