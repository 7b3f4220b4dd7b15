package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/rvsim/rvsim/mem"
	"github.com/rvsim/rvsim/syscalls"
)

// guestFlags shape what the guest sees: its root and writable
// directories, environment, clock, memory limit, scheduling quantum and
// the dynamic linker's sysroot. run and simpoint take the same ones with
// the same defaults, since a BBV pass must retire the instruction stream
// the sampled run will (the environment alone moves lisp's start-up by
// thousands of instructions).
type guestFlags struct {
	root                    string
	allowWrite, env, unsets listFlag
	hostTime, clearEnv      bool
	epoch                   string
	sysroot, memLimit       string
	quantum                 uint64
}

// register defines the guest's flags.
func (g *guestFlags) register(c *cmdFlags) {
	c.PathFlag(&g.root, "root", "DIR", "the guest's / is DIR (default: the host's /)")
	c.Var(&g.allowWrite, "allow-write", "DIR", "also allow writes under DIR (repeatable; the working\ndirectory always is)")
	c.Bool(&g.hostTime, "host-time", "use the host's clocks (default: time derived from the\ninstruction count)")
	c.NonEmpty(&g.epoch, "epoch", "TIME", "the deterministic clock's date at the first instruction:\n2027-01-01, an RFC 3339 time or @SECONDS (default 2024-01-01;\na build that compares file times wants a date after its files')")
	c.Var(&g.env, "env", "K=V", "set a guest environment variable (repeatable)")
	c.Var(&g.unsets, "unset-env", "K", "remove a guest environment variable (repeatable)")
	c.Bool(&g.clearEnv, "clear-env", "start the guest with an empty environment")
	c.PathFlag(&g.sysroot, "sysroot", "DIR", "where a dynamic program's interpreter and libraries are found\n(default: $QEMU_LD_PREFIX, else /usr/riscv64-linux-gnu)")
	c.NonEmpty(&g.memLimit, "mem-limit", "BYTES", "guest memory limit (K/M/G/T suffixes; default: what the host\ncan give)")
	c.Uint64(&g.quantum, "quantum", "N", syscalls.DefaultQuantum, "a threaded guest's scheduling quantum in retired instructions\n(default 10000, at least 100; docs/LINUX.md)")
}

// guest is what guestFlags make of the run: its kernel's settings (the
// standard streams and warnings left to the command), environment and
// memory limit.
type guest struct {
	kernel   syscalls.Config
	env      []string
	memLimit uint64
}

// guest checks the flags and returns the guest they describe; an error
// is a usage error.
func (g *guestFlags) guest() (guest, error) {
	var out guest
	if g.quantum < syscalls.MinQuantum {
		return out, &usageError{fmt.Sprintf("--quantum %d: want at least %d (a switch breaks an LR/SC pair, so a shorter quantum may never let one complete)", g.quantum, syscalls.MinQuantum)}
	}
	env, err := g.guestEnv()
	if err != nil {
		return out, err
	}
	sysroot := g.sysroot
	if sysroot == "" {
		sysroot = os.Getenv("QEMU_LD_PREFIX") // qemu-user's name for it
	}
	epoch, err := parseEpoch(g.epoch, g.hostTime)
	if err != nil {
		return out, err
	}
	if g.memLimit != "" {
		if out.memLimit, err = mem.ParseSize(g.memLimit); err != nil {
			return out, &usageError{"--mem-limit " + err.Error()}
		}
	}
	out.env = env
	out.kernel = syscalls.Config{Root: g.root, AllowWrite: g.allowWrite, HostTime: g.hostTime, Epoch: epoch, Sysroot: sysroot, Quantum: g.quantum}
	return out, nil
}

// guestEnv builds the guest's environment from the host's, as qemu-user does.
func (g *guestFlags) guestEnv() ([]string, error) {
	var env []string
	if !g.clearEnv {
		env = os.Environ()
	}
	drop := func(key string) {
		out := env[:0]
		for _, kv := range env {
			if k, _, _ := strings.Cut(kv, "="); k != key {
				out = append(out, kv)
			}
		}
		env = out
	}
	for _, k := range g.unsets {
		if k == "" || strings.Contains(k, "=") {
			return nil, &usageError{fmt.Sprintf("--unset-env %q: want a variable name", k)}
		}
		drop(k)
	}
	for _, kv := range g.env {
		k, _, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, &usageError{fmt.Sprintf("--env %q: want KEY=VALUE", kv)}
		}
		drop(k)
		env = append(env, kv)
	}
	return env, nil
}
