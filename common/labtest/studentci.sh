# The student CI files (.github/workflows/check-lab.yml, .gitlab-ci.yml)
# cannot run here, so: both parse as YAML and call only make targets that
# exist; and the GitHub workflow's shell steps, run in order by a driver
# (common/ci_steps.py; the hosted actions skipped) in a student's copy of
# the course with the lab's solution committed as its hand-in, grade it
# (its first test only: T= reaches make through MAKEFLAGS; the hand-in
# test grades in full) at full marks and write the job summary's table (a
# refused hand-in's too, rows at 0).  A branch with no
# hand-in grades nothing and says so; a broken hand-in fails the job.
# timeout: 900
. common/testlib.sh
scratch
lab=$1
n=$(echo "$lab" | sed 's/^lab0*\([0-9]*\)-.*/\1/')

python3 common/ci_steps.py check .github/workflows/check-lab.yml .gitlab-ci.yml ||
	fail "the student CI files"

# A student's copy: the course's files as they are, its build/ shared (the
# grading runs in this lane's test tree, so it is incremental), and the
# solution committed as handin/labN.patch.
repo=$SCRATCH/repo
mkdir -p "$repo"
git ls-files -c -o --exclude-standard | tar cf - -T - | tar xf - -C "$repo"
ln -s "$(realpath build)" "$repo/build"
git -C "$repo" init -q
git -C "$repo" -c user.name=Student -c user.email=student@localhost commit -q --allow-empty -m start
first=$(awk '!/^#/ && NF && $1 != "health" { sub(/^[^.]*\./, "", $2); print $2; exit }' "$lab/tests.conf")
MAKEFLAGS="GRADE_TREE=$(realpath "$TEST_TREE") GRADE_OBJ=$(realpath "$TEST_OBJ") T=$first"
export MAKEFLAGS
# (the grading step alone, for the cases beside the whole job's run)
GITHUB_REF_NAME=main sh "$repo/common/student-ci.sh" "$SCRATCH/none.md" >"$SCRATCH/none.txt" 2>&1 ||
	{ cat "$SCRATCH/none.txt"; fail "a branch with nothing handed in failed the job"; }
expect_grep '^Nothing to grade' "$SCRATCH/none.md"

mkdir -p "$repo/handin"
tree=$(git -C "$KSRC" rev-parse "refs/course/$lab/solution^{tree}")
c=$(git -C "$KSRC" commit-tree "$tree" -p "refs/course/$lab/skeleton" -m "$lab: my work") || fail "no commit"
git -C "$KSRC" format-patch -q --stdout -1 "$c" >"$repo/handin/lab$n.patch"
export GITHUB_REF_NAME=lab$n-work
python3 common/ci_steps.py run .github/workflows/check-lab.yml "$repo" >"$SCRATCH/ci.txt" 2>&1
rc=$?
cat "$SCRATCH/ci.txt"
[ "$rc" -eq 0 ] || fail "the workflow's steps failed on the solution (exit $rc)"
max=$(awk -v t="$first" '!/^#/ && NF && $2 ~ "\\." t "$" { s += $3 } END { print s + 0 }' "$lab/tests.conf")
expect_grep "^ci: check step [0-9]: Compiler cache: skipped \\(a hosted action" "$SCRATCH/ci.txt"
expect_grep "^### $lab: handin/lab$n.patch" "$SCRATCH/ci.txt"
expect_grep "^\\*\\*Score: $max/$max\\*\\*" "$SCRATCH/ci.txt"
expect_grep "^\\| \`[a-z_]*\\.$first\` \\| $max/$max \\|" "$SCRATCH/ci.txt"

# A hand-in that does not apply fails the job, and the table says 0.
echo "this is not a patch" >"$repo/handin/lab$n.patch"
sh "$repo/common/student-ci.sh" "$SCRATCH/bad.md" >"$SCRATCH/bad.txt" 2>&1 &&
	{ cat "$SCRATCH/bad.txt"; fail "a hand-in that does not apply passed the job"; }
all=$(awk '!/^#/ && NF { s += $3 } END { print s + 0 }' "$lab/tests.conf")
expect_grep "^\\*\\*Score: 0/$all\\*\\*" "$SCRATCH/bad.md"
# (the row too: a table that showed each test's maximum as its score would
# pass the solution's case)
expect_grep "^\\| \`[a-z_]*\\.$first\` \\| 0/$max \\|" "$SCRATCH/bad.md"
