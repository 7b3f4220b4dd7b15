package isa

// ExtensionOf names the standard extension an instruction word that
// rvsim does not decode belongs to, when its encoding says so (a vector
// op, a half- or quad-precision one, a cache-block operation, a Zcb
// compressed op), or "". It lets an illegal-instruction message say why a
// program built for a newer profile stopped. raw holds a 16-bit
// instruction in its low half.
func ExtensionOf(raw uint32) string {
	if raw&3 != 3 { // compressed
		q, f3 := raw&3, raw>>13&7
		switch {
		case q == 0 && f3 == 4: // c.lbu, c.lhu, c.lh, c.sb, c.sh
			return "Zcb (more compressed instructions)"
		case q == 1 && f3 == 4 && raw>>10&7 == 7 && raw>>5&3 >= 2: // c.mul, c.zext.b, c.sext.b, ..., c.not
			return "Zcb (more compressed instructions)"
		}
		return ""
	}
	const (
		vector = "V (vectors)"
		half   = "Zfh (half precision)"
		quad   = "Q (quad precision)"
	)
	major, f3 := raw>>2&31, raw>>12&7
	switch major {
	case 0x15: // OP-V
		return vector
	case 0x01, 0x09: // LOAD-FP, STORE-FP: the width
		switch f3 {
		case 0, 5, 6, 7:
			return vector
		case 1:
			return half
		case 4:
			return quad
		}
	case 0x10, 0x11, 0x12, 0x13, 0x14: // MADD ... NMADD, OP-FP: the format
		fmtField, rs2 := raw>>25&3, raw>>20&31
		if major == 0x14 && raw>>27 == 0x08 { // fcvt between FP formats: rs2 is the source's
			fmtField = max(fmtField, rs2&3)
		}
		switch fmtField {
		case 2:
			return half
		case 3:
			return quad
		}
	case 0x03: // MISC-MEM
		if f3 == 2 {
			return "Zicbom/Zicboz (cache-block operations)"
		}
	}
	return ""
}
