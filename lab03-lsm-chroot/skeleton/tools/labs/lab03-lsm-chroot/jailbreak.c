// SPDX-License-Identifier: GPL-2.0
/*
 * jailbreak - try the classic ways out of a chroot() jail, as root.
 *
 *   jailbreak
 *
 * It builds a jail in WORKDIR/jail, puts a secret in WORKDIR, next to the
 * jail on the same filesystem, and starts a process outside the jail.  Then,
 * for each breakout, a child enters the jail the way busybox chroot does
 * (chroot(), chdir("/")) and tries; it prints
 *
 *   NAME ESCAPED what it reached        or    NAME BLOCKED the refusal
 *
 * ESCAPED means it read the secret, or did what a jail exists to prevent:
 * changed the mounts or something outside, made a device node, traced,
 * signalled or reconfigured the process outside, used a capability that
 * acts on the whole system, reached an IPC object or a socket outside,
 * typed into a terminal outside.
 * The jail has a /proc, as jails that run daemons often do.  Everything
 * happens in a mount namespace of its own, so mounts that get through are
 * undone when jailbreak exits; what else gets through is harmless (the
 * hostname is rewritten with itself, the clock with its own time).
 * The last line says "N of M breakouts blocked".  Exit status: 0 if every
 * breakout was blocked, 1 if one escaped, 2 if the jail could not be built.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <stddef.h>
#include <sys/io.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/time.h>
#include <sys/un.h>
#include <sys/wait.h>

#define WORKDIR	"/tmp/jailbreak"
#define JAIL	WORKDIR "/jail"
#define SECRET	WORKDIR "/secret"

#define VICTIM	WORKDIR "/victim"
#define ABSTRACT "jailbreak-outside"	/* a unix socket outside, abstract */

static int outside_dir = -1;	/* WORKDIR, opened before any chroot */
static pid_t outside_pid;	/* a process outside the jail */
static int outside_fd = -1;	/* a descriptor that process holds */
static int outside_shm = -1;	/* a System V shared memory segment made outside */
static int outside_pty = -1;	/* the master of the terminal of that process's session */

/* A breakout's verdict: one line, and the exit status of the child. */
static int escaped(const char *name, const char *what)
{
	printf("%-10s ESCAPED %s\n", name, what);
	return 1;
}

static int blocked(const char *name, const char *call)
{
	printf("%-10s BLOCKED %s: %s\n", name, call, strerror(errno));
	return 0;
}

/* Read SECRET through @fd; whether it was there. */
static int got_secret(int fd)
{
	char buf[16] = "";

	if (fd < 0 || read(fd, buf, sizeof(buf) - 1) <= 0)
		return 0;
	close(fd);
	return !strncmp(buf, "secret", 6);
}

/* mkdir d; chroot d; cd ../../..; chroot . -- the cwd stays outside the new root. */
static int try_chroot(void)
{
	int i;

	if (mkdir("d", 0755) && errno != EEXIST)
		return blocked("chroot", "mkdir(\"d\")");
	if (chroot("d"))
		return blocked("chroot", "chroot(\"d\")");
	for (i = 0; i < 16; i++)
		if (chdir(".."))
			return blocked("chroot", "chdir(\"..\")");
	if (chroot("."))
		return blocked("chroot", "chroot(\".\")");
	if (!got_secret(open(SECRET, O_RDONLY)))
		return blocked("chroot", "open(" SECRET ")");
	return escaped("chroot", "read " SECRET " after chroot(\"d\"), cd .. x16, chroot(\".\")");
}

/* fchdir() to a directory opened before the chroot, then up and chroot(".") */
static int try_fchdir(void)
{
	int i;

	if (fchdir(outside_dir))
		return blocked("fchdir", "fchdir(outside)");
	for (i = 0; i < 16; i++)
		if (chdir(".."))
			return blocked("fchdir", "chdir(\"..\")");
	if (chroot("."))
		return blocked("fchdir", "chroot(\".\")");
	if (!got_secret(open(SECRET, O_RDONLY)))
		return blocked("fchdir", "open(" SECRET ")");
	return escaped("fchdir", "read " SECRET " after fchdir(outside), cd .. x16, chroot(\".\")");
}

