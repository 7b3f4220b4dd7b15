package pathprof_test

import (
	"bytes"
	"io"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/rvsim/rvsim/profhw"
	"github.com/rvsim/rvsim/profhw/pathprof"
	"github.com/rvsim/rvsim/sim"
	"github.com/rvsim/rvsim/syscalls"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHotPathListing: the listing of a -g program prints instructions as
// --trace does (ABI register names, absolute branch and jump targets),
// names direct targets' symbols, gives the source file:line from the
// DWARF line table, and says why the paths beyond output.top have no
// blocks.
func TestHotPathListing(t *testing.T) {
	prog := guestProgram(t, "../../build/testprogs/pathprof/paths")
	uc := profhw.NewUnitConfig("p", "path", map[string]any{"output.top": int64(5)})
	mc, err := sim.Load(sim.Config{Program: prog, ProfHW: []*profhw.UnitConfig{uc},
		Kernel: syscalls.Config{Stdout: io.Discard, Stderr: io.Discard, Warn: io.Discard}})
	require.NoError(t, err)
	res := mc.Run()
	require.NoError(t, res.ProfHWErr)
	outs, err := mc.ProfHW().Units()[0].Outputs(mc.CodeSymbolizer())
	require.NoError(t, err)
	var prof *pathprof.ProfileJSON
	var text string
	for _, o := range outs {
		switch o.Suffix {
		case "profile.json":
			prof, err = pathprof.ReadProfile(o.Data)
			require.NoError(t, err)
		case "hotpaths.txt":
			text = string(o.Data)
		}
	}
	require.NotNil(t, prof)
	require.Greater(t, len(prof.Entries), 5)
	require.NotNil(t, prof.BlocksListed)
	assert.Equal(t, 5, *prof.BlocksListed)

	rawReg := regexp.MustCompile(`\bx([0-9]|[12][0-9]|3[01])\b`)
	relTarget := regexp.MustCompile(`\.[+-][0-9]`)
	src := regexp.MustCompile(`paths\.c:([0-9]+)$`)
	targetSym := regexp.MustCompile(`[ ,]0x[0-9a-f]+ <[a-z_][a-z0-9_]*(\+0x[0-9a-f]+)?>$`)
	var insts, sources, targets int
	for _, e := range prof.Entries[:5] {
		for _, b := range e.Blocks {
			for _, in := range b.Insts {
				insts++
				assert.NotRegexp(t, rawReg, in, "ABI register names")
				assert.NotRegexp(t, relTarget, in, "absolute targets")
				code := in
				if m := src.FindStringSubmatch(in); m != nil {
					sources++
					n, _ := strconv.Atoi(m[1])
					assert.True(t, n >= 1 && n <= 100, in)
					code = strings.TrimSpace(strings.TrimSuffix(in, m[0]))
				}
				f := strings.Fields(code)
				if m := f[1]; (m[0] == 'b' && m != "bclr") || m == "j" || m == "jal" {
					targets++
					assert.Regexp(t, targetSym, code, "a direct target with its symbol")
				}
			}
		}
	}
	assert.Greater(t, insts, 20)
	assert.Greater(t, sources, 5, "source lines from DWARF")
	assert.Greater(t, targets, 3)

	// The listing: the same lines, and a note on every path beyond the top.
	assert.Contains(t, text, "paths.c:")
	var listing bytes.Buffer
	pathprof.WriteListing(&listing, prof, 8)
	parts := strings.Split(listing.String(), "\n#")
	require.Len(t, parts, 1+8+1) // the header's two lines split once more
	for i, p := range parts[2:] {
		if i < 5 {
			assert.Contains(t, p, "block ", "path %d", i+1)
		} else {
			assert.Contains(t, p, "(blocks not listed: the profile has the blocks of its 5 heaviest paths, output.top)", "path %d", i+1)
		}
	}
}
