package rootfs_test

import (
	"bytes"
	"compress/bzip2"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/rootfs"
	"github.com/rvsim/rvsim/sim"
	"github.com/rvsim/rvsim/syscalls"
)

// missing skips the test, or fails it under RVSIM_REQUIRE_ARTIFACTS=1
// (make test), where make setup has installed or built what it needs.
func missing(t *testing.T, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if os.Getenv("RVSIM_REQUIRE_ARTIFACTS") == "1" {
		t.Fatal(msg + " (RVSIM_REQUIRE_ARTIFACTS=1)")
	}
	t.Skip(msg)
}

func needTools(t *testing.T, tools ...string) {
	t.Helper()
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			missing(t, "%s is not installed (run 'make setup')", tool)
		}
	}
}

// run runs a program of a root under rvsim and under qemu-riscv64 -L,
// with the same arguments, standard input and an empty environment, and
// returns both outputs.
func runBoth(t *testing.T, root, prog string, stdin []byte, args ...string) (rv, qemu []byte) {
	t.Helper()
	host, err := rootfs.HostPath(root, prog)
	require.NoError(t, err)
	var stdout, stderr bytes.Buffer
	mc, err := sim.Load(sim.Config{
		Program: host, Args: args, Env: []string{},
		Kernel: syscalls.Config{Root: root, Stdin: bytes.NewReader(stdin), Stdout: &stdout, Stderr: &stderr, Warn: io.Discard},
	})
	require.NoError(t, err)
	res := mc.Run()
	require.Equal(t, sim.StopExit, res.Stop, "%s: %s", prog, res.Message)
	require.Equal(t, 0, res.ExitCode, "%s: stderr %s", prog, stderr.String())
	cmd := exec.Command("qemu-riscv64", append([]string{"-L", root, host}, args...)...)
	cmd.Env = []string{}
	cmd.Stdin = bytes.NewReader(stdin)
	q, err := cmd.Output()
	require.NoError(t, err, "qemu-riscv64 %s", prog)
	return stdout.Bytes(), q
}

// rvsim rootfs create on a tiny package set: bzip2, whose dependencies
// (libbz2-1.0, libc6, libgcc-s1, gcc-14-base) apt must resolve. The root
// then runs its bzip2 under rvsim as under qemu, and Go's own bzip2
// reader (an independent implementation) decompresses what it wrote.
// Asked again, Create reuses the root; asked for more, it rebuilds it.
// Needs the network to Debian's mirror (a few MB, seconds).
func TestCreateTinyRoot(t *testing.T) {
	t.Parallel() // each waits on the network
	needTools(t, "mmdebstrap", "qemu-riscv64")
	dir := filepath.Join(t.TempDir(), "root")
	res, err := rootfs.Create(dir, rootfs.Options{Packages: []string{"bzip2"}})
	require.NoError(t, err)
	require.False(t, res.Reused)
	t.Logf("created a bzip2 root in %v: %d packages, %.1f MB", res.Elapsed.Round(time.Millisecond), res.Packages, float64(res.Bytes)/1e6)
	assert.Equal(t, []string{"bzip2"}, res.Stamp.Packages)
	assert.Equal(t, "riscv64", res.Stamp.Arch)
	for _, f := range []string{
		"usr/bin/bzip2",
		"usr/lib/riscv64-linux-gnu/libbz2.so.1.0", // a dependency
		"usr/lib/riscv64-linux-gnu/libc.so.6",     // a dependency's dependency
		rootfs.StampFile,
	} {
		assert.FileExists(t, filepath.Join(dir, f))
	}
	for _, l := range []string{"bin", "sbin", "lib"} {
		target, err := os.Readlink(filepath.Join(dir, l))
		require.NoError(t, err, "the merged-/usr link /%s", l)
		assert.Equal(t, "usr/"+l, target)
	}
	require.NoError(t, rootfs.Check(dir))
	_, err = os.Stat(filepath.Join(filepath.Dir(dir), ".root.partial"))
	assert.True(t, os.IsNotExist(err), "the build directory is renamed into place")

	text := []byte(strings.Repeat("rvsim runs Debian's riscv64 bzip2. ", 500))
	rv, q := runBoth(t, dir, "/usr/bin/bzip2", text, "-c", "-9")
	require.Equal(t, q, rv, "rvsim and qemu-riscv64 compress alike")
	plain, err := io.ReadAll(bzip2.NewReader(bytes.NewReader(rv)))
	require.NoError(t, err)
	require.Equal(t, text, plain, "Go's bzip2 reader decompresses it")

	again, err := rootfs.Create(dir, rootfs.Options{Packages: []string{"bzip2"}})
	require.NoError(t, err)
	assert.True(t, again.Reused)

	more, err := rootfs.Create(dir, rootfs.Options{Packages: []string{"bzip2", "mawk", "zlib1g"}})
	require.NoError(t, err)
	assert.False(t, more.Reused)
	assert.FileExists(t, filepath.Join(dir, "usr/lib/riscv64-linux-gnu/libz.so.1"))
	s, err := rootfs.ReadStamp(dir)
	require.NoError(t, err)
	assert.Equal(t, []string{"bzip2", "mawk", "zlib1g"}, s.Packages)

	// mawk's postinst, which no one ran, would have made /usr/bin/awk
	// with update-alternatives: Create makes it.
	target, err := os.Readlink(filepath.Join(dir, "etc/alternatives/awk"))
	require.NoError(t, err)
	assert.Equal(t, "/usr/bin/mawk", target)
	db, err := os.ReadFile(filepath.Join(dir, "var/lib/dpkg/alternatives/awk"))
	require.NoError(t, err, "update-alternatives' entry")
	assert.Contains(t, string(db), "\n/usr/bin/mawk\n5\n")
	rv, q = runBoth(t, dir, "/usr/bin/awk", nil, "BEGIN { print 6 * 7 }")
	assert.Equal(t, "42\n", string(rv))
	assert.Equal(t, q, rv)
	assert.DirExists(t, filepath.Join(dir, "usr/lib/locale/C.utf8"), "libc-bin, in every root")
}

