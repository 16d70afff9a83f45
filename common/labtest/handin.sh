# A student's round trip: work committed on the skeleton, 'handin' writes
# the patch, grading it gives full marks.  A patch that does not apply, and
# one that does not build, score 0 with the reason; graded as a batch into a
# CSV, whose answers column says whether the lab's answers file was written.
# timeout: 900
. common/testlib.sh
scratch
lab=$1
n=$(echo "$lab" | sed 's/^lab0*\([0-9]*\)-.*/\1/')

sh common/worktree.sh "$KSRC" "$TEST_TREE" "refs/course/$lab/skeleton" || fail "worktree"
git -C "$TEST_TREE" checkout -q "refs/course/$lab/solution" -- .
answers=$(ls "$TEST_TREE"/Documentation/labs/lab*-answers.md) || fail "the skeleton has no answers file"
grep -q '^> 1\. ' "$answers" || fail "$answers does not quote the lesson's first question"
sed -i '0,/^Answer:$/s//Answer: the callback runs before wake_up_new_task()./' "$answers"
git -C "$TEST_TREE" -c user.name=Student -c user.email=student@localhost \
	commit -q -a -m "$lab: my work" -m "Signed-off-by: Student <student@localhost>"
sh common/lab.sh handin "$TEST_TREE" "$n" "refs/course/$lab/skeleton" "$SCRATCH/handin.patch" ||
	fail "handin failed"
grep -q '^Subject: \[PATCH\] '"$lab"': my work' "$SCRATCH/handin.patch" || fail "handin wrote no patch"

printf 'this is not a patch\n' >"$SCRATCH/garbage.patch"

sh common/worktree.sh "$KSRC" "$TEST_TREE" "refs/course/$lab/skeleton" || fail "worktree"
f=$(git -C "$TEST_TREE" diff --name-only "refs/course/$lab/base" HEAD -- '*.c' ':!tools' | head -n 1)
echo "this does not compile;" >>"$TEST_TREE/$f"
git -C "$TEST_TREE" -c user.name=Student -c user.email=student@localhost commit -q -a -m broken
git -C "$TEST_TREE" format-patch -q --stdout HEAD~1..HEAD >"$SCRATCH/broken.patch"

# The three, graded as a batch into a CSV.
mkdir "$SCRATCH/handins"
mv "$SCRATCH/handin.patch" "$SCRATCH/handins/alice.patch"
mv "$SCRATCH/garbage.patch" "$SCRATCH/handins/bob.patch"
mv "$SCRATCH/broken.patch" "$SCRATCH/handins/carol.patch"
out=$LOGS/labtest/$lab-batch
rm -rf "$out"
# shellcheck disable=SC2046
sh common/grade.sh many "$lab" "$KSRC" "$TEST_TREE" "$TEST_OBJ" "$out" "$SCRATCH/handins" \
	$(lab_kconfig "$lab") >"$SCRATCH/progress" || fail "batch grading failed"
cat "$SCRATCH/progress" "$out/grades.csv"
expect_grep '^grade: \[3/3\] carol: 0/[0-9]+ \([0-9]+ s; log: ' "$SCRATCH/progress"
max=$(awk '!/^#/ && NF { s += $3 } END { print s + 0 }' "$lab/tests.conf")
expect_line "alice,$max,$max,\"-\",\"ok\",\"present (1 line)\"" "$out/grades.csv"
expect_grep '^bob,0,[0-9]+,"all","the hand-in does not apply.*","empty"$' "$out/grades.csv"
expect_grep '^carol,0,[0-9]+,"all",".*the kernel does not build.*","empty"$' "$out/grades.csv"
