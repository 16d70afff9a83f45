#!/usr/bin/env python3
"""Mutants of a lab's code, made by Coccinelle, and what the tests make of them.

    mutants.py make LAB KSRC OUT [--sample N] [--seed S]
        every mutant of the code LAB's patch adds (refs/course/LAB/base ..
        solution, kernel files only) that the operators in common/mutants/
        (.cocci rules, run by spatch) make: OUT/patches/NAME.patch, each the
        solution with one mistake, and OUT/list.tsv.  --sample N: all of the
        student-written regions' (the TODOs'), and a random N of the rest.
    mutants.py report LAB OUT EQUIVALENTS
        killed, survived, did not build, not graded, equivalent, from the
        batch's OUT/grades/grades.csv; every survivor with its diff.
    mutants.py check OUT EQUIVALENTS
        every entry of the list of equivalent mutants is still among those
        made into OUT (without --sample): a changed solution leaves stale
        entries, which must go.
    mutants.py order OUT EQUIVALENTS [--seed S]
        of the mutants made into OUT, those of the student-written regions
        not listed as equivalent, in a seeded random order: "PATCH NAME"
        lines (make test grades the first that build: still killed).

A mutant's name is FILE:FUNCTION:OPERATOR:HASH, the hash of what it
changes, so that it does not move with the lines around it.  The list of
equivalent mutants (LAB/mutants-equivalent.txt) has a line per mutant that
no test can kill, "NAME equivalent: REASON" (it behaves as the solution
does) or "NAME untestable: REASON" (a real mistake that no test on the
course's one-CPU guest can tell apart; the report counts these apart), the
reason one a reviewer can check.
"""
import hashlib
import json
import math
import os
import random
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
OPERATORS = os.path.join(HERE, "mutants")
PLACEHOLDER = re.compile(r"\{(\d)\}")


def git(ksrc, *args):
    return subprocess.run(["git", "-C", ksrc, *args], check=True, capture_output=True,
                          text=True).stdout


def lab_files(ksrc, lab):
    """The kernel's C files and headers the lab's patch adds or changes."""
    out = git(ksrc, "diff", "--name-only", f"refs/course/{lab}/base", f"refs/course/{lab}/solution",
              "--", "*.c", "*.h", ":!tools", ":!Documentation")
    return [f for f in out.split() if f]


def added_lines(ksrc, lab, path):
    """The solution's line numbers (from 1) that the lab's patch adds."""
    diff = git(ksrc, "diff", "-U0", f"refs/course/{lab}/base", f"refs/course/{lab}/solution", "--", path)
    lines = set()
    for m in re.finditer(r"^@@ -\S+ \+(\d+)(?:,(\d+))? @@", diff, re.M):
        start, n = int(m.group(1)), int(m.group(2) if m.group(2) is not None else 1)
        lines.update(range(start, start + n))
    return lines


def regions(ksrc, lab, path, solution):
    """Each solution line's TODO number (0: not a student's), from the marked tree."""
    marked = git(ksrc, "show", f"refs/course/{lab}/marked:{path}")
    out = subprocess.run(["awk", "-v", "mode=regions", "-f", os.path.join(HERE, "todo.awk")],
                         input=marked, check=True, capture_output=True, text=True).stdout
    tagged = [line.split("\t", 1) for line in out.split("\n")[:-1]]
    if [t[1] if len(t) > 1 else "" for t in tagged] != solution.split("\n")[:-1]:
        sys.exit(f"mutants: {path}: the marked tree's regions do not line up with the solution "
                 "(common/todo.awk mode=regions)")
    return [int(t[0]) for t in tagged]


