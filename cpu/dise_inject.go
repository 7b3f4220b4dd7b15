package cpu

import (
	"errors"

	"github.com/rvsim/rvsim/isa"
)

// The pieces of the core's DISE side that drivers outside the core need:
// external triggers (hps-phase-aware-remote-profiling.md §3.4) are
// injected between application instructions, and periodic triggers count
// application instructions.

// DISEStep returns 0 when no replacement sequence or handler routine is in
// progress (the core is at an application instruction boundary);
// otherwise the smallest budget that lets Run make progress (a handler
// call retires its argument stores and jump at once).
func (c *CPU) DISEStep() uint64 {
	switch {
	case c.attn.inSeq:
		if s := &c.seq.src[c.seq.idx]; s.Kind == SeqCall {
			return callRecords(s.Call)
		}
		return 1
	case len(c.saved) > 0:
		return 1
	}
	return 0
}

// AppInstret is the number of application instructions retired: every
// retired instruction except those a replacement sequence injected (the
// originals count), the stores and jumps of handler calls, and the
// handler routines' own instructions.
func (c *CPU) AppInstret() uint64 {
	n := c.Instret - c.dise.InjectedInstructions - c.dise.CallInstructions - c.dise.HandlerInstructions
	if len(c.handlerStart) > 0 { // inside a handler: its instructions so far
		n -= c.Instret - c.handlerStart[0]
	}
	return n
}

// Inject makes x run before the instruction at c.PC, as if decode had
// inserted it there with no original: how an external trigger's hps.on
// or hps.off enters the stream. Its first element carries the decode
// penalty like any replacement's; every element is injected. x must not
// contain SeqOriginal, and the core must be at an application instruction
// boundary (DISEStep() == 0) with an editor attached.
func (c *CPU) Inject(x *Expansion) error {
	switch {
	case c.editor == nil:
		return errors.New("cpu: inject: no DISE editor attached")
	case c.DISEStep() != 0:
		return errors.New("cpu: inject: a replacement sequence or handler is in progress")
	case x == nil || len(x.Seq) == 0:
		return errors.New("cpu: inject: empty sequence")
	}
	for _, s := range x.Seq {
		if s.Kind == SeqOriginal {
			return errors.New("cpu: inject: an injected sequence has no original")
		}
	}
	// A zero-length original: when the sequence ends, execution resumes at c.PC.
	c.enterSequence(x, &isa.Inst{Op: isa.HPS_ON, Class: isa.System}, c.PC)
	return nil
}
