package syscalls

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// FuzzSCMRights sends arbitrary control data over a socket pair of each
// type and receives it with an arbitrary control buffer: no panic, a
// failed send leaves no reference behind, and once every descriptor is
// closed the pipe whose write end was passed sees end of file (no
// reference leaked in flight or in a receive).
func FuzzSCMRights(f *testing.F) {
	rights := func(fds ...uint32) []byte {
		b := make([]byte, cmsgHdrSize+4*len(fds))
		put64(b, 0, uint64(len(b)))
		put32(b, 8, solSocket)
		put32(b, 12, scmRights)
		for i, fd := range fds {
			put32(b, cmsgHdrSize+4*i, fd)
		}
		return b
	}
	f.Add(uint8(0), rights(6), uint16(24), uint8(0), uint16(1))
	f.Add(uint8(1), append(rights(6, 4, 3), rights(6)...), uint16(20), uint8(2), uint16(0))
	f.Add(uint8(2), rights(6, 99), uint16(64), uint8(0), uint16(3))
	f.Add(uint8(2), rights(4, 6), uint16(64), uint8(1), uint16(3))
	f.Add(uint8(0), []byte{8, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0}, uint16(16), uint8(1), uint16(2))
	f.Fuzz(func(t *testing.T, typ uint8, control []byte, room uint16, recvFlags uint8, data uint16) {
		if len(control) > 4096 {
			control = control[:4096]
		}
		x := newTK(t, Config{})
		sv := x.alloc(8)
		types := []uint64{sockStream, sockDgram, sockSeqpacket}
		require.Zero(t, x.call("socketpair", afUnix, types[int(typ)%3], 0, sv))
		a, b := uint64(x.u32(sv)), uint64(x.u32(sv+4))
		p := x.alloc(8)
		require.Zero(t, x.call("pipe2", p, oNonblock))
		rd, wr := uint64(x.u32(p)), uint64(x.u32(p+4))
		require.Equal(t, uint64(3), a, "the descriptors the seeds name")
		require.Equal(t, uint64(6), wr)
		n := uint64(data % 64)
		iov := x.u64s(x.alloc(64), n)
		ctl := x.data(control)
		hdr := x.u64s(0, 0, iov, 1, ctl, uint64(len(control)), 0)
		sent := x.call("sendmsg", a, hdr, msgDontwait)
		require.Zero(t, x.call("close", wr))
		flags := []uint64{0, msgPeek, msgCmsgClexec}[int(recvFlags)%3]
		rctl := x.alloc(uint64(room%512) + 8)
		rhdr := x.u64s(0, 0, x.u64s(x.alloc(64), 64), 1, rctl, uint64(room%512), 0)
		got := x.call("recvmsg", b, rhdr, msgDontwait|flags)
		if sent < 0 {
			assert.Less(t, got, int64(0), "nothing was sent")
		}
		// What a peek left (a socket passed over itself would otherwise
		// stay in flight: Linux's garbage collector of such cycles is not
		// modelled).
		big := x.alloc(4096)
		x.call("recvmsg", b, x.u64s(0, 0, x.u64s(x.alloc(64), 64), 1, big, 4096, 0), msgDontwait)
		for fd := uint64(3); fd < 64; fd++ {
			if fd != rd {
				x.call("close", fd)
			}
		}
		buf := x.alloc(8)
		assert.Zero(t, x.call("read", rd, buf, 8), "every reference to the write end is gone: end of file")
	})
}
