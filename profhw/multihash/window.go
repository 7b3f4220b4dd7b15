package multihash

import (
	"encoding/binary"
	"fmt"

	"github.com/rvsim/rvsim/profhw/tuple"
)

// The accumulator window: the read interface through which software reads
// the accumulator table that the hardware latches at each interval's end
// (§5.2: "at the end of the profile interval, the accumulator table
// contains the top candidate events, and this information can be used to
// optimize the behavior of the program during the next profile
// interval"). It is a little-endian block of 64-bit words at a
// configured guest address (docs/PROFHW.md, "The accumulator window"):
//
//	0x00 magic     "RVMHACC1"
//	0x08 sequence  intervals completed (the latched table is interval sequence−1's)
//	0x10 interval  events per interval
//	0x18 threshold candidate threshold, events
//	0x20 entries   accumulator entries N
//	0x28 count     candidates in the table
//	0x30 reserved  0
//	0x38 reserved  0
//	0x40 + 32·i    entry i: pc, word, count, flags (bits 0-1 state: 0 empty,
//	               1 candidate, 2 retained below threshold, 3 stale; bits
//	               8-15 the selector's tag)
const (
	WindowMagic    = 0x31434341484d5652 // "RVMHACC1"
	windowHeader   = 0x40
	windowEntry    = 32
	StateEmpty     = 0
	StateCandidate = 1
	StateRetained  = 2
	StateStale     = 3
)

// WindowSize is the window's size for n entries.
func WindowSize(n int) int { return windowHeader + n*windowEntry }

var stateCode = [...]uint64{accEmpty: StateEmpty, accLocked: StateCandidate, accRetained: StateRetained, accStale: StateStale}

// EncodeWindow writes the window image of acc into buf (WindowSize long).
func EncodeWindow(buf []byte, seq, interval, thresh uint64, acc []AccEntry) {
	le := binary.LittleEndian
	clear(buf)
	var count uint64
	for i, e := range acc {
		o := windowHeader + i*windowEntry
		if e.State == accEmpty {
			continue
		}
		if e.State == accLocked {
			count++
		}
		le.PutUint64(buf[o:], e.T.PC)
		le.PutUint64(buf[o+8:], e.T.W)
		le.PutUint64(buf[o+16:], e.Count)
		le.PutUint64(buf[o+24:], stateCode[e.State]|uint64(e.T.Tag)<<8)
	}
	for i, v := range []uint64{WindowMagic, seq, interval, thresh, uint64(len(acc)), count} {
		le.PutUint64(buf[8*i:], v)
	}
}

// Window is a decoded window (what software reads).
type Window struct {
	Seq, Interval, Threshold uint64
	Candidates               int
	Entries                  []WindowEntry
}

// WindowEntry is one entry of a decoded window.
type WindowEntry struct {
	T     tuple.Tuple
	Count uint64
	State int
}

// DecodeWindow reads a window image.
func DecodeWindow(buf []byte) (Window, error) {
	le := binary.LittleEndian
	if len(buf) < windowHeader || le.Uint64(buf) != WindowMagic {
		return Window{}, fmt.Errorf("accumulator window: bad magic")
	}
	w := Window{Seq: le.Uint64(buf[8:]), Interval: le.Uint64(buf[16:]), Threshold: le.Uint64(buf[24:]), Candidates: int(le.Uint64(buf[40:]))}
	n64 := le.Uint64(buf[32:])
	if n64 > uint64(len(buf)-windowHeader)/windowEntry {
		return Window{}, fmt.Errorf("accumulator window: %d entries do not fit %d bytes", n64, len(buf))
	}
	n := int(n64)
	for i := 0; i < n; i++ {
		o := windowHeader + i*windowEntry
		f := le.Uint64(buf[o+24:])
		w.Entries = append(w.Entries, WindowEntry{T: tuple.Tuple{PC: le.Uint64(buf[o:]), W: le.Uint64(buf[o+8:]), Tag: uint8(f >> 8)}, Count: le.Uint64(buf[o+16:]), State: int(f & 3)})
	}
	return w, nil
}
