// SPDX-License-Identifier: GPL-2.0
/*
 * fork_hook.c - callbacks run by kernel_clone() for each new task
 *
 * Callbacks sit on an RCU-protected list.  kernel_clone() walks it under
 * rcu_read_lock(), so a fork never takes a lock shared with other forks
 * or with registration; registration and removal are serialised by a
 * mutex, and removal waits for an RCU grace period, after which no CPU can
 * still be running the removed callback and its module may go away.  A
 * static key keeps the cost of an empty list down to one patched jump.
 */
#include <linux/fork_hook.h>
#include <linux/jump_label.h>
#include <linux/mutex.h>
#include <linux/rculist.h>
#include <linux/sched.h>

static LIST_HEAD(fork_hooks);
static DEFINE_MUTEX(fork_hooks_lock);
DEFINE_STATIC_KEY_FALSE(fork_hook_active);

/**
 * fork_hook_register - run a callback for each task that is created
 * @hook: the callback; its @func must be set and must not sleep
 *
 * From the return of this function on, @hook->func is called once for
 * each successful fork, vfork, clone and clone3, threads and kernel
 * threads included, with the calling thread as @parent.  Idle threads and
 * io_uring workers are not seen: they do not go through kernel_clone().
 * A hook may be registered once at a time.
 *
 * Context: process context; takes a mutex and may patch kernel text.
 * Return: 0, or -EINVAL if @hook->func is NULL.
 */
int fork_hook_register(struct fork_hook *hook)
{
	if (!hook->func)
		return -EINVAL;

	/* TODO 1: add @hook to fork_hooks, and turn fork_hook_active on */

	return 0;
}
EXPORT_SYMBOL_GPL(fork_hook_register);

/**
 * fork_hook_unregister - stop running a callback
 * @hook: a hook registered with fork_hook_register()
 *
 * When this function returns, no CPU is running @hook->func any more and
 * none will call it again, so the memory and code behind @hook may be
 * freed (a module may unload).
 *
 * Context: process context; sleeps for an RCU grace period.
 */
void fork_hook_unregister(struct fork_hook *hook)
{
	/* TODO 2: remove @hook, then wait until no fork can still be running it */
}
EXPORT_SYMBOL_GPL(fork_hook_unregister);

/* Called by fork_hook_run() from kernel_clone() when a hook is registered. */
void __fork_hook_run(struct task_struct *parent, struct task_struct *child)
{
	/* TODO 3: call every registered hook, safely against concurrent removal */
}
