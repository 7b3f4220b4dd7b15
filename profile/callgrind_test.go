package profile

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The callgrind file of a small code-region profile, written by hand from
// the callgrind format specification: costs grouped by file and function,
// per instruction address and line.
func TestWriteCallgrind(t *testing.T) {
	p := Profile{Type: CodeRegion, Entries: []Entry{
		{Count: 7, PC: "0x1010", Instructions: u(70)},
		{Count: 3, PC: "0x2020", Instructions: u(12)},
		{Count: 2, PC: "0x1004", Instructions: u(9)},
		{Count: 1, PC: "0x5000", Instructions: u(4)},
	}}
	var b bytes.Buffer
	require.NoError(t, WriteCallgrind(&b, "/bin/prog", p, fakeResolver))
	assert.Equal(t, `# callgrind format
version: 1
creator: rvsim
cmd: /bin/prog
positions: instr line
event: Ir : Instructions of the code regions ending here
event: Branches : Branch executions
events: Ir Branches
summary: 95 13

ob=/bin/prog
fl=/src/src.c
fn=f
0x1004 4 9 2
0x1010 16 70 7
fn=g
0x2020 32 12 3
fl=???
fn=0x5000
0x5000 0 4 1
totals: 95 13
`, b.String())

	err := WriteCallgrind(&b, "/bin/prog", Profile{Type: Method}, fakeResolver)
	assert.EqualError(t, err, "callgrind: a hot-method profile has no per-instruction costs (want hot-code-region)")
	err = WriteCallgrind(&b, "/bin/prog", Profile{Type: CodeRegion, Entries: []Entry{{PC: "f"}}}, fakeResolver)
	assert.EqualError(t, err, `callgrind: entry 0: pc "f" is not a hex address`)
}

// Merge appends the other file's events: each address's costs extended
// with zeros where one side has none, calls likewise.
func TestCallgrindMerge(t *testing.T) {
	c := &Callgrind{Events: []CallgrindEvent{{"A", "a"}}, Self: map[uint64][]uint64{0x1000: {1}},
		Calls: []CallgrindCall{{Site: 0x1000, Target: 0x2000, Calls: 2, Costs: []uint64{5}}}}
	o := &Callgrind{Events: []CallgrindEvent{{"B", "b"}, {"C", "c"}}, Self: map[uint64][]uint64{0x1000: {2, 3}, 0x2000: {4, 5}},
		Calls: []CallgrindCall{{Site: 0x2000, Target: 0x1000, Calls: 1, Costs: []uint64{6, 7}}}}
	c.Merge(o)
	assert.Equal(t, []CallgrindEvent{{"A", "a"}, {"B", "b"}, {"C", "c"}}, c.Events)
	assert.Equal(t, map[uint64][]uint64{0x1000: {1, 2, 3}, 0x2000: {0, 4, 5}}, c.Self)
	assert.Equal(t, []CallgrindCall{{Site: 0x1000, Target: 0x2000, Calls: 2, Costs: []uint64{5, 0, 0}},
		{Site: 0x2000, Target: 0x1000, Calls: 1, Costs: []uint64{0, 6, 7}}}, c.Calls)
}
