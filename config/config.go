// Package config is the machine configuration of rvsim's timing model: the
// Machine struct, its validation, the named presets (the machines of the
// papers rvsim reproduces, and a sensible default), and a commented TOML
// file that users can edit, read with github.com/BurntSushi/toml like
// rvsim's other files (profhw units, suite files).
//
// The file: `[section]` tables (such as [core] and [fu.int_alu]) whose
// keys take integers, booleans or strings. A top-level `preset = "NAME"`
// names the preset the file starts from; every key left out keeps that
// preset's value. Unknown sections and keys are errors, and every error is
// one line, `file:line: section.key: message`.
//
// Show(name) prints a preset as such a file, with a comment on every key and
// the source of each value the paper states.
package config

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/rvsim/rvsim/internal/tomlfile"
)

// Machine is the configuration of the out-of-order timing model.
type Machine struct {
	Name   string // the preset or file it came from (for reports)
	Core   Core
	FU     FUPool
	BPred  BPred
	L1I    Cache
	L1D    Cache
	L2     Cache
	Memory Memory
}

// Core holds the pipeline widths, depths and window sizes.
type Core struct {
	FetchWidth      int  // instructions per fetch block (one I-cache access)
	FetchQueue      int  // fetch queue entries (instructions)
	DecodeWidth     int  // instructions decoded per cycle
	DecodeStages    int  // cycles from decode to rename/dispatch (front-end depth)
	RenameWidth     int  // instructions renamed and dispatched per cycle
	IssueWidth      int  // instructions issued to functional units per cycle
	CommitWidth     int  // instructions committed per cycle
	ROB             int  // reorder buffer entries
	IQ              int  // issue queue (reservation station) entries
	LQ              int  // load queue entries
	SQ              int  // store queue entries
	LSQ             int  // unified load/store queue limit on LQ+SQ occupancy; 0: none
	IntRegs         int  // integer physical registers (32 hold the architectural state)
	FPRegs          int  // FP physical registers (32 hold the architectural state)
	RedirectPenalty int  // cycles after a mispredicted branch resolves before fetch restarts
	ForwardLatency  int  // store-to-load forwarding latency (cycles)
	DISEPenalty     int  // decode cycles charged per DISE replacement
	DISEPerInst     bool // charge DISEPenalty per injected instruction instead of per replacement
	// DISERedirectPenalty is the redirect latency of DISE's own control
	// transfers (a taken branch inside a replacement sequence, resolved in
	// execute; the call into a handler, resolved in decode); -1: the same
	// as RedirectPenalty. See DISERedirect.
	DISERedirectPenalty int
	DeadlockCycles      int // cycles without progress that count as a deadlock
}

// DISERedirect is the redirect penalty of DISE's control transfers:
// DISERedirectPenalty, or RedirectPenalty when that is -1 (the default).
// The rest of a DISE redirect's cost follows from the front-end depth: the
// redirected stream refills the decode_stages (and, at a handler entry,
// the fetch stages), as after a mispredicted branch.
func (c *Core) DISERedirect() int {
	if c.DISERedirectPenalty < 0 {
		return c.RedirectPenalty
	}
	return c.DISERedirectPenalty
}

// Unit is one kind of functional unit.
type Unit struct {
	Count     int  // how many
	Latency   int  // cycles from issue to result
	Pipelined bool // accepts a new operation every cycle (else busy for Latency cycles)
}

// FUPool is the functional-unit pool.
type FUPool struct {
	IntALU  Unit // integer ALU ops, branches, jumps, CSR and system ops
	IntMul  Unit // integer multiply
	IntDiv  Unit // integer divide and remainder
	FPAdd   Unit // FP add/sub/compare/sign-inject/min/max/convert/move
	FPMul   Unit // FP multiply and fused multiply-add
	FPDiv   Unit // FP divide and square root
	MemPort Unit // load/store address ports (the latency is the address generation)
}

