// SPDX-License-Identifier: GPL-2.0
/*
 * Lab 04 graded tests: no set-id programs made in a jail, and the chmod log.
 *
 * Each test runs in a process of its own and may jail itself, in lab 03's
 * jail (jail.h).  The chmod log is outside the jail, so tests that read it
 * do the chmods in a jailed child and read from outside.
 */
#include "../../lab03-lsm-chroot/tests/jail.h"

#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/xattr.h>
#include <linux/capability.h>

#define CHMOD_LOG	SECFS "chmod_log"
#define LOG_SIZE	64
#define PROG		"/prog"			/* in the jail */
#define SUID_OUTSIDE	"/outside-suid"		/* next to it */
#define SUID_INSIDE	"/suid-prog"		/* in the jail, made outside */
#define SGID_USER	"/sgid-prog"		/* in the jail, set-group-ID to a user's group */

static mode_t mode_of(const char *path)
{
	struct stat st;

	return stat(path, &st) ? (mode_t)-1 : st.st_mode & 07777;
}

/* The log, read at once: its dropped count and its event lines. */
struct log {
	long dropped;
	int lines;
	char line[LOG_SIZE + 1][512];
};

static int read_log(struct log *log)
{
	FILE *f = fopen(CHMOD_LOG, "r");
	char buf[512];

	if (!f)
		return -1;
	log->lines = 0;
	if (!fgets(buf, sizeof(buf), f) || sscanf(buf, "dropped=%ld\n", &log->dropped) != 1) {
		fclose(f);
		return -1;
	}
	while (log->lines <= LOG_SIZE && fgets(buf, sizeof(buf), f)) {
		buf[strcspn(buf, "\n")] = '\0';
		strcpy(log->line[log->lines++], buf);
	}
	fclose(f);
	return 0;
}

/* Lines of @log that start "pid=@pid " */
static int lines_of(const struct log *log, pid_t pid)
{
	char want[32];
	int i, n = 0;

	snprintf(want, sizeof(want), "pid=%d ", pid);
	for (i = 0; i < log->lines; i++)
		n += !strncmp(log->line[i], want, strlen(want));
	return n;
}

/* The length of @line's field @key ("path="), up to the next space; -1 if none */
static int field_len(const char *line, const char *key)
{
	const char *v = strstr(line, key);

	return v ? (int)strcspn(v + strlen(key), " ") : -1;
}

/* Whether @line has the shape of a log line */
static int well_formed(const char *line)
{
	char comm[64], path[300], verdict[16];
	unsigned int old, new;
	int pid, n = 0;

	if (sscanf(line, "pid=%d comm=%63s path=%299s old=%o new=%o verdict=%15s%n",
		   &pid, comm, path, &old, &new, verdict, &n) != 6 || line[n])
		return 0;
	return pid > 0 && path[0] == '/' && old <= 07777 && new <= 07777 &&
	       (!strcmp(verdict, "allowed") || !strcmp(verdict, "refused"));
}

FIXTURE(setid) {
	int unused;
};

FIXTURE_SETUP(setid)
{
	umask(0);
	ASSERT_EQ(0, make_jail()) TH_LOG("cannot set up %s: %s", JAIL, strerror(errno));
	ASSERT_EQ(0, put_file(JAIL PROG, "#!/bin/busybox sh\n"));
	ASSERT_EQ(0, chmod(JAIL PROG, 0755));
	ASSERT_EQ(0, put_file(SUID_OUTSIDE, "#!/bin/busybox sh\n"));
	ASSERT_EQ(0, chmod(SUID_OUTSIDE, 04755));
	ASSERT_EQ(0, put_file(JAIL SUID_INSIDE, "#!/bin/busybox sh\n"));
	ASSERT_EQ(0, chmod(JAIL SUID_INSIDE, 04755));
	ASSERT_EQ(0, put_file(JAIL SGID_USER, "#!/bin/busybox sh\n"));
	ASSERT_EQ(0, chown(JAIL SGID_USER, 1000, 1000));
	ASSERT_EQ(0, chmod(JAIL SGID_USER, 02755));
}

FIXTURE_TEARDOWN(setid)
{
}

