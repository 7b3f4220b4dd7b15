// netif: what a program learns of the loopback interface, lo, through
// glibc (if_nametoindex, if_indextoname, if_nameindex, getifaddrs), the
// interface ioctls and a raw NETLINK_ROUTE socket, then sethostname and
// setdomainname round trips. It prints only what concerns lo, and only
// what does not depend on the machine (no other interface, no counters,
// no lengths that count other interfaces), so that its output on a Linux
// host equals its output under rvsim, whose only interface is lo.
//
// The names part changes the UTS namespace's names: on a host, run it
// in a namespace of its own (unshare --uts ./netif) so that the host's
// name is left alone. As root it sets and reads back the names; as
// another user each set fails with EPERM (the guest's ids are the
// host's, so rvsim and the host print the same for the same user).
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <netpacket/packet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/utsname.h>
#include <unistd.h>

static const char *addr(const struct sockaddr *sa, char *buf, size_t n) {
	if (sa == NULL)
		return "none";
	if (sa->sa_family == AF_INET)
		return inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr, buf, n);
	if (sa->sa_family == AF_INET6)
		return inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)sa)->sin6_addr, buf, n);
	if (sa->sa_family == AF_PACKET) {
		const struct sockaddr_ll *ll = (const struct sockaddr_ll *)sa;
		int o = snprintf(buf, n, "ifindex %d hatype %d halen %d addr", ll->sll_ifindex, ll->sll_hatype, ll->sll_halen);
		for (int i = 0; i < ll->sll_halen && o < (int)n; i++)
			o += snprintf(buf + o, n - o, "%s%02x", i ? ":" : " ", ll->sll_addr[i]);
		return buf;
	}
	snprintf(buf, n, "family %d", sa->sa_family);
	return buf;
}

static void glibc(void) {
	char name[IF_NAMESIZE];
	printf("if_nametoindex(lo) = %u\n", if_nametoindex("lo"));
	printf("if_indextoname(1) = %s\n", if_indextoname(1, name) ? name : strerror(errno));
	errno = 0;
	unsigned bad = if_nametoindex("nosuch0");
	printf("if_nametoindex(nosuch0) = %u (%s)\n", bad, strerror(errno));
	struct if_nameindex *ni = if_nameindex();
	if (ni == NULL) {
		printf("if_nameindex: %s\n", strerror(errno));
	} else {
		for (struct if_nameindex *p = ni; p->if_index != 0; p++)
			if (strcmp(p->if_name, "lo") == 0)
				printf("if_nameindex: %u %s\n", p->if_index, p->if_name);
		if_freenameindex(ni);
	}
	struct ifaddrs *ifa;
	if (getifaddrs(&ifa) != 0) {
		printf("getifaddrs: %s\n", strerror(errno));
		return;
	}
	char a[128], m[128], b[128];
	for (struct ifaddrs *p = ifa; p != NULL; p = p->ifa_next) {
		if (strcmp(p->ifa_name, "lo") != 0)
			continue;
		printf("getifaddrs: lo flags %#x addr %s netmask %s broadcast/dst %s data %s\n", p->ifa_flags,
		       addr(p->ifa_addr, a, sizeof a), addr(p->ifa_netmask, m, sizeof m),
		       addr(p->ifa_broadaddr, b, sizeof b), p->ifa_data ? "yes" : "no");
	}
	freeifaddrs(ifa);
}

