package profile

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/isa"
)

func inst(t *testing.T, line string) isa.Inst {
	in, err := isa.Assemble(line)
	require.NoError(t, err)
	return in
}

// The exact profiler counts the application's events and skips what DISE
// injected and what handlers ran.
func TestExact(t *testing.T) {
	add, beq, call := inst(t, "add a0, a0, a1"), inst(t, "beq a0, a1, .-8"), inst(t, "jal ra, .+64")
	stream := []cpu.DynInst{
		{PC: 0x100, Inst: add, NextPC: 0x104},
		{PC: 0x104, Inst: add, NextPC: 0x108},
		{PC: 0x108, Inst: beq, NextPC: 0x100, Taken: true}, // region 2 (since the start), backward taken
		{PC: 0x100, Inst: add, NextPC: 0x100, Injected: true},
		{PC: 0x100, Inst: add, NextPC: 0x104},
		{PC: 0x200, Inst: beq, NextPC: 0x204, Handler: true},
		{PC: 0x104, Inst: add, NextPC: 0x108},
		{PC: 0x108, Inst: beq, NextPC: 0x10c}, // region 3 (the previous beq and two adds), not taken
		{PC: 0x10c, Inst: call, NextPC: 0x14c, Taken: true},
		{PC: 0x14c, Inst: beq, NextPC: 0x144, Taken: true}, // region 2
	}
	x := NewExact()
	x.Retire(stream[:4])
	x.Retire(stream[4:])
	c := x.Counts
	assert.Equal(t, uint64(8), x.App)
	assert.Equal(t, map[uint64]Region{0x108: {Count: 2, Instructions: 5}, 0x14c: {Count: 1, Instructions: 2}}, c.Regions)
	assert.Equal(t, map[uint64]uint64{0x108: 1, 0x14c: 1}, c.Backedges)
	assert.Equal(t, map[uint64]uint64{0x14c: 1}, c.Calls)
	assert.Equal(t, map[Pair]uint64{{0x10c, 0x14c}: 1}, c.Pairs)
	assert.Equal(t, uint64(3), c.Events(CodeRegion))
	assert.Equal(t, uint64(3), c.Events(Method))
	assert.Equal(t, uint64(1), c.Events(CallPair))
}

func syms(a uint64) string {
	switch {
	case a >= 0x100 && a < 0x140:
		return "main"
	case a >= 0x140 && a < 0x180:
		return "f"
	}
	return ""
}

func TestBuild(t *testing.T) {
	c := NewCounts()
	c.Regions[0x108] = Region{Count: 2, Instructions: 6}
	c.Regions[0x14c] = Region{Count: 5, Instructions: 9, Unattributed: 1}
	c.Calls[0x140] = 3
	c.Calls[0x900] = 1
	c.Backedges[0x14c] = 4
	c.Backedges[0x108] = 1
	c.Pairs[Pair{0x10c, 0x140}] = 3
	c.Pairs[Pair{0x110, 0x900}] = 1

	p := Build(CodeRegion, c, syms)
	require.Len(t, p.Entries, 2)
	assert.Equal(t, Entry{Count: 5, PC: "0x14c", Function: "f", Instructions: u(9), Unattributed: u(1)}, p.Entries[0], "hottest first")
	assert.Equal(t, "main", p.Entries[1].Function)

	p = Build(Method, c, syms)
	require.Len(t, p.Entries, 3)
	assert.Equal(t, Entry{Count: 7, Function: "f", PC: "0x140", Calls: u(3), BackwardBranches: u(4)}, p.Entries[0])
	assert.Equal(t, Entry{Count: 1, Function: "0x900", PC: "0x900", Calls: u(1), BackwardBranches: u(0)}, p.Entries[1], "no symbol: the address")
	assert.Equal(t, Entry{Count: 1, Function: "main", Calls: u(0), BackwardBranches: u(1)}, p.Entries[2])

	p = Build(CallPair, c, syms)
	require.Len(t, p.Entries, 2)
	assert.Equal(t, Entry{Count: 3, Caller: "main", Callee: "f", PC: "0x10c", Target: "0x140"}, p.Entries[0])

	var b bytes.Buffer
	require.NoError(t, Write(&b, []Profile{p}))
	assert.Contains(t, b.String(), `"type": "call-pair"`)
	assert.Contains(t, b.String(), `"caller": "main"`)
	back, err := Read(b.Bytes())
	require.NoError(t, err)
	assert.Equal(t, []Profile{p}, back)
	b.Reset()
	two := []Profile{Build(CodeRegion, c, nil), p}
	require.NoError(t, Write(&b, two))
	back, err = Read(b.Bytes())
	require.NoError(t, err)
	assert.Equal(t, two, back)
	assert.Error(t, Write(&b, nil))
}

