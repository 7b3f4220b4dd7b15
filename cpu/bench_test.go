package cpu

import (
	"testing"
)

// BenchmarkInterpreter measures the interpreter on a loop of typical
// integer code: loads, stores, ALU ops and a branch.
func BenchmarkInterpreter(b *testing.B) {
	code := assemble(b,
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
	)
	c := newTestCPU(b, code)
	c.X[11] = dataBase
	b.ResetTimer()
	exit := c.Run(uint64(b.N))
	if exit.Reason != StopLimit {
		b.Fatal(exit.Fault.Error())
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds()/1e6, "MIPS")
}
