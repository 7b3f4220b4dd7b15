package profhw_test

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/isa"
	"github.com/rvsim/rvsim/pipeline"
	"github.com/rvsim/rvsim/profhw"
)

// recUnit records what the hub gives it.
type recUnit struct {
	name   string
	mask   profhw.ClassMask
	pace   int
	seqs   []uint64
	stalls uint64
	// commitMask narrows the commits it sees; commits records them.
	commitMask profhw.ClassMask
	commits    []uint64
	lean       bool
	sum        profhw.Summary
}

func (u *recUnit) Name() string { return u.name }
func (u *recUnit) Watch() profhw.Watch {
	return profhw.Watch{Retired: u.mask, Committed: u.stalls > 0, CommitClasses: u.commitMask, Lean: u.lean}
}
func (u *recUnit) Retire(recs []cpu.DynInst) {
	for _, r := range recs {
		u.seqs = append(u.seqs, r.Seq)
	}
}
func (u *recUnit) Commit(r *pipeline.Commit) uint64 {
	u.commits = append(u.commits, r.D.Seq)
	return u.stalls
}
func (u *recUnit) Finish(profhw.End) error                            { return nil }
func (u *recUnit) Summary() *profhw.Summary                           { u.sum.Unit = u.name; return &u.sum }
func (u *recUnit) Outputs(profhw.Symbolizer) ([]profhw.Output, error) { return nil, nil }
func (u *recUnit) Pace() int                                          { return u.pace }

// The hub gives each unit only its classes, in order; the tap sees the
// union; the tightest pace wins; the longest stall wins.
func TestHub(t *testing.T) {
	loads := &recUnit{name: "l", mask: profhw.Classes(isa.Load), pace: 7}
	branches := &recUnit{name: "b", mask: profhw.Classes(isa.Branch), pace: 0, stalls: 3}
	all := &recUnit{name: "a", mask: profhw.AllClasses, pace: 20, stalls: 5}
	none := &recUnit{name: "n"}
	h := profhw.NewHub([]profhw.Unit{loads, branches, none})
	assert.Equal(t, profhw.Classes(isa.Load, isa.Branch), h.Classes())
	classes := []isa.Class{isa.Load, isa.IntALU, isa.Branch, isa.Load, isa.Store, isa.Branch}
	var batch []cpu.DynInst
	for i, c := range classes {
		batch = append(batch, cpu.DynInst{Seq: uint64(i), Inst: isa.Inst{Class: c}})
	}
	assert.Equal(t, 7, h.Tapped(batch))
	assert.Equal(t, []uint64{0, 3}, loads.seqs)
	assert.Equal(t, []uint64{2, 5}, branches.seqs)
	assert.Empty(t, none.seqs)
	assert.Equal(t, uint64(3), h.Commit(&pipeline.Commit{D: &batch[0]}))

	h2 := profhw.NewHub([]profhw.Unit{all, branches})
	assert.Equal(t, 20, h2.Tapped(nil), "an empty call asks for the first bound")
	h2.Tapped(batch)
	assert.Equal(t, []uint64{0, 1, 2, 3, 4, 5}, all.seqs)
	assert.Equal(t, uint64(5), h2.Commit(&pipeline.Commit{D: &batch[0]}))

	// CommitClasses: a unit sees only its classes' commits, and no stall
	// comes from a unit that did not see the instruction.
	narrow := &recUnit{name: "s", stalls: 9, commitMask: profhw.Classes(isa.Store)}
	h3 := profhw.NewHub([]profhw.Unit{narrow, branches})
	branches.commits = nil
	var stalls []uint64
	for i := range batch {
		stalls = append(stalls, h3.Commit(&pipeline.Commit{D: &batch[i]}))
	}
	assert.Equal(t, []uint64{4}, narrow.commits)
	assert.Equal(t, []uint64{0, 1, 2, 3, 4, 5}, branches.commits, "0: every class")
	assert.Equal(t, []uint64{3, 3, 3, 3, 9, 3}, stalls)
}

// The tap is lean only when every unit that watches the stream is.
func TestHubLean(t *testing.T) {
	lean := &recUnit{name: "l", mask: profhw.Classes(isa.Load), lean: true}
	full := &recUnit{name: "f", mask: profhw.Classes(isa.Branch)}
	commitOnly := &recUnit{name: "c", stalls: 1} // watches no stream: no say
	assert.True(t, profhw.NewHub([]profhw.Unit{lean}).Lean())
	assert.True(t, profhw.NewHub([]profhw.Unit{lean, commitOnly}).Lean())
	assert.False(t, profhw.NewHub([]profhw.Unit{lean, full}).Lean())
	assert.False(t, profhw.NewHub([]profhw.Unit{full}).Lean())
}

// valUnit is a recUnit that takes the value tap when takes is set.
type valUnit struct {
	recUnit
	takes bool
	vals  []cpu.TapValue
}

