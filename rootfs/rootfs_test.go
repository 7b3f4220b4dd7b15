package rootfs

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParsePackages(t *testing.T) {
	for _, tc := range []struct {
		desc, list string
		want       []string
		err        string
	}{
		{desc: "one", list: "bzip2", want: []string{"bzip2"}},
		{desc: "several, spaces", list: "python3, lua5.4,libstdc++6", want: []string{"python3", "lua5.4", "libstdc++6"}},
		{desc: "upper case", list: "Python3", err: `rootfs: "Python3" is not a Debian package name (lower-case letters, digits, '+', '-', '.')`},
		{desc: "a space inside", list: "sqlite 3", err: `rootfs: "sqlite 3" is not a Debian package name (lower-case letters, digits, '+', '-', '.')`},
		{desc: "an option", list: "--foo", err: `rootfs: "--foo" is not a Debian package name (lower-case letters, digits, '+', '-', '.')`},
		{desc: "one letter", list: "a", err: `rootfs: "a" is not a Debian package name (lower-case letters, digits, '+', '-', '.')`},
		{desc: "empty item", list: "bzip2,,xz-utils", err: `rootfs: empty package name in "bzip2,,xz-utils"`},
		{desc: "repeated", list: "bzip2,bzip2", err: `rootfs: package "bzip2" listed twice`},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			got, err := ParsePackages(tc.list)
			if tc.err != "" {
				require.EqualError(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

// fakeRoot builds a small merged-/usr root: links as Debian's riscv64
// packages and Create leave them, and an ELF header for the linker.
func fakeRoot(t *testing.T, machine uint16, withLib bool) string {
	dir := t.TempDir()
	for _, d := range []string{"usr/lib/riscv64-linux-gnu", "usr/bin", "etc/alternatives", "home"} {
		require.NoError(t, os.MkdirAll(filepath.Join(dir, d), 0o755))
	}
	hdr := make([]byte, 64)
	copy(hdr, "\x7fELF\x02\x01\x01")
	binary.LittleEndian.PutUint16(hdr[18:], machine)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "usr/lib/riscv64-linux-gnu/ld-linux-riscv64-lp64d.so.1"), hdr, 0o755))
	links := map[string]string{
		"usr/lib/ld-linux-riscv64-lp64d.so.1": "riscv64-linux-gnu/ld-linux-riscv64-lp64d.so.1",
		"usr/bin/lua":                         "/etc/alternatives/lua", // absolute: from the root, not the host
		"etc/alternatives/lua":                "/usr/bin/lua5.4",
		"usr/bin/loop":                        "loop",
		"usr/bin/out":                         "../../../../../../etc/passwd",
		"bin":                                 "usr/bin",
	}
	if withLib {
		links["lib"] = "usr/lib"
	}
	for p, target := range links {
		require.NoError(t, os.Symlink(target, filepath.Join(dir, p)))
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "usr/bin/lua5.4"), []byte("lua"), 0o755))
	return dir
}

// HostPath follows links as the guest sees them: absolute targets start
// from the root, ".." stops at it.
func TestHostPath(t *testing.T) {
	dir := fakeRoot(t, 243, true)
	for _, tc := range []struct{ guest, want, err string }{
		{guest: "/lib/ld-linux-riscv64-lp64d.so.1", want: "usr/lib/riscv64-linux-gnu/ld-linux-riscv64-lp64d.so.1"},
		{guest: "/bin/lua", want: "usr/bin/lua5.4"},
		{guest: "/usr/bin/../bin/./lua5.4", want: "usr/bin/lua5.4"},
		{guest: "/../../usr/bin/lua5.4", want: "usr/bin/lua5.4"},
		{guest: "/usr/bin/out", err: "no such file or directory"}, // /etc/passwd of the root, not the host's
		{guest: "/usr/bin/loop", err: "too many levels of symbolic links"},
		{guest: "/usr/bin/lua5.4/x", err: "/usr/bin/lua5.4 is not a directory"},
		{guest: "usr/bin", err: `"usr/bin" is not an absolute guest path`},
	} {
		got, err := HostPath(dir, tc.guest)
		if tc.err != "" {
			assert.EqualError(t, err, tc.err, tc.guest)
			continue
		}
		require.NoError(t, err, tc.guest)
		assert.Equal(t, filepath.Join(dir, tc.want), got, tc.guest)
	}
}

// Check asks that the dynamic linker resolve to a RISC-V ELF: a root
// without its /lib link does not run what it holds.
func TestCheck(t *testing.T) {
	require.NoError(t, Check(fakeRoot(t, 243, true)))
	err := Check(fakeRoot(t, 243, false))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "the dynamic linker /lib/ld-linux-riscv64-lp64d.so.1 does not resolve: no such file or directory")
	err = Check(fakeRoot(t, 62, true))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "is for e_machine 62, not RISC-V")
}

