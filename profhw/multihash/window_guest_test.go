package multihash_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/rvsim/rvsim/elf"
	"github.com/rvsim/rvsim/profhw"
	"github.com/rvsim/rvsim/profhw/multihash"
	"github.com/rvsim/rvsim/sim"
	"github.com/rvsim/rvsim/syscalls"
	"github.com/stretchr/testify/require"
)

// A guest program reads the accumulator window (testdata/window.c): what
// it prints is the accumulator table the unit latched at the end of the
// interval the window's sequence number names.
func TestGuestReadsWindow(t *testing.T) {
	gcc, err := exec.LookPath("riscv64-linux-gnu-gcc")
	if err != nil {
		if os.Getenv("RVSIM_REQUIRE_ARTIFACTS") != "" {
			t.Fatal("riscv64-linux-gnu-gcc is needed (make setup)")
		}
		t.Skip("riscv64-linux-gnu-gcc not installed")
	}
	bin := filepath.Join(t.TempDir(), "window")
	out, err := exec.Command(gcc, "-static", "-O2", "-o", bin, "testdata/window.c").CombinedOutput()
	require.NoError(t, err, "%s", out)
	prog, err := elf.LoadFile(bin)
	require.NoError(t, err)
	var base uint64
	for _, s := range prog.Symbols {
		if s.Name == "mh_window" {
			base = s.Value
		}
	}
	require.NotZero(t, base)

	cfgs, err := profhw.Parse("window.toml", []byte(fmt.Sprintf(`[[unit]]
name = "w"
kind = "multihash"
interval = 1000
threshold_percent = 5
[unit.window]
base = %d
`, base)))
	require.NoError(t, err)
	var stdout, stderr bytes.Buffer
	mc, err := sim.Load(sim.Config{Program: bin, ProfHW: cfgs, Kernel: syscalls.Config{Cwd: t.TempDir(), ExePath: "/window",
		Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr, Warn: &stderr}})
	require.NoError(t, err)
	res := mc.Run()
	require.Equal(t, 0, res.ExitCode, "%s %s", res.Message, stderr.String())
	u := mc.ProfHW().Units()[0].(*multihash.Unit)

	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	var magic, seq, interval, thresh, entries, cands, sum uint64
	_, err = fmt.Sscanf(lines[0], "magic %x seq %d interval %d threshold %d entries %d candidates %d sum %d", &magic, &seq, &interval, &thresh, &entries, &cands, &sum)
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
