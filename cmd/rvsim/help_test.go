package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every command named in the top-level help answers --help with its own
// usage on stdout and exit status 0.
func TestEveryCommandHasHelp(t *testing.T) {
	cmds := regexp.MustCompile(`(?m)^  rvsim ([a-z]+)`).FindAllStringSubmatch(helpText, -1)
	require.Greater(t, len(cmds), 6)
	for _, m := range cmds {
		cmd := m[1]
		if cmd == "help" || cmd == "version" {
			continue
		}
		t.Run(cmd, func(t *testing.T) {
			for _, h := range []string{"--help", "-h"} {
				var stdout, stderr bytes.Buffer
				status := run([]string{cmd, h}, strings.NewReader(""), &stdout, &stderr)
				assert.Equal(t, 0, status, stderr.String())
				assert.Empty(t, stderr.String())
				assert.True(t, strings.HasPrefix(stdout.String(), "Usage:\n  rvsim "+cmd), stdout.String())
			}
		})
	}
}

// The help of run lists every flag run defines, and docs/CLI.md's table
// of run's flags documents each of them.
func TestRunFlagsDocumented(t *testing.T) {
	var f runFlags
	c := newFlags("run", runUsage, runAbout, nil)
	f.register(c)
	help := c.Help()
	readme, err := os.ReadFile(filepath.Join(repoRoot, "docs", "CLI.md"))
	require.NoError(t, err)
	i := strings.Index(string(readme), "## Flags of `run`")
	require.GreaterOrEqual(t, i, 0, "docs/CLI.md has a section on run's flags")
	section := string(readme)[i:]
	section = section[:strings.Index(section[1:], "\n#")+1]
	n := 0
	c.fs.VisitAll(func(fl *flag.Flag) {
		n++
		assert.Contains(t, help, "  --"+fl.Name, "run --help")
		assert.Contains(t, section, "`--"+fl.Name, "docs/CLI.md's flags of run")
	})
	assert.Greater(t, n, 20)
}

// rvsim acf checks calls against the handler runtime and prints warnings
// on stderr.
func TestACFCmdHandlers(t *testing.T) {
	needBuilt(t, "build/handlers/rvsim-handlers.elf")
	rt := rel("build/handlers/rvsim-handlers.elf")
	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(src), 0o644))
		return p
	}
	good := write("good.acf", "P: T.OPCLASS == call && T.OP == jalr -> R\nR: call(Count_handler, T.PC, T.TARGET) as \"indirect\"(site, callee); T.INSN\n")
	warn := write("warn.acf", "P: T.OPCLASS == load -> R\nR: addi a0, a0, 1\nR2: T.INSN\n")
	badName := write("bad.acf", "P: T.OPCLASS == call -> R\nR: call(Cont_handler, T.PC) as \"x\"; T.INSN\n")
	untagged := write("untagged.acf", "P: T.OPCLASS == call -> R\nR: call(Count_handler, T.PC); T.INSN\n")
	for _, tc := range []struct {
		desc           string
		args           []string
		status         int
		stdout, stderr string
	}{
		{"good", []string{"--handlers", rt, good}, 0,
			"ok: 1 productions (P)\npattern table 1/32, conditionals table 0/16, replacement table 5/2048\n" +
				"handlers: Count_handler (checked against " + rt + ")\nprofile \"indirect\": Count_handler(site, callee)\n", ""},
		{"warnings", []string{warn}, 0, "ok: 1 productions (P)\npattern table 1/32, conditionals table 0/16, replacement table 1/2048\n",
			warn + ":2:1: warning: replacement R has no T.INSN: the instruction it replaces is deleted\n" +
				warn + ":2:9: warning: addi a0, a0, 1 writes the application register a0: the program's value is lost (use $d0-$d7 for scratch)\n" +
				warn + ":3:1: warning: replacement R2 is not used by any production\n"},
		{"a handler the runtime lacks", []string{"--handlers", rt, badName}, 1, "",
			"rvsim: " + badName + ":2:4: handler Cont_handler is not in the handler runtime " + rt +
				" (it has: Branch_handler, CallPair_handler, Clobber_handler, Count_handler, HotMethod_backedge, HotMethod_handler, Null_handler, Stratified_handler)\n"},
		{"a tagged handler without a name", []string{"--handlers", rt, untagged}, 1, "",
			"rvsim: " + untagged + ":2:4: Count_handler is tagged: name the profile it collects, as in call(Count_handler, …) as \"NAME\"\n"},
		{"a runtime that is not one", []string{"--handlers", good, good}, 1, "",
			"rvsim: handler runtime: " + good + ": not an ELF file (bad magic)\n"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			status := run(append([]string{"acf"}, tc.args...), strings.NewReader(""), &stdout, &stderr)
			assert.Equal(t, tc.status, status)
			assert.Equal(t, tc.stdout, stdout.String())
			assert.Equal(t, tc.stderr, stderr.String())
		})
	}
}

// run's help says what programs it runs: dynamic ones too (through
// --sysroot), not "static" alone.
func TestRunHelpSaysDynamic(t *testing.T) {
	for _, args := range [][]string{{"run", "--help"}, {"help"}} {
		var stdout, stderr bytes.Buffer
		require.Equal(t, 0, run(args, strings.NewReader(""), &stdout, &stderr))
		assert.NotContains(t, stdout.String(), "run a static", args)
		assert.NotContains(t, stdout.String(), "Runs a static", args)
		assert.Contains(t, stdout.String(), "dynamic", args)
		assert.Contains(t, stdout.String(), "--sysroot", args)
	}
}