TEST_F(setid, chmod_in_jail)
{
	int fd;

	ASSERT_EQ(0, jail_self());
	EXPECT_EQ(EPERM, ERRNO_OF(chmod(PROG, 04755)));
	fd = open(PROG, O_RDONLY);
	ASSERT_LE(0, fd);
	EXPECT_EQ(EPERM, ERRNO_OF(fchmod(fd, 02755)));
	EXPECT_EQ(EPERM, ERRNO_OF(fchmodat(AT_FDCWD, PROG + 1, 06711, 0)));
	EXPECT_EQ(0755, mode_of(PROG)) TH_LOG("a refused chmod changed the mode");
}

static int chmods_in_jail(void *arg)
{
	int fd;

	if (jail_self())
		return 10;
	fd = open(PROG, O_RDONLY);
	if (ERRNO_OF(chmod(PROG, 04755)) != EPERM || ERRNO_OF(fchmod(fd, 02755)) != EPERM)
		return 11;
	return 0;
}

TEST_F(setid, denials_counted)
{
	long before = denials_of("setid");

	ASSERT_LE(0, before) TH_LOG("no \"setid\" line in %s", DENIALS);
	ASSERT_LE(0, denials_of("link")) TH_LOG("no \"link\" line in %s", DENIALS);
	EXPECT_EQ(0, in_child(chmods_in_jail, NULL));
	EXPECT_EQ(before + 2, denials_of("setid"));
}

TEST_F(setid, chmod_outside)
{
	int fd = open(JAIL PROG, O_RDONLY);

	ASSERT_LE(0, fd);
	EXPECT_EQ(0, chmod(JAIL PROG, 04755));
	EXPECT_EQ(04755, mode_of(JAIL PROG));
	EXPECT_EQ(0, fchmod(fd, 02755));
	EXPECT_EQ(02755, mode_of(JAIL PROG));
	EXPECT_EQ(0, fchmodat(AT_FDCWD, JAIL PROG, 06711, 0));
	EXPECT_EQ(06711, mode_of(JAIL PROG));
}

TEST_F(setid, create_in_jail)
{
	ASSERT_EQ(0, jail_self());
	unlink("/c1");
	unlink("/c2");
	unlink("/c3");
	rmdir("/c4");
	rmdir("/c5");
	rmdir("/c6");
	EXPECT_EQ(EPERM, ERRNO_OF(creat("/c1", 04755)));
	EXPECT_EQ(EPERM, ERRNO_OF(open("/c2", O_WRONLY | O_CREAT | O_EXCL, 02775)));
	EXPECT_EQ(EPERM, ERRNO_OF(mknod("/c3", S_IFREG | 04755, 0)));
	/* a directory: set-user-ID asked for is refused (vfs_mkdir() would drop it) */
	EXPECT_EQ(EPERM, ERRNO_OF(mkdir("/c5", 04755)));
	EXPECT_EQ((mode_t)-1, mode_of("/c1")) TH_LOG("made /c1 all the same");
	EXPECT_EQ((mode_t)-1, mode_of("/c2"));
	EXPECT_EQ((mode_t)-1, mode_of("/c3"));
	EXPECT_EQ((mode_t)-1, mode_of("/c5"));
	/* ... set-group-ID is ordinary, a shared group directory's (the kernel masks it here) */
	EXPECT_EQ(0, mkdir("/c6", 02775)) TH_LOG("mkdir 02775: %s", strerror(errno));
	/* the same without set-id bits */
	EXPECT_LE(0, creat("/c1", 0755));
	EXPECT_EQ(0, mknod("/c3", S_IFREG | 0755, 0));
	EXPECT_EQ(0, mkdir("/c4", 0755));
}

TEST_F(setid, create_outside)
{
	unlink(JAIL "/o1");
	unlink(JAIL "/o2");
	unlink(JAIL "/o3");
	rmdir(JAIL "/o4");
	EXPECT_LE(0, creat(JAIL "/o1", 04755));
	EXPECT_EQ(04755, mode_of(JAIL "/o1"));
	EXPECT_LE(0, open(JAIL "/o2", O_WRONLY | O_CREAT | O_EXCL, 02775));
	EXPECT_EQ(02775, mode_of(JAIL "/o2"));
	EXPECT_EQ(0, mknod(JAIL "/o3", S_IFREG | 04755, 0));
	EXPECT_EQ(04755, mode_of(JAIL "/o3"));
	EXPECT_EQ(0, mkdir(JAIL "/o4", 02755));
}

