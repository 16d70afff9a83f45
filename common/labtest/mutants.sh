# make mutants-labN's ground, without grading: Coccinelle makes mutants of
# the lab's code, some in the student-written regions, each a patch that
# changes one spot of the solution; the list of equivalent mutants names
# only mutants still made (one that names a mutant no longer made fails).
# timeout: 120
. common/testlib.sh
scratch
lab=$1
eq=$lab/mutants-equivalent.txt

python3 common/mutants.py make "$lab" "$KSRC" "$SCRATCH/m" >"$SCRATCH/make" || fail "mutants.py make: $(cat "$SCRATCH/make")"
cat "$SCRATCH/make"
expect_grep "^mutants: $lab: [0-9]+ mutants of the lab's code: [1-9][0-9]* in the student-written regions" "$SCRATCH/make"
n=$(ls "$SCRATCH/m/patches" | wc -l)
[ "$n" -eq $(($(wc -l <"$SCRATCH/m/list.tsv") - 1)) ] || fail "$n patches for $(($(wc -l <"$SCRATCH/m/list.tsv") - 1)) mutants listed"
# each patch changes one file of the lab's, and lines of it only
for p in "$SCRATCH"/m/patches/*.patch; do
	[ "$(grep -c '^diff --git' "$p")" -eq 1 ] || fail "$p changes more than one file"
done
python3 common/mutants.py check "$lab" "$KSRC" "$eq" || fail "$eq names mutants that are no longer made"

# a stale entry is caught
{ cat "$eq" 2>/dev/null; echo "chrootjail.c:nowhere:and-to-or:000000 a mutant of code long gone"; } >"$SCRATCH/eq"
python3 common/mutants.py check "$lab" "$KSRC" "$SCRATCH/eq" >"$SCRATCH/stale" && fail "a stale entry went unnoticed"
expect_grep "^mutants: .*: chrootjail.c:nowhere:and-to-or:000000 is no longer made" "$SCRATCH/stale"
