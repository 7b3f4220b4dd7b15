package syscalls

// The messages rtnetlink answers with (netlink.go), built as Linux 6.x
// builds them for lo, attribute by attribute in its order (checked
// against a 6.18 host's answers): rtnl_fill_ifinfo, inet_fill_ifaddr,
// inet6_fill_ifaddr, fib_dump_info, rt6_fill_node, netlink_ack and
// netlink_dump_done.

// Attribute types (linux/if_link.h, if_addr.h, rtnetlink.h).
const (
	iflaAddress          = 1
	iflaBroadcast        = 2
	iflaIfname           = 3
	iflaMTU              = 4
	iflaQdisc            = 6
	iflaStats            = 7
	iflaTxqlen           = 13
	iflaMap              = 14
	iflaOperstate        = 16
	iflaLinkmode         = 17
	iflaStats64          = 23
	iflaGroup            = 27
	iflaPromiscuity      = 30
	iflaNumTxQueues      = 31
	iflaNumRxQueues      = 32
	iflaCarrier          = 33
	iflaCarrierChanges   = 35
	iflaProtoDown        = 39
	iflaGSOMaxSegs       = 40
	iflaGSOMaxSize       = 41
	iflaPad              = 42
	iflaXDP              = 43
	iflaCarrierUpCount   = 47
	iflaCarrierDownCount = 48
	iflaMinMTU           = 50
	iflaMaxMTU           = 51
	iflaAltIfname        = 53
	iflaGROMaxSize       = 58
	iflaTSOMaxSize       = 59
	iflaTSOMaxSegs       = 60
	iflaAllmulti         = 61
	iflaDevlinkPort      = 62
	iflaGSOIPv4MaxSize   = 63
	iflaGROIPv4MaxSize   = 64
	iflaDPLLPin          = 65
	iflaMaxPacingHorizon = 66 // IFLA_MAX_PACING_OFFLOAD_HORIZON
	iflaNetnsImmutable   = 67
	iflaHeadroom         = 68
	iflaTailroom         = 69
	iflaXDPAttached      = 2
	statsSize            = 24 * 4 // struct rtnl_link_stats
	stats64Size          = 25 * 8 // struct rtnl_link_stats64
	ifmapSize            = 32     // struct rtnl_link_ifmap, padded
	ifaAddress           = 1
	ifaLocal             = 2
	ifaLabel             = 3
	ifaCacheinfo         = 6
	ifaFlags             = 8
	ifaProto             = 11
	ifaFPermanent        = 0x80
	ifaprotKernelLo      = 1
	rtaDst               = 1
	rtaOif               = 4
	rtaPriority          = 6
	rtaPrefsrc           = 7
	rtaCacheinfo         = 12
	rtaTable             = 15
	rtaPref              = 20
	rtaCacheinfoSize     = 32 // struct rta_cacheinfo
	rtScopeUniverse      = 0
	rtScopeLink          = 253
	rtScopeHost          = 254
	rtTableLocal         = 255
	rtprotKernel         = 2
	rtnLocal             = 2
	rtnBroadcast         = 3
	lifetimeInfinite     = 0xffffffff // INFINITY_LIFE_TIME
	gsoMaxSize           = 65536      // GSO_MAX_SIZE
	gsoMaxSegs           = 65535      // GSO_MAX_SEGS
	tsoMaxSize           = 524280     // lo's tso_max_size
)

// nlBuf builds one datagram of netlink messages (nlmsg_put, nla_put).
type nlBuf struct {
	b     []byte
	seq   uint32 // every message's nlmsg_seq: the request's
	pid   uint32 // and nlmsg_pid: the asking socket's port id
	flags uint16 // and nlmsg_flags
}

// begin starts a message of type typ with its fixed header; end sets
// its length.
func (m *nlBuf) begin(typ uint16, fixed []byte) int {
	at := len(m.b)
	h := make([]byte, nlmsgHdrLen)
	put16(h, 4, typ)
	put16(h, 6, m.flags)
	put32(h, 8, m.seq)
	put32(h, 12, m.pid)
	m.b = append(append(m.b, h...), fixed...)
	m.pad()
	return at
}

func (m *nlBuf) end(at int) { put32(m.b, at, uint32(len(m.b)-at)) }

// pad zero-fills to the next 4-byte boundary (NLMSG_ALIGN, NLA_ALIGN).
func (m *nlBuf) pad() {
	for len(m.b)%4 != 0 {
		m.b = append(m.b, 0)
	}
}

