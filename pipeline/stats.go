package pipeline

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/rvsim/rvsim/mem"
	"github.com/rvsim/rvsim/pipeline/bpred"
)

// Stats returns the timing statistics as a JSON-ready map, for merging into
// the run's --stats object:
//
//	cycles, instructions, ipc, cpi, machine
//	stalls:    cycles each stage stalled, by cause (see docs/TIMING.md)
//	cpi_stack: every cycle in exactly one bucket (they sum to cycles)
//	bpred:     per control class: lookups, mispredicts, accuracy, ...
//	caches:    per level (l1i, l1d, l2): accesses, hits, misses, writebacks, ...; memory reads/writes
//	fu:        per unit kind: count, issued, busy cycles, utilisation
//	pipeline:  per-stage counters (fetch blocks, DISE charges, forwards, ...)
func (c *Core) Stats() map[string]any {
	cycles, insts := c.now, c.head
	out := map[string]any{
		"machine":      c.cfg.Name,
		"cycles":       cycles,
		"instructions": insts,
		"ipc":          ratio(insts, cycles),
		"cpi":          ratio(cycles, insts),
	}
	stalls := map[string]uint64{}
	for i, n := range stallNames {
		stalls[n] = c.stalls[i]
	}
	out["stalls"] = stalls
	stack := map[string]uint64{}
	cpi := c.cpiStack()
	for i, n := range cpiNames {
		stack[n] = cpi[i]
	}
	out["cpi_stack"] = stack

	bp := map[string]any{"kind": c.cfg.BPred.Kind}
	var all bpred.Stats
	for g := bpred.Group(0); g < bpred.NumGroups; g++ {
		s := c.bp.Stats(g)
		all.Lookups += s.Lookups
		all.Mispredicts += s.Mispredicts
		bp[g.String()] = map[string]any{
			"lookups": s.Lookups, "mispredicts": s.Mispredicts, "accuracy": s.Accuracy(),
			"direction_wrong": s.DirWrong, "btb_misses": s.BTBMisses, "ras_wrong": s.RASWrong,
		}
	}
	bp["all"] = map[string]any{"lookups": all.Lookups, "mispredicts": all.Mispredicts, "accuracy": all.Accuracy()}
	out["bpred"] = bp

	caches := map[string]any{}
	for _, l := range []struct {
		name string
		c    *mem.Cache
	}{{"l1i", c.l1i}, {"l1d", c.l1d}, {"l2", c.l2}} {
		s := l.c.Stats()
		caches[l.name] = map[string]any{
			"accesses": s.Accesses(), "reads": s.Reads, "writes": s.Writes,
			"hits": s.Hits, "misses": s.Misses(), "read_misses": s.ReadMisses, "write_misses": s.WriteMisses,
			"mshr_hits": s.MSHRHits, "miss_rate": ratio(s.Misses(), s.Accesses()),
			"writebacks": s.Writebacks, "writebacks_in": s.WritebacksIn,
			"mshr_full": s.MSHRFull, "mshr_full_cycles": s.MSHRFullCycles,
		}
	}
	caches["memory"] = map[string]any{"reads": c.memory.Reads, "writes": c.memory.Writes}
	out["caches"] = caches

	fu := map[string]any{}
	for f := 0; f < numFU; f++ {
		fu[fuNames[f]] = map[string]any{
			"count": c.issue.count[f], "issued": c.issue.issued[f], "busy_cycles": c.issue.busyCycles[f],
			"utilisation": ratio(c.issue.busyCycles[f], cycles*uint64(c.issue.count[f])),
		}
	}
	out["fu"] = fu

	commit := map[string]any{"instructions": c.head, "loads": c.commit.loads,
		"stores": c.commit.stores, "retire_hook_stalls": c.commit.hookStalls,
		"retire_hook_stall_cycles": c.commit.cost.blocked, "retire_hook_stall_cycles_dropped": c.commit.cost.dropped}
	// The stalls' real cost is the twin's account, known once it has
	// finished: before that (a sampled window's snapshot), or without a
	// twin when the stalls are not measured, it is left out, not given
	// as 0.
	switch h := &c.commit.cost; {
	case h.twin != nil && !h.twin.finished:
	case c.hook != nil && !h.drop && h.unmeasured:
	default:
		commit["retire_hook_stall_cycles_real"] = h.real()
	}
	out["pipeline"] = map[string]any{
		"fetch": map[string]any{"instructions": c.fetched, "blocks": c.fetch.blocks,
			"icache_misses": c.fetch.icacheMisses, "redirects": c.fetch.redirects, "traps": c.fetch.traps,
			"context_switches":     c.fetch.switches,
			"dise_handler_entries": c.fetch.handlerEntries, "dise_returns": c.fetch.diseReturns,
			"dise_return_mispredicts": c.fetch.diseReturnMisses},
		"decode": map[string]any{"instructions": c.decoded, "dise_charges": c.decode.diseCharges,
			"dise_taken_branches": c.decode.diseTaken},
		"rename": map[string]any{"instructions": c.dispatched},
		"issue": map[string]any{"loads_blocked_by_store_address": c.issue.loadsBlocked,
			"forwards": c.issue.forwards, "forward_waits_for_data": c.issue.fwdWaits,
			"partial_overlap_waits": c.issue.partialWaits},
		"commit": commit,
	}
	return out
}