TEST_F(setid, link_rename_in)
{
	int outside = open("/", O_PATH | O_DIRECTORY);

	ASSERT_LE(0, outside);
	ASSERT_EQ(0, jail_self());
	unlink("/stolen");
	EXPECT_EQ(EPERM, ERRNO_OF(linkat(outside, SUID_OUTSIDE + 1, AT_FDCWD, "/stolen", 0)));
	EXPECT_EQ(EPERM, ERRNO_OF(renameat(outside, SUID_OUTSIDE + 1, AT_FDCWD, "/stolen")));
	EXPECT_EQ((mode_t)-1, mode_of("/stolen"));
	EXPECT_EQ(EPERM, ERRNO_OF(renameat(AT_FDCWD, "/inside", outside, "taken-out")));
	/* inside the jail, as before: on its filesystem and on the tmpfs mounted in it */
	EXPECT_EQ(0, link("/inside", "/inside-link"));
	EXPECT_EQ(0, rename("/inside-link", "/inside-moved"));
	EXPECT_EQ(0, unlink("/inside-moved"));
	unlink("/tmp/t1");
	unlink("/tmp/t3");
	ASSERT_EQ(0, put_file("/tmp/t1", "t\n"));
	EXPECT_EQ(0, link("/tmp/t1", "/tmp/t2")) TH_LOG("link on a mount inside the jail");
	EXPECT_EQ(0, rename("/tmp/t2", "/tmp/t3")) TH_LOG("rename on a mount inside the jail");
	EXPECT_EQ(0, rename("/tmp/t3", "/tmp/t1")) TH_LOG("rename over a file");
}

/* In the jail: chmod PROG to each of @arg's modes, as listed; 0 or the step that failed. */
static int chmod_each(void *arg)
{
	const mode_t *mode;

	if (jail_self())
		return 10;
	for (mode = arg; *mode; mode++)
		if (chmod(PROG, *mode) && errno != EPERM)
			return 11;
	return 0;
}

/* The last @n lines of @log, as "old new verdict" of @pid's events, into @out. */
static int tail_of(const struct log *log, pid_t pid, int n, char out[][64])
{
	char want[32], path[300];
	unsigned int old, new;
	char verdict[16];
	int i, k = 0;

	snprintf(want, sizeof(want), "pid=%d comm=setid ", pid);
	for (i = log->lines - n; i < log->lines; i++) {
		if (i < 0 || strncmp(log->line[i], want, strlen(want)) ||
		    sscanf(log->line[i] + strlen(want), "path=%299s old=%o new=%o verdict=%15s",
			   path, &old, &new, verdict) != 4 || strcmp(path, JAIL PROG))
			return -1;
		snprintf(out[k++], 64, "%04o %04o %s", old, new, verdict);
	}
	return 0;
}

static pid_t fork_fn(int (*fn)(void *), void *arg)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(fn(arg));
	return pid;
}

TEST_F(setid, ordinary_chmod_logged)
{
	static const mode_t modes[] = { 0700, 0644, 02644, 04755, 0755, 0 };
	char got[5][64];
	int status;
	pid_t pid;
	struct log *log = malloc(sizeof(*log));

	ASSERT_NE(NULL, log);
	pid = fork_fn(chmod_each, (void *)modes);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_EQ(0, WEXITSTATUS(status)) TH_LOG("a chmod inside the jail failed, not with EPERM");
	EXPECT_EQ(0755, mode_of(JAIL PROG));
	ASSERT_EQ(0, read_log(log)) TH_LOG("cannot read %s", CHMOD_LOG);
	ASSERT_EQ(5, lines_of(log, pid)) TH_LOG("every chmod is logged, allowed or refused");
	ASSERT_EQ(0, tail_of(log, pid, 5, got)) TH_LOG("the last lines: %s", log->line[log->lines - 1]);
	EXPECT_STREQ("0755 0700 allowed", got[0]);
	EXPECT_STREQ("0700 0644 allowed", got[1]);
	EXPECT_STREQ("0644 2644 allowed", got[2]) TH_LOG("set-gid, not group-executable: allowed");
	EXPECT_STREQ("2644 4755 refused", got[3]);
	EXPECT_STREQ("2644 0755 allowed", got[4]);
	free(log);
}