// A package Debian does not have is refused in one line naming it, and
// nothing is left behind.
func TestCreateUnknownPackage(t *testing.T) {
	t.Parallel() // each waits on the network
	needTools(t, "mmdebstrap")
	dir := filepath.Join(t.TempDir(), "root")
	_, err := rootfs.Create(dir, rootfs.Options{Packages: []string{"bzip2", "no-such-package-rvsim"}})
	require.Error(t, err)
	assert.Regexp(t, `^rootfs: no package "no-such-package-rvsim" in Debian trixie for riscv64 \(https?://\S+\)$`, err.Error())
	ents, _ := os.ReadDir(filepath.Dir(dir))
	assert.Empty(t, ents)
}

// Signatures are checked: with a keyring that cannot verify trixie's
// Release file (bullseye's release key alone), apt refuses the archive.
func TestCreateVerifiesSignatures(t *testing.T) {
	t.Parallel() // each waits on the network
	needTools(t, "mmdebstrap")
	keyring := "/usr/share/keyrings/debian-archive-bullseye-stable.gpg"
	if _, err := os.Stat(keyring); err != nil {
		t.Skipf("%s is not installed", keyring)
	}
	_, err := rootfs.Create(filepath.Join(t.TempDir(), "root"), rootfs.Options{Packages: []string{"bzip2"}, Keyring: keyring})
	require.Error(t, err)
	assert.Regexp(t, `^rootfs: cannot verify the signature of \S+ trixie InRelease with the keyring: refusing unsigned packages$`, err.Error())
}

