//go:build !amd64

package pipeline

import "unsafe"

// prefetch is a hint the other hosts go without.
func prefetch(p unsafe.Pointer, n uintptr) {}
