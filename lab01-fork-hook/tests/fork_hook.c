// SPDX-License-Identifier: GPL-2.0
/*
 * fork_hook.c - graded tests of lab 01, run in the guest.
 *
 * Each test counts, through the fork_counter module, the tasks that the
 * test's own process creates, so that kernel threads and other processes
 * forking at the same time do not disturb the counts.
 */
#include "labtest.h"

#include <pthread.h>
#include <regex.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <linux/io_uring.h>
#include <linux/sched.h>

#define COUNTER	"/sys/kernel/debug/fork_counter/"
#define MODULE	"/lab/fork_counter.ko"

static void count_forks_of(struct __test_metadata *_metadata, pid_t tgid)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%d", tgid);
	ASSERT_EQ(0, write_file(COUNTER "tgid", buf));
}

FIXTURE(counter) {
	long a0, b0;
};

FIXTURE_SETUP(counter)
{
	ASSERT_EQ(0, load_module(MODULE));
	ASSERT_EQ(0, write_file(COUNTER "hook_a", "1"));
	count_forks_of(_metadata, getpid());
	self->a0 = read_long(COUNTER "count_a");
	self->b0 = read_long(COUNTER "count_b");
}

FIXTURE_TEARDOWN(counter)
{
	write_file(COUNTER "tgid", "0");
}

#define COUNT_A	(read_long(COUNTER "count_a") - self->a0)
#define COUNT_B	(read_long(COUNTER "count_b") - self->b0)

static pid_t clone3_and_reap(unsigned long long flags)
{
	struct clone_args args = { .flags = flags, .exit_signal = SIGCHLD };
	pid_t pid = syscall(SYS_clone3, &args, sizeof(args));

	if (pid == 0)
		_exit(0);
	if (pid > 0 && waitpid(pid, NULL, 0) != pid)
		return -1;
	return pid;
}

static void expect_last(struct __test_metadata *_metadata, pid_t parent,
			pid_t parent_tgid, pid_t child, pid_t child_tgid)
{
	char want[80], got[80];

	snprintf(want, sizeof(want), "%d %d %d %d\n", parent, parent_tgid, child, child_tgid);
	ASSERT_LT(0, read_file(COUNTER "last", got, sizeof(got)));
	EXPECT_STREQ(want, got);
}

TEST_F(counter, fork_once)
{
	ASSERT_LT(0, fork_and_reap());
	EXPECT_EQ(1, COUNT_A);
}

TEST_F(counter, vfork_once)
{
	pid_t pid = vfork();

	if (pid == 0)
		_exit(0);
	ASSERT_LT(0, pid);
	ASSERT_EQ(pid, waitpid(pid, NULL, 0));
	EXPECT_EQ(1, COUNT_A);
}

TEST_F(counter, thread_once)
{
	pthread_t thread;
	pid_t tid = 0;

	ASSERT_EQ(0, pthread_create(&thread, NULL, thread_fn, &tid));
	ASSERT_EQ(0, pthread_join(thread, NULL));
	EXPECT_EQ(1, COUNT_A);
}

TEST_F(counter, clone3_once)
{
	ASSERT_LT(0, clone3_and_reap(0));
	EXPECT_EQ(1, COUNT_A);
}

/* A fork that fails creates no task, so no hook may see one. */
TEST_F(counter, failed_fork_not_counted)
{
	struct rlimit one = { 1, 1 };
	int go[2], status;
	pid_t helper;
	char c;

	/* clone3 rejects CLONE_THREAD without CLONE_SIGHAND before copying */
	errno = 0;
	EXPECT_EQ(-1, clone3_and_reap(CLONE_THREAD));
	EXPECT_EQ(EINVAL, errno);

	/* RLIMIT_NPROC reached: copy_process() fails half-way, with EAGAIN */
	ASSERT_EQ(0, pipe(go));
	helper = fork();
	ASSERT_LE(0, helper);
	if (helper == 0) {
		pid_t pid;

		if (read(go[0], &c, 1) != 1 || setgid(1000) || setuid(1000) ||
		    setrlimit(RLIMIT_NPROC, &one))
			_exit(2);
		pid = fork();
		if (pid == 0)
			_exit(0);
		_exit(pid < 0 && errno == EAGAIN ? 0 : 1);
	}
	count_forks_of(_metadata, helper);
	self->a0 = read_long(COUNTER "count_a");
	ASSERT_EQ(1, write(go[1], "g", 1));
	ASSERT_EQ(helper, waitpid(helper, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status))
		TH_LOG("the fork over RLIMIT_NPROC did not fail with EAGAIN");
	EXPECT_EQ(0, COUNT_A);
}

TEST_F(counter, parent_child_args)
{
	pthread_t thread;
	pid_t pid, tid = 0;

	pid = fork_and_reap();
	ASSERT_LT(0, pid);
	expect_last(_metadata, getpid(), getpid(), pid, pid);

	ASSERT_EQ(0, pthread_create(&thread, NULL, thread_fn, &tid));
	ASSERT_EQ(0, pthread_join(thread, NULL));
	expect_last(_metadata, getpid(), getpid(), tid, getpid());
}

