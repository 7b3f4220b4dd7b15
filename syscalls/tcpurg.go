package syscalls

// TCP urgent data (MSG_OOB) on the loopback, as Linux's tcp_check_urg,
// tcp_urg, tcp_recvmsg and tcp_recv_urg have it: a send with MSG_OOB
// marks the last byte it queued as urgent in the peer's receive queue
// (a newer mark replaces an older one) and sends SIGURG to the peer
// socket's owner (F_SETOWN). Reads stop at the mark; without
// SO_OOBINLINE the urgent byte is taken out of the stream (a read at the
// mark skips it) and recv(MSG_OOB) returns it once; with it, the byte
// stays in the stream and recv(MSG_OOB) is EINVAL. poll reports POLLPRI
// (select's exceptional condition) while the byte is there to take, and
// SIOCATMARK says whether the next byte read is the mark. Once the
// reads pass the mark, it is gone.

const (
	siocatmark = 0x8905
	sigURG     = 23
)

// The state of a receive queue's urgent byte (tp->urg_data).
const (
	urgNone  = iota
	urgValid // there to take (TCP_URG_VALID)
	urgRead  // taken by recv(MSG_OOB) (TCP_URG_READ); the mark stays until passed
)

// urgent is a receive queue's urgent mark: the urgent byte's index in
// its buffer (it moves as bytes drain), its state and value.
type urgent struct {
	state uint8
	at    int
	b     byte
}

// markUrgent makes the last byte queued in p urgent and tells the owner
// of the socket that receives from p (peer, nil: none) with SIGURG.
func (k *Kernel) markUrgent(p *pipe, peer *openFile) {
	if len(p.buf) == 0 {
		return
	}
	p.urg = urgent{state: urgValid, at: len(p.buf) - 1, b: p.buf[len(p.buf)-1]}
	if peer != nil {
		k.signalOwner(peer, sigURG)
	}
}

// passUrgent moves p's mark as n bytes leave the front of its buffer:
// once they pass it, it is gone.
func (p *pipe) passUrgent(n int) {
	if p.urg.state == urgNone {
		return
	}
	if p.urg.at -= n; p.urg.at < 0 {
		p.urg = urgent{}
	}
}

// urgentSkip reports whether a read from p by of starts at an urgent
// byte taken out of the stream (no SO_OOBINLINE): the read skips it.
func (of *openFile) urgentSkip(p *pipe) bool {
	return p.urg.state != urgNone && p.urg.at == 0 && !of.sockOpts.oobInline
}

// urgentLimit is how many of n bytes a read from p may take: up to the
// mark, not across it.
func urgentLimit(p *pipe, n int) int {
	if p.urg.state != urgNone && p.urg.at > 0 {
		return min(n, p.urg.at)
	}
	return n
}

// recvUrgent is recv(MSG_OOB) on a TCP socket whose receive queue is p
// (tcp_recv_urg): the urgent byte, once; EINVAL with SO_OOBINLINE, with
// no mark or once it was taken; 0 at end of file; EAGAIN while the mark
// waits for its byte.
func (of *openFile) recvUrgent(p *pipe, count uint64, flags uint32) ([]byte, int, Errno) {
	if of.sockOpts.oobInline || p.urg.state != urgValid {
		return nil, 0, EINVAL
	}
	b := p.urg.b
	if flags&msgPeek == 0 {
		p.urg.state = urgRead
	}
	if count == 0 {
		return nil, 1, 0
	}
	return []byte{b}, 1, 0
}

// urgentPollMask is what p's mark adds to a poll of of: POLLPRI while
// the urgent byte is there to take; and, at a mark taken out of the
// stream, the byte does not count toward POLLIN (tcp_poll's target).
func (of *openFile) urgentPollMask(p *pipe) (pri bool, readable bool) {
	readable = len(p.buf) > 0
	if of.urgentSkip(p) {
		readable = len(p.buf) > 1
	}
	return p.urg.state == urgValid, readable
}

// atMark is SIOCATMARK: whether the next byte read from p is the mark.
func atMark(p *pipe) bool {
	return p.urg.state != urgNone && p.urg.at == 0
}

// signalOwner sends sig to the owner F_SETOWN gave of: a process (> 0)
// or a process group (< 0); none (0) or one that has ended is ignored.
func (k *Kernel) signalOwner(of *openFile, sig int) {
	owner := of.owner
	if owner == 0 {
		return
	}
	info := makeInfo(int32(sig), siKernel)
	for _, p := range k.all.kernels {
		if !p.exited && (owner > 0 && p.pid == owner || owner < 0 && p.pgid() == -owner) {
			p.raiseProcess(sig, info)
		}
	}
}
