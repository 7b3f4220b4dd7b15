package softfloat

import (
	"math/bits"
	"strings"
)

// Flags is a set of accrued floating-point exception flags in the RISC-V
// fflags bit layout.
type Flags uint8

// The exception flags (RISC-V fflags bits 0..4).
const (
	NX Flags = 1 << 0 // inexact
	UF Flags = 1 << 1 // underflow
	OF Flags = 1 << 2 // overflow
	DZ Flags = 1 << 3 // divide by zero
	NV Flags = 1 << 4 // invalid operation
)

// String renders the set flags as "NV|DZ|OF|UF|NX" (in that order), or "-".
func (f Flags) String() string {
	if f == 0 {
		return "-"
	}
	names := [...]string{"NX", "UF", "OF", "DZ", "NV"}
	var parts []string
	for i := len(names) - 1; i >= 0; i-- {
		if f&(1<<i) != 0 {
			parts = append(parts, names[i])
		}
	}
	if rest := f &^ 0x1f; rest != 0 {
		parts = append(parts, "?")
	}
	return strings.Join(parts, "|")
}

// RoundingMode is a RISC-V static rounding mode (the rm field / frm CSR).
type RoundingMode uint8

// The rounding modes, with their RISC-V encodings.
const (
	RNE RoundingMode = 0 // round to nearest, ties to even
	RTZ RoundingMode = 1 // round towards zero
	RDN RoundingMode = 2 // round down (towards -inf)
	RUP RoundingMode = 3 // round up (towards +inf)
	RMM RoundingMode = 4 // round to nearest, ties to max magnitude
)

// Valid reports whether rm is one of RNE..RMM. Other values are treated as
// RNE by this package.
func (rm RoundingMode) Valid() bool { return rm <= RMM }

func (rm RoundingMode) String() string {
	switch rm {
	case RNE:
		return "rne"
	case RTZ:
		return "rtz"
	case RDN:
		return "rdn"
	case RUP:
		return "rup"
	case RMM:
		return "rmm"
	}
	return "rm?"
}

// The canonical quiet NaNs RISC-V produces for every NaN result.
const (
	CanonicalNaN32 uint32 = 0x7fc00000
	CanonicalNaN64 uint64 = 0x7ff8000000000000
)

// format describes one binary interchange format for the generic slow path.
// Values of either format travel in a uint64 (binary32 in the low 32 bits).
//
// Unpacked finite nonzero values use the representation (exp, sig): sig has
// its leading one at bit 62 and value = sig/2^62 * 2^(exp-bias), so exp is
// the biased exponent the value would have with an unbounded exponent range.
type format struct {
	fracBits  uint   // stored fraction bits: 52 or 23
	signShift uint   // position of the sign bit: 63 or 31
	expMax    int32  // all-ones exponent field: 0x7ff or 0xff
	bias      int32  // exponent bias: 1023 or 127
	nan       uint64 // canonical NaN
}

var (
	f64 = &format{fracBits: 52, signShift: 63, expMax: 0x7ff, bias: 1023, nan: CanonicalNaN64}
	f32 = &format{fracBits: 23, signShift: 31, expMax: 0xff, bias: 127, nan: uint64(CanonicalNaN32)}
)

func (f *format) fracMask() uint64 { return 1<<f.fracBits - 1 }
func (f *format) signBit() uint64  { return 1 << f.signShift }
func (f *format) sign(a uint64) uint64 {
	return a >> f.signShift & 1
}
func (f *format) expField(a uint64) int32 {
	return int32(a>>f.fracBits) & f.expMax
}
func (f *format) isNaN(a uint64) bool {
	return f.expField(a) == f.expMax && a&f.fracMask() != 0
}
func (f *format) isSNaN(a uint64) bool {
	return f.isNaN(a) && a&(1<<(f.fracBits-1)) == 0
}
func (f *format) isInf(a uint64) bool {
	return a&^f.signBit() == uint64(f.expMax)<<f.fracBits
}
func (f *format) isZero(a uint64) bool { return a&^f.signBit() == 0 }

// inf returns the infinity with the given sign (0 or 1).
func (f *format) inf(sign uint64) uint64 {
	return sign<<f.signShift | uint64(f.expMax)<<f.fracBits
}

// zero returns the zero with the given sign (0 or 1).
func (f *format) zero(sign uint64) uint64 { return sign << f.signShift }

