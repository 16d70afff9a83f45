# make dist for a term at LAB: the labs before LAB released, LAB to start.
# The student repository holds no line of an unreleased solution (each
# unreleased lab's own lines: those its solution has and its skeleton does
# not; a file with three or more of them gives the lab away, as the course's
# own solutions/ folder is shown to), refuses a gap in the released labs or
# a DEST with something in it, and works: in a kernel tree of its own,
# 'make labN' starts LAB at the same skeleton commit as the course's (so
# hand-ins made there apply where the instructor grades), with no solution
# ref made, and 'make check-labN' builds, boots and grades it.
# timeout: 900
. common/testlib.sh
scratch
lab=$1
n=$(echo "$lab" | sed 's/^lab0*\([0-9]*\)-.*/\1/')
before=$(ls -d lab[0-9][0-9]-*/ | tr -d / | sed "/^$lab\$/,\$d")
[ -n "$before" ] || fail "$lab is the first lab: nothing can be released before it"
g() { git -C "$KSRC" "$@"; }

dist=$SCRATCH/dist
make -s dist DEST="$dist" RELEASED="$before" >"$SCRATCH/dist.txt" 2>&1 || fail "make dist: $(cat "$SCRATCH/dist.txt")"
cat "$SCRATCH/dist.txt"
[ -d "$dist/$lab" ] && [ -f "$dist/$lab/skeleton.patch" ] || fail "the dist does not have $lab to start"
for gone in "solutions/$lab" "$lab/planted" .ci common/selftest.mk common/bench; do
	[ ! -e "$dist/$gone" ] || fail "the dist has $gone"
done
# the marking keys and what the tests catch, even of the labs released
for key in solutions/*/rubric.md solutions/*/review.md lab[0-9][0-9]-*/instructors.md; do
	[ -f "$key" ] || continue
	[ ! -e "$dist/$key" ] || fail "the dist has the marking key $key"
	found=1
done
[ -n "${found:-}" ] || fail "no marking key (solutions/*/rubric.md) to look for"
[ -d "$dist/solutions/$(echo "$before" | head -n 1)" ] || fail "the dist lacks the released solution of $(echo "$before" | head -n 1)"

[ "$(cat "$dist/.course-release")" = "$(echo $before)" ] || fail ".course-release: $(cat "$dist/.course-release")"

# own_lines LAB: the unreleased lab's own lines (20 characters or more)
own_lines() {
	for f in $(g diff --name-only "refs/course/$1/base" "refs/course/$1/solution"); do
		g show "refs/course/$1/solution:$f" 2>/dev/null | sed 's/^[[:space:]]*//' |
			awk 'length($0) >= 20' | sort -u >"$SCRATCH/sol"
		g show "refs/course/$1/skeleton:$f" 2>/dev/null | sed 's/^[[:space:]]*//' | sort -u >"$SCRATCH/skel"
		comm -23 "$SCRATCH/sol" "$SCRATCH/skel"
	done | sort -u
}
# leaks DIR LINES: the files of DIR (a git repository) with 3 of LINES or
# more, a diff's lines (+, -, context) counted too
leaks() {
	git -C "$1" ls-files | while read -r f; do
		k=$(sed 's/^[-+]//; s/^[[:space:]]*//' "$1/$f" | grep -c -x -F -f "$2")
		[ "$k" -lt 3 ] || echo "$f ($k lines)"
	done
}
for u in $(ls -d lab[0-9][0-9]-*/ | tr -d / | sed -n "/^$lab\$/,\$p"); do
	own_lines "$u" >"$SCRATCH/own-$u"
	[ -s "$SCRATCH/own-$u" ] || fail "no line of $u's solution to look for"
	found=$(leaks "$dist" "$SCRATCH/own-$u")
	[ -z "$found" ] || fail "the dist gives $u's solution away in: $found"
