#!/usr/bin/env python3
"""Score one graded run of a lab from what the guest reported.

  grade.py CONF RESULTS CONSOLE QEMU_STATUS OUTDIR [--summary FILE] [--hz HZ] [--of N]
           [--token T] [--suite NAME] [--junit FILE] [--json FILE]

CONF is the lab's tests.conf; RESULTS the results serial line written by the
guest's run-tests ("[ms] line", TAP inside); CONSOLE the console log, read only
for the kernel-health test; QEMU_STATUS what common/qemu.sh exited with.
Prints one line per test, "Score: X/Y" and "N passed, N failed"; writes each
failing test's output to OUTDIR; exits 0 only at full score.  With --summary,
also writes "score max failed-tests health" as one tab-separated line
("-" when no test failed, "ok" when the kernel is healthy).  --hz gives the
guest kernel's CONFIG_HZ, to tell kmemleak's boot-time suspects from leaks.
--of N says how many graded tests the lab has: when CONF is a cut-down copy
with fewer, the score line says "(n of N tests)".  --token T: the run's
random token, which the guest's run-tests puts on every results line ("[ms]
T text"); lines without it (written by kernel code, not by run-tests) are
ignored, and counted.  --junit and --json write the verdicts as JUnit XML
(one testcase per graded test, kernel health its own) and as a
Gradescope results.json, for CI engines and course platforms; --suite
names the lab in them.  --reason TEXT: the run never reached the guest
(the kernel does not build); every test fails with TEXT.  --not-graded
TEXT: the run failed for a reason that is not the lab code's (the guest
did not boot, a full disk): no test passes or fails, no score is given,
and the JUnit cases are errors, not failures; exits 3.
"""
import json
import os
import re
import sys
import xml.etree.ElementTree as ET

# Console lines that mean the kernel is not healthy, whatever the tests said.
ILLNESS = re.compile(
    r"BUG:|WARNING:|Oops|general protection fault|Kernel panic|"
    r"possible (recursive|circular) locking|inconsistent lock state|"
    r"KASAN|sleeping function called from invalid context|"
    r"suspicious RCU usage|rcu_.*detected stalls|list_(add|del) corruption")
# kselftest_harness.h's failed assertion: "# file.c:LINE:test:Expected ..."
ASSERTION = re.compile(r"^#\s+\S+\.c:\d+:")
# run-tests's line when FAILFAST=1 stopped the run at a failing test
FAILFAST_STOP = "# failfast: stopped at the first failing test"
FAILFAST_WHY = "the run stopped at its first failing test (FAILFAST=1)"
STATUS = {250: "the guest kernel panicked", 251: "the guest hung and was killed",
          252: "QEMU failed"}


def read_conf(path):
    tests, health = [], 0
    for n, line in enumerate(open(path), 1):
        words = line.split()
        if not words or words[0].startswith("#"):
            continue
        if words[0] == "health":
            health = int(words[2])
        elif len(words) == 4:
            tests.append((words[0], words[1], int(words[2])))
        else:
            sys.exit(f"grade: {path}:{n}: want 'BINARY TEST POINTS TIMEOUT'")
    return tests, health


def read_results(path, token=None):
    """Map (binary, test) to [verdict, start_ms, end_ms, output lines]; the
    events; and how many lines lacked the token."""
    found, binary, running, events, forged = {}, None, {}, [], 0
    stamped = re.compile(r"^\[(\d+)\] " + (re.escape(token) + " " if token else "") + "(.*)$")
    for raw in open(path, errors="replace"):
        m = stamped.match(raw.rstrip("\r\n"))
        if not m:
            forged += bool(raw.strip())
            continue
        ms, text = int(m.group(1)), m.group(2)
        events.append((ms, text))
        if text.startswith("# binary "):
            binary = text.split()[2]
            running = {"start": ms, "lines": []}
            continue
        if binary is None:
            continue
        run = re.match(r"^#\s+RUN\s+(\S+)", text)
        if run:
            running = {"start": ms, "lines": [text]}
            continue
        running.setdefault("lines", []).append(text)
        tap = re.match(r"^(not ok|ok) \d+ (\S+)", text)
        if tap:
            found[(binary, tap.group(2))] = [tap.group(1) == "ok",
                                             running.get("start", ms), ms,
                                             running["lines"]]
            running = {"start": ms, "lines": []}
    return found, events, forged


