package collector

import (
	"bufio"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"sync"

	"github.com/klauspost/compress/zstd"
)

// A frame is one payload on the wire or in a local file:
//
//	offset size
//	0      4    magic "RVPB" (rvsim profile buffer)
//	4      1    format version (1)
//	5      3    reserved, zero
//	8      16   run ID: the same for every frame of one run
//	24     4    sequence number of the frame within its run (0, 1, ...)
//	28     4    length of the compressed payload in bytes
//	32     4    CRC-32C (Castagnoli) of the compressed payload
//	36     len  the payload's JSON, compressed as one zstd frame
//
// Integers are big-endian. An HTTP upload's body is exactly one frame; a
// local file is frames one after another. The run ID and sequence number
// sit outside the compressed bytes, so that the compressed size depends
// only on the payload, and they let the collector recognise a frame it
// already stored (a retry whose acknowledgement was lost).
const (
	frameMagic   = "RVPB"
	frameVersion = 1
	HeaderSize   = 36
)

// RunID identifies one run of a program: every frame of the run carries it.
type RunID [16]byte

// NewRunID returns a random run ID.
func NewRunID() RunID {
	var r RunID
	rand.Read(r[:])
	return r
}

func (r RunID) String() string { return hex.EncodeToString(r[:]) }

// Frame is a decoded frame.
type Frame struct {
	Run     RunID
	Seq     uint32
	Payload *Payload
	// Compressed is the length of the compressed payload; Wire the
	// frame's whole length (HeaderSize + Compressed).
	Compressed, Wire int
}

// FormatError is a malformed frame: the byte offset (from the start of
// the frame, or of the file for frames read from a file) and what is
// wrong. Truncated says the data ended before the frame did.
type FormatError struct {
	Off       int64
	Msg       string
	Truncated bool
}

func (e *FormatError) Error() string { return fmt.Sprintf("offset %d: %s", e.Off, e.Msg) }

// The zstd settings are fixed, so that a payload always compresses to the
// same bytes (for one version of the compressor): one goroutine, the
// default level, checksums on, no dictionary. EncodeAll compresses a
// payload as one zstd frame whose header states its size.
var (
	encoderOnce sync.Once
	encoder     *zstd.Encoder
	decoders    = sync.Pool{New: func() any {
		d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(MaxDecoded))
		if err != nil {
			panic(err) // only for invalid options
		}
		return d
	}}
)

// MaxDecoded bounds a payload's uncompressed size: a small frame that
// would expand beyond it (a "zip bomb") is refused.
const MaxDecoded = 64 << 20

func zstdEncoder() *zstd.Encoder {
	encoderOnce.Do(func() { encoder = newEncoder() })
	return encoder
}

func newEncoder() *zstd.Encoder {
	e, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1), zstd.WithEncoderLevel(zstd.SpeedDefault),
		zstd.WithEncoderCRC(true), zstd.WithZeroFrames(true))
	if err != nil {
		panic(err) // only for invalid options
	}
	return e
}

// EncodeFrame compresses the payload and frames it. The second result is
// the length of the compressed payload.
func EncodeFrame(run RunID, seq uint32, p *Payload) ([]byte, int, error) {
	out, _, n, err := encodeFrame(run, seq, p)
	return out, n, err
}

