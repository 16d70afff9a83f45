// SPDX-License-Identifier: GPL-2.0
/*
 * run-tests.c - run a lab's graded test programs in the guest.
 *
 *   run-tests CONF
 *
 * CONF lists the tests as "BINARY TEST POINTS TIMEOUT" (see a lab's
 * tests.conf).  Each BINARY, a kselftest_harness program in /lab/tests,
 * runs once, within the sum of its tests' TIMEOUTs.  Its output goes to
 * /dev/ttyS1, the results line that QEMU writes to a host file, never to
 * the console where printk output interleaves.  Each line is prefixed with
 * the milliseconds since start, "[ms] ", so the host can time the tests,
 * and with the run's token, which the host made and put in /lab/token:
 * the host ignores lines without it, so kernel code under test that writes
 * to the port itself cannot forge a verdict unless it finds the token.
 * Last, if CONF grades the kernel's health, kmemleak is asked for leaks;
 * the host ignores those allocated before "# start uptime SECONDS", which
 * saves clearing kmemleak's boot suspects first.  "# done" closes them.
 * With /lab/failfast (FAILFAST=1 on the host: mutation runs), the run
 * stops at the first failing test, says so, and skips kmemleak.  With
 * /lab/profile (make profile-labN), the tests say what each module load
 * and unload took (LABTEST_PROFILE, common/guest/labtest.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

#define RESULTS_TTY	"/dev/ttyS1"
#define TOKEN_FILE	"/lab/token"
#define FAILFAST_FILE	"/lab/failfast"
#define PROFILE_FILE	"/lab/profile"
#define KMEMLEAK	"/sys/kernel/debug/kmemleak"
/*
 * kmemleak (mm/kmemleak.c) reports no object younger than this, nor one
 * whose contents changed since the previous scan; a first scan always sees
 * a change.  Hence the wait and the two scans below.
 */
#define KMEMLEAK_MIN_AGE_S	5
#define MAX_BINARIES	32

static FILE *results;
static struct timespec t0;
static char token[64];
static int failfast, stopped;

static long elapsed_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000;
}

static void __attribute__((format(printf, 1, 2))) report(const char *fmt, ...)
{
	va_list ap;

	fprintf(results, "[%ld] %s%s", elapsed_ms(), token, token[0] ? " " : "");
	va_start(ap, fmt);
	vfprintf(results, fmt, ap);
	va_end(ap);
	fputc('\n', results);
	fflush(results);
}

/*
 * Relay @fd's output line by line until EOF or @deadline_ms; 0, -1 at
 * timeout, 1 after a failed test's TAP line when failing fast.
 */
static int relay(int fd, long deadline_ms)
{
	char buf[4096];
	size_t len = 0;

	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		long left = deadline_ms - elapsed_ms();
		char *nl;
		ssize_t n;

		if (left <= 0)
			return -1;
		if (poll(&pfd, 1, left) <= 0)
			continue;
		n = read(fd, buf + len, sizeof(buf) - 1 - len);
		if (n <= 0) {
			if (len) {
				buf[len] = '\0';
				report("%s", buf);
			}
			return 0;
		}
		len += n;
		buf[len] = '\0';
		while ((nl = strchr(buf, '\n')) || len == sizeof(buf) - 1) {
			size_t line = nl ? (size_t)(nl - buf) : len;

			buf[line] = '\0';
			report("%s", buf);
			if (failfast && !strncmp(buf, "not ok ", 7))
				return 1;
			line += nl ? 1 : 0;
			memmove(buf, buf + line, len - line + 1);
			len -= line;
		}
	}
}

