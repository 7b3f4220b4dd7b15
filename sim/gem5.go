package sim

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// gem5 stat names for the counters a gem5 user looks for first, each with
// the --stats JSON key it comes from. The names and descriptions are
// gem5's (v22 and later): simInsts and hostInstRate from BaseCPU's global
// statistics (src/cpu/base.cc), hostSeconds from src/sim/stat_control.cc,
// system.cpu.numCycles from BaseCPU (src/cpu/base.cc), committedInsts,
// ipc and cpi from the O3 CPU (src/cpu/o3/cpu.cc),
// commit.branchMispredicts from src/cpu/o3/commit.cc,
// system.cpu.branchPred.* from src/cpu/pred/bpred_unit.cc, and the caches'
// overall*::total from src/mem/cache/base.cc (a cache's "overall" counts
// are all its accesses; ::total sums over requestors). The L2 is
// system.l2, as in gem5's se.py/fs.py configurations. Timing-only keys
// are omitted in functional mode, whose JSON "cycles" is the instruction
// count (CPI 1), not a measurement.
var gem5Names = []struct {
	name, key, desc string
	timingOnly      bool
}{
	{"simInsts", "instructions", "Number of instructions simulated (Count)", false},
	{"hostSeconds", "host_seconds", "Real time elapsed on the host (Second)", false},
	{"hostInstRate", "", "Simulator instruction rate (inst/s) ((Count/Second))", false}, // computed below
	{"system.cpu.numCycles", "cycles", "Number of cpu cycles simulated (Cycle)", true},
	{"system.cpu.committedInsts", "instructions", "Number of Instructions Simulated (Count)", false},
	{"system.cpu.ipc", "ipc", "IPC: Instructions Per Cycle ((Count/Cycle))", true},
	{"system.cpu.cpi", "cpi", "CPI: cycles per instruction ((Cycle/Count))", true},
	{"system.cpu.branchPred.lookups", "bpred.all.lookups", "Number of BP lookups (Count)", true},
	{"system.cpu.branchPred.condPredicted", "bpred.conditional.lookups", "Number of conditional branches predicted (Count)", true},
	{"system.cpu.branchPred.condIncorrect", "bpred.conditional.mispredicts", "Number of conditional branches incorrect (Count)", true},
	{"system.cpu.branchPred.indirectMispredicted", "bpred.indirect.mispredicts", "Number of mispredicted indirect branches (Count)", true},
	{"system.cpu.branchPred.RASIncorrect", "bpred.return.ras_wrong", "Number of incorrect RAS predictions (Count)", true},
	{"system.cpu.commit.branchMispredicts", "bpred.all.mispredicts", "The number of times a branch was mispredicted (Count)", true},
}

// gem5Caches maps rvsim's cache levels to gem5's SimObject names.
var gem5Caches = []struct{ level, obj string }{
	{"l1i", "system.cpu.icache"}, {"l1d", "system.cpu.dcache"}, {"l2", "system.l2"},
}

// gem5CacheStats are a cache's statistics under gem5's names, each the
// sum of the JSON keys listed. gem5 counts an access to a line whose fill
// is still in flight as a miss (BaseCache::access fails, then
// handleTimingReqMiss counts an MSHR hit too), where rvsim's "misses"
// leaves these out (its "mshr_hits"): gem5's overallMisses is rvsim's
// misses plus mshr_hits, so that, as in gem5, accesses = hits + misses.
// The miss rate is left out for the same reason (rvsim.caches.*.miss_rate
// is rvsim's own).
var gem5CacheStats = []struct {
	stat string
	keys []string
	desc string
}{
	{"overallAccesses::total", []string{"accesses"}, "number of overall (read+write) accesses (Count)"},
	{"overallHits::total", []string{"hits"}, "number of overall hits (Count)"},
	{"overallMisses::total", []string{"misses", "mshr_hits"}, "number of overall misses (Count)"},
	{"overallMshrHits::total", []string{"mshr_hits"}, "number of overall MSHR hits (Count)"},
	{"writebacks::total", []string{"writebacks"}, "number of writebacks (Count)"},
}