/* openat() relative to a directory opened before the chroot */
static int try_openat(void)
{
	int fd = openat(outside_dir, "secret", O_RDONLY);

	if (fd < 0)
		return blocked("openat", "openat(outside, \"secret\")");
	if (!got_secret(fd))
		return blocked("openat", "read(secret)");
	return escaped("openat", "read the secret through openat(outside, \"secret\")");
}

/* a device node gives the jailed root the raw device: here /dev/null's numbers */
static int try_mknod(void)
{
	unlink("/null");
	if (mknod("/null", S_IFCHR | 0600, makedev(1, 3)))
		return blocked("mknod", "mknod(\"/null\", S_IFCHR, 1:3)");
	return escaped("mknod", "made a character device node, 1:3");
}

/* ptrace a process outside: its memory, registers, and so its privileges */
static int try_ptrace(void)
{
	if (ptrace(PTRACE_ATTACH, outside_pid, NULL, NULL))
		return blocked("ptrace", "ptrace(PTRACE_ATTACH, outside)");
	waitpid(outside_pid, NULL, __WALL);
	ptrace(PTRACE_DETACH, outside_pid, NULL, NULL);
	return escaped("ptrace", "attached to the process outside");
}

/* a signal outside: SIGURG, which that process ignores, stands for SIGKILL */
static int try_signal(void)
{
	if (kill(outside_pid, SIGURG))
		return blocked("signal", "kill(outside, SIGURG)");
	return escaped("signal", "signalled the process outside");
}

/* mount proc, then reach init's root through /proc/1/root */
static int try_mount(void)
{
	if (mkdir("/proc", 0755) && errno != EEXIST)
		return blocked("mount", "mkdir(\"/proc\")");
	if (mount("proc", "/proc", "proc", 0, NULL))
		return blocked("mount", "mount(\"proc\")");
	if (!got_secret(open("/proc/1/root" SECRET, O_RDONLY)))
		return escaped("mount", "mounted proc (/proc/1/root was refused)");
	return escaped("mount", "mounted proc, read /proc/1/root" SECRET);
}

/* pivot_root(): rearrange the mounts from inside; the jail is a mount for this */
static int try_pivot_root(void)
{
	if (chdir("/new"))
		return blocked("pivot_root", "chdir(\"/new\")");
	if (syscall(SYS_pivot_root, ".", "old"))
		return blocked("pivot_root", "pivot_root(\".\", \"old\")");
	return escaped("pivot_root", "moved the jail's root mount aside");
}

/* setns() into its own mount namespace: the root becomes the namespace's */
static int try_setns(void)
{
	int pidfd = syscall(SYS_pidfd_open, getpid(), 0);

	if (pidfd < 0)
		return blocked("setns", "pidfd_open(self)");
	if (setns(pidfd, CLONE_NEWNS))
		return blocked("setns", "setns(self, CLONE_NEWNS)");
	if (!got_secret(open(SECRET, O_RDONLY)))
		return blocked("setns", "open(" SECRET ")");
	return escaped("setns", "read " SECRET " after setns() into its own mount namespace");
}

/* path operations relative to a directory opened before the chroot */
static int try_fchmodat(void)
{
	if (fchmodat(outside_dir, "secret", 0666, 0))
		return blocked("fchmodat", "fchmodat(outside, \"secret\", 0666)");
	return escaped("fchmodat", "made the secret world-readable");
}

static int try_fchownat(void)
{
	if (fchownat(outside_dir, "secret", 65534, 65534, 0))
		return blocked("fchownat", "fchownat(outside, \"secret\", nobody)");
	return escaped("fchownat", "gave the secret to nobody");
}

