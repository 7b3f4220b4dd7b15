package syscalls

import "io"

// splice, tee and vmsplice (fs/splice.c): data moved between a pipe and
// a file, between two pipes, or between a pipe and the caller's memory.
// Linux moves page references; here the bytes are copied, with the same
// results: what a call returns, where the file positions and offsets
// end, when it waits (an empty pipe to read, a full one to write, as a
// pipe's read and write wait) and when it fails.

// splice flags (linux/splice.h): MOVE, MORE and GIFT are hints.
const (
	spliceMove     = 1
	spliceNonblock = 2
	spliceMore     = 4
	spliceGift     = 8
)

// awaitRoom waits until the pipe open as of can take bytes: EPIPE (and
// SIGPIPE) without readers.
func (k *Kernel) awaitRoom(of *openFile, nonblock bool) Errno {
	p := of.pipe
	for {
		if p.readers == 0 {
			k.raise(sigPIPE, k.senderInfo(sigPIPE, siUser))
			return EPIPE
		}
		if len(p.buf) < p.capacity() {
			return 0
		}
		if nonblock || of.flags&oNonblock != 0 {
			return EAGAIN
		}
		if e := k.blockedIO("pipe write"); e != 0 {
			return e
		}
	}
}

// ioPair returns the open files a copy reads from and writes to (EBADF
// unless each is open for that), for splice, tee and sendfile.
func (k *Kernel) ioPair(inFD, outFD int32) (in, out *openFile, e Errno) {
	if in, e = k.file(inFD); e != 0 {
		return nil, nil, e
	}
	if out, e = k.file(outFD); e != 0 {
		return nil, nil, e
	}
	if !in.canRead() || !out.canWrite() {
		return nil, nil, EBADF
	}
	return in, out, 0
}

func sysSplice(k *Kernel, a sysArgs) (uint64, Errno) {
	offIn, offOut, flags := a.Ptr(1), a.Ptr(3), a.Uint(5)
	if flags&^(spliceMove|spliceNonblock|spliceMore|spliceGift) != 0 {
		return 0, EINVAL
	}
	in, out, e := k.ioPair(a.Int(0), a.Int(2))
	if e != 0 {
		return 0, e
	}
	inPipe, outPipe := in.kind == kindPipe, out.kind == kindPipe
	switch {
	case !inPipe && !outPipe:
		return 0, EINVAL
	case inPipe && offIn != 0, outPipe && offOut != 0:
		return 0, ESPIPE
	case inPipe && outPipe && in.pipe == out.pipe:
		return 0, EINVAL
	case out.flags&oAppend != 0:
		return 0, EINVAL
	}
	count := min(a.Ptr(4), maxRW)
	if count == 0 {
		return 0, 0
	}
	nonblock := flags&spliceNonblock != 0
	if !inPipe {
		return k.spliceToPipe(in, offIn, out, count, nonblock)
	}
	if eof, e := k.awaitData(in, nonblock); eof || e != 0 {
		return 0, e
	}
	p := in.pipe
	n := min(count, uint64(len(p.buf)))
	if outPipe {
		if e := k.awaitRoom(out, nonblock); e != 0 {
			return 0, e
		}
		n = min(n, uint64(out.pipe.capacity()-len(out.pipe.buf)))
		k.filled(out.pipe, p.buf[:n])
		k.drained(p, int(n))
		return n, 0
	}
	data := append([]byte(nil), p.buf[:n]...)
	var w int
	if offOut != 0 {
		off, _, e := k.readOff(offOut)
		if e != 0 {
			return 0, e
		}
		if out.kind != kindHost || !out.regular {
			return 0, ESPIPE
		}
		var err error
		obj := k.syncForIO(out.f)
		w, err = out.f.WriteAt(data, off)
		if obj != nil {
			k.reloadObject(obj, out.f, off, off+int64(w))
		}
		if w == 0 && err != nil {
			return 0, errnoOf(err)
		}
		if e := k.writeU64(offOut, uint64(off)+uint64(w)); e != 0 {
			return 0, e
		}
	} else if w, e = k.writeBytes(out, data); w == 0 && e != 0 {
		return 0, e
	}
	k.drained(p, w)
	return uint64(w), 0
}

