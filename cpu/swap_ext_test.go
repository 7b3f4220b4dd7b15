package cpu_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/difftest/gen"
	"github.com/rvsim/rvsim/isa"
)

// batchLog is an Observer that keeps every delivery, copied.
type batchLog struct{ batches [][]cpu.DynInst }

func (l *batchLog) Retire(b []cpu.DynInst) {
	l.batches = append(l.batches, append([]cpu.DynInst(nil), b...))
}

// swapLog is a BatchSwapper that keeps every delivery without copying it
// and hands the CPU a fresh buffer full of garbage (every field must be
// written); cap0 sets the capacity it hands (cpu.BatchSize, or a wrong
// one the CPU must refuse).
type swapLog struct {
	batches [][]cpu.DynInst
	cap0    int
}

func (l *swapLog) Retire(b []cpu.DynInst) { panic("a swapper's Retire was called") }

func (l *swapLog) RetireSwap(b []cpu.DynInst) []cpu.DynInst {
	l.batches = append(l.batches, b)
	next := make([]cpu.DynInst, l.cap0)
	for i := range next {
		next[i] = cpu.DynInst{Seq: ^uint64(0), PC: 1, NextPC: 2, Inst: isa.Inst{Op: isa.FDIV_D, Imm: -1, Raw: 3, Len: 4},
			Addr: 5, Size: 6, Taken: true, Tid: 7, Result: 8, Injected: true, Replaced: true, Handler: true}
	}
	return next[:0]
}

// TestBatchSwapper: on random programs, run whole and in random chunks,
// a BatchSwapper (the CPU fills the buffers it hands back, the swapper
// keeps the batches) gets the records and the batch boundaries a plain
// Observer gets; a swapper that hands back a buffer of the wrong
// capacity changes neither (the CPU makes its own).
func TestBatchSwapper(t *testing.T) {
	eachRandomProgram(t, func(seed uint64, p *gen.Program) {
		for _, chunked := range []bool{false, true} {
			for _, cap0 := range []int{cpu.BatchSize, cpu.BatchSize / 2} {
				name := fmt.Sprintf("seed %d, chunked %v, capacity %d", seed, chunked, cap0)
				run := func(o cpu.Observer) {
					c, _, err := p.Machine()
					require.NoError(t, err)
					c.SetObserver(o)
					var chunks *rand.Rand
					if chunked {
						chunks = rand.New(rand.NewPCG(seed, 1))
					}
					runGenerated(t, c, nil, chunks, nil)
					c.Flush()
				}
				ref, swap := &batchLog{}, &swapLog{cap0: cap0}
				run(ref)
				run(swap)
				require.NotEmpty(t, ref.batches, name)
				require.Equal(t, ref.batches, swap.batches, name)
			}
		}
	})
}
