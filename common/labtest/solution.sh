# The reference solution scores full marks, and is clean for checkpatch
# --strict, sparse and W=1 (in the files the lab adds).  It is graded as
# make profile-labN grades it, timed: the profile has a row for every test
# (with its module unloads, where the lab's tests load modules), kmemleak's
# scans and the boot.
# timeout: 1500
. common/testlib.sh
lab=$1

CHECK_PROFILE=1 grade_variant "$lab" solution "refs/course/$lab/solution"
[ "$GRADE_RC" -eq 0 ] || fail "the solution of $lab does not score full marks"
max=$(cut -f2 "$GRADE_OUT/summary.tsv")
expect_line "Score: $max/$max" "$GRADE_OUT.txt"
python3 common/profile.py "$lab" "$GRADE_OUT" || fail "profile.py failed on the solution's run"
for t in $(awk '!/^#/ && NF && $1 != "health" { print $2 }' "$lab/tests.conf"); do
	expect_grep "^    $t +[0-9]+\.[0-9] +[0-9]+\.[0-9]" "$GRADE_OUT/profile.txt"
done
expect_grep '^    kmemleak \(objects. age wait, two scans\) +[0-9]+\.[0-9] +[0-9]+\.[0-9]' "$GRADE_OUT/profile.txt"
expect_grep '^    boot to the test runner +[0-9]+\.[0-9]' "$GRADE_OUT/profile.txt"
[ ! -f "$lab/tests/Kbuild" ] || expect_grep ' [0-9]+ unloads [0-9]+\.[0-9] s' "$GRADE_OUT/profile.txt"

# the kernel patches, each on its own (a series in one file repeats its
# sign-offs); the exercise programs are user space, checked apart
rm -rf "$GRADE_OUT/patches"
git -C "$KSRC" format-patch -q -o "$(realpath "$GRADE_OUT")/patches" \
	"refs/course/$lab/base..refs/course/$lab/solution" -- . ':!tools/labs'
for patch in "$GRADE_OUT"/patches/*.patch; do
	patch=$(realpath "$patch")
	# /usr/bin first: checkpatch's spdxcheck.py wants Debian's python3 modules
	(cd "$TEST_TREE" && PATH=/usr/bin:$PATH scripts/checkpatch.pl --strict -q --no-signoff "$patch") ||
		fail "checkpatch --strict finds problems in $(basename "$patch")"
done

objs=$(git -C "$KSRC" diff --name-only --diff-filter=A "refs/course/$lab/base" \
	"refs/course/$lab/solution" -- '*.c' ':!tools' | sed 's/\.c$/.o/')
if [ -n "$objs" ]; then
	# shellcheck disable=SC2086
	MAKEFLAGS='' make -C "$TEST_TREE" O="$(realpath "$TEST_OBJ")" C=2 W=1 $objs \
		>"$GRADE_OUT/sparse.log" 2>&1 || fail "C=2 W=1 build of $objs failed"
	cat "$GRADE_OUT/sparse.log"
	! grep -E 'warning:|error:' "$GRADE_OUT/sparse.log" || fail "sparse or W=1 warns about $objs"
fi
