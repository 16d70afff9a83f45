#!/usr/bin/env python3
"""A lesson's gdb transcript is one that gdb printed.

    transcript.py README TRANSCRIPT

The block of README fenced after the line "<!-- gdb-session -->" is an
excerpt of TRANSCRIPT (common/gdb-session.sh's output): each of its lines
matches a line of the transcript, in order.  "(gdb) CMD" matches the "+CMD"
gdb echoes with trace-commands on; "…" matches anything; leading and
trailing blanks do not count.  Exit 1 names the first line that does not.
"""
import re
import sys

MARK = "<!-- gdb-session -->"


def lesson_block(readme):
    lines, state = [], "before"
    for line in open(readme):
        line = line.rstrip("\n")
        if state == "before" and line.strip() == MARK:
            state = "marked"
        elif state == "marked" and line.startswith("```"):
            state = "inside"
        elif state == "inside":
            if line.startswith("```"):
                return lines
            lines.append(line)
    sys.exit(f"transcript: no block fenced after '{MARK}' in {readme}")


def pattern(line):
    line = line.strip()
    if line.startswith("(gdb) "):
        line = "+" + line[len("(gdb) "):]
    return re.compile("".join(".*" if part == "…" else re.escape(part)
                              for part in re.split("(…)", line)))


def main(readme, transcript):
    seen = [l.replace("\r", "").strip() for l in open(transcript, errors="replace")]
    at = 0
    for number, line in enumerate(lesson_block(readme), 1):
        if not line.strip():
            continue
        want = pattern(line)
        found = next((i for i in range(at, len(seen)) if want.fullmatch(seen[i])), None)
        if found is None:
            sys.exit(f"transcript: the lesson's session line {number}, '{line.strip()}', is not "
                     f"in gdb's transcript after its line {at} ({transcript}); "
                     f"fix the lesson or the session script")
        at = found + 1
    print(f"transcript: the lesson's session matches gdb's ({transcript})")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(*sys.argv[1:])