// BPred configures the branch predictor, BTB and return address stack.
type BPred struct {
	Kind           string // perfect, bimodal, gshare or tournament
	BimodalEntries int    // 2-bit counters indexed by PC (bimodal, tournament)
	GshareEntries  int    // 2-bit counters indexed by PC xor history (gshare, tournament)
	HistoryBits    int    // global history length (gshare, tournament)
	MetaEntries    int    // 2-bit chooser counters indexed by PC (tournament)
	BTBEntries     int    // branch target buffer entries
	BTBAssoc       int    // BTB associativity
	RASDepth       int    // return address stack entries (0: no RAS)
}

// Predictor kinds.
var predictorKinds = []string{"perfect", "bimodal", "gshare", "tournament"}

// Cache configures one cache level.
type Cache struct {
	Size    int // bytes
	Assoc   int // ways
	Line    int // line size in bytes
	Latency int // hit latency in cycles (for L1D: load-to-use)
	MSHRs   int // outstanding misses (miss status holding registers)
}

// Sets returns the number of sets.
func (c Cache) Sets() int {
	if c.Assoc <= 0 || c.Line <= 0 {
		return 0
	}
	return c.Size / (c.Assoc * c.Line)
}

// Memory configures main memory.
type Memory struct {
	Latency int // cycles from the last-level cache miss to the data
}

// Error is a configuration error: one line, "file:line: key: message".
type Error struct {
	File string // the file, "" for a Machine built in code
	Line int    // 1-based, 0 if unknown
	Key  string // "section.key" or "[section]", "" for syntax errors
	Msg  string
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		if e.Line > 0 {
			fmt.Fprintf(&b, ":%d", e.Line)
		}
		b.WriteString(": ")
	}
	if e.Key != "" {
		b.WriteString(tomlfile.OneLine(e.Key)) // a quoted TOML key may hold a newline
		b.WriteString(": ")
	}
	b.WriteString(tomlfile.OneLine(e.Msg))
	return b.String()
}

// valueKind is the type of a key's value.
type valueKind uint8

const (
	kindInt valueKind = iota
	kindBool
	kindString
)

// field describes one key of the file: where it lives in Machine, its
// documentation and its constraints. fields is the single source of truth
// for parsing, printing, validation and the documentation.
type field struct {
	sect, key string
	doc       string
	kind      valueKind
	ip        *int
	bp        *bool
	sp        *string
	min, max  int      // ints: inclusive range
	pow2      bool     // ints: must be a power of two
	choices   []string // strings: allowed values
}

func (f *field) name() string { return f.sect + "." + f.key }

func (f *field) value() string {
	switch f.kind {
	case kindInt:
		return fmt.Sprint(*f.ip)
	case kindBool:
		return fmt.Sprint(*f.bp)
	}
	return fmt.Sprintf("%q", *f.sp)
}

// Sections in file order, with a comment for each.
var sections = []struct{ name, doc string }{
	{"core", "Pipeline widths, depths and window sizes."},
	{"fu.int_alu", "Integer ALUs: ALU ops, branches and jumps, CSR and system ops."},
	{"fu.int_mul", "Integer multipliers."},
	{"fu.int_div", "Integer dividers (div, rem)."},
	{"fu.fp_add", "FP adders: add, sub, compare, min/max, sign injection, conversions, moves."},
	{"fu.fp_mul", "FP multipliers: mul and fused multiply-add."},
	{"fu.fp_div", "FP divide and square-root units."},
	{"fu.mem_port", "Load/store ports: address generation; the D-cache latency follows (see [l1d])."},
	{"bpred", "Branch prediction: a direction predictor, a set-associative BTB and a return address stack."},
	{"l1i", "Level-1 instruction cache (LRU, read-only)."},
	{"l1d", "Level-1 data cache (LRU, write-back, write-allocate, non-blocking)."},
	{"l2", "Unified level-2 cache (LRU, write-back, write-allocate, non-blocking)."},
	{"memory", "Main memory."},
}

const maxLatency = 100000

