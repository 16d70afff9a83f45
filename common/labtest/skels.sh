# A lab's committed skeleton.patch and skeleton/ are what common/skel.sh
# makes from solutions/ today; its marking key covers every question.
# timeout: 300
. common/testlib.sh
scratch
lab=$1

labs=
for d in lab[0-9][0-9]-*; do
	labs="$labs $d"
	[ "$d" = "$lab" ] && break
done
# shellcheck disable=SC2086
sh common/skel.sh "$KSRC" "$GEN_TREE" "$SCRATCH" $labs >/dev/null || fail "skel.sh failed"
cmp "$SCRATCH/$lab/skeleton.patch" "$lab/skeleton.patch" ||
	fail "$lab/skeleton.patch is stale: run 'make skels' and commit the result"
diff -r "$SCRATCH/$lab/skeleton" "$lab/skeleton" ||
	fail "$lab/skeleton/ is stale: run 'make skels' and commit the result"
grep -c "TODO [0-9]" "$lab/skeleton.patch"
# what a student reads is "TODO n: hint"; "n/m" is todo.awk's line count
! grep -n 'TODO [0-9]*/[0-9]' "$lab/skeleton.patch" || fail "a marker's line count reached $lab's skeleton"
# The marking key: one rubric section, with its points, per question of the
# lesson's section 7, in order, and one for the review of section 8.
rubric=solutions/$lab/rubric.md
[ -f "$rubric" ] || fail "$lab has no marking key: $rubric"
questions=$(awk '/^## 7\. /{ on = 1; next } on && /^## /{ exit } on && /^[0-9]+\. /{ printf "%d ", $1 }' "$lab/README.md")
keyed=$(sed -n 's/^## \([0-9]*\)\. ([1-9][0-9]* points\{0,1\})$/\1/p' "$rubric" | tr '\n' ' ')
[ -n "$questions" ] && [ "$questions" = "$keyed" ] ||
	fail "$rubric keys questions '$keyed'; the lesson asks '$questions' (a '## N. (P points)' line each)"
expect_grep '^## Review \(section 8\) \([1-9][0-9]* points\)$' "$rubric"
