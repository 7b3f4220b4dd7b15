package syscalls

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestMountPropagation: mount(2) changes the root mount's propagation
// type as do_change_type does, per mount namespace (unshare's copy joins
// its creator's peer group), and mountinfo shows it; hand-derived from
// fs/namespace.c and fs/pnode.c.
func TestMountPropagation(t *testing.T) {
	x := newTK(t, Config{})
	x.setRoot(true)
	require.NoError(t, os.Mkdir(filepath.Join(x.root, "sub"), 0o755))
	root, sub, missing := x.str("/"), x.str("/sub"), x.str("/missing")
	optional := func() string {
		line := x.readAll(x.open("/proc/self/mountinfo", 0, 0))
		fields := strings.Fields(line)
		var opt []string
		for _, f := range fields[6:] {
			if f == "-" {
				break
			}
			opt = append(opt, f)
		}
		return fields[0] + " " + strings.Join(opt, " ")
	}
	mount := func(target, flags uint64) int64 { return x.call("mount", 0, target, 0, flags, 0) }
	require.Equal(t, "21 shared:1", optional(), "the run's first mount namespace")

	require.Zero(t, mount(root, msRec|msPrivate))
	require.Equal(t, "21 ", optional())
	require.Zero(t, mount(root, msShared))
	require.Equal(t, "21 shared:2", optional(), "a new peer group")
	require.Zero(t, mount(root, msShared|msSilent))
	require.Equal(t, "21 shared:2", optional(), "already shared")
	require.Equal(t, errno(EINVAL), mount(root, msMgcVal|msShared), "the old magic number only goes with the low 16 flags: its bits stay, MS_NOUSER among them")
	require.Zero(t, mount(root, msSlave))
	require.Equal(t, "21 ", optional(), "no peers: a slave of nothing is private")
	require.Zero(t, mount(root, msUnbindable))
	require.Equal(t, "21 unbindable", optional())
	require.Zero(t, mount(root, msShared))
	require.Equal(t, "21 shared:3", optional())

	require.Zero(t, x.call("unshare", cloneNewns))
	require.Equal(t, "22 shared:3", optional(), "a copy in the same peer group")
	require.Zero(t, mount(root, msSlave))
	require.Equal(t, "22 master:3", optional(), "a slave of its peers")
	require.Zero(t, mount(root, msShared))
	require.Equal(t, "22 shared:4 master:3", optional())

	for _, tc := range []struct {
		target, flags uint64
		want          int64
	}{
		{root, msPrivate | msShared, errno(EINVAL)},
		{root, msPrivate | 1, errno(EINVAL)}, // MS_RDONLY with a type
		{sub, msPrivate, errno(EINVAL)},      // not a mount's root
		{missing, msPrivate, errno(ENOENT)},
		{root, msPrivate | msNouser, errno(EINVAL)},
	} {
		require.Equal(t, tc.want, mount(tc.target, tc.flags), "flags %#x", tc.flags)
	}
	require.Empty(t, x.warn.String())
	require.Equal(t, errno(ENOSYS), mount(sub, msBind))
	require.Contains(t, x.warn.String(), "syscall 40 (mount) returns ENOSYS")

	x.setRoot(false)
	require.Equal(t, errno(EPERM), mount(root, msPrivate))
	require.Equal(t, errno(ENOENT), mount(missing, msPrivate), "the target is looked up first")
}
