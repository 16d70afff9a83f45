// SPDX-License-Identifier: GPL-2.0
/*
 * Lab 03 graded tests: the chrootjail LSM.
 *
 * The kselftest harness runs each test in a process of its own, so a test
 * may jail itself: jail_self() chroots into the jail of jail.h (shared
 * with lab 04's tests).  Every denial is EPERM.
 */
#include "jail.h"

#include <dirent.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <termios.h>
#include <linux/capability.h>
#include <linux/io_uring.h>
#include <sys/io.h>
#include <sys/ioctl.h>
#include <sys/msg.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/reboot.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/sendfile.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/xattr.h>

static const char *const rules[] = {
	"chroot", "chdir", "open", "mount", "mknod", "pivot_root", "ptrace", "signal",
	"path", "task", "capability", "sysctl", "ipc", "unix", "tty",
};
#define NR_RULES	(sizeof(rules) / sizeof(rules[0]))

/*
 * A child that runs @setup(@arg), if given, tells its parent it has, then
 * waits for EOF on a pipe: it lives, set up, until *@fd is closed; -1 if
 * the setup failed.
 */
static pid_t helper_child(int *fd, int (*setup)(const void *), const void *arg)
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
		if (setup && setup(arg))
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

static int enter_jail(const void *unused)
{
	return jail_self();
}

