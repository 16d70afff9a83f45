# A lab's committed skeleton.patch and skeleton/ are what common/skel.sh
# makes from solutions/ today.
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
