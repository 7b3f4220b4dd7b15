package rootfs

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// scriptCommands on small scripts, each with the update-alternatives
// commands sh would run for "postinst configure", words as sh passes
// them; a command is cut short at a word that cannot be known.
func TestScriptCommands(t *testing.T) {
	ua := func(words ...string) []string { return words }
	for _, tc := range []struct {
		name, script string
		want         [][]string
	}{
		{"literal", "update-alternatives --install /usr/bin/x x /usr/bin/x1 5\n",
			[][]string{ua("--install", "/usr/bin/x", "x", "/usr/bin/x1", "5")}},
		{"quotes and splitting", "a='p q'\nb=\"$a r\"\nupdate-alternatives \"$a\" $a '$a' \\$a $b\"s\"\n",
			[][]string{ua("p q", "p", "q", "$a", "$a", "p", "q", "rs")}},
		{"empty and unset", "e=\nx=1\nunset x\nupdate-alternatives a $e \"$e\" $x ${x}b\n",
			[][]string{ua("a", "", "b")}},
		{"unknown variable", "update-alternatives --install /l n $NOPE 5\n", [][]string{ua("--install", "/l", "n")}},
		{"command substitution", "p=$(echo 5)\nupdate-alternatives --install /l n /p $p\nupdate-alternatives `x`\nupdate-alternatives a $(ls) b\n",
			[][]string{ua("--install", "/l", "n", "/p", "5"), nil, ua("a")}},
		{"a function's output", "s() {\n\tlocal d=\"$1\"\n\techo \"--slave $d/$2 $2 $d/$3\"\n}\nupdate-alternatives --install /usr/bin/lzma lzma /usr/bin/xz 20 $(\n\ts /usr/bin unlzma unxz\n\tfor u in cat less; do\n\t\ts /usr/bin lz$u xz$u\n\tdone\n)\n",
			[][]string{ua("--install", "/usr/bin/lzma", "lzma", "/usr/bin/xz", "20",
				"--slave", "/usr/bin/unlzma", "unlzma", "/usr/bin/unxz",
				"--slave", "/usr/bin/lzcat", "lzcat", "/usr/bin/xzcat",
				"--slave", "/usr/bin/lzless", "lzless", "/usr/bin/xzless")}},
		{"output not known", "update-alternatives a $(echo -n x) $(cat f) \"$(true; echo y)\"\nupdate-alternatives b $((1+2))\nf() { f; }\nupdate-alternatives c $(f)\n",
			[][]string{ua("a"), ua("b"), ua("c")}},
		{"the root's architecture", "update-alternatives --install /l n /usr/lib/$(dpkg --print-architecture)/p 5\n",
			[][]string{ua("--install", "/l", "n", "/usr/lib/riscv64/p", "5")}},
		{"glob", "update-alternatives --install /l n /usr/bin/* 5\n", [][]string{ua("--install", "/l", "n")}},
		{"parameter operator", "update-alternatives --install /l n ${X:-/p} 5\n", [][]string{ua("--install", "/l", "n")}},
		{"continuation, redirection, || true", "update-alternatives --install \\\n  /l n \\\n  /p 5 >/dev/null 2>&1 || true\n",
			[][]string{ua("--install", "/l", "n", "/p", "5")}},
		{"comment and here-document",
			"# update-alternatives --install /a a /a 1\ncat <<EOF\nupdate-alternatives --install /b b /b 1\nEOF\ncat <<-'E'\n\tupdate-alternatives c\n\tE\nupdate-alternatives d\n",
			[][]string{ua("d")}},
		{"nested loops", "for a in x y; do for b in 1 2; do update-alternatives $a$b; done; done\n",
			[][]string{ua("x1"), ua("x2"), ua("y1"), ua("y2")}},
		{"loop over an unknown list", "for a in $(ls); do update-alternatives $a; update-alternatives k; done\n",
			[][]string{nil, ua("k")}},
		{"if on $1", "if [ \"$1\" = configure ]; then update-alternatives a; elif true; then update-alternatives b; else update-alternatives c; fi\n",
			[][]string{ua("a")}},
		{"elif and else", "if [ -n \"$2\" ]; then update-alternatives a; elif [ 2 -gt 10 ]; then update-alternatives b; else update-alternatives c; fi\n",
			[][]string{ua("c")}},
		{"undecided: every branch", "if which foo; then update-alternatives a; else update-alternatives b; fi\n",
			[][]string{ua("a"), ua("b")}},
		{"and-or conditions", "if false || [ 1 -lt 2 ] && ! [ x = y ]; then update-alternatives a; fi\nif true && false; then update-alternatives b; fi\nif foo || true; then update-alternatives c; fi\nif foo && false; then update-alternatives d; fi\n",
			[][]string{ua("a"), ua("c")}},
		{"pipeline undecided", "if echo | grep -q x; then update-alternatives a; fi\n", [][]string{ua("a")}},
		{"and-or lists", "[ \"$1\" = remove ] && update-alternatives a\n[ \"$1\" = configure ] && update-alternatives b\n[ -z \"$2\" ] || update-alternatives c\nfoo && update-alternatives d\n",
			[][]string{ua("b"), ua("d")}},
		{"function body where written", "f() {\n  update-alternatives a\n}\nf\nf\n", [][]string{ua("a")}},
		{"case branches in order", "case \"$1\" in\n  configure) update-alternatives a ;;\n  (abort-upgrade|abort-remove) update-alternatives b\n  ;;\nesac\n",
			[][]string{ua("a"), ua("b")}},
		{"assignment before a command", "x=1 foo\nupdate-alternatives $x\n", [][]string{nil}},
		{"export and local", "export P=/p\nf() { local Q=/q; update-alternatives $P $Q; }\n", [][]string{ua("/p", "/q")}},
		{"a path to the command", "/usr/bin/update-alternatives --quiet --install /l n /p 1\n",
			[][]string{ua("--quiet", "--install", "/l", "n", "/p", "1")}},
		{"while loop once", "while read x; do update-alternatives a; done </etc/x\n", [][]string{ua("a")}},
		{"maintainer's environment", "[ \"$DPKG_MAINTSCRIPT_ARCH\" = $(dpkg --print-architecture) ] && update-alternatives \"$DPKG_ROOT/l\"\n",
			[][]string{ua("/l")}},
		{"unterminated", "update-alternatives 'a\n", [][]string{ua("a\n")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, scriptCommands(tc.script, "riscv64", ""))
		})
	}
}

