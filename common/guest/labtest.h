/* SPDX-License-Identifier: GPL-2.0 */
/*
 * labtest.h - the kernel's kselftest harness, plus helpers the course's
 * guest tests share.  Tests print TAP on stdout, which the guest's
 * run-tests relays to the host over a serial line of its own.
 */
#ifndef LABTEST_H
#define LABTEST_H

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "kselftest_harness.h"

/* Line-buffered stdout, so that each TAP line leaves when it is written. */
static void __attribute__((constructor)) labtest_line_buffered(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
}

/* Write @text to @path; 0 or -errno. */
static inline int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;
	int err;

	if (fd < 0)
		return -errno;
	n = write(fd, text, strlen(text));
	err = n < 0 ? -errno : 0;
	close(fd);
	return err;
}

/* Read @path into @buf (NUL-terminated); bytes read or -errno. */
static inline ssize_t read_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	if (n < 0)
		n = -errno;
	else
		buf[n] = '\0';
	close(fd);
	return n;
}

/* The number in @path, or LONG_MIN if it cannot be read. */
static inline long read_long(const char *path)
{
	char buf[64];

	if (read_file(path, buf, sizeof(buf)) <= 0)
		return -__LONG_MAX__ - 1;
	return strtol(buf, NULL, 0);
}

/*
 * make profile-labN (LABTEST_PROFILE in the environment): what a module
 * load or unload took, as a TAP comment; an unload's includes its wait for
 * the module's kobjects (CONFIG_DEBUG_KOBJECT_RELEASE delays each release).
 */
static inline void profile_module(const char *what, const char *name, const struct timespec *t0)
{
	struct timespec t;

	if (!getenv("LABTEST_PROFILE"))
		return;
	clock_gettime(CLOCK_MONOTONIC, &t);
	printf("# profile: module %s %s %ld ms\n", what, name,
	       (t.tv_sec - t0->tv_sec) * 1000 + (t.tv_nsec - t0->tv_nsec) / 1000000);
}

/* Load the module at @path; 0 (also if already loaded) or -errno. */
static inline int load_module(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct timespec t0;
	int err = 0;

	if (fd < 0)
		return -errno;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (syscall(SYS_finit_module, fd, "", 0) && errno != EEXIST)
		err = -errno;
	profile_module("load", path, &t0);
	close(fd);
	return err;
}

/* Unload module @name; 0 or -errno. */
static inline int unload_module(const char *name)
{
	struct timespec t0;
	int err;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	err = syscall(SYS_delete_module, name, O_NONBLOCK) ? -errno : 0;
	profile_module("unload", name, &t0);
	return err;
}

/* Create one task (fork, vfork, thread), wait for it: its pid or tid, or -1. */
static inline pid_t fork_and_reap(void)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(0);
	if (pid > 0 && waitpid(pid, NULL, 0) != pid)
		return -1;
	return pid;
}

static inline pid_t vfork_and_reap(void)
{
	pid_t pid = vfork();

	if (pid == 0)
		_exit(0);
	if (pid > 0 && waitpid(pid, NULL, 0) != pid)
		return -1;
	return pid;
}

static inline void *thread_fn(void *arg)
{
	*(pid_t *)arg = gettid();
	return NULL;
}

static inline pid_t thread_and_join(void)
{
	pthread_t thread;
	pid_t tid = -1;

	if (pthread_create(&thread, NULL, thread_fn, &tid) || pthread_join(thread, NULL))
		return -1;
	return tid;
}

/* One fork_and_reap(), in burst_child()'s terms: 0 or -1. */
static inline int fork_once(void *unused)
{
	return fork_and_reap() > 0 ? 0 : -1;
}

/*
 * A child that calls @fn(@arg) @n times for each byte written to *@go, and
 * exits at EOF (also when its parent dies): work in bursts, each set off
 * just before what it is to race.  Its pid, or -1.
 */
static inline pid_t burst_child(int *go, int (*fn)(void *), void *arg, int n)
{
	int p[2], i;
	char c;
	pid_t pid;

	if (pipe(p))
		return -1;
	pid = fork();
	if (pid == 0) {
		close(p[1]);
		while (read(p[0], &c, 1) == 1)
			for (i = 0; i < n; i++)
				fn(arg);
		_exit(0);
	}
	close(p[0]);
	*go = p[1];
	return pid;
}

/* Run @argv with its stdout on a pipe; the read end, or -1. */
static inline int spawn(char *const argv[], pid_t *pid)
{
	int out[2];

	if (pipe(out))
		return -1;
	*pid = fork();
	if (*pid < 0)
		return -1;
	if (*pid == 0) {
		dup2(out[1], 1);
		execv(argv[0], argv);
		_exit(127);
	}
	close(out[1]);
	return out[0];
}

/* One line from @fd into @buf, waiting at most @ms for each byte; 0 or -1. */
static inline int read_line_within(int fd, char *buf, size_t size, int ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	size_t n = 0;

	while (n < size - 1) {
		if (poll(&pfd, 1, ms) != 1 || read(fd, buf + n, 1) != 1)
			return -1;
		if (buf[n++] == '\n')
			break;
	}
	buf[n] = '\0';
	return 0;
}

/* One line from @fd, waiting at most 10 s for each byte; 0 or -1. */
static inline int read_line(int fd, char *buf, size_t size)
{
	return read_line_within(fd, buf, size, 10000);
}

/*
 * Keep only the tests that $LABTEST_CONF (the lab's tests.conf, as staged)
 * lists for @prog, so that a configuration cut down to a few tests runs
 * just those.  With no configuration, or none naming @prog, run them all.
 * @prog is the BINARY as tests.conf names it (run-tests passes it as
 * argv[0]; "LAB/NAME" for another lab's tests), or its path in /lab/tests.
 */
static inline void labtest_select(const char *prog)
{
	const char *path = getenv("LABTEST_CONF"), *base = strstr(prog, "/lab/tests/");
	char line[256], bin[64], name[128], full[256];
	struct __fixture_metadata *f;
	struct __test_metadata *t, *keep[256];
	int listed = 0, n, i;
	FILE *conf;

	conf = path ? fopen(path, "r") : NULL;
	if (!conf)
		return;
	base = base ? base + strlen("/lab/tests/") : prog;
	while (fgets(line, sizeof(line), conf))
		if (sscanf(line, "%63s %127s", bin, name) == 2 && !strcmp(bin, base))
			listed = 1;
	if (!listed) {
		fclose(conf);
		return;
	}
	for (f = __fixture_list; f; f = f->next) {
		n = 0;
		for (t = f->tests; t && n < 256; t = t->next) {
			snprintf(full, sizeof(full), "%s.%s", f->name, t->name);
			rewind(conf);
			while (fgets(line, sizeof(line), conf))
				if (sscanf(line, "%63s %127s", bin, name) == 2 &&
				    !strcmp(bin, base) && !strcmp(name, full)) {
					keep[n++] = t;
					break;
				}
		}
		/* the harness's list: next runs forward to NULL, head->prev is the tail */
		f->tests = n ? keep[0] : NULL;
		for (i = 0; i < n; i++) {
			keep[i]->prev = keep[i ? i - 1 : n - 1];
			keep[i]->next = i + 1 < n ? keep[i + 1] : NULL;
		}
	}
	fclose(conf);
}

#undef TEST_HARNESS_MAIN
#define TEST_HARNESS_MAIN \
	int main(int argc, char **argv) \
	{ \
		labtest_select(argv[0]); \
		return test_harness_run(argc, argv); \
	}

#endif /* LABTEST_H */
