// SPDX-License-Identifier: GPL-2.0
/*
 * Lab 03 graded tests: the chrootjail LSM.
 *
 * The kselftest harness runs each test in a process of its own, so a test
 * may jail itself: jail_self() chroots into the jail of jail.h (shared
 * with lab 04's tests).  Every denial is EPERM.
 */
#include "jail.h"

#include <sched.h>
#include <signal.h>
#include <linux/capability.h>
#include <sys/ptrace.h>
#include <sys/sysmacros.h>

static const char *const rules[] = {
	"chroot", "chdir", "open", "mount", "mknod", "pivot_root", "ptrace", "signal",
};
#define NR_RULES	(sizeof(rules) / sizeof(rules[0]))

/*
 * A child that waits for EOF on a pipe: it lives until *@fd is closed.  A
 * @jailed one is in the jail when this returns: it says so on the pipe.
 */
static pid_t waiting_child(int *fd, int jailed)
{
	int down[2], up[2];
	char c;
	pid_t pid;

	if (pipe(down) || pipe(up))
		return -1;
	pid = fork();
	if (pid == 0) {
		close(down[1]);
		close(up[0]);
		if (jailed && jail_self())
			_exit(1);
		if (write(up[1], "j", 1) != 1)
			_exit(1);
		while (read(down[0], &c, 1) > 0)
			;
		_exit(0);
	}
	close(down[0]);
	close(up[1]);
	if (pid > 0 && read(up[0], &c, 1) != 1)
		pid = -1;
	close(up[0]);
	*fd = down[1];
	return pid;
}

/* Each rule's count in the denials file; 0 or -1. */
static int read_denials(long count[NR_RULES])
{
	char buf[512], *line, *save;
	size_t i, seen = 0;

	if (read_file(DENIALS, buf, sizeof(buf)) <= 0)
		return -1;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		for (i = 0; i < NR_RULES; i++) {
			size_t n = strlen(rules[i]);

			if (!strncmp(line, rules[i], n) && line[n] == ' ') {
				count[i] = strtol(line + n + 1, NULL, 10);
				seen |= 1UL << i;
			}
		}
	}
	return seen == (1UL << NR_RULES) - 1 ? 0 : -1;
}

static int rule_index(const char *name)
{
	size_t i;

	for (i = 0; i < NR_RULES && strcmp(rules[i], name); i++)
		;
	return i;
}

/* Kernel log records that contain @text; -1 if /dev/kmsg cannot be read. */
static int kmsg_count(const char *text)
{
	char rec[1024];
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK), n = 0;
	ssize_t len;

	if (fd < 0)
		return -1;
	while ((len = read(fd, rec, sizeof(rec) - 1)) > 0 || (len < 0 && errno == EPIPE)) {
		if (len <= 0)
			continue;
		rec[len] = '\0';
		if (strstr(rec, text))
			n++;
	}
	close(fd);
	return n;
}

FIXTURE(jail) {
	int unused;
};

FIXTURE_SETUP(jail)
{
	ASSERT_EQ(0, make_jail()) TH_LOG("cannot set up %s: %s", JAIL, strerror(errno));
}

FIXTURE_TEARDOWN(jail)
{
	/* a test may have switched enforcement off; jailed processes cannot */
	write_file(ENFORCE, "1");
}

static int mknods_and_chroot(void)
{
	int i;

	if (jail_self())
		return 10;
	for (i = 0; i < 50; i++)
		if (ERRNO_OF(mknod("null", S_IFCHR | 0600, makedev(1, 3))) != EPERM)
			return 11;
	return ERRNO_OF(chroot("/bin")) == EPERM ? 0 : 12;
}

/*
 * First in the file: the log is ratelimited per rule over 5 s, so this must
 * be the boot's first mknod denial for its count of log lines to be known.
 */
