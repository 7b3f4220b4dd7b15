package syscalls

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestWriteFaultKeepsWholeUnits: a write whose buffer becomes unreadable
// part-way keeps what came before the fault in whole units, as Linux
// copies a pipe's bytes a page at a time and a stream's a buffer at a
// time and drops the one the fault cut short. The figures are Linux
// 6.18's for the same calls (a 20000-byte write from a mapping whose
// fourth page is PROT_NONE, and a writev whose second buffer is at
// address 8). qemu-user is no oracle here: it checks a write's whole
// buffer first (EFAULT for each write) and cuts a writev's iovec at the
// bad buffer (3 for each writev).
func TestWriteFaultKeepsWholeUnits(t *testing.T) {
	x := newTK(t, Config{})
	m := uint64(x.call("mmap", 0, 4*4096, rw, anonRW, neg(-1), 0))
	require.Zero(t, x.call("mprotect", m+3*4096, 4096, 0))
	fds := x.alloc(8)
	require.Zero(t, x.call("pipe2", fds, oNonblock))
	r, w := x.fds2(fds)
	buf := x.alloc(1 << 15)
	for _, c := range []struct{ from, want int64 }{{0, 12288}, {4000, 8192}, {8000, 4096}, {12000, errno(EFAULT)}} {
		require.Equal(t, c.want, x.call("write", w, m+uint64(c.from), 20000), "pipe write from %d", c.from)
		want := max(c.want, errno(EAGAIN))
		require.Equal(t, want, x.call("read", r, buf, 1<<15), "what the pipe holds after the write from %d", c.from)
	}
	s0, s1 := x.pair(sockStream)
	require.Equal(t, errno(EFAULT), x.call("write", s0, m, 20000), "a stream's buffer the fault cut short")
	require.Equal(t, errno(EAGAIN), x.call("recvfrom", s1, buf, 1<<15, msgDontwait, 0, 0))

	// writev: a bad buffer after a good one (the same page for a pipe, the
	// same buffer for a stream); a datagram is one message or none.
	bad := x.u64s(x.str("abc"), 3, 8, 5)
	require.Equal(t, errno(EFAULT), x.call("writev", w, bad, 2))
	require.Equal(t, errno(EFAULT), x.call("writev", s0, bad, 2))
	d0, d1 := x.pair(sockDgram)
	require.Equal(t, errno(EFAULT), x.call("writev", d0, bad, 2))
	require.Equal(t, errno(EAGAIN), x.call("recvfrom", d1, buf, 16, msgDontwait, 0, 0), "no datagram went")
}
