package test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// HPS authorisation (hps-phase-aware-remote-profiling.md §4: "Only
// authorized agents … may execute this instruction"): with an HPS engine
// attached, an application's hps.on/hps.off is an illegal instruction
// unless an ACF says `authorize hps` or the run has --hps-authorize.
// Unauthorised, the program must see what qemu-riscv64 (where custom-0 is
// illegal) shows it: SIGILL, ILL_ILLOPC at the instruction's pc, and
// death by SIGILL (132) with the default action.

func TestHPSUnauthorisedIsSIGILL(t *testing.T) {
	prog := signalProgram(t, "hps_auth")
	qemu := runProcess(t, "", nil, needQemu(t), prog)
	require.Equal(t, 132, qemu.Status, "qemu-riscv64: %s", qemu.Stderr)
	require.Empty(t, failLines(qemu.Stdout))
	rvsim := rvsimBinary(t)
	acf := filepath.Join(repoRoot, "acf", "hps-triggers.acf")
	for _, mode := range []string{"functional", "timing"} {
		t.Run(mode, func(t *testing.T) {
			stats := filepath.Join(t.TempDir(), "stats.json")
			r := runProcess(t, "", nil, rvsim, "run", "--mode", mode, "--acf", acf, "--stats", stats, prog)
			assert.Equal(t, 132, r.Status, "stderr: %s", r.Stderr)
			assert.Equal(t, qemu.Stdout, r.Stdout)
			assert.Contains(t, r.Stderr, "illegal instruction 0x0000100b at pc")
			d := diseStats(t, stats)
			assert.Zero(t, d["matches"], "the editor never sees an unauthorised trigger")
		})
	}
}

func TestHPSAuthorised(t *testing.T) {
	prog := signalProgram(t, "hps_auth")
	rvsim := rvsimBinary(t)
	acf := filepath.Join(repoRoot, "acf", "hps-triggers.acf")
	grant := filepath.Join(t.TempDir(), "grant.acf")
	require.NoError(t, os.WriteFile(grant, []byte("# lets the application toggle sampling\nauthorize hps\n"), 0o644))
	for _, mode := range []string{"functional", "timing"} {
		for _, how := range []struct {
			name string
			args []string
		}{
			{"flag", []string{"--acf", acf, "--hps-authorize"}},
			{"acf", []string{"--acf", acf, "--acf", grant}},
		} {
			t.Run(mode+"/"+how.name, func(t *testing.T) {
				stats := filepath.Join(t.TempDir(), "stats.json")
				args := append([]string{"run", "--mode", mode, "--stats", stats}, how.args...)
				r := runProcess(t, "", nil, rvsim, append(args, prog, "on", "3")...)
				require.Equal(t, 0, r.Status, "stderr: %s", r.Stderr)
				assert.Equal(t, "ok   3 windows\n", r.Stdout)
				// hps-triggers.acf: P0 (hps.on) sets counter 0 and runs
				// R_epoch (one addi); P1 (hps.off) is a null replacement.
				d := diseStats(t, stats)
				assert.Equal(t, 6.0, d["matches"], "3 hps.on and 3 hps.off reached the editor")
				assert.Equal(t, 3.0, d["replacements"])
				assert.Equal(t, 3.0, d["injected_instructions"])
				assert.Zero(t, d["triggers"])
			})
		}
	}
}

// The external triggers stay authorised: --trigger toggles sampling in a
// program that has no grant.
func TestHPSExternalTriggerNeedsNoGrant(t *testing.T) {
	prog := signalProgram(t, "hps_auth")
	stats := filepath.Join(t.TempDir(), "stats.json")
	r := runProcess(t, "", nil, rvsimBinary(t), "run", "--stats", stats, "--trigger", "periodic:1000:100",
		"--acf", filepath.Join(repoRoot, "acf", "hps-triggers.acf"), prog, "on", "0")
	require.Equal(t, 0, r.Status, "stderr: %s", r.Stderr)
	d := diseStats(t, stats)
	assert.Greater(t, d["triggers"], 10.0)
	assert.Equal(t, d["triggers"], d["matches"], "each injected trigger matched")
}

func diseStats(t *testing.T, path string) map[string]float64 {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	var s struct {
		DISE map[string]any `json:"dise"`
	}
	require.NoError(t, json.Unmarshal(b, &s))
	require.NotNil(t, s.DISE, "no dise section in %s", path)
	n := map[string]float64{} // the counts (trigger is the --trigger string)
	for k, v := range s.DISE {
		if f, ok := v.(float64); ok {
			n[k] = f
		}
	}
	return n
}
