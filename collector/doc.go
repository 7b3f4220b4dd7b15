// Package collector is the remote side of phase-aware remote profiling
// (hps-phase-aware-remote-profiling.md §4, Fig. 7:D–E, and §5.4): the
// profile buffer a device fills, the payloads it sends, and the collector
// service (the paper's "optimization center") that receives, stores and
// merges them.
//
// The pieces, in the order data flows through them:
//
//   - Buffer is the profile buffer (§4, Fig. 7:D). The simulator calls
//     Buffer.Interval at the end of every interval with the interval's
//     phase ID and, if the interval was sampled, its profiles; and
//     Buffer.Finish at the end of the run. Sampled profiles are kept tagged
//     with their phase ID and interval; the phase IDs of the intervals that
//     were not sampled form the trace, so that a time-varying profile can
//     be rebuilt (§4).
//   - Protocols (§5.4): AtEnd compresses the whole buffer once at exit and
//     sends one frame; Interleaved compresses and sends a frame after each
//     sampled interval (and one more at exit for the trace that follows the
//     last sample).
//   - A frame (frame.go) is a fixed 36-byte header (magic, version, run ID,
//     sequence number, length, CRC-32C) and the zstd-compressed JSON of one
//     Payload. The compressed bytes are deterministic for a given run.
//   - A Sink takes frames: Client posts them to a collector over HTTP with
//     bounded retries; FileSink appends them to a local file in the same
//     framed format, which `rvsim collector import` loads later.
//   - Store keeps the uploads in SQLite (modernc.org/sqlite, WAL), one
//     transaction per frame, and Merge weights each phase's sampled profile
//     by the number of intervals of that phase (docs/COLLECTOR.md states
//     the rule).
//   - Handler is the HTTP service: POST /v1/uploads, and GET endpoints for
//     the programs, their merged profiles and the upload counts.
//   - WireCost is the transmission energy and time model of §5.4 (Fig. 14b).
//
// Phase IDs are those of the phase tracker of the run that produced them:
// they are local to a run, and the merge never compares them across runs.
package collector
