package syscalls

import "strconv"

// Pseudo-terminals (drivers/tty/pty.c with the n_tty line discipline):
// opening /dev/ptmx makes a pair, its slave /dev/pts/N (locked until
// TIOCSPTLCK unlocks it, as glibc's unlockpt does; TIOCGPTPEER opens it
// from the master). What the master writes goes through the line
// discipline to the slave's input: ICRNL, INLCR, IGNCR and ISTRIP; with
// ISIG the VINTR, VQUIT and VSUSP characters signal the foreground process
// group of the session whose controlling terminal it is; with ICANON the
// input is edited a line at a time (VERASE, VWERASE, VKILL, VEOF, VEOL)
// and a read returns at most one line; ECHO, ECHOE, ECHOK, ECHOKE,
// ECHONL and ECHOCTL echo it to the master. What the slave writes reaches
// the master through OPOST's ONLCR, OCRNL and OLCUC. Without ICANON a
// read waits for VMIN bytes; VTIME's timer is not modelled (with VMIN 0
// a read returns what is there at once, as if the time had run out).
// One termios serves both sides, as Linux's termios ioctls on a master
// act on its slave. A slave's session leader takes it as its
// controlling terminal with TIOCSCTTY or by opening it without
// O_NOCTTY; /dev/tty then opens it, and tcgetpgrp and tcsetpgrp work on
// it; a background group that reads it, or writes it with TOSTOP or
// changes its settings, gets SIGTTIN or SIGTTOU (ttyCheckChange). When
// the master closes, the slave hangs up: its reads return end of
// file, its writes EIO, and the session leader gets SIGHUP and SIGCONT,
// the foreground group SIGHUP. With every slave closed the master's reads
// return EIO once the output is read.

// termios is struct termios (asm-generic/termbits.h).
type termios struct {
	iflag, oflag, cflag, lflag uint32
	line                       uint8
	cc                         [19]uint8
}

// c_cc indices and flags (asm-generic/termbits.h, termbits-common.h).
const (
	vINTR, vQUIT, vERASE, vKILL, vEOF, _, vMIN = 0, 1, 2, 3, 4, 5, 6 // (5: VTIME, not modelled)
	vSTART, vSTOP, vSUSP, vEOL, vWERASE, vEOL2 = 8, 9, 10, 11, 14, 16

	tISTRIP, tINLCR, tIGNCR, tICRNL, tIXON = 0x20, 0x40, 0x80, 0x100, 0x400
	tOPOST, tOLCUC, tONLCR, tOCRNL         = 0x1, 0x2, 0x4, 0x8
	tISIG, tICANON, tECHO, tECHOE, tECHOK  = 0x1, 0x2, 0x8, 0x10, 0x20
	tECHONL, tNOFLSH, tTOSTOP, tECHOCTL    = 0x40, 0x80, 0x100, 0x200
	tECHOKE                                = 0x800
	tIEXTEN                                = 0x8000
	tB38400, tCS8, tCREAD                  = 0xf, 0x30, 0x80

	termios2Len = termiosLen + 8 // struct termios2: and c_ispeed, c_ospeed
	ptyBufMax   = 65536          // what a side holds before a writer waits
	canonMax    = 4095           // N_TTY_BUF_SIZE - 1: a line's length
)

// stdTermios is a new pty's settings: tty_std_termios with the pty
// driver's c_cflag (no HUPCL).
var stdTermios = termios{
	iflag: tICRNL | tIXON, oflag: tOPOST | tONLCR, cflag: tB38400 | tCS8 | tCREAD,
	lflag: tISIG | tICANON | tECHO | tECHOE | tECHOK | tECHOCTL | tECHOKE | tIEXTEN,
	cc:    [19]uint8{3, 0x1c, 0x7f, 0x15, 4, 0, 1, 0, 0x11, 0x13, 0x1a, 0, 0x12, 0x0f, 0x17, 0x16, 0},
}

func (t *termios) encode(two bool) []byte {
	n := termiosLen
	if two {
		n = termios2Len
	}
	b := make([]byte, n)
	put32(b, 0, t.iflag)
	put32(b, 4, t.oflag)
	put32(b, 8, t.cflag)
	put32(b, 12, t.lflag)
	b[16] = t.line
	copy(b[17:36], t.cc[:])
	if two { // the speeds of the baud bits (B38400)
		put32(b, 36, 38400)
		put32(b, 40, 38400)
	}
	return b
}

