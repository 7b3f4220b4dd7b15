package syscalls

import (
	"os"
	"strconv"
	"syscall"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// openPTY opens a pseudo-terminal pair (Linux /dev/ptmx) or skips.
func openPTY(t *testing.T) (master, slave *os.File) {
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skip("no /dev/ptmx:", err)
	}
	t.Cleanup(func() { m.Close() })
	var unlock int32
	require.NoError(t, ioctl(m, 0x40045431, unsafe.Pointer(&unlock))) // TIOCSPTLCK
	var n uint32
	require.NoError(t, ioctl(m, 0x80045430, unsafe.Pointer(&n))) // TIOCGPTN
	s, err := os.OpenFile("/dev/pts/"+strconv.Itoa(int(n)), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skip("cannot open the pty slave:", err)
	}
	t.Cleanup(func() { s.Close() })
	return m, s
}

func TestTerminalIoctls(t *testing.T) {
	_, slave := openPTY(t)
	x := newTK(t, Config{Stdout: slave})
	buf := x.alloc(64)
	want, err := hostTermios(slave)
	require.NoError(t, err)
	require.Zero(t, x.call("ioctl", 1, tcgets, buf))
	require.Equal(t, want[:termiosLen], x.peek(buf, termiosLen))
	x.requireWrites(Range{buf, termiosLen})
	// a window size set on the host side is what the guest reads
	ws := [4]uint16{24, 80, 0, 0}
	require.NoError(t, ioctl(slave, tiocswinsz, unsafe.Pointer(&ws[0])))
	require.Zero(t, x.call("ioctl", 1, tiocgwinsz, buf))
	require.Equal(t, []byte{24, 0, 80, 0, 0, 0, 0, 0}, x.peek(buf, winsizeLen))
	require.Zero(t, x.call("ioctl", 1, tcsets, buf), "accepted, not applied")
	require.Equal(t, errno(ENOTTY), x.call("ioctl", 2, tcgets, buf), "stderr is a buffer")
	st := x.alloc(statSize)
	require.Zero(t, x.call("fstat", 1, st))
	require.Equal(t, uint32(sIFCHR), x.u32(st+statModeOff)&sIFMT, "host fstat of the terminal")
}
