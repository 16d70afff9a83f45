// SPDX-License-Identifier: GPL-2.0
/*
 * fork_tally - the cheapest useful fork hook: count every new task
 *
 * make bench loads it to measure what one registered callback costs a
 * fork, against no callback (the static key off).
 */
#include <linux/fork_hook.h>
#include <linux/module.h>
#include <linux/percpu.h>

static DEFINE_PER_CPU(unsigned long, tally);

static void fork_tally(struct task_struct *parent, struct task_struct *child)
{
	this_cpu_inc(tally);
}

static struct fork_hook tally_hook = { .func = fork_tally };

static int __init fork_tally_init(void)
{
	return fork_hook_register(&tally_hook);
}

static void __exit fork_tally_exit(void)
{
	fork_hook_unregister(&tally_hook);
}

module_init(fork_tally_init);
module_exit(fork_tally_exit);
MODULE_DESCRIPTION("Count forks through the fork hook, for make bench");
MODULE_LICENSE("GPL");