static void ioctls(void) {
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	struct ifreq r;
	char a[64];
#define REQ(cmd, what, fmt, ...)                                                   \
	do {                                                                       \
		memset(&r, 0, sizeof r);                                           \
		strcpy(r.ifr_name, "lo");                                          \
		if (ioctl(s, cmd, &r) != 0)                                        \
			printf("%s: %s\n", what, strerror(errno));                 \
		else                                                               \
			printf("%s: " fmt "\n", what, __VA_ARGS__);                \
	} while (0)
	REQ(SIOCGIFINDEX, "SIOCGIFINDEX lo", "%d", r.ifr_ifindex);
	REQ(SIOCGIFFLAGS, "SIOCGIFFLAGS lo", "%#x", (unsigned short)r.ifr_flags);
	REQ(SIOCGIFMTU, "SIOCGIFMTU lo", "%d", r.ifr_mtu);
	REQ(SIOCGIFTXQLEN, "SIOCGIFTXQLEN lo", "%d", r.ifr_qlen);
	REQ(SIOCGIFADDR, "SIOCGIFADDR lo", "%s", addr(&r.ifr_addr, a, sizeof a));
	REQ(SIOCGIFNETMASK, "SIOCGIFNETMASK lo", "%s", addr(&r.ifr_netmask, a, sizeof a));
	REQ(SIOCGIFBRDADDR, "SIOCGIFBRDADDR lo", "%s", addr(&r.ifr_broadaddr, a, sizeof a));
	REQ(SIOCGIFDSTADDR, "SIOCGIFDSTADDR lo", "%s", addr(&r.ifr_dstaddr, a, sizeof a));
	REQ(SIOCGIFHWADDR, "SIOCGIFHWADDR lo", "family %d addr %02x:%02x:%02x:%02x:%02x:%02x", r.ifr_hwaddr.sa_family,
	    (unsigned char)r.ifr_hwaddr.sa_data[0], (unsigned char)r.ifr_hwaddr.sa_data[1],
	    (unsigned char)r.ifr_hwaddr.sa_data[2], (unsigned char)r.ifr_hwaddr.sa_data[3],
	    (unsigned char)r.ifr_hwaddr.sa_data[4], (unsigned char)r.ifr_hwaddr.sa_data[5]);
	memset(&r, 0, sizeof r);
	r.ifr_ifindex = 1;
	printf("SIOCGIFNAME 1: %s\n", ioctl(s, SIOCGIFNAME, &r) == 0 ? r.ifr_name : strerror(errno));
	memset(&r, 0, sizeof r);
	strcpy(r.ifr_name, "nosuch0");
	printf("SIOCGIFINDEX nosuch0: %s\n", ioctl(s, SIOCGIFINDEX, &r) == 0 ? "found" : strerror(errno));
	memset(&r, 0, sizeof r);
	strcpy(r.ifr_name, "lo:1");
	printf("SIOCGIFADDR lo:1: %s\n", ioctl(s, SIOCGIFADDR, &r) == 0 ? "found" : strerror(errno));

	struct ifconf ifc = {.ifc_len = 0, .ifc_buf = NULL};
	int ok = ioctl(s, SIOCGIFCONF, &ifc);
	printf("SIOCGIFCONF length: %s\n", ok != 0 ? strerror(errno)
	       : ifc.ifc_len >= (int)sizeof(struct ifreq) && ifc.ifc_len % sizeof(struct ifreq) == 0 ? "whole ifreqs" : "odd");
	struct ifreq reqs[16];
	ifc.ifc_len = sizeof reqs;
	ifc.ifc_req = reqs;
	if (ioctl(s, SIOCGIFCONF, &ifc) == 0)
		for (int i = 0; i < ifc.ifc_len / (int)sizeof(struct ifreq); i++)
			if (strcmp(reqs[i].ifr_name, "lo") == 0)
				printf("SIOCGIFCONF: lo %s\n", addr(&reqs[i].ifr_addr, a, sizeof a));
	close(s);

	s = socket(AF_UNIX, SOCK_DGRAM, 0);
	memset(&r, 0, sizeof r);
	strcpy(r.ifr_name, "lo");
	printf("SIOCGIFADDR on AF_UNIX: %s\n", ioctl(s, SIOCGIFADDR, &r) == 0 ? "found" : strerror(errno));
	printf("SIOCGIFINDEX on AF_UNIX: %s\n", ioctl(s, SIOCGIFINDEX, &r) == 0 ? "1" : strerror(errno));
	close(s);
}

// request sends one request to the kernel.
static int request(int s, int type, int flags, int seq, const void *body, int n) {
	char buf[64] = {0};
	struct nlmsghdr *h = (struct nlmsghdr *)buf;
	h->nlmsg_len = NLMSG_LENGTH(n);
	h->nlmsg_type = type;
	h->nlmsg_flags = NLM_F_REQUEST | flags;
	h->nlmsg_seq = seq;
	memcpy(NLMSG_DATA(h), body, n);
	struct sockaddr_nl k = {.nl_family = AF_NETLINK};
	return sendto(s, buf, h->nlmsg_len, 0, (struct sockaddr *)&k, sizeof k);
}

static char dgram[65536];