static int chmod_spaced(void *arg)
{
	if (jail_self())
		return 10;
	return ERRNO_OF(chmod("/with space\tand\\", 04755)) == EPERM ? 0 : 11;
}

static int chmod_long(void *arg)
{
	if (jail_self())
		return 10;
	return chmod(arg, 0600) ? 11 : 0;
}

/*
 * A second thread chmods in the jail: *arg gets its id.  Its name has a
 * carriage return and a terminal's escape sequence (erase the line).
 */
static void *thread_chmods(void *arg)
{
	*(pid_t *)arg = syscall(SYS_gettid);
	if (prctl(PR_SET_NAME, "chmod\r\033[Ker"))
		return (void *)(intptr_t)errno;
	return (void *)(intptr_t)(chmod("/with space\tand\\", 0640) ? errno : 0);
}

static int chmod_in_thread(void *arg)
{
	pthread_t t;
	void *err;

	if (jail_self())
		return 10;
	if (pthread_create(&t, NULL, thread_chmods, arg) || pthread_join(t, &err))
		return 11;
	return err ? 12 : 0;
}

/*
 * @fn(@arg) in a child, which must exit 0; then the log's newest line, or
 * a note that there is none.  *@pid: the child.
 */
static const char *newest_after(struct log *log, int (*fn)(void *), void *arg, pid_t *pid)
{
	int status;

	*pid = fork_fn(fn, arg);
	if (waitpid(*pid, &status, 0) != *pid || !WIFEXITED(status) || WEXITSTATUS(status) ||
	    read_log(log) || log->lines < 1)
		return "(no line: the child failed, or the log is unreadable or empty)";
	return log->line[log->lines - 1];
}

TEST_F(setid, log_format)
{
	struct log *log = malloc(sizeof(*log));
	char want[512], name[256], cut[256];
	const char *got;
	pid_t pid, *tid;
	int i;

	ASSERT_NE(NULL, log);
	ASSERT_EQ(0, put_file(JAIL "/with space\tand\\", "x\n"));
	ASSERT_EQ(0, chmod(JAIL "/with space\tand\\", 0644));
	got = newest_after(log, chmod_spaced, NULL, &pid);
	snprintf(want, sizeof(want), "pid=%d comm=setid path=" JAIL
		 "/with\\040space\\011and\\134 old=0644 new=4755 verdict=refused", pid);
	EXPECT_STREQ(want, got);
	for (i = 0; i < log->lines; i++)
		EXPECT_TRUE(well_formed(log->line[i])) TH_LOG("line %d: %s", i + 1, log->line[i]);

	/*
	 * A thread's chmod() is logged with its own id and name, not its
	 * process's; the name's control characters as octal escapes.
	 */
	tid = mmap(NULL, sizeof(*tid), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, tid);
	got = newest_after(log, chmod_in_thread, tid, &pid);
	snprintf(want, sizeof(want), "pid=%d comm=chmod\\015\\033[Ker path=" JAIL
		 "/with\\040space\\011and\\134 old=0644 new=0640 verdict=allowed", *tid);
	EXPECT_STREQ(want, got) TH_LOG("chmod() by thread %d of process %d", *tid, pid);
	munmap(tid, sizeof(*tid));

	/* A path longer than its field is cut at 255 bytes, not dropped. */
	name[0] = '/';
	memset(name + 1, 'l', 254);
	name[255] = '\0';
	snprintf(want, sizeof(want), JAIL "%s", name);
	ASSERT_EQ(0, put_file(want, "x\n"));
	ASSERT_EQ(0, chmod(want, 0644));
	memcpy(cut, want, 255);		/* its first 255 bytes */
	cut[255] = '\0';
	got = newest_after(log, chmod_long, name, &pid);
	snprintf(want, sizeof(want), "pid=%d comm=setid path=%s old=0644 new=0600 verdict=allowed",
		 pid, cut);
	EXPECT_STREQ(want, got)
		TH_LOG("a %zu-byte path, logged as %d bytes, expected 255", strlen(JAIL) + 255,
		       field_len(got, "path="));
	free(log);
}

