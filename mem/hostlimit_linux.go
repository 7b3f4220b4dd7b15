//go:build linux

package mem

import (
	"os"
	"strconv"
	"strings"
	"syscall"
)

// addressSpaceLimit returns RLIMIT_AS and rvsim's current virtual size
// (VmSize), if the limit is set.
func addressSpaceLimit() (limit, used uint64, ok bool) {
	var r syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &r); err != nil || r.Cur == ^uint64(0) {
		return 0, 0, false
	}
	if data, err := os.ReadFile("/proc/self/status"); err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			if v, ok := strings.CutPrefix(line, "VmSize:"); ok {
				kb, _ := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
				used = kb << 10
			}
		}
	}
	return r.Cur, used, true
}
