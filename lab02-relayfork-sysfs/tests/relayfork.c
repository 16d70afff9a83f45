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
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <linux/sched.h>

#define PROCESSES	"/sys/relayfork/processes"
#define SIGNAL		"/sys/relayfork/signal"
#define MODULE_PATH	"/lab/relay_fork.ko"
#define MODULE_NAME	"relay_fork"
#define PIN_PATH	"/lab/kobj_pin.ko"
#define MAX_LISTENERS	64
#define MAX_EVENTS	16
#define STORM		1000

/* The signal the tests use: glibc's SIGRTMIN is safe, 33 is not. */
static int relay_sig;

struct event {
	pid_t pid;	/* si_pid */
	int child;	/* si_int */
};

struct report {
	int count;	/* events from the forker watched */
	int other;	/* events with another si_pid */
	int bad_code;	/* events without SI_KERNEL: forgeable */
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
		if (si.si_code != SI_KERNEL)
			r->bad_code++;
		if (r->count < MAX_EVENTS)
			r->ev[r->count] = (struct event){ si.si_pid, si.si_value.sival_int };
		r->count++;
	}
}

/*
 * Take every queued relay signal through a signalfd, as drain() does.  A
 * signalfd copies only ssi_pid and ssi_uid of a signal sent with SI_KERNEL
 * (fs/signalfd.c, the SIL_KILL layout): ssi_int, the child, reads 0.
 */
static void drain_signalfd(struct report *r, pid_t forker)
{
	struct signalfd_siginfo si;
	sigset_t set;
	int fd;

	memset(r, 0, sizeof(*r));
	sigemptyset(&set);
	sigaddset(&set, relay_sig);
	fd = signalfd(-1, &set, SFD_NONBLOCK);
	if (fd < 0)
		_exit(2);
	while (read(fd, &si, sizeof(si)) == sizeof(si)) {
		if ((pid_t)si.ssi_pid != forker) {
			r->other++;
			continue;
		}
		if (si.ssi_code != SI_KERNEL)
			r->bad_code++;
		if (r->count < MAX_EVENTS)
			r->ev[r->count] = (struct event){ si.ssi_pid, si.ssi_int };
		r->count++;
	}
	close(fd);
}

/*
 * A listener: a child that waits for a byte on @go, drains its queue and
 * writes a report about @forker's forks on @out.  It blocks the signal in
 * every thread (the mask is inherited) and takes it in one of the ways a
 * program would: in its first thread, in another thread (sigtimedwait() or
 * a signalfd), or in another thread once the first has exited.
 */
enum listen_how { IN_MAIN, IN_THREAD, BY_SIGNALFD, AFTER_LEADER_EXIT };

struct listener {
	pid_t pid;
	int go, out;
};

struct listen_args {
	enum listen_how how;
	pid_t forker, leader;
	int go, out, ready;
};

/* Has the first thread of this process exited (a zombie leader)? */
static int leader_gone(pid_t leader)
{
	char path[64], buf[256], *state;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", leader);
	if (read_file(path, buf, sizeof(buf)) <= 0)
		return 1;
	state = strrchr(buf, ')');
	return state && state[1] == ' ' && (state[2] == 'Z' || state[2] == 'X');
}

static void *listen_fn(void *arg)
{
	struct listen_args *a = arg;
	struct report r;
	char c;

	/* the first thread's exit is what the test is about: wait for it */
	if (a->how == AFTER_LEADER_EXIT)
		while (!leader_gone(a->leader))
			sched_yield();
	if (write(a->ready, "r", 1) != 1 || read(a->go, &c, 1) != 1)
		_exit(1);
	if (a->how == BY_SIGNALFD)
		drain_signalfd(&r, a->forker);
	else
		drain(&r, a->forker);
	_exit(write(a->out, &r, sizeof(r)) == sizeof(r) ? 0 : 1);
}

static int start_listener_how(struct listener *l, pid_t forker, enum listen_how how)
{
	int go[2], out[2], ready[2];
	char c;

	if (pipe(go) || pipe(out) || pipe(ready))
		return -1;
	l->pid = fork();
	if (l->pid < 0)
		return -1;
	if (l->pid == 0) {
		struct rlimit lim = { STORM * 2, STORM * 2 };
		struct listen_args a = { how, forker, getpid(), go[0], out[1], ready[1] };
		pthread_t thread;

		close(go[1]);
		close(out[0]);
		close(ready[0]);
		/* Room for a storm's worth of queued signals. */
		setrlimit(RLIMIT_SIGPENDING, &lim);
		if (how == IN_MAIN)
			listen_fn(&a);
		if (pthread_create(&thread, NULL, listen_fn, &a))
			_exit(3);
		if (how == AFTER_LEADER_EXIT)
			pthread_exit(NULL);
		pthread_join(thread, NULL);
		_exit(4);
	}
	close(go[0]);
	close(out[1]);
	close(ready[1]);
	l->go = go[1];
	l->out = out[0];
	/* ready: set up, and for AFTER_LEADER_EXIT its first thread is gone */
	c = 0;
	if (read(ready[0], &c, 1) != 1)
		c = 0;
	close(ready[0]);
	return c == 'r' ? 0 : -1;
}

