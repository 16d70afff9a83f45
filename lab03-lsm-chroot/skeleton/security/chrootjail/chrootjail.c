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
 *   signal      signal a task that is not in the same jail, directly or
 *               through SIGIO
 *   path        make, remove, truncate, chmod, chown or watch something
 *               outside the jail (relative to a directory fd from before)
 *   task        set the priority, scheduling, limits or process group of a
 *               task outside the jail, or ask for its group or session
 *   capability  use a capability that is a way out of any jail (loading
 *               modules, raw I/O, administration, ... see jail_capable())
 *   sysctl      write a kernel setting: sysctl, sysfs and the like
 *   ipc         use a System V IPC object made outside the jail
 *   unix        connect or send to a unix socket bound outside the jail, or
 *               made outside it and reached by an abstract address or pair
 *   tty         type into a terminal shared with a task outside (TIOCSTI, a
 *               write to its pty master), have the kernel signal its
 *               foreground group with a task outside (TIOCSWINSZ, TIOCSIG,
 *               TIOCNOTTY), take its foreground from the background
 *
 * chroot() is also refused to a task that shares its filesystem root or
 * its memory with another (threads, CLONE_FS, CLONE_VM): those others
 * would be chroot()ed, or able to act for it, without being jailed; and
 * to one that holds an io_uring ring with a submission thread (SQPOLL),
 * which would run what the jailed gives it with its maker's root.
 *
 * Each refusal is -EPERM, counted per rule and logged, ratelimited per rule
 * (what the limit drops is reported as a number, an interval later).
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
#include <linux/fs_struct.h>
#include <linux/fdtable.h>
#include <linux/init.h>
#include <linux/io_uring.h>
#include <linux/io_uring_types.h>
#include <linux/kernel.h>
#include <linux/lsm_hooks.h>
#include <linux/magic.h>
#include <linux/mm.h>
#include <linux/mount.h>
#include <linux/path.h>
#include <linux/pid_namespace.h>
#include <linux/proc_fs.h>
#include <linux/ptrace.h>
#include <linux/ratelimit.h>
#include <linux/refcount.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/stat.h>
#include <linux/tty.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>
#include <net/af_unix.h>
#include <net/sock.h>

enum jail_rule {
	RULE_CHROOT,
	RULE_CHDIR,
	RULE_OPEN,
	RULE_MOUNT,
	RULE_MKNOD,
	RULE_PIVOT_ROOT,
	RULE_PTRACE,
	RULE_SIGNAL,
	RULE_PATH,
	RULE_TASK,
	RULE_CAPABILITY,
	RULE_SYSCTL,
	RULE_IPC,
	RULE_UNIX,
	RULE_TTY,
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
	[RULE_PATH]		= "path",
	[RULE_TASK]		= "task",
	[RULE_CAPABILITY]	= "capability",
	[RULE_SYSCTL]		= "sysctl",
	[RULE_IPC]		= "ipc",
	[RULE_UNIX]		= "unix",
	[RULE_TTY]		= "tty",
};

/**
 * struct jail - where a chroot() put a task and what it forks
 * @usage: the tasks in this jail, and the files, sockets and IPC objects they own
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

/*
 * A file's part of file->f_security: the jail of the task that last made
 * itself or another the file's owner for SIGIO (fcntl(F_SETOWN)), or NULL;
 * under file->f_owner.lock.
 */
struct jail_file {
	struct jail *owner_jail;
};

/* A System V IPC object's part of its security blob: its maker's jail. */
struct jail_ipc {
	struct jail *jail;
};

/* An inode's part of inode->i_security: a unix socket's maker's jail, or NULL. */
struct jail_inode {
	struct jail *maker_jail;
};

static bool jail_enabled __ro_after_init;
static bool enforcing __read_mostly = true;
static atomic_long_t denials[NR_RULES];
static struct ratelimit_state denial_log[NR_RULES];
/* Denials each rule's rate limit kept out of the log since the last report. */
static atomic_t unlogged[NR_RULES];

