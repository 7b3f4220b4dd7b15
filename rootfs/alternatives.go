package rootfs

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
)

// The extract variant runs no maintainer script, so a root would lack
// the links update-alternatives makes when a package is configured:
// /usr/bin/awk for gawk or mawk, /usr/bin/which, editor, pager, lzma,
// and the rest. mmdebstrap's extract hook copies each downloaded
// package's postinst out of its control archive (postinstHook, with the
// host's dpkg-deb) before the apt cache is cleaned; applyAlternatives
// reads the update-alternatives --install commands written out in them
// and makes each group's links in auto mode, as update-alternatives
// would: the highest priority among the alternatives whose file the
// root holds, the master link and each slave whose file exists, through
// /etc/alternatives, and writes each group's entry in update-alternatives'
// database (writeAltDB). Commands built from shell variables in a loop,
// as OpenJDK's are, are expanded (scriptCommands).

// postinstDir is where the hook leaves the scripts, one file per
// package archive, removed once read.
const postinstDir = ".rvsim-postinst"

const postinstHook = `mkdir -p "$1/` + postinstDir + `" && for d in "$1"/var/cache/apt/archives/*.deb; do ` +
	`dpkg-deb --ctrl-tarfile "$d" | tar -xO ./postinst > "$1/` + postinstDir + `/$(basename "$d" .deb)" 2>/dev/null || true; done`

// alternative is one update-alternatives --install: a group's master
// link, its name, this alternative's file and priority, and its slaves.
type alternative struct {
	link, name, path string
	priority         int
	slaves           []slaveLink
}

// slaveLink is one --slave: a link, its name and this alternative's file.
type slaveLink struct{ link, name, path string }

// parseAlternatives returns the update-alternatives --install commands
// a maintainer script runs for a first install into root, in order
// (scriptCommands reads the script).
func parseAlternatives(script, root string) []alternative {
	var out []alternative
	for _, args := range scriptCommands(script, "riscv64", root) {
		if a, ok := parseInstall(args); ok {
			out = append(out, a)
		}
	}
	return out
}

// parseInstall reads an update-alternatives command's arguments, expanded:
// false unless it is an --install with a numeric priority.
func parseInstall(args []string) (alternative, bool) {
	var a alternative
	for len(args) > 0 {
		switch args[0] {
		case "--quiet", "--force":
			args = args[1:]
		case "--install":
			if len(args) < 5 {
				return a, false
			}
			p, err := strconv.Atoi(args[4])
			if err != nil {
				return a, false
			}
			a = alternative{link: args[1], name: args[2], path: args[3], priority: p}
			args = args[5:]
		case "--slave":
			if a.name == "" {
				return a, false
			}
			if len(args) < 4 { // its words cut short (scriptCommands)
				return a, true
			}
			a.slaves = append(a.slaves, slaveLink{args[1], args[2], args[3]})
			args = args[4:]
		default: // another action, or words that are not an option
			return a, a.name != ""
		}
	}
	return a, a.name != ""
}

// applyAlternatives makes the links of every group the scripts in
// root's postinstDir install, then removes the directory.
func applyAlternatives(root string) error {
	dir := filepath.Join(root, postinstDir)
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return errorf("%v", err)
	}
	best := map[string]alternative{}
	choices := map[string][]alternative{} // every alternative of a group whose file exists
	var names []string
	for _, e := range ents { // (ReadDir sorts: the same choice every time)
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return errorf("%v", err)
		}
		for _, a := range parseAlternatives(string(b), root) {
			if !exists(root, a.path) {
				continue
			}
			old, seen := best[a.name]
			if !seen {
				names = append(names, a.name)
			}
			if !seen || a.priority > old.priority {
				best[a.name] = a
			}
			choices[a.name] = append(choices[a.name], a)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		a := best[n]
		if err := alternativeLink(root, a.link, a.name, a.path); err != nil {
			return err
		}
		for _, s := range a.slaves {
			if exists(root, s.path) {
				if err := alternativeLink(root, s.link, s.name, s.path); err != nil {
					return err
				}
			}
		}
		if err := writeAltDB(root, n, a.link, choices[n]); err != nil {
			return err
		}
	}
	return os.RemoveAll(dir)
}

