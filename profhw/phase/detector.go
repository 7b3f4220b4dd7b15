// Package phase is the phase hardware: the accumulator table that turns
// the stream of retired branches into per-interval signatures (Sherwood,
// Sair and Calder, "Phase tracking and prediction", ISCA 2003, §3), and
// the Phase Tracker built on it that classifies intervals into phases,
// keeps the phase-ID table and predicts the next interval's phase
// (hps-phase-aware-remote-profiling.md §4). The path profiler's phase
// detectors (hardware-path-profiling.md §6, profhw/pathprof) use the same
// accumulator table: there is one implementation, here.
package phase

import (
	"math/bits"

	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/isa"
)

// Detector is an accumulator table (Sherwood et al. 2003 §3;
// hardware-path-profiling.md §6, Fig. 9): each event adds instructions to
// the accumulator its key hashes to; at the end of an interval the
// accumulators' high-order bits form the interval's signature.
type Detector struct {
	acc   []uint64
	mask  uint64
	shift uint
	// Sigs are the signatures of the intervals End closed (Close returns
	// one without keeping it).
	Sigs [][]uint32
}

// NewDetector builds a detector of n accumulators (a power of two) whose
// signatures keep sigBits bits of intervals of interval instructions: an
// accumulator counts up to the interval, bits.Len64(interval) bits, and
// the signature keeps its top sigBits.
func NewDetector(n int, sigBits uint, interval uint64) *Detector {
	width := uint(bits.Len64(interval))
	shift := uint(0)
	if width > sigBits {
		shift = width - sigBits
	}
	return &Detector{acc: make([]uint64, n), mask: uint64(n - 1), shift: shift}
}

// Add adds n instructions at key's accumulator.
func (d *Detector) Add(key, n uint64) { d.acc[Mix(key)&d.mask] += n }

// Close ends an interval: it returns the interval's signature (each
// accumulator's high-order bits) and clears the accumulators.
func (d *Detector) Close() []uint32 {
	s := make([]uint32, len(d.acc))
	for i, a := range d.acc {
		s[i] = uint32(min(a>>d.shift, 1<<32-1))
	}
	clear(d.acc)
	return s
}

// End closes an interval and keeps its signature in Sigs.
func (d *Detector) End() { d.Sigs = append(d.Sigs, d.Close()) }

// Shift is the low-order bits a signature drops: one unit of a signature
// is 1<<Shift instructions.
func (d *Detector) Shift() uint { return d.shift }

// Accumulators is the table's size.
func (d *Detector) Accumulators() int { return len(d.acc) }

// Distance is the Manhattan distance of intervals i and j of Sigs, in
// instructions (the signature's unit times 1<<Shift).
func (d *Detector) Distance(i, j int) uint64 { return Manhattan(d.Sigs[i], d.Sigs[j]) << d.shift }

// Manhattan is the Manhattan distance of two signatures, in signature
// units (Sherwood et al. 2003 §3: the sum of the element-wise absolute
// differences).
func Manhattan(a, b []uint32) uint64 {
	var s uint64
	for k := range a {
		x, y := a[k], b[k]
		if x > y {
			s += uint64(x - y)
		} else {
			s += uint64(y - x)
		}
	}
	return s
}

// Mix is the accumulator index hash (a 64-bit finalizer's first rounds):
// the branch PC, or a path's descriptor, spread over the table.
func Mix(x uint64) uint64 {
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	return x
}

// AppFeed feeds a Detector the application's retired control transfers,
// each with the application instructions since the previous one (Sherwood
// et al. 2003 §3), leaving out DISE-injected and handler instructions: the
// phase trigger's tracker (sim) and the sampling experiments' recorder
// count intervals in application instructions.
type AppFeed struct {
	Det  *Detector
	App  uint64 // application instructions retired
	last uint64 // App at the previous control transfer
}

// Inst takes one retired instruction and reports whether it was the
// application's (and counted).
func (f *AppFeed) Inst(d *cpu.DynInst) bool {
	if d.Injected || d.Handler {
		return false
	}
	f.App++
	switch d.Inst.Class {
	case isa.Branch, isa.Jal, isa.Jalr, isa.Call, isa.Return:
		f.Det.Add(d.PC, f.App-f.last)
		f.last = f.App
	}
	return true
}
