/*
 * Handler entry points. call(NAME, args...) in an ACF jumps here with the
 * arguments in dise_mailbox and sp on the handler stack (the core switched
 * it); dise.ret (custom-0 0x0000300b) restores the application's sp and
 * resumes the replacement sequence. The C functions preserve every
 * register they use (-fcall-saved-*), so only ra needs saving here.
 */
	.text
	.macro HANDLER name, cfunc
	.globl \name
	.type \name, @function
	.balign 4
\name:
	addi sp, sp, -16
	sd ra, 8(sp)
	jal ra, \cfunc
	ld ra, 8(sp)
	addi sp, sp, 16
	.4byte 0x0000300b /* dise.ret */
	.size \name, . - \name
	.endm

	HANDLER Branch_handler, branch_handler
	HANDLER HotMethod_handler, hot_method_handler
	HANDLER HotMethod_backedge, hot_method_backedge
	HANDLER CallPair_handler, call_pair_handler
	HANDLER Null_handler, null_handler
	HANDLER Stratified_handler, stratified_handler /* profhw/stratified: stratified.c */

/* For rvsim's tests only: a broken handler that destroys t0, to show that
 * the register-preservation test notices. */
	.globl Clobber_handler
	.type Clobber_handler, @function
	.balign 4
Clobber_handler:
	li t0, -1
	.4byte 0x0000300b /* dise.ret */
	.size Clobber_handler, . - Clobber_handler

/* The handlers' own stack. */
	.bss
	.balign 16
	.globl dise_stack
dise_stack:
	.skip 16384
	.globl dise_stack_top
dise_stack_top:
