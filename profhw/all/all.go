// Package all links in every kind of profiling unit: importing it
// registers them with profhw (each unit package registers its kinds in
// init).
package all

import (
	_ "github.com/rvsim/rvsim/profhw/exact"      // the ideal tuple profiler
	_ "github.com/rvsim/rvsim/profhw/multihash"  // interval profilers and heavy-hitter sketches
	_ "github.com/rvsim/rvsim/profhw/pathprof"   // the hardware path profiler
	_ "github.com/rvsim/rvsim/profhw/phase"      // the Phase Tracker
	_ "github.com/rvsim/rvsim/profhw/stratified" // stratified-sampling.md: R, P, C, H[X], A_k, tagged
)
