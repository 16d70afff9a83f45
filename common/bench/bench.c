// SPDX-License-Identifier: GPL-2.0
/*
 * bench - the course's measurements, in one boot of the guest
 *
 *   bench [-b] [-o SECTION,...] [-r ROUNDS] [-n TASKS] [-s STORM] [-l LOOP]
 *         [-w ITERATIONS]
 *
 * Writes one "sample SECTION NAME VALUE" line per measurement to
 * /dev/ttyS1 (the results line, as run-tests does), for common/bench.py.
 * VALUE is in the guest clock's nanoseconds: guest instructions when QEMU
 * counts them (ACCEL=icount: one instruction, one nanosecond), wall time
 * otherwise.  Sections (-o picks some, all by default):
 *
 *   forkcost CONFIG/MODE   per fork+exit+wait, vfork, or thread
 *                          create+join; CONFIG is idle (no callback, the
 *                          static key off) or tally (fork_tally.ko: one
 *                          counting callback); -b: "base" only (a kernel
 *                          without the fork hook)
 *   growth relay/N         per fork+exit+wait with relay_fork.ko and N
 *                          draining listeners (N = 0, 1, 4, 16, 64)
 *   growth connector/N     per fork+exit+wait with N proc connector
 *                          subscribers draining (N = 0, 1, 4, 16)
 *   workload CONFIG/iteration  per iteration of a busybox shell loop that
 *                          runs a command and a two-command pipeline (three
 *                          forks, two execs); CONFIG as for forkcost
 *   lsm OP/WHERE           per call of each operation a jail judges
 *                          (lsm_ops[]: open, chmod, mkdir, kill, shm, a
 *                          unix datagram, setgroups's capable() check...)
 *                          and, in a jail, chroot; WHERE is unjailed or
 *                          jailed, with "-nolsm" when chrootjail is not
 *                          enabled (lsm=capability)
 *   storm KIND/delivered|lost|p50_us|p99_us|overflows
 *                          STORM forks, each reported by relay_fork's RT
 *                          signal, by a classic signal (SIGUSR1, sent by
 *                          the forker: they merge), or by the proc
 *                          connector; latency from fork() to receipt
 *
 * Configurations alternate within each round, in a rotating order, so
 * that drift in a noisy machine spreads over all of them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/cn_proc.h>
#include <linux/connector.h>
#include <linux/netlink.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/msg.h>
#include <sys/resource.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <grp.h>

#define RELAY_KO	"/lab/relay_fork.ko"
#define TALLY_KO	"/lab/bench/fork_tally.ko"
#define PROCESSES	"/sys/relayfork/processes"
#define SIGNAL		"/sys/relayfork/signal"
#define JAILFS		"/sys/kernel/security/chrootjail"
#define MAX_STORM	20000
#define RELAY_SIG	34	/* SIGRTMIN for glibc: it keeps 32 and 33 */

static FILE *out;
static int rounds = 5, tasks = 300, storm = 10000, loop = 2000, iterations = 100, base;
static const char *only;

static void sample(const char *section, const char *name, double value)
{
	fprintf(out, "sample %s %s %.1f\n", section, name, value);
	fflush(out);
}

static void die(const char *what)
{
	fprintf(stderr, "bench: %s: %s\n", what, strerror(errno));
	fprintf(out, "error %s: %s\n", what, strerror(errno));
	exit(1);
}

static long long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static int write_text(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY);
	int ok;

	if (fd < 0)
		return -1;
	ok = write(fd, text, strlen(text)) == (ssize_t)strlen(text);
	close(fd);
	return ok ? 0 : -1;
}

static int load(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), err;

	if (fd < 0)
		return -1;
	err = syscall(SYS_finit_module, fd, "", 0);
	close(fd);
	return err;
}

/* relay_fork.ko, sending RELAY_SIG */
static int load_relay(void)
{
	char text[8];

	snprintf(text, sizeof(text), "%d", RELAY_SIG);
	return load(RELAY_KO) || write_text(SIGNAL, text);
}

static void unload(const char *name)
{
	syscall(SYS_delete_module, name, O_NONBLOCK);
}

/* --- task creation costs ------------------------------------------------ */

