package dise

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseTrigger(t *testing.T) {
	for _, tc := range []struct {
		desc, in string
		want     Trigger
		err      string
	}{
		{"periodic", "periodic:100000:1000", Trigger{Period: 100000, Length: 1000}, ""},
		{"random default seed", "random:100:500", Trigger{Random: true, Period: 100, Length: 500, Seed: 1}, ""},
		{"random seed", "random:7:10:42", Trigger{Random: true, Period: 7, Length: 10, Seed: 42}, ""},
		{"underscores", "periodic:1_000:10", Trigger{Period: 1000, Length: 10}, ""},
		{"length >= period", "periodic:10:10", Trigger{}, "LENGTH must be less than PERIOD"},
		{"zero length", "random:10:0", Trigger{}, "LENGTH must be at least 1"},
		{"zero P", "random:0:10", Trigger{}, "P must be at least 1"},
		{"kind", "timer:1:2", Trigger{}, `unknown kind "timer"`},
		{"fields", "periodic:10", Trigger{}, "periodic takes PERIOD and LENGTH"},
		{"number", "periodic:ten:1", Trigger{}, `"ten" is not a non-negative integer`},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			got, err := ParseTrigger(tc.in)
			if tc.err != "" {
				require.ErrorContains(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
			back, err := ParseTrigger(got.String())
			require.NoError(t, err)
			assert.Equal(t, got, back)
		})
	}
}

// Periodic: on at PERIOD, off LENGTH later, on again at 2·PERIOD, …
func TestPeriodicSchedule(t *testing.T) {
	s := Trigger{Period: 100, Length: 10}.Start()
	type ev struct {
		at     uint64
		change int
	}
	var got []ev
	for i := 0; i < 6; i++ {
		at := s.Next()
		got = append(got, ev{at, s.Fire()})
	}
	assert.Equal(t, []ev{{100, 1}, {110, -1}, {200, 1}, {210, -1}, {300, 1}, {310, -1}}, got)
	assert.InDelta(t, 0.1, Trigger{Period: 100, Length: 10}.Fraction(), 1e-12)
}

// Random: each LENGTH interval is sampled with probability 1/P, the same
// way for the same seed.
func TestRandomSchedule(t *testing.T) {
	tr := Trigger{Random: true, Period: 10, Length: 50, Seed: 3}
	run := func() (on int, changes []int) {
		s := tr.Start()
		for i := 0; i < 20000; i++ {
			require.Equal(t, uint64(50*(i+1)), s.Next())
			ch := s.Fire()
			if s.On() {
				on++
			}
			changes = append(changes, ch)
		}
		return
	}
	on, ch1 := run()
	_, ch2 := run()
	assert.Equal(t, ch1, ch2, "seeded: reproducible")
	assert.InDelta(t, 0.1, float64(on)/20000, 0.01)
	for _, c := range ch1 {
		assert.Contains(t, []int{-1, 0, 1}, c)
	}
	other := tr
	other.Seed = 4
	s := other.Start()
	var ch3 []int
	for i := 0; i < 20000; i++ {
		ch3 = append(ch3, s.Fire())
	}
	assert.NotEqual(t, ch1, ch3, "another seed, other samples")
}
