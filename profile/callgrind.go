package profile

import (
	"bufio"
	"fmt"
	"io"
	"sort"
)

// Callgrind is the content of a file in the callgrind format (valgrind's
// docs/callgrind-format, "Callgrind Format Specification"), which
// KCachegrind and callgrind_annotate read: events, costs per instruction
// address (grouped by file and function, with the source line), and call
// arcs with their call counts and inclusive costs.
type Callgrind struct {
	Events []CallgrindEvent
	Self   map[uint64][]uint64 // per instruction address, one cost per event
	Calls  []CallgrindCall
}

// CallgrindEvent is an event: its short name (letters and digits) and
// what it counts.
type CallgrindEvent struct{ Name, Desc string }

// CallgrindCall is a call arc: calls at Site to the function at Target,
// and the costs spent inside them (inclusive).
type CallgrindCall struct {
	Site, Target uint64
	Calls        uint64
	Costs        []uint64
}

// Merge adds o's events after c's (each address's costs extended).
func (c *Callgrind) Merge(o *Callgrind) {
	n, m := len(c.Events), len(o.Events)
	c.Events = append(c.Events, o.Events...)
	for pc, costs := range c.Self {
		c.Self[pc] = append(costs, make([]uint64, m)...)
	}
	for pc, costs := range o.Self {
		if c.Self[pc] == nil {
			c.Self[pc] = make([]uint64, n+m)
		}
		copy(c.Self[pc][n:], costs)
	}
	for i := range c.Calls {
		c.Calls[i].Costs = append(c.Calls[i].Costs, make([]uint64, m)...)
	}
	for _, k := range o.Calls {
		k.Costs = append(make([]uint64, n), k.Costs...)
		c.Calls = append(c.Calls, k)
	}
}

// Write writes the file: prog is the program (ob=), res names each
// address's function, file and line.
func (c *Callgrind) Write(w io.Writer, prog string, res Resolver) error {
	type where struct {
		fn, file string
		line     int
	}
	names := map[uint64]where{}
	at := func(pc uint64) where {
		if x, ok := names[pc]; ok {
			return x
		}
		var x where
		if res != nil {
			x.fn, x.file, x.line = res(pc)
		}
		if x.fn == "" {
			x.fn = Hex(pc)
		}
		if x.file == "" {
			x.file = "???" // callgrind's name for an unknown file
		}
		names[pc] = x
		return x
	}
	// Rows: self costs and calls, sorted by the caller's file, function,
	// then address (a call after the self costs of its site).
	type row struct {
		pc   uint64
		call *CallgrindCall
	}
	rows := make([]row, 0, len(c.Self)+len(c.Calls))
	for pc := range c.Self {
		rows = append(rows, row{pc: pc})
	}
	for i := range c.Calls {
		rows = append(rows, row{pc: c.Calls[i].Site, call: &c.Calls[i]})
	}
	sort.Slice(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		wa, wb := at(a.pc), at(b.pc)
		if wa.file != wb.file {
			return wa.file < wb.file
		}
		if wa.fn != wb.fn {
			return wa.fn < wb.fn
		}
		if a.pc != b.pc {
			return a.pc < b.pc
		}
		if (a.call == nil) != (b.call == nil) {
			return a.call == nil
		}
		return a.call != nil && a.call.Target < b.call.Target
	})
	total := make([]uint64, len(c.Events))
	for _, costs := range c.Self {
		for i, v := range costs {
			total[i] += v
		}
	}
	bw := bufio.NewWriter(w)
	costs := func(vs []uint64) {
		for _, v := range vs {
			fmt.Fprintf(bw, " %d", v)
		}
		bw.WriteByte('\n')
	}
	fmt.Fprintf(bw, "# callgrind format\nversion: 1\ncreator: rvsim\ncmd: %s\npositions: instr line\n", prog)
	for _, e := range c.Events {
		fmt.Fprintf(bw, "event: %s : %s\n", e.Name, e.Desc)
	}
	bw.WriteString("events:")
	for _, e := range c.Events {
		bw.WriteString(" " + e.Name)
	}
	bw.WriteString("\nsummary:")
	costs(total)
	fmt.Fprintf(bw, "\nob=%s\n", prog)
	file, fn := "", ""
	for _, r := range rows {
		x := at(r.pc)
		if x.file != file {
			fmt.Fprintf(bw, "fl=%s\n", x.file)
			file, fn = x.file, ""
		}
		if x.fn != fn {
			fmt.Fprintf(bw, "fn=%s\n", x.fn)
			fn = x.fn
		}
		if r.call != nil {
			t := at(r.call.Target)
			fmt.Fprintf(bw, "cfl=%s\ncfn=%s\ncalls=%d %#x %d\n", t.file, t.fn, r.call.Calls, r.call.Target, t.line)
			fmt.Fprintf(bw, "%#x %d", r.pc, x.line)
			costs(r.call.Costs)
			continue
		}
		fmt.Fprintf(bw, "%#x %d", r.pc, x.line)
		costs(c.Self[r.pc])
	}
	bw.WriteString("totals:")
	costs(total)
	return bw.Flush()
}

// RegionCallgrind is a hot-code-region profile's costs: per branch, the
// events Ir (the instructions of the code regions ending at the branch,
// so a region's instructions are charged to its closing branch) and
// Branches (the branch's executions).
func RegionCallgrind(p Profile) (*Callgrind, error) {
	if p.Type != CodeRegion {
		return nil, fmt.Errorf("callgrind: a %s profile has no per-instruction costs (want %s)", p.Type, CodeRegion)
	}
	c := &Callgrind{Events: []CallgrindEvent{{"Ir", "Instructions of the code regions ending here"},
		{"Branches", "Branch executions"}}, Self: map[uint64][]uint64{}}
	for i, e := range p.Entries {
		pc, ok := parseHex(e.PC)
		if !ok {
			return nil, fmt.Errorf("callgrind: entry %d: pc %q is not a hex address", i, e.PC)
		}
		var ir uint64
		if e.Instructions != nil {
			ir = *e.Instructions
		}
		costs := c.Self[pc]
		if costs == nil {
			costs = make([]uint64, 2)
			c.Self[pc] = costs
		}
		costs[0] += ir
		costs[1] += e.Count
	}
	return c, nil
}

// WriteCallgrind writes a hot-code-region profile in the callgrind
// format (RegionCallgrind's events).
func WriteCallgrind(w io.Writer, prog string, p Profile, res Resolver) error {
	c, err := RegionCallgrind(p)
	if err != nil {
		return err
	}
	return c.Write(w, prog, res)
}
