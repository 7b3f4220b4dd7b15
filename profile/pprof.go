package profile

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	pprof "github.com/google/pprof/profile"

	"github.com/rvsim/rvsim/profhw/pathprof"
	"github.com/rvsim/rvsim/profhw/tuple"
)

// Pprof builds a profile.proto profile (github.com/google/pprof/profile)
// of one program from rvsim's profiles: its samples' frames are code
// addresses, named by a Resolver (ELF symbols, DWARF lines), so `go tool
// pprof -top`, `-list` and `-http` read it. Each kind of sample adds its
// own value columns (sample types); a sample has zeros in the others'
// columns, and pprof's -sample_index picks one.
type Pprof struct {
	p       *pprof.Profile
	res     Resolver
	mapping *pprof.Mapping
	locs    map[uint64]*pprof.Location
	named   map[string]*pprof.Location // locations of a function with no address
	funcs   map[[2]string]*pprof.Function
	column  map[string]int
	samples []pendingSample
}

// pendingSample is a sample whose values are placed in the columns once
// every column is known.
type pendingSample struct {
	s      *pprof.Sample
	values []colValue // summed per column (a sample's columns are few: no map)
}

// colValue is a value of column col.
type colValue struct {
	col int
	v   int64
}

// NewPprof starts a profile of the program at path, loaded at
// [start, limit) (runtime addresses); res names code addresses.
func NewPprof(path string, start, limit uint64, res Resolver) *Pprof {
	m := &pprof.Mapping{ID: 1, Start: start, Limit: limit, File: path,
		HasFunctions: true, HasFilenames: true, HasLineNumbers: true}
	return &Pprof{
		p:   &pprof.Profile{Mapping: []*pprof.Mapping{m}, PeriodType: &pprof.ValueType{Type: "event", Unit: "count"}, Period: 1},
		res: res, mapping: m,
		locs: map[uint64]*pprof.Location{}, named: map[string]*pprof.Location{},
		funcs: map[[2]string]*pprof.Function{}, column: map[string]int{},
	}
}

func (b *Pprof) function(name, file string) *pprof.Function {
	k := [2]string{name, file}
	f := b.funcs[k]
	if f == nil {
		f = &pprof.Function{ID: uint64(len(b.p.Function) + 1), Name: name, SystemName: name, Filename: file}
		b.funcs[k] = f
		b.p.Function = append(b.p.Function, f)
	}
	return f
}

// location is the frame of code address pc.
func (b *Pprof) location(pc uint64) *pprof.Location {
	if l := b.locs[pc]; l != nil {
		return l
	}
	fn, file, line := "", "", 0
	if b.res != nil {
		fn, file, line = b.res(pc)
	}
	if fn == "" {
		fn = Hex(pc)
	}
	l := &pprof.Location{ID: uint64(len(b.p.Location) + 1), Address: pc,
		Line: []pprof.Line{{Function: b.function(fn, file), Line: int64(line)}}}
	if pc >= b.mapping.Start && pc < b.mapping.Limit {
		l.Mapping = b.mapping
	}
	b.locs[pc] = l
	b.p.Location = append(b.p.Location, l)
	return l
}

// functionLocation is a frame for a function known only by name.
func (b *Pprof) functionLocation(name string) *pprof.Location {
	if l := b.named[name]; l != nil {
		return l
	}
	l := &pprof.Location{ID: uint64(len(b.p.Location) + 1), Line: []pprof.Line{{Function: b.function(name, "")}}}
	b.named[name] = l
	b.p.Location = append(b.p.Location, l)
	return l
}

// col is the index of sample type typ (unit count), added on first use.
func (b *Pprof) col(typ string) int {
	if i, ok := b.column[typ]; ok {
		return i
	}
	b.column[typ] = len(b.p.SampleType)
	b.p.SampleType = append(b.p.SampleType, &pprof.ValueType{Type: typ, Unit: "count"})
	return b.column[typ]
}

// value is one column of a sample.
type value struct {
	typ string
	v   uint64
}

// add adds a sample: frames leaf first.
func (b *Pprof) add(frames []*pprof.Location, vals []value, labels map[string][]string, num map[string][]int64) {
	s := &pprof.Sample{Location: frames, Label: labels, NumLabel: num}
	ps := pendingSample{s: s, values: make([]colValue, 0, len(vals))}
	for _, v := range vals {
		ps.values = append(ps.values, colValue{b.col(v.typ), int64(v.v)})
	}
	b.samples = append(b.samples, ps)
}

// Profile returns the built profile; the default sample type is the
// first column added.
func (b *Pprof) Profile() (*pprof.Profile, error) {
	p := b.p
	p.Sample = p.Sample[:0]
	for _, ps := range b.samples {
		ps.s.Value = make([]int64, len(p.SampleType))
		for _, v := range ps.values {
			ps.s.Value[v.col] += v.v
		}
		p.Sample = append(p.Sample, ps.s)
	}
	if len(p.SampleType) > 0 {
		p.DefaultSampleType = p.SampleType[0].Type
	}
	if err := p.CheckValid(); err != nil {
		return nil, fmt.Errorf("pprof: %v", err)
	}
	return p, nil
}

