package stratified

import (
	"encoding/binary"
	"fmt"

	"github.com/rvsim/rvsim/profhw"
	"github.com/rvsim/rvsim/profhw/tuple"
)

// The real handler's interface (toolchain/handlers/src/stratified.c): the unit
// writes up to windowMsgs messages of four words (pc, word, tag, count)
// after the window's 32-byte header (magic, capacity, count, pad), puts
// their number in the mailbox and calls handlerSym; the handler folds them
// into tableSym, an hps_table (magic, capacity, used, dropped, entries*)
// of 40-byte entries {key = pc, key2 = word, tag, count, value}; count 0
// is an empty entry (toolchain/handlers/src/handlers.h, ABI 2).
const (
	windowSym    = "profhw_window"
	tableSym     = "profhw_table"
	handlerSym   = "Stratified_handler"
	windowMsgs   = 1024
	windowHeader = 32
	tableMagic   = 0x3230424154535048 // "HPSTAB02"
	entryBytes   = 40
)

func putWords(b []byte, ws ...uint64) {
	for i, w := range ws {
		binary.LittleEndian.PutUint64(b[8*i:], w)
	}
}

// Readback is the handler's table read at exit.
type Readback struct {
	Counts  tuple.Counts
	Dropped uint64
}

// ReadTable reads the handler's table from guest memory.
func ReadTable(h profhw.HandlerHost) (*Readback, error) {
	if h == nil {
		return nil, fmt.Errorf("no guest memory")
	}
	addr, ok := h.Lookup(tableSym)
	if !ok {
		return nil, fmt.Errorf("the handler runtime has no %s", tableSym)
	}
	var hdr [40]byte
	if err := h.ReadMem(addr, hdr[:]); err != nil {
		return nil, err
	}
	w := func(i int) uint64 { return binary.LittleEndian.Uint64(hdr[8*i:]) }
	if w(0) != tableMagic {
		return nil, fmt.Errorf("%s at %#x: bad magic %#x", tableSym, addr, w(0))
	}
	capacity, dropped, ents := w(1), w(3), w(4)
	if capacity > 1<<24 {
		return nil, fmt.Errorf("%s: capacity %d is implausible", tableSym, capacity)
	}
	buf := make([]byte, entryBytes*capacity)
	if err := h.ReadMem(ents, buf); err != nil {
		return nil, err
	}
	rb := &Readback{Counts: tuple.Counts{}, Dropped: dropped}
	for i := uint64(0); i < capacity; i++ {
		e := buf[entryBytes*i:]
		n := binary.LittleEndian.Uint64(e[24:])
		if n == 0 {
			continue
		}
		t := tuple.Tuple{PC: binary.LittleEndian.Uint64(e), W: binary.LittleEndian.Uint64(e[8:]), Tag: uint8(binary.LittleEndian.Uint64(e[16:]))}
		rb.Counts[t] += n
	}
	return rb, nil
}

func equalCounts(a, b tuple.Counts) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}
