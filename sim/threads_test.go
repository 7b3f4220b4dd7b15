package sim

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/config"
	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/internal/guestcc"
	"github.com/rvsim/rvsim/isa"
	"github.com/rvsim/rvsim/syscalls"
)

// segment is a run of consecutive records of one thread.
type segment struct {
	tid       uint32
	n         uint64
	lastEcall bool // its last instruction is an ecall
}

// segments records the stream as runs of one thread each, and checks
// that Seq counts on across switches.
type segments struct {
	t    *testing.T
	segs []segment
	next uint64
}

func (s *segments) Retire(batch []cpu.DynInst) {
	for i := range batch {
		d := &batch[i]
		require.Equal(s.t, s.next, d.Seq, "one ordered stream")
		s.next++
		if l := len(s.segs); l == 0 || s.segs[l-1].tid != d.Tid {
			s.segs = append(s.segs, segment{tid: d.Tid})
		}
		g := &s.segs[len(s.segs)-1]
		g.n++
		g.lastEcall = d.Inst.Op == isa.ECALL
	}
}

// TestQuantumSwitchesAtExactCounts: two threads that spin without system
// calls are switched exactly every quantum instructions; every observer
// record carries the thread's id; timing mode sees the same stream.
func TestQuantumSwitchesAtExactCounts(t *testing.T) {
	prog := guestcc.Build(t, "testdata/spin2.c", "-O2", "-pthread")
	const quantum = 1000
	var counts []uint64
	for _, timing := range []bool{false, true} {
		var out bytes.Buffer
		rec := &segments{t: t}
		cfg := Config{Program: prog, Kernel: syscalls.Config{Stdout: &out, Quantum: quantum}, Observers: []cpu.Observer{rec}}
		if timing {
			cfg.Timing = config.Default()
		}
		mc, err := Load(cfg)
		require.NoError(t, err)
		res := mc.Run()
		require.Equal(t, StopExit, res.Stop, res.Message)
		require.NoError(t, res.TimingErr)
		assert.Equal(t, "199990000 199990000\n", out.String())
		counts = append(counts, res.Instructions)
		tids := map[uint32]uint64{}
		preempted := 0
		for i, g := range rec.segs {
			tids[g.tid] += g.n
			if i > 0 && i < len(rec.segs)-1 && !g.lastEcall {
				// Switched in at a quantum's start (or after another
				// thread's blocking call) and out at its end.
				assert.Equal(t, uint64(quantum), g.n, "segment %d of thread %d", i, g.tid)
				preempted++
			}
		}
		assert.Greater(t, preempted, 50, "the spinning threads alternate at quantum ends")
		assert.Len(t, tids, 2)
		assert.Contains(t, tids, uint32(1000))
		assert.Contains(t, tids, uint32(1001))
		assert.Equal(t, res.Instructions, tids[1000]+tids[1001])
		assert.Equal(t, uint64(len(rec.segs)-1), mc.Kernel.Switches())
	}
	assert.Equal(t, counts[0], counts[1], "timing mode runs the same instructions")
}
