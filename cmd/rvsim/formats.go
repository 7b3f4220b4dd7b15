package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/rvsim/rvsim/profhw"
	"github.com/rvsim/rvsim/profhw/tuple"
	"github.com/rvsim/rvsim/profile"
	"github.com/rvsim/rvsim/sim"
)

// formatFlags choose the formats of run's statistics and profiles.
type formatFlags struct {
	stats, profile string
}

func (f *formatFlags) register(c *cmdFlags) {
	c.String(&f.stats, "stats-format", "FORMAT", "json", "--stats's format: json (default) or gem5 (a gem5 stats.txt\ndump instead of the JSON)")
	c.String(&f.profile, "profile-format", "FORMAT", "json", "profiles' format: json (default) or pprof (--profile-out a\npprof file instead of the JSON; --profhw-out also\nNAME.profile.pb.gz, NAME.exact.pb.gz beside the JSON)")
}

// check validates the formats; pprof needs a profile to write.
func (f *formatFlags) check(r *runFlags) error {
	if f.stats != "json" && f.stats != "gem5" {
		return &usageError{fmt.Sprintf("--stats-format %q: want json or gem5", f.stats)}
	}
	switch f.profile {
	case "json":
	case "pprof":
		if r.dise.profileTo == "" && r.profhw.out == "" {
			return &usageError{"--profile-format pprof needs --profile-out FILE or --profhw-out DIR"}
		}
	default:
		return &usageError{fmt.Sprintf("--profile-format %q: want json or pprof", f.profile)}
	}
	return nil
}

// writeStats writes --stats's file.
func (f *formatFlags) writeStats(w io.Writer, stats map[string]any) {
	// A write error is the file's Close's.
	if f.stats == "gem5" {
		sim.WriteGem5Stats(w, stats)
		return
	}
	data, _ := json.MarshalIndent(stats, "", "  ")
	w.Write(append(data, '\n'))
}

// profiles encodes the DISE handlers' profiles for --profile-out.
func (f *formatFlags) profiles(mc *sim.Machine, ps []profile.Profile) ([]byte, error) {
	var b bytes.Buffer
	if f.profile != "pprof" {
		err := profile.Write(&b, ps)
		return b.Bytes(), err
	}
	pp, err := mc.Pprof()
	if err != nil {
		return nil, err
	}
	if err := pp.AddProfiles(ps); err != nil {
		return nil, err
	}
	err = pp.Write(&b)
	return b.Bytes(), err
}

// profhwPprof returns, with --profile-format pprof, a pprof file beside
// each unit's tuple or path profile: NAME.profile.pb.gz for
// NAME.profile.json, NAME.exact.pb.gz for NAME.exact.json. A tuple
// profile's is written a sample at a time when its file is
// (profile.Pprof.WriteTuples); a path profile's is built here.
func (f *formatFlags) profhwPprof(mc *sim.Machine, files []profhw.File) ([]profhw.File, error) {
	if f.profile != "pprof" {
		return nil, nil
	}
	var out []profhw.File
	for _, file := range files {
		base, ok := strings.CutSuffix(file.Name, ".json")
		if !ok || !(strings.HasSuffix(base, ".profile") || strings.HasSuffix(base, ".exact")) {
			continue
		}
		pp, err := mc.Pprof()
		if err != nil {
			return nil, err
		}
		if tp, isTuples := file.Source.(*tuple.Profile); isTuples {
			// Streamed as the file is written (millions of tuples).
			write := func(w io.Writer) error { return pp.WriteTuples(w, tp) }
			out = append(out, profhw.File{Name: base + ".pb.gz", Output: profhw.Output{Write: write}})
			continue
		}
		ok, err = pp.AddProfHW(file.Bytes())
		if err != nil {
			return nil, fmt.Errorf("%s: %v", file.Name, err)
		}
		if !ok {
			continue
		}
		p, err := pp.Profile()
		if err != nil {
			return nil, fmt.Errorf("%s: %v", file.Name, err)
		}
		out = append(out, profhw.File{Name: base + ".pb.gz", Output: profhw.Output{Write: p.Write}})
	}
	return out, nil
}
