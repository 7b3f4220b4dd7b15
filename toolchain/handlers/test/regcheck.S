/*
 * regcheck: does a DISE handler call preserve every application register?
 *
 * A static Linux program with no libc. Each iteration fills x1 and x3-x31
 * (all but sp; s11 is the loop counter) and f0-f31 with distinct patterns,
 * then runs conditional branches (taken, not taken, forward, backward,
 * compressed), a call and a return -- the instructions rvsim's tests
 * replace with handler calls -- and then compares every register, sp and
 * fcsr with what it must be. Exit status: 0 if all survived; r (1..31) if
 * integer register r changed, 40+n if fn changed, 80 if sp changed, 81 if
 * fcsr changed, 82 if the loop count is wrong, 90 if a branch went the
 * wrong way.
 */
	.option norelax
#define ITER 20
#define PAT(r) (0x5a00000000000000 + (r) * 0x0001000100010001)
#define FPAT(r) (0x3ff0000000000000 + (r) * 0x0000001000000001)

	.macro fillf n
	li t0, FPAT(\n)
	fmv.d.x f\n, t0
	.endm
	.macro fillx n
	li x\n, PAT(\n)
	.endm

	.text
	.globl _start
_start:
	la t0, saved_sp
	sd sp, 0(t0)
	li s11, ITER
	fsrmi 1                      /* frm = rtz; fcsr must survive too */
loop:
	.irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	fillf \n
	.endr
	.irp n, 1,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,28,29,30,31
	fillx \n
	.endr
	/* The exercise: registers hold their patterns throughout. */
	beq t0, t1, wrong            /* not taken */
	bne t0, t1, 1f               /* taken, forward */
	j wrong
1:	bnez s0, 2f                  /* c.bnez, taken */
	j wrong
2:	beqz s1, wrong               /* c.beqz, not taken */
	j 4f
3:	j 5f
4:	bltu t1, t2, 3b              /* taken, backward */
	j wrong
5:	jal ra, leaf                 /* a call; leaf returns */
after_call:
	/* Save everything below sp without moving it, then check. */
	.irp n, 1,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	sd x\n, -8*\n(sp)
	.endr
	.irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	fsd f\n, -256-8*\n(sp)
	.endr
	la t0, saved_sp
	ld t0, 0(t0)
	li a0, 80
	bne t0, sp, exit
	/* x1 (ra) holds the call's return address; x27 (s11) the count. */
	la t0, after_call
	ld t1, -8*1(sp)
	li a0, 1
	bne t0, t1, exit
	li t2, 3                     /* integer registers 3..31 */
6:	li t3, 27
	beq t2, t3, 7f
	slli t4, t2, 3
	sub t4, sp, t4
	ld t5, 0(t4)
	li t6, PAT(0)
	li t3, 0x0001000100010001
	mul t3, t3, t2
	add t6, t6, t3
	mv a0, t2
	bne t5, t6, exit
7:	addi t2, t2, 1
	li t3, 32
	blt t2, t3, 6b
	li t2, 0                     /* f0..f31 */
8:	slli t4, t2, 3
	sub t4, sp, t4
	ld t5, -256(t4)
	li t6, FPAT(0)
	li t3, 0x0000001000000001
	mul t3, t3, t2
	add t6, t6, t3
	addi a0, t2, 40
	bne t5, t6, exit
	addi t2, t2, 1
	li t3, 32
	blt t2, t3, 8b
	frcsr t0
	li t1, 1 << 5                /* frm = 1, no flags */
	li a0, 81
	bne t0, t1, exit
	/* the loop count: s11 saved at -8*27(sp) */
	la t0, count
	ld t1, 0(t0)
	addi t1, t1, 1
	sd t1, 0(t0)
	ld t2, -8*27(sp)
	add t2, t2, t1
	li t3, ITER + 1
	li a0, 82
	bne t2, t3, exit
	addi s11, s11, -1
	bnez s11, loop
	li a0, 0
	j exit
wrong:
	li a0, 90
exit:
	li a7, 93                    /* exit */
	ecall

leaf:
	ret

	.data
	.balign 8
saved_sp:	.dword 0
count:		.dword 0