/* A child outside the jail, or in it if @jailed, that lives until *@fd is closed. */
static pid_t waiting_child(int *fd, int jailed)
{
	return helper_child(fd, jailed ? enter_jail : NULL, NULL);
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

/*
 * The sum of N over the "denied RULE: N more, not logged" records read from
 * @fd (/dev/kmsg, opened non-blocking) until it reaches @want, waiting at
 * most @ms for each new record.
 */
static long read_unlogged(int fd, const char *rule, long want, int ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	char rec[1024], prefix[64], *p;
	long sum = 0;
	ssize_t len;

	snprintf(prefix, sizeof(prefix), "chrootjail: denied %s: ", rule);
	while (sum < want) {
		len = read(fd, rec, sizeof(rec) - 1);
		if (len < 0 && errno == EAGAIN) {
			if (poll(&pfd, 1, ms) != 1)
				break;
			continue;
		}
		if (len <= 0)	/* EPIPE: records overwritten before we read them */
			continue;
		rec[len] = '\0';
		p = strstr(rec, prefix);
		if (p && strstr(p, " more, not logged"))
			sum += strtol(p + strlen(prefix), NULL, 10);
	}
	return sum;
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
	/* a name that would start a line of its own in the log, and clear the screen */
	if (prctl(PR_SET_NAME, "jail\nforged\033[2J"))
		return 13;
	return ERRNO_OF(chroot("/bin")) == EPERM ? 0 : 12;
}

/*
 * First in the file: the log is ratelimited per rule over 5 s, so this must
 * be the boot's first mknod denial for its count of log lines to be known.
 */
TEST_F(jail, counters_and_log)
{
	long before[NR_RULES], after[NR_RULES];
	int kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	char text[128];
	int status, lines;
	size_t i;
	pid_t pid;

	ASSERT_LE(0, kmsg);
	ASSERT_LE(0, lseek(kmsg, 0, SEEK_END));	/* from now on */
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
	/* what the limit dropped is said, an interval later, with no denial after */
	EXPECT_EQ(50 - lines, read_unlogged(kmsg, "mknod", 50 - lines, 10000))
		TH_LOG("the log does not say that %d mknod denials went unlogged", 50 - lines);
	close(kmsg);
	/* octal escapes (/dev/kmsg shows a backslash as \x5c, a raw newline as \x0a) */
	snprintf(text, sizeof(text),
		 "chrootjail: denied chroot: pid=%d comm=jail\\x5c012forged\\x5c033[2J", pid);
	EXPECT_EQ(1, kmsg_count(text)) TH_LOG("no log line \"%s\": a name's control characters"
					      " not escaped?", text);
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
	/* kstrtouint() takes "+1", "01" and "00": a parser that uses it fails here */
	static const char *const bad[] = { "2", "\n", "1x", "-1", " 1", "10", "on", "0 1",
					   "+1", "01", "00", "1\n\n" };
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
	int other_fs = open("/sys/kernel/security", O_RDONLY | O_DIRECTORY);
	char cwd[64];

	ASSERT_LE(0, fd);
	ASSERT_LE(0, path_fd);
	ASSERT_LE(0, other_fs);
	ASSERT_EQ(0, jail_self());
	EXPECT_EQ(EPERM, ERRNO_OF(fchdir(fd)));
	EXPECT_EQ(EPERM, ERRNO_OF(fchdir(path_fd))) TH_LOG("an O_PATH fd is a way out too");
	EXPECT_EQ(EPERM, in_child(fchdir_out, &fd)) TH_LOG("a forked child");
	ASSERT_NE(NULL, getcwd(cwd, sizeof(cwd)));
	EXPECT_STREQ("/", cwd);
	/* a directory inside is fine, by fd too */
	EXPECT_EQ(0, chdir("/bin"));
	EXPECT_EQ(0, chdir(".."));
	/* the limit: the chdir rule sees an inode, and judges only the jail's filesystem */
	EXPECT_EQ(0, fchdir(other_fs)) TH_LOG("another filesystem is now judged: update the lesson");
	EXPECT_EQ(EPERM, ERRNO_OF(open("chrootjail/denials", O_RDONLY))) TH_LOG("the open rule");
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
	long before = denials_of("signal");
	int keep, status;
	pid_t outside = waiting_child(&keep, 0);

	ASSERT_LT(0, outside);
	ASSERT_EQ(0, jail_self());
	/* signal 0 asks whether a task exists: a probe, refused but not counted */
	EXPECT_EQ(EPERM, ERRNO_OF(kill(outside, 0)));
	EXPECT_EQ(0, kill(0, 0)) TH_LOG("its process group, shared with processes outside");
	EXPECT_EQ(before, denials_of("signal")) TH_LOG("signal 0 counted as a denial");
	EXPECT_EQ(EPERM, ERRNO_OF(kill(outside, SIGTERM)));
	EXPECT_EQ(before + 1, denials_of("signal"));
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

/* The jail gets a /proc, mounted from outside, in a mount namespace of the test's own. */
static int proc_in_jail(void)
{
	if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		return -1;
	if (mkdir(JAIL "/proc", 0755) && errno != EEXIST)
		return -1;
	return mount("proc", JAIL "/proc", "proc", 0, NULL);
}

/* A unix address: @name, or an abstract one if it starts with '@'; its length. */
static socklen_t unix_address(struct sockaddr_un *addr, const char *name)
{
	memset(addr, 0, sizeof(*addr));
	addr->sun_family = AF_UNIX;
	strncpy(addr->sun_path, name, sizeof(addr->sun_path) - 1);
	if (name[0] == '@')
		addr->sun_path[0] = '\0';
	return offsetof(struct sockaddr_un, sun_path) + strlen(name);
}

struct unix_peer {
	const char *name;
	int type;
};

/* In a helper child: bind (and listen on) the socket the child keeps open. */
static int unix_bind(const void *arg)
{
	const struct unix_peer *peer = arg;
	struct sockaddr_un addr;
	socklen_t len = unix_address(&addr, peer->name);
	int s = socket(AF_UNIX, peer->type, 0);

	if (s < 0 || bind(s, (struct sockaddr *)&addr, len))
		return -1;
	return peer->type == SOCK_STREAM ? listen(s, 8) : 0;
}

/* Send @fd over the socket @s; 0 or -1. */
static int send_fd(int s, int fd)
{
	char data = 'f', ctl[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { &data, 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
			      .msg_control = ctl, .msg_controllen = sizeof(ctl) };
	struct cmsghdr *cmsg = CMSG_FIRSTHDR(&msg);

	cmsg->cmsg_level = SOL_SOCKET;
	cmsg->cmsg_type = SCM_RIGHTS;
	cmsg->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cmsg), &fd, sizeof(int));
	return sendmsg(s, &msg, 0) == 1 ? 0 : -1;
}

/* The descriptor that came over the socket @s, or -1. */
static int recv_fd(int s)
{
	char data, ctl[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { &data, 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
			      .msg_control = ctl, .msg_controllen = sizeof(ctl) };
	struct cmsghdr *cmsg;
	int fd;

	if (recvmsg(s, &msg, 0) != 1)
		return -1;
	cmsg = CMSG_FIRSTHDR(&msg);
	if (!cmsg || cmsg->cmsg_type != SCM_RIGHTS)
		return -1;
	memcpy(&fd, CMSG_DATA(cmsg), sizeof(int));
	return fd;
}

/* connect() a new socket of @type to @name ('@': abstract); errno or 0 */
static int unix_connect(const char *name, int type)
{
	struct sockaddr_un addr;
	socklen_t len = unix_address(&addr, name);
	int s = socket(AF_UNIX, type, 0), err;

	err = s < 0 || connect(s, (struct sockaddr *)&addr, len) ? errno : 0;
	if (s >= 0)
		close(s);
	return err;
}

/* A new io_uring ring with a submission thread (SQPOLL); its fd, or -1. */
static int sqpoll_ring(struct io_uring_params *p)
{
	memset(p, 0, sizeof(*p));
	p->flags = IORING_SETUP_SQPOLL;
	p->sq_thread_idle = 1000;
	return syscall(__NR_io_uring_setup, 4, p);
}

/*
 * A NOP through a ring with a submission thread, made here: the thread
 * takes it from the mapped queue, the completion comes back; 0 or -1.
 */
static int ring_nop(void)
{
	struct io_uring_params p;
	int fd = sqpoll_ring(&p), ok = 0;
	size_t sq_len = p.sq_off.array + p.sq_entries * sizeof(unsigned int);
	size_t cq_len = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	size_t sqes_len = p.sq_entries * sizeof(struct io_uring_sqe);
	char *sq, *cq;
	struct io_uring_sqe *sqes;
	struct io_uring_cqe *cqe;
	unsigned int *tail, head;

	if (fd < 0)
		return -1;
	sq = mmap(NULL, sq_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, IORING_OFF_SQ_RING);
	cq = mmap(NULL, cq_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, IORING_OFF_CQ_RING);
	sqes = mmap(NULL, sqes_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, IORING_OFF_SQES);
	if (sq != MAP_FAILED && cq != MAP_FAILED && sqes != MAP_FAILED) {
		memset(sqes, 0, sizeof(*sqes));
		sqes->opcode = IORING_OP_NOP;
		sqes->user_data = 42;
		((unsigned int *)(sq + p.sq_off.array))[0] = 0;
		tail = (unsigned int *)(sq + p.sq_off.tail);
		__atomic_store_n(tail, *tail + 1, __ATOMIC_RELEASE);
		/* wakes the thread if it sleeps, waits for one completion */
		if (syscall(__NR_io_uring_enter, fd, 1, 1,
			    IORING_ENTER_GETEVENTS | IORING_ENTER_SQ_WAKEUP, NULL, 0) >= 0) {
			head = *(unsigned int *)(cq + p.cq_off.head);
			cqe = (struct io_uring_cqe *)(cq + p.cq_off.cqes) +
			      (head & *(unsigned int *)(cq + p.cq_off.ring_mask));
			ok = __atomic_load_n((unsigned int *)(cq + p.cq_off.tail), __ATOMIC_ACQUIRE) != head &&
			     cqe->user_data == 42 && cqe->res == 0;
		}
	}
	munmap(sq, sq_len);
	munmap(cq, cq_len);
	munmap(sqes, sqes_len);
	close(fd);
	return ok ? 0 : -1;
}

/*
 * The jail as administrators lay one out: a /proc (above), and a directory
 * from outside, on the jail's filesystem, bind-mounted on its /usr.
 */
static int laid_out_jail(void)
{
	if (proc_in_jail() ||
	    (mkdir(JAIL "/usr", 0755) && errno != EEXIST) ||
	    (mkdir("/usr-outside", 0755) && errno != EEXIST) ||
	    (mkdir("/usr-outside/lib", 0755) && errno != EEXIST))
		return -1;
	return mount("/usr-outside", JAIL "/usr", NULL, MS_BIND, NULL);
}

/* Open /proc/self/fd/@fd with @flags, as a shell's /dev/stdin is; errno, or 0. */
static int reopen_fd(int fd, int flags)
{
	char path[32];
	int again;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	again = open(path, flags);
	if (again < 0)
		return errno;
	close(again);
	return 0;
}

/* "busybox true" run from a copy in a memfd, by fexecve(); its status or -1. */
static int run_from_memfd(void)
{
	char *argv[] = { "busybox", "true", NULL }, *envp[] = { NULL };
	int src = open("/bin/busybox", O_RDONLY), mem = memfd_create("busybox", 0), status;
	struct stat st;
	pid_t pid;

	if (src < 0 || mem < 0 || fstat(src, &st) ||
	    sendfile(mem, src, NULL, st.st_size) != st.st_size)
		return -1;
	close(src);
	pid = fork();
	if (pid == 0) {
		fexecve(mem, argv, envp);
		_exit(127);
	}
	close(mem);
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/*
 * A datagram service on an abstract address, and its reply to a client
 * that has only an autobound address: both sockets made in the jail,
 * neither connected; errno, or 0.
 */
static int dgram_exchange(void)
{
	struct sockaddr_un addr, from;
	socklen_t len = unix_address(&addr, "@chrootjail-service"), from_len = sizeof(from);
	sa_family_t autobind = AF_UNIX;
	int server = socket(AF_UNIX, SOCK_DGRAM, 0), client = socket(AF_UNIX, SOCK_DGRAM, 0);
	int err = 0;
	char c;

	if (server < 0 || client < 0 || bind(server, (struct sockaddr *)&addr, len) ||
	    bind(client, (struct sockaddr *)&autobind, sizeof(autobind)) ||
	    sendto(client, "q", 1, 0, (struct sockaddr *)&addr, len) != 1 ||
	    recvfrom(server, &c, 1, 0, (struct sockaddr *)&from, &from_len) != 1 ||
	    sendto(server, "a", 1, 0, (struct sockaddr *)&from, from_len) != 1 ||
	    recv(client, &c, 1, 0) != 1)
		err = errno;
	close(server);
	close(client);
	return err;
}

/* In a child: a listener on an abstract address and a datagram pair, sent over @arg. */
static int make_daemon_sockets(void *arg)
{
	struct sockaddr_un addr;
	socklen_t len = unix_address(&addr, "@chrootjail-daemon");
	int carrier = *(int *)arg, s = socket(AF_UNIX, SOCK_STREAM, 0), sv[2];

	return s < 0 || bind(s, (struct sockaddr *)&addr, len) || listen(s, 8) ||
	       socketpair(AF_UNIX, SOCK_DGRAM, 0, sv) || send_fd(carrier, s) ||
	       send_fd(carrier, sv[0]) || send_fd(carrier, sv[1]);
}

/*
 * A daemon's sockets once the process that made them has exited (a daemon
 * that forks after listen()): a connection to its listener, a datagram
 * through its pair; errno, or 0.
 */
static int orphaned_sockets(void)
{
	int carrier[2], fds[3], i, err;
	char c;

	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, carrier))
		return errno;
	if (in_child(make_daemon_sockets, &carrier[1]))
		return ECHILD;
	for (i = 0; i < 3; i++)
		fds[i] = recv_fd(carrier[0]);
	if (fds[0] < 0 || fds[1] < 0 || fds[2] < 0)
		return EBADF;
	err = unix_connect("@chrootjail-daemon", SOCK_STREAM);
	if (!err && (send(fds[1], "x", 1, 0) != 1 || recv(fds[2], &c, 1, 0) != 1))
		err = errno;
	for (i = 0; i < 3; i++)
		close(fds[i]);
	close(carrier[0]);
	close(carrier[1]);
	return err;
}

/* A file made by a thread, in the jail's /tmp mount */
static void *thread_makes_file(void *arg)
{
	return (void *)(long)put_file("/tmp/by-thread", "thread\n");
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
	void *ret = (void *)-1L;
	long counted[NR_RULES];
	pthread_t thread;
	char buf[64];
	int p[2], keep, status, dir;
	struct stat st;
	size_t i;
	pid_t pid;

	ASSERT_EQ(0, laid_out_jail()) TH_LOG("cannot lay out %s: %s", JAIL, strerror(errno));
	for (i = 0; i < NR_RULES; i++)
		counted[i] = denials_of(rules[i]);
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
	/* a background job: busybox sh gives it the jail's /dev/null as stdin */
	EXPECT_EQ(0, busybox_sh("busybox true & wait $!"));
	/* a shell script's day: across the /tmp mount, links, modes, its own children */
	EXPECT_EQ(0, busybox_sh("set -e; cd /tmp; echo a >w1; busybox cp w1 /w2; busybox mv /w2 w3; "
				"busybox ln w3 w4; busybox ln -s /tmp/w4 /w5; test \"$(busybox cat /w5)\" = a; "
				"busybox mkdir -p d/e; busybox rmdir d/e d; busybox chmod 0755 w3; "
				"busybox rm w1 w3 w4 /w5; busybox sleep 60 & kill $!; wait $! || test $? = 143"));
	/* threads */
	ASSERT_EQ(0, pthread_create(&thread, NULL, thread_makes_file, NULL));
	EXPECT_EQ(0, pthread_join(thread, &ret));
	EXPECT_EQ(NULL, ret) TH_LOG("a thread in the jail could not make a file in /tmp");
	/* a directory from outside bind-mounted in the jail: in, and around in it */
	EXPECT_EQ(0, chdir("/usr/lib")) TH_LOG("cd into a bind mount: %s", strerror(errno));
	EXPECT_EQ(0, chdir(".."));
	EXPECT_EQ(0, chdir("/"));
	dir = open("/usr", O_RDONLY | O_DIRECTORY);
	EXPECT_EQ(0, fchdir(dir)) TH_LOG("fchdir into a bind mount: %s", strerror(errno));
	close(dir);
	EXPECT_EQ(0, chdir("/"));
	/* its own pipes and memfds, reopened through /proc/self/fd; a program run from memory */
	EXPECT_EQ(0, reopen_fd(p[0], O_RDONLY)) TH_LOG("a pipe");
	EXPECT_EQ(0, busybox_sh("echo hi | busybox cat /proc/self/fd/0 >/dev/null")) TH_LOG("stdin");
	EXPECT_EQ(0, run_from_memfd()) TH_LOG("fexecve() of a memfd");
	/* an io_uring ring with a submission thread, made in the jail */
	EXPECT_EQ(0, ring_nop()) TH_LOG("io_uring: %s", strerror(errno));
	/* unix sockets made in the jail, whoever made them, bound or not, still there or not */
	EXPECT_EQ(0, dgram_exchange()) TH_LOG("datagrams: %s", strerror(errno));
	EXPECT_EQ(0, orphaned_sockets()) TH_LOG("a daemon's sockets after it forked: %s",
						 strerror(errno));
	/* and none of it counted as a denial */
	for (i = 0; i < NR_RULES; i++)
		EXPECT_EQ(counted[i], denials_of(rules[i])) TH_LOG("rule %s", rules[i]);
}

TEST_F(jail, unjailed_unaffected)
{
	int keep, status, fd;
	sigset_t chld;
	siginfo_t si;
	pid_t jailed;

	/* a jailed child's exit signals its parent outside: the parent chose the signal */
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	ASSERT_EQ(0, sigprocmask(SIG_BLOCK, &chld, NULL));
	jailed = waiting_child(&keep, 1);
	ASSERT_LT(0, jailed);
	close(keep);
	EXPECT_EQ(SIGCHLD, sigwaitinfo(&chld, &si)) TH_LOG("no SIGCHLD from the jailed child");
	EXPECT_EQ(jailed, si.si_pid);
	EXPECT_EQ(jailed, waitpid(jailed, &status, 0));
	ASSERT_EQ(0, sigprocmask(SIG_UNBLOCK, &chld, NULL));

	jailed = waiting_child(&keep, 1);
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

static void *wait_forever(void *arg)
{
	for (;;)
		pause();
	return NULL;
}

static int chroot_jail(void *arg)
{
	return ERRNO_OF(chroot(JAIL));
}

/* A child sharing @flags with us tries chroot(JAIL); its exit status, or -1. */
static int sharer_chroots(int flags)
{
	static char stack[64 * 1024] __attribute__((aligned(16)));
	int status;
	pid_t pid = clone(chroot_jail, stack + sizeof(stack), flags | SIGCHLD, NULL);

	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/*
 * A task that shares its root or its memory with others may not chroot():
 * the others would be chroot()ed but not jailed, or could act for it.
 */
/*
 * A child of a ring's maker: the ring's thread is its parent's, outside.
 * It may not chroot() holding the ring, by a descriptor or mapped; with
 * neither, it may.  0, or the step that got through.
 */
static int ring_holder_chroots(void *arg)
{
	int ring = *(int *)arg;
	void *map = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, ring, IORING_OFF_SQ_RING);

	if (map == MAP_FAILED || chroot(JAIL) == 0 || errno != EPERM)
		return 1;
	close(ring);
	if (chroot(JAIL) == 0 || errno != EPERM)
		return 2;
	munmap(map, 4096);
	return jail_self() ? 3 : 0;
}

TEST_F(jail, chroot_sharers)
{
	long before = denials_of("chroot");
	struct io_uring_params p;
	int ring, s[2], status;
	char buf[16];
	pthread_t t;
	pid_t pid;

	EXPECT_EQ(EPERM, sharer_chroots(CLONE_FS)) TH_LOG("a CLONE_FS child, whose root is ours");
	EXPECT_EQ(EPERM, sharer_chroots(CLONE_VM)) TH_LOG("a CLONE_VM child, whose memory is ours");
	/*
	 * (a process with a ring's thread shares its root: made in a child).
	 * No ring comes into a jail later: 6.1 refuses one in SCM_RIGHTS.
	 */
	pid = fork();
	if (pid == 0) {
		ring = sqpoll_ring(&p);
		if (ring < 0 || socketpair(AF_UNIX, SOCK_DGRAM, 0, s))
			_exit(4);
		if (send_fd(s[0], ring) == 0 || errno != EINVAL)
			_exit(5);
		_exit(in_child(ring_holder_chroots, &ring));
	}
	ASSERT_LT(0, pid);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status)) TH_LOG("a ring made outside: step %d got through",
						 WEXITSTATUS(status));
	before += 2;
	ASSERT_EQ(0, pthread_create(&t, NULL, wait_forever, NULL));
	EXPECT_EQ(EPERM, ERRNO_OF(chroot(JAIL))) TH_LOG("one thread of two");
	EXPECT_EQ(8, read_file(OUTSIDE, buf, sizeof(buf))) TH_LOG("our root moved all the same");
	EXPECT_EQ(before + 3, denials_of("chroot"));
}