def spatch(path, text):
    """Every operator's mutants of TEXT: [op, function, edits]."""
    found = []
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, os.path.basename(path))
        with open(src, "w") as f:
            f.write(text)
        env = dict(os.environ, PYTHONPATH=OPERATORS, PYTHONDONTWRITEBYTECODE="1")
        for rule in sorted(os.listdir(OPERATORS)):
            if not rule.endswith(".cocci"):
                continue
            run = subprocess.run(["spatch", "--very-quiet", "--no-show-diff", "--sp-file",
                                  os.path.join(OPERATORS, rule), src],
                                 capture_output=True, text=True, env=env, cwd=tmp)
            if run.returncode:
                sys.exit(f"mutants: spatch failed with {rule} on {path}:\n{run.stderr}")
            found += [json.loads(l.split("\t", 1)[1]) for l in run.stdout.splitlines()
                      if l.startswith("MUTANT\t")]
    return found


def apply(text, edits):
    """TEXT with EDITS made ([line, col, end line, end col, new] each, lines
    from 1, columns from 0); None if two overlap."""
    lines = text.split("\n")
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    spans = [(starts[a - 1] + b, starts[c - 1] + d, new) for a, b, c, d, new in edits]
    olds = [text[s:e] for s, e, _ in spans]
    out, last = text, None
    for s, e, new in sorted(spans, reverse=True):
        if last is not None and e > last:
            return None
        new = PLACEHOLDER.sub(lambda m: olds[int(m.group(1))], new)
        out, last = out[:s] + new + out[e:], s
    return out


def unified(path, old, new, name, op):
    """A patch git am takes: the mutant as a commit on the solution."""
    import difflib
    body = "".join(difflib.unified_diff(old.splitlines(True), new.splitlines(True),
                                        f"a/{path}", f"b/{path}", n=3))
    return (f"From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n"
            f"From: Mutant <mutants@kernel-hooks.invalid>\n"
            f"Date: Mon, 7 Feb 2005 15:24:05 +0100\n"
            f"Subject: [PATCH] mutant {name}\n\n{op}\n---\n"
            f"diff --git a/{path} b/{path}\n{body}-- \n2.39.5\n\n")


def make_all(lab, ksrc):
    """Every mutant: dicts with name, todo, op, path, line, patch."""
    mutants, seen = [], set()
    for path in lab_files(ksrc, lab):
        solution = git(ksrc, "show", f"refs/course/{lab}/solution:{path}")
        todo = regions(ksrc, lab, path, solution)
        added = added_lines(ksrc, lab, path)
        for op, fn, edits in spatch(path, solution):
            if not all(e[0] in added for e in edits):
                continue
            new = apply(solution, edits)
            if new is None or new == solution:
                continue
            digest = hashlib.sha256(new.encode()).hexdigest()
            if digest in seen:
                continue
            seen.add(digest)
            # each edit by its line's text and its neighbours', not its
            # number: [lines, col, lines spanned, end col, new]
            text = solution.split("\n")
            what = json.dumps([["\n".join(text[max(e[0] - 2, 0):e[0] + 1]), e[1], e[2] - e[0]] + e[3:]
                               for e in edits])
            name = "%s:%s:%s:%s" % (os.path.basename(path), fn or "-", op,
                                    hashlib.sha256(what.encode()).hexdigest()[:6])
            # (the same change of the same lines twice in a function)
            k = 1
            while any(m["name"] == name + ("" if k == 1 else ".%d" % k) for m in mutants):
                k += 1
            name += "" if k == 1 else ".%d" % k
            mutants.append({"name": name, "todo": todo[edits[0][0] - 1], "op": op, "path": path,
                            "line": edits[0][0], "patch": unified(path, solution, new, name, op)})
    return mutants


