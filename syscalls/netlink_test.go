package syscalls

import (
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The expectations here are Linux 6.18's answers, taken on a host from a
// Python netlink socket (the request bytes below, the reply datagrams
// in hex), with the host's port id (0x5405) and address timestamps put
// into rvsim's terms: the port id of the first socket is the pid, 1000
// (e8030000), and lo's addresses were made at boot (cstamp, tstamp 0).

const hostPort, ourPort = "05540000", "e8030000"

const iflaAFSpec = 26 // the attribute rvsim leaves out

// fromHost turns a host's reply (hex, spaces allowed) into the bytes
// rvsim must give.
func fromHost(s string) []byte {
	s = strings.ReplaceAll(strings.ReplaceAll(s, " ", ""), hostPort, ourPort)
	b, err := hex.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}

// nlReq is a request: a netlink header and the payload (hex).
func nlReq(length uint32, typ, flags uint16, seq uint32, payload string) []byte {
	b := make([]byte, nlmsgHdrLen)
	put32(b, 0, length)
	put16(b, 4, typ)
	put16(b, 6, flags)
	put32(b, 8, seq)
	p, err := hex.DecodeString(strings.ReplaceAll(payload, " ", ""))
	if err != nil {
		panic(err)
	}
	return append(b, p...)
}

// nlSock opens a NETLINK_ROUTE socket, sets SOL_NETLINK options to 1,
// and binds it (port 0: the kernel's choice).
func (x *tk) nlSock(opts ...int32) uint64 {
	x.t.Helper()
	fd := x.sock(afNetlink, sockRaw)
	for _, o := range opts {
		require.Zero(x.t, x.call("setsockopt", fd, solNetlink, uint64(o), x.data([]byte{1, 0, 0, 0}), 4))
	}
	require.Zero(x.t, x.bind(fd, sockaddrNl(0, 0)))
	return fd
}

func sockaddrNl(pid, groups uint32) []byte {
	b := make([]byte, sockaddrNlSize)
	put16(b, 0, afNetlink)
	put32(b, 4, pid)
	put32(b, 8, groups)
	return b
}

// nlRecv is recvmsg into one n-byte buffer with a 12-byte name: the
// result, the bytes received, msg_flags and the sender's address.
func (x *tk) nlRecv(fd, n, flags uint64) (ret int64, data []byte, msgFlags uint32, from []byte) {
	buf, name := x.alloc(n+1), x.alloc(sockaddrNlSize)
	hdr := x.u64s(name, sockaddrNlSize, x.u64s(buf, n), 1, 0, 0, 0)
	ret = x.call("recvmsg", fd, hdr, flags)
	if ret < 0 {
		return ret, nil, 0, nil
	}
	return ret, x.peek(buf, min(uint64(ret), n)), x.u32(hdr + 48), x.peek(name, uint64(x.u32(hdr+8)))
}

// drain receives datagrams until none is left (MSG_DONTWAIT).
func (x *tk) drain(fd uint64) [][]byte {
	x.t.Helper()
	var out [][]byte
	for {
		n, b, flags, from := x.nlRecv(fd, 4096, msgDontwait)
		if n == errno(EAGAIN) {
			return out
		}
		require.GreaterOrEqual(x.t, n, int64(0))
		require.Zero(x.t, flags&msgTrunc)
		require.Equal(x.t, kernelSockaddr, from, "from the kernel")
		out = append(out, b)
	}
}

// TestNetlinkHostAnswers: requests and the datagrams Linux answers them
// with, byte for byte.
func TestNetlinkHostAnswers(t *testing.T) {
	ifi0 := "00000000 00000000 00000000 00000000"
	ifi99 := "00000000 63000000 00000000 00000000"
	v4lo := "4c000000140022001200000005540000020880fe01000000080001007f000001080002007f000001070003006c6f0000080008008000000014000600ffffffffffffffff0000000000000000"
	tests := []struct {
		desc string
		opts []int32
		req  []byte
		want []string
	}{
		{"get by an index no device has, acknowledged: ENODEV with the request", nil,
			nlReq(32, rtmGetlink, nlmFRequest|nlmFAck, 1, ifi99),
			[]string{"34000000020000000100000005540000edffffff2000000012000500010000000000000000000000630000000000000000000000"}},
		{"get by neither index nor name: EINVAL", nil,
			nlReq(32, rtmGetlink, nlmFRequest, 2, ifi0),
			[]string{"34000000020000000200000005540000eaffffff2000000012000100020000000000000000000000000000000000000000000000"}},
		{"a type beyond RTM_MAX: EOPNOTSUPP", nil,
			nlReq(20, 200, nlmFRequest|nlmFAck, 4, "00000000"),
			[]string{"28000000020000000400000005540000a1ffffff14000000c8000500040000000000000000000000"}},
		{"NLMSG_NOOP with NLM_F_ACK: acknowledged, capped", nil,
			nlReq(16, 1, nlmFRequest|nlmFAck, 5, ""),
			[]string{"240000000200000105000000055400000000000010000000010005000500000000000000"}},
		{"NLMSG_NOOP without: nothing", nil, nlReq(16, 1, nlmFRequest, 5, ""), nil},
		{"not a request, NLM_F_ACK: acknowledged", nil,
			nlReq(20, rtmGetlink, nlmFAck, 6, "00000000"),
			[]string{"240000000200000106000000055400000000000014000000120004000600000000000000"}},
		{"no payload at all: nothing to do, acknowledged", nil,
			nlReq(16, rtmGetlink, nlmFRequest|nlmFAck, 7, ""),
			[]string{"240000000200000107000000055400000000000010000000120005000700000000000000"}},
		{"a get shorter than struct ifinfomsg: EINVAL", nil,
			nlReq(20, rtmGetlink, nlmFRequest, 8, "00000000"),
			[]string{"28000000020000000800000005540000eaffffff1400000012000100080000000000000000000000"}},
		{"NETLINK_CAP_ACK: the error echoes the header alone", []int32{netlinkCapAck},
			nlReq(32, rtmGetlink, nlmFRequest|nlmFAck, 9, ifi99),
			[]string{"24000000020000010900000005540000edffffff20000000120005000900000000000000"}},
		{"strict link dump with a short header: DONE carries EINVAL and, with NETLINK_EXT_ACK, why",
			[]int32{netlinkGetStrictChk, netlinkExtAck},
			nlReq(17, rtmGetlink, nlmFRequest|nlmFDump, 10, "00 000000"),
			[]string{"38000000030002020a00000005540000eaffffff21000100496e76616c69642068656164657220666f72206c696e6b2064756d7000000000"}},
		{"the same without NETLINK_EXT_ACK", []int32{netlinkGetStrictChk},
			nlReq(17, rtmGetlink, nlmFRequest|nlmFDump, 10, "00 000000"),
			[]string{"14000000030002000a00000005540000eaffffff"}},
		{"nlmsg_len below the header: dropped", nil, nlReq(8, rtmGetlink, nlmFRequest|nlmFAck, 12, "0000000000000000"), nil},
		{"nlmsg_len beyond the datagram: dropped", nil, nlReq(100, rtmGetlink, nlmFRequest|nlmFAck, 12, "0000000000000000"), nil},
		{"two requests in a datagram: two answers", nil,
			append(nlReq(16, 1, nlmFRequest|nlmFAck, 13, ""), nlReq(16, 1, nlmFRequest|nlmFAck, 14, "")...),
			[]string{"24000000020000010d000000055400000000000010000000010005000d00000000000000",
				"24000000020000010e000000055400000000000010000000010005000e00000000000000"}},
		{"trailing bytes short of a header: ignored", nil,
			nlReq(16, 1, nlmFRequest|nlmFAck, 15, "010203"),
			[]string{"24000000020000010f000000055400000000000010000000010005000f00000000000000"}},
		{"IPv4 addresses: 127.0.0.1/8, then DONE", nil,
			nlReq(24, rtmGetaddr, nlmFRequest|nlmFDump, 18, "02000000 00000000"),
			[]string{strings.Replace(v4lo, "140022001200", "140002001200", 1), "1400000003000200120000000554000000000000"}},
		{"strict, by lo's index: NLM_F_DUMP_FILTERED on every message and DONE", []int32{netlinkGetStrictChk},
			nlReq(24, rtmGetaddr, nlmFRequest|nlmFDump, 18, "02000000 01000000"),
			[]string{v4lo, "1400000003002200120000000554000000000000"}},
		{"strict, by an index nothing has: ENODEV in DONE", []int32{netlinkGetStrictChk},
			nlReq(24, rtmGetaddr, nlmFRequest|nlmFDump, 18, "02000000 4d000000"),
			[]string{"14000000030022001200000005540000edffffff"}},
		{"IPv6 routes: ::1 local", nil,
			nlReq(28, rtmGetroute, nlmFRequest|nlmFDump, 19, "0a000000 00000000 00000000"),
			[]string{"740000001800020013000000055400000a800000ff0200020000000008000f00ff00000014000100000000000000000000000000000000010800060000000000080004000100000024000c0000000000000000000000000000000000000000000000000000000000000000000500140000000000",
				"1400000003000200130000000554000000000000"}},
		{"links of AF_BRIDGE: no bridge ports", nil,
			nlReq(32, rtmGetlink, nlmFRequest|nlmFDump, 20, "07000000 00000000 00000000 00000000"),
			[]string{"1400000003000200140000000554000000000000"}},
		{"an address get without NLM_F_DUMP: EOPNOTSUPP", nil,
			nlReq(24, rtmGetaddr, nlmFRequest|nlmFAck, 21, "02000000 00000000"),
			[]string{"2c000000020000001500000005540000a1ffffff180000001600050015000000000000000200000000000000"}},
		{"a dump nobody registered (RTM_GETMULTICAST, AF_UNSPEC): EOPNOTSUPP", nil,
			nlReq(20, 58, nlmFRequest|nlmFDump, 11, "00000000"),
			[]string{"28000000020000000b00000005540000a1ffffff140000003a0001030b0000000000000000000000"}},
		{"traffic classes of noqueue: none", nil,
			nlReq(20, rtmGettclass, nlmFRequest|nlmFDump, 11, "00000000"),
			[]string{"14000000030002000b0000000554000000000000"}},
	}
	for _, tc := range tests {
		x := newTK(t, Config{})
		fd := x.nlSock(tc.opts...)
		require.Equal(t, int64(len(tc.req)), x.call("sendto", fd, x.data(tc.req), uint64(len(tc.req)), 0, 0, 0), tc.desc)
		got := x.drain(fd)
		want := make([][]byte, len(tc.want))
		for i, w := range tc.want {
			want[i] = fromHost(w)
		}
		if len(want) == 0 {
			want = nil
		}
		assert.Equal(t, hexAll(want), hexAll(got), tc.desc)
	}
}

func hexAll(bs [][]byte) []string {
	var out []string
	for _, b := range bs {
		out = append(out, hex.EncodeToString(b))
	}
	return out
}

// nlAttr is one attribute of a message.
type nlAttr struct {
	typ  uint16
	data string // hex
}

// attrsOf lists a message's attributes after its fixed header of n bytes,
// requiring each to start 4-byte aligned and the last to end the message.
func attrsOf(t *testing.T, msg []byte, n int) []nlAttr {
	t.Helper()
	var out []nlAttr
	off := nlmsgHdrLen + n
	for off < len(msg) {
		require.Zero(t, off%4, "attribute at %d is aligned", off)
		l := int(le16(msg[off:]))
		require.GreaterOrEqual(t, l, 4)
		require.LessOrEqual(t, off+l, len(msg))
		out = append(out, nlAttr{le16(msg[off+2:]), hex.EncodeToString(msg[off+4 : off+l])})
		off += nlmsgAlign(l)
	}
	require.Equal(t, len(msg), off, "the attributes fill the message")
	return out
}

// TestNetlinkLinkMessage: lo's RTM_NEWLINK has the host's fixed header
// and attributes in the host's order, but for what rvsim leaves out
// (IFLA_AF_SPEC), the zero counters, and the IFLA_PAD a riscv64 kernel
// puts before IFLA_STATS64 to align its 64-bit values.
func TestNetlinkLinkMessage(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "netlink-lo-newlink.hex"))
	require.NoError(t, err)
	var sb strings.Builder
	for _, line := range strings.Split(string(b), "\n") {
		if !strings.HasPrefix(line, "#") {
			sb.WriteString(line)
		}
	}
	host, err := hex.DecodeString(sb.String())
	require.NoError(t, err)
	var want []nlAttr
	for _, a := range attrsOf(t, host, ifinfomsgSize) {
		switch a.typ {
		case iflaAFSpec:
			continue
		case iflaStats64:
			want = append(want, nlAttr{iflaPad, ""})
			fallthrough
		case iflaStats:
			a.data = strings.Repeat("0", len(a.data))
		}
		want = append(want, a)
	}

	x := newTK(t, Config{})
	fd := x.nlSock()
	req := nlReq(40, rtmGetlink, nlmFRequest, 3, "00000000 00000000 00000000 00000000 0700 0300 6c6f0000")
	x.call("write", fd, x.data(req), uint64(len(req)))
	got := x.drain(fd)
	require.Len(t, got, 1)
	msg := got[0]
	require.Equal(t, hex.EncodeToString(host[4:12]), hex.EncodeToString(msg[4:12]), "type, flags 0, seq")
	require.Equal(t, ourPort, hex.EncodeToString(msg[12:16]), "the socket's port id")
	require.Equal(t, hex.EncodeToString(host[16:32]), hex.EncodeToString(msg[16:32]), "struct ifinfomsg")
	require.Equal(t, want, attrsOf(t, msg, ifinfomsgSize))
	off := strings.Index(hex.EncodeToString(msg), "cc001700") / 2 // IFLA_STATS64's header
	require.Zero(t, (off+4)%8, "IFLA_STATS64's counters are 8-byte aligned")
	require.Equal(t, uint32(len(msg)), u32(msg, 0))

	// By index too; an alias of lo's name is no device.
	req = nlReq(32, rtmGetlink, nlmFRequest, 4, "00000000 01000000 00000000 00000000")
	x.call("write", fd, x.data(req), uint64(len(req)))
	got = x.drain(fd)
	require.Len(t, got, 1)
	require.Equal(t, msg[16:], got[0][16:])
	req = nlReq(40, rtmGetlink, nlmFRequest, 5, "00000000 00000000 00000000 00000000 0700 0300 6c6f3a00")
	x.call("write", fd, x.data(req), uint64(len(req)))
	got = x.drain(fd)
	require.Len(t, got, 1)
	require.Equal(t, uint32(ENODEV), -u32(got[0], 16))
}