struct outside_refs {
	int dir;	/* "/", opened before the chroot */
	pid_t pid;	/* a process outside */
};

/* Each rule, from a thread made in the jail; 0 or the step that got through. */
static void *thread_tries(void *arg)
{
	const struct outside_refs *out = arg;

	if (ERRNO_OF(mknod("/tmp/thread-null", S_IFCHR | 0600, makedev(1, 3))) != EPERM)
		return (void *)1L;
	if (ERRNO_OF(fchdir(out->dir)) != EPERM)
		return (void *)2L;
	if (ERRNO_OF(openat(out->dir, OUTSIDE + 1, O_RDONLY)) != EPERM)
		return (void *)3L;
	if (ERRNO_OF(kill(out->pid, 0)) != EPERM)
		return (void *)4L;
	if (ERRNO_OF(chroot("/tmp")) != EPERM)
		return (void *)5L;
	return NULL;
}

TEST_F(jail, thread_in_jail)
{
	struct outside_refs out;
	void *step = (void *)-1L;
	int keep, status;
	pthread_t t;

	out.dir = open("/", O_RDONLY | O_DIRECTORY);
	out.pid = waiting_child(&keep, 0);
	ASSERT_LE(0, out.dir);
	ASSERT_LT(0, out.pid);
	ASSERT_EQ(0, jail_self());
	ASSERT_EQ(0, pthread_create(&t, NULL, thread_tries, &out));
	EXPECT_EQ(0, pthread_join(t, &step));
	EXPECT_EQ(NULL, step) TH_LOG("a thread made in the jail got through at step %ld", (long)step);
	close(keep);
	EXPECT_EQ(out.pid, waitpid(out.pid, &status, 0));
}