// WriteGem5Stats writes a run's statistics (the object Stats returns, the
// one --stats writes as JSON) as a gem5 stats.txt dump: a begin marker,
// `name value # description` lines, an end marker. The gem5-named lines
// come first; then every numeric value of the JSON object under
// rvsim.<dotted JSON path> (strings such as the machine name and the
// duplicate flat "dise.X" keys are left out). Values are written exactly
// as the JSON has them.
func WriteGem5Stats(w io.Writer, stats map[string]any) error {
	flat, err := flattenStats(stats)
	if err != nil {
		return err
	}
	timing := fmt.Sprint(stats["mode"]) == "timing"
	bw := bufio.NewWriter(w)
	fmt.Fprint(bw, "\n---------- Begin Simulation Statistics ----------\n")
	line := func(name, value, desc string) {
		// gem5's text output: the name in 40 columns, the value in 12.
		fmt.Fprintf(bw, "%-40s %12s  # %s\n", name, value, desc)
	}
	for _, g := range gem5Names {
		if g.timingOnly && !timing {
			continue
		}
		if g.name == "hostInstRate" {
			if v, ok := flat["mips"]; ok {
				line(g.name, formatRate(v), g.desc)
			}
			continue
		}
		if v, ok := flat[g.key]; ok {
			line(g.name, v.String(), g.desc)
		}
	}
	if timing {
		for _, c := range gem5Caches {
			for _, s := range gem5CacheStats {
				if v, ok := sumStats(flat, "caches."+c.level+".", s.keys); ok {
					line(c.obj+"."+s.stat, v, s.desc)
				}
			}
		}
	}
	keys := make([]string, 0, len(flat))
	for k := range flat {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if k == "cycles" && !timing {
			continue // functional mode's "cycles" is the instruction count
		}
		line("rvsim."+k, flat[k].String(), "--stats JSON: "+k)
	}
	fmt.Fprint(bw, "\n---------- End Simulation Statistics   ----------\n")
	return bw.Flush()
}

// sumStats adds integer statistics prefix+key; ok is false if one is
// missing or not an integer.
func sumStats(flat map[string]json.Number, prefix string, keys []string) (string, bool) {
	if len(keys) == 1 {
		v, ok := flat[prefix+keys[0]]
		return v.String(), ok
	}
	var sum uint64
	for _, k := range keys {
		v, ok := flat[prefix+k]
		if !ok {
			return "", false
		}
		n, err := strconv.ParseUint(v.String(), 10, 64)
		if err != nil {
			return "", false
		}
		sum += n
	}
	return strconv.FormatUint(sum, 10), true
}

// formatRate turns MIPS into instructions per second.
func formatRate(mips json.Number) string {
	f, err := mips.Float64()
	if err != nil {
		return mips.String()
	}
	return fmt.Sprintf("%.0f", f*1e6)
}

// flattenStats turns the statistics object into dotted paths to its
// numeric leaves (booleans as 0 and 1), through the JSON encoding, so the
// values are the JSON file's own.
func flattenStats(stats map[string]any) (map[string]json.Number, error) {
	data, err := json.Marshal(stats)
	if err != nil {
		return nil, fmt.Errorf("stats: %v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var root map[string]any
	if err := dec.Decode(&root); err != nil {
		return nil, fmt.Errorf("stats: %v", err)
	}
	flat := map[string]json.Number{}
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		switch v := v.(type) {
		case json.Number:
			flat[prefix] = v
		case bool:
			flat[prefix] = "0"
			if v {
				flat[prefix] = "1"
			}
		case map[string]any:
			for k, e := range v {
				walk(prefix+"."+k, e)
			}
		case []any:
			for i, e := range v {
				walk(fmt.Sprintf("%s.%d", prefix, i), e)
			}
		}
	}
	for k, v := range root {
		if strings.Contains(k, ".") { // the flat "dise.X" copies of "dise"
			continue
		}
		walk(k, v)
	}
	return flat, nil
}
