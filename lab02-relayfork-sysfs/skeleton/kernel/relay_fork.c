// SPDX-License-Identifier: GPL-2.0
/*
 * relay_fork.c - signal registered processes on each fork
 *
 * A port to 6.1 of the "relay fork" module posted to LKML in February 2005.
 * Root registers processes in /sys/relayfork/processes; on every fork each
 * of them receives the real-time signal in /sys/relayfork/signal with the
 * forking process's pid in si_pid and the new task's pid in si_int, both as
 * seen from the receiver's pid namespace, and si_code SI_KERNEL, which no
 * process can send to another: a listener can tell a fork from a forgery.
 * See Documentation/ABI/testing/sysfs-relayfork.
 *
 * Listeners are held by struct pid, not by number, so a pid number reused
 * after a listener exits never receives its signals.  The signal goes to
 * the process (PIDTYPE_TGID), not to its first thread, so any of its
 * threads may wait for it, and it still arrives once that thread exited.  The fork path walks
 * the list under RCU (the fork hook calls it inside rcu_read_lock()); the
 * sysfs handlers change it under a mutex and free entries after a grace
 * period.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ctype.h>
#include <linux/fork_hook.h>
#include <linux/kernel.h>
#include <linux/kobject.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/rculist.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

/* Signal 33 as in 2005: real-time for the kernel, but glibc keeps it. */
#define RELAYFORK_DEFAULT_SIGNAL	33
/* 64 pids of at most 7 digits and a space fit a sysfs page many times. */
#define RELAYFORK_MAX_LISTENERS		64

static int relay_signal = RELAYFORK_DEFAULT_SIGNAL;
static struct kobject *relayfork_kobj;

/*
 * A positive decimal number, and nothing else but the newline echo adds
 * (kstrtoint() alone would also take a sign).  0, -EINVAL or -ERANGE.
 */
static int relayfork_parse(const char *buf, int *nr)
{
	/* TODO 1: digits and an optional newline only; 0 is invalid, overflow -ERANGE */
	return -EINVAL;
}

struct relayfork_listener {
	struct list_head node;
	struct pid *pid;
	struct rcu_head rcu;
};

static LIST_HEAD(listeners);
static unsigned int nr_listeners;
/* Serialises changes to @listeners and @nr_listeners. */
static DEFINE_MUTEX(listeners_lock);

/* TODO 2: relayfork_del(): unlink now; free it and its pid reference after a grace period */

/* Drop the listeners whose process has exited.  Under listeners_lock. */
static void relayfork_prune(void)
{
	/* TODO 3: a listener whose process has exited goes */
}

/* The listener whose pid is @nr in the caller's namespace, or NULL. */
static struct relayfork_listener *relayfork_find(pid_t nr)
{
	/* TODO 4: @nr is a number in the caller's pid namespace */
	return NULL;
}

/* Unregister everyone: module exit, once no fork walks the list any more. */
static void relayfork_clear(void)
{
	/* TODO 5: every listener unlinked, under the lock */
}

/* Register the process @nr: 0, -ESRCH, -EEXIST, -ENOSPC or -ENOMEM. */
static int relayfork_add(pid_t nr)
{
	/* TODO 6: hold a struct pid reference of a live process, not its number */
	/* TODO 7: under the lock: no duplicate, no more than the limit; else undo */
	return -ENOSYS;
}

/* Unregister the process @nr: 0 or -ENOENT. */
static int relayfork_remove(pid_t nr)
{
	/* TODO 8: forks may be walking the list: unlink, free after a grace period */
	return -ENOSYS;
}

static ssize_t processes_show(struct kobject *kobj, struct kobj_attribute *attr,
			      char *buf)
{
	/* TODO 9: the live listeners as the reader's namespace numbers them, one line */
	return sysfs_emit(buf, "\n");
}

/* "PID" registers, "-PID" unregisters; see relayfork_add/remove for errors. */
static ssize_t processes_store(struct kobject *kobj, struct kobj_attribute *attr,
			       const char *buf, size_t count)
{
	bool remove = *buf == '-';
	int nr, err;

	err = relayfork_parse(remove ? buf + 1 : buf, &nr);
	if (err)
		return err;
	err = remove ? relayfork_remove(nr) : relayfork_add(nr);

	return err ? err : count;
}

static ssize_t signal_show(struct kobject *kobj, struct kobj_attribute *attr,
			   char *buf)
{
	return sysfs_emit(buf, "%d\n", READ_ONCE(relay_signal));
}

static ssize_t signal_store(struct kobject *kobj, struct kobj_attribute *attr,
			    const char *buf, size_t count)
{
	/* TODO 10: any real-time signal, bounds included; anything else -EINVAL */
	return -ENOSYS;
}

/*
 * Runs for each new task, in the forking task's context, under
 * rcu_read_lock(): it must not sleep.
 */
static void relayfork_fork(struct task_struct *parent, struct task_struct *child)
{
	/* TODO 11: signal each listener's process: pids in its namespace, unforgeable si_code */
}

static struct fork_hook relayfork_hook = {
	.func = relayfork_fork,
};

/* Mode 0644: only root may choose who receives a signal for every fork. */
static struct kobj_attribute processes_attr = __ATTR_RW(processes);
static struct kobj_attribute signal_attr = __ATTR_RW(signal);

static struct attribute *relayfork_attrs[] = {
	&processes_attr.attr,
	&signal_attr.attr,
	NULL,
};

static const struct attribute_group relayfork_group = {
	.attrs = relayfork_attrs,
};

/*
 * Remove /sys/relayfork now, waiting for the show and store calls in
 * progress, then drop our reference.  kobject_put() alone removes the files
 * only when the last reference goes, which may be later (a reader holding
 * one; CONFIG_DEBUG_KOBJECT_RELEASE delays it on purpose): files whose
 * handlers are this module's code must be gone before the code is.
 */
static void relayfork_remove_files(void)
{
	/* TODO 13: the files go now, whoever still holds the kobject; then our reference */
}

static int __init relayfork_init(void)
{
	int err;

	relayfork_kobj = kobject_create_and_add("relayfork", NULL);
	if (!relayfork_kobj)
		return -ENOMEM;
	err = sysfs_create_group(relayfork_kobj, &relayfork_group);
	if (!err)
		err = fork_hook_register(&relayfork_hook);
	if (err)
		relayfork_remove_files();
	return err;
}

static void __exit relayfork_exit(void)
{
	relayfork_remove_files();
	fork_hook_unregister(&relayfork_hook);
	/* TODO 12: no fork sees the list now: empty it, and wait for the frees queued */
}

module_init(relayfork_init);
module_exit(relayfork_exit);

MODULE_DESCRIPTION("Signal registered processes on each fork (/sys/relayfork)");
MODULE_LICENSE("GPL");
