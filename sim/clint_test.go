package sim

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/rvsim/rvsim/cpu"
)

// The CLINT's run budget stops the core at the first instruction count
// at which mtime (count/100 plus the offset a write of mtime set) reaches
// mtimecmp; hand-computed.
func TestCLINTBudget(t *testing.T) {
	for _, tc := range []struct {
		desc                    string
		now, offset, cmp, given uint64
		want                    uint64
	}{
		{"disarmed (mtimecmp all ones)", 0, 0, ^uint64(0), 1 << 40, 1 << 40},
		{"five ticks ahead", 0, 0, 5, 1 << 40, 500},
		{"mid-tick", 250, 0, 5, 1 << 40, 250},
		{"one instruction before", 499, 0, 5, 1 << 40, 1},
		{"due now: no limit", 500, 0, 5, 1 << 40, 1 << 40},
		{"past due: no limit", 900, 0, 5, 1 << 40, 1 << 40},
		{"after a write of mtime", 0, 1000, 1003, 1 << 40, 300},
		{"the budget is shorter", 0, 0, 5, 77, 77},
	} {
		c := &cpu.CPU{Instret: tc.now, TimeOffset: tc.offset}
		d := &clint{c: c, mtimecmp: tc.cmp}
		assert.Equal(t, tc.want, d.budget(tc.given), tc.desc)
	}
}
