package profile

import (
	"encoding/binary"
	"fmt"
)

// The handler runtime's tables (toolchain/handlers/handlers.h): a header
// {magic, capacity, used, dropped, entries*} and 32-byte entries
// {key, key2, count, value}, key 0 meaning empty.
const (
	tableMagic  = 0x3130424154535048 // "HPSTAB01"
	headerSize  = 40
	entrySize   = 32
	maxCapacity = 1 << 24
)

// Table symbols of the handler runtime, per profile type.
var tableSymbols = map[Kind][]string{
	CodeRegion: {"hps_code_regions"},
	Method:     {"hps_method_calls", "hps_backedges"},
	CallPair:   {"hps_call_pairs"},
}

// HandlerKinds maps the runtime's handler entry points to the profile
// type each one collects.
var HandlerKinds = map[string]Kind{
	"Branch_handler":     CodeRegion,
	"HotMethod_handler":  Method,
	"HotMethod_backedge": Method,
	"CallPair_handler":   CallPair,
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

func readTable(read Reader, sym string, addr uint64, c *Counts) error {
	var h [headerSize]byte
	if err := read(addr, h[:]); err != nil {
		return fmt.Errorf("handler table %s: %v", sym, err)
	}
	le := binary.LittleEndian
	magic, capacity, dropped, base := le.Uint64(h[0:]), le.Uint64(h[8:]), le.Uint64(h[24:]), le.Uint64(h[32:])
	if magic != tableMagic {
		return fmt.Errorf("handler table %s at %#x: bad magic %#x (the runtime overwritten, or a different ABI)", sym, addr, magic)
	}
	if capacity == 0 || capacity > maxCapacity {
		return fmt.Errorf("handler table %s: capacity %d out of range", sym, capacity)
	}
	buf := make([]byte, capacity*entrySize)
	if err := read(base, buf); err != nil {
		return fmt.Errorf("handler table %s entries at %#x: %v", sym, base, err)
	}
	c.Dropped += dropped
	for i := uint64(0); i < capacity; i++ {
		e := buf[i*entrySize:]
		key, key2, count, value := le.Uint64(e), le.Uint64(e[8:]), le.Uint64(e[16:]), le.Uint64(e[24:])
		if key == 0 {
			continue
		}
		switch sym {
		case "hps_code_regions":
			c.Regions[key] = Region{Count: count, Instructions: value, Unattributed: key2}
		case "hps_method_calls":
			c.Calls[key] += count
		case "hps_backedges":
			c.Backedges[key] += count
		case "hps_call_pairs":
			c.Pairs[Pair{key, key2}] += count
		}
	}
	return nil
}
