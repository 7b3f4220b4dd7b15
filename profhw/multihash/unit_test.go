package multihash

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"runtime"
	"testing"

	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/isa"
	"github.com/rvsim/rvsim/pipeline"
	"github.com/rvsim/rvsim/profhw"
	"github.com/rvsim/rvsim/profhw/tuple"
	"github.com/stretchr/testify/require"
)

func build(t *testing.T, text string, mode profhw.Mode, interrupt func(profhw.Unit)) *Unit {
	t.Helper()
	cfgs, err := profhw.Parse("test.toml", []byte(text))
	require.NoError(t, err)
	units, err := profhw.Build(cfgs, profhw.Env{Mode: mode, Interrupt: interrupt})
	require.NoError(t, err)
	require.Len(t, units, 1)
	return units[0].(*Unit)
}

// loadStream is a retired stream: loads (hot and cold values), with an
// ALU instruction between them that no selector picks.
func loadStream(n int) []cpu.DynInst {
	var out []cpu.DynInst
	for i, tp := range randomStream(21, n, 12, 900) {
		out = append(out, cpu.DynInst{Seq: uint64(2 * i), PC: tp.PC, Result: tp.W, Inst: isa.Inst{Class: isa.Load}})
		out = append(out, cpu.DynInst{Seq: uint64(2*i + 1), PC: 0x9000, Result: uint64(i), Inst: isa.Inst{Class: isa.IntALU}})
	}
	return out
}

// The unit's exact profile against an independent count of the DynInst
// stream, its per-interval scores against an independent perfect count,
// and its outputs.
func TestUnitAgainstIndependentCount(t *testing.T) {
	for _, kind := range []string{"multihash", "spacesaving", "countmin"} {
		t.Run(kind, func(t *testing.T) {
			u := build(t, fmt.Sprintf("[[unit]]\nname = \"u\"\nkind = %q\ninterval = 2000\nthreshold_percent = 2\n", kind), profhw.Functional, nil)
			recs := loadStream(9500)
			for i := 0; i < len(recs); i += 64 {
				u.Retire(recs[i:min(i+64, len(recs))])
			}
			require.NoError(t, u.Finish(profhw.End{Cycles: 19000}))
			run := tuple.Counts{}
			var intervals []map[tuple.Tuple]uint64
			cur := map[tuple.Tuple]uint64{}
			for _, r := range recs {
				if r.Inst.Class != isa.Load {
					continue
				}
				tp := tuple.Tuple{PC: r.PC, W: r.Result}
				run[tp]++
				cur[tp]++
				if len(intervals) < 4 && sumOf(cur) == 2000 {
					intervals = append(intervals, cur)
					cur = map[tuple.Tuple]uint64{}
				}
			}
			require.Equal(t, run, u.Bank().Exact())
			s := u.Summary()
			require.EqualValues(t, 9500, s.Events)
			require.Equal(t, 4, s.Extra["intervals"])
			require.EqualValues(t, 1500, s.Extra["partial_interval_events"])
			tr := u.Track()
			for i, iv := range intervals {
				var want []Cand
				for tp, n := range iv {
					if n >= 40 {
						want = append(want, Cand{tp, n})
					}
				}
				require.ElementsMatch(t, want, tr.Lists[i].Perfect, "interval %d's perfect candidates", i)
				require.Equal(t, len(iv), tr.Intervals[i].Distinct)
			}
			net := tr.Net()
			require.InDelta(t, net.Error, s.ErrorPercent, 1e-12)
			require.InDelta(t, net.Error, net.FalsePos+net.FalseNeg+net.NeutralPos+net.NeutralNeg, 1e-9)

			outs, err := u.Outputs(func(a uint64) string { return fmt.Sprintf("%#x", a) })
			require.NoError(t, err)
			byName := map[string][]byte{}
			for _, o := range outs {
				byName[o.Suffix] = o.Bytes()
			}
			rows, err := csv.NewReader(bytes.NewReader(byName["errors.csv"])).ReadAll()
			require.NoError(t, err)
			require.Len(t, rows, 5, "header and 4 intervals")
			require.Equal(t, "error_percent", rows[0][1])
			require.Equal(t, []string{"new_candidates", "promotions", "failed_promotions", "accumulator_used"}, rows[0][14:])
			// New candidates, independently: perfect candidates that were not the interval before's.
			prev, newSum := map[tuple.Tuple]bool{}, 0
			for i, iv := range intervals {
				cur, fresh := map[tuple.Tuple]bool{}, 0
				for tp, n := range iv {
					if n >= 40 {
						cur[tp] = true
						if !prev[tp] {
							fresh++
						}
					}
				}
				require.Equal(t, fmt.Sprint(fresh), rows[i+1][14], "interval %d", i)
				newSum += fresh
				prev = cur
			}
			require.InDelta(t, float64(newSum)/4, s.Extra["new_candidates_per_interval"], 1e-12)
			if kind == "multihash" {
				require.Len(t, tr.Stats, 4)
				var prom uint64
				for i, st := range tr.Stats {
					require.Equal(t, []string{fmt.Sprint(st.Promotions), fmt.Sprint(st.FailedPromotions), fmt.Sprint(st.AccUsed)}, rows[i+1][15:], "interval %d", i)
					require.LessOrEqual(t, st.AccCandidates, st.AccUsed)
					require.Equal(t, 50, st.AccEntries, "100/t at 2%")
					prom += st.Promotions
				}
				require.Positive(t, tr.Stats[0].Promotions, "the first interval's candidates are all promoted")
				require.LessOrEqual(t, prom, u.prof.Promotions, "the partial last interval promotes too")
			} else {
				require.Empty(t, tr.Stats)
				require.Equal(t, []string{"", "", ""}, rows[1][15:])
			}
			var iv struct {
				Intervals int `json:"intervals"`
				List      []struct {
					Candidates []struct {
						Count uint64 `json:"count"`
					} `json:"candidates"`
				} `json:"list"`
			}
			require.NoError(t, json.Unmarshal(byName["intervals.json"], &iv))
			require.Equal(t, 4, iv.Intervals)
			require.Len(t, iv.List[0].Candidates, tr.Intervals[0].Hardware)
			var exact tuple.File
			require.NoError(t, json.Unmarshal(byName["exact.json"], &exact))
			require.EqualValues(t, 9500, exact.Total)
			sum, err := json.Marshal(s)
			require.NoError(t, err)
			for _, k := range []string{"false_positive_percent", "false_negative_percent", "neutral_positive_percent", "neutral_negative_percent", "intervals"} {
				require.Contains(t, string(sum), `"`+k+`"`)
			}
		})
	}
}

