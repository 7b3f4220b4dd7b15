// caps.c: capabilities. capget and capset (versions, the caller only,
// cap_capset's subset rules), the bounding set and the ambient set
// through prctl, the sets across setuid (cleared, kept with
// PR_SET_KEEPCAPS), seteuid and setfsuid, and across execve (root's
// permitted set from the bounding and inheritable sets, another's from
// its ambient set); and privilege that follows the capabilities rather
// than the uid (sethostname and a lower nice value as uid 1000 with the
// capabilities kept, refused as root without them). Run as root, it
// first narrows every set to the capabilities below (KEEP), which a root
// host or container must hold, so that its output does not depend on
// the host's bounding set; its output is the host's (Linux 6.18,
// x86-64).
#define _GNU_SOURCE
#include <errno.h>
#include <linux/capability.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../include/result.h"

static void show(const char *what, long r) { printf("%s: %s\n", what, result(r)); }

static void status(const char *what) {
	char line[256];
	FILE *f = fopen("/proc/self/status", "r");
	printf("%s:", what);
	while (f && fgets(line, sizeof line, f))
		if (strncmp(line, "Cap", 3) == 0) {
			line[strcspn(line, "\n")] = 0;
			char *v = strchr(line, ':') + 1;
			while (*v == '\t' || *v == ' ')
				v++;
			printf(" %.6s %s", line, v);
		}
	if (f)
		fclose(f);
	printf("\n");
}

static struct __user_cap_data_struct d[2];
static struct __user_cap_header_struct h;

static long get(void) {
	h.version = _LINUX_CAPABILITY_VERSION_3, h.pid = 0;
	return syscall(SYS_capget, &h, d);
}
static long set(uint64_t eff, uint64_t prm, uint64_t inh) {
	h.version = _LINUX_CAPABILITY_VERSION_3, h.pid = 0;
	d[0].effective = eff, d[1].effective = eff >> 32;
	d[0].permitted = prm, d[1].permitted = prm >> 32;
	d[0].inheritable = inh, d[1].inheritable = inh >> 32;
	return syscall(SYS_capset, &h, d);
}
static uint64_t eff(void) { return get(), d[0].effective | (uint64_t)d[1].effective << 32; }
static uint64_t prm(void) { return get(), d[0].permitted | (uint64_t)d[1].permitted << 32; }
static uint64_t inh(void) { return get(), d[0].inheritable | (uint64_t)d[1].inheritable << 32; }
#define BIT(c) ((uint64_t)1 << (c))

// KEEP: chown .. setpcap, net_bind_service, sys_chroot, sys_admin,
// sys_boot, sys_nice and sys_time.
#define KEEP (0x1ffULL | BIT(CAP_NET_BIND_SERVICE) | BIT(CAP_SYS_CHROOT) | BIT(CAP_SYS_ADMIN) | BIT(CAP_SYS_BOOT) | \
              BIT(CAP_SYS_NICE) | BIT(CAP_SYS_TIME))

static void privileged_calls(const char *who) {
	char name[64] = "";
	gethostname(name, sizeof name - 1);
	printf("%s:\n", who);
	show("  sethostname (to its own name)", sethostname(name, strlen(name)));
	show("  setpriority -5", setpriority(PRIO_PROCESS, 0, -5));
	show("  setuid(0)", setuid(0));
}

static void child(void (*f)(void)) {
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		f();
		fflush(stdout);
		_exit(0);
	}
	waitpid(pid, NULL, 0);
}

static void drop_all_by_setuid(void) {
	show("setuid(1000)", setuid(1000));
	status("  after");
	privileged_calls("  as uid 1000 without capabilities");
}

