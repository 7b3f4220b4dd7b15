package syscalls

import (
	"io"
	"testing"

	"github.com/rvsim/rvsim/mem"
)

// FuzzSyscall calls arbitrary system calls with arbitrary arguments (some
// turned into pointers into a scratch area holding blob) and asserts that
// the kernel never panics. The guest root and the host cwd are a temporary
// directory, so whatever the guest creates stays there.
func FuzzSyscall(f *testing.F) {
	f.Add(uint16(56), uint8(2), uint64(fdcwd), uint64(0), uint64(oRdonly), uint64(0), uint64(0), uint64(0), []byte("/etc/passwd\x00"))
	f.Add(uint16(56), uint8(2), uint64(fdcwd), uint64(0), uint64(oCreat|oWronly), uint64(0o644), uint64(0), uint64(0), []byte("../../x\x00"))
	f.Add(uint16(222), uint8(0), uint64(0), uint64(8192), uint64(3), uint64(0x22), uint64(1<<64-1), uint64(0), []byte{})
	f.Add(uint16(216), uint8(0), uint64(MmapTop-4096), uint64(4096), uint64(1<<20), uint64(1), uint64(0), uint64(0), []byte{})
	f.Add(uint16(98), uint8(1), uint64(0), uint64(futexWakeOp), uint64(1), uint64(0), uint64(8), uint64(0xffffffff), []byte{1, 2, 3, 4, 5, 6, 7, 8})
	f.Add(uint16(134), uint8(6), uint64(6), uint64(0), uint64(64), uint64(8), uint64(0), uint64(0), make([]byte, 96))
	f.Add(uint16(66), uint8(2), uint64(1), uint64(0), uint64(2), uint64(0), uint64(0), uint64(0), []byte{16, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 'h', 'e', 'l', 'l', 'o'})
	f.Add(uint16(61), uint8(2), uint64(3), uint64(0), uint64(100), uint64(0), uint64(0), uint64(0), []byte{})
	f.Add(uint16(276), uint8(10), uint64(fdcwd), uint64(0), uint64(fdcwd), uint64(4), uint64(1), uint64(0), []byte("a\x00b\x00"))
	f.Add(uint16(59), uint8(1), uint64(0), uint64(0), uint64(0), uint64(0), uint64(0), uint64(0), []byte{})
	f.Add(uint16(73), uint8(5), uint64(0), uint64(2), uint64(16), uint64(24), uint64(8), uint64(0), []byte{3, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 4, 0})
	f.Add(uint16(72), uint8(0x3e), uint64(64), uint64(0), uint64(8), uint64(16), uint64(24), uint64(32), make([]byte, 48))
	f.Add(uint16(180), uint8(9), uint64(0), uint64(oCreat|oRdwr), uint64(0o600), uint64(8), uint64(0), uint64(0), []byte("q\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\x00\x00\x00\x00\x00\x00\x10"))
	f.Add(uint16(88), uint8(6), uint64(fdcwd), uint64(0), uint64(8), uint64(0), uint64(0), uint64(0), []byte("f\x00"))
	f.Add(uint16(103), uint8(2), uint64(0), uint64(0), uint64(0), uint64(0), uint64(0), uint64(0), []byte{0, 0, 0, 0, 0, 0, 0, 0, 1})
	root := f.TempDir()
	f.Chdir(root)
	f.Fuzz(func(t *testing.T, num uint16, ptrs uint8, a0, a1, a2, a3, a4, a5 uint64, blob []byte) {
		m := mem.New()
		if err := m.Map(scratch, scratchSize, mem.RW, "scratch"); err != nil {
			t.Fatal(err)
		}
		if len(blob) > scratchSize {
			blob = blob[:scratchSize]
		}
		if err := m.WriteBytes(scratch, blob); err != nil {
			t.Fatal(err)
		}
		k, err := New(m, Config{Root: root, Stdout: io.Discard, Stderr: io.Discard, AllowWrite: []string{root}})
		if err != nil {
			t.Fatal(err)
		}
		defer k.Close()
		if _, err := k.SetupProcess(Image{BrkStart: 0x100000}, []string{"p"}, nil); err != nil {
			t.Fatal(err)
		}
		// a directory and a file to work on
		k.Syscall(nr(t, "openat"), [6]uint64{fdcwd, k.strArg(m, "/"), oRdonly | oDirectory})
		args := [6]uint64{a0, a1, a2, a3, a4, a5}
		for i := range args {
			if ptrs&(1<<i) != 0 {
				args[i] = scratch + args[i]%scratchSize
			}
		}
		k.Syscall(uint64(num)%470, args)
		k.LastWrites()
		k.Exited()
		k.FatalSignal()
	})
}

// strArg places s at the top of the scratch area and returns its address.
func (k *Kernel) strArg(m *mem.Memory, s string) uint64 {
	a := uint64(scratch + scratchSize - 256)
	m.WriteBytes(a, append([]byte(s), 0))
	return a
}

// FuzzSignals delivers arbitrary signals, traps and timer expiries with
// arbitrary registers and stack contents, then returns through
// rt_sigreturn from whatever the stack holds: the kernel must never panic,
// and every register change must leave a consistent state.
func FuzzSignals(f *testing.F) {
	f.Add(uint8(11), uint64(4), uint64(0), uint64(0x7f000), uint8(5), uint64(0x10), []byte{})
	f.Add(uint8(14), uint64(0x08000004), uint64(1<<13), uint64(0x7ff00), uint8(2), uint64(0), []byte{1, 2, 3})
	f.Add(uint8(10), uint64(0x80000000), uint64(0), uint64(0x80000), uint8(0), uint64(0), make([]byte, 1100))
	f.Fuzz(func(t *testing.T, sig uint8, flags, mask, sp uint64, cause uint8, tval uint64, stack []byte) {
		m := mem.New()
		if err := m.Map(scratch, scratchSize, mem.RW, "scratch"); err != nil {
			t.Fatal(err)
		}
		const top = scratch + scratchSize
		if len(stack) > 4096 {
			stack = stack[:4096]
		}
		m.WriteBytes(top-uint64(len(stack)), stack)
		k, err := New(m, Config{Stdout: io.Discard, Stderr: io.Discard})
		if err != nil {
			t.Fatal(err)
		}
		defer k.Close()
		s := int(sig%nsig) + 1
		act := uint64(scratch + 64)
		b := make([]byte, 24)
		put64(b, 0, 0x4000)
		put64(b, 8, flags)
		put64(b, 16, mask)
		m.WriteBytes(act, b)
		k.Syscall(nr(t, "rt_sigaction"), [6]uint64{uint64(s), act, 0, 8})
		var r UserRegs
		r.X[2] = scratch + sp%(scratchSize+0x1000)
		r.PC = 0x1000
		k.Trap(&r, Trap{PC: r.PC, Cause: uint64(cause % 16), Tval: tval})
		r.X[17] = nr(t, "kill")
		r.X[10], r.X[11] = fixedPID, uint64(s)
		k.Ecall(&r)
		it := uint64(scratch + 128)
		m.WriteBytes(it, make([]byte, 32))
		m.WriteBytes(it+24, []byte{1})
		k.Syscall(nr(t, "setitimer"), [6]uint64{uint64(cause % 3), it, 0})
		if at, ok := k.NextTimer(); ok {
			k.Interrupt(&r, at)
		}
		for i := 0; i < 3; i++ {
			r.X[17] = nr(t, "rt_sigreturn")
			k.Ecall(&r)
		}
		k.Exited()
	})
}
