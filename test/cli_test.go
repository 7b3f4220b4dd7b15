package test

import (
	"debug/elf"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// symbolValue returns the address of a symbol in an ELF file.
func symbolValue(t *testing.T, path, name string) uint64 {
	t.Helper()
	f, err := elf.Open(path)
	require.NoError(t, err)
	defer f.Close()
	syms, err := f.Symbols()
	require.NoError(t, err)
	for _, s := range syms {
		if s.Name == name {
			return s.Value
		}
	}
	t.Fatalf("%s has no symbol %s", path, name)
	return 0
}

// x86ELFHeader is a well-formed ELF64 header for an x86-64 executable.
func x86ELFHeader() []byte {
	h := make([]byte, 64)
	copy(h, "\x7fELF")
	h[elf.EI_CLASS], h[elf.EI_DATA], h[elf.EI_VERSION] = byte(elf.ELFCLASS64), byte(elf.ELFDATA2LSB), 1
	le := binary.LittleEndian
	le.PutUint16(h[16:], uint16(elf.ET_EXEC))
	le.PutUint16(h[18:], uint16(elf.EM_X86_64))
	le.PutUint32(h[20:], 1)
	le.PutUint64(h[24:], 0x401000) // entry
	le.PutUint16(h[52:], 64)       // ehsize
	le.PutUint16(h[54:], 56)       // phentsize
	return h
}

// TestCLIErrors checks the command line's error paths: the exact message,
// that it is one line on stderr, and the exit status.
func TestCLIErrors(t *testing.T) {
	rvsim := rvsimBinary(t)
	tmp := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(tmp, name)
		require.NoError(t, os.WriteFile(p, data, 0o755))
		return p
	}
	truncated := write("truncated", []byte("\x7fELF\x02\x01\x01\x00padding!"))
	script := write("script.sh", []byte("#!/bin/sh\necho hi\n"))
	x86 := write("x86", x86ELFHeader())
	nonexistent := filepath.Join(tmp, "no-such-program")

	tests := []struct {
		desc   string
		args   []string
		status int
		stderr string
	}{
		{"missing file", []string{"run", nonexistent}, 2,
			"rvsim: " + nonexistent + ": no such file or directory\n"},
		{"directory as program", []string{"run", tmp}, 2,
			"rvsim: " + tmp + ": is a directory\n"},
		{"truncated ELF header", []string{"run", truncated}, 2,
			"rvsim: " + truncated + ": truncated ELF header (16 bytes, need 64)\n"},
		{"not an ELF file", []string{"run", script}, 2,
			"rvsim: " + script + ": not an ELF file (bad magic)\n"},
		{"x86-64 ELF", []string{"run", x86}, 2,
			"rvsim: " + x86 + ": not a RISC-V ELF64 executable (e_machine=62)\n"},
		{"unknown flag", []string{"run", "--bogus", "prog"}, 2,
			"rvsim: flag provided but not defined: -bogus (try 'rvsim help')\n"},
		{"flag without value", []string{"run", "--max-insts"}, 2,
			"rvsim: flag needs an argument: -max-insts (try 'rvsim help')\n"},
		{"bad flag value", []string{"run", "--max-insts", "lots", "prog"}, 2,
			"rvsim: invalid value \"lots\" for flag -max-insts: parse error (try 'rvsim help')\n"},
		{"no program", []string{"run"}, 2,
			"rvsim: run: missing PROGRAM (try 'rvsim help')\n"},
		{"unknown command", []string{"frobnicate"}, 2,
			"rvsim: unknown command \"frobnicate\" (try 'rvsim help')\n"},
		{"bad --env", []string{"run", "--env", "NOEQUALS", "prog"}, 2,
			"rvsim: --env \"NOEQUALS\": want KEY=VALUE\n"},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			r := runProcess(t, tmp, nil, rvsim, tc.args...)
			assert.Equal(t, tc.status, r.Status)
			assert.Equal(t, tc.stderr, r.Stderr)
			assert.Empty(t, r.Stdout)
		})
	}
}

