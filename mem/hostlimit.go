package mem

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// The default guest memory limit is what the host can really give one run:
// the smallest of the memory the kernel reports available
// (/proc/meminfo MemAvailable), what the cgroup rvsim runs in allows
// (cgroup v2 memory.max less memory.current, v1 memory.limit_in_bytes less
// memory.usage_in_bytes, for the cgroup and each of its ancestors) and
// what RLIMIT_AS leaves of rvsim's address space, less a margin for rvsim
// itself: an eighth of that figure plus 64 MiB (the Go runtime, the page
// table, predecoded code, the garbage collector's slack).

// HostMemory describes the host's bound on a run's memory.
type HostMemory struct {
	Bytes  uint64 // the smallest bound found, before the margin; 0 if none
	Source string // which bound it is, for messages ("MemAvailable", "cgroup memory.max", "RLIMIT_AS")
}

// marginFixed is the fixed part of the margin left for rvsim itself.
const marginFixed = 64 << 20

// minDefaultLimit keeps the default usable on a tight host.
const minDefaultLimit = 16 << 20

// Default returns the default guest memory limit for a host bound, and a
// description for messages. With no bound known it returns 0 (no limit).
func (h HostMemory) Default() uint64 {
	if h.Bytes == 0 {
		return 0
	}
	margin := h.Bytes/8 + marginFixed
	if h.Bytes < margin+minDefaultLimit {
		return minDefaultLimit
	}
	return (h.Bytes - margin) &^ PageMask
}

// HostLimit measures this host (see the comment above).
func HostLimit() HostMemory {
	h := readHostMemory("/")
	if as, used, ok := addressSpaceLimit(); ok && as > used {
		h.lower(as-used, "RLIMIT_AS")
	}
	return h
}

func (h *HostMemory) lower(n uint64, source string) {
	if h.Bytes == 0 || n < h.Bytes {
		h.Bytes, h.Source = n, source
	}
}

// readHostMemory reads MemAvailable and the cgroup limits from the file
// system at root ("/" on the host; tests give a copy).
func readHostMemory(root string) HostMemory {
	var h HostMemory
	if kb, ok := meminfoField(filepath.Join(root, "proc/meminfo"), "MemAvailable"); ok {
		h.lower(kb<<10, "MemAvailable")
	}
	for _, c := range cgroupPaths(filepath.Join(root, "proc/self/cgroup")) {
		// The cgroup file system may be namespaced (the process's cgroup is
		// then the mount's root): try the path, then the root.
		base := filepath.Join(root, "sys/fs/cgroup")
		limitFile, usageFile, source := "memory.max", "memory.current", "cgroup memory.max"
		if c.v1 {
			base = filepath.Join(base, "memory")
			limitFile, usageFile, source = "memory.limit_in_bytes", "memory.usage_in_bytes", "cgroup memory.limit_in_bytes"
		}
		// The cgroup and its ancestors up to the mount's root (which is
		// the process's own cgroup when the file system is namespaced).
		for dir := c.path; ; dir = filepath.Dir(dir) {
			d := filepath.Join(base, dir)
			limit, ok := readUint(filepath.Join(d, limitFile))
			usage, _ := readUint(filepath.Join(d, usageFile))
			if ok && limit < 1<<62 { // v1 says "no limit" with a huge number, v2 with "max"
				h.lower(max(limit, usage+1)-usage, source)
			}
			if dir == "/" || dir == "." {
				break
			}
		}
	}
	return h
}

// meminfoField returns a "Name: N kB" field of /proc/meminfo, in kB.
func meminfoField(path, name string) (uint64, bool) {
	f, err := os.Open(path)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok || k != name {
			continue
		}
		n, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		return n, err == nil
	}
	return 0, false
}

type cgroup struct {
	path string
	v1   bool
}

// cgroupPaths lists the memory cgroups of /proc/self/cgroup: the v2 one
// ("0::/path") and the v1 memory controller's ("N:memory:/path").
func cgroupPaths(path string) []cgroup {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var out []cgroup
	for _, line := range strings.Split(string(data), "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 || !strings.HasPrefix(parts[2], "/") {
			continue
		}
		switch {
		case parts[0] == "0" && parts[1] == "":
			out = append(out, cgroup{path: parts[2]})
		case containsWord(parts[1], "memory"):
			out = append(out, cgroup{path: parts[2], v1: true})
		}
	}
	return out
}

func containsWord(list, w string) bool {
	for _, x := range strings.Split(list, ",") {
		if x == w {
			return true
		}
	}
	return false
}

// readUint reads a file holding one decimal number ("max" is not one).
func readUint(path string) (uint64, bool) {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	n, err := strconv.ParseUint(strings.TrimSpace(string(data)), 10, 64)
	return n, err == nil
}

// String describes the bound for messages.
func (h HostMemory) String() string {
	if h.Bytes == 0 {
		return "no host bound found"
	}
	return fmt.Sprintf("%s %s", h.Source, FormatSize(h.Bytes))
}