func sumOf(m map[tuple.Tuple]uint64) uint64 {
	var n uint64
	for _, v := range m {
		n += v
	}
	return n
}

// Bad configurations: one line naming the file, line and key.
func TestConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		desc, body, want string
	}{
		{"uneven split", "kind = \"multihash\"\ntables = 3", "test.toml:4: unit u: tables: hash entries 2048 do not split evenly over 3 tables"},
		{"zero threshold", "kind = \"multihash\"\nthreshold_percent = 0", "threshold_percent: 0 is out of range"},
		{"threshold over a narrow counter", "kind = \"multihash\"\ncounter_bits = 4", "the threshold 100 does not fit a 4-bit hash counter"},
		{"unknown key", "kind = \"multihash\"\ntabels = 4", "tabels"},
		{"queue too small for the selectors", "kind = \"multihash\"\n[unit.queue]\nsize = 1\n[unit.select]\ntuples = [\"value\", \"edge\"]", "queue.size: 1 is smaller than the 2 tuples"},
		{"count-min rows", "kind = \"countmin\"\nrows = 3", "2048 counters do not split evenly over 3 rows"},
		{"space-saving both sizes", "kind = \"spacesaving\"\nentries = 10\nstorage_bits = 5000", "give entries or storage_bits, not both"},
		{"throughput", "kind = \"spacesaving\"\n[unit.queue]\nthroughput = 0", "queue.throughput: "},
		// Derived sizes are bounded: a 100/t accumulator of 100M entries is refused, naming the key the user wrote.
		{"tiny threshold: multihash", "kind = \"multihash\"\nthreshold_percent = 1e-6", "test.toml:4: unit u: threshold_percent: the accumulator's 100/t bound (§5.2) at threshold_percent = 1e-06 gives 100000000 tagged entries; at most 1048576"},
		{"tiny threshold: space-saving", "kind = \"spacesaving\"\nthreshold_percent = 1e-6", "test.toml:4: unit u: threshold_percent: the 100/t bound at threshold_percent = 1e-06 gives 100000000"},
		{"tiny threshold: count-min", "kind = \"countmin\"\nthreshold_percent = 1e-6", "test.toml:4: unit u: threshold_percent: the top-k table's 100/t bound"},
		{"accumulator too big", "kind = \"multihash\"\n[unit.accumulator]\nentries = 2000000", "accumulator.entries: 2000000 is out of range [0, 1048576]"},
		{"space-saving storage too big", "kind = \"spacesaving\"\nstorage_bits = 1000000000000", "storage_bits: storage_bits = 1000000000000 gives"},
		{"hash counters too many", "kind = \"multihash\"\nentries = 33554432", "entries: 33554432 is out of range [1, 16777216]"},
		// A counter that cannot hold the threshold.
		{"accumulator counter below the threshold", "kind = \"multihash\"\n[unit.accumulator]\ncounter_bits = 4", "test.toml:5: unit u: accumulator.counter_bits: a 4-bit counter saturates at 15, below the threshold of 100 events; want at least 7 bits"},
		{"space-saving counter below the threshold", "kind = \"spacesaving\"\ncounter_bits = 5", "counter_bits: a 5-bit counter saturates at 31, below the threshold of 100"},
		{"count-min top counter below the threshold", "kind = \"countmin\"\n[unit.top]\ncounter_bits = 6", "top.counter_bits: a 6-bit counter saturates at 63"},
		{"count-min counter below the threshold", "kind = \"countmin\"\ncounter_bits = 3", "unit u: counter_bits: a 3-bit counter saturates at 7"},
		{"window base not aligned", "kind = \"multihash\"\n[unit.window]\nbase = 3", "test.toml:5: unit u: window.base: 0x3 is not 8-byte aligned"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			cfgs, err := profhw.Parse("test.toml", []byte("[[unit]]\nname = \"u\"\n"+tc.body+"\n"))
			require.NoError(t, err)
			_, err = profhw.Build(cfgs, profhw.Env{})
			require.Error(t, err)
			require.Contains(t, err.Error(), tc.want)
			require.NotContains(t, err.Error(), "\n")
			// `rvsim profhw check` builds for timing mode: the same refusal.
			cfgs, err2 := profhw.Parse("test.toml", []byte("[[unit]]\nname = \"u\"\n"+tc.body+"\n"))
			require.NoError(t, err2)
			_, err2 = profhw.Build(cfgs, profhw.Env{Mode: profhw.Timing})
			require.EqualError(t, err2, err.Error())
		})
	}
}

