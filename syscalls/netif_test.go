package syscalls

import (
	"bufio"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var ifIoctls = map[string]uint64{
	"SIOCGIFNAME": siocGIFNAME, "SIOCGIFFLAGS": siocGIFFLAGS, "SIOCGIFADDR": siocGIFADDR,
	"SIOCGIFDSTADDR": siocGIFDSTADDR, "SIOCGIFBRDADDR": siocGIFBRDADDR, "SIOCGIFNETMASK": siocGIFNETMASK,
	"SIOCGIFMETRIC": siocGIFMETRIC, "SIOCGIFMEM": 0x891f, "SIOCGIFMTU": siocGIFMTU, "SIOCGIFENCAP": 0x8925,
	"SIOCGIFHWADDR": siocGIFHWADDR, "SIOCGIFSLAVE": siocGIFSLAVE, "SIOCGIFINDEX": siocGIFINDEX,
	"SIOCGIFPFLAGS": siocGIFPFLAGS, "SIOCGIFCOUNT": 0x8938, "SIOCGIFTXQLEN": siocGIFTXQLEN, "SIOCGIFMAP": siocGIFMAP,
}

// errnoNamed is the errno of a name errnoNames gives.
func errnoNamed(name string) (Errno, bool) {
	for e, s := range errnoNames {
		if s == name {
			return e, true
		}
	}
	return 0, false
}

// TestIfIoctlsAsLinux: every interface request of testdata/netif-ioctl.txt
// (a Linux 6.18 host's answers about lo, an alias and a missing
// interface, on sockets of four families) is answered the same.
func TestIfIoctlsAsLinux(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "netif-ioctl.txt"))
	require.NoError(t, err)
	defer f.Close()
	x := newTK(t, Config{})
	socks := map[string]uint64{
		"inet": x.sock(afInet, sockDgram), "inet6": x.sock(afInet6, sockDgram),
		"unix": x.sock(afUnix, sockDgram), "netlink": x.sock(afNetlink, sockRaw),
	}
	rows := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "#") {
			continue
		}
		fields := strings.Fields(sc.Text())
		require.Len(t, fields, 4, sc.Text())
		family, name, req, want := fields[0], fields[1], fields[2], fields[3]
		ifr := make([]byte, ifreqSize)
		copy(ifr, name)
		for i := ifNameSize; i < ifreqSize; i++ {
			ifr[i] = 0xaa
		}
		if req == "SIOCGIFNAME" {
			put32(ifr, ifNameSize, 99)
			if name == loName {
				put32(ifr, ifNameSize, 1)
			}
		}
		buf := x.data(ifr)
		got := x.call("ioctl", socks[family], ifIoctls[req], buf)
		desc := strings.Join(fields[:3], " ")
		if e, ok := errnoNamed(want); ok {
			assert.Equal(t, errno(e), got, desc)
			assert.Equal(t, ifr, x.peek(buf, ifreqSize), "%s: the ifreq is untouched", desc)
		} else {
			assert.Zero(t, got, desc)
			assert.Equal(t, want, hex.EncodeToString(x.peek(buf, ifreqSize)), desc)
		}
		rows++
	}
	require.NoError(t, sc.Err())
	require.Equal(t, 4*3*len(ifIoctls), rows)
}

// TestIfconf: SIOCGIFCONF lists lo's IPv4 address, or the length it needs.
func TestIfconf(t *testing.T) {
	x := newTK(t, Config{})
	for _, fd := range []uint64{x.sock(afUnix, sockStream), x.sock(afNetlink, sockDgram), x.sock(afInet6, sockStream)} {
		ifc := x.u64s(0, 0) // ifc_len 0, ifc_buf NULL
		require.Zero(t, x.call("ioctl", fd, siocGIFCONF, ifc))
		require.Equal(t, uint32(ifreqSize), x.u32(ifc), "the length needed")

		buf := x.data(make([]byte, 2*ifreqSize))
		ifc = x.u64s(2*ifreqSize, buf)
		require.Zero(t, x.call("ioctl", fd, siocGIFCONF, ifc))
		require.Equal(t, uint32(ifreqSize), x.u32(ifc), "one entry")
		require.Equal(t, "6c6f0000000000000000000000000000"+"020000007f0000010000000000000000"+"0000000000000000",
			hex.EncodeToString(x.peek(buf, ifreqSize)))

		ifc = x.u64s(ifreqSize-1, buf)
		require.Zero(t, x.call("ioctl", fd, siocGIFCONF, ifc))
		require.Zero(t, x.u32(ifc), "no room for one")
		require.Equal(t, errno(EFAULT), x.call("ioctl", fd, siocGIFCONF, 8))
		require.Equal(t, errno(EFAULT), x.call("ioctl", fd, siocGIFCONF, x.u64s(ifreqSize, 8)))
	}
}

