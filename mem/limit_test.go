package mem

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseSize(t *testing.T) {
	tests := []struct {
		desc, in string
		want     uint64
		err      string
	}{
		{"bytes", "4096", 4096, ""},
		{"K", "64K", 64 << 10, ""},
		{"lower-case m", "512m", 512 << 20, ""},
		{"G", "2G", 2 << 30, ""},
		{"GB", "2GB", 2 << 30, ""},
		{"GiB", "2GiB", 2 << 30, ""},
		{"T", "1T", 1 << 40, ""},
		{"B alone", "512B", 512, ""},
		{"iB without a unit", "5iB", 0, `"5iB": want a size in bytes with an optional K, M, G or T suffix`},
		{"spaces around", " 8M ", 8 << 20, ""},
		{"zero", "0", 0, `"0": the size must be more than zero`},
		{"empty", "", 0, `"": want a size in bytes with an optional K, M, G or T suffix`},
		{"fraction", "1.5G", 0, `"1.5G": want a size in bytes with an optional K, M, G or T suffix`},
		{"unknown suffix", "3X", 0, `"3X": want a size in bytes with an optional K, M, G or T suffix`},
		{"negative", "-1M", 0, `"-1M": want a size in bytes with an optional K, M, G or T suffix`},
		{"overflow", "20000000T", 0, `"20000000T": too large`},
		{"more digits than 64 bits hold", "99999999999999999999999", 0, `"99999999999999999999999": too large`},
		{"more digits than 64 bits hold, K", "99999999999999999999999K", 0, `"99999999999999999999999K": too large`},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			got, err := ParseSize(tc.in)
			if tc.err != "" {
				require.Error(t, err)
				assert.Equal(t, tc.err, err.Error())
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestFormatSize(t *testing.T) {
	for _, tc := range []struct {
		n    uint64
		want string
	}{
		{0, "0 bytes"}, {1023, "1023 bytes"}, {4096, "4 KiB"}, {64 << 20, "64 MiB"},
		{3 << 29, "1.5 GiB"}, {7 << 30, "7 GiB"},
	} {
		assert.Equal(t, tc.want, FormatSize(tc.n), "%d", tc.n)
	}
}

// TestLimitStopsMaterialising: with a limit of two pages, the third page
// touched cannot be backed: the access fails and Exhausted names the
// address; pages already backed stay usable, and unmapping frees room.
func TestLimitStopsMaterialising(t *testing.T) {
	m := New()
	m.SetLimit(2*PageSize + 100) // rounded down to two pages
	assert.Equal(t, uint64(2*PageSize), m.Limit())
	require.NoError(t, m.Map(0x10000, 16*PageSize, RW, "heap"))
	assert.True(t, m.Write64(0x10000, 1))
	assert.True(t, m.Write64(0x11000, 2))
	_, ok := m.Exhausted()
	assert.False(t, ok)
	assert.False(t, m.Write64(0x12008, 3), "a third page cannot be backed")
	addr, ok := m.Exhausted()
	assert.True(t, ok)
	assert.Equal(t, uint64(0x12008), addr)
	_, ok = m.Read64(0x13000)
	assert.False(t, ok, "a read of an untouched page needs a page too")
	addr, _ = m.Exhausted()
	assert.Equal(t, uint64(0x12008), addr, "the first failure is kept")
	v, ok := m.Read64(0x11000)
	assert.True(t, ok)
	assert.Equal(t, uint64(2), v)
	assert.Error(t, m.Poke(0x14000, []byte{1}), "bulk copies are bounded too")
	m.Unmap(0x10000, PageSize)
	assert.True(t, m.Write64(0x12008, 3), "unmapping made room")
	assert.Equal(t, 2, m.Footprint())
}

func TestCommitted(t *testing.T) {
	m := New()
	require.NoError(t, m.Map(0x10000, 2*PageSize, RX, "text"))
	require.NoError(t, m.Map(0x20000, 3*PageSize, RW, "data"))
	require.NoError(t, m.Map(0x30000, 4*PageSize, RW, "[stack]"))
	require.NoError(t, m.Map(0x40000, 5*PageSize, 0, "guard"))
	assert.Equal(t, uint64(7*PageSize), m.Committed(""))
	assert.Equal(t, uint64(3*PageSize), m.Committed("[stack]"))
	assert.Equal(t, uint64(1*PageSize), m.CommittedIn(0x11000, 0x10000, "[stack]"), "[0x11000, 0x21000) holds one writable page")
	assert.Equal(t, uint64(0), m.CommittedIn(0x40000, PageSize, ""))
}

func TestHostMemory(t *testing.T) {
	tests := []struct {
		desc, root string
		bytes      uint64
		source     string
		limit      uint64
	}{
		// user.slice allows 8 GiB and uses 1 GiB: 7 GiB is less than
		// MemAvailable (20 GiB); job and the root say "max".
		{"cgroup v2, an ancestor's memory.max", "testdata/hostv2", 7 << 30, "cgroup memory.max", (7<<30)*7/8 - 64<<20},
		// The v1 memory controller's path is not in the (namespaced)
		// mount: its root's limit, 2 GiB less 512 MiB used, applies.
		{"cgroup v1, namespaced", "testdata/hostv1", 3 << 29, "cgroup memory.limit_in_bytes", (3<<29)*7/8 - 64<<20},
		{"nothing known", "testdata/hostnone", 0, "", 0},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			h := readHostMemory(tc.root)
			assert.Equal(t, tc.bytes, h.Bytes)
			assert.Equal(t, tc.source, h.Source)
			assert.Equal(t, tc.limit, h.Default())
		})
	}
	assert.Equal(t, uint64(minDefaultLimit), HostMemory{Bytes: 70 << 20}.Default(), "a tight host still gets a usable limit")
}

func TestHostLimitOnThisHost(t *testing.T) {
	h := HostLimit()
	if h.Bytes == 0 {
		t.Skip("no /proc/meminfo here")
	}
	assert.Less(t, h.Default(), h.Bytes)
	assert.Greater(t, h.Default(), uint64(0))
}
