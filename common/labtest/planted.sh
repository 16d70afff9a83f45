# Each planted bug (LAB/planted/*.patch, on the solution) fails the tests
# its "Expect-fail:" line names; and every graded test fails on the skeleton
# or on some planted bug: a test that cannot fail grades nothing (another
# lab's tests graded here are shown to by that lab's own runs).  A planted
# bug runs only its Expect-fail tests plus those its "Run:" line names (a
# bug caught by the health test needs some test to trigger it; kmemleak
# scans only when kernel-health is expected to fail).  The lab's
# instructors.md shows the kill matrix these runs measure (common/kill_matrix.py).
# timeout: 1800
. common/testlib.sh
scratch
lab=$1

grade_failures_of() { cut -f3 "$1/summary.tsv" | tr ' ' '\n' | grep -v '^-\{0,1\}$'; }
[ -f "$LOGS/labtest/$lab-skeleton/summary.tsv" ] || fail "run after the skeleton test"
grade_failures_of "$LOGS/labtest/$lab-skeleton" >"$SCRATCH/failed"
for p in "$lab"/planted/*.patch; do
	[ -f "$p" ] || continue
	name=$(basename "$p" .patch)
	only=$(sed -n 's/^\(Expect-fail\|Run\): //p' "$p" | tr '\n' ' ')
	export ONLY_TESTS="$only"
	grade_variant "$lab" "planted-$name" "refs/course/$lab/solution" "$p"
	unset ONLY_TESTS
	grade_failures >>"$SCRATCH/failed"
	for t in $(sed -n 's/^Expect-fail: //p' "$p"); do
		grade_failures | grep -qx -- "$t" || fail "planted bug $name did not fail $t"
	done
	echo "planted $name: failed $(grade_failures | tr '\n' ' ')"
done
# (another lab's tests, graded here too, are shown to fail by that lab's runs)
for t in $(awk '!/^#/ && NF && $1 != "health" && $1 !~ /\// { print $2 }' "$lab/tests.conf") kernel-health; do
	grep -qx -- "$t" "$SCRATCH/failed" || fail "$t passes on the skeleton and on every planted bug"
done
python3 common/kill_matrix.py check "$lab" "$LOGS/labtest" ||
	fail "the kill matrix in $lab/instructors.md is not the one measured"
