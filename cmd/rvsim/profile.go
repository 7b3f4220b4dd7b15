package main

import (
	"os"
	"runtime/pprof"
)

// startCPUProfile writes a pprof CPU profile of the simulator itself (for
// working on rvsim's speed) until the returned function is called.
func startCPUProfile(path string) (stop func(), err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}
