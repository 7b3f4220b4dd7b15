package test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// forkWant is test/programs/fork's output. rvsim's processes take turns
// at fixed points of one clock (syscalls/fork.go), so the order of the
// lines is fixed; the values are what Linux gives whatever the order,
// except where rvsim's model says otherwise: every child's SIGCHLD is
// delivered on its own (Linux may merge them). A posix_spawn of a
// missing program fails with ENOENT, as in Linux: glibc's child reports
// the failed exec through memory it shares with its parent (CLONE_VM),
// and rvsim copies a vfork child's stores back when it ends without an
// exec (before, the call succeeded and its child exited with 127).
// Written by hand: qemu-riscv64's exec runs the host's programs, so it
// cannot be the reference for the exec lines.
const forkWant = `no children: wait -1 (ECHILD)
child: own pid yes, ppid is the parent yes
parent: fork returned the child's pid yes, global still 1
kill(child, 0) before the wait: 0
fork: exited with 7
kill(child, 0) after the wait: -1 (ESRCH)
SIGCHLD handled: 1
abort: killed by signal 6
read 200000 bytes from the child, then end of file
writer: exited with 0
grandchild's status plus one: exited with 12
spawned: argv[2] = vfork, ppid is the spawner: yes
vfork and exec: exited with 3
spawned: argv[2] = posix_spawn, ppid is the spawner: yes
posix_spawn: 0, waitid: 0, si_pid is the child yes, code CLD_EXITED, status 3
posix_spawn of a missing program: ENOENT
SIGCHLD handled: 7
all reaped: wait -1 (ECHILD)
`

// turnsWant is its "turns" stage: processes that wait for each other
// (a pipe written after the fork, one fed past its capacity, a child and
// a parent that wait for each other, an orphan that reads after its
// parent has ended).
const turnsWant = `a child reading what its parent writes later: exited with 0
parent wrote 300000 bytes
child read 300000 bytes, then end of file
the reader: exited with 0
a child and its parent waiting for each other: killed by signal 9
parent ends without waiting
orphan read 10 bytes, after its parent ended
`

// TestFork runs the program static and dynamically linked: the expected
// output, the same instruction count twice (the children's instructions
// are not the parent's), interpreted, in timing mode and under
// --difftest; and its "turns" stage, with the one warning line of the
// child killed for waiting forever.
func TestFork(t *testing.T) {
	rvsim := rvsimBinary(t)
	forkBuilds(t, "fork", func(t *testing.T, prog string) {
		runInModes(t, rvsim, prog, forkWant)

		for _, flags := range [][]string{nil, {"--jit", "off"}, {"--mode", "timing"}} {
			w := runProcess(t, t.TempDir(), []string{}, rvsim, append(append([]string{"run"}, flags...), prog, "turns")...)
			assert.Equal(t, 0, w.Status, w.Stderr)
			assert.Equal(t, turnsWant, w.Stdout, "%v", flags)
			assert.Equal(t, "rvsim: warning: child process 1003 killed: it and its parent wait for each other\n", w.Stderr)
		}
	})
}

const sharedWant = `maps: shared 1, private 0
child sees: parent
writer: exited with 0
shared: child; a page untouched before the fork; private: private
after MADV_DONTNEED: a page untouched before the fork
mprotect, madvise, mremap: killed by signal 7
still writable here; through mremap
semaphores: exited with 0
counter 2000
child sees in the file's mapping: parent..........
file writer: exited with 0
file: parent..child...
the child's mapping sees: oneent..child...
a child's own mapping: exited with 0
the parent's mapping sees: oneTWO..child...
file: oneTWO..child...
`

// TestForkShared runs test/programs/fork/shared.c (MAP_SHARED memory
// between processes, process-shared semaphores, shared file mappings,
// a child's own mapping of a file showing its parent's bytes, and in its
// alias stage two mappings of one file in one process;
// the mremap stage's child dies of SIGBUS past its object's end) static
// and dynamically linked: the expected output, the same instruction
// count twice, interpreted, in timing mode and under --difftest (the
// children's stores reach the reference as the parent's system calls'
// writes).
func TestForkShared(t *testing.T) {
	rvsim := rvsimBinary(t)
	forkBuilds(t, "shared", func(t *testing.T, prog string) {
		runInModes(t, rvsim, prog, sharedWant)
		// Two mappings of one file in one process (not under
		// --difftest: its reference keeps two copies).
		for _, flags := range [][]string{nil, {"--jit", "off"}, {"--mode", "timing"}} {
			a := runProcess(t, t.TempDir(), []string{}, rvsim, append(append([]string{"run"}, flags...), prog, "alias")...)
			assert.Equal(t, 0, a.Status, a.Stderr)
			assert.Equal(t, "the other mapping sees: 01ab456789\nfile: 01ab456789\n", a.Stdout, "%v", flags)
		}
	})
}

// TestForkFIFO runs test/programs/fork/fifo.c (named pipes between two
// processes and two threads, blocking and O_NONBLOCK opens, O_RDWR,
// poll, fstat, the bytes going with the last end) static and dynamically
// linked: qemu-riscv64's output, the same instruction count twice,
// interpreted, in timing mode and under --difftest. Before the run's own
// FIFO pipes, its first open waited for a writer in the host kernel and
// the simulator hung.
func TestForkFIFO(t *testing.T) {
	forkProgram(t, "fifo", fifoWant)
}

// fifoWant is qemu-riscv64's output of fifo.c.
const fifoWant = `fstat: fifo 1, same inode 1
parent read "hello reader" then end of file
child read "hello writer" then end of file
nonblocking reader: opened 1, read 0
nonblocking writer with a reader: opened 1
poll before a write: 0
poll after a write: 1 revents 0x1
nonblocking writer alone: -1 No such device or address
O_RDWR: read 4 "kept"
after the last close: -1 Resource temporarily unavailable
main thread read "from a thread" then end of file
`

// TestForkSession runs test/programs/fork/session.c (setsid in a child,
// setpgid by the parent on a child and back, getpgid and getsid of
// another process, ESRCH, two children's different getrandom bytes)
// static and dynamically linked: qemu-riscv64's output, in every mode.
func TestForkSession(t *testing.T) {
	forkProgram(t, "session", sessionWant)
}

// sessionWant is qemu-riscv64's output of session.c.
const sessionWant = `getsid(0) is getsid(getpid()): yes
getpgid(0) is getpgid(getpid()): yes
child: setsid returns its pid: yes
child: it leads its session: yes
child: and its group: yes
child: a second setsid is EPERM: yes
child: setpgid of a session leader is EPERM: yes
child: its parent's session is another: yes
child: its parent's scheduling policy: yes
setpgid(child, child): yes
getpgid(child) is the child: yes
getsid(child) is ours: yes
second child: in a group of its own: yes
second child: in its parent's session: yes
setpgid(child, our group): yes
second child: back in its parent's group: yes
two children draw different random bytes: yes
the run's parent's scheduling policy: yes
getpgid of no process is ESRCH: yes
getsid of no process is ESRCH: yes
setpgid of no child is ESRCH: yes
`

// TestForkKill runs test/programs/fork/kill.c (kill(2) to the parent, to
// the caller's group, to another group, kill(-1), ESRCH) static and
// dynamically linked, in every mode, against its hand-checked output
// (qemu-riscv64 shares the harness's process group: kill(0) there would
// reach the test itself). kill reached only the caller and its children
// before.
func TestForkKill(t *testing.T) {
	forkProgram(t, "kill", killWant)
}

const killWant = `child: kill(parent) 0
child: kill(0) 0
child got2 1
parent: waitpid 1, got1 1 got2 1
child2: kill(-parent group) 0
parent: got1 2
parent: kill(-child2 group) 0
child2: signalled 1 by 15
kill(-1, 0): -1 No such process
kill(no such process): -1 No such process
`

// TestForkNetif runs test/programs/fork/netif.c (lo as glibc's
// if_nametoindex, if_nameindex and getifaddrs, the interface ioctls and
// a raw NETLINK_ROUTE socket show it; then sethostname and setdomainname
// round trips) static and dynamically linked, in every mode. The
// expected output is the same program's, built with the host's gcc, on a
// Linux 6.18 host (the names part in a UTS namespace of its own, unshare
// --uts): as root, and as another user (setpriv --reuid 65534), whose
// sets fail; the guest's ids are the host's, so the user running the
// test picks the variant.
func TestForkNetif(t *testing.T) {
	want := netifWant + netifRootWant
	if os.Geteuid() != 0 {
		want = netifWant + netifUserWant
	}
	forkProgram(t, "netif", want)
}

const netifWant = `if_nametoindex(lo) = 1
if_indextoname(1) = lo
if_nametoindex(nosuch0) = 0 (No such device)
if_nameindex: 1 lo
getifaddrs: lo flags 0x10049 addr ifindex 1 hatype 772 halen 6 addr 00:00:00:00:00:00 netmask none broadcast/dst ifindex 1 hatype 772 halen 6 addr 00:00:00:00:00:00 data yes
getifaddrs: lo flags 0x10049 addr 127.0.0.1 netmask 255.0.0.0 broadcast/dst 127.0.0.1 data no
getifaddrs: lo flags 0x10049 addr ::1 netmask ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff broadcast/dst none data no
SIOCGIFINDEX lo: 1
SIOCGIFFLAGS lo: 0x49
SIOCGIFMTU lo: 65536
SIOCGIFTXQLEN lo: 1000
SIOCGIFADDR lo: 127.0.0.1
SIOCGIFNETMASK lo: 255.0.0.0
SIOCGIFBRDADDR lo: 0.0.0.0
SIOCGIFDSTADDR lo: 127.0.0.1
SIOCGIFHWADDR lo: family 772 addr 00:00:00:00:00:00
SIOCGIFNAME 1: lo
SIOCGIFINDEX nosuch0: No such device
SIOCGIFADDR lo:1: Cannot assign requested address
SIOCGIFCONF length: whole ifreqs
SIOCGIFCONF: lo 127.0.0.1
SIOCGIFADDR on AF_UNIX: Inappropriate ioctl for device
SIOCGIFINDEX on AF_UNIX: 1
netlink: bound to the pid: yes
link dump: index 1 type 772 flags 0x10049 multi 1
  IFLA_IFNAME lo
  IFLA_TXQLEN 1000
  IFLA_OPERSTATE 0
  IFLA_MTU 65536
  IFLA_ADDRESS of 6 bytes
  IFLA_BROADCAST of 6 bytes
  IFLA_QDISC noqueue
link dump: DONE status 0, alone in its datagram: yes
link dump: finished 1, seq and pid right: yes
addr dump: 127.0.0.1/8 flags 0x80 scope 254 label lo
addr dump: ::1/128 flags 0x80 scope 254 label none
addr dump: finished 1, seq and pid right: yes
route dump: 127.0.0.0/8 table 255 type 2 scope 254 proto 2
route dump: 127.0.0.1/32 table 255 type 2 scope 254 proto 2
route dump: 127.255.255.255/32 table 255 type 3 scope 253 proto 2
route dump: ::1/128 table 255 type 2 scope 0 proto 2
route dump: finished 1, seq and pid right: yes
seq 14: type 2 error 0 (Success) echoes type 1, length 36
seq 15: type 2 error -19 (No such device) echoes type 18, length 52
seq and pid right: yes; more: Resource temporarily unavailable
`

const netifRootWant = `uname: nodename netif-test domainname example.org
gethostname netif-test getdomainname example.org
/proc/sys/kernel/hostname: netif-test
/proc/sys/kernel/domainname: example.org
sethostname of 64 bytes: ok
sethostname of 65 bytes: Invalid argument
sethostname from a bad pointer: Bad address
gethostname: 64 bytes
`

const netifUserWant = `sethostname: Operation not permitted
setdomainname: Operation not permitted
`

// TestForkTimers runs test/programs/fork/timers.c (a child's interval
// timer ends its pause, sigsuspend, poll and waitpid while its parent
// waits for it) static and dynamically linked, in every mode: the
// output of qemu-riscv64 and of the same program on the host. The two
// processes waited for each other before, and the child was killed.
func TestForkTimers(t *testing.T) {
	forkProgram(t, "timers", timersWant)
}

const timersWant = `pause: returned -1 (Interrupted system call), alarms 1
pause: child exited 0
sigsuspend: returned -1 (Interrupted system call), alarms 1
sigsuspend: child exited 0
poll: returned -1 (Interrupted system call), alarms 1
poll: child exited 0
waitpid: the grandchild killed by 9
waitpid: returned -1 (Interrupted system call), alarms 1
waitpid: child exited 0
`

// TestForkSlices runs test/programs/fork/slices.c (a parent that waits
// with a deadline gets its turn back there, whatever its child does; the
// time a parent measures around a child includes the child's; a parent
// that spins on waitpid(WNOHANG) or on shared memory sees its child
// move; a parent reads what a grandchild ahead of its clock writes while
// the child between them waits) static
// and dynamically linked, in every mode: the output of qemu-riscv64 and
// of the same program on the host. Before processes ran in slices its
// first stage hung: the child that computes forever kept the turn.
func TestForkSlices(t *testing.T) {
	forkProgram(t, "slices", slicesWant)
}

