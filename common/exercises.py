#!/usr/bin/env python3
"""A lab's exercise table: the steps a student takes and what each makes pass.

    exercises.py steps LAB-DIR

The lesson's "Exercises" section has a table with one row per step: the
TODOs of that step (`file.c` 1, 4–6; `prog.c` 1–2), and the graded tests
it makes pass.  Steps add up: after step k, every TODO of steps 1..k is
done.  This prints one line per step,

    STEP <TAB> file.c=1,4,5,6 prog.c=1,2 <TAB> test test ...

with, per file, the TODOs done by then and the tests of that step.  make
test builds each step from the marked solution (todo.awk todos=...) and
grades those tests.
"""
import re
import sys

FILE_TODOS = re.compile(r"`([^`/]+)`\s+([\d,\s–-]+)")
TEST = re.compile(r"`([\w.-]+)`")


def graded_tests(conf):
    names = set()
    for line in open(conf):
        words = line.split()
        if words and not words[0].startswith("#"):
            names.add("kernel-health" if words[0] == "health" else words[1])
    return names


def table(readme):
    """The rows of the first table under the '## Exercises' heading, as dicts."""
    rows, header, state = [], None, "before"
    for line in open(readme):
        if state == "before":
            if line.lower().startswith("## exercises"):
                state = "section"
        elif line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if header is None:
                header = [c.lower() for c in cells]
            elif not set(cells[0]) <= set("-: "):
                rows.append(dict(zip(header, cells)))
            state = "table"
        elif state == "table" or line.startswith("## "):
            break
    return rows


def column(row, word):
    for name, cell in row.items():
        if word in name:
            return cell
    sys.exit(f"exercises: the exercise table has no '{word}' column")


def steps(lab):
    rows = table(f"{lab}/README.md")
    if not rows:
        sys.exit(f"exercises: no table under '## Exercises' in {lab}/README.md")
    known = graded_tests(f"{lab}/tests.conf")
    done = {}
    for row in rows:
        step = row.get("step", "?")
        todos = FILE_TODOS.findall(column(row, "todo"))
        if not todos:
            sys.exit(f"exercises: step {step} names no TODOs (`file.c` 1, 3–5)")
        for name, numbers in todos:
            for part in filter(None, (p.strip() for p in numbers.split(","))):
                first, _, last = part.replace("-", "–").partition("–")
                done.setdefault(name, set()).update(range(int(first), int(last or first) + 1))
        tests = TEST.findall(column(row, "test"))
        unknown = [t for t in tests if t not in known]
        if unknown:
            sys.exit(f"exercises: step {step}: {lab}/tests.conf has no test {' '.join(unknown)}")
        files = " ".join(f"{k}={','.join(map(str, sorted(v)))}" for k, v in done.items())
        print(f"{step}\t{files}\t{' '.join(tests)}")


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] != "steps":
        sys.exit(__doc__)
    steps(sys.argv[2].rstrip("/"))