func decodeTermios(b []byte) termios {
	t := termios{iflag: u32(b, 0), oflag: u32(b, 4), cflag: u32(b, 8), lflag: u32(b, 12), line: b[16]}
	copy(t.cc[:], b[17:36])
	return t
}

// pty is a pseudo-terminal pair.
type pty struct {
	index  int
	locked bool
	tio    termios
	win    [winsizeLen]byte
	// in holds what the slave reads; out what the master reads.
	in, out *pipe
	// lineEnds are the ends of the complete lines in in.buf (ICANON; a
	// line VEOF ended has no terminator, an empty one is end of file);
	// edit is the line being edited.
	lineEnds    []int
	edit        []byte
	masterOpen  bool
	slaves      int  // open slave descriptions
	slaveOpened bool // ever: before, the master's reads wait
	sid, fg     int32
	hungUp      bool
	// stopped: output suspended (tcflow's TCOOFF, or VSTOP with IXON):
	// the slave's writes wait.
	stopped bool
}

// ptyPath is a slave's name.
func ptyPath(index int) string { return "/dev/pts/" + strconv.Itoa(index) }

// openPtmx makes a pair and returns its master (ptmx_open).
func (k *Kernel) openPtmx(flags uint32, cloexec bool) (uint64, Errno) {
	l := k.all
	i := 0
	for i < len(l.ptys) && l.ptys[i] != nil {
		i++
	}
	p := &pty{index: i, locked: true, tio: stdTermios, masterOpen: true,
		in: &pipe{ino: k.nextIno()}, out: &pipe{ino: k.nextIno()}}
	if i == len(l.ptys) {
		l.ptys = append(l.ptys, p)
	} else {
		l.ptys[i] = p
	}
	of := &openFile{kind: kindPtyMaster, guest: "/dev/ptmx", flags: flags&(oAccMode|oStatusKept) | oLargefile, pty: p}
	return k.install(of, cloexec, 0)
}

// ptyByPath returns the pair whose slave is g (/dev/pts/N).
func (k *Kernel) ptyByPath(g string) *pty {
	n, ok := cutPrefixNumber(g, "/dev/pts/")
	if !ok || n >= len(k.all.ptys) {
		return nil
	}
	return k.all.ptys[n]
}

func cutPrefixNumber(s, prefix string) (int, bool) {
	if len(s) <= len(prefix) || s[:len(prefix)] != prefix {
		return 0, false
	}
	n, err := strconv.Atoi(s[len(prefix):])
	if err != nil || n < 0 || strconv.Itoa(n) != s[len(prefix):] {
		return 0, false
	}
	return n, true
}

// openSlave opens p's slave (pts_unix98_lookup, tty_open): a locked one
// is EIO; a session leader without a controlling terminal takes it as
// its own unless O_NOCTTY.
func (k *Kernel) openSlave(p *pty, guest string, flags uint32, cloexec bool) (uint64, Errno) {
	if p.locked || !p.masterOpen {
		return 0, EIO
	}
	p.slaves++
	p.slaveOpened = true
	of := &openFile{kind: kindPtySlave, guest: guest, flags: flags&(oAccMode|oStatusKept) | oLargefile, pty: p}
	fd, e := k.install(of, cloexec, 0)
	if e != 0 {
		p.slaves--
		return 0, e
	}
	if flags&oNoctty == 0 && k.sid == k.pid && k.ctty() == nil && p.sid == 0 {
		p.sid, p.fg = k.sid, k.pgid()
	}
	return fd, 0
}

// ctty is the process's controlling terminal: the pair its session holds.
func (k *Kernel) ctty() *pty {
	for _, p := range k.all.ptys {
		if p != nil && p.sid != 0 && p.sid == k.sid && !p.hungUp {
			return p
		}
	}
	return nil
}

