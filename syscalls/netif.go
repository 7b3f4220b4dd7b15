package syscalls

import "strings"

// The network interfaces a program can list: the loopback alone, lo,
// as a Linux 6.x network namespace shows it once lo is up (index 1,
// 127.0.0.1/8 and ::1/128). Programs meet it through rtnetlink
// (netlink.go: if_nameindex, getifaddrs, ip) and through the interface
// ioctls below (if_nametoindex, if_indextoname, ifconfig), answered as
// net/core/dev_ioctl.c and net/ipv4/devinet.c answer them. The guest has
// no CAP_NET_ADMIN over this namespace, as root in a container without
// it: every change (SIOCSIF*, RTM_NEW*, RTM_DEL*, RTM_SET*) is EPERM.

// The loopback device (drivers/net/loopback.c, include/uapi/linux/if.h).
const (
	loIndex        = loopbackIfindex
	loName         = "lo"
	loMTU          = 65536 // (64 * 1024)
	loTxqlen       = 1000  // DEFAULT_TX_QUEUE_LEN
	arphrdLoopback = 772   // ARPHRD_LOOPBACK

	iffUp       = 0x1
	iffLoopback = 0x8
	iffRunning  = 0x40
	iffLowerUp  = 0x10000
	// loFlags are dev_get_flags(lo): up, with its carrier.
	loFlags = iffUp | iffLoopback | iffRunning | iffLowerUp

	ifNameSize = 16 // IFNAMSIZ
	ifreqSize  = 40 // struct ifreq on riscv64: the name and a 24-byte union
	ifconfSize = 16 // struct ifconf: ifc_len (padded) and ifc_buf
)

var (
	lo4Addr = [4]byte{127, 0, 0, 1}
	lo4Mask = [4]byte{255, 0, 0, 0}
)

// Interface ioctls (linux/sockios.h).
const (
	siocGIFNAME     = 0x8910
	siocGIFCONF     = 0x8912
	siocGIFFLAGS    = 0x8913
	siocSIFFLAGS    = 0x8914
	siocGIFADDR     = 0x8915
	siocSIFADDR     = 0x8916
	siocGIFDSTADDR  = 0x8917
	siocSIFDSTADDR  = 0x8918
	siocGIFBRDADDR  = 0x8919
	siocSIFBRDADDR  = 0x891a
	siocGIFNETMASK  = 0x891b
	siocSIFNETMASK  = 0x891c
	siocGIFMETRIC   = 0x891d
	siocSIFMETRIC   = 0x891e
	siocSIFMTU      = 0x8922
	siocGIFMTU      = 0x8921
	siocSIFNAME     = 0x8923
	siocSIFHWADDR   = 0x8924
	siocGIFHWADDR   = 0x8927
	siocGIFSLAVE    = 0x8929
	siocSIFSLAVE    = 0x8930
	siocADDMULTI    = 0x8931
	siocDELMULTI    = 0x8932
	siocGIFINDEX    = 0x8933
	siocSIFPFLAGS   = 0x8934
	siocGIFPFLAGS   = 0x8935
	siocDIFADDR     = 0x8936
	siocSIFHWBCAST  = 0x8937
	siocGIFTXQLEN   = 0x8942
	siocSIFTXQLEN   = 0x8943
	siocGIFMAP      = 0x8970
	siocSIFMAP      = 0x8971
	sockIoctlType   = 0x89 // SOCK_IOC_TYPE: _IOC_TYPE of every socket ioctl
	ifmapFieldBytes = 21   // struct ifmap's fields (mem_start, mem_end, base_addr, irq, dma, port)
)

// ifIoctl answers an interface ioctl (type 0x89) on a socket of any
// family, as sock_ioctl does: SIOCGIFCONF (dev_ifconf), the address
// requests of AF_INET sockets (devinet_ioctl; other families have none:
// ENOTTY), and the device requests (dev_ioctl). The struct ifreq is read
// whole, changed, and written back whole, as get_user_ifreq and
// put_user_ifreq move it, so bytes a request does not set keep the
// caller's values.
func (k *Kernel) ifIoctl(of *openFile, cmd uint32, arg uint64) (uint64, Errno) {
	if cmd == siocGIFCONF {
		return 0, k.ifconf(arg)
	}
	inet4 := of.inet != nil && of.inet.family == afInet
	inet6 := of.inet != nil && of.inet.family == afInet6
	switch cmd {
	case siocGIFADDR, siocGIFDSTADDR, siocGIFBRDADDR, siocGIFNETMASK, siocSIFADDR, siocSIFDSTADDR,
		siocSIFBRDADDR, siocSIFNETMASK, siocGIFPFLAGS, siocSIFPFLAGS, siocDIFADDR:
		if !inet4 && !(inet6 && (cmd == siocSIFADDR || cmd == siocDIFADDR || cmd == siocSIFDSTADDR)) {
			return 0, ENOTTY // not an AF_INET socket: dev_ioctl knows none of these
		}
	case siocGIFNAME, siocGIFFLAGS, siocGIFMETRIC, siocGIFMTU, siocGIFSLAVE, siocGIFMAP, siocGIFINDEX,
		siocGIFTXQLEN, siocGIFHWADDR, siocSIFFLAGS, siocSIFMETRIC, siocSIFMTU, siocSIFHWADDR,
		siocSIFSLAVE, siocSIFMAP, siocSIFTXQLEN, siocSIFNAME, siocSIFHWBCAST, siocADDMULTI, siocDELMULTI:
	default:
		return 0, ENOTTY
	}
	ifr, e := k.readMem(arg, ifreqSize)
	if e != 0 {
		return 0, e
	}
	if cmd == siocGIFNAME { // dev_ifname: by index
		ifr[ifNameSize-1] = 0
		if int32(u32(ifr, 16)) != loIndex {
			return 0, ENODEV
		}
		copy(ifr, loName+"\x00")
		return 0, k.writeMem(arg, ifr)
	}
	if e := ifreqAnswer(ifr, cmd, inet4); e != 0 {
		return 0, e
	}
	return 0, k.writeMem(arg, ifr)
}