static void *nothing(void *arg)
{
	return arg;
}

/* ns per task created the @mode way (0 fork, 1 vfork, 2 thread), over @n */
static double create_cost(int mode, int n)
{
	long long start = now_ns();
	pthread_t thread;
	volatile int i;	/* vfork: the child shares this stack frame */

	for (i = 0; i < n; i++) {
		pid_t pid;

		if (mode == 2) {
			if (pthread_create(&thread, NULL, nothing, NULL))
				die("pthread_create");
			pthread_join(thread, NULL);
			continue;
		}
		pid = mode ? vfork() : fork();
		if (pid == 0)
			_exit(0);
		if (pid < 0)
			die("fork");
		waitpid(pid, NULL, 0);
	}
	return (double)(now_ns() - start) / n;
}

static const char *const modes[] = { "fork", "vfork", "thread" };
/*
 * Tasks per sample, times -n: about as many instructions (35 ms) for each
 * mode.  A sample of 200 threads (6 ms, a tick and a half) came out at one
 * of two counts 6 % apart, by memory layout: work that lands in a sample
 * or after it (a tick's, the finished tasks' frees) must be averaged over
 * many ticks.
 */
static const int mode_scale[] = { 1, 4, 6 };

/*
 * create_cost(), after a quarter of the tasks untimed, in a child of its
 * own: every sample starts from the same process.  (glibc keeps a finished
 * thread's stack, and each fork then copies its page tables: fork cost
 * 164,000 instructions before the first thread and 230,000 after.)  The
 * untimed tasks take what a module load or new listeners left to do.
 */
static double measured(int mode, int n)
{
	int result[2];
	double cost;
	pid_t pid;

	if (pipe(result))
		die("pipe");
	pid = fork();
	if (pid == 0) {
		create_cost(mode, n / 4 + 1);
		cost = create_cost(mode, n);
		_exit(write(result[1], &cost, sizeof(cost)) != sizeof(cost));
	}
	close(result[1]);
	if (pid < 0 || read(result[0], &cost, sizeof(cost)) != sizeof(cost))
		die("a measuring child");
	close(result[0]);
	waitpid(pid, NULL, 0);
	return cost;
}

/* Each round, each configuration in turn: idle and tally, or base alone. */
static void per_config(void (*measure)(const char *config))
{
	int n = base ? 1 : 2, r, k, c;

	for (r = 0; r < rounds; r++) {
		for (k = 0; k < n; k++) {
			c = (r + k) % n;
			if (c == 1 && load(TALLY_KO))
				die(TALLY_KO);
			measure(base ? "base" : c ? "tally" : "idle");
			if (c == 1)
				unload("fork_tally");
		}
	}
}

static void forkcost(const char *config)
{
	char name[64];
	int m;

	for (m = 0; m < 3; m++) {
		snprintf(name, sizeof(name), "%s/%s", config, modes[m]);
		sample("forkcost", name, measured(m, tasks * mode_scale[m]));
	}
}