static struct lsm_blob_sizes jail_blob_sizes __lsm_ro_after_init = {
	.lbs_task = sizeof(struct jail_task),
	.lbs_file = sizeof(struct jail_file),
	.lbs_ipc = sizeof(struct jail_ipc),
#ifdef CONFIG_SECURITY_NETWORK
	.lbs_inode = sizeof(struct jail_inode),
#endif
};

static struct jail_task *jail_task(const struct task_struct *task)
{
	return task->security + jail_blob_sizes.lbs_task;
}

static struct jail_file *jail_file(const struct file *file)
{
	return file->f_security + jail_blob_sizes.lbs_file;
}

static struct jail_ipc *jail_ipc(const struct kern_ipc_perm *perm)
{
	return perm->security + jail_blob_sizes.lbs_ipc;
}

/* @task's jail, or NULL; it lasts as long as @task does. */
static struct jail *task_jail(const struct task_struct *task)
{
	/* pairs with smp_store_release() in jail_path_chroot() */
	return smp_load_acquire(&jail_task(task)->jail);
}

/*
 * One line per rule for the denials the rate limit dropped.  ___ratelimit()
 * would say "callbacks suppressed" only when a later line gets through,
 * which may be never; this runs one interval after the first drop.
 */
static void report_unlogged(struct work_struct *work)
{
	int rule, n;

	for (rule = 0; rule < NR_RULES; rule++) {
		n = atomic_xchg(&unlogged[rule], 0);
		if (n)
			pr_notice("denied %s: %d more, not logged (rate limit)\n",
				  rule_names[rule], n);
	}
}

static DECLARE_DELAYED_WORK(unlogged_report, report_unlogged);

/* A denial of @rule that the rate limit kept out of the log. */
static void note_unlogged(enum jail_rule rule)
{
	atomic_inc(&unlogged[rule]);
	/* queued already, it stays queued: one report per interval */
	schedule_delayed_work(&unlogged_report, DEFAULT_RATELIMIT_INTERVAL);
}

/*
 * What the rules return: -EPERM, counted and logged; or 0 when enforcement
 * is off.  Hooks that call this may run in atomic context (task_kill,
 * ptrace_access_check): nothing here sleeps.  The task names itself
 * (PR_SET_NAME): its control characters are logged as octal escapes, so
 * that a newline cannot start a forged line.
 */
static int jail_deny(enum jail_rule rule)
{
	if (!READ_ONCE(enforcing))
		return 0;
	/* TODO 1: count the denial; log pid and comm, ratelimited; else note_unlogged() */
	return -EPERM;
}

/*
 * A probe, a check made without auditing (a /proc/PID/stat read asks
 * whether its reader could trace the task; has_capability_noaudit()): it
 * is refused, but neither counted nor logged, or every ps in a jail would
 * count one denial per process outside.
 */
static int jail_deny_quietly(void)
{
	return READ_ONCE(enforcing) ? -EPERM : 0;
}

/* Refuse @rule's operation to a jailed task; others are not concerned. */
static int deny_if_jailed(enum jail_rule rule)
{
	/* TODO 2: the jailed only */
	return 0;
}

/* TODO 3: the work that ends a jail: put its root, free it */

/* Drop a reference to @jail, if any; from any context. */
static void jail_put(struct jail *jail)
{
	/* TODO 4: a jail ends with its last user; path_put() may sleep, this may not */
}

static void jail_task_free(struct task_struct *task)
{
	jail_put(jail_task(task)->jail);
}

static int jail_task_alloc(struct task_struct *task, unsigned long clone_flags)
{
	/* TODO 5: the new task is in its parent's jail, if any */
	return 0;
}

/*
 * Whether current shares neither its fs_struct (root and cwd: threads,
 * CLONE_FS) nor its memory (threads, CLONE_VM) with another task.
 */
static bool alone_in_fs_and_mm(void)
{
	struct fs_struct *fs = current->fs;
	bool alone;

	spin_lock(&fs->lock);
	alone = fs->users == 1;
	spin_unlock(&fs->lock);
	return alone && current_is_single_threaded();
}

/* Whether @file is an io_uring ring whose submissions a kernel thread polls. */
static bool is_sqpoll_ring(struct file *file)
{
	struct io_ring_ctx *ctx;

	if (!file || !io_is_uring_fops(file))
		return false;
	ctx = file->private_data;
	return ctx->flags & IORING_SETUP_SQPOLL;
}

