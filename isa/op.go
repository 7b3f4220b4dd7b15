package isa

// Op is a dense operation enum; ILLEGAL is the zero value. The compressed
// mnemonics (C_*) only name 16-bit instructions (Inst.COp): a decoded 16-bit
// instruction carries its 32-bit equivalent in Inst.Op.
type Op uint8

// The operations. Names are the spec's mnemonics upper-cased with '.' -> '_'.
const (
	ILLEGAL Op = iota

	// RV64I (with fence.i from Zifencei and the machine-mode mret and wfi)
	LUI
	AUIPC
	JAL
	JALR
	BEQ
	BNE
	BLT
	BGE
	BLTU
	BGEU
	LB
	LH
	LW
	LD
	LBU
	LHU
	LWU
	SB
	SH
	SW
	SD
	ADDI
	SLTI
	SLTIU
	XORI
	ORI
	ANDI
	SLLI
	SRLI
	SRAI
	ADD
	SUB
	SLL
	SLT
	SLTU
	XOR
	SRL
	SRA
	OR
	AND
	ADDIW
	SLLIW
	SRLIW
	SRAIW
	ADDW
	SUBW
	SLLW
	SRLW
	SRAW
	FENCE
	FENCE_I
	ECALL
	EBREAK
	MRET
	SRET
	WFI
	SFENCE_VMA

	// Zicsr
	CSRRW
	CSRRS
	CSRRC
	CSRRWI
	CSRRSI
	CSRRCI

	// M
	MUL
	MULH
	MULHSU
	MULHU
	DIV
	DIVU
	REM
	REMU
	MULW
	DIVW
	DIVUW
	REMW
	REMUW

	// A
	LR_W
	SC_W
	AMOSWAP_W
	AMOADD_W
	AMOXOR_W
	AMOAND_W
	AMOOR_W
	AMOMIN_W
	AMOMAX_W
	AMOMINU_W
	AMOMAXU_W
	LR_D
	SC_D
	AMOSWAP_D
	AMOADD_D
	AMOXOR_D
	AMOAND_D
	AMOOR_D
	AMOMIN_D
	AMOMAX_D
	AMOMINU_D
	AMOMAXU_D

	// F
	FLW
	FSW
	FMADD_S
	FMSUB_S
	FNMSUB_S
	FNMADD_S
	FADD_S
	FSUB_S
	FMUL_S
	FDIV_S
	FSQRT_S
	FSGNJ_S
	FSGNJN_S
	FSGNJX_S
	FMIN_S
	FMAX_S
	FEQ_S
	FLT_S
	FLE_S
	FCLASS_S
	FCVT_W_S
	FCVT_WU_S
	FCVT_L_S
	FCVT_LU_S
	FCVT_S_W
	FCVT_S_WU
	FCVT_S_L
	FCVT_S_LU
	FMV_X_W
	FMV_W_X

	// D
	FLD
	FSD
	FMADD_D
	FMSUB_D
	FNMSUB_D
	FNMADD_D
	FADD_D
	FSUB_D
	FMUL_D
	FDIV_D
	FSQRT_D
	FSGNJ_D
	FSGNJN_D
	FSGNJX_D
	FMIN_D
	FMAX_D
	FCVT_S_D
	FCVT_D_S
	FEQ_D
	FLT_D
	FLE_D
	FCLASS_D
	FCVT_W_D
	FCVT_WU_D
	FCVT_L_D
	FCVT_LU_D
	FCVT_D_W
	FCVT_D_WU
	FCVT_D_L
	FCVT_D_LU
	FMV_X_D
	FMV_D_X

	// Zba
	ADD_UW
	SH1ADD
	SH2ADD
	SH3ADD
	SH1ADD_UW
	SH2ADD_UW
	SH3ADD_UW
	SLLI_UW

	// Zbb
	ANDN
	ORN
	XNOR
	CLZ
	CLZW
	CTZ
	CTZW
	CPOP
	CPOPW
	MAX
	MAXU
	MIN
	MINU
	SEXT_B
	SEXT_H
	ZEXT_H
	ROL
	ROLW
	ROR
	RORW
	RORI
	RORIW
	ORC_B
	REV8

	// Zbs
	BCLR
	BCLRI
	BEXT
	BEXTI
	BINV
	BINVI
	BSET
	BSETI

	// Zbc
	CLMUL
	CLMULH
	CLMULR

	// Zicond
	CZERO_EQZ
	CZERO_NEZ

	// rvsim custom-0 trigger ops for the HPS profiler: hps.on = 0x0000100b, hps.off = 0x0000200b
	HPS_ON
	HPS_OFF
	DISE_RET // rvsim custom-0: a DISE handler returns into its replacement sequence (0x0000300b)

	// RV64C, in the order of the ISA manual's RVC opcode map.
	C_ADDI4SPN
	C_FLD
	C_LW
	C_LD
	C_FSD
	C_SW
	C_SD
	C_NOP
	C_ADDI
	C_ADDIW
	C_LI
	C_ADDI16SP
	C_LUI
	C_SRLI
	C_SRAI
	C_ANDI
	C_SUB
	C_XOR
	C_OR
	C_AND
	C_SUBW
	C_ADDW
	C_J
	C_BEQZ
	C_BNEZ
	C_SLLI
	C_FLDSP
	C_LWSP
	C_LDSP
	C_JR
	C_MV
	C_EBREAK
	C_JALR
	C_ADD
	C_FSDSP
	C_SWSP
	C_SDSP

	NumOps
)

// DISE-private registers ($d0..$d7) appear in instantiated replacement
// instructions as integer register numbers DISEReg0.. (they cannot be
// encoded; only the instruction-stream editor creates such instructions).
const (
	DISEReg0    = 33
	NumDISERegs = 8
)
