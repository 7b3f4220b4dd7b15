// Package suitetest writes a small suite file for the experiment
// programs' tests: two of the project's test programs in a root of their
// own, with an argv[0], standard input and environment that only a run
// prepared from the file (suite.Prepare) gives them, and expected outputs
// that depend on them.
package suitetest

import (
	"os"
	"path/filepath"
	"testing"
)

// Expected outputs. hello prints its arguments, argv[0] included, which
// is the program's path inside the root only when the run takes the
// workload's root and argv0 (a run built by hand gets the host path);
// pollin prints the first line of its standard input.
const (
	HelloStdout  = "argv[0] = /bin/hello\nargv[1] = from-the-suite\nsqrt(4) = 2.000000\n"
	PollinStdin  = "line-from-stdin\n"
	PollinStdout = "poll returns 1 revents 0x1\nread line-from-stdin\n"
)

// Write makes dir/root/bin/{hello,pollin} from the built test programs
// (repo is the checkout's top directory) and dir/tiny.toml, whose
// workloads hello and pollin each have a "test" input, and returns the
// suite file's path. It fails the test if the programs are not built.
func Write(t testing.TB, repo, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "root", "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"hello", "pollin"} {
		data, err := os.ReadFile(filepath.Join(repo, "build", "testprogs", "linux", p))
		if err != nil {
			t.Fatalf("%v (make testprogs builds it)", err)
		}
		if err := os.WriteFile(filepath.Join(bin, p), data, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	files := map[string]string{
		"hello.out":  HelloStdout,
		"pollin.in":  PollinStdin,
		"pollin.out": PollinStdout,
		"tiny.toml": `name = "tiny"
root = "root"
env = { LC_ALL = "C" }

[[workload]]
name = "hello"
program = "/bin/hello"

[workload.inputs.test]
args = ["from-the-suite"]
stdout = "hello.out"
status = 3

[[workload]]
name = "pollin"
program = "/bin/pollin"
cwd = "/bin"

[workload.inputs.test]
args = ["poll", "-1"]
stdin = "pollin.in"
stdout = "pollin.out"
`,
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "tiny.toml")
}
