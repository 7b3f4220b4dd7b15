package collector

import (
	"fmt"
	"os"

	"github.com/rvsim/rvsim/profile"
)

// Sink takes a run's frames in order: a Client sends them to a collector,
// a FileSink appends them to a local file.
type Sink interface {
	Send(frame []byte) error
	Close() error
}

// Run describes the run whose profiles a Buffer collects.
type Run struct {
	Program  Identity // see IdentifyFile
	Input    string   // the input's name, as the user calls it ("ref", "test", the arguments)
	Protocol Protocol
	ID       RunID // zero: a random one
}

// Stats counts what a Buffer compressed and sent.
type Stats struct {
	Intervals  uint64 `json:"intervals"`        // intervals reported
	Samples    uint64 `json:"samples"`          // of them sampled
	Frames     uint64 `json:"frames"`           // frames sent
	Raw        uint64 `json:"raw_bytes"`        // payload bytes before compression
	Compressed uint64 `json:"compressed_bytes"` // payload bytes after compression (zstd)
	Wire       uint64 `json:"wire_bytes"`       // bytes of the frames sent: their compressed bytes + HeaderSize each
}

// Buffer is a run's profile buffer (hps-phase-aware-remote-profiling.md
// §4, Fig. 7:D): the sampled intervals' profiles tagged with their phase
// ID and interval, and the trace of the phase IDs of the other intervals.
// It sends them to its sink by the run's protocol (§5.4).
type Buffer struct {
	run     Run
	sink    Sink
	pending Payload // what has not been sent yet
	next    uint64  // the interval expected next
	seq     uint32
	unsent  [][]byte // frames compressed, not yet taken by the sink
	stats   Stats
	done    bool
}

// NewBuffer returns an empty profile buffer for run that sends to sink.
func NewBuffer(run Run, sink Sink) (*Buffer, error) {
	if _, err := ParseProtocol(string(run.Protocol)); err != nil {
		return nil, err
	}
	if run.ID == (RunID{}) {
		run.ID = NewRunID()
	}
	b := &Buffer{run: run, sink: sink}
	b.pending = Payload{Program: run.Program, Input: run.Input, Protocol: run.Protocol}
	if err := b.pending.Validate(); err != nil {
		return nil, err
	}
	return b, nil
}

// Interval records the end of interval n (0, 1, 2, ... in order) of phase
// phase. profiles are the interval's profiles if it was sampled, nil if it
// was not (then only its phase ID joins the trace); the buffer keeps them
// until they are compressed, so the caller must not change them after the
// call. Under Interleaved a sampled interval is compressed and sent at
// once; if the sink refuses it, the error is returned, the frame waits in
// the buffer, and the run may go on.
func (b *Buffer) Interval(n uint64, phase uint32, profiles []profile.Profile) error {
	if b.done {
		return fmt.Errorf("collector: interval %d after the end of the run", n)
	}
	if n != b.next {
		return fmt.Errorf("collector: interval %d, want interval %d (intervals are reported in order, each once)", n, b.next)
	}
	b.next++
	b.stats.Intervals++
	b.pending.End = b.next
	if profiles == nil {
		b.pending.Trace = append(b.pending.Trace, phase)
		return nil
	}
	b.stats.Samples++
	b.pending.Samples = append(b.pending.Samples, Sample{Interval: n, Phase: phase, Profiles: profiles})
	if b.run.Protocol == Interleaved {
		return b.flush()
	}
	return nil
}

// Finish ends the run: it sends what the buffer still holds (under AtEnd,
// everything), including frames the sink refused before, and closes the
// sink. An error means some frames were not sent.
func (b *Buffer) Finish() (Stats, error) {
	if b.done {
		return b.stats, fmt.Errorf("collector: the run already finished")
	}
	b.done = true
	err := b.flush()
	if cerr := b.sink.Close(); err == nil {
		err = cerr
	}
	return b.stats, err
}

// Stats returns what the buffer has counted so far.
func (b *Buffer) Stats() Stats { return b.stats }

// flush compresses what is pending into the run's next frame and sends
// the frames not sent yet, in order. A frame the sink refused stays in
// the buffer, as is, and goes first at the next flush: the collector
// acknowledges a frame it already stored (its acknowledgement lost) as a
// duplicate, never as a conflict.
func (b *Buffer) flush() error {
	if b.pending.End > b.pending.First {
		frame, raw, n, err := encodeFrame(b.run.ID, b.seq, &b.pending)
		if err != nil {
			return err
		}
		b.seq++
		b.stats.Raw += uint64(raw)
		b.stats.Compressed += uint64(n)
		b.unsent = append(b.unsent, frame)
		b.pending.First, b.pending.Samples, b.pending.Trace = b.pending.End, nil, nil
	}
	for len(b.unsent) > 0 {
		if err := b.sink.Send(b.unsent[0]); err != nil {
			return fmt.Errorf("%w (%d frames wait in the buffer)", err, len(b.unsent))
		}
		b.stats.Frames++
		b.stats.Wire += uint64(len(b.unsent[0]))
		b.unsent[0] = nil
		b.unsent = b.unsent[1:]
	}
	return nil
}

// FileSink appends frames to a local file, to be loaded later with
// `rvsim collector import` (or ReadFrames).
type FileSink struct {
	f *os.File
}

// CreateFileSink opens path for appending frames (creating it).
func CreateFileSink(path string) (*FileSink, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	return &FileSink{f: f}, nil
}

// Send appends one frame.
func (s *FileSink) Send(frame []byte) error {
	_, err := s.f.Write(frame)
	return err
}

// Close flushes the file to disk and closes it.
func (s *FileSink) Close() error {
	err := s.f.Sync()
	if cerr := s.f.Close(); err == nil {
		err = cerr
	}
	return err
}

// Open returns the sink a run sends to: a Client for the collector at
// remote (with token, if any), or, with remote empty, a FileSink on file.
func Open(remote, token, file string) (Sink, error) {
	if remote != "" {
		return NewClient(remote, token)
	}
	if file == "" {
		return nil, fmt.Errorf("collector: no remote address and no local file")
	}
	return CreateFileSink(file)
}