static int fd_is_sqpoll_ring(const void *unused, struct file *file, unsigned int fd)
{
	return is_sqpoll_ring(file);
}

/*
 * Whether @vma is a way out of a jail for the task that maps it: a ring,
 * fed through its mapping with no system call, whose thread runs what it
 * is given with the root and credentials of the ring's maker.
 */
static bool maps_way_out(struct vm_area_struct *vma)
{
	return is_sqpoll_ring(vma->vm_file);
}

/* Whether current holds a way out, by a descriptor (a ring) or mapped. */
static bool holds_way_out(void)
{
	VMA_ITERATOR(vmi, current->mm, 0);
	struct vm_area_struct *vma;
	bool held = false;

	if (iterate_fd(current->files, 0, fd_is_sqpoll_ring, NULL))
		return true;
	mmap_read_lock(current->mm);
	for_each_vma(vmi, vma) {
		if (maps_way_out(vma)) {
			held = true;
			break;
		}
	}
	mmap_read_unlock(current->mm);
	return held;
}

/* Called after the CAP_SYS_CHROOT check; set_fs_root() follows, and cannot fail. */
static int jail_path_chroot(const struct path *path)
{
	/* TODO 6: no second chroot, none leaving sharers or a ring's thread out; else jail */
	return 0;
}

/* Whether a task in @jail may reach @target: only in the same jail. */
static bool jail_reaches(const struct jail *jail, const struct task_struct *target)
{
	/* TODO 7: one jail is one root: two chroots into a directory make one jail */
	return true;
}

static int mount_holds(struct vfsmount *mnt, void *dir)
{
	return mnt->mnt_sb == ((struct dentry *)dir)->d_sb && is_subdir(dir, mnt->mnt_root);
}

/*
 * Whether @dir can be seen in @jail: under its root, or under the root of
 * a mount in it (a bind mount of a directory from outside, as a service's
 * jail has for /usr).  The mounts are a private copy of the jail's tree,
 * made only when the ancestry says outside (the copy takes the namespace's
 * lock): a chdir() inside the jail's root never pays for it.
 */
static bool jail_sees_dir(const struct jail *jail, struct dentry *dir)
{
	struct vfsmount *tree;
	bool seen;

	if (is_subdir(dir, jail->root.dentry))
		return true;
	tree = collect_mounts(&jail->root);
	if (IS_ERR(tree))
		return false;
	seen = iterate_mounts(mount_holds, dir, tree);
	drop_collected_mounts(tree);
	return seen;
}

/*
 * chdir() and fchdir() give this hook the directory's inode with MAY_CHDIR,
 * but not the path: only a directory on the jail's filesystem can be told
 * in or out, by its dentry's ancestry and the jail's mounts.
 */
static int jail_inode_permission(struct inode *inode, int mask)
{
	/* TODO 8: no way in to a directory of the jail's filesystem outside its root */
	return 0;
}

/* Whether @dentry of procfs is in a /proc/PID directory; its PID into @nr. */
static bool proc_pid_entry(struct dentry *dentry, pid_t *nr)
{
	struct dentry *root = dentry->d_sb->s_root, *d = dget(dentry), *parent;
	bool pid_dir = false;

	/* procfs renames nothing: the names read here stay as they are */
	while (d != root && !IS_ROOT(d)) {
		parent = dget_parent(d);
		if (parent == root)
			pid_dir = !kstrtoint(d->d_name.name, 10, nr);
		dput(d);
		d = parent;
	}
	dput(d);
	return pid_dir;
}

/* Whether the jailed may write to @file of procfs: in /proc/PID of its jail only. */
static int jail_proc_write(const struct jail *jail, const struct file *file)
{
	struct super_block *sb = file->f_path.dentry->d_sb;
	struct task_struct *task;
	bool reach;
	pid_t nr;

	if (!proc_pid_entry(file->f_path.dentry, &nr))
		return jail_deny(RULE_SYSCTL);
	rcu_read_lock();
	task = pid_task(find_pid_ns(nr, proc_pid_ns(sb)), PIDTYPE_PID);
	reach = task && jail_reaches(jail, task);
	rcu_read_unlock();
	return reach ? 0 : jail_deny(RULE_TASK);
}

