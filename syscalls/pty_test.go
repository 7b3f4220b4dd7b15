package syscalls

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// FuzzPtyDiscipline writes arbitrary input to a master under arbitrary
// settings: no panic; the slave never reads more than was written (the
// line discipline's input side only maps or drops characters), the echo
// stays within what six bytes a character bound (a rubout of ^X), and a
// closed pair's slave name is gone.
func FuzzPtyDiscipline(f *testing.F) {
	f.Add(uint32(stdTermios.iflag), uint32(stdTermios.oflag), uint32(stdTermios.lflag), uint8(1), []byte("hello\rab\x7fc\x15x\x04\x17\n"))
	f.Add(uint32(0), uint32(0), uint32(0), uint8(0), []byte("raw\x03\x13\x11"))
	f.Add(uint32(tISTRIP|tINLCR|tIGNCR), uint32(tOPOST|tOLCUC|tOCRNL), uint32(tICANON|tECHO|tECHOCTL|tECHOKE|tECHOE|tIEXTEN), uint8(3), []byte{0x80, 'a', '\r', '\n', 0x17, 0x7f, 0x7f})
	f.Fuzz(func(t *testing.T, iflag, oflag, lflag uint32, vmin uint8, input []byte) {
		if len(input) > 2048 {
			input = input[:2048]
		}
		x := newTK(t, Config{})
		m := uint64(x.call("openat", fdcwd, x.str("/dev/ptmx"), oRdwr|oNoctty|oNonblock))
		require.Equal(t, int64(0), x.call("ioctl", m, tiocsptlck, x.u64s(0)))
		s := uint64(x.call("openat", fdcwd, x.str("/dev/pts/0"), oRdwr|oNoctty|oNonblock))
		require.GreaterOrEqual(t, int64(s), int64(3))
		tio := stdTermios
		tio.iflag, tio.oflag, tio.lflag = iflag&0x7fff, oflag&0x3f, lflag&0xffff
		tio.cc[vMIN] = vmin
		require.Zero(t, x.call("ioctl", s, tcsets, x.data(tio.encode(false))))
		wrote := x.call("write", m, x.data(input), uint64(len(input)))
		require.Equal(t, int64(len(input)), wrote)
		buf := x.alloc(8192)
		read := func(fd uint64) int64 {
			var total int64
			for range 4096 {
				n := x.call("read", fd, buf, 8192)
				if n <= 0 {
					break
				}
				total += n
			}
			return total
		}
		assert.LessOrEqual(t, read(s), int64(len(input)))
		assert.LessOrEqual(t, read(m), int64(6*len(input)))
		require.Zero(t, x.call("close", s))
		require.Zero(t, x.call("close", m))
		assert.Equal(t, errno(ENOENT), x.call("openat", fdcwd, x.str("/dev/pts/0"), oRdwr))
	})
}