const slicesWant = `a child that computes forever, killed after 50 ms: killed by signal 9
a child that sleeps 60 s, killed after 50 ms: killed by signal 9
alarm during waitpid: returned -1 (Interrupted system call), alarms 1
the timed-out child: killed by signal 15
poll 1000 ms on a child that computes 50 ms: 1 ready
poll 100 ms on a child that computes 2000 ms: 0 ready
wait 5 s for a child of 0.2 s: done, exited with 3
wait 0.2 s for a child of 5 s: timed out after 0.2 s or more: yes, under 1 s: yes
spinning on waitpid(WNOHANG): exited with 5, polled more than once: yes
spinning on shared memory: saw 42
read 10 bytes from a grandchild (grandchild) while its parent waited for it; the parent exited with 6
a child of 0.4 s: the parent measured 0.4 s or more: yes, under 2 s: yes
`

// TestForkBigIO runs test/programs/fork/bigio.c (one write of 256 KiB to
// a pipe and to a stream socket pair, each taking every byte while the
// reader drains; a parent that polls its child's three pipes as Python's
// communicate() does) static and dynamically linked, in every mode: the
// output of qemu-riscv64 and of the same program on the host. Before, a
// write returned after a buffer's worth (69,632 and 212,993 bytes), and a
// poll reported a pipe with 47 bytes of room writable, so the parent's
// next 4,096-byte write waited for a child that waited for it.
func TestForkBigIO(t *testing.T) {
	forkProgram(t, "bigio", bigioWant)
}

const bigioWant = `one write of 262144 bytes to a pipe: read 262144, intact, the write returned all: yes
one write of 262144 bytes to a stream socket pair: read 262144, intact, the write returned all: yes
communicate 131073 bytes: sent 131073, output 131073, error output 131073, intact, poll failed: no, child 0
`

// TestForkSCMRights runs test/programs/fork/scmrights.c (descriptors
// passed with SCM_RIGHTS over stream, seqpacket and datagram socket
// pairs, a named datagram socket and from a child to its parent: a
// control buffer too small, none, a read(), MSG_PEEK, MSG_CMSG_CLOEXEC,
// bad control messages, a stream's reads stopping after the bytes that
// carry descriptors, a receiver closed with descriptors in flight)
// static and dynamically linked, in every mode. The expected output is
// the same program's on the host (Linux 6.x); qemu-riscv64 differs from
// it (no MSG_CTRUNC, EBADF for a cmsg_len past the buffer). Before, every
// sendmsg with a control message failed with EINVAL.
func TestForkSCMRights(t *testing.T) {
	forkProgram(t, "scmrights", scmRightsWant)
}

const scmRightsWant = `stream: sendmsg with 2 descriptors: 1
  received 1 byte, 2 descriptors, new ones: yes; cmsg level 1 type 1 len 24; controllen 24
  written through the passed pipe: hello; then end of file
  read through the passed file: from the file
  3 descriptors, CMSG_SPACE(sizeof(int)) of room: 1 byte, 2 descriptors; cmsg level 1 type 1 len 24; controllen 24, MSG_CTRUNC
  the pipes kept: still open, still open; the third: end of file
  the pipes kept, once closed: end of file, end of file
  no room: 1 byte, 0 descriptors; controllen 0, MSG_CTRUNC; the pipe: end of file
  read(): 1 byte; the pipe: end of file
  peek: 2 bytes, 1 descriptor
  then: 2 bytes, 1 descriptor, distinct: yes, close-on-exec: yes and no
  one copy closed: still open
  both closed: end of file
  a bad descriptor: -1 (EBADF)
  cmsg_len past the buffer: -1 (EINVAL)
  receiver closed with a descriptor in flight: the pipe: end of file
seqpacket: sendmsg with 2 descriptors: 1
  received 1 byte, 2 descriptors, new ones: yes; cmsg level 1 type 1 len 24; controllen 24
  written through the passed pipe: hello; then end of file
  read through the passed file: from the file
  3 descriptors, CMSG_SPACE(sizeof(int)) of room: 1 byte, 2 descriptors; cmsg level 1 type 1 len 24; controllen 24, MSG_CTRUNC
  the pipes kept: still open, still open; the third: end of file
  the pipes kept, once closed: end of file, end of file
  no room: 1 byte, 0 descriptors; controllen 0, MSG_CTRUNC; the pipe: end of file
  read(): 1 byte; the pipe: end of file
  peek: 2 bytes, 1 descriptor
  then: 2 bytes, 1 descriptor, distinct: yes, close-on-exec: yes and no
  one copy closed: still open
  both closed: end of file
  a bad descriptor: -1 (EBADF)
  cmsg_len past the buffer: -1 (EINVAL)
  receiver closed with a descriptor in flight: the pipe: end of file
datagram: sendmsg with 2 descriptors: 1
  received 1 byte, 2 descriptors, new ones: yes; cmsg level 1 type 1 len 24; controllen 24
  written through the passed pipe: hello; then end of file
  read through the passed file: from the file
  3 descriptors, CMSG_SPACE(sizeof(int)) of room: 1 byte, 2 descriptors; cmsg level 1 type 1 len 24; controllen 24, MSG_CTRUNC
  the pipes kept: still open, still open; the third: end of file
  the pipes kept, once closed: end of file, end of file
  no room: 1 byte, 0 descriptors; controllen 0, MSG_CTRUNC; the pipe: end of file
  read(): 1 byte; the pipe: end of file
  peek: 2 bytes, 1 descriptor
  then: 2 bytes, 1 descriptor, distinct: yes, close-on-exec: yes and no
  one copy closed: still open
  both closed: end of file
  a bad descriptor: -1 (EBADF)
  cmsg_len past the buffer: -1 (EINVAL)
  receiver closed with a descriptor in flight: the pipe: end of file
stream read 1: abcd, 1 descriptor
stream read 2: efgh, 1 descriptor
stream read 3: ij, 1 descriptor
stream read of 2 of 4 bytes: kl, 1 descriptor
the rest: mn, 0 descriptors
named datagram socket: 3 bytes, 1 descriptor; cmsg level 1 type 1 len 20; controllen 24, MSG_TRUNC
  written through it: !, then end of file
from a child that has ended: 1 byte, 1 descriptor
  read through it: made by the child, then end of file
`

// TestForkPty runs test/programs/fork/pty.c (pseudo-terminals from
// posix_openpt and openpty: the line discipline's echo, line editing,
// end of file, CR and NL mapping, output processing and raw mode, window
// sizes, flushing, hang-ups, a locked slave, and a child session that
// takes the slave as its controlling terminal, opens /dev/tty and gets
// SIGINT from a ^C) static and dynamically linked, in every mode. The
// expected output is the same program's on the host (Linux 6.18).
// Before, /dev/ptmx did not open.
func TestForkPty(t *testing.T) {
	forkProgram(t, "pty", ptyWant)
}

const ptyWant = `posix_openpt: ok, grantpt 0, unlockpt 0
ptsname under /dev/pts: yes
isatty: master 1, slave 1, a pipe 0; ttyname is ptsname: yes; stat and fstat agree: yes; a character device: yes
defaults: iflag 0x500 oflag 0x5 cflag 0xbf lflag 0x8a3b VINTR 3 VERASE 127 VKILL 21 VEOF 4 VMIN 1
speed: 1
a line, CR mapped to NL: "hello\n" (6)
  echo: "hello\r\n" (7)
erase: "abc\n" (4)
  echo: "abx\b \bc\r\n" (9)
kill: "ok\n" (3)
  echo: "junk\b \b\b \b\b \b\b \bok\r\n" (20)
word erase: "one three\n" (10)
  echo: "one two\b \b\b \b\b \bthree\r\n" (23)
end of file after text: "partial" (7)
  echo: "partial" (7)
end of file alone: "" (0)
  echo: -1 (EAGAIN)
an unfinished line: -1 (EAGAIN)
  echo: "no newline yet" (14)
then its end: "no newline yet\n" (15)
  echo: "\r\n" (2)
a tab and ^A: "tab\x09ctl\x01\n" (9)
  echo: "tab\x09ctl^A\r\n" (11)
one read of two lines: "two\n" (4)
  the next: "lines\n" (6)
  echo: "two\r\nlines\r\n" (12)
a read of 4 of a line: "long" (4)
  the rest: "line\n" (5)
output processing: "out\r\nput\r" (9)
raw input: "x\ry\n\x03" (5)
  echo: -1 (EAGAIN)
raw output: "1\n2" (3)
raw read with nothing, VMIN 0: "" (0)
ECHONL without ECHO: "secret\n" (7)
  echo: "\r\n" (2)
window size set on the master, read on the slave: 80x24
tcflush 0, tcdrain 0, tcflow 0, tcsendbreak 0, FIONREAD after the flush: 0
tcflow(99): -1 EINVAL
tcflush(99): -1 EINVAL
tcgetpgrp of a terminal that is no one's: -1 ENOTTY
a write with output suspended: -1 EAGAIN
resumed: 1
  the master reads: "y" (1)
master read, the slave closed: -1 (EIO)
slave read, the master closed: "" (0)
slave write, the master closed: -1 (EIO)
the slave's name after both closed: ENOENT
opening a locked slave: -1 EIO
openpty: 0
child: TIOCSCTTY 0
parent reads: "tcgetpgrp is my group: yes\r\nready\r\n" (35)
then: EIO
after ^C: "^Cgot signal 2\r\n" (16)
child exited 0
`

// TestForkThreadWait runs test/programs/fork/threadwait.c (a thread
// blocked in waitpid or waitid while the main thread goes on, kills a
// child that sleeps for an hour, and spins until the thread has reaped a
// child that computes) static and dynamically linked, in every mode: the
// host's output. Before, a thread's wait held the whole process until the
// child ended, so the sleeper ran its hour and exited before the kill
// (Python's asyncio waits for its children so: test_asyncio's
// test_subprocess took 8 simulated hours and failed 16 tests).
func TestForkThreadWait(t *testing.T) {
	forkProgram(t, "threadwait", threadWaitWant)
}

const threadWaitWant = `waitpid in a thread, the main thread goes on: reaped before the kill: no
  the sleeper: killed by signal 9
  within a second: yes
  a child that computes, reaped while the main thread spins: exited with 16
waitid in a thread, the main thread goes on: reaped before the kill: no
  the sleeper: killed by signal 9
  within a second: yes
  a child that computes, reaped while the main thread spins: exited with 16
`

// TestForkSiblings runs test/programs/fork/siblings.c (four children
// pass a token around a ring of process-shared semaphores, each wait
// with a timeout, as Python's multiprocessing Barrier and Condition
// wait) static and dynamically linked, in every mode: the host's output.
// Before, a round of the children's turns in which every child waited
// stretched each turn to the earliest timeout, also for a child a
// sibling had just woken, so the clock jumped by seconds a lap (the
// "under 10 s" line read "no"), and Python's test_multiprocessing
// barrier tests broke their barriers on timeouts.
func TestForkSiblings(t *testing.T) {
	forkProgram(t, "siblings", siblingsWant)
}

const siblingsWant = `4 children passed a token 200 laps around a ring of semaphores: 0 timed out, ended well 4, under 10 s: yes
`

// TestForkServer runs test/programs/fork/forkserver.c (a server child
// forks workers on the main process's requests, the workers meeting at a
// barrier of process-shared semaphores with 2 s timeouts, as Python's
// multiprocessing forkserver does) static and dynamically linked, in
// every mode: the host's output. Before, the server, waiting for the
// next request, let the first worker's clock run to its timeout before
// the main process could send it ("passed 1, timed out 3").
func TestForkServer(t *testing.T) {
	forkProgram(t, "forkserver", forkServerWant)
}

const forkServerWant = `4 workers from a forkserver met at a barrier: passed 4, timed out 0, the server saw 4 end well
`

// TestForkTimedServer runs test/programs/fork/timedserver.c (a server
// child with a service that polls with 1 s timeouts, an idle worker and
// a notifier, as Python's forkserver has once a Manager and a pool's
// workers run) static and dynamically linked, in every mode: the host's
// output. Before, the idle worker's clock, standing still, kept the
// server's turn from ending, so the service's timed waits ran its clock
// on without end (the run hung; with a deadline of the main process's,
// its answer came that many seconds late), and a poll reporting the
// notice's bytes did not catch up with the writer's clock ("after 0.0 s").
func TestForkTimedServer(t *testing.T) {
	forkProgram(t, "timedserver", timedServerWant)
}

const timedServerWant = `notice: poll 1, after 1.0 s
service's answer: 1 'a', within 0.1 s: yes
the server saw 3 of its 3 children end well
`

// TestForkParentDeath runs test/programs/fork/parentdeath.c (a
// watcher polls a pipe whose write end only its sleeping parent holds,
// and the main process kills that parent, as Python's
// parent_process().join() watches; the watcher is the parent's child, or
// the child of a server the parent started, as with Python's forkserver)
// static and dynamically linked, in every mode: the host's output.
// Before, the sleeping parent let its child's timed poll run to its
// timeout before the main process had its turn, and (fixed after) the
// server, blocked with its clock standing still, kept the sleeping
// parent's turn going until then ("within 1 s: n").
func TestForkParentDeath(t *testing.T) {
	forkProgram(t, "parentdeath", parentDeathWant)
}