// Write writes the profile, gzipped protobuf.
func (b *Pprof) Write(w io.Writer) error {
	p, err := b.Profile()
	if err != nil {
		return err
	}
	return p.Write(w)
}

// parseHex reads an address as the profiles write it ("0x10a4").
func parseHex(s string) (uint64, bool) {
	v, err := strconv.ParseUint(strings.TrimPrefix(s, "0x"), 16, 64)
	return v, err == nil && strings.HasPrefix(s, "0x")
}

// sampleType is a profile's column name: "hot_code_region_instructions".
func sampleType(kind Kind, v string) string {
	return strings.NewReplacer("-", "_", ".", "_").Replace(string(kind) + "_" + v)
}

// AddProfiles adds DISE handler (or exact) profiles, as JSON has them:
//
//	hot-code-region: one frame per branch pc; columns executions and
//	                 instructions (the region's instructions)
//	hot-method:      one frame per function (its entry, or the function
//	                 by name when only its backward branches were seen);
//	                 columns count, calls, backward_branches
//	call-pair:       two frames, caller's call site (root) -> callee's
//	                 entry (leaf); column calls
//	user-defined:    a frame per code field (the first field the root),
//	                 else none; each field also a label; columns count
//	                 and its value field
func (b *Pprof) AddProfiles(ps []Profile) error {
	for _, p := range ps {
		// Every profile's columns, even one with no entries.
		switch p.Type {
		case CodeRegion:
			b.col(sampleType(p.Type, "executions"))
			b.col(sampleType(p.Type, "instructions"))
		case Method:
			b.col(sampleType(p.Type, "count"))
			b.col(sampleType(p.Type, "calls"))
			b.col(sampleType(p.Type, "backward_branches"))
		case CallPair:
			b.col(sampleType(p.Type, "calls"))
		default:
			b.col(sampleType(p.Type, "count"))
			if n := len(p.Fields); n > 0 && isValueField(p, n-1) {
				b.col(sampleType(p.Type, p.Fields[n-1].Name))
			}
		}
		for i, e := range p.Entries {
			if err := b.addEntry(p, e); err != nil {
				return fmt.Errorf("profile %s: entry %d: %v", p.Type, i, err)
			}
		}
	}
	return nil
}

func (b *Pprof) addEntry(p Profile, e Entry) error {
	at := func(name, s string) (*pprof.Location, error) {
		pc, ok := parseHex(s)
		if !ok {
			return nil, fmt.Errorf("%s %q is not a hex address", name, s)
		}
		return b.location(pc), nil
	}
	kind := p.Type
	switch kind {
	case CodeRegion:
		l, err := at("pc", e.PC)
		if err != nil {
			return err
		}
		vals := []value{{sampleType(kind, "executions"), e.Count}}
		if e.Instructions != nil {
			vals = append(vals, value{sampleType(kind, "instructions"), *e.Instructions})
		}
		b.add([]*pprof.Location{l}, vals, nil, nil)
	case Method:
		var l *pprof.Location
		if e.PC != "" {
			var err error
			if l, err = at("pc", e.PC); err != nil {
				return err
			}
		} else {
			l = b.functionLocation(e.Function)
		}
		vals := []value{{sampleType(kind, "count"), e.Count}}
		if e.Calls != nil {
			vals = append(vals, value{sampleType(kind, "calls"), *e.Calls})
		}
		if e.BackwardBranches != nil {
			vals = append(vals, value{sampleType(kind, "backward_branches"), *e.BackwardBranches})
		}
		b.add([]*pprof.Location{l}, vals, nil, nil)
	case CallPair:
		site, err := at("pc", e.PC)
		if err != nil {
			return err
		}
		callee, err := at("target", e.Target)
		if err != nil {
			return err
		}
		b.add([]*pprof.Location{callee, site}, []value{{sampleType(kind, "calls"), e.Count}}, nil, nil)
	default:
		var frames []*pprof.Location
		labels, num := map[string][]string{}, map[string][]int64{}
		vals := []value{{sampleType(kind, "count"), e.Count}}
		for i, f := range e.Fields {
			switch {
			case i == len(p.Fields)-1 && isValueField(p, i):
				// the value column
			case f.Format == FormatCode:
				frames = append([]*pprof.Location{b.location(f.Value)}, frames...)
				labels[f.Name] = []string{Hex(f.Value)}
			case f.Format == FormatHex:
				labels[f.Name] = []string{Hex(f.Value)}
			case f.Format == FormatDec:
				num[f.Name] = []int64{int64(f.Value)}
			default:
				num[f.Name] = []int64{int64(f.Value)}
			}
		}
		if n := len(p.Fields); n > 0 && len(e.Fields) == n && isValueField(p, n-1) {
			vals = append(vals, value{sampleType(kind, p.Fields[n-1].Name), e.Fields[n-1].Value})
		}
		b.add(frames, vals, labels, num)
	}
	return nil
}