/* What a thread that is not the main one creates, and what it reports. */
struct made_by_thread {
	pid_t tid;	/* the creating thread */
	pid_t child;	/* what it made: a process, or a thread */
};

static void *fork_from_thread(void *arg)
{
	struct made_by_thread *r = arg;

	r->tid = gettid();
	r->child = fork_and_reap();
	return NULL;
}

static void *thread_from_thread(void *arg)
{
	struct made_by_thread *r = arg;

	r->tid = gettid();
	r->child = thread_and_join();
	return NULL;
}

/*
 * The parent is the thread that called fork(), not the process's first
 * thread: in the main thread the two are the same task, in any other
 * they are not.
 */
TEST_F(counter, fork_from_thread)
{
	struct made_by_thread r = { 0 };
	pthread_t thread;

	ASSERT_EQ(0, pthread_create(&thread, NULL, fork_from_thread, &r));
	ASSERT_EQ(0, pthread_join(thread, NULL));
	ASSERT_LT(0, r.child);
	ASSERT_NE(getpid(), r.tid);
	EXPECT_EQ(2, COUNT_A);		/* the thread, then its fork */
	expect_last(_metadata, r.tid, getpid(), r.child, r.child);

	ASSERT_EQ(0, pthread_create(&thread, NULL, thread_from_thread, &r));
	ASSERT_EQ(0, pthread_join(thread, NULL));
	ASSERT_LT(0, r.child);
	EXPECT_EQ(4, COUNT_A);
	expect_last(_metadata, r.tid, getpid(), r.child, getpid());
}

/* The number after "Threads:" in /proc/self/status, or -1. */
static int thread_count(void)
{
	char buf[4096], *line;

	if (read_file("/proc/self/status", buf, sizeof(buf)) <= 0)
		return -1;
	line = strstr(buf, "\nThreads:");
	return line ? atoi(line + strlen("\nThreads:")) : -1;
}

/*
 * An io_uring request forced to run asynchronously starts an io-wq worker:
 * a thread of this process that copy_process() makes without going through
 * kernel_clone().  The hook promises kernel_clone()'s tasks, not those.
 */
TEST_F(counter, io_worker_not_counted)
{
	struct io_uring_params p = { 0 };
	struct io_uring_sqe *sqe;
	unsigned int *tail;
	int ring, threads;
	size_t sq_len;
	char *sq;

	threads = thread_count();
	ASSERT_EQ(1, threads);
	ring = syscall(SYS_io_uring_setup, 4, &p);
	ASSERT_LE(0, ring) TH_LOG("io_uring_setup: %s (is CONFIG_IO_URING on?)", strerror(errno));
	sq_len = p.sq_off.array + p.sq_entries * sizeof(unsigned int);
	sq = mmap(NULL, sq_len, PROT_READ | PROT_WRITE, MAP_SHARED, ring, IORING_OFF_SQ_RING);
	ASSERT_NE(MAP_FAILED, sq);
	sqe = mmap(NULL, p.sq_entries * sizeof(*sqe), PROT_READ | PROT_WRITE, MAP_SHARED,
		   ring, IORING_OFF_SQES);
	ASSERT_NE(MAP_FAILED, sqe);

	memset(sqe, 0, sizeof(*sqe));
	sqe->opcode = IORING_OP_NOP;
	sqe->flags = IOSQE_ASYNC;	/* to an io-wq worker, not inline */
	tail = (unsigned int *)(sq + p.sq_off.tail);
	((unsigned int *)(sq + p.sq_off.array))[*tail & *(unsigned int *)(sq + p.sq_off.ring_mask)] = 0;
	__atomic_store_n(tail, *tail + 1, __ATOMIC_RELEASE);
	ASSERT_EQ(1, syscall(SYS_io_uring_enter, ring, 1, 1, IORING_ENTER_GETEVENTS, NULL, 0));

	/* the worker idles for seconds after its request: it is still here */
	EXPECT_LT(threads, thread_count()) TH_LOG("no io-wq worker was started");
	EXPECT_EQ(0, COUNT_A);
	munmap(sqe, p.sq_entries * sizeof(*sqe));
	munmap(sq, sq_len);
	close(ring);
}

TEST_F(counter, two_callbacks)
{
	int i;

	for (i = 0; i < 3; i++)
		ASSERT_LT(0, fork_and_reap());
	EXPECT_EQ(3, COUNT_A);
	EXPECT_EQ(3, COUNT_B);
	/* and a hook without a function is refused, as documented */
	EXPECT_EQ(-EINVAL, write_file(COUNTER "null_hook", "1"));
	ASSERT_LT(0, fork_and_reap());
	EXPECT_EQ(4, COUNT_B);
}

