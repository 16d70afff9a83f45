# make mutants-labN's ground, without grading: Coccinelle makes mutants of
# the lab's code, some in the student-written regions, each a patch that
# changes one spot of the solution; the list of equivalent mutants names
# only mutants still made (one that names a mutant no longer made fails).
# The mutants stay in $LOGS/labtest/LAB-mutants for the lab's lane, which
# grades a sample of them (mutants-sample.sh).
# timeout: 300
. common/testlib.sh
scratch
lab=$1
eq=$lab/mutants-equivalent.txt
made=$LOGS/labtest/$lab-mutants

rm -rf "$made"
python3 common/mutants.py make "$lab" "$KSRC" "$made" >"$SCRATCH/make" || fail "mutants.py make: $(cat "$SCRATCH/make")"
cat "$SCRATCH/make"
expect_grep "^mutants: $lab: [0-9]+ mutants of the lab's code: [1-9][0-9]* in the student-written regions" "$SCRATCH/make"
n=$(ls "$made/patches" | wc -l)
[ "$n" -eq $(($(wc -l <"$made/list.tsv") - 1)) ] || fail "$n patches for $(($(wc -l <"$made/list.tsv") - 1)) mutants listed"
# each patch changes one file of the lab's, and lines of it only
for p in "$made"/patches/*.patch; do
	[ "$(grep -c '^diff --git' "$p")" -eq 1 ] || fail "$p changes more than one file"
done
python3 common/mutants.py check "$made" "$eq" || fail "$eq names mutants that are no longer made"

# a stale entry is caught
{ cat "$eq" 2>/dev/null; echo "chrootjail.c:nowhere:and-to-or:000000 equivalent: a mutant of code long gone"; } >"$SCRATCH/eq"
python3 common/mutants.py check "$made" "$SCRATCH/eq" >"$SCRATCH/stale" && fail "a stale entry went unnoticed"
expect_grep "^mutants: .*: chrootjail.c:nowhere:and-to-or:000000 is no longer made" "$SCRATCH/stale"
