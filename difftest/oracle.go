// Package difftest runs rvsim's functional core in lock-step with an
// independent reference model (the oracle) and reports the first
// instruction after which their architectural states differ, in the
// manner of XiangShan's and NEMU's difftest against Spike.
//
// The oracle is behind the small Oracle interface; the implementation
// here is Unicorn (Debian's libunicorn2, a QEMU-based emulator), loaded at
// run time through purego, without cgo. See docs/DIFFTEST.md.
package difftest

import "github.com/rvsim/rvsim/mem"

// State is the architectural state compared after every instruction.
type State struct {
	X    [32]uint64 // X[0] is always zero
	F    [32]uint64 // raw bits (NaN-boxed singles included)
	PC   uint64
	FCSR uint64 // frm<<5 | fflags
}

// FFlags returns the accrued exception flags.
func (s *State) FFlags() uint8 { return uint8(s.FCSR & 0x1f) }

// FRM returns the dynamic rounding mode.
func (s *State) FRM() uint8 { return uint8(s.FCSR >> 5 & 7) }

// Trap is an exception the oracle raised instead of completing an
// instruction. The oracle's pc still points at the trapping instruction.
type Trap struct {
	Cause uint64 // mcause-style exception code (8/11: ecall, 2: illegal, 3: ebreak, ...)
}

// Oracle is a reference RV64GC model that can be stepped one instruction
// at a time. Implementations need not be safe for concurrent use.
type Oracle interface {
	// Map maps [addr, addr+size) (page aligned) with permissions perm,
	// zero filled.
	Map(addr, size uint64, perm mem.Perm) error
	// Unmap removes [addr, addr+size).
	Unmap(addr, size uint64) error
	// Protect changes the permissions of [addr, addr+size).
	Protect(addr, size uint64, perm mem.Perm) error
	// ReadMem and WriteMem copy guest bytes, ignoring permissions.
	ReadMem(addr uint64, buf []byte) error
	WriteMem(addr uint64, data []byte) error
	// ReadState and WriteState transfer the compared state in bulk.
	ReadState(s *State) error
	WriteState(s *State) error
	// SetX writes one integer register (r in 1..31); SetF one FP register.
	// Both may be called from a Run callback.
	SetX(r int, v uint64) error
	SetF(r int, v uint64) error
	// Step executes the one instruction at pc. If it raised an exception,
	// trap is non-nil and the instruction did not complete.
	Step(pc uint64) (trap *Trap, err error)
	// Run executes from pc, calling before(pc) before each instruction,
	// when the previous one has completed. It returns when before returns
	// false (that instruction is not executed), with trap set when an
	// instruction raised an exception (it did not complete), or with an
	// error when emulation failed (an access to unmapped memory, ...).
	// before may read and write registers and memory, but not the pc.
	Run(pc uint64, before func(pc uint64) bool) (trap *Trap, err error)
	// Close releases the oracle.
	Close() error
}

// UserModer is an Oracle that can run in U-mode (Unicorn starts in
// M-mode). RunTarget puts it there for a user-mode core, so that
// privileged instructions fault in both models.
type UserModer interface {
	// EnterUserMode drops to U-mode at pc; scratch is a page address that
	// is free in the guest's memory, which the oracle may use meanwhile.
	EnterUserMode(pc, scratch uint64) error
}