def cmd_make(args):
    lab, ksrc, out = args[:3]
    sample = int(args[args.index("--sample") + 1]) if "--sample" in args else None
    seed = int(args[args.index("--seed") + 1]) if "--seed" in args else 1
    mutants = make_all(lab, ksrc)
    student = [m for m in mutants if m["todo"]]
    rest = [m for m in mutants if not m["todo"]]
    chosen = rest if sample is None or sample >= len(rest) else random.Random(seed).sample(rest, sample)
    os.makedirs(os.path.join(out, "patches"), exist_ok=True)
    keep = set()
    with open(os.path.join(out, "list.tsv"), "w") as f:
        f.write("file\tname\ttodo\toperator\tline\n")
        for i, m in enumerate(sorted(student + chosen, key=lambda m: (m["path"], m["line"], m["name"]))):
            file = "m%04d" % (i + 1)
            keep.add(file + ".patch")
            f.write(f"{file}\t{m['name']}\t{m['todo']}\t{m['op']}\t{m['path']}:{m['line']}\n")
            p = os.path.join(out, "patches", file + ".patch")
            # unchanged patches keep their files: the batch's stamps stay good
            if not os.path.exists(p) or open(p).read() != m["patch"]:
                with open(p, "w") as g:
                    g.write(m["patch"])
    for old in os.listdir(os.path.join(out, "patches")):
        if old not in keep:
            os.remove(os.path.join(out, "patches", old))
    with open(os.path.join(out, "population.json"), "w") as f:
        json.dump({"student": len(student), "rest": len(rest), "rest_run": len(chosen),
                   "seed": seed if sample is not None else None}, f)
    print(f"mutants: {lab}: {len(mutants)} mutants of the lab's code: {len(student)} in the "
          f"student-written regions (all run), {len(rest)} elsewhere ({len(chosen)} run"
          f"{f', a random sample, seed {seed}' if len(chosen) < len(rest) else ''}); "
          f"{os.path.join(out, 'patches')}")


def equivalents(path):
    eq = {}
    if os.path.exists(path):
        for n, line in enumerate(open(path), 1):
            if not line.strip() or line.startswith("#"):
                continue
            name, _, reason = line.strip().partition(" ")
            kind, _, why = reason.strip().partition(": ")
            if kind not in ("equivalent", "untestable") or not why.strip():
                sys.exit(f"mutants: {path}:{n}: say 'NAME equivalent: REASON' or 'NAME untestable: REASON'")
            eq[name] = kind
    return eq


def wilson(k, n):
    """The 95 % confidence interval of a proportion k/n (Wilson's)."""
    if n == 0:
        return 0.0, 1.0
    z, p = 1.96, k / n
    mid = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, mid - half), min(1.0, mid + half)


def joblog_times(joblog):
    """The last batch's wall time and lane time, from GNU parallel's joblog."""
    import csv
    try:
        jobs = list(csv.DictReader(open(joblog), delimiter="\t"))
    except OSError:
        return "  (no joblog: no mutant was graded by this run)"
    if not jobs:
        return "  (the last batch graded no mutant: every one was graded before)"
    starts = [float(j["Starttime"]) for j in jobs]
    ends = [float(j["Starttime"]) + float(j["JobRuntime"]) for j in jobs]
    busy = sum(float(j["JobRuntime"]) for j in jobs)
    return (f"  the last batch: {len(jobs)} mutants in {max(ends) - min(starts):.0f} s of wall time, "
            f"{busy:.0f} s in lanes ({busy / len(jobs):.1f} s a mutant)")


