package syscalls

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rvsim/rvsim/mem"
)

// BenchmarkOpenDeep opens and closes a file six directories down (a
// lookup, an open and a close per iteration); BenchmarkChmodDeep changes
// its mode (a lookup, the writability check walking up to the writable
// directory, fchmodat2).
func BenchmarkOpenDeep(b *testing.B) {
	k, p := deepKernel(b)
	openat, closeNr := numbers["openat"], numbers["close"]
	b.ResetTimer()
	for range b.N {
		fd := k.Syscall(openat, [6]uint64{fdcwd, p, oRdonly})
		if int64(fd) < 0 {
			b.Fatal(int64(fd))
		}
		k.Syscall(closeNr, [6]uint64{fd})
	}
}

func BenchmarkChmodDeep(b *testing.B) {
	k, p := deepKernel(b)
	chmod := numbers["fchmodat"]
	b.ResetTimer()
	for range b.N {
		if v := int64(k.Syscall(chmod, [6]uint64{fdcwd, p, 0o644})); v != 0 {
			b.Fatal(v)
		}
	}
}

// deepKernel is a kernel whose root holds w/a/b/c/d/e/f (w writable),
// and the guest address of that path.
func deepKernel(b *testing.B) (*Kernel, uint64) {
	root := b.TempDir()
	dir := filepath.Join(root, "w/a/b/c/d/e")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "f"), []byte("deep"), 0o644); err != nil {
		b.Fatal(err)
	}
	m := mem.New()
	if err := m.Map(scratch, scratchSize, mem.RW, "scratch"); err != nil {
		b.Fatal(err)
	}
	if err := m.WriteBytes(scratch, []byte("/w/a/b/c/d/e/f\x00")); err != nil {
		b.Fatal(err)
	}
	k, err := New(m, Config{Root: root, AllowWrite: []string{filepath.Join(root, "w")}})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { k.Close() })
	return k, scratch
}
