// SPDX-License-Identifier: GPL-2.0
/*
 * fork_counter - a test module for the lab 01 fork hook
 *
 * Registers two fork hooks, A and B, and counts the tasks created by one
 * process (its tgid is written to "tgid").  In /sys/kernel/debug/fork_counter:
 *   tgid      rw  the process whose forks are counted (0: none)
 *   count_a   r   calls of hook A;  count_b: of hook B
 *   last      r   "parent_pid parent_tgid child_pid child_tgid" of A's last call
 *   hook_a    rw  1 while hook A is registered; write 0 or 1 to change it,
 *                 2 to unregister it while a counted call of it is running
 *   late      r   calls of hook A seen running after its unregistration
 *                 returned (must stay 0)
 *   null_hook w   any write registers a hook without a function: the write
 *                 fails with fork_hook_register()'s error (EINVAL)
 * Writing 2 makes the race deterministic: the unregistration waits (up to
 * a second) for a counted call to be running, and that call holds on until
 * the unregistration returns, or a second has passed.  A correct
 * fork_hook_unregister() cannot return while the call runs, so the call
 * times out; one that does not wait returns at once, and the call sees it.
 */
#include <linux/atomic.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/fork_hook.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/spinlock.h>

static pid_t counted_tgid;
static atomic_t count_a, count_b, running_a, late;
static bool hook_a_on;		/* registered, as far as users can see */
static bool hook_a_gone;	/* fork_hook_unregister(&hook_a) has returned */
static bool racing;		/* an unregistration waits for a call to hold on */
static atomic_t holding;	/* counted calls of A holding on for it */
static DEFINE_MUTEX(hook_a_lock);	/* serialises hook_a writes */
static DEFINE_SPINLOCK(last_lock);
static pid_t last[4];
static struct dentry *dir;

static bool counted(struct task_struct *parent)
{
	pid_t tgid = READ_ONCE(counted_tgid);

	return tgid && task_tgid_nr(parent) == tgid;
}

static void hook_a_func(struct task_struct *parent, struct task_struct *child)
{
	if (!counted(parent))
		return;
	atomic_inc(&running_a);
	if (READ_ONCE(hook_a_gone))
		atomic_inc(&late);
	atomic_inc(&count_a);
	spin_lock(&last_lock);
	last[0] = task_pid_nr(parent);
	last[1] = task_tgid_nr(parent);
	last[2] = task_pid_nr(child);
	last[3] = task_tgid_nr(child);
	spin_unlock(&last_lock);
	/* dawdle, but never sleep: we run inside kernel_clone() under RCU */
	if (READ_ONCE(racing)) {
		unsigned long end = jiffies + HZ;

		atomic_inc(&holding);
		while (!READ_ONCE(hook_a_gone) && time_before(jiffies, end))
			cpu_relax();
		if (READ_ONCE(hook_a_gone))
			atomic_inc(&late);
		atomic_dec(&holding);
	} else {
		udelay(20);
	}
	atomic_dec(&running_a);
}

static void hook_b_func(struct task_struct *parent, struct task_struct *child)
{
	if (counted(parent))
		atomic_inc(&count_b);
}

static struct fork_hook hook_a = { .func = hook_a_func };
static struct fork_hook hook_b = { .func = hook_b_func };
static struct fork_hook null_hook;	/* no func: registering it must fail */
static bool null_hook_on;		/* registered all the same */

/* Wait, up to a second, for a counted call of hook A to hold on. */
static void wait_for_holding_call(void)
{
	unsigned long end = jiffies + HZ;

	WRITE_ONCE(racing, true);
	while (!atomic_read(&holding) && time_before(jiffies, end))
		schedule_timeout_uninterruptible(1);
	WRITE_ONCE(racing, false);
}

/* 1: register hook A; 0: unregister it; 2: unregister it racing a call. */
static int set_hook_a(int how)
{
	bool on = how == 1;
	int err = 0;

	mutex_lock(&hook_a_lock);
	if (on && !hook_a_on) {
		WRITE_ONCE(hook_a_gone, false);
		err = fork_hook_register(&hook_a);
		if (!err)
			WRITE_ONCE(hook_a_on, true);
	} else if (!on && hook_a_on) {
		WRITE_ONCE(hook_a_on, false);
		if (how == 2)
			wait_for_holding_call();
		fork_hook_unregister(&hook_a);
		WRITE_ONCE(hook_a_gone, true);
		/* Unregistered: nobody may be inside hook_a_func() now. */
		if (atomic_read(&running_a))
			atomic_inc(&late);
	}
	mutex_unlock(&hook_a_lock);
	return err;
}

static int hook_a_get(void *data, u64 *val)
{
	*val = READ_ONCE(hook_a_on);
	return 0;
}

static int hook_a_set(void *data, u64 val)
{
	if (val > 2)
		return -EINVAL;
	return set_hook_a(val);
}
DEFINE_DEBUGFS_ATTRIBUTE(hook_a_fops, hook_a_get, hook_a_set, "%llu\n");

/* Any write: register a hook without a function; the write gets its error. */
static int null_hook_set(void *data, u64 val)
{
	int err = -EBUSY;

	mutex_lock(&hook_a_lock);
	if (!null_hook_on) {
		err = fork_hook_register(&null_hook);
		null_hook_on = !err;
	}
	mutex_unlock(&hook_a_lock);
	return err;
}
DEFINE_DEBUGFS_ATTRIBUTE(null_hook_fops, NULL, null_hook_set, "%llu\n");

static int tgid_get(void *data, u64 *val)
{
	*val = READ_ONCE(counted_tgid);
	return 0;
}

static int tgid_set(void *data, u64 val)
{
	if (val > PID_MAX_LIMIT)
		return -EINVAL;
	WRITE_ONCE(counted_tgid, val);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(tgid_fops, tgid_get, tgid_set, "%llu\n");

static int last_show(struct seq_file *m, void *v)
{
	pid_t copy[4];

	spin_lock(&last_lock);
	memcpy(copy, last, sizeof(copy));
	spin_unlock(&last_lock);
	seq_printf(m, "%d %d %d %d\n", copy[0], copy[1], copy[2], copy[3]);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(last);

static int __init fork_counter_init(void)
{
	int err;

	dir = debugfs_create_dir("fork_counter", NULL);
	debugfs_create_file("tgid", 0600, dir, NULL, &tgid_fops);
	debugfs_create_file("hook_a", 0600, dir, NULL, &hook_a_fops);
	debugfs_create_file("last", 0400, dir, NULL, &last_fops);
	debugfs_create_file("null_hook", 0200, dir, NULL, &null_hook_fops);
	debugfs_create_atomic_t("count_a", 0400, dir, &count_a);
	debugfs_create_atomic_t("count_b", 0400, dir, &count_b);
	debugfs_create_atomic_t("late", 0400, dir, &late);

	err = fork_hook_register(&hook_b);
	if (err)
		goto out_debugfs;
	err = set_hook_a(1);
	if (err)
		goto out_hook_b;
	return 0;

out_hook_b:
	fork_hook_unregister(&hook_b);
out_debugfs:
	debugfs_remove(dir);
	return err;
}

static void __exit fork_counter_exit(void)
{
	/* debugfs first: no hook_a write may race with the teardown */
	debugfs_remove(dir);
	set_hook_a(0);
	fork_hook_unregister(&hook_b);
	if (null_hook_on)
		fork_hook_unregister(&null_hook);
}

module_init(fork_counter_init);
module_exit(fork_counter_exit);
MODULE_DESCRIPTION("Counts the tasks one process creates, through two fork hooks");
MODULE_LICENSE("GPL");
