// SPDX-License-Identifier: GPL-2.0
/*
 * suidplant - try every way a jailed root could end up with a set-id program.
 *
 *   suidplant
 *
 * Run as root.  It builds a jail in WORKDIR/jail holding a program, a
 * set-user-ID program and one set-group-ID to a user's group, as an
 * administrator might leave them, and puts a set-user-ID program next to
 * the jail, outside.  For each way, a child
 * enters the jail as busybox chroot does and tries; the result is judged by
 * the file it leaves, not by the call's return:
 *
 *   WAY PLANTED the file and its mode     or    WAY REFUSED why
 *
 * A file is set-id if it is set-user-ID, or set-group-ID with group execute
 * (or a set-group-ID directory).  Then it prints the chmod log lines of its
 * children, from /sys/kernel/security/chrootjail/chmod_log.  Exit status: 0
 * if every way was refused, 1 if one planted, 2 if the jail could not be made.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <linux/capability.h>

#define WORKDIR		"/tmp/suidplant"
#define JAIL		WORKDIR "/jail"
#define OUTSIDE_SUID	"outside-suid"		/* in WORKDIR */
#define CHMOD_LOG	"/sys/kernel/security/chrootjail/chmod_log"

static int outside_dir = -1;	/* WORKDIR, opened before any chroot */

static int is_setid(const struct stat *st)
{
	if (S_ISDIR(st->st_mode))	/* set-group-ID: a shared group's, ordinary */
		return !!(st->st_mode & S_ISUID);
	return (st->st_mode & S_ISUID) ||
	       (st->st_mode & (S_ISGID | S_IXGRP)) == (S_ISGID | S_IXGRP);
}

/* The verdict on @path, which @call (returning @rc) was to make set-id. */
static int judge(const char *way, const char *call, int rc, const char *path)
{
	int err = errno;
	struct stat st;

	if (!stat(path, &st) && is_setid(&st)) {
		printf("%-8s PLANTED %s is %04o after %s\n", way, path,
		       (unsigned int)st.st_mode & 07777, call);
		return 1;
	}
	if (rc < 0)
		printf("%-8s REFUSED %s: %s\n", way, call, strerror(err));
	else
		printf("%-8s REFUSED %s succeeded, but the kernel dropped the set-id bits\n",
		       way, call);
	return 0;
}

static int try_chmod(void)
{
	return judge("chmod", "chmod(\"/prog\", 04755)", chmod("/prog", 04755), "/prog");
}

static int try_fchmod(void)
{
	int fd = open("/prog", O_RDONLY);

	return judge("fchmod", "fchmod(fd, 02755)", fd < 0 ? fd : fchmod(fd, 02755), "/prog");
}

static int try_fchmodat(void)
{
	return judge("fchmodat", "fchmodat(AT_FDCWD, \"prog\", 06755)",
		     fchmodat(AT_FDCWD, "prog", 06755, 0), "/prog");
}

static int try_creat(void)
{
	return judge("creat", "creat(\"/made\", 04755)", creat("/made", 04755), "/made");
}

static int try_open(void)
{
	return judge("open", "open(\"/made\", O_CREAT, 02775)",
		     open("/made", O_WRONLY | O_CREAT | O_EXCL, 02775), "/made");
}

static int try_mknod(void)
{
	return judge("mknod", "mknod(\"/made\", S_IFREG | 04755)",
		     mknod("/made", S_IFREG | 04755, 0), "/made");
}

static int try_mkdir(void)
{
	return judge("mkdir", "mkdir(\"/made\", 04755)", mkdir("/made", 04755), "/made");
}

/* the set-user-ID program outside, through a directory fd kept from before */
static int try_rename(void)
{
	return judge("rename", "renameat(outside, \"" OUTSIDE_SUID "\", \"/made\")",
		     renameat(outside_dir, OUTSIDE_SUID, AT_FDCWD, "/made"), "/made");
}

static int try_link(void)
{
	return judge("link", "linkat(outside, \"" OUTSIDE_SUID "\", \"/made\")",
		     linkat(outside_dir, OUTSIDE_SUID, AT_FDCWD, "/made", 0), "/made");
}

/* a file made with no name, set-user-ID, then linked in */
static int try_tmpfile(void)
{
	int fd = open("/", O_TMPFILE | O_WRONLY, 04755);

	if (fd >= 0 && linkat(fd, "", AT_FDCWD, "/made", AT_EMPTY_PATH))
		fd = -1;
	return judge("tmpfile", "open(O_TMPFILE, 04755), linkat()", fd, "/made");
}

