package sim

import (
	"bytes"
	"encoding/binary"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/syscalls"
)

// auxv reads the auxiliary vector from the initial stack at sp.
func auxv(t *testing.T, mc *Machine, sp uint64) map[uint64]uint64 {
	t.Helper()
	word := func(a uint64) uint64 {
		var b [8]byte
		require.NoError(t, mc.Mem.Peek(a, b[:]))
		return binary.LittleEndian.Uint64(b[:])
	}
	p := sp + 8 + 8*(word(sp)+1) // past argc, argv[], NULL
	for word(p) != 0 {
		p += 8
	}
	p += 8 // past envp's NULL
	out := map[uint64]uint64{}
	for ; word(p) != 0; p += 16 {
		out[word(p)] = word(p + 8)
	}
	return out
}

// TestDynamicProcessLayout loads a dynamically linked PIE as Linux's
// load_elf_binary does: the program at PIEBase, its interpreter at the top
// of the mmap area (below MmapTop, as an mmap without a hint), execution
// starting at the interpreter's entry, and the auxiliary vector naming the
// program's headers and entry and the interpreter's base.
func TestDynamicProcessLayout(t *testing.T) {
	prog := artifact(t, "build/testprogs/linux-dyn/hello", "make testprogs")
	if _, err := os.Stat(DefaultSysroot + "/lib/ld-linux-riscv64-lp64d.so.1"); err != nil {
		artifact(t, "no-sysroot", "make setup (libc6-riscv64-cross)")
	}
	var out bytes.Buffer
	mc, err := Load(Config{Program: prog, Kernel: syscalls.Config{Stdout: &out}})
	require.NoError(t, err)
	require.NotNil(t, mc.Interp, "the interpreter is loaded")
	assert.Equal(t, uint64(syscalls.PIEBase), mc.Bias)
	_, hi := mc.Interp.Span()
	assert.Equal(t, uint64(syscalls.MmapTop), mc.InterpBias+hi, "ld.so ends at the top of the mmap area")
	assert.Equal(t, mc.Interp.Entry+mc.InterpBias, mc.CPU.PC, "the process starts in ld.so")
	av := auxv(t, mc, mc.CPU.Reg(2))
	assert.Equal(t, mc.InterpBias, av[7], "AT_BASE")
	assert.Equal(t, mc.Prog.Entry+syscalls.PIEBase, av[9], "AT_ENTRY is the program's")
	assert.Equal(t, mc.Prog.PhdrVaddr+syscalls.PIEBase, av[3], "AT_PHDR is the program's")
	assert.Equal(t, mc.Prog.Phnum, av[5], "AT_PHNUM")
	res := mc.Run()
	assert.Equal(t, 3, res.ExitCode)
	assert.Equal(t, "argv["+"0] = "+prog+"\nsqrt(2) = 1.414214\n", out.String())
}

// TestStaticProcessHasNoBase: a static program has no interpreter, and
// AT_BASE is 0.
func TestStaticProcessHasNoBase(t *testing.T) {
	prog := artifact(t, "build/testprogs/linux/hello", "make testprogs")
	mc, err := Load(Config{Program: prog})
	require.NoError(t, err)
	assert.Nil(t, mc.Interp)
	av := auxv(t, mc, mc.CPU.Reg(2))
	assert.Equal(t, uint64(0), av[7], "AT_BASE")
	assert.Equal(t, mc.Prog.Entry, av[9])
	assert.Equal(t, mc.Prog.Entry, mc.CPU.PC)
}