// next receives a datagram without waiting: its length, or -1. Each
// message must carry the request's seq and the socket's port id, and
// come from the kernel (else *bad counts it).
static int next(int s, unsigned pid, int seq, int *bad) {
	struct sockaddr_nl from;
	struct iovec iov = {dgram, sizeof dgram};
	struct msghdr msg = {.msg_name = &from, .msg_namelen = sizeof from, .msg_iov = &iov, .msg_iovlen = 1};
	int n = recvmsg(s, &msg, MSG_DONTWAIT);
	if (n < 0)
		return -1;
	if (msg.msg_namelen != sizeof from || from.nl_pid != 0 || from.nl_groups != 0 || (msg.msg_flags & MSG_TRUNC))
		(*bad)++;
	int rest = n;
	for (struct nlmsghdr *h = (struct nlmsghdr *)dgram; NLMSG_OK(h, (unsigned)rest); h = NLMSG_NEXT(h, rest))
		if (h->nlmsg_seq != (unsigned)seq || h->nlmsg_pid != pid)
			(*bad)++;
	return n;
}

static void raw(void) {
	int s = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	struct sockaddr_nl me = {.nl_family = AF_NETLINK};
	socklen_t len = sizeof me;
	if (s < 0 || bind(s, (struct sockaddr *)&me, sizeof me) != 0 || getsockname(s, (struct sockaddr *)&me, &len) != 0) {
		printf("netlink: %s\n", strerror(errno));
		return;
	}
	printf("netlink: bound to the pid: %s\n", me.nl_pid == (unsigned)getpid() ? "yes" : "no");
	int bad = 0, n, done = 0;

	struct ifinfomsg ifi = {.ifi_family = AF_UNSPEC};
	request(s, RTM_GETLINK, NLM_F_DUMP, 11, &ifi, sizeof ifi);
	while (!done && (n = next(s, me.nl_pid, 11, &bad)) >= 0) {
		for (struct nlmsghdr *h = (struct nlmsghdr *)dgram; NLMSG_OK(h, (unsigned)n); h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_type == NLMSG_DONE) {
				printf("link dump: DONE status %d, alone in its datagram: %s\n", *(int *)NLMSG_DATA(h),
				       h == (struct nlmsghdr *)dgram && NLMSG_ALIGN(h->nlmsg_len) >= (unsigned)n ? "yes" : "no");
				done = 1;
				continue;
			}
			struct ifinfomsg *i = NLMSG_DATA(h);
			if (i->ifi_index != 1)
				continue;
			printf("link dump: index 1 type %d flags %#x multi %d\n", i->ifi_type, i->ifi_flags,
			       !!(h->nlmsg_flags & NLM_F_MULTI));
			int rest = IFLA_PAYLOAD(h);
			for (struct rtattr *a = IFLA_RTA(i); RTA_OK(a, rest); a = RTA_NEXT(a, rest)) {
				switch (a->rta_type) {
				case IFLA_IFNAME:
					printf("  IFLA_IFNAME %s\n", (char *)RTA_DATA(a));
					break;
				case IFLA_MTU:
					printf("  IFLA_MTU %u\n", *(unsigned *)RTA_DATA(a));
					break;
				case IFLA_TXQLEN:
					printf("  IFLA_TXQLEN %u\n", *(unsigned *)RTA_DATA(a));
					break;
				case IFLA_QDISC:
					printf("  IFLA_QDISC %s\n", (char *)RTA_DATA(a));
					break;
				case IFLA_OPERSTATE:
					printf("  IFLA_OPERSTATE %u\n", *(unsigned char *)RTA_DATA(a));
					break;
				case IFLA_ADDRESS:
				case IFLA_BROADCAST:
					printf("  %s of %d bytes\n", a->rta_type == IFLA_ADDRESS ? "IFLA_ADDRESS" : "IFLA_BROADCAST",
					       (int)RTA_PAYLOAD(a));
					break;
				}
			}
		}
	}
	printf("link dump: finished %d, seq and pid right: %s\n", done, bad ? "no" : "yes");

	struct ifaddrmsg ifa = {.ifa_family = AF_UNSPEC};
	request(s, RTM_GETADDR, NLM_F_DUMP, 12, &ifa, sizeof ifa);
	done = 0;
	while (!done && (n = next(s, me.nl_pid, 12, &bad)) >= 0)
		for (struct nlmsghdr *h = (struct nlmsghdr *)dgram; NLMSG_OK(h, (unsigned)n); h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_type == NLMSG_DONE) {
				done = 1;
				continue;
			}
			struct ifaddrmsg *i = NLMSG_DATA(h);
			if (i->ifa_index != 1)
				continue;
			char a[64] = "?", label[IF_NAMESIZE] = "none";
			int rest = IFA_PAYLOAD(h);
			for (struct rtattr *t = IFA_RTA(i); RTA_OK(t, rest); t = RTA_NEXT(t, rest)) {
				if (t->rta_type == IFA_ADDRESS)
					inet_ntop(i->ifa_family, RTA_DATA(t), a, sizeof a);
				if (t->rta_type == IFA_LABEL)
					snprintf(label, sizeof label, "%s", (char *)RTA_DATA(t));
			}
			printf("addr dump: %s/%d flags %#x scope %d label %s\n", a, i->ifa_prefixlen, i->ifa_flags, i->ifa_scope, label);
		}
	printf("addr dump: finished %d, seq and pid right: %s\n", done, bad ? "no" : "yes");

	struct rtmsg rt = {.rtm_family = AF_UNSPEC};
	request(s, RTM_GETROUTE, NLM_F_DUMP, 13, &rt, sizeof rt);
	done = 0;
	while (!done && (n = next(s, me.nl_pid, 13, &bad)) >= 0)
		for (struct nlmsghdr *h = (struct nlmsghdr *)dgram; NLMSG_OK(h, (unsigned)n); h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_type == NLMSG_DONE) {
				done = 1;
				continue;
			}
			struct rtmsg *r = NLMSG_DATA(h);
			char dst[64] = "default";
			int oif = 0, rest = RTM_PAYLOAD(h);
			for (struct rtattr *t = RTM_RTA(r); RTA_OK(t, rest); t = RTA_NEXT(t, rest)) {
				if (t->rta_type == RTA_DST)
					inet_ntop(r->rtm_family, RTA_DATA(t), dst, sizeof dst);
				if (t->rta_type == RTA_OIF)
					oif = *(int *)RTA_DATA(t);
			}
			if (oif == 1)
				printf("route dump: %s/%d table %d type %d scope %d proto %d\n", dst, r->rtm_dst_len, r->rtm_table,
				       r->rtm_type, r->rtm_scope, r->rtm_protocol);
		}
	printf("route dump: finished %d, seq and pid right: %s\n", done, bad ? "no" : "yes");

	// An acknowledged no-op, and a get of an index no interface has.
	request(s, NLMSG_NOOP, NLM_F_ACK, 14, NULL, 0);
	struct ifinfomsg none = {.ifi_index = 999};
	request(s, RTM_GETLINK, 0, 15, &none, sizeof none);
	for (int seq = 14; seq <= 15; seq++) {
		n = next(s, me.nl_pid, seq, &bad);
		struct nlmsghdr *h = (struct nlmsghdr *)dgram;
		struct nlmsgerr *e = NLMSG_DATA(h);
		printf("seq %d: type %d error %d (%s) echoes type %d, length %d\n", seq, h->nlmsg_type, e->error,
		       strerror(-e->error), e->msg.nlmsg_type, n);
	}
	printf("seq and pid right: %s; more: %s\n", bad ? "no" : "yes", next(s, me.nl_pid, 0, &bad) < 0 ? strerror(errno) : "yes");
	close(s);
}

