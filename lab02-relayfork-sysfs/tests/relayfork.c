// SPDX-License-Identifier: GPL-2.0
/*
 * relayfork.c - graded tests of lab 02, run in the guest.
 *
 * Every test starts from a freshly loaded relay_fork module.  Listeners are
 * child processes that block the relay signal, so the signals a fork sends
 * stay queued; the kernel queues them before fork() returns, so once the
 * forking side is done a listener drains them with a zero timeout and
 * reports what it got through a pipe.  No sleeps: pipes order everything.
 */
#include "labtest.h"

#include <grp.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <linux/sched.h>

#define PROCESSES	"/sys/relayfork/processes"
#define SIGNAL		"/sys/relayfork/signal"
#define MODULE_PATH	"/lab/relay_fork.ko"
#define MODULE_NAME	"relay_fork"
#define MAX_LISTENERS	64
#define MAX_EVENTS	16
#define STORM		10000

/* The signal the tests use: glibc's SIGRTMIN is safe, 33 is not. */
static int relay_sig;

struct event {
	pid_t pid;	/* si_pid */
	int child;	/* si_int */
};

struct report {
	int count;	/* events from the forker watched */
	int other;	/* events with another si_pid */
	int bad_code;	/* events without SI_QUEUE */
	struct event ev[MAX_EVENTS];
};

static int reg(pid_t pid)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%d\n", pid);
	return write_file(PROCESSES, buf);
}

static int unreg(pid_t pid)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "-%d\n", pid);
	return write_file(PROCESSES, buf);
}

/* Is @pid in the list?  -1 if the list cannot be read. */
static int listed(pid_t pid)
{
	char buf[4096], *tok, *save;

	if (read_file(PROCESSES, buf, sizeof(buf)) < 0)
		return -1;
	for (tok = strtok_r(buf, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save))
		if (atoi(tok) == pid)
			return 1;
	return 0;
}

static void block_relay_signal(void)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, relay_sig);
	sigprocmask(SIG_BLOCK, &set, NULL);
}

/* Take every queued relay signal; count those whose si_pid is @forker. */
static void drain(struct report *r, pid_t forker)
{
	struct timespec zero = { 0 };
	siginfo_t si;
	sigset_t set;

	memset(r, 0, sizeof(*r));
	sigemptyset(&set);
	sigaddset(&set, relay_sig);
	while (sigtimedwait(&set, &si, &zero) == relay_sig) {
		if (si.si_pid != forker) {
			r->other++;
			continue;
		}
		if (si.si_code != SI_QUEUE)
			r->bad_code++;
		if (r->count < MAX_EVENTS)
			r->ev[r->count] = (struct event){ si.si_pid, si.si_value.sival_int };
		r->count++;
	}
}

/*
 * A listener: a child that waits for a byte on @go, drains its queue and
 * writes a report about @forker's forks on @out.
 */
struct listener {
	pid_t pid;
	int go, out;
};

static int start_listener(struct listener *l, pid_t forker)
{
	int go[2], out[2];

	if (pipe(go) || pipe(out))
		return -1;
	l->pid = fork();
	if (l->pid < 0)
		return -1;
	if (l->pid == 0) {
		struct rlimit lim = { STORM * 2, STORM * 2 };
		struct report r;
		char c;

		close(go[1]);
		close(out[0]);
		/* Room for a storm's worth of queued signals. */
		setrlimit(RLIMIT_SIGPENDING, &lim);
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		drain(&r, forker);
		_exit(write(out[1], &r, sizeof(r)) == sizeof(r) ? 0 : 1);
	}
	close(go[0]);
	close(out[1]);
	l->go = go[1];
	l->out = out[0];
	return 0;
}

/* Tell the listener to drain, collect its report and reap it. */
static int finish_listener(struct listener *l, struct report *r)
{
	int status, ok;

	ok = write(l->go, "g", 1) == 1 && read(l->out, r, sizeof(*r)) == sizeof(*r);
	close(l->go);
	close(l->out);
	ok = waitpid(l->pid, &status, 0) == l->pid && ok && status == 0;
	return ok ? 0 : -1;
}

