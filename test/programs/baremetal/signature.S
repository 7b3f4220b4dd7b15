# A signature as riscv-arch-test programs leave one: results stored
# between begin_signature and end_signature, then a halt through tohost.
# `rvsim run --signature FILE` writes the region out (TestSignature
# compares it with testdata/signature.*).
	.section .text.init
	.globl _start
_start:
	la	a0, begin_signature
	li	t0, 0x0123456789abcdef
	sd	t0, 0(a0)
	li	t1, -1
	sw	t1, 8(a0)
	li	t2, 0x5a
	sb	t2, 13(a0)	# one byte inside the fourth word
	li	t0, 1		# exit 0
	la	t1, tohost
1:	sd	t0, 0(t1)
	j	1b

	.section .tohost, "aw", @progbits
	.align	6
	.globl	tohost
tohost:	.dword 0
	.align	6
	.globl	fromhost
fromhost: .dword 0

	.data
	.align	4
	.globl	begin_signature
begin_signature:
	.fill	6, 4, 0xdeadbeef
	.globl	end_signature
end_signature:
	.word	0x11111111	# past the end: not written out