static void names(void) {
	if (sethostname("netif-test", 10) != 0) {
		printf("sethostname: %s\n", strerror(errno));
		printf("setdomainname: %s\n", setdomainname("example.org", 11) != 0 ? strerror(errno) : "set");
		return;
	}
	setdomainname("example.org", 11);
	struct utsname u;
	char host[256], dom[256];
	uname(&u);
	gethostname(host, sizeof host);
	getdomainname(dom, sizeof dom);
	printf("uname: nodename %s domainname %s\n", u.nodename, u.domainname);
	printf("gethostname %s getdomainname %s\n", host, dom);
	FILE *f = fopen("/proc/sys/kernel/hostname", "r");
	if (f && fgets(host, sizeof host, f))
		printf("/proc/sys/kernel/hostname: %s", host);
	if (f)
		fclose(f);
	f = fopen("/proc/sys/kernel/domainname", "r");
	if (f && fgets(dom, sizeof dom, f))
		printf("/proc/sys/kernel/domainname: %s", dom);
	if (f)
		fclose(f);
	char long65[66];
	memset(long65, 'x', 65);
	printf("sethostname of 64 bytes: %s\n", sethostname(long65, 64) == 0 ? "ok" : strerror(errno));
	printf("sethostname of 65 bytes: %s\n", sethostname(long65, 65) == 0 ? "ok" : strerror(errno));
	char *volatile unmapped = (char *)8;
	printf("sethostname from a bad pointer: %s\n", sethostname(unmapped, 4) == 0 ? "ok" : strerror(errno));
	gethostname(host, sizeof host);
	printf("gethostname: %zu bytes\n", strlen(host));
}

int main(void) {
	setvbuf(stdout, NULL, _IONBF, 0);
	glibc();
	ioctls();
	raw();
	names();
	return 0;
}