/* rewrite the set-user-ID program through a shared mapping: no write() to strip the bit */
static int try_rewrite(void)
{
	int fd = open("/suid", O_RDWR);
	struct stat st;
	char *map;

	if (fd < 0 || fstat(fd, &st))
		return judge("rewrite", "open(\"/suid\", O_RDWR)", -1, "/nothing");
	map = mmap(NULL, st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		return judge("rewrite", "mmap(\"/suid\")", -1, "/nothing");
	memcpy(map, "#!/bin/sh\nsh\n", 13);
	munmap(map, st.st_size);
	return judge("rewrite", "open(\"/suid\", O_RDWR) and a shared mapping", 0, "/suid");
}

/* a set-group-ID program given to group root: 6.1 itself drops the bit (g+x) */
static int try_chown(void)
{
	struct stat st;
	int rc = chown("/sgid", -1, 0);

	if (!rc && !stat("/sgid", &st) && st.st_gid == 0)
		return judge("chown", "chown(\"/sgid\", -1, 0)", rc, "/sgid");
	return judge("chown", "chown(\"/sgid\", -1, 0)", -1, "/nothing");
}

/* file capabilities: a program that gets CAP_SETUID when run */
static int try_setcap(void)
{
	struct {
		unsigned int magic_etc;
		struct { unsigned int permitted, inheritable; } data[2];
	} caps = { VFS_CAP_REVISION_2 | VFS_CAP_FLAGS_EFFECTIVE, { { 1U << CAP_SETUID, 0 } } };
	int rc = setxattr("/prog", "security.capability", &caps, sizeof(caps), 0);

	if (!rc) {
		printf("%-8s PLANTED /prog has file capabilities (CAP_SETUID)\n", "setcap");
		return 1;
	}
	return judge("setcap", "setxattr(\"/prog\", \"security.capability\")", rc, "/nothing");
}

static const struct way {
	const char *name;
	int (*try)(void);
} ways[] = {
	{ "chmod", try_chmod },
	{ "fchmod", try_fchmod },
	{ "fchmodat", try_fchmodat },
	{ "creat", try_creat },
	{ "open", try_open },
	{ "mknod", try_mknod },
	{ "mkdir", try_mkdir },
	{ "rename", try_rename },
	{ "link", try_link },
	{ "tmpfile", try_tmpfile },
	{ "rewrite", try_rewrite },
	{ "chown", try_chown },
	{ "setcap", try_setcap },
};

static int put_program(const char *path, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0700);
	static const char text[] = "#!/bin/sh\nid\n";
	int ok;

	if (fd < 0)
		return -1;
	ok = write(fd, text, sizeof(text) - 1) == sizeof(text) - 1;
	if (close(fd) || !ok)
		return -1;
	return chmod(path, mode);
}

/* Before each way: the jail's program plain, nothing made, the outside program there. */
static int reset(void)
{
	unlink(JAIL "/made");
	rmdir(JAIL "/made");
	return put_program(JAIL "/prog", 0755) || (removexattr(JAIL "/prog", "security.capability") && errno != ENODATA) ||
	       put_program(JAIL "/suid", 04755) ||
	       put_program(JAIL "/sgid", 02755) || chown(JAIL "/sgid", 1000, 1000) ||
	       chmod(JAIL "/sgid", 02755) ||
	       put_program(WORKDIR "/" OUTSIDE_SUID, 04755) ? -1 : 0;
}

/* The chmod log's lines of our children, or why there are none. */
static void print_log(void)
{
	FILE *f = fopen(CHMOD_LOG, "r");
	char line[512];

	if (!f) {
		printf("no chmod log: %s: %s\n", CHMOD_LOG, strerror(errno));
		return;
	}
	printf("the chmod log, %s: this program's lines\n", CHMOD_LOG);
	while (fgets(line, sizeof(line), f))
		if (strstr(line, " comm=suidplant "))
			fputs(line, stdout);
	fclose(f);
}

int main(void)
{
	int n = sizeof(ways) / sizeof(ways[0]), planted = 0, i, status;

	if (geteuid()) {
		fprintf(stderr, "suidplant: run me as root: chroot() needs CAP_SYS_CHROOT\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	umask(0);
	if ((mkdir(WORKDIR, 0755) && errno != EEXIST) || (mkdir(JAIL, 0755) && errno != EEXIST)) {
		perror("suidplant: " JAIL);
		return 2;
	}
	outside_dir = open(WORKDIR, O_PATH | O_DIRECTORY);
	if (outside_dir < 0) {
		perror("suidplant: " WORKDIR);
		return 2;
	}
	for (i = 0; i < n; i++) {
		pid_t pid;

		if (reset()) {
			perror("suidplant: resetting the files");
			return 2;
		}
		pid = fork();
		if (pid == 0) {
			if (chroot(JAIL) || chdir("/")) {
				perror("suidplant: cannot enter " JAIL);
				_exit(2);
			}
			_exit(ways[i].try());
		}
		if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status) > 1) {
			printf("%-8s FAILED to run\n", ways[i].name);
			return 2;
		}
		planted += WEXITSTATUS(status);
	}
	printf("%d of %d ways refused\n", n - planted, n);
	print_log();
	return planted ? 1 : 0;
}
