	.globl _start
	.text
_start:
	la a0, msg
	li a7, 93
	ecall
	.globl helper
	.type helper,@function
helper:
	ret
	.size helper, .-helper
	.data
	.globl msg
msg:	.asciz "hi"
	.bss
	.globl buf
buf:	.space 8192