// fakeMem is guest memory for the tests: byte slices at addresses.
type fakeMem map[uint64][]byte

func (m fakeMem) read(addr uint64, buf []byte) error {
	for a, src := range m {
		if addr >= a && addr+uint64(len(buf)) <= a+uint64(len(src)) {
			copy(buf, src[addr-a:])
			return nil
		}
	}
	return fmt.Errorf("unmapped %#x", addr)
}

// table writes a table header at addr and its entries at entries, the
// rows {key, key2, tag, count, value} spread out as in a hash table.
func (m fakeMem) table(addr, entries uint64, capacity int, rows [][5]uint64, magic uint64) {
	le := binary.LittleEndian
	h := make([]byte, headerSize)
	le.PutUint64(h, magic)
	le.PutUint64(h[8:], uint64(capacity))
	le.PutUint64(h[16:], uint64(len(rows)))
	le.PutUint64(h[24:], 7)
	le.PutUint64(h[32:], entries)
	m[addr] = h
	e := make([]byte, capacity*entrySize)
	for i, r := range rows {
		for k, v := range r {
			le.PutUint64(e[(2*i+1)*entrySize+8*k:], v) // sparse, like a hash table
		}
	}
	m[entries] = e
}

// ReadTables reads the runtime's layout (toolchain/handlers/src/handlers.h).
func TestReadTables(t *testing.T) {
	mem := fakeMem{}
	// Code regions: key2 counts the executions whose region was not attributed.
	mem.table(0x1000, 0x8000, 8, [][5]uint64{{0x108, 1, 0, 5, 40}, {0x14c, 0, 0, 2, 6}, {0, 0, 0, 0, 99}}, tableMagic)
	mem.table(0x1100, 0x9000, 4, [][5]uint64{{0x10c, 0x140, 0, 3, 0}}, tableMagic)
	mem.table(0x1200, 0xa000, 4, [][5]uint64{{0x140, 0, 0, 9, 0}, {0, 0, 0, 2, 0}}, tableMagic) // key 0 is a key like any other
	mem.table(0x1300, 0xb000, 4, [][5]uint64{{0x14c, 0, 0, 4, 0}}, tableMagic)
	mem.table(0x1400, 0xc000, 4, nil, 0xbad)
	mem.table(0x1500, 0xd000, 6, nil, tableMagic)
	syms := map[string]uint64{"hps_code_regions": 0x1000, "hps_call_pairs": 0x1100, "hps_method_calls": 0x1200, "hps_backedges": 0x1300}
	lookup := func(n string) (uint64, bool) { a, ok := syms[n]; return a, ok }
	c, err := ReadTables(mem.read, lookup, Kinds)
	require.NoError(t, err)
	assert.Equal(t, map[uint64]Region{0x108: {5, 40, 1}, 0x14c: {2, 6, 0}}, c.Regions)
	assert.Equal(t, map[Pair]uint64{{0x10c, 0x140}: 3}, c.Pairs)
	assert.Equal(t, map[uint64]uint64{0x140: 9, 0: 2}, c.Calls)
	assert.Equal(t, map[uint64]uint64{0x14c: 4}, c.Backedges)
	assert.Equal(t, uint64(28), c.Dropped)

	syms["hps_call_pairs"] = 0x1400
	_, err = ReadTables(mem.read, lookup, []Kind{CallPair})
	require.ErrorContains(t, err, "bad magic 0xbad")
	syms["hps_call_pairs"] = 0x1500
	_, err = ReadTables(mem.read, lookup, []Kind{CallPair})
	require.ErrorContains(t, err, "capacity 6 is not a power of two")
	delete(syms, "hps_call_pairs")
	_, err = ReadTables(mem.read, lookup, []Kind{CallPair})
	require.ErrorContains(t, err, "no table hps_call_pairs")
	syms["hps_code_regions"] = 0x5555
	_, err = ReadTables(mem.read, lookup, []Kind{CodeRegion})
	require.ErrorContains(t, err, "unmapped 0x5555")
}