def kmemleak_leaks(events, hz):
    """The leaked objects in a kmemleak report, each a list of its lines.

    Left out: objects allocated before the tests started, when the kernel's
    HZ is known (kmemleak gives each object's allocation time in jiffies,
    which start 300 s short of 2^32 at boot; run-tests gives the uptime at
    "# start uptime SECONDS"); and those of the idle task (pid 0: boot code
    before init, or interrupts on an idle CPU), which kmemleak reported now
    and then (ACPI's caches, when the kernel had ACPI).  Lab code runs in
    tasks, after the start."""
    start = next((float(text.split()[3]) for _, text in events
                  if text.startswith("# start uptime ")), None)
    objects = []
    for _, text in events:
        if not text.startswith("# kmemleak: "):
            continue
        line = text[len("# kmemleak: "):]
        if "unreferenced object" in line:
            objects.append([line])
        elif objects:
            objects[-1].append(line)

    def before_start(lines):
        j = re.search(r"\bjiffies (\d+)", " ".join(lines[1:3]))
        if not (j and hz and start is not None):
            return False
        return (int(j.group(1)) - (2**32 - 300 * hz)) / hz < start - 0.5

    return [o for o in objects
            if not before_start(o) and not any(re.search(r"\bpid 0, jiffies", l) for l in o[1:3])]


def health_check(console, events, status, hz):
    """Return (healthy, reason, excerpt lines)."""
    lines = open(console, errors="replace").read().splitlines() if os.path.exists(console) else []
    for i, line in enumerate(lines):
        if ILLNESS.search(line):
            return False, line.strip(), lines[i:i + 15]
    leaks = kmemleak_leaks(events, hz)
    if leaks:
        return False, "kmemleak found leaked objects", [l for o in leaks for l in o][:15]
    if status in STATUS:
        return False, STATUS[status], lines[-15:]
    if FAILFAST_STOP in [text for _, text in events]:
        return False, "not checked: " + FAILFAST_WHY, []
    if "# done" not in [text for _, text in events]:
        return False, "the test run did not finish", lines[-15:]
    return True, "", []


# Characters XML 1.0 cannot carry (a console log has escape sequences).
NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f]")


def write_junit(path, suite, cases):
    """cases: (name, ok, secs, points, max, message, output) per test."""
    failures = sum(1 for c in cases if not c[1])
    root = ET.Element("testsuites", name=suite, tests=str(len(cases)), failures=str(failures))
    ts = ET.SubElement(root, "testsuite", name=suite, tests=str(len(cases)),
                       failures=str(failures), errors="0",
                       time=f"{sum(c[2] for c in cases):.3f}")
    for name, ok, secs, points, most, message, output in cases:
        tc = ET.SubElement(ts, "testcase", classname=suite, name=name, time=f"{secs:.3f}")
        ET.SubElement(tc, "properties").append(
            ET.Element("property", name="score", value=f"{points}/{most}"))
        if not ok:
            f = ET.SubElement(tc, "failure", message=NOT_XML.sub("", message), type="graded")
            f.text = NOT_XML.sub("", output)
    ET.ElementTree(root).write(path, encoding="utf-8", xml_declaration=True)


def write_json(path, suite, cases, score, summary_line):
    tests = [{"name": name, "score": points, "max_score": most,
              "status": "passed" if ok else "failed", "output": output}
             for name, ok, _, points, most, _, output in cases]
    with open(path, "w") as f:
        json.dump({"score": score, "output": f"{suite}: {summary_line}", "tests": tests}, f, indent=1)
        f.write("\n")


def options(args, spec):
    """Take "--name VALUE" pairs named in spec (name -> type) out of args."""
    got = {}
    for name, kind in spec.items():
        if f"--{name}" in args:
            i = args.index(f"--{name}")
            if i + 1 >= len(args):
                sys.exit(f"grade: --{name} wants a value")
            got[name] = kind(args[i + 1])
            del args[i:i + 2]
    return got


def not_graded(conf, reason, opt):
    """Report a run that gives no verdict: every test, and the whole, not graded."""
    tests, health = read_conf(conf)
    names = [t for _, t, _ in tests] + (["kernel-health"] if health else [])
    width = max([len(t) for t in names] + [14]) + 2
    for name in names:
        print(f"  {name:<{width}} ----  not graded")
    print(f"Not graded: {reason}")
    suite = opt.get("suite", "lab")
    if "junit" in opt:
        root = ET.Element("testsuites", name=suite, tests=str(len(names)), errors=str(len(names)))
        ts = ET.SubElement(root, "testsuite", name=suite, tests=str(len(names)), failures="0",
                           errors=str(len(names)), time="0")
        for name in names:
            tc = ET.SubElement(ts, "testcase", classname=suite, name=name, time="0")
            ET.SubElement(tc, "error", message=NOT_XML.sub("", f"not graded: {reason}"),
                          type="not-graded")
        ET.ElementTree(root).write(opt["junit"], encoding="utf-8", xml_declaration=True)
    if "json" in opt:
        # No score anywhere: a platform must not read this run as a zero.
        with open(opt["json"], "w") as f:
            json.dump({"not_graded": True, "reason": reason,
                       "output": f"{suite}: not graded: {reason}. Grade it again.",
                       "tests": [{"name": n, "status": "not graded", "output": reason}
                                 for n in names]}, f, indent=1)
            f.write("\n")
    return 3


