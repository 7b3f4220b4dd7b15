package main

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/rvsim/rvsim/rootfs"
	"github.com/rvsim/rvsim/sim"
	"github.com/rvsim/rvsim/syscalls"
)

const rootfsUsage = `rvsim rootfs create DIR [--packages LIST] [--release NAME] [--mirror URL]
rvsim rootfs check DIR`

const rootfsAbout = `create builds a riscv64 root file system of Debian packages in DIR, their
dependencies resolved, for 'rvsim run --root DIR DIR/usr/bin/PROGRAM'. It uses
mmdebstrap (--variant=extract: packages are unpacked, no maintainer script
runs; what programs rely on from those scripts is done instead: accounts,
the alternatives' links, /etc/ssl/certs, and, by the root's own programs
run in the simulator, ld.so.cache and Python's byte code), downloads from the Debian mirror the host's apt uses, and verifies
the archive's signatures with Debian's keyring. The host's apt sources
and keyrings are not changed. DIR must be new, empty, or a root this
command made: the same packages again reuse it, others rebuild it.
check verifies that a root runs what it holds (its dynamic linker resolves)
and prints what it was made of.`

// rootfsCmd implements `rvsim rootfs`.
func rootfsCmd(args []string, stdout, stderr io.Writer) (int, error) {
	var packages, release, mirror string
	var verbose bool
	c := newFlags("rootfs", rootfsUsage, rootfsAbout, stdout)
	c.String(&packages, "packages", "LIST", strings.Join(rootfs.DefaultPackages, ","),
		"comma-separated Debian package names (default: the real suite's programs:\n"+strings.Join(rootfs.DefaultPackages, ",")+")")
	c.String(&release, "release", "NAME", rootfs.DefaultRelease, "Debian release (default "+rootfs.DefaultRelease+", the first with riscv64)")
	c.String(&mirror, "mirror", "URL", "", "Debian mirror (default: the one in the host's /etc/apt/sources.list*, else "+rootfs.DefaultMirror+")")
	c.Bool(&verbose, "verbose", "show mmdebstrap's own output as it runs")
	// Flags may come before or after the subcommand and DIR, as the
	// usage shows them.
	var pos []string
	for {
		if err := c.parse(args); err != nil {
			return 2, err
		}
		if len(c.Args()) == 0 {
			break
		}
		pos, args = append(pos, c.Args()[0]), c.Args()[1:]
	}
	if len(pos) == 0 {
		return 2, c.usagef("rootfs: want 'create DIR' or 'check DIR'")
	}
	sub, rest := pos[0], pos[1:]
	if len(rest) != 1 {
		return 2, c.usagef("rootfs %s: want one directory, got %d arguments", sub, len(rest))
	}
	dir := rest[0]
	switch sub {
	case "create":
		pkgs, err := rootfs.ParsePackages(packages)
		if err != nil {
			return 2, err
		}
		opt := rootfs.Options{Release: release, Packages: pkgs, Mirror: mirror, Run: runInRoot}
		if verbose {
			opt.Log = stderr
		}
		res, err := rootfs.Create(dir, opt)
		if err != nil {
			return 1, err
		}
		what := "created"
		if res.Reused {
			what = "reused"
		}
		fmt.Fprintf(stdout, "%s %s: Debian %s %s from %s, %d packages, %.0f MB, %.1f s\n", what, dir,
			res.Stamp.Release, res.Stamp.Arch, res.Stamp.Mirror, res.Packages, float64(res.Bytes)/1e6, res.Elapsed.Seconds())
		return 0, nil
	case "check":
		s, err := rootfs.ReadStamp(dir)
		if err != nil {
			return 1, fmt.Errorf("rootfs: %s: no %s: not a root 'rvsim rootfs create' made", dir, rootfs.StampFile)
		}
		if err := rootfs.Check(dir); err != nil {
			return 1, err
		}
		fmt.Fprintf(stdout, "%s: Debian %s %s from %s: %s; %s resolves\n", dir, s.Release, s.Arch, s.Mirror,
			strings.Join(s.Packages, ","), rootfs.Interp)
		return 0, nil
	default:
		return 2, c.usagef("rootfs: unknown subcommand %q (want create or check)", sub)
	}
}

// runInRoot runs a program of a root in the simulator with the root as
// its "/", allowed to write in it, with an environment of its own: the
// maintainer programs rootfs create runs (ldconfig, Python's
// byte-compilation).
func runInRoot(root string, argv []string) (int, string, error) {
	var out bytes.Buffer
	mc, err := sim.Load(sim.Config{Program: filepath.Join(root, argv[0]), Args: argv[1:], Argv0: argv[0],
		Env: []string{"PATH=/usr/sbin:/usr/bin:/sbin:/bin", "LC_ALL=C.UTF-8"},
		Kernel: syscalls.Config{Root: root, Cwd: "/", AllowWrite: []string{root},
			Stdin: strings.NewReader(""), Stdout: &out, Stderr: &out, Warn: &out}})
	if err != nil {
		return 0, "", err
	}
	res := mc.Run()
	mc.Kernel.Close()
	if res.Stop != sim.StopExit {
		return res.ExitCode, out.String(), fmt.Errorf("%s: %s", argv[0], res.Message)
	}
	return res.ExitCode, out.String(), nil
}
