package profile

import (
	"bufio"
	"fmt"
	"io"
	"sort"
)

// WriteCallgrind writes a hot-code-region profile in the callgrind
// format (valgrind's docs/callgrind-format, "Callgrind Format
// Specification"), which KCachegrind and callgrind_annotate read: costs
// per instruction address and source line, grouped by file and function,
// with the events Ir (the instructions of the code regions ending at the
// branch, so a region's instructions are charged to its closing branch)
// and Branches (the branch's executions). prog is the program's path (the
// ob= object); res names each branch's function, file and line.
func WriteCallgrind(w io.Writer, prog string, p Profile, res Resolver) error {
	if p.Type != CodeRegion {
		return fmt.Errorf("callgrind: a %s profile has no per-instruction costs (want %s)", p.Type, CodeRegion)
	}
	type row struct {
		pc         uint64
		line       int
		ir, branch uint64
		fn, file   string
	}
	rows := make([]row, 0, len(p.Entries))
	var totIr, totBr uint64
	for i, e := range p.Entries {
		pc, ok := parseHex(e.PC)
		if !ok {
			return fmt.Errorf("callgrind: entry %d: pc %q is not a hex address", i, e.PC)
		}
		r := row{pc: pc, branch: e.Count}
		if e.Instructions != nil {
			r.ir = *e.Instructions
		}
		if res != nil {
			r.fn, r.file, r.line = res(pc)
		}
		if r.fn == "" {
			r.fn = Hex(pc)
		}
		if r.file == "" {
			r.file = "???" // callgrind's name for an unknown file
		}
		totIr += r.ir
		totBr += r.branch
		rows = append(rows, r)
	}
	sort.Slice(rows, func(i, j int) bool {
		a, b := &rows[i], &rows[j]
		if a.file != b.file {
			return a.file < b.file
		}
		if a.fn != b.fn {
			return a.fn < b.fn
		}
		return a.pc < b.pc
	})
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# callgrind format\nversion: 1\ncreator: rvsim\ncmd: %s\n", prog)
	fmt.Fprintf(bw, "positions: instr line\nevent: Ir : Instructions of the code regions ending here\nevent: Branches : Branch executions\nevents: Ir Branches\n")
	fmt.Fprintf(bw, "summary: %d %d\n\nob=%s\n", totIr, totBr, prog)
	file, fn := "", ""
	for _, r := range rows {
		if r.file != file {
			fmt.Fprintf(bw, "fl=%s\n", r.file)
			file, fn = r.file, ""
		}
		if r.fn != fn {
			fmt.Fprintf(bw, "fn=%s\n", r.fn)
			fn = r.fn
		}
		fmt.Fprintf(bw, "%#x %d %d %d\n", r.pc, r.line, r.ir, r.branch)
	}
	fmt.Fprintf(bw, "totals: %d %d\n", totIr, totBr)
	return bw.Flush()
}