// TestNetlinkAddressesAndRoutes: the AF_UNSPEC dumps list IPv4 then
// IPv6, all in one datagram, as the host's for lo.
func TestNetlinkAddressesAndRoutes(t *testing.T) {
	x := newTK(t, Config{})
	fd := x.nlSock()
	req := nlReq(24, rtmGetaddr, nlmFRequest|nlmFDump, 1, "00000000 00000000")
	x.call("write", fd, x.data(req), uint64(len(req)))
	got := x.drain(fd)
	require.Equal(t, []string{
		"4c00000014000200010000004a560000020880fe01000000080001007f000001080002007f000001070003006c6f0000080008008000000014000600ffffffffffffffff0000000000000000" +
			"5000000014000200010000004a5600000a8080fe01000000140001000000000000000000000000000000000114000600ffffffffffffffff0000000000000000080008008000000005000b0001000000",
		"1400000003000200010000004a56000000000000"}, fixPort(hexAll(got)), "RTM_GETADDR")
	req = nlReq(28, rtmGetroute, nlmFRequest|nlmFDump, 1, "00000000 00000000 00000000")
	x.call("write", fd, x.data(req), uint64(len(req)))
	got = x.drain(fd)
	require.Equal(t, []string{
		"3c00000018000200010000004a56000002080000ff02fe020000000008000f00ff000000080001007f000000080007007f0000010800040001000000" +
			"3c00000018000200010000004a56000002200000ff02fe020000000008000f00ff000000080001007f000001080007007f0000010800040001000000" +
			"3c00000018000200010000004a56000002200000ff02fd030000000008000f00ff000000080001007fffffff080007007f0000010800040001000000" +
			"7400000018000200010000004a5600000a800000ff0200020000000008000f00ff00000014000100000000000000000000000000000000010800060000000000080004000100000024000c0000000000000000000000000000000000000000000000000000000000000000000500140000000000",
		"1400000003000200010000004a56000000000000"}, fixPort(hexAll(got)), "RTM_GETROUTE")
}

