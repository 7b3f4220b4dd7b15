package cpu

import (
	"encoding/binary"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/isa"
	"github.com/rvsim/rvsim/mem"
)

// Test harness: assemble lines into a code page at codeBase, with a data
// page at dataBase, and run them on a user-mode hart.
const (
	codeBase = 0x10000
	dataBase = 0x20000
)

func assemble(t testing.TB, lines ...string) []byte {
	t.Helper()
	var out []byte
	for _, l := range lines {
		if word, ok := strings.CutPrefix(l, ".4byte "); ok { // any word, valid or not
			v, err := strconv.ParseUint(word, 0, 32)
			require.NoError(t, err, l)
			out = binary.LittleEndian.AppendUint32(out, uint32(v))
			continue
		}
		in, err := isa.Assemble(l) // (in.Raw is the encoding)
		require.NoError(t, err, l)
		out = binary.LittleEndian.AppendUint32(out, in.Raw)
	}
	return out
}

func newTestCPU(t testing.TB, code []byte) *CPU {
	t.Helper()
	m := mem.New()
	require.NoError(t, m.Map(codeBase, 4*mem.PageSize, mem.RWX, "code"))
	require.NoError(t, m.Map(dataBase, 2*mem.PageSize, mem.RW, "data"))
	require.NoError(t, m.Poke(codeBase, code))
	c := New(m)
	c.PC = codeBase
	return c
}

// runLines runs the assembled lines to completion (one instruction each,
// straight-line) and returns the hart.
func runLines(t testing.TB, setup func(c *CPU), lines ...string) *CPU {
	t.Helper()
	c := newTestCPU(t, assemble(t, lines...))
	if setup != nil {
		setup(c)
	}
	exit := c.Run(uint64(len(lines)))
	require.Equal(t, StopLimit, exit.Reason, "fault: %v", exit.Fault.Error())
	return c
}

// recorder is an Observer that keeps every retired instruction.
type recorder struct{ insts []DynInst }

func (r *recorder) Retire(batch []DynInst) { r.insts = append(r.insts, batch...) }