// encodeFrame also returns the payload's uncompressed length.
func encodeFrame(run RunID, seq uint32, p *Payload) (out []byte, raw, compressed int, err error) {
	if err := p.Validate(); err != nil {
		return nil, 0, 0, err
	}
	js, err := p.encodeJSON()
	if err != nil {
		return nil, 0, 0, err
	}
	out = make([]byte, HeaderSize, HeaderSize+len(js)/4+64)
	out = zstdEncoder().EncodeAll(js, out)
	n := len(out) - HeaderSize
	copy(out, frameMagic)
	out[4] = frameVersion
	copy(out[8:24], run[:])
	binary.BigEndian.PutUint32(out[24:], seq)
	binary.BigEndian.PutUint32(out[28:], uint32(n))
	binary.BigEndian.PutUint32(out[32:], crc32.Checksum(out[HeaderSize:], castagnoli))
	return out, len(js), n, nil
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// header is a frame's fixed part.
type header struct {
	run RunID
	seq uint32
	n   uint32
	crc uint32
}

func parseHeader(h []byte) (header, error) {
	switch {
	case string(h[:4]) != frameMagic:
		return header{}, &FormatError{Msg: fmt.Sprintf("not a profile frame (magic %q, want %q)", h[:4], frameMagic)}
	case h[4] != frameVersion:
		return header{}, &FormatError{Off: 4, Msg: fmt.Sprintf("frame version %d, want %d", h[4], frameVersion)}
	case h[5] != 0 || h[6] != 0 || h[7] != 0:
		return header{}, &FormatError{Off: 5, Msg: "reserved header bytes are not zero"}
	}
	var hd header
	copy(hd.run[:], h[8:24])
	hd.seq = binary.BigEndian.Uint32(h[24:])
	hd.n = binary.BigEndian.Uint32(h[28:])
	hd.crc = binary.BigEndian.Uint32(h[32:])
	return hd, nil
}

// DecodeFrame decodes exactly one frame: data must hold the frame and
// nothing else.
func DecodeFrame(data []byte) (*Frame, error) {
	if len(data) < HeaderSize {
		return nil, &FormatError{Off: int64(len(data)), Msg: fmt.Sprintf("truncated frame: %d bytes, the header alone is %d", len(data), HeaderSize), Truncated: true}
	}
	hd, err := parseHeader(data[:HeaderSize])
	if err != nil {
		return nil, err
	}
	body := data[HeaderSize:]
	switch {
	case uint64(len(body)) < uint64(hd.n):
		return nil, &FormatError{Off: int64(len(data)), Msg: fmt.Sprintf("truncated frame: the header says %d compressed bytes, %d follow", hd.n, len(body)), Truncated: true}
	case uint64(len(body)) > uint64(hd.n):
		return nil, &FormatError{Off: HeaderSize + int64(hd.n), Msg: fmt.Sprintf("%d bytes after the frame's %d compressed bytes", uint64(len(body))-uint64(hd.n), hd.n)}
	}
	return decodeBody(hd, body, 0)
}

func decodeBody(hd header, body []byte, off int64) (*Frame, error) {
	if c := crc32.Checksum(body, castagnoli); c != hd.crc {
		return nil, &FormatError{Off: off + 32, Msg: fmt.Sprintf("CRC-32C of the payload is %08x, the header says %08x", c, hd.crc)}
	}
	d := decoders.Get().(*zstd.Decoder)
	raw, err := d.DecodeAll(body, nil)
	decoders.Put(d)
	if err != nil {
		return nil, &FormatError{Off: off + HeaderSize, Msg: fmt.Sprintf("zstd: %v", err)}
	}
	p, err := decodePayload(raw)
	if err != nil {
		return nil, &FormatError{Off: off + HeaderSize, Msg: err.Error()}
	}
	return &Frame{Run: hd.run, Seq: hd.seq, Payload: p, Compressed: len(body), Wire: HeaderSize + len(body)}, nil
}

// ReadFrames reads frames one after another from r (a local file) and
// calls fn with each frame and its raw bytes. maxFrame bounds one frame's
// length. Errors carry the offset in r; a file that ends inside a frame
// gives a FormatError with Truncated set, after fn has seen the frames
// before it.
func ReadFrames(r io.Reader, maxFrame int64, fn func(off int64, raw []byte, f *Frame) error) error {
	br := bufio.NewReader(r)
	var off int64
	for {
		h := make([]byte, HeaderSize)
		n, err := io.ReadFull(br, h)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			if errors.Is(err, io.ErrUnexpectedEOF) {
				return &FormatError{Off: off + int64(n), Msg: fmt.Sprintf("truncated frame: the file ends %d bytes into a %d-byte header", n, HeaderSize), Truncated: true}
			}
			return err
		}
		hd, err := parseHeader(h)
		if err != nil {
			fe := err.(*FormatError)
			fe.Off += off
			return fe
		}
		if int64(hd.n)+HeaderSize > maxFrame {
			return &FormatError{Off: off + 28, Msg: fmt.Sprintf("frame of %d bytes is larger than the limit of %d", int64(hd.n)+HeaderSize, maxFrame)}
		}
		raw := make([]byte, HeaderSize+int(hd.n))
		copy(raw, h)
		if n, err := io.ReadFull(br, raw[HeaderSize:]); err != nil {
			if errors.Is(err, io.ErrUnexpectedEOF) || err == io.EOF {
				return &FormatError{Off: off + HeaderSize + int64(n), Msg: fmt.Sprintf("truncated frame: the header says %d compressed bytes, the file holds %d", hd.n, n), Truncated: true}
			}
			return err
		}
		f, err := decodeBody(hd, raw[HeaderSize:], off)
		if err != nil {
			return err
		}
		if err := fn(off, raw, f); err != nil {
			return err
		}
		off += int64(len(raw))
	}
}
