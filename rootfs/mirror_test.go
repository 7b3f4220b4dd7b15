package rootfs

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// HostMirror finds the Debian mirror in the files apt reads, in both
// formats, and ignores what apt ignores or what is not Debian's archive.
func TestHostMirror(t *testing.T) {
	for _, tc := range []struct {
		desc  string
		files map[string]string // path under etc/apt -> text
		want  string
	}{
		{desc: "deb822, as on this project's machines (the snapshot URL is a comment)", files: map[string]string{
			"sources.list.d/debian.sources": "Types: deb\n# http://snapshot.debian.org/archive/debian/20250520T000000Z\nURIs: http://deb.debian.org/debian\nSuites: bookworm bookworm-updates\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n\nTypes: deb\nURIs: http://deb.debian.org/debian-security\nSuites: bookworm-security\nComponents: main\n",
		}, want: "http://deb.debian.org/debian"},
		{desc: "one-line format with options", files: map[string]string{
			"sources.list": "# comment\ndeb-src http://src.example/debian trixie main\ndeb [arch=amd64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] https://ftp.example.org/debian/ trixie main contrib\n",
		}, want: "https://ftp.example.org/debian"},
		{desc: "security first, then the main archive", files: map[string]string{
			"sources.list": "deb http://security.debian.org/debian-security bookworm-security main\ndeb http://ftp.de.debian.org/debian bookworm main\n",
		}, want: "http://ftp.de.debian.org/debian"},
		{desc: "a third-party repository and a disabled file are not Debian's", files: map[string]string{
			"sources.list.d/a.list":                    "deb https://packages.cloud.google.com/apt cloud-sdk-bookworm main\n",
			"sources.list.d/b.sources":                 "Types: deb\nURIs: https://deb.nodesource.com/node_20.x\nSuites: nodistro\nComponents: main\n",
			"sources.list.d/c.list.disabled-by-farm":   "deb http://wrong.example/debian bookworm main\n",
			"sources.list.d/d.sources":                 "Enabled: no\nTypes: deb\nURIs: http://disabled.example/debian\nSuites: trixie\n",
			"sources.list.d/e.sources":                 "Types: deb deb-src\nURIs: http://mirror.example/debian\nSuites: sid\nComponents: main\n",
			"sources.list.d/f.list":                    "deb file:/srv/debian trixie main\n",
			"sources.list.d/zz-another.list.dpkg-dist": "deb http://nope.example/debian trixie main\n",
		}, want: "http://mirror.example/debian"},
		{desc: "Ubuntu: no Debian mirror, the default", files: map[string]string{
			"sources.list": "deb http://archive.ubuntu.com/ubuntu jammy main\n",
		}, want: DefaultMirror},
		{desc: "no files at all", files: nil, want: DefaultMirror},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			dir := t.TempDir()
			require.NoError(t, os.MkdirAll(filepath.Join(dir, "sources.list.d"), 0o755))
			for p, text := range tc.files {
				require.NoError(t, os.WriteFile(filepath.Join(dir, p), []byte(text), 0o644))
			}
			assert.Equal(t, tc.want, HostMirror(dir))
		})
	}
}
