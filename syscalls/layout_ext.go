package syscalls

// Structure layouts of the calls added for signals and tools (poll,
// select, statfs, itimers); layout_ext_test.go checks them, and the
// signal frame's in signal.go, against testdata/layout_ext.golden.
const (
	statfsSize       = 120 // struct statfs (asm-generic, 64-bit words)
	statfsFsidOff    = 56
	statfsNamelenOff = 64
	statfsFrsizeOff  = 72
	statfsFlagsOff   = 80
	pollfdSize       = 8 // struct pollfd: int fd; short events, revents
)
