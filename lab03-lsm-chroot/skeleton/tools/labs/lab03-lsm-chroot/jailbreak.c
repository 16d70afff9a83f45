// SPDX-License-Identifier: GPL-2.0
/*
 * jailbreak - try the classic ways out of a chroot() jail, as root.
 *
 *   jailbreak
 *
 * It builds a jail in WORKDIR/jail, puts a secret in WORKDIR, next to the
 * jail on the same filesystem, and starts a process outside the jail.  Then,
 * for each breakout, a child enters the jail the way busybox chroot does
 * (chroot(), chdir("/")) and tries; it prints
 *
 *   NAME ESCAPED what it reached        or    NAME BLOCKED the refusal
 *
 * ESCAPED means it read the secret, or did what a jail exists to prevent:
 * changed the mounts, made a device node, traced or signalled the process
 * outside.  Everything happens in a mount namespace of its own, so whatever
 * gets through is undone when jailbreak exits.  Exit status: 0 if every
 * breakout was blocked, 1 if one escaped, 2 if the jail could not be built.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>

#define WORKDIR	"/tmp/jailbreak"
#define JAIL	WORKDIR "/jail"
#define SECRET	WORKDIR "/secret"

static int outside_dir = -1;	/* WORKDIR, opened before any chroot */
static pid_t outside_pid;	/* a process outside the jail */

/* A breakout's verdict: one line, and the exit status of the child. */
static int escaped(const char *name, const char *what)
{
	printf("%-10s ESCAPED %s\n", name, what);
	return 1;
}

static int blocked(const char *name, const char *call)
{
	printf("%-10s BLOCKED %s: %s\n", name, call, strerror(errno));
	return 0;
}

/* Read SECRET through @fd; whether it was there. */
static int got_secret(int fd)
{
	char buf[16] = "";

	if (fd < 0 || read(fd, buf, sizeof(buf) - 1) <= 0)
		return 0;
	close(fd);
	return !strncmp(buf, "secret", 6);
}

/* mkdir d; chroot d; cd ../../..; chroot . -- the cwd stays outside the new root. */
static int try_chroot(void)
{
	int i;

	if (mkdir("d", 0755) && errno != EEXIST)
		return blocked("chroot", "mkdir(\"d\")");
	if (chroot("d"))
		return blocked("chroot", "chroot(\"d\")");
	for (i = 0; i < 16; i++)
		if (chdir(".."))
			return blocked("chroot", "chdir(\"..\")");
	if (chroot("."))
		return blocked("chroot", "chroot(\".\")");
	if (!got_secret(open(SECRET, O_RDONLY)))
		return blocked("chroot", "open(" SECRET ")");
	return escaped("chroot", "read " SECRET " after chroot(\"d\"), cd .. x16, chroot(\".\")");
}

/* fchdir() to a directory opened before the chroot, then up and chroot(".") */
static int try_fchdir(void)
{
	int i;

	if (fchdir(outside_dir))
		return blocked("fchdir", "fchdir(outside)");
	for (i = 0; i < 16; i++)
		if (chdir(".."))
			return blocked("fchdir", "chdir(\"..\")");
	if (chroot("."))
		return blocked("fchdir", "chroot(\".\")");
	if (!got_secret(open(SECRET, O_RDONLY)))
		return blocked("fchdir", "open(" SECRET ")");
	return escaped("fchdir", "read " SECRET " after fchdir(outside), cd .. x16, chroot(\".\")");
}

/* openat() relative to a directory opened before the chroot */
static int try_openat(void)
{
	int fd = openat(outside_dir, "secret", O_RDONLY);

	if (fd < 0)
		return blocked("openat", "openat(outside, \"secret\")");
	if (!got_secret(fd))
		return blocked("openat", "read(secret)");
	return escaped("openat", "read the secret through openat(outside, \"secret\")");
}

/* a device node gives the jailed root the raw device: here /dev/null's numbers */
static int try_mknod(void)
{
	unlink("/null");
	if (mknod("/null", S_IFCHR | 0600, makedev(1, 3)))
		return blocked("mknod", "mknod(\"/null\", S_IFCHR, 1:3)");
	return escaped("mknod", "made a character device node, 1:3");
}

/* ptrace a process outside: its memory, registers, and so its privileges */
static int try_ptrace(void)
{
	if (ptrace(PTRACE_ATTACH, outside_pid, NULL, NULL))
		return blocked("ptrace", "ptrace(PTRACE_ATTACH, outside)");
	waitpid(outside_pid, NULL, __WALL);
	ptrace(PTRACE_DETACH, outside_pid, NULL, NULL);
	return escaped("ptrace", "attached to the process outside");
}