TEST_F(setid, log_bound_and_drops)
{
	mode_t modes[101];
	char got[LOG_SIZE][64], want[64];
	struct log *before = malloc(sizeof(*before)), *after = malloc(sizeof(*after));
	int status, i;
	pid_t pid;

	ASSERT_NE(NULL, before);
	ASSERT_NE(NULL, after);
	for (i = 0; i < 100; i++)
		modes[i] = 0600 | (i % 64);	/* 0600..0677 */
	modes[100] = 0;
	ASSERT_EQ(0, read_log(before));
	pid = fork_fn(chmod_each, modes);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_EQ(0, WEXITSTATUS(status));
	ASSERT_EQ(0, read_log(after));
	EXPECT_EQ(LOG_SIZE, after->lines) TH_LOG("the log keeps %d events", LOG_SIZE);
	EXPECT_EQ(before->dropped + before->lines + 100 - LOG_SIZE, after->dropped)
		TH_LOG("dropped: %ld before (%d lines), %ld after", before->dropped,
		       before->lines, after->dropped);
	/* the newest 64 are kept, in order */
	ASSERT_EQ(0, tail_of(after, pid, LOG_SIZE, got));
	for (i = 0; i < LOG_SIZE; i++) {
		snprintf(want, sizeof(want), "%04o %04o allowed", modes[36 + i - 1] & 07777,
			 modes[36 + i]);
		EXPECT_STREQ(want, got[i]) TH_LOG("event %d of 100", 37 + i);
	}
	free(before);
	free(after);
}

static int read_as_nobody(void *arg)
{
	if (setuid(65534))
		return 10;
	return ERRNO_OF(open(CHMOD_LOG, O_RDONLY)) == EACCES ? 0 : 11;
}

TEST_F(setid, log_root_only)
{
	struct stat st;

	ASSERT_EQ(0, stat(CHMOD_LOG, &st)) TH_LOG("%s: %s", CHMOD_LOG, strerror(errno));
	EXPECT_EQ(S_IFREG | 0400, st.st_mode);
	EXPECT_EQ(0, in_child(read_as_nobody, NULL)) TH_LOG("uid 65534 opened the log");
}

#define WRITERS	4
#define EACH	50

static int chmod_many(void *arg)
{
	int i;

	if (jail_self())
		return 10;
	for (i = 0; i < EACH; i++)
		if (chmod(PROG, i % 2 ? 0755 : 0700))
			return 11;
	return 0;
}

/* Read and check the log until @fd says stop; 0, or 1 at the first bad line. */
static int read_loop(int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	struct log *log = malloc(sizeof(*log));
	int i, reads = 0;

	while (log && poll(&pfd, 1, 0) == 0) {
		if (read_log(log))
			return 1;
		for (i = 0; i < log->lines; i++)
			if (!well_formed(log->line[i]))
				return 1;
		reads++;
	}
	return reads ? 0 : 1;
}

TEST_F_TIMEOUT(setid, concurrent, 120)
{
	struct log *before = malloc(sizeof(*before)), *after = malloc(sizeof(*after));
	pid_t writers[WRITERS], reader;
	int stop[2], status, i;

	ASSERT_NE(NULL, before);
	ASSERT_NE(NULL, after);
	ASSERT_EQ(0, pipe(stop));
	ASSERT_EQ(0, read_log(before));
	reader = fork();
	if (reader == 0) {
		close(stop[1]);
		_exit(read_loop(stop[0]));
	}
	close(stop[0]);
	for (i = 0; i < WRITERS; i++)
		writers[i] = fork_fn(chmod_many, NULL);
	for (i = 0; i < WRITERS; i++) {
		ASSERT_EQ(writers[i], waitpid(writers[i], &status, 0));
		EXPECT_EQ(0, WEXITSTATUS(status));
	}
	close(stop[1]);
	ASSERT_EQ(reader, waitpid(reader, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status)) TH_LOG("a reader saw a torn or malformed line");
	ASSERT_EQ(0, read_log(after));
	/* every event is in the log or counted as dropped */
	EXPECT_EQ(WRITERS * EACH, (after->lines - before->lines) + (after->dropped - before->dropped));
	EXPECT_EQ(LOG_SIZE, after->lines);
	free(before);
	free(after);
}

/*
 * Every mode that makes a set-user-ID program, or a set-group-ID one its
 * group may execute, is refused, by chmod() and at creation; the others,
 * set-group-ID without group execute (mandatory locking) among them, pass;
 * and so does a set-group-ID directory.
 */
