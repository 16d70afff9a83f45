#!/usr/bin/env python3
"""The kill matrix of a lab: which graded test fails on which planted bug.

    kill_matrix.py show LAB-DIR RUNS-DIR          print the lab's matrix
    kill_matrix.py check LAB-DIR RUNS-DIR         instructors.md's copy is the same
    kill_matrix.py write LAB-DIR RUNS-DIR         put it into instructors.md

RUNS-DIR is where make test keeps its grading runs (build/logs/labtest):
LAB-planted-NAME/ holds one planted bug's run, with tests.conf (the tests
it ran: its Expect-fail and Run lines) and summary.tsv (the tests that
failed).  LAB-DIR/instructors.md holds the matrix between two marker
lines; make test checks it, so what it shows is what the last runs
measured.
A test a bug's "Run:" line names only triggers it for the health test;
whether the trigger also fails can depend on timing (a lock taken in
softirq deadlocks only when the interrupt lands inside it), so its cell
says "run" and its result is no part of the claim.
"""
import os
import sys

BEGIN = "<!-- kill-matrix: generated from make test's planted runs by 'make kill-matrix' -->"
END = "<!-- end of kill-matrix -->"


def graded_tests(conf):
    """The test names of a tests.conf, in order; the health test last."""
    names, health = [], []
    for line in open(conf):
        words = line.split()
        if not words or words[0].startswith("#"):
            continue
        if words[0] == "health":
            health = ["kernel-health"]
        else:
            names.append(words[1])
    return names + health


def expected_failures(patch):
    """The test names on a planted patch's Expect-fail lines."""
    names = set()
    for line in open(patch):
        if line.startswith("Expect-fail:"):
            names.update(line.split()[1:])
    return names


def planted_runs(lab_dir, runs_dir):
    """[(bug, ran tests, failed tests, expected failures)] per LAB/planted/*.patch."""
    lab = os.path.basename(os.path.normpath(lab_dir))
    planted = os.path.join(lab_dir, "planted")
    runs = []
    for patch in sorted(os.listdir(planted)) if os.path.isdir(planted) else []:
        if not patch.endswith(".patch"):
            continue
        bug = patch[: -len(".patch")]
        out = os.path.join(runs_dir, f"{lab}-planted-{bug}")
        try:
            ran = set(graded_tests(os.path.join(out, "tests.conf")))
            fields = open(os.path.join(out, "summary.tsv")).read().split("\t")
        except OSError as e:
            sys.exit(f"kill-matrix: no run of {lab}'s planted bug {bug} ({e.filename}): "
                     "run make test first")
        failed = set(fields[2].split()) - {"-"}
        if "all" in failed:     # did not apply or build: nothing ran
            failed = ran
        runs.append((bug, ran, failed, expected_failures(os.path.join(planted, patch))))
    return runs


def cell(test, ran, failed, expected):
    """One cell: what the run of one bug measured for one test."""
    if test not in ran:
        return ""
    if test not in expected and test != "kernel-health":
        return "run"
    return "**✗**" if test in failed else "·"


def matrix(lab_dir, runs_dir):
    """The matrix as Markdown: a row per graded test, a column per bug."""
    runs = planted_runs(lab_dir, runs_dir)
    conf = os.path.join(lab_dir, "tests.conf")
    # another lab's tests graded here (BINARY "LAB/NAME"): their kills are in
    # that lab's matrix; a row here only where one of this lab's bugs ran them
    borrowed = {w[1] for w in map(str.split, open(conf)) if len(w) > 1 and "/" in w[0]
                and not w[0].startswith("#")}
    tests = [t for t in graded_tests(conf)
             if t not in borrowed or any(t in run[1] for run in runs)]
    lines = [
        "| test | " + " | ".join(f"`{run[0]}`" for run in runs) + " |",
        "| --- |" + " :-: |" * len(runs),
    ]
    for t in tests:
        cells = [cell(t, ran, failed, expected) for _, ran, failed, expected in runs]
        lines.append(f"| `{t}` | " + " | ".join(cells) + " |")
    lines.append("")
    lines.append("✗: the test failed on that bug (killed it); ·: it ran and passed; "
                 "run: it ran only to trigger the bug for the health test (its `Run:` line), "
                 "and whether it also fails is not claimed; empty: not run for that bug "
                 "(each planted run runs only the tests its `Expect-fail:` and `Run:` "
                 "lines name).")
    return "\n".join(lines) + "\n"


def readme_block(readme):
    text = open(readme).read()
    if BEGIN not in text or END not in text:
        return text, None
    head, rest = text.split(BEGIN, 1)
    block, tail = rest.split(END, 1)
    return text, (head, block.strip("\n") + "\n", tail)


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("show", "check", "write"):
        sys.exit(__doc__.strip().splitlines()[2].strip())
    how, lab_dir, runs_dir = sys.argv[1:]
    readme = os.path.join(lab_dir, "instructors.md")
    want = matrix(lab_dir, runs_dir)
    if how == "show":
        sys.stdout.write(want)
        return
    _, parts = readme_block(readme)
    if parts is None:
        sys.exit(f"kill-matrix: {readme} has no block between '{BEGIN}' and '{END}'")
    head, have, tail = parts
    if how == "check":
        if have != want:
            sys.stdout.write(f"kill-matrix: {readme} shows another matrix than these runs "
                             "measured; 'make kill-matrix' writes theirs.\n")
            old, new = have.splitlines(), want.splitlines()
            for i in range(max(len(old), len(new))):
                a = old[i] if i < len(old) else "(none)"
                b = new[i] if i < len(new) else "(none)"
                if a != b:
                    sys.stdout.write(f"file:     {a}\nmeasured: {b}\n")
            sys.exit(1)
        return
    with open(readme, "w") as f:
        f.write(head + BEGIN + "\n" + want + END + tail)


if __name__ == "__main__":
    main()