// cpiStack is the CPI stack, with the profiler bucket holding the cycles
// the retire hook's stalls really cost (hookcost.go). With a twin (a hook
// installed, its stalls honoured) the stack is the twin's (where the
// cycles of the same run without the stalls went) plus that cost in the
// profiler bucket: the buckets sum to the run's cycles, and against a run
// without the hook only the profiler bucket moves. In the rare run whose
// stalls made it shorter (a timing anomaly, hookcost.go) it is the run's
// own stack with the blocked cycles counted as commit cycles (the
// instruction at the head was complete).
func (c *Core) cpiStack() [numCPI]uint64 {
	h := &c.commit.cost
	switch {
	case h.twin == nil || !h.twin.finished: // (before Finish: the twin runs on)
		return c.cpi
	case h.acct.lag >= 0:
		s := h.twin.core.cpi
		s[cpiProfiler] = h.real()
		return s
	}
	s := c.cpi
	s[cpiCommit] += s[cpiProfiler]
	s[cpiProfiler] = 0
	return s
}

func ratio(a, b uint64) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// Summary writes a human-readable summary of the run's timing.
func (c *Core) Summary(w io.Writer) {
	cycles, insts := c.now, c.head
	fmt.Fprintf(w, "timing (%s): %d instructions in %d cycles, IPC %.3f, CPI %.3f\n",
		c.cfg.Name, insts, cycles, ratio(insts, cycles), ratio(cycles, insts))
	var parts []string
	cpi := c.cpiStack()
	for i, n := range cpiNames {
		if cpi[i] > 0 {
			parts = append(parts, fmt.Sprintf("%s %.1f%%", n, 100*ratio(cpi[i], cycles)))
		}
	}
	fmt.Fprintf(w, "  cycles: %s\n", strings.Join(parts, ", "))
	parts = parts[:0]
	for i, n := range stallNames {
		if c.stalls[i] > 0 {
			p := fmt.Sprintf("%s %d", n, c.stalls[i])
			if i == stallProfiler { // the cycles commit was blocked, and what they cost
				p += fmt.Sprintf(" (%d delayed the run)", c.commit.cost.real())
			}
			parts = append(parts, p)
		}
	}
	if len(parts) > 0 {
		fmt.Fprintf(w, "  stall cycles: %s\n", strings.Join(parts, ", "))
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "  branches\tlookups\tmispredicts\taccuracy\t")
	for g := bpred.Group(0); g < bpred.NumGroups; g++ {
		s := c.bp.Stats(g)
		if s.Lookups > 0 {
			fmt.Fprintf(tw, "  %s\t%d\t%d\t%.2f%%\t\n", g, s.Lookups, s.Mispredicts, 100*s.Accuracy())
		}
	}
	fmt.Fprintln(tw, "  cache\taccesses\tmisses\tmiss rate\twritebacks\t")
	for _, l := range []struct {
		name string
		c    *mem.Cache
	}{{"l1i", c.l1i}, {"l1d", c.l1d}, {"l2", c.l2}} {
		s := l.c.Stats()
		fmt.Fprintf(tw, "  %s\t%d\t%d\t%.2f%%\t%d\t\n", l.name, s.Accesses(), s.Misses(),
			100*ratio(s.Misses(), s.Accesses()), s.Writebacks)
	}
	tw.Flush()
	parts = parts[:0]
	for f := 0; f < numFU; f++ {
		parts = append(parts, fmt.Sprintf("%s %.1f%%", fuNames[f],
			100*ratio(c.issue.busyCycles[f], cycles*uint64(c.issue.count[f]))))
	}
	fmt.Fprintf(w, "  unit utilisation: %s\n", strings.Join(parts, ", "))
}