def cmd_report(args):
    lab, out, eqfile = args
    eq = equivalents(eqfile)
    rows = {}
    grades = os.path.join(out, "grades", "grades.csv")
    import csv
    for r in csv.DictReader(open(grades)):
        rows[r["name"]] = r
    pop = json.load(open(os.path.join(out, "population.json")))
    tally = {"student": {}, "rest": {}}
    survivors = []
    for line in list(open(os.path.join(out, "list.tsv")))[1:]:
        file, name, todo, op, where = line.rstrip("\n").split("\t")
        r = rows.get(file)
        if r is None or r["score"] == "not graded":
            verdict = "not graded"
        elif re.search(r"does not build|does not compile|does not apply", r["health"]):
            verdict = "did not build"
        elif r["score"] != r["max"]:
            verdict = "killed"
        elif name in eq:
            verdict = eq[name]
        else:
            verdict = "survived"
            survivors.append((file, name, todo, where))
        part = tally["student" if todo != "0" else "rest"]
        part[verdict] = part.get(verdict, 0) + 1
    lines = [f"{lab}: mutants graded ({out}; FAILFAST=1)",
             f"  {'where':<28} {'run':>5} {'killed':>7} {'survived':>9} {'equivalent':>11} "
             f"{'untestable':>11} {'no build':>9} {'not graded':>11} {'score':>7}"]
    for part, label in (("student", "student-written regions"), ("rest", "the rest of the lab's code"),
                        ("all", "the whole patch")):
        t = tally[part] if part != "all" else {
            k: tally["student"].get(k, 0) + tally["rest"].get(k, 0)
            for k in set(tally["student"]) | set(tally["rest"])}
        # untestable mutants are real mistakes that the tests miss: they count against the score
        killed, alive = t.get("killed", 0), t.get("survived", 0)
        missed = alive + t.get("untestable", 0)
        score = f"{100 * killed / (killed + missed):6.1f}%" if killed + missed else "     -"
        lines.append(f"  {label:<28} {sum(t.values()):5} {killed:7} {alive:9} {t.get('equivalent', 0):11} "
                     f"{t.get('untestable', 0):11} {t.get('did not build', 0):9} {t.get('not graded', 0):11} "
                     f"{score:>7}")
    if pop.get("seed") is not None:
        t = tally["rest"]
        k, n = t.get("killed", 0), t.get("killed", 0) + t.get("survived", 0) + t.get("untestable", 0)
        lo, hi = wilson(k, n)
        lines.append(f"  the rest is a random sample ({pop['rest_run']} of {pop['rest']}, seed "
                     f"{pop['seed']}): its score's 95 % interval is {100 * lo:.1f}-{100 * hi:.1f}%")
    lines.append(joblog_times(os.path.join(out, "grades", "joblog")))
    unknown = sorted(set(eq) - {l.split("\t")[1] for l in list(open(os.path.join(out, "list.tsv")))[1:]})
    for name in unknown:
        lines.append(f"  (listed as {eq[name]}, not run here: {name})")
    summary = len(lines)
    for file, name, todo, where in survivors:
        lines.append(f"\nsurvived: {name} ({where}{', TODO ' + todo if todo != '0' else ''}; "
                     f"{os.path.join(out, 'patches', file + '.patch')})")
        patch = open(os.path.join(out, "patches", file + ".patch")).read()
        lines += ["  " + l for l in patch.split("\n---\n", 1)[1].splitlines() if l[:1] in "+-@"]
    text = "\n".join(lines) + "\n"
    with open(os.path.join(out, "report.txt"), "w") as f:
        f.write(text)
    print("\n".join(lines[:summary]))
    print(f"mutants: {len(survivors)} survived; each with its diff in {os.path.join(out, 'report.txt')}")
    return 1 if survivors else 0


def cmd_check(args):
    out, eqfile = args
    if json.load(open(os.path.join(out, "population.json")))["seed"] is not None:
        sys.exit(f"mutants: {out} holds a sample: check needs every mutant (make without --sample)")
    names = {line.split("\t")[1] for line in list(open(os.path.join(out, "list.tsv")))[1:]}
    stale = [n for n in equivalents(eqfile) if n not in names]
    for n in stale:
        print(f"mutants: {eqfile}: {n} is no longer made (the code changed): remove it, "
              "or name the mutant that replaced it")
    return 1 if stale else 0


def cmd_order(args):
    out, eqfile = args[:2]
    seed = int(args[args.index("--seed") + 1]) if "--seed" in args else 1
    eq = equivalents(eqfile)
    rows = [line.rstrip("\n").split("\t") for line in list(open(os.path.join(out, "list.tsv")))[1:]]
    rows = [r for r in rows if r[2] != "0" and r[1] not in eq]
    random.Random(seed).shuffle(rows)
    for r in rows:
        print(f"{os.path.join(out, 'patches', r[0] + '.patch')}\t{r[1]}")


def main():
    cmds = {"make": cmd_make, "report": cmd_report, "check": cmd_check, "order": cmd_order}
    if len(sys.argv) < 2 or sys.argv[1] not in cmds:
        sys.exit(__doc__)
    return cmds[sys.argv[1]](sys.argv[2:]) or 0


if __name__ == "__main__":
    sys.exit(main())
