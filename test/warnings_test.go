package test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGetpwuidQuietAsQemu: getpwuid(getuid()) makes glibc probe the nscd
// socket (socket(AF_UNIX), connect to /var/run/nscd/socket); the probe
// gets Linux's answer without nscd (ENOENT) without a warning, so the
// program's stdout, stderr and status are qemu-riscv64's, static and
// dynamic.
func TestGetpwuidQuietAsQemu(t *testing.T) {
	rvsim := rvsimBinary(t)
	qemu := needQemu(t)
	sysroot := needSysroot(t)
	for _, variant := range []string{"linux", "linux-dyn"} {
		prog := linuxProg(t, variant, "getpw")
		r := runProcess(t, "", nil, rvsim, "run", prog)
		q := runProcess(t, "", nil, qemu, "-L", sysroot, prog)
		assert.Equal(t, q, r, variant)
		assert.Equal(t, 0, r.Status, variant)
		assert.Empty(t, r.Stderr, variant)
	}
}

// TestWarningsFlag: --warnings sends the simulator's warnings about the
// guest to stderr (the default), a file, or nowhere; the file is an
// output like any other (it cannot be an input or another output).
func TestWarningsFlag(t *testing.T) {
	rvsim := rvsimBinary(t)
	prog := linuxProg(t, "linux", "getpw")
	dir := t.TempDir()
	const warning = "rvsim: warning: syscall 198 (socket) returns EAFNOSUPPORT for address family 17: only AF_INET and AF_INET6 on the loopback, AF_UNIX and AF_NETLINK (NETLINK_ROUTE) are supported (no network)\n"
	out := runProcess(t, "", nil, rvsim, "run", prog).Stdout
	require.Contains(t, out, "uid ")
	packet := out + "packet socket fails\n"

	for _, tc := range []struct {
		desc   string
		args   []string
		stderr string
	}{
		{"default", nil, warning},
		{"stderr", []string{"--warnings=stderr"}, warning},
		{"off", []string{"--warnings=off"}, ""},
		{"file", []string{"--warnings", filepath.Join(dir, "w.txt")}, ""},
	} {
		r := runProcess(t, "", nil, rvsim, append(append([]string{"run"}, tc.args...), prog, "packet")...)
		assert.Equal(t, 0, r.Status, tc.desc)
		assert.Equal(t, packet, r.Stdout, tc.desc)
		assert.Equal(t, tc.stderr, r.Stderr, tc.desc)
	}
	b, err := os.ReadFile(filepath.Join(dir, "w.txt"))
	require.NoError(t, err)
	assert.Equal(t, warning, string(b))

	// The file is an output: not the program, not --stats' file.
	r := runProcess(t, "", nil, rvsim, "run", "--warnings", prog, prog)
	assert.Equal(t, 2, r.Status)
	assert.Equal(t, "rvsim: --warnings "+prog+": the same file as the program "+prog+" (an output cannot overwrite an input)\n", r.Stderr)
	stats := filepath.Join(dir, "s.json")
	r = runProcess(t, "", nil, rvsim, "run", "--stats", stats, "--warnings", stats, prog)
	assert.Equal(t, 2, r.Status)
	assert.Contains(t, r.Stderr, "--warnings")
	r = runProcess(t, "", nil, rvsim, "run", "--warnings=", prog)
	assert.Equal(t, 2, r.Status)
	assert.Contains(t, r.Stderr, "--warnings")
	// Under --difftest too.
	r = runProcess(t, "", nil, rvsim, "run", "--difftest", "--warnings=off", prog, "packet")
	assert.Equal(t, 0, r.Status, r.Stderr)
	assert.Equal(t, packet, r.Stdout)
	assert.NotContains(t, r.Stderr, "warning")
}