TEST_F(setid, modes_in_jail)
{
	static const mode_t refused[] = {
		04000, 04100, 04111, 04700, 04711, 04755, 06000, 06711, 06755, 02010, 02070, 02710,
		02711, 02750, 07777,
	};
	static const mode_t allowed[] = { 0755, 0777, 01777, 02000, 02644, 02604, 02707, 01755 };
	static const mode_t dir_allowed[] = { 02775, 02755, 03777, 02770 };
	char name[32];
	long before;
	size_t i;

	ASSERT_EQ(0, jail_self());
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		EXPECT_EQ(EPERM, ERRNO_OF(chmod(PROG, refused[i]))) TH_LOG("chmod %04o", refused[i]);
		EXPECT_EQ(0755, mode_of(PROG)) TH_LOG("after chmod %04o", refused[i]);
		snprintf(name, sizeof(name), "/m%04o", refused[i]);
		unlink(name);
		EXPECT_EQ(EPERM, ERRNO_OF(mknod(name, S_IFREG | refused[i], 0)))
			TH_LOG("mknod %04o", refused[i]);
	}
	for (i = 0; i < sizeof(allowed) / sizeof(allowed[0]); i++) {
		EXPECT_EQ(0, chmod(PROG, allowed[i])) TH_LOG("chmod %04o", allowed[i]);
		EXPECT_EQ(allowed[i], mode_of(PROG));
	}
	EXPECT_EQ(0, chmod(PROG, 0755));
	/*
	 * A directory runs nothing: set-group-ID on one is ordinary (a group's
	 * shared directory, Debian's /var/mail is 2775) and not counted;
	 * set-user-ID has no use there and is refused.
	 */
	before = denials_of("setid");
	ASSERT_TRUE(mkdir("/shared", 0755) == 0 || errno == EEXIST);
	for (i = 0; i < sizeof(dir_allowed) / sizeof(dir_allowed[0]); i++) {
		EXPECT_EQ(0, chmod("/shared", dir_allowed[i]))
			TH_LOG("directory, chmod %04o", dir_allowed[i]);
		EXPECT_EQ(dir_allowed[i], mode_of("/shared"));
	}
	EXPECT_EQ(before, denials_of("setid")) TH_LOG("a set-group-ID directory was counted");
	EXPECT_EQ(EPERM, ERRNO_OF(chmod("/shared", 04755))) TH_LOG("a set-user-ID directory");
	EXPECT_EQ(EPERM, ERRNO_OF(chmod("/shared", 06775)));
	EXPECT_EQ(02770, mode_of("/shared"));
}

/* O_TMPFILE makes a file with no name, to link in later: no mknod hook on that route */
TEST_F(setid, tmpfile_in_jail)
{
	long before = denials_of("setid");
	int fd;

	ASSERT_EQ(0, jail_self());
	unlink("/tmp/linked");
	EXPECT_EQ(EPERM, ERRNO_OF(open("/tmp", O_TMPFILE | O_WRONLY, 04755))) TH_LOG("made set-uid");
	fd = open("/tmp", O_TMPFILE | O_WRONLY, 0755);
	ASSERT_LE(0, fd) TH_LOG("an O_TMPFILE: %s", strerror(errno));
	EXPECT_EQ(EPERM, ERRNO_OF(fchmod(fd, 04755))) TH_LOG("made set-uid by fchmod");
	EXPECT_EQ(0, linkat(fd, "", AT_FDCWD, "/tmp/linked", AT_EMPTY_PATH))
		TH_LOG("an ordinary O_TMPFILE, linked in: %s", strerror(errno));
	EXPECT_EQ(0755, mode_of("/tmp/linked"));
	EXPECT_EQ(before + 2, denials_of("setid"));
}

/*
 * A set-id program that a jailed root rewrites stays set-id when the kernel
 * does not strip the bits: through a shared mapping, or with CAP_FSETID.
 * A descriptor open for writing from before the chroot may be mapped
 * privately or read-only; a shared writable mapping of it is refused,
 * made after the chroot (mmap(), mprotect()) or before it (the chroot).
 */
