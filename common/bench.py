#!/usr/bin/env python3
"""Summarise a make bench run: tables, stability, charts.

  bench.py OUT-DIR LOGS-DIR MODE

Reads the guest's "sample SECTION NAME VALUE" lines from OUT-DIR:
results-icount-jail-N.txt (the labs' kernel, guest instructions, boot N),
results-icount-nolsm-N.txt (the same kernel with lsm=capability),
results-icount-base-N.txt (the kernel without the course's code) and
results-wall.txt (an ordinary boot: wall-clock ns, and the storm); and
OUT-DIR/host.txt (rebuild and boot times).  LOGS-DIR/selftest/times.tsv,
the last make test's per-test times, gives the course's own speed.

Every instruction count is the median over the rounds of all boots of its
kernel, each boot with the kernel's memory laid out differently (bench.sh);
the boots' medians must agree within 1 % ("stable"), else the figure is
flagged: it depends on where things land in memory by more than that.
Writes OUT-DIR/bench.txt and, with gnuplot, three charts.
"""
import glob
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import time
from collections import defaultdict

STABLE = 0.01           # the boots' medians within 1 %
RELAY = (0, 1, 4, 16, 64)
CONNECTOR = (0, 1, 4, 16)
# the rows of the fork tables: (sample config, boots, label)
CONFIGS = (("base", "base", "base"), ("idle", "nolsm", "idle-cap"), ("tally", "nolsm", "tally-cap"),
           ("idle", "", "idle"), ("tally", "", "tally"))
# bench.c's lsm_ops[], and the chrootjail hooks each call runs
LSM_OPS = {
    "open": "open+close: file_open, inode_permission",
    "stat": "inode_permission",
    "create": "open(O_CREAT)+unlink: path_mknod, file_open, path_unlink",
    "chmod": "path_chmod",
    "chown": "path_chown",
    "truncate": "path_truncate",
    "xattr": "setxattr: inode_setxattr",
    "mkdir": "mkdir+rmdir: path_mkdir, path_rmdir",
    "symlink": "symlink+unlink: path_symlink, path_unlink",
    "link": "link+unlink: path_link, path_unlink",
    "rename": "two renames: path_rename",
    "kill": "kill(self, 0): task_kill",
    "nice": "setpriority: task_setnice",
    "rlimit": "setrlimit: task_setrlimit",
    "fowner": "fcntl(F_SETOWN): file_set_fowner",
    "pgid": "getpgid+getsid: task_getpgid, task_getsid",
    "sched": "sched_getscheduler+setscheduler: task_getscheduler, task_setscheduler",
    "sigio": "a byte through an O_ASYNC pipe: file_send_sigiotask",
    "shm": "shmget+IPC_RMID: shm_alloc/free_security, shm_shmctl",
    "msg": "msgget+IPC_STAT+IPC_RMID: msg_queue_alloc/free_security, ipc_permission,"
           " msg_queue_msgctl",
    "sem": "semget+IPC_RMID: sem_alloc/free_security, sem_semctl",
    "unix": "a datagram on a pair the bench made outside: unix_may_send (refused in a jail)",
    "connect": "stream connect+accept, listener outside: unix_stream_connect (refused in a jail)",
    "mount": "tmpfs mount+umount: sb_mount, sb_umount",
    "setgroups": "capable(CAP_SETGID)",
    "ptrace": "pidfd_getfd of a child's file: ptrace_access_check",
    "setpgid": "setpgid(0, 0): task_setpgid",
    "pivot_root": "pivot_root(\".\", \".\"), EBUSY after the hook: sb_pivotroot",
    "move_mount": "move_mount(mnt, mnt), EINVAL after the hook: move_mount",
    "chroot": "chroot(\".\"): path_chroot (refused in a jail)",
}


def read_samples(path):
    samples = defaultdict(list)
    for line in open(path, errors="replace"):
        words = line.split()
        if len(words) == 4 and words[0] == "sample":
            samples[(words[1], words[2])].append(float(words[3]))
    return samples


