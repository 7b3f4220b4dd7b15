package rootfs

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// The extract variant runs no maintainer script, so a root lacks the
// files a Debian system's scripts and installer write into /etc: the
// accounts (base-passwd's postinst copies them from its master files),
// the name service switch (libc-bin's postinst) and /etc/hosts (the
// installer). Without them glibc cannot resolve "localhost" (Python's
// socket tests bind to it) nor name uid 0 (getpwuid, id, ls -l, Python's
// pwd module). addSystemFiles writes each that is missing, as a fresh
// Debian system has it; a file already there is left as it is.

// baseAccounts are the system accounts of Debian's base-passwd
// (passwd.master), with their groups.
const baseAccounts = `root:x:0:0:root:/root:/bin/bash
daemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin
bin:x:2:2:bin:/bin:/usr/sbin/nologin
sys:x:3:3:sys:/dev:/usr/sbin/nologin
sync:x:4:65534:sync:/bin:/bin/sync
games:x:5:60:games:/usr/games:/usr/sbin/nologin
man:x:6:12:man:/var/cache/man:/usr/sbin/nologin
lp:x:7:7:lp:/var/spool/lpd:/usr/sbin/nologin
mail:x:8:8:mail:/var/mail:/usr/sbin/nologin
news:x:9:9:news:/var/spool/news:/usr/sbin/nologin
uucp:x:10:10:uucp:/var/spool/uucp:/usr/sbin/nologin
proxy:x:13:13:proxy:/bin:/usr/sbin/nologin
www-data:x:33:33:www-data:/var/www:/usr/sbin/nologin
backup:x:34:34:backup:/var/backups:/usr/sbin/nologin
list:x:38:38:Mailing List Manager:/var/list:/usr/sbin/nologin
irc:x:39:39:ircd:/run/ircd:/usr/sbin/nologin
nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin
`

// baseGroups are base-passwd's group.master.
const baseGroups = `root:x:0:
daemon:x:1:
bin:x:2:
sys:x:3:
adm:x:4:
tty:x:5:
disk:x:6:
lp:x:7:
mail:x:8:
news:x:9:
uucp:x:10:
man:x:12:
proxy:x:13:
kmem:x:15:
dialout:x:20:
fax:x:21:
voice:x:22:
cdrom:x:24:
floppy:x:25:
tape:x:26:
sudo:x:27:
audio:x:29:
dip:x:30:
www-data:x:33:
backup:x:34:
operator:x:37:
list:x:38:
irc:x:39:
src:x:40:
shadow:x:42:
utmp:x:43:
video:x:44:
sasl:x:45:
plugdev:x:46:
staff:x:50:
games:x:60:
users:x:100:
nogroup:x:65534:
`

// nsswitch is libc-bin's default /etc/nsswitch.conf, without the
// services a root does not have (libnss-db's db, NIS).
const nsswitch = `passwd:         files
group:          files
shadow:         files
gshadow:        files

hosts:          files dns
networks:       files

protocols:      files
services:       files
ethers:         files
rpc:            files
`

// hostsFile is /etc/hosts as Debian's installer writes it, for hostname.
func hostsFile(hostname string) string {
	return "127.0.0.1\tlocalhost\n127.0.1.1\t" + hostname + "\n\n" +
		"# The following lines are desirable for IPv6 capable hosts\n" +
		"::1     localhost ip6-localhost ip6-loopback\nff02::1 ip6-allnodes\nff02::2 ip6-allrouters\n"
}

// addSystemFiles writes the /etc files of a Debian system that the root
// in dir lacks (see above). It reports what it wrote.
func addSystemFiles(dir string) ([]string, error) {
	etc := filepath.Join(dir, "etc")
	if err := os.MkdirAll(etc, 0o755); err != nil {
		return nil, errorf("%s: %v", etc, unwrap(err))
	}
	hostname := "localhost"
	if b, err := os.ReadFile(filepath.Join(etc, "hostname")); err == nil {
		if h := strings.TrimSpace(string(b)); h != "" && !strings.ContainsAny(h, " \t\n") {
			hostname = h
		}
	}
	files := []struct {
		name, text string
		perm       os.FileMode
	}{
		{"passwd", baseAccounts, 0o644},
		{"group", baseGroups, 0o644},
		{"shadow", shadowOf(baseAccounts), 0o640},
		{"nsswitch.conf", nsswitch, 0o644},
		{"hosts", hostsFile(hostname), 0o644},
	}
	var wrote []string
	for _, f := range files {
		p := filepath.Join(etc, f.name)
		if _, err := os.Lstat(p); err == nil {
			continue
		} else if !errors.Is(err, fs.ErrNotExist) {
			return wrote, errorf("%s: %v", p, unwrap(err))
		}
		if err := os.WriteFile(p, []byte(f.text), f.perm); err != nil {
			return wrote, errorf("%s: %v", p, unwrap(err))
		}
		wrote = append(wrote, "/etc/"+f.name)
	}
	return wrote, nil
}

// shadowOf is the shadow file of the accounts: every password locked.
func shadowOf(passwd string) string {
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(passwd), "\n") {
		name, _, _ := strings.Cut(line, ":")
		b.WriteString(name + ":*:20000:0:99999:7:::\n")
	}
	return b.String()
}