// writeAltDB writes the group's file in /var/lib/dpkg/alternatives, as
// dpkg's alternative_save lays it out, so that update-alternatives in
// the root (--display, --config, --list) knows the group: its mode and
// master link, each slave's name and link (sorted by name), an empty
// line, then each choice (sorted by file) with its priority and its
// file for each slave (empty if it has none), and an empty line.
func writeAltDB(root, name, link string, choices []alternative) error {
	slaves := map[string]string{}
	for _, c := range choices {
		for _, s := range c.slaves {
			if _, ok := slaves[s.name]; !ok {
				slaves[s.name] = s.link
			}
		}
	}
	slaveNames := make([]string, 0, len(slaves))
	for n := range slaves {
		slaveNames = append(slaveNames, n)
	}
	sort.Strings(slaveNames)
	byPath := map[string]alternative{}
	for _, c := range choices {
		byPath[c.path] = c // (a file installed twice: the last command stands)
	}
	paths := make([]string, 0, len(byPath))
	for p := range byPath {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var b strings.Builder
	b.WriteString("auto\n" + link + "\n")
	for _, n := range slaveNames {
		b.WriteString(n + "\n" + slaves[n] + "\n")
	}
	b.WriteString("\n")
	for _, p := range paths {
		c := byPath[p]
		b.WriteString(p + "\n" + strconv.Itoa(c.priority) + "\n")
		for _, n := range slaveNames {
			file := ""
			for _, s := range c.slaves {
				if s.name == n {
					file = s.path
				}
			}
			b.WriteString(file + "\n")
		}
	}
	b.WriteString("\n")
	dir := filepath.Join(root, "var", "lib", "dpkg", "alternatives")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return errorf("%v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), []byte(b.String()), 0o644); err != nil {
		return errorf("%v", err)
	}
	return nil
}

// exists reports whether the root holds a file at the guest path p.
func exists(root, p string) bool {
	_, err := statIn(root, p)
	return err == nil
}

// statIn stats the guest path p in the root, following symbolic links as
// the guest would: an absolute target is taken inside the root, not on
// the host.
func statIn(root, p string) (fs.FileInfo, error) {
	r, err := resolveIn(root, p)
	if err != nil {
		return nil, err
	}
	return os.Stat(filepath.Join(root, r))
}

// resolveIn returns the guest path p with every symbolic link in it
// followed inside the root.
func resolveIn(root, p string) (string, error) {
	cur := "/"
	rest := strings.Split(p, "/")
	for hops := 0; len(rest) > 0; {
		name := rest[0]
		rest = rest[1:]
		if name == "" || name == "." {
			continue
		}
		if name == ".." {
			cur = path.Dir(cur)
			continue
		}
		next := path.Join(cur, name)
		fi, err := os.Lstat(filepath.Join(root, next))
		if err != nil {
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			cur = next
			continue
		}
		if hops++; hops > 40 {
			return "", &fs.PathError{Op: "stat", Path: p, Err: syscall.ELOOP}
		}
		target, err := os.Readlink(filepath.Join(root, next))
		if err != nil {
			return "", err
		}
		if strings.HasPrefix(target, "/") {
			cur = "/"
		}
		rest = append(strings.Split(target, "/"), rest...)
	}
	return cur, nil
}

// alternativeLink makes link point at /etc/alternatives/name and that at
// path, unless the root already has a file at link (a package's own).
func alternativeLink(root, link, name, path string) error {
	alt := filepath.Join(root, "etc", "alternatives", name)
	if err := os.MkdirAll(filepath.Dir(alt), 0o755); err != nil {
		return errorf("%v", err)
	}
	os.Remove(alt)
	if err := os.Symlink(path, alt); err != nil {
		return errorf("%v", err)
	}
	at := filepath.Join(root, link)
	if _, err := os.Lstat(at); err == nil {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(at), 0o755); err != nil {
		return errorf("%v", err)
	}
	if err := os.Symlink("/etc/alternatives/"+name, at); err != nil {
		return errorf("%v", err)
	}
	return nil
}