TEST_F(jail, counters_and_log)
{
	long before[NR_RULES], after[NR_RULES];
	char text[128];
	int status, lines;
	size_t i;
	pid_t pid;

	ASSERT_EQ(0, read_denials(before)) TH_LOG("cannot read %s, one line per rule", DENIALS);
	pid = fork();
	if (pid == 0)
		_exit(mknods_and_chroot());
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_EQ(0, WEXITSTATUS(status)) TH_LOG("jailed mknod or chroot not refused (step %d)",
						  WEXITSTATUS(status));
	ASSERT_EQ(0, read_denials(after));
	for (i = 0; i < NR_RULES; i++) {
		long want = before[i] + (i == (size_t)rule_index("mknod") ? 50 :
					 i == (size_t)rule_index("chroot") ? 1 : 0);

		EXPECT_EQ(want, after[i]) TH_LOG("rule %s counted %ld, expected %ld",
						 rules[i], after[i] - before[i], want - before[i]);
	}
	snprintf(text, sizeof(text), "chrootjail: denied mknod: pid=%d comm=chrootjail", pid);
	lines = kmsg_count(text);
	EXPECT_LE(1, lines) TH_LOG("no log line \"%s\"", text);
	EXPECT_GE(10, lines) TH_LOG("50 denials logged %d times: not ratelimited", lines);
	snprintf(text, sizeof(text), "chrootjail: denied chroot: pid=%d comm=chrootjail", pid);
	EXPECT_EQ(1, kmsg_count(text)) TH_LOG("no log line \"%s\"", text);
}

static int drop_mac_admin(void)
{
	struct __user_cap_header_struct head = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2];

	if (syscall(SYS_capget, &head, data))
		return -1;
	data[CAP_TO_INDEX(CAP_MAC_ADMIN)].effective &= ~CAP_TO_MASK(CAP_MAC_ADMIN);
	return syscall(SYS_capset, &head, data) ? -1 : 0;
}

static int write_unprivileged(void *arg)
{
	if (setuid(65534))
		return 10;
	if (ERRNO_OF(open(ENFORCE, O_WRONLY)) != EACCES)
		return 11;
	return ERRNO_OF(open(DENIALS, O_RDONLY)) == EACCES ? 0 : 12;
}

static int write_without_cap(void *arg)
{
	int fd = open(ENFORCE, O_WRONLY);

	if (fd < 0 || drop_mac_admin())
		return 10;
	return ERRNO_OF(write(fd, "0", 1)) == EPERM ? 0 : 11;
}

static int write_jailed(void *arg)
{
	int fd = open(ENFORCE, O_WRONLY);

	if (fd < 0 || jail_self())
		return 10;
	return ERRNO_OF(write(fd, "0", 1)) == EPERM ? 0 : 11;
}

TEST_F(jail, files_and_access)
{
	struct stat st;
	char buf[16];

	ASSERT_EQ(0, stat(ENFORCE, &st)) TH_LOG("%s: %s", ENFORCE, strerror(errno));
	EXPECT_EQ(S_IFREG | 0600, st.st_mode);
	ASSERT_EQ(0, stat(DENIALS, &st)) TH_LOG("%s: %s", DENIALS, strerror(errno));
	EXPECT_EQ(S_IFREG | 0400, st.st_mode);
	ASSERT_EQ(2, read_file(ENFORCE, buf, sizeof(buf)));
	EXPECT_STREQ("1\n", buf) TH_LOG("enforcement is on at boot");

	EXPECT_EQ(0, write_file(ENFORCE, "1\n")) TH_LOG("root cannot write the switch");
	EXPECT_EQ(0, in_child(write_unprivileged, NULL)) TH_LOG("uid 65534 may open the files");
	EXPECT_EQ(0, in_child(write_without_cap, NULL)) TH_LOG("root without CAP_MAC_ADMIN may switch");
	EXPECT_EQ(0, in_child(write_jailed, NULL)) TH_LOG("a jailed root may switch");
	ASSERT_EQ(2, read_file(ENFORCE, buf, sizeof(buf)));
	EXPECT_STREQ("1\n", buf) TH_LOG("a refused write changed the switch");
}

static int chroot_again(void *arg)
{
	if (jail_self() || (mkdir("/d", 0755) && errno != EEXIST))
		return 255;
	return ERRNO_OF(chroot("/d"));
}

