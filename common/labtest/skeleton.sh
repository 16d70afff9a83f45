# The skeleton builds, boots and scores below full marks.
# timeout: 900
. common/testlib.sh
lab=$1

grade_variant "$lab" skeleton "refs/course/$lab/skeleton"
max=$(cut -f2 "$GRADE_OUT/summary.tsv")
score=$(cut -f1 "$GRADE_OUT/summary.tsv")
! grep -E '^check: .*(does not build|does not compile|could not)' "$GRADE_OUT.txt" ||
	fail "the skeleton of $lab does not build"
[ "$GRADE_RC" -ne 0 ] && [ "$score" -lt "$max" ] || fail "the skeleton of $lab scores $score/$max"