/* An access ACL as setxattr() takes it: only the owner may read and write. */
static const struct {
	uint32_t version;
	struct { uint16_t tag, perm; uint32_t id; } entry[3];
} owner_only_acl = { 2, { { 0x01, 6, -1 }, { 0x04, 0, -1 }, { 0x20, 0, -1 } } };

TEST_F(jail, path_outside)
{
	int dir = open("/", O_PATH | O_DIRECTORY), file = open(OUTSIDE, O_RDONLY);
	long before = denials_of("path");
	struct stat st;
	int mfd;

	ASSERT_LE(0, dir);
	ASSERT_LE(0, file);
	ASSERT_EQ(0, jail_self());
	EXPECT_EQ(EPERM, ERRNO_OF(mkdirat(dir, "jailed-dir", 0755)));
	EXPECT_EQ(EPERM, ERRNO_OF(mknodat(dir, "jailed-fifo", S_IFIFO | 0600, 0)));
	EXPECT_EQ(EPERM, ERRNO_OF(symlinkat("/", dir, "jailed-link")));
	EXPECT_EQ(EPERM, ERRNO_OF(unlinkat(dir, OUTSIDE + 1, 0)));
	EXPECT_EQ(EPERM, ERRNO_OF(unlinkat(dir, "jail", AT_REMOVEDIR)));
	EXPECT_EQ(EPERM, ERRNO_OF(fchmodat(dir, OUTSIDE + 1, 0666, 0)));
	EXPECT_EQ(EPERM, ERRNO_OF(fchownat(dir, OUTSIDE + 1, 65534, 65534, 0)));
	EXPECT_EQ(EPERM, ERRNO_OF(fchmod(file, 0600))) TH_LOG("a file's fd from before");
	EXPECT_EQ(before + 8, denials_of("path"));
	ASSERT_EQ(0, fstatat(dir, OUTSIDE + 1, &st, 0));
	EXPECT_EQ(S_IFREG | 0644, st.st_mode) TH_LOG("the outside file's mode changed");
	EXPECT_EQ(0, st.st_uid) TH_LOG("the outside file's owner changed");
	EXPECT_EQ(ENOENT, ERRNO_OF(fstatat(dir, "jailed-dir", &st, 0)));
	/* the limit: utimensat() and the xattr calls get a dentry, no path */
	EXPECT_EQ(0, utimensat(dir, OUTSIDE + 1, NULL, 0)) TH_LOG("times are now judged: update the lesson");
	EXPECT_EQ(0, fsetxattr(file, "system.posix_acl_access", &owner_only_acl,
			       sizeof(owner_only_acl), 0)) TH_LOG("ACL: %s", strerror(errno));
	ASSERT_EQ(0, fstat(file, &st));
	EXPECT_EQ(S_IFREG | 0600, st.st_mode) TH_LOG("an ACL no longer changes the mode: update the lesson");
	/* the jail's own files, and a memfd (no tree), as before */
	EXPECT_EQ(0, mkdir("/tmp/jailed-dir", 0755));
	EXPECT_EQ(0, rmdir("/tmp/jailed-dir"));
	mfd = memfd_create("jailed", 0);
	EXPECT_LE(0, mfd);
	EXPECT_EQ(0, ftruncate(mfd, 4096)) TH_LOG("ftruncate of a memfd: %s", strerror(errno));
}