/* Load the module afresh; 0 or -errno. */
static int reload(void)
{
	int err = unload_module(MODULE_NAME);

	if (err && err != -ENOENT)
		return err;
	return load_module(MODULE_PATH);
}

FIXTURE(relay) {
	char sig[16];
};

FIXTURE_SETUP(relay)
{
	/* A fresh module (empty list) sending a signal glibc lets us block. */
	ASSERT_EQ(0, reload());
	relay_sig = SIGRTMIN;
	snprintf(self->sig, sizeof(self->sig), "%d\n", relay_sig);
	block_relay_signal();
	ASSERT_EQ(0, write_file(SIGNAL, self->sig));
}

FIXTURE_TEARDOWN(relay)
{
}

/* The files, their modes, the default signal; only root may write. */
TEST_F(relay, defaults_and_access)
{
	struct stat st;
	char buf[64];
	pid_t pid;
	int status;

	ASSERT_EQ(0, reload());
	ASSERT_EQ(0, stat(PROCESSES, &st));
	EXPECT_EQ(0100644, st.st_mode);
	ASSERT_EQ(0, stat(SIGNAL, &st));
	EXPECT_EQ(0100644, st.st_mode);
	ASSERT_LT(0, read_file(SIGNAL, buf, sizeof(buf)));
	EXPECT_STREQ("33\n", buf);
	ASSERT_LT(0, read_file(PROCESSES, buf, sizeof(buf)));
	EXPECT_STREQ("\n", buf);

	/* nobody, still in group root: writing must be refused */
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		char me[32];

		snprintf(me, sizeof(me), "%d\n", getpid());
		if (setgroups(0, NULL) || setresgid(0, 0, 0) || setresuid(65534, 65534, 65534))
			_exit(10);
		if (write_file(PROCESSES, me) != -EACCES)
			_exit(11);
		_exit(write_file(SIGNAL, "40\n") != -EACCES ? 12 : 0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, status) TH_LOG("exit status %#x: 10 setuid, 11 processes, 12 signal", status);
	EXPECT_EQ(0, listed(pid));
	ASSERT_LT(0, read_file(SIGNAL, buf, sizeof(buf)));
	EXPECT_STREQ("33\n", buf);

	/*
	 * root may; on a signal we block first: with 33, any fork in the
	 * guest (a kworker starting) would kill us, as glibc cannot block it
	 */
	ASSERT_EQ(0, write_file(SIGNAL, self->sig));
	EXPECT_EQ(0, reg(getpid()));
	EXPECT_EQ(1, listed(getpid()));
}

/* "PID" registers, "-PID" unregisters, the list is one line. */
TEST_F(relay, register_list_unregister)
{
	struct listener a, b;
	struct report r;
	char buf[256], want[256];

	ASSERT_EQ(0, start_listener(&a, getpid()));
	ASSERT_EQ(0, start_listener(&b, getpid()));
	ASSERT_EQ(0, reg(a.pid));
	snprintf(buf, sizeof(buf), "%d", b.pid);	/* without a newline */
	ASSERT_EQ(0, write_file(PROCESSES, buf));
	ASSERT_LT(0, read_file(PROCESSES, buf, sizeof(buf)));
	snprintf(want, sizeof(want), "%d %d\n", a.pid, b.pid);
	EXPECT_STREQ(want, buf);

	ASSERT_EQ(0, unreg(a.pid));
	ASSERT_LT(0, read_file(PROCESSES, buf, sizeof(buf)));
	snprintf(want, sizeof(want), "%d\n", b.pid);
	EXPECT_STREQ(want, buf);
	ASSERT_EQ(0, unreg(b.pid));
	ASSERT_LT(0, read_file(PROCESSES, buf, sizeof(buf)));
	EXPECT_STREQ("\n", buf);

	/* unregistered: no more signals */
	ASSERT_LT(0, fork_and_reap());
	ASSERT_EQ(0, finish_listener(&a, &r));
	EXPECT_EQ(0, r.count);
	ASSERT_EQ(0, finish_listener(&b, &r));
	EXPECT_EQ(0, r.count);
}

