package rootfs

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// debianSuites are the names Debian's archive uses for its releases; a
// source whose suite is one of them (or one with a -updates, -backports
// or -proposed-updates suffix) comes from a Debian mirror. Security
// suites are served by another archive, which has no riscv64 trees of
// other releases.
var debianSuites = map[string]bool{
	"buzz": true, "rex": true, "bo": true, "hamm": true, "slink": true, "potato": true,
	"woody": true, "sarge": true, "etch": true, "lenny": true, "squeeze": true,
	"wheezy": true, "jessie": true, "stretch": true, "buster": true, "bullseye": true,
	"bookworm": true, "trixie": true, "forky": true, "duke": true, "sid": true,
	"oldoldstable": true, "oldstable": true, "stable": true, "testing": true,
	"unstable": true, "experimental": true,
}

func isDebianSuite(s string) bool {
	for _, suf := range []string{"-updates", "-backports", "-proposed-updates", "-backports-sloppy"} {
		s = strings.TrimSuffix(s, suf)
	}
	return debianSuites[s]
}

// source is one apt source: its URIs and suites.
type source struct {
	types, uris, suites []string
}

// HostMirror returns the mirror URL the host's apt uses for Debian's main
// archive, read from etcApt's sources.list, sources.list.d/*.list and
// sources.list.d/*.sources (the files apt itself reads, in its order), or
// DefaultMirror if they name none. Only http and https mirrors count; the
// files are read, never changed.
func HostMirror(etcApt string) string {
	var srcs []source
	if data, err := os.ReadFile(filepath.Join(etcApt, "sources.list")); err == nil {
		srcs = append(srcs, parseList(string(data))...)
	}
	files, _ := filepath.Glob(filepath.Join(etcApt, "sources.list.d", "*"))
	sort.Strings(files)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		switch {
		case strings.HasSuffix(f, ".list"):
			srcs = append(srcs, parseList(string(data))...)
		case strings.HasSuffix(f, ".sources"):
			srcs = append(srcs, parseDeb822(string(data))...)
		}
	}
	for _, s := range srcs {
		if !containsFold(s.types, "deb") {
			continue
		}
		debian := false
		for _, su := range s.suites {
			debian = debian || isDebianSuite(su)
		}
		if !debian {
			continue
		}
		for _, u := range s.uris {
			if strings.HasPrefix(u, "http://") || strings.HasPrefix(u, "https://") {
				return strings.TrimRight(u, "/")
			}
		}
	}
	return DefaultMirror
}

// parseList reads one-line-style sources: "deb [options] URI SUITE COMPONENTS...".
func parseList(text string) []source {
	var out []source
	for _, line := range strings.Split(text, "\n") {
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		f := strings.Fields(line)
		if len(f) < 3 {
			continue
		}
		typ := f[0]
		f = f[1:]
		if strings.HasPrefix(f[0], "[") { // options, possibly several words
			for len(f) > 0 && !strings.HasSuffix(f[0], "]") {
				f = f[1:]
			}
			if len(f) > 0 {
				f = f[1:]
			}
		}
		if len(f) < 2 {
			continue
		}
		out = append(out, source{types: []string{typ}, uris: []string{f[0]}, suites: []string{f[1]}})
	}
	return out
}

// parseDeb822 reads deb822-style sources: stanzas of "Field: value"
// lines separated by blank lines.
func parseDeb822(text string) []source {
	var out []source
	cur, enabled, any := source{}, true, false
	flush := func() {
		if any && enabled {
			out = append(out, cur)
		}
		cur, enabled, any = source{}, true, false
	}
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "#") {
			continue
		}
		if strings.TrimSpace(line) == "" {
			flush()
			continue
		}
		if line[0] == ' ' || line[0] == '\t' {
			continue // a continuation line (Signed-By's embedded key)
		}
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		any = true
		vals := strings.Fields(v)
		switch strings.ToLower(strings.TrimSpace(k)) {
		case "types":
			cur.types = vals
		case "uris":
			cur.uris = vals
		case "suites":
			cur.suites = vals
		case "enabled":
			enabled = len(vals) == 0 || !strings.EqualFold(vals[0], "no")
		}
	}
	flush()
	return out
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}
