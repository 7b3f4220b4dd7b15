package main

// The StrongARM energy and time model of hps-phase-aware-remote-
// profiling.md §5.4 (Fig. 14b) and the bytes each protocol sends.

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/rvsim/rvsim/collector"
	"github.com/rvsim/rvsim/profile"
	"github.com/rvsim/rvsim/sim"
	"github.com/rvsim/rvsim/syscalls"
)

// Fig. 14b: joules per second and instructions per second of each
// instruction type on the iPAQ's StrongARM; a type's energy per
// instruction is their ratio. Loads that hit the cache cost 0 J/s in the
// paper's table (IMEM-Rcache): their energy is in the others'.
const (
	iregJps, iregIps      = 0.865, 204.790e6
	memRcJps, memRcIps    = 0.0, 137.510e6
	memWJps, memWIps      = 1.340, 11.625e6
	iregJoule, iregSecond = iregJps / iregIps, 1 / iregIps
)

// instrumentation is the energy and time of n instrumentation events of
// the code-region profile, by the measured mix per event: its loads hit
// the cache (the handler's tables are small: IMEM-Rcache), its stores
// hit too and cost as integer operations (IMEM-W is a missing store),
// the rest are integer operations (IREG).
func instrumentation(c costs, events uint64) (joules, seconds, instrs float64) {
	n := float64(events)
	loads, other := c.loads*n, (c.instrPerEvent[region]-c.loads)*n
	joules = loads*memRcJps/memRcIps + other*iregJoule
	seconds = loads/memRcIps + other*iregSecond
	return joules, seconds, c.instrPerEvent[region] * n
}

var _ = memWJps / memWIps // IMEM-W: no store of the instrumentation misses in this model

// compressRate is instructions of zstd per byte compressed, measured by
// running the riscv64 zstd of build/rootfs on the simulated core over a
// payload (less its run on an empty input).
func compressRate(payload []byte) (float64, error) {
	root, err := filepath.Abs("build/rootfs")
	if err != nil {
		return 0, err
	}
	bin := filepath.Join(root, "usr/bin/zstd")
	if _, err := os.Stat(bin); err != nil {
		return 0, fmt.Errorf("%s is not there (make setup builds build/rootfs)", bin)
	}
	count := func(in []byte) (uint64, error) {
		var out, errs bytes.Buffer
		mc, err := sim.Load(sim.Config{Program: bin, Args: []string{"-3", "--no-asyncio", "--single-thread", "-c", "-q"},
			Kernel: syscalls.Config{Root: root, Sysroot: root, Stdin: bytes.NewReader(in), Stdout: &out, Stderr: &errs, Warn: &errs}})
		if err != nil {
			return 0, err
		}
		res := mc.Run()
		if res.ExitCode != 0 {
			return 0, fmt.Errorf("zstd on the simulated core: status %d: %s", res.ExitCode, errs.String())
		}
		return res.Instructions, nil
	}
	full, err := count(payload)
	if err != nil {
		return 0, err
	}
	empty, err := count(nil)
	if err != nil {
		return 0, err
	}
	return float64(full-empty) / float64(len(payload)), nil
}

// countSink counts the frames a buffer sends.
type countSink struct{ frames [][]byte }

func (s *countSink) Send(f []byte) error {
	s.frames = append(s.frames, append([]byte{}, f...))
	return nil
}
func (s *countSink) Close() error { return nil }

// codeRegionProfile is an interval's code-region profile as the handlers
// report it (pc and count per branch, sorted by pc).
func codeRegionProfile(iv interval) profile.Profile {
	p := profile.Profile{Type: profile.CodeRegion, Source: "handlers", Entries: []profile.Entry{}}
	keys := make([]string, 0, len(iv.prof[region]))
	for k := range iv.prof[region] {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		p.Entries = append(p.Entries, profile.Entry{Count: iv.prof[region][k], PC: "0x" + k})
	}
	return p
}

// sent is what a strategy's profile buffer sends under a protocol.
type sent struct {
	raw, wire uint64
	frames    int
}

// send runs the profile buffer over a choice: the sampled intervals'
// code-region profiles tagged with their phase, the others' phase IDs in
// the trace (seq), under protocol proto.
func send(name string, ivs []interval, seq []int, c choice, proto collector.Protocol) (sent, []byte, error) {
	sink := &countSink{}
	b, err := collector.NewBuffer(collector.Run{Program: collector.Identity{Name: name, SHA256: fmt.Sprintf("%064x", 1)}, Input: "ref", Protocol: proto, ID: collector.RunID{1}}, sink)
	if err != nil {
		return sent{}, nil, err
	}
	on := map[int]bool{}
	for _, i := range c.ivs {
		on[i] = true
	}
	for i := range ivs {
		var ps []profile.Profile
		if on[i] {
			ps = []profile.Profile{codeRegionProfile(ivs[i])}
		}
		if err := b.Interval(uint64(i), uint32(seq[i]), ps); err != nil {
			return sent{}, nil, err
		}
	}
	st, err := b.Finish()
	var first []byte
	if len(sink.frames) > 0 {
		first = sink.frames[0]
	}
	return sent{raw: st.Raw, wire: st.Wire, frames: int(st.Frames)}, first, err
}