// closePty drops an end of its pair (pty_close): the master's close
// hangs up the slave.
func (k *Kernel) closePty(of *openFile) {
	p := of.pty
	if of.kind == kindPtyMaster {
		p.masterOpen = false
		if p.sid != 0 && !p.hungUp {
			k.hangUp(p)
		}
		p.hungUp = true
	} else {
		p.slaves--
	}
	p.in.gens[wakeAny]++
	p.out.gens[wakeAny]++
	if !p.masterOpen && p.slaves == 0 {
		k.all.ptys[p.index] = nil
	}
	k.ioWake()
}

// hangUp signals the session of a terminal whose master closed
// (tty_signal_session_leader): its leader SIGHUP and SIGCONT, the
// foreground group SIGHUP.
func (k *Kernel) hangUp(p *pty) {
	for _, q := range k.all.kernels {
		if q.exited {
			continue
		}
		if q.pid == p.sid {
			q.raiseProcess(sigHUP, makeInfo(sigHUP, siKernel))
			q.raiseProcess(sigCONT, makeInfo(sigCONT, siKernel))
		} else if q.pgid() == p.fg {
			q.raiseProcess(sigHUP, makeInfo(sigHUP, siKernel))
		}
	}
}

// signalForeground sends sig to the terminal's foreground process group.
func (k *Kernel) signalForeground(p *pty, sig int) {
	if p.sid == 0 {
		return
	}
	k.signalGroup(p.fg, sig)
}

// signalGroup sends sig from the kernel to process group g (kill_pgrp).
func (k *Kernel) signalGroup(g int32, sig int) {
	for _, q := range k.all.kernels {
		if !q.exited && q.pgid() == g {
			q.raiseProcess(sig, makeInfo(int32(sig), siKernel))
		}
	}
}

// --- the line discipline ----------------------------------------------------

// output appends what the slave writes (or the discipline echoes) to
// what the master reads, through OPOST's processing.
func (k *Kernel) ptyOutput(p *pty, b []byte) {
	t := &p.tio
	if t.oflag&tOPOST == 0 {
		k.filled(p.out, b)
		return
	}
	out := make([]byte, 0, len(b)+8)
	for _, c := range b {
		switch {
		case c == '\n' && t.oflag&tONLCR != 0:
			out = append(out, '\r', '\n')
		case c == '\r' && t.oflag&tOCRNL != 0:
			out = append(out, '\n')
		case c >= 'a' && c <= 'z' && t.oflag&tOLCUC != 0:
			out = append(out, c-'a'+'A')
		default:
			out = append(out, c)
		}
	}
	k.filled(p.out, out)
}

// echo echoes an input character (echo_char): a control character as
// ^X with ECHOCTL, others as themselves.
func (k *Kernel) echo(p *pty, c byte) {
	if (c < 0x20 || c == 0x7f) && c != '\n' && c != '\t' && p.tio.lflag&tECHOCTL != 0 {
		k.filled(p.out, []byte{'^', c ^ 0x40})
		return
	}
	k.ptyOutput(p, []byte{c})
}

// rubout erases an echoed character from the master's screen.
func (k *Kernel) rubout(p *pty, c byte) {
	if p.tio.lflag&tECHO == 0 {
		return
	}
	if p.tio.lflag&tECHOE == 0 {
		k.echo(p, p.tio.cc[vERASE])
		return
	}
	n := 1
	if (c < 0x20 || c == 0x7f) && c != '\t' && p.tio.lflag&tECHOCTL != 0 {
		n = 2
	}
	for range n {
		k.filled(p.out, []byte("\b \b"))
	}
}

// is reports whether c is the control character cc[i] (0 disables it).
func (t *termios) is(c byte, i int) bool { return t.cc[i] != 0 && c == t.cc[i] }

