package collector

import (
	"bytes"
	"crypto/sha256"
	"debug/elf"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/rvsim/rvsim/profile"
)

// Protocol is how a run's profile buffer reaches the collector
// (hps-phase-aware-remote-profiling.md §5.4).
type Protocol string

// The protocols.
const (
	// AtEnd keeps every sample until the program exits, then compresses
	// the whole buffer once and sends it as one frame.
	AtEnd Protocol = "at-end"
	// Interleaved compresses and sends a frame after each sampled
	// interval, so the device stores at most one interval's profiles.
	Interleaved Protocol = "interleaved"
)

// ParseProtocol reads "at-end" or "interleaved".
func ParseProtocol(s string) (Protocol, error) {
	switch p := Protocol(s); p {
	case AtEnd, Interleaved:
		return p, nil
	}
	return "", fmt.Errorf("protocol %q: want at-end or interleaved", s)
}

// Identity names the profiled program. Key is what the collector groups
// by: the ELF build-id note when the program has one, else the SHA-256 of
// the file.
type Identity struct {
	Name    string `json:"name"`               // the file's base name, for people
	BuildID string `json:"build_id,omitempty"` // hex of the NT_GNU_BUILD_ID note
	SHA256  string `json:"sha256,omitempty"`   // hex of the file's SHA-256 (no build-id)
}

// Key is the program's identity as the collector stores it:
// "build-id:HEX" or "sha256:HEX".
func (id Identity) Key() string {
	if id.BuildID != "" {
		return "build-id:" + id.BuildID
	}
	return "sha256:" + id.SHA256
}

// IdentifyFile returns the identity of the program in path: its build-id
// if the ELF file carries one, else the SHA-256 of the file's bytes.
func IdentifyFile(path string) (Identity, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Identity{}, err
	}
	id := Identity{Name: filepath.Base(path)}
	if b := buildID(data); b != nil {
		id.BuildID = hex.EncodeToString(b)
		return id, nil
	}
	sum := sha256.Sum256(data)
	id.SHA256 = hex.EncodeToString(sum[:])
	return id, nil
}

// buildID returns the descriptor of the ELF file's NT_GNU_BUILD_ID note
// (nil if data is not ELF or has none).
func buildID(data []byte) []byte {
	f, err := elf.NewFile(bytes.NewReader(data))
	if err != nil {
		return nil
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type != elf.PT_NOTE {
			continue
		}
		notes, err := io.ReadAll(p.Open())
		if err != nil {
			continue
		}
		if d := findBuildID(notes, f.ByteOrder); d != nil {
			return d
		}
	}
	if s := f.Section(".note.gnu.build-id"); s != nil {
		if notes, err := s.Data(); err == nil {
			return findBuildID(notes, f.ByteOrder)
		}
	}
	return nil
}

// findBuildID walks ELF notes (namesz, descsz, type, name, desc; 4-byte
// aligned) for the GNU build-id.
func findBuildID(b []byte, bo binary.ByteOrder) []byte {
	const ntGNUBuildID = 3
	for len(b) >= 12 {
		nsz, dsz, typ := bo.Uint32(b), bo.Uint32(b[4:]), bo.Uint32(b[8:])
		b = b[12:]
		na, da := (uint64(nsz)+3)&^3, (uint64(dsz)+3)&^3
		if na+da > uint64(len(b)) {
			return nil
		}
		name, desc := b[:nsz], b[na:na+uint64(dsz)]
		if typ == ntGNUBuildID && string(name) == "GNU\x00" && len(desc) > 0 {
			return desc
		}
		b = b[na+da:]
	}
	return nil
}

// Payload is what one frame carries: part or all of one run's profile
// buffer (hps-phase-aware-remote-profiling.md §4, Fig. 7:D). It covers
// the intervals [First, End) of the run: each is either a sample (its
// profiles, tagged with its phase ID and interval) or an entry of Trace,
// the phase IDs of the intervals that were not sampled, in order.
type Payload struct {
	Program  Identity `json:"program"`
	Input    string   `json:"input"`
	Protocol Protocol `json:"protocol"`
	First    uint64   `json:"first"`
	End      uint64   `json:"end"`
	Samples  []Sample `json:"samples"`
	Trace    []uint32 `json:"trace"`
}

