package difftest

import (
	"fmt"
	"io"
	"strings"

	"golang.org/x/arch/riscv64/riscv64asm"
)

// RegDiff is one register (or stored memory word) whose value differs.
type RegDiff struct {
	Name     string // "a0 (x10)", "fa1 (f11)", "pc", "fflags", "mem[0x1000]/8"
	Expected uint64 // the oracle's value
	Actual   uint64 // rvsim's value
}

// Retired is one entry of the recent-instruction history.
type Retired struct {
	Seq uint64 // 0-based retirement number
	PC  uint64
	Raw uint32 // 16-bit instructions in the low half
	Len uint8
}

// Disasm disassembles the instruction with golang.org/x/arch (an
// independent decoder), or says it cannot.
func (r Retired) Disasm() string { return disasm(r.Raw, r.Len) }

func disasm(raw uint32, n uint8) string {
	b := []byte{byte(raw), byte(raw >> 8), byte(raw >> 16), byte(raw >> 24)}
	in, err := riscv64asm.Decode(b[:n])
	if err != nil {
		return "(unknown to x/arch)"
	}
	return riscv64asm.GNUSyntax(in)
}

// HistoryLen is how many retired instructions a divergence report shows.
const HistoryLen = 32

// history is a ring of the last HistoryLen retired instructions.
type history struct {
	buf [HistoryLen]Retired
	n   uint64
}

func (h *history) add(seq, pc uint64, raw uint32, n uint8) {
	h.buf[h.n%HistoryLen] = Retired{Seq: seq, PC: pc, Raw: raw, Len: n}
	h.n++
}

// last returns the recorded instructions, oldest first.
func (h *history) last() []Retired {
	k := min(h.n, HistoryLen)
	out := make([]Retired, 0, k)
	for i := h.n - k; i < h.n; i++ {
		out = append(out, h.buf[i%HistoryLen])
	}
	return out
}

// Divergence is the first instruction after which the models differ.
type Divergence struct {
	Seq     uint64 // 0-based number of the instruction (instructions retired before it)
	PC      uint64
	Raw     uint32
	Len     uint8
	Disasm  string    // x/arch disassembly
	Diffs   []RegDiff // differing registers and stored bytes
	Note    string    // what else went wrong (a trap in one model only, ...)
	History []Retired // the last retired instructions, oldest first, ending with this one
}

// divergeAt records the first divergence, at the pending instruction,
// and stops the run.
func (d *driver) divergeAt(p *pending, diffs []RegDiff, note string) {
	raw, n := p.di.Inst.Raw, p.di.Inst.Len
	if p.kind == pendFault || n == 0 {
		raw, n = d.fetch(p.pc)
	}
	d.rep.Divergence = &Divergence{
		Seq: p.seq, PC: p.pc, Raw: raw, Len: n, Disasm: disasm(raw, n),
		Diffs: diffs, Note: note, History: d.ring.last(),
	}
	d.stop = stopDiverge
}

func encoding(raw uint32, n uint8) string {
	if n == 2 {
		return fmt.Sprintf("%04x", raw&0xffff)
	}
	return fmt.Sprintf("%08x", raw)
}

// Write renders the report of a divergence: the instruction, each
// differing register with the oracle's (expected) and rvsim's (actual)
// value, and the last retired instructions.
func (v *Divergence) Write(w io.Writer) {
	fmt.Fprintf(w, "difftest: divergence at instruction %d, pc %#x: %s  (%s)\n", v.Seq, v.PC, v.Disasm, encoding(v.Raw, v.Len))
	if v.Note != "" {
		fmt.Fprintf(w, "  %s\n", v.Note)
	}
	if len(v.Diffs) > 0 {
		fmt.Fprintf(w, "  %-16s %-20s %-20s\n", "register", "expected (oracle)", "actual (rvsim)")
		for _, d := range v.Diffs {
			fmt.Fprintf(w, "  %-16s %#018x   %#018x\n", d.Name, d.Expected, d.Actual)
		}
	}
	fmt.Fprintf(w, "last %d retired instructions (oldest first):\n", len(v.History))
	for _, r := range v.History {
		fmt.Fprintf(w, "  %10d  %#10x  %-8s  %s\n", r.Seq, r.PC, encoding(r.Raw, r.Len), r.Disasm())
	}
}

// String renders the divergence as Write does.
func (v *Divergence) String() string {
	var b strings.Builder
	v.Write(&b)
	return b.String()
}

var abiNames = [32]string{"zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1",
	"a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7",
	"s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6"}

var fabiNames = [32]string{"ft0", "ft1", "ft2", "ft3", "ft4", "ft5", "ft6", "ft7", "fs0", "fs1",
	"fa0", "fa1", "fa2", "fa3", "fa4", "fa5", "fa6", "fa7", "fs2", "fs3", "fs4", "fs5", "fs6",
	"fs7", "fs8", "fs9", "fs10", "fs11", "ft8", "ft9", "ft10", "ft11"}

func xregName(r uint8) string { return fmt.Sprintf("%s (x%d)", abiNames[r&31], r&31) }
func fregName(r uint8) string { return fmt.Sprintf("%s (f%d)", fabiNames[r&31], r&31) }