func (m *Machine) fields() []field {
	c := &m.Core
	fs := []field{
		{sect: "core", key: "fetch_width", ip: &c.FetchWidth, min: 1, max: 64,
			doc: "Instructions fetched per cycle, one I-cache access per fetch block; a predicted-taken branch or an I-cache line boundary ends the block."},
		{sect: "core", key: "fetch_queue", ip: &c.FetchQueue, min: 1, max: 4096,
			doc: "Fetch queue entries (instructions) between fetch and decode; keep it >= fetch_width x l1i.latency to sustain full fetch bandwidth."},
		{sect: "core", key: "decode_width", ip: &c.DecodeWidth, min: 1, max: 64,
			doc: "Instructions decoded per cycle."},
		{sect: "core", key: "decode_stages", ip: &c.DecodeStages, min: 1, max: 64,
			doc: "Front-end depth: cycles from decode to rename/dispatch."},
		{sect: "core", key: "rename_width", ip: &c.RenameWidth, min: 1, max: 64,
			doc: "Instructions renamed and dispatched into the ROB and issue queue per cycle."},
		{sect: "core", key: "issue_width", ip: &c.IssueWidth, min: 1, max: 64,
			doc: "Instructions issued to functional units per cycle (oldest ready first)."},
		{sect: "core", key: "commit_width", ip: &c.CommitWidth, min: 1, max: 64,
			doc: "Instructions committed per cycle."},
		{sect: "core", key: "rob", ip: &c.ROB, min: 1, max: 8192,
			doc: "Reorder buffer entries."},
		{sect: "core", key: "iq", ip: &c.IQ, min: 1, max: 8192,
			doc: "Issue queue (reservation station) entries; an instruction holds one from dispatch to issue (more than rob has no effect)."},
		{sect: "core", key: "lq", ip: &c.LQ, min: 1, max: 8192,
			doc: "Load queue entries (loads and AMOs, dispatch to commit)."},
		{sect: "core", key: "sq", ip: &c.SQ, min: 1, max: 8192,
			doc: "Store queue entries (stores and AMOs, dispatch to commit)."},
		{sect: "core", key: "lsq", ip: &c.LSQ, min: 0, max: 16384,
			doc: "Unified load/store queue: a limit on LQ+SQ occupancy together (0: none), for machines that state one LSQ size."},
		{sect: "core", key: "int_regs", ip: &c.IntRegs, min: 33, max: 16384,
			doc: "Integer physical registers; 32 hold the architectural state, the rest bound the in-flight integer results."},
		{sect: "core", key: "fp_regs", ip: &c.FPRegs, min: 33, max: 16384,
			doc: "FP physical registers; 32 hold the architectural state, the rest bound the in-flight FP results."},
		{sect: "core", key: "redirect_penalty", ip: &c.RedirectPenalty, min: 0, max: maxLatency,
			doc: "Cycles after a mispredicted (or BTB-missed) branch resolves in execute before fetch restarts on the right path."},
		{sect: "core", key: "forward_latency", ip: &c.ForwardLatency, min: 1, max: maxLatency,
			doc: "Store-to-load forwarding latency in cycles (from the later of load issue and store data)."},
		{sect: "core", key: "dise_penalty", ip: &c.DISEPenalty, min: 0, max: maxLatency,
			doc: "Decode stall cycles charged for a DISE replacement (DynInst.Injected)."},
		{sect: "core", key: "dise_penalty_per_inst", kind: kindBool, bp: &c.DISEPerInst,
			doc: "Charge dise_penalty for every injected instruction instead of once per replacement sequence."},
		{sect: "core", key: "dise_redirect_penalty", ip: &c.DISERedirectPenalty, min: -1, max: maxLatency,
			doc: "Redirect penalty of DISE control transfers: cycles after a taken branch inside a replacement sequence resolves in execute before the DISE engine resumes the sequence at the branch's target (it is predicted not-taken at decode), and after the call into a handler routine is decoded before fetch restarts at the handler. The redirected instructions then refill the front end (decode_stages; at a handler entry also the I-cache). -1: the same as redirect_penalty."},
		{sect: "core", key: "deadlock_cycles", ip: &c.DeadlockCycles, min: 1000, max: 1 << 30,
			doc: "Cycles without progress in any stage after which the model reports a deadlock (a model bug) with a dump of its queues; the model raises it above the longest wait the other keys allow."},
	}
	units := []struct {
		sect string
		u    *Unit
	}{
		{"fu.int_alu", &m.FU.IntALU}, {"fu.int_mul", &m.FU.IntMul}, {"fu.int_div", &m.FU.IntDiv},
		{"fu.fp_add", &m.FU.FPAdd}, {"fu.fp_mul", &m.FU.FPMul}, {"fu.fp_div", &m.FU.FPDiv},
		{"fu.mem_port", &m.FU.MemPort},
	}
	for _, u := range units {
		fs = append(fs,
			field{sect: u.sect, key: "count", ip: &u.u.Count, min: 1, max: 64, doc: "Units."},
			field{sect: u.sect, key: "latency", ip: &u.u.Latency, min: 1, max: maxLatency, doc: "Cycles from issue to result."},
			field{sect: u.sect, key: "pipelined", kind: kindBool, bp: &u.u.Pipelined,
				doc: "true: a unit accepts a new operation every cycle; false: it is busy for the whole latency."},
		)
	}
	b := &m.BPred
	fs = append(fs,
		field{sect: "bpred", key: "kind", kind: kindString, sp: &b.Kind, choices: predictorKinds,
			doc: `Direction predictor: "perfect" (never wrong, for validation), "bimodal", "gshare" or "tournament" (bimodal + gshare with a meta chooser).`},
		field{sect: "bpred", key: "bimodal_entries", ip: &b.BimodalEntries, min: 1, max: 1 << 24, pow2: true,
			doc: "Bimodal table: 2-bit counters indexed by PC (bimodal, tournament)."},
		field{sect: "bpred", key: "gshare_entries", ip: &b.GshareEntries, min: 1, max: 1 << 24, pow2: true,
			doc: "Gshare table: 2-bit counters indexed by PC xor global history (gshare, tournament)."},
		field{sect: "bpred", key: "history_bits", ip: &b.HistoryBits, min: 1, max: 30,
			doc: "Global history length in branches (gshare, tournament)."},
		field{sect: "bpred", key: "meta_entries", ip: &b.MetaEntries, min: 1, max: 1 << 24, pow2: true,
			doc: "Tournament chooser: 2-bit counters indexed by PC, picking bimodal or gshare."},
		field{sect: "bpred", key: "btb_entries", ip: &b.BTBEntries, min: 1, max: 1 << 24, pow2: true,
			doc: "Branch target buffer entries; a taken branch or jump that misses in the BTB is a misfetch, handled like a mispredict."},
		field{sect: "bpred", key: "btb_assoc", ip: &b.BTBAssoc, min: 1, max: 1 << 24, pow2: true,
			doc: "BTB associativity (LRU)."},
		field{sect: "bpred", key: "ras_depth", ip: &b.RASDepth, min: 0, max: 1 << 16,
			doc: "Return address stack entries (0: returns are predicted by the BTB); an overflow overwrites the oldest entry."},
	)
	for _, cc := range []struct {
		sect string
		c    *Cache
	}{{"l1i", &m.L1I}, {"l1d", &m.L1D}, {"l2", &m.L2}} {
		lat := "Hit latency in cycles."
		switch cc.sect {
		case "l1i":
			lat = "Hit latency in cycles: a fetched block reaches decode this many cycles after its access."
		case "l1d":
			lat = "Hit latency in cycles after address generation: a load's result is ready fu.mem_port.latency + l1d.latency cycles after it issues."
		case "l2":
			lat = "Hit latency in cycles, added to the L1 latency on an L1 miss."
		}
		fs = append(fs,
			field{sect: cc.sect, key: "size", ip: &cc.c.Size, min: 64, max: 1 << 30, doc: "Capacity in bytes."},
			field{sect: cc.sect, key: "assoc", ip: &cc.c.Assoc, min: 1, max: 1024, doc: "Ways (1: direct mapped)."},
			field{sect: cc.sect, key: "line", ip: &cc.c.Line, min: 4, max: 4096, pow2: true, doc: "Line (block) size in bytes."},
			field{sect: cc.sect, key: "latency", ip: &cc.c.Latency, min: 1, max: maxLatency, doc: lat},
			field{sect: cc.sect, key: "mshrs", ip: &cc.c.MSHRs, min: 1, max: 1024,
				doc: "Miss status holding registers: misses to distinct lines in flight at once; a further miss waits for one to free."},
		)
	}
	fs = append(fs, field{sect: "memory", key: "latency", ip: &m.Memory.Latency, min: 1, max: maxLatency,
		doc: "Cycles from an L2 miss to the data (added to the L1 and L2 latencies)."})
	return fs
}

