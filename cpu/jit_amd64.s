#include "textflag.h"

// func jitEnter(code uintptr, x *[256]uint64, rtlb, wtlb *[mem.TLBSize]mem.TLBEntry, table *[jitTableSize]jitEntry, budget uint64) (pc, left, reason uint64)
//
// Runs translated code (jit_amd64.go) and returns what it left in RAX,
// R10 and RBX. The translated code uses no stack beyond the return address
// the CALL pushes, and keeps SP and BP; ABI0 lets it clobber the rest.
TEXT ·jitEnter(SB), NOSPLIT, $8-72
	MOVQ code+0(FP), AX
	MOVQ x+8(FP), DI
	MOVQ rtlb+16(FP), R8
	MOVQ wtlb+24(FP), R9
	MOVQ table+32(FP), R11
	MOVQ budget+40(FP), R10
	CALL AX
	MOVQ AX, pc+48(FP)
	MOVQ R10, left+56(FP)
	MOVQ BX, reason+64(FP)
	RET
