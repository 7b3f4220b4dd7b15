package sim

import (
	"bufio"
	"fmt"
	"io"

	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/isa"
)

// tracer writes the commit log: one line per retired instruction with the
// pc, the raw encoding, the disassembly and the register write (and the
// memory access, for loads and stores), in the spirit of Spike's log:
//
//	0x0000000000010144 (0x00000517) auipc   a0,0x0                x10 0x0000000000010144
//
// After a write error the tracer stops formatting: the writer keeps the
// error for its owner to report (cmd/rvsim's outputs do, through package
// outfile), and the run goes on to its own end.
type tracer struct {
	w      *bufio.Writer
	failed bool
}

func newTracer(w io.Writer) *tracer { return &tracer{w: bufio.NewWriterSize(w, 1<<16)} }

func (t *tracer) Retire(batch []cpu.DynInst) {
	if t.failed {
		return
	}
	for i := range batch {
		d := &batch[i]
		raw := fmt.Sprintf("0x%08x", d.Inst.Raw)
		if d.Inst.Len == 2 {
			raw = fmt.Sprintf("0x%04x", d.Inst.Raw)
		}
		fmt.Fprintf(t.w, "0x%016x (%s) %-30s", d.PC, raw, d.Inst.StringAt(d.PC))
		info := d.Inst.Info()
		switch {
		case info.Rd == isa.XReg && d.Inst.Rd != 0:
			fmt.Fprintf(t.w, " x%-2d 0x%016x", d.Inst.Rd, d.Result)
		case info.Rd == isa.FReg:
			fmt.Fprintf(t.w, " f%-2d 0x%016x", d.Inst.Rd, d.Result)
		}
		if d.Size != 0 {
			fmt.Fprintf(t.w, " mem 0x%016x", d.Addr)
		}
		t.w.WriteByte('\n')
	}
	t.failed = t.w.Flush() != nil
}