// Sample is the profiles of one sampled interval.
type Sample struct {
	Interval uint64            `json:"interval"`
	Phase    uint32            `json:"phase"`
	Profiles []profile.Profile `json:"profiles"`
}

// Limits on what a payload may hold, so that a hostile or corrupt upload
// is refused before it costs memory or time.
const (
	maxName      = 255
	maxInput     = 4096
	maxIntervals = 1 << 28 // intervals one payload may cover
	maxInterval  = 1 << 62 // interval numbers (SQLite integers are signed 64-bit)
)

// Validate checks that the payload is one the collector can store and
// merge; the error says what is wrong, in one line.
func (p *Payload) Validate() error {
	id := p.Program
	switch {
	case id.Name == "" || len(id.Name) > maxName || !utf8.ValidString(id.Name) || strings.ContainsAny(id.Name, "\x00\n\r"):
		return fmt.Errorf("program.name: want 1 to %d bytes of UTF-8 text on one line", maxName)
	case id.BuildID != "" && id.SHA256 != "":
		return fmt.Errorf("program: give build_id or sha256, not both")
	case id.BuildID != "":
		if b, err := hex.DecodeString(id.BuildID); err != nil || len(b) == 0 || len(b) > 64 || id.BuildID != strings.ToLower(id.BuildID) {
			return fmt.Errorf("program.build_id %.80q: want 1 to 64 bytes in lower-case hex", id.BuildID)
		}
	case id.SHA256 != "":
		if b, err := hex.DecodeString(id.SHA256); err != nil || len(b) != sha256.Size || id.SHA256 != strings.ToLower(id.SHA256) {
			return fmt.Errorf("program.sha256 %.80q: want 64 lower-case hex digits", id.SHA256)
		}
	default:
		return fmt.Errorf("program: no build_id and no sha256")
	}
	if len(p.Input) > maxInput || !utf8.ValidString(p.Input) {
		return fmt.Errorf("input: want at most %d bytes of UTF-8", maxInput)
	}
	if _, err := ParseProtocol(string(p.Protocol)); err != nil {
		return err
	}
	if p.End < p.First || p.End-p.First > maxIntervals || p.End > maxInterval {
		return fmt.Errorf("intervals [%d, %d): want first <= end < 2^62 and at most %d intervals", p.First, p.End, maxIntervals)
	}
	if n := uint64(len(p.Samples)) + uint64(len(p.Trace)); n != p.End-p.First {
		return fmt.Errorf("intervals [%d, %d) are %d, but the payload holds %d samples and %d trace entries", p.First, p.End, p.End-p.First, len(p.Samples), len(p.Trace))
	}
	next := p.First
	for i, s := range p.Samples {
		if s.Interval < next || s.Interval >= p.End {
			return fmt.Errorf("samples[%d]: interval %d: want increasing intervals in [%d, %d)", i, s.Interval, next, p.End)
		}
		next = s.Interval + 1
		for j, pr := range s.Profiles {
			if pr.Type == "" {
				return fmt.Errorf("samples[%d].profiles[%d]: no type", i, j)
			}
		}
	}
	return nil
}

// Phases returns the phase ID of every interval the payload covers, from
// First on: the samples' phases in their places, the trace in between.
func (p *Payload) Phases() []uint32 {
	out := make([]uint32, 0, len(p.Samples)+len(p.Trace))
	s, t := 0, 0
	for n := p.First; n < p.End; n++ {
		if s < len(p.Samples) && p.Samples[s].Interval == n {
			out = append(out, p.Samples[s].Phase)
			s++
		} else if t < len(p.Trace) {
			out = append(out, p.Trace[t])
			t++
		}
	}
	return out
}

// encodeJSON is the payload's uncompressed form. encoding/json writes
// struct fields in order and map keys sorted, so the bytes depend only on
// the payload.
func (p *Payload) encodeJSON() ([]byte, error) {
	return json.Marshal(p)
}

// decodePayload parses and validates a payload's JSON, refusing unknown
// fields and trailing data.
func decodePayload(data []byte) (*Payload, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.DisallowUnknownFields()
	var p Payload
	if err := d.Decode(&p); err != nil {
		return nil, fmt.Errorf("payload JSON: %v", err)
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, fmt.Errorf("payload JSON: data after the payload")
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return &p, nil
}