/* a signal outside: SIGURG, which that process ignores, stands for SIGKILL */
static int try_signal(void)
{
	if (kill(outside_pid, SIGURG))
		return blocked("signal", "kill(outside, SIGURG)");
	return escaped("signal", "signalled the process outside");
}

/* mount proc, then reach init's root through /proc/1/root */
static int try_mount(void)
{
	if (mkdir("/proc", 0755) && errno != EEXIST)
		return blocked("mount", "mkdir(\"/proc\")");
	if (mount("proc", "/proc", "proc", 0, NULL))
		return blocked("mount", "mount(\"proc\")");
	if (!got_secret(open("/proc/1/root" SECRET, O_RDONLY)))
		return escaped("mount", "mounted proc (/proc/1/root was refused)");
	return escaped("mount", "mounted proc, read /proc/1/root" SECRET);
}

/* pivot_root(): rearrange the mounts from inside; the jail is a mount for this */
static int try_pivot_root(void)
{
	if (chdir("/new"))
		return blocked("pivot_root", "chdir(\"/new\")");
	if (syscall(SYS_pivot_root, ".", "old"))
		return blocked("pivot_root", "pivot_root(\".\", \"old\")");
	return escaped("pivot_root", "moved the jail's root mount aside");
}

static const struct breakout {
	const char *name;
	int (*try)(void);
} breakouts[] = {
	{ "chroot", try_chroot },
	{ "fchdir", try_fchdir },
	{ "openat", try_openat },
	{ "mknod", try_mknod },
	{ "ptrace", try_ptrace },
	{ "signal", try_signal },
	/* these two change the mounts if they get through: last */
	{ "mount", try_mount },
	{ "pivot_root", try_pivot_root },
};

static int put_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	int ok;

	if (fd < 0)
		return -1;
	ok = write(fd, text, strlen(text)) == (ssize_t)strlen(text);
	return close(fd) || !ok ? -1 : 0;
}

/* The jail, a bind mount of itself (pivot_root needs a mount), with a mount at /new. */
static int build(void)
{
	static const char *const dirs[] = { WORKDIR, JAIL, JAIL "/new", JAIL "/new/old" };
	size_t i;

	if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL)) {
		perror("jailbreak: a mount namespace");
		return -1;
	}
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		if (mkdir(dirs[i], 0755) && errno != EEXIST) {
			fprintf(stderr, "jailbreak: mkdir %s: %s\n", dirs[i], strerror(errno));
			return -1;
		}
	}
	if (mount(JAIL, JAIL, NULL, MS_BIND, NULL) ||
	    mount(JAIL "/new", JAIL "/new", NULL, MS_BIND, NULL)) {
		perror("jailbreak: bind mounts");
		return -1;
	}
	if (put_file(SECRET, "secret\n")) {
		perror("jailbreak: " SECRET);
		return -1;
	}
	outside_dir = open(WORKDIR, O_RDONLY | O_DIRECTORY);
	if (outside_dir < 0) {
		perror("jailbreak: " WORKDIR);
		return -1;
	}
	return 0;
}

/* The process outside: it waits for EOF on a pipe, that is, for us to exit. */
static pid_t start_outside(void)
{
	int p[2];
	char c;
	pid_t pid;

	if (pipe(p))
		return -1;
	pid = fork();
	if (pid == 0) {
		signal(SIGURG, SIG_IGN);
		close(p[1]);
		while (read(p[0], &c, 1) > 0)
			;
		_exit(0);
	}
	close(p[0]);
	return pid;
}

int main(void)
{
	int n = sizeof(breakouts) / sizeof(breakouts[0]), out = 0, i, status;

	if (geteuid()) {
		fprintf(stderr, "jailbreak: run me as root: chroot() needs CAP_SYS_CHROOT\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (build())
		return 2;
	outside_pid = start_outside();
	if (outside_pid < 0) {
		perror("jailbreak: fork");
		return 2;
	}
	for (i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid == 0) {
			if (chroot(JAIL) || chdir("/")) {
				perror("jailbreak: cannot enter " JAIL);
				_exit(2);
			}
			_exit(breakouts[i].try());
		}
		if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status) > 1) {
			printf("%-10s FAILED to run\n", breakouts[i].name);
			return 2;
		}
		out += WEXITSTATUS(status);
	}
	printf("%d of %d breakouts blocked\n", n - out, n);
	return out ? 1 : 0;
}