TEST_F(jail, capabilities)
{
	long before = denials_of("capability"), counted;
	struct timeval now;
	int pidfd = syscall(SYS_pidfd_open, getpid(), 0);
	char names[256];
	ssize_t len;

	ASSERT_LE(0, pidfd);
	ASSERT_EQ(0, gettimeofday(&now, NULL));
	ASSERT_EQ(0, put_file(JAIL "/tmp/probe", ""));
	ASSERT_EQ(0, setxattr(JAIL "/tmp/probe", "trusted.probe", "1", 1, 0));
	ASSERT_EQ(0, jail_self());
	EXPECT_EQ(EPERM, ERRNO_OF(setns(pidfd, CLONE_NEWNS))) TH_LOG("setns() resets the root");
	EXPECT_EQ(EPERM, ERRNO_OF(unshare(CLONE_NEWNS)));
	EXPECT_EQ(EPERM, ERRNO_OF(syscall(SYS_init_module, NULL, 0, ""))) TH_LOG("CAP_SYS_MODULE");
	EXPECT_EQ(EPERM, ERRNO_OF(syscall(SYS_delete_module, "none", 0)));
	EXPECT_EQ(EPERM, ERRNO_OF(iopl(3))) TH_LOG("CAP_SYS_RAWIO");
	EXPECT_EQ(EPERM, ERRNO_OF(sethostname("jailed", 6))) TH_LOG("CAP_SYS_ADMIN");
	EXPECT_EQ(EPERM, ERRNO_OF(settimeofday(&now, NULL))) TH_LOG("CAP_SYS_TIME");
	EXPECT_EQ(EPERM, ERRNO_OF(reboot(RB_DISABLE_CAD))) TH_LOG("CAP_SYS_BOOT");
	EXPECT_EQ(EACCES, ERRNO_OF(setpriority(PRIO_PROCESS, 0, -1))) TH_LOG("CAP_SYS_NICE");
	EXPECT_LE(before + 9, denials_of("capability"));
	/*
	 * A probe: listxattr() on tmpfs lists trusted.* names to CAP_SYS_ADMIN
	 * only, asking without auditing.  Refused, neither counted nor logged.
	 */
	counted = denials_of("capability");
	len = listxattr("/tmp/probe", names, sizeof(names));
	ASSERT_LE(0, len) TH_LOG("listxattr: %s", strerror(errno));
	EXPECT_EQ(NULL, memmem(names, len, "trusted.probe", 14)) TH_LOG("CAP_SYS_ADMIN, probed");
	EXPECT_EQ(counted, denials_of("capability")) TH_LOG("a probe counted as a denial");
	/*
	 * What a root keeps in its jail: ownership, and other users' files.
	 * A chmod() of a file of another group asks for CAP_FSETID, audited,
	 * only to know whether to keep S_ISGID: refused, it fails nothing
	 * and is not counted.
	 */
	counted = denials_of("capability");
	EXPECT_EQ(0, chown("/inside", 65534, 65534)) TH_LOG("CAP_CHOWN: %s", strerror(errno));
	EXPECT_EQ(0, chmod("/inside", 0)) TH_LOG("CAP_FOWNER: %s", strerror(errno));
	EXPECT_LE(0, open("/inside", O_RDONLY)) TH_LOG("CAP_DAC_OVERRIDE: %s", strerror(errno));
	EXPECT_EQ(0, chmod("/inside", 0644));
	EXPECT_EQ(counted, denials_of("capability")) TH_LOG("chmod()'s CAP_FSETID probe counted");
	EXPECT_EQ(0, chown("/inside", 0, 0));
}

