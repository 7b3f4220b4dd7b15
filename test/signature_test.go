package test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSignature: --signature writes the memory between begin_signature
// and end_signature as Spike's +signature does (the region the program
// wrote: a doubleword, a word, a byte inside a word; hand-computed in
// testdata/signature), in every mode and under --difftest; bad uses are
// one-line usage errors that leave no file behind.
func TestSignature(t *testing.T) {
	rvsim := rvsimBinary(t)
	prog := filepath.Join(testprogs, "baremetal", "signature")
	needFile(t, prog, "make testprogs")
	tmp := t.TempDir()
	for _, tc := range []struct {
		desc   string
		args   []string
		golden string
	}{
		{"granularity 4 (the default)", nil, "g4"},
		{"granularity 8", []string{"--signature-granularity", "8"}, "g8"},
		{"interpreted", []string{"--jit", "off"}, "g4"},
		{"timing mode", []string{"--mode", "timing"}, "g4"},
		{"in lock-step with Unicorn", []string{"--difftest"}, "g4"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			if len(tc.args) > 0 && tc.args[0] == "--difftest" {
				needOracleLib(t)
			}
			out := filepath.Join(tmp, tc.golden+".sig")
			r := runProcess(t, tmp, nil, rvsim, append(append([]string{"run", "--signature", out}, tc.args...), prog)...)
			require.Equal(t, 0, r.Status, r.Stderr)
			got, err := os.ReadFile(out)
			require.NoError(t, err)
			want, err := os.ReadFile(filepath.Join("testdata", "signature", tc.golden))
			require.NoError(t, err)
			assert.Equal(t, string(want), string(got))
		})
	}
	hello := filepath.Join(testprogs, "baremetal", "hello")
	needFile(t, hello, "make testprogs")
	out := filepath.Join(tmp, "bad.sig")
	for _, tc := range []struct {
		desc, stderr string
		args         []string
	}{
		{"granularity not a power of two", "rvsim: --signature-granularity: signature granularity 3: want a power of two from 1 to 64\n",
			[]string{"--signature", out, "--signature-granularity", "3", prog}},
		{"granularity past 64", "rvsim: --signature-granularity: signature granularity 128: want a power of two from 1 to 64\n",
			[]string{"--signature", out, "--signature-granularity", "128", prog}},
		{"granularity without --signature", "rvsim: --signature-granularity needs --signature FILE\n",
			[]string{"--signature-granularity", "8", prog}},
		{"a size the granularity does not divide", "rvsim: --signature: " + prog + ": the signature's 24 bytes (0x80002000 to 0x80002018) are not a multiple of the granularity 16\n",
			[]string{"--signature", out, "--signature-granularity", "16", prog}},
		{"no signature symbols", "rvsim: --signature: " + hello + ": no begin_signature symbol (a signature lies between begin_signature and end_signature, as riscv-arch-test programs define them)\n",
			[]string{"--signature", out, hello}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			r := runProcess(t, tmp, nil, rvsim, append([]string{"run"}, tc.args...)...)
			assert.Equal(t, 2, r.Status)
			assert.Equal(t, tc.stderr, r.Stderr)
			assert.Empty(t, r.Stdout, "the program did not run")
			assert.NoFileExists(t, out)
		})
	}
}
