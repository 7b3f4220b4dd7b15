package cpu

import (
	"github.com/rvsim/rvsim/isa"
	"github.com/rvsim/rvsim/mem"
)

// noCause marks "no exception" in atomic's result.
const noCause = ^uint64(0)

// atomic executes LR, SC and the AMOs (A extension). They must be
// naturally aligned; a misaligned one raises an address-misaligned
// exception (LR: load, SC/AMO: store/AMO) rather than being split.
// An AMO is a load and a store, so it needs write permission.
func (c *CPU) atomic(d *decoded) (cause, tval uint64) {
	m := c.Mem
	a := c.X[d.Rs1]
	c.ea = a
	size := uint64(isa.Op(d.Op).Info().MemSize)
	word := size == 4
	if a&(size-1) != 0 {
		if isa.Op(d.Op) == isa.LR_W || isa.Op(d.Op) == isa.LR_D {
			return CauseLoadMisaligned, a
		}
		return CauseStoreMisaligned, a
	}
	load := func() (uint64, bool) {
		if word {
			v, ok := m.Read32(a)
			return sext32(uint64(v)), ok
		}
		return m.Read64(a)
	}
	store := func(v uint64) bool {
		if word {
			return m.Write32(a, uint32(v))
		}
		return m.Write64(a, v)
	}
	switch isa.Op(d.Op) {
	case isa.LR_W, isa.LR_D:
		v, ok := load()
		if !ok {
			return CauseLoadAccess, a
		}
		c.X[d.Rd] = v
		c.resValid, c.resAddr, c.resSize = true, a, uint8(size)
		return noCause, 0
	case isa.SC_W, isa.SC_D:
		// Succeeds only if this hart holds a reservation for exactly this
		// address and size; either way the reservation is released.
		ok := c.resValid && c.resAddr == a && uint64(c.resSize) == size
		c.resValid = false
		if !ok {
			c.X[d.Rd] = 1
			return noCause, 0
		}
		if m.PageFor(a, mem.Store) == nil || !store(c.X[d.Rs2]) {
			return CauseStoreAccess, a
		}
		c.X[d.Rd] = 0
		return noCause, 0
	}
	// AMOs: check the store permission first so a fault changes nothing.
	old, ok := load()
	if !ok || c.Mem.PageFor(a, mem.Store) == nil {
		return CauseStoreAccess, a
	}
	src := c.X[d.Rs2]
	if word {
		src = sext32(src)
	}
	var v uint64
	switch isa.Op(d.Op) {
	case isa.AMOSWAP_W, isa.AMOSWAP_D:
		v = src
	case isa.AMOADD_W, isa.AMOADD_D:
		v = old + src
	case isa.AMOXOR_W, isa.AMOXOR_D:
		v = old ^ src
	case isa.AMOAND_W, isa.AMOAND_D:
		v = old & src
	case isa.AMOOR_W, isa.AMOOR_D:
		v = old | src
	case isa.AMOMIN_W, isa.AMOMIN_D:
		v = uint64(min(int64(old), int64(src)))
	case isa.AMOMAX_W, isa.AMOMAX_D:
		v = uint64(max(int64(old), int64(src)))
	case isa.AMOMINU_W:
		v = uint64(min(uint32(old), uint32(src)))
	case isa.AMOMAXU_W:
		v = uint64(max(uint32(old), uint32(src)))
	case isa.AMOMINU_D:
		v = min(old, src)
	case isa.AMOMAXU_D:
		v = max(old, src)
	}
	if !store(v) {
		return CauseStoreAccess, a
	}
	c.X[d.Rd] = old
	return noCause, 0
}