TEST_F(setid, rewrite_in_jail)
{
	long before = denials_of("setid"), chroots = denials_of("chroot");
	int fd = open(JAIL SUID_INSIDE, O_RDWR);
	void *map;

	ASSERT_LE(0, fd);
	map = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, map);
	EXPECT_EQ(EPERM, ERRNO_OF(chroot(JAIL))) TH_LOG("chroot() with a writable shared mapping");
	EXPECT_EQ(chroots + 1, denials_of("chroot"));
	munmap(map, 4096);
	ASSERT_EQ(0, jail_self());
	EXPECT_EQ(MAP_FAILED, mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0));
	EXPECT_EQ(EPERM, errno);
	map = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, map) TH_LOG("a read-only mapping: %s", strerror(errno));
	EXPECT_EQ(EPERM, ERRNO_OF(mprotect(map, 4096, PROT_READ | PROT_WRITE)));
	munmap(map, 4096);
	map = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	EXPECT_NE(MAP_FAILED, map) TH_LOG("a private mapping: %s", strerror(errno));
	munmap(map, 4096);
	EXPECT_EQ(04755, mode_of(SUID_INSIDE));
	EXPECT_EQ(before + 2, denials_of("setid"));
	close(fd);
	before = denials_of("setid");
	EXPECT_EQ(EPERM, ERRNO_OF(open(SUID_INSIDE, O_WRONLY)));
	EXPECT_EQ(EPERM, ERRNO_OF(open(SUID_INSIDE, O_RDWR)));
	EXPECT_EQ(EPERM, ERRNO_OF(open(SUID_INSIDE, O_WRONLY | O_TRUNC)));
	EXPECT_EQ(04755, mode_of(SUID_INSIDE));
	EXPECT_EQ(before + 3, denials_of("setid"));
	/* truncate() strips the bits: a jailed root has no CAP_FSETID */
	EXPECT_EQ(0, truncate(SUID_INSIDE, 0)) TH_LOG("truncate: %s", strerror(errno));
	EXPECT_EQ(0755, mode_of(SUID_INSIDE)) TH_LOG("truncated, still set-uid");
	/* an ordinary program, as before */
	EXPECT_LE(0, open(PROG, O_WRONLY | O_APPEND));
}

/*
 * chown() of a set-id program: the kernel itself drops set-user-ID on every
 * chown, and set-group-ID when the file is group-executable
 * (setattr_should_drop_sgid()); in a jail the rule refuses it first, so the
 * attempt is counted and the file stays as it was.
 */
TEST_F(setid, chown_in_jail)
{
	long before = denials_of("setid");
	struct stat st;

	/* outside any jail: the kernel's own rule, root or not */
	ASSERT_EQ(0, put_file("/chown-suid", "x\n"));
	ASSERT_EQ(0, chmod("/chown-suid", 04755));
	ASSERT_EQ(0, chown("/chown-suid", 0, 0));
	EXPECT_EQ(0755, mode_of("/chown-suid")) TH_LOG("set-user-ID kept by chown");
	ASSERT_EQ(0, put_file("/chown-sgid", "x\n"));
	ASSERT_EQ(0, chown("/chown-sgid", 1000, 1000));
	ASSERT_EQ(0, chmod("/chown-sgid", 02755));
	ASSERT_EQ(0, chown("/chown-sgid", -1, 0));
	EXPECT_EQ(0755, mode_of("/chown-sgid")) TH_LOG("set-group-ID of a g+x file kept by chown");

	ASSERT_EQ(0, jail_self());
	EXPECT_EQ(EPERM, ERRNO_OF(chown(SGID_USER, -1, 0))) TH_LOG("to group root");
	EXPECT_EQ(EPERM, ERRNO_OF(chown(SGID_USER, 0, 0)));
	EXPECT_EQ(EPERM, ERRNO_OF(chown(SUID_INSIDE, 1000, 1000)));
	ASSERT_EQ(0, stat(SGID_USER, &st));
	EXPECT_EQ(1000, st.st_gid);
	EXPECT_EQ(02755, st.st_mode & 07777);
	EXPECT_EQ(before + 3, denials_of("setid"));
	/* ordinary files, as before */
	EXPECT_EQ(0, chown(PROG, 1000, 1000));
	EXPECT_EQ(0, chown(PROG, 0, 0));
}

/* An access ACL entry, as setxattr() takes it */
struct acl_entry {
	uint16_t tag, perm;
	uint32_t id;
};
#define ACL_ANY		((uint32_t)-1)

