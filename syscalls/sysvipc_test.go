package syscalls

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestIPCIDs: an object takes the lowest free index, and its id the
// index's sequence number times 32768 plus the index (ipc_addid), so a
// removed object's id is not found again when its index is reused; the
// table holds at most max objects (ENOSPC).
func TestIPCIDs(t *testing.T) {
	ids := ipcIDs[*msgQueue]{max: 3}
	q := func(key int32) *msgQueue { return &msgQueue{ipcPerm: ipcPerm{key: key}} }
	a, b, c := q(10), q(11), q(12)
	for _, o := range []*msgQueue{a, b, c} {
		require.Zero(t, ids.add(o))
	}
	assert.Equal(t, []int32{0, 1, 2}, []int32{a.id, b.id, c.id})
	assert.Equal(t, ENOSPC, ids.add(q(13)))
	ids.remove(b)
	_, e := ids.byID(1)
	assert.Equal(t, EINVAL, e)
	d := q(14)
	require.Zero(t, ids.add(d))
	assert.Equal(t, int32(ipcSeqMult+1), d.id, "index 1 again, its second sequence number")
	_, e = ids.byID(1)
	assert.Equal(t, EINVAL, e, "the old id")
	got, e := ids.byID(ipcSeqMult + 1)
	require.Zero(t, e)
	assert.Same(t, d, got)
	got, ok := ids.byKey(14)
	assert.True(t, ok)
	assert.Same(t, d, got)
	_, ok = ids.byKey(11)
	assert.False(t, ok)
	assert.Equal(t, int32(2), ids.highest())
	ids.remove(c)
	assert.Equal(t, int32(1), ids.highest())
	assert.Equal(t, 2, ids.inUse())
	_, e = ids.byIndex(2)
	assert.Equal(t, EINVAL, e)
	_, e = ids.byID(-1)
	assert.Equal(t, EINVAL, e)
}

// TestMsgFind: the message msgrcv takes for each type and flag (find_msg
// and convert_mode), on a queue of types 3, 1, 2, 1, 5.
func TestMsgFind(t *testing.T) {
	q := &msgQueue{}
	for _, typ := range []int64{3, 1, 2, 1, 5} {
		q.msgs = append(q.msgs, &sysvMsg{typ: typ})
	}
	for _, c := range []struct {
		typ   int64
		flags uint32
		want  int
	}{
		{0, 0, 0},         // the first
		{1, 0, 1},         // the first of type 1
		{4, 0, -1},        // none of type 4
		{3, msgExcept, 1}, // the first not of type 3
		{-2, 0, 1},        // the lowest type up to 2, the first of them
		{-3, 0, 1},        // type 1 before the 3 ahead of it
		{-10, 0, 1},       //
		{-0x7fffffffffffffff, 0, 1},
		{-1 << 63, 0, 1}, // -LONG_MIN: LONG_MAX
		{2, msgCopy, 2},  // the message at index 2
		{5, msgCopy, -1}, // past the end
		{-1, msgCopy, -1},
	} {
		mode, typ := searchMode(c.typ, c.flags)
		assert.Equal(t, c.want, q.find(typ, mode), "type %d, flags %#o", c.typ, c.flags)
	}
}

// TestSemPerform: an operation array applies all or nothing, in order,
// and reports the operation it would wait on.
func TestSemPerform(t *testing.T) {
	s := &semSet{sems: []semaphore{{val: 2}, {val: 0}}}
	w := &semWaiter{ops: []sembuf{{num: 0, op: -1}, {num: 0, op: -1}, {num: 1, op: -1}}}
	assert.Equal(t, errBlocked, s.perform(w))
	assert.Equal(t, 2, w.blocking)
	assert.Equal(t, int32(2), s.sems[0].val, "nothing applied")
	w.ops[2].flags = ipcNowait
	assert.Equal(t, EAGAIN, s.perform(w))
	w.ops[2] = sembuf{num: 1, op: 0}
	assert.Zero(t, s.perform(w))
	assert.Equal(t, int32(0), s.sems[0].val)
	s.sems[0].val = 1
	w = &semWaiter{ops: []sembuf{{num: 1, op: 1}, {num: 0, op: semVmx}}}
	assert.Equal(t, ERANGE, s.perform(w))
	assert.Equal(t, int32(0), s.sems[1].val, "the first undone")
	u := &semUndo{adj: []int32{0, -semAem}}
	w = &semWaiter{ops: []sembuf{{num: 1, op: 1, flags: semUndoFlag}}, undo: u}
	assert.Zero(t, s.perform(w))
	assert.Equal(t, int32(-semAem-1), u.adj[1])
	assert.Equal(t, ERANGE, s.perform(w), "past the adjustment's range")
	assert.Equal(t, int32(-semAem-1), u.adj[1])
}