static void keep_caps(void) {
	show("PR_SET_KEEPCAPS 1", prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0));
	show("PR_GET_KEEPCAPS", prctl(PR_GET_KEEPCAPS, 0, 0, 0, 0));
	show("setresuid(1000, 1000, 1000)", setresuid(1000, 1000, 1000));
	status("  after");
	uint64_t want = BIT(CAP_SYS_ADMIN) | BIT(CAP_SYS_NICE);
	show("capset eff = sys_admin|sys_nice", set(want, prm(), inh()));
	privileged_calls("  as uid 1000 with them");
	show("capset eff = all permitted + 1", set(prm() | BIT(40), prm(), inh()));
	show("capset prm = sys_nice only", set(BIT(CAP_SYS_NICE), BIT(CAP_SYS_NICE), 0));
	status("  after");
	show("capset prm = sys_nice|sys_admin again", set(0, BIT(CAP_SYS_NICE) | BIT(CAP_SYS_ADMIN), 0));
	show("capset inh = sys_time (not permitted, no setpcap)", set(0, BIT(CAP_SYS_NICE), BIT(CAP_SYS_TIME)));
	show("capset inh = sys_nice", set(0, BIT(CAP_SYS_NICE), BIT(CAP_SYS_NICE)));
	show("ambient raise sys_nice", prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, CAP_SYS_NICE, 0, 0));
	status("  before exec");
	fflush(stdout);
	execl("/proc/self/exe", "caps", "report", "exec as uid 1000 with an ambient capability", (char *)NULL);
	perror("execl");
}

static void report_keepcaps(void) { show("  child's PR_GET_KEEPCAPS", prctl(PR_GET_KEEPCAPS, 0, 0, 0, 0)); }

static void euid_moves(void) {
	show("seteuid(1000)", seteuid(1000));
	status("  after");
	show("seteuid(0)", seteuid(0));
	status("  after");
	show("setfsuid(1000)", setfsuid(1000));
	status("  after");
	show("setfsuid(0)", setfsuid(0));
	status("  after");
}

static void root_without_caps(void) {
	show("capset all empty", set(0, 0, 0));
	status("  after");
	privileged_calls("  as root without capabilities");
	fflush(stdout);
	execl("/proc/self/exe", "caps", "report", "exec as root after capset", (char *)NULL);
	perror("execl");
}

static void securebits(void) {
	show("PR_GET_SECUREBITS", prctl(PR_GET_SECUREBITS, 0, 0, 0, 0));
	show("PR_SET_SECUREBITS 1<<12 (unknown)", prctl(PR_SET_SECUREBITS, 1 << 12, 0, 0, 0));
	show("PR_SET_SECUREBITS NO_SETUID_FIXUP|KEEP_CAPS_LOCKED|NO_CAP_AMBIENT_RAISE",
	     prctl(PR_SET_SECUREBITS, 1 << 2 | 1 << 5 | 1 << 6, 0, 0, 0));
	show("PR_GET_SECUREBITS", prctl(PR_GET_SECUREBITS, 0, 0, 0, 0));
	show("PR_SET_KEEPCAPS 1 (locked)", prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0));
	show("PR_SET_SECUREBITS 0 (an unlock)", prctl(PR_SET_SECUREBITS, 0, 0, 0, 0));
	show("capset inh = sys_time", set(eff(), prm(), BIT(CAP_SYS_TIME)));
	show("ambient raise sys_time (NO_CAP_AMBIENT_RAISE)", prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, CAP_SYS_TIME, 0, 0));
	show("setresuid(1000, 1000, 1000) without the fixup", setresuid(1000, 1000, 1000));
	status("  after");
	privileged_calls("  as uid 1000, capabilities untouched");
}

static void noroot_exec(void) {
	show("PR_SET_SECUREBITS NOROOT", prctl(PR_SET_SECUREBITS, 1 << 0, 0, 0, 0));
	fflush(stdout);
	execl("/proc/self/exe", "caps", "report", "exec as root with NOROOT", (char *)NULL);
	perror("execl");
}