const parentDeathWant = `a sleeping parent's child: it watches: w, its parent killed by 15, it saw the parent's end within 1 s: y (1)
a child of the sleeping parent's server: it watches: w, its parent killed by 15, it saw the parent's end within 1 s: y (1)
`

// TestSeccomp runs test/programs/fork/seccomp.c (strict mode and BPF
// filters: seccomp(2)'s and the filter checks' errors, every action,
// precedence, a filter of arithmetic and jumps, arguments, inheritance by
// fork, threads (TSYNC) and execve, the unprivileged rule, and the vDSO's
// calls), static and dynamically linked, in every mode; its output is the
// host's (Linux 6.18, x86-64, as root). Before, seccomp answered ENOSYS
// and prctl(PR_SET_SECCOMP) EINVAL.
func TestSeccomp(t *testing.T) {
	forkProgram(t, "seccomp", seccompWant)
}

const seccompWant = `prctl(PR_GET_SECCOMP): 0
  Seccomp:	0
  Seccomp_filters:	0
GET_ACTION_AVAIL 0x80000000: 0
GET_ACTION_AVAIL 0: 0
GET_ACTION_AVAIL 0x30000: 0
GET_ACTION_AVAIL 0x50000: 0
GET_ACTION_AVAIL 0x7ff00000: 0
GET_ACTION_AVAIL 0x7ffc0000: 0
GET_ACTION_AVAIL 0x7fff0000: 0
GET_ACTION_AVAIL 0x12345678: -1 (EOPNOTSUPP)
GET_NOTIF_SIZES: 0
  sizes 80 24 64
unknown op: -1 (EINVAL)
strict mode with flags: -1 (EINVAL)
strict mode with args: -1 (EINVAL)
GET_ACTION_AVAIL with flags: -1 (EINVAL)
GET_ACTION_AVAIL, bad pointer: -1 (EFAULT)
unknown flag: -1 (EINVAL)
TSYNC with NEW_LISTENER: -1 (EINVAL)
bad program pointer: -1 (EFAULT)
length 0: -1 (EINVAL)
length 4097: -1 (EINVAL)
bad instructions pointer: -1 (EFAULT)
bad program 0: -1 (EINVAL)
bad program 1: -1 (EINVAL)
bad program 2: -1 (EINVAL)
bad program 3: -1 (EINVAL)
bad program 4: -1 (EINVAL)
bad program 5: -1 (EINVAL)
bad program 6: -1 (EINVAL)
bad program 7: -1 (EINVAL)
bad program 8: -1 (EINVAL)
bad program 9: -1 (EINVAL)
bad program 10: -1 (EINVAL)
bad program 11: -1 (EINVAL)
bad program 12: -1 (EINVAL)
bad program 13: -1 (EINVAL)
still unfiltered here: 0
  getppid before: 1
  getppid with ERRNO|ENOMSG: -1 (ENOMSG)
  getuid with ERRNO|5000: -1 errno 4095
  prctl(PR_GET_SECCOMP): 2
  Seccomp:	2
  Seccomp_filters:	2
errno: exit 0
  SIGSYS: signo SYS code 1 errno 7 syscall is getppid 1 arch 1 call_addr set 1
  after the handler
trap: exit 0
trap while SIGSYS is blocked: killed by SYS
kill process: killed by SYS
kill thread, the only one: killed by SYS
  the main thread goes on
kill thread, one of two: exit 3
  getppid with TRACE, no tracer: -1 (ENOSYS)
  getuid with LOG: 0
  getgid with ALLOW: 0
trace, log, allow: exit 0
  two ERRNO filters (the newest's data): -1 (EINTR)
  TRAP before a newer ERRNO: trapped
  Seccomp:	2
  Seccomp_filters:	4
precedence: exit 0
  install: 0
  getppid(0): errno 26
  getppid(7): errno 36
  getppid(17): errno 96
  getppid(64): errno 192
  getppid(100): errno 2
  getppid(1000): errno 1
arithmetic: exit 0
division by zero: killed by SYS
  install: 0
  out
  write(2): -1 (EBADF)
  write(1): 6
  the architecture's filter: 0
  getppid under it: 1
arguments: exit 0
  in a child of the filtered process: -1 (EDOM)
  after execve: getppid: -1 (EDOM)
  after execve: prctl(PR_GET_SECCOMP): 2
inherited: exit 0
  a thread started before the filter: errno 0
  TSYNC: 0
  a thread synchronized by TSYNC: errno 18
threads: exit 0
  write works
strict mode: killed by KILL
strict mode, exit: exit 5
  no_new_privs: 1
  install as an unprivileged user with no_new_privs: 0
unprivileged with no_new_privs: exit 0
  install as an unprivileged user without no_new_privs: -1 (EACCES)
  clock_gettime under a filter that kills it: 0
vDSO: exit 0
`

// TestProcessVM runs test/programs/fork/processvm.c (process_vm_readv and
// process_vm_writev on the caller, a thread and a child: the argument
// checks, scatter and gather, copies that stop at an unmapped, read-only
// or PROT_NONE page, the real-ids check and a zombie), static and
// dynamically linked, in every mode; its output is the host's (Linux
// 6.18, as root). Before, both answered ENOSYS, and CPython's
// test_external_inspection failed.
func TestProcessVM(t *testing.T) {
	forkProgram(t, "processvm", processVMWant)
}

const processVMWant = `flags 1: -1 (EINVAL)
liovcnt 1025: -1 (EINVAL)
liovcnt 2^32+1: 12
local iov unreadable: -1 (EFAULT)
empty local, pid -1: 0
riovcnt 1025: -1 (EINVAL)
riovcnt 2^32+1: -1 (EINVAL)
empty remote, pid -1: 0
pid -1: -1 (ESRCH)
pid 0: -1 (ESRCH)
self read: 12
  read 'parent data'
self write, 2 local, 2 remote: 8
  wrote 'ABCD' 'EFGH'
remote read across an unmapped page: 100
remote read of an unmapped page: -1 (EFAULT)
second remote iov unmapped: 8
remote write to a read-only page: -1 (EFAULT)
remote read of a PROT_NONE page: -1 (EFAULT)
read by a thread's tid: 12
  read 'parent data'
child sees 'from parent'
unprivileged child reads its root parent: -1 (EPERM)
unprivileged child reads itself: 12
read the child: 12
  read 'child data' (own copy 'parent data')
write the child: 12
parent's copy still 'parent data'
read a zombie: -1 (ESRCH)
read a reaped child: -1 (ESRCH)
`

// TestForkPidfd runs test/programs/fork/pidfd.c (pidfd_open,
// pidfd_send_signal with and without a siginfo, pidfd_getfd, CLONE_PIDFD
// of clone and clone3, waitid's P_PIDFD, a pidfd's readiness in poll and
// epoll before and after its process ends and is reaped, and a sibling
// polling a pidfd it inherited; a thread's tid) static and dynamically linked, in every
// mode: the output of the same program built for the Linux 6.18 host.
// Before, pidfd_open answered ENOSYS.
func TestForkPidfd(t *testing.T) {
	forkProgram(t, "pidfd", pidfdWant)
}

const pidfdWant = `pidfd_open(-1): -1 (EINVAL)
pidfd_open(0): -1 (EINVAL)
pidfd_open with flags 1: -1 (EINVAL)
pidfd_open(self): fd, cloexec 1, access mode rdwr 1
self alive: revents 0
waitid on self: -1 (ECHILD)
signal 0: 0
flags 8: -1 (EINVAL)
signal 65: -1 (EINVAL)
not a pidfd: -1 (EBADF)
waitid on a pipe: -1 (EBADF)
waitid on -1: -1 (EINVAL)
read: -1 (EINVAL)
write: -1 (EINVAL)
SIGUSR1 to self: 0, handled 1, code SI_USER 1
SIGUSR1 with SI_QUEUE: 0, handled 2, code SI_QUEUE 1, value 42
si_signo not the signal: -1 (EINVAL)
bad siginfo pointer: -1 (EFAULT)
SIGUSR1 through /proc/PID: 0, handled 3
waitid on /proc/PID: -1 (EBADF)
pidfd_getfd on /proc/PID: -1 (EBADF)
signal through /proc: -1 (EBADF)
pidfd_open(a thread) fails: 1
pidfd_open(child, PIDFD_NONBLOCK): fd, nonblock 1
child alive: revents 0
waitid, nonblocking pidfd: -1 (EAGAIN)
waitid WNOHANG: 0, si_pid 0
epoll_ctl: 0
epoll_wait before: 0
child ended: revents 0x1
epoll_wait after: 1, events 0x1, data 7
signal to the zombie: 0
pidfd_open(zombie): fd
waitid: 0, si_pid is the child 1, CLD_EXITED 1, status 5
reaped: revents 0x11
epoll_wait reaped: 1, events 0x11
signal after the reaping: -1 (ESRCH)
waitid again: -1 (ECHILD)
pidfd_open(reaped): -1 (ESRCH)
SIGKILL: 0
killed: waitid 0, code CLD_KILLED, status 9
SI_USER to another process: -1 (EPERM)
SI_TKILL to another process: -1 (EPERM)
si_code -60 to another process: 0
terminated: waitid 0, code CLD_KILLED, status 15
clone3 CLONE_PIDFD: child, pidfd fd, cloexec 1
clone3's child: waitid 0, code CLD_EXITED, status 3
clone CLONE_PIDFD: child, pidfd fd
clone's child: waitid 0, code CLD_EXITED, status 4
clone CLONE_PIDFD|CLONE_PARENT_SETTID: -1 (EINVAL)
clone3 with a bad pidfd pointer: -1 (EFAULT)
no child left: -1 (ECHILD)
pidfd_getfd: fd, cloexec 1, reads hello
pidfd_getfd of a closed descriptor: -1 (EBADF)
pidfd_getfd with flags 1: -1 (EINVAL)
pidfd_getfd of a pipe: -1 (EBADF)
getfd's child: waitid 0, code CLD_EXITED, status 0
pidfd_getfd after the end: -1 (ESRCH)
sibling: waitid on its sibling -1 (ECHILD)
sibling: before the release, revents 0
sibling: after, revents 0x1
the sibling: waitid 0, code CLD_EXITED, status 0
the first child: waitid 0, code CLD_EXITED, status 6
pidfd_open(a reaped child): -1 (ESRCH)
`

// TestForkProcOther runs test/programs/fork/procother.c (another
// process's /proc/PID: the listing of /proc, stat, status, cmdline,
// environ, comm, the exe link, the fd and task directories, of a child
// that waits, one that computes, one that has run a program, a zombie
// and a reaped child, and a child's view of itself and its parent) static and dynamically linked, in every mode: the
// output of the same program built for the Linux 6.18 host. Before,
// /proc listed the caller alone and every other pid was ENOENT.
func TestForkProcOther(t *testing.T) {
	forkProgram(t, "procother", procOtherWant)
}

const procOtherWant = `waiting child: listed in /proc 1, stat: comm (procother) state S, ppid is us 1, our group 1
waiting child: status: Name procother, State S (sleeping), PPid is us 1, Tgid is its pid 1, Threads 1
waiting child: cmdline: (1 arguments)
waiting child: comm procother
waiting child: exe is ours 1
waiting child: fd lists the pipe 1, task lists it 1
waiting child: the pipe's link is ours 1
waiting child: environ is ours 1
computing child: listed in /proc 1, stat: comm (procother) state R, ppid is us 1, our group 1
computing child: status: Name procother, State R (running), PPid is us 1, Tgid is its pid 1, Threads 1
computing child: cmdline: (1 arguments)
computing child: comm procother
child that ran a program: listed in /proc 1, stat: comm (exe) state S, ppid is us 1, our group 1
child that ran a program: status: Name exe, State S (sleeping), PPid is us 1, Tgid is its pid 1, Threads 1
child that ran a program: cmdline: exec-child 6 3 (4 arguments)
child that ran a program: comm exe
zombie: listed in /proc 1, stat: comm (procother) state Z, ppid is us 1, our group 1
zombie: status: Name procother, State Z (zombie), PPid is us 1, Tgid is its pid 1, Threads 1
zombie: cmdline: (0 arguments)
zombie: comm procother
zombie: exe ENOENT
reaped: stat ENOENT, listed 0
a child sees itself R, its waiting parent S (S (sleeping))
our own: self: listed in /proc 1, stat: comm (procother) state R, ppid is us 0, our group 1
self: status: Name procother, State R (running), PPid is us 0, Tgid is its pid 1, Threads 1
self: cmdline: (1 arguments)
self: comm procother
`

// TestForkJobControl runs test/programs/fork/jobctl.c (SIGSTOP,
// SIGTSTP and SIGCONT: a stopped child's threads do not run; wait4's
// WUNTRACED and WCONTINUED, waitid's WSTOPPED with WNOWAIT, SIGCHLD's
// CLD_STOPPED and CLD_CONTINUED and SA_NOCLDSTOP; /proc's T; a handled
// SIGTSTP; SIGCONT discarding a pending stop; an orphaned group's
// SIGTSTP discarded; SIGKILL to a stopped child; raise(SIGSTOP)) static
// and dynamically linked, in every mode: the output of the same program
// built for the Linux 6.18 host. Before, stop signals were ignored.
func TestForkJobControl(t *testing.T) {
	forkProgram(t, "jobctl", jobCtlWant)
	t.Run("stuck", func(t *testing.T) { // the only process stops itself: a deadlock, reported
		prog := filepath.Join(testprogs, "fork", "jobctl")
		needFile(t, prog, "make testprogs")
		w := runProcess(t, t.TempDir(), []string{}, rvsimBinary(t), "run", prog, "stuck")
		assert.Equal(t, 1, w.Status, w.Stderr)
		assert.Empty(t, w.Stdout)
		assert.Equal(t, "rvsim: deadlock: the process is stopped by signal 19 (Stopped (signal)) and no process of the run can continue it\n", w.Stderr)
	})
}