// test's file operators look inside the root, following its links as the
// guest would (an absolute link's target inside the root).
func TestScriptFileTests(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(root, "usr/lib/real"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(root, "usr/lib/real/tool"), []byte("x"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(root, "usr/lib/real/empty"), nil, 0o644))
	require.NoError(t, os.Symlink("/usr/lib/real", filepath.Join(root, "usr/lib/default")))
	require.NoError(t, os.Symlink("../lib/real/../real/tool", filepath.Join(root, "usr/lib/rel")))
	require.NoError(t, os.Symlink("/loop", filepath.Join(root, "loop")))
	for _, tc := range []struct {
		test string
		want bool
	}{
		{"-e /usr/lib/default/tool", true},
		{"-x /usr/lib/default/tool", true},
		{"-f /usr/lib/rel", true},
		{"-s /usr/lib/rel", true},
		{"-s /usr/lib/real/empty", false},
		{"-x /usr/lib/real/empty", false},
		{"-d /usr/lib/default", true},
		{"-L /usr/lib/default", true},
		{"-L /usr/lib/real", false},
		{"-e /usr/lib/default/missing", false},
		{"-e /loop", false},
		{"! -e /usr/lib/default/missing", true},
	} {
		got := scriptCommands("if [ "+tc.test+" ]; then update-alternatives yes; else update-alternatives no; fi\n", "riscv64", root)
		want := "no"
		if tc.want {
			want = "yes"
		}
		assert.Equal(t, [][]string{{want}}, got, tc.test)
	}
	_, err := statIn(root, "/usr/lib/default/../real/tool")
	assert.NoError(t, err)
	_, err = statIn(root, "/../../usr/lib/default/tool")
	assert.NoError(t, err, "above / is /")
}

// The testdata scripts run by the host's sh, with every command it
// would run in PATH a stub (update-alternatives records its arguments,
// dpkg prints riscv64), call update-alternatives as scriptCommands says.
// The root is the host's /, where sh's tests look.
func TestScriptCommandsAgainstSh(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh on the host")
	}
	bin := t.TempDir()
	log := filepath.Join(t.TempDir(), "calls")
	stub := func(name, body string) {
		require.NoError(t, os.WriteFile(filepath.Join(bin, name), []byte("#!"+sh+"\n"+body+"\n"), 0o755))
	}
	stub("update-alternatives", `for a in "$@"; do printf '%s\n' "$a"; done >>`+log+`; echo -- >>`+log)
	stub("dpkg", "echo riscv64")
	ents, err := os.ReadDir(filepath.Join("testdata", "postinst"))
	require.NoError(t, err)
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join("testdata", "postinst", e.Name()))
		require.NoError(t, err)
		// The host's sh runs the script: it must not write the host's files.
		require.NotRegexp(t, `>>?\s*/(?:[^d]|d[^e]|de[^v])`, string(b), "%s redirects to a host file", e.Name())
		for _, w := range strings.Fields(string(b)) { // every other command a stub that succeeds
			if isName(strings.ReplaceAll(strings.ReplaceAll(w, "-", "_"), ".", "_")) && w != "update-alternatives" && w != "dpkg" {
				stub(w, "exit 0")
			}
		}
		require.NoError(t, os.WriteFile(log, nil, 0o644))
		cmd := exec.Command(sh, filepath.Join("testdata", "postinst", e.Name()), "configure", "")
		cmd.Env = []string{"PATH=" + bin, "DPKG_ROOT=", "DPKG_MAINTSCRIPT_ARCH=riscv64"}
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s: %s", e.Name(), out)
		calls, err := os.ReadFile(log)
		require.NoError(t, err)
		var want [][]string
		var cur []string
		for _, line := range strings.Split(strings.TrimSuffix(string(calls), "\n"), "\n") {
			if line == "--" {
				want = append(want, cur)
				cur = nil
			} else if line != "" || len(calls) > 0 {
				cur = append(cur, line)
			}
		}
		assert.Equal(t, want, scriptCommands(string(b), "riscv64", "/"), e.Name())
	}
}

// FuzzScriptCommands: any script is read without a panic, the same way
// twice.
func FuzzScriptCommands(f *testing.F) {
	ents, err := os.ReadDir(filepath.Join("testdata", "postinst"))
	require.NoError(f, err)
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join("testdata", "postinst", e.Name()))
		require.NoError(f, err)
		f.Add(string(b))
	}
	f.Add("for for in in; do done done; if then fi elif else\nfi\n$( ${ ` ' \" \\")
	f.Add("if [ ! ]; then update-alternatives ${}; fi; <<")
	f.Fuzz(func(t *testing.T, script string) {
		a := scriptCommands(script, "riscv64", "")
		b := scriptCommands(script, "riscv64", "")
		assert.Equal(t, a, b)
	})
}
