package test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestMapSharedMatchesQemu: test/programs/linux/mapshared writes a file
// through a writable MAP_SHARED mapping and reads it back with read(),
// after msync and munmap, and through a second mapping; then it checks
// that read(), write(), pwrite(), copy_file_range() and ftruncate() of a
// file mapped shared see and are seen by the mappings at once (a forked
// child's write too), and that a new mapping of another part of the file
// (or one grown by mremap) shows the file: qemu-riscv64's output, static
// and dynamic.
func TestMapSharedMatchesQemu(t *testing.T) {
	rvsim := rvsimBinary(t)
	qemu := needQemu(t)
	sysroot := needSysroot(t)
	for _, variant := range []string{"linux", "linux-dyn"} {
		prog := linuxProg(t, variant, "mapshared")
		rd, qd := t.TempDir(), t.TempDir()
		r := runProcess(t, rd, nil, rvsim, "run", prog, "m.dat")
		q := runProcess(t, qd, nil, qemu, "-L", sysroot, prog, "m.dat")
		assert.Equal(t, q, r, variant)
		assert.Equal(t, 0, r.Status, variant)
		assert.Equal(t, 18, strings.Count(r.Stdout, "ok  "), variant)
		assert.Empty(t, failLines(r.Stdout), variant)
	}
}