// The input queue (timing mode), hand-computed: 2 entries drained at 0.5
// tuple per cycle. Three loads commit at cycle 10: the third finds the
// queue full (2 tuples) and waits 2 cycles (one tuple drains); a load at
// cycle 13 finds 1.5 tuples and waits 1 cycle. An ALU instruction costs
// nothing.
func TestQueueStalls(t *testing.T) {
	u := build(t, "[[unit]]\nname = \"u\"\nkind = \"multihash\"\n[unit.queue]\nsize = 2\nthroughput = 0.5\n", profhw.Timing, nil)
	require.True(t, u.Watch().Committed)
	load := &cpu.DynInst{PC: 0x100, Inst: isa.Inst{Class: isa.Load}}
	alu := &cpu.DynInst{PC: 0x104, Inst: isa.Inst{Class: isa.IntALU}}
	for i, tc := range []struct {
		d     *cpu.DynInst
		cycle uint64
		stall uint64
	}{{load, 10, 0}, {load, 10, 0}, {alu, 10, 0}, {load, 10, 2}, {load, 13, 1}, {load, 100, 0}} {
		require.Equal(t, tc.stall, u.Commit(&pipeline.Commit{D: tc.d, Cycle: tc.cycle}), "commit %d", i)
	}
	require.EqualValues(t, 3, u.Summary().StallReq)
	fu := build(t, "[[unit]]\nname = \"u\"\nkind = \"multihash\"\n", profhw.Functional, nil)
	require.False(t, fu.Watch().Committed, "functional mode has no commit stream")
}

// fakeHost is guest memory for the window test.
type fakeHost struct {
	mem map[uint64][]byte
}

func (h *fakeHost) CallHandler(string, ...uint64) error { return nil }
func (h *fakeHost) Lookup(string) (uint64, bool)        { return 0, false }
func (h *fakeHost) ReadMem(a uint64, b []byte) error    { copy(b, h.mem[a]); return nil }
func (h *fakeHost) WriteMem(a uint64, b []byte) error {
	h.mem[a] = append([]byte(nil), b...)
	return nil
}

