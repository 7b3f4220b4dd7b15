package sim

import (
	"github.com/rvsim/rvsim/config"
	"github.com/rvsim/rvsim/pipeline"
)

// newTimingCore builds the out-of-order timing model for a run. With DISE
// attached, the DISE configuration's decode penalty is the one charged
// (the ACF hardware owns it; the machine file's value is its default).
func newTimingCore(m *config.Machine, d *DISEOptions) (*pipeline.Core, error) {
	mc := *m
	if d != nil && d.Config != nil {
		mc.Core.DISEPenalty = d.Config.DecodePenalty
	}
	return pipeline.New(&mc)
}

// Timing returns the timing model of a timing-mode run, or nil.
func (mc *Machine) Timing() *pipeline.Core { return mc.timing }

// finishTiming drains the timing model at the end of a run.
func (mc *Machine) finishTiming(res *Result) {
	if mc.timing == nil || mc.sampled != nil { // (sampled: finishSampled)
		return
	}
	res.TimingErr = mc.timing.Finish() // a model failure, or the interval output's error
	res.Cycles = mc.timing.Cycles()
}