const jobCtlWant = `running: main thread 1, second thread 1
SIGSTOP: waitpid 1, stopped by 19; SIGCHLD 1 CLD_STOPPED status 19; /proc state T
stopped: main thread still 1, second thread still 1
WUNTRACED|WNOHANG again: 0
SIGCONT: waitpid 1, continued
continued: main thread 1, second thread 1, /proc state R
SIGCHLD 1 CLD_CONTINUED status 18
SIGTSTP: waitid WNOWAIT 0, CLD_STOPPED status 20
again: waitid 0, CLD_STOPPED status 20, pid 1
consumed: waitid 0, si_pid 0
SIGKILL to the stopped child: killed by 9
SA_NOCLDSTOP: 0 SIGCHLD for a stop and a continuation, last continued
a handled SIGTSTP: exited 41
SIGTSTP then SIGCONT while blocked: exited 2 (2: the stop was discarded)
SIGTSTP taken when unblocked: stopped by 20
then: exited 3
SIGTSTP to an orphaned group: stopped 0, still running 1
SIGSTOP to it: stopped by 19
raise(SIGSTOP): stopped by 19
continued, then: exited 9
`

// TestForkSockets runs test/programs/fork/xsock.c (TCP over IPv4 and
// IPv6, UDP, and AF_UNIX stream sockets by a path and an abstract name
// and datagram sockets, each between a parent and a child that bound its
// socket after the fork; a blocking sendmsg of 600000 bytes on TCP and
// AF_UNIX streams; a port in use across processes; a socket bound at
// the path of an unlinked one still bound) static and dynamically
// linked, in every mode: the output of the same program built for the
// Linux 6.18 host. Before, each process had its own bind tables, and the
// first connect was refused; and the second socket file took the first's
// freed inode ("another inode: no"), as the bound socket did not hold it.
func TestForkSockets(t *testing.T) {
	forkProgram(t, "xsock", xsockWant)
}

const xsockWant = `tcp connect to a child's listener: 0
tcp echo: HELLO (5 bytes); then end of file 1
tcp server: exited 0
tcp6 accepted from a child: from the child
tcp6 client: exited 0
udp from a child: datagram (8), from the loopback 1
udp sender: exited 0
unix by a path: connect 0, got "by a path"
unix server: exited 0
unix by an abstract name: connect 0, got "by an abstract name"
unix server: exited 0
unix datagram from a child: unix datagram (13)
unix datagram sender: exited 0
tcp: a 600000-byte sendmsg read whole: 600000
the sender: exited 0
unix stream: a 600000-byte sendmsg read whole: 600000
the sender: exited 0
bind to a child's port: -1 (EADDRINUSE)
the port's holder: exited 0
bind after it ended: 0
bind at an unlinked socket's path: 0, another inode: yes
connect after the first closed: 0, the second accepts: yes
`

// TestForkTerminalJobs runs test/programs/fork/ttyjob.c (a session
// leader with a pseudo-terminal, as a shell: a background job's read
// stops it with SIGTTIN, then in the foreground it reads a line; EIO with
// SIGTTIN ignored; a write with TOSTOP and a tcsetattr stop it with
// SIGTTOU, unless SIGTTOU is ignored or blocked) static and dynamically
// linked, in every mode: the output of the same program built for the
// Linux 6.18 host. Before, a background job read the terminal.
func TestForkTerminalJobs(t *testing.T) {
	forkProgram(t, "ttyjob", ttyJobWant)
}

const ttyJobWant = `a background read: stopped by 21
in the foreground and continued, it read the line: exited 3
the terminal back: 0
a background read ignoring SIGTTIN (5: EIO): exited 5
a background write without TOSTOP: exited 7
then: the terminal shows "bg  "
a background write with TOSTOP: stopped by 22
with TOSTOP, ignoring SIGTTOU: exited 9
then: the terminal shows "ig  "
a background tcsetattr: stopped by 22
a background tcsetattr blocking SIGTTOU: exited 13
the session leader: exited 0
`

// TestForkCausalClock runs test/programs/fork/causal.c (a child computes,
// then sends its clock's reading through a pipe, a socket pair, TCP and a
// pseudo-terminal; the parent's clock after the read is past it) static
// and dynamically linked, in every mode: the host's output. Before, the
// reader's clock stood where it was when it began to wait.
func TestForkCausalClock(t *testing.T) {
	forkProgram(t, "causal", causalWant)
}

const causalWant = `pipe: read 8 bytes, the reader's clock past the write 1, the write after the start 1
socket pair: read 8 bytes, the reader's clock past the write 1, the write after the start 1
tcp: read 8 bytes, the reader's clock past the write 1, the write after the start 1
pseudo-terminal: read 8 bytes, the reader's clock past the write 1, the write after the start 1
`

// TestForkSocketTimeouts runs test/programs/fork/sockto.c (SO_RCVTIMEO
// and SO_SNDTIMEO on receives, accepts and sends, a reply from another
// process in time, a thread's timeout while another runs and while
// another does I/O, a signal's EINTR despite SA_RESTART, getsockopt,
// EDOM, a negative timeout) static and dynamically linked, in every
// mode: the host's output. Before, the timeouts were accepted without
// effect and a receive on nothing waited forever; later, each wake by
// another thread's I/O started the timeout again (the thread's recv
// never timed out while the other thread's I/O went on) and a signal
// restarted the wait with a fresh timeout, ending in EAGAIN.
func TestForkSocketTimeouts(t *testing.T) {
	forkProgram(t, "sockto", socktoWant)
}

const socktoWant = `SO_RCVTIMEO 0.3 s: 0
getsockopt: 0.300000, length 16
recv on nothing: -1 (EAGAIN), after 0.3 s 1
tv_usec 1000000: -1 (EDOM)
a short optlen: -1 (EINVAL)
tv_sec -1: 0
read with it: -1 (EAGAIN), at once 1
getsockopt: 0.000000
a reply after 0.1 s with a 2 s timeout: 1, in time 1
SO_SNDTIMEO 0.2 s: 0
a send larger than the buffer: moved part 1, after 0.2 s 1
then a send to the full buffer: -1 (EAGAIN), after 0.2 s 1
tcp accept with nobody: -1 (EAGAIN), after 0.25 s 1
unix accept with nobody: -1 (EAGAIN), after 0.25 s 1
a thread's recv while another runs: -1 (EAGAIN), after 0.3 s 1
a thread's recv while another does I/O: -1 (EAGAIN), after 0.3 s 1
a SA_RESTART signal after 0.3 s in a recv with a 2 s timeout: -1 (EINTR), after 0.3 s 1
and without a timeout: 1 (restarted), after 0.6 s 1
`

// TestForkRecordLocks runs test/programs/fork/reclock.c: fcntl record
// locks and OFD locks between processes (conflicts, F_GETLK's
// description, F_SETLKW waiting for the parent's unlock on the run's
// clock, a split by an unlock, the drop at a close of another descriptor
// and at the end of the process, EDEADLK, EBADF and EINVAL, a F_SETLKW
// tried again after EINTR), and flock
// between processes that opened the file after the fork; the host's
// output. Before, every record lock succeeded, and flock locks taken
// only after a fork did not see each other (each process had its table).
func TestForkRecordLocks(t *testing.T) {
	forkProgram(t, "reclock", reclockWant)
}

const reclockWant = `parent locks [0,100): 0
parent unlocks [40,60): 0
child locks [5,6): -1 (EAGAIN)
child locks [45,50): 0
child read-locks [100,200): 0
child's F_GETLK [50,70): F_WRLCK at 60, length 40, pid the owner's
child's F_GETLK [40,60): F_UNLCK
child's F_SETLKW [0,10): 0, after the parent's unlock 1
parent unlocks [0,40): 0
parent's F_GETLK [0,10) while the child holds it: F_WRLCK at 0, length 10, pid the owner's
after the child ended: F_UNLCK
parent locks [0,10): 0
after the parent closed another descriptor, child locks [0,10): 0
parent locks [0,1): 0
parent's F_SETLKW [1,2), which the waiting child holds: -1 (EDEADLK)
child's F_SETLKW [0,1): 0
parent unlocks [0,1): 0
OFD lock [0,10) on one open: 0
OFD lock [5,6) on another: -1 (EAGAIN)
POSIX lock [5,6) of the same process: -1 (EAGAIN)
F_OFD_GETLK [0,1): F_WRLCK at 0, length 10, pid -1
OFD lock with l_pid set: -1 (EINVAL)
after the first open's close, OFD lock [5,6): 0
read lock on a write-only descriptor: -1 (EBADF)
lock type 7: -1 (EINVAL)
a start before 0: -1 (EINVAL)
child flock LOCK_EX: 0
parent flock LOCK_EX|LOCK_NB while the child holds it: -1 (EAGAIN)
after the child ended: 0
F_SETLKW tried again after EINTR: 0, interrupted several times, after the child's close 1
`

// TestForkFdinfo runs test/programs/fork/fdinfo.c: /proc/self/fdinfo/N
// of a regular file, a pipe, a socket, an eventfd, a signalfd and a pidfd
// before and after its process is reaped, and the directory's listing;
// the host's output (the machine's mount ids, inodes and eventfd ids
// masked).
func TestForkFdinfo(t *testing.T) {
	forkProgram(t, "fdinfo", fdinfoWant)
}

const fdinfoWant = `regular file at 7: [pos:	7] [flags:	0100002] [mnt_id: N] [ino: N]
pipe read end: [pos:	0] [flags:	02004000] [mnt_id: N] [ino: N]
pipe write end: [pos:	0] [flags:	02004001] [mnt_id: N] [ino: N]
socket: [pos:	0] [flags:	02000002] [mnt_id: N] [ino: N] [scm_fds: 0]
eventfd: [pos:	0] [flags:	02] [mnt_id: N] [ino: N] [eventfd-count:                5] [eventfd-id: N] [eventfd-semaphore: 1]
signalfd: [pos:	0] [flags:	02] [mnt_id: N] [ino: N] [sigmask:	0000000000004200]
pidfd before the reap: its pid yes
pidfd after the reap: [pos:	0] [flags:	02000002] [mnt_id: N] [ino: N] [Pid:	-1] [NSpid:	-1]
fdinfo lists as many as fd: 1
a closed descriptor's fdinfo: gone
`

// TestForkInotify runs test/programs/fork/inotify.c: inotify's watches of
// a directory and the files in it, the events of the process's own file
// operations and its child's, in the host's order, merges, overflow,
// IN_ONESHOT, IN_MASK_ADD, IN_MASK_CREATE, IN_EXCL_UNLINK and the errors;
// the host's output. Before, inotify_init1 was ENOSYS.
func TestForkInotify(t *testing.T) {
	forkProgram(t, "inotify", inotifyWant)
}

