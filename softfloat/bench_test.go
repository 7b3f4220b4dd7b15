package softfloat

import (
	"math"
	"testing"
)

// Operands of ordinary magnitude (the fast path's domain), cycled so the
// branch predictor cannot learn one value.
var (
	bench64 = func() []uint64 {
		r := &rng{s: 2024}
		v := make([]uint64, 256)
		for i := range v {
			v[i] = uint64(1023-8+r.n(16))<<52 | r.u64()&(1<<52-1)
		}
		return v
	}()
	bench32 = func() []uint32 {
		r := &rng{s: 2025}
		v := make([]uint32, 256)
		for i := range v {
			v[i] = uint32(127-8+r.n(16))<<23 | uint32(r.u64())&(1<<23-1)
		}
		return v
	}()
	sink64 uint64
	sink32 uint32
	sinkFl Flags
)

func bench2x64(b *testing.B, fn func(a, b uint64, rm RoundingMode) (uint64, Flags), rm RoundingMode) {
	var acc uint64
	var fl Flags
	for i := 0; i < b.N; i++ {
		r, f := fn(bench64[i&255], bench64[(i+7)&255], rm)
		acc += r
		fl |= f
	}
	sink64, sinkFl = acc, fl
}

func bench3x64(b *testing.B, fn func(a, b, c uint64, rm RoundingMode) (uint64, Flags), rm RoundingMode) {
	var acc uint64
	var fl Flags
	for i := 0; i < b.N; i++ {
		r, f := fn(bench64[i&255], bench64[(i+7)&255], bench64[(i+13)&255], rm)
		acc += r
		fl |= f
	}
	sink64, sinkFl = acc, fl
}

func bench2x32(b *testing.B, fn func(a, b uint32, rm RoundingMode) (uint32, Flags), rm RoundingMode) {
	var acc uint32
	var fl Flags
	for i := 0; i < b.N; i++ {
		r, f := fn(bench32[i&255], bench32[(i+7)&255], rm)
		acc += r
		fl |= f
	}
	sink32, sinkFl = acc, fl
}

func bench3x32(b *testing.B, fn func(a, b, c uint32, rm RoundingMode) (uint32, Flags), rm RoundingMode) {
	var acc uint32
	var fl Flags
	for i := 0; i < b.N; i++ {
		r, f := fn(bench32[i&255], bench32[(i+7)&255], bench32[(i+13)&255], rm)
		acc += r
		fl |= f
	}
	sink32, sinkFl = acc, fl
}

func sqrt64as2(a, _ uint64, rm RoundingMode) (uint64, Flags) { return Sqrt64(a, rm) }
func sqrt32as2(a, _ uint32, rm RoundingMode) (uint32, Flags) { return Sqrt32(a, rm) }

func BenchmarkAdd64(b *testing.B)       { bench2x64(b, Add64, RNE) }
func BenchmarkMul64(b *testing.B)       { bench2x64(b, Mul64, RNE) }
func BenchmarkDiv64(b *testing.B)       { bench2x64(b, Div64, RNE) }
func BenchmarkSqrt64(b *testing.B)      { bench2x64(b, sqrt64as2, RNE) }
func BenchmarkMulAdd64(b *testing.B)    { bench3x64(b, MulAdd64, RNE) }
func BenchmarkAdd32(b *testing.B)       { bench2x32(b, Add32, RNE) }
func BenchmarkMul32(b *testing.B)       { bench2x32(b, Mul32, RNE) }
func BenchmarkDiv32(b *testing.B)       { bench2x32(b, Div32, RNE) }
func BenchmarkSqrt32(b *testing.B)      { bench2x32(b, sqrt32as2, RNE) }
func BenchmarkMulAdd32(b *testing.B)    { bench3x32(b, MulAdd32, RNE) }
func BenchmarkAdd64RTZ(b *testing.B)    { bench2x64(b, Add64, RTZ) }
func BenchmarkMul64RTZ(b *testing.B)    { bench2x64(b, Mul64, RTZ) }
func BenchmarkDiv64RTZ(b *testing.B)    { bench2x64(b, Div64, RTZ) }
func BenchmarkSqrt64RTZ(b *testing.B)   { bench2x64(b, sqrt64as2, RTZ) }
func BenchmarkMulAdd64RTZ(b *testing.B) { bench3x64(b, MulAdd64, RTZ) }
func BenchmarkMulAdd32RTZ(b *testing.B) { bench3x32(b, MulAdd32, RTZ) }

// BenchmarkMulAdd64Accumulate is the dot-product shape: c is the running
// sum and much larger than a*b.
func BenchmarkMulAdd64Accumulate(b *testing.B) {
	acc := uint64(0x40f0000000000000) // 65536
	var fl Flags
	for i := 0; i < b.N; i++ {
		var f Flags
		acc, f = MulAdd64(bench64[i&255], bench64[(i+7)&255], acc, RNE)
		fl |= f
		if acc > 0x4200000000000000 {
			acc = 0x40f0000000000000
		}
	}
	sink64, sinkFl = acc, fl
}

func BenchmarkF64ToI32RTZ(b *testing.B) {
	var acc int32
	for i := 0; i < b.N; i++ {
		r, _ := F64ToI32(bench64[i&255]+1<<54, RTZ) // magnitudes up to ~2^12
		acc += r
	}
	sink64 = uint64(acc)
}

func BenchmarkI64ToF64(b *testing.B) {
	var acc uint64
	for i := 0; i < b.N; i++ {
		r, _ := I64ToF64(int64(bench64[i&255]), RNE) // needs rounding
		acc += r
	}
	sink64 = acc
}

func BenchmarkF64ToF32(b *testing.B) {
	var acc uint32
	for i := 0; i < b.N; i++ {
		r, _ := F64ToF32(bench64[i&255], RNE)
		acc += r
	}
	sink32 = acc
}

func BenchmarkLt64(b *testing.B) {
	n := 0
	for i := 0; i < b.N; i++ {
		if r, _ := Lt64(bench64[i&255], bench64[(i+7)&255]); r {
			n++
		}
	}
	sink64 = uint64(n)
}

// hostMul64 is the baseline: a bare, non-inlined host multiply without
// flags, through the same benchmark harness.
//
//go:noinline
func hostMul64(a, b uint64, _ RoundingMode) (uint64, Flags) {
	return math.Float64bits(math.Float64frombits(a) * math.Float64frombits(b)), 0
}

func BenchmarkHostMul64Baseline(b *testing.B) { bench2x64(b, hostMul64, RNE) }
