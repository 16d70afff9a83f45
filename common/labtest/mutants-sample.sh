# A fixed sample of the lab's mutants is still killed: the first two that
# build, in a seeded order of the student-written regions' mutants (not
# those listed as equivalent), each graded as make mutants-labN grades it,
# stopping at the first failing test.  A change that weakens a test shows
# here, before a full mutation run (hours) would show it.
# timeout: 900
. common/testlib.sh
scratch
lab=$1

made=$LOGS/labtest/$lab-mutants
[ -f "$made/list.tsv" ] || fail "run after the mutants test (it makes $made)"
python3 common/mutants.py order "$made" "$lab/mutants-equivalent.txt" --seed 1 >"$SCRATCH/order" ||
	fail "mutants.py order failed"
graded=0
while IFS="$(printf '\t')" read -r patch name; do
	CHECK_FAILFAST=1 grade_variant "$lab" mutant "refs/course/$lab/solution" "$patch" >/dev/null
	health=$(cut -f4 "$GRADE_OUT/summary.tsv")
	case $(cut -f3 "$GRADE_OUT/summary.tsv") in
	not-graded) fail "mutant $name was not graded: $health (log: $GRADE_OUT.txt)" ;;
	esac
	case $health in *"does not build"* | *"does not compile"* | *"does not apply"*)
		echo "mutant $name: does not build, the next one"
		continue ;;
	esac
	[ "$GRADE_RC" -ne 0 ] || fail "mutant $name survives every test ($patch; log: $GRADE_OUT.txt)"
	echo "mutant $name: killed by $(grade_failures | head -n 1)"
	graded=$((graded + 1))
	[ "$graded" -lt 2 ] || break
done <"$SCRATCH/order"
[ "$graded" -eq 2 ] || fail "fewer than two of $lab's mutants build"