static int start_listener(struct listener *l, pid_t forker)
{
	return start_listener_how(l, forker, IN_MAIN);
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
		{ "", 0 },	/* zero bytes: sysfs never calls store(), nothing changes */
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
TEST_F_TIMEOUT(relay, list_full, 60)
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

/* What a thread that is not the first one creates. */
struct made_by_thread {
	pid_t child[2];	/* a process it forked, a thread it started */
};

static void *fork_and_thread_fn(void *arg)
{
	struct made_by_thread *m = arg;

	m->child[0] = fork_and_reap();
	m->child[1] = thread_and_join();
	return NULL;
}

/*
 * A thread that is not the first one forks and starts a thread: si_pid is
 * the process (its tgid), as the ABI says, not the thread that forked.
 */
TEST_F(relay, fork_from_thread)
{
	struct made_by_thread m = { 0 };
	struct listener l;
	struct report r;
	pthread_t thread;

	ASSERT_EQ(0, start_listener(&l, getpid()));
	ASSERT_EQ(0, reg(l.pid));
	ASSERT_EQ(0, pthread_create(&thread, NULL, fork_and_thread_fn, &m));
	ASSERT_EQ(0, pthread_join(thread, NULL));
	ASSERT_LT(0, m.child[0]);
	ASSERT_LT(0, m.child[1]);
	ASSERT_EQ(0, finish_listener(&l, &r));
	EXPECT_EQ(0, r.other) TH_LOG("%d events named another sender than the process", r.other);
	ASSERT_EQ(3, r.count);		/* the thread, then its fork and its thread */
	EXPECT_EQ(m.child[0], r.ev[1].child);
	EXPECT_EQ(m.child[1], r.ev[2].child);
}

/* A listener that takes the signal in a way other than its first thread's. */
static void expect_events_taken(struct __test_metadata *_metadata, enum listen_how how)
{
	struct listener l;
	struct report r;
	pid_t child[2];

	ASSERT_EQ(0, start_listener_how(&l, getpid(), how));
	ASSERT_EQ(0, reg(l.pid));
	child[0] = fork_and_reap();
	child[1] = vfork_and_reap();
	ASSERT_EQ(0, finish_listener(&l, &r));
	ASSERT_EQ(2, r.count) TH_LOG("the signal went to a thread that does not take it");
	EXPECT_EQ(0, r.bad_code);
	/* what the lesson says a signalfd reader gets of the child */
	EXPECT_EQ(how == BY_SIGNALFD ? 0 : child[0], r.ev[0].child);
	EXPECT_EQ(how == BY_SIGNALFD ? 0 : child[1], r.ev[1].child);
}

/* The signal is the process's: another thread takes it with sigtimedwait(). */
TEST_F(relay, listener_in_thread)
{
	expect_events_taken(_metadata, IN_THREAD);
}

/*
 * ... or reads it from a signalfd (which sees its own thread's and the
 * process's), which tells who forked but not the child.
 */
TEST_F(relay, listener_signalfd)
{
	expect_events_taken(_metadata, BY_SIGNALFD);
}

/* ... and the process still gets it once its first thread has exited. */
TEST_F(relay, listener_after_leader_exit)
{
	expect_events_taken(_metadata, AFTER_LEADER_EXIT);
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
 * Run @fn(@arg) as pid 1 of a new pid namespace, in a grandchild whose pid,
 * as this namespace numbers it, goes to *@inner.  Returns the middle
 * child, whose exit status is @fn's (2x: the namespace could not be made).
 */
static pid_t in_new_pid_ns(int (*fn)(void *), void *arg, pid_t *inner)
{
	int info[2], status;
	pid_t mid, in;

	if (pipe(info))
		return -1;
	mid = fork();
	if (mid == 0) {
		if (unshare(CLONE_NEWPID))
			_exit(20);
		in = fork();
		if (in == 0)
			_exit(fn(arg));
		if (in < 0 || write(info[1], &in, sizeof(in)) != sizeof(in))
			_exit(21);
		if (waitpid(in, &status, 0) != in)
			_exit(22);
		_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 23);
	}
	close(info[1]);
	if (mid > 0 && read(info[0], inner, sizeof(*inner)) != sizeof(*inner))
		*inner = -1;
	close(info[0]);
	return mid;
}

struct ns_listener {
	int ready[2], go[2];
};

/* pid 1 of its namespace: registers, then reports what one fork each side sent. */
static int ns_listener_fn(void *arg)
{
	struct ns_listener *n = arg;
	struct report r;
	pid_t child;
	char c;

	if (reg(1) || listed(1) != 1)
		return 10;
	if (write(n->ready[1], "r", 1) != 1 || read(n->go[0], &c, 1) != 1)
		return 11;
	child = fork_and_reap();
	drain(&r, 1);
	if (r.other)
		return 12;	/* the outer fork leaked in */
	if (r.count != 1 || r.ev[0].child != child)
		return 13;
	return 0;
}

/*
 * A listener in a new pid namespace registers itself as "1", sees its own
 * fork numbered as it knows it, and never hears of a fork it cannot see.
 */
TEST_F(relay, pid_namespace)
{
	struct ns_listener n;
	pid_t mid, inner;
	int status;
	char c;

	ASSERT_EQ(0, pipe(n.ready));
	ASSERT_EQ(0, pipe(n.go));
	mid = in_new_pid_ns(ns_listener_fn, &n, &inner);
	ASSERT_LT(0, mid);
	ASSERT_LT(0, inner);
	ASSERT_EQ(1, read(n.ready[0], &c, 1));
	EXPECT_EQ(1, listed(inner));	/* numbered as this namespace sees it */
	ASSERT_LT(0, fork_and_reap());	/* invisible from the new namespace */
	ASSERT_EQ(1, write(n.go[1], "g", 1));
	ASSERT_EQ(mid, waitpid(mid, &status, 0));
	EXPECT_EQ(0, status) TH_LOG("exit status %#x: 10 register, 11 pipe, 12 saw an outer fork, 13 wrong event, 2x namespace",
				    status);
}

/* pid 1 of its namespace: every number it writes is read in its namespace. */
static int ns_lookups_fn(void *arg)
{
	pid_t outer = *(pid_t *)arg;

	if (reg(1) || listed(1) != 1)
		return 10;
	if (reg(1) != -EEXIST)
		return 11;	/* "1" looked up somewhere else */
	if (listed(outer) != 0)
		return 12;	/* listed a process it cannot see */
	if (reg(outer) != -ESRCH)
		return 13;	/* found a process it cannot see */
	if (unreg(outer) != -ENOENT)
		return 14;	/* unregistered a process it cannot see */
	if (unreg(1) || listed(1) != 0)
		return 15;
	if (unreg(1) != -ENOENT)
		return 16;
	return 0;
}

/*
 * Every number written is read in the writer's pid namespace: inside a new
 * one, "1" is its first process (registered once: then EEXIST; and
 * unregistered by that number), and the number of a process outside it
 * names nobody there (ESRCH to register, ENOENT to unregister, and the
 * outside registration stays).
 */
TEST_F(relay, pid_namespace_lookups)
{
	pid_t outer = getpid(), mid, inner;
	int status;

	ASSERT_EQ(0, reg(outer));
	/* numbers inside the new namespace are small: ours must not be one */
	ASSERT_LT(10, outer);
	mid = in_new_pid_ns(ns_lookups_fn, &outer, &inner);
	ASSERT_LT(0, mid);
	ASSERT_EQ(mid, waitpid(mid, &status, 0));
	EXPECT_EQ(0, status) TH_LOG("exit status %#x: 10 register, 11 duplicate, 12 listed, 13 outer registered, 14 outer unregistered, 15 unregister, 16 unregistered twice, 2x namespace",
				    status);
	EXPECT_EQ(1, listed(outer)) TH_LOG("the inner namespace unregistered us");
	EXPECT_EQ(0, listed(inner));
}

/*
 * 1,000 forks while the listener looks away: every signal is queued.  That
 * is more than the guest's default RLIMIT_SIGPENDING (776 with 512 MB of
 * memory, as 'ulimit -i' says there): the listener raises its own.
 */
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
 * signalled.  A write drops it too, with no read of the list before it (a
 * read drops the dead as it lists): once 64 listeners have exited, the
 * process given the first one's number registers (neither EEXIST nor
 * ENOSPC), and unregistering a listener that has exited is ENOENT.
 */
