package rootfs

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runMaintainerPrograms runs ldconfig and byte-compiles each Python 3
// with its standard library (and dist-packages when there is one);
// compileall's status 1 (a file that does not compile) is not an error,
// a failure of ldconfig or a crash is.
func TestRunMaintainerPrograms(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{"usr/sbin/ldconfig", "usr/bin/python3.13", "usr/lib/python3.13/os.py",
		"usr/bin/python3.12", "usr/lib/python3.12/os.py", "usr/lib/python3.11/os.py", "usr/lib/python3/dist-packages/x.py"} {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(root, f)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(root, f), nil, 0o755))
	}
	require.NoError(t, os.Symlink("usr/sbin", filepath.Join(root, "sbin")))
	require.NoError(t, os.MkdirAll(filepath.Join(root, "usr/lib/python3.13-extra"), 0o755))
	var ran [][]string
	status := map[string]int{"/usr/bin/python3.12": 1}
	run := func(r string, argv []string) (int, string, error) {
		assert.Equal(t, root, r)
		ran = append(ran, argv)
		return status[argv[0]], "", nil
	}
	require.NoError(t, runMaintainerPrograms(root, run))
	compile := func(py string) []string {
		return []string{"/usr/bin/" + py, "-E", "-S", "-m", "compileall", "-q", "/usr/lib/" + py, "/usr/lib/python3/dist-packages"}
	}
	assert.Equal(t, [][]string{{"/sbin/ldconfig"}, compile("python3.12"), compile("python3.13")}, ran,
		"python3.11 has no interpreter, python3.13-extra is not a version")

	status["/usr/bin/python3.13"] = 2
	assert.ErrorContains(t, runMaintainerPrograms(root, run), "byte-compiling python3.13: exit status 2")
	status["/sbin/ldconfig"] = 1
	assert.ErrorContains(t, runMaintainerPrograms(root, run), "the root's ldconfig: exit status 1")
}