static int try_mkdirat(void)
{
	if (mkdirat(outside_dir, "made-in-jail", 0755) && errno != EEXIST)
		return blocked("mkdirat", "mkdirat(outside, \"made-in-jail\")");
	return escaped("mkdirat", "made a directory outside");
}

static int try_unlinkat(void)
{
	if (unlinkat(outside_dir, "victim", 0))
		return blocked("unlinkat", "unlinkat(outside, \"victim\")");
	return escaped("unlinkat", "removed a file outside");
}

static int try_symlinkat(void)
{
	if (symlinkat("/", outside_dir, "link-from-jail") && errno != EEXIST)
		return blocked("symlinkat", "symlinkat(outside, \"link-from-jail\")");
	return escaped("symlinkat", "made a symbolic link outside");
}

/* SIGIO: the signal goes to the owner set by F_SETOWN, sent by whoever writes */
static int try_sigio(void)
{
	int p[2];

	if (pipe(p))
		return blocked("sigio", "pipe()");
	if (fcntl(p[0], F_SETOWN, getppid()) || fcntl(p[0], F_SETSIG, SIGUSR1) ||
	    fcntl(p[0], F_SETFL, O_ASYNC))
		return blocked("sigio", "fcntl(F_SETOWN, jailbreak outside)");
	if (write(p[1], "x", 1) != 1)
		return blocked("sigio", "write()");
	return 3;	/* jailbreak, outside, says whether SIGUSR1 came */
}

/* the scheduling and priority of a task outside */
static int try_renice(void)
{
	if (setpriority(PRIO_PROCESS, outside_pid, 19))
		return blocked("renice", "setpriority(outside, 19)");
	return escaped("renice", "reniced the process outside");
}

/* /proc/PID/root of a process outside is its root, so the real one */
static int try_proc_root(void)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/root" SECRET, outside_pid);
	if (!got_secret(open(path, O_RDONLY)))
		return blocked("proc_root", "open(/proc/outside/root" SECRET ")");
	return escaped("proc_root", "read the secret through /proc/PID/root");
}

/* /proc/PID/mem: the memory of a process outside */
static int try_proc_mem(void)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/mem", outside_pid);
	fd = open(path, O_RDWR);
	if (fd < 0)
		return blocked("proc_mem", "open(/proc/outside/mem)");
	return escaped("proc_mem", "opened the memory of the process outside");
}

/* take a descriptor from the process outside */
static int try_pidfd_getfd(void)
{
	int pidfd = syscall(SYS_pidfd_open, outside_pid, 0);

	if (pidfd < 0)
		return blocked("pidfd_getfd", "pidfd_open(outside)");
	if (syscall(SYS_pidfd_getfd, pidfd, outside_fd, 0) < 0)
		return blocked("pidfd_getfd", "pidfd_getfd(outside, its pipe)");
	return escaped("pidfd_getfd", "took a descriptor of the process outside");
}

/* a kernel setting, through /proc/sys: the hostname, written with itself */
static int try_sysctl(void)
{
	char name[65] = "";
	int fd = open("/proc/sys/kernel/hostname", O_RDWR);
	ssize_t n;

	if (fd < 0)
		return blocked("sysctl", "open(/proc/sys/kernel/hostname, O_RDWR)");
	n = read(fd, name, sizeof(name) - 1);
	if (n <= 0 || pwrite(fd, name, n, 0) != n)
		return blocked("sysctl", "write(/proc/sys/kernel/hostname)");
	return escaped("sysctl", "wrote a kernel setting");
}

/* capabilities that act on the whole system */
static int try_init_module(void)
{
	if (syscall(SYS_init_module, NULL, 0, "") && errno == EPERM)
		return blocked("init_module", "init_module()");
	return escaped("init_module", "passed the CAP_SYS_MODULE check: kernel code could follow");
}

static int try_iopl(void)
{
	if (iopl(3))
		return blocked("iopl", "iopl(3)");
	return escaped("iopl", "got access to every I/O port");
}

