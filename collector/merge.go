package collector

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"sort"
	"strconv"
	"strings"

	"github.com/rvsim/rvsim/profile"
)

// The merge (hps-phase-aware-remote-profiling.md §4 stores one sample per
// phase and the phase-ID trace; combining many runs' samples is the
// future work of its §6). For one run, a phase p with N_p intervals (its
// sampled intervals and its trace entries) and k_p >= 1 samples stands
// for its intervals by the mean of its samples:
//
//	estimate(run) = Σ_p (N_p / k_p) · Σ_{s sample of p} s
//
// applied to every summed quantity of every entry (count, instructions,
// unattributed, calls, backward branches, a user-defined profile's "sum"
// field, dropped). A phase without samples in the run adds nothing; its
// intervals are counted as unprofiled. Phase IDs are local to a run, so the
// merged profile of a program is the sum of its runs' estimates. The sums
// are exact (rational) and each is rounded once, at the end, to the
// nearest integer (halves up), so the result does not depend on the order
// of runs or samples. docs/COLLECTOR.md states the rule with an example.

// Merged is the merged profile of one program (and input).
type Merged struct {
	Program  Identity `json:"program"`
	Key      string   `json:"key"`
	Inputs   []string `json:"inputs"` // the inputs merged
	Runs     int      `json:"runs"`
	Uploads  int      `json:"uploads"`
	Samples  int      `json:"samples"`
	Phases   int      `json:"phases"` // (run, phase) pairs with at least one sample
	Interval uint64   `json:"intervals"`
	// Unprofiled counts the intervals of phases that no sample of their
	// run covers: the merged profile does not stand for them.
	Unprofiled uint64 `json:"unprofiled_intervals"`
	// Saturated counts the merged values that do not fit in 64 bits
	// (only uploads with absurd counts make one): each is given as
	// 2^64-1, so that the rest of the profile is still served.
	Saturated int               `json:"saturated,omitempty"`
	Rule      string            `json:"rule"`
	Profiles  []profile.Profile `json:"profiles"`
}

// MergeRule is the rule, in one line, as Merged.Rule states it.
const MergeRule = "per run, each phase's mean sampled profile times the phase's interval count; summed over runs; rounded to the nearest integer"

// Merge merges the samples of every run of program key and input (every
// input, if all is set).
func (s *Store) Merge(ctx context.Context, key, input string, all bool) (*Merged, error) {
	id, inputs, runs, uploads, err := s.load(ctx, key, input, all)
	if err != nil {
		return nil, err
	}
	m := &Merged{Program: id, Key: key, Inputs: inputs, Runs: len(runs), Uploads: uploads, Rule: MergeRule}
	acc := newMerger()
	for _, rd := range runs {
		k := map[uint32]uint64{}
		for _, sm := range rd.samples {
			k[sm.phase]++
		}
		for ph, n := range rd.phases {
			m.Interval += n
			if k[ph] == 0 {
				m.Unprofiled += n
			} else {
				m.Phases++
			}
		}
		for _, sm := range rd.samples {
			m.Samples++
			var ps []profile.Profile
			if err := json.Unmarshal([]byte(sm.profiles), &ps); err != nil {
				return nil, fmt.Errorf("run %s: stored sample: %v", rd.run, err)
			}
			for _, p := range ps {
				acc.add(p, rd.phases[sm.phase], k[sm.phase])
			}
		}
	}
	m.Profiles, m.Saturated = acc.result(id.Name)
	return m, nil
}

// exact is a non-negative sum n + r held exactly (r nil: zero).
type exact struct {
	n uint64
	r *big.Rat
}

// add adds v·num/den.
func (e *exact) add(v, num, den uint64) {
	if den == 1 {
		if hi, lo := bits.Mul64(v, num); hi == 0 {
			if s, c := bits.Add64(e.n, lo, 0); c == 0 {
				e.n = s
				return
			}
		}
	}
	t := new(big.Int).Mul(new(big.Int).SetUint64(v), new(big.Int).SetUint64(num))
	q := new(big.Rat).SetFrac(t, new(big.Int).SetUint64(den))
	if e.r == nil {
		e.r = q
	} else {
		e.r.Add(e.r, q)
	}
}

// value is the sum rounded to the nearest integer, halves up.
func (e *exact) value() (uint64, error) {
	if e.r == nil {
		return e.n, nil
	}
	x := new(big.Rat).Add(e.r, new(big.Rat).SetUint64(e.n))
	x.Add(x, big.NewRat(1, 2))
	q := new(big.Int).Quo(x.Num(), x.Denom()) // floor: x >= 0
	if !q.IsUint64() {
		return 0, fmt.Errorf("merged count %s does not fit in 64 bits", q)
	}
	return q.Uint64(), nil
}

// sat is value, or 2^64-1 (counted in *n) where the sum does not fit.
func (e *exact) sat(n *int) uint64 {
	v, err := e.value()
	if err != nil {
		*n++
		return math.MaxUint64
	}
	return v
}

// mergedEntry accumulates one entry of one profile.
type mergedEntry struct {
	proto                                         profile.Entry // identity fields
	count, instructions, unattributed, calls, bwd exact
	hasInstr, hasUnattr, hasCalls, hasBwd         bool
	sums                                          []exact // per field of the profile (only FormatSum ones used)
}