class Runs:
    """The samples of every boot: icount ones by kind and boot, the wall one."""

    def __init__(self, out):
        self.icount = defaultdict(list)     # kind ("", "nolsm", "base") -> [samples per boot]
        for path in sorted(glob.glob(os.path.join(out, "results-icount-*.txt"))):
            m = re.match(r"results-icount-(jail|nolsm|base)-\d+\.txt$", os.path.basename(path))
            if m:
                self.icount[m.group(1).replace("jail", "")].append(read_samples(path))
        wall = os.path.join(out, "results-wall.txt")
        self.wall = read_samples(wall) if os.path.exists(wall) else {}
        self.checked = {}                   # (section, name, kind) -> the boots' medians

    def count(self, section, name, kind=""):
        """Median instructions over all boots' rounds, or None; checks stability."""
        boots = [b[(section, name)] for b in self.icount[kind] if b.get((section, name))]
        if not boots:
            return None
        if len(boots) > 1:
            self.checked[(section, name, kind)] = [statistics.median(b) for b in boots]
        return statistics.median([v for b in boots for v in b])

    def unstable(self):
        for (section, name, kind), medians in sorted(self.checked.items()):
            gap = (max(medians) - min(medians)) / min(medians)
            if gap > STABLE:
                yield (f"{section} {name}{' (' + kind + ')' if kind else ''}: boots "
                       f"{' / '.join(f'{m:,.0f}' for m in medians)}, {100 * gap:.2f} % apart")

    def paired(self, section, name, other, kind=""):
        """NAME minus OTHER, round by round within each boot (the rounds alternate them)."""
        return [a - b for boot in self.icount[kind]
                for a, b in zip(boot.get((section, name), []), boot.get((section, other), []))]

    def spread(self, section, name, kind=""):
        """Half the range of the boots' medians, in instructions."""
        boots = [statistics.median(b[(section, name)]) for b in self.icount[kind]
                 if b.get((section, name))]
        return (max(boots) - min(boots)) / 2 if boots else 0

    def gap(self, section, name, kind=""):
        boots = [statistics.median(b[(section, name)]) for b in self.icount[kind]
                 if b.get((section, name))]
        return (max(boots) - min(boots)) / min(boots) if len(boots) > 1 else None

    def wall_ns(self, section, name):
        v = self.wall.get((section, name))
        return statistics.median(v) if v else None


def cell(runs, section, name, kind=""):
    """'instructions +-spread (gap) wall' for a table."""
    n = runs.count(section, name, kind)
    if n is None:
        return "-"
    g = runs.gap(section, name, kind)
    values = [v for b in runs.icount[kind] for v in b.get((section, name), [])]
    text = f"{n:,.0f} +-{50 * (max(values) - min(values)) / n:.1f}%"
    text += f" ({100 * g:.2f}%)" if g is not None else ""
    if g is not None and g > STABLE:
        text += " UNSTABLE"
    w = runs.wall_ns(section, name) if not kind else None
    return text + (f"  {w / 1000:,.0f} us" if w is not None else "")


def pct(a, b):
    return f"{100 * (a - b) / b:+.3f} %" if a is not None and b else "-"


def fork_table(runs, lines):
    lines.append("Task creation: guest instructions per task +-half the rounds' range (the boots'"
                 " gap); wall clock")
    lines.append(f"  {'kernel':<8} {'fork':>34} {'vfork':>34} {'thread':>34}")
    for config, kind, label in CONFIGS:
        cells = [cell(runs, "forkcost", f"{config}/{m}", kind) for m in ("fork", "vfork", "thread")]
        lines.append(f"  {label:<8} " + " ".join(f"{c:>34}" for c in cells))
    lines.append("  base: tag 'base', no course code; idle: the labs' kernel, no callback (the static"
                 " key off);")
    lines.append("  tally: one counting callback (fork_tally.ko); -cap: booted with lsm=capability,"
                 " chrootjail off")
    lines.append("  The hook's cost, per task (without chrootjail, whose task hooks a fork also runs):")
    for mode in ("fork", "vfork", "thread"):
        differences(runs, lines, "forkcost", mode, mode)


def differences(runs, lines, section, what, label):
    """The steps from base to the hook idle to one callback, for the table's rows."""
    base = runs.count(section, f"base/{what}", "base")
    idle = runs.count(section, f"idle/{what}", "nolsm")
    jail = runs.count(section, f"idle/{what}")
    parts = []
    if base and idle:
        parts.append(f"hook idle vs base {idle - base:+,.0f} ({pct(idle, base)})")
    # one callback: against idle in the same round of the same boot
    paired = runs.paired(section, f"tally/{what}", f"idle/{what}", "nolsm")
    if paired and idle:
        d = statistics.median(paired)
        parts.append(f"one callback {d:+,.0f} ({pct(idle + d, idle)}; rounds"
                     f" {min(paired):+,.0f} to {max(paired):+,.0f})")
    if idle and jail:
        parts.append(f"chrootjail {jail - idle:+,.0f} ({pct(jail, idle)})")
    if parts:
        lines.append(f"    {label:<9} " + "; ".join(parts))


