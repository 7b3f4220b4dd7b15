package sim

import (
	"encoding/binary"

	"github.com/rvsim/rvsim/mem"
	"github.com/rvsim/rvsim/syscalls"
)

// Bare-metal machine: RAM where riscv-tests and most bare-metal programs
// are linked. Program segments outside it are mapped as well.
const (
	RAMBase = 0x80000000
	RAMSize = 256 << 20
)

// loadBareMetal builds an M-mode machine with the program's segments in
// RWX memory (M-mode without PMP sees no page permissions), an HTIF
// mailbox at the tohost symbol and a CLINT (clint.go).
func (mc *Machine) loadBareMetal() error {
	m := mc.Mem
	if err := m.Map(RAMBase, RAMSize, mem.RWX, "ram"); err != nil {
		return err
	}
	for _, s := range mc.Prog.Segments {
		lo, hi := s.Vaddr&^mem.PageMask, (s.Vaddr+s.Memsz+mem.PageMask)&^mem.PageMask
		if lo >= RAMBase && hi <= RAMBase+RAMSize {
			continue
		}
		for a := lo; a < hi; a += mem.PageSize {
			if _, ok := m.RegionAt(a); !ok {
				if err := m.Map(a, mem.PageSize, mem.RWX, mc.Prog.Path); err != nil {
					return err
				}
			}
		}
	}
	for _, s := range mc.Prog.Segments {
		if err := m.Poke(s.Vaddr, s.Data); err != nil {
			return err
		}
	}
	c := mc.CPU
	c.EnterBareMetal()
	c.PC = mc.Prog.Entry
	h := &htif{mc: mc, tohost: mc.Prog.ToHost, fromhost: mc.Prog.FromHost}
	mc.htif = h
	m.Watch(h.tohost, mem.WatchHost)
	d, err := newCLINT(c, m)
	if err != nil {
		return err
	}
	mc.clint = d
	c.HostWrite = func(addr uint64, size int) bool {
		if d != nil && d.covers(addr, size) {
			return true
		}
		return addr < h.tohost+8 && addr+uint64(size) > h.tohost
	}
	return nil
}

// htif is the host side of the riscv-tests Host-Target Interface: the
// target writes a command to tohost, the host acts and acknowledges
// through fromhost. A command is dev<<56 | cmd<<48 | payload.
type htif struct {
	mc               *Machine
	tohost, fromhost uint64
	wrote            []syscalls.Range // the guest memory the last command wrote (HostWrites)
}

// HostWrites returns the guest memory the last HTIF command wrote: the
// mailbox, a proxied system call's result and what the call itself wrote
// (a lock-step driver copies them into its reference model). Nil for a
// Linux program.
func (mc *Machine) HostWrites() []syscalls.Range {
	if mc.htif == nil {
		return nil
	}
	return mc.htif.wrote
}

// service handles the command in tohost. done reports the end of the run
// with the test's exit code.
func (h *htif) service() (code int, done bool) {
	m := h.mc.Mem
	h.wrote = append(h.wrote[:0], syscalls.Range{Addr: h.tohost, Len: 8})
	if h.fromhost != 0 {
		h.wrote = append(h.wrote, syscalls.Range{Addr: h.fromhost, Len: 8})
	}
	var buf [8]byte
	if err := m.Peek(h.tohost, buf[:]); err != nil {
		return 0, false
	}
	v := binary.LittleEndian.Uint64(buf[:])
	if v == 0 {
		return 0, false // the target cleared it
	}
	dev, cmd, payload := v>>56, v>>48&0xff, v&(1<<48-1)
	var ack uint64
	switch {
	case dev == 0 && cmd == 0 && payload&1 == 1:
		// Exit: riscv-tests write (code<<1)|1; code 0 is a pass.
		return int(payload >> 1), true
	case dev == 0 && cmd == 0:
		// Syscall proxy: payload points at magic_mem[8] = {num, a0, a1, ...}.
		var mm [64]byte
		if err := m.Peek(payload, mm[:]); err != nil {
			return 0, false
		}
		w := func(i int) uint64 { return binary.LittleEndian.Uint64(mm[8*i:]) }
		var args [6]uint64
		for i := range args {
			args[i] = w(i + 1)
		}
		k := h.mc.Kernel
		k.SetInstret(h.mc.CPU.Instret)
		ret := k.Syscall(w(0), args)
		if code, ok := k.Exited(); ok {
			return code, true
		}
		binary.LittleEndian.PutUint64(mm[:], ret)
		_ = m.Poke(payload, mm[:8])
		h.wrote = append(h.wrote, syscalls.Range{Addr: payload, Len: 8})
		h.wrote = append(h.wrote, k.LastWrites()...)
		ack = 1
	case dev == 1 && cmd == 1:
		// Console putchar.
		_, _ = h.mc.cfg.Kernel.Stdout.Write([]byte{byte(payload)})
		ack = 1<<56 | 1<<48
	default:
		ack = dev<<56 | cmd<<48 // unknown device: acknowledge, do nothing
	}
	binary.LittleEndian.PutUint64(buf[:], 0)
	_ = m.Poke(h.tohost, buf[:])
	if h.fromhost != 0 {
		binary.LittleEndian.PutUint64(buf[:], ack)
		_ = m.Poke(h.fromhost, buf[:])
	}
	return 0, false
}