// spliceToPipe moves up to count bytes from a file (regular, /dev/zero,
// /dev/random, standard input) into a pipe.
func (k *Kernel) spliceToPipe(in *openFile, offAddr uint64, out *openFile, count uint64, nonblock bool) (uint64, Errno) {
	regular := in.kind == kindHost && in.regular
	if offAddr != 0 && !regular {
		return 0, ESPIPE
	}
	switch {
	case regular, in.kind == kindZero, in.kind == kindRandom, in.kind == kindStdin && in.r != nil:
	default:
		return 0, EINVAL
	}
	if e := k.awaitRoom(out, nonblock); e != 0 {
		return 0, e
	}
	b := make([]byte, min(count, uint64(out.pipe.capacity()-len(out.pipe.buf))))
	n := len(b)
	switch {
	case regular:
		off, offSet, e := k.readOff(offAddr)
		if e != 0 {
			return 0, e
		}
		if !offSet {
			off = filePos(in)
		}
		k.syncForIO(in.f)
		m, err := in.f.ReadAt(b, off)
		if m == 0 && err != nil && err != io.EOF {
			return 0, errnoOf(err)
		}
		n = m
		if offSet {
			if e := k.writeU64(offAddr, uint64(off)+uint64(n)); e != 0 {
				return 0, e
			}
		} else {
			in.f.Seek(off+int64(n), io.SeekStart)
		}
	case in.kind == kindRandom:
		k.rand.fill(b)
	case in.kind == kindStdin:
		m, err := in.r.Read(b)
		if m == 0 && err != nil && err != io.EOF {
			return 0, errnoOf(err)
		}
		n = m
	}
	if n > 0 {
		k.filled(out.pipe, b[:n])
	}
	return uint64(n), 0
}

// sysTee copies up to len bytes from one pipe to another, leaving them
// in the first.
func sysTee(k *Kernel, a sysArgs) (uint64, Errno) {
	flags := a.Uint(3)
	if flags&^(spliceMove|spliceNonblock|spliceMore|spliceGift) != 0 {
		return 0, EINVAL
	}
	in, out, e := k.ioPair(a.Int(0), a.Int(1))
	if e != 0 {
		return 0, e
	}
	if in.kind != kindPipe || out.kind != kindPipe || in.pipe == out.pipe {
		return 0, EINVAL
	}
	count := min(a.Ptr(2), maxRW)
	if count == 0 {
		return 0, 0
	}
	nonblock := flags&spliceNonblock != 0
	if eof, e := k.awaitData(in, nonblock); eof || e != 0 {
		return 0, e
	}
	if e := k.awaitRoom(out, nonblock); e != 0 {
		return 0, e
	}
	n := min(count, uint64(len(in.pipe.buf)), uint64(out.pipe.capacity()-len(out.pipe.buf)))
	k.filled(out.pipe, in.pipe.buf[:n])
	return n, 0
}

// sysVmsplice moves the caller's memory into a pipe (its write end) or a
// pipe's bytes into the caller's memory (its read end), as writev and
// readv do, SPLICE_F_NONBLOCK making the pipe's side non-blocking.
func sysVmsplice(k *Kernel, a sysArgs) (uint64, Errno) {
	of, e := k.file(a.Int(0))
	if e != 0 {
		return 0, e
	}
	flags := a.Uint(3)
	if flags&^(spliceMove|spliceNonblock|spliceMore|spliceGift) != 0 {
		return 0, EINVAL
	}
	if of.kind != kindPipe {
		return 0, EBADF
	}
	if flags&spliceNonblock != 0 && of.flags&oNonblock == 0 {
		of.flags |= oNonblock
		defer func() { of.flags &^= oNonblock }()
	}
	return k.vector(a.Int(0), a.Ptr(1), a.Int(2), -1, !of.canRead())
}