TEST_F(jail, enforce_switch)
{
	static const char *const bad[] = { "2", "\n", "1x", "-1", " 1", "10", "on", "0 1" };
	char buf[16];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		EXPECT_EQ(-EINVAL, write_file(ENFORCE, bad[i])) TH_LOG("writing \"%s\"", bad[i]);
		ASSERT_EQ(2, read_file(ENFORCE, buf, sizeof(buf)));
		EXPECT_STREQ("1\n", buf) TH_LOG("\"%s\" changed the switch", bad[i]);
	}
	ASSERT_EQ(0, write_file(ENFORCE, "0\n"));
	ASSERT_EQ(2, read_file(ENFORCE, buf, sizeof(buf)));
	EXPECT_STREQ("0\n", buf);
	EXPECT_EQ(0, in_child(chroot_again, NULL)) TH_LOG("enforcement off: a second chroot works");

	ASSERT_EQ(0, write_file(ENFORCE, "1"));
	ASSERT_EQ(2, read_file(ENFORCE, buf, sizeof(buf)));
	EXPECT_STREQ("1\n", buf);
	EXPECT_EQ(EPERM, in_child(chroot_again, NULL)) TH_LOG("enforcement on: a second chroot");
}

static int walk_out(void *arg)
{
	int i;

	if (ERRNO_OF(chroot("d")) != EPERM)
		return 10;
	for (i = 0; i < 8; i++)
		if (chdir(".."))
			return 11;
	/* still in the jail: "/" is JAIL, where OUTSIDE does not exist */
	return ERRNO_OF(open(OUTSIDE, O_RDONLY)) == ENOENT ? 0 : 12;
}

TEST_F(jail, double_chroot)
{
	ASSERT_EQ(0, jail_self());
	ASSERT_TRUE(mkdir("d", 0755) == 0 || errno == EEXIST);
	EXPECT_EQ(EPERM, ERRNO_OF(chroot("d")));
	EXPECT_EQ(EPERM, ERRNO_OF(chroot("/")));
	/* the jail is inherited, the grandchildren's too */
	EXPECT_EQ(0, in_child(walk_out, NULL)) TH_LOG("a forked child walked out");
}

static int fchdir_out(void *arg)
{
	return ERRNO_OF(fchdir(*(int *)arg));
}

TEST_F(jail, fchdir_outside)
{
	int fd = open("/", O_RDONLY | O_DIRECTORY);
	int path_fd = open("/", O_PATH | O_DIRECTORY);
	char cwd[64];

	ASSERT_LE(0, fd);
	ASSERT_LE(0, path_fd);
	ASSERT_EQ(0, jail_self());
	EXPECT_EQ(EPERM, ERRNO_OF(fchdir(fd)));
	EXPECT_EQ(EPERM, ERRNO_OF(fchdir(path_fd))) TH_LOG("an O_PATH fd is a way out too");
	EXPECT_EQ(EPERM, in_child(fchdir_out, &fd)) TH_LOG("a forked child");
	ASSERT_NE(NULL, getcwd(cwd, sizeof(cwd)));
	EXPECT_STREQ("/", cwd);
	/* a directory inside is fine, by fd too */
	EXPECT_EQ(0, chdir("/bin"));
	EXPECT_EQ(0, chdir(".."));
}

TEST_F(jail, openat_outside)
{
	int dir = open("/", O_RDONLY | O_DIRECTORY);
	int path_fd = open("/", O_PATH | O_DIRECTORY);

	ASSERT_LE(0, dir);
	ASSERT_LE(0, path_fd);
	ASSERT_EQ(0, jail_self());
	EXPECT_EQ(EPERM, ERRNO_OF(openat(dir, OUTSIDE + 1, O_RDONLY)));
	EXPECT_EQ(EPERM, ERRNO_OF(openat(path_fd, OUTSIDE + 1, O_RDONLY)));
	EXPECT_EQ(EPERM, ERRNO_OF(openat(dir, ".", O_RDONLY | O_DIRECTORY)));
	EXPECT_EQ(EPERM, ERRNO_OF(openat(dir, "bin/busybox", O_RDONLY))) TH_LOG("/bin outside");
	/* the jail's own files, through the same kind of call */
	EXPECT_LE(0, openat(AT_FDCWD, "inside", O_RDONLY));
}

