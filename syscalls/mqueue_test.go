package syscalls

import (
	"fmt"
	"io"
	"testing"

	"github.com/rvsim/rvsim/mem"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMqInsert: messages leave by priority, highest first, and in the
// order sent within one (msg_insert, msg_get); qsize counts the text.
func TestMqInsert(t *testing.T) {
	q := &mqueue{}
	for i, p := range []uint32{1, 9, 5, 9, 0, 5} {
		q.insert(&mqMsg{prio: p, text: []byte{byte('a' + i)}})
	}
	var got string
	for _, m := range q.msgs {
		got += fmt.Sprintf("%c%d ", m.text[0], m.prio)
	}
	assert.Equal(t, "b9 d9 c5 f5 a1 e0 ", got)
	assert.Equal(t, uint64(6), q.qsize)
}

// TestMqCharge: a queue costs its creator's RLIMIT_MSGQUEUE what
// mqueue_get_inode counts (a default queue: 10 × (48 + 8192) + 10 × 48 =
// 82,880 bytes), so nine default queues fit Linux's 819,200 and the
// tenth is EMFILE; an unlinked queue's charge comes back with its last
// close, and queues_max bounds the namespace for an unprivileged user.
func TestMqCharge(t *testing.T) {
	root := t.TempDir()
	k, err := New(mem.New(), Config{Root: root, Stdout: io.Discard, Stderr: io.Discard})
	require.NoError(t, err)
	defer k.Close()
	s := k.all.mqueues()
	var made []*mqueue
	for i := range 9 {
		q, e := k.mqCreate(s, fmt.Sprint("q", i), 0o600, nil)
		require.Zero(t, e, "queue %d", i)
		made = append(made, q)
	}
	assert.Equal(t, uint64(9*82880), s.charged[k.cred.ruid])
	_, e := k.mqCreate(s, "q9", 0o600, nil)
	assert.Equal(t, EMFILE, e)
	q := made[0]
	q.opens = 1
	delete(s.byName, q.name)
	q.linked = false
	k.mqFree(q)
	_, e = k.mqCreate(s, "q9", 0o600, nil)
	assert.Equal(t, EMFILE, e, "unlinked but open: still charged")
	q.opens = 0
	k.mqFree(q)
	_, e = k.mqCreate(s, "q9", 0o600, nil)
	assert.Zero(t, e, "the last close gave the charge back")

	attr := make([]byte, mqAttrSize)
	put64(attr, 8, 1)
	put64(attr, 16, 1)
	k.rlim[rlimitMsgq].cur = rlimInfinity
	k.cred.euid = 1000 // (unprivileged: queues_max holds)
	for s.count < mqQueuesMax {
		_, e := k.mqCreate(s, fmt.Sprint("small", s.count), 0o600, attr)
		require.Zero(t, e)
	}
	_, e = k.mqCreate(s, "one too many", 0o600, attr)
	assert.Equal(t, ENOSPC, e)
}