// input takes one character the master wrote (n_tty_receive_char).
func (k *Kernel) input(p *pty, c byte) {
	t := &p.tio
	if t.iflag&tISTRIP != 0 {
		c &= 0x7f
	}
	switch {
	case c == '\r' && t.iflag&tIGNCR != 0:
		return
	case c == '\r' && t.iflag&tICRNL != 0:
		c = '\n'
	case c == '\n' && t.iflag&tINLCR != 0:
		c = '\r'
	}
	echo := t.lflag&tECHO != 0
	if t.iflag&tIXON != 0 && (t.is(c, vSTOP) || t.is(c, vSTART)) { // flow control (n_tty_receive_char_flow_ctrl)
		k.setStopped(p, t.is(c, vSTOP))
		return
	}
	if t.lflag&tISIG != 0 {
		sig := 0
		switch {
		case t.is(c, vINTR):
			sig = sigINT
		case t.is(c, vQUIT):
			sig = sigQUIT
		case t.is(c, vSUSP):
			sig = sigTSTP
		}
		if sig != 0 {
			if t.lflag&tNOFLSH == 0 {
				p.flushInput()
				p.out.clear()
			}
			if echo {
				k.echo(p, c)
			}
			k.signalForeground(p, sig)
			return
		}
	}
	if t.lflag&tICANON == 0 {
		k.filled(p.in, []byte{c})
		if echo {
			k.echo(p, c)
		}
		return
	}
	switch {
	case t.is(c, vERASE):
		if n := len(p.edit); n > 0 {
			k.rubout(p, p.edit[n-1])
			p.edit = p.edit[:n-1]
		}
	case t.is(c, vWERASE) && t.lflag&tIEXTEN != 0:
		for len(p.edit) > 0 && p.edit[len(p.edit)-1] == ' ' {
			k.rubout(p, ' ')
			p.edit = p.edit[:len(p.edit)-1]
		}
		for len(p.edit) > 0 && p.edit[len(p.edit)-1] != ' ' {
			k.rubout(p, p.edit[len(p.edit)-1])
			p.edit = p.edit[:len(p.edit)-1]
		}
	case t.is(c, vKILL):
		switch {
		case !echo:
		case t.lflag&tECHOKE != 0 && t.lflag&tECHOE != 0:
			for i := len(p.edit) - 1; i >= 0; i-- {
				k.rubout(p, p.edit[i])
			}
		default:
			k.echo(p, c)
			if t.lflag&tECHOK != 0 {
				k.ptyOutput(p, []byte{'\n'})
			}
		}
		p.edit = p.edit[:0]
	case t.is(c, vEOF):
		p.endLine(k)
	case c == '\n' || t.is(c, vEOL) || t.is(c, vEOL2) && t.lflag&tIEXTEN != 0:
		if echo || c == '\n' && t.lflag&tECHONL != 0 {
			k.echo(p, c)
		}
		p.edit = append(p.edit, c)
		p.endLine(k)
	default:
		if len(p.edit) < canonMax {
			p.edit = append(p.edit, c)
			if echo {
				k.echo(p, c)
			}
		}
	}
}

// setStopped suspends or resumes the slave's output.
func (k *Kernel) setStopped(p *pty, stop bool) {
	p.stopped = stop
	p.out.gens[wakeAny]++
	k.ioWake()
}

// endLine makes the edited line readable.
func (p *pty) endLine(k *Kernel) {
	k.filled(p.in, p.edit)
	p.lineEnds = append(p.lineEnds, len(p.in.buf))
	p.edit = nil
}

// flushInput drops the slave's unread input (TCIFLUSH, a signal's flush).
func (p *pty) flushInput() {
	p.in.clear()
	p.lineEnds, p.edit = nil, nil
	p.in.gens[wakeOut]++
}

// setTermios changes the settings; leaving ICANON makes the edited line
// readable, entering it makes what is queued one line (n_tty_set_termios).
func (k *Kernel) setTermios(p *pty, t termios) {
	was := p.tio.lflag & tICANON
	p.tio = t
	switch {
	case was != 0 && t.lflag&tICANON == 0:
		k.filled(p.in, p.edit)
		p.edit, p.lineEnds = nil, nil
	case was == 0 && t.lflag&tICANON != 0 && len(p.in.buf) > 0:
		p.lineEnds = []int{len(p.in.buf)}
	}
	p.in.gens[wakeAny]++
}

// --- reads and writes ------------------------------------------------------------