/* per iteration of a shell loop: a command, and a pipeline of two */
static void workload(const char *config)
{
	char script[256], name[64];
	long long start;
	int status;
	pid_t pid;

	snprintf(script, sizeof(script), "i=0; while [ $i -lt %d ]; do /bin/busybox true; "
		 "echo $i | /bin/busybox cat >/dev/null; i=$((i + 1)); done", iterations);
	start = now_ns();
	pid = fork();
	if (pid == 0) {
		execl("/bin/sh", "sh", "-c", script, (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		die("the workload's shell loop");
	snprintf(name, sizeof(name), "%s/iteration", config);
	sample("workload", name, (double)(now_ns() - start) / iterations);
}

/* --- how a fork's cost grows with the listeners --------------------------- */

static const int relay_counts[] = { 0, 1, 4, 16, 64 };
static const int connector_counts[] = { 0, 1, 4, 16 };
#define N_RELAY		(int)(sizeof(relay_counts) / sizeof(relay_counts[0]))
#define N_CONNECTOR	(int)(sizeof(connector_counts) / sizeof(connector_counts[0]))

/*
 * Fork a process that runs @body, which writes a byte to its @ready pipe
 * once it listens; return when it has.
 */
static pid_t start(void (*body)(int ready), const char *what)
{
	int ready[2];
	pid_t pid;
	char c;

	if (pipe(ready))
		die("pipe");
	pid = fork();
	if (pid == 0) {
		close(ready[0]);
		body(ready[1]);
		_exit(1);
	}
	close(ready[1]);
	if (pid < 0 || read(ready[0], &c, 1) != 1)
		die(what);
	close(ready[0]);
	return pid;
}

static void stop(pid_t pid)
{
	kill(pid, SIGTERM);
	waitpid(pid, NULL, 0);
}

/* A relay listener: registers, drains its signal until SIGTERM. */
static void relay_listener(int ready)
{
	char text[16];
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, RELAY_SIG);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_BLOCK, &set, NULL);
	snprintf(text, sizeof(text), "%d", getpid());
	if (write_text(PROCESSES, text) || write(ready, "r", 1) != 1)
		_exit(1);
	while (sigwaitinfo(&set, NULL) != SIGTERM)
		;
	_exit(0);
}

static int connector_socket(void);

/* A proc connector subscriber: takes every event until SIGTERM. */
static void subscriber(int ready)
{
	char buf[8192];
	int fd = connector_socket();

	if (fd < 0 || write(ready, "r", 1) != 1)
		_exit(1);
	for (;;)
		recv(fd, buf, sizeof(buf), 0);
}

static void growth(void)
{
	int r, k, c, i, n, relay;
	pid_t pids[64];
	char name[64];

	for (r = 0; r < rounds; r++) {
		for (k = 0; k < N_RELAY + N_CONNECTOR; k++) {
			c = (r + k) % (N_RELAY + N_CONNECTOR);
			relay = c < N_RELAY;
			n = relay ? relay_counts[c] : connector_counts[c - N_RELAY];
			if (relay && load_relay())
				die(RELAY_KO);
			for (i = 0; i < n; i++)
				pids[i] = relay ? start(relay_listener, "a relay listener") :
					  start(subscriber, "a proc connector subscriber");
			snprintf(name, sizeof(name), "%s/%d", relay ? "relay" : "connector", n);
			sample("growth", name, measured(0, tasks));
			for (i = 0; i < n; i++)
				stop(pids[i]);
			if (relay)
				unload("relay_fork");
		}
	}
}

/* --- event delivery in a storm ----------------------------------------- */

/* Shared between the forker and a listener: who was forked when, heard when. */
struct storm_log {
	int forked, heard, overruns;
	pid_t fork_pid[MAX_STORM];
	long long fork_ns[MAX_STORM];
	pid_t heard_pid[MAX_STORM];
	long long heard_ns[MAX_STORM];
};

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

/* Delivered, lost, and the latency percentiles of a storm's log. */
static void storm_report(const char *kind, struct storm_log *log)
{
	static long long lat[MAX_STORM];
	int i, j, n = 0, from = 0;
	char name[64];

	for (i = 0; i < log->heard; i++) {
		for (j = from; j < log->forked && log->fork_pid[j] != log->heard_pid[i]; j++)
			;
		if (j == log->forked)
			continue;
		from = j;	/* events come in fork order */
		lat[n++] = log->heard_ns[i] - log->fork_ns[j];
	}
	/*
	 * A classic signal tells no pid: each one heard counts.  A relay
	 * signal comes for every fork in the system: those of other
	 * processes (a kernel thread started meanwhile: 201 of 200 once, on
	 * the debug kernel) are counted apart.
	 */
	if (!strcmp(kind, "classic"))
		n = log->heard;
	snprintf(name, sizeof(name), "%s/delivered", kind);
	sample("storm", name, n);
	snprintf(name, sizeof(name), "%s/lost", kind);
	sample("storm", name, log->forked - n);
	if (!strcmp(kind, "relay"))
		sample("storm", "relay/others", log->heard - n);
	if (!strcmp(kind, "connector"))
		sample("storm", "connector/overflows", log->overruns);
	if (!strcmp(kind, "classic"))
		return;
	if (!n)
		return;
	qsort(lat, n, sizeof(lat[0]), cmp_ll);
	snprintf(name, sizeof(name), "%s/p50_us", kind);
	sample("storm", name, lat[n / 2] / 1000.0);
	snprintf(name, sizeof(name), "%s/p99_us", kind);
	sample("storm", name, lat[n * 99 / 100] / 1000.0);
}

/* Fork @storm times, logging each child; @kick (if > 0) is signalled each time. */
static void storm_forks(struct storm_log *log, pid_t kick)
{
	int i;

	for (i = 0; i < storm; i++) {
		long long t = now_ns();
		pid_t pid = fork();

		if (pid == 0)
			_exit(0);
		if (pid < 0)
			die("fork");
		log->fork_pid[i] = pid;
		log->fork_ns[i] = t;
		if (kick > 0)
			kill(kick, SIGUSR1);
		waitpid(pid, NULL, 0);
	}
	log->forked = storm;
}

static void heard(struct storm_log *log, pid_t pid)
{
	if (log->heard < MAX_STORM) {
		log->heard_pid[log->heard] = pid;
		log->heard_ns[log->heard++] = now_ns();
	}
}

/* Hear relay signals (@sig) or SIGUSR1 until SIGTERM; log them. */
static void signal_listener(struct storm_log *log, int sig, int ready)
{
	siginfo_t info;
	sigset_t set;
	char text[16];

	sigemptyset(&set);
	sigaddset(&set, sig);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_BLOCK, &set, NULL);
	if (sig != SIGUSR1) {
		snprintf(text, sizeof(text), "%d", getpid());
		if (write_text(PROCESSES, text))
			_exit(1);
	}
	if (write(ready, "r", 1) != 1)
		_exit(1);
	for (;;) {
		static const struct timespec zero;
		int got = sigwaitinfo(&set, &info);

		/*
		 * SIGTERM, a lower number, is taken before the RT signals still
		 * queued: the forker is done, so take those that are pending.
		 */
		if (got == SIGTERM) {
			sigdelset(&set, SIGTERM);
			while (sigtimedwait(&set, &info, &zero) == sig)
				heard(log, sig == SIGUSR1 ? 0 : info.si_int);
			break;
		}
		if (got == sig)
			heard(log, sig == SIGUSR1 ? 0 : info.si_int);
	}
	_exit(0);
}