// fixPort writes the host's port of the captures in TestNetlinkAddressesAndRoutes (0x564a) for ours.
func fixPort(s []string) []string {
	for i := range s {
		s[i] = strings.ReplaceAll(s[i], ourPort, "4a560000")
	}
	return s
}

// TestNetlinkDump: a dump's NLMSG_DONE comes once its messages are read;
// another dump before then is EBUSY; what MSG_PEEK, MSG_TRUNC and
// MSG_DONTWAIT do; poll.
func TestNetlinkDump(t *testing.T) {
	x := newTK(t, Config{})
	fd := x.nlSock()
	n, _, _, _ := x.nlRecv(fd, 100, msgDontwait)
	require.Equal(t, errno(EAGAIN), n, "nothing yet")
	require.Equal(t, uint32(pollOut|pollWrnorm|pollWrband), x.revents(fd))

	dump := nlReq(20, rtmGetlink, nlmFRequest|nlmFDump, 42, "11000000")
	require.Equal(t, int64(20), x.call("write", fd, x.data(dump), 20))
	require.Equal(t, uint32(pollIn|pollRdnorm|pollOut|pollWrnorm|pollWrband), x.revents(fd))
	busy := nlReq(20, rtmGetaddr, nlmFRequest|nlmFDump, 43, "00000000")
	require.Equal(t, int64(20), x.call("write", fd, x.data(busy), 20))

	n, b, flags, _ := x.nlRecv(fd, 0, msgPeek|msgTrunc)
	size := n
	require.Greater(t, size, int64(500), "MSG_TRUNC: the datagram's whole length")
	require.Equal(t, uint32(msgTrunc), flags&msgTrunc)
	require.Empty(t, b)
	n, b, flags, _ = x.nlRecv(fd, 16, msgPeek)
	require.Equal(t, int64(16), n)
	require.Equal(t, uint32(msgTrunc), flags&msgTrunc, "cut")
	require.Equal(t, uint32(size), u32(b, 0))
	n, b, flags, from := x.nlRecv(fd, 65536, 0)
	require.Equal(t, size, n)
	require.Zero(t, flags)
	require.Equal(t, kernelSockaddr, from)
	require.Equal(t, uint16(rtmNewlink), le16(b[4:]))
	require.Equal(t, uint16(nlmFMulti), le16(b[6:]))
	require.Equal(t, uint32(42), u32(b, 8), "seq echoed")
	require.Equal(t, uint32(1000), u32(b, 12), "the port id")

	// The second dump was refused: EBUSY, before the first's DONE.
	got := x.drain(fd)
	require.Len(t, got, 2)
	require.Equal(t, uint16(nlmsgError), le16(got[0][4:]))
	require.Equal(t, uint32(43), u32(got[0], 8))
	require.Equal(t, uint32(EBUSY), -u32(got[0], 16))
	require.Equal(t, "14000000030002002a000000e803000000000000", hex.EncodeToString(got[1]), "DONE, its status 0")

	// Now it is accepted; read(2) and recvfrom take datagrams too.
	require.Equal(t, int64(20), x.call("write", fd, x.data(busy), 20))
	buf := x.alloc(4096)
	n = x.call("read", fd, buf, 4096)
	require.Equal(t, uint16(rtmNewaddr), le16(x.peek(buf+4, 2)))
	require.Equal(t, int64(u32(x.peek(buf, 4), 0))+int64(u32(x.peek(buf+76, 4), 0)), n, "two addresses")
	from2, flen := x.alloc(16), x.u64s(16)
	require.Equal(t, int64(20), x.call("recvfrom", fd, buf, 4096, 0, from2, flen))
	require.Equal(t, kernelSockaddr, x.peek(from2, uint64(x.u32(flen))))

	// A non-blocking socket does not wait.
	nb := x.call("socket", afNetlink, sockDgram|sockNonblock|sockCloexec, netlinkRoute)
	require.GreaterOrEqual(t, nb, int64(3))
	_, got2 := x.recv(uint64(nb), 16, 0)
	require.Equal(t, errno(EAGAIN), got2)
}