// ttyCheckChange is __tty_check_change: a process of a background group
// of terminal p's session that reads it (SIGTTIN), or writes it with
// TOSTOP or changes its settings (SIGTTOU), has its group signalled and
// waits for the signal (ERESTARTSYS: it stops, and tries again when
// continued). With the signal ignored or blocked a read is EIO and the
// rest goes ahead; in an orphaned group (nobody to continue it) both are
// EIO.
func (k *Kernel) ttyCheckChange(p *pty, sig int) Errno {
	if k.ctty() != p || p.fg == 0 || k.pgid() == p.fg {
		return 0
	}
	if k.sigMask&sigBit(sig) != 0 || k.sig[sig].handler == sigIGN {
		if sig == sigTTIN {
			return EIO
		}
		return 0
	}
	if k.orphanedPgrp() {
		return EIO
	}
	k.signalGroup(k.pgid(), sig)
	return errRestartSys
}

// ptyRead reads from either end into guest memory at buf.
func (k *Kernel) ptyRead(of *openFile, buf, count uint64) (uint64, Errno) {
	p := of.pty
	if of.kind == kindPtySlave {
		if e := k.ttyCheckChange(p, sigTTIN); e != 0 {
			return 0, e
		}
	}
	for {
		var data []byte
		ready := false
		if of.kind == kindPtyMaster {
			if n := min(int(count), len(p.out.buf)); n > 0 {
				data, ready = append([]byte(nil), p.out.buf[:n]...), true
				k.drained(p.out, n)
			} else if p.slaveOpened && p.slaves == 0 {
				return 0, EIO
			}
		} else {
			data, ready = k.slaveTake(p, int(count))
			if !ready && p.hungUp {
				return 0, 0
			}
		}
		if ready {
			if len(data) > 0 && k.copyOut(buf, data) == 0 {
				return 0, EFAULT
			}
			return uint64(len(data)), 0
		}
		if of.flags&oNonblock != 0 {
			return 0, EAGAIN
		}
		if e := k.blockedIO("terminal read"); e != 0 {
			return 0, e
		}
	}
}

// slaveTake takes what a slave's read returns, if it may return.
func (k *Kernel) slaveTake(p *pty, count int) ([]byte, bool) {
	t := &p.tio
	if t.lflag&tICANON != 0 {
		if len(p.lineEnds) == 0 {
			return nil, false
		}
		n := min(count, p.lineEnds[0])
		data := append([]byte(nil), p.in.buf[:n]...)
		k.drained(p.in, n)
		for i := range p.lineEnds {
			p.lineEnds[i] -= n
		}
		if p.lineEnds[0] == 0 {
			p.lineEnds = p.lineEnds[1:]
		}
		return data, true
	}
	have, vmin := len(p.in.buf), int(t.cc[vMIN])
	if have == 0 && vmin > 0 || have < min(vmin, count) {
		return nil, false
	}
	n := min(count, have)
	data := append([]byte(nil), p.in.buf[:n]...)
	k.drained(p.in, n)
	return data, true
}

// ptyWrite writes from guest memory at buf to either end.
func (k *Kernel) ptyWrite(of *openFile, buf, count uint64) (uint64, Errno) {
	p := of.pty
	if of.kind == kindPtySlave && p.hungUp {
		return 0, EIO
	}
	if of.kind == kindPtySlave && p.tio.lflag&tTOSTOP != 0 {
		if e := k.ttyCheckChange(p, sigTTOU); e != 0 {
			return 0, e
		}
	}
	queue := p.out
	if of.kind == kindPtyMaster {
		queue = p.in
	}
	var done uint64
	for done < count {
		room := ptyBufMax - len(queue.buf)
		if of.kind == kindPtySlave && p.stopped {
			room = 0
		}
		if room <= 0 {
			if done > 0 {
				return done, 0
			}
			if of.flags&oNonblock != 0 {
				return 0, EAGAIN
			}
			if e := k.blockedIO("terminal write"); e != 0 {
				return 0, e
			}
			continue
		}
		b, e := k.readMem(buf+done, min(count-done, uint64(room)))
		if e != 0 {
			if done > 0 {
				return done, 0
			}
			return 0, e
		}
		if of.kind == kindPtyMaster {
			for _, c := range b {
				k.input(p, c)
			}
		} else {
			k.ptyOutput(p, b)
		}
		done += uint64(len(b))
	}
	return done, 0
}

