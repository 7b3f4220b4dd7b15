package elf

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLineTableAgainstAddr2line: the line of every function's first
// instruction in a -g program is the one the toolchain's addr2line
// gives; a program without DWARF has no lines.
func TestLineTableAgainstAddr2line(t *testing.T) {
	bin := "../build/testprogs/pathprof/paths"
	if _, err := os.Stat(bin); err != nil {
		if os.Getenv("RVSIM_REQUIRE_ARTIFACTS") == "1" {
			t.Fatalf("%s is not built (make testprogs)", bin)
		}
		t.Skipf("%s is not built (make testprogs)", bin)
	}
	a2l, err := exec.LookPath("riscv64-linux-gnu-addr2line")
	if err != nil {
		t.Skip("riscv64-linux-gnu-addr2line is not installed")
	}
	p, err := LoadFile(bin)
	require.NoError(t, err)
	lt, err := ReadLineTable(bin)
	require.NoError(t, err)
	checked := 0
	for _, name := range []string{"main", "deep", "escape", "dispatch", "f2", "ping"} {
		s, ok := p.Lookup(name)
		require.True(t, ok, name)
		for _, addr := range []uint64{s.Value, s.Value + 4} {
			out, err := exec.Command(a2l, "-e", bin, strconv.FormatUint(addr, 16)).Output()
			require.NoError(t, err)
			want := strings.TrimSpace(string(out))
			want = want[strings.LastIndexByte(want, '/')+1:]
			if i := strings.Index(want, " ("); i >= 0 {
				want = want[:i] // "(discriminator N)"
			}
			file, line, ok := lt.Lookup(addr)
			require.True(t, ok, "%s %#x", name, addr)
			assert.Equal(t, want, filepath.Base(file)+":"+strconv.Itoa(line), "%s %#x", name, addr)
			checked++
		}
	}
	assert.Equal(t, 12, checked)

	// No DWARF (the ISA tests are built without -g): no lines.
	nodbg := "../build/testprogs/linux/hello"
	if _, err := os.Stat(nodbg); err == nil {
		lt, err := ReadLineTable(nodbg)
		require.NoError(t, err)
		hp, err := LoadFile(nodbg)
		require.NoError(t, err)
		s, ok := hp.Lookup("main")
		require.True(t, ok)
		_, _, ok = lt.Lookup(s.Value)
		assert.False(t, ok)
	}
	_, err = ReadLineTable("testdata/does-not-exist")
	assert.Error(t, err)
}