// Keys returns every "section.key" name in file order.
func Keys() []string {
	var m Machine
	fs := m.fields()
	out := make([]string, len(fs))
	for i := range fs {
		out[i] = fs[i].name()
	}
	return out
}

// KeyDoc returns the documentation of "section.key", or "" if unknown.
func KeyDoc(key string) string {
	var m Machine
	for _, f := range m.fields() {
		if f.name() == key {
			return f.doc
		}
	}
	return ""
}

// Validate checks every value and the constraints between values. The
// error names the first bad key.
func (m *Machine) Validate() error { return m.validate(nil) }

// validate reports errors at the positions in pos (key -> *Error with File
// and Line) when the key came from a file.
func (m *Machine) validate(pos map[string]Error) error {
	bad := func(key, format string, args ...any) error {
		e := pos[key]
		e.Key, e.Msg = key, fmt.Sprintf(format, args...)
		return &e
	}
	for _, f := range m.fields() {
		switch f.kind {
		case kindInt:
			v := *f.ip
			if v < f.min || v > f.max {
				return bad(f.name(), "%d is out of range [%d, %d]", v, f.min, f.max)
			}
			if f.pow2 && bits.OnesCount(uint(v)) != 1 {
				return bad(f.name(), "%d is not a power of two", v)
			}
		case kindString:
			if !contains(f.choices, *f.sp) {
				return bad(f.name(), "%q is not one of %s", *f.sp, strings.Join(f.choices, ", "))
			}
		}
	}
	c := &m.Core
	if c.FetchQueue < c.FetchWidth {
		return bad("core.fetch_queue", "%d is smaller than core.fetch_width (%d)", c.FetchQueue, c.FetchWidth)
	}
	if c.LSQ != 0 && c.LSQ < 2 {
		return bad("core.lsq", "%d is too small: 0 (no unified limit) or at least 2", c.LSQ)
	}
	b := &m.BPred
	if b.BTBAssoc > b.BTBEntries {
		return bad("bpred.btb_assoc", "%d is larger than bpred.btb_entries (%d)", b.BTBAssoc, b.BTBEntries)
	}
	for _, cc := range []struct {
		name string
		c    Cache
	}{{"l1i", m.L1I}, {"l1d", m.L1D}, {"l2", m.L2}} {
		if cc.c.Size%(cc.c.Assoc*cc.c.Line) != 0 {
			return bad(cc.name+".size", "%d is not a multiple of assoc x line (%d x %d)", cc.c.Size, cc.c.Assoc, cc.c.Line)
		}
		if s := cc.c.Sets(); bits.OnesCount(uint(s)) != 1 {
			return bad(cc.name+".size", "%d gives %d sets (size / (assoc x line)); the set count must be a power of two", cc.c.Size, s)
		}
	}
	for _, l1 := range []string{"l1i", "l1d"} {
		line := m.L1I.Line
		if l1 == "l1d" {
			line = m.L1D.Line
		}
		if m.L2.Line < line {
			return bad("l2.line", "%d is smaller than %s.line (%d); an L1 line must fill from one L2 line", m.L2.Line, l1, line)
		}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
