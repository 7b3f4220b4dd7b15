package pathprof

import "sort"

// ExactRec is one path of the exact profile.
type ExactRec struct {
	Desc
	Weight uint64 // the metric along all its traversals
	Freq   uint64 // traversals
	Insts  uint64 // instructions along all its traversals

	winWeight uint64 // the metric in the current window
	winID     uint64 // the window winWeight belongs to (+1)
}

// Exact is the exact path profile of the same stream (§8.1's reference):
// every completed path with its metric, frequency and instructions, for
// the whole run and for the current window of the dynamic overlap.
type Exact struct {
	index   map[Desc]int32
	Recs    []ExactRec
	Total   uint64 // sum of the weights
	win     uint64 // current window (+1)
	touched []int32
}

// NewExact builds an empty exact profile.
func NewExact() *Exact { return &Exact{index: make(map[Desc]int32, 1024), win: 1} }

// Add records one traversal.
func (x *Exact) Add(d Desc, weight, insts uint64) {
	i, ok := x.index[d]
	if !ok {
		i = int32(len(x.Recs))
		x.index[d] = i
		x.Recs = append(x.Recs, ExactRec{Desc: d})
	}
	r := &x.Recs[i]
	r.Weight += weight
	r.Freq++
	r.Insts += insts
	x.Total += weight
	if r.winID != x.win {
		r.winID, r.winWeight = x.win, 0
		x.touched = append(x.touched, i)
	}
	r.winWeight += weight
}

// Window returns the current window's profile and starts the next.
func (x *Exact) Window() map[Desc]uint64 {
	m := make(map[Desc]uint64, len(x.touched))
	for _, i := range x.touched {
		r := &x.Recs[i]
		if r.winWeight > 0 {
			m[r.Desc] = r.winWeight
		}
	}
	x.touched = x.touched[:0]
	x.win++
	return m
}

// Weights is the whole run's profile.
func (x *Exact) Weights() map[Desc]uint64 {
	m := make(map[Desc]uint64, len(x.Recs))
	for i := range x.Recs {
		if x.Recs[i].Weight > 0 {
			m[x.Recs[i].Desc] = x.Recs[i].Weight
		}
	}
	return m
}

// Sorted returns the records, heaviest first (ties: by start, length,
// directions).
func (x *Exact) Sorted() []ExactRec {
	out := append([]ExactRec(nil), x.Recs...)
	sort.Slice(out, func(i, j int) bool {
		a, b := &out[i], &out[j]
		if a.Weight != b.Weight {
			return a.Weight > b.Weight
		}
		return descLess(a.Desc, b.Desc)
	})
	return out
}

func descLess(a, b Desc) bool {
	if a.Start != b.Start {
		return a.Start < b.Start
	}
	if a.Len != b.Len {
		return a.Len < b.Len
	}
	return a.Dirs < b.Dirs
}

// Overlap is the weighted overlap percentage of two profiles (§8.1 after
// its references [33, 15], the measure of Ball and Larus's path
// profiling work): each profile is normalised to sum to 1 and the overlap
// is the sum, over paths, of the smaller of a path's two normalised
// weights, times 100. Two empty profiles overlap fully; one empty
// profile overlaps nothing.
func Overlap(a, b map[Desc]uint64) float64 {
	var ta, tb uint64
	for _, w := range a {
		ta += w
	}
	for _, w := range b {
		tb += w
	}
	if ta == 0 && tb == 0 {
		return 100
	}
	if ta == 0 || tb == 0 {
		return 0
	}
	var s float64
	for d, wa := range a {
		if wb, ok := b[d]; ok {
			s += min(float64(wa)/float64(ta), float64(wb)/float64(tb))
		}
	}
	return 100 * s
}
