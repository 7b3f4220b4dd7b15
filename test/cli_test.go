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
	script := write("script.sh", []byte("echo hi\n"))
	x86 := write("x86", x86ELFHeader())
	x86Script := write("x86-script", []byte("#!"+x86+" -x\n"))
	nonexistent := filepath.Join(tmp, "no-such-program")
	hello := filepath.Join(testprogs, "linux", "hello") // outputs are created once it is loaded
	needFile(t, hello, "make testprogs")

	tests := []struct {
		desc   string
		args   []string
		status int
		stderr string
	}{
		{"missing file", []string{"run", nonexistent}, 2,
			"rvsim: " + nonexistent + ": no such file or directory\n"},
		{"directory as program", []string{"run", tmp}, 126,
			"rvsim: " + tmp + ": is a directory\n"},
		{"truncated ELF header", []string{"run", truncated}, 2,
			"rvsim: " + truncated + ": truncated ELF header (16 bytes, need 64)\n"},
		{"not an ELF file", []string{"run", script}, 2,
			"rvsim: " + script + ": not an ELF file (bad magic)\n"},
		{"a script whose interpreter is not a riscv64 program", []string{"run", x86Script}, 2,
			"rvsim: " + x86Script + ": the interpreter " + x86 + " of its #! line cannot run (" + x86 +
				": not a RISC-V ELF64 executable (e_machine=62)); it comes from the guest's root (--root)\n"},
		{"x86-64 ELF", []string{"run", x86}, 2,
			"rvsim: " + x86 + ": not a RISC-V ELF64 executable (e_machine=62)\n"},
		{"unknown flag", []string{"run", "--bogus", "prog"}, 2,
			"rvsim: flag provided but not defined: --bogus (try 'rvsim run --help')\n"},
		{"flag without value", []string{"run", "--max-insts"}, 2,
			"rvsim: flag needs an argument: --max-insts (try 'rvsim run --help')\n"},
		{"bad flag value", []string{"run", "--max-insts", "lots", "prog"}, 2,
			"rvsim: invalid value \"lots\" for flag --max-insts: parse error (try 'rvsim run --help')\n"},
		{"empty --mem-limit", []string{"run", "--mem-limit", "", "prog"}, 2,
			"rvsim: invalid value \"\" for flag --mem-limit: want a value (try 'rvsim run --help')\n"},
		{"empty --timing-threads", []string{"run", "--mode", "timing", "--timing-threads=", "prog"}, 2,
			"rvsim: invalid value \"\" for flag --timing-threads: want a value (try 'rvsim run --help')\n"},
		{"empty --unset-env", []string{"run", "--unset-env", "", hello}, 2,
			"rvsim: --unset-env \"\": want a variable name\n"},
		{"--unset-env with a value", []string{"run", "--unset-env", "A=1", hello}, 2,
			"rvsim: --unset-env \"A=1\": want a variable name\n"},
		{"bad --epoch", []string{"run", "--epoch", "tomorrow", "prog"}, 2,
			"rvsim: --epoch \"tomorrow\": want a date after 1970 such as 2027-01-01, an RFC 3339 time (2027-01-01T08:00:00Z) or @SECONDS\n"},
		{"--epoch with --host-time", []string{"run", "--epoch", "2027-01-01", "--host-time", "prog"}, 2,
			"rvsim: --epoch sets the deterministic clock: it cannot be combined with --host-time\n"},
		{"no program", []string{"run"}, 2,
			"rvsim: run: missing PROGRAM (try 'rvsim run --help')\n"},
		{"--max-insts 0", []string{"run", "--max-insts", "0", "prog"}, 2,
			"rvsim: --max-insts 0: want at least 1 (leave the flag out for no limit)\n"},
		{"--interval-out in functional mode", []string{"run", "--interval-out", "i.csv", "prog"}, 2,
			"rvsim: --interval-out needs --interval N (and --mode timing)\n"},
		{"--interval-out without --interval", []string{"run", "--mode", "timing", "--interval-out", "i.csv", "prog"}, 2,
			"rvsim: --interval-out needs --interval N (and --mode timing)\n"},
		{"--interval in functional mode", []string{"run", "--interval", "100", "prog"}, 2,
			"rvsim: --config, --preset and --interval need --mode timing\n"},
		{"unknown mode", []string{"run", "--mode", "fast", "prog"}, 2,
			"rvsim: --mode \"fast\": want functional or timing\n"},
		{"--trace a directory", []string{"run", "--trace", tmp, hello}, 2,
			"rvsim: --trace " + tmp + ": is a directory\n"},
		{"--trace in a missing directory", []string{"run", "--trace", "/nonexistent/dir/t.log", hello}, 2,
			"rvsim: --trace /nonexistent/dir/t.log: no such file or directory\n"},
		{"--profile-out without --acf", []string{"run", "--profile-out", "p.json", "prog"}, 2,
			"rvsim: --profile-out needs --acf FILE\n"},
		{"--difftest with --stats", []string{"run", "--difftest", "--stats", "s.json", "prog"}, 2,
			"rvsim: --difftest cannot be combined with --trace, --stats, --mode timing, DISE or profhw flags\n"},
		{"benchmarks --max-insts 0", []string{"benchmarks", "--max-insts", "0"}, 2,
			"rvsim: --max-insts 0: want at least 1 (leave the flag out for no limit)\n"},
		{"acf without files", []string{"acf"}, 2,
			"rvsim: acf: want ACF FILEs to check (try 'rvsim acf --help')\n"},
		{"acf of a missing file", []string{"acf", nonexistent}, 1,
			"rvsim: " + nonexistent + ": no such file or directory\n"},
		{"handlers without a subcommand", []string{"handlers"}, 2,
			"rvsim: handlers: want a subcommand, build or header (try 'rvsim handlers --help')\n"},
		{"handlers build without files", []string{"handlers", "build"}, 2,
			"rvsim: handlers build: want your handlers' source FILE.c (try 'rvsim handlers --help')\n"},
		{"handlers build of a missing file", []string{"handlers", "build", nonexistent + ".c"}, 2,
			"rvsim: " + nonexistent + ".c: no such file or directory\n"},
		{"handlers build of a directory", []string{"handlers", "build", tmp}, 2,
			"rvsim: " + tmp + ": is a directory\n"},
		{"handlers build of a non-source file", []string{"handlers", "build", script}, 2,
			"rvsim: " + script + ": want a C (.c) or assembly (.S, .s) file\n"},
		{"compare with an argument", []string{"compare", "extra"}, 2,
			"rvsim: compare: unexpected argument \"extra\" (try 'rvsim compare --help')\n"},
		{"fuzz with an argument", []string{"fuzz", "extra"}, 2,
			"rvsim: fuzz: unexpected argument \"extra\" (try 'rvsim fuzz --help')\n"},
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

// TestCLIOutputPaths checks that every output of a run is created before
// the guest runs: a bad path is one line naming the flag and the path,
// exit status 2, and the guest never ran (it prints before faulting).
// And a run that --max-insts stops exits 124, not with the guest's status.
func TestCLIOutputPaths(t *testing.T) {
	needErrorPrograms(t)
	handlersELF := filepath.Join(repoRoot, "build", "handlers", "rvsim-handlers.elf")
	needFile(t, handlersELF, "make -C toolchain/handlers")
	rvsim := rvsimBinary(t)
	tmp := t.TempDir()
	prog := filepath.Join(testprogs, "errors", "illegal")
	missingDir := "/nonexistent/dir/x.out"
	nullACF := filepath.Join(tmp, "null.acf")
	require.NoError(t, os.WriteFile(nullACF, []byte("P: T.OPCLASS == call -> R\nR: call(Null_handler); T.INSN\n"), 0o644))
	callPair := filepath.Join(repoRoot, "acf", "call-pair.acf")
	tests := []struct {
		desc   string
		args   []string
		status int
		stdout string
		stderr string
	}{
		{"--stats in a missing directory", []string{"--stats", missingDir}, 2, "",
			"rvsim: --stats " + missingDir + ": no such file or directory\n"},
		{"--stats a directory", []string{"--stats", tmp}, 2, "",
			"rvsim: --stats " + tmp + ": is a directory\n"},
		{"--profile-out in a missing directory", []string{"--acf", callPair, "--handlers", handlersELF, "--profile-out", missingDir}, 2, "",
			"rvsim: --profile-out " + missingDir + ": no such file or directory\n"},
		{"--profile-out with no profile to write", []string{"--acf", nullACF, "--handlers", handlersELF, "--profile-out", filepath.Join(tmp, "p.json")}, 2, "",
			"rvsim: --profile-out: no replacement calls a handler that fills a profile\n"},
		{"--interval-out a directory", []string{"--mode", "timing", "--interval", "1000", "--interval-out", tmp}, 2, "",
			"rvsim: --interval-out " + tmp + ": is a directory\n"},
		{"--cpuprofile in a missing directory", []string{"--cpuprofile", missingDir}, 2, "",
			"rvsim: --cpuprofile " + missingDir + ": no such file or directory\n"},
		{"the guest's own status", nil, 132, "before the illegal instruction\n",
			fmt.Sprintf("rvsim: illegal instruction 0xfe000033 at pc %#x\n", symbolValue(t, prog, "bad_insn"))},
		{"stopped by --max-insts", []string{"--max-insts", "5"}, 124, "",
			"rvsim: instruction limit reached (5 instructions)\n"},
		{"stopped by --max-insts in timing mode", []string{"--max-insts", "5", "--mode", "timing"}, 124, "",
			"rvsim: instruction limit reached (5 instructions)\n"},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			r := runProcess(t, tmp, nil, rvsim, append(append([]string{"run"}, tc.args...), prog)...)
			assert.Equal(t, tc.status, r.Status)
			assert.Equal(t, tc.stdout, r.Stdout, "the guest ran only if every output could be written")
			assert.Equal(t, tc.stderr, r.Stderr)
		})
	}
	// A command that fails before the run leaves no output files behind.
	trace := filepath.Join(tmp, "t.log")
	r0 := runProcess(t, tmp, nil, rvsim, "run", "--trace", trace, "--stats", missingDir, prog)
	assert.Equal(t, 2, r0.Status)
	assert.NoFileExists(t, trace)
	// A good --stats still gets written for a stopped run.
	stats := filepath.Join(tmp, "s.json")
	r := runProcess(t, tmp, nil, rvsim, "run", "--max-insts", "5", "--stats", stats, prog)
	assert.Equal(t, 124, r.Status)
	data, err := os.ReadFile(stats)
	require.NoError(t, err)
	assert.Contains(t, string(data), `"instructions": 5,`)
}