// The accumulator window: at each interval's end the unit asks for the
// core to stop and copies the latched table to window.base; the decoded
// image is the accumulator as it stood at the interval's end.
func TestWindow(t *testing.T) {
	var asked int
	var u *Unit
	u = build(t, "[[unit]]\nname = \"u\"\nkind = \"multihash\"\ninterval = 1000\nthreshold_percent = 5\n[unit.window]\nbase = 0x8000\n", profhw.Functional,
		func(x profhw.Unit) { require.Same(t, u, x); asked++ })
	host := &fakeHost{mem: map[uint64][]byte{}}
	recs := loadStream(3000)
	for i := 0; i < len(recs); i += 100 {
		u.Retire(recs[i : i+100])
		if asked > 0 {
			require.NoError(t, u.TakeInterrupt(host))
			asked = 0
			w, err := DecodeWindow(host.mem[0x8000])
			require.NoError(t, err)
			n := len(u.Track().Intervals)
			require.EqualValues(t, n, w.Seq)
			require.EqualValues(t, 1000, w.Interval)
			require.EqualValues(t, 50, w.Threshold)
			acc := u.Track().Lists[n-1].Accumulator
			require.Len(t, w.Entries, len(acc))
			cands := 0
			for j, e := range acc {
				if e.State == accEmpty {
					require.Equal(t, WindowEntry{}, w.Entries[j])
					continue
				}
				require.Equal(t, WindowEntry{T: e.T, Count: e.Count, State: int(stateCode[e.State])}, w.Entries[j])
				if e.State == accLocked {
					cands++
				}
			}
			require.Equal(t, cands, w.Candidates)
			require.Equal(t, u.Track().Intervals[n-1].Hardware, cands)
		}
	}
	require.NoError(t, u.Finish(profhw.End{}))
	require.EqualValues(t, 3, u.Summary().Extra["window_writes"])
	_, err := DecodeWindow(make([]byte, 64))
	require.ErrorContains(t, err, "bad magic")
}

// error.exact = false runs the hardware alone: the same candidates,
// accumulator lists, profile and counters as with the reference, and no
// error, exact profile or per-interval scores.
func TestUnitWithoutReference(t *testing.T) {
	for _, kind := range []string{"multihash", "spacesaving", "countmin"} {
		t.Run(kind, func(t *testing.T) {
			text := fmt.Sprintf("[[unit]]\nname = \"u\"\nkind = %q\ninterval = 2000\nthreshold_percent = 2\n", kind)
			recs := loadStream(9500)
			run := func(text string) (*Unit, map[string][]byte) {
				u := build(t, text, profhw.Functional, nil)
				for i := 0; i < len(recs); i += 64 {
					u.Retire(recs[i:min(i+64, len(recs))])
				}
				require.NoError(t, u.Finish(profhw.End{Cycles: 19000}))
				outs, err := u.Outputs(func(a uint64) string { return fmt.Sprintf("%#x", a) })
				require.NoError(t, err)
				byName := map[string][]byte{}
				for _, o := range outs {
					byName[o.Suffix] = o.Bytes()
				}
				return u, byName
			}
			ref, refOut := run(text)
			hw, hwOut := run(text + "[unit.error]\nexact = false\n")
			require.Equal(t, ref.Track().Profile, hw.Track().Profile)
			require.Len(t, hw.Track().Lists, len(ref.Track().Lists))
			for i, l := range hw.Track().Lists {
				require.Equal(t, ref.Track().Lists[i].Hardware, l.Hardware, "interval %d", i)
				require.Equal(t, ref.Track().Lists[i].Accumulator, l.Accumulator, "interval %d", i)
				require.Empty(t, l.Perfect)
			}
			require.Empty(t, hw.Track().Intervals, "no scores")
			rs, hs := ref.Summary(), hw.Summary()
			require.Equal(t, rs.Events, hs.Events)
			require.Equal(t, rs.StorageBits, hs.StorageBits)
			require.Equal(t, 4, hs.Extra["intervals"])
			for _, k := range []string{"promotions", "failed_promotions", "partial_interval_events"} {
				require.Equal(t, rs.Extra[k], hs.Extra[k], k)
			}
			require.False(t, hs.Answered("error_percent"), "no reference: the error is null, not 0")
			require.Contains(t, hs.ErrorMetric, "not measured")
			require.NotContains(t, hs.Extra, "false_positive_percent")
			require.Contains(t, refOut, "exact.json")
			require.NotContains(t, hwOut, "exact.json")
			require.NotContains(t, hwOut, "errors.csv")
			require.Equal(t, refOut["profile.json"], hwOut["profile.json"])
			var iv struct {
				Intervals int `json:"intervals"`
			}
			require.NoError(t, json.Unmarshal(hwOut["intervals.json"], &iv))
			require.Equal(t, 4, iv.Intervals)
		})
	}
}