/*
 * Opened for writing, the files of these filesystems change the kernel's
 * settings (/proc/sys, /proc/sysrq-trigger, /sys/power/state, ...) or,
 * in /proc/PID, a task's (oom_score_adj, ...).  The jailed may write to
 * those of its own jail's tasks only.
 */
static int jail_open_for_write(struct file *file)
{
	struct jail *jail = task_jail(current);

	if (!jail || !(file->f_mode & FMODE_WRITE))
		return 0;
	switch (file->f_path.dentry->d_sb->s_magic) {
	case PROC_SUPER_MAGIC:
		return jail_proc_write(jail, file);
	case SYSFS_MAGIC:
	case SECURITYFS_MAGIC:
	case DEBUGFS_MAGIC:
	case TRACEFS_MAGIC:
	case CGROUP_SUPER_MAGIC:
	case CGROUP2_SUPER_MAGIC:
		return jail_deny(RULE_SYSCTL);
	}
	return 0;
}

/*
 * Every open has a path: here mounts can be followed.  A pipe's, socket's
 * or memfd's internal mount is in no tree: a task reopens such a file
 * (/proc/self/fd/N, /dev/stdin, fexecve()) only through a descriptor that
 * it, or a task it may trace, holds.
 */
static int jail_file_open(struct file *file)
{
	/* TODO 9: only what lies under the jail's root, across mounts (internal ones: its own) */
	return jail_open_for_write(file);
}

/*
 * The path rule: a path operation's directory or file must be under the
 * jail's root, whatever directory fd the call started from.  Internal
 * mounts (pipes, sockets, memfd) are in no tree: a task reaches their
 * files only through descriptors it holds.
 */
static int jail_check_path(const struct path *path)
{
	struct jail *jail = task_jail(current);

	if (jail && !(path->mnt->mnt_flags & MNT_INTERNAL) &&
	    !path_is_under(path, &jail->root))
		return jail_deny(RULE_PATH);
	return 0;
}

static int jail_path_mkdir(const struct path *dir, struct dentry *dentry,
			   umode_t mode)
{
	return jail_check_path(dir);
}

static int jail_path_rmdir(const struct path *dir, struct dentry *dentry)
{
	return jail_check_path(dir);
}

static int jail_path_unlink(const struct path *dir, struct dentry *dentry)
{
	return jail_check_path(dir);
}

static int jail_path_symlink(const struct path *dir, struct dentry *dentry,
			     const char *old_name)
{
	return jail_check_path(dir);
}

static int jail_path_truncate(const struct path *path)
{
	return jail_check_path(path);
}

static int jail_path_chmod(const struct path *path, umode_t mode)
{
	return jail_check_path(path);
}

static int jail_path_chown(const struct path *path, kuid_t uid, kgid_t gid)
{
	return jail_check_path(path);
}

/* inotify, fanotify and dnotify watches */
static int jail_path_notify(const struct path *path, u64 mask,
			    unsigned int obj_type)
{
	return jail_check_path(path);
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
	return jail_check_path(dir);
}

/* Called with the child's task_lock held. */
static int jail_ptrace_access_check(struct task_struct *child, unsigned int mode)
{
	struct jail *jail = task_jail(current);

	if (!jail || jail_reaches(jail, child))
		return 0;
	if (mode & PTRACE_MODE_NOAUDIT)
		return jail_deny_quietly();
	return jail_deny(RULE_PTRACE);
}

/*
 * Called under rcu_read_lock() or tasklist_lock.  Signal 0 sends nothing:
 * it asks whether the task exists, a probe (kill(0, 0) in a process group
 * shared with the shell outside that started the jail is ordinary).
 */
static int jail_task_kill(struct task_struct *p, struct kernel_siginfo *info,
			  int sig, const struct cred *cred)
{
	/* TODO 10: a jailed sender signals its own jail only (0: a probe); @cred: not current */
	return 0;
}

