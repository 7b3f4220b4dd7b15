// The CLINT's timer and software interrupts on the bare-metal hart (the
// SiFive layout at 0x2000000: msip, mtimecmp, mtime). main returns 0 when
// every check passes, else the number of the check that failed (the exit
// code through tohost).
#include <stdint.h>

#define CLINT 0x2000000UL
#define MSIP (*(volatile uint32_t *)(CLINT))
#define MTIMECMP (*(volatile uint64_t *)(CLINT + 0x4000))
#define MTIME (*(volatile uint64_t *)(CLINT + 0xbff8))

#define MIE_MSIE (1UL << 3)
#define MIE_MTIE (1UL << 7)
#define MSTATUS_MIE (1UL << 3)
#define IRQ (1UL << 63)

static volatile uint64_t timer_hits, soft_hits, other_traps;
static volatile uint64_t timer_at, timer_cmp;

void __attribute__((interrupt("machine"), aligned(4))) handler(void) {
	uint64_t cause;
	asm volatile("csrr %0, mcause" : "=r"(cause));
	if (cause == (IRQ | 7)) {
		timer_at = MTIME;
		timer_cmp = MTIMECMP;
		timer_hits++;
		MTIMECMP = ~0UL; // disarmed: MTIP clears
	} else if (cause == (IRQ | 3)) {
		soft_hits++;
		MSIP = 0;
	} else {
		other_traps++;
		uint64_t epc;
		asm volatile("csrr %0, mepc" : "=r"(epc));
		asm volatile("csrw mepc, %0" ::"r"(epc + 4)); // skip it
	}
}

static uint64_t rdtime(void) {
	uint64_t t;
	asm volatile("rdtime %0" : "=r"(t));
	return t;
}

static uint64_t mip(void) {
	uint64_t v;
	asm volatile("csrr %0, mip" : "=r"(v));
	return v;
}

int main(void) {
	// 1: mtime counts as the time CSR does (reads a few instructions apart).
	uint64_t a = MTIME, b = rdtime(), c = MTIME;
	if (!(a <= b && b <= c && c - a <= 1))
		return 1;
	// 2: mtime advances (one tick per 100 instructions).
	for (volatile int i = 0; i < 1000; i++)
		;
	if (MTIME <= c)
		return 2;
	// 3: nothing pending at reset (mtimecmp is all ones).
	if (mip() & (MIE_MTIE | MIE_MSIE))
		return 3;

	asm volatile("csrw mtvec, %0" ::"r"(handler));
	asm volatile("csrs mie, %0" ::"r"(MIE_MTIE | MIE_MSIE));
	asm volatile("csrs mstatus, %0" ::"r"(MSTATUS_MIE));

	// 4: the timer interrupt arrives once mtime reaches mtimecmp, while the
	// program waits in wfi, and the handler sees mtime at mtimecmp (or one
	// tick past: its first instructions run in the same tick or the next).
	uint64_t cmp = MTIME + 50;
	MTIMECMP = cmp;
	while (timer_hits == 0)
		asm volatile("wfi");
	if (timer_hits != 1 || timer_cmp != cmp || timer_at < cmp || timer_at > cmp + 1)
		return 4;
	// 5: disarmed, it does not come back.
	for (volatile int i = 0; i < 2000; i++)
		;
	if (timer_hits != 1 || (mip() & MIE_MTIE))
		return 5;

	// 6: a software interrupt is taken at the store to msip (whose bits
	// but bit 0 read 0).
	MSIP = 0xffffffff;
	if (soft_hits != 1 || MSIP != 0 || (mip() & MIE_MSIE))
		return 6;

	// 7: with MIE clear a due timer is pending (mip.MTIP) but not taken;
	// setting MIE takes it at once.
	asm volatile("csrc mstatus, %0" ::"r"(MSTATUS_MIE));
	MTIMECMP = MTIME;
	for (volatile int i = 0; i < 300; i++)
		;
	if (timer_hits != 1 || !(mip() & MIE_MTIE))
		return 7;
	asm volatile("csrs mstatus, %0" ::"r"(MSTATUS_MIE));
	if (timer_hits != 2)
		return 8;

	// 9: a program may set mtime; the count goes on from there, in the
	// time CSR too (its shadow).
	MTIME = 1000000;
	uint64_t t = MTIME, r = rdtime();
	if (t < 1000000 || t > 1000001 || r < t || r > t + 1)
		return 9;
	// 10: and mtimecmp compares against the set count.
	MTIMECMP = 1000000 + 20;
	while (timer_hits == 2)
		asm volatile("wfi");
	if (timer_at < 1000020 || timer_at > 1000021)
		return 10;
	// 11: a 32-bit write of mtime's high half keeps the low half, which
	// went on counting since it was last read (about 40 ticks here, more
	// under a DISE production that lengthens the loop: the bound is the
	// count read just before the write).
	volatile uint32_t *half = (volatile uint32_t *)(CLINT + 0xbff8);
	uint64_t lo = MTIME & 0xffffffff;
	for (volatile int i = 0; i < 1000; i++)
		;
	uint64_t mid = MTIME & 0xffffffff;
	half[1] = 3;
	t = MTIME;
	if (t >> 32 != 3 || mid < lo + 20 || (t & 0xffffffff) < mid || (t & 0xffffffff) > mid + 2)
		return 11;
	return other_traps ? 12 : 0;
}