struct cn_request {
	struct nlmsghdr nl;
	struct cn_msg cn;
	enum proc_cn_mcast_op op;
} __attribute__((packed));

/* A netlink socket subscribed to the proc connector's events, or -1. */
static int connector_socket(void)
{
	struct sockaddr_nl addr = { .nl_family = AF_NETLINK, .nl_groups = CN_IDX_PROC };
	struct cn_request req = { 0 };
	int fd = socket(AF_NETLINK, SOCK_DGRAM, NETLINK_CONNECTOR);

	addr.nl_pid = getpid();
	if (fd < 0 || bind(fd, (struct sockaddr *)&addr, sizeof(addr)))
		return -1;
	req.nl.nlmsg_len = sizeof(req);
	req.nl.nlmsg_type = NLMSG_DONE;
	req.nl.nlmsg_pid = getpid();
	req.cn.id.idx = CN_IDX_PROC;
	req.cn.id.val = CN_VAL_PROC;
	req.cn.len = sizeof(req.op);
	req.op = PROC_CN_MCAST_LISTEN;
	return send(fd, &req, sizeof(req), 0) == sizeof(req) ? fd : -1;
}

/* Hear the proc connector's fork events of @forker until @stop_fd is readable. */
static void connector_listener(struct storm_log *log, pid_t forker, int ready, int stop_fd)
{
	char buf[8192];
	int fd = connector_socket();

	if (fd < 0 || write(ready, "r", 1) != 1)
		_exit(1);
	for (;;) {
		struct pollfd p[2] = { { .fd = fd, .events = POLLIN }, { .fd = stop_fd, .events = POLLIN } };
		struct nlmsghdr *nl = (struct nlmsghdr *)buf;
		ssize_t len;

		if (poll(p, 2, -1) < 0)
			continue;
		/* an overflow is POLLERR alone: take its ENOBUFS before leaving */
		if (!(p[0].revents & (POLLIN | POLLERR)) && p[1].revents)
			break;
		len = recv(fd, buf, sizeof(buf), 0);
		if (len < 0) {
			if (errno == ENOBUFS)
				log->overruns++;
			continue;
		}
		for (; NLMSG_OK(nl, len); nl = NLMSG_NEXT(nl, len)) {
			struct cn_msg *cn = NLMSG_DATA(nl);
			struct proc_event *ev = (struct proc_event *)cn->data;

			if (ev->what == PROC_EVENT_FORK && ev->event_data.fork.parent_tgid == forker)
				heard(log, ev->event_data.fork.child_pid);
		}
	}
	_exit(0);
}

