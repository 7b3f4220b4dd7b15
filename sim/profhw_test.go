package sim

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/config"
	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/isa"
	"github.com/rvsim/rvsim/profhw"
	"github.com/rvsim/rvsim/profhw/exact"
	"github.com/rvsim/rvsim/profhw/tuple"
	"github.com/rvsim/rvsim/syscalls"
)

// tupleCount is an independent count of the four tuple kinds from the
// DynInst stream (it does not use profhw/tuple's selectors).
type tupleCount struct {
	value, edge, call, addr map[[2]uint64]uint64
}

func newTupleCount() *tupleCount {
	return &tupleCount{map[[2]uint64]uint64{}, map[[2]uint64]uint64{}, map[[2]uint64]uint64{}, map[[2]uint64]uint64{}}
}

func (c *tupleCount) Retire(batch []cpu.DynInst) {
	for i := range batch {
		d := &batch[i]
		if d.Injected || d.Handler {
			continue
		}
		info := d.Inst.Op.Info()
		switch {
		case d.Inst.Class == isa.Load:
			c.value[[2]uint64{d.PC, d.Result}]++
		case info.Format == isa.FmtBranch || d.Inst.Class == isa.Jalr:
			c.edge[[2]uint64{d.PC, d.NextPC}]++
		case d.Inst.Class == isa.Call:
			c.call[[2]uint64{d.PC, d.NextPC}]++
		}
		if info.MemSize != 0 {
			c.addr[[2]uint64{d.PC, d.Addr}]++
		}
	}
}

func runProfHW(t *testing.T, b bench, timing bool, text string, obs ...cpu.Observer) (Result, *Machine, []byte) {
	t.Helper()
	var cfgs []*profhw.UnitConfig
	if text != "" {
		var err error
		cfgs, err = profhw.Parse("test.toml", []byte(text))
		require.NoError(t, err)
	}
	var out, errOut bytes.Buffer
	cfg := Config{Program: b.bin, Args: b.args, Observers: obs, ProfHW: cfgs,
		Kernel: syscalls.Config{Cwd: b.dir, ExePath: "/" + b.name, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut, Warn: &errOut}}
	if timing {
		cfg.Timing = config.Default()
	}
	mc, err := Load(cfg)
	require.NoError(t, err)
	res := mc.Run()
	require.Equal(t, StopExit, res.Stop, res.Message)
	require.NoError(t, res.TimingErr)
	require.NoError(t, res.ProfHWErr)
	require.Empty(t, errOut.String())
	return res, mc, out.Bytes()
}

const fourExactUnits = `
[[unit]]
name = "v"
kind = "exact"
[unit.select]
tuples = ["value"]
[[unit]]
name = "e"
kind = "exact"
[unit.select]
tuples = ["edge", "call-target"]
[[unit]]
name = "a"
kind = "exact"
[unit.select]
tuples = ["address"]
`

// Exact profiles equal an independent count from the DynInst stream, and
// attaching units changes neither the output nor the instruction count
// (nor, for units that never stall, the cycle count), in both modes.
func TestProfHWExactProfiles(t *testing.T) {
	for _, name := range []string{"lisp", "hashjoin"} {
		b := benchmark(t, name)
		for _, timing := range []bool{false, true} {
			t.Run(name+map[bool]string{false: "/functional", true: "/timing"}[timing], func(t *testing.T) {
				base, _, baseOut := runProfHW(t, b, timing, "")
				cnt := newTupleCount()
				res, mc, out := runProfHW(t, b, timing, fourExactUnits, cnt)
				assert.Equal(t, b.stdout, out)
				assert.Equal(t, baseOut, out)
				assert.Equal(t, base.Instructions, res.Instructions)
				assert.Equal(t, base.Cycles, res.Cycles)

				units := mc.ProfHW().Units()
				require.Len(t, units, 3)
				check := func(u profhw.Unit, tag uint8, want map[[2]uint64]uint64) {
					got := map[[2]uint64]uint64{}
					for tp, n := range u.(*exact.Unit).Counts() {
						if tp.Tag == tag {
							got[[2]uint64{tp.PC, tp.W}] = n
						}
					}
					require.NotEmpty(t, want)
					assert.Equal(t, want, got, "unit %s tag %d", u.Name(), tag)
				}
				check(units[0], 0, cnt.value)
				check(units[1], 0, cnt.edge)
				check(units[1], 1, cnt.call)
				check(units[2], 0, cnt.addr)
				var total uint64
				for _, n := range cnt.value {
					total += n
				}
				assert.Equal(t, total, units[0].Summary().Events)
			})
		}
	}
}