/*
 * SIGIO and SIGURG go to a file's owner when I/O happens, from whoever
 * does the I/O, and task_kill is not asked: the jail of the task that set
 * the owner (fcntl(F_SETOWN)) is kept with the file and asked instead.
 * Called with file->f_owner.lock held for writing.
 */
static void jail_file_set_fowner(struct file *file)
{
	struct jail_file *f = jail_file(file);
	struct jail *jail = task_jail(current), *old = f->owner_jail;

	if (jail)
		refcount_inc(&jail->usage);
	f->owner_jail = jail;
	jail_put(old);
}

/* Called with fown->lock held for reading, interrupts off. */
static int jail_file_send_sigiotask(struct task_struct *tsk,
				    struct fown_struct *fown, int sig)
{
	struct file *file = container_of(fown, struct file, f_owner);
	struct jail *jail = jail_file(file)->owner_jail;

	if (jail && !jail_reaches(jail, tsk))
		return jail_deny(RULE_SIGNAL);
	return 0;
}

static void jail_file_free(struct file *file)
{
	jail_put(jail_file(file)->owner_jail);
}

/* The task rule: what the jailed may do to other tasks, they may do in the jail only. */
static int jail_check_task(struct task_struct *p)
{
	struct jail *jail = task_jail(current);

	if (jail && !jail_reaches(jail, p))
		return jail_deny(RULE_TASK);
	return 0;
}

static int jail_task_setpgid(struct task_struct *p, pid_t pgid)
{
	return jail_check_task(p);
}

static int jail_task_getpgid(struct task_struct *p)
{
	return jail_check_task(p);
}

static int jail_task_getsid(struct task_struct *p)
{
	return jail_check_task(p);
}

static int jail_task_setnice(struct task_struct *p, int nice)
{
	return jail_check_task(p);
}

static int jail_task_setioprio(struct task_struct *p, int ioprio)
{
	return jail_check_task(p);
}

static int jail_task_getioprio(struct task_struct *p)
{
	return jail_check_task(p);
}

static int jail_task_setrlimit(struct task_struct *p, unsigned int resource,
			       struct rlimit *new_rlim)
{
	return jail_check_task(p);
}

/* sched_setscheduler(), sched_setattr(), sched_setaffinity() */
static int jail_task_setscheduler(struct task_struct *p)
{
	return jail_check_task(p);
}

static int jail_task_getscheduler(struct task_struct *p)
{
	return jail_check_task(p);
}

/* migrate_pages() and move_pages() */
static int jail_task_movememory(struct task_struct *p)
{
	return jail_check_task(p);
}

/*
 * The capability rule.  A jailed root keeps the capabilities it needs to
 * be root in its jail (chown, DAC override, kill and ptrace in its jail,
 * setuid) and loses those that act on the whole system, so on what lies
 * outside every jail.  chroot() itself (CAP_SYS_CHROOT) is left to the
 * chroot rule, which comes after this check; setns() into a mount
 * namespace needs CAP_SYS_ADMIN too.
 */
static bool jail_refuses_cap(int cap)
{
	switch (cap) {
	case CAP_SYS_MODULE:		/* load kernel code */
	case CAP_SYS_RAWIO:		/* iopl(), ioperm(), /dev/mem, raw block I/O */
	case CAP_SYS_ADMIN:		/* setns(), unshare(), swapon(), sethostname(), ... */
	case CAP_MKNOD:			/* device nodes, after the mknod rule */
	case CAP_SYS_BOOT:		/* reboot(), kexec_load() */
	case CAP_SYS_TIME:		/* the system clock */
	case CAP_SETFCAP:		/* file capabilities: set-id programs by xattr */
	case CAP_FSETID:		/* writes and chown() keep set-id bits */
	case CAP_LINUX_IMMUTABLE:	/* immutable and append-only files */
	case CAP_NET_ADMIN:		/* network interfaces, routes, firewall */
	case CAP_NET_RAW:		/* raw and packet sockets: forged traffic */
	case CAP_SYS_PACCT:		/* process accounting */
	case CAP_SYS_TTY_CONFIG:	/* vhangup(): other users' terminals */
	case CAP_IPC_OWNER:		/* System V IPC permission checks */
	case CAP_SYS_NICE:		/* raise priorities: starve what is outside */
	case CAP_SYSLOG:		/* the kernel log, kernel addresses */
	case CAP_MAC_ADMIN:		/* LSM policy */
	case CAP_MAC_OVERRIDE:
	case CAP_AUDIT_CONTROL:		/* the audit rules */
	case CAP_BPF:			/* BPF programs and maps */
	case CAP_PERFMON:		/* perf events: the kernel's and others' */
	case CAP_CHECKPOINT_RESTORE:	/* pid choice, other tasks' state */
	case CAP_WAKE_ALARM:		/* wake the system */
	case CAP_BLOCK_SUSPEND:		/* keep it awake */
		return true;
	}
	return false;
}

