package mem

import (
	"errors"
	"fmt"
	"math/bits"
	"strconv"
	"strings"
)

// ParseSize parses a byte count with an optional binary suffix: "4096",
// "64K", "512M", "2G", "1T" (K = 1024; a trailing "B" or "iB" is
// accepted: "64KiB", "2GB"). Zero is refused.
func ParseSize(s string) (uint64, error) {
	t := strings.TrimSpace(s)
	u := strings.ToUpper(t)
	// "iB" only after a unit letter ("5iB" is not a size); "B" after one
	// or alone ("64KB", "512B").
	hadIB := strings.HasSuffix(u, "IB")
	u = strings.TrimSuffix(strings.TrimSuffix(u, "IB"), "B")
	shift := 0
	if n := len(u); n > 0 {
		switch u[n-1] {
		case 'K':
			shift = 10
		case 'M':
			shift = 20
		case 'G':
			shift = 30
		case 'T':
			shift = 40
		}
		if shift != 0 {
			u = u[:n-1]
		}
	}
	if hadIB && shift == 0 {
		return 0, fmt.Errorf("%q: want a size in bytes with an optional K, M, G or T suffix", s)
	}
	v, err := strconv.ParseUint(u, 10, 64)
	if errors.Is(err, strconv.ErrRange) {
		return 0, fmt.Errorf("%q: too large", s)
	}
	if err != nil {
		return 0, fmt.Errorf("%q: want a size in bytes with an optional K, M, G or T suffix", s)
	}
	if v == 0 {
		return 0, fmt.Errorf("%q: the size must be more than zero", s)
	}
	if hi, _ := bits.Mul64(v, 1<<shift); hi != 0 {
		return 0, fmt.Errorf("%q: too large", s)
	}
	return v << shift, nil
}

// FormatSize renders a byte count for messages: "64 MiB", "1.5 GiB",
// "4096 bytes".
func FormatSize(n uint64) string {
	units := []string{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	if n < 1<<10 {
		return fmt.Sprintf("%d bytes", n)
	}
	v, u := float64(n)/1024, 0
	for v >= 1024 && u < len(units)-1 {
		v /= 1024
		u++
	}
	if v == float64(uint64(v)) {
		return fmt.Sprintf("%d %s", uint64(v), units[u])
	}
	return fmt.Sprintf("%.1f %s", v, units[u])
}