// The same run twice gives the same profiles.
func TestProfHWDeterministic(t *testing.T) {
	b := benchmark(t, "lz")
	_, m1, _ := runProfHW(t, b, false, fourExactUnits)
	_, m2, _ := runProfHW(t, b, false, fourExactUnits)
	for i, u := range m1.ProfHW().Units() {
		assert.Equal(t, u.(*exact.Unit).Counts(), m2.ProfHW().Units()[i].(*exact.Unit).Counts())
	}
	var _ tuple.Counts = m1.ProfHW().Units()[0].(*exact.Unit).Counts()
}

// With the tap, a real handler's buffer interrupts the core right after
// the instruction that fills it: every interrupt hands over exactly a
// full buffer (100 messages), and the handler's table equals the Go fold.
func TestProfHWPreciseInterrupt(t *testing.T) {
	b := benchmark(t, "lz")
	t.Setenv("RVSIM_HANDLERS", handlersELF(t))
	text, err := profhw.PresetText("stratified-value-handler")
	require.NoError(t, err)
	base, _, _ := runProfHW(t, b, true, "")
	res, mc, out := runProfHW(t, b, true, string(text))
	assert.Equal(t, b.stdout, out)
	s := mc.ProfHW().Summaries()[0]
	require.Greater(t, s.Interrupts, uint64(10))
	assert.Equal(t, 100*s.Interrupts, s.Extra["handler_messages"], "every interrupt drains a full buffer")
	assert.Equal(t, 100, s.Extra["handler_buffer_at_interrupt_max"], "no message arrived between the fill and the interrupt")
	assert.Equal(t, true, s.Extra["handler_profile_equals_go_fold"])
	assert.Greater(t, res.Instructions, base.Instructions, "the handler's instructions ran on the core")
	assert.Greater(t, res.Cycles, base.Cycles)
}

// error.exact = false drops the reference, not the hardware: the
// estimated profile and the messages are those of the run with it.
func TestProfHWWithoutExact(t *testing.T) {
	b := benchmark(t, "lz")
	text, err := profhw.PresetText("stratified-value")
	require.NoError(t, err)
	off := strings.Replace(string(text), "[unit.error]", "[unit.error]\nexact = false\n", 1)
	_, withExact, _ := runProfHW(t, b, false, string(text))
	cfgs, err := profhw.Parse("off.toml", []byte(off))
	require.NoError(t, err)
	_, err = profhw.Build(cfgs, profhw.Env{})
	require.ErrorContains(t, err, "convergence.every: a convergence curve needs the exact profile")

	off = strings.Replace(off, "\nevery = 100000", "\nevery = 0", 1)
	_, without, _ := runProfHW(t, b, false, off)
	a, z := withExact.ProfHW().Summaries()[0], without.ProfHW().Summaries()[0]
	assert.Equal(t, a.Messages, z.Messages)
	assert.Equal(t, a.Events, z.Events)
	assert.Greater(t, a.ErrorPercent, 0.0)
	assert.Zero(t, z.ErrorPercent)
	assert.Equal(t, "not measured (error.exact = false)", z.ErrorMetric)
	outs, err := without.ProfHW().Units()[0].Outputs(func(uint64) string { return "" })
	require.NoError(t, err)
	for _, o := range outs {
		assert.NotEqual(t, "exact.json", o.Suffix)
	}
	wa, err := withExact.ProfHW().Units()[0].Outputs(func(uint64) string { return "" })
	require.NoError(t, err)
	assert.Equal(t, wa[0].Bytes(), outs[0].Bytes(), "the same estimated profile")
}
