package isa

// Class groups operations by the functional unit and control-flow role the
// timing model and the profiling hardware care about.
type Class uint8

// The classes. Call and Return are never a table default: Decode refines
// Jal/Jalr into them from the link-register hint convention.
const (
	IntALU Class = iota
	Mul
	Div
	Load
	Store
	AMO
	Branch
	Jal
	Jalr
	Call
	Return
	FPAdd
	FPMul
	FPDiv
	FPConv
	CSR
	System
	Fence
	NumClasses
)

var classNames = [NumClasses]string{
	IntALU: "int-alu", Mul: "mul", Div: "div", Load: "load", Store: "store", AMO: "amo",
	Branch: "branch", Jal: "jal", Jalr: "jalr", Call: "call", Return: "return",
	FPAdd: "fp-add", FPMul: "fp-mul", FPDiv: "fp-div/sqrt", FPConv: "fp-conv",
	CSR: "csr", System: "system", Fence: "fence",
}

func (c Class) String() string {
	if c < NumClasses {
		return classNames[c]
	}
	return "class(" + itoa(int64(c)) + ")"
}

// ClassByName returns the class printed as name by Class.String.
func ClassByName(name string) (Class, bool) {
	for c, n := range classNames {
		if n == name {
			return Class(c), true
		}
	}
	return 0, false
}

// RegKind says whether an operand exists and which register file it names.
type RegKind uint8

// The register kinds.
const (
	NoReg RegKind = iota
	XReg
	FReg
)

// Format is the operand layout of a 32-bit operation: which fields Decode
// fills, which Encode reads and how String prints them.
type Format uint8

// The formats. Imm is the full value for I/S/B/U/J immediates.
const (
	FmtNone   Format = iota // no operands, the whole word is fixed (ecall, hps.on)
	FmtR                    // rd, rs1, rs2 [,rm]
	FmtR2                   // rd, rs1 [,rm]; rs2 is part of the opcode
	FmtR4                   // rd, rs1, rs2, rs3, rm
	FmtI                    // rd, rs1, imm12
	FmtShift                // rd, rs1, shamt (6 bits)
	FmtShiftW               // rd, rs1, shamt (5 bits)
	FmtLoad                 // rd, imm12(rs1)
	FmtStore                // rs2, imm12(rs1)
	FmtBranch               // rs1, rs2, offset (13-bit, even)
	FmtU                    // rd, imm (value<<12, sign-extended from bit 31)
	FmtJ                    // rd, offset (21-bit, even)
	FmtJalr                 // rd, imm12(rs1)
	FmtAMO                  // rd, rs2, (rs1), aq/rl
	FmtLR                   // rd, (rs1), aq/rl
	FmtCSR                  // rd, csr, rs1
	FmtCSRI                 // rd, csr, zimm (Imm)
	FmtFence                // pred, succ (Rm), fm (Imm>>8); rd and rs1 are kept but ignored
	FmtFenceI               // no operands; imm, rd and rs1 are kept but ignored
	FmtSfence               // [rs1[, rs2]] (sfence.vma: an address and an ASID, each optional)
	FmtC                    // a 16-bit op: operands are those of its expansion
)

// OpInfo is one row of the op table.
type OpInfo struct {
	Name        string // mnemonic as printed: "addi", "fadd.d", "c.addi16sp"
	Ext         string // extension: I M A F D C Zicsr Zifencei Zba Zbb Zbs Priv Xhps
	Mask, Match uint32 // raw&Mask == Match selects the row (16-bit ops use the low half)
	Format      Format
	Class       Class   // default class (Call/Return are refined per Inst)
	Rd, Rs1     RegKind // which operands exist and their register file
	Rs2, Rs3    RegKind
	MemSize     uint8 // bytes accessed by loads, stores, LR/SC and AMOs; 0 otherwise
	Unsigned    bool  // loads that zero-extend (lbu, lhu, lwu)
	RM          bool  // has a rounding-mode field (Inst.Rm)
	ExactRM     bool  // RM op whose result never rounds: the assembler default rm is 0, not dyn
	AqRl        bool  // has aq/rl bits (Inst.Rm = aq<<1|rl)
	Expand      Op    // 16-bit ops: the 32-bit operation they expand to
}

// Info returns the op's table row. Out-of-range ops get ILLEGAL's row.
func (op Op) Info() *OpInfo {
	if op >= NumOps {
		op = ILLEGAL
	}
	return &opTable[op]
}

// String returns the mnemonic ("addi", "fadd.d", "c.addi16sp", "hps.on").
func (op Op) String() string {
	if op >= NumOps {
		return "op(" + itoa(int64(op)) + ")"
	}
	return opTable[op].Name
}

// Compressed reports whether op names a 16-bit instruction (C_*).
func (op Op) Compressed() bool { return op >= FirstCompressed && op < NumOps }

// FirstCompressed is the first RV64C op: the compressed ops are the table's
// last rows. (An Inst's Op is never one: a 16-bit instruction decodes to
// its 32-bit equivalent and keeps its own op in COp.)
const FirstCompressed = C_ADDI4SPN

// OpByName returns the op whose mnemonic is name ("fadd.d", "c.lw").
// Ordering suffixes (.aq, .rl) are operands, not part of any op's name.
func OpByName(name string) (Op, bool) {
	op, ok := opByName[name]
	return op, ok
}

var opByName = func() map[string]Op {
	m := make(map[string]Op, NumOps)
	for op := Op(1); op < NumOps; op++ {
		m[opTable[op].Name] = op
	}
	return m
}()

