package multihash

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/profhw"
)

// The streamed NAME.intervals.json (an interval at a time) is what
// json.MarshalIndent writes for the whole file, for each kind, with the
// list empty, short and past a write chunk.
func TestIntervalsStreamed(t *testing.T) {
	sym := func(a uint64) string { return fmt.Sprintf("f<%#x>", a) }
	for _, kind := range []string{"multihash", "spacesaving", "countmin"} {
		for _, n := range []int{0, 9500, 200_000} {
			u := build(t, fmt.Sprintf("[[unit]]\nname = \"u-1\"\nkind = %q\ninterval = 2000\nthreshold_percent = 2\n", kind), profhw.Functional, nil)
			recs := loadStream(n)
			for i := 0; i < len(recs); i += 64 {
				u.Retire(recs[i:min(i+64, len(recs))])
			}
			require.NoError(t, u.Finish(profhw.End{Cycles: 19000}))
			h := u.intervalsHead()
			whole := struct {
				intervalsHead
				List []jsonInterval `json:"list"`
			}{h, []jsonInterval{}}
			for i := range u.track.Lists {
				whole.List = append(whole.List, u.interval(i, sym))
			}
			want, err := json.MarshalIndent(whole, "", "  ")
			require.NoError(t, err)
			var got bytes.Buffer
			require.NoError(t, u.writeIntervals(&got, sym))
			require.Equal(t, string(append(want, '\n')), got.String(), "%s, %d records", kind, n)
			if n == 200_000 {
				require.Greater(t, got.Len(), 64<<10, "past a chunk")
			}
		}
	}
}