/* Bad input: the precise errno, and the list unchanged. */
TEST_F(relay, bad_pid_input)
{
	static const struct {
		const char *text;
		int err;
	} bad[] = {
		{ "\n", EINVAL }, { "-", EINVAL }, { "-\n", EINVAL }, { "abc", EINVAL },
		{ "12abc", EINVAL }, { "1 2", EINVAL }, { "+-3", EINVAL }, { "--1", EINVAL },
		{ "+1", EINVAL }, { " 1", EINVAL }, { "1\n\n", EINVAL }, { "0", EINVAL },
		{ "-0", EINVAL }, { "0x10", EINVAL }, { "18446744073709551616", ERANGE },
		{ "2147483648", ERANGE }, { "2147483647", ESRCH }, { "-1", ENOENT },
	};
	char before[256], after[256], buf[32];
	unsigned int i;
	pid_t gone, thread;

	ASSERT_EQ(0, reg(getpid()));
	ASSERT_LT(0, read_file(PROCESSES, before, sizeof(before)));
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		int err = write_file(PROCESSES, bad[i].text);

		if (err != -bad[i].err)
			printf("# writing \"%s\": %s\n", bad[i].text, strerror(-err));
		EXPECT_EQ(-bad[i].err, err);
	}

	gone = fork_and_reap();		/* a pid that no longer exists */
	ASSERT_LT(0, gone);
	EXPECT_EQ(-ESRCH, reg(gone));
	thread = thread_and_join();	/* a thread is not a process */
	ASSERT_LT(0, thread);
	EXPECT_EQ(-ESRCH, reg(thread));
	EXPECT_EQ(-EEXIST, reg(getpid()));
	EXPECT_EQ(-ENOENT, unreg(gone));
	snprintf(buf, sizeof(buf), "%d\n", getpid());
	ASSERT_LT(0, read_file(PROCESSES, after, sizeof(after)));
	EXPECT_STREQ(before, after);
	EXPECT_STREQ(buf, after);
}

/* Any real-time signal, bounds included; nothing else. */
TEST_F(relay, signal_range)
{
	static const char *const bad[] = {
		"31", "65", "0", "-34", "abc", "34abc", "\n", "+40", "18446744073709551616",
		"4294967330",
	};
	char buf[32], rtmax[16];
	unsigned int i;

	ASSERT_EQ(0, write_file(SIGNAL, "32\n"));
	ASSERT_LT(0, read_file(SIGNAL, buf, sizeof(buf)));
	EXPECT_STREQ("32\n", buf);
	snprintf(rtmax, sizeof(rtmax), "%d\n", SIGRTMAX);
	ASSERT_EQ(0, write_file(SIGNAL, rtmax));
	ASSERT_LT(0, read_file(SIGNAL, buf, sizeof(buf)));
	EXPECT_STREQ(rtmax, buf);
	ASSERT_EQ(0, write_file(SIGNAL, "40"));
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		int err = write_file(SIGNAL, bad[i]);

		if (err != -EINVAL)
			printf("# writing \"%s\": %s\n", bad[i], strerror(-err));
		EXPECT_EQ(-EINVAL, err);
	}
	ASSERT_LT(0, read_file(SIGNAL, buf, sizeof(buf)));
	EXPECT_STREQ("40\n", buf);
}

