/*
 * What the handler runtime needs besides its C code: the handlers' own
 * stack, and a deliberately broken handler for rvsim's tests. The entry
 * points of the C handlers are made by HPS_HANDLER (handlers.h): call(NAME,
 * args...) in an ACF jumps there with the arguments in dise_mailbox and sp
 * on this stack (the core switched it); dise.ret (custom-0 0x0000300b)
 * restores the application's sp and resumes the replacement sequence.
 */

/* For rvsim's tests only: a broken handler that destroys t0, to show that
 * the register-preservation test notices. */
	.text
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
