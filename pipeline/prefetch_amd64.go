package pipeline

import "unsafe"

// prefetch asks the host to bring the n bytes from p on into its caches
// without waiting for them (PREFETCHT0 per 64-byte line; assembly).
//
//go:noescape
func prefetch(p unsafe.Pointer, n uintptr)
