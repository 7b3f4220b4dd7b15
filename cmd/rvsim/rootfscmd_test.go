package main

import (
	"os"
	"path/filepath"
	"testing"
)

// rvsim rootfs refuses bad command lines and directories in one line,
// before any download.
func TestRootfsCmd(t *testing.T) {
	foreign := t.TempDir()
	if err := os.WriteFile(filepath.Join(foreign, "x"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	runCmdCases(t, rootfsCmd, true, []cmdCase{
		{desc: "no subcommand", args: nil, status: 2, err: "rootfs: want 'create DIR' or 'check DIR'", usageError: true},
		{desc: "unknown subcommand", args: []string{"make", "d"}, status: 2, err: `rootfs: unknown subcommand "make" (want create or check)`, usageError: true},
		{desc: "no directory", args: []string{"create"}, status: 2, err: "rootfs create: want one directory, got 0 arguments", usageError: true},
		{desc: "a bad package name, flag after DIR", args: []string{"create", t.TempDir(), "--packages", "bzip2,Lua"}, status: 2,
			err: `rootfs: "Lua" is not a Debian package name`},
		{desc: "someone else's directory", args: []string{"create", foreign, "--packages", "bzip2"}, status: 1,
			err: "holds no root rvsim made (no .rvsim-rootfs): remove it or choose another directory"},
		{desc: "check a directory that is no root", args: []string{"check", foreign}, status: 1,
			err: "no .rvsim-rootfs: not a root 'rvsim rootfs create' made"},
	})
}

// --suite FILE: a bad file is refused in one line naming file, line and
// key; a good one runs its workloads.
func TestSuiteFlag(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.toml")
	if err := os.WriteFile(bad, []byte("[[workload]]\nname = \"a\"\nprogram = \"a\"\nargz = []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	want := bad + ":4: workload.argz: unknown key"
	runCmdCases(t, benchmarksCmd, false, []cmdCase{
		{desc: "benchmarks, a bad suite file", args: []string{"--suite", bad}, status: 2, err: want},
		{desc: "benchmarks, a missing suite file", args: []string{"--suite", bad + ".none"}, status: 2, err: bad + ".none: no such file or directory"},
	})
	runCmdCases(t, compareCmd, false, []cmdCase{
		{desc: "compare, a bad suite file", args: []string{"--suite", bad, "--profilers", "call-pair", "--acf-dir", rel("acf")}, status: 2, err: want},
	})
	needBuilt(t, "build/benchmarks/lisp")
	runCmdCases(t, benchmarksCmd, false, []cmdCase{
		{desc: "benchmarks, a SPEC-style suite", args: []string{"--suite", rel("suite/testdata/spec.toml"), "--input", "test"}, status: 0,
			out: "999.lisp_r   test"},
		{desc: "benchmarks, a SPEC-style suite, a failing check", args: []string{"--suite", rel("suite/testdata/spec.toml"), "--input", "wrong"}, status: 1,
			out: "999.lisp_r (wrong): check failed: recursion checksum is not 0", err: "1 of 1 benchmarks failed"},
	})
	needBuilt(t, "build/handlers/rvsim-handlers.elf")
	runCmdCases(t, compareCmd, false, []cmdCase{
		{desc: "compare, a SPEC-style suite", args: []string{"--suite", rel("suite/testdata/spec.toml"), "--profilers", "call-pair",
			"--acf-dir", rel("acf"), "--handlers", rel("build/handlers/rvsim-handlers.elf"), "--out", t.TempDir(), "--jobs", "2"},
			status: 0, out: "999.lisp_r\n"},
	})
}
