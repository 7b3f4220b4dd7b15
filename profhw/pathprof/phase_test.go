package pathprof

import (
	"testing"

	"github.com/rvsim/rvsim/isa"
	"github.com/rvsim/rvsim/profhw"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// twoPhases is a synthetic program of two phases of ten 1000-instruction
// intervals each: a loop at 0x1000 whose body branches one way, then a
// loop at 0x8000 with a different body.
func twoPhases() []br {
	var s []br
	for i := 0; i < 1000; i++ { // 10 instructions per iteration, 10000 instructions
		s = append(s, br{isa.Branch, 0x1010, 0x1018, true, 5}, br{isa.Branch, 0x1024, 0x1000, true, 5})
	}
	for i := 0; i < 500; i++ { // 20 per iteration
		s = append(s, br{isa.Branch, 0x8010, 0x8014, false, 5}, br{isa.Branch, 0x8020, 0x8030, true, 5},
			br{isa.Branch, 0x8040, 0x8048, false, 5}, br{isa.Branch, 0x8050, 0x8000, true, 5})
	}
	return s
}

// TestPhaseDetectorsFindTheChange: both detectors and the SimPoint
// clustering see one phase change, at interval 10, on the two-phase
// stream.
func TestPhaseDetectorsFindTheChange(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Phase.Enabled = true
	cfg.Phase.Interval = 1000
	cfg.Phase.Thresholds = []float64{10, 50, 200}
	u, err := New("ph", cfg, profhw.Env{Mode: profhw.Functional, Entry: 0x1000})
	require.NoError(t, err)
	u.Retire(dyn(twoPhases()))
	require.NoError(t, u.Finish(profhw.End{Instructions: 20000}))
	r := u.phase.report
	require.Equal(t, 20, r.Intervals)
	assert.Equal(t, 2, r.SimPointK)
	for i, id := range r.SimPointIDs {
		assert.Equal(t, r.SimPointIDs[0] != id, i >= 10, "interval %d", i)
	}
	assert.Equal(t, 1, r.RefChanges)
	for _, det := range [][]PhasePoint{r.Path, r.BBV} {
		for _, p := range det[:2] {
			assert.Equal(t, 100.0, p.Sensitivity, "threshold %v%%", p.ThresholdPercent)
			assert.Equal(t, 0.0, p.FalsePositives, "threshold %v%%", p.ThresholdPercent)
			assert.Equal(t, 1, p.Changes)
			assert.Equal(t, 10.0, p.AvgPhaseLength)
			assert.Equal(t, 100.0, p.Stability)
		}
		assert.Equal(t, 0.0, det[2].Sensitivity, "200%% of the interval: no distance exceeds it")
	}
	assert.Equal(t, uint64(2000), u.phase.pathDet.Distance(9, 10), "every instruction moved to other paths: 2 x interval")
	assert.Equal(t, uint64(0), u.phase.pathDet.Distance(3, 4))
}

func TestPhaseMetrics(t *testing.T) {
	ps := &phaseState{cfg: PhaseConfig{StableMin: 2}, timing: true, cpi: []float64{1, 1, 2, 2, 2, 5}}
	det := []bool{false, false, true, false, false, true}
	ref := []bool{false, true, true, false, false, false}
	p := ps.metrics(10, 100, det, ref)
	assert.InDelta(t, 50, p.Sensitivity, 1e-9, "1 of the 2 reference changes")
	assert.InDelta(t, 100.0/3, p.FalsePositives, 1e-9, "1 of the 3 same-phase pairs flagged")
	assert.Equal(t, 2.0, p.AvgPhaseLength, "phases [0,2) [2,5) [5,6)")
	assert.InDelta(t, 100*5.0/6, p.Stability, 1e-9, "the phases of 2 and 3 intervals are stable")
	assert.InDelta(t, 0, p.CPIVariance, 1e-9, "CPI is constant within each phase")
}