// ifreqAnswer fills ifr's union with the answer to cmd about the
// interface ifr names (an alias, "lo:1", names its device for the
// device requests, but no address of lo's), or returns the error.
func ifreqAnswer(ifr []byte, cmd uint32, inet4 bool) Errno {
	ifr[ifNameSize-1] = 0
	name := cString(ifr[:ifNameSize])
	dev, _, _ := strings.Cut(name, ":")
	switch cmd {
	case siocSIFFLAGS, siocSIFMETRIC, siocSIFMTU, siocSIFHWADDR, siocSIFSLAVE, siocSIFMAP, siocSIFTXQLEN,
		siocSIFNAME, siocSIFHWBCAST, siocADDMULTI, siocDELMULTI, siocSIFADDR, siocSIFDSTADDR,
		siocSIFBRDADDR, siocSIFNETMASK, siocDIFADDR:
		return EPERM // ns_capable(CAP_NET_ADMIN), before the name is looked up
	case siocGIFPFLAGS, siocSIFPFLAGS:
		return EINVAL // devinet_ioctl's default
	}
	if dev != loName {
		return ENODEV
	}
	u := ifr[ifNameSize:]
	switch cmd {
	case siocGIFFLAGS:
		put16(u, 0, loFlags&0xffff) // ifr_flags is a short: IFF_LOWER_UP does not fit
	case siocGIFMETRIC:
		put32(u, 0, 0)
	case siocGIFMTU:
		put32(u, 0, loMTU)
	case siocGIFINDEX:
		put32(u, 0, loIndex)
	case siocGIFTXQLEN:
		put32(u, 0, loTxqlen)
	case siocGIFSLAVE:
		return EINVAL
	case siocGIFMAP:
		clear(u[:ifmapFieldBytes])
	case siocGIFHWADDR: // sa_family the device type, then its 6-byte address
		put16(u, 0, arphrdLoopback)
		clear(u[2:8])
	case siocGIFADDR, siocGIFDSTADDR, siocGIFBRDADDR, siocGIFNETMASK:
		if name != loName { // matched against the address's label, "lo"
			return EADDRNOTAVAIL
		}
		var a [4]byte
		switch cmd {
		case siocGIFADDR, siocGIFDSTADDR:
			a = lo4Addr
		case siocGIFNETMASK:
			a = lo4Mask
		} // SIOCGIFBRDADDR: lo has no broadcast address, 0.0.0.0
		clear(u[:sockaddrInSize])
		put16(u, 0, afInet)
		copy(u[4:8], a[:])
	}
	return 0
}

// ifconf is SIOCGIFCONF (dev_ifconf, inet_gifconf): an ifreq for each
// IPv4 address that fits in ifc_len bytes at ifc_buf, or with ifc_buf
// NULL the length all of them need; ifc_len becomes the length used.
func (k *Kernel) ifconf(arg uint64) Errno {
	b, e := k.readMem(arg, ifconfSize)
	if e != 0 {
		return e
	}
	room, buf := int32(u32(b, 0)), le64(b[8:])
	total := int32(ifreqSize)
	switch {
	case buf == 0:
	case room < ifreqSize:
		total = 0
	default:
		ifr := make([]byte, ifreqSize)
		copy(ifr, loName)
		put16(ifr, ifNameSize, afInet)
		copy(ifr[ifNameSize+4:], lo4Addr[:])
		if e := k.writeMem(buf, ifr); e != 0 {
			return e
		}
	}
	return k.writeU32(arg, uint32(total))
}

// cString is b up to its first NUL.
func cString(b []byte) string {
	s, _, _ := strings.Cut(string(b), "\x00")
	return s
}
