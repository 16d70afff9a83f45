# A student's round trip: work committed on the skeleton, 'handin' writes
# the patch, grading it gives full marks.  A patch that does not apply, and
# one that does not build, score 0 with the reason.
# timeout: 900
. common/testlib.sh
scratch
lab=$1
n=$(echo "$lab" | sed 's/^lab0*\([0-9]*\)-.*/\1/')

sh common/worktree.sh "$KSRC" "$TEST_TREE" "refs/course/$lab/skeleton" || fail "worktree"
git -C "$TEST_TREE" checkout -q "refs/course/$lab/solution" -- .
git -C "$TEST_TREE" -c user.name=Student -c user.email=student@localhost \
	commit -q -a -m "$lab: my work" -m "Signed-off-by: Student <student@localhost>"
sh common/lab.sh handin "$TEST_TREE" "$n" "refs/course/$lab/skeleton" "$SCRATCH/handin.patch" ||
	fail "handin failed"
grep -q '^Subject: \[PATCH\] '"$lab"': my work' "$SCRATCH/handin.patch" || fail "handin wrote no patch"
grade_variant "$lab" handin "refs/course/$lab/skeleton" "$SCRATCH/handin.patch"
[ "$GRADE_RC" -eq 0 ] || fail "the handed-in solution does not score full marks"

printf 'this is not a patch\n' >"$SCRATCH/garbage.patch"
grade_variant "$lab" garbage "refs/course/$lab/skeleton" "$SCRATCH/garbage.patch"
[ "$GRADE_RC" -ne 0 ] || fail "a garbage hand-in was accepted"
expect_grep '^grade: the hand-in does not apply' "$GRADE_OUT.txt"
expect_grep '^Score: 0/' "$GRADE_OUT.txt"

sh common/worktree.sh "$KSRC" "$TEST_TREE" "refs/course/$lab/skeleton" || fail "worktree"
f=$(git -C "$TEST_TREE" diff --name-only "refs/course/$lab/base" HEAD -- '*.c' ':!tools' | head -n 1)
echo "this does not compile;" >>"$TEST_TREE/$f"
git -C "$TEST_TREE" -c user.name=Student -c user.email=student@localhost commit -q -a -m broken
git -C "$TEST_TREE" format-patch -q --stdout HEAD~1..HEAD >"$SCRATCH/broken.patch"
grade_variant "$lab" broken "refs/course/$lab/skeleton" "$SCRATCH/broken.patch"
[ "$GRADE_RC" -ne 0 ] || fail "a hand-in that does not build was accepted"
expect_grep '^check: .*: the kernel does not build' "$GRADE_OUT.txt"
expect_grep '^Score: 0/' "$GRADE_OUT.txt"
