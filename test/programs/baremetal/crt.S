// Start-up for bare-metal C programs (linked with isa/link.ld): a stack,
// a trap vector that ends the run, then main; main's return value is the
// exit code written to tohost.
        .section .text.init, "ax"
        .globl _start
_start:
        la sp, stack_top
        la t0, trap
        csrw mtvec, t0
        call main
        j exit_code
        .balign 4
trap:   // any trap: exit status 0x7ff
        li a0, 0x7ff
exit_code:
        slli a0, a0, 1
        ori a0, a0, 1
        la t0, tohost
1:      sd a0, 0(t0)
        j 1b

        .section .tohost, "aw", @progbits
        .balign 64
        .globl tohost
tohost: .dword 0
        .balign 64
        .globl fromhost
fromhost: .dword 0

        .bss
        .balign 16
        .skip 16384
stack_top:
