// SPDX-License-Identifier: GPL-2.0
/*
 * forkbench - create tasks in a loop and report what each one costs
 *
 *   forkbench [-m fork|vfork|thread|clone3] [-n COUNT]
 *
 * Creates exactly COUNT tasks (default 1000) the chosen way; each exits at
 * once and is waited for.  Prints "MODE: COUNT ops, NS ns/op".  Run it with
 * and without a fork hook registered to see what the hook costs a fork.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/sched.h>
#include <sys/syscall.h>
#include <sys/wait.h>

static const char * const modes[] = { "fork", "vfork", "thread", "clone3" };
enum mode { FORK, VFORK, THREAD, CLONE3, NR_MODES };

static void *thread_fn(void *arg)
{
	return arg;
}

/* Create one task the @mode way and wait for it; 0, or -1 (errno says why, if it can). */
static int create_one(enum mode mode)
{
	pthread_t thread;
	pid_t pid = -1;
	int err;

	errno = 0;
	switch (mode) {
	case FORK:
		pid = fork();
		if (pid == 0)
			_exit(0);
		break;
	case VFORK:
		pid = vfork();
		if (pid == 0)
			_exit(0);
		break;
	case THREAD:
		err = pthread_create(&thread, NULL, thread_fn, NULL);
		if (!err)
			err = pthread_join(thread, NULL);
		errno = err;
		return err ? -1 : 0;
	case CLONE3: {
		/* TODO 1: create a child with the clone3() system call; glibc has no wrapper */
		break;
	}
	default:
		errno = EINVAL;
		return -1;
	}
	if (pid < 0)
		return -1;
	return waitpid(pid, NULL, 0) == pid ? 0 : -1;
}

/* Nanoseconds on a clock that never jumps. */
static long long now_ns(void)
{
	struct timespec ts = { 0, 0 };

	/* TODO 2: read CLOCK_MONOTONIC into ts */

	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void usage(void)
{
	fprintf(stderr, "usage: forkbench [-m fork|vfork|thread|clone3] [-n COUNT]\n");
	exit(2);
}

int main(int argc, char *argv[])
{
	enum mode mode = FORK;
	long count = 1000, i;
	long long start;
	char *end;
	int opt;

	while ((opt = getopt(argc, argv, "m:n:")) != -1) {
		switch (opt) {
		case 'm':
			for (mode = 0; mode < NR_MODES; mode++)
				if (!strcmp(optarg, modes[mode]))
					break;
			if (mode == NR_MODES) {
				fprintf(stderr, "forkbench: unknown mode '%s'\n", optarg);
				usage();
			}
			break;
		case 'n':
			errno = 0;
			count = strtol(optarg, &end, 10);
			if (errno || *end || count < 1) {
				fprintf(stderr, "forkbench: bad COUNT '%s'\n", optarg);
				usage();
			}
			break;
		default:
			usage();
		}
	}
	if (optind != argc)
		usage();

	start = now_ns();
	for (i = 0; i < count; i++) {
		if (create_one(mode)) {
			fprintf(stderr, "forkbench: %s number %ld failed: %s\n", modes[mode],
				i + 1, errno ? strerror(errno) : "no task was created");
			return 1;
		}
	}
	printf("%s: %ld ops, %lld ns/op\n", modes[mode], count, (now_ns() - start) / count);
	return 0;
}
