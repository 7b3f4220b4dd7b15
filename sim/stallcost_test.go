package sim

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/config"
	"github.com/rvsim/rvsim/profhw"
	"github.com/rvsim/rvsim/syscalls"
)

// stallRun runs benchmark b in timing mode on machine m with the units of
// text, the stalls honoured or dropped.
func stallRun(t *testing.T, b bench, m *config.Machine, text string, drop bool) (Result, *Machine) {
	t.Helper()
	cfgs, err := profhw.Parse("test.toml", []byte(text))
	require.NoError(t, err)
	var out, errOut strings.Builder
	mc, err := Load(Config{Program: b.bin, Args: b.args, ProfHW: cfgs, Timing: m, DropProfHWStalls: drop,
		Kernel: syscalls.Config{Cwd: b.dir, ExePath: "/" + b.name, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut, Warn: &errOut}})
	require.NoError(t, err)
	res := mc.Run()
	require.Equal(t, StopExit, res.Stop, res.Message)
	require.NoError(t, res.TimingErr)
	require.NoError(t, res.ProfHWErr)
	return res, mc
}

func TestStallCostMeasure(t *testing.T) {
	for _, tc := range []struct{ bench, machine, unit string }{
		{"lz", "hpp", "[[unit]]\nname = \"p\"\nkind = \"path\"\n[unit.queue]\nentries = 0\n"},
		{"lz", "hpp", "[[unit]]\nname = \"p\"\nkind = \"path\"\n[unit.queue]\nentries = 2\n"},
		{"parser", "default", "[[unit]]\nname = \"p\"\nkind = \"path\"\n[unit.queue]\nentries = 0\n"},
		{"lz", "default", "[[unit]]\nname = \"m\"\nkind = \"multihash\"\n[unit.queue]\nsize = 2\nthroughput = 0.5\n[unit.select]\ntuples = [\"value\"]\n"},
		{"exprc", "default", "[[unit]]\nname = \"m\"\nkind = \"multihash\"\n[unit.queue]\nsize = 2\nthroughput = 0.5\n[unit.select]\ntuples = [\"value\"]\n"},
	} {
		b := benchmark(t, tc.bench)
		m, err := config.Preset(tc.machine)
		require.NoError(t, err)
		res, mc := stallRun(t, b, m, tc.unit, false)
		base, mb := stallRun(t, b, m, tc.unit, true)
		s := mc.ProfHW().Units()[0].Summary()
		blocked, real, diff := mc.Timing().HookStallCost()
		_, realDropped, _ := mb.Timing().HookStallCost()
		assert.Zero(t, realDropped)
		assert.Equal(t, real, s.StallCyc)
		t.Logf("%s %s %q: cycles %d, dropped %d, truth %d, real %d, blocked %d, requested %d, diff %d",
			tc.bench, tc.machine, tc.unit[:40], res.Cycles, base.Cycles, int64(res.Cycles)-int64(base.Cycles), real, blocked, s.StallReq, diff)
	}
}
