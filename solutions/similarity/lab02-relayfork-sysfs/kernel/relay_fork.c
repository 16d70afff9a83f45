/*
 * An independent lab 02 solution, written apart from the reference (same
 * skeleton, different hands): make test's similarity check must not rank
 * it with the reference, while a renamed, reordered copy of the reference
 * ranks first.  Never built or graded; not for students.
 */
// SPDX-License-Identifier: GPL-2.0
/*
 * relay_fork.c - signal registered processes on each fork
 *
 * A port to 6.1 of the "relay fork" module posted to LKML in February 2005.
 * Root registers processes in /sys/relayfork/processes; on every fork each
 * of them receives the real-time signal in /sys/relayfork/signal with the
 * forking process's pid in si_pid and the new task's pid in si_int, both as
 * seen from the receiver's pid namespace.  See
 * Documentation/ABI/testing/sysfs-relayfork.
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
	unsigned long long v = 0;
	const char *s = buf;

	if (!isdigit(*s))
		return -EINVAL;
	while (isdigit(*s)) {
		v = v * 10 + (*s++ - '0');
		if (v > INT_MAX) {
			while (isdigit(*s))
				s++;
			return (*s == '\0' || (*s == '\n' && s[1] == '\0')) ? -ERANGE : -EINVAL;
		}
	}
	if (*s == '\n')
		s++;
	if (*s || !v)
		return -EINVAL;
	*nr = v;
	return 0;
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

static void listener_free_rcu(struct rcu_head *head)
{
	struct relayfork_listener *l = container_of(head, struct relayfork_listener, rcu);

	put_pid(l->pid);
	kfree(l);
}

static void relayfork_del(struct relayfork_listener *l)
{
	list_del_rcu(&l->node);
	nr_listeners--;
	call_rcu(&l->rcu, listener_free_rcu);
}

/* Drop the listeners whose process has exited.  Under listeners_lock. */
static void relayfork_prune(void)
{
	struct relayfork_listener *l, *next;

	list_for_each_entry_safe(l, next, &listeners, node) {
		if (!pid_has_task(l->pid, PIDTYPE_TGID))
			relayfork_del(l);
	}
}

/* The listener whose pid is @nr in the caller's namespace, or NULL. */
static struct relayfork_listener *relayfork_find(pid_t nr)
{
	struct pid *want = find_get_pid(nr);
	struct relayfork_listener *l, *found = NULL;

	if (!want)
		return NULL;
	list_for_each_entry(l, &listeners, node) {
		if (l->pid == want) {
			found = l;
			break;
		}
	}
	put_pid(want);
	return found;
}

/* Unregister everyone: module exit, once no fork walks the list any more. */
static void relayfork_clear(void)
{
	mutex_lock(&listeners_lock);
	while (!list_empty(&listeners))
		relayfork_del(list_first_entry(&listeners, struct relayfork_listener, node));
	mutex_unlock(&listeners_lock);
}

/* Register the process @nr: 0, -ESRCH, -EEXIST, -ENOSPC or -ENOMEM. */
static int relayfork_add(pid_t nr)
{
	struct relayfork_listener *fresh;
	struct pid *p = find_get_pid(nr);
	int ret = 0;

	if (!p)
		return -ESRCH;
	if (!pid_has_task(p, PIDTYPE_TGID)) {
		put_pid(p);
		return -ESRCH;
	}
	fresh = kzalloc(sizeof(*fresh), GFP_KERNEL);
	if (!fresh) {
		put_pid(p);
		return -ENOMEM;
	}
	fresh->pid = p;

	mutex_lock(&listeners_lock);
	relayfork_prune();
	if (relayfork_find(nr))
		ret = -EEXIST;
	else if (nr_listeners >= RELAYFORK_MAX_LISTENERS)
		ret = -ENOSPC;
	if (!ret) {
		list_add_tail_rcu(&fresh->node, &listeners);
		nr_listeners++;
	}
	mutex_unlock(&listeners_lock);
	if (ret) {
		put_pid(p);
		kfree(fresh);
	}
	return ret;
}

/* Unregister the process @nr: 0 or -ENOENT. */
static int relayfork_remove(pid_t nr)
{
	struct relayfork_listener *l;
	int ret = -ENOENT;

	mutex_lock(&listeners_lock);
	l = relayfork_find(nr);
	if (l) {
		relayfork_del(l);
		ret = 0;
	}
	mutex_unlock(&listeners_lock);
	return ret;
}

static ssize_t processes_show(struct kobject *kobj, struct kobj_attribute *attr,
			      char *buf)
{
	struct pid_namespace *ns = task_active_pid_ns(current);
	struct relayfork_listener *l;
	int len = 0;

	mutex_lock(&listeners_lock);
	relayfork_prune();
	list_for_each_entry(l, &listeners, node) {
		pid_t seen = pid_nr_ns(l->pid, ns);

		if (seen)
			len += sysfs_emit_at(buf, len, "%s%d", len ? " " : "", seen);
	}
	mutex_unlock(&listeners_lock);
	len += sysfs_emit_at(buf, len, "\n");
	return len;
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
	int sig, ret;

	ret = kstrtoint(buf, 10, &sig);
	if (ret)
		return -EINVAL;
	if (sig < SIGRTMIN || sig > SIGRTMAX)
		return -EINVAL;
	WRITE_ONCE(relay_signal, sig);
	return count;
}

/*
 * Runs for each new task, in the forking task's context, under
 * rcu_read_lock(): it must not sleep.
 */
static void relayfork_fork(struct task_struct *parent, struct task_struct *child)
{
	struct relayfork_listener *l;
	int sig = READ_ONCE(relay_signal);

	list_for_each_entry_rcu(l, &listeners, node) {
		struct task_struct *who = pid_task(l->pid, PIDTYPE_TGID);
		struct pid_namespace *ns;
		struct kernel_siginfo info;

		if (!who)
			continue;
		ns = task_active_pid_ns(who);
		clear_siginfo(&info);
		info.si_signo = sig;
		info.si_code = SI_KERNEL;
		info.si_pid = task_tgid_nr_ns(parent, ns);
		info.si_int = task_pid_nr_ns(child, ns);
		do_send_sig_info(sig, &info, who, PIDTYPE_TGID);
	}
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
	sysfs_remove_group(relayfork_kobj, &relayfork_group);
	kobject_del(relayfork_kobj);
	kobject_put(relayfork_kobj);
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
	relayfork_clear();
	rcu_barrier();
}

module_init(relayfork_init);
module_exit(relayfork_exit);

MODULE_DESCRIPTION("Signal registered processes on each fork (/sys/relayfork)");
MODULE_LICENSE("GPL");
