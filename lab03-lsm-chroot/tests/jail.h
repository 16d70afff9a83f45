/* SPDX-License-Identifier: GPL-2.0 */
/*
 * jail.h - the jail the chrootjail tests of labs 03 and 04 enter.
 *
 * JAIL is the same directory every time (one jail): a busybox, a file, a
 * /dev/null (busybox sh opens it for each background job, as a shell in any
 * real jail would), and a tmpfs mounted on JAIL/tmp.  OUTSIDE is a file
 * next to the jail, on the same filesystem, that no jailed process may reach.
 */
#ifndef JAIL_H
#define JAIL_H

#include "labtest.h"

#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>

#define JAIL		"/jail"
#define OUTSIDE		"/outside-secret"
#define SECFS		"/sys/kernel/security/chrootjail/"
#define ENFORCE		SECFS "enforce"
#define DENIALS		SECFS "denials"

/* The result of @call in errno terms: 0 on success, else errno. */
#define ERRNO_OF(call)	((call) < 0 ? errno : 0)

/* Create or truncate @path with @text; 0 or -1. */
static inline int put_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	int ok;

	if (fd < 0)
		return -1;
	ok = write(fd, text, strlen(text)) == (ssize_t)strlen(text);
	return close(fd) || !ok ? -1 : 0;
}

/* The jail's contents; each test's process sets them up again, idempotently. */
static inline int make_jail(void)
{
	struct stat jail, tmp;

	if ((mkdir(JAIL, 0755) && errno != EEXIST) ||
	    (mkdir(JAIL "/bin", 0755) && errno != EEXIST) ||
	    (mkdir(JAIL "/tmp", 0755) && errno != EEXIST) ||
	    (mkdir(JAIL "/dev", 0755) && errno != EEXIST) ||
	    (mknod(JAIL "/dev/null", S_IFCHR | 0666, makedev(1, 3)) && errno != EEXIST) ||
	    (link("/bin/busybox", JAIL "/bin/busybox") && errno != EEXIST) ||
	    put_file(JAIL "/inside", "inside\n") || put_file(OUTSIDE, "outside\n") ||
	    chmod(OUTSIDE, 0644))
		return -1;
	if (stat(JAIL, &jail) || stat(JAIL "/tmp", &tmp))
		return -1;
	if (jail.st_dev == tmp.st_dev && mount("tmpfs", JAIL "/tmp", "tmpfs", 0, NULL))
		return -1;
	return 0;
}

/* Enter the jail: chroot() then chdir("/"), as busybox chroot does; 0 or -1. */
static inline int jail_self(void)
{
	return chroot(JAIL) || chdir("/") ? -1 : 0;
}

/* Run @fn in a child; its exit status, or -1 if it did not exit. */
static inline int in_child(int (*fn)(void *), void *arg)
{
	int status;
	pid_t pid = fork();

	if (pid == 0)
		_exit(fn(arg));
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/*
 * The count of rule @name in the denials file, or -1.  The file is read
 * through a descriptor opened at the first call, before the test jails
 * itself: from inside the jail, securityfs cannot be reached.
 */
static inline long denials_of(const char *name)
{
	static int fd = -1;
	char buf[1024], *p = buf;
	size_t n = strlen(name);
	ssize_t len;

	if (fd < 0)
		fd = open(DENIALS, O_RDONLY | O_CLOEXEC);
	len = fd < 0 ? -1 : pread(fd, buf, sizeof(buf) - 1, 0);
	if (len <= 0)
		return -1;
	buf[len] = '\0';
	for (; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, name, n) && p[n] == ' ')
			return strtol(p + n + 1, NULL, 10);
	return -1;
}

#endif /* JAIL_H */
