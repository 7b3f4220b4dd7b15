package test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCsmithAgainstQemu runs random C programs, written by Csmith from
// fixed seeds and built by the GNU cross compiler at several optimisation
// levels (one build for the bit-manipulation extensions), on qemu-riscv64
// and on rvsim: the checksum each prints and its exit status must be
// qemu-riscv64's, translated, interpreted and in timing mode, and the
// instruction count the same in every mode; the -O2 builds also run
// under --difftest. Compiled code of this kind (wide expressions over
// every integer width, bit-fields, packed structs, volatile accesses) is
// what the hand-written tests do not reach. bench/csmith.sh is the long
// campaign over many seeds.
func TestCsmithAgainstQemu(t *testing.T) {
	csmith, include := needCsmith(t)
	gcc := needCrossGCC(t)
	qemu := needQemu(t)
	rvsim := rvsimBinary(t)
	dir := t.TempDir()

	type build struct{ name, path string }
	var (
		mu     sync.Mutex
		builds []build
		wg     sync.WaitGroup
		errs   = make(chan error, 64)
	)
	for _, seed := range csmithSeeds {
		src := filepath.Join(dir, fmt.Sprintf("p%d.c", seed))
		out, err := exec.Command(csmith, append(csmithFlags(seed), "-o", src)...).CombinedOutput()
		require.NoError(t, err, "csmith --seed %d: %s", seed, out)
		for _, opt := range csmithOpts {
			name := fmt.Sprintf("seed%d%s", seed, strings.ReplaceAll(opt, " ", "_"))
			bin := filepath.Join(dir, name)
			wg.Add(1)
			go func() {
				defer wg.Done()
				args := append(strings.Fields(opt), "-static", "-w", "-I"+include, "-o", bin, src)
				if out, err := exec.Command(gcc, args...).CombinedOutput(); err != nil {
					errs <- fmt.Errorf("%s %s: %v\n%s", gcc, strings.Join(args, " "), err, out)
					return
				}
				mu.Lock()
				builds = append(builds, build{name, bin})
				mu.Unlock()
			}()
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	require.Len(t, builds, len(csmithSeeds)*len(csmithOpts))

	for _, b := range builds {
		t.Run(b.name, func(t *testing.T) {
			q := runWithin(t, 20*time.Second, qemu, b.path)
			require.Contains(t, q.Stdout, "checksum = ", "qemu-riscv64's run: %s", q.Stderr)
			r, n := runCounted(t, rvsim, b.path)
			assert.Equal(t, q.Status, r.Status, r.Stderr)
			assert.Equal(t, q.Stdout, r.Stdout)
			assert.Empty(t, r.Stderr)
			modes := [][]string{{"--jit", "off"}, {"--mode", "timing"}}
			for _, flags := range modes {
				rf, nf := runCounted(t, rvsim, append(flags, b.path)...)
				assert.Equal(t, q.Status, rf.Status, "%v: %s", flags, rf.Stderr)
				assert.Equal(t, q.Stdout, rf.Stdout, "%v", flags)
				assert.Equal(t, n, nf, "instruction count with %v", flags)
			}
			if strings.HasSuffix(b.name, "-O2") {
				needOracleLib(t)
				d := runProcess(t, t.TempDir(), []string{}, rvsim, "run", "--difftest", b.path)
				assert.Equal(t, q.Stdout, d.Stdout)
				assert.Contains(t, d.Stderr, "no divergence")
			}
		})
	}
}

// csmithSeeds are programs that Debian's Csmith 2.3.0 writes and that run
// between about 0.1M and 5M instructions (timing mode runs each), chosen
// from bench/csmith.sh's campaign; csmithOpts the builds of each.
var (
	csmithSeeds = []int{1, 2, 7, 8, 10, 26, 27, 30}
	csmithOpts  = []string{"-O0", "-O2", "-O2 -march=rv64gc_zba_zbb_zbc_zbs"}
)

// csmithFlags are Csmith's options for seed: its defaults, which leave
// floating point out.
func csmithFlags(seed int) []string {
	return []string{"--seed", fmt.Sprint(seed)}
}

// needCsmith returns Csmith's path and the directory of its runtime
// header, csmith.h (Debian's csmith and libcsmith-dev), or calls missing.
func needCsmith(t *testing.T) (string, string) {
	t.Helper()
	p, err := exec.LookPath("csmith")
	if err != nil {
		missing(t, "csmith is not installed: run 'make setup'")
	}
	include := "/usr/include/csmith"
	if _, err := os.Stat(filepath.Join(include, "csmith.h")); err != nil {
		missing(t, "%s/csmith.h is not installed (Debian's libcsmith-dev): run 'make setup'", include)
	}
	return p, include
}

// needCrossGCC returns the GNU RISC-V cross compiler's path
// ($RISCV_PREFIX, as the Makefiles take it), or calls missing.
func needCrossGCC(t *testing.T) string {
	t.Helper()
	prefix := os.Getenv("RISCV_PREFIX")
	if prefix == "" {
		prefix = "riscv64-linux-gnu-"
	}
	p, err := exec.LookPath(prefix + "gcc")
	if err != nil {
		missing(t, "%sgcc is not installed: run 'make setup'", prefix)
	}
	return p
}

// runWithin is runProcess under timeout(1): a process still running
// after d fails the test.
func runWithin(t *testing.T, d time.Duration, name string, args ...string) procResult {
	t.Helper()
	r := runProcess(t, "", []string{}, "timeout", append([]string{fmt.Sprint(int(d.Seconds())), name}, args...)...)
	require.NotEqual(t, 124, r.Status, "%s did not finish in %v", name, d)
	return r
}