// TestCLIHostBinary runs the host's own /bin/true, which is an ELF for
// another machine (unless the host is RISC-V).
func TestCLIHostBinary(t *testing.T) {
	const host = "/bin/true"
	f, err := elf.Open(host)
	if err != nil {
		t.Skipf("%s is not an ELF file here: %v", host, err)
	}
	machine, class := f.Machine, f.Class
	f.Close()
	if machine == elf.EM_RISCV || class != elf.ELFCLASS64 || f.Data != elf.ELFDATA2LSB {
		t.Skipf("%s is %v %v %v", host, class, f.Data, machine)
	}
	r := runProcess(t, "", nil, rvsimBinary(t), "run", host)
	assert.Equal(t, 2, r.Status)
	assert.Equal(t, fmt.Sprintf("rvsim: %s: not a RISC-V ELF64 executable (e_machine=%d)\n", host, uint16(machine)), r.Stderr)
}

// needErrorPrograms checks that the programs of test/programs/errors are
// built.
func needErrorPrograms(t *testing.T) {
	t.Helper()
	for _, p := range []string{"illegal", "segv", "abort", "sandbox"} {
		needFile(t, filepath.Join(testprogs, "errors", p), "make testprogs")
	}
}

// TestCLIGuestFaults runs guest programs that die of a signal: the exit
// status is 128+signal as under a shell, and rvsim says what happened in
// one line after the guest's own output.
func TestCLIGuestFaults(t *testing.T) {
	dir := filepath.Join(testprogs, "errors")
	needErrorPrograms(t)
	rvsim := rvsimBinary(t)
	tests := []struct {
		desc, prog     string
		status         int
		stdout, stderr string
		pcSymbol       string // if set, stderr is formatted with its address
	}{
		{"illegal instruction", "illegal", 132, "before the illegal instruction\n",
			"rvsim: illegal instruction 0xfe000033 at pc %#x\n", "bad_insn"},
		{"segmentation fault", "segv", 139, "before the bad store\n",
			"rvsim: segmentation fault: store to address 0x10 at pc %#x\n", "segv_store"},
		{"abort", "abort", 134, "about to abort\n", "rvsim: Aborted\n", ""},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			prog := filepath.Join(dir, tc.prog)
			want := tc.stderr
			if tc.pcSymbol != "" {
				want = fmt.Sprintf(tc.stderr, symbolValue(t, prog, tc.pcSymbol))
			}
			r := runProcess(t, "", nil, rvsim, "run", prog)
			assert.Equal(t, tc.status, r.Status)
			assert.Equal(t, tc.stdout, r.Stdout)
			assert.Equal(t, want, r.Stderr)
		})
	}
}

// TestCLIGuestFaultsMatchQemu checks that the exit statuses above are what
// qemu-riscv64 gives for the same programs.
func TestCLIGuestFaultsMatchQemu(t *testing.T) {
	needErrorPrograms(t)
	qemu := needQemu(t)
	rvsim := rvsimBinary(t)
	for _, prog := range []string{"illegal", "segv", "abort"} {
		t.Run(prog, func(t *testing.T) {
			path := filepath.Join(testprogs, "errors", prog)
			q := runProcess(t, "", []string{}, qemu, path)
			r := runProcess(t, "", []string{}, rvsim, "run", path)
			assert.Equal(t, q.Status, r.Status)
			assert.Equal(t, q.Stdout, r.Stdout)
		})
	}
}

