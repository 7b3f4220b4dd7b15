package multihash_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/rvsim/rvsim/config"
	"github.com/rvsim/rvsim/elf"
	"github.com/rvsim/rvsim/internal/guestcc"
	"github.com/rvsim/rvsim/profhw"
	"github.com/rvsim/rvsim/profhw/multihash"
	"github.com/rvsim/rvsim/sim"
	"github.com/rvsim/rvsim/syscalls"
	"github.com/stretchr/testify/require"
)

// windowProgram compiles testdata/window.c and returns it with the
// address of its mh_window buffer.
func windowProgram(t *testing.T) (string, uint64) {
	t.Helper()
	bin := guestcc.Build(t, "testdata/window.c", "-O2")
	prog, err := elf.LoadFile(bin)
	require.NoError(t, err)
	for _, s := range prog.Symbols {
		if s.Name == "mh_window" {
			return bin, s.Value
		}
	}
	t.Fatal("no mh_window symbol")
	return "", 0
}

// runWindow runs the program with a multihash unit (extra keys appended to
// its table) in functional mode or on the default machine.
func runWindow(t *testing.T, bin string, base uint64, timing bool, extra string) (sim.Result, string, *multihash.Unit) {
	t.Helper()
	var cfgs []*profhw.UnitConfig
	if base != 0 {
		var err error
		cfgs, err = profhw.Parse("window.toml", []byte(fmt.Sprintf(`[[unit]]
name = "w"
kind = "multihash"
interval = 1000
threshold_percent = 5
%s
[unit.window]
base = %d
`, extra, base)))
		require.NoError(t, err)
	}
	var stdout, stderr bytes.Buffer
	cfg := sim.Config{Program: bin, ProfHW: cfgs, Kernel: syscalls.Config{Cwd: t.TempDir(), ExePath: "/window",
		Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr, Warn: &stderr}}
	if timing {
		cfg.Timing = config.Default()
	}
	mc, err := sim.Load(cfg)
	require.NoError(t, err)
	res := mc.Run()
	require.Equal(t, 0, res.ExitCode, "%s %s", res.Message, stderr.String())
	var u *multihash.Unit
	if base != 0 {
		u = mc.ProfHW().Units()[0].(*multihash.Unit)
	}
	return res, stdout.String(), u
}

// Timing mode with a slow unit behind a one-entry queue: commit stalls
// more than behind the presets' queue and the run takes more cycles, but
// what executes, what the guest reads from
// the window and the unit's profile are those of functional mode; two
// runs give the same summary.
func TestTimingStallsChangeNothingElse(t *testing.T) {
	bin, base := windowProgram(t)
	slow := "[unit.queue]\nsize = 1\nthroughput = 0.25"
	fres, fout, fu := runWindow(t, bin, base, false, slow)
	_, fout2, fu2 := runWindow(t, bin, base, false, slow)
	tres, tout, tu := runWindow(t, bin, base, true, slow)
	qres, qout, qu := runWindow(t, bin, base, true, "") // 16 entries, one tuple a cycle
	require.Equal(t, fres.Instructions, tres.Instructions)
	require.Equal(t, fres.Instructions, qres.Instructions)
	require.Equal(t, fout, tout, "the guest reads the same windows")
	require.Equal(t, fout, qout)
	require.Equal(t, fout, fout2)
	require.Contains(t, fout, "candidates 4 ")
	fs, err := json.Marshal(fu.Summary())
	require.NoError(t, err)
	fs2, err := json.Marshal(fu2.Summary())
	require.NoError(t, err)
	require.JSONEq(t, string(fs), string(fs2), "deterministic")
	ts := tu.Summary()
	require.Greater(t, ts.StallCyc, qu.Summary().StallCyc)
	require.Greater(t, tres.Cycles, qres.Cycles)
	require.Equal(t, fu.Summary().ErrorPercent, ts.ErrorPercent)
	require.Equal(t, fu.Summary().Events, ts.Events)
	require.EqualValues(t, 0, fu.Summary().StallCyc)
}

// A guest program reads the accumulator window (testdata/window.c): what
// it prints is the accumulator table the unit latched at the end of the
// interval the window's sequence number names.
func TestGuestReadsWindow(t *testing.T) {
	bin, base := windowProgram(t)
	_, stdout, u := runWindow(t, bin, base, false, "")

	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	var magic, seq, interval, thresh, entries, cands, sum uint64
	_, err := fmt.Sscanf(lines[0], "magic %x seq %d interval %d threshold %d entries %d candidates %d sum %d", &magic, &seq, &interval, &thresh, &entries, &cands, &sum)
	require.NoError(t, err, lines[0])
	require.EqualValues(t, multihash.WindowMagic, magic)
	require.EqualValues(t, 1000, interval)
	require.EqualValues(t, 50, thresh)
	require.EqualValues(t, 20, entries, "the 100/t bound at 5%")
	require.EqualValues(t, 5500/4*(0x11+0x22+0x33+0x44), sum)
	require.GreaterOrEqual(t, seq, uint64(5), "5,500 hot loads span at least five intervals")

	// The unit's record of interval seq-1: its hardware candidates.
	tr := u.Track()
	require.Greater(t, len(tr.Lists), int(seq-1))
	var want []string
	for _, c := range tr.Lists[seq-1].Hardware {
		want = append(want, fmt.Sprintf("candidate pc %x word %x count %d", c.T.PC, c.T.W, c.Count))
	}
	got := lines[1:]
	sort.Strings(want)
	sort.Strings(got)
	require.Equal(t, want, got)
	require.EqualValues(t, len(want), cands)
	hotWords := 0
	for _, l := range got {
		for _, w := range []string{"word 11 ", "word 22 ", "word 33 ", "word 44 "} {
			if strings.Contains(l, w) {
				hotWords++
			}
		}
	}
	require.Equal(t, 4, hotWords, "the four hot values are candidates: %v", got)
	require.EqualValues(t, len(tr.Intervals), u.Summary().Extra["window_writes"])
}
