package pathprof

import "github.com/rvsim/rvsim/profhw"

// NullReference makes u's reference drop its records: benchmarks of the
// hardware model alone (the main goroutine's share).
func NullReference(u *Unit) {
	Inline(u)
	u.enc.off.Close()
	u.enc.off = profhw.NewOffload(func([]uint64) {})
}

// CaptureReference makes u's reference keep its records instead (in
// order, with GOMAXPROCS 1 or after Finish): *words.
func CaptureReference(u *Unit, words *[]uint64) {
	Inline(u)
	u.enc.off.Close()
	u.enc.off = profhw.NewOffload(func(ws []uint64) { *words = append(*words, ws...) })
}

// ReplayReference runs a reference like u's (after CaptureReference and
// the run) over the captured records in batches of batch words: the
// consumer goroutine's share.
func ReplayReference(u *Unit, words []uint64, batch int) *Exact {
	r, enc := newReference(&u.cfg, false)
	enc.off.Close()
	if u.ref.next != nil {
		r.next = u.ref.next.unbounded() // a copy: the takeover's snapshot
	}
	for len(words) > 0 {
		n := min(batch, len(words))
		r.consume(words[:n])
		words = words[n:]
	}
	return r.exact
}

// SetFast turns u's fast paths off (or back on where its configuration
// allows them): the general path is the fast path's specification.
func SetFast(u *Unit, on bool) {
	u.fastBL = on && fastBL(&u.cfg, u.phase != nil)
	u.fastForward = on && u.cfg.PPCR.Ops[Forward] == OpUpdate && u.cfg.PPCR.Extend == ExtendNone && u.phase == nil
}

// Inline makes a new unit run its hardware model on the caller's
// goroutine (as in timing mode, or with GOMAXPROCS 1) with the reference
// on its Offload.
func Inline(u *Unit) {
	if !u.async {
		return
	}
	u.pipe.Close()
	u.async = false
	u.ref, u.enc = newReference(&u.cfg, false)
}
