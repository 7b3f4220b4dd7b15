package cpu_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/difftest/gen"
	"github.com/rvsim/rvsim/sim"
)

// The one-pass traced block (traced.go) against single steps, the
// general path: the same records in the same batches.

// batchRecorder keeps the records and the length of every batch (the
// timing model sees the stream batch by batch).
type batchRecorder struct {
	recorder
	batches []int
}

func (r *batchRecorder) Retire(b []cpu.DynInst) {
	r.batches = append(r.batches, len(b))
	r.recorder.Retire(b)
}

// TestOnePassRandomPrograms: on random programs (every instruction kind,
// compressed code, self-modifying code, fence.i), in one Run and in
// random chunks (budgets that end mid-block), one-pass traced blocks give
// the records, batches, registers, instruction count and class mix that
// single steps give.
func TestOnePassRandomPrograms(t *testing.T) {
	defer cpu.SetOnePass(cpu.SetOnePass(true))
	eachRandomProgram(t, func(seed uint64, p *gen.Program) {
		for _, chunked := range []bool{false, true} {
			run := func(onePass bool) (*cpu.CPU, *batchRecorder) {
				cpu.SetOnePass(onePass)
				c, _, err := p.Machine()
				require.NoError(t, err)
				c.CountMix = true
				rec := &batchRecorder{}
				c.SetObserver(rec)
				var chunks *rand.Rand
				if chunked {
					chunks = rand.New(rand.NewPCG(seed, 7))
				}
				runGenerated(t, c, nil, chunks, nil)
				return c, rec
			}
			name := fmt.Sprintf("seed %d (%s) chunked %v", seed, gen.ReproCommand(seed, 400), chunked)
			ref, want := run(false)
			c, got := run(true)
			cpu.RequireSameRecords(t, want.insts, got.insts, name)
			require.Equal(t, want.batches, got.batches, name)
			cpu.RequireSameState(t, ref, c, name)
		}
	})
}

// batchHash hashes the observer's stream and its batch lengths.
type batchHash struct {
	rh      *recordHash
	batches uint64
}

func (o *batchHash) Retire(b []cpu.DynInst) {
	o.batches = mix(o.batches, uint64(len(b)))
	for i := range b {
		o.rh.add(&b[i])
	}
}

// TestOnePassBenchmarks: on every benchmark's test input, without and
// with a DISE profiler (call-pair: every call replaced by a sequence with
// a handler call), one-pass traced blocks give the stream (hashed by
// chunks), batch lengths, output, instruction count and class mix that
// single steps give.
func TestOnePassBenchmarks(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the benchmarks' test inputs take a minute")
	}
	bs, dise := benchmarksAndDISE(t)
	defer cpu.SetOnePass(cpu.SetOnePass(true))
	for _, b := range bs { // (not parallel: the switch is global)
		if !b.Built() {
			require.NotEqual(t, "1", os.Getenv("RVSIM_REQUIRE_ARTIFACTS"), "%s is not built: run 'make benchmarks'", b.Binary)
			continue
		}
		in, err := b.Input("test")
		require.NoError(t, err)
		ds := []*sim.DISEOptions{nil}
		if dise != nil {
			ds = append(ds, dise)
		}
		for _, d := range ds {
			name := fmt.Sprintf("%s dise %v", b.Name, d != nil)
			run := func(onePass bool) (sim.Result, []byte, *batchHash) {
				cpu.SetOnePass(onePass)
				obs := &batchHash{rh: newRecordHash(cpu.AllClasses, -1)}
				res, out := benchRun(t, b, in, d, obs, 0, nil)
				return res, out, obs
			}
			wres, wout, want := run(false)
			gres, gout, got := run(true)
			require.Equal(t, wout, gout, name)
			require.Equal(t, wres.Instructions, gres.Instructions, name)
			require.Equal(t, wres.Mix, gres.Mix, name)
			require.True(t, equalHashes(want.rh.final(), got.rh.final()), "%s: the streams differ", name)
			require.Equal(t, want.batches, got.batches, "%s: the batches differ", name)
		}
	}
}
