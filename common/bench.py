#!/usr/bin/env python3
"""Summarise a make bench run: medians, spread, ratios; a table and a chart.

  bench.py OUT-DIR LOGS-DIR MODE

Reads OUT-DIR/results.txt (and results-nolsm.txt), the guest's "sample
SECTION NAME VALUE" lines, and OUT-DIR/host.txt (rebuild and boot times);
LOGS-DIR/selftest/times.tsv, the last make test's per-test times, gives the
course's own speed.  Writes OUT-DIR/bench.txt and, if gnuplot is there,
OUT-DIR/forkcost.png.  Every number is a median over the rounds, with the
lowest and highest beside it: this machine is noisy, one time says little.
"""
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import time
from collections import defaultdict


def read_samples(*paths):
    samples = defaultdict(list)
    for path in paths:
        if not os.path.exists(path):
            continue
        for line in open(path, errors="replace"):
            m = re.match(r"^\[\d+\] (.*)$|^(.*)$", line.rstrip("\n"))
            words = (m.group(1) or m.group(2) or "").split()
            if len(words) == 4 and words[0] == "sample":
                samples[(words[1], words[2])].append(float(words[3]))
    return samples


def spread(values):
    return statistics.median(values), min(values), max(values)


def fork_table(samples, lines):
    lines.append("Task creation, ns per task (median [min-max] over rounds, ratio to idle)")
    lines.append(f"  {'configuration':<10} {'fork':>28} {'vfork':>28} {'thread':>28}")
    for config in ("base", "idle", "tally", "relay1", "relay4"):
        if not any(samples.get(("forkcost", f"{config}/{m}")) for m in ("fork", "vfork", "thread")):
            continue
        cells = []
        for mode in ("fork", "vfork", "thread"):
            values = samples.get(("forkcost", f"{config}/{mode}"))
            base = samples.get(("forkcost", f"idle/{mode}"))
            if not values:
                cells.append(f"{'-':>28}")
                continue
            med, lo, hi = spread(values)
            ratio = med / statistics.median(base) if base else float("nan")
            cells.append(f"{med:9.0f} [{lo:.0f}-{hi:.0f}] x{ratio:4.2f}".rjust(28))
        lines.append(f"  {config:<10} " + " ".join(cells))
    lines.append("  base: the kernel without the course's code, booted apart (compare with care);"
                 " idle: no callback,")
    lines.append("  the static key off; tally: one counting callback;"
                 " relayN: relay_fork.ko, N listeners draining")


def storm_table(samples, lines):
    lines.append("Event delivery in a fork storm (count; latency fork() -> receipt, us)")
    lines.append(f"  {'mechanism':<10} {'delivered':>10} {'lost':>8} {'p50 us':>10} {'p99 us':>10}")
    for kind in ("relay", "classic", "connector"):
        def get(what):
            v = samples.get(("storm", f"{kind}/{what}"))
            return f"{v[0]:.0f}" if v else "-"
        lines.append(f"  {kind:<10} {get('delivered'):>10} {get('lost'):>8} "
                     f"{get('p50_us'):>10} {get('p99_us'):>10}")
    lines.append("  relay: RT signal per fork (queued); classic: SIGUSR1 per fork (merged);"
                 " connector: netlink PROC_EVENT_FORK")
    v = samples.get(("storm", "connector/overflows"))
    if v:
        lines.append(f"  connector: its socket's receive buffer overflowed {v[0]:.0f} times"
                     " (ENOBUFS: the events lost)")


def lsm_table(samples, lines):
    lines.append("chrootjail, ns per call (median [min-max]; ratio to unjailed)")
    for op in ("open", "chmod", "chroot"):
        base = samples.get(("lsm", f"{op}/unjailed"))
        for where in ("unjailed", "jailed", "unjailed-nolsm", "jailed-nolsm"):
            values = samples.get(("lsm", f"{op}/{where}"))
            if not values:
                continue
            med, lo, hi = spread(values)
            ratio = f"x{med / statistics.median(base):4.2f}" if base else ""
            lines.append(f"  {op:<6} {where:<15} {med:9.0f} [{lo:.0f}-{hi:.0f}] {ratio}")
    lines.append("  -nolsm: the same kernel booted with lsm=capability (another boot: compare"
                 " with care);")
    lines.append("  chroot: refused in a jail under chrootjail; an unjailed chroot jails the"
                 " caller, so it has no loop")


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
        med, lo, hi = spread(host["boot_ms"])
        lines.append(f"  boot to exit after true          {med / 1000:6.1f} s [{lo / 1000:.1f}-{hi / 1000:.1f}]")
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


def chart(out, samples):
    if not shutil.which("gnuplot"):
        return "chart: gnuplot not found (apt-get install gnuplot-nox)"
    data = os.path.join(out, "forkcost.dat")
    with open(data, "w") as f:
        for config in ("base", "idle", "tally", "relay1", "relay4"):
            if not samples.get(("forkcost", f"{config}/fork")):
                continue
            row = [config]
            for mode in ("fork", "vfork", "thread"):
                values = samples.get(("forkcost", f"{config}/{mode}"), [0])
                row.append(f"{statistics.median(values) / 1000:.1f}")
            f.write(" ".join(row) + "\n")
    png = os.path.join(out, "forkcost.png")
    script = f"""
set terminal png size 800,450
set output '{png}'
set title 'Task creation with the fork hook (median, us per task)'
set style data histogram
set style histogram cluster gap 1
set style fill solid border -1
set ylabel 'us'
set yrange [0:*]
plot '{data}' using 2:xtic(1) title 'fork', '' using 3 title 'vfork', '' using 4 title 'thread'
"""
    subprocess.run(["gnuplot"], input=script, text=True, check=True)
    return f"chart: {png}"


def main():
    out, logs, mode = sys.argv[1:4]
    samples = read_samples(*(os.path.join(out, f"results{s}.txt") for s in ("", "-nolsm", "-base")))
    lines = [f"make bench ({mode}), {time.strftime('%Y-%m-%d %H:%M')}, {platform.node()}: "
             f"{os.cpu_count()} cores, QEMU TCG, {platform.release()} host", ""]
    for table in (fork_table, storm_table, lsm_table):
        table(samples, lines)
        lines.append("")
    project_table(out, logs, lines)
    missing = [s for s in ("forkcost", "storm", "lsm") if not any(k[0] == s for k in samples)]
    if missing:
        lines.append(f"missing: no samples for {', '.join(missing)} (see {out}/console.log)")
    lines.append(chart(out, samples))
    text = "\n".join(lines) + "\n"
    with open(os.path.join(out, "bench.txt"), "w") as f:
        f.write(text)
    print(text, end="")
    print(f"bench: table in {os.path.join(out, 'bench.txt')}")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