// TestNetlinkSocket: creation, port ids, addresses and options.
func TestNetlinkSocket(t *testing.T) {
	x := newTK(t, Config{})
	for _, tc := range []struct {
		desc        string
		typ, proto  uint64
		want        int64
		wantAtLeast bool
	}{
		{"a stream: ESOCKTNOSUPPORT", sockStream, 0, errno(ESOCKTNOSUPPORT), false},
		{"NETLINK_KOBJECT_UEVENT: no such module", sockRaw, 15, errno(EPROTONOSUPPORT), false},
		{"NETLINK_GENERIC", sockDgram, 16, errno(EPROTONOSUPPORT), false},
		{"beyond MAX_LINKS", sockRaw, 32, errno(EPROTONOSUPPORT), false},
		{"unknown flags", sockRaw | 0x100, 0, errno(EINVAL), false},
		{"SOCK_DGRAM", sockDgram, 0, 3, true},
	} {
		got := x.call("socket", afNetlink, tc.typ, tc.proto)
		if tc.wantAtLeast {
			assert.GreaterOrEqual(t, got, tc.want, tc.desc)
		} else {
			assert.Equal(t, tc.want, got, tc.desc)
		}
	}
	a := x.sock(afNetlink, sockRaw)
	require.Equal(t, sockaddrNl(0, 0), x.name("getsockname", a), "unbound")
	require.Equal(t, sockaddrNl(0, 0), x.name("getpeername", a), "the kernel")
	require.Zero(t, x.bind(a, sockaddrNl(0, 0x11)))
	require.Equal(t, sockaddrNl(1000, 0x11), x.name("getsockname", a), "the pid first")
	require.Zero(t, x.bind(a, sockaddrNl(1000, 0)), "again, the same id")
	require.Equal(t, errno(EINVAL), x.bind(a, sockaddrNl(7, 0)), "another id")

	b := x.sock(afNetlink, sockRaw)
	req := nlReq(16, 1, nlmFRequest, 1, "")
	require.Equal(t, int64(16), x.call("sendto", b, x.data(req), 16, 0, x.data(sockaddrNl(0, 0)), sockaddrNlSize))
	require.Equal(t, sockaddrNl(0xffffefff, 0), x.name("getsockname", b), "a send binds: -4097")
	c := x.sock(afNetlink, sockRaw)
	require.Equal(t, errno(EADDRINUSE), x.bind(c, sockaddrNl(1000, 0)))
	require.Zero(t, x.bind(c, sockaddrNl(0, 0)))
	require.Equal(t, sockaddrNl(0xffffeffe, 0), x.name("getsockname", c), "-4098")
	require.Zero(t, x.call("close", a))
	d := x.sock(afNetlink, sockRaw)
	require.Zero(t, x.connect(d, sockaddrNl(0, 0)), "connect to the kernel binds")
	require.Equal(t, sockaddrNl(1000, 0), x.name("getsockname", d), "the pid is free again")

	for _, tc := range []struct {
		desc string
		call func() int64
		want int64
	}{
		{"bind, short address", func() int64 { return x.bind(c, sockaddrNl(0, 0)[:8]) }, errno(EINVAL)},
		{"bind, another family", func() int64 { return x.bind(c, sin(127, 0, 0, 1, 0)) }, errno(EINVAL)},
		{"bind, a bad pointer", func() int64 { return x.call("bind", c, 8, sockaddrNlSize) }, errno(EFAULT)},
		{"sendto a user port", func() int64 {
			return x.call("sendto", c, x.data(req), 16, 0, x.data(sockaddrNl(1000, 0)), sockaddrNlSize)
		}, errno(EPERM)},
		{"sendto a group", func() int64 {
			return x.call("sendto", c, x.data(req), 16, 0, x.data(sockaddrNl(0, 1)), sockaddrNlSize)
		}, errno(EPERM)},
		{"connect to a user port", func() int64 { return x.connect(c, sockaddrNl(5, 0)) }, errno(EPERM)},
		{"connect AF_UNSPEC", func() int64 { return x.connect(c, []byte{0, 0}) }, 0},
		{"listen", func() int64 { return x.call("listen", c, 1) }, errno(EOPNOTSUPP)},
		{"accept", func() int64 { return x.call("accept", c, 0, 0) }, errno(EOPNOTSUPP)},
		{"shutdown", func() int64 { return x.call("shutdown", c, 2) }, errno(EOPNOTSUPP)},
		{"MSG_OOB", func() int64 { return x.call("sendto", c, x.data(req), 16, msgOOB, 0, 0) }, errno(EOPNOTSUPP)},
		{"too big for the send buffer", func() int64 { return x.call("sendto", c, x.alloc(sockCapacity), sockCapacity, 0, 0, 0) }, errno(EMSGSIZE)},
		{"FIONREAD", func() int64 { return x.call("ioctl", c, fionread, x.alloc(4)) }, errno(ENOTTY)},
		{"a change of a link: EPERM", func() int64 {
			r := nlReq(32, rtmNewlink, nlmFRequest|nlmFAck, 9, "00000000 01000000 00000000 00000000")
			x.call("write", c, x.data(r), 32)
			got := x.drain(c)
			return int64(-u32(got[0], 16))
		}, int64(EPERM)},
	} {
		assert.Equal(t, tc.want, tc.call(), tc.desc)
	}

	// Options.
	word := func(fd uint64, level, name uint64) int64 {
		v, n := x.alloc(8), x.u64s(8)
		if r := x.call("getsockopt", fd, level, name, v, n); r != 0 {
			return r
		}
		require.Equal(t, uint32(4), x.u32(n))
		return int64(x.u32(v))
	}
	set := func(fd uint64, level, name uint64, v uint32) int64 {
		b := make([]byte, 4)
		put32(b, 0, v)
		return x.call("setsockopt", fd, level, name, x.data(b), 4)
	}
	for _, tc := range []struct {
		desc        string
		level, name uint64
		want        int64
	}{
		{"SO_TYPE", solSocket, soType, sockRaw},
		{"SO_DOMAIN", solSocket, soDomain, afNetlink},
		{"SO_PROTOCOL", solSocket, soProtocol, netlinkRoute},
		{"SO_RCVBUF", solSocket, soRcvbuf, sockCapacity},
		{"SO_ERROR", solSocket, soError, 0},
		{"NETLINK_EXT_ACK", solNetlink, netlinkExtAck, 0},
		{"an unknown SOL_NETLINK option", solNetlink, 99, errno(ENOPROTOOPT)},
		{"another level", ipprotoIP, ipTTL, errno(ENOPROTOOPT)},
	} {
		assert.Equal(t, tc.want, word(c, tc.level, tc.name), tc.desc)
	}
	require.Zero(t, set(c, solSocket, soRcvbuf, 100))
	require.Equal(t, int64(2304), word(c, solSocket, soRcvbuf), "the minimum")
	require.Zero(t, set(c, solNetlink, netlinkExtAck, 7))
	require.Equal(t, int64(1), word(c, solNetlink, netlinkExtAck))
	require.Zero(t, set(c, solNetlink, netlinkGetStrictChk, 1))
	require.Zero(t, set(c, solNetlink, netlinkAddMembership, 3))
	require.Equal(t, errno(EINVAL), set(c, solNetlink, netlinkAddMembership, 0))
	require.Equal(t, errno(EPERM), set(c, solNetlink, netlinkListenAllNSID, 1))
	require.Equal(t, sockaddrNl(0xffffeffe, 4), x.name("getsockname", c), "group 3 joined")
}