static void run_binary(const char *name, int budget_s)
{
	char path[256];
	int pipefd[2], status;
	pid_t pid;

	snprintf(path, sizeof(path), "/lab/tests/%s", name);
	report("# binary %s budget %d s", name, budget_s);
	if (pipe(pipefd)) {
		report("# error %s: pipe: %s", name, strerror(errno));
		return;
	}
	pid = fork();
	if (pid == 0) {
		setpgid(0, 0);
		dup2(pipefd[1], 1);
		dup2(pipefd[1], 2);
		close(pipefd[0]);
		close(pipefd[1]);
		execl(path, name, (char *)NULL);
		printf("# cannot run %s: %s\n", path, strerror(errno));
		_exit(127);
	}
	close(pipefd[1]);
	switch (relay(pipefd[0], elapsed_ms() + budget_s * 1000L)) {
	case 0:
		break;
	case 1:
		kill(-pid, SIGKILL);
		kill(pid, SIGKILL);
		report("# failfast: stopped at the first failing test");
		stopped = 1;
		break;
	default:
		kill(-pid, SIGKILL);
		kill(pid, SIGKILL);
		report("# timeout %s after %d s", name, budget_s);
	}
	close(pipefd[0]);
	waitpid(pid, &status, 0);
	report("# exit %s %d", name,
	       WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
}

static void kmemleak_report(void)
{
	char line[512];
	FILE *f;
	int fd;

	fd = open(KMEMLEAK, O_WRONLY);
	if (fd < 0)
		return;
	report("# health: kmemleak: %d s for the last objects to age", KMEMLEAK_MIN_AGE_S);
	sleep(KMEMLEAK_MIN_AGE_S);
	report("# health: kmemleak: two scans");
	if (write(fd, "scan", 4) != 4 || write(fd, "scan", 4) != 4)
		report("# kmemleak: scan failed: %s", strerror(errno));
	close(fd);
	report("# health: kmemleak: scanned");
	f = fopen(KMEMLEAK, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		report("# kmemleak: %s", line);
	}
	fclose(f);
}

/* The first field of /proc/uptime: seconds since boot, as text. */
static const char *uptime(void)
{
	static char text[32] = "0";
	FILE *f = fopen("/proc/uptime", "r");

	if (f) {
		if (fscanf(f, "%31s", text) != 1)
			strcpy(text, "0");
		fclose(f);
	}
	return text;
}

int main(int argc, char *argv[])
{
	char names[MAX_BINARIES][64], line[256], bin[64];
	int budgets[MAX_BINARIES] = { 0 };
	int n = 0, i, timeout, health = 0;
	FILE *conf;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (argc != 2) {
		fprintf(stderr, "usage: run-tests CONF\n");
		return 2;
	}
	results = fopen(RESULTS_TTY, "w");
	if (!results) {
		perror("run-tests: " RESULTS_TTY);
		return 1;
	}
	conf = fopen(TOKEN_FILE, "r");
	if (conf) {
		if (fscanf(conf, "%63s", token) != 1)
			token[0] = '\0';
		fclose(conf);
	}
	conf = fopen(argv[1], "r");
	if (!conf) {
		report("# error %s: %s", argv[1], strerror(errno));
		return 1;
	}
	/* The test programs run only the tests the configuration lists. */
	setenv("LABTEST_CONF", argv[1], 1);
	while (fgets(line, sizeof(line), conf)) {
		if (!strncmp(line, "health", 6))
			health = 1;
		if (sscanf(line, "%63s %*s %*d %d", bin, &timeout) != 2 || bin[0] == '#')
			continue;
		for (i = 0; i < n && strcmp(names[i], bin); i++)
			;
		if (i == n) {
			if (n == MAX_BINARIES)
				break;
			strcpy(names[n++], bin);
		}
		budgets[i] += timeout;
	}
	fclose(conf);

	failfast = access(FAILFAST_FILE, F_OK) == 0;
	if (access(PROFILE_FILE, F_OK) == 0)
		setenv("LABTEST_PROFILE", "1", 1);
	report("# start uptime %s", uptime());
	for (i = 0; i < n && !stopped; i++)
		run_binary(names[i], budgets[i]);
	if (health && !stopped)
		kmemleak_report();
	report("# done");
	fclose(results);
	return 0;
}
