/* System V shared memory between a parent and its child (shmget, shmat,
 * shmdt, shmctl), as PostgreSQL's postmaster uses a segment: a keyed
 * segment found again by key, EEXIST and ENOENT, a child that inherits an
 * attachment and writes what the parent reads, the attach count
 * (IPC_STAT) through attach, fork, detach and the child's end, IPC_RMID
 * while attached (the key goes, the segment lives until the last detach),
 * IPC_SET, SHM_RND and SHM_REMAP, and the argument errors. Before, shmget
 * was ENOSYS. The output must equal the host's (ids, keys and times are
 * compared, not printed). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../include/result.h"

// attachFails is shmat's failure as its errno's name ("ok" if it worked).
static const char *attachFails(int id, const void *addr, int flags) {
	void *r = shmat(id, addr, flags);
	return r == (void *)-1 ? strerrorname_np(errno) : "ok";
}

static long nattch(int id) {
	struct shmid_ds ds;
	if (shmctl(id, IPC_STAT, &ds) != 0)
		return -1000 - errno;
	return (long)ds.shm_nattch;
}

int main(void) {
	setvbuf(stdout, NULL, _IOLBF, 0);
	key_t key = 0x52560000 + (getpid() & 0xffff); // a key of this run's own
	printf("get missing key: %s\n", result(shmget(key, 4096, 0600)));
	printf("size 0: %s\n", result(shmget(IPC_PRIVATE, 0, IPC_CREAT | 0600)));
	int id = shmget(key, 10000, IPC_CREAT | IPC_EXCL | 0600);
	printf("create keyed: %s\n", id >= 0 ? "ok" : result(id));
	printf("again with IPC_EXCL: %s\n", result(shmget(key, 10000, IPC_CREAT | IPC_EXCL | 0600)));
	printf("again by key: %d\n", shmget(key, 0, 0) == id);
	printf("again, larger: %s\n", result(shmget(key, 20000, 0)));
	struct shmid_ds ds;
	shmctl(id, IPC_STAT, &ds);
	printf("stat: size %zu, mode %o, nattch %lu, cpid is me %d, lpid %d, atime %d, owner is me %d\n", ds.shm_segsz,
	       ds.shm_perm.mode, (unsigned long)ds.shm_nattch, ds.shm_cpid == getpid(), ds.shm_lpid, ds.shm_atime != 0,
	       ds.shm_perm.uid == geteuid() && ds.shm_perm.cuid == geteuid());
	printf("key kept: %d\n", ds.shm_perm.__key == key);

	char *p = shmat(id, NULL, 0);
	printf("attach: %s, aligned %d, zero %d\n", p == (void *)-1 ? result(-1) : "ok", ((unsigned long)p & 4095) == 0,
	       p[0] == 0 && p[9999] == 0);
	printf("nattch after attach: %ld\n", nattch(id));
	shmctl(id, IPC_STAT, &ds);
	printf("lpid is me %d, atime set %d\n", ds.shm_lpid == getpid(), ds.shm_atime != 0);
	strcpy(p, "parent");
	pid_t pid = fork();
	if (pid == 0) {
		printf("child sees: %s, nattch %ld\n", p, nattch(id));
		strcpy(p + 100, "child wrote");
		char *q = shmat(id, NULL, SHM_RDONLY);
		printf("child's second attach: %s, same bytes %d, nattch %ld\n", q == (void *)-1 ? result(-1) : "ok",
		       strcmp(q + 100, "child wrote") == 0, nattch(id));
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	printf("parent reads: %s, nattch after the child ended %ld\n", p + 100, nattch(id));

	// A second attachment at a chosen address, rounded, then over it.
	char *want = (char *)(((unsigned long)p + (1 << 24)) & ~0xfffUL);
	char *r = shmat(id, want + 100, SHM_RND);
	printf("SHM_RND attach: at the rounded address %d, sees %s\n", r == want, r == want ? r : "?");
	printf("unaligned without SHM_RND: %s\n", attachFails(id, want + 100, 0));
	printf("over a mapping without SHM_REMAP: %s\n", attachFails(id, want, 0));
	char *r2 = shmat(id, want, SHM_REMAP);
	printf("with SHM_REMAP: %d, nattch %ld\n", r2 == want, nattch(id));
	printf("shmdt of a non-attachment: %s\n", result(shmdt(p + 4096)));
	printf("shmdt: %s\n", result(shmdt(want)));
	printf("shmdt again: %s\n", result(shmdt(want)));

	// IPC_SET, IPC_RMID while attached.
	ds.shm_perm.mode = 0640;
	printf("IPC_SET: %s\n", result(shmctl(id, IPC_SET, &ds)));
	shmctl(id, IPC_STAT, &ds);
	printf("mode after IPC_SET: %o\n", ds.shm_perm.mode);
	printf("IPC_RMID: %s\n", result(shmctl(id, IPC_RMID, NULL)));
	shmctl(id, IPC_STAT, &ds);
	printf("after IPC_RMID: key %d, mode %o, nattch %lu, bytes %s\n", ds.shm_perm.__key, ds.shm_perm.mode,
	       (unsigned long)ds.shm_nattch, p);
	printf("get by the old key: %s\n", result(shmget(key, 0, 0)));
	printf("last shmdt: %s\n", result(shmdt(p)));
	printf("stat after it: %s\n", result(shmctl(id, IPC_STAT, &ds)));
	printf("attach after it: %s\n", attachFails(id, NULL, 0));

	// IPC_PRIVATE segments are always new; bad ids and commands.
	int a = shmget(IPC_PRIVATE, 100, 0600), b = shmget(IPC_PRIVATE, 100, 0600);
	printf("two private segments: %d\n", a >= 0 && b >= 0 && a != b);
	shmctl(a, IPC_RMID, NULL);
	shmctl(b, IPC_RMID, NULL);
	printf("stat of a bad id: %s\n", result(shmctl(-1, IPC_STAT, &ds)));
	printf("bad command: %s\n", result(shmctl(a, 99, &ds)));
	struct shminfo info;
	int got = shmctl(0, IPC_INFO, (struct shmid_ds *)&info);
	printf("IPC_INFO: %d, shmmin %lu, shmmni %d\n", got >= 0, info.shmmin, info.shmmni >= 4096);
	return 0;
}