const inotifyWant = `init1 bad flags: -1 (EINVAL)
init1: ok, cloexec 1, nonblock 1
missing path: -1 (ENOENT)
onlydir on a file: -1 (ENOTDIR)
no events: -1 (EINVAL)
only flags: 1
add and create: -1 (EINVAL)
bad fd: -1 (EBADF)
not an inotify fd: -1 (EINVAL)
rm_watch on it: -1 (EINVAL)
rm_watch of no watch: -1 (EINVAL)
read of nothing: -1 (EAGAIN)
watches: 1 2
same directory again: 1
mask_create on it: -1 (EEXIST)
create d/f:
  D CREATE "f" (len 16)
  D OPEN "f" (len 16)
FIONREAD with nothing: 1
FIONREAD after two writes: 96
read into 8 bytes: -1 (EINVAL)
poll: 1 revents 0x1
two writes (the directory's and the file's alternate):
  D MODIFY "f" (len 16)
  F MODIFY
  D MODIFY "f" (len 16)
  F MODIFY
close after writing:
  D CLOSE_WRITE "f" (len 16)
  F CLOSE_WRITE
open, read, read at the end, close:
  D OPEN "f" (len 16)
  F OPEN
  D ACCESS "f" (len 16)
  F ACCESS
  D CLOSE_NOWRITE "f" (len 16)
  F CLOSE_NOWRITE
open O_TRUNC:
  D OPEN "f" (len 16)
  F OPEN
  D MODIFY "f" (len 16)
  F MODIFY
ftruncate:
  D MODIFY "f" (len 16)
  F MODIFY
close, truncate:
  D CLOSE_WRITE "f" (len 16)
  F CLOSE_WRITE
  D MODIFY "f" (len 16)
  F MODIFY
chmod:
  D ATTRIB "f" (len 16)
  F ATTRIB
chown to the same (-1, -1): none
utimensat both:
  D ATTRIB "f" (len 16)
  F ATTRIB
utimensat atime only:
  D ACCESS "f" (len 16)
  F ACCESS
utimensat mtime only:
  D MODIFY "f" (len 16)
  F MODIFY
O_PATH open and close: none
O_RDWR open, close:
  D OPEN "f" (len 16)
  F OPEN
  D CLOSE_WRITE "f" (len 16)
  F CLOSE_WRITE
link:
  F ATTRIB
  D CREATE "hard" (len 16)
symlink:
  D CREATE "sym" (len 16)
dont_follow on the link: 4
following it: 3
unlink the link:
  SYM ATTRIB
  SYM IGNORED
  D DELETE "sym" (len 16)
mkdir:
  D CREATE|ISDIR "sub" (len 16)
list d:
  D OPEN|ISDIR
  D ACCESS|ISDIR
  D CLOSE_NOWRITE|ISDIR
rmdir:
  D DELETE|ISDIR "sub" (len 16)
rename in d:
  D MOVED_FROM cookie c1 "f" (len 16)
  D MOVED_TO cookie c1 "g" (len 16)
  F MOVE_SELF
rename to d2:
  D MOVED_FROM cookie c2 "g" (len 16)
  D2 MOVED_TO cookie c2 "g" (len 16)
  F MOVE_SELF
write d2/h:
  D2 CREATE "h" (len 16)
  D2 OPEN "h" (len 16)
  D2 MODIFY "h" (len 16)
  D2 CLOSE_WRITE "h" (len 16)
open, four writes (merged), writev of three buffers:
  D2 OPEN "h" (len 16)
  D2 MODIFY "h" (len 16)
fchmod, fallocate, close:
  D2 ATTRIB "h" (len 16)
  D2 MODIFY "h" (len 16)
  D2 CLOSE_WRITE "h" (len 16)
rename over g (its link F still has d/hard):
  D2 MOVED_FROM cookie c3 "h" (len 16)
  D2 MOVED_TO cookie c3 "g" (len 16)
  F ATTRIB
unlink d/hard (F's inode's last name went with the rename):
  F ATTRIB
  F DELETE_SELF
  F IGNORED
  D DELETE "hard" (len 16)
make d/open, watch it, open it:
  D CREATE "open" (len 16)
  D OPEN "open" (len 16)
  D MODIFY "open" (len 16)
  D CLOSE_WRITE "open" (len 16)
  D OPEN "open" (len 16)
  O OPEN
unlink it while open:
  O ATTRIB
  D DELETE "open" (len 16)
close one descriptor: none
close the last:
  D CLOSE_NOWRITE "open" (len 16)
  O CLOSE_NOWRITE
  O DELETE_SELF
  O IGNORED
rm_watch of the gone watch: -1 (EINVAL)
watch plain oneshot: none
two rewrites of plain:
  P MODIFY
  P IGNORED
new watch number after oneshot: 7
mask_add: 1
rewrite, chmod:
  P2 MODIFY
  P2 ATTRIB
replace mask: 1
rewrite, chmod (attrib only):
  P2 ATTRIB
rm_watch: 0
after rm_watch:
  P2 IGNORED
chmod after rm_watch: none
D2 again with excl_unlink: 1
open d2/g:
  D2x OPEN "g" (len 16)
unlink d2/g:
  D2x DELETE "g" (len 16)
write and close the unlinked g: none
two files:
  D CREATE "a" (len 16)
  D OPEN "a" (len 16)
  D MODIFY "a" (len 16)
  D CLOSE_WRITE "a" (len 16)
  D CREATE "b" (len 16)
  D OPEN "b" (len 16)
  D MODIFY "b" (len 16)
  D CLOSE_WRITE "b" (len 16)
  D OPEN "a" (len 16)
  D OPEN "b" (len 16)
max_queued_events read: 1
events after 16384+10 writes: max+1 1, overflows 1 (wd -1, last 16385)
closes after the overflow:
  D CLOSE_WRITE "a" (len 16)
  D CLOSE_WRITE "b" (len 16)
blocked read: events, first event wd 1 mask 0x100 name child
the child's operations on the first instance:
  D2x CREATE "child" (len 16)
  D2x OPEN "child" (len 16)
  D2x MODIFY "child" (len 16)
  D2x CLOSE_WRITE "child" (len 16)
  D2x DELETE "child" (len 16)
mkdir d/w, watch it:
  D CREATE|ISDIR "w" (len 16)
rmdir d/w:
  W DELETE_SELF
  W IGNORED
  D DELETE|ISDIR "w" (len 16)
mkdir d/m, watch it, move it to d2:
  D CREATE|ISDIR "m" (len 16)
  D MOVED_FROM|ISDIR cookie c4 "m" (len 16)
  D2x MOVED_TO|ISDIR cookie c4 "m" (len 16)
  M MOVE_SELF
watch numbers so far: F 3, O 5, E 2
clean up:
  D DELETE "a" (len 16)
  D DELETE "b" (len 16)
  M DELETE_SELF
  M IGNORED
  D2x DELETE|ISDIR "m" (len 16)
  D DELETE_SELF
  D IGNORED
  D2x DELETE_SELF
  D2x IGNORED
`

// TestForkSysVSem runs test/programs/fork/sysvsem.c: System V semaphores
// between a parent and its children, operation arrays all or nothing,
// waiters served in the order they came, GETNCNT and GETZCNT, SEM_UNDO
// at a child's end, timeouts, signals, IPC_RMID under a waiter, the
// limits and /proc/sysvipc/sem's line; the host's output. Before, semget
// was ENOSYS.
func TestForkSysVSem(t *testing.T) {
	forkProgram(t, "sysvsem", sysvsemWant)
}

const sysvsemWant = `get missing key: -1 (ENOENT)
nsems 0: -1 (EINVAL)
nsems 32001: -1 (EINVAL)
nsems -1: -1 (EINVAL)
create keyed: ok
again with IPC_EXCL: -1 (EEXIST)
again by key: 1
again, more: -1 (EINVAL)
stat: 0, nsems 3, mode 640, otime 0, ctime set 1, owner is me 1, key kept 1
new values: 0 0 0, pid 0
setall: 0
getall: 4 0 1, pid is me 1
setall 32768: -1 (ERANGE)
setval 32768: -1 (ERANGE)
setval -1: -1 (ERANGE)
getval 3: -1 (EINVAL)
getval -1: -1 (EINVAL)
bad cmd: -1 (EINVAL)
bad id: -1 (EINVAL)
negative id: -1 (EINVAL)
P on 1 (0), nowait: -1 (EAGAIN)
+1 on 0 and -1 on 1, nowait: -1 (EAGAIN), values 4 0
-3 then -2 on 0 (4): -1 (EAGAIN), value 4
-3 then -1 on 0 (4): 0, value 0
+1 then wait-for-zero on 2: -1 (EAGAIN), value 1
zero on 0 and -1 on 2: 0, values 0 0
past 32767: -1 (ERANGE), value 32767
nsops 0: -1 (EINVAL)
nsops 501: -1 (E2BIG)
nsops 500: -1 (EAGAIN)
semnum 3: -1 (EFBIG)
bad address: -1 (EFAULT)
bad timeout: -1 (EINVAL)
wait-for-zero on 0 for 20 ms: -1 (EAGAIN)
P on 1 with timeout 0: -1 (EAGAIN)
otime set 1
waiting for 1: ncnt 1, zcnt 0
child: P on 1: 0, value 0
P child: exit 0
V on 1: 0
after: value 0, ncnt 0, pid is the child's 1
two waiting: ncnt 2
served: AB
first: exit 0
second: exit 0
waiting for zero: zcnt 1, ncnt 0
one left: zcnt 1
child: zero on 2: 0
zero child: exit 0
child: value 5
undo child: exit 0
after the child: value 5
cleared child: exit 0
after SETVAL: value 10
clamped child: exit 0
undo past 32767: value 32767
undo -32767: 0
undo -32768: 0
undo -32769: -1 (ERANGE), value 0
P interrupted: -1 (EINTR), ncnt 0
set: 0
mode after set: 604
info: semmni 32000, semmsl 32000, semmns 1024000000, semopm 500, semvmx 32767, semume 500, semusz 20, semaem 32767, highest ok 1
sem_info: sets 1, semaphores at least 3 1
sem_stat: same id 1, nsems 3
proc header:        key      semid perms      nsems   uid   gid  cuid  cgid      otime      ctime
proc line: key 1, perms 604, nsems 3, width 85
child: P on a removed set: -1 (EIDRM)
removed child: exit 0
rmid: 0
after rmid: -1 (EINVAL)
key gone: -1 (ENOENT)
private: ok, distinct 1
`

// TestForkMqueue runs test/programs/fork/mqueue.c: POSIX message queues:
// mq_open's errors and attributes, messages by priority, the size,
// non-blocking and timed calls, the queue file's read, fstat and poll,
// mq_notify by signal and by thread (glibc's netlink helper), a parent
// and a child each waiting on the other, an unlinked queue still open,
// the limits and RLIMIT_MSGQUEUE; the host's output (Linux 6.18). Before,
// mq_open was ENOSYS.
func TestForkMqueue(t *testing.T) {
	forkProgram(t, "mqueue", mqueueWant)
}

const mqueueWant = `open missing: -1 (ENOENT)
open without a slash: -1 (EINVAL)
open with two slashes: -1 (EACCES)
create maxmsg 0: -1 (EINVAL)
create msgsize -1: -1 (EINVAL)
create: 1
create again, O_EXCL: -1 (EEXIST)
close-on-exec: 1
  flags 0 maxmsg 4 msgsize 64 curmsgs 0
default attributes:
  flags 0 maxmsg 10 msgsize 8192 curmsgs 0
fstat: regular 1 mode 640 size 80 links 1
low-1: 0
high-1: 0
mid: 0
high-2: 0
  flags 0 maxmsg 4 msgsize 64 curmsgs 4
read 60: QSIZE:20         NOTIFY:0     SIGNO:0     NOTIFY_PID:0     
read again: 0
seek to the start: 0
read after it: 60
seek to the end: 80
seek before the start: -1 (EINVAL)
write: -1 (EINVAL)
poll full: in 1 out 0
set O_NONBLOCK, old flags 0
send to a full queue: -1 (EAGAIN)
send prio 32768: -1 (EINVAL)
send 65 bytes: -1 (EMSGSIZE)
receive into 63 bytes: -1 (EMSGSIZE)
receive: high-1 prio 9
receive: high-2 prio 9
receive: mid prio 5
receive: low-1 prio 1
receive from an empty queue: -1 (EAGAIN)
poll empty: in 0 out 1
timed receive, 1 ms: -1 (ETIMEDOUT)
timed receive, invalid time: -1 (EINVAL)
timed send, invalid time, room: -1 (EINVAL)
timed send, past: -1 (ETIMEDOUT)
notify: 0
notify again: -1 (EBUSY)
notify, bad sigev_notify: -1 (EINVAL)
read 60: QSIZE:0          NOTIFY:0     SIGNO:10    NOTIFY_PID is mine 1
signal 1: code SI_MESGQ 1 value 42 pid is mine 1
signal again: -1 (registration ended)
notify, then close another descriptor: 0
notify after the close: 0
unregister: 0
notify by thread: 0
thread notified: value 7
child received to the child prio 2
parent received queued prio 1
parent received waited prio 3
parent received queued prio 1
parent received queued prio 1
parent received queued prio 1
child exit 0
unlink: 0
unlink again: -1 (ENOENT)
open the unlinked name: -1 (ENOENT)
send to the unlinked queue: 0
received still
links 0
close: 0
send to a closed descriptor: -1 (EBADF)
mq_send on stdout: -1 (EBADF)
msgsize_default 8192
create over RLIMIT_MSGQUEUE: -1 (EMFILE)
create a small one: 1
`

// TestForkSysVMsg runs test/programs/fork/sysvmsg.c: System V message
// queues between a parent and its children, messages by type, E2BIG,
// MSG_NOERROR and MSG_COPY, waiting receivers handed what is sent in the
// order they came, a sender that waits for room, signals, IPC_RMID under
// a waiter, the limits and /proc/sysvipc/msg's line; the host's output.
// Before, msgget was ENOSYS.
func TestForkSysVMsg(t *testing.T) {
	forkProgram(t, "sysvmsg", sysvmsgWant)
}