func (u *valUnit) TakesValues() bool                { return u.takes }
func (u *valUnit) RetireValues(vals []cpu.TapValue) { u.vals = append(u.vals, vals...) }

// The value tap is used only when every unit that watches the stream
// takes it and they watch the loads only; each such unit gets the batch.
func TestHubValues(t *testing.T) {
	loads := profhw.Classes(isa.Load)
	a := &valUnit{recUnit: recUnit{name: "a", mask: loads}, takes: true}
	b := &valUnit{recUnit: recUnit{name: "b", mask: loads}, takes: true}
	no := &valUnit{recUnit: recUnit{name: "n", mask: loads}}
	stores := &valUnit{recUnit: recUnit{name: "s", mask: profhw.Classes(isa.Store)}, takes: true}
	plain := &recUnit{name: "p", mask: loads}
	commitOnly := &recUnit{name: "c", stalls: 1}
	h := profhw.NewHub([]profhw.Unit{a, commitOnly, b})
	assert.True(t, h.Values())
	vals := []cpu.TapValue{{PC: 0x10, Value: 1}, {PC: 0x14, Value: 2}}
	assert.Equal(t, cpu.TapBatchMax, h.TappedValues(vals), "no unit paces the tap: the core's largest batch")
	assert.Equal(t, vals, a.vals)
	assert.Equal(t, vals, b.vals)
	paced := &valUnit{recUnit: recUnit{name: "q", mask: loads, pace: 7}, takes: true}
	assert.Equal(t, 7, profhw.NewHub([]profhw.Unit{a, paced}).TappedValues(nil), "a Pacer's bound")
	assert.False(t, profhw.NewHub([]profhw.Unit{a, no}).Values(), "a unit that cannot")
	assert.False(t, profhw.NewHub([]profhw.Unit{a, plain}).Values(), "a unit without the interface")
	assert.False(t, profhw.NewHub([]profhw.Unit{stores}).Values(), "not the loads")
	assert.False(t, profhw.NewHub([]profhw.Unit{a, stores}).Values(), "loads and stores")
}

// The stall commit sees is charged to the unit that asked for the most
// (the first in configuration order on a tie): Commit.Cause is its index
// among the units; Finish gives each unit its real stall cycles.
func TestHubStallCause(t *testing.T) {
	none := &recUnit{name: "n", mask: profhw.Classes(isa.Load)}
	small := &recUnit{name: "s", stalls: 3}
	stores := &recUnit{name: "st", stalls: 9, commitMask: profhw.Classes(isa.Store)}
	big := &recUnit{name: "b", stalls: 9}
	h := profhw.NewHub([]profhw.Unit{none, small, stores, big})
	for _, tc := range []struct {
		class isa.Class
		cause int
	}{{isa.Store, 2}, {isa.Load, 3}} {
		d := cpu.DynInst{Inst: isa.Inst{Class: tc.class}}
		r := pipeline.Commit{D: &d}
		assert.Equal(t, uint64(9), h.Commit(&r))
		assert.Equal(t, tc.cause, r.Cause, "%v", tc.class)
	}
	h2 := profhw.NewHub([]profhw.Unit{small, none})
	d := cpu.DynInst{Inst: isa.Inst{Class: isa.Load}}
	r := pipeline.Commit{D: &d}
	h2.Commit(&r)
	assert.Equal(t, 0, r.Cause)

	assert.NoError(t, h.Finish(profhw.End{StallCycles: []uint64{0, 11, 22}}))
	assert.Equal(t, []uint64{0, 11, 22, 0}, []uint64{none.sum.StallCyc, small.sum.StallCyc, stores.sum.StallCyc, big.sum.StallCyc})
}

// WriteBuffered passes a writer's error on, and Bytes renders a streamed
// file whole.
func TestOutputWriteBuffered(t *testing.T) {
	o := profhw.Output{Write: func(w io.Writer) error {
		_, err := w.Write(bytes.Repeat([]byte{'x'}, 1<<20))
		return err
	}}
	assert.Len(t, o.Bytes(), 1<<20)
	// A streamed file beyond the buffer, written in pieces, arrives whole.
	big := bytes.Repeat([]byte("0123456789abcdef"), 100_000)
	s := profhw.Output{Write: func(w io.Writer) error {
		for i := 0; i < len(big); i += 1000 {
			if _, err := w.Write(big[i : i+1000]); err != nil {
				return err
			}
		}
		return nil
	}}
	var got bytes.Buffer
	require.NoError(t, s.WriteBuffered(&got))
	assert.True(t, bytes.Equal(big, got.Bytes()), "the streamed file")
	assert.ErrorIs(t, o.WriteBuffered(failWriter{}), errDisk)
	p := profhw.Output{Data: []byte("abc")}
	assert.Equal(t, "abc", string(p.Bytes()))
	assert.ErrorIs(t, p.WriteBuffered(failWriter{}), errDisk)
}

var errDisk = errors.New("disk full")

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errDisk }