TEST_F(relay, dead_listener_dropped)
{
	struct clone_args args = { .exit_signal = SIGCHLD };
	pid_t dead, reuse, gone[MAX_LISTENERS];
	int go[2], status, i;

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

	/* the writes: a full list of listeners exits, and no read follows */
	for (i = 0; i < MAX_LISTENERS; i++) {
		gone[i] = fork();
		ASSERT_LE(0, gone[i]);
		if (gone[i] == 0)
			_exit(0);
		ASSERT_EQ(0, reg(gone[i])) TH_LOG("listener %d of %d", i + 1, MAX_LISTENERS);
		ASSERT_EQ(gone[i], waitpid(gone[i], NULL, 0));
	}
	args.set_tid = (unsigned long)&gone[0];
	reuse = syscall(SYS_clone3, &args, sizeof(args));
	ASSERT_LE(0, reuse);
	if (reuse == 0) {
		pause();
		_exit(0);
	}
	ASSERT_EQ(gone[0], reuse);
	EXPECT_EQ(0, reg(reuse))
		TH_LOG("registering pid %d, after %d listeners exited (the first with that number)",
		       reuse, MAX_LISTENERS);
	ASSERT_EQ(0, kill(reuse, SIGKILL));
	ASSERT_EQ(reuse, waitpid(reuse, NULL, 0));
	EXPECT_EQ(-ENOENT, unreg(reuse)) TH_LOG("unregistering a listener that has exited");
}

