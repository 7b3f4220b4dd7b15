package dise

import "github.com/rvsim/rvsim/dise/asm"

// File is a parsed ACF file.
type File struct {
	Name         string
	Regs         []*RegDecl
	Counters     []*CounterDecl
	Productions  []*Production
	Replacements []*Replacement
	// Authorize holds the positions of `authorize hps` directives: the
	// file lets application code execute hps.on/hps.off.
	Authorize []Pos
}

// RegDecl is `dise_reg NAME [($dN)] = VALUE`: a DISE-private register,
// named for set_N and replacement code, with its initial value.
type RegDecl struct {
	Pos     Pos
	NamePos Pos    // the name (or $dN) being declared
	Name    string // "" when declared by register ($d3 = 5)
	DReg    int    // the pinned register, -1 to allocate one
	Value   uint64
}

// CounterDecl is `counter N = VALUE`: an HPS counter's initial value.
type CounterDecl struct {
	Pos   Pos
	NPos  Pos // the counter number
	N     int
	Value uint64
}

// Production is `LABEL: PATTERN -> ACTIONS`.
type Production struct {
	Pos     Pos
	Label   string
	Pattern Expr
	Arrow   Pos
	Actions []*Action
}

// ActionKind says what one action of a production is.
type ActionKind uint8

// Action kinds.
const (
	ActNull    ActionKind = iota // null: no replacement (or no micro-op)
	ActReplace                   // the label of a replacement
	ActInc                       // inc_N
	ActDec                       // dec_N
	ActSet                       // set_N(dise_reg)
)

// Action is one element after the arrow.
type Action struct {
	Pos     Pos
	Kind    ActionKind
	Name    string // ActReplace: the replacement label
	Counter int    // micro-ops
	Reg     string // ActSet: the DISE register as written (name or $dN)
	RegPos  Pos
}

// Expr is a pattern expression.
type Expr interface{ exprPos() Pos }

// BinaryExpr is X && Y or X || Y.
type BinaryExpr struct {
	OpPos Pos
	Op    tokKind // tLAnd or tLOr
	X, Y  Expr
}

// NotExpr is !X.
type NotExpr struct {
	Pos Pos
	X   Expr
}

// ParenExpr is (X).
type ParenExpr struct {
	Pos Pos
	X   Expr
}

// CompareExpr is L op R.
type CompareExpr struct {
	OpPos Pos
	Op    tokKind // tEql … tGeq
	L, R  *Term
}

// FlagExpr is zero_N or overflow_N.
type FlagExpr struct {
	Pos      Pos
	Overflow bool
	Counter  int
}

// Term is one side of a comparison: a T.* field, a name or an integer.
type Term struct {
	Pos   Pos
	Field asm.Directive // DirNone for a name or integer
	Name  string        // a name: op, class, register
	IsInt bool
	Int   int64
	Text  string // as written
}

func (e *BinaryExpr) exprPos() Pos  { return e.X.exprPos() }
func (e *NotExpr) exprPos() Pos     { return e.Pos }
func (e *ParenExpr) exprPos() Pos   { return e.Pos }
func (e *CompareExpr) exprPos() Pos { return e.L.Pos }
func (e *FlagExpr) exprPos() Pos    { return e.Pos }

// Replacement is `LABEL: ITEMS` or `LABEL: { ITEMS }`.
type Replacement struct {
	Pos   Pos
	Label string
	Items []*Item
}

// ItemKind says what one element of a replacement sequence is.
type ItemKind uint8

// Item kinds.
const (
	ItemInst     ItemKind = iota // an instruction
	ItemOriginal                 // T.INSN: the matched instruction itself
	ItemCall                     // call(handler, args…)
	ItemLabel                    // a label of the sequence
)

// Item is one element of a replacement.
type Item struct {
	Pos      Pos
	Kind     ItemKind
	Mnemonic string        // ItemInst (may be "T.OP")
	Operands []asm.Operand // ItemInst
	OpPos    []Pos         // the position of each operand
	Handler  string        // ItemCall
	Args     []asm.Operand // ItemCall
	ArgPos   []Pos
	// ItemCall with `as "NAME"(fields…)`: the profile it names, and the
	// names of its key fields (nil: derived from the arguments).
	Profile    string
	ProfilePos Pos
	Fields     []string
	FieldPos   []Pos
	Label      string // ItemLabel
}