TEST_F(jail, mount_pivot_root)
{
	/* a mount namespace of its own, should a mount get through */
	ASSERT_EQ(0, unshare(CLONE_NEWNS));
	ASSERT_EQ(0, jail_self());
	EXPECT_EQ(EPERM, ERRNO_OF(mount("tmpfs", "/bin", "tmpfs", 0, NULL)));
	EXPECT_EQ(EPERM, ERRNO_OF(mount("/bin", "/tmp", NULL, MS_BIND, NULL)));
	EXPECT_EQ(EPERM, ERRNO_OF(umount2("/tmp", 0)));
	EXPECT_EQ(EPERM, ERRNO_OF(syscall(SYS_pivot_root, "/", "/")));
}

TEST_F(jail, mknod_device)
{
	ASSERT_EQ(0, jail_self());
	unlink("/tmp/fifo");
	unlink("/tmp/file");
	EXPECT_EQ(EPERM, ERRNO_OF(mknod("/tmp/null", S_IFCHR | 0600, makedev(1, 3))));
	EXPECT_EQ(EPERM, ERRNO_OF(mknod("/tmp/disk", S_IFBLK | 0600, makedev(7, 0))));
	EXPECT_EQ(0, ERRNO_OF(mknod("/tmp/fifo", S_IFIFO | 0600, 0))) TH_LOG("a fifo is no device");
	EXPECT_EQ(0, ERRNO_OF(mknod("/tmp/file", S_IFREG | 0600, 0))) TH_LOG("nor a file");
}