/* SIGIO and SIGURG go where fcntl(F_SETOWN) says, sent by whoever does I/O. */
TEST_F(jail, sigio_outside)
{
	long before = denials_of("signal");
	int keep, status, p[2];
	pid_t outside = waiting_child(&keep, 0);
	sigset_t usr1;
	siginfo_t si;

	ASSERT_LT(0, outside);
	ASSERT_EQ(0, jail_self());
	ASSERT_EQ(0, pipe(p));
	ASSERT_EQ(0, fcntl(p[0], F_SETOWN, outside));
	ASSERT_EQ(0, fcntl(p[0], F_SETSIG, SIGKILL));
	ASSERT_EQ(0, fcntl(p[0], F_SETFL, O_ASYNC));
	ASSERT_EQ(1, write(p[1], "x", 1));
	EXPECT_EQ(before + 1, denials_of("signal"));
	/* its own process, as before */
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	ASSERT_EQ(0, sigprocmask(SIG_BLOCK, &usr1, NULL));
	ASSERT_EQ(0, fcntl(p[0], F_SETOWN, getpid()));
	ASSERT_EQ(0, fcntl(p[0], F_SETSIG, SIGUSR1));
	ASSERT_EQ(1, write(p[1], "x", 1));
	EXPECT_EQ(SIGUSR1, sigtimedwait(&usr1, &si, &(struct timespec){ 0, 0 }))
		TH_LOG("no SIGIO to itself");
	close(keep);
	EXPECT_EQ(outside, waitpid(outside, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
		TH_LOG("SIGKILL by SIGIO reached the process outside");
}

/* A jailed child in a process group of its own, in the caller's session. */
static int own_group(const void *unused)
{
	return setpgid(0, 0);
}

/* From the background: the terminal's foreground taken; errno or 0. */
static int take_foreground(void *arg)
{
	int tty = *(int *)arg;

	if (setpgid(0, 0))
		return 100;
	return tcsetpgrp(tty, getpid()) ? errno : 0;
}

/*
 * A terminal shared with a process outside, as the shell that started a
 * jail shares its own: the jailed use it (its modes, output, a foreground
 * group handed on and back within the jail), but neither type into it
 * (TIOCSTI, a write to its pty master), nor have the kernel signal a
 * foreground group with a process outside (TIOCSWINSZ sends SIGWINCH, the
 * master's TIOCSIG SIGINT, the session leader's TIOCNOTTY SIGHUP), nor
 * take the foreground from it.
 */
TEST_F(jail, terminal_outside)
{
	struct winsize ws = { .ws_row = 24, .ws_col = 80 };
	long before = denials_of("tty");
	int master, slave, keep, keep_jailed, status;
	struct termios modes;
	pid_t outside, jailed;
	char c = '\n';

	ASSERT_NE(SIG_ERR, signal(SIGTTOU, SIG_IGN));
	master = posix_openpt(O_RDWR | O_NOCTTY);
	ASSERT_LE(0, master);
	ASSERT_EQ(0, grantpt(master));
	ASSERT_EQ(0, unlockpt(master));
	slave = open(ptsname(master), O_RDWR | O_NOCTTY);
	ASSERT_LE(0, slave);
	/*
	 * A session on the terminal; its foreground group has a process
	 * outside.  The harness made this test lead a process group, and a
	 * group leader cannot start a session: back into the harness's group.
	 */
	ASSERT_EQ(0, setpgid(0, getpgid(getppid())));
	ASSERT_LT(0, setsid());
	ASSERT_EQ(0, ioctl(slave, TIOCSCTTY, 0));
	outside = waiting_child(&keep, 0);
	ASSERT_LT(0, outside);
	/* this test is in that foreground group too: the process outside tells */
	ASSERT_NE(SIG_ERR, signal(SIGINT, SIG_IGN));
	ASSERT_NE(SIG_ERR, signal(SIGHUP, SIG_IGN));
	ASSERT_EQ(0, jail_self());

	EXPECT_EQ(EPERM, ERRNO_OF(ioctl(slave, TIOCSTI, &c)));
	EXPECT_EQ(EPERM, ERRNO_OF(write(master, "id\n", 3)));
	EXPECT_EQ(EPERM, ERRNO_OF(ioctl(slave, TIOCSWINSZ, &ws)));
	EXPECT_EQ(EPERM, ERRNO_OF(ioctl(master, TIOCSWINSZ, &ws)));
	EXPECT_EQ(EPERM, ERRNO_OF(ioctl(master, TIOCSIG, SIGINT)));
	EXPECT_EQ(EPERM, in_child(take_foreground, &slave));
	EXPECT_EQ(before + 6, denials_of("tty"));

	/* ordinary use, neither refused nor counted */
	EXPECT_EQ(0, tcgetattr(slave, &modes));
	EXPECT_EQ(0, tcsetattr(slave, TCSANOW, &modes));
	EXPECT_EQ(3, write(slave, "ok\n", 3));
	EXPECT_EQ(0, ioctl(slave, TIOCGWINSZ, &ws));
	jailed = helper_child(&keep_jailed, own_group, NULL);
	ASSERT_LT(0, jailed);
	EXPECT_EQ(0, tcsetpgrp(slave, jailed)) TH_LOG("the foreground handed to a group in the jail");
	EXPECT_EQ(0, ioctl(slave, TIOCSWINSZ, &ws)) TH_LOG("resized with the jail in the foreground");
	/* as a jailed shell in the outside shell's foreground: typing still reaches the session */
	EXPECT_EQ(EPERM, ERRNO_OF(ioctl(slave, TIOCSTI, &c)));
	EXPECT_EQ(EPERM, ERRNO_OF(write(master, "id\n", 3)));
	EXPECT_EQ(0, tcsetpgrp(slave, getpgrp())) TH_LOG("the foreground handed back");
	EXPECT_EQ(before + 8, denials_of("tty"));
	/* last: the session leader letting go of its terminal hangs up its foreground */
	EXPECT_EQ(EPERM, ERRNO_OF(ioctl(slave, TIOCNOTTY)));
	EXPECT_EQ(before + 9, denials_of("tty"));

	close(keep_jailed);
	EXPECT_EQ(jailed, waitpid(jailed, NULL, 0));
	close(keep);
	EXPECT_EQ(outside, waitpid(outside, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
		TH_LOG("the process outside got a signal: status %#x", status);
}

TEST_F(jail, task_outside)
{
	long before = denials_of("task");
	struct rlimit low = { 64, 64 }, seen;
	struct sched_param prio = { 0 };
	int keep, status;
	pid_t outside = waiting_child(&keep, 0);
	cpu_set_t cpu0;

	ASSERT_LT(0, outside);
	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	ASSERT_EQ(0, jail_self());
	EXPECT_EQ(EPERM, ERRNO_OF(setpriority(PRIO_PROCESS, outside, 19)));
	EXPECT_EQ(EPERM, ERRNO_OF(sched_setaffinity(outside, sizeof(cpu0), &cpu0)));
	EXPECT_EQ(EPERM, ERRNO_OF(sched_setscheduler(outside, SCHED_BATCH, &prio)));
	EXPECT_EQ(EPERM, ERRNO_OF(sched_getscheduler(outside)));
	EXPECT_EQ(EPERM, ERRNO_OF(prlimit(outside, RLIMIT_NOFILE, &low, NULL)));
	EXPECT_EQ(EPERM, ERRNO_OF(getpgid(outside)));
	EXPECT_EQ(EPERM, ERRNO_OF(getsid(outside)));
	EXPECT_EQ(before + 7, denials_of("task"));
	/* the limit: reading limits asks a hook that gets credentials, not the task */
	EXPECT_EQ(0, prlimit(outside, RLIMIT_NOFILE, NULL, &seen)) TH_LOG("update the lesson");
	/* itself, as before */
	EXPECT_EQ(0, setpriority(PRIO_PROCESS, 0, 1));
	EXPECT_EQ(0, sched_setaffinity(0, sizeof(cpu0), &cpu0));
	EXPECT_EQ(0, prlimit(0, RLIMIT_NOFILE, &low, NULL));
	EXPECT_LT(0, getpgid(0));
	close(keep);
	EXPECT_EQ(outside, waitpid(outside, &status, 0));
}

/* Whether /proc lists @pid. */
static bool proc_lists(pid_t pid)
{
	DIR *proc = opendir("/proc");
	struct dirent *d;
	bool found = false;

	while (proc && !found && (d = readdir(proc)))
		found = atoi(d->d_name) == pid;
	if (proc)
		closedir(proc);
	return found;
}

/* The pid of a child that has exited and been reaped: a pid no process has. */
static pid_t reaped_pid(void)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(0);
	return pid > 0 && waitpid(pid, NULL, 0) == pid ? pid : -1;
}

/* Open /proc/@pid/@name with @flags; errno, or 0 if it opened. */
static int proc_open(pid_t pid, const char *name, int flags)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/%s", pid, name);
	fd = open(path, flags);
	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

TEST_F(jail, proc_outside)
{
	long ptrace = denials_of("ptrace"), task = denials_of("task"), sysctl = denials_of("sysctl");
	int keep, status, pidfd;
	char path[64], buf[64];
	pid_t outside, gone = reaped_pid();

	ASSERT_EQ(0, proc_in_jail()) TH_LOG("cannot mount proc in the jail: %s", strerror(errno));
	outside = waiting_child(&keep, 0);
	ASSERT_LT(0, outside);
	pidfd = syscall(SYS_pidfd_open, outside, 0);
	ASSERT_LE(0, pidfd);
	ASSERT_LT(0, gone);
	ASSERT_EQ(0, jail_self());
	/* ps: reading an outside task's stat asks a probe, refused quietly */
	snprintf(path, sizeof(path), "/proc/%d/stat", outside);
	EXPECT_LT(0, read_file(path, buf, sizeof(buf))) TH_LOG("%s", path);
	EXPECT_EQ(ptrace, denials_of("ptrace")) TH_LOG("reading %s counted as a ptrace denial", path);
	snprintf(path, sizeof(path), "/proc/%d/root", outside);
	EXPECT_EQ(EACCES, ERRNO_OF(readlink(path, buf, sizeof(buf)))) TH_LOG("%s", path);
	EXPECT_EQ(EACCES, proc_open(outside, "root" OUTSIDE, O_RDONLY));
	EXPECT_EQ(EACCES, proc_open(outside, "environ", O_RDONLY)) TH_LOG("PTRACE_MODE_READ");
	EXPECT_EQ(EACCES, proc_open(outside, "mem", O_RDONLY));
	EXPECT_EQ(EPERM, ERRNO_OF(syscall(SYS_pidfd_getfd, pidfd, 0, 0)));
	EXPECT_LE(ptrace + 5, denials_of("ptrace"));
	EXPECT_EQ(EPERM, proc_open(outside, "oom_score_adj", O_WRONLY)) TH_LOG("another's setting");
	EXPECT_EQ(task + 1, denials_of("task"));
	EXPECT_EQ(EPERM, ERRNO_OF(open("/proc/sys/kernel/hostname", O_WRONLY)));
	EXPECT_EQ(EPERM, ERRNO_OF(open("/proc/sysrq-trigger", O_WRONLY)));
	EXPECT_EQ(sysctl + 2, denials_of("sysctl"));
	/* its own, and reading the system's settings, as before */
	EXPECT_EQ(0, proc_open(getpid(), "oom_score_adj", O_WRONLY));
	EXPECT_EQ(0, proc_open(getpid(), "environ", O_RDONLY));
	EXPECT_EQ(1, readlink("/proc/self/root", buf, sizeof(buf)));
	EXPECT_LT(0, read_file("/proc/sys/kernel/hostname", buf, sizeof(buf)));
	/* the limits: what a jail can still learn of a process outside */
	EXPECT_TRUE(proc_lists(outside)) TH_LOG("/proc lists every process");
	EXPECT_EQ(0, proc_open(outside, "status", O_RDONLY)) TH_LOG("its status is readable");
	EXPECT_EQ(EPERM, ERRNO_OF(kill(outside, 0))) TH_LOG("EPERM: it exists");
	EXPECT_EQ(ESRCH, ERRNO_OF(kill(gone, 0))) TH_LOG("ESRCH: it does not");
	pidfd = syscall(SYS_pidfd_open, outside, 0);
	EXPECT_LE(0, pidfd) TH_LOG("pidfd_open() asks no hook");
	close(keep);
	EXPECT_EQ(outside, waitpid(outside, &status, 0));
}

/* In the jail: System V IPC objects made outside, then its own; 0 or the step that failed. */
static int ipc_jailed(void *arg)
{
	const int *id = arg;
	struct sembuf up = { 0, 1, IPC_NOWAIT };
	struct shmid_ds ds;
	long msg = 1;
	int own;

	if (jail_self())
		return 10;
	if (shmat(id[0], NULL, 0) != (void *)-1 || errno != EACCES)
		return 11;
	if (ERRNO_OF(shmctl(id[0], IPC_STAT, &ds)) != EACCES)
		return 12;
	if (ERRNO_OF(shmctl(id[0], IPC_RMID, NULL)) != EPERM)
		return 13;
	if (ERRNO_OF(msgsnd(id[1], &msg, 0, IPC_NOWAIT)) != EACCES)
		return 14;
	if (ERRNO_OF(semop(id[2], &up, 1)) != EACCES)
		return 15;
	own = shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0600);
	if (own < 0 || shmat(own, NULL, 0) == (void *)-1 || shmctl(own, IPC_RMID, NULL))
		return 16;
	return 0;
}

TEST_F(jail, ipc_outside)
{
	long before = denials_of("ipc");
	int id[3];

	id[0] = shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0600);
	id[1] = msgget(IPC_PRIVATE, IPC_CREAT | 0600);
	id[2] = semget(IPC_PRIVATE, 1, IPC_CREAT | 0600);
	ASSERT_LE(0, id[0]);
	ASSERT_LE(0, id[1]);
	ASSERT_LE(0, id[2]);
	EXPECT_EQ(0, in_child(ipc_jailed, id)) TH_LOG("see the step in ipc_jailed()");
	EXPECT_EQ(before + 5, denials_of("ipc"));
	EXPECT_EQ(0, shmctl(id[0], IPC_RMID, NULL)) TH_LOG("the segment is gone");
	EXPECT_EQ(0, msgctl(id[1], IPC_RMID, NULL));
	EXPECT_EQ(0, semctl(id[2], 0, IPC_RMID));
}

TEST_F(jail, unix_outside)
{
	static const struct unix_peer peers[] = {
		{ "@chrootjail-stream", SOCK_STREAM }, { "@chrootjail-dgram", SOCK_DGRAM },
		{ "/outside-sock", SOCK_STREAM }, { JAIL "/tmp/shared-sock", SOCK_STREAM },
	};
	int keep[4], path_fd, pair[2], carrier[2], secret, i;
	long before = denials_of("unix");
	char via[64], buf[16], c;

	ASSERT_EQ(0, proc_in_jail());
	for (i = 0; i < 4; i++) {
		if (peers[i].name[0] == '/')
			unlink(peers[i].name);
		ASSERT_LT(0, helper_child(&keep[i], unix_bind, &peers[i])) TH_LOG("%s", peers[i].name);
	}
	path_fd = open("/outside-sock", O_PATH);
	ASSERT_LE(0, path_fd);
	/* a file from outside, in flight when the receiver enters the jail */
	secret = open(OUTSIDE, O_RDONLY);
	ASSERT_LE(0, secret);
	ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_DGRAM, 0, carrier));
	ASSERT_EQ(0, send_fd(carrier[1], secret));
	close(secret);
	ASSERT_EQ(0, jail_self());
	EXPECT_EQ(EPERM, unix_connect("@chrootjail-stream", SOCK_STREAM)) TH_LOG("abstract, stream");
	EXPECT_EQ(EPERM, unix_connect("@chrootjail-dgram", SOCK_DGRAM)) TH_LOG("abstract, datagram");
	snprintf(via, sizeof(via), "/proc/self/fd/%d", path_fd);
	EXPECT_EQ(EPERM, unix_connect(via, SOCK_STREAM)) TH_LOG("bound outside, named through /proc");
	EXPECT_EQ(before + 3, denials_of("unix"));
	/* a socket put in the jail is meant for it; a pair of its own, as before */
	EXPECT_EQ(0, unix_connect("/tmp/shared-sock", SOCK_STREAM));
	ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_DGRAM, 0, pair));
	EXPECT_EQ(1, send(pair[0], "x", 1, 0));
	EXPECT_EQ(1, recv(pair[1], &c, 1, 0));
	/* the module trusts what the outside hands in (socket activation does) */
	secret = recv_fd(carrier[0]);
	EXPECT_LE(0, secret) TH_LOG("a descriptor sent from outside");
	EXPECT_EQ(8, read(secret, buf, sizeof(buf))) TH_LOG("reading it: %s", strerror(errno));
	for (i = 0; i < 4; i++)
		close(keep[i]);
}