/*
 * While something else holds a reference to its kobject (kobj_pin.ko), an
 * unload still removes /sys/relayfork before it returns: its handlers are
 * the module's code.
 */
TEST_F_TIMEOUT(relay, unload_removes_files, 60)
{
	struct stat st;

	ASSERT_EQ(0, load_module(PIN_PATH));
	ASSERT_EQ(0, unload_module(MODULE_NAME));
	errno = 0;
	EXPECT_EQ(-1, stat("/sys/relayfork", &st))
		TH_LOG("/sys/relayfork outlived the module while its kobject was referenced");
	EXPECT_EQ(ENOENT, errno);
	ASSERT_EQ(0, unload_module("kobj_pin"));
}

/* Register and unregister the caller; counted in *@pairs when both work. */
static int reg_unreg(void *pairs)
{
	/* after each reload the signal is 33 again: glibc will not let it be blocked */
	struct { void *handler; unsigned long flags, restorer, mask; } ign = { SIG_IGN };

	syscall(SYS_rt_sigaction, 33, &ign, NULL, 8);
	if (reg(getpid()) || unreg(getpid()))
		return -1;
	++*(volatile int *)pairs;
	return 0;
}

/*
 * Unload and load the module 10 times while one process forks and another
 * registers and unregisters itself: the kernel stays healthy (graded by
 * the health test) and the module keeps working.  10, not 100: with
 * CONFIG_DEBUG_KOBJECT_RELEASE each unload waits 2-8 s for its module's
 * kobjects.  Both work in bursts, set off as an unload starts (its exit
 * runs first), as a load starts and once it is done: the module's memory is
 * freed only after the kobjects' wait (free_module()), so working all through
 * it reached no module code more, and cost 70 s of a CPU per run.
 */
TEST_F_TIMEOUT(relay, load_unload_10, 240)
{
	int *pairs = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int fork_go, reg_go, i, loads = 0;
	pid_t forker, registrar;

	ASSERT_NE(MAP_FAILED, pairs);
	forker = burst_child(&fork_go, fork_once, NULL, 10);
	ASSERT_LT(0, forker);
	registrar = burst_child(&reg_go, reg_unreg, pairs, 10);
	ASSERT_LT(0, registrar);
	for (i = 0; i < 10; i++) {
		ASSERT_EQ(1, write(fork_go, "u", 1));
		ASSERT_EQ(1, write(reg_go, "u", 1));
		if (unload_module(MODULE_NAME) == 0) {
			ASSERT_EQ(1, write(fork_go, "l", 1));
			ASSERT_EQ(1, write(reg_go, "l", 1));
			loads += load_module(MODULE_PATH) == 0;
		}
		ASSERT_EQ(1, write(fork_go, "n", 1));
		ASSERT_EQ(1, write(reg_go, "n", 1));
	}
	close(fork_go);
	close(reg_go);
	ASSERT_EQ(forker, waitpid(forker, NULL, 0));
	ASSERT_EQ(registrar, waitpid(registrar, NULL, 0));
	EXPECT_EQ(10, loads);
	EXPECT_LT(0, *pairs) TH_LOG("no registration ever succeeded");

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
 * Registration is what relayfork-listen does first that another process can
 * see, and nothing tells when: poll the list (5 s at most).  0 or -1.
 */
static int wait_listed(pid_t pid)
{
	int i;

	for (i = 0; i < 500 && listed(pid) != 1; i++)
		usleep(10000);
	return listed(pid) == 1 ? 0 : -1;
}

/*
 * relayfork-listen registers itself, prints each fork as the relay reports
 * it, and unregisters on SIGTERM.
 */
TEST_F(relay, program_listen)
{
	char *argv[] = { "/lab/relayfork-listen", NULL };
	int fd, status;
	pid_t pid, child;

	ASSERT_EQ(0, write_file(SIGNAL, "33\n"));	/* the 2005 default */
	fd = spawn(argv, &pid);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, wait_listed(pid));
	EXPECT_LE(SIGRTMIN, read_long(SIGNAL)) TH_LOG("it kept a signal glibc reserves");
	child = fork_and_reap();
	EXPECT_EQ(0, expect_fork_line(fd, getpid(), child));
	ASSERT_EQ(0, kill(pid, SIGTERM));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, status);
	EXPECT_EQ(0, listed(pid)) TH_LOG("it did not unregister on SIGTERM");
	close(fd);
}

