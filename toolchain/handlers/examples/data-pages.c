/*
 * An example of a user-written profile handler (docs/HANDLERS.md): which
 * pages of data memory the program reads and writes, how often and how
 * many bytes. It shows what the generic Count_handler cannot do: compute
 * the key (the effective address's page) and the value (the access size,
 * decoded from the instruction) in the handler.
 *
 *   rvsim handlers build toolchain/handlers/examples/data-pages.c -o data-pages.elf
 *   rvsim run --handlers data-pages.elf --acf toolchain/handlers/examples/data-pages.acf \
 *             --profile-out pages.json PROGRAM ARGS...
 *
 * Access_handler(base, offset, insn, store): mailbox = (the value of the
 * base register, the immediate offset, the encoding, 0 for a load or 1 for
 * a store).
 */
#include "handlers.h"

/* The profile: per (page, store) the accesses and the bytes they moved,
 * written as {"count", "page": "0x…", "store": 0 or 1, "bytes"}. */
HPS_PROFILE(data_pages, 14, "data-pages", "Access_handler", "page", "store", "bytes", HPS_FMT(HPS_HEX, HPS_DEC));

/* access_size decodes the bytes a load or store moves from its encoding:
 * funct3 of a 32-bit one (lb/sb 0 … ld/sd 3, lbu 4 … lwu 6, flw/fsw 2,
 * fld/fsd 3); for a compressed one (the low half), funct3 2 and 6 are
 * c.lw, c.sw, c.lwsp, c.swsp and everything else on RV64 moves 8 bytes. */
static uint64_t access_size(uint64_t insn)
{
	if ((insn & 3) == 3)
		return 1u << ((insn >> 12) & 3);
	switch ((insn >> 13) & 7) {
	case 2:
	case 6:
		return 4;
	}
	return 8;
}

void access_handler(void)
{
	uint64_t addr = dise_mailbox[0] + dise_mailbox[1];
	hps_add(&data_pages, 0, addr & ~0xfffull, dise_mailbox[3], access_size(dise_mailbox[2]));
}
HPS_HANDLER(Access_handler, access_handler, 4, 4, 0);
