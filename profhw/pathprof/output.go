package pathprof

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/rvsim/rvsim/isa"
	"github.com/rvsim/rvsim/profhw"
)

// PathJSON is one path of a profile file.
type PathJSON struct {
	Start        string  `json:"start"` // symbol+offset
	StartHex     string  `json:"start_hex"`
	Length       int     `json:"length"`
	Directions   string  `json:"directions"` // T/N per branch, first first
	Count        uint64  `json:"count"`      // the metric (HPT accumulator or exact weight)
	Percent      float64 `json:"percent"`
	Frequency    uint64  `json:"frequency,omitempty"`    // exact: traversals
	Instructions uint64  `json:"instructions,omitempty"` // exact: instructions along them
	Set          *int    `json:"set,omitempty"`          // HPT: where the entry sits
	Way          *int    `json:"way,omitempty"`
	Blocks       []Block `json:"blocks,omitempty"` // the top paths' basic blocks, disassembled
	Note         string  `json:"note,omitempty"`
}

// Block is a basic block of a listed path.
type Block struct {
	Start string   `json:"start"`
	Insts []string `json:"insts"`
}

// ProfileJSON is NAME.profile.json (the HPT) and NAME.exact.json.
type ProfileJSON struct {
	Unit    string  `json:"unit"`
	Profile string  `json:"profile"` // "hpt" | "exact"
	Paths   string  `json:"paths"`
	PPCR    string  `json:"ppcr"`
	Metric  string  `json:"metric"`
	HPT     string  `json:"hpt,omitempty"`
	Total   uint64  `json:"total"`
	Overlap float64 `json:"overlap_complete_percent"`
	// BlocksListed is how many of the heaviest entries have their blocks
	// (output.top; 0 when the code was not at hand).
	BlocksListed *int       `json:"blocks_listed,omitempty"`
	Entries      []PathJSON `json:"entries"`
}

// codeReader reads guest code for the listing.
type codeReader interface {
	ReadMem(addr uint64, buf []byte) error
}

// sourceLiner is a host that knows the program's source lines (sim's,
// from the ELF's DWARF line tables).
type sourceLiner interface {
	SourceLines() func(addr uint64) (file string, line int, ok bool)
}

// lister disassembles the listed paths' blocks.
type lister struct {
	mem   codeReader
	sym   profhw.Symbolizer
	lines func(addr uint64) (string, int, bool) // nil: no line table
}

// Outputs are NAME.profile.json (the HPT's contents), NAME.exact.json
// (the exact profile) and NAME.hotpaths.txt (the top paths disassembled).
func (u *Unit) Outputs(sym profhw.Symbolizer) ([]profhw.Output, error) {
	if sym == nil {
		sym = func(a uint64) string { return fmt.Sprintf("%#x", a) }
	}
	over, _ := u.sum.Extra["overlap_complete_percent"].(float64)
	listed := 0
	var ls *lister
	if u.host != nil {
		listed = u.cfg.Top
		ls = &lister{mem: u.host, sym: sym}
		if h, ok := u.host.(sourceLiner); ok {
			ls.lines = h.SourceLines()
		}
	}
	base := ProfileJSON{Unit: u.name, Paths: u.cfg.Paths, PPCR: u.ppcrString(), Metric: u.cfg.Metric.String(), Overlap: over,
		BlocksListed: &listed}

	hp := base
	hp.Profile = "hpt"
	hp.HPT = fmt.Sprintf("%d entries, %d ways, index %s, LFU", u.cfg.HPTEntries, u.cfg.HPTWays, u.cfg.HPTIndex)
	ents := u.hpt.Entries()
	sort.Slice(ents, func(i, j int) bool {
		if ents[i].Count != ents[j].Count {
			return ents[i].Count > ents[j].Count
		}
		return descLess(ents[i].Desc, ents[j].Desc)
	})
	for _, e := range ents {
		hp.Total += uint64(e.Count)
	}
	for i, e := range ents {
		set, way := e.Set, e.Way
		p := PathJSON{Start: sym(e.Start), StartHex: fmt.Sprintf("%#x", e.Start), Length: int(e.Len), Directions: e.Directions(),
			Count: uint64(e.Count), Percent: pct(uint64(e.Count), hp.Total), Set: &set, Way: &way}
		if i < listed {
			p.Blocks, p.Note = u.listPath(ls, e.Desc)
		}
		hp.Entries = append(hp.Entries, p)
	}

	ex := base
	ex.Profile = "exact"
	exact := u.Exact()
	ex.Total = exact.Total
	for i, r := range exact.Sorted() {
		p := PathJSON{Start: sym(r.Start), StartHex: fmt.Sprintf("%#x", r.Start), Length: int(r.Len), Directions: r.Directions(),
			Count: r.Weight, Percent: pct(r.Weight, ex.Total), Frequency: r.Freq, Instructions: r.Insts}
		if i < listed {
			p.Blocks, p.Note = u.listPath(ls, r.Desc)
		}
		ex.Entries = append(ex.Entries, p)
	}
	outs := []profhw.Output{}
	for _, f := range []struct {
		suffix string
		p      *ProfileJSON
	}{{"profile.json", &hp}, {"exact.json", &ex}} {
		data, err := json.MarshalIndent(f.p, "", "  ")
		if err != nil {
			return nil, err
		}
		outs = append(outs, profhw.Output{Suffix: f.suffix, Data: append(data, '\n')})
	}
	var b strings.Builder
	WriteListing(&b, &hp, u.cfg.Top)
	outs = append(outs, profhw.Output{Suffix: "hotpaths.txt", Data: []byte(b.String())})
	if u.phase != nil {
		data, err := json.MarshalIndent(u.phase.report, "", "  ")
		if err != nil {
			return nil, err
		}
		outs = append(outs, profhw.Output{Suffix: "phase.json", Data: append(data, '\n')})
	}
	return outs, nil
}

