package collector

import (
	"reflect"
	"testing"

	"github.com/rvsim/rvsim/profile"
)

func TestSubtract(t *testing.T) {
	u := func(v uint64) *uint64 { return &v }
	prev := []profile.Profile{{Type: profile.CodeRegion, Source: "handlers", Dropped: 1, Entries: []profile.Entry{
		{Count: 5, PC: "0x10", Instructions: u(50)},
		{Count: 2, PC: "0x20", Instructions: u(8)},
	}}}
	cur := []profile.Profile{{Type: profile.CodeRegion, Source: "handlers", Dropped: 3, Entries: []profile.Entry{
		{Count: 9, PC: "0x10", Instructions: u(90)},
		{Count: 2, PC: "0x20", Instructions: u(8)},  // unchanged: left out
		{Count: 4, PC: "0x30", Instructions: u(12)}, // new
	}}, {Type: profile.CallPair, Source: "handlers", Entries: []profile.Entry{{Count: 1, PC: "0x40", Target: "0x80"}}}}
	want := []profile.Profile{{Type: profile.CodeRegion, Source: "handlers", Dropped: 2, Entries: []profile.Entry{
		{Count: 4, PC: "0x10", Instructions: u(40)},
		{Count: 4, PC: "0x30", Instructions: u(12)},
	}}, {Type: profile.CallPair, Source: "handlers", Entries: []profile.Entry{{Count: 1, PC: "0x40", Target: "0x80"}}}}
	if got := Subtract(cur, prev); !reflect.DeepEqual(got, want) {
		t.Errorf("Subtract = %+v\nwant %+v", got, want)
	}
	if got := Subtract(cur, nil); !reflect.DeepEqual(got[0].Entries, cur[0].Entries) {
		t.Errorf("Subtract(cur, nil) changed cur: %+v", got)
	}
}