/* The documented limit: 64 listeners, then ENOSPC and nothing changes. */
TEST_F(relay, list_full)
{
	struct listener l[MAX_LISTENERS + 1];
	char before[1024], after[1024];
	struct report r;
	int i;

	for (i = 0; i <= MAX_LISTENERS; i++)
		ASSERT_EQ(0, start_listener(&l[i], getpid()));
	for (i = 0; i < MAX_LISTENERS; i++)
		ASSERT_EQ(0, reg(l[i].pid)) TH_LOG("listener %d", i);
	ASSERT_LT(0, read_file(PROCESSES, before, sizeof(before)));
	EXPECT_EQ(-ENOSPC, reg(l[MAX_LISTENERS].pid));
	ASSERT_LT(0, read_file(PROCESSES, after, sizeof(after)));
	EXPECT_STREQ(before, after);
	EXPECT_EQ(0, unreg(l[0].pid));
	EXPECT_EQ(0, reg(l[MAX_LISTENERS].pid));
	for (i = 0; i <= MAX_LISTENERS; i++)
		ASSERT_EQ(0, finish_listener(&l[i], &r));
}

/* One listener: one signal per fork, vfork and thread, with the right pids. */
TEST_F(relay, one_listener)
{
	struct listener l;
	struct report r;
	pid_t child[3];
	int i;

	ASSERT_EQ(0, start_listener(&l, getpid()));
	ASSERT_EQ(0, reg(l.pid));
	child[0] = fork_and_reap();
	child[1] = vfork_and_reap();
	child[2] = thread_and_join();
	ASSERT_EQ(0, finish_listener(&l, &r));
	ASSERT_EQ(3, r.count);
	EXPECT_EQ(0, r.bad_code);
	for (i = 0; i < 3; i++) {
		EXPECT_EQ(getpid(), r.ev[i].pid);
		EXPECT_EQ(child[i], r.ev[i].child) TH_LOG("event %d", i);
	}
}

/* Several listeners: each gets every fork, once, in order. */
TEST_F(relay, several_listeners)
{
	struct listener l[4];
	pid_t child[10];
	struct report r;
	int i, j;

	for (i = 0; i < 4; i++)
		ASSERT_EQ(0, start_listener(&l[i], getpid()));
	for (i = 0; i < 4; i++)
		ASSERT_EQ(0, reg(l[i].pid));
	for (j = 0; j < 10; j++)
		child[j] = fork_and_reap();
	for (i = 0; i < 4; i++) {
		ASSERT_EQ(0, finish_listener(&l[i], &r));
		EXPECT_EQ(10, r.count) TH_LOG("listener %d", i);
		for (j = 0; j < 10 && j < r.count; j++)
			EXPECT_EQ(child[j], r.ev[j].child) TH_LOG("listener %d event %d", i, j);
	}
}

/*
 * A listener in a new pid namespace registers itself as "1", sees its own
 * fork numbered as it knows it, and never hears of a fork it cannot see.
 */
TEST_F(relay, pid_namespace)
{
	int ready[2], go[2], info[2], status;
	pid_t mid, inner;
	char c;

	ASSERT_EQ(0, pipe(ready));
	ASSERT_EQ(0, pipe(go));
	ASSERT_EQ(0, pipe(info));
	mid = fork();
	ASSERT_LE(0, mid);
	if (mid == 0) {
		if (unshare(CLONE_NEWPID))
			_exit(20);
		inner = fork();		/* pid 1 of the new namespace */
		if (inner == 0) {
			struct report r;
			pid_t child;

			if (reg(1) || listed(1) != 1)
				_exit(10);
			if (write(ready[1], "r", 1) != 1 || read(go[0], &c, 1) != 1)
				_exit(11);
			child = fork_and_reap();
			drain(&r, 1);
			if (r.other)
				_exit(12);	/* the outer fork leaked in */
			if (r.count != 1 || r.ev[0].child != child)
				_exit(13);
			_exit(0);
		}
		if (inner < 0 || write(info[1], &inner, sizeof(inner)) != sizeof(inner))
			_exit(21);
		if (waitpid(inner, &status, 0) != inner)
			_exit(22);
		_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 23);
	}
	ASSERT_EQ(sizeof(inner), read(info[0], &inner, sizeof(inner)));
	ASSERT_EQ(1, read(ready[0], &c, 1));
	EXPECT_EQ(1, listed(inner));	/* numbered as this namespace sees it */
	ASSERT_LT(0, fork_and_reap());	/* invisible from the new namespace */
	ASSERT_EQ(1, write(go[1], "g", 1));
	ASSERT_EQ(mid, waitpid(mid, &status, 0));
	EXPECT_EQ(0, status) TH_LOG("exit status %#x: 10 register, 11 pipe, 12 saw an outer fork, 13 wrong event, 2x namespace",
				    status);
}

