package test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSysVIPCTools runs Debian's util-linux IPC tools and Perl's
// IPC::SysV modules under rvsim: ipcmk makes a semaphore set, a message
// queue and a shared memory segment, ipcs lists them (from
// /proc/sysvipc), describes them (semctl's and msgctl's IPC_STAT) and
// shows the limits and use (/proc/sys/kernel, IPC_INFO and the *_INFO
// commands), ipcrm removes them; then a Perl program's three children
// take a SEM_UNDO semaphore as a mutex to send a message each, which
// the parent receives once a counting semaphore says all have. The
// expected text is the host's (Linux 6.18, util-linux 2.41), but for
// the ids, which start at 0 in the run's own IPC namespace. The root
// (build/rootfs-ipc) is made once by `rvsim rootfs create` and reused.
func TestSysVIPCTools(t *testing.T) {
	rvsim := rvsimBinary(t)
	if _, err := exec.LookPath("mmdebstrap"); err != nil {
		missing(t, "mmdebstrap is missing: run 'make setup'")
	}
	root := filepath.Join(repoRoot, "build", "rootfs-ipc")
	out, err := exec.Command(rvsim, "rootfs", "create", root, "--packages", "util-linux,perl,dash,coreutils,grep").CombinedOutput()
	require.NoError(t, err, "rvsim rootfs create: %s", out)
	dir := runDir(t, root)
	guest := "/tmp/" + filepath.Base(dir)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "ipc.sh"), []byte(ipcToolsScript), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "ipc.pl"), []byte(ipcPerlScript), 0o644))

	r := runProcess(t, dir, []string{"LANG=C"}, rvsim, "run", "--root", root, filepath.Join(root, "bin/sh"), guest+"/ipc.sh")
	require.Equal(t, 0, r.Status, r.Stderr)
	assert.Equal(t, ipcToolsWant, r.Stdout)
	assert.Empty(t, r.Stderr)

	p := runProcess(t, dir, []string{"LANG=C"}, rvsim, "run", "--root", root, filepath.Join(root, "usr/bin/perl"), guest+"/ipc.pl")
	require.Equal(t, 0, p.Status, p.Stderr)
	assert.Equal(t, "child 1,child 2,child 3\nqnum 0 values 0 1\nok\n", p.Stdout)
	assert.Empty(t, p.Stderr)
}

const ipcToolsScript = `set -e
ipcmk -S 3 -p 0640
ipcmk -Q
ipcmk -M 5000 -p 0600
ipcs | cut -c12-
ipcs -s -i 0 | grep -v time
ipcs -q -i 0 | grep -v time
ipcs -l
ipcs -u
ipcrm -s 0 -q 0 -m 0
ipcs | cut -c12-
`

const ipcPerlScript = `use strict; use warnings;
use IPC::SysV qw(IPC_PRIVATE IPC_CREAT S_IRUSR S_IWUSR SEM_UNDO);
use IPC::Semaphore; use IPC::Msg;
my $sem = IPC::Semaphore->new(IPC_PRIVATE, 2, S_IRUSR|S_IWUSR|IPC_CREAT) or die "sem: $!";
$sem->setall(0, 1);
my $msg = IPC::Msg->new(IPC_PRIVATE, S_IRUSR|S_IWUSR) or die "msg: $!";
my @kids;
for my $i (1..3) {
  my $pid = fork // die;
  if (!$pid) {
    $sem->op(1, -1, SEM_UNDO);
    $msg->snd($i, "child $i") or die;
    $sem->op(1, 1, SEM_UNDO);
    $sem->op(0, 1, 0);
    exit 0;
  }
  push @kids, $pid;
}
$sem->op(0, -3, 0);
my %got;
for (1..3) { my $buf; $msg->rcv($buf, 100, 0, 0) or die; $got{$buf}++ }
print join(",", sort keys %got), "\n";
waitpid($_, 0) for @kids;
my $st = $msg->stat; print "qnum ", $st->qnum, " values ", join(" ", $sem->getall), "\n";
$sem->remove; $msg->remove;
print "ok\n";
`

const ipcToolsWant = `Semaphore id: 0
Message queue id: 0
Shared memory id: 0

age Queues --------
msqid      owner      perms      used-bytes   messages    
0          root       644        0            0           

ed Memory Segments --------
shmid      owner      perms      bytes      nattch     status      
0          root       600        5000       0                       

phore Arrays --------
semid      owner      perms      nsems     
0          root       640        3         


Semaphore Array semid=0
uid=0	 gid=0	 cuid=0	 cgid=0
mode=0640, access_perms=0640
nsems = 3
semnum     value      ncount     zcount     pid       
0          0          0          0          0         
1          0          0          0          0         
2          0          0          0          0         


Message Queue msqid=0
uid=0	gid=0	cuid=0	cgid=0	mode=0644
cbytes=0	qbytes=16384	qnum=0	lspid=0	lrpid=0


------ Messages Limits --------
max queues system wide = 32000
max size of message (bytes) = 8192
default max size of queue (bytes) = 16384

------ Shared Memory Limits --------
max number of segments = 4096
max seg size (kbytes) = 18014398509465599
max total shared memory (kbytes) = 18446744073709551612
min seg size (bytes) = 1

------ Semaphore Limits --------
max number of arrays = 32000
max semaphores per array = 32000
max semaphores system wide = 1024000000
max ops per semop call = 500
semaphore max value = 32767


------ Messages Status --------
allocated queues = 1
used headers = 0
used space = 0 bytes

------ Shared Memory Status --------
segments allocated 1
pages allocated 2
pages resident  0
pages swapped   0
Swap performance: 0 attempts	 0 successes

------ Semaphore Status --------
used arrays = 1
allocated semaphores = 3


age Queues --------
msqid      owner      perms      used-bytes   messages    

ed Memory Segments --------
shmid      owner      perms      bytes      nattch     status      

phore Arrays --------
semid      owner      perms      nsems     

`