// snapshot is the counters an interval line reports as differences.
type snapshot struct {
	cycles, insts          uint64
	branches, mispredicts  uint64
	icMiss, dcMiss, l2Miss uint64
	stalls                 [numStall]uint64
}

func (c *Core) snapshot() snapshot {
	s := snapshot{cycles: c.now, insts: c.head, stalls: c.stalls}
	for g := bpred.Group(0); g < bpred.NumGroups; g++ {
		st := c.bp.Stats(g)
		s.branches += st.Lookups
		s.mispredicts += st.Mispredicts
	}
	ic, dc, l2 := c.l1i.Stats(), c.l1d.Stats(), c.l2.Stats()
	s.icMiss, s.dcMiss, s.l2Miss = ic.Misses(), dc.Misses(), l2.Misses()
	return s
}

// intervalWriter writes one CSV line per interval of committed instructions.
type intervalWriter struct {
	w     io.Writer
	n     uint64
	next  uint64
	index uint64
	last  snapshot
	err   error
}

var intervalColumns = []string{"interval", "end_instruction", "instructions", "cycles", "cpi",
	"branches", "mispredicts", "icache_misses", "dcache_misses", "l2_misses"}

func (iv *intervalWriter) header() {
	cols := append([]string(nil), intervalColumns...)
	for _, n := range stallNames {
		cols = append(cols, "stall_"+n)
	}
	_, iv.err = fmt.Fprintln(iv.w, strings.Join(cols, ","))
}

// flush writes the interval ending now (final: the partial last interval).
func (iv *intervalWriter) flush(c *Core, final bool) {
	if iv.w == nil || iv.n == 0 || iv.err != nil {
		return
	}
	cur := c.snapshot()
	d := cur.insts - iv.last.insts
	if d == 0 || (!final && cur.insts < iv.next) {
		return
	}
	var b strings.Builder
	cyc := cur.cycles - iv.last.cycles
	fmt.Fprintf(&b, "%d,%d,%d,%d,%.4f,%d,%d,%d,%d,%d", iv.index, cur.insts, d, cyc, ratio(cyc, d),
		cur.branches-iv.last.branches, cur.mispredicts-iv.last.mispredicts,
		cur.icMiss-iv.last.icMiss, cur.dcMiss-iv.last.dcMiss, cur.l2Miss-iv.last.l2Miss)
	for i := range cur.stalls {
		fmt.Fprintf(&b, ",%d", cur.stalls[i]-iv.last.stalls[i])
	}
	b.WriteByte('\n')
	_, iv.err = io.WriteString(iv.w, b.String())
	iv.index++
	iv.last = cur
	for iv.next <= cur.insts {
		iv.next += iv.n
	}
}

// Breakdown is where a run's cycles went, in typed form for the profiler
// comparison: the CPI stack (every cycle in one bucket, keyed as in
// Stats), the stall counters, and the DISE front-end events.
type Breakdown struct {
	CPI    map[string]uint64
	Stalls map[string]uint64
	// DISE: replacements charged in decode, taken branches inside
	// replacement sequences, calls into handlers, and dise.ret returns and
	// how many the RAS mispredicted.
	DISECharges, DISETakenBranches, HandlerEntries, DISEReturns, DISEReturnMispredicts uint64
}

// CPIBuckets names the CPI-stack buckets in a fixed order.
func CPIBuckets() []string { return append([]string(nil), cpiNames[:]...) }

// Breakdown returns the run's cycle accounting so far.
func (c *Core) Breakdown() Breakdown {
	b := Breakdown{CPI: map[string]uint64{}, Stalls: map[string]uint64{},
		DISECharges: c.decode.diseCharges, DISETakenBranches: c.decode.diseTaken,
		HandlerEntries: c.fetch.handlerEntries, DISEReturns: c.fetch.diseReturns, DISEReturnMispredicts: c.fetch.diseReturnMisses}
	cpi := c.cpiStack()
	for i, n := range cpiNames {
		b.CPI[n] = cpi[i]
	}
	for i, n := range stallNames {
		b.Stalls[n] = c.stalls[i]
	}
	return b
}
