package profile

import (
	"encoding/binary"
	"fmt"
)

// The handler runtime's tables (toolchain/handlers/src/handlers.h): a
// header {magic, capacity, used, dropped, entries*} and 40-byte entries
// {key, key2, tag, count, value}, count 0 meaning empty.
const (
	tableMagic  = 0x3230424154535048 // "HPSTAB02"
	headerSize  = 40
	entrySize   = 40
	maxCapacity = 1 << 24
)

// Table symbols of the built-in profile types in the handler runtime. The
// runtime's descriptors (runtime.go) say which handlers fill them.
var tableSymbols = map[Kind][]string{
	CodeRegion: {"hps_code_regions"},
	Method:     {"hps_method_calls", "hps_backedges"},
	CallPair:   {"hps_call_pairs"},
}

// Reader reads guest memory.
type Reader func(addr uint64, buf []byte) error

// ReadTables reads the tables of the given kinds from the handler
// runtime's memory; lookup gives the address of a runtime symbol.
func ReadTables(read Reader, lookup func(string) (uint64, bool), kinds []Kind) (*Counts, error) {
	c := NewCounts()
	for _, k := range kinds {
		for _, sym := range tableSymbols[k] {
			addr, ok := lookup(sym)
			if !ok {
				return nil, fmt.Errorf("handler runtime has no table %s", sym)
			}
			if err := readTable(read, sym, addr, c); err != nil {
				return nil, err
			}
		}
	}
	return c, nil
}

// tableHeader is a table's header in guest memory.
type tableHeader struct{ capacity, dropped, entries uint64 }

func readHeader(read Reader, sym string, addr uint64) (tableHeader, error) {
	var h [headerSize]byte
	if err := read(addr, h[:]); err != nil {
		return tableHeader{}, fmt.Errorf("handler table %s: %v", sym, err)
	}
	le := binary.LittleEndian
	magic, capacity, dropped, base := le.Uint64(h[0:]), le.Uint64(h[8:]), le.Uint64(h[24:]), le.Uint64(h[32:])
	if magic != tableMagic {
		return tableHeader{}, fmt.Errorf("handler table %s at %#x: bad magic %#x (the runtime overwritten, or a different ABI)", sym, addr, magic)
	}
	if capacity == 0 || capacity > maxCapacity || capacity&(capacity-1) != 0 {
		return tableHeader{}, fmt.Errorf("handler table %s: capacity %d is not a power of two up to %d", sym, capacity, maxCapacity)
	}
	return tableHeader{capacity, dropped, base}, nil
}

func readTable(read Reader, sym string, addr uint64, c *Counts) error {
	h, err := readHeader(read, sym, addr)
	if err != nil {
		return err
	}
	c.Dropped += h.dropped
	return eachEntry(read, sym, h.entries, h.capacity, func(e rawEntry) {
		key, key2, count, value := e.key, e.key2, e.count, e.value
		switch sym {
		case "hps_code_regions":
			// Keyed by pc alone: key2 counts the executions whose region
			// was not attributed.
			c.Regions[key] = Region{Count: count, Instructions: value, Unattributed: key2}
		case "hps_method_calls":
			c.Calls[key] += count
		case "hps_backedges":
			c.Backedges[key] += count
		case "hps_call_pairs":
			c.Pairs[Pair{key, key2}] += count
		}
	})
}

// rawEntry is one table entry in use.
type rawEntry struct{ key, key2, tag, count, value uint64 }

// eachEntry calls f for every entry in use of the table whose entries
// start at base.
func eachEntry(read Reader, sym string, base, capacity uint64, f func(rawEntry)) error {
	buf := make([]byte, capacity*entrySize)
	if err := read(base, buf); err != nil {
		return fmt.Errorf("handler table %s entries at %#x: %v", sym, base, err)
	}
	le := binary.LittleEndian
	for i := uint64(0); i < capacity; i++ {
		e := buf[i*entrySize:]
		r := rawEntry{le.Uint64(e), le.Uint64(e[8:]), le.Uint64(e[16:]), le.Uint64(e[24:]), le.Uint64(e[32:])}
		if r.count != 0 {
			f(r)
		}
	}
	return nil
}
