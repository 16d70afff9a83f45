# make labN / handin-labN on a small repository: a lab started on one's own
# earlier lab (OWN=1) takes the skeleton by three-way merge; one that
# conflicts is refused and leaves the tree exactly as it was; a hand-in that
# the grader's reference could not take is flagged.
# timeout: 60
. common/testlib.sh
scratch

r=$SCRATCH/repo
g() { git -C "$r" "$@"; }
commit() { g -c user.name=t -c user.email=t@t commit -q -a -m "$1"; }
git init -q -b main "$r"
seq 1 20 | sed 's/^/line /' >"$r/a.c"
g add a.c
commit base
g tag base
# the reference lab 1, and lab 2's skeleton on it (changes line 15)
g checkout -q -b ref
sed -i 's/^line 5$/line 5 reference/' "$r/a.c"
commit "lab 1 reference"
g update-ref refs/course/lab02/base HEAD
sed -i 's/^line 15$/line 15 skeleton TODO 1/' "$r/a.c"
commit "lab 2 skeleton"
g update-ref refs/course/lab02/skeleton HEAD
mkdir "$SCRATCH/lab02"
g format-patch -q --stdout HEAD~1..HEAD >"$SCRATCH/lab02/skeleton.patch"

# lab ARGS...: run lab.sh, its words in $SCRATCH/out and in this log, status in $rc
lab() { sh common/lab.sh "$@" >"$SCRATCH/out" 2>&1; rc=$?; cat "$SCRATCH/out"; }
# snapshot: what must not change when a start is refused
state() { { g rev-parse HEAD; g symbolic-ref -q HEAD; g for-each-ref; g status --porcelain; } >"$1"; }

# 1. Own lab 1 that touches line 13 (the skeleton hunk's context): -3 merges.
g checkout -q -b mine base
sed -i 's/^line 13$/line 13 mine/' "$r/a.c"
commit "my lab 1"
lab start "$r" 2 "$SCRATCH/lab02" HEAD
[ "$rc" -eq 0 ] || fail "lab 2 did not start on my own lab 1"
expect_grep '^lab: lab 2 starts on your own work' "$SCRATCH/out"
expect_line "line 13 mine" "$r/a.c"
expect_line "line 15 skeleton TODO 1" "$r/a.c"
[ "$(g rev-parse lab2-start^)" = "$(g rev-parse mine)" ] || fail "lab2-start is not on my lab 1"

# 2. Lab 2 work there is flagged at hand-in: its context (line 13) is mine.
sed -i 's/^line 15 skeleton TODO 1$/line 15 done/' "$r/a.c"
commit "my lab 2"
lab handin "$r" 2 lab2-start "$SCRATCH/h.patch" refs/course/lab02/skeleton
[ "$rc" -eq 0 ] || fail "handin failed"
expect_grep '^handin: WARNING: the patch does not apply to the reference lab 2 skeleton' "$SCRATCH/out"
# ... and not once the work is moved the way the warning says.
fix=$(sed -n 's/^handin: move your lab 2 work onto it.*: //p' "$SCRATCH/out")
[ -n "$fix" ] || fail "the warning names no way out"
eval "$fix" >/dev/null 2>&1 || fail "the suggested '$fix' failed"
lab handin "$r" 2 lab2-start "$SCRATCH/h.patch" refs/course/lab02/skeleton
[ "$rc" -eq 0 ] || fail "handin failed"
grep -q WARNING "$SCRATCH/out" && fail "a hand-in that applies was flagged: $(cat "$SCRATCH/out")"
expect_grep '^handin: .* \(1 commits since lab2-start\)$' "$SCRATCH/out"
expect_line "line 13" "$r/a.c"
expect_line "line 15 done" "$r/a.c"

# 3. Own lab 1 that changed line 15 itself: refused, nothing changed.
g checkout -q -b mine2 base
g tag -d lab2-start >/dev/null
g branch -q -D lab2
sed -i 's/^line 15$/line 15 mine/' "$r/a.c"
commit "my other lab 1"
state "$SCRATCH/before"
lab start "$r" 2 "$SCRATCH/lab02" HEAD
[ "$rc" -ne 0 ] || fail "a conflicting start succeeded"
expect_grep 'skeleton.patch does not apply on HEAD \(conflicts in: a.c\); nothing was changed\.$' "$SCRATCH/out"
expect_grep 'make lab2 \(without OWN=1\)' "$SCRATCH/out"
state "$SCRATCH/after"
cmp -s "$SCRATCH/before" "$SCRATCH/after" || fail "a refused start changed the tree: $(diff "$SCRATCH/before" "$SCRATCH/after")"
[ ! -d "$r/.git/rebase-apply" ] || fail "a refused start left git am in progress"
