#!/usr/bin/env python3
"""The kill matrix of a lab: which graded test fails on which planted bug.

    kill_matrix.py show LAB-DIR RUNS-DIR          print the lab's matrix
    kill_matrix.py check LAB-DIR RUNS-DIR         the README's copy is the same
    kill_matrix.py write LAB-DIR RUNS-DIR         put it into the README

RUNS-DIR is where make test keeps its grading runs (build/logs/labtest):
LAB-planted-NAME/ holds one planted bug's run, with tests.conf (the tests
it ran: its Expect-fail and Run lines) and summary.tsv (the tests that
failed).  The README holds the matrix between two marker lines; make test
checks it, so what the lesson shows is what the last runs measured.
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


def planted_runs(lab_dir, runs_dir):
    """[(bug, ran tests, failed tests)] for each LAB/planted/*.patch."""
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
        runs.append((bug, ran, failed))
    return runs


def matrix(lab_dir, runs_dir):
    """The matrix as Markdown: a row per graded test, a column per bug."""
    runs = planted_runs(lab_dir, runs_dir)
    tests = graded_tests(os.path.join(lab_dir, "tests.conf"))
    lines = [
        "| test | " + " | ".join(f"`{bug}`" for bug, _, _ in runs) + " |",
        "| --- |" + " :-: |" * len(runs),
    ]
    for t in tests:
        cells = ["**✗**" if t in failed else ("·" if t in ran else "")
                 for _, ran, failed in runs]
        lines.append(f"| `{t}` | " + " | ".join(cells) + " |")
    lines.append("")
    lines.append("✗: the test failed on that bug (killed it); ·: it ran and passed; "
                 "empty: not run for that bug (each planted run runs only the tests "
                 "its `Expect-fail:` and `Run:` lines name).")
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
    readme = os.path.join(lab_dir, "README.md")
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
                             "measured; 'make kill-matrix' writes theirs.\nmeasured:\n" + want)
            sys.exit(1)
        return
    with open(readme, "w") as f:
        f.write(head + BEGIN + "\n" + want + END + tail)


if __name__ == "__main__":
    main()
