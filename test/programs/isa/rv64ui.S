// rv64ui: the RV64I base integer instructions. Expected values are worked
// out from the ISA manual (unprivileged volume, chapters "RV32I" and
// "RV64I"); each row says what it exercises when that is not obvious.
#include "macros.h"

        .option norvc
RVTEST_CODE_BEGIN

        // ----- add / addi -----
        TEST_RR_OP(add, 0, 0, 0)
        TEST_RR_OP(add, 2, 1, 1)
        TEST_RR_OP(add, 10, 3, 7)
        TEST_RR_OP(add, 0xffffffffffff8000, 0, 0xffffffffffff8000)
        TEST_RR_OP(add, 0x8000000000000000, 0x7fffffffffffffff, 1)   // wraps, no trap
        TEST_RR_OP(add, 0, 0xffffffffffffffff, 1)
        TEST_RR_OP(add, 0xfffffffffffffffe, 0xffffffffffffffff, 0xffffffffffffffff)
        TEST_RR_OP(add, 0x100000000, 0xffffffff, 1)                  // no 32-bit wrap
        TEST_RR_SRC1_EQ_DEST(add, 24, 13, 11)
        TEST_RR_SRC2_EQ_DEST(add, 25, 14, 11)
        TEST_RR_SRC12_EQ_DEST(add, 26, 13)
        TEST_RR_ZERODEST(add, 16, 30)

        TEST_IMM_OP(addi, 0x7ff, 0, 0x7ff)
        TEST_IMM_OP(addi, 0x7ffff800, 0x80000000, -0x800)
        TEST_IMM_OP(addi, 0, 0xffffffffffffffff, 1)
        TEST_IMM_OP(addi, 0x8000000000000000, 0x7fffffffffffffff, 1)
        TEST_IMM_OP(addi, 0xffffffffffffffff, 0, -1)
        TEST_IMM_SRC1_EQ_DEST(addi, 24, 13, 11)
        TEST_IMM_ZERODEST(addi, 32, 5)

        // ----- sub -----
        TEST_RR_OP(sub, 0, 1, 1)
        TEST_RR_OP(sub, 0xfffffffffffffffc, 3, 7)
        TEST_RR_OP(sub, 0x7fffffffffffffff, 0x8000000000000000, 1)
        TEST_RR_OP(sub, 1, 0, 0xffffffffffffffff)
        TEST_RR_OP(sub, 0xffffffff00000001, 1, 0x100000000)
        TEST_RR_SRC12_EQ_DEST(sub, 0, 13)
        TEST_RR_ZERODEST(sub, 16, 30)

        // ----- shifts: shift amounts use the low 6 bits of rs2 -----
        TEST_RR_OP(sll, 1, 1, 0)
        TEST_RR_OP(sll, 0x8000000000000000, 1, 63)
        TEST_RR_OP(sll, 0xffffffffffffff80, 0xffffffffffffffff, 7)
        TEST_RR_OP(sll, 1, 1, 64)
        TEST_RR_OP(sll, 2, 1, 0xffffffffffffffc1)
        TEST_RR_OP(sll, 0x42424242000, 0x21212121, 13)
        TEST_IMM_OP(slli, 0x84848484000, 0x21212121, 14)
        TEST_IMM_OP(slli, 0x8000000000000000, 1, 63)
        TEST_IMM_OP(slli, 0x100000000, 1, 32)

        TEST_RR_OP(srl, 0x4000000000000000, 0x8000000000000000, 1)
        TEST_RR_OP(srl, 1, 0x8000000000000000, 63)
        TEST_RR_OP(srl, 0xffffffff, 0xffffffffffffffff, 32)
        TEST_RR_OP(srl, 0x0fffffffffffffff, 0xffffffffffffffff, 68)
        TEST_IMM_OP(srli, 1, 0x8000000000000000, 63)
        TEST_IMM_OP(srli, 0x00ffffffffffffff, 0xffffffffffffffff, 8)

        TEST_RR_OP(sra, 0xc000000000000000, 0x8000000000000000, 1)
        TEST_RR_OP(sra, 0xffffffffffffffff, 0x8000000000000000, 63)
        TEST_RR_OP(sra, 1, 0x7fffffffffffffff, 62)
        TEST_RR_OP(sra, 0x40c0c0c0, 0x81818181, 1)                 // positive 64-bit value
        TEST_RR_OP(sra, 0xf800000000000000, 0x8000000000000000, 0xffffffffffffffc4) // 68&63 = 4
        TEST_IMM_OP(srai, 0xffffffffffffffff, 0x8000000000000000, 63)
        TEST_IMM_OP(srai, 0xffffffffff000000, 0xffffffff80000000, 7)
        TEST_IMM_OP(srai, 0x00ffffff, 0x7fffffff, 7)

        // ----- compares -----
        TEST_RR_OP(slt, 1, 0xffffffffffffffff, 1)
        TEST_RR_OP(slt, 0, 1, 0xffffffffffffffff)
        TEST_RR_OP(slt, 1, 0x8000000000000000, 0x7fffffffffffffff)
        TEST_RR_OP(slt, 0, 5, 5)
        TEST_RR_OP(sltu, 0, 0xffffffffffffffff, 1)
        TEST_RR_OP(sltu, 1, 1, 0xffffffffffffffff)
        TEST_RR_OP(sltu, 0, 0, 0)
        TEST_RR_OP(sltu, 1, 0x7fffffffffffffff, 0x8000000000000000)
        TEST_IMM_OP(slti, 1, 0xffffffffffffffff, 0)
        TEST_IMM_OP(slti, 0, 0, -1)
        TEST_IMM_OP(slti, 1, 0x8000000000000000, -0x800)
        TEST_IMM_OP(sltiu, 1, 5, -1)                               // imm sign-extends, compares unsigned
        TEST_IMM_OP(sltiu, 1, 0, 1)                                // seqz
        TEST_IMM_OP(sltiu, 0, 5, 1)
        TEST_IMM_OP(sltiu, 0, 0xffffffffffffffff, -1)

        // ----- logic -----
        TEST_RR_OP(xor, 0xf00ff00f, 0xff00ff00, 0x0f0f0f0f)
        TEST_RR_OP(or, 0xff0fff0f, 0xff00ff00, 0x0f0f0f0f)
        TEST_RR_OP(and, 0x0f000f00, 0xff00ff00, 0x0f0f0f0f)
        TEST_RR_OP(and, 0x0f000f000f000f00, 0xff00ff00ff00ff00, 0x0ff00ff00ff00ff0)
        TEST_RR_OP(xor, 0xffffffffffffffff, 0xaaaaaaaaaaaaaaaa, 0x5555555555555555)
        TEST_IMM_OP(xori, 0xffffffffff00fff0, 0x00ff00ff, -0xf1)
        TEST_IMM_OP(ori, 0xff00ff0f, 0xff00ff00, 0x70f)
        TEST_IMM_OP(ori, 0xffffffffffffff0f, 0xff00ff00, -0xf1)
        TEST_IMM_OP(andi, 0x700, 0xff00ff00, 0x70f)
        TEST_IMM_OP(andi, 0xff00ff00, 0xff00ff00, -0xf1)
        TEST_RR_ZERODEST(or, 1, 2)
        TEST_IMM_ZERODEST(xori, 1, 2)

        // ----- W forms: operate on the low 32 bits, sign-extend the result -----
        TEST_RR_OP(addw, 0xffffffff80000000, 0x7fffffff, 1)
        TEST_RR_OP(addw, 0, 0xffffffff, 1)
        TEST_RR_OP(addw, 5, 0x100000000, 5)
        TEST_RR_OP(addw, 0xfffffffffffffffe, 0xffffffffffffffff, 0xffffffffffffffff)
        TEST_IMM_OP(addiw, 0xffffffff80000000, 0x7fffffff, 1)
        TEST_IMM_OP(addiw, 0xffffffffffffffff, 0xffffffff, 0)      // sext.w
        TEST_IMM_OP(addiw, 0x23456789, 0x123456789, 0)
        TEST_IMM_OP(addiw, 0x7ffff7ff, 0x7fffffff, -0x800)
        TEST_RR_OP(subw, 0xffffffffffffffff, 0, 1)
        TEST_RR_OP(subw, 0x7fffffff, 0x80000000, 1)
        TEST_RR_OP(subw, 0x7fffffff, 0xffffffff80000000, 1)
        TEST_RR_OP(sllw, 0xffffffff80000000, 1, 31)
        TEST_RR_OP(sllw, 1, 1, 32)                                  // low 5 bits of rs2
        TEST_RR_OP(sllw, 0xfffffffffffffff0, 0xffffffff, 4)
        TEST_IMM_OP(slliw, 0x23456780, 0x12345678, 4)
        TEST_IMM_OP(slliw, 0xffffffff80000000, 0xffffffff00000001, 31)
        TEST_RR_OP(srlw, 0x40000000, 0x80000000, 1)
        TEST_RR_OP(srlw, 0xffffffff80000000, 0xffffffff80000000, 0)
        TEST_RR_OP(srlw, 1, 0xffffffff, 31)
        TEST_RR_OP(srlw, 0, 0x0000000f00000000, 4)
        TEST_RR_OP(srlw, 0x7fffffff, 0xffffffffffffffff, 33)        // 33&31 = 1
        TEST_IMM_OP(srliw, 0xffffffffffffffff, 0xffffffffffffffff, 0)
        TEST_IMM_OP(srliw, 0x00ffffff, 0xffffffffffffffff, 8)
        TEST_RR_OP(sraw, 0xffffffffc0000000, 0x80000000, 1)
        TEST_RR_OP(sraw, 0, 0x7fffffff, 31)
        TEST_RR_OP(sraw, 0xffffffffc0000000, 0x80000000, 33)
        TEST_RR_OP(sraw, 0x3fffffff, 0x800000007fffffff, 1)
        TEST_IMM_OP(sraiw, 0xffffffffffffffff, 0x80000000, 31)
        TEST_IMM_OP(sraiw, 0, 0x100000000, 0)
        TEST_IMM_OP(sraiw, 0xffffffffffff8000, 0x80000000, 16)
        TEST_RR_ZERODEST(addw, 0x7fffffff, 1)

        // ----- lui / auipc -----
        TEST_CASE(x14, 0xffffffff80000000, lui x14, 0x80000)
        TEST_CASE(x14, 0x7ffff000, lui x14, 0x7ffff)
        TEST_CASE(x14, 0xfffffffffffff000, lui x14, 0xfffff)
        TEST_CASE(x14, 0xffffffffffffe800, lui x14, 0xfffff; addi x14, x14, 0x7ff; addi x14, x14, -0x7ff; addi x14, x14, -0x800)
        TEST_CASE(x0, 0, lui x0, 0x12345)
        TEST_CASE(x14, 0x1000, 1: auipc x14, 1; lla x7, 1b; sub x14, x14, x7)
        TEST_CASE(x14, -0x1000, 1: auipc x14, 0xfffff; lla x7, 1b; sub x14, x14, x7)
        TEST_CASE(x14, 0, 1: auipc x14, 0; lla x7, 1b; sub x14, x14, x7)
        TEST_CASE(x0, 0, auipc x0, 0x1)

        // ----- jal / jalr -----
        TEST_CASE(x1, 0, lla x7, 2f; jal x1, 3f; 2: j fail; 3: sub x1, x1, x7)   // link = pc+4
        TEST_CASE(x1, 0, j 4f; 3: j 5f; 4: lla x7, 2f; jal x1, 3b; 2: j fail; 5: sub x1, x1, x7)  // backward
        TEST_CASE(x0, 0, jal x0, 2f; j fail; 2:)
        TEST_CASE(x1, 0, lla x2, 3f; lla x7, 2f; jalr x1, 0(x2); 2: j fail; 3: sub x1, x1, x7)
        TEST_CASE(x1, 0, lla x2, 3f + 8; lla x7, 2f; jalr x1, -8(x2); 2: j fail; 3: sub x1, x1, x7)  // offset
        TEST_CASE(x1, 0, lla x2, 3f + 1; lla x7, 2f; jalr x1, 0(x2); 2: j fail; 3: sub x1, x1, x7)   // bit 0 cleared
        TEST_CASE(x1, 0, lla x1, 3f; lla x7, 2f; jalr x1, 0(x1); 2: j fail; 3: sub x1, x1, x7)       // rd == rs1: target from the old value
        TEST_CASE(x0, 0, lla x2, 3f; jalr x0, 0(x2); j fail; 3:)

        // ----- branches, both directions -----
        TEST_BR2_TAKEN(beq, 0, 0)
        TEST_BR2_TAKEN(beq, 0xffffffffffffffff, 0xffffffffffffffff)
        TEST_BR2_NOTTAKEN(beq, 0, 1)
        TEST_BR2_NOTTAKEN(beq, 0x100000000, 0)                      // all 64 bits compared
        TEST_BR2_TAKEN(bne, 0, 1)
        TEST_BR2_TAKEN(bne, 0x100000000, 0)
        TEST_BR2_NOTTAKEN(bne, 7, 7)
        TEST_BR2_TAKEN(blt, 0xffffffffffffffff, 1)
        TEST_BR2_TAKEN(blt, 0x8000000000000000, 0)
        TEST_BR2_NOTTAKEN(blt, 1, 0xffffffffffffffff)
        TEST_BR2_NOTTAKEN(blt, 1, 1)
        TEST_BR2_TAKEN(bge, 1, 1)
        TEST_BR2_TAKEN(bge, 1, 0xffffffffffffffff)
        TEST_BR2_NOTTAKEN(bge, 0xffffffffffffffff, 1)
        TEST_BR2_NOTTAKEN(bge, 0x8000000000000000, 0x7fffffffffffffff)
        TEST_BR2_TAKEN(bltu, 1, 0xffffffffffffffff)
        TEST_BR2_TAKEN(bltu, 0x7fffffffffffffff, 0x8000000000000000)
        TEST_BR2_NOTTAKEN(bltu, 0xffffffffffffffff, 1)
        TEST_BR2_NOTTAKEN(bltu, 0, 0)
        TEST_BR2_TAKEN(bgeu, 0xffffffffffffffff, 1)
        TEST_BR2_TAKEN(bgeu, 0, 0)
        TEST_BR2_NOTTAKEN(bgeu, 0, 1)
        TEST_BR2_NOTTAKEN(bgeu, 0x7fffffffffffffff, 0x8000000000000000)

        // ----- loads: every width, sign and zero extension, negative offsets -----
        // ldat holds the bytes 11 22 33 44 55 66 77 88 ef cd ab 89 67 45 23 01.
        TEST_LD_OP(lb, 0x11, 0, ldat)
        TEST_LD_OP(lb, 0xffffffffffffff88, 7, ldat)
        TEST_LD_OP(lb, 0xffffffffffffff88, -1, ldat + 8)
        TEST_LD_OP(lbu, 0x88, 7, ldat)
        TEST_LD_OP(lbu, 0x11, -8, ldat + 8)
        TEST_LD_OP(lh, 0x2211, 0, ldat)
        TEST_LD_OP(lh, 0xffffffffffff8877, 6, ldat)
        TEST_LD_OP(lhu, 0x8877, 6, ldat)
        TEST_LD_OP(lhu, 0x8877, -2, ldat + 8)
        TEST_LD_OP(lw, 0x44332211, 0, ldat)
        TEST_LD_OP(lw, 0xffffffff88776655, 4, ldat)
        TEST_LD_OP(lw, 0xffffffff89abcdef, 8, ldat)
        TEST_LD_OP(lwu, 0x88776655, 4, ldat)
        TEST_LD_OP(lwu, 0x01234567, -4, ldat + 16)
        TEST_LD_OP(ld, 0x8877665544332211, 0, ldat)
        TEST_LD_OP(ld, 0x0123456789abcdef, 8, ldat)
        TEST_LD_OP(ld, 0x8877665544332211, -0x800, ldat + 0x800)
        TEST_LD_OP(ld, 0x0123456789abcdef, 0x7ff, ldat - 0x7f7)
        // misaligned loads (this machine performs them)
        TEST_LD_OP(lh, 0x3322, 1, ldat)
        TEST_LD_OP(lh, 0xffffffffffffef88, 7, ldat)
        TEST_LD_OP(lhu, 0xef88, 7, ldat)
        TEST_LD_OP(lw, 0x77665544, 3, ldat)
        TEST_LD_OP(lw, 0xffffffffef887766, 5, ldat)
        TEST_LD_OP(lwu, 0xef887766, 5, ldat)
        TEST_LD_OP(ld, 0xef88776655443322, 1, ldat)
        TEST_LD_OP(ld, 0x0000000123456789, 3, ldat + 8)   // runs into the zero bytes after ldat2
        TEST_CASE(x0, 0, la x1, ldat; lw x0, 0(x1))       // load to x0 is discarded

        // ----- stores: every width, neighbours untouched -----
        TEST_ST_OP(lb, sb, 0xffffffffffffffaa, 0, sdat)
        TEST_ST_OP(lbu, sb, 0xaa, 1, sdat)
        TEST_ST_OP(lh, sh, 0xffffffffffffa00a, 2, sdat)
        TEST_ST_OP(lhu, sh, 0xa00a, 4, sdat)
        TEST_ST_OP(lw, sw, 0xffffffffaa00aa00, 8, sdat)
        TEST_ST_OP(lwu, sw, 0xaa00aa00, 12, sdat)
        TEST_ST_OP(ld, sd, 0xaabbccdd11223344, 16, sdat)
        TEST_ST_OP(ld, sd, 0x8000000000000001, -8, sdat + 32)
        TEST_CASE(x14, 0x00000000beefaa00,
                  la x1, sdat + 32; sd x0, 0(x1);
                  li x2, 0x12345678aa; sb x2, 1(x1);      // only the low byte
                  li x2, 0x1234beef; sh x2, 2(x1);        // only the low half
                  ld x14, 0(x1))
        TEST_CASE(x14, 0x12345678beefaa00,
                  la x1, sdat + 32; li x2, 0xffffffff12345678; sw x2, 4(x1); ld x14, 0(x1))
        // misaligned stores
        TEST_CASE(x14, 0x12deadbeefefaa00,
                  la x1, sdat + 32; li x2, 0xdeadbeef; sw x2, 3(x1); ld x14, 0(x1))
        TEST_CASE(x14, 0x0102030405060708,
                  la x1, sdat + 40; li x2, 0x0102030405060708; sd x2, 3(x1); ld x14, 3(x1))
        TEST_CASE(x14, 0x0708,
                  la x1, sdat + 40; lhu x14, 3(x1))
        TEST_CASE(x14, 0xffffffffffffbeef,
                  la x1, sdat + 40; li x2, 0xbeef; sh x2, 7(x1); lh x14, 7(x1))
        // accesses that cross a page boundary
        TEST_CASE(x14, 0x0102030405060708,
                  la x1, pagebuf + 4096 - 3; li x2, 0x0102030405060708; sd x2, 0(x1); ld x14, 0(x1))
        TEST_CASE(x14, 0x05, la x1, pagebuf + 4096; lbu x14, 0(x1))
        TEST_CASE(x14, 0x06, la x1, pagebuf + 4096; lbu x14, -1(x1))
        TEST_CASE(x14, 0x05060708, la x1, pagebuf + 4096 - 3; lw x14, 0(x1))

        // ----- fence, nop, x0 stays zero -----
        TEST_CASE(x0, 0, fence; fence rw, rw; nop; addi x0, x0, 5)
        TEST_CASE(x14, 3, li x14, 3; .word 0x0100000f; .word 0x8330000f) // pause, fence.tso
        TEST_CASE(x14, 3, li x14, 3; slti x0, x14, 1; lui x0, 5; add x0, x14, x14) // HINTs
        TEST_CASE(x14, 0, li x14, 5; mv x14, x0)

        j pass

RVTEST_CODE_END

RVTEST_DATA_BEGIN
        .balign 16
ldat:   .byte 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88
ldat2:  .dword 0x0123456789abcdef
        .balign 16
sdat:   .skip 64
        .balign 4096
pagebuf: .skip 8192
RVTEST_DATA_END