func pct(a, b uint64) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}

// WriteListing prints the top n paths of a profile with their blocks.
func WriteListing(w io.Writer, p *ProfileJSON, n int) {
	fmt.Fprintf(w, "# %s: %s profile of %s paths, metric %s (total %d", p.Unit, p.Profile, p.Paths, p.Metric, p.Total)
	if p.Profile == "hpt" {
		fmt.Fprintf(w, "; HPT %s; complete overlap %.2f%%", p.HPT, p.Overlap)
	}
	fmt.Fprintf(w, ")\n# PPCR: %s\n", p.PPCR)
	for i, e := range p.Entries {
		if i >= n {
			break
		}
		fmt.Fprintf(w, "\n#%d  %s (%s)  length %d  %s  count %d  %.2f%%\n", i+1, e.Start, e.StartHex, e.Length, e.Directions, e.Count, e.Percent)
		for _, bl := range e.Blocks {
			fmt.Fprintf(w, "  block %s\n", bl.Start)
			for _, in := range bl.Insts {
				fmt.Fprintf(w, "    %s\n", in)
			}
		}
		switch {
		case e.Note != "":
			fmt.Fprintf(w, "  (%s)\n", e.Note)
		case len(e.Blocks) == 0 && p.BlocksListed != nil && i >= *p.BlocksListed:
			fmt.Fprintf(w, "  (blocks not listed: the profile has the blocks of its %d heaviest paths, output.top)\n", *p.BlocksListed)
		case len(e.Blocks) == 0:
			fmt.Fprintf(w, "  (blocks not listed in this profile)\n")
		}
	}
}

// listPath walks a path's code from its start, following its direction
// bits, and returns its basic blocks disassembled. The walk follows the
// PPCR: a branch that updates the path consumes a direction bit; the path
// ends at the branch that consumes the last bit and pops, or at the next
// popping branch after it (a return, or a call in WPP mode). Indirect
// targets cannot be followed from the code.
func (u *Unit) listPath(ls *lister, d Desc) ([]Block, string) {
	mem, sym := ls.mem, ls.sym
	ops := u.cfg.PPCR.Ops
	lastSrc := ""
	pc := d.Start
	used := 0
	var blocks []Block
	var cur *Block
	for n := 0; n < 1000; n++ {
		if cur == nil {
			blocks = append(blocks, Block{Start: sym(pc)})
			cur = &blocks[len(blocks)-1]
		}
		var buf [4]byte
		if err := mem.ReadMem(pc, buf[:2]); err != nil {
			return blocks, fmt.Sprintf("code at %#x unreadable", pc)
		}
		raw := uint32(buf[0]) | uint32(buf[1])<<8
		if raw&3 == 3 {
			if err := mem.ReadMem(pc+2, buf[2:]); err != nil {
				return blocks, fmt.Sprintf("code at %#x unreadable", pc)
			}
			raw |= uint32(buf[2])<<16 | uint32(buf[3])<<24
		}
		in, err := isa.Decode(raw)
		ln := uint64(in.Len)
		cur.Insts = append(cur.Insts, ls.line(pc, in, &lastSrc))
		if err != nil {
			return blocks, fmt.Sprintf("undecodable instruction at %#x", pc)
		}
		taken := true
		target := pc + uint64(in.Imm)
		if in.Class == isa.Branch {
			if used >= int(d.Len) {
				return blocks, "more branches than the descriptor holds"
			}
			taken = d.Dirs>>used&1 != 0
		}
		t, ok := classOf(in.Class, taken, pc, target)
		if !ok {
			pc += ln
			continue
		}
		cur = nil
		o := ops[t]
		if o&OpUpdate != 0 {
			used++
			if used == int(d.Len) && (o&OpPop != 0 || d.Len == MaxLen) {
				return blocks, ""
			}
		} else if o&OpPop != 0 && used == int(d.Len) {
			return blocks, ""
		}
		switch {
		case t == Call && o&OpUpdate == 0:
			pc += ln // the callee is another path; this one resumes after the call
		case t == Return || t == Indirect || (t == Call && in.Op == isa.JALR):
			return blocks, "continues at an indirect target"
		case taken:
			pc = target
		default:
			pc += ln
		}
	}
	return blocks, "listing cut at 1000 instructions"
}

// line is one listed instruction: its address, its disassembly as
// --trace prints it (ABI register names, absolute targets: isa's
// StringAt), the symbol of a direct branch or jump target, and the source
// file:line where the line table has one and it differs from the
// previous instruction's.
func (ls *lister) line(pc uint64, in isa.Inst, lastSrc *string) string {
	text := in.StringAt(pc)
	switch in.Class {
	case isa.Branch, isa.Jal, isa.Call:
		if in.Op != isa.JALR {
			if name := ls.sym(pc + uint64(in.Imm)); !strings.HasPrefix(name, "0x") {
				text += " <" + name + ">"
			}
		}
	}
	s := fmt.Sprintf("%#x  %s", pc, text)
	if ls.lines != nil {
		if file, n, ok := ls.lines(pc); ok {
			if src := fmt.Sprintf("%s:%d", file, n); src != *lastSrc {
				*lastSrc = src
				s = fmt.Sprintf("%-48s %s", s, src)
			}
		}
	}
	return s
}

// ReadProfile reads a NAME.profile.json or NAME.exact.json.
func ReadProfile(data []byte) (*ProfileJSON, error) {
	var p ProfileJSON
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, err
	}
	if p.Profile != "hpt" && p.Profile != "exact" {
		return nil, fmt.Errorf("not a path profile (want \"profile\": \"hpt\" or \"exact\")")
	}
	return &p, nil
}