static const char *const breakouts[] = {
	"chroot", "fchdir", "openat", "mknod", "ptrace", "signal", "setns", "fchmodat",
	"fchownat", "mkdirat", "unlinkat", "symlinkat", "sigio", "renice", "proc_root",
	"proc_mem", "pidfd_getfd", "sysctl", "init_module", "iopl",
	"sethostname", "settime", "shm", "unix", "tty", "mount", "pivot_root",
};
#define NR_BREAKOUTS	(sizeof(breakouts) / sizeof(breakouts[0]))

/*
 * Run jailbreak, which tries each breakout and prints "NAME BLOCKED ..." or
 * "NAME ESCAPED ...", then "N of M breakouts blocked"; each breakout's verdict
 * must be @want.  The lines are logged; the count of those as wanted returned.
 */
static int jailbreak_as(struct __test_metadata *_metadata, const char *want, int *status)
{
	char *argv[] = { "/lab/jailbreak", NULL };
	char line[256], last[256] = "", name[32], verdict[16], total[64];
	int fd, as_wanted = 0, seen = 0;
	size_t i;
	pid_t pid;

	fd = spawn(argv, &pid);
	if (fd < 0)
		return -1;
	while (!read_line(fd, line, sizeof(line))) {
		line[strcspn(line, "\n")] = '\0';
		TH_LOG("%s", line);
		strcpy(last, line);
		if (sscanf(line, "%31s %15s", name, verdict) != 2)
			continue;
		for (i = 0; i < NR_BREAKOUTS; i++) {
			if (strcmp(name, breakouts[i]))
				continue;
			seen++;
			EXPECT_STREQ(want, verdict) TH_LOG("%s", line);
			as_wanted += !strcmp(verdict, want);
		}
	}
	EXPECT_EQ((int)NR_BREAKOUTS, seen) TH_LOG("breakouts reported");
	snprintf(total, sizeof(total), "%zu of %zu breakouts blocked",
		 strcmp(want, "BLOCKED") ? (size_t)0 : NR_BREAKOUTS, NR_BREAKOUTS);
	EXPECT_STREQ(total, last) TH_LOG("the last line");
	EXPECT_EQ(pid, waitpid(pid, status, 0));
	return as_wanted;
}

TEST_F_TIMEOUT(jail, program_jailbreak, 120)
{
	int status;

	EXPECT_EQ((int)NR_BREAKOUTS, jailbreak_as(_metadata, "BLOCKED", &status));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) TH_LOG("jailbreak's status");
	/* the probes work: with enforcement off, every one gets out */
	ASSERT_EQ(0, write_file(ENFORCE, "0"));
	EXPECT_EQ((int)NR_BREAKOUTS, jailbreak_as(_metadata, "ESCAPED", &status));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 1) TH_LOG("jailbreak's status");
	EXPECT_EQ(0, write_file(ENFORCE, "1"));
}

TEST_HARNESS_MAIN
