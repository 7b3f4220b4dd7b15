package sim

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/isa"
	"github.com/rvsim/rvsim/profile"
)

// everyNth is the exact profile of every nth event of a profile type in
// the application's instruction stream (injected and handler instructions
// are not the application's): what an event-count sampler at 1/n must
// collect (hps-phase-aware-remote-profiling.md §5.2, "1/100 events").
// Events: conditional branches (code regions); calls (call pairs); calls
// and backward branches, taken or not, since decode cannot tell (methods,
// of which a sampled backward branch counts only if taken). A sampled
// branch is its sample's only branch, so its region is unattributed.
type everyNth struct {
	kind   profile.Kind
	n      uint64
	events uint64
	counts *profile.Counts
}

func (e *everyNth) Retire(batch []cpu.DynInst) {
	c := e.counts
	for i := range batch {
		d := &batch[i]
		if d.Injected || d.Handler {
			continue
		}
		class := d.Inst.Class
		switch e.kind {
		case profile.CodeRegion:
			if class != isa.Branch {
				continue
			}
		case profile.CallPair:
			if class != isa.Call {
				continue
			}
		case profile.Method:
			backward := class == isa.Branch && d.PC+uint64(d.Inst.Imm) < d.PC
			if class != isa.Call && !backward {
				continue
			}
		}
		if e.events++; e.events%e.n != 0 {
			continue
		}
		switch {
		case e.kind == profile.CodeRegion:
			r := c.Regions[d.PC]
			r.Count++
			r.Unattributed++
			c.Regions[d.PC] = r
		case e.kind == profile.CallPair:
			c.Pairs[profile.Pair{Site: d.PC, Target: d.NextPC}]++
		case class == isa.Call:
			c.Calls[d.NextPC]++
		case d.Taken:
			c.Backedges[d.PC]++
		}
	}
}

// Event-count sampling: the HPS variant (a counter micro-op in decode) and
// the DISE-only variant (a counter in replacement code) each profile
// exactly every 100th event of the run, counted independently from the
// instruction stream; HPS replaces only those, DISE every event.
func TestEventSampling(t *testing.T) {
	for _, tc := range []struct {
		prof  string
		kind  profile.Kind
		bench string
	}{
		{"hot-code-region", profile.CodeRegion, "lisp"},
		{"hot-method", profile.Method, "gametree"},
		{"call-pair", profile.CallPair, "netflow"},
	} {
		t.Run(tc.prof, func(t *testing.T) {
			t.Parallel()
			b := benchmark(t, tc.bench)
			var counts [2]*profile.Counts
			var stats [2]*DISEResult
			for i, variant := range []string{"-hps-event", "-dise-event"} {
				want := &everyNth{kind: tc.kind, n: 100, counts: profile.NewCounts()}
				r := runDISE(t, b, []string{acf(tc.prof + variant)}, "", want)
				assert.Equal(t, string(b.stdout), string(r.stdout), "output unchanged")
				got, err := r.mc.HandlerCounts()
				require.NoError(t, err)
				require.Greater(t, want.events, uint64(10000), "a benchmark with events")
				switch tc.kind {
				case profile.CodeRegion:
					require.NotEmpty(t, want.counts.Regions)
					assert.Equal(t, want.counts.Regions, got.Regions, variant)
				case profile.Method:
					require.NotEmpty(t, want.counts.Calls)
					require.NotEmpty(t, want.counts.Backedges)
					assert.Equal(t, want.counts.Calls, got.Calls, variant)
					assert.Equal(t, want.counts.Backedges, got.Backedges, variant)
				case profile.CallPair:
					require.NotEmpty(t, want.counts.Pairs)
					assert.Equal(t, want.counts.Pairs, got.Pairs, variant)
				}
				d := r.res.DISE
				if variant == "-hps-event" {
					assert.Equal(t, want.events/100, d.Replacements, "HPS replaces only the sampled events")
					assert.Equal(t, want.events, d.Engine.MicroOps, "one counter micro-op per event")
				} else {
					assert.Equal(t, want.events, d.Replacements, "DISE replaces every event")
				}
				counts[i], stats[i] = got, d
			}
			assert.Equal(t, counts[0], counts[1], "HPS and DISE-only sample the same events")
			assert.Equal(t, stats[0].HandlerCalls, stats[1].HandlerCalls)
		})
	}
}
