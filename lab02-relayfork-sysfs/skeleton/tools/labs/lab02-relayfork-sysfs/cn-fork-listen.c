// SPDX-License-Identifier: GPL-2.0
/*
 * cn-fork-listen - hear about every fork through the proc connector
 *
 *   cn-fork-listen [-n COUNT]
 *
 * What upstream did instead of the relay fork module: since 2.6.15 the
 * kernel multicasts process events (CONFIG_PROC_EVENTS) on a netlink
 * connector socket.  Prints "listening" once subscribed, then
 * "fork parent=P child=C" for each fork, like relayfork-listen, and exits
 * after COUNT forks.  Needs CAP_NET_ADMIN.  Lab 02 of the kernel-hooks course.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <linux/cn_proc.h>
#include <linux/connector.h>
#include <linux/netlink.h>

/* One netlink message carrying one connector message. */
struct cn_request {
	struct nlmsghdr nl;
	struct cn_msg cn;
	enum proc_cn_mcast_op op;
} __attribute__((packed));

static void die(const char *what)
{
	fprintf(stderr, "cn-fork-listen: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* Ask the proc connector (CN_IDX_PROC/CN_VAL_PROC) to start multicasting. */
static void start_events(int fd)
{
	/* TODO 1: send it one PROC_CN_MCAST_LISTEN in a netlink message */
}

/* A socket on the proc connector's multicast group, events flowing. */
static int subscribe(void)
{
	struct sockaddr_nl addr = {
		.nl_family = AF_NETLINK,
		.nl_groups = CN_IDX_PROC,
		.nl_pid = getpid(),
	};
	int fd;

	fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_CONNECTOR);
	if (fd < 0)
		die("socket(NETLINK_CONNECTOR)");
	if (bind(fd, (struct sockaddr *)&addr, sizeof(addr)))
		die("bind to CN_IDX_PROC");
	start_events(fd);
	return fd;
}

/* Print @nl if it is a fork event; 1 if it was. */
static int print_fork(struct nlmsghdr *nl)
{
	/* TODO 2: the event is in the connector message's data; the parent process, the new task */
	return 0;
}

int main(int argc, char **argv)
{
	long count = argc == 3 && !strcmp(argv[1], "-n") ? strtol(argv[2], NULL, 10) : -1;
	char buf[4096] __attribute__((aligned(NLMSG_ALIGNTO)));
	int fd;

	if (argc != 1 && argc != 3) {
		fprintf(stderr, "usage: cn-fork-listen [-n COUNT]\n");
		return 2;
	}
	fd = subscribe();
	printf("listening\n");
	fflush(stdout);

	while (count != 0) {
		ssize_t len = recv(fd, buf, sizeof(buf), 0);
		struct nlmsghdr *nl;

		if (len < 0) {
			if (errno == ENOBUFS)	/* the socket overflowed: events lost */
				fprintf(stderr, "cn-fork-listen: events lost\n");
			else
				die("recv");
			continue;
		}
		for (nl = (struct nlmsghdr *)buf; NLMSG_OK(nl, len); nl = NLMSG_NEXT(nl, len))
			if (print_fork(nl) && count > 0 && --count == 0)
				break;
	}
	close(fd);
	return 0;
}