/* file capabilities, and ACLs that let others execute a set-id file */
/* commoncap's rule for security.* attributes, which this LSM's hook must keep */
static int security_xattr_as_nobody(void *arg)
{
	if (setuid(65534))
		return 10;
	return ERRNO_OF(setxattr(JAIL PROG, "security.lab", "x", 1, 0)) == EPERM ? 0 : 11;
}

TEST_F(setid, xattr_in_jail)
{
	struct {
		uint32_t magic_etc;
		struct { uint32_t permitted, inheritable; } data[2];
	} caps = { VFS_CAP_REVISION_2 | VFS_CAP_FLAGS_EFFECTIVE, { { 1U << CAP_SETUID, 0 } } };
	/* user::rwx user:1000:r-x group::r-x mask::r-x other::r-x */
	struct { uint32_t version; struct acl_entry entry[5]; } user_exec = {
		2, { { 0x01, 7, ACL_ANY }, { 0x02, 5, 1000 }, { 0x04, 5, ACL_ANY },
		     { 0x10, 5, ACL_ANY }, { 0x20, 5, ACL_ANY } } };
	/* user::rwx group::r-x other::r-x */
	struct { uint32_t version; struct acl_entry entry[3]; } plain = {
		2, { { 0x01, 7, ACL_ANY }, { 0x04, 5, ACL_ANY }, { 0x20, 5, ACL_ANY } } };
	long before = denials_of("setid");

	EXPECT_EQ(0, in_child(security_xattr_as_nobody, NULL))
		TH_LOG("uid 65534 set a security.* attribute: commoncap's check was lost");
	ASSERT_EQ(0, jail_self());
	/* vfs_setxattr() asks for CAP_SETFCAP first: lab 03's capability rule */
	EXPECT_EQ(EPERM, ERRNO_OF(setxattr(PROG, "security.capability", &caps, sizeof(caps), 0)))
		TH_LOG("file capabilities");
	EXPECT_EQ(EPERM, ERRNO_OF(setxattr(SGID_USER, "system.posix_acl_access", &user_exec,
					   sizeof(user_exec), 0)))
		TH_LOG("an ACL on a set-group-ID file");
	EXPECT_EQ(EPERM, ERRNO_OF(setxattr(SUID_INSIDE, "system.posix_acl_access", &user_exec,
					   sizeof(user_exec), 0)))
		TH_LOG("an ACL on a set-user-ID file");
	EXPECT_EQ(before + 2, denials_of("setid"));
	/* an ACL on an ordinary file, as before */
	EXPECT_EQ(0, setxattr(PROG, "system.posix_acl_access", &user_exec, sizeof(user_exec), 0))
		TH_LOG("ACL: %s", strerror(errno));
	EXPECT_EQ(0, setxattr(PROG, "system.posix_acl_access", &plain, sizeof(plain), 0));
}

/* suidplant tries each way and prints "WAY PLANTED ..." or "WAY REFUSED ..." */
TEST_F_TIMEOUT(setid, program_suidplant, 60)
{
	static const char *const ways[] = {
		"chmod", "fchmod", "fchmodat", "creat", "open", "mknod", "mkdir", "rename", "link",
		"tmpfile", "rewrite", "chown", "setcap",
	};
	char *argv[] = { "/lab/suidplant", NULL };
	char line[512], name[32], verdict[16];
	int fd, status, refused = 0, log_lines = 0;
	size_t i;
	pid_t pid;

	fd = spawn(argv, &pid);
	ASSERT_LE(0, fd);
	while (!read_line(fd, line, sizeof(line))) {
		if (!strncmp(line, "pid=", 4) && strstr(line, "comm=suidplant"))
			log_lines++;
		if (sscanf(line, "%31s %15s", name, verdict) != 2)
			continue;
		for (i = 0; i < sizeof(ways) / sizeof(ways[0]); i++) {
			if (strcmp(name, ways[i]))
				continue;
			EXPECT_STREQ("REFUSED", verdict) TH_LOG("%s", line);
			refused += !strcmp(verdict, "REFUSED");
		}
	}
	EXPECT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) TH_LOG("suidplant's status");
	EXPECT_EQ(13, refused) TH_LOG("ways reported REFUSED");
	EXPECT_LE(3, log_lines) TH_LOG("the log it prints has its three chmods");
}

TEST_HARNESS_MAIN