/*
 * Asked with another task's credentials (has_capability()), the jail
 * cannot tell that task's jail: only current's own checks are judged.
 * CAP_FSETID refused never fails a call, it only strips set-id bits (a
 * chmod() of another group's file asks it, audited): a probe, not counted.
 */
static int jail_capable(const struct cred *cred, struct user_namespace *ns,
			int cap, unsigned int opts)
{
	if (cred != current_cred() || !task_jail(current) || !jail_refuses_cap(cap))
		return 0;
	if ((opts & CAP_OPT_NOAUDIT) || cap == CAP_FSETID)
		return jail_deny_quietly();
	return jail_deny(RULE_CAPABILITY);
}

/* The ipc rule: a System V IPC object is its maker's jail's, or no jail's. */
static int jail_ipc_alloc(struct kern_ipc_perm *perm)
{
	struct jail *jail = task_jail(current);

	if (jail)
		refcount_inc(&jail->usage);
	jail_ipc(perm)->jail = jail;
	return 0;
}

static void jail_ipc_free(struct kern_ipc_perm *perm)
{
	jail_put(jail_ipc(perm)->jail);
}

/* Every access (get, attach, send, receive, operate, stat) and control. */
static int jail_check_ipc(struct kern_ipc_perm *perm)
{
	struct jail *jail = task_jail(current), *owner;

	if (!jail || !perm)	/* IPC_INFO and the like: no object */
		return 0;
	owner = jail_ipc(perm)->jail;
	if (owner && path_equal(&owner->root, &jail->root))
		return 0;
	return jail_deny(RULE_IPC);
}

static int jail_ipc_permission(struct kern_ipc_perm *ipcp, short flag)
{
	return jail_check_ipc(ipcp);
}

static int jail_ipc_ctl(struct kern_ipc_perm *perm, int cmd)
{
	return jail_check_ipc(perm);
}

#ifdef CONFIG_SECURITY_NETWORK
static struct jail_inode *jail_inode(const struct inode *inode)
{
	return inode->i_security + jail_blob_sizes.lbs_inode;
}

/* A unix socket made by a jailed task is its jail's, for as long as it lives. */
static int jail_socket_post_create(struct socket *sock, int family, int type,
				   int protocol, int kern)
{
	struct jail *jail = task_jail(current);

	if (jail && family == AF_UNIX && !kern) {
		refcount_inc(&jail->usage);
		jail_inode(SOCK_INODE(sock))->maker_jail = jail;
	}
	return 0;
}

static void jail_inode_free(struct inode *inode)
{
	jail_put(jail_inode(inode)->maker_jail);
}

/*
 * The unix rule: a socket bound to a path is reached if the path is in the
 * jail (a socket the administrator put there is meant to be used); an
 * abstract or unbound one if it was made in the jail, whoever holds it now
 * (a daemon's listener after its maker exited, a datagram peer), or if the
 * task that listens on it, or made the pair, is in the jail (a socket made
 * before chroot()).  Called with other's state lock held: other is not dead,
 * and its socket is there.
 */
static int jail_check_unix(struct sock *other)
{
	struct jail *jail = task_jail(current), *maker;
	struct unix_sock *u = unix_sk(other);
	struct task_struct *owner;
	bool reach;

	if (!jail)
		return 0;
	if (u->path.dentry) {
		reach = path_is_under(&u->path, &jail->root);
	} else {
		maker = other->sk_socket ?
			jail_inode(SOCK_INODE(other->sk_socket))->maker_jail : NULL;
		reach = maker && path_equal(&maker->root, &jail->root);
		spin_lock(&other->sk_peer_lock);
		rcu_read_lock();
		owner = pid_task(other->sk_peer_pid, PIDTYPE_PID);
		reach = reach || (owner && jail_reaches(jail, owner));
		rcu_read_unlock();
		spin_unlock(&other->sk_peer_lock);
	}
	return reach ? 0 : jail_deny(RULE_UNIX);
}

