/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fork_hook.h - let modules observe every task that kernel_clone() creates
 *
 * A fork hook is called once for each successful fork(), vfork(), clone()
 * and clone3(), threads included, and for kernel threads made through
 * kernel_clone() (kernel_thread(), user_mode_thread()), with the forking
 * task (the thread that called, not its group leader) and the new one.  It
 * runs in the forking task's context, after the child is fully set up and
 * has its pid but before it first runs, inside an RCU read-side critical
 * section: it must not sleep, and may not keep a pointer to either task
 * beyond its return without taking a reference.
 *
 * Tasks that copy_process() makes without kernel_clone() are not seen:
 * idle threads (fork_idle(), at boot and CPU hotplug) and io_uring workers
 * (create_io_thread()).  The proc connector, which copy_process() calls
 * itself, does report io_uring workers.
 */
#ifndef _LINUX_FORK_HOOK_H
#define _LINUX_FORK_HOOK_H

#include <linux/jump_label.h>
#include <linux/list.h>

struct task_struct;

/**
 * struct fork_hook - a callback run for each new task
 * @func: called with the forking task and the new task
 * @node: list linkage, private to the fork hook code
 */
struct fork_hook {
	void (*func)(struct task_struct *parent, struct task_struct *child);
	struct list_head node;
};

int fork_hook_register(struct fork_hook *hook);
void fork_hook_unregister(struct fork_hook *hook);

#ifdef CONFIG_FORK_HOOK
DECLARE_STATIC_KEY_FALSE(fork_hook_active);
void __fork_hook_run(struct task_struct *parent, struct task_struct *child);

/* With no hook registered this is a no-op jump patched into the code. */
static inline void fork_hook_run(struct task_struct *parent,
				 struct task_struct *child)
{
	if (static_branch_unlikely(&fork_hook_active))
		__fork_hook_run(parent, child);
}
#else
static inline void fork_hook_run(struct task_struct *parent,
				 struct task_struct *child)
{
}
#endif

#endif /* _LINUX_FORK_HOOK_H */