// ptyPollMask is what tty_poll reports for either end.
func ptyPollMask(of *openFile) uint32 {
	p := of.pty
	var m uint32
	if of.kind == kindPtyMaster {
		if len(p.out.buf) > 0 {
			m |= pollIn | pollRdnorm
		}
		if p.slaveOpened && p.slaves == 0 {
			m |= pollIn | pollRdnorm | pollHup
		}
		if len(p.in.buf) < ptyBufMax {
			m |= pollOut | pollWrnorm
		}
		return m
	}
	if p.hungUp {
		return pollIn | pollOut | pollErr | pollHup | pollRdnorm | pollWrnorm
	}
	if p.tio.lflag&tICANON != 0 && len(p.lineEnds) > 0 || p.tio.lflag&tICANON == 0 && len(p.in.buf) > 0 {
		m |= pollIn | pollRdnorm
	}
	if len(p.out.buf) < ptyBufMax && !p.stopped {
		m |= pollOut | pollWrnorm
	}
	return m
}

// ptyWakeGens are an end's wake generations: its reads' queue, its
// writes' queue, and any change of the pair.
func ptyWakeGens(of *openFile) wakeGens {
	rd, wr := of.pty.in, of.pty.out
	if of.kind == kindPtyMaster {
		rd, wr = wr, rd
	}
	return wakeGens{rd.gens[wakeIn], wr.gens[wakeOut], rd.gens[wakeAny] + wr.gens[wakeAny]}
}

// --- ioctl ----------------------------------------------------------------------

// Terminal ioctls (asm-generic/ioctls.h).
const (
	tcsbrk      = 0x5409
	tcxonc      = 0x540a
	tcflsh      = 0x540b
	tiocexcl    = 0x540c
	tiocnxcl    = 0x540d
	tiocsctty   = 0x540e
	tiocspgrp   = 0x5410
	tiocoutq    = 0x5411
	tiocnotty   = 0x5422
	tiocsetd    = 0x5423
	tiocgetd    = 0x5424
	tcsbrkp     = 0x5425
	tiocgsid    = 0x5429
	tcgets2     = 0x802c542a
	tcsets2     = 0x402c542b
	tcsetsw2    = 0x402c542c
	tcsetsf2    = 0x402c542d
	tiocgptn    = 0x80045430
	tiocsptlck  = 0x40045431
	tiocgptlck  = 0x80045439
	tiocgptpeer = 0x5441
)

