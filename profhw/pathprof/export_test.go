package pathprof

import "github.com/rvsim/rvsim/profhw"

// NullReference makes u's reference drop its records: benchmarks of the
// hardware model alone (the main goroutine's share).
func NullReference(u *Unit) {
	u.enc.off.Close()
	u.enc.off = profhw.NewOffload(func([]uint64) {})
}

// CaptureReference makes u's reference keep its records instead (in
// order, with GOMAXPROCS 1 or after Finish): *words.
func CaptureReference(u *Unit, words *[]uint64) {
	u.enc.off.Close()
	u.enc.off = profhw.NewOffload(func(ws []uint64) { *words = append(*words, ws...) })
}

// ReplayReference runs a reference of cfg over captured records in
// batches of batch words: the consumer goroutine's share.
func ReplayReference(cfg Config, words []uint64, batch int) *Exact {
	r, enc := newReference(&cfg)
	enc.off.Close()
	for len(words) > 0 {
		n := min(batch, len(words))
		r.consume(words[:n])
		words = words[n:]
	}
	return r.exact
}
