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
	slots   []int32 // open addressing: index+1 into Recs, 0 empty
	mask    uint64
	Recs    []ExactRec
	Total   uint64 // sum of the weights
	win     uint64 // current window (+1)
	touched []int32
}

// NewExact builds an empty exact profile.
func NewExact() *Exact { return &Exact{slots: make([]int32, 1024), mask: 1023, win: 1} }

func hashDesc(d Desc) uint64 {
	h := (d.Start ^ uint64(d.Dirs)<<32 ^ uint64(d.Len)<<26) * 0x9e3779b97f4a7c15
	return h ^ h>>29
}

// find returns the record of d, adding it if new (a linear-probing table:
// no Go map on the per-path path).
func (x *Exact) find(d Desc) int32 {
	for h := hashDesc(d); ; h++ {
		s := &x.slots[h&x.mask]
		if *s == 0 {
			x.Recs = append(x.Recs, ExactRec{Desc: d})
			*s = int32(len(x.Recs))
			if uint64(len(x.Recs))*2 > x.mask {
				x.grow()
			}
			return int32(len(x.Recs) - 1)
		}
		if x.Recs[*s-1].Desc == d {
			return *s - 1
		}
	}
}

func (x *Exact) grow() {
	x.slots = make([]int32, 2*len(x.slots))
	x.mask = uint64(len(x.slots) - 1)
	for i := range x.Recs {
		for h := hashDesc(x.Recs[i].Desc); ; h++ {
			if s := &x.slots[h&x.mask]; *s == 0 {
				*s = int32(i + 1)
				break
			}
		}
	}
}

// Add records one traversal.
func (x *Exact) Add(d Desc, weight, insts uint64) {
	i := x.find(d)
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
	// Sum in a fixed order: the same profiles give the same bits.
	common := make([]Desc, 0, min(len(a), len(b)))
	for d := range a {
		if _, ok := b[d]; ok {
			common = append(common, d)
		}
	}
	sort.Slice(common, func(i, j int) bool { return descLess(common[i], common[j]) })
	var s float64
	for _, d := range common {
		s += min(float64(a[d])/float64(ta), float64(b[d])/float64(tb))
	}
	return 100 * s
}