// TestNetlinkOverrun: answers beyond the receive buffer are dropped and
// the next receive says ENOBUFS, once; NETLINK_NO_ENOBUFS hides it.
func TestNetlinkOverrun(t *testing.T) {
	for _, quiet := range []bool{false, true} {
		x := newTK(t, Config{})
		fd := x.nlSock()
		if quiet {
			require.Zero(t, x.call("setsockopt", fd, solNetlink, netlinkNoENOBUFS, x.data([]byte{1, 0, 0, 0}), 4))
		}
		require.Zero(t, x.call("setsockopt", fd, solSocket, soRcvbuf, x.data([]byte{0, 0, 0, 0}), 4))
		var reqs []byte
		for i := 0; i < 200; i++ {
			reqs = append(reqs, nlReq(16, 1, nlmFRequest|nlmFAck, uint32(i), "")...)
		}
		require.Equal(t, int64(len(reqs)), x.call("write", fd, x.data(reqs), uint64(len(reqs))))
		if !quiet {
			require.Equal(t, uint32(pollIn|pollRdnorm|pollOut|pollWrnorm|pollWrband|pollErr), x.revents(fd))
			n, _, _, _ := x.nlRecv(fd, 100, 0)
			require.Equal(t, errno(ENOBUFS), n)
		}
		got := x.drain(fd)
		require.Len(t, got, 2304/36+1, "what fitted, and the one over")
		require.Equal(t, uint32(len(got)-1), u32(got[len(got)-1], 8), "the first ones")
		req := nlReq(16, 1, nlmFRequest|nlmFAck, 7, "")
		x.call("write", fd, x.data(req), 16)
		require.Len(t, x.drain(fd), 1, "drained: answers are queued again")
	}
}