// isValueField reports whether a user-defined profile's field i is its
// summed value (written last, after the key fields; not an address).
func isValueField(p Profile, i int) bool {
	f := p.Fields[i].Format
	return f != FormatCode && f != FormatHex && f != FormatDec
}

// AddProfHW adds a profiling unit's profile file (NAME.profile.json or
// NAME.exact.json): a tuple profile (tuple.File: value, edge and
// call-target tuples) or a path profile (pathprof.ProfileJSON). It
// reports false for any other file.
//
//	tuples: one frame (the tuple's pc), labels word (hex), word_at (a
//	        code word's symbol), kind, and tag (numeric); column
//	        UNIT_PROFILE_tuples (e.g. exact_value_exact_tuples)
//	paths:  the path's basic blocks as frames, first block the root
//	        (where the JSON lists them: the top paths; the others, their
//	        start alone), labels directions and length; columns
//	        UNIT_PROFILE_METRIC, and for exact profiles frequency and
//	        instructions
func (b *Pprof) AddProfHW(data []byte) (bool, error) {
	var probe struct {
		Tuples *string `json:"tuples"`
		Paths  *string `json:"paths"`
	}
	if err := json.Unmarshal(data, &probe); err != nil {
		return false, err
	}
	switch {
	case probe.Tuples != nil:
		var f tuple.File
		if err := json.Unmarshal(data, &f); err != nil {
			return false, err
		}
		typ := b.tupleColumn(f.Unit, f.Profile)
		for i, e := range f.Entries {
			pc, ok := parseHex(e.PCHex)
			if !ok {
				return false, fmt.Errorf("unit %s: entry %d: pc_hex %q is not a hex address", f.Unit, i, e.PCHex)
			}
			b.addTuple(typ, pc, &e)
		}
		return true, nil
	case probe.Paths != nil:
		var f pathprof.ProfileJSON
		if err := json.Unmarshal(data, &f); err != nil {
			return false, err
		}
		b.col(sampleType(Kind(f.Unit), f.Profile+"_"+f.Metric)) // (even with no entries)
		for i, e := range f.Entries {
			var frames []*pprof.Location
			for _, blk := range e.Blocks {
				if len(blk.Insts) == 0 {
					continue
				}
				addr, _, _ := strings.Cut(blk.Insts[0], " ")
				pc, ok := parseHex(addr)
				if !ok {
					return false, fmt.Errorf("unit %s: path %d: block %q: no address", f.Unit, i, blk.Start)
				}
				frames = append([]*pprof.Location{b.location(pc)}, frames...)
			}
			if len(frames) == 0 {
				pc, ok := parseHex(e.StartHex)
				if !ok {
					return false, fmt.Errorf("unit %s: path %d: start_hex %q is not a hex address", f.Unit, i, e.StartHex)
				}
				frames = []*pprof.Location{b.location(pc)}
			}
			vals := []value{{sampleType(Kind(f.Unit), f.Profile+"_"+f.Metric), e.Count}}
			if f.Profile == "exact" { // (the metric may be one of these)
				for _, x := range []value{{"frequency", e.Frequency}, {"instructions", e.Instructions}} {
					if x.typ != f.Metric {
						vals = append(vals, value{sampleType(Kind(f.Unit), "exact_"+x.typ), x.v})
					}
				}
			}
			b.add(frames, vals, map[string][]string{"directions": {e.Directions}},
				map[string][]int64{"length": {int64(e.Length)}})
		}
		return true, nil
	}
	return false, nil
}

// AddTuples adds a tuple profile as AddProfHW adds its file, from the
// profile itself (no file to parse: an exact profile's runs to hundreds
// of megabytes). rvsim run writes a tuple profile's file with
// WriteTuples, streamed; this, the general path, is its tests' oracle.
func (b *Pprof) AddTuples(p *tuple.Profile) {
	typ := b.tupleColumn(p.Unit, p.Profile)
	p.Each(func(pc uint64, e *tuple.Entry) { b.addTuple(typ, pc, e) })
}

// tupleColumn is a tuple profile's column, added (even with no entries).
func (b *Pprof) tupleColumn(unit, profile string) string {
	typ := sampleType(Kind(unit), profile+"_tuples")
	b.col(typ)
	return typ
}

// addTuple adds a tuple's sample: one frame (pc), its labels and count.
func (b *Pprof) addTuple(typ string, pc uint64, e *tuple.Entry) {
	labels := map[string][]string{"word": {e.Word}}
	if e.WordAt != "" {
		labels["word_at"] = []string{e.WordAt}
	}
	if e.Kind != "" {
		labels["kind"] = []string{e.Kind}
	}
	labels["tag"] = []string{strconv.Itoa(int(e.Tag))}
	b.add([]*pprof.Location{b.location(pc)}, []value{{typ, e.Count}}, labels, nil)
}