// ptyIoctl answers a terminal ioctl on either end; handled is false for
// a request that is not a terminal's.
func (k *Kernel) ptyIoctl(of *openFile, req, arg uint64) (r uint64, e Errno, handled bool) {
	p := of.pty
	master := of.kind == kindPtyMaster
	word := func(v uint32) (uint64, Errno, bool) { return 0, k.writeU32(arg, v), true }
	switch req {
	case tcgets, tcgets2:
		return 0, k.writeMem(arg, p.tio.encode(req == tcgets2)), true
	case tcsets, tcsetsw, tcsetsf, tcsets2, tcsetsw2, tcsetsf2:
		if e := k.ttyCheckChange(p, sigTTOU); e != 0 {
			return 0, e, true
		}
		b, e := k.readMem(arg, termiosLen)
		if e != 0 {
			return 0, e, true
		}
		if req == tcsetsf || req == tcsetsf2 {
			p.flushInput()
		}
		k.setTermios(p, decodeTermios(b))
		return 0, 0, true
	case tiocgwinsz:
		return 0, k.writeMem(arg, p.win[:]), true
	case tiocswinsz:
		b, e := k.readMem(arg, winsizeLen)
		if e != 0 {
			return 0, e, true
		}
		if string(b) != string(p.win[:]) {
			copy(p.win[:], b)
			k.signalForeground(p, sigWINCH)
		}
		return 0, 0, true
	case tcsbrk, tcsbrkp, tiocexcl, tiocnxcl:
		return 0, 0, true
	case tcxonc:
		if e := k.ttyCheckChange(p, sigTTOU); e != 0 {
			return 0, e, true
		}
		switch arg {
		case 0, 1: // TCOOFF, TCOON
			k.setStopped(p, arg == 0)
		case 2, 3: // TCIOFF, TCION: a STOP or START character to the other end
			c := p.tio.cc[vSTOP]
			if arg == 3 {
				c = p.tio.cc[vSTART]
			}
			if c != 0 {
				if master {
					k.input(p, c)
				} else {
					k.filled(p.out, []byte{c})
				}
			}
		default:
			return 0, EINVAL, true
		}
		return 0, 0, true
	case tcflsh:
		if e := k.ttyCheckChange(p, sigTTOU); e != 0 {
			return 0, e, true
		}
		if arg > 2 { // TCIFLUSH, TCOFLUSH, TCIOFLUSH
			return 0, EINVAL, true
		}
		in, out := arg != 1, arg != 0 // a master's input is what the slave wrote
		if master {
			in, out = out, in
		}
		if in {
			p.flushInput()
		}
		if out {
			p.out.clear()
			p.out.gens[wakeOut]++
		}
		return 0, 0, true
	case fionread:
		if master {
			return word(uint32(len(p.out.buf)))
		}
		return word(uint32(len(p.in.buf)))
	case tiocoutq:
		return word(0)
	case tiocgetd:
		return word(0) // N_TTY
	case tiocsetd:
		v, e := k.readU32(arg)
		if e == 0 && v != 0 {
			e = EINVAL
		}
		return 0, e, true
	case tiocgptn, tiocsptlck, tiocgptlck, tiocgptpeer:
		if !master {
			return 0, ENOTTY, true
		}
		switch req {
		case tiocgptn:
			return word(uint32(p.index))
		case tiocgptlck:
			if p.locked {
				return word(1)
			}
			return word(0)
		case tiocsptlck:
			v, e := k.readU32(arg)
			if e == 0 {
				p.locked = v != 0
			}
			return 0, e, true
		}
		fd, e := k.openSlave(p, ptyPath(p.index), uint32(arg)|oNoctty, uint32(arg)&oCloexec != 0)
		return fd, e, true
	case tiocsctty:
		switch {
		case p.sid == k.sid && p.sid != 0:
			return 0, 0, true
		case k.sid != k.pid || k.ctty() != nil:
			return 0, EPERM, true
		case p.sid != 0 && !k.cred.capable(capSysAdmin) || p.sid != 0 && arg != 1:
			return 0, EPERM, true
		}
		p.sid, p.fg = k.sid, k.pgid()
		return 0, 0, true
	case tiocnotty:
		if k.ctty() != p {
			return 0, ENOTTY, true
		}
		if k.sid == k.pid {
			k.hangUp(p)
			p.sid, p.fg = 0, 0
		}
		return 0, 0, true
	case tiocgpgrp, tiocspgrp, tiocgsid:
		if master && p.sid == 0 || !master && k.ctty() != p {
			return 0, ENOTTY, true
		}
		switch req {
		case tiocgpgrp:
			return word(uint32(p.fg))
		case tiocgsid:
			return word(uint32(p.sid))
		}
		if e := k.ttyCheckChange(p, sigTTOU); e != 0 { // (tiocspgrp: EIO is ENOTTY)
			if e == EIO {
				e = ENOTTY
			}
			return 0, e, true
		}
		v, e := k.readU32(arg)
		if e != 0 {
			return 0, e, true
		}
		if int32(v) < 0 {
			return 0, EINVAL, true
		}
		if !k.groupInSession(int32(v), p.sid) {
			return 0, EPERM, true
		}
		p.fg = int32(v)
		return 0, 0, true
	}
	return 0, 0, false
}

// groupInSession reports whether process group g has a member in
// session sid.
func (k *Kernel) groupInSession(g, sid int32) bool {
	for _, q := range k.all.kernels {
		if !q.exited && q.pgid() == g && q.sid == sid {
			return true
		}
	}
	return false
}

// ptyStat describes /dev/ptmx and /dev/pts/N (devtmpfs and devpts).
func (k *Kernel) ptyStat(p *pty, master bool) statInfo {
	s := statInfo{nlink: 1, uid: k.cred.euid, gid: k.cred.egid, blksize: PageSize}
	if master {
		s.dev, s.ino, s.mode, s.rdev = makedev(0, 5), 2, sIFCHR|0o666, makedev(5, 2)
		return s
	}
	s.dev, s.ino, s.mode, s.rdev = makedev(0, 25), uint64(p.index)+3, sIFCHR|0o600, makedev(136, uint64(p.index))
	return s
}