// TestNetlinkPktinfo: NETLINK_PKTINFO adds a struct nl_pktinfo (group 0).
func TestNetlinkPktinfo(t *testing.T) {
	x := newTK(t, Config{})
	fd := x.nlSock(netlinkPktinfo)
	req := nlReq(16, 1, nlmFRequest|nlmFAck, 1, "")
	x.call("write", fd, x.data(req), 16)
	buf, ctl := x.alloc(64), x.alloc(64)
	hdr := x.u64s(0, 0, x.u64s(buf, 64), 1, ctl, 64, 0)
	require.Equal(t, int64(36), x.call("recvmsg", fd, hdr, 0))
	require.Equal(t, uint64(24), x.u64(hdr+40), "CMSG_SPACE(4)")
	require.Equal(t, "1400000000000000"+"0e010000"+"03000000"+"00000000", hex.EncodeToString(x.peek(ctl, 20)))
}

// FuzzNetlinkRequest sends arbitrary bytes to the kernel and reads every
// answer: no panic, every datagram a sequence of whole, aligned
// messages to this socket, each an answer the request could get.
func FuzzNetlinkRequest(f *testing.F) {
	f.Add(nlReq(20, rtmGetlink, nlmFRequest|nlmFDump, 1, "11000000"), uint8(0))
	f.Add(nlReq(24, rtmGetaddr, nlmFRequest|nlmFDump|nlmFAck, 2, "0a000000 01000000"), uint8(3))
	f.Add(nlReq(28, rtmGetroute, nlmFRequest|nlmFDump, 3, "02000000 00000000 00000000"), uint8(1))
	f.Add(nlReq(40, rtmGetlink, nlmFRequest|nlmFAck, 4, "00000000 00000000 00000000 00000000 0700 0300 6c6f0000"), uint8(2))
	f.Add(append(nlReq(16, 1, nlmFRequest|nlmFAck, 5, ""), nlReq(17, 200, 5, 6, "00")...), uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, opts uint8) {
		x := newTK(t, Config{})
		var set []int32
		for i, o := range []int32{netlinkCapAck, netlinkExtAck, netlinkGetStrictChk} {
			if opts&(1<<i) != 0 {
				set = append(set, o)
			}
		}
		fd := x.nlSock(set...)
		iov := x.u64s(x.data(append([]byte{0}, data...))+1, uint64(len(data)))
		hdr := x.u64s(0, 0, iov, 1, 0, 0, 0)
		require.Equal(t, int64(len(data)), x.call("sendmsg", fd, hdr, 0))
		for _, d := range x.drain(fd) {
			for off := 0; off < len(d); {
				require.GreaterOrEqual(t, len(d)-off, nlmsgHdrLen)
				n := int(u32(d, off))
				require.GreaterOrEqual(t, n, nlmsgHdrLen)
				require.LessOrEqual(t, off+n, len(d))
				msg := d[off : off+n]
				require.Equal(t, uint32(1000), u32(msg, 12), "to this socket")
				switch typ := le16(msg[4:]); typ {
				case rtmNewlink:
					attrsOf(t, msg, ifinfomsgSize)
				case rtmNewaddr:
					attrsOf(t, msg, ifaddrmsgSize)
				case rtmNewroute:
					attrsOf(t, msg, rtmsgSize)
				case nlmsgDone:
					require.GreaterOrEqual(t, n, nlmsgHdrLen+4)
				case nlmsgError:
					require.GreaterOrEqual(t, n, nlmsgHdrLen+nlmsgHdrLen+4)
				default:
					t.Fatalf("message type %d", typ)
				}
				off += nlmsgAlign(n)
			}
		}
	})
}