def workload_table(runs, lines):
    lines.append("A fork-heavy shell loop: instructions per iteration (a command and a two-command"
                 " pipeline:")
    lines.append("  three forks, two execs of busybox)")
    for config, kind, label in CONFIGS:
        if runs.count("workload", f"{config}/iteration", kind) is not None:
            lines.append(f"  {label:<9} {cell(runs, 'workload', f'{config}/iteration', kind):>34}")
    differences(runs, lines, "workload", "iteration", "the loop")


def fit(points):
    """Least-squares line through (x, y): slope, intercept, worst relative residual."""
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    slope = sum((x - mx) * (y - my) for x, y in points) / sxx
    icept = my - slope * mx
    worst = max(abs(y - (icept + slope * x)) / y for x, y in points)
    return slope, icept, worst


def growth_table(runs, lines):
    lines.append("How a fork's cost grows: instructions per fork+exit+wait with N listeners")
    curves = {}
    for kind, counts, what in (("relay", RELAY, "relay_fork.ko, N processes registered"),
                               ("connector", CONNECTOR, "N proc connector subscribers")):
        points = []
        for n in counts:
            v = runs.count("growth", f"{kind}/{n}")
            if v is not None:
                points.append((n, v))
                lines.append(f"  {kind:<9} N={n:<3} {cell(runs, 'growth', f'{kind}/{n}'):>34}")
        if len(points) >= 3:
            slope, icept, worst = fit(points)
            lines.append(f"  {kind}: {what}; a line fits within {100 * worst:.1f} %:"
                         f" {icept:,.0f} + {slope:,.0f} per listener")
        curves[kind] = points
    lines.append("  each listener costs its own delivery (a signal queued, or a message copied to"
                 " its socket)")
    lines.append("  and its own wake-up and drain, on the one CPU: the same work per listener,"
                 " hence a line")
    return curves


def lsm_table(runs, lines):
    lines.append("chrootjail: instructions per call; the jail's hooks = with chrootjail minus"
                 " lsm=capability,")
    lines.append("  +-half the range of each's boots' medians, added: what the layouts leave"
                 " unresolved")
    lines.append(f"  {'call':<10} {'where':<9} {'chrootjail':>34} {'lsm=capability':>24} "
                 f"{'hooks':>16}")
    rows = []
    for op in LSM_OPS:
        for where in ("unjailed", "jailed"):
            lsm = runs.count("lsm", f"{op}/{where}")
            nolsm = runs.count("lsm", f"{op}/{where}-nolsm", "nolsm")
            if lsm is None and nolsm is None:
                continue
            hooks = "-"
            if lsm is not None and nolsm is not None:
                unresolved = (runs.spread("lsm", f"{op}/{where}") +
                              runs.spread("lsm", f"{op}/{where}-nolsm", "nolsm"))
                hooks = f"{lsm - nolsm:+,.0f} +-{unresolved:,.0f}"
            lines.append(f"  {op:<10} {where:<9} {cell(runs, 'lsm', f'{op}/{where}'):>34} "
                         f"{cell(runs, 'lsm', f'{op}/{where}-nolsm', 'nolsm'):>24} {hooks:>16}")
            rows.append((op, where, lsm, nolsm))
    lines.append("  the calls, and the hooks they run:")
    lines.extend(f"    {op:<10} {hooks}" for op, hooks in LSM_OPS.items())
    lines.append("  in a jail, mount, pivot_root and move_mount stop at capable(CAP_SYS_ADMIN),"
                 " refused;")
    lines.append("  task_alloc and task_free: the fork table's chrootjail step; no call reaches"
                 " the ioprio,")
    lines.append("  movememory and notify hooks in this kernel (no block layer, NUMA or"
                 " inotify)")
    return rows