static int jail_unix_stream_connect(struct sock *sock, struct sock *other,
				    struct sock *newsk)
{
	return jail_check_unix(other);
}

static int jail_unix_may_send(struct socket *sock, struct socket *other)
{
	return jail_check_unix(other->sk);
}
#endif

/*
 * The terminal a jailed task acts on through @tty: a pty master's slave,
 * whose input is what is written to the master and whose foreground group
 * the master's TIOCSIG and TIOCSWINSZ signal.
 */
static struct tty_struct *judged_tty(struct tty_struct *tty)
{
	if (tty->driver->type == TTY_DRIVER_TYPE_PTY &&
	    tty->driver->subtype == PTY_TYPE_MASTER)
		return tty->link;
	return tty;
}

/*
 * Whether every task of @pid as @type (a session, a process group) is in
 * @jail; true for none.  Called under rcu_read_lock().
 */
static bool jail_holds_all(const struct jail *jail, struct pid *pid, enum pid_type type)
{
	struct task_struct *p;

	do_each_pid_task(pid, type, p) {
		if (!jail_reaches(jail, p))
			return false;
	} while_each_pid_task(pid, type, p);
	return true;
}

/* Whether @tty's foreground group, and with @session its session, are all in @jail. */
static bool jail_holds_tty(const struct jail *jail, struct tty_struct *tty, bool session)
{
	struct pid *pgrp, *sid;
	unsigned long flags;
	bool held;

	spin_lock_irqsave(&tty->ctrl.lock, flags);
	pgrp = get_pid(tty->ctrl.pgrp);
	sid = get_pid(tty->ctrl.session);
	spin_unlock_irqrestore(&tty->ctrl.lock, flags);

	rcu_read_lock();
	held = jail_holds_all(jail, pgrp, PIDTYPE_PGID) &&
	       (!session || jail_holds_all(jail, sid, PIDTYPE_SID));
	rcu_read_unlock();
	put_pid(pgrp);
	put_pid(sid);
	return held;
}

/* Whether the caller's process group is @tty's foreground group. */
static bool in_foreground(struct tty_struct *tty)
{
	struct pid *pgrp = tty_get_pgrp(tty);
	bool foreground = pgrp && pgrp == task_pgrp(current);

	put_pid(pgrp);
	return foreground;
}

/*
 * The terminal rule.  A jailed task may use a terminal it shares with
 * tasks outside (the one the shell that started the jail runs on): read
 * and write it, set its modes, hand its foreground on.  It may not type
 * into it (TIOCSTI, or a write to its pty master: below), nor make the
 * kernel signal a foreground group with a task outside (TIOCSWINSZ sends
 * SIGWINCH, a pty master's TIOCSIG SIGINT, TIOCNOTTY by a session
 * leader SIGHUP: privileged sends, which ask no task_kill hook), nor take
 * the foreground from such a group (TIOCSPGRP from the background).
 */
static int jail_file_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct jail *jail = task_jail(current);
	struct tty_struct *tty;

	if (!jail)
		return 0;
	switch (cmd) {
	case TIOCSTI:
	case TIOCSWINSZ:
	case TIOCSIG:
	case TIOCSPGRP:
	case TIOCNOTTY:
		break;
	default:
		return 0;
	}
	tty = tty_file_tty(file);
	if (!tty)
		return 0;
	tty = judged_tty(tty);
	if (cmd == TIOCNOTTY && !current->signal->leader)
		return 0;
	if (cmd == TIOCSPGRP && in_foreground(tty))
		return 0;
	if (jail_holds_tty(jail, tty, cmd == TIOCSTI))
		return 0;
	return jail_deny(RULE_TTY);
}