// TestCLISandbox runs a guest that tries to leave --root (through "..",
// absolute paths and symbolic links) and to write outside its working
// directory and the --allow-write directory. What the guest sees, the
// warnings and the host file system afterwards are all checked.
func TestCLISandbox(t *testing.T) {
	prog := filepath.Join(testprogs, "errors", "sandbox")
	needFile(t, prog, "make testprogs")
	rvsim := rvsimBinary(t)

	tmp := t.TempDir()
	secret := filepath.Join(tmp, "secret.txt") // outside the root
	root := filepath.Join(tmp, "root")
	work := filepath.Join(root, "work")
	shared := filepath.Join(root, "shared")
	for _, d := range []string{work, shared} {
		require.NoError(t, os.MkdirAll(d, 0o755))
	}
	require.NoError(t, os.WriteFile(secret, []byte("host secret\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(root, "secret.txt"), []byte("decoy in root\n"), 0o644))
	require.NoError(t, os.Symlink(secret, filepath.Join(root, "link-abs")))                        // absolute host path
	require.NoError(t, os.Symlink("../../../../../../secret.txt", filepath.Join(root, "link-up"))) // climbs past the root
	require.NoError(t, os.Symlink("../../secret.txt", filepath.Join(work, "link-out")))

	ops := []struct{ arg, want string }{
		{"r:../../../../secret.txt", `"decoy in root"`}, // ".." stops at the root
		{"r:/../secret.txt", `"decoy in root"`},
		{"r:" + secret, "ENOENT"}, // the host path means nothing inside the root
		{"r:/link-abs", "ENOENT"}, // an absolute target starts at the guest root
		{"r:/link-up", `"decoy in root"`},
		{"r:link-out", `"decoy in root"`},
		{"r:/proc/self/root/../secret.txt", "ENOENT"},
		{"w:out.txt", "ok"}, // the working directory is writable
		{"w:/shared/ok.txt", "ok"},
		{"w:/outside.txt", "EACCES"},
		{"w:../escape.txt", "EACCES"},
		{"mkdir:/newdir", "EACCES"},
		{"unlink:/secret.txt", "EACCES"},
		{"w:/link-up", "EACCES"}, // the same file through a link: no second warning
		{"symlink:/work/out.txt:/link-new", "EACCES"},
	}
	var args, want []string
	for _, op := range ops {
		args = append(args, op.arg)
		verb, path, _ := strings.Cut(op.arg, ":")
		if verb == "symlink" {
			_, path, _ = strings.Cut(path, ":")
		}
		want = append(want, fmt.Sprintf("%s %s: %s", verb, path, op.want))
	}
	cmdArgs := append([]string{"run", "--root", root, "--allow-write", shared, prog}, args...)
	r := runProcess(t, work, nil, rvsim, cmdArgs...)
	require.Equal(t, 0, r.Status, r.Stderr)
	assert.Equal(t, strings.Join(want, "\n")+"\n", r.Stdout)
	assert.Equal(t, ""+
		"rvsim: sandbox: refused write access to /outside.txt\n"+
		"rvsim: sandbox: refused write access to /escape.txt\n"+
		"rvsim: sandbox: refused write access to /newdir\n"+
		"rvsim: sandbox: refused write access to /secret.txt\n"+
		"rvsim: sandbox: refused write access to /link-new\n", r.Stderr)

	// The host side: only the allowed files were written.
	data, err := os.ReadFile(secret)
	require.NoError(t, err)
	assert.Equal(t, "host secret\n", string(data))
	data, err = os.ReadFile(filepath.Join(root, "secret.txt"))
	require.NoError(t, err)
	assert.Equal(t, "decoy in root\n", string(data))
	data, err = os.ReadFile(filepath.Join(work, "out.txt"))
	require.NoError(t, err)
	assert.Equal(t, "x", string(data))
	assert.FileExists(t, filepath.Join(shared, "ok.txt"))
	for _, p := range []string{"outside.txt", "escape.txt", "newdir", "link-new"} {
		_, err := os.Lstat(filepath.Join(root, p))
		assert.True(t, os.IsNotExist(err), "%s was created", p)
	}
	_, err = os.Lstat(filepath.Join(tmp, "escape.txt"))
	assert.True(t, os.IsNotExist(err))
}