type mergedProfile struct {
	typ     profile.Kind
	source  string
	fields  []profile.Field
	dropped exact
	entries map[string]*mergedEntry
}

type merger struct {
	profiles map[string]*mergedProfile
}

func newMerger() *merger { return &merger{profiles: map[string]*mergedProfile{}} }

// add adds profile p of a sample whose phase has n intervals and k
// samples in its run.
func (m *merger) add(p profile.Profile, n, k uint64) {
	fj, _ := json.Marshal(p.Fields)
	gk := string(p.Type) + "\x00" + p.Source + "\x00" + string(fj)
	mp := m.profiles[gk]
	if mp == nil {
		mp = &mergedProfile{typ: p.Type, source: p.Source, fields: p.Fields, entries: map[string]*mergedEntry{}}
		m.profiles[gk] = mp
	}
	mp.dropped.add(p.Dropped, n, k)
	for _, e := range p.Entries {
		ek := entryKey(e)
		me := mp.entries[ek]
		if me == nil {
			me = &mergedEntry{proto: profile.Entry{Function: e.Function, Caller: e.Caller, Callee: e.Callee, PC: e.PC, Target: e.Target},
				sums: make([]exact, len(e.Fields))}
			for _, f := range e.Fields {
				if f.Format != profile.FormatSum {
					me.proto.Fields = append(me.proto.Fields, f)
				} else {
					me.proto.Fields = append(me.proto.Fields, profile.FieldValue{Field: f.Field})
				}
			}
			mp.entries[ek] = me
		}
		me.count.add(e.Count, n, k)
		opt := func(dst *exact, has *bool, v *uint64) {
			if v != nil {
				*has = true
				dst.add(*v, n, k)
			}
		}
		opt(&me.instructions, &me.hasInstr, e.Instructions)
		opt(&me.unattributed, &me.hasUnattr, e.Unattributed)
		opt(&me.calls, &me.hasCalls, e.Calls)
		opt(&me.bwd, &me.hasBwd, e.BackwardBranches)
		for i, f := range e.Fields {
			if f.Format == profile.FormatSum && i < len(me.sums) {
				me.sums[i].add(f.Value, n, k)
			}
		}
	}
}

// entryKey is what identifies an entry within its profile: everything but
// the summed quantities.
func entryKey(e profile.Entry) string {
	var b strings.Builder
	for _, s := range []string{e.Function, e.Caller, e.Callee, e.PC, e.Target} {
		b.WriteString(s)
		b.WriteByte(0)
	}
	for _, f := range e.Fields {
		if f.Format == profile.FormatSum {
			continue
		}
		b.WriteString(f.Name)
		b.WriteByte('=')
		b.WriteString(strconv.FormatUint(f.Value, 16))
		b.WriteByte(0)
	}
	return b.String()
}

// result returns the merged profiles: the three built-in types first,
// in profile.Kinds order, then the others by name; entries hottest first;
// and how many values saturated.
func (m *merger) result(program string) (out []profile.Profile, saturated int) {
	rank := func(k profile.Kind) int {
		for i, b := range profile.Kinds {
			if k == b {
				return i
			}
		}
		return len(profile.Kinds)
	}
	keys := make([]string, 0, len(m.profiles))
	for k := range m.profiles {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := m.profiles[keys[i]], m.profiles[keys[j]]
		if ra, rb := rank(a.typ), rank(b.typ); ra != rb {
			return ra < rb
		}
		return keys[i] < keys[j]
	})
	out = []profile.Profile{}
	for _, k := range keys {
		mp := m.profiles[k]
		p := profile.Profile{Type: mp.typ, Program: program, Source: mp.source, Fields: mp.fields, Entries: []profile.Entry{}}
		p.Dropped = mp.dropped.sat(&saturated)
		eks := make([]string, 0, len(mp.entries))
		for ek := range mp.entries {
			eks = append(eks, ek)
		}
		sort.Strings(eks)
		for _, ek := range eks {
			me := mp.entries[ek]
			e := me.proto
			e.Fields = append([]profile.FieldValue(nil), me.proto.Fields...)
			e.Count = me.count.sat(&saturated)
			opt := func(has bool, x *exact) *uint64 {
				if !has {
					return nil
				}
				v := x.sat(&saturated)
				return &v
			}
			for _, o := range []struct {
				dst **uint64
				has bool
				x   *exact
			}{{&e.Instructions, me.hasInstr, &me.instructions}, {&e.Unattributed, me.hasUnattr, &me.unattributed},
				{&e.Calls, me.hasCalls, &me.calls}, {&e.BackwardBranches, me.hasBwd, &me.bwd}} {
				*o.dst = opt(o.has, o.x)
			}
			for i := range e.Fields {
				if e.Fields[i].Format == profile.FormatSum {
					e.Fields[i].Value = me.sums[i].sat(&saturated)
				}
			}
			p.Entries = append(p.Entries, e)
		}
		// Hottest first; ties keep the order of the entries' keys.
		sort.SliceStable(p.Entries, func(i, j int) bool { return p.Entries[i].Count > p.Entries[j].Count })
		out = append(out, p)
	}
	return out, saturated
}
