package stratified

import "github.com/rvsim/rvsim/profhw/tuple"

// Profile is what the error metric reads of a profile: *tuple.Table (the
// unit's exact and estimated profiles) or a tuple.Counts through
// CountsProfile.
type Profile interface {
	Each(f func(t tuple.Tuple, n uint64))
	Get(t tuple.Tuple) uint64
}

// CountsProfile reads a tuple.Counts as a Profile.
type CountsProfile tuple.Counts

func (c CountsProfile) Each(f func(tuple.Tuple, uint64)) {
	for t, n := range c {
		f(t, n)
	}
}

func (c CountsProfile) Get(t tuple.Tuple) uint64 { return c[t] }