const sysvmsgWant = `get missing key: -1 (ENOENT)
create keyed: ok
again with IPC_EXCL: -1 (EEXIST)
again by key: 1
stat: mode 640, qbytes 16384, qnum 0, stime 0, rtime 0, ctime set 1, owner is me 1, key kept 1
type 0: -1 (EINVAL)
type -1: -1 (EINVAL)
8193 bytes: -1 (EINVAL)
bad address: -1 (EFAULT)
bad id: -1 (EINVAL)
negative id: -1 (EINVAL)
empty, nowait: -1 (ENOMSG)
send 1: 0
send 3: 0
send 2: 0
send 5: 0
send 1 (empty): 0
queued: 5 messages, 15 bytes
lspid is me 1, lrpid 0, stime set 1
copy 2: type 2, 3 bytes "two"
copy 9: -1 (ENOMSG)
copy, waiting: -1 (EINVAL)
copy with except: -1 (EINVAL)
type 2: type 2, 3 bytes "two"
type 4, nowait: -1 (ENOMSG)
up to 4: type 1, 3 bytes "one"
except 1: type 3, 5 bytes "three"
3 bytes of 5: -1 (E2BIG)
3 bytes, noerror: type 5, 3 bytes "fiv"
size -1: -1 (EINVAL)
left: 1 messages, 0 bytes
any: type 1, 0 bytes ""
lrpid is me 1, rtime set 1
with a receiver: 1 messages, 10 bytes
child: type 7: type 7, 5 bytes "seven"
type 7 child: exit 0
after: 1 messages, 10 bytes
lrpid is the child's 1
A got type 1, 5 bytes "first"
B got type 1, 6 bytes "second"
first: exit 0
second: exit 0
child: 2 bytes: -1 (E2BIG)
small child: exit 0
kept: 1 messages, 4 bytes
set qbytes 10: 0
qbytes now 10
8 bytes: 0
3 more, nowait: -1 (EAGAIN)
2 more: 0
0 more, nowait: 0
full: 3 messages, 10 bytes
take: type 1, 8 bytes "12345678"
child: send waited: 0
sender: exit 0
after the sender: 3 messages, 5 bytes
rest: type 2, 2 bytes "ab", type 2, 0 bytes "", type 3, 3 bytes "xyz"
interrupted: -1 (EINTR)
info: msgmax 8192, msgmnb 16384, msgmni 32000, msgssz 16, msgseg 65535, msgpool 512000, msgmap 16384, msgtql 16384, highest ok 1
msg_info: queues 1, messages 1, bytes 1
msg_stat: same id 1, qnum 1
bad cmd: -1 (EINVAL)
proc header:        key      msqid perms      cbytes       qnum lspid lrpid   uid   gid  cuid  cgid      stime      rtime      ctime
proc line: key 1, perms 640, cbytes 3, qnum 1, width 120
child: on a removed queue: -1 (EIDRM)
removed child: exit 0
rmid: 0
after rmid: -1 (EINVAL)
key gone: -1 (ENOENT)
`

// TestForkSysVShm runs test/programs/fork/sysvshm.c: System V shared
// memory between a parent and its child, the attach count through fork,
// detach and the child's end, IPC_RMID while attached, IPC_SET, SHM_RND,
// SHM_REMAP and the errors; the host's output. Before, shmget was ENOSYS
// and PostgreSQL's initdb failed.
func TestForkSysVShm(t *testing.T) {
	forkProgram(t, "sysvshm", sysvshmWant)
}

const sysvshmWant = `get missing key: -1 (ENOENT)
size 0: -1 (EINVAL)
create keyed: ok
again with IPC_EXCL: -1 (EEXIST)
again by key: 1
again, larger: -1 (EINVAL)
stat: size 10000, mode 600, nattch 0, cpid is me 1, lpid 0, atime 0, owner is me 1
key kept: 1
attach: ok, aligned 1, zero 1
nattch after attach: 1
lpid is me 1, atime set 1
child sees: parent, nattch 2
child's second attach: ok, same bytes 1, nattch 3
parent reads: child wrote, nattch after the child ended 1
SHM_RND attach: at the rounded address 1, sees parent
unaligned without SHM_RND: EINVAL
over a mapping without SHM_REMAP: EINVAL
with SHM_REMAP: 1, nattch 2
shmdt of a non-attachment: -1 (EINVAL)
shmdt: 0
shmdt again: -1 (EINVAL)
IPC_SET: 0
mode after IPC_SET: 640
IPC_RMID: 0
after IPC_RMID: key 0, mode 1640, nattch 1, bytes parent
get by the old key: -1 (ENOENT)
last shmdt: 0
stat after it: -1 (EINVAL)
attach after it: EINVAL
two private segments: 1
stat of a bad id: -1 (EINVAL)
bad command: -1 (EINVAL)
IPC_INFO: 1, shmmin 1, shmmni 1
`

// TestForkPdeathsig runs test/programs/fork/pdeathsig.c: prctl's
// parent-death signal, delivered when the parent ends, not inherited,
// and no_new_privs, the timer slack and keepcaps; the host's output.
func TestForkPdeathsig(t *testing.T) {
	forkProgram(t, "pdeathsig", pdeathsigWant)
}

const pdeathsigWant = `pdeathsig at the start: 0
a bad signal: -1 (EINVAL)
no_new_privs: 0
set it to 2: -1 (EINVAL)
set it: 0
no_new_privs now: 1
timer slack: 50000
after setting 1000: 1000
after setting 0: 50000
keepcaps: 0
set it to 2: -1 (EINVAL)
keepcaps now: 1
the middle process: pdeathsig inherited 0, no_new_privs 1; the grandchild got SIGUSR1 when its parent ended
after exec: keepcaps 0, no_new_privs 1
`

// TestForkDaemon runs test/programs/fork/daemon.c: a child that forks a
// daemon and ends is reaped at once, the daemon goes on under another
// parent, unseen by wait, and daemon(3); the host's output. Before, the
// child's end waited for the daemon's.
func TestForkDaemon(t *testing.T) {
	forkProgram(t, "daemon", daemonWant)
}

const daemonWant = `the child ended before its daemon: 1, status 7
nothing from the daemon yet: -1 (EAGAIN)
wait for any other child: -1 (ECHILD)
daemon: my parent changed 1
end of the daemon's pipe: 0
daemon(3)'s caller ended with 0
`

// TestForkNestedWake runs test/programs/fork/nestedwake.c: a signal to a
// grandchild waiting in epoll on a signalfd while its parent waits with
// a deadline wakes it at once; the host's output. Before, the waiting
// parent kept the turn until the grandchild had timed out.
func TestForkNestedWake(t *testing.T) {
	forkProgram(t, "nestedwake", nestedwakeWant)
}

const nestedwakeWant = `a child: woken by the signal 3 of 3 times, within 1 s 3
an orphaned grandchild: woken by the signal 3 of 3 times, within 1 s 3
a grandchild whose parent waits: woken by the signal 3 of 3 times, within 1 s 3
`

// TestForkSubreaper runs test/programs/fork/subreaper.c: a child
// subreaper's orphaned descendants, live and zombie, become its children;
// the host's output.
func TestForkSubreaper(t *testing.T) {
	forkProgram(t, "subreaper", subreaperWant)
}

const subreaperWant = `subreaper at the start: 0
set: 0
subreaper now: 1
the middle process ended with 3 (3: the flag was not inherited)
its zombie is mine to reap: 1, status 9
the orphan's parent is now me: 1
wait reaps the orphan: 1, status 5
no child left: -1 (ECHILD)
SIGCHLD received: 1
`

// forkProgram runs test/programs/fork's program name, static and
// dynamically linked, in every mode (runInModes), against want.
func forkProgram(t *testing.T, name, want string) {
	rvsim := rvsimBinary(t)
	forkBuilds(t, name, func(t *testing.T, prog string) {
		runInModes(t, rvsim, prog, want)
	})
}

// forkBuilds runs fn on the static and the dynamically linked build of
// test/programs/fork's program name.
func forkBuilds(t *testing.T, name string, fn func(t *testing.T, prog string)) {
	for _, variant := range []string{"fork", "fork-dyn"} {
		t.Run(variant, func(t *testing.T) {
			prog := filepath.Join(testprogs, variant, name)
			needFile(t, prog, "make testprogs")
			fn(t, prog)
		})
	}
}

// runInModes runs prog and checks its output against want, with no
// warning: the same instruction count twice, interpreted and in timing
// mode, and no divergence under --difftest.
func runInModes(t *testing.T, rvsim, prog, want string) {
	r, n := runCounted(t, rvsim, prog)
	require.Equal(t, 0, r.Status, r.Stderr)
	assert.Equal(t, want, r.Stdout)
	assert.Empty(t, r.Stderr)
	for _, flags := range [][]string{nil, {"--jit", "off"}, {"--mode", "timing"}} {
		rf, nf := runCounted(t, rvsim, append(flags, prog)...)
		assert.Equal(t, 0, rf.Status, "%v: %s", flags, rf.Stderr)
		assert.Equal(t, want, rf.Stdout, "%v", flags)
		assert.Equal(t, n, nf, "instruction count with %v", flags)
	}
	t.Run("difftest", func(t *testing.T) {
		needOracleLib(t)
		d := runProcess(t, t.TempDir(), []string{}, rvsim, "run", "--difftest", prog)
		assert.Equal(t, 0, d.Status, d.Stderr)
		assert.Equal(t, want, d.Stdout)
		assert.Contains(t, d.Stderr, "no divergence")
	})
}

// TestEpoch: --epoch sets the deterministic clock's date at the first
// instruction (the time printed, and a file the guest touches, carry
// it), so that a build comparing file times (make) can start after its
// files' times rather than warn of clock skew; the run is as
// deterministic as without it.
func TestEpoch(t *testing.T) {
	rvsim := rvsimBinary(t)
	root, python := debianRoot(t, "usr/bin/python3")
	dir := runDir(t, root)
	guestDir := "/tmp/" + filepath.Base(dir)
	prog := `
import os, time
print(time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(int(time.time()))))
p = os.path.join(os.environ["OUT"], "touched")
open(p, "w").close(); os.utime(p)
print(time.strftime("%Y-%m-%d", time.gmtime(os.stat(p).st_mtime)))
`
	for _, c := range []struct{ flag, want string }{
		{"2030-06-01", "2030-06-01T00:00:00\n2030-06-01\n"},
		{"2030-06-01T08:30:00Z", "2030-06-01T08:30:00\n2030-06-01\n"},
		{"@1900000000", "2030-03-17T17:46:40\n2030-03-17\n"},
	} {
		r := runProcess(t, dir, []string{"OUT=" + guestDir}, rvsim, "run", "--root", root, "--epoch", c.flag, python, "-S", "-c", prog)
		require.Equal(t, 0, r.Status, r.Stderr)
		assert.Equal(t, c.want, r.Stdout, c.flag)
	}
	r := runProcess(t, dir, []string{"OUT=" + guestDir}, rvsim, "run", "--root", root, python, "-S", "-c", prog)
	require.Equal(t, 0, r.Status, r.Stderr)
	assert.Equal(t, "2024-01-01T00:00:00\n2024-01-01\n", r.Stdout, "the default")
}

// TestPythonManagers runs Debian's python3's multiprocessing managers, a
// server process its clients reach over a named AF_UNIX socket, under the
// fork and the forkserver start methods (the forkserver is the main
// process's child, the manager its child: before, the manager's timed
// waits kept the forkserver's turn going and the main process never got
// the manager's address), and a TCP server in a child. Before the run's
// one network namespace the first connect to a manager was refused.
func TestPythonManagers(t *testing.T) {
	rvsim := rvsimBinary(t)
	root, python := debianRoot(t, "usr/bin/python3")
	dir := runDir(t, root)
	guestDir := "/tmp/" + filepath.Base(dir) // the run's writable directory, as the guest names it
	r := runProcess(t, dir, []string{"PYTHONDONTWRITEBYTECODE=1", "TMPDIR=" + guestDir}, rvsim, "run", "--root", root, python, "-S", "-c", `
import multiprocessing as mp, os, socket
if __name__ == "__main__":
    for method in ("fork", "forkserver"):
        with mp.get_context(method).Manager() as m:
            q, d = m.Queue(), m.dict()
            q.put(41); d["k"] = "v"
            print(method, "manager", q.get() + 1, dict(d))
    s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen()
    pid = os.fork()
    if pid == 0:
        c, _ = s.accept(); c.sendall(c.recv(16).upper()); os._exit(0)
    c = socket.create_connection(s.getsockname()); c.sendall(b"hello")
    print("tcp to a child", c.recv(16)); os.waitpid(pid, 0)
`)
	require.Equal(t, 0, r.Status, r.Stderr)
	assert.Empty(t, r.Stderr)
	assert.Equal(t, `fork manager 42 {'k': 'v'}
forkserver manager 42 {'k': 'v'}
tcp to a child b'HELLO'
`, r.Stdout)
}