/* The three calls that send a siginfo of the caller's making. */
enum forge_how { QUEUEINFO, TGQUEUEINFO, PIDFD };

/*
 * Send @sig to the process @pid (to its first thread with TGQUEUEINFO) with
 * the si_code and si_int of a forger's choice: 0 or -errno.
 */
static int forge_by(enum forge_how how, pid_t pid, int sig, int code, int value)
{
	siginfo_t si;
	long ret;
	int fd;

	memset(&si, 0, sizeof(si));
	si.si_signo = sig;
	si.si_code = code;
	si.si_pid = getpid();
	si.si_uid = getuid();
	si.si_value.sival_int = value;
	if (how == QUEUEINFO)
		ret = syscall(SYS_rt_sigqueueinfo, pid, sig, &si);
	else if (how == TGQUEUEINFO)
		ret = syscall(SYS_rt_tgsigqueueinfo, pid, pid, sig, &si);
	else {
		fd = syscall(SYS_pidfd_open, pid, 0);
		if (fd < 0)
			return -errno;
		ret = syscall(SYS_pidfd_send_signal, fd, sig, &si, 0);
		close(fd);
	}
	return ret ? -errno : 0;
}

static int forge(pid_t pid, int sig, int code, int value)
{
	return forge_by(QUEUEINFO, pid, sig, code, value);
}

/*
 * Signals that look like fork events, sent by a process with four of the
 * codes a process can send (sigqueue()'s, the seed's SI_ASYNCIO, kill()'s
 * and tgkill()'s), queued before a real fork.  relayfork-listen prints only the
 * fork; SI_KERNEL, the one code a forger lacks, the kernel refuses to send.
 */
TEST_F(relay, program_forged)
{
	char *argv[] = { "/lab/relayfork-listen", NULL };
	char want[64], ours[32], line[128];
	int fd, sig, status;
	pid_t pid, child;

	fd = spawn(argv, &pid);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, wait_listed(pid));
	sig = read_long(SIGNAL);
	EXPECT_EQ(-EPERM, forge_by(QUEUEINFO, pid, sig, SI_KERNEL, 4242));
	EXPECT_EQ(-EPERM, forge_by(TGQUEUEINFO, pid, sig, SI_KERNEL, 4242));
	EXPECT_EQ(-EPERM, forge_by(PIDFD, pid, sig, SI_KERNEL, 4242));
	ASSERT_EQ(0, forge(pid, sig, SI_QUEUE, 4242));
	ASSERT_EQ(0, forge(pid, sig, SI_ASYNCIO, 4243));
	ASSERT_EQ(0, kill(pid, sig));
	ASSERT_EQ(0, syscall(SYS_tgkill, pid, pid, sig));
	child = fork_and_reap();
	snprintf(want, sizeof(want), "fork parent=%d child=%d\n", getpid(), child);
	snprintf(ours, sizeof(ours), "fork parent=%d ", getpid());
	for (;;) {
		ASSERT_EQ(0, read_line(fd, line, sizeof(line)));
		if (!strcmp(line, want))
			break;
		/* other tasks' forks may come first (kthreadd's), none of ours */
		ASSERT_NE(0, strncmp(line, ours, strlen(ours)))
			TH_LOG("a signal a process sent was printed as a fork: %s", line);
	}
	ASSERT_EQ(0, kill(pid, SIGTERM));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, status);
	close(fd);
}

/* relayfork-listen -c: the RT signal loses nothing, SIGUSR1 merges. */
TEST_F_TIMEOUT(relay, program_storm_demo, 60)
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