// Create refuses, before any download, what it cannot do well.
func TestCreateRefuses(t *testing.T) {
	foreign := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(foreign, "notes.txt"), nil, 0o644))
	for _, tc := range []struct {
		desc, dir string
		opt       Options
		err       string
	}{
		{desc: "a directory of someone else's", dir: foreign, opt: Options{Packages: []string{"bzip2"}},
			err: "is not empty and holds no root rvsim made (no .rvsim-rootfs): remove it or choose another directory"},
		{desc: "a malformed package name", dir: t.TempDir(), opt: Options{Packages: []string{"Bzip2"}},
			err: `rootfs: "Bzip2" is not a Debian package name`},
		{desc: "no packages", dir: t.TempDir(), opt: Options{Packages: []string{}}, err: "rootfs: no packages to install"},
		{desc: "a bad release", dir: t.TempDir(), opt: Options{Release: "Trixie!"}, err: `rootfs: release "Trixie!" is not a Debian release name`},
		{desc: "a mirror that is no URL", dir: t.TempDir(), opt: Options{Mirror: "/srv/debian"}, err: `rootfs: mirror "/srv/debian": want an http:// or https:// URL`},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			_, err := Create(tc.dir, tc.opt)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.err)
			assert.NotContains(t, err.Error(), "\n")
		})
	}
}

func TestStampRoundTrip(t *testing.T) {
	dir := t.TempDir()
	s := &Stamp{Release: "trixie", Arch: Arch, Mirror: "http://deb.debian.org/debian", Packages: []string{"bzip2", "zstd"}, Setup: setupVersion}
	require.NoError(t, os.WriteFile(filepath.Join(dir, StampFile), []byte(s.String()), 0o644))
	got, err := ReadStamp(dir)
	require.NoError(t, err)
	assert.Equal(t, s, got)
	assert.True(t, s.Same(&Stamp{Release: "trixie", Arch: Arch, Mirror: "http://other/debian", Packages: []string{"bzip2", "zstd"}, Setup: setupVersion}))
	assert.False(t, s.Same(&Stamp{Release: "trixie", Arch: Arch, Packages: []string{"bzip2"}, Setup: setupVersion}))
	assert.False(t, s.Same(&Stamp{Release: "trixie", Arch: Arch, Packages: []string{"bzip2", "zstd"}}), "a root made before the alternatives")
	assert.False(t, strings.Contains(s.String(), "  "))
}

// A root gets the /etc files no maintainer script wrote: accounts with
// root at uid 0, hosts naming localhost and the root's hostname, and the
// name service switch; a file already there is kept.
func TestAddSystemFiles(t *testing.T) {
	dir := fakeRoot(t, 243, true)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "etc/hostname"), []byte("box\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "etc/group"), []byte("mine:x:7:\n"), 0o644))
	wrote, err := addSystemFiles(dir)
	require.NoError(t, err)
	assert.Equal(t, []string{"/etc/passwd", "/etc/shadow", "/etc/nsswitch.conf", "/etc/hosts"}, wrote)
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(dir, "etc", name))
		require.NoError(t, err)
		return string(b)
	}
	assert.Contains(t, read("passwd"), "root:x:0:0:root:/root:/bin/bash\n")
	assert.Contains(t, read("passwd"), "nobody:x:65534:65534:")
	assert.Equal(t, "mine:x:7:\n", read("group"), "an existing file is kept")
	assert.Contains(t, read("hosts"), "127.0.0.1\tlocalhost\n127.0.1.1\tbox\n")
	assert.Contains(t, read("hosts"), "::1     localhost ")
	assert.Contains(t, read("nsswitch.conf"), "hosts:          files dns\n")
	assert.Contains(t, read("shadow"), "root:*:")
	// Every account has seven fields and a group of base-passwd's.
	groups := map[string]bool{}
	for _, l := range strings.Split(strings.TrimSpace(baseGroups), "\n") {
		f := strings.Split(l, ":")
		require.Len(t, f, 4, l)
		groups[f[2]] = true
	}
	for _, l := range strings.Split(strings.TrimSpace(baseAccounts), "\n") {
		f := strings.Split(l, ":")
		require.Len(t, f, 7, l)
		assert.True(t, groups[f[3]], "%s: group %s", f[0], f[3])
	}
	again, err := addSystemFiles(dir)
	require.NoError(t, err)
	assert.Empty(t, again, "a second call writes nothing")
}
