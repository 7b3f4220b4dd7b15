package syscalls

// The SOL_SOCKET options every socket keeps whatever its family, as
// Linux's sock_setsockopt does, which change nothing rvsim models: a
// program sets them and may read them back (an FTP server's
// SO_OOBINLINE: rvsim has no urgent data, MSG_OOB is EOPNOTSUPP).
const (
	soDontroute = 5
	soOobinline = 10
)

// sockOpts are a socket's generic options (0: Linux's defaults).
type sockOpts struct {
	dontRoute, oobInline bool
	priority             int32
}

// setGeneric sets a generic option from the int at val (n bytes long):
// handled reports whether name is one.
func (k *Kernel) setGeneric(of *openFile, name int32, val, n uint64) (handled bool, ret uint64, e Errno) {
	var dst *bool
	switch name {
	case soDontroute:
		dst = &of.sockOpts.dontRoute
	case soOobinline:
		dst = &of.sockOpts.oobInline
	case soPriority:
	default:
		return false, 0, 0
	}
	if n < 4 {
		return true, 0, EINVAL
	}
	v, e := k.readU32(val)
	if e != 0 {
		return true, 0, e
	}
	if dst != nil {
		*dst = v != 0
		return true, 0, 0
	}
	// SO_PRIORITY: 0 to 6 for anyone, any other value with CAP_NET_ADMIN.
	if (int32(v) < 0 || v > 6) && !k.cred.capable(capNetAdmin) {
		return true, 0, EPERM
	}
	of.sockOpts.priority = int32(v)
	return true, 0, 0
}

// generic reads a generic option back (ok: name is one).
func (of *openFile) generic(name int32) (b []byte, ok bool) {
	v := uint32(0)
	switch name {
	case soDontroute:
		v = b2u(of.sockOpts.dontRoute)
	case soOobinline:
		v = b2u(of.sockOpts.oobInline)
	case soPriority:
		v = uint32(of.sockOpts.priority)
	default:
		return nil, false
	}
	b = make([]byte, 4)
	put32(b, 0, v)
	return b, true
}

func b2u(f bool) uint32 {
	if f {
		return 1
	}
	return 0
}