static int try_sethostname(void)
{
	char name[65] = "";

	if (gethostname(name, sizeof(name) - 1) || sethostname(name, strlen(name)))
		return blocked("sethostname", "sethostname()");
	return escaped("sethostname", "set the hostname (CAP_SYS_ADMIN)");
}

static int try_settime(void)
{
	struct timeval now;

	if (gettimeofday(&now, NULL) || settimeofday(&now, NULL))
		return blocked("settime", "settimeofday()");
	return escaped("settime", "set the system clock");
}

/* a System V shared memory segment made outside */
static int try_shm(void)
{
	if (shmat(outside_shm, NULL, 0) == (void *)-1)
		return blocked("shm", "shmat(outside's segment)");
	return escaped("shm", "attached a shared memory segment made outside");
}

/* what is written to a pty master is typed into the terminal of its slave */
static int try_tty(void)
{
	if (write(outside_pty, "id\n", 3) != 3)
		return blocked("tty", "write(the pty master of a terminal outside)");
	return escaped("tty", "typed into the terminal of a session outside");
}

/* an abstract unix socket: no path, so no jail wall in the filesystem */
static int try_unix(void)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int s = socket(AF_UNIX, SOCK_STREAM, 0);

	strcpy(addr.sun_path + 1, ABSTRACT);
	if (s < 0 || connect(s, (struct sockaddr *)&addr,
			     offsetof(struct sockaddr_un, sun_path) + 1 + strlen(ABSTRACT)))
		return blocked("unix", "connect(@" ABSTRACT ")");
	return escaped("unix", "connected to a socket outside");
}

static const struct breakout {
	const char *name;
	int (*try)(void);
} breakouts[] = {
	{ "chroot", try_chroot },
	{ "fchdir", try_fchdir },
	{ "openat", try_openat },
	{ "mknod", try_mknod },
	{ "ptrace", try_ptrace },
	{ "signal", try_signal },
	{ "setns", try_setns },
	{ "fchmodat", try_fchmodat },
	{ "fchownat", try_fchownat },
	{ "mkdirat", try_mkdirat },
	{ "unlinkat", try_unlinkat },
	{ "symlinkat", try_symlinkat },
	{ "sigio", try_sigio },
	{ "renice", try_renice },
	{ "proc_root", try_proc_root },
	{ "proc_mem", try_proc_mem },
	{ "pidfd_getfd", try_pidfd_getfd },
	{ "sysctl", try_sysctl },
	{ "init_module", try_init_module },
	{ "iopl", try_iopl },
	{ "sethostname", try_sethostname },
	{ "settime", try_settime },
	{ "shm", try_shm },
	{ "unix", try_unix },
	{ "tty", try_tty },
	/* these two change the mounts if they get through: last */
	{ "mount", try_mount },
	{ "pivot_root", try_pivot_root },
};

static int put_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	int ok;

	if (fd < 0)
		return -1;
	ok = write(fd, text, strlen(text)) == (ssize_t)strlen(text);
	return close(fd) || !ok ? -1 : 0;
}

/*
 * The jail, a bind mount of itself (pivot_root needs a mount), with a mount
 * at /new and a /proc; the secret, a victim file, a shared memory segment.
 */
static int build(void)
{
	static const char *const dirs[] = {
		WORKDIR, JAIL, JAIL "/new", JAIL "/new/old", JAIL "/proc",
	};
	size_t i;

	if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL)) {
		perror("jailbreak: a mount namespace");
		return -1;
	}
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		if (mkdir(dirs[i], 0755) && errno != EEXIST) {
			fprintf(stderr, "jailbreak: mkdir %s: %s\n", dirs[i], strerror(errno));
			return -1;
		}
	}
	if (mount(JAIL, JAIL, NULL, MS_BIND, NULL) ||
	    mount(JAIL "/new", JAIL "/new", NULL, MS_BIND, NULL) ||
	    mount("proc", JAIL "/proc", "proc", 0, NULL)) {
		perror("jailbreak: mounts");
		return -1;
	}
	/* what an earlier run's escapes left */
	rmdir(WORKDIR "/made-in-jail");
	unlink(WORKDIR "/link-from-jail");
	if (put_file(SECRET, "secret\n") || chown(SECRET, 0, 0) || chmod(SECRET, 0600) ||
	    put_file(VICTIM, "victim\n")) {
		perror("jailbreak: " SECRET);
		return -1;
	}
	outside_shm = shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0600);
	if (outside_shm < 0) {
		perror("jailbreak: shmget");
		return -1;
	}
	outside_dir = open(WORKDIR, O_RDONLY | O_DIRECTORY);
	if (outside_dir < 0) {
		perror("jailbreak: " WORKDIR);
		return -1;
	}
	return 0;
}