/* 10,000 forks while the listener looks away: every signal is queued. */
TEST_F_TIMEOUT(relay, storm, 300)
{
	struct listener l;
	struct report r;
	int i;

	ASSERT_EQ(0, start_listener(&l, getpid()));
	ASSERT_EQ(0, reg(l.pid));
	for (i = 0; i < STORM; i++)
		ASSERT_LT(0, vfork_and_reap());
	ASSERT_EQ(0, finish_listener(&l, &r));
	EXPECT_EQ(STORM, r.count);
}

/*
 * A listener that exits is dropped: not listed, and the process that gets
 * its pid number next (clone3 with set_tid makes sure it does) is not
 * signalled.
 */
TEST_F(relay, dead_listener_dropped)
{
	struct clone_args args = { .exit_signal = SIGCHLD };
	int go[2], status;
	pid_t dead, reuse;

	dead = fork();
	ASSERT_LE(0, dead);
	if (dead == 0)
		_exit(0);
	ASSERT_EQ(0, reg(dead));	/* a zombie still has its pid */
	ASSERT_EQ(dead, waitpid(dead, NULL, 0));

	ASSERT_EQ(0, pipe(go));
	args.set_tid = (unsigned long)&dead;
	args.set_tid_size = 1;
	reuse = syscall(SYS_clone3, &args, sizeof(args));
	ASSERT_LE(0, reuse);
	if (reuse == 0) {
		struct report r;
		char c;

		if (read(go[0], &c, 1) != 1)
			_exit(10);
		drain(&r, getppid());
		_exit(r.count || r.other ? 11 : 0);
	}
	ASSERT_EQ(dead, reuse);
	ASSERT_LT(0, fork_and_reap());
	EXPECT_EQ(0, listed(dead));
	ASSERT_EQ(1, write(go[1], "g", 1));
	ASSERT_EQ(reuse, waitpid(reuse, &status, 0));
	EXPECT_EQ(0, status) TH_LOG("exit status %#x: 11 the new process got the old one's signals",
				    status);
}

/*
 * Unload and load the module 100 times while one process forks and another
 * registers and unregisters itself: the kernel stays healthy (graded by the
 * health test) and the module keeps working.
 */
TEST_F_TIMEOUT(relay, load_unload_100, 240)
{
	volatile int *shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
				    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pid_t forker, registrar;
	int i, loads = 0;

	ASSERT_NE(MAP_FAILED, shared);
	forker = fork();
	ASSERT_LE(0, forker);
	if (forker == 0) {
		while (!shared[0])
			fork_and_reap();
		_exit(0);
	}
	registrar = fork();
	ASSERT_LE(0, registrar);
	if (registrar == 0) {
		/* After each reload the signal is 33 again: glibc will not let it be blocked. */
		struct { void *handler; unsigned long flags, restorer, mask; } ign = { SIG_IGN };

		syscall(SYS_rt_sigaction, 33, &ign, NULL, 8);
		while (!shared[0])
			if (reg(getpid()) == 0 && unreg(getpid()) == 0)
				shared[1]++;
		_exit(0);
	}
	for (i = 0; i < 100; i++) {
		if (unload_module(MODULE_NAME) == 0 && load_module(MODULE_PATH) == 0)
			loads++;
		/* let both sides get at this instance of the module */
		vfork_and_reap();
	}
	shared[0] = 1;
	ASSERT_EQ(forker, waitpid(forker, NULL, 0));
	ASSERT_EQ(registrar, waitpid(registrar, NULL, 0));
	EXPECT_EQ(100, loads);
	EXPECT_LT(0, shared[1]) TH_LOG("no registration ever succeeded");

	/* and it still works */
	EXPECT_EQ(0, reg(getpid()));
	EXPECT_EQ(1, listed(getpid()));
}

