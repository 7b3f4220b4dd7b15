package sim

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/config"
	"github.com/rvsim/rvsim/cpu"
	"github.com/rvsim/rvsim/isa"
	"github.com/rvsim/rvsim/syscalls"
)

// entries records the retirement numbers of the instructions retired at
// pc, and of every ecall.
type entries struct {
	pc     uint64
	at     []uint64 // Seq of each retirement at pc
	ecalls []uint64 // Seq of each ecall
}

func (e *entries) Retire(b []cpu.DynInst) {
	for i := range b {
		d := &b[i]
		if d.Inst.Op == isa.ECALL {
			e.ecalls = append(e.ecalls, d.Seq)
		}
		if d.PC == e.pc {
			e.at = append(e.at, d.Seq)
		}
	}
}

// TestTimerSignalsAtExactInstructions runs timer_exact (ITIMER_VIRTUAL
// every 100 µs = 100,000 instructions) and checks that the handler's first
// instruction is retirement number S + k*100,000, where S counts the
// instructions up to and including setitimer's ecall: delivery happens at
// exactly the expiry's instruction boundary, in functional and in timing
// mode alike.
func TestTimerSignalsAtExactInstructions(t *testing.T) {
	prog := artifact(t, "build/testprogs/signals/timer_exact", "make testprogs")
	for _, timing := range []bool{false, true} {
		var out bytes.Buffer
		cfg := Config{Program: prog, Kernel: syscalls.Config{Stdout: &out}}
		if timing {
			cfg.Timing = config.Default()
		}
		rec := &entries{}
		cfg.Observers = []cpu.Observer{rec}
		mc, err := Load(cfg)
		require.NoError(t, err)
		sym, ok := mc.Prog.Lookup("on_vtalrm")
		require.True(t, ok)
		rec.pc = sym.Value + mc.Bias
		res := mc.Run()
		require.Equal(t, StopExit, res.Stop, res.Message)
		require.NoError(t, res.TimingErr)
		require.Equal(t, "5 SIGVTALRM\n", out.String())
		require.Len(t, rec.at, 5, "timing=%v", timing)

		// setitimer's ecall is the last one before the first delivery (the
		// spinning loop makes no system call).
		var setitimer uint64
		for _, s := range rec.ecalls {
			if s < rec.at[0] {
				setitimer = s
			}
		}
		start := setitimer + 1 // instret after the ecall retired
		for k, seq := range rec.at {
			require.Equal(t, start+uint64(k+1)*100000, seq, "delivery %d (timing=%v)", k, timing)
		}
		require.Equal(t, uint64(10), mc.Redirects(), "five handler entries and five rt_sigreturns")
	}
}

// TestFaultWithHandlerContinues: a SIGSEGV handler that leaves with
// siglongjmp lets the program go on; the fault's message is only used
// when the fault kills.
func TestFaultWithHandlerContinues(t *testing.T) {
	prog := artifact(t, "build/testprogs/signals/segv_jmp", "make testprogs")
	var out bytes.Buffer
	mc, err := Load(Config{Program: prog, Kernel: syscalls.Config{Stdout: &out}})
	require.NoError(t, err)
	res := mc.Run()
	require.Equal(t, StopSignal, res.Stop)
	require.Equal(t, 139, res.ExitCode)
	require.Contains(t, out.String(), "round 2: caught signal 11\n")
	require.Regexp(t, `^segmentation fault: store to address 0x8 at pc 0x[0-9a-f]+$`, res.Message)
	require.Equal(t, uint64(4), mc.Redirects(), "four deliveries (the handler leaves by siglongjmp, not rt_sigreturn)")
}
