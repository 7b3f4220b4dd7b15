// Package profile holds the three profile types of the HPS paper
// (hps-phase-aware-remote-profiling.md §3.5): hot code regions, hot
// methods and hot call pairs. It reads them back from the DISE handler
// runtime's tables in guest memory, computes the exact (reference) profile
// of the same events from the dynamic instruction stream, and writes them
// as JSON with functions named from the program's ELF symbols.
package profile

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
)

// Kind is a profile type.
type Kind string

// The profile types.
const (
	CodeRegion Kind = "hot-code-region" // per branch: executions and instructions since the previous branch
	Method     Kind = "hot-method"      // per function: invocations and taken backward branches
	CallPair   Kind = "call-pair"       // per call site and callee: calls
)

// Kinds lists the profile types.
var Kinds = []Kind{CodeRegion, Method, CallPair}

// Region is one branch's code-region data.
type Region struct {
	Count        uint64 // dynamic executions of the branch
	Instructions uint64 // application instructions since the previous dynamic branch, summed
	Unattributed uint64 // executions whose region was not measured (the first branch of a sample)
}

// Pair is a call site and its callee.
type Pair struct{ Site, Target uint64 }

// Counts is the raw data of all three profiles, keyed by addresses.
type Counts struct {
	Regions   map[uint64]Region // by branch pc
	Calls     map[uint64]uint64 // invocations by callee address
	Backedges map[uint64]uint64 // taken backward conditional branches by branch pc
	Pairs     map[Pair]uint64   // calls by call site and callee
	Dropped   uint64            // events a full handler table could not record
}

// NewCounts returns empty counts.
func NewCounts() *Counts {
	return &Counts{Regions: map[uint64]Region{}, Calls: map[uint64]uint64{}, Backedges: map[uint64]uint64{}, Pairs: map[Pair]uint64{}}
}

// Events returns how many events of kind k the counts hold.
func (c *Counts) Events(k Kind) uint64 {
	var n uint64
	switch k {
	case CodeRegion:
		for _, r := range c.Regions {
			n += r.Count
		}
	case Method:
		for _, v := range c.Calls {
			n += v
		}
		for _, v := range c.Backedges {
			n += v
		}
	case CallPair:
		for _, v := range c.Pairs {
			n += v
		}
	}
	return n
}

// Profile is one profile as written to JSON.
type Profile struct {
	Type    Kind    `json:"type"`
	Program string  `json:"program,omitempty"`
	Source  string  `json:"source,omitempty"` // "handlers" (collected by DISE) or "exact"
	Dropped uint64  `json:"dropped,omitempty"`
	Entries []Entry `json:"entries"`
}

// Entry is one profile entry: a count plus the fields of its type.
//
//	hot-code-region: pc, function, count, instructions, unattributed
//	hot-method:      function, pc (its entry), count = calls + backward_branches
//	call-pair:       caller, callee, pc (call site), target, count
type Entry struct {
	Count            uint64  `json:"count"`
	Function         string  `json:"function,omitempty"`
	Caller           string  `json:"caller,omitempty"`
	Callee           string  `json:"callee,omitempty"`
	PC               string  `json:"pc,omitempty"`
	Target           string  `json:"target,omitempty"`
	Instructions     *uint64 `json:"instructions,omitempty"`
	Unattributed     *uint64 `json:"unattributed,omitempty"`
	Calls            *uint64 `json:"calls,omitempty"`
	BackwardBranches *uint64 `json:"backward_branches,omitempty"`
}

// Symbolizer names the function containing an address ("" if none).
type Symbolizer func(addr uint64) string

// Hex formats an address as the profiles do.
func Hex(a uint64) string { return "0x" + strconv.FormatUint(a, 16) }

func name(sym Symbolizer, a uint64) string {
	if sym != nil {
		if n := sym(a); n != "" {
			return n
		}
	}
	return Hex(a)
}

func u(v uint64) *uint64 { return &v }

// Build makes the profile of kind k from counts, hottest entries first.
func Build(k Kind, c *Counts, sym Symbolizer) Profile {
	p := Profile{Type: k, Dropped: c.Dropped, Entries: []Entry{}}
	switch k {
	case CodeRegion:
		for pc, r := range c.Regions {
			p.Entries = append(p.Entries, Entry{Count: r.Count, PC: Hex(pc), Function: name(sym, pc),
				Instructions: u(r.Instructions), Unattributed: u(r.Unattributed)})
		}
	case Method:
		type acc struct {
			entry           uint64
			calls, backward uint64
			haveEntry       bool
		}
		byFunc := map[string]*acc{}
		get := func(n string) *acc {
			if byFunc[n] == nil {
				byFunc[n] = &acc{}
			}
			return byFunc[n]
		}
		for t, v := range c.Calls {
			a := get(name(sym, t))
			a.calls += v
			if !a.haveEntry || t < a.entry {
				a.entry, a.haveEntry = t, true
			}
		}
		for pc, v := range c.Backedges {
			get(name(sym, pc)).backward += v
		}
		for n, a := range byFunc {
			e := Entry{Count: a.calls + a.backward, Function: n, Calls: u(a.calls), BackwardBranches: u(a.backward)}
			if a.haveEntry {
				e.PC = Hex(a.entry)
			}
			p.Entries = append(p.Entries, e)
		}
	case CallPair:
		for pr, v := range c.Pairs {
			p.Entries = append(p.Entries, Entry{Count: v, Caller: name(sym, pr.Site), Callee: name(sym, pr.Target),
				PC: Hex(pr.Site), Target: Hex(pr.Target)})
		}
	}
	sort.Slice(p.Entries, func(i, j int) bool {
		a, b := &p.Entries[i], &p.Entries[j]
		if a.Count != b.Count {
			return a.Count > b.Count
		}
		if a.Function != b.Function {
			return a.Function < b.Function
		}
		if a.PC != b.PC {
			return a.PC < b.PC
		}
		return a.Target < b.Target
	})
	return p
}

// Write writes profiles as JSON: one profile as an object, several as an
// array of objects.
func Write(w io.Writer, ps []Profile) error {
	var v any = ps
	switch len(ps) {
	case 0:
		return fmt.Errorf("profile: nothing to write (no replacement calls a profile handler)")
	case 1:
		v = ps[0]
	}
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(data, '\n'))
	return err
}

// Read parses what Write wrote.
func Read(data []byte) ([]Profile, error) {
	var one Profile
	if err := json.Unmarshal(data, &one); err == nil && one.Type != "" {
		return []Profile{one}, nil
	}
	var many []Profile
	if err := json.Unmarshal(data, &many); err != nil {
		return nil, fmt.Errorf("profile: %v", err)
	}
	return many, nil
}
