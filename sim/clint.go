package sim

import (
	"encoding/binary"

	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/mem"
)

// The bare-metal machine's CLINT (core-local interruptor), at the address
// and layout of SiFive's CLINT, which QEMU's virt machine and Spike share:
// msip (4 bytes: bit 0 drives mip.MSIP), mtimecmp (8 bytes) and mtime (8
// bytes, the same count as the time CSR: ticks of the 10 MHz timebase, one
// per 100 instructions). mip.MTIP is pending while mtime >= mtimecmp.
// The registers live in RAM pages watched with mem.WatchHost (a store
// stops the core, which then reads them) and mem.WatchDevice (a load of
// mtime first gets the current count written there). Time follows the
// instruction count, so an interrupt arrives at the same instruction in
// every run and in every mode.
const (
	CLINTBase  = 0x2000000
	clintSize  = 0x10000
	clintMSIP  = 0x0
	clintMTCmp = 0x4000
	clintMTime = 0xbff8
)

type clint struct {
	c        *cpu.CPU
	m        *mem.Memory
	mtimecmp uint64
	msip     bool
	// written: the bytes of mtime a store wrote since the core last
	// stopped (bit i: byte i)
	written uint8
}

// newCLINT maps the CLINT if the program leaves its addresses free (a
// program linked there keeps them as memory) and wires it to the core.
func newCLINT(c *cpu.CPU, m *mem.Memory) (*clint, error) {
	if !m.IsFree(CLINTBase, clintSize) {
		return nil, nil
	}
	if err := m.Map(CLINTBase, clintSize, mem.RW, "[clint]"); err != nil {
		return nil, err
	}
	d := &clint{c: c, m: m, mtimecmp: ^uint64(0)}
	d.put(clintMTCmp, d.mtimecmp, 8)
	for _, off := range []uint64{clintMSIP, clintMTCmp, clintMTime} {
		m.Watch(CLINTBase+off, mem.WatchHost|mem.WatchDevice)
	}
	c.DeviceRead = d.read
	return d, nil
}

// overlaps reports whether [addr, addr+size) touches the register of n
// bytes at off.
func overlaps(addr uint64, size int, off, n uint64) bool {
	return addr < CLINTBase+off+n && addr+uint64(size) > CLINTBase+off
}

// covers reports whether a store at addr reaches the CLINT (HostWrite).
func (d *clint) covers(addr uint64, size int) bool {
	for i := range uint64(8) {
		if a := CLINTBase + clintMTime + i; addr <= a && a < addr+uint64(size) {
			d.written |= 1 << i
		}
	}
	return overlaps(addr, size, 0, clintSize)
}

// read writes mtime as of instret retired instructions before a load of it.
func (d *clint) read(addr uint64, size int, instret uint64) {
	if overlaps(addr, size, clintMTime, 8) {
		d.put(clintMTime, d.mtime(instret), 8)
	}
}

// mtime is the time CSR's count (which shadows mtime, with the offset a
// write of mtime set).
func (d *clint) mtime(instret uint64) uint64 { return d.c.Time(instret) }

// sync takes in what the program stored (the core stopped after the
// store retired): msip's bit 0 (the other bits read 0), mtimecmp, and a
// write of mtime, whole or in part (a 32-bit half keeps the other half
// of the current count).
func (d *clint) sync() {
	bit := d.get(clintMSIP, 4) & 1
	d.put(clintMSIP, bit, 4)
	if msip := bit != 0; msip != d.msip {
		d.msip = msip
		d.c.SetDevicePending(cpu.MIPMSIP, msip)
	}
	d.mtimecmp = d.get(clintMTCmp, 8)
	if d.written != 0 {
		cur, stored := d.mtime(d.c.Instret), d.get(clintMTime, 8)
		v := cur
		for i := range 8 {
			if d.written>>i&1 != 0 {
				m := uint64(0xff) << (8 * i)
				v = v&^m | stored&m
			}
		}
		d.written = 0
		d.c.TimeOffset += v - cur
		d.put(clintMTime, v, 8)
	}
}

// tick drives mip.MTIP from mtime and mtimecmp at the current instruction
// and takes an interrupt that is pending and enabled (reported).
func (d *clint) tick() bool {
	d.c.SetDevicePending(cpu.MIPMTIP, d.due())
	return d.c.TakeInterrupt()
}

// due reports whether mtime has reached mtimecmp.
func (d *clint) due() bool { return d.mtime(d.c.Instret) >= d.mtimecmp }

// budget shortens a run's budget so that it stops at the first instruction
// at which mtime reaches mtimecmp, when that is still ahead.
func (d *clint) budget(budget uint64) uint64 {
	now := d.c.Instret
	if d.due() || d.c.TimeFunc != nil {
		return budget
	}
	ticks := d.mtimecmp - d.mtime(now) // > 0
	if ticks > (^uint64(0)-now)/cpu.InstsPerTick {
		return budget // beyond any run
	}
	// The first count n > now with n/100 reaching the time that is
	// ticks ahead of now's.
	at := (now/cpu.InstsPerTick + ticks) * cpu.InstsPerTick
	return min(budget, at-now)
}

func (d *clint) get(off uint64, n int) uint64 {
	var b [8]byte
	_ = d.m.Peek(CLINTBase+off, b[:n]) // (mapped: newCLINT)
	return binary.LittleEndian.Uint64(b[:])
}

func (d *clint) put(off, v uint64, n int) {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], v)
	_ = d.m.DeviceSet(CLINTBase+off, b[:n]) // (mapped: newCLINT)
}