/*
 * The process outside: it leads a session of its own on a new terminal, a
 * pty whose master we keep, listens on an abstract unix socket and waits
 * for EOF on a pipe, that is, for us to exit.
 */
static pid_t start_outside(void)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int p[2], ready[2], s;
	const char *tty;
	char c;
	pid_t pid;

	strcpy(addr.sun_path + 1, ABSTRACT);
	outside_pty = posix_openpt(O_RDWR | O_NOCTTY);
	if (outside_pty < 0 || grantpt(outside_pty) || unlockpt(outside_pty))
		return -1;
	tty = ptsname(outside_pty);
	if (!tty || pipe(p) || pipe(ready))
		return -1;
	outside_fd = p[0];
	pid = fork();
	if (pid == 0) {
		signal(SIGURG, SIG_IGN);
		close(p[1]);
		s = socket(AF_UNIX, SOCK_STREAM, 0);
		if (s < 0 || bind(s, (struct sockaddr *)&addr,
				  offsetof(struct sockaddr_un, sun_path) + 1 + strlen(ABSTRACT)) ||
		    listen(s, 8) || setsid() < 0 || open(tty, O_RDWR) < 0 ||
		    write(ready[1], "r", 1) != 1)
			_exit(1);
		while (read(p[0], &c, 1) > 0)
			;
		_exit(0);
	}
	close(p[0]);
	close(ready[1]);
	if (pid > 0 && read(ready[0], &c, 1) != 1)
		return -1;
	close(ready[0]);
	return pid;
}

/* Whether a SIGUSR1 came, blocked, since the last call: a breakout's proof. */
static int got_usr1(void)
{
	struct timespec now = { 0, 0 };
	sigset_t usr1;

	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	return sigtimedwait(&usr1, NULL, &now) == SIGUSR1;
}

int main(void)
{
	int n = sizeof(breakouts) / sizeof(breakouts[0]), out = 0, i, status;
	sigset_t usr1;

	if (geteuid()) {
		fprintf(stderr, "jailbreak: run me as root: chroot() needs CAP_SYS_CHROOT\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigprocmask(SIG_BLOCK, &usr1, NULL);
	if (build())
		return 2;
	outside_pid = start_outside();
	if (outside_pid < 0) {
		perror("jailbreak: the process outside (pty, pipe, fork)");
		return 2;
	}
	for (i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid == 0) {
			if (chroot(JAIL) || chdir("/")) {
				perror("jailbreak: cannot enter " JAIL);
				_exit(2);
			}
			_exit(breakouts[i].try());
		}
		if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status) == 2 || WEXITSTATUS(status) > 3) {
			printf("%-10s FAILED to run\n", breakouts[i].name);
			return 2;
		}
		/* 3: the signal was sent, if it was, before the child exited */
		if (WEXITSTATUS(status) == 3)
			out += got_usr1() ? escaped(breakouts[i].name, "SIGUSR1 reached jailbreak, outside") :
					    !printf("%-10s BLOCKED no SIGUSR1 came\n", breakouts[i].name);
		else
			out += WEXITSTATUS(status);
	}
	shmctl(outside_shm, IPC_RMID, NULL);
	printf("%d of %d breakouts blocked\n", n - out, n);
	return out ? 1 : 0;
}
