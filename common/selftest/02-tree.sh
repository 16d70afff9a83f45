# tree: the course tree is a git repository tagged 'base' holding the
# tarball's kernel; an existing tree is never re-extracted or touched.
# timeout: 60
. common/testlib.sh
scratch

git -C "$KSRC" rev-parse -q --verify refs/tags/base >/dev/null || fail "$KSRC has no tag 'base'"
version=$(make -s -C "$KSRC" kernelversion)
case $version in 6.1.*) echo "tree: Linux $version" ;; *) fail "tree holds Linux '$version', not 6.1.x" ;; esac
git -C "$KSRC" log -1 --format=%s base | grep -q "Linux $version" || fail "base commit does not name $version"

# A tree with work in it (uncommitted file) is left exactly as it is.
git init -q "$SCRATCH/tree"
echo "student work" >"$SCRATCH/tree/mine.c"
git -C "$SCRATCH/tree" -c user.name=t -c user.email=t@t commit -q --allow-empty -m base
git -C "$SCRATCH/tree" tag base
expect_rc 0 sh common/tree.sh "$SCRATCH/tree"
[ "$(cat "$SCRATCH/tree/mine.c")" = "student work" ] || fail "tree.sh changed a student's file"
[ "$(ls "$SCRATCH/tree")" = mine.c ] || fail "tree.sh extracted over an existing tree"

# A folder that is not ours is refused with a reason, and not touched.
mkdir "$SCRATCH/other"
echo keep >"$SCRATCH/other/file"
sh common/tree.sh "$SCRATCH/other" 2>"$SCRATCH/err" && fail "tree.sh accepted a folder without a 'base' tag"
expect_grep 'left alone' "$SCRATCH/err"
[ "$(ls "$SCRATCH/other")" = file ] || fail "tree.sh touched a folder it refused"
