// SPDX-License-Identifier: GPL-2.0
/*
 * init.c - PID 1 of the course initramfs.
 *
 * Mounts the pseudo file systems, prints a banner, then runs either the
 * command that follows "--run" in its arguments or, without one, a shell on
 * the serial console.  The kernel hands init the words after "--" on its
 * command line, but also any parameter it does not know (nokaslr on a
 * kernel without KASLR), hence the marker.
 *
 * When that program ends, the machine ends with its exit status: QEMU's
 * isa-debug-exit device turns a byte written to port 0xf4 into the exit
 * status (byte << 1) | 1 of QEMU itself, so the host sees it.
 *
 * busybox's reboot, poweroff and halt (without -f) signal PID 1 with
 * SIGTERM, SIGUSR2 and SIGUSR1; all three end the machine with status 0.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/io.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>

#define DEBUG_EXIT_PORT	0xf4
#define CONSOLE_TTY	"/dev/ttyS0"
/* Exit statuses above this are reported as this: (127 << 1) | 1 fits a byte. */
#define MAX_STATUS	127

static volatile sig_atomic_t shutdown_requested;

static void mount_fs(const char *type, const char *dir)
{
	mkdir(dir, 0755);
	if (mount(type, dir, type, 0, NULL) && errno != EBUSY)
		fprintf(stderr, "init: mount %s on %s: %s\n", type, dir,
			strerror(errno));
}

static void __attribute__((noreturn)) power_off(int status)
{
	int fd = open(CONSOLE_TTY, O_RDWR | O_NOCTTY), queued, lsr, i;

	/*
	 * What was written to the console must have left the UART before
	 * QEMU exits: seen losing a program's last line on a loaded host.
	 * Not tcdrain(), which has no bound: a terminal that stops reading
	 * would keep the machine from ever powering off.  Two seconds at most.
	 */
	for (i = 0; fd >= 0 && i < 200; i++) {
		if (ioctl(fd, TIOCOUTQ, &queued) || ioctl(fd, TIOCSERGETLSR, &lsr) ||
		    (!queued && (lsr & TIOCSER_TEMT)))
			break;
		usleep(10000);
	}
	if (fd >= 0)
		close(fd);
	sync();
	if (ioperm(DEBUG_EXIT_PORT, 1, 1) == 0)
		outb(status, DEBUG_EXIT_PORT);
	/* No debug-exit device: QEMU's -no-reboot makes a reboot its exit. */
	reboot(RB_AUTOBOOT);
	for (;;)
		pause();
}

static void on_shutdown_signal(int sig)
{
	(void)sig;
	shutdown_requested = 1;
}

/*
 * The shell gets a session with the console as its controlling tty, so
 * Ctrl-C works.  A command does not: when a session leader exits, the
 * kernel hangs up its (non-pty) controlling tty, and the serial driver's
 * hangup throws away what is still queued for the UART, which on a loaded
 * host was the command's last line.
 */
static pid_t spawn(char *const argv[], int controlling_tty)
{
	pid_t pid = fork();
	int fd;

	if (pid != 0)
		return pid;

	setsid();
	fd = open(CONSOLE_TTY, O_RDWR | (controlling_tty ? 0 : O_NOCTTY));
	if (fd >= 0) {
		if (controlling_tty)
			ioctl(fd, TIOCSCTTY, 1);
		dup2(fd, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		if (fd > 2)
			close(fd);
	}
	signal(SIGTERM, SIG_DFL);
	signal(SIGUSR1, SIG_DFL);
	signal(SIGUSR2, SIG_DFL);
	execvp(argv[0], argv);
	/*
	 * The initramfs links no busybox applet but sh (see initramfs.sh):
	 * a command named without a path that is not found gets its link
	 * now, so that it runs under its own name, as ps and gdb's
	 * $lx_current().comm show it.  busybox says if it has no such applet.
	 */
	if (errno == ENOENT && !strchr(argv[0], '/')) {
		char path[64];

		snprintf(path, sizeof(path), "/bin/%s", argv[0]);
		if (symlink("/bin/busybox", path) == 0)
			execv(path, argv);
	}
	fprintf(stderr, "init: cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(MAX_STATUS);
}

int main(int argc, char *argv[])
{
	static char *shell[] = { "/bin/sh", "-l", NULL };
	struct sigaction sa = { .sa_handler = on_shutdown_signal };
	char *const *cmd = shell;
	struct utsname uts;
	int wstatus, status, i;
	pid_t child, pid;

	for (i = 1; i < argc - 1; i++) {
		if (!strcmp(argv[i], "--run")) {
			cmd = &argv[i + 1];
			break;
		}
	}

	mount_fs("proc", "/proc");
	mount_fs("sysfs", "/sys");
	mount_fs("devtmpfs", "/dev");
	mount_fs("devpts", "/dev/pts");	/* ptys: script, ssh, the tty tests */
	mount_fs("securityfs", "/sys/kernel/security");
	mount_fs("debugfs", "/sys/kernel/debug");
	mount_fs("tmpfs", "/tmp");
	sethostname("lab", 3);
	setenv("PATH", "/lab:/bin:/sbin:/usr/bin:/usr/sbin", 1);
	setenv("HOME", "/root", 1);

	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGUSR2, &sa, NULL);

	uname(&uts);
	printf("\n=== kernel-hooks lab: Linux %s, %s ===\n", uts.release,
	       cmd == shell ? "shell (leave with poweroff, or Ctrl-A X)" : "running a command");
	if (cmd != shell) {
		printf("init: running");
		for (i = 0; cmd[i]; i++)
			printf(" %s", cmd[i]);
		printf("\n");
	}
	fflush(stdout);

	child = spawn(cmd, cmd == shell);
	if (child < 0) {
		perror("init: fork");
		power_off(MAX_STATUS);
	}
	/* PID 1 also reaps orphans; stop when our own child is done. */
	for (;;) {
		pid = wait(&wstatus);
		if (pid == child)
			break;
		if (shutdown_requested)
			power_off(0);
		if (pid < 0 && errno == ECHILD)
			power_off(MAX_STATUS);
	}
	if (WIFEXITED(wstatus))
		status = WEXITSTATUS(wstatus);
	else
		status = 128 + WTERMSIG(wstatus);
	if (status != 0)
		printf("init: %s ended with status %d\n", cmd[0], status);
	power_off(status > MAX_STATUS ? MAX_STATUS : status);
}