static void root_exec(void) {
	show("PR_CAPBSET_DROP sys_boot", prctl(PR_CAPBSET_DROP, CAP_SYS_BOOT, 0, 0, 0));
	show("capset inh = sys_time", set(eff(), prm(), BIT(CAP_SYS_TIME)));
	show("ambient raise sys_time", prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, CAP_SYS_TIME, 0, 0));
	show("capset prm without sys_time", set(eff() & ~BIT(CAP_SYS_TIME), prm() & ~BIT(CAP_SYS_TIME), BIT(CAP_SYS_TIME)));
	show("  ambient sys_time now", prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_IS_SET, CAP_SYS_TIME, 0, 0));
	status("  before exec");
	fflush(stdout);
	execl("/proc/self/exe", "caps", "report", "exec as root", (char *)NULL);
	perror("execl");
}

int main(int argc, char **argv) {
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 3 && strcmp(argv[1], "report") == 0) {
		status(argv[2]);
		return 0;
	}
	if ((prm() & KEEP) != KEEP) {
		printf("the host lacks capabilities %#llx: run as root\n", (unsigned long long)(KEEP & ~prm()));
		return 1;
	}
	for (int c = 0; c <= 40; c++)
		if (!(KEEP & BIT(c)) && prctl(PR_CAPBSET_DROP, c, 0, 0, 0) != 0)
			perror("PR_CAPBSET_DROP");
	show("capset to KEEP", set(KEEP, KEEP, 0));
	status("start");
	show("capget", get());
	printf("  eff %#llx prm %#llx inh %#llx\n", (unsigned long long)eff(), (unsigned long long)prm(),
	       (unsigned long long)inh());

	// The header.
	h.version = 0x12345678, h.pid = 0;
	show("capget bad version, no data", syscall(SYS_capget, &h, NULL));
	printf("  version written back %#x\n", h.version);
	h.version = 0x12345678;
	show("capget bad version", syscall(SYS_capget, &h, d));
	h.version = _LINUX_CAPABILITY_VERSION_3, h.pid = -1;
	show("capget pid -1, no data", syscall(SYS_capget, &h, NULL));
	show("capget pid -1", syscall(SYS_capget, &h, d));
	h.pid = 99999;
	show("capget pid 99999", syscall(SYS_capget, &h, d));
	h.pid = getppid();
	show("capset on the parent", syscall(SYS_capset, &h, d));
	h.version = 0x12345678, h.pid = 0;
	show("capset bad version", syscall(SYS_capset, &h, d));
	h.version = _LINUX_CAPABILITY_VERSION_1, h.pid = getpid();
	struct __user_cap_data_struct one;
	syscall(SYS_capget, &h, &one);
	printf("capget v1: eff %#x prm %#x\n", one.effective, one.permitted);

	// The bounding and ambient sets.
	show("PR_CAPBSET_READ 40", prctl(PR_CAPBSET_READ, 40, 0, 0, 0));
	show("PR_CAPBSET_READ 41", prctl(PR_CAPBSET_READ, 41, 0, 0, 0));
	show("PR_CAP_AMBIENT IS_SET 41", prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_IS_SET, 41, 0, 0));
	show("PR_CAP_AMBIENT 9", prctl(PR_CAP_AMBIENT, 9, 1, 0, 0));
	show("PR_CAP_AMBIENT CLEAR_ALL with an argument", prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 1, 0, 0));
	show("ambient raise sys_time (not inheritable)", prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, CAP_SYS_TIME, 0, 0));

	show("PR_SET_KEEPCAPS 1 in the parent", prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0));
	child(report_keepcaps);
	show("PR_SET_KEEPCAPS 0", prctl(PR_SET_KEEPCAPS, 0, 0, 0, 0));
	child(drop_all_by_setuid);
	child(keep_caps);
	child(euid_moves);
	child(root_without_caps);
	child(root_exec);
	child(securebits);
	child(noroot_exec);
	return 0;
}