static void storm_one(const char *kind)
{
	struct storm_log *log = mmap(NULL, sizeof(*log), PROT_READ | PROT_WRITE,
				     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int ready[2], stop_pipe[2];
	pid_t listener, me = getpid();
	char c;

	if (log == MAP_FAILED || pipe(ready) || pipe(stop_pipe))
		die("storm set-up");
	memset(log, 0, sizeof(*log));
	if (!strcmp(kind, "relay") && load_relay())
		die(RELAY_KO);
	listener = fork();
	if (listener == 0) {
		close(ready[0]);
		close(stop_pipe[1]);
		if (!strcmp(kind, "connector"))
			connector_listener(log, me, ready[1], stop_pipe[0]);
		signal_listener(log, strcmp(kind, "relay") ? SIGUSR1 : RELAY_SIG, ready[1]);
	}
	close(ready[1]);
	close(stop_pipe[0]);
	if (read(ready[0], &c, 1) != 1)
		die("a storm listener");
	storm_forks(log, strcmp(kind, "classic") ? 0 : listener);
	/*
	 * A connector listener drains its socket and leaves once the pipe
	 * closes: a SIGTERM could kill it mid-queue, events heard by nobody
	 * and counted lost without an overflow.
	 */
	close(stop_pipe[1]);
	if (!strcmp(kind, "connector"))
		waitpid(listener, NULL, 0);
	else
		stop(listener);
	if (!strcmp(kind, "relay"))
		unload("relay_fork");
	storm_report(kind, log);
	munmap(log, sizeof(*log));
}

/* --- LSM cost ------------------------------------------------------------- */

#define JAIL	"/bench-jail"

/*
 * The operations a jail judges, one call each, on "file" in the current
 * directory (bench.py names the hooks each runs).  A jail may refuse some:
 * the refusal is what they cost there.
 */
static int owned_fd, unix_pair[2], sigio_pipe[2], unix_listener, ptrace_pidfd;

static void op_open(int i)
{
	int fd = open("file", O_RDONLY);

	if (fd < 0)
		die("open file");
	close(fd);
}

static void op_stat(int i)
{
	struct stat st;

	if (stat("file", &st))
		die("stat file");
}

static void op_create(int i)
{
	close(open("new", O_WRONLY | O_CREAT | O_EXCL, 0644));
	unlink("new");
}

static void op_chmod(int i)
{
	chmod("file", i % 2 ? 0644 : 0600);
}

static void op_chown(int i)
{
	chown("file", 0, 0);
}

static void op_truncate(int i)
{
	truncate("file", 0);
}

static void op_xattr(int i)
{
	setxattr("file", "user.bench", "1", 1, 0);
}

static void op_mkdir(int i)
{
	if (mkdir("dir", 0755) || rmdir("dir"))
		die("mkdir and rmdir dir");
}

static void op_symlink(int i)
{
	symlink("file", "sym");
	unlink("sym");
}

static void op_link(int i)
{
	link("file", "lnk");
	unlink("lnk");
}

static void op_rename(int i)
{
	rename("file", "file2");
	rename("file2", "file");
}

static void op_kill(int i)
{
	if (kill(getpid(), 0))
		die("kill");
}

static void op_nice(int i)
{
	setpriority(PRIO_PROCESS, 0, 0);
}

static void op_rlimit(int i)
{
	struct rlimit r;

	if (!getrlimit(RLIMIT_NOFILE, &r))
		setrlimit(RLIMIT_NOFILE, &r);
}

static void op_fowner(int i)
{
	fcntl(owned_fd, F_SETOWN, getpid());
}

static void op_shm(int i)
{
	int id = shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0600);

	if (id >= 0)
		shmctl(id, IPC_RMID, NULL);
}

