package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runInRoot runs ldconfig on a small root (Debian's static ldconfig, libraries in the
// multiarch directory and in a directory an ld.so.conf.d file names, one
// without its soname link): the cache lists them, ldconfig -p in the
// root reads it, the link is made, and the cache is the one the same
// ldconfig writes under qemu-riscv64 in a chroot.
func TestRunLdconfig(t *testing.T) {
	needBuilt(t, "build/rootfs/usr/sbin/ldconfig")
	src := rel("build/rootfs")
	root := t.TempDir()
	copyFile := func(from, to string) {
		b, err := os.ReadFile(filepath.Join(src, from))
		require.NoError(t, err)
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(root, to)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(root, to), b, 0o755))
	}
	copyFile("usr/sbin/ldconfig", "usr/sbin/ldconfig")
	require.NoError(t, os.Symlink("usr/sbin", filepath.Join(root, "sbin")))
	multiarch := "usr/lib/riscv64-linux-gnu/"
	for _, lib := range []string{"libm.so.6", "libz.so.1"} {
		real, err := filepath.EvalSymlinks(filepath.Join(src, multiarch, lib))
		require.NoError(t, err)
		copyFile(multiarch+filepath.Base(real), multiarch+filepath.Base(real))
	}
	copyFile(multiarch+"libm.so.6", "opt/extra/libextra.so.1") // any ELF library; its soname is libm's
	require.NoError(t, os.MkdirAll(filepath.Join(root, "etc/ld.so.conf.d"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(root, "etc/ld.so.conf"), []byte("include /etc/ld.so.conf.d/*.conf\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(root, "etc/ld.so.conf.d/extra.conf"), []byte("/opt/extra\n"), 0o644))
	qemuRoot := filepath.Join(t.TempDir(), "q")
	require.NoError(t, exec.Command("cp", "-a", root, qemuRoot).Run())

	status, out, err := runInRoot(root, []string{"/sbin/ldconfig"})
	require.NoError(t, err)
	assert.Equal(t, 0, status)
	assert.Empty(t, out)
	cache, err := os.ReadFile(filepath.Join(root, "etc/ld.so.cache"))
	require.NoError(t, err)
	for _, s := range []string{"libm.so.6", "libz.so.1", "/usr/lib/riscv64-linux-gnu/libz.so.1", "/opt/extra/libm.so.6"} {
		assert.Contains(t, string(cache), s)
	}

	r := runOK(t, "--root", root, filepath.Join(root, "sbin", "ldconfig"), "-p")
	assert.Contains(t, r, "libz.so.1 (libc6,double-float) => /usr/lib/riscv64-linux-gnu/libz.so.1")
	link, err := os.Readlink(filepath.Join(root, multiarch, "libz.so.1"))
	require.NoError(t, err, "the soname link ldconfig makes")
	assert.True(t, strings.HasPrefix(link, "libz.so.1."), link)

	if _, err := exec.LookPath("qemu-riscv64"); err != nil || os.Geteuid() != 0 {
		t.Log("qemu-riscv64 or root privileges missing: the cache is not compared with qemu's")
		return
	}
	qout, err := exec.Command("qemu-riscv64", filepath.Join(qemuRoot, "sbin", "ldconfig"), "-r", qemuRoot).CombinedOutput()
	require.NoError(t, err, "%s", qout)
	want, err := os.ReadFile(filepath.Join(qemuRoot, "etc/ld.so.cache"))
	require.NoError(t, err)
	assert.Equal(t, want, cache, "the cache qemu-riscv64's run writes")
}