def main():
    args = sys.argv[1:]
    opt = options(args, {"summary": str, "hz": int, "of": int, "token": str,
                         "suite": str, "junit": str, "json": str, "reason": str,
                         "not-graded": str})
    if "not-graded" in opt:
        if len(args) != 5:
            sys.exit(__doc__)
        return not_graded(args[0], opt["not-graded"], opt)
    summary, hz, of = opt.get("summary"), opt.get("hz"), opt.get("of")
    if len(args) != 5:
        sys.exit(__doc__)
    conf, results, console, status, outdir = args
    status = int(status)
    tests, health_points = read_conf(conf)
    found, events, forged = (read_results(results, opt.get("token"))
                             if os.path.exists(results) else ({}, [], 0))
    os.makedirs(outdir, exist_ok=True)
    if forged and opt.get("token"):
        print(f"grade: {forged} results lines without this run's token were ignored "
              "(not written by run-tests: kernel code wrote to the results port)")

    declared = {(b, t) for b, t, _ in tests}
    for key in sorted(set(found) - declared):
        print(f"grade: {key[0]} reported '{key[1]}', which {conf} does not declare")
        tests.append((key[0], key[1], 0))

    score = passed = failed = 0
    failures, cases = [], []
    width = max([len(t) for _, t, _ in tests] + [14]) + 2
    why_missing = opt.get("reason") or STATUS.get(status, "not reported by the guest")
    stopped = FAILFAST_STOP in [text for _, text in events]
    if stopped:
        why_missing = "not run: " + FAILFAST_WHY
    not_run = 0
    for binary, test, points in tests:
        result = found.get((binary, test))
        ok = bool(result and result[0]) and (binary, test) in declared
        secs = (result[2] - result[1]) / 1000 if result else 0
        note = ""
        if ok:
            score += points
            passed += 1
        else:
            failed += 1
            failures.append(test)
            log = os.path.join(outdir, f"{test}.log")
            with open(log, "w") as f:
                f.write("\n".join(result[3]) + "\n" if result else why_missing + "\n")
            note = f"  ({why_missing}; " if not result else "  ("
            note += f"output: {log})"
        # after a FAILFAST stop, the tests not run make one line, below
        if stopped and not result:
            not_run += 1
        else:
            print(f"  {test:<{width}} {'OK  ' if ok else 'FAIL'}  {points if ok else 0:3}/{points:<3} "
                  f"{secs:6.1f} s{note}")
        # a failed test's first complaints ("file.c:LINE:test:Expected ..."), right
        # here (a test that passed may log such lines too: they are no news)
        first = [l for l in (result[3] if result and not ok else []) if ASSERTION.match(l)][:3]
        for line in first:
            print(f"      | {line}")
        cases.append((test, ok, secs, points if ok else 0, points,
                      "" if ok else (first[0] if first else why_missing if not result else "failed"),
                      "\n".join(result[3]) if result else why_missing))

    if not_run:
        print(f"  {not_run} more test{'s' if not_run > 1 else ''} FAIL, {why_missing} "
              f"(each in {outdir}/)")
    healthy, reason, excerpt = ((False, opt["reason"], []) if "reason" in opt
                                else health_check(console, events, status, hz))
    total = sum(p for _, _, p in tests) + health_points
    if healthy:
        score += health_points
        passed += 1
    else:
        failed += 1
        failures.append("kernel-health")
    print(f"  {'kernel-health':<{width}} {'OK  ' if healthy else 'FAIL'}  "
          f"{health_points if healthy else 0:3}/{health_points:<3}")
    if not healthy:
        print(f"      {reason}")
        for line in excerpt:
            print(f"      | {line}")
        print(f"      console log: {console}")
    ran = len(tests) + (1 if health_points else 0)
    subset = f" ({ran} of {of} tests)" if of and ran < of else ""
    print(f"Score: {score}/{total}{subset}")
    print(f"{passed} passed, {failed} failed")
    if health_points or not healthy:
        cases.append(("kernel-health", healthy, 0.0, health_points if healthy else 0, health_points,
                      reason, "\n".join(excerpt + [f"console log: {console}"] if excerpt else [])))
    suite = opt.get("suite", "lab")
    if "junit" in opt:
        write_junit(opt["junit"], suite, cases)
    if "json" in opt:
        write_json(opt["json"], suite, cases, score, f"Score: {score}/{total}{subset}")
    if summary:
        with open(summary, "w") as f:
            f.write(f"{score}\t{total}\t{' '.join(failures) or '-'}\t"
                    f"{'ok' if healthy else reason}\n")
    return 0 if score == total and failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