done
# the same check finds the course's own copy of the solution, its patches too
leaks . "$SCRATCH/own-$lab" | grep -q "^solutions/$lab/.*\.patch " ||
	fail "the leak check does not see the patches in solutions/$lab"

# Refused, nothing written: a gap in the released labs; a DEST in use.
expect_rc 2 sh common/dist.sh "$SCRATCH/gap" "$lab" 2>/dev/null
[ ! -e "$SCRATCH/gap" ] || fail "a refused dist wrote $SCRATCH/gap"
echo "a student's file" >"$SCRATCH/mine"
mkdir "$SCRATCH/used" && cp "$SCRATCH/mine" "$SCRATCH/used/"
expect_rc 2 sh common/dist.sh "$SCRATCH/used" $before 2>/dev/null
cmp -s "$SCRATCH/mine" "$SCRATCH/used/mine" && [ "$(ls -A "$SCRATCH/used")" = mine ] ||
	fail "dist into a folder in use changed it"

# A student at LAB, in a kernel repository of the release's own (a clone
# sharing this one's objects) with a copy of this lane's kernel objects,
# made at the last released solution, so that only what LAB changes is
# built there.
prev=$(echo "$before" | tail -n 1)
sh common/worktree.sh "$KSRC" "$TEST_TREE" "refs/course/$prev/solution" || fail "worktree"
# shellcheck disable=SC2046
sh common/kernel.sh "$TEST_TREE" "$TEST_OBJ" "$SCRATCH" $(lab_kconfig "$prev") >"$SCRATCH/prev.txt" 2>&1 ||
	fail "$prev's solution does not build: $(tail -n 5 "$SCRATCH/prev.txt")"
k=$SCRATCH/k
git clone -q --shared --no-checkout "$KSRC" "$k/linux" || fail "clone"
git -C "$k/linux" checkout -q --detach "$(g rev-parse "refs/course/$prev/solution")" || fail "checkout"
# as made by 'make tree': the tag base, no branch, no lab tag of this tree's
git -C "$k/linux" for-each-ref --format='%(refname)' refs/heads refs/tags | grep -vx refs/tags/base |
	while read -r r; do git -C "$k/linux" update-ref -d "$r"; done
sh common/clone-obj.sh "$TEST_TREE" "$k/linux" || fail "clone-obj"
# (objects inside the tree, as in make test's trees: not a student's change)
echo /obj/ >>"$k/linux/.git/info/exclude"
mkdir -p "$dist/build"
kvars="KSRC=$k/linux KOBJ=$k/linux/obj GEN_TREE=$k/gen"
# the accelerator this machine was found to have, not a second KVM probe
[ ! -s build/accel ] || export ACCEL_CACHE="$PWD/build/accel"
# shellcheck disable=SC2086
make -s -C "$dist" "lab$n" $kvars >"$SCRATCH/lab.txt" 2>&1 || fail "make lab$n in the dist: $(tail -n 5 "$SCRATCH/lab.txt")"
for r in "$prev/solution" "$lab/skeleton"; do
	[ "$(git -C "$k/linux" rev-parse "refs/course/$r")" = "$(g rev-parse "refs/course/$r")" ] ||
		fail "the dist's refs/course/$r is not the course's commit: hand-ins made there would not apply"
done
! git -C "$k/linux" rev-parse -q --verify "refs/course/$lab/solution" >/dev/null ||
	fail "the dist made a ref for $lab's solution"
first=$(awk '!/^#/ && NF && $1 != "health" { sub(/^[^.]*\./, "", $2); print $2; exit }' "$lab/tests.conf")
# shellcheck disable=SC2086
make -s -C "$dist" "check-lab$n" T="$first" $kvars >"$SCRATCH/check.txt" 2>&1
cat "$SCRATCH/check.txt"
expect_grep "^Score: [0-9]+/[0-9]+" "$SCRATCH/check.txt"
! grep -q 'does not build\|does not compile' "$SCRATCH/check.txt" || fail "check-lab$n in the dist did not build"