// The default root (make setup) runs Debian's python3, sqlite3 and
// lua5.4 under rvsim as under qemu-riscv64 -L, with the results worked
// out by hand.
func TestDefaultRootRuns(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", "build", "rootfs"))
	require.NoError(t, err)
	if _, err := rootfs.ReadStamp(root); err != nil {
		missing(t, "%s holds no root (run 'make setup')", root)
	}
	needTools(t, "qemu-riscv64")
	for _, tc := range []struct {
		desc, prog string
		args       []string
		stdin      string
		want       string
	}{
		{desc: "python3", prog: "/usr/bin/python3", args: []string{"-c", `d = {"k%d" % i: i * i for i in range(10)}
print(1 + 1, sum(d.values()), d["k9"], "-".join(sorted(d)[:3]))`},
			want: "2 285 81 k0-k1-k2\n"},
		// asyncio: an epoll event loop woken through a socketpair, an
		// executor thread and a timer thread writing to a pipe the loop
		// watches.
		{desc: "python3 asyncio", prog: "/usr/bin/python3", args: []string{"-c", `import asyncio, selectors, threading, os
async def worker(n, q):
    await asyncio.sleep(0.01 * n)
    await q.put(n * n)
async def main():
    q = asyncio.Queue()
    await asyncio.gather(*(worker(i, q) for i in range(5)))
    print("squares", sorted(q.get_nowait() for _ in range(5)))
    loop = asyncio.get_running_loop()
    print("executor", await loop.run_in_executor(None, sum, range(1000)))
    rd, wr = os.pipe()
    fut = loop.create_future()
    loop.add_reader(rd, lambda: fut.set_result(os.read(rd, 10)))
    threading.Timer(0.05, lambda: os.write(wr, b"hello")).start()
    print("pipe", await fut)
print(type(selectors.DefaultSelector()).__name__)
asyncio.run(main())`},
			want: "EpollSelector\nsquares [0, 1, 4, 9, 16]\nexecutor 499500\npipe b'hello'\n"},
		// asyncio over the loopback: a TCP server and its client, a UDP
		// echo, in one process.
		{desc: "python3 asyncio loopback", prog: "/usr/bin/python3", args: []string{"-c", `import asyncio
async def handle(r, w):
    data = await r.readline()
    w.write(data.upper())
    await w.drain()
    w.close()
    await w.wait_closed()
async def main():
    srv = await asyncio.start_server(handle, "127.0.0.1", 0)
    port = srv.sockets[0].getsockname()[1]
    r, w = await asyncio.open_connection("127.0.0.1", port)
    w.write(b"hello asyncio\n")
    await w.drain()
    print(await r.read())
    w.close()
    await w.wait_closed()
    srv.close()
    await srv.wait_closed()
    loop = asyncio.get_running_loop()
    got = loop.create_future()
    class Echo(asyncio.DatagramProtocol):
        def connection_made(self, t): self.t = t
        def datagram_received(self, d, a): self.t.sendto(d[::-1], a)
    class Client(asyncio.DatagramProtocol):
        def datagram_received(self, d, a): got.set_result((d, a[0]))
    st, _ = await loop.create_datagram_endpoint(Echo, local_addr=("127.0.0.1", 0))
    ct, _ = await loop.create_datagram_endpoint(Client, remote_addr=st.get_extra_info("sockname"))
    ct.sendto(b"datagram")
    print(await got)
    ct.close(); st.close()
asyncio.run(main())`},
			want: "b'HELLO ASYNCIO\\n'\n(b'margatad', '127.0.0.1')\n"},
		// A socketpair end closed with data unread resets its peer: a
		// stream's read reports it after the data, a seqpacket's before.
		{desc: "python3 socket reset", prog: "/usr/bin/python3", args: []string{"-c", `import socket
for typ in (socket.SOCK_STREAM, socket.SOCK_SEQPACKET):
    a, b = socket.socketpair(socket.AF_UNIX, typ)
    b.send(b"xy"); a.send(b"data"); b.close()
    out = []
    for _ in range(3):
        try:
            out.append(a.recv(16))
        except OSError as e:
            out.append(type(e).__name__)
    print(out)`},
			want: "[b'xy', 'ConnectionResetError', b'']\n['ConnectionResetError', b'xy', b'']\n"},
		// The /etc files Create writes (etc.go): glibc resolves
		// localhost and names uid and gid 0.
		{desc: "python3 localhost and accounts", prog: "/usr/bin/python3", args: []string{"-c", `import socket, pwd, grp
print(socket.getaddrinfo("localhost", 7, socket.AF_INET, socket.SOCK_STREAM)[0][4])
print(pwd.getpwuid(0).pw_name, pwd.getpwnam("nobody").pw_uid, grp.getgrgid(0).gr_name)
s = socket.socket()
s.bind(("localhost", 0))
print(s.getsockname()[0])`},
			want: "('127.0.0.1', 7)\nroot 65534 root\n127.0.0.1\n"},
		{desc: "sqlite3", prog: "/usr/bin/sqlite3", args: []string{":memory:"},
			stdin: "create table t(a integer, b text);\ninsert into t values (1,'x'),(2,'y'),(3,'x');\ncreate index tb on t(b);\nselect b, sum(a), count(*) from t group by b order by b;\n",
			want:  "x|4|2\ny|2|1\n"},
		{desc: "lua5.4", prog: "/usr/bin/lua5.4", args: []string{"-e", `local t = {} for i = 1, 10 do t[#t+1] = i * i end print(table.concat(t, ","), 2^10, ("%5.2f"):format(math.pi))`},
			want: "1,4,9,16,25,36,49,64,81,100\t1024.0\t 3.14\n"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			rv, q := runBoth(t, root, tc.prog, []byte(tc.stdin), tc.args...)
			assert.Equal(t, tc.want, string(q), "qemu-riscv64")
			assert.Equal(t, tc.want, string(rv), "rvsim")
		})
	}
}
