package syscalls

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestSpliceTeeVmsplice(t *testing.T) {
	x := workdir(t, "f=0123456789", "out=")
	f := x.open("f", oRdonly, 0)
	o := x.open("out", oWronly, 0)
	pipe := func() (uint64, uint64) {
		fds := x.alloc(8)
		require.Zero(t, x.call("pipe2", fds, 0))
		return x.fds2(fds)
	}
	r1, w1 := pipe()
	r2, w2 := pipe()

	// A file into a pipe: at an offset (the position stays), then at the
	// position (it moves).
	off := x.u64s(2)
	require.Equal(t, int64(3), x.call("splice", f, off, w1, 0, 3, 0))
	require.Equal(t, uint64(5), x.u64(off), "the offset advanced")
	require.Equal(t, int64(4), x.call("splice", f, 0, w1, 0, 4, 0))
	require.Equal(t, int64(4), x.call("lseek", f, 0, 1), "the position moved")
	// Pipe to pipe, then tee (copies, leaves them), then into a file.
	require.Equal(t, int64(5), x.call("splice", r1, 0, w2, 0, 5, 0))
	require.Equal(t, int64(2), x.call("tee", r2, w1, 2, 0))
	oo := x.u64s(1)
	require.Equal(t, int64(5), x.call("splice", r2, 0, o, oo, 100, 0))
	require.Equal(t, uint64(6), x.u64(oo))
	require.Equal(t, "\x0023401", x.readAll(x.open("out", oRdonly, 0)))
	buf := x.alloc(8)
	require.Equal(t, int64(4), x.call("read", r1, buf, 8))
	require.Equal(t, "2323", string(x.peek(buf, 4)), "what splice left and tee added")

	// vmsplice: memory into the write end, the read end into memory.
	require.Equal(t, int64(5), x.call("vmsplice", w1, x.u64s(x.str("hello"), 5), 1, 0))
	dst := x.alloc(8)
	require.Equal(t, int64(5), x.call("vmsplice", r1, x.u64s(dst, 8), 1, 0))
	require.Equal(t, "hello", string(x.peek(dst, 5)))

	for _, tc := range []struct {
		desc string
		got  int64
		want Errno
	}{
		{"no pipe", x.call("splice", f, 0, o, 0, 1, 0), EINVAL},
		{"offset on a pipe", x.call("splice", r1, x.u64s(0), o, 0, 1, 0), ESPIPE},
		{"same pipe", x.call("splice", r1, 0, w1, 0, 1, 0), EINVAL},
		{"empty pipe, non-blocking", x.call("splice", r1, 0, o, 0, 1, spliceNonblock), EAGAIN},
		{"unknown flag", x.call("splice", f, 0, w1, 0, 1, 16), EINVAL},
		{"write end read", x.call("splice", w1, 0, o, 0, 1, 0), EBADF},
		{"tee of files", x.call("tee", f, w1, 1, 0), EINVAL},
		{"tee empty, non-blocking", x.call("tee", r1, w2, 1, spliceNonblock), EAGAIN},
		{"vmsplice on a file", x.call("vmsplice", f, x.u64s(dst, 1), 1, 0), EBADF},
		{"vmsplice empty, non-blocking", x.call("vmsplice", r1, x.u64s(dst, 1), 1, spliceNonblock), EAGAIN},
	} {
		require.Equal(t, errno(tc.want), tc.got, tc.desc)
	}
	require.Zero(t, x.call("splice", f, 0, w1, 0, 0, 0), "nothing asked")
	require.Equal(t, int64(6), x.call("splice", f, 0, w1, 0, 100, 0), "to the end of the file")
	require.Zero(t, x.call("splice", f, 0, w1, 0, 100, 0), "at its end")
	require.Zero(t, x.call("close", w1))
	require.Equal(t, int64(6), x.call("splice", r1, 0, w2, 0, 100, 0))
	require.Zero(t, x.call("splice", r1, 0, w2, 0, 100, 0), "no writer left: end of file")
}
