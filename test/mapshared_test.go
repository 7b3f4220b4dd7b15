package test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestMapSharedMatchesQemu: test/programs/linux/mapshared writes a file
// through a writable MAP_SHARED mapping and reads it back with read(),
// after msync and munmap, and through a second mapping: qemu-riscv64's
// output (it failed with ENODEV before), static and dynamic.
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
		assert.Equal(t, 4, strings.Count(r.Stdout, "ok  "), variant)
		assert.Empty(t, failLines(r.Stdout), variant)
	}
}