// TestPythonMultiprocessing runs Debian's python3's multiprocessing: a
// Pool, a Value and an Array with their process-shared locks (named
// semaphores and arenas in /dev/shm), an anonymous shared mmap written by
// a forked child, sys.executable run again (argv[0] is the program's
// path in the root), multiprocessing.shared_memory (whose resource
// tracker is sys.executable) opened again by a child, a file in
// /dev/shm, and ".." from inside it. The run's private /dev/shm is
// an empty host directory under $TMPDIR that the run removes; the root's
// own /dev/shm stays empty.
func TestPythonMultiprocessing(t *testing.T) {
	rvsim := rvsimBinary(t)
	root, python := debianRoot(t, "usr/bin/python3")
	dir := runDir(t, root)
	tmp := t.TempDir()
	r := runProcess(t, dir, []string{"PYTHONDONTWRITEBYTECODE=1", "TMPDIR=" + tmp}, rvsim, "run", "--root", root, python, "-S", "-c", `
import multiprocessing as mp, mmap, os
def work(v, a, i):
    with v.get_lock():
        v.value += i
    a[i] = i * i
if __name__ == "__main__":
    print("dev/shm at start", os.listdir("/dev/shm"))
    v, a = mp.Value("i", 0), mp.Array("i", 4)
    ps = [mp.Process(target=work, args=(v, a, i)) for i in range(4)]
    for p in ps: p.start()
    for p in ps: p.join()
    print("value", v.value, "array", list(a), "exit codes", [p.exitcode for p in ps])
    with mp.Pool(2) as pool:
        print("pool", pool.map(abs, [-1, -2, 3]))
    m = mmap.mmap(-1, 4096)
    pid = os.fork()
    if pid == 0:
        m[0:5] = b"child"
        os._exit(0)
    os.waitpid(pid, 0)
    print("shared mmap", m[0:5])
    import subprocess, sys
    from multiprocessing import shared_memory
    r = subprocess.run([sys.executable, "-S", "-c", "print(7)"], capture_output=True, text=True)
    print("sys.executable runs", r.stdout.strip(), r.returncode)
    s = shared_memory.SharedMemory(create=True, size=16, name="demo")
    pid = os.fork()
    if pid == 0:
        c = shared_memory.SharedMemory(name="demo")
        c.buf[:2] = b"hi"
        c.close()
        os._exit(0)
    os.waitpid(pid, 0)
    print("shared_memory", bytes(s.buf[:2]))
    s.close(); s.unlink()
    with open("/dev/shm/note", "w") as f: f.write("x")
    print("dev/shm", sorted(os.listdir("/dev/shm")))
    os.chdir("/dev/shm"); os.chdir("..")
    print("up from it", os.getcwd(), "null" in os.listdir("."))
`)
	require.Equal(t, 0, r.Status, r.Stderr)
	assert.Empty(t, r.Stderr)
	assert.Equal(t, `dev/shm at start []
value 6 array [0, 1, 4, 9] exit codes [0, 0, 0, 0]
pool [1, 2, 3]
shared mmap b'child'
sys.executable runs 7 0
shared_memory b'hi'
dev/shm ['note']
up from it /dev True
`, r.Stdout)
	left, err := os.ReadDir(tmp)
	require.NoError(t, err)
	assert.Empty(t, left, "the private /dev/shm is removed")
	shm, err := os.ReadDir(filepath.Join(root, "dev", "shm"))
	require.NoError(t, err)
	assert.Empty(t, shm, "the root's /dev/shm is not written")
}

// TestPythonSubprocess runs Debian's python3 starting processes:
// subprocess.run capturing a child python's output and feeding its
// input, a coprocess that answers line by line, os.fork and os.waitpid,
// and the root's /bin/sh (dash) through os.system, popen and a
// shell=True pipeline; FileNotFoundError for a program that is not there
// (Python 3.13 starts it with posix_spawn, which reports the failed exec
// through the memory its vfork child shares), and a timeout that kills a
// child that loops (it hung: the child kept the turn).
func TestPythonSubprocess(t *testing.T) {
	rvsim := rvsimBinary(t)
	root, python := debianRoot(t, "usr/bin/python3")
	dir := runDir(t, root)
	r := runProcess(t, dir, []string{"PYTHONDONTWRITEBYTECODE=1"}, rvsim, "run", "--root", root, python, "-S", "-c", `
import os, subprocess
r = subprocess.run(["/usr/bin/python3", "-S", "-c", "print(6*7)"], capture_output=True, text=True)
print("captured", r.stdout.strip(), r.returncode)
r = subprocess.run(["/usr/bin/python3", "-S", "-c", "import sys; print(sys.stdin.read().upper())"], input="feed me", capture_output=True, text=True)
print("fed", r.stdout.strip(), r.returncode)
p = subprocess.Popen(["/usr/bin/python3", "-S", "-c", "import sys\nfor l in sys.stdin: print(len(l), flush=True)"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
for w in ["a", "bb"]:
    p.stdin.write(w + "\n"); p.stdin.flush()
    print("answer", p.stdout.readline().strip())
p.stdin.close()
print("coprocess", p.wait())
p = os.fork()
if p == 0:
    os._exit(5)
print("fork", os.waitpid(p, 0)[1] >> 8)
print("system", os.system("exit 3") >> 8)
print("popen", os.popen("echo a b | (read x y; echo $y $x)").read().strip())
print("shell", subprocess.run("for i in 1 2 3; do echo $i; done | { n=0; while read i; do n=$((n+i)); done; echo $n; }", shell=True, capture_output=True, text=True).stdout.strip())
try:
    subprocess.run(["/no/such/program"])
except FileNotFoundError as e:
    print("missing", e.errno, e.filename)
try:
    subprocess.run(["/usr/bin/python3", "-c", "while True: pass"], timeout=0.05)
except subprocess.TimeoutExpired as e:
    print("timed out", e.timeout)
`)
	require.Equal(t, 0, r.Status, r.Stderr)
	assert.Empty(t, r.Stderr)
	assert.Equal(t, "captured 42 0\nfed FEED ME 0\nanswer 2\nanswer 3\ncoprocess 0\nfork 5\nsystem 3\npopen b a\nshell 6\nmissing 2 /no/such/program\ntimed out 0.05\n", r.Stdout)
}

// TestSchedAttr runs test/programs/fork/schedattr.c (sched_setattr and
// sched_getattr: the struct's sizes and E2BIG, the argument checks, nice,
// real-time priority and a fair task's own slice, KEEP_POLICY and
// KEEP_PARAMS, reset-on-fork in a child, SCHED_DEADLINE's checks, fork
// and thread, no utilization clamps, and the unprivileged rules after
// setuid, another user's process among them; setpriority and
// getpriority on a child and, unprivileged, on the parent), static and dynamically linked, in every mode; its output is
// the host's (Linux 6.18, x86-64, as root; the base slice, which depends
// on the CPUs, is printed as "base"). Before, both calls answered ENOSYS
// with a warning (chrt -p, uclampset).
func TestSchedAttr(t *testing.T) {
	forkProgram(t, "schedattr", schedAttrWant)
}

const schedAttrWant = `base slice between 0.7 and 2.8 ms: 1
initial: size 56 policy 0 flags 0 nice 0 prio 0 rt base dl 0 period 0 util 0 0; getscheduler 0, getpriority 0
getattr NULL: -1 (EINVAL)
getattr pid -1: -1 (EINVAL)
getattr size 47: -1 (EINVAL)
getattr size 4097: -1 (EINVAL)
getattr flags 1: -1 (EINVAL)
getattr pid 99999: -1 (ESRCH)
getattr size 48: 0
  size 48, util_min untouched 1
getattr size 64: 0
  size 56, extra untouched 0
setattr size 0 (VER0), nice 3: 0
  after: size 56 policy 0 flags 0 nice 3 prio 0 rt base dl 0 period 0 util 0 0; getscheduler 0, getpriority 3
setattr size 47: -1 (E2BIG)
  size written back: 56
setattr size 64, non-zero tail: -1 (E2BIG)
  size written back: 56
setattr size 64, zero tail, nice 4: 0
setattr NULL: -1 (EINVAL)
setattr flags arg 1: -1 (EINVAL)
setattr pid -1: -1 (EINVAL)
setattr pid 99999: -1 (ESRCH)
setattr policy 7: -1 (EINVAL)
setattr policy -1: -1 (EINVAL)
setattr sched_flags 0x80: -1 (EINVAL)
setattr OTHER prio 5: -1 (EINVAL)
setattr FIFO prio 0: -1 (EINVAL)
setattr FIFO prio 100: -1 (EINVAL)
setattr nice -40 (clamped): 0
  after: size 56 policy 0 flags 0 nice -20 prio 0 rt base dl 0 period 0 util 0 0; getscheduler 0, getpriority -20
setattr BATCH nice 19: 0
  after: size 56 policy 3 flags 0 nice 19 prio 0 rt base dl 0 period 0 util 0 0; getscheduler 0x3, getpriority 19
setattr OTHER runtime 5 ms: 0
  after: size 56 policy 0 flags 0 nice 0 prio 0 rt 5000000 dl 0 period 0 util 0 0; getscheduler 0, getpriority 0
  child: size 56 policy 0 flags 0 nice 0 prio 0 rt 5000000 dl 0 period 0 util 0 0; getscheduler 0, getpriority 0
setattr runtime 50 ns: 0
  after: size 56 policy 0 flags 0 nice 0 prio 0 rt 100000 dl 0 period 0 util 0 0; getscheduler 0, getpriority 0
setattr runtime 500 ms: 0
  after: size 56 policy 0 flags 0 nice 0 prio 0 rt 100000000 dl 0 period 0 util 0 0; getscheduler 0, getpriority 0
sched_setscheduler BATCH: 0
  after: size 56 policy 3 flags 0 nice 0 prio 0 rt 100000000 dl 0 period 0 util 0 0; getscheduler 0x3, getpriority 0
setattr OTHER with KEEP_PARAMS: 0
  after: size 56 policy 3 flags 0 nice 0 prio 0 rt 100000000 dl 0 period 0 util 0 0; getscheduler 0x3, getpriority 0
setattr FIFO with KEEP_PARAMS: -1 (EINVAL)
setattr OTHER runtime 0: 0
  after: size 56 policy 0 flags 0 nice 0 prio 0 rt base dl 0 period 0 util 0 0; getscheduler 0, getpriority 0
setattr UTIL_CLAMP_MIN, size 48: -1 (EINVAL)
setattr UTIL_CLAMP_MIN, size 56: -1 (EOPNOTSUPP)
setattr FIFO 10: 0
  after: size 56 policy 1 flags 0 nice 0 prio 10 rt 0 dl 0 period 0 util 0 0; getscheduler 0x1, getpriority 0
setattr KEEP_POLICY, prio 20: 0
  after: size 56 policy 1 flags 0 nice 0 prio 20 rt 0 dl 0 period 0 util 0 0; getscheduler 0x1, getpriority 0
setattr RESET_ON_FORK | KEEP_POLICY | KEEP_PARAMS: 0
  after: size 56 policy 1 flags 0 nice 0 prio 20 rt 0 dl 0 period 0 util 0 0; getscheduler 0x1, getpriority 0
sched_setparam 30: 0
  after: size 56 policy 1 flags 0 nice 0 prio 30 rt 0 dl 0 period 0 util 0 0; getscheduler 0x1, getpriority 0
setattr RESET_ON_FORK | KEEP_PARAMS: 0
setattr OTHER, RESET_ON_FORK | KEEP_PARAMS: -1 (EINVAL)
  after: size 56 policy 1 flags 0 nice 0 prio 30 rt 0 dl 0 period 0 util 0 0; getscheduler 0x1, getpriority 0
sched_setscheduler FIFO|RESET_ON_FORK 30: 0
  after: size 56 policy 1 flags 0x1 nice 0 prio 30 rt 0 dl 0 period 0 util 0 0; getscheduler 0x40000001, getpriority 0
  child of the reset-on-fork task: size 56 policy 0 flags 0 nice 0 prio 0 rt base dl 0 period 0 util 0 0; getscheduler 0, getpriority 0
setattr OTHER nice -5, RESET_ON_FORK: 0
  after: size 56 policy 0 flags 0x1 nice -5 prio 0 rt base dl 0 period 0 util 0 0; getscheduler 0x40000000, getpriority -5
  child (nice back to 0): size 56 policy 0 flags 0 nice 0 prio 0 rt base dl 0 period 0 util 0 0; getscheduler 0, getpriority 0
setattr OTHER nice 0, no reset: 0
deadline runtime 512: -1 (EINVAL)
deadline runtime > deadline: -1 (EINVAL)
deadline period < deadline: -1 (EINVAL)
deadline period 0, deadline 50us: -1 (EINVAL)
deadline deadline 0: -1 (EINVAL)
deadline period 5s: -1 (EINVAL)
deadline prio 1: -1 (EINVAL)
sched_setscheduler DEADLINE: -1 (EINVAL)
deadline 10ms/30ms/100ms: 0
  after: size 56 policy 6 flags 0 nice 0 prio 0 rt 10000000 dl 30000000 period 100000000 util 0 0; getscheduler 0x6, getpriority 0
  sched_getparam: 0
  priority 0
  fork: -1 (EAGAIN)
  pthread_create: -1 (EAGAIN)
deadline with RESET_ON_FORK: 0
  child of the deadline task: size 56 policy 0 flags 0 nice 0 prio 0 rt base dl 0 period 0 util 0 0; getscheduler 0, getpriority 0
  pthread_create: 0
  in the deadline task's thread: size 56 policy 0 flags 0 nice 0 prio 0 rt base dl 0 period 0 util 0 0; getscheduler 0, getpriority 0
back to OTHER: 0
  after: size 56 policy 0 flags 0 nice 0 prio 0 rt base dl 0 period 0 util 0 0; getscheduler 0, getpriority 0
setpriority of the child, 7: 0
  getpriority of the child: 7
setpriority of the child, 3 (lower: privileged): 0
  the child reads its nice value: 3
setpriority of a reaped child: -1 (ESRCH)
unprivileged getpriority of the parent: 0
unprivileged setpriority of the parent, 1: -1 (EPERM)
unprivileged nice 5: 0
unprivileged nice 2: -1 (EPERM)
unprivileged FIFO 1: -1 (EPERM)
unprivileged setscheduler FIFO: -1 (EPERM)
unprivileged setpriority 1: -1 (EACCES)
unprivileged IDLE: 0
unprivileged IDLE -> OTHER: -1 (EPERM)
unprivileged deadline: -1 (EPERM)
unprivileged IDLE with RESET_ON_FORK: 0
unprivileged reset flag cleared: -1 (EPERM)
  after: size 56 policy 5 flags 0x1 nice 5 prio 0 rt base dl 0 period 0 util 0 0; getscheduler 0x40000005, getpriority 5
unprivileged, another user's process (the parent's): -1 (EPERM)
unprivileged setscheduler, the parent's: -1 (EPERM)
`