/* Read lines from @fd until "fork parent=@parent child=@child"; 0 or -1. */
static int expect_fork_line(int fd, pid_t parent, pid_t child)
{
	char want[64], line[128];
	int i;

	snprintf(want, sizeof(want), "fork parent=%d child=%d\n", parent, child);
	for (i = 0; i < 100; i++) {
		if (read_line(fd, line, sizeof(line)))
			return -1;
		if (!strcmp(line, want))
			return 0;
	}
	return -1;
}

/*
 * relayfork-listen registers itself, prints each fork as the relay reports
 * it, and unregisters on SIGTERM.
 */
TEST_F(relay, program_listen)
{
	char *argv[] = { "/lab/relayfork-listen", NULL };
	int fd, status, i;
	pid_t pid, child;

	ASSERT_EQ(0, write_file(SIGNAL, "33\n"));	/* the 2005 default */
	fd = spawn(argv, &pid);
	ASSERT_LE(0, fd);
	/* registration is its first visible act: wait for it (5 s at most) */
	for (i = 0; i < 500 && listed(pid) != 1; i++)
		usleep(10000);
	ASSERT_EQ(1, listed(pid));
	EXPECT_LE(SIGRTMIN, read_long(SIGNAL)) TH_LOG("it kept a signal glibc reserves");
	child = fork_and_reap();
	EXPECT_EQ(0, expect_fork_line(fd, getpid(), child));
	ASSERT_EQ(0, kill(pid, SIGTERM));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, status);
	EXPECT_EQ(0, listed(pid)) TH_LOG("it did not unregister on SIGTERM");
	close(fd);
}

/* relayfork-listen -c: the RT signal loses nothing, SIGUSR1 merges. */
TEST_F(relay, program_storm_demo)
{
	char *argv[] = { "/lab/relayfork-listen", "-c", "200", NULL };
	long forks = 0, relayed = 0, usr1 = 0;
	char line[256];
	int fd, status;
	pid_t pid;

	ASSERT_EQ(0, write_file(SIGNAL, "33\n"));
	fd = spawn(argv, &pid);
	ASSERT_LE(0, fd);
	/* 200 forks before the line: 12 s seen on a loaded host */
	ASSERT_EQ(0, read_line_within(fd, line, sizeof(line), 50000));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, status);
	ASSERT_EQ(3, sscanf(line, "forks=%ld relay=%ld (lost %*d) sigusr1=%ld", &forks,
			    &relayed, &usr1)) TH_LOG("output: %s", line);
	EXPECT_EQ(200, forks);
	EXPECT_EQ(200, relayed);
	EXPECT_LT(0, usr1);
	EXPECT_GT(200, usr1);
	EXPECT_EQ(0, listed(pid));
	close(fd);
}

/* cn-fork-listen hears the same fork from the proc connector. */
TEST_F(relay, program_proc_connector)
{
	char *argv[] = { "/lab/cn-fork-listen", NULL };
	char line[128];
	pid_t pid, child;
	int fd;

	fd = spawn(argv, &pid);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, read_line(fd, line, sizeof(line)));
	ASSERT_STREQ("listening\n", line);
	child = fork_and_reap();
	EXPECT_EQ(0, expect_fork_line(fd, getpid(), child));
	kill(pid, SIGTERM);
	waitpid(pid, NULL, 0);
	close(fd);
}

TEST_HARNESS_MAIN
