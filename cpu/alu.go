package cpu

import "math/bits"

// Integer helpers, each following the ISA manual's definition.

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// sext32 sign-extends the low 32 bits (the result rule of every W op).
func sext32(v uint64) uint64 { return uint64(int64(int32(v))) }

// mulh is the high half of the signed 128-bit product.
func mulh(a, b uint64) uint64 {
	hi, _ := bits.Mul64(a, b)
	if int64(a) < 0 {
		hi -= b
	}
	if int64(b) < 0 {
		hi -= a
	}
	return hi
}

// mulhsu is the high half of signed a times unsigned b.
func mulhsu(a, b uint64) uint64 {
	hi, _ := bits.Mul64(a, b)
	if int64(a) < 0 {
		hi -= b
	}
	return hi
}

// Division (M extension, "Division by zero and overflow" table): x/0 is all
// ones (-1 signed), x%0 is x; the signed overflow MIN/-1 gives MIN and
// remainder 0.

func div(a, b uint64) uint64 {
	switch {
	case b == 0:
		return ^uint64(0)
	case int64(a) == -1<<63 && int64(b) == -1:
		return a
	}
	return uint64(int64(a) / int64(b))
}

func divu(a, b uint64) uint64 {
	if b == 0 {
		return ^uint64(0)
	}
	return a / b
}

func rem(a, b uint64) uint64 {
	switch {
	case b == 0:
		return a
	case int64(a) == -1<<63 && int64(b) == -1:
		return 0
	}
	return uint64(int64(a) % int64(b))
}

func remu(a, b uint64) uint64 {
	if b == 0 {
		return a
	}
	return a % b
}

func divw(a, b uint64) uint64 {
	x, y := int32(a), int32(b)
	switch {
	case y == 0:
		return ^uint64(0)
	case x == -1<<31 && y == -1:
		return uint64(int64(x))
	}
	return uint64(int64(x / y))
}

func divuw(a, b uint64) uint64 {
	x, y := uint32(a), uint32(b)
	if y == 0 {
		return ^uint64(0)
	}
	return sext32(uint64(x / y))
}

func remw(a, b uint64) uint64 {
	x, y := int32(a), int32(b)
	switch {
	case y == 0:
		return uint64(int64(x))
	case x == -1<<31 && y == -1:
		return 0
	}
	return uint64(int64(x % y))
}

func remuw(a, b uint64) uint64 {
	x, y := uint32(a), uint32(b)
	if y == 0 {
		return sext32(uint64(x))
	}
	return sext32(uint64(x % y))
}

// orcb sets each byte to 0xff if it is non-zero (Zbb orc.b).
func orcb(v uint64) uint64 {
	var r uint64
	for i := 0; i < 64; i += 8 {
		if v>>i&0xff != 0 {
			r |= 0xff << i
		}
	}
	return r
}

// FP register helpers.

const (
	signBit32 = uint32(1) << 31
	signBit64 = uint64(1) << 63
	boxMask   = uint64(0xffffffff) << 32
)

// box32 NaN-boxes a single-precision value into a 64-bit FP register.
func box32(v uint32) uint64 { return boxMask | uint64(v) }

// unbox32 reads a single from an FP register: a value that is not
// properly NaN-boxed is the canonical NaN (ISA manual, "NaN Boxing").
func unbox32(v uint64) uint32 {
	if v&boxMask != boxMask {
		return 0x7fc00000
	}
	return uint32(v)
}
