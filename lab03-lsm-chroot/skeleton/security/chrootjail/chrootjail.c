// SPDX-License-Identifier: GPL-2.0
/*
 * Chroot jail hardening.
 *
 * A task that calls chroot() is jailed at the new root, and so is every
 * task it creates afterwards, for the rest of their lives.  chroot() alone
 * keeps no one in: the jailed may not, unless enforcement is off,
 *
 *   chroot      call chroot() again (mkdir d; chroot d; cd ../..; chroot .)
 *   chdir       enter a directory outside the jail on the jail's filesystem
 *               (fchdir() to a directory fd kept from before the chroot)
 *   open        open a file outside the jail (openat() relative to such an fd)
 *   mount       mount, unmount or move a filesystem
 *   mknod       make a character or block device node
 *   pivot_root  call pivot_root()
 *   ptrace      trace or inspect a task that is not in the same jail
 *   signal      signal a task that is not in the same jail
 *
 * Each refusal is -EPERM, counted per rule and logged, ratelimited per rule.
 * /sys/kernel/security/chrootjail/enforce switches enforcement, "denials"
 * shows the counts.  See Documentation/admin-guide/LSM/chrootjail.rst.
 *
 * The chroot() hook it needs was proposed by Lorenzo Hernandez Garcia-Hierro
 * on linux-kernel in February 2005; upstream has it as security_path_chroot().
 */

#define pr_fmt(fmt) "chrootjail: " fmt

#include <linux/atomic.h>
#include <linux/capability.h>
#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/lsm_hooks.h>
#include <linux/path.h>
#include <linux/ratelimit.h>
#include <linux/refcount.h>
#include <linux/sched.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/stat.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>

enum jail_rule {
	RULE_CHROOT,
	RULE_CHDIR,
	RULE_OPEN,
	RULE_MOUNT,
	RULE_MKNOD,
	RULE_PIVOT_ROOT,
	RULE_PTRACE,
	RULE_SIGNAL,
	NR_RULES
};

static const char *const rule_names[NR_RULES] = {
	[RULE_CHROOT]		= "chroot",
	[RULE_CHDIR]		= "chdir",
	[RULE_OPEN]		= "open",
	[RULE_MOUNT]		= "mount",
	[RULE_MKNOD]		= "mknod",
	[RULE_PIVOT_ROOT]	= "pivot_root",
	[RULE_PTRACE]		= "ptrace",
	[RULE_SIGNAL]		= "signal",
};

/**
 * struct jail - where a chroot() put a task and what it forks
 * @usage: the tasks in this jail
 * @root: the directory chroot() was given, held
 * @release: puts @root and frees the jail, in process context
 */
struct jail {
	refcount_t usage;
	struct path root;
	struct work_struct release;
};

/* The task's part of task->security: its jail or NULL, set at most once. */
struct jail_task {
	struct jail *jail;
};

static bool jail_enabled __ro_after_init;
static bool enforcing __read_mostly = true;
static atomic_long_t denials[NR_RULES];
static struct ratelimit_state denial_log[NR_RULES];

static struct lsm_blob_sizes jail_blob_sizes __lsm_ro_after_init = {
	.lbs_task = sizeof(struct jail_task),
};

static struct jail_task *jail_task(const struct task_struct *task)
{
	return task->security + jail_blob_sizes.lbs_task;
}

/* @task's jail, or NULL; it lasts as long as @task does. */
static struct jail *task_jail(const struct task_struct *task)
{
	/* pairs with smp_store_release() in jail_path_chroot() */
	return smp_load_acquire(&jail_task(task)->jail);
}

/*
 * What the rules return: -EPERM, counted and logged; or 0 when enforcement
 * is off.  Hooks that call this may run in atomic context (task_kill,
 * ptrace_access_check): nothing here sleeps.
 */
static int jail_deny(enum jail_rule rule)
{
	if (!READ_ONCE(enforcing))
		return 0;
	/* TODO 1: count the denial; log it with the task's pid and comm, ratelimited */
	return -EPERM;
}

/* Refuse @rule's operation to a jailed task; others are not concerned. */
static int deny_if_jailed(enum jail_rule rule)
{
	/* TODO 2: the jailed only */
	return 0;
}

/* TODO 3: the work that ends a jail: put its root, free it */

static void jail_task_free(struct task_struct *task)
{
	/* TODO 4: a jail ends with its last task; path_put() may sleep, this may not */
}

static int jail_task_alloc(struct task_struct *task, unsigned long clone_flags)
{
	/* TODO 5: the new task is in its parent's jail, if any */
	return 0;
}

/* Called after the CAP_SYS_CHROOT check; set_fs_root() follows, and cannot fail. */
static int jail_path_chroot(const struct path *path)
{
	/* TODO 6: refuse a second chroot; else jail the task at @path; kernel threads: never */
	return 0;
}

/*
 * chdir() and fchdir() give this hook the directory's inode with MAY_CHDIR,
 * but not the path: only a directory on the jail's filesystem can be told
 * in or out, by its dentry's ancestry.
 */
static int jail_inode_permission(struct inode *inode, int mask)
{
	/* TODO 7: no way in to a directory of the jail's filesystem outside its root */
	return 0;
}

/* Every open has a path: here mounts can be followed. */
static int jail_file_open(struct file *file)
{
	/* TODO 8: only what lies under the jail's root, across mounts */
	return 0;
}

