// Package pathprof is the hardware path profiler of
// hardware-path-profiling.md (Vaswani, Jacob, Srikant): a branch queue
// between commit and the profiler, the path stack that turns the retiring
// branches into path descriptors under the control of the PPCR, the
// metrics accumulated along paths, the Hot Path Table that keeps the hot
// ones, the exact path profile of the same stream with the paper's overlap
// percentages, and the path-based phase detector with its BBV baseline.
package pathprof

import (
	"fmt"
	"strings"

	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/isa"
)

// BranchType is the profiler's classification of a retiring branch (§3:
// "decoded and classified as a call, a return, an indirect branch, a
// forward branch or a backward branch").
type BranchType uint8

// The branch types.
const (
	Call BranchType = iota
	Return
	Forward
	Backward
	Indirect
	NumBranchTypes
)

var branchTypeNames = [NumBranchTypes]string{"call", "return", "forward", "backward", "indirect"}

func (t BranchType) String() string {
	if t < NumBranchTypes {
		return branchTypeNames[t]
	}
	return fmt.Sprintf("branch-type(%d)", t)
}

// Classify gives the type of a control-transfer instruction, or false for
// any other instruction. Calls and returns are the isa's refined classes
// (the link-register convention); any other jalr is indirect. A direct
// branch or jump is backward when it transfers control to its own address
// or below, i.e. a taken branch to a lower address; a backward conditional
// branch that falls through moves forward and is a forward branch (the
// hardware decodes the branch together with its outcome).
func Classify(d *cpu.DynInst) (BranchType, bool) {
	return classOf(d.Inst.Class, d.Taken, d.PC, d.NextPC)
}

// classOf is Classify of an instruction of class c at pc, taken or not,
// whose successor is target (the decoders of packed records and of path
// descriptors have no DynInst).
func classOf(c isa.Class, taken bool, pc, target uint64) (BranchType, bool) {
	switch c {
	case isa.Call:
		return Call, true
	case isa.Return:
		return Return, true
	case isa.Jalr:
		return Indirect, true
	case isa.Branch, isa.Jal:
		if taken && target <= pc {
			return Backward, true
		}
		return Forward, true
	}
	return 0, false
}

// Op is a set of path-stack operations (§3).
type Op uint8

// The operations, in the fixed order the hardware performs them: update or
// update-count, then pop, then push.
const (
	OpUpdate      Op = 1 << iota // append the branch to the top path, add the block's events
	OpUpdateCount                // add the block's events to the top path only
	OpPop                        // emit the top path and remove it
	OpPush                       // push a new path starting at the branch's target
)

func (o Op) String() string {
	var parts []string
	for i, n := range []string{"update", "update-count", "pop", "push"} {
		if o&(1<<i) != 0 {
			parts = append(parts, n)
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, "+")
}

// Extension says which boundaries a path may extend across (§3,
// "Detecting extended paths").
type Extension uint8

// The extension modes.
const (
	ExtendNone       Extension = iota
	ExtendLoops                // across backward branches
	ExtendProcedures           // into called procedures and back across their returns
)

var extensionNames = []string{"none", "loops", "procedures"}

func (e Extension) String() string { return extensionNames[e] }

// PPCR is the path profiler control register (§3): the operations of each
// branch type, and the extension options.
type PPCR struct {
	Ops    [NumBranchTypes]Op
	Extend Extension
	MaxExt uint8 // the maximum extension count (the extension counter's limit)
}

// Check enforces §3's restriction: a branch performs at most one of
// update and update-count (the order of the rest is fixed by the hardware).
func (p *PPCR) Check() error {
	for t, o := range p.Ops {
		if o&OpUpdate != 0 && o&OpUpdateCount != 0 {
			return fmt.Errorf("%s: update and update-count are exclusive (§3: a branch performs one of them)", BranchType(t))
		}
		if o&^(OpUpdate|OpUpdateCount|OpPop|OpPush) != 0 {
			return fmt.Errorf("%s: unknown operation bits %#x", BranchType(t), uint8(o))
		}
	}
	if p.Extend != ExtendNone && p.MaxExt == 0 {
		return fmt.Errorf("extension %s needs max_extension >= 1", p.Extend)
	}
	return nil
}

// nesting reports whether calls push and returns pop without pushing: the
// path stack then mirrors the program's activation records, and a return
// can be checked against the call that pushed the top entry.
func (p *PPCR) nesting() bool {
	c, r := p.Ops[Call], p.Ops[Return]
	return c&OpPush != 0 && c&OpPop == 0 && r&OpPop != 0 && r&OpPush == 0
}

// BL is Table 1: acyclic, intra-procedural (Ball-Larus) paths that end at
// backward and indirect branches; calls push and returns pop.
var BL = PPCR{Ops: [NumBranchTypes]Op{
	Call:     OpUpdateCount | OpPush,
	Return:   OpUpdateCount | OpPop,
	Forward:  OpUpdate,
	Backward: OpUpdate | OpPop | OpPush,
	Indirect: OpUpdate | OpPop | OpPush,
}}

// WPP is Table 2: the subpaths of a whole program path, which also end at
// calls and returns.
var WPP = PPCR{Ops: [NumBranchTypes]Op{
	Call:     OpUpdateCount | OpPop | OpPush,
	Return:   OpUpdateCount | OpPop | OpPush,
	Forward:  OpUpdate,
	Backward: OpUpdate | OpPop | OpPush,
	Indirect: OpUpdate | OpPop | OpPush,
}}

// Extended is BL with paths extended across n backward branches (loops)
// or into n levels of called procedures (procedures).
func Extended(e Extension, n uint8) PPCR {
	p := BL
	p.Extend, p.MaxExt = e, n
	return p
}

// ParseOps reads an operation list such as ["update-count", "push"].
func ParseOps(names []string) (Op, error) {
	var o Op
	for _, n := range names {
		switch n {
		case "update":
			o |= OpUpdate
		case "update-count":
			o |= OpUpdateCount
		case "pop":
			o |= OpPop
		case "push":
			o |= OpPush
		default:
			return 0, fmt.Errorf("%q is not an operation (update, update-count, pop, push)", n)
		}
	}
	return o, nil
}