// A run that ends before its first interval has no error to report: the
// summary says null and why, never a 0 that reads as a perfect profile.
func TestUnitShorterThanOneInterval(t *testing.T) {
	for _, kind := range []string{"multihash", "spacesaving", "countmin"} {
		t.Run(kind, func(t *testing.T) {
			u := build(t, fmt.Sprintf("[[unit]]\nname = \"u\"\nkind = %q\ninterval = 20000\nthreshold_percent = 2\n", kind), profhw.Functional, nil)
			recs := loadStream(500)
			u.Retire(recs)
			require.NoError(t, u.Finish(profhw.End{Cycles: 1000}))
			s := u.Summary()
			require.Equal(t, 0, s.Extra["intervals"])
			require.False(t, s.Answered("error_percent"))
			data, err := json.Marshal(s)
			require.NoError(t, err)
			var m map[string]any
			require.NoError(t, json.Unmarshal(data, &m))
			require.Contains(t, m, "error_percent")
			require.Nil(t, m["error_percent"])
			require.Contains(t, m["no_answer"].(map[string]any)["error_percent"], "interval")
		})
	}
}

// The value tap's records (RetireValues: on the bank's goroutine they go
// over as they are and become tuples there) give the same files as the
// full records of the same loads (Retire), inline and offloaded, in
// batches of any size and with both kinds of call in one run.
func TestValuesEqualRecords(t *testing.T) {
	recs := loadStream(40000)
	var vals []cpu.TapValue
	for _, r := range recs {
		if r.Inst.Class == isa.Load {
			vals = append(vals, cpu.TapValue{PC: r.PC, Value: r.Result})
		}
	}
	for _, kind := range []string{"multihash", "spacesaving"} {
		t.Run(kind, func(t *testing.T) { valuesEqualRecords(t, kind, recs, vals) })
	}
}

func valuesEqualRecords(t *testing.T, kind string, recs []cpu.DynInst, vals []cpu.TapValue) {
	outputs := func(procs int, feed func(u *Unit)) map[string]string {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		u := build(t, "[[unit]]\nname = \"u\"\nkind = \""+kind+"\"\ninterval = 2000\n", profhw.Functional, nil)
		require.True(t, u.TakesValues())
		feed(u)
		require.Equal(t, procs > 1, u.hwOffloaded())
		return finishFiles(t, u, 15)
	}
	want := outputs(1, func(u *Unit) {
		for i := 0; i < len(recs); i += 100 {
			u.Retire(recs[i:min(i+100, len(recs))])
		}
	})
	for _, procs := range []int{1, 2} {
		require.Equal(t, want, outputs(procs, func(u *Unit) {
			for i, n := 0, 0; i < len(vals); i += n {
				n = min(1+(i*7)%5000, len(vals)-i)
				u.RetireValues(vals[i : i+n])
			}
		}), "values, GOMAXPROCS %d", procs)
		require.Equal(t, want, outputs(procs, func(u *Unit) {
			// Chunks of 100 records, every third as records, the others
			// as their loads' values.
			for c, i := 0, 0; i < len(recs); c, i = c+1, i+100 {
				chunk := recs[i:min(i+100, len(recs))]
				if c%3 == 0 {
					u.Retire(chunk)
					continue
				}
				var vs []cpu.TapValue
				for _, r := range chunk {
					if r.Inst.Class == isa.Load {
						vs = append(vs, cpu.TapValue{PC: r.PC, Value: r.Result})
					}
				}
				u.RetireValues(vs)
			}
		}), "records and values, GOMAXPROCS %d", procs)
	}
}

// finishFiles finishes u and returns its output files by suffix; the run
// must have had more than minIntervals intervals.
func finishFiles(t *testing.T, u *Unit, minIntervals int) map[string]string {
	t.Helper()
	require.NoError(t, u.Finish(profhw.End{}))
	outs, err := u.Outputs(func(a uint64) string { return fmt.Sprintf("%#x", a) })
	require.NoError(t, err)
	m := map[string]string{}
	for _, o := range outs {
		m[o.Suffix] = string(o.Bytes())
	}
	require.Greater(t, len(u.Track().Intervals), minIntervals)
	return m
}
