package syscalls

import (
	"os"
	"strings"
	"testing"

	"github.com/rvsim/rvsim/mem"
	"github.com/stretchr/testify/require"
)

// decodedStack is the initial stack read back from guest memory.
type decodedStack struct {
	argv, envp []string
	auxv       [][2]uint64 // in order, AT_NULL excluded
}

func decodeStack(t *testing.T, m *mem.Memory, sp uint64) decodedStack {
	t.Helper()
	word := func(a uint64) uint64 {
		v, ok := m.Read64(a)
		require.True(t, ok, "read at %#x", a)
		return v
	}
	str := func(a uint64) string {
		s, err := m.ReadCString(a, 1<<16)
		require.NoError(t, err)
		return s
	}
	var d decodedStack
	argc := word(sp)
	p := sp + 8
	for i := uint64(0); i < argc; i++ {
		d.argv = append(d.argv, str(word(p)))
		p += 8
	}
	require.Zero(t, word(p), "argv NULL")
	p += 8
	for ; word(p) != 0; p += 8 {
		d.envp = append(d.envp, str(word(p)))
	}
	p += 8
	for ; ; p += 16 {
		typ, val := word(p), word(p+8)
		if typ == atNull {
			require.Zero(t, val)
			break
		}
		d.auxv = append(d.auxv, [2]uint64{typ, val})
	}
	return d
}

func TestSetupProcessStack(t *testing.T) {
	x := newTK(t, Config{ExePath: "/bin/prog"})
	argv := []string{"prog", "arg one", ""}
	envp := []string{"HOME=/root", "PATH=/bin"}
	img := Image{Entry: 0x10abc, Phdr: 0x10040, Phnum: 9, BrkStart: 0x8a123}
	sp, err := x.k.SetupProcess(img, argv, envp)
	require.NoError(t, err)
	require.Zero(t, sp%16, "sp is 16-byte aligned")
	require.Greater(t, sp, uint64(StackBase))
	r, ok := x.m.RegionAt(StackTop - 1)
	require.True(t, ok)
	require.Equal(t, mem.Region{Start: StackBase, End: StackTop, Perm: mem.RW, Name: "[stack]"}, r)

	d := decodeStack(t, x.m, sp)
	require.Equal(t, argv, d.argv)
	require.Equal(t, envp, d.envp)

	var types []uint64
	vals := map[uint64]uint64{}
	for _, kv := range d.auxv {
		types = append(types, kv[0])
		vals[kv[0]] = kv[1]
	}
	// create_elf_tables order (no ARCH_DLINFO entries: no vDSO)
	require.Equal(t, []uint64{atHwcap, atPagesz, atClktck, atPhdr, atPhent, atPhnum, atBase, atFlags,
		atEntry, atUID, atEUID, atGID, atEGID, atSecure, atRandom, atExecfn}, types)
	want := map[uint64]uint64{
		atHwcap:  0x112d, // I M A F D C
		atPagesz: 4096, atClktck: 100,
		atPhdr: 0x10040, atPhent: 56, atPhnum: 9, atBase: 0, atFlags: 0, atEntry: 0x10abc,
		atUID: uint64(os.Getuid()), atEUID: uint64(os.Geteuid()),
		atGID: uint64(os.Getgid()), atEGID: uint64(os.Getegid()), atSecure: 0,
	}
	for typ, v := range want {
		require.Equal(t, v, vals[typ], "auxv type %d", typ)
	}
	execfn, err := x.m.ReadCString(vals[atExecfn], 100)
	require.NoError(t, err)
	require.Equal(t, "/bin/prog", execfn)

	// Memory above the tables, from the top: 8 zero bytes, execfn, envp and argv strings.
	require.Equal(t, make([]byte, 8), x.peek(StackTop-8, 8))
	strs := "prog\x00arg one\x00\x00HOME=/root\x00PATH=/bin\x00/bin/prog\x00"
	top := uint64(StackTop - 8 - uint64(len(strs)))
	require.Equal(t, strs, string(x.peek(top, uint64(len(strs)))))
	require.Equal(t, vals[atExecfn], StackTop-8-uint64(len("/bin/prog")+1))
	// AT_RANDOM: 16 bytes just below the 16-aligned string area
	rnd := vals[atRandom]
	require.Equal(t, (top&^15)-16, rnd)
	rb := x.peek(rnd, 16)
	require.NotEqual(t, make([]byte, 16), rb)
	// sp is as low as the kernel's STACK_ROUND puts it
	items := uint64(1 + len(argv) + 1 + len(envp) + 1)
	require.Equal(t, (rnd-uint64(len(d.auxv)+1)*16-items*8)&^15, sp)

	// LastWrites covers the strings, AT_RANDOM and the tables
	var covered uint64
	for _, w := range x.k.LastWrites() {
		covered += w.Len
		require.GreaterOrEqual(t, w.Addr, sp)
		require.LessOrEqual(t, w.Addr+w.Len, uint64(StackTop-8))
	}
	require.Equal(t, uint64(len(strs))+16+(items+uint64(len(d.auxv)+1)*2)*8, covered)

	require.Equal(t, uint64(0x8b000), x.k.Brk(), "brk starts page aligned after bss")

	// deterministic: a second process gets identical bytes
	y := newTK(t, Config{ExePath: "/bin/prog"})
	sp2, err := y.k.SetupProcess(img, argv, envp)
	require.NoError(t, err)
	require.Equal(t, sp, sp2)
	require.Equal(t, x.peek(sp, StackTop-sp), y.peek(sp, StackTop-sp))
}

func TestSetupProcessErrors(t *testing.T) {
	x := newTK(t, Config{})
	_, err := x.k.SetupProcess(Image{}, []string{"a\x00b"}, nil)
	require.Error(t, err)
	_, err = x.k.SetupProcess(Image{}, []string{strings.Repeat("x", StackSize/4)}, nil)
	require.ErrorContains(t, err, "too long")

	// without ExePath, AT_EXECFN is argv[0]
	sp, err := x.k.SetupProcess(Image{}, []string{"./p"}, nil)
	require.NoError(t, err)
	d := decodeStack(t, x.m, sp)
	for _, kv := range d.auxv {
		if kv[0] == atExecfn {
			s, _ := x.m.ReadCString(kv[1], 10)
			require.Equal(t, "./p", s)
		}
	}
	require.Empty(t, d.envp)
}
