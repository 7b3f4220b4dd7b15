package sim

import (
	"bufio"
	"fmt"
	"io"
)

// The signature of an architectural test (riscv-arch-test, RISCOF): the
// program stores its results between the symbols begin_signature and
// end_signature, and the model under test writes that memory out at the
// end of the run, in the format Spike's +signature and Sail's
// --test-signature write, to be compared with a reference model's.

// Signature is a program's signature region, [Begin, End).
type Signature struct {
	Begin, End uint64
	Granule    int // bytes a line
}

// MaxSignatureGranule is the widest line a signature may have.
const MaxSignatureGranule = 64

// CheckSignatureGranule accepts a signature's line width: a power of two
// from 1 to MaxSignatureGranule bytes.
func CheckSignatureGranule(granule int) error {
	if granule < 1 || granule > MaxSignatureGranule || granule&(granule-1) != 0 {
		return fmt.Errorf("signature granularity %d: want a power of two from 1 to %d", granule, MaxSignatureGranule)
	}
	return nil
}

// SignatureRegion finds the program's signature region, with lines of
// granule bytes (a power of two, 1 to MaxSignatureGranule). The error
// names the program and what it lacks.
func (mc *Machine) SignatureRegion(granule int) (Signature, error) {
	if err := CheckSignatureGranule(granule); err != nil {
		return Signature{}, err
	}
	var addr [2]uint64
	for i, name := range []string{"begin_signature", "end_signature"} {
		s, ok := mc.Prog.Lookup(name)
		if !ok {
			return Signature{}, fmt.Errorf("%s: no %s symbol (a signature lies between begin_signature and end_signature, as riscv-arch-test programs define them)", mc.Prog.Path, name)
		}
		addr[i] = s.Value + mc.Bias
	}
	sig := Signature{Begin: addr[0], End: addr[1], Granule: granule}
	switch n := sig.End - sig.Begin; {
	case sig.End < sig.Begin:
		return Signature{}, fmt.Errorf("%s: end_signature %#x lies before begin_signature %#x", mc.Prog.Path, sig.End, sig.Begin)
	case n%uint64(granule) != 0:
		return Signature{}, fmt.Errorf("%s: the signature's %d bytes (%#x to %#x) are not a multiple of the granularity %d", mc.Prog.Path, n, sig.Begin, sig.End, granule)
	}
	return sig, nil
}

// WriteSignature writes the region's bytes as Spike does: one line per
// granule, its bytes from the highest address to the lowest in lowercase
// hex (so a 4-byte granule is the little-endian word's value).
func (mc *Machine) WriteSignature(w io.Writer, sig Signature) error {
	g := uint64(sig.Granule)
	buf := make([]byte, g)
	bw := bufio.NewWriter(w)
	line := make([]byte, 0, 2*g+1)
	const hex = "0123456789abcdef"
	for a := sig.Begin; a < sig.End; a += g {
		if err := mc.Mem.Peek(a, buf); err != nil {
			return fmt.Errorf("signature at %#x: %v", a, err)
		}
		line = line[:0]
		for i := len(buf) - 1; i >= 0; i-- {
			line = append(line, hex[buf[i]>>4], hex[buf[i]&15])
		}
		line = append(line, '\n')
		if _, err := bw.Write(line); err != nil {
			return err
		}
	}
	return bw.Flush()
}
