package cpu

import (
	"testing"

	"github.com/rvsim/rvsim/isa"
)

// benchLoop is BenchmarkInterpreter's loop of typical integer code:
// loads, stores, ALU ops and a branch.
var benchLoop = []string{
	"li a0,0",
	"li a2,100",
	"ld a3,0(a1)", // loop:
	"addi a3,a3,1",
	"sd a3,8(a1)",
	"add a0,a0,a3",
	"xor a4,a0,a3",
	"slli a5,a4,3",
	"srli a5,a5,1",
	"and a4,a4,a5",
	"addi a2,a2,-1",
	"bnez a2,.-36",
	"j .-40", // restart the loop with a2=0: runs for ever
}

// BenchmarkInterpreter measures the interpreter on benchLoop.
func BenchmarkInterpreter(b *testing.B) {
	c := newTestCPU(b, assemble(b, benchLoop...))
	c.X[11] = dataBase
	b.ResetTimer()
	exit := c.Run(uint64(b.N))
	if exit.Reason != StopLimit {
		b.Fatal(exit.Fault.Error())
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds()/1e6, "MIPS")
}

// countingSink is the cheapest useful tap sink: it counts records.
type countingSink struct{ n int }

func (s *countingSink) Tapped(recs []DynInst) int {
	s.n += len(recs)
	return 0
}

type discardObserver struct{}

func (discardObserver) Retire([]DynInst) {}

// BenchmarkTap measures the retire tap's cost on benchLoop: no tap, loads,
// control transfers, stores, every class tapped (a sink that only counts), and an
// observer (every instruction traced) for comparison.
func BenchmarkTap(b *testing.B) {
	for _, bc := range []struct {
		desc     string
		mask     ClassMask
		observer bool
	}{
		{"none", 0, false},
		{"loads", LoadClasses, false},
		{"branches", BranchClasses, false},
		{"stores", ClassesOf(isa.Store), false},
		{"all", AllClasses, false},
		{"observer", 0, true},
	} {
		b.Run(bc.desc, func(b *testing.B) {
			c := newTestCPU(b, assemble(b, benchLoop...))
			c.X[11] = dataBase
			sink := &countingSink{}
			c.SetTap(bc.mask, sink)
			if bc.observer {
				c.SetObserver(discardObserver{})
			}
			b.ResetTimer()
			exit := c.Run(uint64(b.N))
			if exit.Reason != StopLimit {
				b.Fatal(exit.Fault.Error())
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds()/1e6, "MIPS")
			if bc.mask != 0 && b.N > 100 && sink.n == 0 {
				b.Fatal("nothing tapped")
			}
		})
	}
}
