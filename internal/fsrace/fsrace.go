// Package fsrace is the fixture of the file-system sandbox's race tests
// (syscalls and test/): a tree with sentinel files outside the guest root
// and inside it but outside --allow-write, a writable directory whose
// subdirectory d is swapped with symbolic links to those places, and a
// snapshot of the sentinels (mode, owner, size, mtime, content hash of
// every file, the entries of every directory) to compare before and after.
package fsrace

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
)

// Links are the names of the symbolic links in W that are swapped with
// W/d, and their targets: relative targets are as stored, absolute ones
// as a host lookup would see them.
var Links = []string{"lnk-abs-out", "lnk-rel-out", "lnk-abs-ro", "lnk-rel-ro", "lnk-host-ro"}

// Tree is the fixture's layout below a temporary directory.
type Tree struct {
	Root      string   // the guest's root: <tmp>/J
	W         string   // the writable directory (--allow-write): J/w, holding d and the links
	Sentinels []string // <tmp>/outside (outside the root) and J/ro (inside, read-only)
}

// Make builds the fixture below tmp (a symlink-free path).
func Make(tmp string) (Tree, error) {
	outside := filepath.Join(tmp, "outside")
	t := Tree{Root: filepath.Join(tmp, "J")}
	t.W = filepath.Join(t.Root, "w")
	ro := filepath.Join(t.Root, "ro")
	t.Sentinels = []string{outside, ro}
	for _, d := range []string{outside, ro, filepath.Join(t.W, "d")} {
		if err := os.MkdirAll(filepath.Join(d, "sub"), 0o755); err != nil {
			return t, err
		}
		if err := os.WriteFile(filepath.Join(d, "f"), []byte("sentinel "+d+"\n"), 0o644); err != nil {
			return t, err
		}
		if err := os.WriteFile(filepath.Join(d, "sub", "g"), []byte("deeper\n"), 0o644); err != nil {
			return t, err
		}
	}
	targets := map[string]string{
		"lnk-abs-out": outside,         // an absolute host path outside the root
		"lnk-rel-out": "../../outside", // climbs out of the root on the host
		"lnk-abs-ro":  "/ro",           // the guest's /ro (the host's /ro for a host lookup)
		"lnk-rel-ro":  "../ro",         // inside the root, not writable
		"lnk-host-ro": ro,              // J/ro by its host path (outside the guest's view)
	}
	for _, name := range Links {
		if err := os.Symlink(targets[name], filepath.Join(t.W, name)); err != nil {
			return t, err
		}
	}
	return t, nil
}

// Snapshot records every file and directory below the sentinel
// directories.
func (t Tree) Snapshot() (map[string]string, error) {
	s := map[string]string{}
	for _, d := range t.Sentinels {
		err := filepath.WalkDir(d, func(p string, de fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			var st syscall.Stat_t
			if err := syscall.Lstat(p, &st); err != nil {
				return err
			}
			desc := fmt.Sprintf("mode=%o uid=%d gid=%d size=%d mtime=%d.%09d",
				st.Mode, st.Uid, st.Gid, st.Size, st.Mtim.Sec, st.Mtim.Nsec)
			switch {
			case de.Type().IsRegular():
				b, err := os.ReadFile(p)
				if err != nil {
					return err
				}
				desc += fmt.Sprintf(" sha256=%x", sha256.Sum256(b))
			case de.IsDir():
				ents, err := os.ReadDir(p)
				if err != nil {
					return err
				}
				names := make([]string, len(ents))
				for i, e := range ents {
					names[i] = e.Name()
				}
				desc += " entries=" + strings.Join(names, ",")
			}
			s[p] = desc
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return s, nil
}

// Diff lists every difference between two snapshots, sorted.
func Diff(before, after map[string]string) []string {
	var diffs []string
	for p, b := range before {
		if a, ok := after[p]; !ok {
			diffs = append(diffs, p+": removed")
		} else if a != b {
			diffs = append(diffs, fmt.Sprintf("%s:\n  before %s\n  after  %s", p, b, a))
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			diffs = append(diffs, p+": created")
		}
	}
	sort.Strings(diffs)
	return diffs
}