static void op_unix(int i)
{
	char c;

	if (send(unix_pair[0], "x", 1, 0) == 1)
		recv(unix_pair[1], &c, 1, 0);
}

static void op_pgid(int i)
{
	getpgid(getpid());
	getsid(getpid());
}

static void op_sched(int i)
{
	static const struct sched_param zero;

	sched_getscheduler(getpid());
	sched_setscheduler(0, SCHED_OTHER, &zero);
}

/* a byte through a pipe whose reader asked for SIGIO (ignored) */
static void op_sigio(int i)
{
	char c;

	if (write(sigio_pipe[1], "x", 1) == 1)
		read(sigio_pipe[0], &c, 1);
}

static void op_msg(int i)
{
	struct msqid_ds ds;
	int id = msgget(IPC_PRIVATE, IPC_CREAT | 0600);

	if (id >= 0) {
		msgctl(id, IPC_STAT, &ds);
		msgctl(id, IPC_RMID, NULL);
	}
}

static void op_sem(int i)
{
	int id = semget(IPC_PRIVATE, 1, IPC_CREAT | 0600);

	if (id >= 0)
		semctl(id, 0, IPC_RMID);
}

/* connect to a unix stream socket listening outside any jail, and accept */
static void op_connect(int i)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX, .sun_path = "\0bench" };
	int fd = socket(AF_UNIX, SOCK_STREAM, 0), peer;

	if (fd < 0)
		return;
	if (!connect(fd, (struct sockaddr *)&addr, sizeof(sa_family_t) + 6)) {
		peer = accept(unix_listener, NULL, NULL);
		if (peer >= 0)
			close(peer);
	}
	close(fd);
}

static void op_mount(int i)
{
	if (!mount("bench", "mnt", "tmpfs", 0, NULL))
		umount("mnt");
}

static void op_setgroups(int i)
{
	setgroups(0, NULL);
}

/* another task's file, taken through a pidfd: a ptrace access check */
static void op_ptrace(int i)
{
	int fd = syscall(SYS_pidfd_getfd, ptrace_pidfd, owned_fd, 0);

	if (fd >= 0)
		close(fd);
}

/* the caller's own group: the hook runs, nothing changes after the first */
static void op_setpgid(int i)
{
	setpgid(0, 0);
}

/* Refused after the hooks: "." is not a mount point (EBUSY, EINVAL). */
static void op_pivot_root(int i)
{
	if (!syscall(SYS_pivot_root, ".", "."))
		die("pivot_root moved the root");
}

static void op_move_mount(int i)
{
	if (!syscall(SYS_move_mount, AT_FDCWD, "mnt", AT_FDCWD, "mnt", 0))
		die("move_mount moved mnt");
}

static void op_chroot(int i)
{
	chroot(".");
}

static const struct {
	const char *name;
	void (*call)(int i);
} lsm_ops[] = {
	{ "open", op_open }, { "stat", op_stat }, { "create", op_create },
	{ "chmod", op_chmod }, { "chown", op_chown }, { "truncate", op_truncate },
	{ "xattr", op_xattr }, { "mkdir", op_mkdir }, { "symlink", op_symlink },
	{ "link", op_link }, { "rename", op_rename }, { "kill", op_kill },
	{ "nice", op_nice }, { "rlimit", op_rlimit }, { "fowner", op_fowner },
	{ "pgid", op_pgid }, { "sched", op_sched }, { "sigio", op_sigio },
	{ "shm", op_shm }, { "msg", op_msg }, { "sem", op_sem },
	{ "unix", op_unix }, { "connect", op_connect }, { "mount", op_mount },
	{ "setgroups", op_setgroups }, { "ptrace", op_ptrace }, { "setpgid", op_setpgid },
	{ "pivot_root", op_pivot_root }, { "move_mount", op_move_mount },
	{ "chroot", op_chroot },
};

#define BATCH_NS	50000	/* a timed batch: a small part of a 4 ms tick */
#define MAX_BATCHES	1000

static void op_none(int i)
{
}