def storm_table(runs, lines):
    lines.append("Event delivery in a fork storm, wall clock, two CPUs (count; latency fork() ->"
                 " receipt, us)")
    lines.append(f"  {'mechanism':<10} {'delivered':>10} {'lost':>8} {'p50 us':>10} {'p99 us':>10}")
    for kind in ("relay", "classic", "connector"):
        def get(what):
            v = runs.wall.get(("storm", f"{kind}/{what}"))
            return f"{v[0]:.0f}" if v else "-"
        lines.append(f"  {kind:<10} {get('delivered'):>10} {get('lost'):>8} "
                     f"{get('p50_us'):>10} {get('p99_us'):>10}")
    lines.append("  relay: RT signal per fork (queued); classic: SIGUSR1 per fork (merged);"
                 " connector: netlink PROC_EVENT_FORK")
    v = runs.wall.get(("storm", "relay/others"))
    if v and v[0]:
        lines.append(f"  relay: {v[0]:.0f} more signals for forks of other processes (kernel"
                     " threads), not counted")
    v = runs.wall.get(("storm", "connector/overflows"))
    if v:
        lines.append(f"  connector: its socket's receive buffer overflowed {v[0]:.0f} times"
                     " (ENOBUFS: the events lost)")


def project_table(out, logs, lines):
    lines.append("The course's own speed (ms or s, as measured here)")
    host = defaultdict(list)
    path = os.path.join(out, "host.txt")
    if os.path.exists(path):
        for line in open(path):
            key, value = line.split()
            host[key].append(int(value))
    for kind in ("cold", "incremental"):
        if host[f"build_s_{kind}"]:
            lines.append(f"  kernel build, {kind + ' (ccache as it was)' if kind == 'cold' else kind:<28}"
                         f"{host[f'build_s_{kind}'][0]:6d} s")
    if host["rebuild_ms"]:
        lines.append(f"  one-file rebuild (kernel/fork_hook.c)  {host['rebuild_ms'][0] / 1000:6.1f} s")
    if host["boot_ms"]:
        b = host["boot_ms"]
        lines.append(f"  boot to exit after true          {statistics.median(b) / 1000:6.1f} s"
                     f" [{min(b) / 1000:.1f}-{max(b) / 1000:.1f}]")
    times = os.path.join(logs, "selftest", "times.tsv")
    if os.path.exists(times):
        lines.append(f"  from the last make test ({time.ctime(os.path.getmtime(times))}):")
        for line in open(times):
            name, secs, verdict = line.split()[:3]
            if name.endswith(("-solution", "-handin", "-planted")):
                lines.append(f"    {name:<34} {int(secs):5d} s  {verdict}")
    handin = os.path.join(logs, "selftest")
    for name in sorted(os.listdir(handin)) if os.path.isdir(handin) else []:
        if name.endswith("-handin.log"):
            for line in open(os.path.join(handin, name), errors="replace"):
                m = re.match(r"^grade: \[(\d+)/(\d+)\] (\S+): (\S+) \((\d+) s", line)
                if m:
                    lines.append(f"    batch grading, {m.group(3)} ({m.group(4)})"
                                 f"{'':<14} {int(m.group(5)):5d} s")


def plot(out, name, script):
    png = os.path.join(out, name)
    subprocess.run(["gnuplot"], input=f"set terminal png size 800,450\nset output '{png}'\n" + script,
                   text=True, check=True)
    return png


def charts(out, runs, curves, lsm_rows):
    if not shutil.which("gnuplot"):
        return ["chart: gnuplot not found (apt-get install gnuplot-nox)"]
    made = []
    data = os.path.join(out, "forkcost.dat")
    with open(data, "w") as f:
        for config, kind, label in CONFIGS:
            row = [runs.count("forkcost", f"{config}/{m}", kind) for m in ("fork", "vfork", "thread")]
            if any(v is not None for v in row):
                f.write(label + " " + " ".join(f"{(v or 0) / 1000:.1f}" for v in row) + "\n")
    made.append(plot(out, "forkcost.png", f"""
set title 'Task creation with the fork hook (thousand guest instructions per task)'
set style data histogram
set style histogram cluster gap 1
set style fill solid border -1
set yrange [0:*]
plot '{data}' using 2:xtic(1) title 'fork', '' using 3 title 'vfork', '' using 4 title 'thread'
"""))
    data = os.path.join(out, "growth.dat")
    with open(data, "w") as f:
        for kind in ("relay", "connector"):
            for n, v in curves.get(kind, []):
                f.write(f"{n} {v / 1000:.1f}\n")
            f.write("\n\n")
    made.append(plot(out, "growth.png", f"""
set title 'A fork with N listeners (thousand guest instructions per fork)'
set xlabel 'listeners'
set yrange [0:*]
set key left top
plot '{data}' index 0 using 1:2 with linespoints title 'relay_fork', \\
     '' index 1 using 1:2 with linespoints title 'proc connector'
"""))
    data = os.path.join(out, "lsm.dat")
    with open(data, "w") as f:
        for op, where, lsm, nolsm in lsm_rows:
            f.write(f"{op}/{where} {(nolsm or 0):.0f} {(lsm or 0):.0f}\n")
    made.append(plot(out, "lsm.png", f"""
set title 'Calls under chrootjail (guest instructions per call)'
set style data histogram
set style histogram cluster gap 1
set style fill solid border -1
set xtics rotate by -30
set yrange [0:*]
plot '{data}' using 2:xtic(1) title 'lsm=capability', '' using 3 title 'chrootjail'
"""))
    return [f"chart: {png}" for png in made]