// attr appends an attribute, padded (nla_put).
func (m *nlBuf) attr(typ uint16, v []byte) {
	var h [4]byte
	put16(h[:], 0, uint16(4+len(v)))
	put16(h[:], 2, typ)
	m.b = append(append(m.b, h[:]...), v...)
	m.pad()
}

// attr64 appends an attribute of 64-bit values (nla_put_64bit): an
// IFLA_PAD first where the value would not be 8-byte aligned, as a
// riscv64 kernel, without efficient unaligned access, pads.
func (m *nlBuf) attr64(typ uint16, v []byte, padType uint16) {
	if len(m.b)%8 == 0 {
		m.attr(padType, nil)
	}
	m.attr(typ, v)
}

// num appends an attribute of one little-endian number of size bytes.
func (m *nlBuf) num(typ uint16, size int, v uint32) {
	var b [4]byte
	put32(b[:], 0, v)
	m.attr(typ, b[:size])
}

func (m *nlBuf) u8(typ uint16, v uint8) { m.num(typ, 1, uint32(v)) }

func (m *nlBuf) u32(typ uint16, v uint32) { m.num(typ, 4, v) }

func (m *nlBuf) str(typ uint16, s string) { m.attr(typ, append([]byte(s), 0)) }

// loScalars are lo's attributes of one number, in rtnl_fill_ifinfo's
// order: type, size in bytes, value.
var loScalars = []struct {
	typ  uint16
	size int
	v    uint32
}{
	{iflaTxqlen, 4, loTxqlen},
	{iflaOperstate, 1, 0}, // IF_OPER_UNKNOWN: lo reports no state of its own
	{iflaLinkmode, 1, 0},
	{iflaNetnsImmutable, 1, 1},
	{iflaMTU, 4, loMTU},
	{iflaMinMTU, 4, 0},
	{iflaMaxMTU, 4, 0},
	{iflaGroup, 4, 0},
	{iflaPromiscuity, 4, 0},
	{iflaAllmulti, 4, 0},
	{iflaNumTxQueues, 4, 1},
	{iflaGSOMaxSegs, 4, gsoMaxSegs},
	{iflaGSOMaxSize, 4, gsoMaxSize},
	{iflaGROMaxSize, 4, gsoMaxSize},
	{iflaGSOIPv4MaxSize, 4, gsoMaxSize},
	{iflaGROIPv4MaxSize, 4, gsoMaxSize},
	{iflaTSOMaxSize, 4, tsoMaxSize},
	{iflaTSOMaxSegs, 4, gsoMaxSegs},
	{iflaMaxPacingHorizon, 4, 0},
	{iflaNumRxQueues, 4, 1},
	{iflaCarrier, 1, 1},
	{iflaCarrierChanges, 4, 0},
	{iflaCarrierUpCount, 4, 0},
	{iflaCarrierDownCount, 4, 0},
	{iflaHeadroom, 2, 0},
	{iflaTailroom, 2, 0},
	{iflaProtoDown, 1, 0},
}

// link appends lo's RTM_NEWLINK (rtnl_fill_ifinfo, without IFLA_AF_SPEC;
// its counters are zero).
func (m *nlBuf) link() {
	ifi := make([]byte, ifinfomsgSize) // family AF_UNSPEC, type, index, flags, change 0
	put16(ifi, 2, arphrdLoopback)
	put32(ifi, 4, loIndex)
	put32(ifi, 8, loFlags)
	at := m.begin(rtmNewlink, ifi)
	m.str(iflaIfname, loName)
	for _, a := range loScalars {
		m.num(a.typ, a.size, a.v)
	}
	m.attr(iflaAddress, make([]byte, 6))
	m.attr(iflaBroadcast, make([]byte, 6))
	m.attr64(iflaStats64, make([]byte, stats64Size), iflaPad)
	m.attr(iflaStats, make([]byte, statsSize))
	xdp := &nlBuf{}
	xdp.u8(iflaXDPAttached, 0) // XDP_ATTACHED_NONE
	m.attr(iflaXDP, xdp.b)
	m.str(iflaQdisc, "noqueue")
	m.attr(iflaMap, make([]byte, ifmapSize))
	m.attr(iflaDevlinkPort|nlaFNested, nil)
	m.attr(iflaDPLLPin|nlaFNested, nil)
	m.end(at)
}