/*
 * Instructions (ns) per batch of @per calls, over @batches batches, without
 * the slowest twentieth of them: those where an interrupt landed (a timer
 * tick and the work it runs, a ratelimited console message).  noipa: the
 * empty op must be timed through the same code as the others.
 */
static __attribute__((noipa)) double batched(void (*call)(int), int per, int batches)
{
	static long long batch[MAX_BATCHES];
	long long t, sum = 0;
	int b, i, kept = batches - batches / 20;

	for (b = 0; b < batches; b++) {
		t = now_ns();
		for (i = 0; i < per; i++)
			call(b * per + i);
		batch[b] = now_ns() - t;
	}
	qsort(batch, batches, sizeof(batch[0]), cmp_ll);
	for (b = 0; b < kept; b++)
		sum += batch[b];
	return (double)sum / kept;
}

/*
 * Per call of each operation, on "file" in the current directory: -l calls
 * in at least 100 batches of at most BATCH_NS, the batches an interrupt
 * landed in left out, and the clock's and the loop's own instructions (an
 * empty op's) taken off.  Timed as one loop of 1000 calls, a call counted
 * up to 400 instructions more in some memory layouts than in others; the
 * median batch was no better for calls that allocate, whose slow paths (a
 * new slab) come every few calls and must be averaged.  So these are a
 * call's own instructions; what it leaves to a tick (frees after an RCU
 * grace period) is counted in part at most.  chroot only in a jail
 * (unjailed, a first chroot jails the caller, or moves the bench itself:
 * there is no loop to time).
 */
static void lsm_loops(const char *where, int jailed)
{
	int per, batches, i;
	unsigned int op;
	char name[64];
	long long t;
	double cost;

	fcntl(sigio_pipe[0], F_SETOWN, getpid());	/* SIGIO comes to this task */
	for (op = 0; op < sizeof(lsm_ops) / sizeof(lsm_ops[0]); op++) {
		if (lsm_ops[op].call == op_chroot && !jailed)
			continue;
		/* ten calls untimed, to size the batches */
		t = now_ns();
		for (i = 0; i < 10; i++)
			lsm_ops[op].call(i);
		per = BATCH_NS / ((now_ns() - t) / 10 + 1);
		if (per > loop / 100)
			per = loop / 100;
		if (per < 1)
			per = 1;
		batches = loop / per < MAX_BATCHES ? loop / per : MAX_BATCHES;
		cost = batched(lsm_ops[op].call, per, batches) - batched(op_none, per, batches);
		snprintf(name, sizeof(name), "%s/%s", lsm_ops[op].name, where);
		sample("lsm", name, cost / per);
	}
}

/* An abstract unix stream socket, "\0bench", listening for op_connect(). */
static int listen_unix(void)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX, .sun_path = "\0bench" };

	unix_listener = socket(AF_UNIX, SOCK_STREAM, 0);
	return unix_listener < 0 ||
	       bind(unix_listener, (struct sockaddr *)&addr, sizeof(sa_family_t) + 6) ||
	       listen(unix_listener, 4);
}

/*
 * One round of the loops in a child of its own (not the session leader
 * init made the bench: setpgid would be refused before any hook), jailed
 * or not; its own child stands for "another task" (op_ptrace).
 */
static void lsm_round(int jailed, int lsm_there)
{
	static const char *const where[2][2] = {
		{ "unjailed-nolsm", "jailed-nolsm" }, { "unjailed", "jailed" },
	};
	pid_t pid = fork(), other;

	if (pid < 0)
		die("fork");
	if (pid) {
		waitpid(pid, NULL, 0);
		return;
	}
	if (jailed && (chroot(JAIL) || chdir("/")))
		die("chroot");
	other = fork();
	if (other == 0) {
		pause();
		_exit(0);
	}
	ptrace_pidfd = syscall(SYS_pidfd_open, other, 0);
	if (other < 0 || ptrace_pidfd < 0)
		die("another task and its pidfd");
	lsm_loops(where[lsm_there][jailed], jailed);
	kill(other, SIGKILL);
	waitpid(other, NULL, 0);
	_exit(0);
}

