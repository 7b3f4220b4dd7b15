package collector

import "github.com/rvsim/rvsim/profile"

// Subtract returns the profiles cur minus prev, entry by entry (entries
// matched as the merge matches them, entryKey): the counts a run's
// handlers collected between two readings of their tables, i.e. one
// sampled interval's profiles. Entries whose count did not change are
// left out; a profile of cur with no entry left is kept, empty.
func Subtract(cur, prev []profile.Profile) []profile.Profile {
	before := map[string]map[string]profile.Entry{}
	dropped := map[string]uint64{}
	group := func(p *profile.Profile) string { return string(p.Type) + "\x00" + p.Source }
	for i := range prev {
		m := map[string]profile.Entry{}
		for _, e := range prev[i].Entries {
			m[entryKey(e)] = e
		}
		before[group(&prev[i])] = m
		dropped[group(&prev[i])] = prev[i].Dropped
	}
	sub := func(a, b *uint64) *uint64 {
		if a == nil {
			return nil
		}
		v := *a
		if b != nil {
			v -= min(*b, v)
		}
		return &v
	}
	out := make([]profile.Profile, len(cur))
	for i, p := range cur {
		g := group(&p)
		q := p
		q.Dropped -= min(dropped[g], p.Dropped)
		q.Entries = []profile.Entry{}
		for _, e := range p.Entries {
			b, ok := before[g][entryKey(e)]
			if !ok {
				q.Entries = append(q.Entries, e)
				continue
			}
			if e.Count <= b.Count {
				continue
			}
			d := e
			d.Count -= b.Count
			d.Instructions = sub(e.Instructions, b.Instructions)
			d.Unattributed = sub(e.Unattributed, b.Unattributed)
			d.Calls = sub(e.Calls, b.Calls)
			d.BackwardBranches = sub(e.BackwardBranches, b.BackwardBranches)
			if len(e.Fields) > 0 {
				d.Fields = append([]profile.FieldValue{}, e.Fields...)
				for k := range d.Fields {
					if d.Fields[k].Format == profile.FormatSum && k < len(b.Fields) {
						d.Fields[k].Value -= min(b.Fields[k].Value, d.Fields[k].Value)
					}
				}
			}
			q.Entries = append(q.Entries, d)
		}
		out[i] = q
	}
	return out
}
