package softfloat

import "fmt"

// runOp dispatches an operation by the name used in the golden vector files
// and the edge tables. Operands and results are bit patterns in uint64:
// singles and 32-bit integers in the low 32 bits, booleans as 0/1.
// opArity maps every operation name to its number of operands.
var opArity = func() map[string]int {
	m := map[string]int{}
	for _, op := range allOpNames {
		m[op] = 2
	}
	for _, op := range []string{"sqrt64", "sqrt32", "f32tof64", "f64tof32", "f64toi32", "f64tou32", "f64toi64", "f64tou64",
		"f32toi32", "f32tou32", "f32toi64", "f32tou64", "i32tof64", "u32tof64", "i64tof64", "u64tof64",
		"i32tof32", "u32tof32", "i64tof32", "u64tof32", "class64", "class32"} {
		m[op] = 1
	}
	for _, op := range []string{"fmadd64", "fmsub64", "fnmsub64", "fnmadd64", "fmadd32", "fmsub32", "fnmsub32", "fnmadd32"} {
		m[op] = 3
	}
	return m
}()

// allOpNames lists every operation runOp knows.
var allOpNames = []string{"add64", "sub64", "mul64", "div64", "sqrt64", "fmadd64", "fmsub64", "fnmsub64", "fnmadd64",
	"add32", "sub32", "mul32", "div32", "sqrt32", "fmadd32", "fmsub32", "fnmsub32", "fnmadd32",
	"f32tof64", "f64tof32", "f64toi32", "f64tou32", "f64toi64", "f64tou64", "f32toi32", "f32tou32", "f32toi64", "f32tou64",
	"i32tof64", "u32tof64", "i64tof64", "u64tof64", "i32tof32", "u32tof32", "i64tof32", "u64tof32",
	"eq64", "lt64", "le64", "eq32", "lt32", "le32", "min64", "max64", "min32", "max32", "class64", "class32"}

// runOp dispatches an operation by the name used in the golden vector files
// and the edge tables. Operands and results are bit patterns in uint64:
// singles and 32-bit integers in the low 32 bits, booleans as 0/1.
func runOp(op string, in []uint64, rm RoundingMode) (uint64, Flags, error) {
	arity, ok := opArity[op]
	if !ok {
		return 0, 0, fmt.Errorf("unknown op %q", op)
	}
	if len(in) != arity {
		return 0, 0, fmt.Errorf("%s: want %d operands, got %d", op, arity, len(in))
	}
	a := in[0]
	var b, c uint64
	if arity > 1 {
		b = in[1]
	}
	if arity > 2 {
		c = in[2]
	}
	a32, b32, c32 := uint32(a), uint32(b), uint32(c)
	u := func(r uint32, fl Flags) (uint64, Flags, error) { return uint64(r), fl, nil }
	d := func(r uint64, fl Flags) (uint64, Flags, error) { return r, fl, nil }
	bl := func(r bool, fl Flags) (uint64, Flags, error) {
		if r {
			return 1, fl, nil
		}
		return 0, fl, nil
	}
	switch op {
	case "add64":
		return d(Add64(a, b, rm))
	case "sub64":
		return d(Sub64(a, b, rm))
	case "mul64":
		return d(Mul64(a, b, rm))
	case "div64":
		return d(Div64(a, b, rm))
	case "sqrt64":
		return d(Sqrt64(a, rm))
	case "fmadd64":
		return d(MulAdd64(a, b, c, rm))
	case "fmsub64":
		return d(MulSub64(a, b, c, rm))
	case "fnmsub64":
		return d(NegMulSub64(a, b, c, rm))
	case "fnmadd64":
		return d(NegMulAdd64(a, b, c, rm))
	case "add32":
		return u(Add32(a32, b32, rm))
	case "sub32":
		return u(Sub32(a32, b32, rm))
	case "mul32":
		return u(Mul32(a32, b32, rm))
	case "div32":
		return u(Div32(a32, b32, rm))
	case "sqrt32":
		return u(Sqrt32(a32, rm))
	case "fmadd32":
		return u(MulAdd32(a32, b32, c32, rm))
	case "fmsub32":
		return u(MulSub32(a32, b32, c32, rm))
	case "fnmsub32":
		return u(NegMulSub32(a32, b32, c32, rm))
	case "fnmadd32":
		return u(NegMulAdd32(a32, b32, c32, rm))
	case "f32tof64":
		return d(F32ToF64(a32))
	case "f64tof32":
		return u(F64ToF32(a, rm))
	case "f64toi32":
		r, fl := F64ToI32(a, rm)
		return uint64(uint32(r)), fl, nil
	case "f64tou32":
		return u(F64ToU32(a, rm))
	case "f64toi64":
		r, fl := F64ToI64(a, rm)
		return uint64(r), fl, nil
	case "f64tou64":
		return d(F64ToU64(a, rm))
	case "f32toi32":
		r, fl := F32ToI32(a32, rm)
		return uint64(uint32(r)), fl, nil
	case "f32tou32":
		return u(F32ToU32(a32, rm))
	case "f32toi64":
		r, fl := F32ToI64(a32, rm)
		return uint64(r), fl, nil
	case "f32tou64":
		return d(F32ToU64(a32, rm))
	case "i32tof64":
		return I32ToF64(int32(a32)), 0, nil
	case "u32tof64":
		return U32ToF64(a32), 0, nil
	case "i64tof64":
		return d(I64ToF64(int64(a), rm))
	case "u64tof64":
		return d(U64ToF64(a, rm))
	case "i32tof32":
		return u(I32ToF32(int32(a32), rm))
	case "u32tof32":
		return u(U32ToF32(a32, rm))
	case "i64tof32":
		return u(I64ToF32(int64(a), rm))
	case "u64tof32":
		return u(U64ToF32(a, rm))
	case "eq64":
		return bl(Eq64(a, b))
	case "lt64":
		return bl(Lt64(a, b))
	case "le64":
		return bl(Le64(a, b))
	case "eq32":
		return bl(Eq32(a32, b32))
	case "lt32":
		return bl(Lt32(a32, b32))
	case "le32":
		return bl(Le32(a32, b32))
	case "min64":
		return d(Min64(a, b))
	case "max64":
		return d(Max64(a, b))
	case "min32":
		return u(Min32(a32, b32))
	case "max32":
		return u(Max32(a32, b32))
	case "class64":
		return Class64(a), 0, nil
	case "class32":
		return Class32(a32), 0, nil
	}
	return 0, 0, fmt.Errorf("unknown op %q", op)
}