/* A write to a pty master is its slave's input: typing, as TIOCSTI is. */
static int jail_file_permission(struct file *file, int mask)
{
	struct jail *jail;
	struct tty_struct *tty;

	if (!(mask & MAY_WRITE) || !S_ISCHR(file_inode(file)->i_mode))
		return 0;
	jail = task_jail(current);
	tty = jail ? tty_file_tty(file) : NULL;
	if (!tty || judged_tty(tty) == tty || jail_holds_tty(jail, tty->link, true))
		return 0;
	return jail_deny(RULE_TTY);
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
	LSM_HOOK_INIT(path_mkdir, jail_path_mkdir),
	LSM_HOOK_INIT(path_rmdir, jail_path_rmdir),
	LSM_HOOK_INIT(path_unlink, jail_path_unlink),
	LSM_HOOK_INIT(path_symlink, jail_path_symlink),
	LSM_HOOK_INIT(path_truncate, jail_path_truncate),
	LSM_HOOK_INIT(path_chmod, jail_path_chmod),
	LSM_HOOK_INIT(path_chown, jail_path_chown),
	LSM_HOOK_INIT(path_notify, jail_path_notify),
	LSM_HOOK_INIT(ptrace_access_check, jail_ptrace_access_check),
	LSM_HOOK_INIT(task_kill, jail_task_kill),
	LSM_HOOK_INIT(file_set_fowner, jail_file_set_fowner),
	LSM_HOOK_INIT(file_send_sigiotask, jail_file_send_sigiotask),
	LSM_HOOK_INIT(file_free_security, jail_file_free),
	LSM_HOOK_INIT(file_ioctl, jail_file_ioctl),
	LSM_HOOK_INIT(file_permission, jail_file_permission),
	LSM_HOOK_INIT(task_setpgid, jail_task_setpgid),
	LSM_HOOK_INIT(task_getpgid, jail_task_getpgid),
	LSM_HOOK_INIT(task_getsid, jail_task_getsid),
	LSM_HOOK_INIT(task_setnice, jail_task_setnice),
	LSM_HOOK_INIT(task_setioprio, jail_task_setioprio),
	LSM_HOOK_INIT(task_getioprio, jail_task_getioprio),
	LSM_HOOK_INIT(task_setrlimit, jail_task_setrlimit),
	LSM_HOOK_INIT(task_setscheduler, jail_task_setscheduler),
	LSM_HOOK_INIT(task_getscheduler, jail_task_getscheduler),
	LSM_HOOK_INIT(task_movememory, jail_task_movememory),
	LSM_HOOK_INIT(capable, jail_capable),
	LSM_HOOK_INIT(msg_queue_alloc_security, jail_ipc_alloc),
	LSM_HOOK_INIT(msg_queue_free_security, jail_ipc_free),
	LSM_HOOK_INIT(shm_alloc_security, jail_ipc_alloc),
	LSM_HOOK_INIT(shm_free_security, jail_ipc_free),
	LSM_HOOK_INIT(sem_alloc_security, jail_ipc_alloc),
	LSM_HOOK_INIT(sem_free_security, jail_ipc_free),
	LSM_HOOK_INIT(ipc_permission, jail_ipc_permission),
	LSM_HOOK_INIT(msg_queue_msgctl, jail_ipc_ctl),
	LSM_HOOK_INIT(shm_shmctl, jail_ipc_ctl),
	LSM_HOOK_INIT(sem_semctl, jail_ipc_ctl),
#ifdef CONFIG_SECURITY_NETWORK
	LSM_HOOK_INIT(socket_post_create, jail_socket_post_create),
	LSM_HOOK_INIT(inode_free_security, jail_inode_free),
	LSM_HOOK_INIT(unix_stream_connect, jail_unix_stream_connect),
	LSM_HOOK_INIT(unix_may_send, jail_unix_may_send),
#endif
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

	for (i = 0; i < NR_RULES; i++) {
		ratelimit_state_init(&denial_log[i], DEFAULT_RATELIMIT_INTERVAL,
				     DEFAULT_RATELIMIT_BURST);
		/* report_unlogged() says what it drops, not ___ratelimit() */
		ratelimit_set_flags(&denial_log[i], RATELIMIT_MSG_ON_RELEASE);
	}
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
