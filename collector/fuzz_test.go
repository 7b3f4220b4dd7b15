package collector

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rvsim/rvsim/profile"
)

// FuzzDecodeFrame: the decoder never panics, and a frame it accepts
// encodes again to a frame that decodes to the same payload.
func FuzzDecodeFrame(f *testing.F) {
	for _, proto := range []Protocol{AtEnd, Interleaved} {
		ivs := sixIntervals()
		code, sum := profile.Field{Name: "site", Format: profile.FormatCode}, profile.Field{Name: "bytes", Format: profile.FormatSum}
		ivs[2].profiles = append(ivs[2].profiles, profile.Profile{Type: "allocs", Fields: []profile.Field{code, sum},
			Entries: []profile.Entry{{Count: 3, Fields: []profile.FieldValue{{Field: code, Value: 0x10}, {Field: sum, Value: 9}}}}})
		frames, err := recordFrames(Run{Program: testProgram, Input: "ref", Protocol: proto}, ivs)
		if err != nil {
			f.Fatal(err)
		}
		for _, fr := range frames {
			f.Add(fr)
		}
	}
	f.Add([]byte("RVPB"))
	f.Add(make([]byte, HeaderSize))
	f.Fuzz(func(t *testing.T, data []byte) {
		fr, err := DecodeFrame(data)
		if err != nil {
			if _, ok := err.(*FormatError); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		again, _, err := EncodeFrame(fr.Run, fr.Seq, fr.Payload)
		if err != nil {
			t.Fatalf("an accepted payload does not encode: %v", err)
		}
		fr2, err := DecodeFrame(again)
		if err != nil {
			t.Fatalf("a re-encoded frame does not decode: %v", err)
		}
		js1, _ := fr.Payload.encodeJSON()
		js2, _ := fr2.Payload.encodeJSON()
		if !bytes.Equal(js1, js2) {
			t.Fatalf("round trip changed the payload:\n%s\n%s", js1, js2)
		}
		if err := ReadFrames(bytes.NewReader(data), 1<<30, func(int64, []byte, *Frame) error { return nil }); err != nil {
			t.Fatalf("ReadFrames refuses what DecodeFrame accepts: %v", err)
		}
	})
}

// FuzzDecodePayload fuzzes the payload's JSON past the frame's CRC: the
// decoder never panics, and what it accepts encodes to JSON that decodes
// to the same payload.
func FuzzDecodePayload(f *testing.F) {
	frames, err := recordFrames(Run{Program: testProgram, Input: "ref", Protocol: AtEnd}, sixIntervals())
	if err != nil {
		f.Fatal(err)
	}
	fr, err := DecodeFrame(frames[0])
	if err != nil {
		f.Fatal(err)
	}
	js, _ := fr.Payload.encodeJSON()
	f.Add(js)
	f.Add([]byte(`{"program":{"name":"a","sha256":"` + string(bytes.Repeat([]byte("ab"), 32)) + `"},"protocol":"interleaved","first":3,"end":5,"trace":[1,2]}`))
	f.Add([]byte(`{"program":{"name":"a","build_id":"ab"},"protocol":"at-end","first":0,"end":1,"samples":[{"interval":0,"phase":1,"profiles":[{"type":"u","fields":[{"name":"k","format":"dec"},{"name":"v","format":"sum"}],"entries":[{"count":1,"k":-3,"v":4}]}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := decodePayload(data)
		if err != nil {
			return
		}
		js1, err := p.encodeJSON()
		if err != nil {
			t.Fatalf("an accepted payload does not encode: %v", err)
		}
		p2, err := decodePayload(js1)
		if err != nil {
			t.Fatalf("a re-encoded payload does not decode: %v\n%s", err, js1)
		}
		js2, _ := p2.encodeJSON()
		if !bytes.Equal(js1, js2) {
			t.Fatalf("round trip changed the payload:\n%s\n%s", js1, js2)
		}
	})
}

// recordFrames runs a scripted run through a Buffer and returns its frames.
func recordFrames(run Run, ivs []interval) ([][]byte, error) {
	sink := &memSink{}
	b, err := NewBuffer(run, sink)
	if err != nil {
		return nil, err
	}
	for i, iv := range ivs {
		if err := b.Interval(uint64(i), iv.phase, iv.profiles); err != nil {
			return nil, err
		}
	}
	_, err = b.Finish()
	return sink.frames, err
}

// FuzzUpload sends payloads (valid frames around fuzzed payload JSON)
// to the service and its store: no upload makes it panic or answer 5xx,
// a refusal is one line, and after an accepted upload the program's
// merged profile is still served and reads back as rvsim profiles.
func FuzzUpload(f *testing.F) {
	frames, err := recordFrames(Run{Program: testProgram, Input: "ref", Protocol: Interleaved}, sixIntervals())
	if err != nil {
		f.Fatal(err)
	}
	for _, raw := range frames {
		fr, err := DecodeFrame(raw)
		if err != nil {
			f.Fatal(err)
		}
		js, _ := fr.Payload.encodeJSON()
		f.Add(uint8(0), fr.Seq, js)
	}
	big := `{"program":{"name":"a","build_id":"ab"},"protocol":"at-end","first":0,"end":3,"samples":[{"interval":0,"phase":1,"profiles":[{"type":"hot-code-region","entries":[{"count":9223372036854775808,"pc":"0x10","instructions":1}]}]}],"trace":[1,1]}`
	f.Add(uint8(1), uint32(0), []byte(big))
	f.Add(uint8(2), uint32(0), []byte(`{"program":{"name":"a","build_id":"ab"},"protocol":"at-end","first":0,"end":1,"samples":[{"interval":0,"phase":1,"profiles":[{"type":"u","fields":[{"name":"k","format":"dec"},{"name":"v","format":"sum"}],"entries":[{"count":1,"k":-3,"v":4}]}]}]}`))
	store, err := OpenStore(filepath.Join(f.TempDir(), "fuzz.db"))
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { store.Close() })
	h := NewHandler(store, ServerConfig{})
	f.Fuzz(func(t *testing.T, run uint8, seq uint32, js []byte) {
		p, err := decodePayload(js)
		if err != nil {
			return // FuzzDecodePayload's ground
		}
		frame, _, err := EncodeFrame(RunID{run}, seq, p)
		if err != nil {
			t.Fatalf("an accepted payload does not encode: %v", err)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest("POST", "/v1/uploads", bytes.NewReader(frame)))
		body := w.Body.String()
		switch w.Code {
		case http.StatusOK, http.StatusCreated:
		case http.StatusBadRequest, http.StatusConflict, http.StatusRequestEntityTooLarge:
			if !strings.HasPrefix(body, "collector: ") || strings.Count(body, "\n") != 1 {
				t.Fatalf("refusal %d is not one line: %q", w.Code, body)
			}
			return
		default:
			t.Fatalf("upload: %d %s", w.Code, body)
		}
		w = httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest("GET", "/v1/programs/"+p.Program.Key()+"/profile", nil))
		if w.Code != http.StatusOK {
			t.Fatalf("after an accepted upload, the merged profile: %d %s", w.Code, w.Body)
		}
		var m struct{ Profiles json.RawMessage }
		if err := json.Unmarshal(w.Body.Bytes(), &m); err != nil {
			t.Fatalf("merged profile: %v", err)
		}
		if string(m.Profiles) != "null" && string(m.Profiles) != "[]" {
			if _, err := profile.Read(m.Profiles); err != nil {
				t.Fatalf("the merged profiles do not read back: %v\n%s", err, m.Profiles)
			}
		}
	})
}
