package cpu

// The translator: a block that has started jitHot times is translated
// into host code (jit_amd64.go, on amd64 hosts; elsewhere there is none
// and the interpreter runs everything). Block starts look for a
// translation when attn.jit is set (attentionBlock, jitRun), which is only
// for runs that observe no single instruction: no observer (tracing,
// difftest, timing mode), no DISE editor, no retire tap but a value or a
// control tap. Class-mix counting (CountMix, --stats) is done by the
// translations themselves, with the interpreter's per-block counters
// (mix.go), and so are a value tap's records (SetTapValues: the profiling
// units' value presets) and a control tap's (SetTapControls: the path
// presets): a translated load (transfer) stores its record at the tap's
// offset vo while vo < vlim, Run's rule (tap.go), and otherwise leaves
// translated code before it, so that the interpreter records it and
// delivers right after it, as it would have. Translations made under
// different taps, as with and without counting, are never mixed (jitRun
// empties the buffer when either changes).
// docs/ARCHITECTURE.md ("The translator") describes the design.

// SetJIT turns the translator on or off. On hosts without one it stays off.
func (c *CPU) SetJIT(on bool) { c.jit.on = on && jitSupported }

// JIT reports whether the translator is on (SetJIT).
func (c *CPU) JIT() bool { return c.jit.on }

// jitUsable says whether this run may use translated code: the
// translator is on and nothing needs to see individual instructions (a
// value or control tap's records the translations make themselves).
func (c *CPU) jitUsable() bool {
	return c.jit.on && c.observer == nil && c.editor == nil && (c.tap.mask == 0 || c.jitTaps() != 0) && c.Instret >= c.jit.pauseUntil
}

// jitTaps says which tap the translations record: 0 none, 1 a value
// tap's loads, 2 a control tap's transfers (never both: tap.go).
func (c *CPU) jitTaps() uint8 {
	switch {
	case c.tap.vsink != nil:
		return 1
	case c.tap.csink != nil:
		return 2
	}
	return 0
}

// JITTest holds the translator's settings for its oracle tests (the
// lock-step tests in sim and difftest/gen).
type JITTest struct {
	// Hook is called after every return from translated code, with the pc
	// it goes on at and the instructions retired by then (Instret is only
	// brought up to date when Run returns). It must not change the hart.
	Hook func(pc, instret uint64)
	// EveryBlock turns chaining off, so that every block returns (and
	// Hook sees every block's exit).
	EveryBlock bool
	// Hot, if not 0, is the number of starts before a block is translated.
	Hot uint16
	// AnyPart translates the translatable start of a block however
	// short it is.
	AnyPart bool
	// Window, if not 0, replaces the window over which the share of
	// translated instructions is measured (and scales the pause).
	Window uint64
}

// SetJITTest applies t (nil: the defaults).
func (c *CPU) SetJITTest(t *JITTest) {
	if t == nil {
		t = &JITTest{}
	}
	c.jit.test = *t
}

// JITStats counts the translator's work.
type JITStats struct {
	Blocks       uint64 // blocks translated
	Instructions uint64 // guest instructions in them
	Entries      uint64 // times Go entered translated code
	Retired      uint64 // guest instructions retired in translated code
	Flushes      uint64 // times the code buffer filled and was emptied
	Pauses       uint64 // times too little ran translated and the translator paused
}

// JITStats returns the translator's counters.
func (c *CPU) JITStats() JITStats { return c.jit.stats }