TEST_F(counter, unregister_stops)
{
	ASSERT_EQ(0, write_file(COUNTER "hook_a", "0"));
	ASSERT_LT(0, fork_and_reap());
	EXPECT_EQ(0, COUNT_A);
	EXPECT_EQ(1, COUNT_B);

	ASSERT_EQ(0, write_file(COUNTER "hook_a", "1"));
	ASSERT_LT(0, fork_and_reap());
	EXPECT_EQ(1, COUNT_A);
	EXPECT_EQ(2, COUNT_B);
}

/*
 * Unregistering while forks run: when it returns, no call may be running.
 * Writing 2 to hook_a unregisters while a counted call is running (see
 * fork_counter.c), so each of the five rounds is a real race: a second
 * each with a correct unregister, which waits out the held call.
 */
TEST_F_TIMEOUT(counter, unregister_waits, 120)
{
	long late0 = read_long(COUNTER "late");
	long forks = 0;
	int status, i;
	pid_t toggler;

	toggler = fork();
	ASSERT_LE(0, toggler);
	if (toggler == 0) {
		for (i = 0; i < 5; i++)
			if (write_file(COUNTER "hook_a", "2") || write_file(COUNTER "hook_a", "1"))
				_exit(1);
		_exit(0);
	}
	self->a0 = read_long(COUNTER "count_a");
	self->b0 = read_long(COUNTER "count_b");
	while (waitpid(toggler, &status, WNOHANG) == 0) {
		ASSERT_LT(0, fork_and_reap());
		forks++;
	}
	ASSERT_EQ(0, status);
	EXPECT_EQ(forks, COUNT_B);
	EXPECT_LT(0, COUNT_A) TH_LOG("hook A never ran during %ld forks", forks);
	EXPECT_EQ(late0, read_long(COUNTER "late"))
		TH_LOG("hook A ran after fork_hook_unregister() returned");
}

/*
 * Module unload and load while another process forks: the kernel must stay
 * healthy.  10 rounds, not 100: with CONFIG_DEBUG_KOBJECT_RELEASE each
 * unload waits 2-8 s for its module's kobjects.  The forker forks in
 * bursts, set off as an unload starts (its exit runs first), as a load
 * starts and once it is done: the module's memory is freed only after the
 * kobjects' wait (free_module()), so forking all through it reached no
 * module code more, and cost 70 s of a CPU per run.
 */
TEST_F_TIMEOUT(counter, load_unload_10, 240)
{
	int go, i;
	pid_t forker = burst_child(&go, fork_once, NULL, 10);

	ASSERT_LT(0, forker);
	count_forks_of(_metadata, forker);
	for (i = 0; i < 10; i++) {
		ASSERT_EQ(1, write(go, "u", 1));
		ASSERT_EQ(0, unload_module("fork_counter")) TH_LOG("unload %d", i);
		ASSERT_EQ(1, write(go, "l", 1));
		ASSERT_EQ(0, load_module(MODULE)) TH_LOG("load %d", i);
		count_forks_of(_metadata, forker);
		ASSERT_EQ(1, write(go, "n", 1));
	}
	close(go);
	ASSERT_EQ(forker, waitpid(forker, NULL, 0));

	/* and the last one loaded still works */
	count_forks_of(_metadata, getpid());
	self->a0 = read_long(COUNTER "count_a");
	ASSERT_LT(0, fork_and_reap());
	EXPECT_EQ(1, COUNT_A);
}

/* The exercise program creates exactly the tasks it says, in each mode. */
TEST_F_TIMEOUT(counter, forkbench_counts, 120)
{
	static const char * const modes[] = { "fork", "vfork", "thread", "clone3" };
	char out[256], pattern[80];
	unsigned int m;
	regex_t re;

	for (m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
		int pipefd[2], status;
		size_t len;
		ssize_t n;
		pid_t pid;

		ASSERT_EQ(0, pipe(pipefd));
		/* count from the exec'd forkbench on, not our fork of it */
		ASSERT_EQ(0, write_file(COUNTER "tgid", "0"));
		self->a0 = read_long(COUNTER "count_a");
		pid = fork();
		ASSERT_LE(0, pid);
		if (pid == 0) {
			count_forks_of(_metadata, getpid());
			dup2(pipefd[1], 1);
			execl("/lab/forkbench", "forkbench", "-m", modes[m], "-n", "20", NULL);
			_exit(127);
		}
		close(pipefd[1]);
		len = 0;
		while (len < sizeof(out) - 1 &&
		       (n = read(pipefd[0], out + len, sizeof(out) - 1 - len)) > 0)
			len += n;
		out[len] = '\0';
		close(pipefd[0]);
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		EXPECT_EQ(0, status) TH_LOG("forkbench -m %s failed", modes[m]);
		EXPECT_EQ(20, COUNT_A) TH_LOG("forkbench -m %s -n 20", modes[m]);
		snprintf(pattern, sizeof(pattern), "^%s: 20 ops, [0-9]+ ns/op\n$", modes[m]);
		ASSERT_EQ(0, regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB));
		EXPECT_EQ(0, regexec(&re, out, 0, NULL, 0)) TH_LOG("output: %s", out);
		regfree(&re);
	}
}

TEST_HARNESS_MAIN