// opTable is the single source of truth for every operation.
var opTable = [NumOps]OpInfo{
	ILLEGAL: {Name: "illegal"},

	LUI:        {Name: "lui", Ext: "I", Format: FmtU, Class: IntALU, Rd: XReg, Mask: 0x0000007f, Match: 0x00000037},
	AUIPC:      {Name: "auipc", Ext: "I", Format: FmtU, Class: IntALU, Rd: XReg, Mask: 0x0000007f, Match: 0x00000017},
	JAL:        {Name: "jal", Ext: "I", Format: FmtJ, Class: Jal, Rd: XReg, Mask: 0x0000007f, Match: 0x0000006f},
	JALR:       {Name: "jalr", Ext: "I", Format: FmtJalr, Class: Jalr, Rd: XReg, Rs1: XReg, Mask: 0x0000707f, Match: 0x00000067},
	BEQ:        {Name: "beq", Ext: "I", Format: FmtBranch, Class: Branch, Rs1: XReg, Rs2: XReg, Mask: 0x0000707f, Match: 0x00000063},
	BNE:        {Name: "bne", Ext: "I", Format: FmtBranch, Class: Branch, Rs1: XReg, Rs2: XReg, Mask: 0x0000707f, Match: 0x00001063},
	BLT:        {Name: "blt", Ext: "I", Format: FmtBranch, Class: Branch, Rs1: XReg, Rs2: XReg, Mask: 0x0000707f, Match: 0x00004063},
	BGE:        {Name: "bge", Ext: "I", Format: FmtBranch, Class: Branch, Rs1: XReg, Rs2: XReg, Mask: 0x0000707f, Match: 0x00005063},
	BLTU:       {Name: "bltu", Ext: "I", Format: FmtBranch, Class: Branch, Rs1: XReg, Rs2: XReg, Mask: 0x0000707f, Match: 0x00006063},
	BGEU:       {Name: "bgeu", Ext: "I", Format: FmtBranch, Class: Branch, Rs1: XReg, Rs2: XReg, Mask: 0x0000707f, Match: 0x00007063},
	LB:         {Name: "lb", Ext: "I", Format: FmtLoad, Class: Load, Rd: XReg, Rs1: XReg, MemSize: 1, Mask: 0x0000707f, Match: 0x00000003},
	LH:         {Name: "lh", Ext: "I", Format: FmtLoad, Class: Load, Rd: XReg, Rs1: XReg, MemSize: 2, Mask: 0x0000707f, Match: 0x00001003},
	LW:         {Name: "lw", Ext: "I", Format: FmtLoad, Class: Load, Rd: XReg, Rs1: XReg, MemSize: 4, Mask: 0x0000707f, Match: 0x00002003},
	LD:         {Name: "ld", Ext: "I", Format: FmtLoad, Class: Load, Rd: XReg, Rs1: XReg, MemSize: 8, Mask: 0x0000707f, Match: 0x00003003},
	LBU:        {Name: "lbu", Ext: "I", Format: FmtLoad, Class: Load, Rd: XReg, Rs1: XReg, MemSize: 1, Unsigned: true, Mask: 0x0000707f, Match: 0x00004003},
	LHU:        {Name: "lhu", Ext: "I", Format: FmtLoad, Class: Load, Rd: XReg, Rs1: XReg, MemSize: 2, Unsigned: true, Mask: 0x0000707f, Match: 0x00005003},
	LWU:        {Name: "lwu", Ext: "I", Format: FmtLoad, Class: Load, Rd: XReg, Rs1: XReg, MemSize: 4, Unsigned: true, Mask: 0x0000707f, Match: 0x00006003},
	SB:         {Name: "sb", Ext: "I", Format: FmtStore, Class: Store, Rs1: XReg, Rs2: XReg, MemSize: 1, Mask: 0x0000707f, Match: 0x00000023},
	SH:         {Name: "sh", Ext: "I", Format: FmtStore, Class: Store, Rs1: XReg, Rs2: XReg, MemSize: 2, Mask: 0x0000707f, Match: 0x00001023},
	SW:         {Name: "sw", Ext: "I", Format: FmtStore, Class: Store, Rs1: XReg, Rs2: XReg, MemSize: 4, Mask: 0x0000707f, Match: 0x00002023},
	SD:         {Name: "sd", Ext: "I", Format: FmtStore, Class: Store, Rs1: XReg, Rs2: XReg, MemSize: 8, Mask: 0x0000707f, Match: 0x00003023},
	ADDI:       {Name: "addi", Ext: "I", Format: FmtI, Class: IntALU, Rd: XReg, Rs1: XReg, Mask: 0x0000707f, Match: 0x00000013},
	SLTI:       {Name: "slti", Ext: "I", Format: FmtI, Class: IntALU, Rd: XReg, Rs1: XReg, Mask: 0x0000707f, Match: 0x00002013},
	SLTIU:      {Name: "sltiu", Ext: "I", Format: FmtI, Class: IntALU, Rd: XReg, Rs1: XReg, Mask: 0x0000707f, Match: 0x00003013},
	XORI:       {Name: "xori", Ext: "I", Format: FmtI, Class: IntALU, Rd: XReg, Rs1: XReg, Mask: 0x0000707f, Match: 0x00004013},
	ORI:        {Name: "ori", Ext: "I", Format: FmtI, Class: IntALU, Rd: XReg, Rs1: XReg, Mask: 0x0000707f, Match: 0x00006013},
	ANDI:       {Name: "andi", Ext: "I", Format: FmtI, Class: IntALU, Rd: XReg, Rs1: XReg, Mask: 0x0000707f, Match: 0x00007013},
	SLLI:       {Name: "slli", Ext: "I", Format: FmtShift, Class: IntALU, Rd: XReg, Rs1: XReg, Mask: 0xfc00707f, Match: 0x00001013},
	SRLI:       {Name: "srli", Ext: "I", Format: FmtShift, Class: IntALU, Rd: XReg, Rs1: XReg, Mask: 0xfc00707f, Match: 0x00005013},
	SRAI:       {Name: "srai", Ext: "I", Format: FmtShift, Class: IntALU, Rd: XReg, Rs1: XReg, Mask: 0xfc00707f, Match: 0x40005013},
	ADD:        {Name: "add", Ext: "I", Format: FmtR, Class: IntALU, Rd: XReg, Rs1: XReg, Rs2: XReg, Mask: 0xfe00707f, Match: 0x00000033},
	SUB:        {Name: "sub", Ext: "I", Format: FmtR, Class: IntALU, Rd: XReg, Rs1: XReg, Rs2: XReg, Mask: 0xfe00707f, Match: 0x40000033},
	SLL:        {Name: "sll", Ext: "I", Format: FmtR, Class: IntALU, Rd: XReg, Rs1: XReg, Rs2: XReg, Mask: 0xfe00707f, Match: 0x00001033},
	SLT:        {Name: "slt", Ext: "I", Format: FmtR, Class: IntALU, Rd: XReg, Rs1: XReg, Rs2: XReg, Mask: 0xfe00707f, Match: 0x00002033},
	SLTU:       {Name: "sltu", Ext: "I", Format: FmtR, Class: IntALU, Rd: XReg, Rs1: XReg, Rs2: XReg, Mask: 0xfe00707f, Match: 0x00003033},
	XOR:        {Name: "xor", Ext: "I", Format: FmtR, Class: IntALU, Rd: XReg, Rs1: XReg, Rs2: XReg, Mask: 0xfe00707f, Match: 0x00004033},
	SRL:        {Name: "srl", Ext: "I", Format: FmtR, Class: IntALU, Rd: XReg, Rs1: XReg, Rs2: XReg, Mask: 0xfe00707f, Match: 0x00005033},
	SRA:        {Name: "sra", Ext: "I", Format: FmtR, Class: IntALU, Rd: XReg, Rs1: XReg, Rs2: XReg, Mask: 0xfe00707f, Match: 0x40005033},
	OR:         {Name: "or", Ext: "I", Format: FmtR, Class: IntALU, Rd: XReg, Rs1: XReg, Rs2: XReg, Mask: 0xfe00707f, Match: 0x00006033},
	AND:        {Name: "and", Ext: "I", Format: FmtR, Class: IntALU, Rd: XReg, Rs1: XReg, Rs2: XReg, Mask: 0xfe00707f, Match: 0x00007033},
	ADDIW:      {Name: "addiw", Ext: "I", Format: FmtI, Class: IntALU, Rd: XReg, Rs1: XReg, Mask: 0x0000707f, Match: 0x0000001b},
	SLLIW:      {Name: "slliw", Ext: "I", Format: FmtShiftW, Class: IntALU, Rd: XReg, Rs1: XReg, Mask: 0xfe00707f, Match: 0x0000101b},
	SRLIW:      {Name: "srliw", Ext: "I", Format: FmtShiftW, Class: IntALU, Rd: XReg, Rs1: XReg, Mask: 0xfe00707f, Match: 0x0000501b},
	SRAIW:      {Name: "sraiw", Ext: "I", Format: FmtShiftW, Class: IntALU, Rd: XReg, Rs1: XReg, Mask: 0xfe00707f, Match: 0x4000501b},
	ADDW:       {Name: "addw", Ext: "I", Format: FmtR, Class: IntALU, Rd: XReg, Rs1: XReg, Rs2: XReg, Mask: 0xfe00707f, Match: 0x0000003b},
	SUBW:       {Name: "subw", Ext: "I", Format: FmtR, Class: IntALU, Rd: XReg, Rs1: XReg, Rs2: XReg, Mask: 0xfe00707f, Match: 0x4000003b},
	SLLW:       {Name: "sllw", Ext: "I", Format: FmtR, Class: IntALU, Rd: XReg, Rs1: XReg, Rs2: XReg, Mask: 0xfe00707f, Match: 0x0000103b},
	SRLW:       {Name: "srlw", Ext: "I", Format: FmtR, Class: IntALU, Rd: XReg, Rs1: XReg, Rs2: XReg, Mask: 0xfe00707f, Match: 0x0000503b},
	SRAW:       {Name: "sraw", Ext: "I", Format: FmtR, Class: IntALU, Rd: XReg, Rs1: XReg, Rs2: XReg, Mask: 0xfe00707f, Match: 0x4000503b},
	FENCE:      {Name: "fence", Ext: "I", Format: FmtFence, Class: Fence, Mask: 0x0000707f, Match: 0x0000000f},
	FENCE_I:    {Name: "fence.i", Ext: "Zifencei", Format: FmtFenceI, Class: Fence, Mask: 0x0000707f, Match: 0x0000100f},
	ECALL:      {Name: "ecall", Ext: "I", Format: FmtNone, Class: System, Mask: 0xffffffff, Match: 0x00000073},
	EBREAK:     {Name: "ebreak", Ext: "I", Format: FmtNone, Class: System, Mask: 0xffffffff, Match: 0x00100073},
	MRET:       {Name: "mret", Ext: "Priv", Format: FmtNone, Class: System, Mask: 0xffffffff, Match: 0x30200073},
	SRET:       {Name: "sret", Ext: "Priv", Format: FmtNone, Class: System, Mask: 0xffffffff, Match: 0x10200073},
	WFI:        {Name: "wfi", Ext: "Priv", Format: FmtNone, Class: System, Mask: 0xffffffff, Match: 0x10500073},
	SFENCE_VMA: {Name: "sfence.vma", Ext: "Priv", Format: FmtSfence, Class: System, Rs1: XReg, Rs2: XReg, Mask: 0xfe007fff, Match: 0x12000073},
	CSRRW:      {Name: "csrrw", Ext: "Zicsr", Format: FmtCSR, Class: CSR, Rd: XReg, Rs1: XReg, Mask: 0x0000707f, Match: 0x00001073},
	CSRRS:      {Name: "csrrs", Ext: "Zicsr", Format: FmtCSR, Class: CSR, Rd: XReg, Rs1: XReg, Mask: 0x0000707f, Match: 0x00002073},
	CSRRC:      {Name: "csrrc", Ext: "Zicsr", Format: FmtCSR, Class: CSR, Rd: XReg, Rs1: XReg, Mask: 0x0000707f, Match: 0x00003073},
	CSRRWI:     {Name: "csrrwi", Ext: "Zicsr", Format: FmtCSRI, Class: CSR, Rd: XReg, Mask: 0x0000707f, Match: 0x00005073},
	CSRRSI:     {Name: "csrrsi", Ext: "Zicsr", Format: FmtCSRI, Class: CSR, Rd: XReg, Mask: 0x0000707f, Match: 0x00006073},
	CSRRCI:     {Name: "csrrci", Ext: "Zicsr", Format: FmtCSRI, Class: CSR, Rd: XReg, Mask: 0x0000707f, Match: 0x00007073},
	MUL:        {Name: "mul", Ext: "M", Format: FmtR, Class: Mul, Rd: XReg, Rs1: XReg, Rs2: XReg, Mask: 0xfe00707f, Match: 0x02000033},
	MULH:       {Name: "mulh", Ext: "M", Format: FmtR, Class: Mul, Rd: XReg, Rs1: XReg, Rs2: XReg, Mask: 0xfe00707f, Match: 0x02001033},
	MULHSU:     {Name: "mulhsu", Ext: "M", Format: FmtR, Class: Mul, Rd: XReg, Rs1: XReg, Rs2: XReg, Mask: 0xfe00707f, Match: 0x02002033},
	MULHU:      {Name: "mulhu", Ext: "M", Format: FmtR, Class: Mul, Rd: XReg, Rs1: XReg, Rs2: XReg, Mask: 0xfe00707f, Match: 0x02003033},
	DIV:        {Name: "div", Ext: "M", Format: FmtR, Class: Div, Rd: XReg, Rs1: XReg, Rs2: XReg, Mask: 0xfe00707f, Match: 0x02004033},
	DIVU:       {Name: "divu", Ext: "M", Format: FmtR, Class: Div, Rd: XReg, Rs1: XReg, Rs2: XReg, Mask: 0xfe00707f, Match: 0x02005033},
	REM:        {Name: "rem", Ext: "M", Format: FmtR, Class: Div, Rd: XReg, Rs1: XReg, Rs2: XReg, Mask: 0xfe00707f, Match: 0x02006033},
	REMU:       {Name: "remu", Ext: "M", Format: FmtR, Class: Div, Rd: XReg, Rs1: XReg, Rs2: XReg, Mask: 0xfe00707f, Match: 0x02007033},
	MULW:       {Name: "mulw", Ext: "M", Format: FmtR, Class: Mul, Rd: XReg, Rs1: XReg, Rs2: XReg, Mask: 0xfe00707f, Match: 0x0200003b},
	DIVW:       {Name: "divw", Ext: "M", Format: FmtR, Class: Div, Rd: XReg, Rs1: XReg, Rs2: XReg, Mask: 0xfe00707f, Match: 0x0200403b},
	DIVUW:      {Name: "divuw", Ext: "M", Format: FmtR, Class: Div, Rd: XReg, Rs1: XReg, Rs2: XReg, Mask: 0xfe00707f, Match: 0x0200503b},
	REMW:       {Name: "remw", Ext: "M", Format: FmtR, Class: Div, Rd: XReg, Rs1: XReg, Rs2: XReg, Mask: 0xfe00707f, Match: 0x0200603b},
	REMUW:      {Name: "remuw", Ext: "M", Format: FmtR, Class: Div, Rd: XReg, Rs1: XReg, Rs2: XReg, Mask: 0xfe00707f, Match: 0x0200703b},
	LR_W:       {Name: "lr.w", Ext: "A", Format: FmtLR, Class: AMO, Rd: XReg, Rs1: XReg, MemSize: 4, AqRl: true, Mask: 0xf9f0707f, Match: 0x1000202f},
	SC_W:       {Name: "sc.w", Ext: "A", Format: FmtAMO, Class: AMO, Rd: XReg, Rs1: XReg, Rs2: XReg, MemSize: 4, AqRl: true, Mask: 0xf800707f, Match: 0x1800202f},
	AMOSWAP_W:  {Name: "amoswap.w", Ext: "A", Format: FmtAMO, Class: AMO, Rd: XReg, Rs1: XReg, Rs2: XReg, MemSize: 4, AqRl: true, Mask: 0xf800707f, Match: 0x0800202f},
	AMOADD_W:   {Name: "amoadd.w", Ext: "A", Format: FmtAMO, Class: AMO, Rd: XReg, Rs1: XReg, Rs2: XReg, MemSize: 4, AqRl: true, Mask: 0xf800707f, Match: 0x0000202f},
	AMOXOR_W:   {Name: "amoxor.w", Ext: "A", Format: FmtAMO, Class: AMO, Rd: XReg, Rs1: XReg, Rs2: XReg, MemSize: 4, AqRl: true, Mask: 0xf800707f, Match: 0x2000202f},
	AMOAND_W:   {Name: "amoand.w", Ext: "A", Format: FmtAMO, Class: AMO, Rd: XReg, Rs1: XReg, Rs2: XReg, MemSize: 4, AqRl: true, Mask: 0xf800707f, Match: 0x6000202f},
	AMOOR_W:    {Name: "amoor.w", Ext: "A", Format: FmtAMO, Class: AMO, Rd: XReg, Rs1: XReg, Rs2: XReg, MemSize: 4, AqRl: true, Mask: 0xf800707f, Match: 0x4000202f},
	AMOMIN_W:   {Name: "amomin.w", Ext: "A", Format: FmtAMO, Class: AMO, Rd: XReg, Rs1: XReg, Rs2: XReg, MemSize: 4, AqRl: true, Mask: 0xf800707f, Match: 0x8000202f},
	AMOMAX_W:   {Name: "amomax.w", Ext: "A", Format: FmtAMO, Class: AMO, Rd: XReg, Rs1: XReg, Rs2: XReg, MemSize: 4, AqRl: true, Mask: 0xf800707f, Match: 0xa000202f},
	AMOMINU_W:  {Name: "amominu.w", Ext: "A", Format: FmtAMO, Class: AMO, Rd: XReg, Rs1: XReg, Rs2: XReg, MemSize: 4, AqRl: true, Mask: 0xf800707f, Match: 0xc000202f},
	AMOMAXU_W:  {Name: "amomaxu.w", Ext: "A", Format: FmtAMO, Class: AMO, Rd: XReg, Rs1: XReg, Rs2: XReg, MemSize: 4, AqRl: true, Mask: 0xf800707f, Match: 0xe000202f},
	LR_D:       {Name: "lr.d", Ext: "A", Format: FmtLR, Class: AMO, Rd: XReg, Rs1: XReg, MemSize: 8, AqRl: true, Mask: 0xf9f0707f, Match: 0x1000302f},
	SC_D:       {Name: "sc.d", Ext: "A", Format: FmtAMO, Class: AMO, Rd: XReg, Rs1: XReg, Rs2: XReg, MemSize: 8, AqRl: true, Mask: 0xf800707f, Match: 0x1800302f},
	AMOSWAP_D:  {Name: "amoswap.d", Ext: "A", Format: FmtAMO, Class: AMO, Rd: XReg, Rs1: XReg, Rs2: XReg, MemSize: 8, AqRl: true, Mask: 0xf800707f, Match: 0x0800302f},
	AMOADD_D:   {Name: "amoadd.d", Ext: "A", Format: FmtAMO, Class: AMO, Rd: XReg, Rs1: XReg, Rs2: XReg, MemSize: 8, AqRl: true, Mask: 0xf800707f, Match: 0x0000302f},
	AMOXOR_D:   {Name: "amoxor.d", Ext: "A", Format: FmtAMO, Class: AMO, Rd: XReg, Rs1: XReg, Rs2: XReg, MemSize: 8, AqRl: true, Mask: 0xf800707f, Match: 0x2000302f},
	AMOAND_D:   {Name: "amoand.d", Ext: "A", Format: FmtAMO, Class: AMO, Rd: XReg, Rs1: XReg, Rs2: XReg, MemSize: 8, AqRl: true, Mask: 0xf800707f, Match: 0x6000302f},
	AMOOR_D:    {Name: "amoor.d", Ext: "A", Format: FmtAMO, Class: AMO, Rd: XReg, Rs1: XReg, Rs2: XReg, MemSize: 8, AqRl: true, Mask: 0xf800707f, Match: 0x4000302f},
	AMOMIN_D:   {Name: "amomin.d", Ext: "A", Format: FmtAMO, Class: AMO, Rd: XReg, Rs1: XReg, Rs2: XReg, MemSize: 8, AqRl: true, Mask: 0xf800707f, Match: 0x8000302f},
	AMOMAX_D:   {Name: "amomax.d", Ext: "A", Format: FmtAMO, Class: AMO, Rd: XReg, Rs1: XReg, Rs2: XReg, MemSize: 8, AqRl: true, Mask: 0xf800707f, Match: 0xa000302f},
	AMOMINU_D:  {Name: "amominu.d", Ext: "A", Format: FmtAMO, Class: AMO, Rd: XReg, Rs1: XReg, Rs2: XReg, MemSize: 8, AqRl: true, Mask: 0xf800707f, Match: 0xc000302f},
	AMOMAXU_D:  {Name: "amomaxu.d", Ext: "A", Format: FmtAMO, Class: AMO, Rd: XReg, Rs1: XReg, Rs2: XReg, MemSize: 8, AqRl: true, Mask: 0xf800707f, Match: 0xe000302f},
	FLW:        {Name: "flw", Ext: "F", Format: FmtLoad, Class: Load, Rd: FReg, Rs1: XReg, MemSize: 4, Mask: 0x0000707f, Match: 0x00002007},
	FSW:        {Name: "fsw", Ext: "F", Format: FmtStore, Class: Store, Rs1: XReg, Rs2: FReg, MemSize: 4, Mask: 0x0000707f, Match: 0x00002027},
	FMADD_S:    {Name: "fmadd.s", Ext: "F", Format: FmtR4, Class: FPMul, Rd: FReg, Rs1: FReg, Rs2: FReg, Rs3: FReg, RM: true, Mask: 0x0600007f, Match: 0x00000043},
	FMSUB_S:    {Name: "fmsub.s", Ext: "F", Format: FmtR4, Class: FPMul, Rd: FReg, Rs1: FReg, Rs2: FReg, Rs3: FReg, RM: true, Mask: 0x0600007f, Match: 0x00000047},
	FNMSUB_S:   {Name: "fnmsub.s", Ext: "F", Format: FmtR4, Class: FPMul, Rd: FReg, Rs1: FReg, Rs2: FReg, Rs3: FReg, RM: true, Mask: 0x0600007f, Match: 0x0000004b},
	FNMADD_S:   {Name: "fnmadd.s", Ext: "F", Format: FmtR4, Class: FPMul, Rd: FReg, Rs1: FReg, Rs2: FReg, Rs3: FReg, RM: true, Mask: 0x0600007f, Match: 0x0000004f},
	FADD_S:     {Name: "fadd.s", Ext: "F", Format: FmtR, Class: FPAdd, Rd: FReg, Rs1: FReg, Rs2: FReg, RM: true, Mask: 0xfe00007f, Match: 0x00000053},
	FSUB_S:     {Name: "fsub.s", Ext: "F", Format: FmtR, Class: FPAdd, Rd: FReg, Rs1: FReg, Rs2: FReg, RM: true, Mask: 0xfe00007f, Match: 0x08000053},
	FMUL_S:     {Name: "fmul.s", Ext: "F", Format: FmtR, Class: FPMul, Rd: FReg, Rs1: FReg, Rs2: FReg, RM: true, Mask: 0xfe00007f, Match: 0x10000053},
	FDIV_S:     {Name: "fdiv.s", Ext: "F", Format: FmtR, Class: FPDiv, Rd: FReg, Rs1: FReg, Rs2: FReg, RM: true, Mask: 0xfe00007f, Match: 0x18000053},
	FSQRT_S:    {Name: "fsqrt.s", Ext: "F", Format: FmtR2, Class: FPDiv, Rd: FReg, Rs1: FReg, RM: true, Mask: 0xfff0007f, Match: 0x58000053},
	FSGNJ_S:    {Name: "fsgnj.s", Ext: "F", Format: FmtR, Class: FPAdd, Rd: FReg, Rs1: FReg, Rs2: FReg, Mask: 0xfe00707f, Match: 0x20000053},
	FSGNJN_S:   {Name: "fsgnjn.s", Ext: "F", Format: FmtR, Class: FPAdd, Rd: FReg, Rs1: FReg, Rs2: FReg, Mask: 0xfe00707f, Match: 0x20001053},
	FSGNJX_S:   {Name: "fsgnjx.s", Ext: "F", Format: FmtR, Class: FPAdd, Rd: FReg, Rs1: FReg, Rs2: FReg, Mask: 0xfe00707f, Match: 0x20002053},
	FMIN_S:     {Name: "fmin.s", Ext: "F", Format: FmtR, Class: FPAdd, Rd: FReg, Rs1: FReg, Rs2: FReg, Mask: 0xfe00707f, Match: 0x28000053},
	FMAX_S:     {Name: "fmax.s", Ext: "F", Format: FmtR, Class: FPAdd, Rd: FReg, Rs1: FReg, Rs2: FReg, Mask: 0xfe00707f, Match: 0x28001053},
	FEQ_S:      {Name: "feq.s", Ext: "F", Format: FmtR, Class: FPAdd, Rd: XReg, Rs1: FReg, Rs2: FReg, Mask: 0xfe00707f, Match: 0xa0002053},
	FLT_S:      {Name: "flt.s", Ext: "F", Format: FmtR, Class: FPAdd, Rd: XReg, Rs1: FReg, Rs2: FReg, Mask: 0xfe00707f, Match: 0xa0001053},
	FLE_S:      {Name: "fle.s", Ext: "F", Format: FmtR, Class: FPAdd, Rd: XReg, Rs1: FReg, Rs2: FReg, Mask: 0xfe00707f, Match: 0xa0000053},
	FCLASS_S:   {Name: "fclass.s", Ext: "F", Format: FmtR2, Class: FPConv, Rd: XReg, Rs1: FReg, Mask: 0xfff0707f, Match: 0xe0001053},
	FCVT_W_S:   {Name: "fcvt.w.s", Ext: "F", Format: FmtR2, Class: FPConv, Rd: XReg, Rs1: FReg, RM: true, Mask: 0xfff0007f, Match: 0xc0000053},
	FCVT_WU_S:  {Name: "fcvt.wu.s", Ext: "F", Format: FmtR2, Class: FPConv, Rd: XReg, Rs1: FReg, RM: true, Mask: 0xfff0007f, Match: 0xc0100053},
	FCVT_L_S:   {Name: "fcvt.l.s", Ext: "F", Format: FmtR2, Class: FPConv, Rd: XReg, Rs1: FReg, RM: true, Mask: 0xfff0007f, Match: 0xc0200053},
	FCVT_LU_S:  {Name: "fcvt.lu.s", Ext: "F", Format: FmtR2, Class: FPConv, Rd: XReg, Rs1: FReg, RM: true, Mask: 0xfff0007f, Match: 0xc0300053},
	FCVT_S_W:   {Name: "fcvt.s.w", Ext: "F", Format: FmtR2, Class: FPConv, Rd: FReg, Rs1: XReg, RM: true, Mask: 0xfff0007f, Match: 0xd0000053},
	FCVT_S_WU:  {Name: "fcvt.s.wu", Ext: "F", Format: FmtR2, Class: FPConv, Rd: FReg, Rs1: XReg, RM: true, Mask: 0xfff0007f, Match: 0xd0100053},
	FCVT_S_L:   {Name: "fcvt.s.l", Ext: "F", Format: FmtR2, Class: FPConv, Rd: FReg, Rs1: XReg, RM: true, Mask: 0xfff0007f, Match: 0xd0200053},
	FCVT_S_LU:  {Name: "fcvt.s.lu", Ext: "F", Format: FmtR2, Class: FPConv, Rd: FReg, Rs1: XReg, RM: true, Mask: 0xfff0007f, Match: 0xd0300053},
	FMV_X_W:    {Name: "fmv.x.w", Ext: "F", Format: FmtR2, Class: FPConv, Rd: XReg, Rs1: FReg, Mask: 0xfff0707f, Match: 0xe0000053},
	FMV_W_X:    {Name: "fmv.w.x", Ext: "F", Format: FmtR2, Class: FPConv, Rd: FReg, Rs1: XReg, Mask: 0xfff0707f, Match: 0xf0000053},
	FLD:        {Name: "fld", Ext: "D", Format: FmtLoad, Class: Load, Rd: FReg, Rs1: XReg, MemSize: 8, Mask: 0x0000707f, Match: 0x00003007},
	FSD:        {Name: "fsd", Ext: "D", Format: FmtStore, Class: Store, Rs1: XReg, Rs2: FReg, MemSize: 8, Mask: 0x0000707f, Match: 0x00003027},
	FMADD_D:    {Name: "fmadd.d", Ext: "D", Format: FmtR4, Class: FPMul, Rd: FReg, Rs1: FReg, Rs2: FReg, Rs3: FReg, RM: true, Mask: 0x0600007f, Match: 0x02000043},
	FMSUB_D:    {Name: "fmsub.d", Ext: "D", Format: FmtR4, Class: FPMul, Rd: FReg, Rs1: FReg, Rs2: FReg, Rs3: FReg, RM: true, Mask: 0x0600007f, Match: 0x02000047},
	FNMSUB_D:   {Name: "fnmsub.d", Ext: "D", Format: FmtR4, Class: FPMul, Rd: FReg, Rs1: FReg, Rs2: FReg, Rs3: FReg, RM: true, Mask: 0x0600007f, Match: 0x0200004b},
	FNMADD_D:   {Name: "fnmadd.d", Ext: "D", Format: FmtR4, Class: FPMul, Rd: FReg, Rs1: FReg, Rs2: FReg, Rs3: FReg, RM: true, Mask: 0x0600007f, Match: 0x0200004f},
	FADD_D:     {Name: "fadd.d", Ext: "D", Format: FmtR, Class: FPAdd, Rd: FReg, Rs1: FReg, Rs2: FReg, RM: true, Mask: 0xfe00007f, Match: 0x02000053},
	FSUB_D:     {Name: "fsub.d", Ext: "D", Format: FmtR, Class: FPAdd, Rd: FReg, Rs1: FReg, Rs2: FReg, RM: true, Mask: 0xfe00007f, Match: 0x0a000053},
	FMUL_D:     {Name: "fmul.d", Ext: "D", Format: FmtR, Class: FPMul, Rd: FReg, Rs1: FReg, Rs2: FReg, RM: true, Mask: 0xfe00007f, Match: 0x12000053},
	FDIV_D:     {Name: "fdiv.d", Ext: "D", Format: FmtR, Class: FPDiv, Rd: FReg, Rs1: FReg, Rs2: FReg, RM: true, Mask: 0xfe00007f, Match: 0x1a000053},
	FSQRT_D:    {Name: "fsqrt.d", Ext: "D", Format: FmtR2, Class: FPDiv, Rd: FReg, Rs1: FReg, RM: true, Mask: 0xfff0007f, Match: 0x5a000053},
	FSGNJ_D:    {Name: "fsgnj.d", Ext: "D", Format: FmtR, Class: FPAdd, Rd: FReg, Rs1: FReg, Rs2: FReg, Mask: 0xfe00707f, Match: 0x22000053},
	FSGNJN_D:   {Name: "fsgnjn.d", Ext: "D", Format: FmtR, Class: FPAdd, Rd: FReg, Rs1: FReg, Rs2: FReg, Mask: 0xfe00707f, Match: 0x22001053},
	FSGNJX_D:   {Name: "fsgnjx.d", Ext: "D", Format: FmtR, Class: FPAdd, Rd: FReg, Rs1: FReg, Rs2: FReg, Mask: 0xfe00707f, Match: 0x22002053},
	FMIN_D:     {Name: "fmin.d", Ext: "D", Format: FmtR, Class: FPAdd, Rd: FReg, Rs1: FReg, Rs2: FReg, Mask: 0xfe00707f, Match: 0x2a000053},
	FMAX_D:     {Name: "fmax.d", Ext: "D", Format: FmtR, Class: FPAdd, Rd: FReg, Rs1: FReg, Rs2: FReg, Mask: 0xfe00707f, Match: 0x2a001053},
	FCVT_S_D:   {Name: "fcvt.s.d", Ext: "D", Format: FmtR2, Class: FPConv, Rd: FReg, Rs1: FReg, RM: true, Mask: 0xfff0007f, Match: 0x40100053},
	FCVT_D_S:   {Name: "fcvt.d.s", Ext: "D", Format: FmtR2, Class: FPConv, Rd: FReg, Rs1: FReg, RM: true, ExactRM: true, Mask: 0xfff0007f, Match: 0x42000053},
	FEQ_D:      {Name: "feq.d", Ext: "D", Format: FmtR, Class: FPAdd, Rd: XReg, Rs1: FReg, Rs2: FReg, Mask: 0xfe00707f, Match: 0xa2002053},
	FLT_D:      {Name: "flt.d", Ext: "D", Format: FmtR, Class: FPAdd, Rd: XReg, Rs1: FReg, Rs2: FReg, Mask: 0xfe00707f, Match: 0xa2001053},
	FLE_D:      {Name: "fle.d", Ext: "D", Format: FmtR, Class: FPAdd, Rd: XReg, Rs1: FReg, Rs2: FReg, Mask: 0xfe00707f, Match: 0xa2000053},
	FCLASS_D:   {Name: "fclass.d", Ext: "D", Format: FmtR2, Class: FPConv, Rd: XReg, Rs1: FReg, Mask: 0xfff0707f, Match: 0xe2001053},
	FCVT_W_D:   {Name: "fcvt.w.d", Ext: "D", Format: FmtR2, Class: FPConv, Rd: XReg, Rs1: FReg, RM: true, Mask: 0xfff0007f, Match: 0xc2000053},
	FCVT_WU_D:  {Name: "fcvt.wu.d", Ext: "D", Format: FmtR2, Class: FPConv, Rd: XReg, Rs1: FReg, RM: true, Mask: 0xfff0007f, Match: 0xc2100053},
	FCVT_L_D:   {Name: "fcvt.l.d", Ext: "D", Format: FmtR2, Class: FPConv, Rd: XReg, Rs1: FReg, RM: true, Mask: 0xfff0007f, Match: 0xc2200053},
	FCVT_LU_D:  {Name: "fcvt.lu.d", Ext: "D", Format: FmtR2, Class: FPConv, Rd: XReg, Rs1: FReg, RM: true, Mask: 0xfff0007f, Match: 0xc2300053},
	FCVT_D_W:   {Name: "fcvt.d.w", Ext: "D", Format: FmtR2, Class: FPConv, Rd: FReg, Rs1: XReg, RM: true, ExactRM: true, Mask: 0xfff0007f, Match: 0xd2000053},
	FCVT_D_WU:  {Name: "fcvt.d.wu", Ext: "D", Format: FmtR2, Class: FPConv, Rd: FReg, Rs1: XReg, RM: true, ExactRM: true, Mask: 0xfff0007f, Match: 0xd2100053},
	FCVT_D_L:   {Name: "fcvt.d.l", Ext: "D", Format: FmtR2, Class: FPConv, Rd: FReg, Rs1: XReg, RM: true, Mask: 0xfff0007f, Match: 0xd2200053},
	FCVT_D_LU:  {Name: "fcvt.d.lu", Ext: "D", Format: FmtR2, Class: FPConv, Rd: FReg, Rs1: XReg, RM: true, Mask: 0xfff0007f, Match: 0xd2300053},
	FMV_X_D:    {Name: "fmv.x.d", Ext: "D", Format: FmtR2, Class: FPConv, Rd: XReg, Rs1: FReg, Mask: 0xfff0707f, Match: 0xe2000053},
	FMV_D_X:    {Name: "fmv.d.x", Ext: "D", Format: FmtR2, Class: FPConv, Rd: FReg, Rs1: XReg, Mask: 0xfff0707f, Match: 0xf2000053},
	ADD_UW:     {Name: "add.uw", Ext: "Zba", Format: FmtR, Class: IntALU, Rd: XReg, Rs1: XReg, Rs2: XReg, Mask: 0xfe00707f, Match: 0x0800003b},
	SH1ADD:     {Name: "sh1add", Ext: "Zba", Format: FmtR, Class: IntALU, Rd: XReg, Rs1: XReg, Rs2: XReg, Mask: 0xfe00707f, Match: 0x20002033},
	SH2ADD:     {Name: "sh2add", Ext: "Zba", Format: FmtR, Class: IntALU, Rd: XReg, Rs1: XReg, Rs2: XReg, Mask: 0xfe00707f, Match: 0x20004033},
	SH3ADD:     {Name: "sh3add", Ext: "Zba", Format: FmtR, Class: IntALU, Rd: XReg, Rs1: XReg, Rs2: XReg, Mask: 0xfe00707f, Match: 0x20006033},
	SH1ADD_UW:  {Name: "sh1add.uw", Ext: "Zba", Format: FmtR, Class: IntALU, Rd: XReg, Rs1: XReg, Rs2: XReg, Mask: 0xfe00707f, Match: 0x2000203b},
	SH2ADD_UW:  {Name: "sh2add.uw", Ext: "Zba", Format: FmtR, Class: IntALU, Rd: XReg, Rs1: XReg, Rs2: XReg, Mask: 0xfe00707f, Match: 0x2000403b},
	SH3ADD_UW:  {Name: "sh3add.uw", Ext: "Zba", Format: FmtR, Class: IntALU, Rd: XReg, Rs1: XReg, Rs2: XReg, Mask: 0xfe00707f, Match: 0x2000603b},
	SLLI_UW:    {Name: "slli.uw", Ext: "Zba", Format: FmtShift, Class: IntALU, Rd: XReg, Rs1: XReg, Mask: 0xfc00707f, Match: 0x0800101b},
	ANDN:       {Name: "andn", Ext: "Zbb", Format: FmtR, Class: IntALU, Rd: XReg, Rs1: XReg, Rs2: XReg, Mask: 0xfe00707f, Match: 0x40007033},
	ORN:        {Name: "orn", Ext: "Zbb", Format: FmtR, Class: IntALU, Rd: XReg, Rs1: XReg, Rs2: XReg, Mask: 0xfe00707f, Match: 0x40006033},
	XNOR:       {Name: "xnor", Ext: "Zbb", Format: FmtR, Class: IntALU, Rd: XReg, Rs1: XReg, Rs2: XReg, Mask: 0xfe00707f, Match: 0x40004033},
	CLZ:        {Name: "clz", Ext: "Zbb", Format: FmtR2, Class: IntALU, Rd: XReg, Rs1: XReg, Mask: 0xfff0707f, Match: 0x60001013},
	CLZW:       {Name: "clzw", Ext: "Zbb", Format: FmtR2, Class: IntALU, Rd: XReg, Rs1: XReg, Mask: 0xfff0707f, Match: 0x6000101b},
	CTZ:        {Name: "ctz", Ext: "Zbb", Format: FmtR2, Class: IntALU, Rd: XReg, Rs1: XReg, Mask: 0xfff0707f, Match: 0x60101013},
	CTZW:       {Name: "ctzw", Ext: "Zbb", Format: FmtR2, Class: IntALU, Rd: XReg, Rs1: XReg, Mask: 0xfff0707f, Match: 0x6010101b},
	CPOP:       {Name: "cpop", Ext: "Zbb", Format: FmtR2, Class: IntALU, Rd: XReg, Rs1: XReg, Mask: 0xfff0707f, Match: 0x60201013},
	CPOPW:      {Name: "cpopw", Ext: "Zbb", Format: FmtR2, Class: IntALU, Rd: XReg, Rs1: XReg, Mask: 0xfff0707f, Match: 0x6020101b},
	MAX:        {Name: "max", Ext: "Zbb", Format: FmtR, Class: IntALU, Rd: XReg, Rs1: XReg, Rs2: XReg, Mask: 0xfe00707f, Match: 0x0a006033},
	MAXU:       {Name: "maxu", Ext: "Zbb", Format: FmtR, Class: IntALU, Rd: XReg, Rs1: XReg, Rs2: XReg, Mask: 0xfe00707f, Match: 0x0a007033},
	MIN:        {Name: "min", Ext: "Zbb", Format: FmtR, Class: IntALU, Rd: XReg, Rs1: XReg, Rs2: XReg, Mask: 0xfe00707f, Match: 0x0a004033},
	MINU:       {Name: "minu", Ext: "Zbb", Format: FmtR, Class: IntALU, Rd: XReg, Rs1: XReg, Rs2: XReg, Mask: 0xfe00707f, Match: 0x0a005033},
	SEXT_B:     {Name: "sext.b", Ext: "Zbb", Format: FmtR2, Class: IntALU, Rd: XReg, Rs1: XReg, Mask: 0xfff0707f, Match: 0x60401013},
	SEXT_H:     {Name: "sext.h", Ext: "Zbb", Format: FmtR2, Class: IntALU, Rd: XReg, Rs1: XReg, Mask: 0xfff0707f, Match: 0x60501013},
	ZEXT_H:     {Name: "zext.h", Ext: "Zbb", Format: FmtR2, Class: IntALU, Rd: XReg, Rs1: XReg, Mask: 0xfff0707f, Match: 0x0800403b},
	ROL:        {Name: "rol", Ext: "Zbb", Format: FmtR, Class: IntALU, Rd: XReg, Rs1: XReg, Rs2: XReg, Mask: 0xfe00707f, Match: 0x60001033},
	ROLW:       {Name: "rolw", Ext: "Zbb", Format: FmtR, Class: IntALU, Rd: XReg, Rs1: XReg, Rs2: XReg, Mask: 0xfe00707f, Match: 0x6000103b},
	ROR:        {Name: "ror", Ext: "Zbb", Format: FmtR, Class: IntALU, Rd: XReg, Rs1: XReg, Rs2: XReg, Mask: 0xfe00707f, Match: 0x60005033},
	RORW:       {Name: "rorw", Ext: "Zbb", Format: FmtR, Class: IntALU, Rd: XReg, Rs1: XReg, Rs2: XReg, Mask: 0xfe00707f, Match: 0x6000503b},
	RORI:       {Name: "rori", Ext: "Zbb", Format: FmtShift, Class: IntALU, Rd: XReg, Rs1: XReg, Mask: 0xfc00707f, Match: 0x60005013},
	RORIW:      {Name: "roriw", Ext: "Zbb", Format: FmtShiftW, Class: IntALU, Rd: XReg, Rs1: XReg, Mask: 0xfe00707f, Match: 0x6000501b},
	ORC_B:      {Name: "orc.b", Ext: "Zbb", Format: FmtR2, Class: IntALU, Rd: XReg, Rs1: XReg, Mask: 0xfff0707f, Match: 0x28705013},
	REV8:       {Name: "rev8", Ext: "Zbb", Format: FmtR2, Class: IntALU, Rd: XReg, Rs1: XReg, Mask: 0xfff0707f, Match: 0x6b805013},
	BCLR:       {Name: "bclr", Ext: "Zbs", Format: FmtR, Class: IntALU, Rd: XReg, Rs1: XReg, Rs2: XReg, Mask: 0xfe00707f, Match: 0x48001033},
	BCLRI:      {Name: "bclri", Ext: "Zbs", Format: FmtShift, Class: IntALU, Rd: XReg, Rs1: XReg, Mask: 0xfc00707f, Match: 0x48001013},
	BEXT:       {Name: "bext", Ext: "Zbs", Format: FmtR, Class: IntALU, Rd: XReg, Rs1: XReg, Rs2: XReg, Mask: 0xfe00707f, Match: 0x48005033},
	BEXTI:      {Name: "bexti", Ext: "Zbs", Format: FmtShift, Class: IntALU, Rd: XReg, Rs1: XReg, Mask: 0xfc00707f, Match: 0x48005013},
	BINV:       {Name: "binv", Ext: "Zbs", Format: FmtR, Class: IntALU, Rd: XReg, Rs1: XReg, Rs2: XReg, Mask: 0xfe00707f, Match: 0x68001033},
	BINVI:      {Name: "binvi", Ext: "Zbs", Format: FmtShift, Class: IntALU, Rd: XReg, Rs1: XReg, Mask: 0xfc00707f, Match: 0x68001013},
	BSET:       {Name: "bset", Ext: "Zbs", Format: FmtR, Class: IntALU, Rd: XReg, Rs1: XReg, Rs2: XReg, Mask: 0xfe00707f, Match: 0x28001033},
	BSETI:      {Name: "bseti", Ext: "Zbs", Format: FmtShift, Class: IntALU, Rd: XReg, Rs1: XReg, Mask: 0xfc00707f, Match: 0x28001013},
	CLMUL:      {Name: "clmul", Ext: "Zbc", Format: FmtR, Class: Mul, Rd: XReg, Rs1: XReg, Rs2: XReg, Mask: 0xfe00707f, Match: 0x0a001033},
	CLMULH:     {Name: "clmulh", Ext: "Zbc", Format: FmtR, Class: Mul, Rd: XReg, Rs1: XReg, Rs2: XReg, Mask: 0xfe00707f, Match: 0x0a003033},
	CLMULR:     {Name: "clmulr", Ext: "Zbc", Format: FmtR, Class: Mul, Rd: XReg, Rs1: XReg, Rs2: XReg, Mask: 0xfe00707f, Match: 0x0a002033},
	CZERO_EQZ:  {Name: "czero.eqz", Ext: "Zicond", Format: FmtR, Class: IntALU, Rd: XReg, Rs1: XReg, Rs2: XReg, Mask: 0xfe00707f, Match: 0x0e005033},
	CZERO_NEZ:  {Name: "czero.nez", Ext: "Zicond", Format: FmtR, Class: IntALU, Rd: XReg, Rs1: XReg, Rs2: XReg, Mask: 0xfe00707f, Match: 0x0e007033},
	HPS_ON:     {Name: "hps.on", Ext: "Xhps", Format: FmtNone, Class: System, Mask: 0xffffffff, Match: 0x0000100b},
	HPS_OFF:    {Name: "hps.off", Ext: "Xhps", Format: FmtNone, Class: System, Mask: 0xffffffff, Match: 0x0000200b},
	DISE_RET:   {Name: "dise.ret", Ext: "Xhps", Format: FmtNone, Class: System, Mask: 0xffffffff, Match: 0x0000300b},

	// RV64C. Expand names the 32-bit equivalent; Decode's expandC fills the
	// operands. Reserved and HINT code points are handled there too.
	C_ADDI4SPN: {Name: "c.addi4spn", Ext: "C", Format: FmtC, Expand: ADDI, Class: IntALU, Rd: XReg, Rs1: XReg, Mask: 0xe003, Match: 0x0000},
	C_FLD:      {Name: "c.fld", Ext: "C", Format: FmtC, Expand: FLD, Class: Load, Rd: FReg, Rs1: XReg, MemSize: 8, Mask: 0xe003, Match: 0x2000},
	C_LW:       {Name: "c.lw", Ext: "C", Format: FmtC, Expand: LW, Class: Load, Rd: XReg, Rs1: XReg, MemSize: 4, Mask: 0xe003, Match: 0x4000},
	C_LD:       {Name: "c.ld", Ext: "C", Format: FmtC, Expand: LD, Class: Load, Rd: XReg, Rs1: XReg, MemSize: 8, Mask: 0xe003, Match: 0x6000},
	C_FSD:      {Name: "c.fsd", Ext: "C", Format: FmtC, Expand: FSD, Class: Store, Rs1: XReg, Rs2: FReg, MemSize: 8, Mask: 0xe003, Match: 0xa000},
	C_SW:       {Name: "c.sw", Ext: "C", Format: FmtC, Expand: SW, Class: Store, Rs1: XReg, Rs2: XReg, MemSize: 4, Mask: 0xe003, Match: 0xc000},
	C_SD:       {Name: "c.sd", Ext: "C", Format: FmtC, Expand: SD, Class: Store, Rs1: XReg, Rs2: XReg, MemSize: 8, Mask: 0xe003, Match: 0xe000},
	C_NOP:      {Name: "c.nop", Ext: "C", Format: FmtC, Expand: ADDI, Class: IntALU, Rd: XReg, Rs1: XReg, Mask: 0xef83, Match: 0x0001},
	C_ADDI:     {Name: "c.addi", Ext: "C", Format: FmtC, Expand: ADDI, Class: IntALU, Rd: XReg, Rs1: XReg, Mask: 0xe003, Match: 0x0001},
	C_ADDIW:    {Name: "c.addiw", Ext: "C", Format: FmtC, Expand: ADDIW, Class: IntALU, Rd: XReg, Rs1: XReg, Mask: 0xe003, Match: 0x2001},
	C_LI:       {Name: "c.li", Ext: "C", Format: FmtC, Expand: ADDI, Class: IntALU, Rd: XReg, Rs1: XReg, Mask: 0xe003, Match: 0x4001},
	C_ADDI16SP: {Name: "c.addi16sp", Ext: "C", Format: FmtC, Expand: ADDI, Class: IntALU, Rd: XReg, Rs1: XReg, Mask: 0xef83, Match: 0x6101},
	C_LUI:      {Name: "c.lui", Ext: "C", Format: FmtC, Expand: LUI, Class: IntALU, Rd: XReg, Mask: 0xe003, Match: 0x6001},
	C_SRLI:     {Name: "c.srli", Ext: "C", Format: FmtC, Expand: SRLI, Class: IntALU, Rd: XReg, Rs1: XReg, Mask: 0xec03, Match: 0x8001},
	C_SRAI:     {Name: "c.srai", Ext: "C", Format: FmtC, Expand: SRAI, Class: IntALU, Rd: XReg, Rs1: XReg, Mask: 0xec03, Match: 0x8401},
	C_ANDI:     {Name: "c.andi", Ext: "C", Format: FmtC, Expand: ANDI, Class: IntALU, Rd: XReg, Rs1: XReg, Mask: 0xec03, Match: 0x8801},
	C_SUB:      {Name: "c.sub", Ext: "C", Format: FmtC, Expand: SUB, Class: IntALU, Rd: XReg, Rs1: XReg, Rs2: XReg, Mask: 0xfc63, Match: 0x8c01},
	C_XOR:      {Name: "c.xor", Ext: "C", Format: FmtC, Expand: XOR, Class: IntALU, Rd: XReg, Rs1: XReg, Rs2: XReg, Mask: 0xfc63, Match: 0x8c21},
	C_OR:       {Name: "c.or", Ext: "C", Format: FmtC, Expand: OR, Class: IntALU, Rd: XReg, Rs1: XReg, Rs2: XReg, Mask: 0xfc63, Match: 0x8c41},
	C_AND:      {Name: "c.and", Ext: "C", Format: FmtC, Expand: AND, Class: IntALU, Rd: XReg, Rs1: XReg, Rs2: XReg, Mask: 0xfc63, Match: 0x8c61},
	C_SUBW:     {Name: "c.subw", Ext: "C", Format: FmtC, Expand: SUBW, Class: IntALU, Rd: XReg, Rs1: XReg, Rs2: XReg, Mask: 0xfc63, Match: 0x9c01},
	C_ADDW:     {Name: "c.addw", Ext: "C", Format: FmtC, Expand: ADDW, Class: IntALU, Rd: XReg, Rs1: XReg, Rs2: XReg, Mask: 0xfc63, Match: 0x9c21},
	C_J:        {Name: "c.j", Ext: "C", Format: FmtC, Expand: JAL, Class: Jal, Rd: XReg, Mask: 0xe003, Match: 0xa001},
	C_BEQZ:     {Name: "c.beqz", Ext: "C", Format: FmtC, Expand: BEQ, Class: Branch, Rs1: XReg, Rs2: XReg, Mask: 0xe003, Match: 0xc001},
	C_BNEZ:     {Name: "c.bnez", Ext: "C", Format: FmtC, Expand: BNE, Class: Branch, Rs1: XReg, Rs2: XReg, Mask: 0xe003, Match: 0xe001},
	C_SLLI:     {Name: "c.slli", Ext: "C", Format: FmtC, Expand: SLLI, Class: IntALU, Rd: XReg, Rs1: XReg, Mask: 0xe003, Match: 0x0002},
	C_FLDSP:    {Name: "c.fldsp", Ext: "C", Format: FmtC, Expand: FLD, Class: Load, Rd: FReg, Rs1: XReg, MemSize: 8, Mask: 0xe003, Match: 0x2002},
	C_LWSP:     {Name: "c.lwsp", Ext: "C", Format: FmtC, Expand: LW, Class: Load, Rd: XReg, Rs1: XReg, MemSize: 4, Mask: 0xe003, Match: 0x4002},
	C_LDSP:     {Name: "c.ldsp", Ext: "C", Format: FmtC, Expand: LD, Class: Load, Rd: XReg, Rs1: XReg, MemSize: 8, Mask: 0xe003, Match: 0x6002},
	C_JR:       {Name: "c.jr", Ext: "C", Format: FmtC, Expand: JALR, Class: Jalr, Rd: XReg, Rs1: XReg, Mask: 0xf07f, Match: 0x8002},
	C_MV:       {Name: "c.mv", Ext: "C", Format: FmtC, Expand: ADD, Class: IntALU, Rd: XReg, Rs1: XReg, Rs2: XReg, Mask: 0xf003, Match: 0x8002},
	C_EBREAK:   {Name: "c.ebreak", Ext: "C", Format: FmtC, Expand: EBREAK, Class: System, Mask: 0xffff, Match: 0x9002},
	C_JALR:     {Name: "c.jalr", Ext: "C", Format: FmtC, Expand: JALR, Class: Jalr, Rd: XReg, Rs1: XReg, Mask: 0xf07f, Match: 0x9002},
	C_ADD:      {Name: "c.add", Ext: "C", Format: FmtC, Expand: ADD, Class: IntALU, Rd: XReg, Rs1: XReg, Rs2: XReg, Mask: 0xf003, Match: 0x9002},
	C_FSDSP:    {Name: "c.fsdsp", Ext: "C", Format: FmtC, Expand: FSD, Class: Store, Rs1: XReg, Rs2: FReg, MemSize: 8, Mask: 0xe003, Match: 0xa002},
	C_SWSP:     {Name: "c.swsp", Ext: "C", Format: FmtC, Expand: SW, Class: Store, Rs1: XReg, Rs2: XReg, MemSize: 4, Mask: 0xe003, Match: 0xc002},
	C_SDSP:     {Name: "c.sdsp", Ext: "C", Format: FmtC, Expand: SD, Class: Store, Rs1: XReg, Rs2: XReg, MemSize: 8, Mask: 0xe003, Match: 0xe002},
}
