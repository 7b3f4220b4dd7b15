#include "textflag.h"

// func prefetch(p unsafe.Pointer, n uintptr)
//
// Asks the host to bring the n bytes from p on into its caches
// (PREFETCHT0 per 64-byte line), without waiting for them: see
// prefetchStaged.
TEXT ·prefetch(SB), NOSPLIT, $0-16
	MOVQ p+0(FP), AX
	MOVQ n+8(FP), CX
	ADDQ AX, CX
loop:
	CMPQ AX, CX
	JAE done
	PREFETCHT0 (AX)
	ADDQ $64, AX
	JMP loop
done:
	RET
