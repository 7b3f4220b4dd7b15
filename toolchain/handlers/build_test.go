package handlers

import (
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func needCompiler(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath(Compiler("")); err != nil {
		if os.Getenv("RVSIM_REQUIRE_ARTIFACTS") == "1" {
			t.Fatalf("%s is not installed: run 'make setup'", Compiler(""))
		}
		t.Skipf("%s is not installed: run 'make setup'", Compiler(""))
	}
}

func TestCompiler(t *testing.T) {
	t.Setenv("RISCV_PREFIX", "")
	assert.Equal(t, "riscv64-linux-gnu-gcc", Compiler(""))
	assert.Equal(t, "riscv64-unknown-elf-gcc", Compiler("riscv64-unknown-elf-"))
	t.Setenv("RISCV_PREFIX", "/opt/rv/bin/riscv64-linux-gnu-")
	assert.Equal(t, "/opt/rv/bin/riscv64-linux-gnu-gcc", Compiler(""))
}

// A user's handler is linked beside the runtime's own, at the runtime's
// address, with its descriptor in the descriptor section.
func TestBuild(t *testing.T) {
	needCompiler(t)
	dir := t.TempDir()
	src := filepath.Join(dir, "mine.c")
	require.NoError(t, os.WriteFile(src, []byte(`#include "handlers.h"
HPS_PROFILE(mine, 4, "mine", "Mine_handler", "pc", 0, 0, HPS_FMT(HPS_CODE, HPS_DEC));
void mine_handler(void) { hps_count(&mine, 0, dise_mailbox[0], 0); }
HPS_HANDLER(Mine_handler, mine_handler, 1, 1, 0);
`), 0o644))
	out := filepath.Join(dir, "mine.elf")
	require.NoError(t, Build(Options{Sources: []string{src}, Out: out}))
	f, err := elf.Open(out)
	require.NoError(t, err)
	defer f.Close()
	assert.Equal(t, elf.ET_EXEC, f.Type)
	assert.Equal(t, elf.EM_RISCV, f.Machine)
	syms, err := f.Symbols()
	require.NoError(t, err)
	got := map[string]uint64{}
	for _, s := range syms {
		got[s.Name] = s.Value
	}
	for _, n := range []string{"Mine_handler", "mine", "Count_handler", "CallPair_handler", "dise_mailbox", "hps_runtime_abi"} {
		assert.GreaterOrEqual(t, got[n], uint64(0x3ff8000000), n)
	}
	// Two descriptors more than the runtime's own (whose handlers include
	// profhw's Stratified_handler): the handler's, the profile's.
	assert.Equal(t, uint64(8*40), got["hps_handlers_end"]-got["hps_handlers_start"])
	assert.Equal(t, uint64(6*64), got["hps_profiles_end"]-got["hps_profiles_start"])

	// The compiler's complaint is the error's output; the error is one line.
	bad := filepath.Join(dir, "bad.c")
	require.NoError(t, os.WriteFile(bad, []byte("int x(\n"), 0o644))
	err = Build(Options{Sources: []string{bad}, Out: out})
	var be *BuildError
	require.ErrorAs(t, err, &be)
	assert.Equal(t, "compiling "+bad+" failed ("+Compiler("")+": exit status 1)", be.Error())
	assert.Contains(t, be.Output, "bad.c:1:")
	assert.NotContains(t, be.Error(), "\n")

	// A name clash with the runtime is the linker's complaint.
	clash := filepath.Join(dir, "clash.c")
	require.NoError(t, os.WriteFile(clash, []byte("void branch_handler(void) {}\n"), 0o644))
	err = Build(Options{Sources: []string{clash}, Out: out})
	require.ErrorAs(t, err, &be)
	assert.True(t, strings.HasPrefix(be.Error(), "linking failed"), be.Error())
	assert.Contains(t, be.Output, "branch_handler")
}
