#!/bin/sh
# Student CI: grade this commit's hand-in as the instructor would, and write
# its score table (markdown) for the CI's job summary.  Advisory only: the
# instructor's own run of the hand-in is the grade.
#
#   student-ci.sh [SUMMARY-FILE]
#
# The lab: the branch's name when it names one (lab2, lab02-relay, ...),
# else the highest N with a committed handin/labN.patch.  'make handin-labN'
# writes that file; commit it with 'git add -f handin/labN.patch'.
# Called by .github/workflows/check-lab.yml and .gitlab-ci.yml.
set -u
cd "$(dirname "$0")/.." || exit 2
summary=${1:-/dev/stdout}
branch=${GITHUB_REF_NAME:-${CI_COMMIT_REF_NAME:-$(git rev-parse --abbrev-ref HEAD 2>/dev/null)}}
n=$(echo "$branch" | sed -n 's/^lab0*\([1-9][0-9]*\).*/\1/p')
[ -n "$n" ] || n=$(ls handin/lab*.patch 2>/dev/null | sed -n 's|^handin/lab\([0-9]*\)\.patch$|\1|p' | sort -n | tail -n 1)
if [ -z "$n" ]; then
	# the course's own repository, or a student who has handed in nothing yet
	echo "Nothing to grade: the branch ($branch) names no lab and no handin/labN.patch is committed" \
		"('make handin-labN', then 'git add -f handin/labN.patch')." | tee -a "$summary"
	exit 0
fi
patch=handin/lab$n.patch
lab=$(ls -d "$(printf 'lab%02d' "$n")"-* 2>/dev/null | head -n 1)
[ -n "$lab" ] || { echo "student-ci: this course has no lab $n" >&2; exit 2; }
[ -f "$patch" ] || {
	echo "student-ci: branch $branch is lab $n, but $patch is not committed:" \
		"run 'make handin-lab$n', then 'git add -f $patch' and push" >&2
	exit 2
}

make check-lab"$n" HANDIN="$patch"
rc=$?
results=build/grade/$lab/results.json
python3 - "$results" "$lab" "$patch" >>"$summary" <<'PY'
import json, sys
path, lab, patch = sys.argv[1:]
print(f"### {lab}: {patch}\n")
try:
    r = json.load(open(path))
except OSError:
    print(f"No verdicts ({path} was not written): see the job's log.")
    sys.exit(0)
most = sum(t["max_score"] for t in r["tests"])
print(f"**Score: {r['score']}/{most}** (advisory: the instructor's run is the grade)\n")
print("| test | score | |\n| --- | --: | --- |")
for t in r["tests"]:
    first = next((l for l in t["output"].splitlines() if "Expected" in l or l.strip()), "")
    note = "" if t["status"] == "passed" else first.replace("|", "\\|")[:120]
    print(f"| `{t['name']}` | {t['score']}/{t['max_score']} | {note} |")
PY
exit "$rc"