// TestCapabilities runs test/programs/fork/caps.c (capget and capset,
// the bounding and ambient sets through prctl, the sets across setuid
// with and without PR_SET_KEEPCAPS, seteuid, setfsuid and execve, the
// securebits (locks, NO_SETUID_FIXUP, NO_CAP_AMBIENT_RAISE, NOROOT),
// and privilege that follows the capabilities, not the uid), static and
// dynamically linked, in every mode; its output is the host's (Linux
// 6.18, x86-64, as root). The program first narrows every set to
// capabilities a root host holds (its KEEP), so the output does not
// depend on the host's bounding set; without them, as a user or in a
// narrower container, there is nothing to compare and the test says so.
// Before, capset answered ENOSYS, capget the host's sets whatever the
// guest's ids, and /proc/self/status none.
func TestCapabilities(t *testing.T) {
	const keep = 0x1ff | 1<<10 | 1<<18 | 1<<21 | 1<<22 | 1<<23 | 1<<25 // caps.c's KEEP
	if prm := hostCapPrm(t); os.Geteuid() != 0 || prm&keep != keep {
		t.Skipf("needs root with capabilities %#x (rvsim's guest starts with rvsim's own: %#x)", keep, prm)
	}
	forkProgram(t, "caps", capsWant)
}

// hostCapPrm is the test process's permitted capability set.
func hostCapPrm(t *testing.T) uint64 {
	b, err := os.ReadFile("/proc/self/status")
	require.NoError(t, err)
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "CapPrm:"); ok {
			x, err := strconv.ParseUint(strings.TrimSpace(v), 16, 64)
			require.NoError(t, err)
			return x
		}
	}
	return 0
}

const capsWant = `capset to KEEP: 0
start: CapInh 0000000000000000 CapPrm 0000000002e405ff CapEff 0000000002e405ff CapBnd 0000000002e405ff CapAmb 0000000000000000
capget: 0
  eff 0x2e405ff prm 0x2e405ff inh 0
capget bad version, no data: 0
  version written back 0x20080522
capget bad version: -1 (EINVAL)
capget pid -1, no data: 0
capget pid -1: -1 (EINVAL)
capget pid 99999: -1 (ESRCH)
capset on the parent: -1 (EPERM)
capset bad version: -1 (EINVAL)
capget v1: eff 0x2e405ff prm 0x2e405ff
PR_CAPBSET_READ 40: 0
PR_CAPBSET_READ 41: -1 (EINVAL)
PR_CAP_AMBIENT IS_SET 41: -1 (EINVAL)
PR_CAP_AMBIENT 9: -1 (EINVAL)
PR_CAP_AMBIENT CLEAR_ALL with an argument: -1 (EINVAL)
ambient raise sys_time (not inheritable): -1 (EPERM)
PR_SET_KEEPCAPS 1 in the parent: 0
  child's PR_GET_KEEPCAPS: 1
PR_SET_KEEPCAPS 0: 0
setuid(1000): 0
  after: CapInh 0000000000000000 CapPrm 0000000000000000 CapEff 0000000000000000 CapBnd 0000000002e405ff CapAmb 0000000000000000
  as uid 1000 without capabilities:
  sethostname (to its own name): -1 (EPERM)
  setpriority -5: -1 (EACCES)
  setuid(0): -1 (EPERM)
PR_SET_KEEPCAPS 1: 0
PR_GET_KEEPCAPS: 1
setresuid(1000, 1000, 1000): 0
  after: CapInh 0000000000000000 CapPrm 0000000002e405ff CapEff 0000000000000000 CapBnd 0000000002e405ff CapAmb 0000000000000000
capset eff = sys_admin|sys_nice: 0
  as uid 1000 with them:
  sethostname (to its own name): 0
  setpriority -5: 0
  setuid(0): -1 (EPERM)
capset eff = all permitted + 1: -1 (EPERM)
capset prm = sys_nice only: 0
  after: CapInh 0000000000000000 CapPrm 0000000000800000 CapEff 0000000000800000 CapBnd 0000000002e405ff CapAmb 0000000000000000
capset prm = sys_nice|sys_admin again: -1 (EPERM)
capset inh = sys_time (not permitted, no setpcap): -1 (EPERM)
capset inh = sys_nice: 0
ambient raise sys_nice: 0
  before exec: CapInh 0000000000800000 CapPrm 0000000000800000 CapEff 0000000000000000 CapBnd 0000000002e405ff CapAmb 0000000000800000
exec as uid 1000 with an ambient capability: CapInh 0000000000800000 CapPrm 0000000000800000 CapEff 0000000000800000 CapBnd 0000000002e405ff CapAmb 0000000000800000
seteuid(1000): 0
  after: CapInh 0000000000000000 CapPrm 0000000002e405ff CapEff 0000000000000000 CapBnd 0000000002e405ff CapAmb 0000000000000000
seteuid(0): 0
  after: CapInh 0000000000000000 CapPrm 0000000002e405ff CapEff 0000000002e405ff CapBnd 0000000002e405ff CapAmb 0000000000000000
setfsuid(1000): 0
  after: CapInh 0000000000000000 CapPrm 0000000002e405ff CapEff 0000000002e405e0 CapBnd 0000000002e405ff CapAmb 0000000000000000
setfsuid(0): 1000
  after: CapInh 0000000000000000 CapPrm 0000000002e405ff CapEff 0000000002e405ff CapBnd 0000000002e405ff CapAmb 0000000000000000
capset all empty: 0
  after: CapInh 0000000000000000 CapPrm 0000000000000000 CapEff 0000000000000000 CapBnd 0000000002e405ff CapAmb 0000000000000000
  as root without capabilities:
  sethostname (to its own name): -1 (EPERM)
  setpriority -5: -1 (EACCES)
  setuid(0): 0
exec as root after capset: CapInh 0000000000000000 CapPrm 0000000002e405ff CapEff 0000000002e405ff CapBnd 0000000002e405ff CapAmb 0000000000000000
PR_CAPBSET_DROP sys_boot: 0
capset inh = sys_time: 0
ambient raise sys_time: 0
capset prm without sys_time: 0
  ambient sys_time now: 0
  before exec: CapInh 0000000002000000 CapPrm 0000000000e405ff CapEff 0000000000e405ff CapBnd 0000000002a405ff CapAmb 0000000000000000
exec as root: CapInh 0000000002000000 CapPrm 0000000002a405ff CapEff 0000000002a405ff CapBnd 0000000002a405ff CapAmb 0000000000000000
PR_GET_SECUREBITS: 0
PR_SET_SECUREBITS 1<<12 (unknown): -1 (EPERM)
PR_SET_SECUREBITS NO_SETUID_FIXUP|KEEP_CAPS_LOCKED|NO_CAP_AMBIENT_RAISE: 0
PR_GET_SECUREBITS: 100
PR_SET_KEEPCAPS 1 (locked): -1 (EPERM)
PR_SET_SECUREBITS 0 (an unlock): -1 (EPERM)
capset inh = sys_time: 0
ambient raise sys_time (NO_CAP_AMBIENT_RAISE): -1 (EPERM)
setresuid(1000, 1000, 1000) without the fixup: 0
  after: CapInh 0000000002000000 CapPrm 0000000002e405ff CapEff 0000000002e405ff CapBnd 0000000002e405ff CapAmb 0000000000000000
  as uid 1000, capabilities untouched:
  sethostname (to its own name): 0
  setpriority -5: 0
  setuid(0): 0
PR_SET_SECUREBITS NOROOT: 0
exec as root with NOROOT: CapInh 0000000000000000 CapPrm 0000000000000000 CapEff 0000000000000000 CapBnd 0000000002e405ff CapAmb 0000000000000000
`

// TestKillPermission runs test/programs/fork/killperm.c (who may signal
// whom, check_kill_permission: a child that gave up root against its
// root parent, by kill and pidfd_send_signal, signal 0 included, and
// SIGCONT within the session; a sibling of the same uid; a process group
// and kill(-1); root without CAP_KILL), static and dynamically linked, in
// every mode; its output is the host's (Linux 6.18, x86-64, as root).
// Before, any process of the run could signal any other.
func TestKillPermission(t *testing.T) {
	forkProgram(t, "killperm", killPermWant)
}

const killPermWant = `setresuid(1000, 1000, 1000): 0
kill(parent, 0): -1 (EPERM)
kill(parent, SIGUSR1): -1 (EPERM)
kill(parent, SIGCONT) (same session): 0
pidfd_send_signal(parent, 0): -1 (EPERM)
kill(sibling, SIGUSR1): 0
kill(-1, 0) (refusals ignored): 0
kill(0, 0) (its group, itself in it): 0
setpgid(0, 0): 0
kill(-parent's group, 0): 0
parent got SIGUSR1: 0
capset without CAP_KILL: 0
root without CAP_KILL: kill(sibling of uid 1000, 0): -1 (EPERM)
root without CAP_KILL: kill(sibling, SIGCONT) (same session): 0
root without CAP_KILL: kill(parent, 0): 0
sibling got SIGUSR1: 1
`

// TestChroot runs test/programs/fork/chroot.c (a child changes its root to
// a directory below its working directory: absolute paths, ".." and
// absolute symbolic links stop at the new root, the working directory
// left outside still reaches the old tree and getcwd calls it
// unreachable, the root's ".." entry is its real parent, a grandchild
// inherits the root, a nested chroot, and ENOTDIR, ENOENT and EPERM)
// static and dynamically linked, in every mode: the host's output as root
// (CAP_SYS_CHROOT). Before, chroot answered ENOSYS.
func TestChroot(t *testing.T) {
	if prm := hostCapPrm(t); os.Geteuid() != 0 || prm&(1<<18) == 0 {
		t.Skipf("needs root with CAP_SYS_CHROOT (rvsim's guest starts with rvsim's own capabilities: %#x)", prm)
	}
	forkProgram(t, "chroot", chrootWant)
}

const chrootWant = `chroot to a file: -1 (ENOTDIR)
chroot to nothing: -1 (ENOENT)
chroot("jail"): 0
  /proc/self/root: /
  /proc/self/mounts: empty
  /proc/self/mountinfo: empty
  the parent's root is another directory (ischroot): yes
the parent reads the child's root: a path ending in /jail, the jail: yes
  getcwd, the working directory left outside: -1 (ENOENT)
  outside.txt from the old working directory: outside
  /inside.txt: inside
  /outside.txt: -1 (ENOENT)
  /../../inside.txt: inside
  /abs (-> /inside.txt): inside
  /climb (-> ../../../outside.txt): -1 (ENOENT)
  chdir("/"): 0
  getcwd: /
  ../inside.txt: inside
  sub/../../../inside.txt: inside
  the root's ".." entry is its real parent: yes
  a grandchild reads /inside.txt: inside
  a grandchild's getcwd: /
  chroot("sub") again: 0
  getcwd: -1 (ENOENT)
  /deeper.txt: deeper
  /inside.txt: -1 (ENOENT)
  inside.txt from the old working directory: inside
  chdir(".."), then chdir("/"): 0, 0
  getcwd: /
  chroot as nobody: -1 (EPERM)
the child ended with 0
the parent's getcwd: a path ending in /chroot-test
the parent reads jail/inside.txt: inside
cleaned up: 0
`

// TestSetns runs test/programs/fork/setns.c (setns on a pidfd: joining a
// child's mount namespace shows its propagation and moves the root and
// working directory to the namespace's root, out of a chroot; a cgroup
// namespace; EINVAL for a pipe, no flags, an unknown flag and a thread
// sharing the root, EBADF, EPERM for nobody, ESRCH for a reaped child)
// static and dynamically linked, in every mode: the host's output as root.
// Before, setns answered ENOSYS.
func TestSetns(t *testing.T) {
	const need = 1<<18 | 1<<21 // CAP_SYS_CHROOT, CAP_SYS_ADMIN
	if prm := hostCapPrm(t); os.Geteuid() != 0 || prm&need != need {
		t.Skipf("needs root with CAP_SYS_CHROOT and CAP_SYS_ADMIN (rvsim's guest starts with rvsim's own capabilities: %#x)", prm)
	}
	forkProgram(t, "setns", setnsWant)
}

const setnsWant = `unshare(CLONE_NEWNS): 0
make / private: 0, now private
setns on a pipe: -1 (EINVAL)
setns on a closed descriptor: -1 (EBADF)
setns with no flags: -1 (EINVAL)
setns with an unknown flag: -1 (EINVAL)
a thread shares the root: -1 (EINVAL)
as nobody: -1 (EPERM)
in a chroot, getcwd: /
setns(pidfd, CLONE_NEWCGROUP): 0
setns(pidfd, CLONE_NEWNS): 0
  the child's propagation: shared
  getcwd: /
  out of the chroot: yes
the parent's own, still: private
setns on a reaped child: -1 (ESRCH)
`
