# The lesson's exercise table is true: after each step (its TODOs and the
# earlier steps' done from the marked solution, the later ones left as in
# the skeleton) the tests that step and the earlier ones list pass.  The last step must be the
# whole solution, which the solution test grades in full.  STEPS_MEASURE=1
# grades every test at each step instead and says which pass.
# timeout: 1500
. common/testlib.sh
scratch
lab=$1
marked=refs/course/$lab/marked
sol=refs/course/$lab/solution
export GIT_AUTHOR_NAME=make-test GIT_AUTHOR_EMAIL=make-test@localhost
export GIT_COMMITTER_NAME=make-test GIT_COMMITTER_EMAIL=make-test@localhost
g() { git -C "$KSRC" "$@"; }
gi() { GIT_INDEX_FILE="$SCRATCH/index" git -C "$KSRC" "$@"; }

python3 common/exercises.py steps "$lab" >"$SCRATCH/steps" || fail "the exercise table of $lab/README.md"
files=$(g diff --name-only "refs/course/$lab/base" "$marked")
passing=
while IFS="$(printf '\t')" read -r step done tests; do
	passing="$passing $tests"
	# the tree after this step, as a commit on the solution
	gi read-tree "$sol"
	for f in $files; do
		todos=
		for u in $done; do [ "${u%=*}" = "$(basename "$f")" ] && todos=${u#*=}; done
		blob=$(g show "$marked:$f" | awk -v mode=skeleton -v todos="$todos" -f common/todo.awk |
			g hash-object -w --stdin) || fail "step $step: $f"
		gi update-index --cacheinfo "100644,$blob,$f"
	done
	commit=$(g commit-tree "$(gi write-tree)" -p "$sol" -m "$lab after step $step") || fail "step $step: no commit"
	if g diff --quiet "$sol" "$commit"; then
		last=$step
		continue
	fi
	[ -z "${last:-}" ] || fail "step $last already completes the solution, step $step comes after it"
	if [ -n "${STEPS_MEASURE:-}" ]; then
		# for whoever writes the table: every test, and which pass
		grade_variant "$lab" "step-$step" "$commit" >/dev/null
		grade_failures >"$SCRATCH/failed"
		echo "step $step ($done): passes: $(awk '!/^#/ && NF { print $1 == "health" ? "kernel-health" : $2 }' \
			"$lab/tests.conf" | grep -vxF -f "$SCRATCH/failed" | tr '\n' ' ')"
		continue
	fi
	[ -n "${passing# }" ] || continue
	ONLY_TESTS="$passing" grade_variant "$lab" "step-$step" "$commit" >/dev/null
	[ "$GRADE_RC" -eq 0 ] || fail "after step $step ($done) the lesson says these pass: $passing; failed: $(grade_failures | tr '\n' ' ')(log: $GRADE_OUT.txt)"
	echo "step $step ($done): $(echo "$passing" | wc -w) tests pass"
done <"$SCRATCH/steps"
[ -n "${last:-}" ] || fail "no step of $lab's exercise table completes the solution: a TODO is in no step"