TEST_F(jail, ptrace_signal_outside)
{
	int keep, status;
	pid_t outside = waiting_child(&keep, 0);

	ASSERT_LT(0, outside);
	ASSERT_EQ(0, jail_self());
	EXPECT_EQ(EPERM, ERRNO_OF(kill(outside, 0)));
	EXPECT_EQ(EPERM, ERRNO_OF(kill(outside, SIGTERM)));
	EXPECT_EQ(EPERM, ERRNO_OF(ptrace(PTRACE_ATTACH, outside, NULL, NULL)));
	EXPECT_EQ(EPERM, ERRNO_OF(ptrace(PTRACE_SEIZE, outside, NULL, NULL)));
	/* the parent is no exception: a jailed child cannot signal it */
	EXPECT_EQ(EPERM, ERRNO_OF(kill(getppid(), 0)));
	/* unharmed */
	EXPECT_EQ(0, waitpid(outside, &status, WNOHANG)) TH_LOG("the outside process died");
	close(keep);
	EXPECT_EQ(outside, waitpid(outside, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* Run a busybox command line, "sh -c" style; its exit status or -1. */
static int busybox_sh(const char *cmd)
{
	char *argv[] = { "/bin/busybox", "sh", "-c", (char *)cmd, NULL };
	int status;
	pid_t pid;

	pid = fork();
	if (pid == 0) {
		execv(argv[0], argv);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

TEST_F(jail, ordinary_work)
{
	char buf[64];
	int p[2], keep, status;
	struct stat st;
	pid_t pid;

	/* entering a jail the usual way, from outside */
	unlink(JAIL "/tmp/by-chroot");
	EXPECT_EQ(0, busybox_sh("chroot " JAIL " /bin/busybox sh -c 'echo ok >/tmp/by-chroot'"));
	EXPECT_EQ(3, read_file(JAIL "/tmp/by-chroot", buf, sizeof(buf)));

	ASSERT_EQ(0, jail_self());
	/* exec, fork and wait; a shell and its redirections */
	EXPECT_EQ(0, busybox_sh("cd /tmp && echo hello >sh-out && test \"$(busybox cat sh-out)\" = hello"));
	/* files: write, read, mkdir, rename, chmod, a fifo; on the jail's fs and on its tmpfs */
	EXPECT_EQ(0, put_file("/file", "data\n"));
	EXPECT_EQ(5, read_file("/file", buf, sizeof(buf)));
	EXPECT_TRUE(mkdir("/dir", 0755) == 0 || errno == EEXIST);
	EXPECT_EQ(0, rename("/file", "/dir/file"));
	EXPECT_EQ(0, chmod("/dir/file", 0600));
	EXPECT_EQ(0, stat("/dir/file", &st));
	EXPECT_EQ(S_IFREG | 0600, st.st_mode);
	EXPECT_EQ(0, put_file("/tmp/file", "data\n")) TH_LOG("a file on a mount inside the jail");
	EXPECT_EQ(0, chdir("/tmp")) TH_LOG("a directory on a mount inside the jail");
	EXPECT_EQ(0, chdir("/"));
	/* a pipe between jailed processes */
	ASSERT_EQ(0, pipe(p));
	pid = fork();
	if (pid == 0)
		_exit(write(p[1], "x", 1) == 1 ? 0 : 1);
	EXPECT_EQ(1, read(p[0], buf, 1));
	EXPECT_EQ(pid, waitpid(pid, &status, 0));
	/* signals and ptrace within the jail */
	pid = waiting_child(&keep, 0);
	ASSERT_LT(0, pid);
	EXPECT_EQ(0, ptrace(PTRACE_ATTACH, pid, NULL, NULL)) TH_LOG("ptrace: %s", strerror(errno));
	EXPECT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, ptrace(PTRACE_DETACH, pid, NULL, NULL));
	EXPECT_EQ(0, kill(pid, SIGTERM)) TH_LOG("kill: %s", strerror(errno));
	EXPECT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
	close(keep);
}

TEST_F(jail, unjailed_unaffected)
{
	int keep, status, fd;
	pid_t jailed = waiting_child(&keep, 1);

	ASSERT_LT(0, jailed);
	/* an unjailed process may signal and trace the jailed */
	EXPECT_EQ(0, kill(jailed, 0)) TH_LOG("kill: %s", strerror(errno));
	EXPECT_EQ(0, ptrace(PTRACE_ATTACH, jailed, NULL, NULL)) TH_LOG("ptrace: %s", strerror(errno));
	EXPECT_EQ(jailed, waitpid(jailed, &status, 0));
	EXPECT_EQ(0, ptrace(PTRACE_DETACH, jailed, NULL, NULL));
	/* and do all the jailed may not */
	unlink("/tmp/unjailed-null");
	EXPECT_EQ(0, mknod("/tmp/unjailed-null", S_IFCHR | 0600, makedev(1, 3)));
	EXPECT_TRUE(mkdir("/tmp/unjailed-mnt", 0755) == 0 || errno == EEXIST);
	EXPECT_EQ(0, mount("tmpfs", "/tmp/unjailed-mnt", "tmpfs", 0, NULL));
	EXPECT_EQ(0, umount2("/tmp/unjailed-mnt", 0));
	fd = open(JAIL, O_RDONLY | O_DIRECTORY);
	EXPECT_EQ(0, fchdir(fd));
	EXPECT_EQ(0, chdir("/"));
	EXPECT_LE(0, open(OUTSIDE, O_RDONLY));
	close(keep);
	EXPECT_EQ(jailed, waitpid(jailed, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* jailbreak tries each breakout and prints "NAME BLOCKED ..." or "NAME ESCAPED ...". */
TEST_F(jail, program_jailbreak)
{
	static const char *const breakouts[] = {
		"chroot", "fchdir", "openat", "mknod", "ptrace", "signal", "mount", "pivot_root",
	};
	char *argv[] = { "/lab/jailbreak", NULL };
	char line[256], name[32], verdict[16];
	int fd, status, blocked = 0;
	size_t i;
	pid_t pid;

	fd = spawn(argv, &pid);
	ASSERT_LE(0, fd);
	while (!read_line(fd, line, sizeof(line))) {
		if (sscanf(line, "%31s %15s", name, verdict) != 2)
			continue;
		for (i = 0; i < sizeof(breakouts) / sizeof(breakouts[0]); i++) {
			if (strcmp(name, breakouts[i]))
				continue;
			EXPECT_STREQ("BLOCKED", verdict) TH_LOG("%s", line);
			blocked += !strcmp(verdict, "BLOCKED");
		}
	}
	EXPECT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) TH_LOG("jailbreak's status");
	EXPECT_EQ(8, blocked) TH_LOG("breakouts reported BLOCKED");
}

TEST_HARNESS_MAIN