/* The same loops on the same file, from outside and from inside a jail. */
static void lsm(void)
{
	struct stat st;
	int lsm_there = !stat(JAILFS, &st), r, k;

	if ((mkdir(JAIL, 0755) && errno != EEXIST) || chdir(JAIL))
		die(JAIL);
	close(open("file", O_WRONLY | O_CREAT, 0644));
	owned_fd = open("file", O_RDONLY);
	if (owned_fd < 0 || socketpair(AF_UNIX, SOCK_DGRAM, 0, unix_pair) ||
	    pipe(sigio_pipe) || fcntl(sigio_pipe[0], F_SETFL, O_ASYNC) ||
	    signal(SIGIO, SIG_IGN) == SIG_ERR || listen_unix() ||
	    (mkdir("mnt", 0755) && errno != EEXIST))
		die("the LSM loops' files and sockets");
	for (r = 0; r < rounds; r++)
		for (k = 0; k < 2; k++)
			lsm_round((r + k) % 2, lsm_there);
	if (chdir("/"))
		die("chdir /");
}

/* Is the comma-separated LIST's word at @word, @len long, @name? */
static int is_word(const char *word, size_t len, const char *name)
{
	return len == strlen(name) && !strncmp(word, name, len);
}

/* Is SECTION among -o's (all when -o is not given; a base kernel has no modules)? */
static int wanted(const char *section)
{
	const char *w;

	if (!only)
		return !base || !strcmp(section, "forkcost") || !strcmp(section, "workload");
	for (w = only; *w; w += strcspn(w, ","), w += *w == ',')
		if (is_word(w, strcspn(w, ","), section))
			return 1;
	return 0;
}

int main(int argc, char *argv[])
{
	static const char *const sections[] = { "forkcost", "growth", "workload", "lsm", "storm" };
	unsigned int i;
	const char *w;
	int opt;

	while ((opt = getopt(argc, argv, "bo:r:n:s:l:w:")) != -1) {
		switch (opt) {
		case 'b': base = 1; break;
		case 'o': only = optarg; break;
		case 'r': rounds = atoi(optarg); break;
		case 'n': tasks = atoi(optarg); break;
		case 's': storm = atoi(optarg); break;
		case 'l': loop = atoi(optarg); break;
		case 'w': iterations = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: bench [-b] [-o SECTION,...] [-r ROUNDS] [-n TASKS] "
				"[-s STORM] [-l LOOP] [-w ITERATIONS]\n");
			return 2;
		}
	}
	if (storm > MAX_STORM || rounds < 1 || tasks < 1 || loop < 1 || iterations < 1) {
		fprintf(stderr, "bench: rounds, tasks, loop, iterations >= 1; storm <= %d\n", MAX_STORM);
		return 2;
	}
	for (w = only; w && *w; w += strcspn(w, ","), w += *w == ',') {
		for (i = 0; i < sizeof(sections) / sizeof(sections[0]); i++)
			if (is_word(w, strcspn(w, ","), sections[i]))
				break;
		if (i == sizeof(sections) / sizeof(sections[0])) {
			fprintf(stderr, "bench: -o takes forkcost, growth, workload, lsm, storm; "
				"not '%.*s'\n", (int)strcspn(w, ","), w);
			return 2;
		}
	}
	out = fopen("/dev/ttyS1", "w");
	if (!out)
		out = stdout;
	fprintf(out, "# bench rounds=%d tasks=%d storm=%d loop=%d iterations=%d\n",
		rounds, tasks, storm, loop, iterations);
	/*
	 * The LSM loops first, on a quiet system: after the fork sections,
	 * the work their tasks left behind (RCU callbacks, frees) ran during
	 * the loops, and two boots' open loops came out 11 % apart.
	 */
	if (wanted("lsm"))
		lsm();
	/* the first load of a boot leaves work behind that later ones do not */
	if (!base && !load(TALLY_KO))
		unload("fork_tally");
	if (wanted("forkcost"))
		per_config(forkcost);
	if (wanted("growth"))
		growth();
	if (wanted("workload"))
		per_config(workload);
	if (wanted("storm")) {
		storm_one("relay");
		storm_one("classic");
		storm_one("connector");
	}
	fprintf(out, "# done\n");
	return 0;
}