// Every command's --help prints its usage and flags on stdout, exit 0.
func TestCLIHelp(t *testing.T) {
	rvsim := rvsimBinary(t)
	for _, tc := range []struct {
		args  []string
		usage string
		flags []string
	}{
		{[]string{"run", "--help"}, "rvsim run [flags] PROGRAM [ARGS...]", []string{"--max-insts N", "--stats FILE", "--acf FILE", "--profile-out FILE"}},
		{[]string{"run", "-h"}, "rvsim run [flags] PROGRAM [ARGS...]", []string{"--trace FILE"}},
		{[]string{"help", "run"}, "rvsim run [flags] PROGRAM [ARGS...]", []string{"--trace FILE"}},
		{[]string{"benchmarks", "--help"}, "rvsim benchmarks [flags] [NAMES...]", []string{"--input NAME", "--jobs N", "--qemu"}},
		{[]string{"compare", "--help"}, "rvsim compare [--profilers LIST] [--benchmarks LIST|all] [flags]", []string{"--profilers LIST", "--trigger T"}},
		{[]string{"acf", "--help"}, "rvsim acf [flags] FILE...", []string{"--handlers ELF", "--dise KEY=VALUE"}},
		{[]string{"handlers", "--help"}, "rvsim handlers build [flags] FILE.c... [-o OUT.elf]", []string{"-o OUT.elf", "--cflag FLAG"}},
		{[]string{"handlers", "build", "--help"}, "rvsim handlers build [flags] FILE.c... [-o OUT.elf]", []string{"-o OUT.elf"}},
		{[]string{"fuzz", "--help"}, "rvsim fuzz [--seed N] [--count K] [--length L] [--jobs J]", []string{"--seed N", "--count K"}},
		{[]string{"config", "--help"}, "rvsim config list", nil},
		{[]string{"config", "show", "--help"}, "rvsim config list", []string{"rvsim config show [PRESET]"}},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			r := runProcess(t, "", nil, rvsim, tc.args...)
			assert.Equal(t, 0, r.Status)
			assert.Empty(t, r.Stderr)
			assert.True(t, strings.HasPrefix(r.Stdout, "Usage:\n  "+tc.usage), r.Stdout)
			for _, f := range tc.flags {
				assert.Contains(t, r.Stdout, "\n  "+f+" ")
			}
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
	for _, p := range []string{"illegal", "vector", "segv", "abort", "sandbox"} {
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
		{"an extension rvsim lacks", "vector", 132, "before the vector instruction\n",
			"rvsim: illegal instruction 0x022180d7 at pc %#x: an instruction of V (vectors), which rvsim does not implement\n", "vec_insn"},
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
