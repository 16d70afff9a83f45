// SPDX-License-Identifier: GPL-2.0
/*
 * relayfork-listen - hear about every fork through /sys/relayfork
 *
 *   relayfork-listen [-s SIGNAL] [-n COUNT]
 *	register, print "fork parent=P child=C" for each fork, and unregister
 *	after COUNT forks or on SIGINT/SIGTERM; a signal that a process sent
 *	(si_code not SI_KERNEL) is not a fork: it is reported on stderr
 *   relayfork-listen -c FORKS [-s SIGNAL]
 *	fork FORKS children, each of which also sends us SIGUSR1, and count
 *	what arrived: the relay's real-time signal queues one per fork, the
 *	classic SIGUSR1 keeps one pending and loses the rest
 *
 * Run as root (only root may register).  Lab 02 of the kernel-hooks course.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/wait.h>

#define PROCESSES	"/sys/relayfork/processes"
#define SIGNAL		"/sys/relayfork/signal"

static int write_number(const char *path, const char *prefix, long n)
{
	char buf[32];
	int fd = open(path, O_WRONLY), len, err = 0;

	if (fd < 0)
		return -errno;
	len = snprintf(buf, sizeof(buf), "%s%ld\n", prefix, n);
	if (write(fd, buf, len) != len)
		err = -errno;
	close(fd);
	return err;
}

static long read_number(const char *path)
{
	char buf[32] = "";
	int fd = open(path, O_RDONLY);

	if (fd < 0 || read(fd, buf, sizeof(buf) - 1) < 0)
		buf[0] = '\0';
	if (fd >= 0)
		close(fd);
	return buf[0] ? strtol(buf, NULL, 10) : -1;
}

static void die(const char *what, int err)
{
	fprintf(stderr, "relayfork-listen: %s: %s\n", what, strerror(err));
	exit(1);
}

/*
 * The signal to listen on: @wanted if given, else the module's if the C
 * library leaves it to us, else SIGRTMIN.
 */
static int choose_signal(int wanted)
{
	/* TODO 1: glibc keeps 32 and 33 (its SIGRTMIN is 34 or more): never use those */
	return wanted ? wanted : read_number(SIGNAL);
}

static void listen_forks(int sig, long count)
{
	/* TODO 2: block the signals, then register; wait with sigwaitinfo(), for the kernel's */
	write_number(PROCESSES, "-", getpid());
}

/* The seed's argument, measured: real-time signals queue, classic ones merge. */
static void storm(int sig, long forks)
{
	struct rlimit lim = { forks + 1000, forks + 1000 };
	long relayed = 0, usr1 = 0, i;
	sigset_t set;
	int err;

	sigemptyset(&set);
	sigaddset(&set, sig);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	/* Real-time signals queue up to RLIMIT_SIGPENDING, and no further. */
	if (setrlimit(RLIMIT_SIGPENDING, &lim))
		fprintf(stderr, "relayfork-listen: RLIMIT_SIGPENDING stays lower: %s\n",
			strerror(errno));
	err = write_number(PROCESSES, "", getpid());
	if (err)
		die("cannot register in " PROCESSES, -err);

	for (i = 0; i < forks; i++) {
		pid_t pid = fork();

		if (pid == 0) {
			kill(getppid(), SIGUSR1);
			_exit(0);
		}
		if (pid < 0 || waitpid(pid, NULL, 0) != pid)
			die("fork", errno);
	}
	write_number(PROCESSES, "-", getpid());

	/* TODO 3: take what is pending without waiting; count our own forks only */

	printf("forks=%ld relay=%ld (lost %ld) sigusr1=%ld (lost %ld)\n",
	       forks, relayed, forks - relayed, usr1, forks - usr1);
}

int main(int argc, char **argv)
{
	long count = -1, forks = 0;
	int opt, sig = 0;

	while ((opt = getopt(argc, argv, "c:n:s:")) != -1) {
		switch (opt) {
		case 'c':
			forks = strtol(optarg, NULL, 10);
			break;
		case 'n':
			count = strtol(optarg, NULL, 10);
			break;
		case 's':
			sig = strtol(optarg, NULL, 10);
			break;
		default:
			fprintf(stderr, "usage: relayfork-listen [-s SIGNAL] [-n COUNT | -c FORKS]\n");
			return 2;
		}
	}
	if (access(PROCESSES, W_OK))
		die(PROCESSES " (is relay_fork.ko loaded? are you root?)", errno);
	sig = choose_signal(sig);
	if (forks > 0)
		storm(sig, forks);
	else
		listen_forks(sig, count);
	return 0;
}
