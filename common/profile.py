#!/usr/bin/env python3
"""Where a graded run's time goes: make profile-labN's table.

    profile.py LAB OUT-DIR

OUT-DIR is check.sh's, run with CHECK_PROFILE=1: steps.tsv (the host's
seconds for each step), stamps (each results line after the host's time of
its arrival) and the tests' "# profile: module ..." lines.  Each row gives
the host's wall clock and, for what ran in the guest, the guest's clock:
under icount the two differ, an idle guest's waits costing the host
nothing.  The table goes to stdout and OUT-DIR/profile.txt.
"""
import os
import re
import sys

STAMPED = re.compile(r"^(\d+\.\d+) (?:\[(\d+)\] \S+ )?(.*)$")
MODULE = re.compile(r"^# profile: module (load|unload) \S+ (\d+) ms$")


def events(path):
    """(host seconds, guest ms or None, text) for each stamped line."""
    out = []
    for line in open(path, errors="replace"):
        m = STAMPED.match(line.rstrip("\r\n"))
        if m:
            out.append((float(m.group(1)), int(m.group(2)) if m.group(2) else None, m.group(3)))
    return out


def rows(evs):
    """(name, host s, guest s or None, note) for the guest's part of the
    run, and QEMU's whole time."""
    start = next(h for h, _, t in evs if t == "# qemu started")
    end = next((h for h, _, t in evs if t == "# qemu ended"), evs[-1][0])
    out, test, mods, scan, done = [], None, {}, None, None
    for host, guest, text in evs:
        if text.startswith("# start uptime "):
            out.append(("boot to the test runner", host - start, float(text.split()[3]),
                        "guest: since the kernel started"))
        run = re.match(r"^#\s+RUN\s+(\S+)", text)
        if run:
            test, mods = (host, guest), {}
        m = MODULE.match(text)
        if m and test:
            n, ms = mods.get(m.group(1), (0, 0))
            mods[m.group(1)] = (n + 1, ms + int(m.group(2)))
        tap = re.match(r"^(?:not )?ok \d+ (\S+)", text)
        if tap and test:
            note = ", ".join(f"{n} {what}s {ms / 1000:.1f} s" for what, (n, ms) in sorted(mods.items()))
            out.append((tap.group(1), host - test[0], (guest - test[1]) / 1000, note))
            test = None
        if text.startswith("# health: kmemleak: ") and "to age" in text:
            scan = (host, guest)
        if text == "# health: kmemleak: scanned" and scan:
            out.append(("kmemleak (objects' age wait, two scans)", host - scan[0],
                        (guest - scan[1]) / 1000, ""))
        if text == "# done":
            done = host
    if done is not None:
        out.append(("shutdown", end - done, None, ""))
    return out, end - start


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    lab, out = sys.argv[1:]
    steps = [l.rstrip("\n").split("\t") for l in open(os.path.join(out, "steps.tsv")) if "\t" in l]
    evs = events(os.path.join(out, "stamps"))
    guest, qemu_s = rows(evs)
    lines = [f"{lab}: where a graded run's time goes ({out})",
             f"  {'step':<44} {'host s':>7} {'guest s':>8}  module loads/unloads (guest)"]
    total = 0.0
    for name, secs in steps:
        if name == "boot, tests, shutdown":
            lines.append(f"  {name:<44} {float(secs):7.1f}")
            lines.append(f"    {'QEMU started and ended (qemu.sh)':<42} {float(secs) - qemu_s:7.1f}")
            for tname, h, g, note in guest:
                gs = f"{g:8.1f}" if g is not None else " " * 8
                hs = f"{h:7.1f}" if h is not None else " " * 7
                lines.append(f"    {tname:<42} {hs} {gs}  {note}".rstrip())
            accounted = sum(h for _, h, _, _ in guest if h is not None)
            lines.append(f"    {'between tests (program starts, harness)':<42} {qemu_s - accounted:7.1f}")
        else:
            lines.append(f"  {name:<44} {float(secs):7.1f}")
        total += float(secs)
    lines.append(f"  {'total':<44} {total:7.1f}")
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    with open(os.path.join(out, "profile.txt"), "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
