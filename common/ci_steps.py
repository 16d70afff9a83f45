#!/usr/bin/env python3
"""The student CI files, checked and run here, where no CI engine is.

    ci_steps.py check FILE...          each parses as YAML, and every make
                                       target its commands call exists
    ci_steps.py run WORKFLOW DIR       a GitHub workflow's shell steps, in
                                       order, in DIR (the hosted actions,
                                       'uses:' steps, are skipped)

'run' gives the steps the job's env (${{ github.workspace }} is DIR) and
what the runner would set: GITHUB_WORKSPACE, GITHUB_STEP_SUMMARY (a file,
printed at the end) and GITHUB_REF_NAME (from the environment).  apt-get
steps are skipped when not root.  Exit status: the first failing step's.
"""
import os
import re
import subprocess
import sys

import yaml

MAKE_CALL = re.compile(r"(?:^|[;&|(]|\bthen|\bdo)\s*make\s+((?:[A-Za-z][\w.=-]*\s*)+)")


def commands(doc):
    """Every shell command line of a GitHub workflow or a GitLab CI file."""
    for name, job in (doc.get("jobs") or doc).items():
        if not isinstance(job, dict):
            continue
        for step in job.get("steps", []):
            if "run" in step:
                yield from step["run"].splitlines()
        for key in ("before_script", "script", "after_script"):
            for line in job.get(key, []):
                yield line


def make_targets():
    out = subprocess.run(["make", "-pRrq", "-f", "Makefile", ":"], capture_output=True, text=True).stdout
    return {m.group(1) for m in re.finditer(r"^([A-Za-z][\w.-]*):", out, re.M)}


def check(files):
    known, bad = make_targets(), 0
    labs = sorted(d for d in os.listdir(".") if re.match(r"lab\d\d-", d))
    for f in files:
        try:
            doc = yaml.safe_load(open(f))
        except (OSError, yaml.YAMLError) as e:
            print(f"ci: {f}: {e}")
            bad += 1
            continue
        called = set()
        for line in commands(doc):
            for m in MAKE_CALL.finditer(line.strip()):
                called.update(w for w in m.group(1).split() if "=" not in w)
            if "student-ci.sh" in line:
                # it calls make check-labN for the lab a branch is on
                called.update(f"check-lab{int(d[3:5])}" for d in labs)
        missing = sorted(called - known)
        for t in missing:
            print(f"ci: {f} calls 'make {t}', which the Makefile does not have")
        bad += bool(missing)
        print(f"ci: {f}: YAML, make targets: {' '.join(sorted(called)) or 'none'}")
    return 1 if bad else 0


def run(workflow, where):
    doc = yaml.safe_load(open(workflow))
    where = os.path.abspath(where)
    summary = os.path.join(where, ".ci-summary.md")
    open(summary, "w").close()
    rc = 0
    for name, job in doc["jobs"].items():
        env = dict(os.environ, GITHUB_WORKSPACE=where, GITHUB_STEP_SUMMARY=summary, CI="true")
        for k, v in (job.get("env") or {}).items():
            env[k] = str(v).replace("${{ github.workspace }}", where)
        for i, step in enumerate(job.get("steps", []), 1):
            label = step.get("name") or step.get("uses") or step.get("run", "").split("\n")[0]
            if "uses" in step:
                print(f"ci: {name} step {i}: {label}: skipped (a hosted action: {step['uses']})")
                continue
            script = step["run"]
            if "${{" in script:
                print(f"ci: {name} step {i}: a runner expression this driver does not know: {script}")
                return 2
            if script.lstrip().startswith("apt-get") and os.geteuid() != 0:
                print(f"ci: {name} step {i}: {label}: skipped (apt-get, not root)")
                continue
            print(f"ci: {name} step {i}: {label}: {script.strip()}", flush=True)
            rc = subprocess.run(["bash", "-e", "-c", script], cwd=where,
                                env=dict(env, **{k: str(v) for k, v in (step.get("env") or {}).items()})).returncode
            if rc != 0:
                print(f"ci: {name} step {i} failed (exit {rc})")
                break
    print(f"ci: job summary ({summary}):")
    print(open(summary).read(), end="")
    return rc


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "check":
        return check(sys.argv[2:])
    if len(sys.argv) == 4 and sys.argv[1] == "run":
        return run(sys.argv[2], sys.argv[3])
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main())