// nanResult returns the canonical NaN with NV raised if any operand is a
// signalling NaN.
func (f *format) nanResult(a, b, c uint64) (uint64, Flags) {
	if f.isSNaN(a) || f.isSNaN(b) || f.isSNaN(c) {
		return f.nan, NV
	}
	return f.nan, 0
}

// unpack splits a finite nonzero value into (exp, sig) with sig normalised
// (leading one at bit 62), subnormals included.
func (f *format) unpack(a uint64) (exp int32, sig uint64) {
	e := f.expField(a)
	frac := a & f.fracMask()
	if e == 0 {
		lz := bits.LeadingZeros64(frac) - 1
		return int32(63 - lz - int(f.fracBits)), frac << uint(lz)
	}
	return e, (frac | 1<<f.fracBits) << (62 - f.fracBits)
}

// shiftRightJam shifts a right by n, ORing every bit shifted out into bit 0.
func shiftRightJam(a uint64, n uint) uint64 {
	if n == 0 {
		return a
	}
	if n < 64 {
		if a<<(64-n) != 0 {
			return a>>n | 1
		}
		return a >> n
	}
	if a != 0 {
		return 1
	}
	return 0
}

// shiftRightJam128 shifts the 128-bit value hi:lo right by n with jamming.
func shiftRightJam128(hi, lo uint64, n uint) (uint64, uint64) {
	switch {
	case n == 0:
		return hi, lo
	case n < 64:
		sticky := uint64(0)
		if lo<<(64-n) != 0 {
			sticky = 1
		}
		return hi >> n, hi<<(64-n) | lo>>n | sticky
	case n < 128:
		sticky := uint64(0)
		if lo != 0 || hi<<(128-n) != 0 {
			sticky = 1
		}
		return 0, hi>>(n-64) | sticky
	default:
		if hi|lo != 0 {
			return 0, 1
		}
		return 0, 0
	}
}

// roundPack rounds (sign, exp, sig) to the format in mode rm and packs it.
// sig must have its leading one at bit 62; value = sig/2^62 * 2^(exp-bias).
// Overflow gives inf or the largest finite number depending on the mode;
// underflow is signalled when the result is tiny after rounding (rounded to
// the format's precision with an unbounded exponent it would be below the
// smallest normal number) and inexact.
func (f *format) roundPack(sign uint64, exp int32, sig uint64, rm RoundingMode) (uint64, Flags) {
	rbits := 62 - f.fracBits // round bits below the result's last place
	mask := uint64(1)<<rbits - 1
	half := uint64(1) << (rbits - 1)
	var inc uint64
	switch rm {
	case RTZ:
	case RDN:
		if sign != 0 {
			inc = mask
		}
	case RUP:
		if sign == 0 {
			inc = mask
		}
	case RMM:
		inc = half
	default:
		rm = RNE
		inc = half
	}
	var flags Flags
	// e is the exponent field minus one: the leading one of sig lands on
	// the exponent field's lowest bit when packed and adds the one back, and a
	// carry out of rounding bumps the exponent for free.
	e := exp - 1
	if uint32(e) >= uint32(f.expMax-2) {
		if e < 0 {
			// Subnormal range. Tiny after rounding unless the value is in the
			// binade just below the smallest normal and rounding it at full
			// precision carries up to the smallest normal.
			tiny := e < -1 || sig+inc < 1<<63
			sig = shiftRightJam(sig, uint(-e))
			e = 0
			if tiny && sig&mask != 0 {
				flags |= UF
			}
		} else if e > f.expMax-2 || sig+inc >= 1<<63 {
			r := f.inf(sign)
			if inc == 0 { // rounding towards zero for this sign: largest finite
				r--
			}
			return r, OF | NX
		}
	}
	rb := sig & mask
	if rb != 0 {
		flags |= NX
	}
	sig = (sig + inc) >> rbits
	if rm == RNE && rb == half {
		sig &^= 1
	}
	if sig == 0 {
		e = 0
	}
	return sign<<f.signShift | (uint64(e)<<f.fracBits + sig), flags
}

// normRoundPack is roundPack for a nonzero sig with its leading one anywhere;
// value = sig/2^62 * 2^(exp-bias).
func (f *format) normRoundPack(sign uint64, exp int32, sig uint64, rm RoundingMode) (uint64, Flags) {
	lz := bits.LeadingZeros64(sig)
	if lz == 0 {
		sig = sig>>1 | sig&1
		exp++
	} else {
		sig <<= uint(lz - 1)
		exp -= int32(lz - 1)
	}
	return f.roundPack(sign, exp, sig, rm)
}
