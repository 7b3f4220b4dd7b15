/* Zicond's mnemonics for GNU as 2.40 (Debian 12's), which predates them:
   the rv64uzicond tests assemble czero.eqz/czero.nez through .insn, with
   the encodings of the Zicond specification (OP, funct7 0000111, funct3
   101 and 111). Included by bench/riscv-tests.sh before each test. */
.macro czero.eqz rd, rs1, rs2
.insn r 0x33, 5, 7, \rd, \rs1, \rs2
.endm
.macro czero.nez rd, rs1, rs2
.insn r 0x33, 7, 7, \rd, \rs1, \rs2
.endm