// TestIfIoctlChanges: a change of an interface needs CAP_NET_ADMIN, which
// the guest lacks, even as root; the address changes are AF_INET's (and
// some AF_INET6's) alone.
func TestIfIoctlChanges(t *testing.T) {
	x := newTK(t, Config{})
	inet, inet6, unix := x.sock(afInet, sockDgram), x.sock(afInet6, sockDgram), x.sock(afUnix, sockDgram)
	ifr := func() uint64 { b := make([]byte, ifreqSize); copy(b, loName); return x.data(b) }
	for _, tc := range []struct {
		desc string
		fd   uint64
		req  uint64
		want Errno
	}{
		{"SIOCSIFFLAGS", unix, siocSIFFLAGS, EPERM},
		{"SIOCSIFMTU", inet6, siocSIFMTU, EPERM},
		{"SIOCSIFNAME", inet, siocSIFNAME, EPERM},
		{"SIOCSIFHWADDR", unix, siocSIFHWADDR, EPERM},
		{"SIOCSIFTXQLEN", unix, siocSIFTXQLEN, EPERM},
		{"SIOCADDMULTI", inet, siocADDMULTI, EPERM},
		{"SIOCSIFADDR on AF_INET", inet, siocSIFADDR, EPERM},
		{"SIOCSIFNETMASK on AF_INET", inet, siocSIFNETMASK, EPERM},
		{"SIOCSIFADDR on AF_INET6", inet6, siocSIFADDR, EPERM},
		{"SIOCSIFADDR on AF_UNIX", unix, siocSIFADDR, ENOTTY},
		{"SIOCSIFNETMASK on AF_INET6", inet6, siocSIFNETMASK, ENOTTY},
		{"a socket request rvsim does not know (SIOCGSTAMP)", unix, 0x8906, ENOTTY},
	} {
		assert.Equal(t, errno(tc.want), x.call("ioctl", tc.fd, tc.req, ifr()), tc.desc)
	}
	require.Equal(t, errno(EFAULT), x.call("ioctl", inet, siocGIFINDEX, 8), "a bad pointer")
	require.Equal(t, errno(ENOTTY), x.call("ioctl", x.open("/", oRdonly, 0), siocGIFINDEX, ifr()), "not a socket")
}

// uname returns the node and domain names uname reports.
func (x *tk) uname() (node, domain string) {
	buf := x.alloc(utsnameSize)
	require.Zero(x.t, x.call("uname", buf))
	b := x.peek(buf, utsnameSize)
	return cString(b[utsFieldLen : 2*utsFieldLen]), cString(b[5*utsFieldLen:])
}

// TestSethostname: the node and domain names are the run's, set by a
// privileged caller within 64 bytes, and shown by uname and /proc.
func TestSethostname(t *testing.T) {
	x := newTK(t, Config{})
	proc := func(name string) string { return x.readAll(x.open("/proc/sys/kernel/"+name, oRdonly, 0)) }
	node, domain := x.uname()
	require.Equal(t, []string{"rvsim", "(none)", "rvsim\n", "(none)\n"}, []string{node, domain, proc("hostname"), proc("domainname")})

	require.Zero(t, x.call("sethostname", x.str("box"), 3))
	require.Zero(t, x.call("setdomainname", x.str("example.org"), 11))
	node, domain = x.uname()
	require.Equal(t, []string{"box", "example.org", "box\n", "example.org\n"}, []string{node, domain, proc("hostname"), proc("domainname")})
	require.Equal(t, "box", x.k.forkKernel(2000).uts().node, "one namespace for the run")

	long := strings.Repeat("n", 65)
	require.Zero(t, x.call("sethostname", x.str(long), 64), "64 bytes fit")
	node, _ = x.uname()
	require.Equal(t, long[:64], node)
	require.Equal(t, errno(EINVAL), x.call("sethostname", x.str(long), 65))
	require.Equal(t, errno(EINVAL), x.call("setdomainname", x.str(long), neg(-1)))
	require.Equal(t, errno(EFAULT), x.call("sethostname", 8, 3))
	require.Zero(t, x.call("sethostname", x.str("a\x00b"), 3), "a NUL among the bytes")
	require.Equal(t, "a\n", proc("hostname"))

	require.Zero(t, x.call("setresuid", 1000, 1000, 1000))
	require.Equal(t, errno(EPERM), x.call("sethostname", x.str("x"), 1), "not root")
	require.Equal(t, errno(EPERM), x.call("setdomainname", x.str(long), 65), "EPERM before EINVAL")
}