// cacheinfo is a struct ifa_cacheinfo of a permanent address made at boot.
func cacheinfo() []byte {
	b := make([]byte, 16)
	put32(b, 0, lifetimeInfinite) // ifa_prefered
	put32(b, 4, lifetimeInfinite) // ifa_valid; cstamp and tstamp 0
	return b
}

// ifaddrmsg is a struct ifaddrmsg of lo's: family, prefix length,
// IFA_F_PERMANENT, host scope.
func ifaddrmsg(family, prefix uint8) []byte {
	b := []byte{family, prefix, ifaFPermanent, rtScopeHost, 0, 0, 0, 0}
	put32(b, 4, loIndex)
	return b
}

// addr4 appends 127.0.0.1/8's RTM_NEWADDR (inet_fill_ifaddr).
func (m *nlBuf) addr4() {
	at := m.begin(rtmNewaddr, ifaddrmsg(afInet, 8))
	m.attr(ifaAddress, lo4Addr[:])
	m.attr(ifaLocal, lo4Addr[:])
	m.str(ifaLabel, loName)
	m.u32(ifaFlags, ifaFPermanent)
	m.attr(ifaCacheinfo, cacheinfo())
	m.end(at)
}

// addr6 appends ::1/128's RTM_NEWADDR (inet6_fill_ifaddr).
func (m *nlBuf) addr6() {
	at := m.begin(rtmNewaddr, ifaddrmsg(afInet6, 128))
	m.attr(ifaAddress, v6Loopback[:])
	m.attr(ifaCacheinfo, cacheinfo())
	m.u32(ifaFlags, ifaFPermanent)
	m.u8(ifaProto, ifaprotKernelLo)
	m.end(at)
}

// rtmsg is a struct rtmsg of a kernel route in the local table.
func rtmsg(family, dstLen, scope, typ uint8) []byte {
	return []byte{family, dstLen, 0, 0, rtTableLocal, rtprotKernel, scope, typ, 0, 0, 0, 0}
}

// route4 appends an IPv4 route of lo's local table (fib_dump_info).
func (m *nlBuf) route4(dst [4]byte, dstLen, scope, typ uint8) {
	at := m.begin(rtmNewroute, rtmsg(afInet, dstLen, scope, typ))
	m.u32(rtaTable, rtTableLocal)
	m.attr(rtaDst, dst[:])
	m.attr(rtaPrefsrc, lo4Addr[:])
	m.u32(rtaOif, loIndex)
	m.end(at)
}

// route6 appends ::1's local route (rt6_fill_node).
func (m *nlBuf) route6() {
	at := m.begin(rtmNewroute, rtmsg(afInet6, 128, rtScopeUniverse, rtnLocal))
	m.u32(rtaTable, rtTableLocal)
	m.attr(rtaDst, v6Loopback[:])
	m.u32(rtaPriority, 0)
	m.u32(rtaOif, loIndex)
	m.attr(rtaCacheinfo, make([]byte, rtaCacheinfoSize))
	m.u8(rtaPref, 0) // ICMPV6_ROUTER_PREF_MEDIUM
	m.end(at)
}

// errWord is an error as netlink carries it: the negative errno.
func errWord(e Errno) []byte {
	b := make([]byte, 4)
	put32(b, 0, uint32(-int32(e)))
	return b
}

// done appends a dump's NLMSG_DONE (netlink_dump_done): its status, and
// with NETLINK_EXT_ACK the error's message.
func (m *nlBuf) done(e Errno, why string, extAck bool) {
	if why != "" && extAck {
		m.flags |= nlmFAckTLVs
	}
	at := m.begin(nlmsgDone, errWord(e))
	if why != "" && extAck {
		m.str(nlmsgerrMsg, why)
	}
	m.end(at)
}

// ack is netlink_ack's NLMSG_ERROR for req: the error (0: an
// acknowledgement) and req's header, and for an error req's payload
// too, unless the socket caps its acknowledgements; with
// NETLINK_EXT_ACK, the error's message.
func (s *netlinkSock) ack(req []byte, e Errno, why string) []byte {
	m := &nlBuf{seq: u32(req, 8), pid: s.portid}
	echo := req[:nlmsgHdrLen]
	if e != 0 && !s.capAck {
		echo = req
	} else {
		m.flags |= nlmFCapped
	}
	tlv := why != "" && s.extAck
	if tlv {
		m.flags |= nlmFAckTLVs
	}
	at := m.begin(nlmsgError, append(errWord(e), echo...))
	if tlv {
		m.str(nlmsgerrMsg, why)
	}
	m.end(at)
	return m.b
}
