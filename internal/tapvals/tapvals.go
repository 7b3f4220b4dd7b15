// Package tapvals reads a file of a value tap's records, the real-run
// input of the profiling units' benchmarks (BenchmarkRealValues in
// profhw/stratified and profhw/multihash). Only tests import it.
package tapvals

import (
	"encoding/binary"
	"os"
	"testing"

	"github.com/rvsim/rvsim/cpu"
)

// Read reads the file $RVSIM_VALS names: 16-byte records, PC and value
// little-endian (a hub that writes its TappedValues batches to a file
// makes one from a real run). It skips tb without one.
func Read(tb testing.TB) []cpu.TapValue {
	name := os.Getenv("RVSIM_VALS")
	if name == "" {
		tb.Skip("RVSIM_VALS names no file of value records")
	}
	raw, err := os.ReadFile(name)
	if err != nil {
		tb.Fatal(err)
	}
	vals := make([]cpu.TapValue, len(raw)/16)
	for i := range vals {
		vals[i] = cpu.TapValue{PC: binary.LittleEndian.Uint64(raw[16*i:]), Value: binary.LittleEndian.Uint64(raw[16*i+8:])}
	}
	return vals
}
