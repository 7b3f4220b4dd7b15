package test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/difftest"
)

// The signal programs of test/programs/signals: each prints one ok/FAIL
// line per check and ends in a known way (an exit status, or death by a
// signal with the default action). rvsim must print what qemu-riscv64
// prints and end the same way, with no FAIL line.

// signalPrograms are the programs and their exit status (128+signal for
// the deaths each one ends with).
var signalPrograms = []struct {
	name   string
	args   []string
	status int
	// portable programs use no RISC-V assembly: they are also built for
	// the host and run on the host's Linux kernel, a second reference.
	portable bool
	// qemuDeviates lists the check lines where qemu-riscv64 7.2 is wrong
	// (it says FAIL; Linux, and rvsim, say ok). Each was confirmed on the
	// host's Linux kernel. qemuStatus is then qemu's exit status (the
	// programs exit with their number of failures).
	qemuDeviates []string
	qemuStatus   int
	// qemuHostTimed lists the check lines whose result under qemu depends
	// on the host's clock and load (qemu sleeps in real time; rvsim's
	// time is derived from the instruction count): qemu may pass or fail
	// them, rvsim must pass them.
	qemuHostTimed []string
}{
	{name: "segv_jmp", status: 139},
	{name: "sigill", status: 132},
	{name: "siginfo", status: 0},
	{name: "sigmask", status: 0, portable: true, qemuDeviates: []string{
		// qemu delivers a pending signal to a handler without the mask of
		// the handler that was set up just before it (two frames at once).
		"usr2_blocked_in_handler == 1",
		"order[0] == SIGUSR1 && order[1] == SIGUSR2",
	}, qemuStatus: 2},
	{name: "abort_handler", status: 134, portable: true},
	{name: "alarm", status: 142, portable: true, qemuHostTimed: []string{
		"rem.tv_sec == 0 && rem.tv_nsec > 900000000 && rem.tv_nsec < 960000000",
	}},
}

func signalProgram(t *testing.T, name string) string {
	t.Helper()
	p := filepath.Join(testprogs, "signals", name)
	needFile(t, p, "make testprogs")
	return p
}

// needOracleLib skips (or fails) a test when libunicorn2 is missing.
func needOracleLib(t *testing.T) {
	t.Helper()
	if err := difftest.Available(); err != nil {
		missing(t, "%v", err)
	}
}

// failLines returns the FAIL lines of a program's output.
func failLines(out string) []string {
	var fails []string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "FAIL") {
			fails = append(fails, l)
		}
	}
	return fails
}

// withoutDeviations turns qemu's FAIL lines for the listed checks into
// the ok lines Linux prints.
func withoutDeviations(out string, checks []string) string {
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		for _, c := range checks {
			if strings.HasPrefix(l, "FAIL "+c+" (") {
				lines[i] = "ok   " + c
			}
		}
	}
	return strings.Join(lines, "\n")
}

func TestSignalProgramsMatchQemu(t *testing.T) {
	qemu := needQemu(t)
	rvsim := rvsimBinary(t)
	for _, p := range signalPrograms {
		t.Run(p.name, func(t *testing.T) {
			prog := signalProgram(t, p.name)
			dir := t.TempDir()
			r := runProcess(t, dir, []string{}, rvsim, append([]string{"run", prog}, p.args...)...)
			assert.Equal(t, p.status, r.Status, "rvsim's exit status; stderr: %s", r.Stderr)
			assert.Empty(t, failLines(r.Stdout), "rvsim's output:\n%s", r.Stdout)
			assert.GreaterOrEqual(t, strings.Count(r.Stdout, "ok   "), 3, "the program ran its checks")
			for _, c := range p.qemuDeviates {
				assert.Contains(t, r.Stdout, "ok   "+c+"\n", "rvsim passes the check qemu gets wrong")
			}

			q := runProcess(t, dir, []string{}, qemu, append([]string{prog}, p.args...)...)
			if p.qemuDeviates != nil {
				assert.Equal(t, p.qemuStatus, q.Status, "qemu's exit status")
			} else {
				assert.Equal(t, p.status, q.Status, "qemu's exit status")
			}
			for _, c := range p.qemuHostTimed {
				assert.Contains(t, r.Stdout, "ok   "+c+"\n", "rvsim passes the host-timed check")
			}
			assert.Equal(t, withoutDeviations(q.Stdout, append(p.qemuDeviates, p.qemuHostTimed...)), r.Stdout)
			for _, c := range p.qemuDeviates {
				assert.Contains(t, q.Stdout, "FAIL "+c+" (", "qemu still deviates on %q (else drop it from the list)", c)
			}
		})
	}
}