def agreement(runs, before, where):
    """Does this run's every instruction count agree with the previous run's?"""
    apart = []
    for (section, name, kind) in sorted(runs.checked):
        now = runs.count(section, name, kind)
        then = before.count(section, name, kind)
        if then is not None and abs(now - then) / then > STABLE:
            apart.append(f"  {section} {name}{' (' + kind + ')' if kind else ''}: {then:,.0f} then,"
                         f" {now:,.0f} now")
    same = sum(all(a.get((section, name)) == b.get((section, name))
                   for a, b in zip(runs.icount[kind], before.icount[kind]))
               and len(runs.icount[kind]) == len(before.icount[kind])
               for (section, name, kind) in runs.checked)
    when = time.ctime(os.path.getmtime(glob.glob(os.path.join(where, "results-icount-*.txt"))[0]))
    head = (f"against the previous run ({when}, {where}): "
            f"{len(runs.checked) - len(apart)} of {len(runs.checked)} instruction counts within"
            f" {100 * STABLE:.0f} % ({same} with every sample the same)")
    return [head + (":" if apart else "")] + apart


def main():
    out, logs, mode = sys.argv[1:4]
    runs = Runs(out)
    lines = [f"make bench ({mode}), {time.strftime('%Y-%m-%d %H:%M')}, {platform.node()}: "
             f"{os.cpu_count()} cores, QEMU TCG, {platform.release()} host",
             "Costs in guest instructions: QEMU counts them (icount), one CPU.  Each figure: the"
             " median of the",
             "rounds of several boots, +-half their range, (the gap between the boots' medians:"
             " each boot lays",
             "the kernel's memory out differently), then the wall clock of an ordinary boot on"
             " two CPUs.", ""]
    fork_table(runs, lines)
    lines.append("")
    workload_table(runs, lines)
    lines.append("")
    curves = growth_table(runs, lines)
    lines.append("")
    lsm_rows = lsm_table(runs, lines)
    lines.append("")
    storm_table(runs, lines)
    lines.append("")
    project_table(out, logs, lines)
    lines.append("")
    unstable = list(runs.unstable())
    if unstable:
        lines.append(f"stability: {len(unstable)} of {len(runs.checked)} instruction counts differ"
                     f" by more than {100 * STABLE:.0f} % between boots (memory layouts):")
        lines.extend(f"  {u}" for u in unstable)
    else:
        lines.append(f"stability: all {len(runs.checked)} instruction counts within"
                     f" {100 * STABLE:.0f} % between boots (memory layouts)")
    previous = os.path.join(out, "previous")
    if glob.glob(os.path.join(previous, "results-icount-*.txt")):
        lines.extend(agreement(runs, Runs(previous), previous))
    wanted = [(s, k) for s in ("forkcost", "workload", "lsm") for k in ("", "nolsm")] + [("growth", "")]
    missing = [f"{s}{' (' + k + ')' if k else ''}" for s, k in wanted
               if not any(key[0] == s for b in runs.icount[k] for key in b)]
    if not any(k[0] == "storm" for k in runs.wall):
        missing.append("storm")
    if mode == "full" and not runs.icount["base"]:
        missing.append("base")
    if missing:
        lines.append(f"missing: no samples for {', '.join(missing)} (see {out}/console-*.log)")
    lines.extend(charts(out, runs, curves, lsm_rows))
    text = "\n".join(line.rstrip() for line in lines) + "\n"
    with open(os.path.join(out, "bench.txt"), "w") as f:
        f.write(text)
    print(text, end="")
    print(f"bench: table in {os.path.join(out, 'bench.txt')}")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
