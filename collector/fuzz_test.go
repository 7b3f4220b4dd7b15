package collector

import (
	"bytes"
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
