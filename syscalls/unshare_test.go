package syscalls

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestUnshare: unshare(2) on a kernel without namespaces (unshare.go),
// as ksys_unshare, create_user_ns's and create_new_namespaces' stubs
// answer: hand-derived from kernel/fork.c and kernel/nsproxy.c.
func TestUnshare(t *testing.T) {
	x := newTK(t, Config{})
	x.setRoot(true)
	for _, tc := range []struct {
		flags uint64
		want  int64
	}{
		{0, 0},
		{cloneFiles | cloneFS | cloneSighand | cloneVM | cloneThread, 0}, // one thread: nothing is shared
		{cloneNewns, 0},
		{cloneNewcgroup | cloneNewns, 0},
		{cloneNewuser, errno(EINVAL)},
		{cloneNewuser | cloneNewns, errno(EINVAL)},
		{cloneNewuts, errno(EINVAL)},
		{cloneNewipc, errno(EINVAL)},
		{cloneNewpid, errno(EINVAL)},
		{cloneNewnet, errno(EINVAL)},
		{cloneNewtime, errno(EINVAL)},
		{cloneNewns | cloneNewuts, errno(EINVAL)},
		{cloneSettls, errno(EINVAL)}, // not an unshare flag
		{1 << 32, errno(EINVAL)},
		{0x11, errno(EINVAL)}, // a signal number is no flag here
	} {
		require.Equal(t, tc.want, x.call("unshare", tc.flags), "root, flags %#x", tc.flags)
	}
	require.Empty(t, x.warn.String())

	x.setRoot(false)
	require.Equal(t, errno(EPERM), x.call("unshare", cloneNewns), "without CAP_SYS_ADMIN")
	require.Equal(t, errno(EPERM), x.call("unshare", cloneNewuts))
	require.Equal(t, errno(EINVAL), x.call("unshare", cloneNewuser), "no user namespaces: EINVAL before the capability")
	require.Zero(t, x.call("unshare", cloneFiles))

	// With a second thread: the thread group is not empty.
	x.setRoot(true)
	r := UserRegs{PC: 0x1004}
	x.spawn(&r, 0x9000, 0, x.alloc(4), 0)
	require.Equal(t, errno(EINVAL), x.call("unshare", cloneVM))
	require.Equal(t, errno(EINVAL), x.call("unshare", cloneSighand))
	require.Equal(t, errno(EINVAL), x.call("unshare", cloneNewuser), "implies CLONE_THREAD")
	require.Equal(t, errno(EINVAL), x.call("unshare", cloneNewuts))
	require.Zero(t, x.call("unshare", cloneNewcgroup))
	require.Equal(t, errno(ENOSYS), x.call("unshare", cloneFiles), "one thread's own table")
	require.Contains(t, x.warn.String(), "syscall 97 (unshare) returns ENOSYS")
}