// TestSignalProgramsMatchHostLinux runs the portable programs natively on
// the host's Linux kernel, whose signal code is the same generic code as
// riscv64's: rvsim must print the same.
func TestSignalProgramsMatchHostLinux(t *testing.T) {
	cc, err := exec.LookPath("cc")
	if err != nil {
		missing(t, "no host C compiler cc (run 'make setup')")
		return
	}
	rvsim := rvsimBinary(t)
	src := filepath.Join(srcDir, "signals")
	for _, p := range signalPrograms {
		if !p.portable {
			continue
		}
		t.Run(p.name, func(t *testing.T) {
			prog := signalProgram(t, p.name)
			host := filepath.Join(t.TempDir(), p.name)
			out, err := exec.Command(cc, "-O2", "-o", host, filepath.Join(src, p.name+".c")).CombinedOutput()
			require.NoError(t, err, "%s", out)
			dir := t.TempDir()
			h := runProcess(t, dir, []string{}, host, p.args...)
			r := runProcess(t, dir, []string{}, rvsim, append([]string{"run", prog}, p.args...)...)
			assert.Equal(t, h.Status, r.Status)
			assert.Equal(t, h.Stdout, r.Stdout)
		})
	}
}

// TestSignalProgramsUnderDifftest runs the signal programs in lock-step
// with Unicorn: every delivery (a fault's, a kill's, a timer's) and every
// rt_sigreturn is mirrored into the oracle, and the runs must agree to
// the end with the same output as a plain run.
func TestSignalProgramsUnderDifftest(t *testing.T) {
	rvsim := rvsimBinary(t)
	needOracleLib(t)
	for _, c := range []struct {
		name string
		args []string
	}{
		{"segv_jmp", nil}, {"sigill", nil}, {"siginfo", nil}, {"sigmask", nil}, {"abort_handler", nil}, {"alarm", []string{"fast"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			prog := signalProgram(t, c.name)
			dir := t.TempDir()
			plain := runProcess(t, dir, []string{}, rvsim, append([]string{"run", prog}, c.args...)...)
			d := runProcess(t, dir, []string{}, rvsim, append([]string{"run", "--difftest", prog}, c.args...)...)
			assert.Contains(t, d.Stderr, "no divergence", "difftest's report")
			assert.Equal(t, plain.Status, d.Status)
			assert.Equal(t, plain.Stdout, d.Stdout)
			assert.Empty(t, failLines(d.Stdout))
		})
	}
}

// TestTimerSignalsAreDeterministic: the periodic timers of the alarm
// program fire at the same instructions on every run, so its instruction
// count is the same every time.
func TestTimerSignalsAreDeterministic(t *testing.T) {
	rvsim := rvsimBinary(t)
	prog := signalProgram(t, "alarm")
	dir := t.TempDir()
	var counts []uint64
	for i := 0; i < 2; i++ {
		stats := filepath.Join(dir, "stats.json")
		r := runProcess(t, dir, []string{}, rvsim, "run", "--stats", stats, prog)
		require.Equal(t, 142, r.Status, r.Stderr)
		b, err := os.ReadFile(stats)
		require.NoError(t, err)
		var s struct{ Instructions uint64 }
		require.NoError(t, json.Unmarshal(b, &s))
		counts = append(counts, s.Instructions)
	}
	require.NotZero(t, counts[0])
	require.Equal(t, counts[0], counts[1])
}