static int jail_sb_mount(const char *dev_name, const struct path *path,
			 const char *type, unsigned long flags, void *data)
{
	return deny_if_jailed(RULE_MOUNT);
}

static int jail_sb_umount(struct vfsmount *mnt, int flags)
{
	return deny_if_jailed(RULE_MOUNT);
}

static int jail_move_mount(const struct path *from_path,
			   const struct path *to_path)
{
	return deny_if_jailed(RULE_MOUNT);
}

static int jail_sb_pivotroot(const struct path *old_path,
			     const struct path *new_path)
{
	return deny_if_jailed(RULE_PIVOT_ROOT);
}

static int jail_path_mknod(const struct path *dir, struct dentry *dentry,
			   umode_t mode, unsigned int dev)
{
	if (S_ISCHR(mode) || S_ISBLK(mode))
		return deny_if_jailed(RULE_MKNOD);
	return 0;
}

/* Whether a task in @jail may reach @target: only in the same jail. */
static bool jail_reaches(const struct jail *jail, const struct task_struct *target)
{
	/* TODO 9: one jail is one root: two chroots into a directory make one jail */
	return true;
}

/* Called with the child's task_lock held. */
static int jail_ptrace_access_check(struct task_struct *child, unsigned int mode)
{
	struct jail *jail = task_jail(current);

	if (jail && !jail_reaches(jail, child))
		return jail_deny(RULE_PTRACE);
	return 0;
}

/* Called under rcu_read_lock() or tasklist_lock. */
static int jail_task_kill(struct task_struct *p, struct kernel_siginfo *info,
			  int sig, const struct cred *cred)
{
	/* TODO 10: a jailed sender signals its own jail only; @cred set: not current sending */
	return 0;
}

static struct security_hook_list jail_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(task_alloc, jail_task_alloc),
	LSM_HOOK_INIT(task_free, jail_task_free),
	LSM_HOOK_INIT(path_chroot, jail_path_chroot),
	LSM_HOOK_INIT(inode_permission, jail_inode_permission),
	LSM_HOOK_INIT(file_open, jail_file_open),
	LSM_HOOK_INIT(sb_mount, jail_sb_mount),
	LSM_HOOK_INIT(sb_umount, jail_sb_umount),
	LSM_HOOK_INIT(move_mount, jail_move_mount),
	LSM_HOOK_INIT(sb_pivotroot, jail_sb_pivotroot),
	LSM_HOOK_INIT(path_mknod, jail_path_mknod),
	LSM_HOOK_INIT(ptrace_access_check, jail_ptrace_access_check),
	LSM_HOOK_INIT(task_kill, jail_task_kill),
};

static ssize_t enforce_read(struct file *file, char __user *buf, size_t count,
			    loff_t *ppos)
{
	char text[] = { READ_ONCE(enforcing) ? '1' : '0', '\n' };

	return simple_read_from_buffer(buf, count, ppos, text, sizeof(text));
}

/* "0" or "1", a newline allowed; root outside any jail only. */
static ssize_t enforce_write(struct file *file, const char __user *buf,
			     size_t count, loff_t *ppos)
{
	/* TODO 11: CAP_MAC_ADMIN and not jailed, else -EPERM; bad input -EINVAL, no change */
	return -EPERM;
}

static const struct file_operations enforce_fops = {
	.read = enforce_read,
	.write = enforce_write,
	.llseek = generic_file_llseek,
};

/* One line per rule: its name and how many times it refused. */
static ssize_t denials_read(struct file *file, char __user *buf, size_t count,
			    loff_t *ppos)
{
	char text[NR_RULES * 32];
	int len = 0, i;

	for (i = 0; i < NR_RULES; i++)
		len += scnprintf(text + len, sizeof(text) - len, "%s %ld\n",
				 rule_names[i], atomic_long_read(&denials[i]));
	return simple_read_from_buffer(buf, count, ppos, text, len);
}

static const struct file_operations denials_fops = {
	.read = denials_read,
	.llseek = generic_file_llseek,
};

static int __init jail_init(void)
{
	int i;

	for (i = 0; i < NR_RULES; i++)
		ratelimit_state_init(&denial_log[i], DEFAULT_RATELIMIT_INTERVAL,
				     DEFAULT_RATELIMIT_BURST);
	security_add_hooks(jail_hooks, ARRAY_SIZE(jail_hooks), "chrootjail");
	jail_enabled = true;
	pr_info("jails hardened\n");
	return 0;
}

DEFINE_LSM(chrootjail) = {
	.name = "chrootjail",
	.init = jail_init,
	.blobs = &jail_blob_sizes,
};

/* LSMs start before the VFS can hold files: securityfs comes later. */
static int __init jail_securityfs_init(void)
{
	struct dentry *dir, *enforce, *counts;

	if (!jail_enabled)
		return 0;
	dir = securityfs_create_dir("chrootjail", NULL);
	if (IS_ERR(dir))
		return PTR_ERR(dir);
	enforce = securityfs_create_file("enforce", 0600, dir, NULL, &enforce_fops);
	counts = securityfs_create_file("denials", 0400, dir, NULL, &denials_fops);
	if (IS_ERR(enforce) || IS_ERR(counts)) {
		securityfs_remove(counts);
		securityfs_remove(enforce);
		securityfs_remove(dir);
		return -ENOMEM;
	}
	return 0;
}

fs_initcall(jail_securityfs_init);
